# SPDX-License-Identifier: GPL-2.0
"""RoCEv2 as the tests check it, written from the specifications and
independent of the kernel code: the Internet checksum (RFC 1071) and the
invariant CRC of a RoCEv2 packet (InfiniBand Architecture Specification
vol. 1, 7.8.1; RoCEv2 annex A17)."""
import struct
import zlib


def csum(b):
    """The ones' complement sum of b, complemented (0 when b holds a
    right checksum)."""
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def icrc(ip):
    """The ICRC the RoCEv2 packet ip (IPv4 or IPv6, from its IP header to
    the end of its ICRC field) must carry: CRC-32 of eight bytes of ones
    (the masked LRH) and the packet with what a router may change set to
    ones (IPv4: TOS, TTL, header checksum; IPv6: traffic class, flow label,
    hop limit; both: the UDP checksum and the BTH's resv8a byte), up to the
    ICRC. The packet's own length fields say where it ends."""
    if ip[0] >> 4 == 6:
        hl = 40
        end = 40 + struct.unpack("!H", ip[4:6])[0]
    else:
        hl = (ip[0] & 0xf) * 4
        end = struct.unpack("!H", ip[2:4])[0]
    m = bytearray(ip[:hl + 8 + 12])
    if ip[0] >> 4 == 6:
        m[0] |= 0x0f
        m[1] = m[2] = m[3] = m[7] = 0xff
    else:
        m[1] = m[8] = m[10] = m[11] = 0xff
    m[hl + 6] = m[hl + 7] = m[hl + 8 + 4] = 0xff
    return zlib.crc32(b"\xff" * 8 + bytes(m) + bytes(ip[hl + 20:end - 4]))


def icrc_ok(ip):
    """Whether the ICRC at the end of the RoCEv2 packet ip is right."""
    end = (40 + struct.unpack("!H", ip[4:6])[0]) if ip[0] >> 4 == 6 \
        else struct.unpack("!H", ip[2:4])[0]
    return len(ip) >= end and struct.unpack("<I", bytes(ip[end - 4:end]))[0] == icrc(ip)
