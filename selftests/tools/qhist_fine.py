# SPDX-License-Identifier: GPL-2.0
"""qhist_fine.py: a lossless class's fine queue histogram.

Bucket i < 16 holds the packets that found [256 i, 256 (i + 1)) bytes
queued in their class; from 4 KiB up each octave has eight buckets,
bucket 16 + 8k + j holding [2^(k+12) (8+j)/8, 2^(k+12) (9+j)/8); the last,
112, holds 16 MiB and more (include/uapi/linux/sch_lossless.h,
TC_LOSSLESS_QHIST_FINE_BUCKETS).

iproute2 6.1's tc prints class statistics as text even with -j; the
class's statistics line ends with "qhist_fine LOW:COUNT ...", one pair for
each nonempty bucket, LOW its lower edge in bytes. parse() reads that back
into the 113 counts.
"""
import re

BUCKETS = 113


def log2_bucket(nbytes):
    """The bucket of a backlog of NBYTES in the log2 qhist: [0, 1 KiB),
    then [2^(i+9), 2^(i+10)), the last (15) from 16 MiB up."""
    return 0 if nbytes < 1024 else min(nbytes.bit_length() - 10, 15)


def low(i):
    """The lower edge of bucket I, in bytes."""
    if i < 16:
        return 256 * i
    return (512 << ((i - 16) // 8)) * (8 + (i - 16) % 8)


def bucket(nbytes):
    """The bucket of a backlog of NBYTES."""
    units = nbytes >> 8
    if units < 16:
        return units
    if nbytes >= 16 << 20:
        return BUCKETS - 1
    e = units.bit_length() - 1
    return 16 + (e - 4) * 8 + ((units >> (e - 3)) & 7)


def fold(i):
    """The log2 qhist bucket that fine bucket I lies in."""
    return (i >> 2).bit_length() if i < 16 else 3 + (i - 16) // 8


def parse(text):
    """The 113 counts from `tc -s class show` of one class, or None."""
    m = re.search(r"\bqhist_fine((?: \d+:\d+)*)", text)
    if m is None:
        return None
    edges = {low(i): i for i in range(BUCKETS)}
    hist = [0] * BUCKETS
    for pair in m.group(1).split():
        lo, n = pair.split(":")
        hist[edges[int(lo)]] = int(n)
    return hist
