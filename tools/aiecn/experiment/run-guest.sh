#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-guest.sh: the adaptive ECN experiment, inside the VM (as root, with
# the project's modules loaded; scripts/aiecn-experiment boots it).
#
#   run-guest.sh OUTDIR [SCENARIO...]          the comparison
#   run-guest.sh --sweep OUTDIR [SCENARIO...]  the training data
#
# The fabric of the PFC selftests (selftests/lib.sh): eight senders, a
# software switch (a bridge, lossless on every port, PFC on priority 3)
# and a receiver behind the switch's port prx, shaped to $RATE: the
# bottleneck, whose class 1:4 marks ECN (the DCQCN congestion point).
# The senders are TCP DCTCP flows with DSCP 24 (priority 3): an
# ECN-reactive sender that the VM runs at a usable speed, standing in for
# DCQCN (which needs one VM per soft-RoCE endpoint); both cut their rate
# in proportion to the fraction of marked packets.
#
# Scenarios (tcpgen, selftests/tools):
#   long    2 senders x 2 long flows
#   incast  8 senders, each a 48 KiB flow every 200 ms, all in phase (77%
#           of the bottleneck on average, in bursts)
#   mixed   2 senders x 1 long flow, and 6 senders of the incast
#
# Settings of the bottleneck class's marking:
#   low      static kmin $LOW_KMIN kmax $LOW_KMAX pmax $PMAX%
#   high     static kmin $HIGH_KMIN kmax $HIGH_KMAX pmax $PMAX%
#   aiecnd   aiecnd (auto mode, the model in tools/aiecn/model/aiecn.model)
#            started from the high setting
# aiecnd runs in every run: for low and high in --mode static, reading
# the same telemetry at the same interval and changing nothing. Here the
# switch, the senders and the daemon share the VM's two emulated CPUs, so
# the reading costs the data path (on a switch it is the control CPU's
# work); so it costs all three settings alike, and each run's results
# line says how much CPU time aiecnd took (aiecnd_cpu_ms).
#
# Each run lasts $DURATION s (REPEAT runs of each setting, interleaved); the measures are taken over the last
# $MEASURE s of it (measure.py): throughput, p99 queueing delay, XOFF
# frames. One line per run into OUTDIR/results.txt; aiecnd's log into
# OUTDIR/aiecnd-SCENARIO.log, the features of every 2 s window (aiecnd
# --features, whatever the setting) into OUTDIR/features-SCENARIO-SETTING.dat
# and every sample they came from (--samples) into
# OUTDIR/samples-SCENARIO-SETTING.dat (the sweep: features-SCENARIO.dat and
# samples-SCENARIO.dat).
#
# --sweep runs every scenario under the settings of $SWEEP (kmax values;
# kmin kmax/4) with aiecnd in static mode recording the model's features
# (--features): OUTDIR/features-SCENARIO.dat and one results line per run,
# from which train.py picks each scenario's thresholds and fits the model.

top=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=../../../selftests/lib.sh
. "$top/selftests/lib.sh"
require_tools tcpgen
AIECND=$top/tools/aiecn/aiecnd
EXP=$top/tools/aiecn/experiment

sweep=0
if [ "${1:-}" = --sweep ]; then
	sweep=1
	shift
fi
OUT=${1:?usage: run-guest.sh [--sweep] OUTDIR [SCENARIO...]}
shift
SCENARIOS=${*:-long incast mixed}
mkdir -p "$OUT"

RATE=${RATE:-20mbit}
RATE_BPS=${RATE_BPS:-20000000}
DURATION=${DURATION:-24}
MEASURE=${MEASURE:-16}
PMAX=${PMAX:-20}
REPEAT=${REPEAT:-1}
LOW_KMIN=${LOW_KMIN:-2k}
LOW_KMAX=${LOW_KMAX:-8k}
HIGH_KMIN=${HIGH_KMIN:-32k}
HIGH_KMAX=${HIGH_KMAX:-128k}
MODEL=${MODEL:-$top/tools/aiecn/model/aiecn.model}
SWEEP=${SWEEP:-4k 8k 16k 32k 64k 128k}
# the switch's ingress accounting per sender; aiecnd keeps kmax below
# xoff minus the CNP-loop allowance of the bottleneck class
CLASS_OPTS="xoff 256k xon 192k"
AIECND_OPTS=${AIECND_OPTS:---kmax-lo 4k --kmax-hi 160k --allowance 64k}
N=8
PORT=5201
INCAST_SIZE=${INCAST_SIZE:-49152}
if [ -f "$MODEL" ]; then
	AIECND_MODE="--mode model --model $MODEL"
else
	echo "run-guest: no model at $MODEL: aiecnd runs in heuristic mode"
	AIECND_MODE="--mode heuristic"
fi

scratch_dir
modprobe tcp_dctcp 2>/dev/null
# a namespace may only pick a congestion control the host allows
sysctl -qw net.ipv4.tcp_allowed_congestion_control="$(sysctl -n \
	net.ipv4.tcp_allowed_congestion_control) dctcp"
fabric $N || { echo "run-guest: cannot build the fabric" >&2; exit 1; }
for ns in "$rx" $(for i in $(seq $N); do fabric_ns "$i"; done); do
	# no TCP metrics carried from one run's connections to the next's
	# (ssthresh and RTT learnt under another setting)
	ip netns exec "$ns" sysctl -qw net.ipv4.tcp_congestion_control=dctcp \
		net.ipv4.tcp_ecn=1 net.ipv4.tcp_no_metrics_save=1 ||
		{ echo "run-guest: no DCTCP in this kernel" >&2; exit 1; }
done
ip -n "$rx" route add 192.0.2.0/24 dev eth0 2>/dev/null
for i in $(seq $N); do
	ip -n "$rx" neigh replace "192.0.2.$i" lladdr "$(link_mac "$(fabric_ns "$i")" eth0)" \
		dev eth0
done

# senders SCENARIO: start the scenario's tcpgen senders in the background
senders() {
	local i ns
	for i in $(seq $N); do
		ns=$(fabric_ns "$i")
		case "$1:$i" in
		long:[12])
			args=(--flows 2) ;;
		mixed:[12])
			args=(--flows 1) ;;
		incast:* | mixed:*)
			args=(--flows 1 --size "$INCAST_SIZE" --every 200) ;;
		*)
			continue ;;
		esac
		ip netns exec "$ns" "$TOOLS/tcpgen" send --dst 192.0.2.100 --port $PORT \
			--tos 0x60 --cc dctcp --duration "$DURATION" "${args[@]}" \
			> "$out/tx$i.json" &
		SENDERS+=($!)
	done
}

# ecn KMIN KMAX: the bottleneck class's marking
ecn() {
	tc -n "$sw" class change dev prx classid 1:4 lossless ecn kmin "$1" kmax "$2" \
		pmax "$PMAX"
}

# run SCENARIO SETTING [KMAX]: one run; its line appended to results.txt
run() {
	local scen=$1 set=$2 kmax=${3:-} aie m fct cpu
	SENDERS=()
	fabric_qdiscs "trust dscp pfc 3 speed 100mbit response 20ms" "" \
		"trust dscp pfc 3 rate 100mbit" "$CLASS_OPTS" || return 1
	# the bottleneck's speed is its shaper's rate (what aiecnd counts
	# utilisation against); the other ports' is the senders' 100 Mbit/s
	tc -n "$sw" qdisc replace dev prx root handle 1: lossless trust dscp pfc 3 \
		response 20ms rate "$RATE" buffer 4m || return 1
	tc -n "$sw" class change dev prx classid 1:4 lossless $CLASS_OPTS || return 1
	case $set in
	low) ecn "$LOW_KMIN" "$LOW_KMAX" ;;
	high | aiecnd) ecn "$HIGH_KMIN" "$HIGH_KMAX" ;;
	sweep) ecn "$(( ${kmax%k} / 4 ))k" "$kmax" ;;
	esac || return 1
	ip netns exec "$rx" "$TOOLS/tcpgen" sink --port $PORT --cc dctcp > "$out/rx.json" &
	local sink=$!
	sleep 0.5
	# aiecnd tunes in its own setting; in the others it only reads. In
	# every run it records the model's features: the sweep's are the
	# training data, a comparison's can be added to them
	local aie_args=(--mode static --log /dev/null) tag=$scen-$set
	case $set in
	aiecnd)
		# shellcheck disable=SC2206 # options, split on purpose
		aie_args=($AIECND_MODE $AIECND_OPTS --log "$OUT/aiecnd-$scen.log") ;;
	sweep)
		tag=$scen ;;
	esac
	aie_args+=(--features "$OUT/features-$tag.dat" --samples "$OUT/samples-$tag.dat")
	ip netns exec "$sw" "$AIECND" --dev prx --class 3 --interval 100 "${aie_args[@]}" &
	aie=$!
	senders "$scen"
	sleep $((DURATION - MEASURE - 1))
	python3 "$EXP/snap.py" "$sw" 3 prx $(seq -f "p%g" $N) > "$out/a.json"
	sleep "$MEASURE"
	python3 "$EXP/snap.py" "$sw" 3 prx $(seq -f "p%g" $N) > "$out/b.json"
	wait "${SENDERS[@]}"
	# its CPU time (utime + stime, in clock ticks), then stop it
	cpu=$(awk -v hz="$(getconf CLK_TCK)" '{ printf "%d", ($14 + $15) * 1000 / hz }' \
		"/proc/$aie/stat" 2>/dev/null)
	kill "$aie" && wait "$aie"
	kill "$sink"
	wait "$sink"
	m=$(python3 "$EXP/measure.py" "$out/a.json" "$out/b.json" "$RATE_BPS" prx \
		$(seq -f "p%g" $N))
	fct=$(python3 - "$out" <<'PY'
import glob, json, sys
f = [json.load(open(p)) for p in glob.glob(sys.argv[1] + "/tx*.json")]
short = [x for x in f if x["flows"] > 4]
print("flows=%d fct_p99_ms=%.1f errors=%d" % (
    sum(x["flows"] for x in f), max([x["fct_ms"]["p99"] for x in short] or [0]),
    sum(x["errors"] for x in f)))
PY
)
	rm -f "$out"/tx*.json
	echo "scenario=$scen setting=$set${kmax:+ kmax=$kmax} $m $fct aiecnd_cpu_ms=${cpu:-unknown}" |
		tee -a "$OUT/results.txt"
}

for scen in $SCENARIOS; do
	if [ $sweep = 1 ]; then
		for k in $SWEEP; do
			run "$scen" sweep "$k" || exit 1
		done
	else
		# the settings interleaved, REPEAT times: a slow spell of the
		# VM falls on all of them alike
		for rep in $(seq "$REPEAT"); do
			for set in low high aiecnd; do
				run "$scen" "$set" || exit 1
			done
		done
	fi
done
exit 0
