#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The generated Wireshark dissector (contrib/wireshark/uet.lua,
# docs/wireshark.md) against uet's own decode.  In a network namespace
# this script creates, tcpdump captures the loopback while cap_traffic
# (capture_lib.sh) sends every packet kind the software NIC sends:
# fi_pingpong msg and tagged at 64 B, 4 KiB and 4 MiB sprayed over 4
# entropy ports (FI_UET_CC_ENTROPIES=4), with 10% loss, FI_EP_DGRAM, ROD,
# NSCC and RCCC, an unexpected-message flood for NACKs, RMA and every
# atomic.  Then, for each wire profile (FI_UET_WIRE):
#   - tshark with the dissector shows every captured datagram as UET
#     (sprayed source ports included), with no malformed packet and no
#     expert info of the dissector;
#   - every field tshark shows equals test/uet_pcap_fields's, which
#     decodes the same datagrams with uet's codecs (a datagram they
#     refuse fails the test).
# Needs root, iproute2, tcpdump and tshark (skips with a reason).
set -u

. "$(dirname "$0")/pingpong_lib.sh"
. "$(dirname "$0")/netns_lib.sh"
. "$(dirname "$0")/capture_lib.sh"

src="${srcdir:-$(dirname "$0")/..}"
lua=$src/contrib/wireshark/uet.lua
pp_want=""
ns=uet-lua-$$
command -v tshark >/dev/null 2>&1 ||
	pp_skip_all "tshark not installed (apt-get install tshark)"
cap_ns_setup "$ns" uet_pcap_fields check_prov_rma check_prov_ext
FI_UET_CC_ENTROPIES=4	# spray: source ports P + 1 .. of each NIC
export FI_UET_CC_ENTROPIES
profiles="ueplus ue"

fields=$(./test/uet_pcap_fields --fields) || exit 1
tsargs=""
for f in $fields; do
	tsargs="$tsargs -e $f"
done

# capture WP: the traffic listed above under FI_UET_WIRE=WP into $cap.
capture() {
	cap=$pp_tmp/$1.pcap
	cap_start "$ns" "$cap" "$1"
	cap_traffic "$1" "$ns"
	cap_stop
}

# tshark with the dissector in profile WP over $cap, ARGS...
ts() {
	wp=$1
	shift
	# shellcheck disable=SC2086 # one word per -d
	tshark -n -r "$cap" -X lua_script:"$lua" -o "uet.profile:$wp" \
		$decode_as "$@" 2>"$pp_tmp/tshark.err"
}

# decode_as: "Decode As" uet for the ports of the capture outside the
# dissector's own (the libcheck suites' NICs take ephemeral ports; every
# datagram in the namespace is uet's).
set_decode_as() {
	decode_as=""
	for p in $(tshark -n -r "$cap" -T fields -e udp.srcport \
		-e udp.dstport 2>/dev/null | tr '\t' '\n' | sort -un); do
		if [ "$p" -lt 4793 ] || [ "$p" -gt 4921 ]; then
			decode_as="$decode_as -d udp.port==$p,uet"
		fi
	done
}

for wp in $profiles; do
	capture "$wp"
	set_decode_as
	pp_combo=$wp:dissector
	nudp=$(tcpdump -r "$cap" -n 2>/dev/null | wc -l)
	nuet=$(ts "$wp" -Y uet | wc -l)
	nbad=$(ts "$wp" -Y '_ws.malformed || uet.malformed.truncated || uet.unknown || uet.reserved_not_zero' | wc -l)
	nnack=$(ts "$wp" -Y 'uet.pds.type == 10 || uet.pds.type == 12' | wc -l)
	nspray=$(ts "$wp" -Y "uet && udp.srcport > 4793 && udp.srcport <= 4921" | wc -l)
	# shellcheck disable=SC2086 # one word per -e and field name
	ts "$wp" -Y uet -T fields -E separator=/t -E occurrence=a \
		-E aggregator=, $tsargs |
		sed 's/\bTrue\b/1/g; s/\bFalse\b/0/g; s/://g' >"$pp_tmp/tshark.txt"
	./test/uet_pcap_fields -w "$wp" -p 0 "$cap" >"$pp_tmp/uet.txt" \
		2>"$pp_tmp/uet.err"
	urc=$?
	if [ "$nudp" -eq 0 ]; then
		pp_fail "tcpdump captured nothing"
	elif [ "$nuet" -ne "$nudp" ]; then
		pp_fail "$nudp UDP datagrams, tshark shows $nuet as UET"
	elif [ "$nbad" -ne 0 ]; then
		pp_fail "$nbad datagrams malformed or with the dissector's" \
			"expert info"
		ts "$wp" -q -z expert | head -20
	elif [ "$urc" -ne 0 ]; then
		pp_fail "uet's codecs refused datagrams:" \
			"$(head -5 "$pp_tmp/uet.err")"
	elif ! cmp -s "$pp_tmp/tshark.txt" "$pp_tmp/uet.txt"; then
		pp_fail "tshark and uet's decode differ (< tshark, > uet):"
		echo "$fields" | tr '\n' '\t'
		echo
		diff "$pp_tmp/tshark.txt" "$pp_tmp/uet.txt" | head -10
	elif [ "$nspray" -eq 0 ]; then
		pp_fail "no datagram from an entropy port: spraying not captured"
	else
		echo "PASS $pp_combo: $nuet datagrams ($nspray from entropy" \
			"ports, $nnack NACKs), $(echo "$fields" | wc -l) fields" \
			"equal to uet's decode"
		pp_npass=$((pp_npass + 1))
	fi
done
pp_summary
