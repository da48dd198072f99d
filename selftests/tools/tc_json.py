# SPDX-License-Identifier: GPL-2.0
"""tc_json.py: finding things in `tc -j` output, wherever tc put them.

tc nests a qdisc's options and statistics differently from version to
version (options, xstats, the top level); the tools look a key up
anywhere rather than at one path.
"""


def owner(o, key):
    """The first object, depth first, that has KEY, or None."""
    if isinstance(o, dict):
        if key in o:
            return o
        o = list(o.values())
    if isinstance(o, list):
        for v in o:
            r = owner(v, key)
            if r is not None:
                return r
    return None


def find(o, key):
    """The first value of KEY, or None."""
    r = owner(o, key)
    return None if r is None else r[key]
