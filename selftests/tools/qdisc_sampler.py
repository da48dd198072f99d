#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""qdisc_sampler.py: sample lossless qdiscs over netlink, many times a second.

    qdisc_sampler.py [--wall] [--bytes] [--dcqcn] INTERVAL TC DEV [DEV...]

In the current network namespace, every INTERVAL seconds until killed, dumps
the root qdiscs (RTM_GETQDISC, one netlink request: no tc process per
sample) and prints one line:

    T  BACKLOG_1 INGRESS_1 PAUSING_1 [...]  BACKLOG_2 ...

T in seconds from the start (--wall: the wall clock, seconds since the
epoch); per DEV: the root qdisc's backlog in bytes, and for traffic class
TC the bytes charged to DEV as an ingress port (ingress_bytes) and 1 when
DEV is pausing its peer for that class (pausing), else 0. A DEV without a
lossless root qdisc prints -1s. Options add columns per DEV, in this order:

    --bytes   RX_BYTES TX_BYTES: the device's counters
    --dcqcn   RATE TARGET ALPHA: the DCQCN state of the QP that handled the
              most CNPs on DEV (bit/s, bit/s, 1/1024ths), -1s without one
"""
import socket
import struct
import sys
import time

RTM_NEWQDISC, RTM_GETQDISC = 36, 38
NLMSG_DONE, NLMSG_ERROR = 3, 2
NLM_F_REQUEST, NLM_F_DUMP = 0x1, 0x300
TCA_KIND, TCA_STATS2 = 1, 7
TCA_STATS_QUEUE, TCA_STATS_APP = 3, 4
# include/uapi/linux/sch_lossless.h, enum of TCA_LOSSLESS_STATS_*
ST_CLASS, ST_TC, ST_INGRESS, ST_PAUSING, ST_DCQCN = 1, 2, 18, 20, 27
# include/uapi/linux/lossless_dcqcn.h: TCA_LOSSLESS_DCQCN_STATS_QP and the
# TCA_LOSSLESS_DCQCN_QP_* we read
DC_QP = 9
QP_RATE, QP_TARGET, QP_ALPHA, QP_CNP_HANDLED = 6, 7, 8, 11
TC_H_ROOT = 0xFFFFFFFF


def attrs(buf):
    """(type, payload) of each netlink attribute in buf."""
    off = 0
    while off + 4 <= len(buf):
        alen, atype = struct.unpack_from("=HH", buf, off)
        if alen < 4:
            break
        yield atype & 0x3FFF, buf[off + 4:off + alen]
        off += (alen + 3) & ~3


def lossless_stats(app, want_tc):
    """(ingress_bytes, pausing) of traffic class want_tc in TCA_STATS_APP."""
    for t, nest in attrs(app):
        if t != ST_CLASS:
            continue
        a = dict(attrs(nest))
        if ST_TC in a and struct.unpack("=I", a[ST_TC])[0] == want_tc:
            ingress = struct.unpack("=I", a[ST_INGRESS])[0] if ST_INGRESS in a else -1
            pausing = a[ST_PAUSING][0] if ST_PAUSING in a else -1
            return ingress, pausing
    return -1, -1


def dcqcn_qp(app):
    """(rate, target, alpha) of the QP with the most CNPs handled."""
    best = None
    for t, nest in attrs(app):
        if t != ST_DCQCN:
            continue
        for t2, qp in attrs(nest):
            if t2 != DC_QP:
                continue
            a = dict(attrs(qp))
            if QP_RATE not in a:
                continue
            key = struct.unpack("=Q", a[QP_CNP_HANDLED])[0] if QP_CNP_HANDLED in a else 0
            row = (struct.unpack("=Q", a[QP_RATE])[0],
                   struct.unpack("=Q", a[QP_TARGET])[0] if QP_TARGET in a else -1,
                   struct.unpack("=I", a[QP_ALPHA])[0] if QP_ALPHA in a else -1)
            if best is None or key > best[0]:
                best = (key, row)
    return best[1] if best else (-1, -1, -1)


def dev_bytes(dev):
    """(rx_bytes, tx_bytes) of dev."""
    res = []
    for d in ("rx_bytes", "tx_bytes"):
        with open("/sys/class/net/%s/statistics/%s" % (dev, d)) as f:
            res.append(int(f.read()))
    return tuple(res)


def root_lossless(sock, seq):
    """(ifindex, TCA_STATS2's attributes) of each root lossless qdisc in
    the namespace, from one RTM_GETQDISC dump."""
    req = struct.pack("=BxxxiIII", 0, 0, 0, 0, 0)
    sock.send(struct.pack("=IHHII", 16 + len(req), RTM_GETQDISC,
                          NLM_F_REQUEST | NLM_F_DUMP, seq, 0) + req)
    while True:
        data = sock.recv(1 << 20)
        off = 0
        while off + 16 <= len(data):
            mlen, mtype, _, _, _ = struct.unpack_from("=IHHII", data, off)
            if mtype in (NLMSG_DONE, NLMSG_ERROR):
                return
            if mtype == RTM_NEWQDISC:
                _, ifindex, _, parent, _ = struct.unpack_from("=BxxxiIII", data, off + 16)
                if parent == TC_H_ROOT:
                    a = dict(attrs(data[off + 36:off + mlen]))
                    if a.get(TCA_KIND, b"").rstrip(b"\0") == b"lossless" and TCA_STATS2 in a:
                        yield ifindex, dict(attrs(a[TCA_STATS2]))
            off += (mlen + 3) & ~3


def sample(sock, seq, ifindexes, want_tc, want_dcqcn):
    res = {}
    for ifindex, st in root_lossless(sock, seq):
        if ifindex not in ifindexes:
            continue
        backlog = struct.unpack_from("=II", st[TCA_STATS_QUEUE])[1]
        app = st.get(TCA_STATS_APP, b"")
        res[ifindex] = (backlog,) + lossless_stats(app, want_tc)
        if want_dcqcn:
            res[ifindex] += dcqcn_qp(app)
    return res


def main():
    args = sys.argv[1:]
    opts = set()
    while args and args[0] in ("--wall", "--bytes", "--dcqcn"):
        opts.add(args.pop(0))
    interval, want_tc, devs = float(args[0]), int(args[1]), args[2:]
    ifindexes = [socket.if_nametoindex(d) for d in devs]
    want_dcqcn = "--dcqcn" in opts
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
    clock = time.time if "--wall" in opts else time.monotonic
    t0 = 0 if "--wall" in opts else clock()
    seq = 0
    while True:
        seq += 1
        now = clock()
        res = sample(sock, seq, set(ifindexes), want_tc, want_dcqcn)
        cols = []
        for d, i in zip(devs, ifindexes):
            cols.extend(res.get(i, (-1,) * (6 if want_dcqcn else 3)))
            if "--bytes" in opts:
                cols.extend(dev_bytes(d))
        print("%.3f %s" % (now - t0, " ".join(str(c) for c in cols)), flush=True)
        time.sleep(max(0.0, interval - (clock() - now)))


if __name__ == "__main__":
    main()
