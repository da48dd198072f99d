#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""drop_points.py: every place between two sockets where a packet can be
dropped, counted in one place.

    drop_points.py [--json] [--since FILE] [NS ...]   (no NS, or "-": this one)

For each network namespace NS it reads

  - every qdisc of every device (`tc -s -j qdisc show`): its drops (a
    lossless qdisc's by reason are in its classes: tools/conservation.py);
  - every device (`ip -s -j link show`): rx and tx dropped, rx overruns (a veth counts what its peer could not take as tx dropped; a
    bridge's drops are its own or its ports');
  - the namespace's IP and UDP counters (/proc/net/snmp and snmp6): IP
    InDiscards, InHdrErrors, InAddrErrors, InUnknownProtos, OutNoRoutes;
    UDP InErrors (which include RcvbufErrors and InCsumErrors, shown apart
    but counted once) and NoPorts, for IPv4 and IPv6;

and, with --since, once for the machine the softnet backlog drops
(/proc/net/softnet_stat, the second column of each CPU: packets that found
a CPU's backlog full; counted since boot for every namespace, they say
something only as a difference).

UDP's SndbufErrors are shown and not counted: a datagram that a local
qdisc drops is counted there and by the qdisc.

Prints one line "drops: POINT COUNT" per point that dropped something and
a last line "drops: TOTAL in all, N points"; with --json, one JSON object
{"points": {POINT: COUNT}, "detail": {...}, "total": TOTAL} instead. With
--since FILE (a --json output of an earlier run) the counts are those
since then. Exits 2 when a namespace cannot be read, else 0: it
attributes, it does not judge.
"""

import json
import subprocess
import sys

IP_FIELDS = ('InDiscards', 'InHdrErrors', 'InAddrErrors', 'InUnknownProtos', 'OutNoRoutes')
UDP_FIELDS = ('InErrors', 'NoPorts')
UDP_DETAIL = ('RcvbufErrors', 'InCsumErrors', 'SndbufErrors')


def run(ns, *cmd):
    pre = ['ip', 'netns', 'exec', ns] if ns and ns != '-' else []
    return subprocess.run(pre + list(cmd), check=True, capture_output=True, text=True).stdout


def snmp(text):
    """{"Ip": {...}, "Udp": {...}, "Udp6": {...}} from /proc/net/snmp and snmp6."""
    out, heads = {}, {}
    for line in text.splitlines():
        f = line.split()
        if not f:
            continue
        if f[0].endswith(':'):                  # snmp: a header line, then values
            proto = f[0][:-1]
            if proto in heads:
                out[proto] = dict(zip(heads.pop(proto), map(int, f[1:])))
            else:
                heads[proto] = f[1:]
        elif len(f) == 2 and f[1].isdigit():    # snmp6: "Udp6InErrors 0"
            for proto in ('Udp6', 'Ip6'):
                if f[0].startswith(proto):
                    out.setdefault(proto, {})[f[0][len(proto):]] = int(f[1])
    return out


def namespace(ns, points, detail):
    where = '' if not ns or ns == '-' else ns + ' '
    for q in json.loads(run(ns, 'tc', '-s', '-j', 'qdisc', 'show') or '[]'):
        points['%s%s qdisc %s %s %s' % (where, q.get('dev'), q.get('kind'), q.get('handle'),
                                        'root' if q.get('root') else q.get('parent'))] = \
            q.get('drops', 0)
    for link in json.loads(run(ns, 'ip', '-s', '-j', 'link', 'show') or '[]'):
        st = link.get('stats64', link.get('stats', {}))
        rx, tx = st.get('rx', {}), st.get('tx', {})
        dev = link.get('ifname')
        points['%s%s rx dropped' % (where, dev)] = rx.get('dropped', 0)
        points['%s%s rx overrun' % (where, dev)] = rx.get('over_errors', 0)
        points['%s%s tx dropped' % (where, dev)] = tx.get('dropped', 0)
    mib = snmp(run(ns, 'cat', '/proc/net/snmp', '/proc/net/snmp6'))
    for proto, fields in (('Ip', IP_FIELDS), ('Ip6', IP_FIELDS),
                          ('Udp', UDP_FIELDS), ('Udp6', UDP_FIELDS)):
        for f in fields:
            points['%s%s %s' % (where, proto, f)] = mib.get(proto, {}).get(f, 0)
    for proto in ('Udp', 'Udp6'):
        for f in UDP_DETAIL:
            detail['%s%s %s' % (where, proto, f)] = mib.get(proto, {}).get(f, 0)


def softnet():
    total = 0
    with open('/proc/net/softnet_stat') as f:
        for line in f:
            total += int(line.split()[1], 16)
    return total


def main():
    args = sys.argv[1:]
    as_json, since = False, None
    while args and args[0].startswith('--'):
        opt = args.pop(0)
        if opt == '--json':
            as_json = True
        elif opt == '--since':
            with open(args.pop(0)) as f:
                since = json.load(f)
    points, detail = {}, {}
    if since or as_json:
        points['softnet backlog'] = softnet()
    try:
        for ns in args or ['-']:
            namespace(ns, points, detail)
    except (subprocess.CalledProcessError, ValueError) as e:
        print('drops: cannot read: %s' % e)
        return 2
    if since:
        for d, old in ((points, since['points']), (detail, since['detail'])):
            for k in d:
                d[k] -= old.get(k, 0)
    total = sum(points.values())
    if as_json:
        print(json.dumps({'points': points, 'detail': detail, 'total': total}))
        return 0
    for k, v in sorted(points.items()):
        if v:
            print('drops: %s %d' % (k, v))
    for k, v in sorted(detail.items()):
        if v:
            print('drops: (%s %d, counted above or by a qdisc)' % (k, v))
    print('drops: %d in all, %d points' % (total, sum(1 for v in points.values() if v)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
