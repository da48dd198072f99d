#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# aiecnd against a real lossless qdisc: it refuses bad options and
# changes nothing; under a saturating flow its search lowers kmax step by
# step within its bounds, each change logged with its reason and read
# back in the class's dump; when the qdisc goes (telemetry lost) and at
# exit it puts the class's static values back.
#
#   ns h1: udpgen -> v1 (lossless rate 20mbit, class 1:1 ecn) -> v2 :ns h2

. "$(dirname "$0")/lib.sh"

AIECND=$LOSSLESS_TOP/tools/aiecn/aiecnd
[ -x "$AIECND" ] || skip "tools/aiecn/aiecnd is not built (make)"
require_tools udpgen
scratch_dir

ns_create h1 h2
veth_connect "$h1" v1 "$h2" v2
ip -n "$h1" addr add 192.0.2.1/24 dev v1
ip -n "$h2" addr add 192.0.2.2/24 dev v2
ip netns exec "$h1" ping -c 1 -W 2 192.0.2.2 > /dev/null

qdisc() {
	ip netns exec "$h1" tc qdisc replace dev v1 root handle 1: lossless rate 20mbit burst 16k &&
		ip netns exec "$h1" tc class change dev v1 classid 1:1 lossless \
			ecn kmin 50k kmax 200k pmax 10 xoff 512k xon 256k
}
qdisc
check_err $? "lossless with class 1:1 ecn kmin 50k kmax 200k pmax 10 failed"

# ecn_of: "KMIN KMAX" of class 1:1 in bytes, from the class's dump
ecn_of() {
	ip netns exec "$h1" tc -s class show dev v1 classid 1:1 |
		python3 -c '
import re, sys
t = sys.stdin.read()
def size(s):
    m = re.match(r"([0-9.]+)([KMG]?)b", s)
    return int(float(m.group(1)) * {"": 1, "K": 1024, "M": 1 << 20, "G": 1 << 30}[m.group(2)])
k = re.search(r"kmin (\S+) kmax (\S+)", t)
print(size(k.group(1)), size(k.group(2)) if k else "-1 -1")'
}
before=$(ecn_of)
[ "$before" = "51200 204800" ]
check_err $? "class 1:1 reads '$before', expected 51200 204800"
log_test "class 1:1 set to kmin 50k kmax 200k"

for bad in "--class 9" "--class 0 --interval 0" "--class 0 --kmax-lo 1m" \
	   "--class 0 --mode magic" "--class 0 --allowance 600k"; do
	# shellcheck disable=SC2086
	ip netns exec "$h1" "$AIECND" --dev v1 $bad --duration 1 > "$out/bad.log" 2>&1
	rc=$?
	[ $rc -eq 2 ] && [ -s "$out/bad.log" ]
	check_err $? "aiecnd $bad: status $rc, said '$(head -n 1 "$out/bad.log")'"
	opt=${bad##*--}
	opt=${opt%% *}
	grep -q -- "$opt" "$out/bad.log"
	check_err $? "aiecnd $bad: the message does not name --$opt: $(head -n 1 "$out/bad.log")"
done
[ "$(ecn_of)" = "$before" ]
check_err $? "a refused start changed class 1:1 to $(ecn_of)"
log_test "bad options: status 2, the option named, nothing changed"

# 30 Mbit/s of ECT(0) datagrams into the 20 Mbit/s port: the queue fills
# and the class is fully used, so the search lowers kmax each window.
ip netns exec "$h1" "$TOOLS/udpgen" --dst 192.0.2.2 --port 5001 --size 1000 \
	--rate 30M --tos 0x02 --duration 30 > /dev/null &
gen=$!
CLEANUP_HOOKS+=("kill $gen 2>/dev/null")
ip netns exec "$h1" "$AIECND" --dev v1 --class 0 --mode heuristic --interval 100 \
	--kmax-lo 32k --log "$out/aiecnd.log" --features "$out/features" --samples "$out/samples" \
	> "$out/aiecnd.out" 2>&1 &
daemon=$!
CLEANUP_HOOKS+=("kill $daemon 2>/dev/null")
sleep 12
# last_change: the last change the log shows
last_change() {
	grep -oE -- '-> kmin [0-9]+ kmax [0-9]+' "$out/aiecnd.log" | tail -n 1
}
# The class and the log, read while no change falls between them: the
# daemon logs a change right after the kernel took it, and may make one
# while this reads; a few tries
for try in 1 2 3 4 5; do
	last=$(last_change)
	during=$(ecn_of)
	[ "$(last_change)" = "$last" ] && break
done
read -r kmin kmax <<< "$during"
lowered=$(grep -c 'lowering' "$out/aiecnd.log")
[ "$kmax" -lt 204800 ] && [ "$kmax" -ge 32768 ] && [ "$kmin" -le "$kmax" ] && [ "$lowered" -ge 2 ]
check_err $? "after 12 s: class 1:1 at '$during', $lowered lowerings logged: $(tail -n 3 "$out/aiecnd.log")"
# the last change logged is what the class holds
[ "$last" = "-> kmin $kmin kmax $kmax" ]
check_err $? "the log's last change '$last' is not the class's '$during'"
log_test "under a saturating flow kmax went down ($lowered steps, to $kmax) within its bounds, each change logged"
sed -n '1,3p;$p' "$out/aiecnd.log" | sed 's/^/# /'

# The qdisc goes and comes back without ecn: aiecnd finds the telemetry
# lost and, once it is back, puts the static values into the new class.
ip netns exec "$h1" tc qdisc del dev v1 root
sleep 2
qdisc
sleep 3
grep -q 'telemetry lost' "$out/aiecnd.log"
check_err $? "no 'telemetry lost' in the log: $(tail -n 3 "$out/aiecnd.log")"
log_test "the qdisc deleted: aiecnd says the telemetry is lost"

kill -TERM "$daemon"
wait "$daemon"
rc=$?
after=$(ecn_of)
[ $rc -eq 0 ] && [ "$after" = "$before" ]
check_err $? "after SIGTERM: status $rc, class 1:1 at '$after', expected '$before': $(tail -n 3 "$out/aiecnd.log")"
log_test "SIGTERM: static values back ($after), status 0"

# the samples recorded, replayed, make the features aiecnd recorded: the
# same windows (started again when the telemetry was lost) and values
"$LOSSLESS_TOP/tools/aiecn/aiecn_replay" "$out/samples" > "$out/replayed"
check_err $? "aiecn_replay failed on the recorded samples"
grep -v '^#' "$out/features" > "$out/features.lines"
grep -v '^#' "$out/replayed" > "$out/replayed.lines"
windows=$(wc -l < "$out/features.lines")
diff "$out/features.lines" "$out/replayed.lines" > "$out/diff"
check_err $? "replayed features differ from the recorded ones: $(head -n 4 "$out/diff")"
[ "$windows" -ge 5 ] && grep -q '^# .*: a new window' "$out/samples"
check_err $? "$windows windows recorded, or no new window after the telemetry loss"
log_test "aiecn_replay of the recorded samples gives aiecnd's $windows feature lines"
kill "$gen" 2>/dev/null
wait "$gen" 2>/dev/null

exit $EXIT_STATUS
