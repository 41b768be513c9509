#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# fi_pingpong over uet on loopback with transport security required on
# both sides (FI_UET_TSS=required, the secret in a mode-0600 key file
# named by FI_UET_TSS_KEY_FILE): RDM msg and tagged with data checks (-c)
# at every size, DGRAM msg.  Then the key file made readable by others
# (mode 0644): the provider refuses it and fi_pingpong fails.
set -u

. "$(dirname "$0")/pingpong_lib.sh"

SIZES=${SIZES:-all}
pp_want="${COMBOS} $*"
[ -z "${pp_want% }" ] && pp_want=""

pp_init
FI_UET_IFACE=lo
FI_UET_ADDR_FAMILY=ipv4
export FI_UET_IFACE FI_UET_ADDR_FAMILY
trap pp_cleanup EXIT
trap 'exit 130' INT TERM HUP

key=$pp_tmp/tss.key
(umask 077 && od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >"$key") ||
	pp_skip_all "cannot write a key file"
FI_UET_TSS=required
FI_UET_TSS_KEY_FILE=$key
export FI_UET_TSS FI_UET_TSS_KEY_FILE

echo "fi_pingpong over loopback with FI_UET_TSS=required: SIZES=$SIZES ITERS=$ITERS"
for combo in rdm:msg rdm:tagged dgram:msg; do
	if ! pp_selected "$combo"; then
		pp_nunsel=$((pp_nunsel + 1))
		continue
	fi
	ep=${combo%%:*}
	mode=${combo#*:}
	pp_pair "tss:$combo" "" lo "" lo 127.0.0.1 "" \
		-e "$ep" -m "$mode" -I "$ITERS" -S "$SIZES" -c
done

# DGRAM messages are one datagram: with TSS they are 34 bytes shorter
# (FI_UET_MTU=1452: 1408 without, 1374 with).
if pp_selected "dgram-max"; then
	dmax() {
		FI_UET_MTU=1452 FI_UET_TSS=$1 env ${pp_preload:+"LD_PRELOAD=$pp_preload"} \
			timeout -k 5 30 fi_info -p "$PROV" -t FI_EP_DGRAM -v 2>/dev/null |
			awk '/max_msg_size/ { print $2; exit }'
	}
	m_off=$(dmax off)
	m_req=$(dmax required)
	if [ -n "$m_off" ] && [ -n "$m_req" ] && [ $((m_off - m_req)) -eq 34 ]; then
		echo "PASS tss:dgram-max: max_msg_size $m_off without TSS, $m_req with it"
		pp_npass=$((pp_npass + 1))
	else
		pp_combo=tss:dgram-max
		pp_fail "DGRAM max_msg_size '$m_off' without TSS, '$m_req' with it"
	fi
fi

# A key file others can read is refused: neither side can open its
# domain, the pair fails (expected), and the log says why.
if pp_selected "badmode"; then
	chmod 0644 "$key"
	nfail=$pp_nfail
	pp_pair "tss:badmode" "" lo "" lo 127.0.0.1 "" -e rdm -I 1 -S 64 \
		>"$pp_tmp/badmode.out" 2>&1
	if [ "$pp_nfail" -gt "$nfail" ] &&
		grep -q 'fi_domain().*Operation not permitted' \
			"$pp_tmp/badmode.out"; then
		pp_nfail=$nfail
		echo "PASS tss:badmode: a mode-0644 key file was refused"
		pp_npass=$((pp_npass + 1))
	else
		pp_nfail=$nfail
		pp_combo=tss:badmode
		pp_fail "not refused as expected:"
		cat "$pp_tmp/badmode.out"
	fi
	chmod 0600 "$key"
fi
pp_summary
