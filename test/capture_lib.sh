# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh
#
# Capturing uet's traffic in a network namespace the test made
# (netns_lib.sh): tcpdump on its loopback, started and stopped by PID.
# Sourced, not run, after pingpong_lib.sh (pp_tmp).  Used by
# tshark-dissector.sh and ue-capture-audit.sh.

cap_pid=""

# cap_start NS FILE TAG: tcpdump every UDP datagram on NS's loopback into
# FILE (its messages in $pp_tmp/TAG.tcpdump); returns once it listens
# (at most 5 s).
cap_start() {
	ip netns exec "$1" timeout -k 2 900 tcpdump -i lo -U -n \
		--immediate-mode -B 65536 -s 0 -w "$2" udp \
		>"$pp_tmp/$3.tcpdump" 2>&1 &
	cap_pid=$!
	cap_log=$pp_tmp/$3.tcpdump
	n=100
	while [ "$n" -gt 0 ] && ! grep -q listening "$cap_log"; do
		sleep 0.05
		n=$((n - 1))
	done
}

# cap_stop: stop the capture (after the last datagram reached it); note
# datagrams the kernel dropped.
cap_stop() {
	[ -n "$cap_pid" ] || return 0
	sleep 0.5
	kill "$cap_pid" 2>/dev/null
	wait "$cap_pid" 2>/dev/null
	cap_pid=""
	if grep -q '[1-9][0-9]* packets dropped by kernel' "$cap_log"; then
		echo "note: $(grep 'dropped by kernel' "$cap_log")"
	fi
}

# cap_traffic WP NS: the traffic both capture tests take, every packet
# kind the software NIC sends, under FI_UET_WIRE=WP in NS (pingpong_lib.sh's
# pp_pair and counters): fi_pingpong msg and tagged at 64 B, 4 KiB and
# 4 MiB (eager, rendezvous, responses with data); 10% of the datagrams
# dropped (retransmissions, control packets); FI_EP_DGRAM (UUD); ROD;
# NSCC and RCCC together (ACK_CCX); more unexpected messages than the
# receiver buffers (NACK NO_PKT_BUF: check_prov_ext's "flood" case); and
# RMA and every atomic (check_prov_rma's "data" case).
cap_traffic() {
	for mode in msg tagged; do
		for size in 64 4096 4194304; do
			FI_UET_WIRE=$1 pp_pair "$1:$mode:$size" "$2" - "$2" - \
				127.0.0.1 "" -e rdm -m "$mode" -I 3 -S "$size"
		done
	done
	FI_UET_WIRE=$1 FI_UET_LOSS_PPM=100000 pp_pair "$1:loss" "$2" - \
		"$2" - 127.0.0.1 "" -e rdm -m msg -I 30 -S 65536
	FI_UET_WIRE=$1 pp_pair "$1:dgram" "$2" - "$2" - 127.0.0.1 "" \
		-e dgram -I 3 -S 1024
	FI_UET_WIRE=$1 FI_UET_DELIVERY=rod pp_pair "$1:rod" "$2" - "$2" - \
		127.0.0.1 "" -e rdm -m tagged -I 3 -S 65536
	FI_UET_WIRE=$1 FI_UET_CC=both FI_UET_CC_MBPS=10000 pp_pair \
		"$1:cc-both" "$2" - "$2" - 127.0.0.1 "" -e rdm -m msg -I 3 \
		-S 65536
	cap_suite "$1" "$2" flood check_prov_ext
	cap_suite "$1" "$2" data check_prov_rma
}

# cap_suite WP NS CASE SUITE: one case of a libcheck suite in NS.
cap_suite() {
	pp_combo=$1:$4:$3
	if ip netns exec "$2" env FI_UET_WIRE="$1" CK_RUN_CASE="$3" \
		timeout -k 5 600 "./test/$4" >"$pp_tmp/$1.$4.$3" 2>&1; then
		echo "PASS $pp_combo: $(grep -E '^[0-9]+%' "$pp_tmp/$1.$4.$3")"
		pp_npass=$((pp_npass + 1))
	else
		pp_fail "$4 ($3): $(tail -3 "$pp_tmp/$1.$4.$3")"
	fi
}

# cap_ns_setup NS TEST...: skip unless tcpdump and test/TEST... are
# there, then make namespace NS with its loopback up, the capture
# stopped at its end, and one datagram per captured frame (no GSO).
cap_ns_setup() {
	cap_ns=$1
	shift
	command -v tcpdump >/dev/null 2>&1 ||
		pp_skip_all "tcpdump not installed (apt-get install tcpdump)"
	for t in "$@"; do
		[ -x "./test/$t" ] || pp_skip_all "test/$t not built"
	done
	ns_begin
	ns_first "$cap_ns"
	ns_step ip -n "$cap_ns" link set lo up
	FI_UET_GSO=0
	export FI_UET_GSO
}

# shellcheck disable=SC2317 # called by ns_end on exit
ns_hook() {
	cap_stop >/dev/null
}
