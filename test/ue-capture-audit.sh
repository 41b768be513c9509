#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# uet's UE 1.0.1 traffic against the header sizes three independent
# implementations read (test/ue_capture_audit.c, docs/conformance.md).
# In a network namespace this script creates, tcpdump captures the
# loopback while, with FI_UET_WIRE=ue, cap_traffic (capture_lib.sh) sends
# every packet kind the software NIC sends: fi_pingpong msg and tagged
# at 64 B, 4 KiB and 4 MiB, with 10% loss, FI_EP_DGRAM (UUD), ROD, NSCC
# and RCCC (ACK_CCX), an unexpected-message flood (NACKs), and
# check_prov_rma's RMA and atomics over real UDP.
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
cap_ns_setup "$ns" ue_capture_audit check_prov_rma check_prov_ext

for wp in ue ueplus; do
	cap=$pp_tmp/$wp.pcap
	cap_start "$ns" "$cap" "$wp"
	cap_traffic "$wp" "$ns"
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
