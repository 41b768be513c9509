#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The live case of issue 30, finding 1: rendezvous pull data is taken
# only on the PDC its READ went out on.  Two uet processes on 127.0.0.1
# run `fi_pingpong -c -S 4194304` (4 MiB messages: rendezvous, pulled in
# 64 KiB READs, the data checked) while test/hostile_rdata sprays forged
# Response-with-Data datagrams at both NICs, each from the other NIC's
# address and port (a raw socket spoofs the source): over UUD, RUDI and
# as RUD syn requests, READ ids cycling over all 65535 and random,
# offsets at 64 KiB chunk boundaries and random, 1000-byte and small
# payloads, the processes' JobID.  Nothing is set but the NICs' ports
# and the interface (lo).
#
# Passes when both processes complete every iteration with the data
# intact (exit 0), and the NICs' drop counters at close (FI_LOG_LEVEL=
# warn, "drops from the network since open") show the forgeries dropped:
# rdata_unmatched > 0 on at least one side.  Before the fix (9721c05)
# the forgeries were placed: a data error at the last bytes of a 64 KiB
# chunk, or both sides hang (killed after PP_TIMEOUT).  Skips (77)
# without fi_pingpong, the uet provider or a raw socket (CAP_NET_RAW).
#
# Variables: ITERS (default 50), GAP_US (between forgeries, default 20),
# PP_TIMEOUT (default 60 s per process), SEED (the sprayer's), MODES
# (delivery modes of the forgeries: u UUD, r RUDI, s RUD syn; "urs").
ITERS=${ITERS:-50}
GAP_US=${GAP_US:-20}
PP_TIMEOUT=${PP_TIMEOUT:-60}
SEED=${SEED:-$$}
MODES=${MODES:-urs}
SIZE=4194304
. "$(dirname "$0")/pingpong_lib.sh"

sender=${HOSTILE_RDATA:-$(pwd)/test/hostile_rdata}
[ -x "$sender" ] || pp_skip_all "test/hostile_rdata not built"
"$sender" 1 2 1 0 >/dev/null 2>&1
case $? in
0) ;;
77) pp_skip_all "no raw socket (CAP_NET_RAW) to spoof the peers' address" ;;
*) pp_skip_all "test/hostile_rdata cannot open its raw socket" ;;
esac
pp_init
hpid=""
trap '[ -n "$hpid" ] && kill "$hpid" 2>/dev/null; pp_cleanup' EXIT INT TERM

# udp_bound PORT: is a UDP socket bound to PORT (IPv4 or IPv6)?
udp_bound() {
	hex=$(printf '%04X' "$1")
	awk -v p="$hex" 'split($2, a, ":") == 2 && a[2] == p { f = 1 }
		END { exit !f }' /proc/net/udp /proc/net/udp6 2>/dev/null
}

# The NICs' ports: two free UDP ports in a row, away from the control
# ports (20000-30000), from hostile-pingpong.sh's (61000-63000) and above
# the kernel's ephemeral ports (32768-60999 by default), which the NICs
# of suites running beside this one take (check_prov_scale hundreds: one
# took the server's port between the check below and its bind, and both
# sides waited for each other until their timeout).
sport=$((63000 + ($$ * 11) % 2000))
tries=0
while udp_bound "$sport" || udp_bound $((sport + 1)); do
	sport=$((sport + 2))
	[ "$sport" -ge 65000 ] && sport=63000
	tries=$((tries + 1))
	[ "$tries" -ge 100 ] && pp_skip_all "no free UDP port pair"
done
cport=$((sport + 1))
pp_next_port "" || pp_skip_all "no free control port"
ctl=$pp_port
slog=$pp_tmp/server.log
clog=$pp_tmp/client.log
hlog=$pp_tmp/hostile.log

FI_UET_PORT=$sport FI_LOG_LEVEL=warn FI_LOG_PROV=uet \
	pp_fabric "" lo -e rdm -c -S "$SIZE" -I "$ITERS" -B "$ctl" \
	>"$slog" 2>&1 &
pp_spid=$!
pp_wait_listen "" "$ctl" "$pp_spid" || {
	cat "$slog"
	echo "FAIL: hostile-rdzv: the server did not start"
	exit 1
}
FI_UET_PORT=$cport FI_LOG_LEVEL=warn FI_LOG_PROV=uet \
	pp_fabric "" lo -e rdm -c -S "$SIZE" -I "$ITERS" -P "$ctl" \
	127.0.0.1 >"$clog" 2>&1 &
pp_cpid=$!
# The attack starts once both NICs hold their ports (before, it would
# only draw ICMP errors) and goes on until the client is done.
n=200
while [ "$n" -gt 0 ] && ! { udp_bound "$sport" && udp_bound "$cport"; }; do
	pp_alive "$pp_cpid" || break
	sleep 0.05
	n=$((n - 1))
done
"$sender" "$sport" "$cport" 1 "$PP_TIMEOUT" "$SEED" "$GAP_US" "$MODES" \
	>"$hlog" 2>&1 &
hpid=$!
# A hang shows where both sides were, before the timeout kills them.
pp_watch $((PP_TIMEOUT - 8)) "$clog.hang" "$pp_cpid" "$pp_spid"
pp_reap "$pp_cpid" "$PP_TIMEOUT"
crc=$pp_rc
pp_cpid=""
pp_watch_stop
kill "$hpid" 2>/dev/null
wait "$hpid"
hpid=""
pp_reap "$pp_spid" 15
src=$pp_rc
pp_spid=""
cat "$hlog"

# rdata WHO LOG: print LOG's drop counters at close, one per line; the
# value of rdata_unmatched (0 when absent) is left in rd.
rd=0
rdata() {
	line=$(grep 'drops from the network since open' "$2" |
		sed 's/.*since open: *//' | tail -n 1)
	echo "$1: drop counters at close: ${line:-none}"
	rd=$(echo "$line" | tr ' ' '\n' |
		sed -n 's/^rdata_unmatched=\([0-9]*\)$/\1/p')
	rd=${rd:-0}
}
rdata server "$slog"
srd=$rd
rdata client "$clog"
crd=$rd

fail=0
if [ "$crc" -ne 0 ] || [ "$src" -ne 0 ]; then
	echo "client $(pp_rc_text "$crc"), server $(pp_rc_text "$src")"
	fail=1
fi
for who in server client; do
	[ $who = server ] && log=$slog || log=$clog
	res=$(pp_result "$log")
	case $res in
	"4m "*) echo "$who: $res" ;;
	*)
		echo "$who: no 4m result line"
		fail=1
		;;
	esac
	if [ $fail -ne 0 ]; then
		pp_tail "$who" "$log"
	fi
done
[ $fail -ne 0 ] && [ -s "$clog.hang" ] && cat "$clog.hang"
if [ "$srd" -eq 0 ] && [ "$crd" -eq 0 ]; then
	echo "no rdata_unmatched drop on either side:" \
		"the forgeries were not seen"
	fail=1
fi
if [ $fail -ne 0 ] && [ "$srd" -eq 0 ] && [ "$crd" -eq 0 ] &&
	[ -z "${UET_HOSTILE_RDZV_RETRY:-}" ]; then
	# The pair never set up while the flood ran (seen in loaded CI
	# runs, never alone; unexplained: docs/testing.md): once more.
	echo "RETRY: hostile-rdzv: no PDC of the pair was set up; once more"
	pp_cleanup 2>/dev/null || true
	UET_HOSTILE_RDZV_RETRY=1 exec sh "$0" "$@"
fi
if [ $fail -ne 0 ]; then
	echo "FAIL: hostile-rdzv"
	exit 1
fi
echo "PASS: hostile-rdzv: $ITERS iterations of 4 MiB with data checked;" \
	"forged Response-with-Data dropped (rdata_unmatched: server $srd," \
	"client $crd)"
exit 0
