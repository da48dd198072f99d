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
RNR, duplicate requests, completions).
The scenes keep the records of a run that fails.
"""
import json
import os
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qdisc_sampler import attrs, RTM_GETQDISC, RTM_NEWQDISC, NLMSG_DONE, NLMSG_ERROR, \
    NLM_F_REQUEST, NLM_F_DUMP, TCA_KIND, TCA_STATS2, TCA_STATS_QUEUE, TCA_STATS_APP, \
    ST_CLASS, ST_TC, TC_H_ROOT  # noqa: E402

# include/uapi/linux/sch_lossless.h: the TCA_LOSSLESS_STATS_* recorded
CLASS_STATS = {9: "pfc_rx", 10: "pause_us", 13: "pfc_tx_xoff", 14: "pfc_tx_xon",
               18: "ingress_bytes", 20: "pausing", 28: "in", 33: "backlog", 34: "out"}
DEV_STATS = ("rx_packets", "tx_packets", "rx_dropped", "tx_dropped")


def number(b):
    return {1: "=B", 2: "=H", 4: "=I", 8: "=Q"}.get(len(b)) and \
        struct.unpack({1: "=B", 2: "=H", 4: "=I", 8: "=Q"}[len(b)], b)[0]


def qdiscs(sock, seq, want_tc):
    """{ifindex: {...}} of the root lossless qdiscs"""
    req = struct.pack("=BxxxiIII", 0, 0, 0, 0, 0)
    sock.send(struct.pack("=IHHII", 16 + len(req), RTM_GETQDISC,
                          NLM_F_REQUEST | NLM_F_DUMP, seq, 0) + req)
    res = {}
    while True:
        data = sock.recv(1 << 20)
        off = 0
        while off + 16 <= len(data):
            mlen, mtype, _, _, _ = struct.unpack_from("=IHHII", data, off)
            if mtype in (NLMSG_DONE, NLMSG_ERROR):
                return res
            if mtype == RTM_NEWQDISC:
                _, ifindex, _, parent, _ = struct.unpack_from("=BxxxiIII", data, off + 16)
                a = dict(attrs(data[off + 36:off + mlen]))
                if parent == TC_H_ROOT and a.get(TCA_KIND, b"").rstrip(b"\0") == b"lossless" \
                        and TCA_STATS2 in a:
                    st = dict(attrs(a[TCA_STATS2]))
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
            off += (mlen + 3) & ~3


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
            for ib in sorted(os.listdir("/sys/class/infiniband")):
                hw = "/sys/class/infiniband/%s/ports/1/hw_counters" % ib
                try:
                    line[ib] = {c: read(os.path.join(hw, c)) for c in sorted(os.listdir(hw))}
                except OSError:
                    pass
        print(json.dumps(line, separators=(",", ":")), flush=True)
        time.sleep(max(0.0, interval - (time.time() - line["t"])))


if __name__ == "__main__":
    main()
