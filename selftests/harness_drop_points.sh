#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/drop_points.py finds every datagram that did not arrive. 3000 UDP
# datagrams from h1 to a socket in h2 that reads nothing until the sender
# is done, through a lossless port with a class limit of 8000 bytes and a
# 20 Mbit/s shaper (udpgen sends faster: the class drops) into a receive
# buffer of a few KiB (the socket drops). The datagrams the socket then
# reads plus the drops the tool counts since the start must be the 3000
# sent, with drops at the qdisc and at the socket among them.
#
#   ns h1: udpgen, v1: lossless rate 20mbit, class 1:1 limit 8000
#     |
#   ns h2: v2, a UDP socket on 192.0.2.2:9000, SO_RCVBUF 4096

. "$(dirname "$0")/lib.sh"
require_tools udpgen
scratch_dir

N=3000
tool=$TOOLS/drop_points.py
two_hosts
ip netns exec "$h1" tc qdisc add dev v1 root handle 1: lossless rate 20mbit &&
	ip netns exec "$h1" tc class change dev v1 classid 1:1 lossless limit 8000
check_err $? "cannot set the qdisc up"

# the receiver: bound at once, reads after the file "$out/go" appears
ip netns exec "$h2" python3 -c '
import os, socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.bind(("192.0.2.2", 9000))
open(sys.argv[1] + "/bound", "w").close()
while not os.path.exists(sys.argv[1] + "/go"):
    time.sleep(0.1)
s.setblocking(False)
n = 0
while True:
    try:
        s.recv(2048)
        n += 1
    except BlockingIOError:
        break
print(n)' "$out" > "$out/received" &
rcv=$!
wait_for 100 test -e "$out/bound"
python3 "$tool" --json "$h1" "$h2" > "$out/before"
check_err $? "drop_points.py cannot read the namespaces"

ip netns exec "$h1" "$TOOLS/udpgen" --dst 192.0.2.2 --port 9000 --size 200 \
	--count "$N" > "$out/tx.json"
check_err $? "udpgen failed"
sleep 1
touch "$out/go"
wait "$rcv"
got=$(cat "$out/received")
python3 "$tool" --since "$out/before" "$h1" "$h2" > "$out/drops"
python3 "$tool" --json --since "$out/before" "$h1" "$h2" > "$out/drops.json"
sed 's/^/# /' "$out/drops"
total=$(json "$out/drops.json" 'd["total"]')
qdrop=$(json "$out/drops.json" 'sum(v for k, v in d["points"].items() if " qdisc lossless " in k)')
sdrop=$(json "$out/drops.json" 'sum(v for k, v in d["points"].items() if "Udp InErrors" in k)')
sent=$(json "$out/tx.json" 'd["sent"]')
echo "# sent $sent, received $got, drops counted $total (the lossless qdisc $qdrop, the socket $sdrop)"
[ "$sent" -eq "$N" ] && [ $((got + total)) -eq "$N" ]
check_err $? "received $got + drops $total != $N sent: a datagram went missing unattributed"
log_test "every datagram is received or counted at a drop point"
[ "$qdrop" -gt 0 ] && [ "$sdrop" -gt 0 ]
check_err $? "the run should drop both at the qdisc ($qdrop) and at the socket ($sdrop)"
log_test "the qdisc's and the socket's drops are both found"

exit "$EXIT_STATUS"
