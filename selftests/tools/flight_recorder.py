#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""flight_recorder.py: what a multi-VM scene needs to explain a stall.

    flight_recorder.py [--rdma] INTERVAL TC DEV [DEV...]

Every INTERVAL seconds until killed, in the current network namespace, one
JSON line: {"t": wall clock, DEV: {...}, ..., "rxe": {...}}. Per DEV, from
one RTM_GETQDISC dump (one process for the whole run: a tc per sample costs
a 1-CPU guest under emulation seconds) the root lossless qdisc's qlen and
backlog and, for traffic class TC, its counters (pfc_rx, pause_us: is the
peer pausing it; pfc_tx_xoff, pfc_tx_xon, ingress_bytes, pausing: is it
pausing the peer; backlog, in, out), and from sysfs the device's packet
and drop counters and each transmit queue's tx_timeout count. With --rdma,
every hw_counter of every rdma device (rxe: retries, sequence errors,
RNR, duplicate requests, completions) and, every fifth sample (a process
of its own), each QP's state and PSNs (rdma resource show qp): a QP whose
send PSN stands still in state RTS while its port is neither paused nor
backlogged has stopped inside the RDMA stack.
The scenes keep the records of a run that fails.
"""
import json
import os
import socket
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qdisc_sampler import attrs, root_lossless, TCA_STATS_QUEUE, TCA_STATS_APP, \
    ST_CLASS, ST_TC  # noqa: E402

# include/uapi/linux/sch_lossless.h: the TCA_LOSSLESS_STATS_* recorded
CLASS_STATS = {9: "pfc_rx", 10: "pause_us", 13: "pfc_tx_xoff", 14: "pfc_tx_xon",
               18: "ingress_bytes", 20: "pausing", 28: "in", 33: "backlog", 34: "out"}
DEV_STATS = ("rx_packets", "tx_packets", "rx_dropped", "tx_dropped")


def number(b):
    """an attribute's unsigned integer, by its length"""
    fmt = {1: "=B", 2: "=H", 4: "=I", 8: "=Q"}.get(len(b))
    return struct.unpack(fmt, b)[0] if fmt else None


def qdiscs(sock, seq, want_tc):
    """{ifindex: {...}} of the root lossless qdiscs"""
    res = {}
    for ifindex, st in root_lossless(sock, seq):
        qlen, backlog = struct.unpack_from("=II", st[TCA_STATS_QUEUE])
        rec = {"qlen": qlen, "qbacklog": backlog}
        for t, nest in attrs(st.get(TCA_STATS_APP, b"")):
            if t != ST_CLASS:
                continue
            c = dict(attrs(nest))
            if ST_TC in c and number(c[ST_TC]) == want_tc:
                for k, name in CLASS_STATS.items():
                    if k in c:
                        rec[name] = number(c[k])
        res[ifindex] = rec
    return res


def read(path):
    try:
        with open(path) as f:
            return int(f.read())
    except (OSError, ValueError):
        return None


def main():
    args = sys.argv[1:]
    rdma = bool(args) and args[0] == "--rdma"
    if rdma:
        args.pop(0)
    interval, want_tc, devs = float(args[0]), int(args[1]), args[2:]
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
    seq = 0
    while True:
        seq += 1
        line = {"t": round(time.time(), 3)}
        q = qdiscs(sock, seq, want_tc)
        for d in devs:
            base = "/sys/class/net/%s" % d
            rec = q.get(read(base + "/ifindex"), {})
            for s in DEV_STATS:
                rec[s] = read("%s/statistics/%s" % (base, s))
            try:
                txq = sorted(x for x in os.listdir(base + "/queues") if x.startswith("tx-"))
            except OSError:
                txq = []
            rec["tx_timeout"] = [read("%s/queues/%s/tx_timeout" % (base, x)) for x in txq]
            line[d] = rec
        if rdma:
            try:
                ibs = sorted(os.listdir("/sys/class/infiniband"))
            except OSError:
                ibs = []
            for ib in ibs:
                hw = "/sys/class/infiniband/%s/ports/1/hw_counters" % ib
                try:
                    line[ib] = {c: read(os.path.join(hw, c)) for c in sorted(os.listdir(hw))}
                except OSError:
                    pass
            if seq % 5 == 1:
                try:
                    line["qp"] = json.loads(subprocess.run(
                        ["rdma", "-j", "resource", "show", "qp"], capture_output=True,
                        text=True, timeout=10).stdout or "[]")
                except (OSError, ValueError, subprocess.TimeoutExpired):
                    line["qp"] = None
        print(json.dumps(line, separators=(",", ":")), flush=True)
        time.sleep(max(0.0, interval - (time.time() - line["t"])))


if __name__ == "__main__":
    main()
