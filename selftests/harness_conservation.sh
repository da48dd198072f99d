#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The conservation check that ends every test (lib.sh, conservation.py)
# fails when a count does not add up: here it reads a fake tc's output,
# once balanced and once with each equation broken.

. "$(dirname "$0")/lib.sh"

scratch_dir
check=$LOSSLESS_TOP/selftests/tools/conservation.py

# fake_tc IN SENT DROPPED LIMIT: a tc that shows one lossless port whose
# classes all have these counters (the port: 8 times them)
fake_tc() {
	cat > "$out/tc" <<EOS
#!/bin/bash
cls() {
	for i in 1 2 3 4 5 6 7 8; do
		echo "class lossless 1:\$i root "
		echo " Sent 1000 bytes $2 pkt (dropped $3, overlimits 0 requeues 0) "
		echo " backlog 0b 0p requeues 0"
		echo "  ecn_marked 0 limit_drops $4 buffer_drops 0 wd_dropped 0 in $1 flushed 0 ingress_drops 0"
	done
}
case "\$*" in
"-s qdisc show")
	echo "qdisc lossless 1: dev v1 root refcnt 2"
	echo " Sent 8000 bytes $(($2 * 8)) pkt (dropped $(($3 * 8)), overlimits 0 requeues 0) "
	echo " backlog 0b 0p requeues 0"
	echo "  throttled 0 in $(($1 * 8)) flushed 0" ;;
"-s class show dev v1") cls ;;
*) exit 1 ;;
esac
EOS
	chmod +x "$out/tc"
}

# expect PASS|FAIL TEXT NAME: run the check on the fake tc; it must pass
# or fail, and print TEXT
expect() {
	PATH=$out:$PATH python3 "$check" > "$out/log"
	if [ "$1" = PASS ]; then
		check_err $? "the check failed: $(cat "$out/log")"
	else
		check_fail $? "the check passed: $(cat "$out/log")"
	fi
	grep -qF "$2" "$out/log"
	check_err $? "no '$2' in: $(cat "$out/log")"
	log_test "$3"
}

fake_tc 10 7 3 3
expect PASS "every one accounted for" "a balanced port passes"
fake_tc 10 8 3 3
expect FAIL "class 1:1: in 10 != sent 8" "one packet more out than in fails"
fake_tc 10 7 3 2
expect FAIL "dropped 3 != limit 2" "a drop without a reason fails"

exit $EXIT_STATUS
