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
