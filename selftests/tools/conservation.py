# SPDX-License-Identifier: GPL-2.0
"""conservation.py: every packet accounted for, on every lossless port.

    conservation.py [NS ...]     (no NS, or "-": the current namespace)

Reads one `tc -s qdisc show` per namespace and, for each device with a
lossless root qdisc, one `tc -s class show` (each qdisc's and each
class's counters are copied under the qdisc's lock, so one port's or one
class's numbers are one instant's) and checks:

  class: in = sent + limit_drops + buffer_drops + ingress_drops
              + wd_dropped + flushed + queued
         dropped = limit_drops + buffer_drops + ingress_drops + wd_dropped
  port:  in = sent + dropped + flushed + queued

"dropped" and "queued" are the kernel's standard counters (the Sent
line's drops and the backlog's packets), kept apart from the qdisc's own
"in" and per-reason counters. "sent" is the qdisc's "out", packets
dequeued: the Sent line counts a GSO packet as its segments, while in,
the drops and the backlog count it once (the Sent line's packets stand in
for "out" when a qdisc has none, as before the counter). Prints one line per port and one per
violation; exits 1 if a count does not add up, 2 if tc could not be read.
"""

import re
import subprocess
import sys

SENT = re.compile(r'Sent (\d+) bytes (\d+) pkt \(dropped (\d+)')
QUEUED = re.compile(r'backlog \S+ (\d+)p')
COUNTERS = ('in', 'limit_drops', 'buffer_drops', 'ingress_drops', 'wd_dropped',
            'flushed')


def tc(ns, *args):
    cmd = ['tc'] + (['-n', ns] if ns and ns != '-' else []) + list(args)
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def counters(block):
    """The standard and the lossless counters of one `tc -s` block."""
    sent = SENT.search(block)
    queued = QUEUED.search(block)
    if not sent or not queued:
        return None
    c = {'sent': int(sent.group(2)), 'dropped': int(sent.group(3)),
         'queued': int(queued.group(1))}
    for name in COUNTERS + ('out',):
        m = re.search(r'(?<![\w])' + name + r' (\d+)', block)
        if m:
            c[name] = int(m.group(1))
    if 'out' in c:
        c['sent'] = c['out']
    return c


def blocks(text, head):
    """The blocks of `tc -s ... show` output that start with HEAD."""
    out, cur = [], None
    for line in text.splitlines():
        if line.startswith(head):
            cur = [line]
            out.append(cur)
        elif line.startswith(('qdisc ', 'class ')):
            cur = None
        elif cur is not None:
            cur.append(line)
    return ['\n'.join(b) for b in out]


def check_port(ns, dev, qdisc):
    """Violations on DEV's lossless root qdisc (its `tc -s` block QDISC)
    and its classes."""
    bad = []
    where = '%s%s' % (ns + ' ' if ns and ns != '-' else '', dev)
    p = counters(qdisc)
    if p is None or 'in' not in p or 'flushed' not in p:
        return ['%s: the qdisc has no in/flushed counters: %s' % (where, qdisc)], 0
    total = p['sent'] + p['dropped'] + p['flushed'] + p['queued']
    if p['in'] != total:
        bad.append('%s port: in %d != sent %d + dropped %d + flushed %d + queued %d'
                   % (where, p['in'], p['sent'], p['dropped'], p['flushed'],
                      p['queued']))
    n = 0
    for b in blocks(tc(ns, '-s', 'class', 'show', 'dev', dev), 'class lossless'):
        cid = b.split()[2]
        c = counters(b)
        if c is None or any(k not in c for k in COUNTERS):
            bad.append('%s class %s: counters missing: %s' % (where, cid, b))
            continue
        n += 1
        drops = sum(c[k] for k in COUNTERS[1:5])
        total = c['sent'] + drops + c['flushed'] + c['queued']
        if c['in'] != total:
            bad.append('%s class %s: in %d != sent %d + drops %d (limit %d buffer %d '
                       'ingress %d watchdog %d) + flushed %d + queued %d'
                       % (where, cid, c['in'], c['sent'], drops, c['limit_drops'],
                          c['buffer_drops'], c['ingress_drops'], c['wd_dropped'],
                          c['flushed'], c['queued']))
        if c['dropped'] != drops:
            bad.append('%s class %s: dropped %d != limit %d + buffer %d + ingress %d '
                       '+ watchdog %d' % (where, cid, c['dropped'], c['limit_drops'],
                                          c['buffer_drops'], c['ingress_drops'],
                                          c['wd_dropped']))
    if n != 8:
        bad.append('%s: %d classes read, not 8' % (where, n))
    return bad, p['in']


def main():
    spaces = sys.argv[1:] or ['-']
    bad, ports = [], 0
    try:
        for ns in spaces:
            for q in blocks(tc(ns, '-s', 'qdisc', 'show'), 'qdisc lossless'):
                f = q.split()
                # qdisc lossless 1: dev D root ...
                if len(f) > 5 and f[3] == 'dev' and f[5] == 'root':
                    v, pkts = check_port(ns, f[4], q)
                    bad += v
                    ports += 1
                    print('conservation: %s %s: %d packets in, %s'
                          % (ns, f[4], pkts, 'every one accounted for' if not v
                             else '%d violations' % len(v)))
    except subprocess.CalledProcessError as e:
        print('conservation: %s failed: %s' % (' '.join(e.cmd), e.stderr.strip()))
        return 2
    for b in bad:
        print('conservation: ' + b)
    print('conservation: %d lossless ports checked' % ports)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
