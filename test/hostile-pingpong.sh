#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# A live hostile-network test (issue 15): a fi_pingpong server over uet
# on 127.0.0.1 receives a few thousand malformed datagrams on its UDP
# port (test/hostile_udp: truncated, random, valid-looking with random
# fields, huge lengths) while a normal client runs against it.  Passes
# when the client and the server complete, and the server's warnings
# (FI_LOG_LEVEL=warn, rate-limited per cause) show the drops by cause.
# Skips (77) without fi_pingpong or the uet provider.
#
# Variables: COUNT (datagrams, default 4000), ITERS (default 3000).
COUNT=${COUNT:-4000}
ITERS=${ITERS:-3000}
. "$(dirname "$0")/pingpong_lib.sh"

sender=${HOSTILE_UDP:-$(pwd)/test/hostile_udp}
[ -x "$sender" ] || pp_skip_all "test/hostile_udp not built"
pp_init
trap 'pp_cleanup' EXIT INT TERM

# The server's NIC port: above the kernel's ephemeral ports (32768-60999
# by default), where no NIC of a suite running beside this one (they take
# ephemeral ports, check_prov_scale hundreds) can take it first.
uport=$((61000 + ($$ * 7) % 2000))
pp_next_port "" || pp_skip_all "no free control port"
ctl=$pp_port
slog=$pp_tmp/server.log
clog=$pp_tmp/client.log
hlog=$pp_tmp/hostile.log

FI_UET_PORT=$uport FI_LOG_LEVEL=warn FI_LOG_PROV=uet \
	pp_fabric "" lo -e rdm -I "$ITERS" -S 64 -B "$ctl" >"$slog" 2>&1 &
pp_spid=$!
pp_wait_listen "" "$ctl" "$pp_spid" || {
	cat "$slog"
	echo "FAIL: hostile-pingpong: the server did not start"
	exit 1
}
# The attack starts before the client and goes on while it runs.
"$sender" 127.0.0.1 "$uport" "$COUNT" 12345 100 >"$hlog" 2>&1 &
hpid=$!
sleep 0.2
FI_UET_PORT=$((uport + 1)) pp_fabric "" lo -e rdm -I "$ITERS" -S 64 \
	-P "$ctl" 127.0.0.1 >"$clog" 2>&1 &
pp_cpid=$!
pp_reap "$pp_cpid" "$PP_TIMEOUT"
crc=$pp_rc
pp_cpid=""
wait "$hpid"
pp_reap "$pp_spid" 30
src=$pp_rc
pp_spid=""
cat "$hlog"
echo "server: rate-limited warnings (samples):"
grep 'software NIC: dropped' "$slog" | sed 's/.*software NIC: /  /' |
	sort | uniq -c | head -20
echo "server: drop counters at close:"
grep 'drops from the network since open' "$slog" |
	sed 's/.*since open: *//' | tr ' ' '\n' | sed 's/^/  /'
fail=0
if [ "$crc" -ne 0 ] || [ "$src" -ne 0 ]; then
	echo "client exit $crc, server exit $src"
	echo "--- client"; tail -n 20 "$clog"
	echo "--- server"; tail -n 20 "$slog"
	fail=1
fi
grep -q "^64 *$ITERS " "$clog" || grep -q "^64 " "$clog" || {
	echo "no result line in the client's log"; tail -n 20 "$clog"; fail=1; }
for cause in 'malformed datagrams' 'PDC openings refused by SES'; do
	grep -q "dropped [0-9]* $cause" "$slog" || {
		echo "no drop warning for: $cause"; fail=1; }
done
for cause in malformed syn_refused addr_refused; do
	grep 'drops from the network since open' "$slog" |
		grep -q " $cause=[0-9]" || {
		echo "no $cause counter at close"; fail=1; }
done
if [ $fail -ne 0 ]; then
	echo "FAIL: hostile-pingpong"
	exit 1
fi
echo "PASS: hostile-pingpong: client completed $ITERS iterations under $COUNT hostile datagrams"
exit 0
