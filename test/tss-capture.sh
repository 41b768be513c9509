#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# What TSS hides on the wire: fi_pingpong -c (its payload is runs of
# "0123456789abc...XYZ") between two network namespaces over a veth pair
# this script creates, with tcpdump capturing the UDP datagrams on the
# server's end.  With TSS off the capture holds the payload pattern; with
# FI_UET_TSS=required on both sides it holds datagrams but no pattern.
# Needs root, iproute2 and tcpdump (skips with a message otherwise).
set -u

. "$(dirname "$0")/pingpong_lib.sh"
. "$(dirname "$0")/netns_lib.sh"

pp_want=""
ns_srv=uet-tss-$$-srv
ns_cli=uet-tss-$$-cli
if_srv=uettss$$s
if_cli=uettss$$c
addr_srv=10.251.9.1
addr_cli=10.251.9.2
# 20 characters of fi_pingpong's fill alphabet: every message of 100
# bytes or more holds them.
PATTERN=ABCDEFGHIJKLMNOPQRST

command -v tcpdump >/dev/null 2>&1 ||
	pp_skip_all "tcpdump not installed (apt-get install tcpdump): no capture check"
ns_begin
tcpdump_pid=""

# shellcheck disable=SC2317 # called by ns_end on exit
ns_hook() {
	if [ -n "$tcpdump_pid" ]; then
		kill "$tcpdump_pid" 2>/dev/null
		wait "$tcpdump_pid" 2>/dev/null
	fi
}

ns_first "$ns_srv"
ns_add "$ns_cli"
ns_step ip -n "$ns_srv" link add "$if_srv" mtu 1500 type veth \
	peer name "$if_cli" netns "$ns_cli" mtu 1500
for side in "$ns_srv $if_srv $addr_srv" "$ns_cli $if_cli $addr_cli"; do
	# shellcheck disable=SC2086 # three words
	set -- $side
	ns_step ip -n "$1" link set lo up
	ns_step ip -n "$1" link set "$2" addrgenmode none
	ns_step ip -n "$1" addr add "$3/24" dev "$2"
	ns_step ip -n "$1" link set "$2" up
done
n=100
while [ "$n" -gt 0 ] &&
	! { ip -n "$ns_srv" link show dev "$if_srv" | grep -q LOWER_UP &&
	    ip -n "$ns_cli" link show dev "$if_cli" | grep -q LOWER_UP; }; do
	sleep 0.05
	n=$((n - 1))
done
FI_UET_ADDR_FAMILY=ipv4
export FI_UET_ADDR_FAMILY
key=$pp_tmp/tss.key
(umask 077 && od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >"$key") ||
	pp_skip_all "cannot write a key file"

# capture MODE: one fi_pingpong pair with FI_UET_TSS=MODE under tcpdump;
# sets cap (the pcap file) and ran (1 when the pair passed).
capture() {
	cap=$pp_tmp/$1.pcap
	rm -f "$cap"
	ip netns exec "$ns_srv" timeout -k 2 120 tcpdump -i "$if_srv" -U -n --immediate-mode \
		-s 0 -w "$cap" udp >"$pp_tmp/$1.tcpdump" 2>&1 &
	tcpdump_pid=$!
	n=100
	while [ "$n" -gt 0 ] && ! grep -q listening "$pp_tmp/$1.tcpdump"; do
		sleep 0.05
		n=$((n - 1))
	done
	npass=$pp_npass
	FI_UET_TSS=$1 FI_UET_TSS_KEY_FILE=$key pp_pair "capture:$1" \
		"$ns_srv" - "$ns_cli" - "$addr_srv" "" \
		-e rdm -m msg -I 2 -S 4096 -c
	ran=0
	[ "$pp_npass" -gt "$npass" ] && ran=1
	sleep 0.5
	kill "$tcpdump_pid" 2>/dev/null
	wait "$tcpdump_pid" 2>/dev/null
	tcpdump_pid=""
}

# pkts FILE: UDP datagrams in a capture.
pkts() {
	tcpdump -r "$1" -n 2>/dev/null | wc -l
}

echo "capture on $if_srv ($ns_srv) of fi_pingpong -c, TSS off and required"
for mode in off required; do
	capture "$mode"
	[ "$ran" -eq 1 ] || continue
	np=$(pkts "$cap")
	hits=$(grep -a -c "$PATTERN" "$cap")
	pp_combo=capture:$mode:wire
	if [ "$np" -eq 0 ]; then
		pp_fail "tcpdump captured nothing"
	elif [ "$mode" = off ] && [ "$hits" -eq 0 ]; then
		pp_fail "$np datagrams, no payload pattern with TSS off (capture broken?)"
	elif [ "$mode" = required ] && [ "$hits" -ne 0 ]; then
		pp_fail "$np datagrams, payload pattern visible in $hits with TSS required"
	else
		echo "PASS $pp_combo: $np datagrams, $hits with the payload pattern"
		pp_npass=$((pp_npass + 1))
	fi
done
pp_summary
