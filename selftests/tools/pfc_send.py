#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""pfc_send.py: send IEEE 802.1Qbb PFC frames (or broken ones) out of a
device, for tests.

    pfc_send.py DEV [--prio P:QUANTA ...] [--count N] [--interval S]
                    [--kind pfc|pause|short|opcode|reserved|unicast]

--prio 3:65535 pauses priority 3 for 65535 quanta, 3:0 resumes it (XON).
The kinds other than pfc are malformed or not PFC: an 802.3x PAUSE, a
59-byte frame, an unknown opcode, reserved class-enable bits set, and a
PFC frame to a unicast address.
"""
import argparse
import socket
import struct
import time

DEST = bytes.fromhex("0180c2000001")


def frame(src, prios, kind):
    enable = 0
    times = [0] * 8
    for p, q in prios:
        enable |= 1 << p
        times[p] = q
    dest, opcode, vector = DEST, 0x0101, enable
    if kind == "pause":
        return DEST + src + struct.pack("!HHH", 0x8808, 0x0001, 0xffff) + bytes(40)
    if kind == "opcode":
        opcode = 0x0202
    if kind == "reserved":
        vector |= 0x0100
    if kind == "unicast":
        dest = bytes.fromhex("020000000001")
    f = dest + src + struct.pack("!HHH8H", 0x8808, opcode, vector, *times)
    f += bytes(60 - len(f))
    return f[:59] if kind == "short" else f


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dev")
    ap.add_argument("--prio", action="append", default=[])
    ap.add_argument("--count", type=int, default=1)
    ap.add_argument("--interval", type=float, default=0.0)
    ap.add_argument("--kind", default="pfc")
    a = ap.parse_args()
    prios = [tuple(int(x) for x in p.split(":")) for p in a.prio]
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x8808))
    s.bind((a.dev, 0))
    f = frame(s.getsockname()[4], prios, a.kind)
    for i in range(a.count):
        s.send(f)
        if a.interval and i + 1 < a.count:
            time.sleep(a.interval)


if __name__ == "__main__":
    main()
