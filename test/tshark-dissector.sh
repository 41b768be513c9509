#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The generated Wireshark dissector (contrib/wireshark/uet.lua,
# docs/wireshark.md) against uet's own decode.  In a network namespace
# this script creates, tcpdump captures the loopback while fi_pingpong
# runs msg and tagged at 64 B, 4 KiB and 4 MiB sprayed over 4 entropy
# ports (FI_UET_CC_ENTROPIES=4), and once more with 10% of the datagrams
# dropped (FI_UET_LOSS_PPM) so that retransmissions, probes and NACKs are
# on the wire.  Then, for each wire profile the software NIC speaks
# (FI_UET_WIRE; only ueplus until the NIC lists FI_UET_WIRE):
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
for t in tshark tcpdump; do
	command -v "$t" >/dev/null 2>&1 ||
		pp_skip_all "$t not installed (apt-get install tshark tcpdump)"
done
[ -x ./test/uet_pcap_fields ] || pp_skip_all "test/uet_pcap_fields not built"
ns_begin

# shellcheck disable=SC2317 # called by ns_end on exit
ns_hook() {
	cap_stop >/dev/null
}

ns_first "$ns"
ns_step ip -n "$ns" link set lo up
FI_UET_GSO=0		# one datagram per captured frame
FI_UET_CC_ENTROPIES=4	# spray: source ports P + 1 .. of each NIC
export FI_UET_GSO FI_UET_CC_ENTROPIES

# Profiles the software NIC speaks: ue once it registers FI_UET_WIRE.
profiles=ueplus
if env ${pp_preload:+"LD_PRELOAD=$pp_preload"} timeout -k 5 30 \
	fi_info -p uet -e 2>/dev/null | grep -q FI_UET_WIRE; then
	profiles="ueplus ue"
else
	echo "note: FI_UET_WIRE not registered by the provider: UE+ only"
fi

fields=$(./test/uet_pcap_fields --fields) || exit 1
tsargs=""
for f in $fields; do
	tsargs="$tsargs -e $f"
done

# capture WP: the traffic listed above under FI_UET_WIRE=WP into $cap.
capture() {
	cap=$pp_tmp/$1.pcap
	cap_start "$ns" "$cap" "$1"
	for mode in msg tagged; do
		for size in 64 4096 4194304; do
			FI_UET_WIRE=$1 pp_pair "$1:$mode:$size" "$ns" - "$ns" - \
				127.0.0.1 "" -e rdm -m "$mode" -I 3 -S "$size"
		done
	done
	FI_UET_WIRE=$1 FI_UET_LOSS_PPM=100000 pp_pair "$1:loss" "$ns" - \
		"$ns" - 127.0.0.1 "" -e rdm -m msg -I 30 -S 65536
	cap_stop
}

# tshark with the dissector in profile WP over $cap, ARGS...
ts() {
	wp=$1
	shift
	tshark -n -r "$cap" -X lua_script:"$lua" -o "uet.profile:$wp" "$@" \
		2>"$pp_tmp/tshark.err"
}

for wp in $profiles; do
	capture "$wp"
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
	./test/uet_pcap_fields -w "$wp" "$cap" >"$pp_tmp/uet.txt" \
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
