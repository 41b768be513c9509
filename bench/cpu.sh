#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# CPU per message of uet's 64-byte fi_pingpong (docs/performance.md):
#   - system calls per round trip and side, by name (strace -c -f);
#   - user-space instructions (valgrind --tool=callgrind) per call of the
#     send path (fi_send -> uet_post_tx, doorbell included), per received
#     datagram (uet_pds_rx_tos: PDS, SES, placement, notification) and per
#     progress pass (uet_snic_progress_at, most of them empty polls).
# Both counts are independent of the machine's load.  Not part of make check.
#
#   sh bench/cpu.sh [LIBDIR] [ITERS]     LIBDIR defaults to build/.libs
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
lib=${1:-$top/build/.libs}
iters=${2:-4000}
tmp=$(mktemp -d)
trap '[ -n "${CPU_KEEP:-}" ] && cp "$tmp"/* "$CPU_KEEP"/ 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
export FI_PROVIDER_PATH="$lib" FI_UET_IFACE=lo
for t in strace valgrind callgrind_annotate fi_pingpong; do
	command -v $t >/dev/null 2>&1 || { echo "cpu.sh: needs $t" >&2; exit 2; }
done

port=$((20000 + $$ % 20000))
# pp TOOL OUTOPT: one fi_pingpong pair, each side under TOOL writing
# OUTOPT<file> ($tmp/srv or $tmp/cli).
pp() {
	$1 $2"$tmp/srv" fi_pingpong -e rdm -p uet -S 64 -I "$iters" \
		-B "$port" >/dev/null 2>&1 &
	srv=$!
	sleep 2
	$1 $2"$tmp/cli" fi_pingpong -e rdm -p uet -S 64 -I "$iters" \
		-P "$port" 127.0.0.1 >/dev/null 2>&1 || true
	wait "$srv" || true
	port=$((port + 1))
}

pp "strace -f -c" "-o"
mv "$tmp/cli" "$tmp/st"
echo "system calls per round trip (client side, $iters round trips):"
for c in sendmmsg recvmmsg timerfd_settime epoll_wait poll; do
	awk -v c="$c" -v n="$iters" '$NF == c {
		err = (NF == 6) ? $5 : 0
		printf "  %-16s %6.2f (%.2f failed: EAGAIN polls)\n", c, $4 / n,
		       err / n }' "$tmp/st"
done

pp "valgrind --tool=callgrind" "--callgrind-out-file="
echo "user-space instructions (callgrind, client side):"
callgrind_annotate --inclusive=yes --tree=caller "$tmp/cli" 2>/dev/null |
awk '
/^ *[0-9,]+ .*< / { n = $0; sub(/.*\(/, "", n); sub(/x\).*/, "", n)
		    gsub(/,/, "", n); calls += n + 0 }
/\*  / {
	ir = $1; gsub(/,/, "", ir)
	name = ""
	if ($0 ~ /:(uet_ep_send|uet_post_tx)( |$)/) name = "send (post, doorbell)"
	else if ($0 ~ /:uet_pds_rx_tos( |$)/) name = "received datagram"
	else if ($0 ~ /:uet_snic_progress_at( |$)/) name = "progress pass"
	if (name != "" && calls && !(name in seen)) {
		seen[name] = 1
		printf "  %-20s %8.0f per call (%d calls)\n", name, ir / calls,
		       calls
	}
	calls = 0
}'
# The same per call, from the inclusive totals: the receive's CQ entry
# (notification decode, uet_ep_recv_done) and a fi_cq_read pass less the
# datagrams and CQ entries it handled (the cost of an empty poll).
callgrind_annotate --inclusive=yes --threshold=100 "$tmp/cli" 2>/dev/null >"$tmp/incl"
callgrind_annotate --inclusive=yes --threshold=100 --tree=calling "$tmp/cli" 2>/dev/null \
	>"$tmp/calling"
ir() { awk -v f=":$1 [" 'index($0, f) && !/ > / { v = $1; gsub(/,/, "", v)
	print v; exit }' "$tmp/incl"; }
calls() { awk -v f=":$1 (" '/ > / && index($0, f) { m = $0
	sub(/.*\(/, "", m); sub(/x\).*/, "", m); gsub(/,/, "", m); s += m }
	END { print s + 0 }' "$tmp/calling"; }
cq=$(ir uet_cq_readfrom); ncq=$(calls uet_cq_readfrom)
rx=$(ir uet_pds_rx_tos); rd=$(ir uet_ep_recv_done); nrd=$(calls uet_ep_recv_done)
if [ -n "$cq" ] && [ "$ncq" -gt 0 ] && [ "$nrd" -gt 0 ]; then
	printf "  %-20s %8d per call (%d calls)\n" "CQ entry (recv)" \
	       $((rd / nrd)) "$nrd"
	printf "  %-20s %8d per call (%d calls)\n" "fi_cq_read, net" \
	       $(((cq - ${rx:-0} - rd) / ncq)) "$ncq"
fi

# An empty poll on its own (bench/uet_poll_empty.c: one endpoint, no
# peer, fi_cq_read on an empty CQ): the figure the averages above mix
# with the passes that had work.
if command -v cc >/dev/null 2>&1 &&
   cc -O2 -o "$tmp/poll_empty" "$top/bench/uet_poll_empty.c" -lfabric \
	2>/dev/null; then
	valgrind --tool=callgrind --callgrind-out-file="$tmp/empty" \
		"$tmp/poll_empty" 20000 >/dev/null 2>&1 || true
	callgrind_annotate --inclusive=yes "$tmp/empty" 2>/dev/null |
	awk '/:uet_cq_read \[/ && !/=>/ { v = $1; gsub(/,/, "", v)
		printf "  %-20s %8d per call (20000 calls)\n",
		       "empty fi_cq_read", v / 20000; exit }'
fi
