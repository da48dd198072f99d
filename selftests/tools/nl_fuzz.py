#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""nl_fuzz.py: random and boundary netlink requests against a lossless qdisc.

    nl_fuzz.py [--seed N] [--count N] [--check-every N] [--uapi FILE]... DEV

In the current network namespace, DEV has a lossless root qdisc 1:. Sends
COUNT (default 100000) requests built at random from the attributes of
include/uapi/linux/sch_lossless.h and lossless_dcqcn.h (their numbers are
read from the FILEs, by default those two):
qdisc changes (RTM_NEWQDISC without NLM_F_CREATE, so the qdisc is never
replaced), class changes (RTM_NEWTCLASS, classes 1:1 to 1:8, and a few
that do not exist, with NLM_F_CREATE) and DCQCN nests, with valid values, boundaries (0, 1, the
largest, one past), wrong lengths, duplicated and unknown attributes,
missing options and nested garbage. Checks:

- every rejection carries an extack message (NLMSGERR_ATTR_MSG);
- a rejected request changes nothing: the dump of the qdisc and its
  classes (their TCA_OPTIONS) after it is the one before it. Requests
  0, N, 2N... (--check-every N, default 1: every request) and the last
  one are checked: before a checked request, the state is dumped if an
  accepted request has changed it since the last dump; after it, if it
  was rejected, dumped again and compared. A check so covers the
  rejections since the last dump, and with N > 1 a run in a slow kernel
  spends its time on the requests rather than on the dumps.
- after the last request, the dump is the one taken after the last
  accepted request (in the last N requests, an accepted one is dumped at
  once; before them, by the check that follows it).

Prints "nl_fuzz: KEY VALUE" lines (requests, accepted, rejected,
checked: the rejections a check covered, no_extack, changed, the errors
seen by errno) and exits 1 when a check
failed.
"""
import errno
import os
import random
import re
import socket
import struct
import sys

from qdisc_sampler import attrs

NLMSG_ERROR, NLMSG_DONE = 2, 3
NLM_F_REQUEST, NLM_F_ACK, NLM_F_DUMP, NLM_F_CREATE = 0x1, 0x4, 0x300, 0x400
NLM_F_ACK_TLVS = 0x200
RTM_NEWQDISC, RTM_GETQDISC = 36, 38
RTM_NEWTCLASS, RTM_GETTCLASS = 40, 42
TCA_KIND, TCA_OPTIONS = 1, 2
NLA_F_NESTED = 0x8000
SOL_NETLINK, NETLINK_CAP_ACK, NETLINK_EXT_ACK = 270, 10, 11
NLMSGERR_ATTR_MSG = 1
TC_H_ROOT = 0xFFFFFFFF
HANDLE = 0x10000

# The attributes by name: their payload type ("u8", "u16", "u32", "u64",
# "flag", "bin8" and "bin64": arrays of u8, "nest": the DCQCN nest).
QDISC = {
    "BUFFER": "u32", "TRUST": "u8", "PRIO_TC": "bin8", "DSCP_PRIO": "bin64",
    "RATE": "u64", "BURST": "u32", "NORATE": "flag", "PFC": "u8",
    "SPEED": "u64", "CABLE": "u32", "MTU": "u32", "RESPONSE": "u32",
    "PFCWD_DETECT": "u32", "PFCWD_RESTORE": "u32", "PFCWD_ACTION": "u8",
    "PFCWD_LIMIT": "u32", "PFCWD_WINDOW": "u32", "PFCWD_OFF": "u8",
    "UPLINK": "u8", "HOOK_REMAP": "bin8", "DCQCN": "nest",
}
CLASS = {
    "STRICT": "flag", "QUANTUM": "u32", "LIMIT": "u32", "ECN": "u8",
    "KMIN": "u32", "KMAX": "u32", "PMAX": "u32", "XOFF": "u32", "XON": "u32",
    "HEADROOM": "u32",
}
DCQCN = {
    "NP": "u8", "RP": "u8", "CNP_DSCP": "u8", "CNP_PRIO": "u8",
    "CNP_PKEY": "u16", "MIN_TIME_BETWEEN_CNPS": "u32", "AI_RATE": "u64",
    "HAI_RATE": "u64", "MIN_RATE": "u64", "MAX_RATE": "u64",
    "FIRST_CNP_RATE": "u64", "TIME_RESET": "u32", "BYTE_RESET": "u32",
    "THRESHOLD": "u32", "MIN_DEC_FAC": "u32", "GD": "u32", "G": "u32",
    "RTT": "u32", "MONITOR_PERIOD": "u32", "INITIAL_ALPHA": "u32",
    "CLAMP_TGT_RATE": "u8", "CLAMP_TGT_RATE_ATI": "u8", "LINE_RATE": "u64",
}
WIDTH = {"u8": 1, "u16": 2, "u32": 4, "u64": 8, "flag": 0, "bin8": 8, "bin64": 64}
FMT = {"u8": "=B", "u16": "=H", "u32": "=I", "u64": "=Q"}


def uapi_numbers(paths):
    """{prefix: {name: number}} for the three attribute enums of the uAPI."""
    text = "".join(open(path).read() for path in paths)
    res = {}
    for body in re.findall(r"enum\s*{([^}]*)}", text):
        names = re.findall(r"^\s*(TCA_LOSSLESS_\w+)", body, re.M)
        if not names:
            continue
        for prefix in ("TCA_LOSSLESS_DCQCN_", "TCA_LOSSLESS_CLASS_", "TCA_LOSSLESS_"):
            if names[0] == prefix + "UNSPEC":
                res[prefix] = {n[len(prefix):]: i for i, n in enumerate(names)}
                break
    return res


def attr(atype, payload):
    alen = 4 + len(payload)
    return struct.pack("=HH", alen, atype) + payload + b"\0" * ((4 - alen % 4) % 4)


class Fuzzer:
    def __init__(self, rnd, nums):
        self.rnd = rnd
        self.tables = {
            "qdisc": (nums["TCA_LOSSLESS_"], QDISC),
            "class": (nums["TCA_LOSSLESS_CLASS_"], CLASS),
            "dcqcn": (nums["TCA_LOSSLESS_DCQCN_"], DCQCN),
        }

    def number(self, width):
        r = self.rnd
        top = (1 << (8 * width)) - 1
        choices = [0, 1, 2, 7, 8, 63, 64, 100, 1000, 1023, 1024, 1500, 9000, 65535,
                   65536, 1 << 20, 1 << 30, (1 << 30) + 1, 1000000, 10 ** 9,
                   top, top - 1, 1 << (8 * width - 1), r.randrange(0, top + 1),
                   r.randrange(0, 256), r.randrange(0, 1 << 17)]
        return r.choice(choices) & top

    def payload(self, typ):
        r = self.rnd
        if r.random() < 0.05:
            # a wrong length
            n = r.choice([n for n in range(0, 13) if n != WIDTH.get(typ, -1)])
            return bytes(r.randrange(256) for _ in range(n))
        if typ == "flag":
            return b""
        if typ in ("bin8", "bin64"):
            n = WIDTH[typ]
            hi = 8 if r.random() < 0.9 else 256
            return bytes(r.randrange(hi) for _ in range(n))
        if typ == "nest":
            return self.options("dcqcn")
        return struct.pack(FMT[typ], self.number(WIDTH[typ]))

    def options(self, table):
        """the attributes of one TCA_OPTIONS (or DCQCN) nest"""
        r = self.rnd
        nums, types = self.tables[table]
        out = b""
        names = list(types)
        for _ in range(r.choice([0, 1, 1, 1, 2, 2, 3, 4])):
            p = r.random()
            if p < 0.04:
                # unknown or unused attribute types
                out += attr(r.choice([0, len(nums), len(nums) + 1, 100, 0x3fff]),
                            bytes(r.randrange(256) for _ in range(r.randrange(9))))
                continue
            name = r.choice(names)
            a = attr(nums[name], self.payload(types[name]))
            if p < 0.10:
                a += a		# duplicated
            out += a
        if r.random() < 0.02:
            # garbage: a truncated attribute header or random bytes
            out += bytes(r.randrange(256) for _ in range(r.randrange(1, 7)))
        return out

    def request(self, ifindex, seq, dcqcn):
        """(message type, bytes) of one random request"""
        r = self.rnd
        p = r.random()
        flags = NLM_F_REQUEST | NLM_F_ACK
        if p < 0.4:
            kind, parent, handle, table = RTM_NEWTCLASS, 0, HANDLE | r.randrange(1, 9), "class"
            if r.random() < 0.03:
                # a class that does not exist: NLM_F_CREATE, or the core
                # refuses it (ENOENT, without a message) before lossless
                # sees it
                handle = HANDLE | r.choice([0, 9, 0xffff])
                flags |= NLM_F_CREATE
        else:
            kind, parent, handle, table = RTM_NEWQDISC, TC_H_ROOT, HANDLE, "qdisc"
        if table == "qdisc" and dcqcn and p < 0.55:
            nums = self.tables["qdisc"][0]
            opts = attr(nums["DCQCN"] | (NLA_F_NESTED if r.random() < 0.5 else 0),
                        self.options("dcqcn"))
        else:
            opts = self.options(table)
        body = attr(TCA_KIND, b"lossless\0")
        q = r.random()
        if q < 0.97:
            body += attr(TCA_OPTIONS | (NLA_F_NESTED if r.random() < 0.7 else 0), opts)
        elif q < 0.985:
            body += attr(TCA_OPTIONS, bytes(r.randrange(256) for _ in range(r.randrange(1, 40))))
        # else: no options at all
        tcm = struct.pack("=BxxxiIII", 0, ifindex, handle, parent, 0)
        msg = tcm + body
        return kind, struct.pack("=IHHII", 16 + len(msg), kind, flags, seq, 0) + msg


class Netlink:
    def __init__(self):
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
        self.sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.sock.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
        self.seq = 0

    def ack(self, msg):
        """(errno, extack message or None) of a request"""
        self.sock.send(msg)
        while True:
            data = self.sock.recv(1 << 16)
            off = 0
            while off + 16 <= len(data):
                mlen, mtype, flags, seq, _ = struct.unpack_from("=IHHII", data, off)
                if mtype == NLMSG_ERROR and seq == self.seq:
                    err = -struct.unpack_from("=i", data, off + 16)[0]
                    text = None
                    if flags & NLM_F_ACK_TLVS:
                        # NETLINK_CAP_ACK: the request's header only
                        for t, v in attrs(data[off + 36:off + mlen]):
                            if t == NLMSGERR_ATTR_MSG:
                                text = v.rstrip(b"\0").decode(errors="replace")
                    return err, text
                off += (mlen + 3) & ~3

    def dump(self, kind, ifindex):
        """{(parent, handle): TCA_OPTIONS} of ifindex's qdiscs or classes"""
        self.seq += 1
        tcm = struct.pack("=BxxxiIII", 0, ifindex, 0, 0, 0)
        self.sock.send(struct.pack("=IHHII", 16 + len(tcm), kind,
                                   NLM_F_REQUEST | NLM_F_DUMP, self.seq, 0) + tcm)
        res = {}
        while True:
            data = self.sock.recv(1 << 20)
            off = 0
            while off + 16 <= len(data):
                mlen, mtype, _, seq, _ = struct.unpack_from("=IHHII", data, off)
                if mtype in (NLMSG_DONE, NLMSG_ERROR) and seq == self.seq:
                    return res
                if seq == self.seq and mtype in (RTM_NEWQDISC, RTM_NEWTCLASS):
                    _, idx, handle, parent, _ = struct.unpack_from("=BxxxiIII", data, off + 16)
                    if idx == ifindex:
                        a = dict(attrs(data[off + 36:off + mlen]))
                        res[(parent, handle)] = a.get(TCA_OPTIONS, b"")
                off += (mlen + 3) & ~3

    def state(self, ifindex):
        return (self.dump(RTM_GETQDISC, ifindex), self.dump(RTM_GETTCLASS, ifindex))


def main():
    args = sys.argv[1:]
    seed, count, every = random.randrange(1 << 30), 100000, 1
    uapi = []
    while args and args[0].startswith("--"):
        opt = args.pop(0)
        if opt == "--seed":
            seed = int(args.pop(0))
        elif opt == "--count":
            count = int(args.pop(0))
        elif opt == "--check-every":
            every = max(1, int(args.pop(0)))
        elif opt == "--uapi":
            uapi.append(args.pop(0))
    if not uapi:
        top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../include/uapi/linux")
        uapi = [os.path.join(top, h) for h in ("sch_lossless.h", "lossless_dcqcn.h")]
    dev = args[0]
    ifindex = socket.if_nametoindex(dev)
    dcqcn = os.path.exists("/sys/module/dcqcn_cc")
    rnd = random.Random(seed)
    fz = Fuzzer(rnd, uapi_numbers(uapi))
    nl = Netlink()
    expect = nl.state(ifindex)
    known = True    # expect is the state now: no request accepted since
    pending = 0     # rejections since then, which the next check covers
    stats = {"requests": 0, "accepted": 0, "rejected": 0, "checked": 0, "no_extack": 0,
             "changed": 0}
    errors = {}
    bad = []
    print("nl_fuzz: seed %d dcqcn %d" % (seed, dcqcn), flush=True)
    for i in range(count):
        check = i % every == 0 or i == count - 1
        if check and not known:
            expect, known = nl.state(ifindex), True
        nl.seq += 1
        kind, msg = fz.request(ifindex, nl.seq, dcqcn)
        err, text = nl.ack(msg)
        stats["requests"] += 1
        if err == 0:
            stats["accepted"] += 1
            known, pending = False, 0
            if i >= count - every:
                # the tail: the final check's reference
                expect, known = nl.state(ifindex), True
            continue
        stats["rejected"] += 1
        name = errno.errorcode.get(err, str(err))
        errors[name] = errors.get(name, 0) + 1
        if not text:
            stats["no_extack"] += 1
            if len(bad) < 10:
                bad.append("no extack: errno %s for %s" % (name, msg.hex()))
        if not known:
            continue
        pending += 1
        if check:
            stats["checked"] += pending
            now = nl.state(ifindex)
            if now != expect:
                stats["changed"] += 1
                if len(bad) < 10:
                    bad.append("one of the %d rejected requests up to this one changed the "
                               "dump: errno %s, %s for %s" % (pending, name, text, msg.hex()))
                expect = now
            pending = 0
    if nl.state(ifindex) != expect:
        stats["changed"] += 1
        bad.append("the final dump is not the last accepted configuration")
    for k, v in stats.items():
        print("nl_fuzz: %s %d" % (k, v))
    print("nl_fuzz: errors %s" % " ".join("%s:%d" % kv for kv in sorted(errors.items())))
    for b in bad:
        print("nl_fuzz: FAIL %s" % b)
    return 1 if stats["no_extack"] or stats["changed"] else 0


if __name__ == "__main__":
    sys.exit(main())
