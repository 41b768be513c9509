#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# uet's UE 1.0.1 traffic against the header sizes three independent
# implementations read (test/ue_capture_audit.c, docs/conformance.md).
# In a network namespace this script creates, tcpdump captures the
# loopback while, with FI_UET_WIRE=ue:
#   - fi_pingpong runs msg and tagged at 64 B, 4 KiB and 4 MiB, and once
#     more with 10% of the datagrams dropped (FI_UET_LOSS_PPM: NACKs,
#     probes, retransmissions);
#   - test/check_prov_rma's "data" case moves RMA writes and reads and
#     every atomic op and datatype (fetching and compare ones included)
#     between two endpoints on 127.0.0.1.
# Then test/ue_capture_audit --strict: no datagram may have a header
# whose size differs from the reading two of the three share; where one
# of them alone reads otherwise (the disagreements) the counts are
# printed, not asserted.  The same traffic under FI_UET_WIRE=ueplus is
# audited too and its counts printed (the "before" column: UE+ differs,
# by design).
# Needs root, iproute2, tcpdump and fi_pingpong (skips with a reason).
set -u

. "$(dirname "$0")/pingpong_lib.sh"
. "$(dirname "$0")/netns_lib.sh"
. "$(dirname "$0")/capture_lib.sh"

pp_want=""
ns=uet-audit-$$
command -v tcpdump >/dev/null 2>&1 ||
	pp_skip_all "tcpdump not installed (apt-get install tcpdump)"
for t in ue_capture_audit check_prov_rma; do
	[ -x "./test/$t" ] || pp_skip_all "test/$t not built"
done
ns_begin

# shellcheck disable=SC2317 # called by ns_end on exit
ns_hook() {
	cap_stop >/dev/null
}

ns_first "$ns"
ns_step ip -n "$ns" link set lo up
FI_UET_GSO=0		# one datagram per captured frame
export FI_UET_GSO

# traffic WP: everything listed above under FI_UET_WIRE=WP.
traffic() {
	for mode in msg tagged; do
		for size in 64 4096 4194304; do
			FI_UET_WIRE=$1 pp_pair "$1:$mode:$size" "$ns" - "$ns" - \
				127.0.0.1 "" -e rdm -m "$mode" -I 3 -S "$size"
		done
	done
	FI_UET_WIRE=$1 FI_UET_LOSS_PPM=100000 pp_pair "$1:loss" "$ns" - \
		"$ns" - 127.0.0.1 "" -e rdm -m msg -I 30 -S 65536
	pp_combo=$1:rma-atomics
	if ip netns exec "$ns" env FI_UET_WIRE="$1" CK_RUN_CASE=data \
		timeout -k 5 600 ./test/check_prov_rma \
		>"$pp_tmp/$1.rma" 2>&1; then
		echo "PASS $pp_combo: $(grep -E '^[0-9]+%' "$pp_tmp/$1.rma")"
		pp_npass=$((pp_npass + 1))
	else
		pp_fail "check_prov_rma (data): $(tail -3 "$pp_tmp/$1.rma")"
	fi
}

for wp in ue ueplus; do
	cap=$pp_tmp/$wp.pcap
	cap_start "$ns" "$cap" "$wp"
	traffic "$wp"
	cap_stop
	pp_combo=$wp:audit
	# every UDP datagram of the namespace is uet's (-p 0): the RMA
	# suite's endpoints bind ports of their own
	if [ "$wp" = ue ]; then
		./test/ue_capture_audit --strict -w ue -p 0 "$cap" \
			>"$pp_tmp/audit.$wp" 2>"$pp_tmp/audit.$wp.err"
		rc=$?
	else
		./test/ue_capture_audit -w ueplus -p 0 "$cap" \
			>"$pp_tmp/audit.$wp" 2>"$pp_tmp/audit.$wp.err"
		rc=$?
	fi
	echo "---- FI_UET_WIRE=$wp, header sizes against W, R, X ----"
	cat "$pp_tmp/audit.$wp"
	if [ "$rc" -ne 0 ]; then
		pp_fail "audit: $(head -5 "$pp_tmp/audit.$wp.err")"
	else
		echo "PASS $pp_combo"
		pp_npass=$((pp_npass + 1))
	fi
done
pp_summary
