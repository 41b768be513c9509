# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh
#
# Helpers shared by test/pingpong.sh and test/netns-pingpong.sh: provider
# set-up, control-port choice, one fi_pingpong server/client pair with a
# PASS/FAIL line, and the summary.  Sourced, not run.
#
# How fi_pingpong (libfabric 1.17, util/pingpong.c) meets its peer: the
# server listens on a TCP control socket (-B, default 47592) bound to the
# wildcard address (IPv6 with -6); the client connects to <srv_addr>:-P.
# The two exchange their fabric endpoint names over that socket, then run
# the ping-pong for every size.  -6 changes only the control socket: the
# data path uses whatever address the provider's fi_getinfo lists first
# for the server (pp_data_path shows it).
#
# Variables read (all optional):
#   PROV          provider name for -p (default uet)
#   ITERS         iterations per size, -I (default 3)
#   PP_TIMEOUT    seconds each fi_pingpong process may run (default 120)
#   LISTEN_WAIT   seconds to wait for the server's control socket (10)
#   COMBOS        space-separated shell patterns; run only combinations
#                 that match one (default: all).  Arguments do the same.
#   SKIP          space-separated shell patterns of combinations not to run
#   UET_PROV_LIBDIR  where the built libuet-fi.so is (default ./.libs);
#                 used for PROV=uet unless FI_PROVIDER_PATH is set
#   KEEP_LOGS     set to keep the per-run logs directory

PROV=${PROV:-uet}
ITERS=${ITERS:-3}
PP_TIMEOUT=${PP_TIMEOUT:-120}
LISTEN_WAIT=${LISTEN_WAIT:-10}
COMBOS=${COMBOS:-}
SKIP=${SKIP:-}

pp_npass=0
pp_nfail=0
pp_nskip=0
pp_nunsel=0
pp_spid=""
pp_cpid=""
pp_preload=""
pp_tmp=""
pp_start=$(date +%s)
pp_name=$(basename "$0")

pp_skip_all() {
	echo "SKIP: $pp_name: $*"
	exit 77
}

# Tools and provider; exits 77 when either is missing.  Sets pp_tmp.
pp_init() {
	for tool in fi_pingpong fi_info timeout awk; do
		command -v "$tool" >/dev/null 2>&1 ||
			pp_skip_all "$tool not installed (fi_*: libfabric-bin, timeout: coreutils)"
	done
	if [ "$PROV" = uet ] && [ -z "${FI_PROVIDER_PATH:-}" ]; then
		libdir=${UET_PROV_LIBDIR:-$(pwd)/.libs}
		if [ -f "$libdir/libuet-fi.so" ]; then
			FI_PROVIDER_PATH=$libdir
			export FI_PROVIDER_PATH
			# A sanitizer build needs the ASan runtime loaded first.
			if nm -D "$libdir/libuet-fi.so" 2>/dev/null |
				grep -q '__asan_init'; then
				pp_preload=$(${CC:-cc} -print-file-name=libasan.so)
				ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
				export ASAN_OPTIONS
			fi
		fi
	fi
	if ! env ${pp_preload:+"LD_PRELOAD=$pp_preload"} \
		timeout -k 5 30 fi_info -p "$PROV" >/dev/null 2>&1; then
		pp_skip_all "provider '$PROV' not listed by 'fi_info -p $PROV'" \
			"(FI_PROVIDER_PATH=${FI_PROVIDER_PATH:-})"
	fi
	# FI_<PROV>_IFACE for the provider itself (uet, tcp, udp, sockets).
	pp_prov_var=FI_$(echo "${PROV%%;*}" | tr '[:lower:]' '[:upper:]')_IFACE
	pp_tmp=$(mktemp -d "${TMPDIR:-/tmp}/uet-pingpong.XXXXXX") ||
		pp_skip_all "mktemp failed"
	# Control ports: a base derived from the PID, below the usual
	# ephemeral range, advanced and probed for every pair.
	pp_port=$((20000 + ($$ * 131) % 10000))
}

# Stop the processes of a pair still running and remove the logs.
pp_cleanup() {
	pp_watch_stop
	for pid in $pp_cpid $pp_spid; do
		kill "$pid" 2>/dev/null
	done
	for pid in $pp_cpid $pp_spid; do
		wait "$pid" 2>/dev/null
	done
	pp_cpid=""
	pp_spid=""
	if [ -n "$pp_tmp" ]; then
		if [ -n "${KEEP_LOGS:-}" ]; then
			echo "logs kept in $pp_tmp"
		else
			rm -rf "$pp_tmp"
		fi
	fi
}

# pp_in NS CMD...: run CMD in network namespace NS (or here if NS is "").
pp_in() {
	ns=$1
	shift
	if [ -n "$ns" ]; then
		ip netns exec "$ns" "$@"
	else
		"$@"
	fi
}

# pp_port_used NS PORT STATE: is a TCP socket (in STATE, a hex state from
# /proc/net/tcp, or any state for "") bound to PORT in NS?
pp_port_used() {
	hex=$(printf '%04X' "$2")
	pp_in "$1" cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
		awk -v p="$hex" -v st="$3" '
			split($2, a, ":") == 2 && a[2] == p &&
			    (st == "" || $4 == st) { f = 1 }
			END { exit !f }'
}

# Sets pp_port to the next control port nothing in NS is bound to.
pp_next_port() {
	tries=0
	while :; do
		pp_port=$((pp_port + 1))
		[ "$pp_port" -ge 30000 ] && pp_port=20000
		pp_port_used "$1" "$pp_port" "" || return 0
		tries=$((tries + 1))
		[ "$tries" -ge 100 ] && return 1
	done
}

pp_alive() {
	kill -0 "$1" 2>/dev/null
}

# pp_wait_listen NS PORT PID: 0 when PORT listens in NS, 2 when PID has
# exited first, 1 after LISTEN_WAIT seconds.
pp_wait_listen() {
	n=$((LISTEN_WAIT * 20))
	while [ "$n" -gt 0 ]; do
		pp_port_used "$1" "$2" 0A && return 0
		pp_alive "$3" || return 2
		sleep 0.05
		n=$((n - 1))
	done
	return 1
}

# pp_reap PID GRACE: wait up to GRACE seconds for PID to end, then stop
# it; the status of PID is left in pp_rc.
pp_reap() {
	n=$(($2 * 20))
	while [ "$n" -gt 0 ] && pp_alive "$1"; do
		sleep 0.05
		n=$((n - 1))
	done
	pp_alive "$1" && kill "$1" 2>/dev/null
	wait "$1"
	pp_rc=$?
}

# pp_bt_tree PID: where every fi_pingpong process under PID (its
# timeout, env and ip netns exec wrappers included) is: each thread's
# backtrace through gdb when there is one, each thread's kernel wait
# channel otherwise.  For hangs, printed before the timeout kills them.
pp_bt_tree() {
	for p in $(pgrep -x fi_pingpong 2>/dev/null); do
		a=$p
		d=0
		while [ "$d" -lt 8 ] && [ "$a" -gt 1 ] && [ "$a" != "$1" ]; do
			a=$(awk '{ print $4 }' "/proc/$a/stat" 2>/dev/null)
			a=${a:-1}
			d=$((d + 1))
		done
		[ "$a" = "$1" ] || continue
		echo "  --- fi_pingpong $p (under $1), still running:"
		if command -v gdb >/dev/null 2>&1; then
			timeout -k 2 30 gdb -p "$p" -batch -nx \
				-ex 'thread apply all bt 25' </dev/null 2>&1 |
				grep -E '^(Thread|#)' | sed 's/^/  | /'
		fi
		for t in /proc/"$p"/task/*; do
			echo "  | task ${t##*/}: wchan $(cat "$t/wchan" 2>/dev/null)"
		done
	done
}

# pp_watch SECS OUT PID...: in the background, after SECS seconds, write
# pp_bt_tree of each PID still alive to OUT (pp_watch_stop ends it
# first; nothing is written when all ended in time).  pp_watch_pid holds
# the watcher.
pp_watch_pid=""
pp_watch() {
	secs=$1
	out=$2
	shift 2
	(
		n=$((secs * 5))
		while [ "$n" -gt 0 ]; do
			sleep 0.2
			n=$((n - 1))
		done
		for p in "$@"; do
			pp_alive "$p" && pp_bt_tree "$p"
		done
	) >"$out" 2>&1 </dev/null &
	pp_watch_pid=$!
}

pp_watch_stop() {
	[ -n "$pp_watch_pid" ] || return 0
	kill "$pp_watch_pid" 2>/dev/null
	wait "$pp_watch_pid" 2>/dev/null
	pp_watch_pid=""
}

# pp_pin IFACE: the env arguments that bind the provider to IFACE, none
# for "-" (the provider chooses, as deployed).
pp_pin() {
	[ "$1" = - ] || echo "FI_UET_IFACE=$1 $pp_prov_var=$1"
}

# pp_fabric NS IFACE ARGS...: fi_pingpong under a timeout in NS with the
# provider bound to IFACE ("-": not bound).
pp_fabric() {
	ns=$1
	iface=$2
	shift 2
	# shellcheck disable=SC2046 # one word per assignment
	set -- env $(pp_pin "$iface") \
		${pp_preload:+"LD_PRELOAD=$pp_preload"} \
		fi_pingpong -p "$PROV" "$@"
	if [ -n "$ns" ]; then
		set -- ip netns exec "$ns" "$@"
	fi
	timeout -k 5 "$PP_TIMEOUT" "$@"
}

# Last result line of a fi_pingpong log: "bytes #sent #ack total time
# MB/sec usec/xfer Mxfers/sec".
pp_result() {
	awk 'NF == 8 && $1 ~ /^[0-9.]+[kmg]?$/ && $3 ~ /^=/ { l = $0 }
		END { print l }' "$1"
}

# pp_selected COMBO: 0 when COMBO is to run (COMBOS or arguments match
# and SKIP does not).
pp_selected() {
	want=${pp_want:-*}
	ok=1
	set -f # the patterns are for case, not for file names
	for pat in $want; do
		# shellcheck disable=SC2254
		case $1 in $pat) ok=0 ;; esac
	done
	for pat in $SKIP; do
		# shellcheck disable=SC2254
		case $1 in $pat) ok=1 ;; esac
	done
	set +f
	return $ok
}

# pp_tail WHO LOG: the messages of a failed run (stderr is unbuffered
# and lands before buffered result lines) and its last result line.
pp_tail() {
	echo "  --- $1 ($2):"
	awk '!(NF == 8 && $3 ~ /^(=|#ack)/)' "$2" | tail -n 10 |
		sed 's/^/  | /'
	last=$(pp_result "$2")
	echo "  | last result: ${last:-none}"
}

pp_fail() {
	echo "FAIL $pp_combo: $*"
	[ -f "$pp_slog" ] && pp_tail server "$pp_slog"
	[ -f "$pp_clog" ] && pp_tail client "$pp_clog"
	[ -s "$pp_clog.hang" ] && cat "$pp_clog.hang"
	pp_nfail=$((pp_nfail + 1))
}

pp_skip() {
	echo "SKIP $1: $2"
	pp_nskip=$((pp_nskip + 1))
}

pp_rc_text() {
	case $1 in
	0) echo "ok" ;;
	124 | 137) echo "timed out after ${PP_TIMEOUT}s (rc $1)" ;;
	*) echo "rc $1" ;;
	esac
}

# pp_pair COMBO SRV_NS SRV_IFACE CLI_NS CLI_IFACE DST WANT_MAX ARGS...:
# one server/client run; prints PASS or FAIL.  WANT_MAX, when not "",
# is the size (as fi_pingpong prints it, e.g. 1m) the last line must
# reach.
pp_pair() {
	pp_combo=$1
	srv_ns=$2
	srv_if=$3
	cli_ns=$4
	cli_if=$5
	dst=$6
	want_max=$7
	shift 7
	pp_slog="$pp_tmp/$(echo "$pp_combo" | tr ':' '-').server"
	pp_clog="$pp_tmp/$(echo "$pp_combo" | tr ':' '-').client"
	attempt=1
	while :; do
		rm -f "$pp_slog" "$pp_clog"
		if ! pp_next_port "$srv_ns"; then
			pp_fail "no free control port"
			return
		fi
		pp_fabric "$srv_ns" "$srv_if" -B "$pp_port" "$@" \
			>"$pp_slog" 2>&1 &
		pp_spid=$!
		pp_wait_listen "$srv_ns" "$pp_port" "$pp_spid"
		st=$?
		[ "$st" -eq 0 ] && break
		if [ "$st" -eq 1 ]; then
			pp_reap "$pp_spid" 0
			pp_spid=""
			pp_fail "server not listening on port $pp_port" \
				"after ${LISTEN_WAIT}s"
			return
		fi
		pp_reap "$pp_spid" 0
		pp_spid=""
		if [ "$attempt" -lt 3 ] &&
			grep -q 'Address already in use' "$pp_slog"; then
			attempt=$((attempt + 1))
			continue
		fi
		pp_fail "server exited before listening ($(pp_rc_text "$pp_rc"))"
		return
	done
	pp_fabric "$cli_ns" "$cli_if" -P "$pp_port" "$@" "$dst" \
		>"$pp_clog" 2>&1 &
	pp_cpid=$!
	wait "$pp_cpid"
	crc=$?
	pp_cpid=""
	# The server ends right after the client; give it time, not forever.
	pp_reap "$pp_spid" 10
	src=$pp_rc
	pp_spid=""
	cres=$(pp_result "$pp_clog")
	sres=$(pp_result "$pp_slog")
	if [ "$crc" -ne 0 ] || [ "$src" -ne 0 ]; then
		pp_fail "client $(pp_rc_text "$crc"), server $(pp_rc_text "$src")"
		return
	fi
	if [ -z "$cres" ] || [ -z "$sres" ]; then
		pp_fail "no result line from client or server"
		return
	fi
	csize=${cres%% *}
	ssize=${sres%% *}
	if [ "$csize" != "$ssize" ]; then
		pp_fail "client ended at size $csize, server at $ssize"
		return
	fi
	if [ -n "$want_max" ] && [ "$csize" != "$want_max" ]; then
		pp_fail "largest size $csize, expected $want_max" \
			"(provider max_msg_size too small?)"
		return
	fi
	# shellcheck disable=SC2086
	set -- $cres
	echo "PASS $pp_combo: size $1: $7 usec/xfer, $6 MB/s"
	pp_npass=$((pp_npass + 1))
}

# pp_data_path NS IFACE EP: what fi_info lists first for the provider
# and endpoint type (FI_EP_RDM, FI_EP_DGRAM) on IFACE, which is the
# fabric fi_pingpong's server picks, -6 or not.
pp_data_path() {
	# shellcheck disable=SC2046 # one word per assignment
	pp_in "$1" env $(pp_pin "$2") \
		${pp_preload:+"LD_PRELOAD=$pp_preload"} \
		timeout -k 5 30 fi_info -p "$PROV" -t "$3" 2>/dev/null |
		awk '$1 == "provider:" && !p { p = $2 }
			$1 == "fabric:" && !f { f = $2 }
			END { print (p ? p " on " f : "nothing listed") }'
}

# Prints the summary and exits 1 on a failure, 77 when nothing ran.
pp_summary() {
	secs=$(($(date +%s) - pp_start))
	echo "SUMMARY $pp_name PROV=$PROV: $pp_npass passed, $pp_nfail failed," \
		"$pp_nskip skipped, $pp_nunsel not selected; ${secs}s"
	[ "$pp_nfail" -gt 0 ] && exit 1
	[ "$pp_npass" -eq 0 ] && exit 77
	exit 0
}
