#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# fi_pingpong server and client over loopback for one provider (PROV,
# default uet) in every combination of
#   endpoint   rdm | dgram        (-e)
#   mode       msg | tagged       (-m)
#   check      check | nocheck    (-c or not)
#   family     ipv4 | ipv6        (127.0.0.1, or ::1 with -6)
# named ep:mode:check:family, e.g. rdm:tagged:check:ipv6, each with all
# sizes (SIZES, default "all", for -S) and ITERS iterations (default 3).
# One PASS/FAIL line per combination with the result of the largest
# size, then a summary.  Exit 0, 1 on any failure, 77 (skip) when
# fi_pingpong is missing or fi_info does not list the provider.
#
# Choose combinations with patterns in COMBOS or as arguments, drop some
# with SKIP; for uet all of them run.  Examples:
#   PROV=tcp COMBOS='rdm:*' sh test/pingpong.sh
#   PROV=udp SKIP='dgram:tagged:*' sh test/pingpong.sh
#   PROV=tcp sh test/pingpong.sh 'rdm:msg:check:*'
# Other variables: see test/pingpong_lib.sh.
set -u

. "$(dirname "$0")/pingpong_lib.sh"

SIZES=${SIZES:-all}
pp_want="${COMBOS} $*"
[ -z "${pp_want% }" ] && pp_want=""

pp_init
FI_UET_IFACE=lo
export FI_UET_IFACE
trap pp_cleanup EXIT
trap 'exit 130' INT TERM HUP

# ::1 is on lo unless IPv6 is disabled.
have_ipv6=0
grep -q '^0*1 .* lo$' /proc/net/if_inet6 2>/dev/null && have_ipv6=1

echo "fi_pingpong over loopback: PROV=$PROV SIZES=$SIZES ITERS=$ITERS"
for ep in rdm dgram; do
	header=""
	for mode in msg tagged; do
		for check in check nocheck; do
			for fam in ipv4 ipv6; do
				combo=$ep:$mode:$check:$fam
				if ! pp_selected "$combo"; then
					pp_nunsel=$((pp_nunsel + 1))
					continue
				fi
				if [ -z "$header" ]; then
					epu=$(echo "$ep" | tr '[:lower:]' '[:upper:]')
					echo "$ep: first fi_info entry:" \
						"$(pp_data_path "" lo "FI_EP_$epu")"
					header=1
				fi
				set -- -e "$ep" -m "$mode" -I "$ITERS" -S "$SIZES"
				[ "$check" = check ] && set -- "$@" -c
				dst=127.0.0.1
				if [ "$fam" = ipv6 ]; then
					if [ "$have_ipv6" -eq 0 ]; then
						pp_skip "$combo" "::1 not configured on lo"
						continue
					fi
					dst=::1
					set -- "$@" -6
				fi
				# -6 moves only fi_pingpong's control socket;
				# the data path takes the first address uet
				# lists, so name the family.
				export FI_UET_ADDR_FAMILY="$fam"
				pp_pair "$combo" "" lo "" lo "$dst" "" "$@"
			done
		done
	done
done
pp_summary
