#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lossless passes traffic on a veth pair and counts it per class.
#
#   +---------------------+        +---------------------+
#   | ns h1               |        | ns h2               |
#   |  v1 192.0.2.1/24 ---+--------+--- v2 192.0.2.2/24   |
#   |  root lossless      |        |                     |
#   +---------------------+        +---------------------+

. "$(dirname "$0")/lib.sh"

ns_create h1 h2
veth_connect "$h1" v1 "$h2" v2
ip -n "$h1" addr add 192.0.2.1/24 dev v1
ip -n "$h2" addr add 192.0.2.2/24 dev v2

scratch_dir
ip netns exec "$h1" tc qdisc add dev v1 root handle 1: lossless
check_err $? "tc qdisc add ... lossless failed"
log_test "qdisc add"

ip netns exec "$h1" ping -c 20 -i 0.01 -W 2 192.0.2.2 >/dev/null
check_err $? "ping through lossless failed"
sent=$(qdisc_stat "$h1" v1 packets)
[ "$sent" -ge 20 ]
check_err $? "qdisc counted $sent packets, expected at least 20"
drops=$(qdisc_stat "$h1" v1 drops)
[ "$drops" -eq 0 ]
check_err $? "qdisc dropped $drops packets"
log_test "traffic passes and is counted"

# Untagged packets of priority 0 are traffic class 0, class 1:1.
c1=$(class_stat "$h1" v1 1:1 packets)
[ "$c1" -ge 20 ]
check_err $? "class 1:1 counted $c1 packets, expected at least 20"
n=$(ip netns exec "$h1" tc class show dev v1 | grep -c "^class lossless 1:")
[ "$n" -eq 8 ]
check_err $? "tc class show lists $n classes, expected 8"
log_test "eight classes, priority 0 in 1:1"

# A reset (the device goes down) throws the queue away: counted as flushed,
# so that in = sent + drops + flushed + queued still holds (lib.sh checks
# it on every lossless port when the test ends).
ip netns exec "$h1" tc qdisc del dev v1 root
ip netns exec "$h1" tc qdisc add dev v1 root handle 1: lossless rate 8kbit burst 2k
check_err $? "tc qdisc add ... rate 8kbit burst 2k failed"
# 100 datagrams (more would wait for the socket's send buffer): about 14
# in the burst, the rest drain in 12 s. The device goes down at once, with
# most of them queued (in a debug kernel under emulation, one tc command
# can take seconds); the statistics read after it are ones a device going
# down leaves alone.
udp_send "$h1" 192.0.2.2 9 100
queued=$(class_stat "$h1" v1 1:1 qlen)
ip -n "$h1" link set v1 down
ip netns exec "$h1" tc -s -j qdisc show dev v1 root > "$out/qdisc.json"
ip netns exec "$h1" tc -s class show dev v1 classid 1:1 > "$out/class.txt"
# The occupancy histogram: every queued datagram (142 bytes on the wire)
# counted once, in the log2 bucket of the backlog it found, up to the
# peak's bucket.
hist=$(python3 -c '
import json, sys
sys.path.insert(0, sys.argv[2])
from qhist_fine import log2_bucket
from tc_json import find
c = [c for c in find(json.load(open(sys.argv[1])), "classes") if c["tc"] == 0][0]
h, peak = c["qhist"], c["peak_backlog"]
top = max(i for i, n in enumerate(h) if n)
# the packet that made the peak found the peak less itself
want = log2_bucket(peak - 142)
print(sum(h), c["in"] - c["limit_drops"] - c["buffer_drops"], top, want,
      " ".join(map(str, h)))
' "$out/qdisc.json" "$TOOLS")
read -r hsum queued_in top want buckets <<< "$hist"
[ "$hsum" -eq "$queued_in" ] && [ "$top" -eq "$want" ] && [ "$top" -ge 3 ]
check_err $? "qhist: $buckets; its sum $hsum, packets queued $queued_in, top bucket $top (the peak's: $want, at least 3)"
log_test "qhist: each of the $hsum queued packets in the bucket of the backlog it found"
# The class's own dump adds the fine histogram (eight buckets to the
# octave): the same packets, each in the fine bucket of the backlog it
# found; summed into log2 buckets, it is qhist. tc prints class
# statistics as text only, so all but the peak come from that text.
fine=$(python3 -c '
import json, re, sys
sys.path.insert(0, sys.argv[3])
import qhist_fine
from tc_json import find
text = open(sys.argv[1]).read()
f = qhist_fine.parse(text) or []
num = lambda k: int(re.search(r"\b%s (\d+)" % k, text).group(1))
h = [int(n) for n in re.search(r"\bqhist((?: \d+){16})", text).group(1).split()]
c = [c for c in find(json.load(open(sys.argv[2])), "classes") if c["tc"] == 0][0]
folded = [0] * 16
for i, n in enumerate(f):
    folded[qhist_fine.fold(i)] += n
top = max([i for i, n in enumerate(f) if n] or [-1])
print(len(f), sum(f), num("in") - num("limit_drops") - num("buffer_drops"),
      int(folded == h), top, qhist_fine.bucket(c["peak_backlog"] - 142))
' "$out/class.txt" "$out/qdisc.json" "$TOOLS")
read -r fn fsum fqueued fold_ok ftop fwant <<< "$fine"
[ "$fn" = 113 ] && [ "$fsum" -eq "$fqueued" ] && [ "$fold_ok" = 1 ] && [ "$ftop" -eq "$fwant" ]
check_err $? "qhist_fine: $fn buckets, sum $fsum, packets queued $fqueued, folds into qhist: $fold_ok, top bucket $ftop (the peak's: $fwant)"
log_test "qhist_fine: the class's $fsum queued packets in eighths of an octave, summing to qhist"
flushed=$(xstat "$h1" v1 0 flushed)
in=$(xstat "$h1" v1 0 in)
sent=$(class_stat "$h1" v1 1:1 packets)
left=$(class_stat "$h1" v1 1:1 qlen)
[ "$queued" -ge 10 ] && [ "$flushed" -ge 10 ] && [ "$flushed" -le "$queued" ] &&
	[ "$left" -eq 0 ] && [ "$in" -eq $((sent + flushed)) ]
check_err $? "100 sent at 8 kbit/s, $queued queued, then down: flushed $flushed, in $in, sent $sent, left $left"
ip -n "$h1" link set v1 up
log_test "device down: the queue's $flushed packets counted as flushed"

ip netns exec "$h1" tc qdisc del dev v1 root
check_err $? "tc qdisc del failed"
ip netns exec "$h1" tc qdisc show dev v1 | grep -q lossless
check_fail $? "lossless still attached after delete"
ip netns exec "$h1" ping -c 1 -W 2 192.0.2.2 >/dev/null
check_err $? "no traffic after the qdisc was deleted"
log_test "qdisc del"

exit $EXIT_STATUS
