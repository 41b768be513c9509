#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# A real bottleneck (docs/congestion.md, issue 17): two uet senders into
# one receiver through a tbf rate limit on the receiver's link, with
# congestion management off and on, and a concurrent 64-byte ping-pong
# (ICMP echo, 56 data bytes, every 2 ms) from a third namespace through the same
# bottleneck.
#
#   hub namespace: bridge br0, veths to s1, s2 and r; tbf (MBPS Mbit/s,
#   default 1000; LIMIT bytes of queue, default 256 KiB, 2.1 ms at 1
#   Gbit/s; 32 KiB burst) on the port towards r.
#   s1, s2: fi_pingpong clients, 1 MiB messages (TBF_ITERS, default 20;
#   not ITERS, which pingpong_lib.sh sets to 3 for its own tests);
#   r: the two servers; p: ping -i 0.002 to r during the run (and idle
#   first), at real-time priority (chrt -f) when allowed, so that it
#   samples the queue every 2 ms however loaded the machine is.
#
# Each mode runs the same load: "off" (FI_UET_CC=off) and "on"
# (FI_UET_CC=both, FI_UET_CC_MBPS=MBPS, FI_UET_CC_RTT_US=RTT_US, default
# 1000: receiver credits of 1.125 x 125 KB shared by the two senders, a
# queue of at most 1.1 ms).  Reported: drops and packets at the tbf, loss
# %, ping p50/p99 in ms, the run's time.  Asserted: with CC on, loss
# <= 0.5% and the ping p99 within P99_MULT (default 10) times its idle
# value or the queue the credits allow (1.125 x RTT_US of the link's time,
# 1.125 ms by default) plus the idle p99, whichever is larger
# (P99_FLOOR_MS overrides the second); with CC off, loss above CC on's and
# p99 above twice CC on's.
#
# Traffic stays inside the namespaces made here, removed on every exit.
# Exit 0, 1 on failure, 77 (skip) when not root, without ip / tc / ping /
# fi_pingpong, when namespaces or tbf cannot be made, or fi_info does not
# list uet.
set -u

. "$(dirname "$0")/pingpong_lib.sh"
. "$(dirname "$0")/netns_lib.sh"

MBPS=${MBPS:-1000}
LIMIT=${LIMIT:-262144}
VMTU=${VMTU:-1500}
TBF_ITERS=${TBF_ITERS:-20}
RTT_US=${RTT_US:-1000}
P99_MULT=${P99_MULT:-10}
P99_FLOOR_MS=${P99_FLOOR_MS:-}

ns_begin tc ping

hub=uet-tbf-$$-hub
ns_s1=uet-tbf-$$-s1
ns_s2=uet-tbf-$$-s2
ns_r=uet-tbf-$$-r
ns_p=uet-tbf-$$-p
addr_r=10.252.9.3


ns_first "$hub"
for ns in "$ns_s1" "$ns_s2" "$ns_r" "$ns_p"; do
	ns_add "$ns"
done
ns_step ip -n "$hub" link add br0 type bridge
ns_step ip -n "$hub" link set br0 up
ns_step ip -n "$hub" link set lo up
n=0
for ns in "$ns_s1" "$ns_s2" "$ns_r" "$ns_p"; do
	n=$((n + 1))
	ns_step ip -n "$hub" link add "h$n" mtu "$VMTU" type veth \
		peer name "e$n" netns "$ns" mtu "$VMTU"
	ns_step ip -n "$hub" link set "h$n" master br0 up
	ns_step ip -n "$ns" addr add "10.252.9.$n/24" dev "e$n"
	ns_step ip -n "$ns" link set "e$n" up
	ns_step ip -n "$ns" link set lo up
done
# The bottleneck: what the hub sends towards r (h3).
if ! out=$(ip netns exec "$hub" tc qdisc add dev h3 root tbf rate "${MBPS}mbit" \
	burst 32kb limit "$LIMIT" 2>&1); then
	echo "SKIP: tbf not available: $out"
	exit 77
fi

# ping_stats FILE: "p50 p99" in ms of the replies in FILE.
ping_stats() {
	awk -F'time=' '/time=/ { split($2, a, " "); print a[1] }' "$1" |
		sort -n | awk '{ v[NR] = $1 } END {
			if (NR == 0) { print "nan nan"; exit }
			i50 = int(NR * 0.50); if (i50 < 1) i50 = 1
			i99 = int(NR * 0.99); if (i99 < 1) i99 = 1
			print v[i50], v[i99] }'
}

# tbf_counts: "sent_pkts dropped" of the bottleneck so far.
tbf_counts() {
	ip netns exec "$hub" tc -s qdisc show dev h3 |
		awk '/Sent/ { for (i = 1; i <= NF; i++) {
			if ($i == "pkt") s = $(i - 1)
			if ($i == "(dropped") { d = $(i + 1); sub(",", "", d) } }
			print s, d; exit }'
}

# The probe runs at a real-time priority when chrt can give it one: on
# a loaded machine a normal ping is not scheduled while the senders
# run, so it sent 371 of its 1,960 echoes in a 3.9 s run and missed the
# queue it is there to see.
rt=""
if command -v chrt >/dev/null 2>&1 && chrt -f 10 true 2>/dev/null; then
	rt="chrt -f 10"
fi
ip netns exec "$ns_p" ping -n -q -c 1 -W 2 "$addr_r" >/dev/null 2>&1 ||
	{ echo "FAIL: $ns_p cannot reach $addr_r"; exit 1; }
ip netns exec "$ns_p" $rt ping -n -i 0.002 -c 500 -s 56 "$addr_r" \
	>"$pp_tmp/idle.txt" 2>&1
set -- $(ping_stats "$pp_tmp/idle.txt")
idle50=$1
idle99=$2
echo "idle ping: p50 $idle50 ms, p99 $idle99 ms"

# run MODE: the load with CC off or on; sets loss, p50, p99, secs.
run() {
	if [ "$mode" = on ]; then
		cc="FI_UET_CC=both FI_UET_CC_MBPS=$MBPS FI_UET_CC_RTT_US=$RTT_US"
	else
		cc="FI_UET_CC=off"
	fi
	set -- $(tbf_counts)
	s0=$1
	d0=$2
	pp_next_port "$ns_r" || { echo "FAIL: no free port"; exit 1; }
	pa=$pp_port
	pp_next_port "$ns_r" || { echo "FAIL: no free port"; exit 1; }
	pb=$pp_port
	# shellcheck disable=SC2086 # cc is a list of assignments
	ip netns exec "$ns_r" env $cc ${pp_preload:+"LD_PRELOAD=$pp_preload"} \
		FI_PROVIDER=uet timeout -k 5 "$PP_TIMEOUT" \
		fi_pingpong -p uet -e rdm -S 1048576 -I "$TBF_ITERS" -B "$pa" \
		>"$pp_tmp/ra.txt" 2>&1 &
	ra=$!
	# shellcheck disable=SC2086
	ip netns exec "$ns_r" env $cc ${pp_preload:+"LD_PRELOAD=$pp_preload"} \
		FI_PROVIDER=uet timeout -k 5 "$PP_TIMEOUT" \
		fi_pingpong -p uet -e rdm -S 1048576 -I "$TBF_ITERS" -B "$pb" \
		>"$pp_tmp/rb.txt" 2>&1 &
	rb=$!
	# the servers' control sockets listen before the clients connect
	if ! pp_wait_listen "$ns_r" "$pa" "$ra" ||
		! pp_wait_listen "$ns_r" "$pb" "$rb"; then
		echo "FAIL: fi_pingpong servers did not start (CC $mode)"
		tail -n 3 "$pp_tmp"/ra.txt "$pp_tmp"/rb.txt
		exit 1
	fi
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	ip netns exec "$ns_s1" env $cc ${pp_preload:+"LD_PRELOAD=$pp_preload"} \
		FI_PROVIDER=uet timeout -k 5 "$PP_TIMEOUT" \
		fi_pingpong -p uet -e rdm -S 1048576 -I "$TBF_ITERS" -P "$pa" \
		"$addr_r" >"$pp_tmp/sa.txt" 2>&1 &
	sa=$!
	# shellcheck disable=SC2086
	ip netns exec "$ns_s2" env $cc ${pp_preload:+"LD_PRELOAD=$pp_preload"} \
		FI_PROVIDER=uet timeout -k 5 "$PP_TIMEOUT" \
		fi_pingpong -p uet -e rdm -S 1048576 -I "$TBF_ITERS" -P "$pb" \
		"$addr_r" >"$pp_tmp/sb.txt" 2>&1 &
	sb=$!
	sleep 0.5
	# shellcheck disable=SC2086 # rt is a command prefix or empty
	ip netns exec "$ns_p" $rt ping -n -i 0.002 -w 60 -s 56 "$addr_r" \
		>"$pp_tmp/ping-$mode.txt" 2>&1 &
	pg=$!
	rc=0
	for p in $sa $sb $ra $rb; do
		wait "$p" || rc=1
	done
	t1=$(date +%s.%N)
	kill -INT "$pg" 2>/dev/null
	wait "$pg" 2>/dev/null
	if [ $rc -ne 0 ]; then
		echo "FAIL: fi_pingpong with CC $mode:"
		tail -n 3 "$pp_tmp"/sa.txt "$pp_tmp"/sb.txt "$pp_tmp"/ra.txt \
			"$pp_tmp"/rb.txt
		exit 1
	fi
	[ -n "${TBF_DEBUG:-}" ] && ip netns exec "$hub" tc -s qdisc show dev h3
	set -- $(tbf_counts)
	sent=$(($1 - s0))
	drop=$(($2 - d0))
	loss=$(awk -v s="$sent" -v d="$drop" \
		'BEGIN { printf "%.3f", s + d ? 100 * d / (s + d) : 0 }')
	set -- $(ping_stats "$pp_tmp/ping-$mode.txt")
	p50=$1
	p99=$2
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	echo "CC $mode: tbf sent $sent pkts, dropped $drop (loss $loss%)," \
		"ping p50 $p50 ms p99 $p99 ms, $secs s"
}

mode=off
run
loss_off=$loss
p99_off=$p99
mode=on
run
loss_on=$loss
p99_on=$p99

fail=0
# The receiver's credits (RCCC, shared by the sources) keep at most
# 1.125 x MBPS x RTT_US bits in flight, i.e. 1.125 x RTT_US of queue at
# the bottleneck; the probe waits behind that queue plus its idle time.
if [ -z "$P99_FLOOR_MS" ]; then
	P99_FLOOR_MS=$(awk -v r="$RTT_US" -v i="$idle99" \
		'BEGIN { printf "%.3f", 1.125 * r / 1000 + i }')
fi
bound=$(awk -v i="$idle99" -v m="$P99_MULT" -v f="$P99_FLOOR_MS" \
	'BEGIN { b = i * m; printf "%.3f", b < f ? f : b }')
awk -v l="$loss_on" 'BEGIN { exit !(l <= 0.5) }' ||
	{ echo "FAIL: loss with CC on $loss_on% > 0.5%"; fail=1; }
awk -v p="$p99_on" -v b="$bound" 'BEGIN { exit !(p <= b) }' ||
	{ echo "FAIL: p99 with CC on $p99_on ms > $bound ms"; fail=1; }
awk -v a="$loss_off" -v b="$loss_on" 'BEGIN { exit !(a > b) }' ||
	{ echo "FAIL: loss with CC off ($loss_off%) not above CC on"; fail=1; }
awk -v a="$p99_off" -v b="$p99_on" 'BEGIN { exit !(a > 2 * b) }' ||
	{ echo "FAIL: p99 with CC off ($p99_off ms) not above twice CC on's"; fail=1; }
[ $fail -eq 0 ] && echo "PASS: cc-tbf (p99 bound $bound ms)"
exit $fail
