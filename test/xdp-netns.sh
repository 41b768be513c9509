#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# uet over its AF_XDP link (FI_UET_LINK=xdp, snic/uet_link_xdp.h) between
# two network namespaces joined by a veth pair (native XDP on both ends):
#   xdp:msg:ipv4       fi_pingpong -c, rdm, every default size (64 B to
#                      1 MiB: eager, then rendezvous READs)
#   xdp:tagged:ipv4    the same, tagged, with FI_UET_LINK=auto
#   xdp:msg:ipv6       the same over IPv6, with FI_UET_STANDBY_MS=1 (the
#                      standby thread answers in every pause of the
#                      application, sleeping on the link's epoll fd)
#   xdp:dgram:ipv4     dgram endpoints (UUD)
#   xdp:loss:ipv4      rdm -c with FI_UET_LOSS_PPM=20000 on both sides
#                      (2% of received datagrams dropped by the link:
#                      retransmission over AF_XDP); the AF_XDP counters
#                      must show drops
#   xdp:tss:ipv4       rdm -c with FI_UET_TSS=required (TSS over the
#                      AF_XDP link)
#   xdp:rma-*:ipv4     fabtests' fi_rma_bw -o write, read, writedata and
#   xdp:atomic:ipv4    fi_rdm_atomic -o all, when FABTESTS_DIR names a
#                      fabtests install (docs/fabtests.md), else skipped
#   xdp:mixed:ipv4     server over AF_XDP, client over UDP (the kernel's
#                      datagrams, checksum left to the device, reach the
#                      XDP program)
#   xdp:kernel:ipv4    while uet runs over AF_XDP with the program
#                      attached: a UDP echo on another port and ping
#                      still reach the kernel, both ways
#   xdp:hostile:ipv4   4 MiB rendezvous with data checked while
#                      test/hostile_rdata in each namespace sprays
#                      forged Response-with-Data at the other's NIC
#                      (test/hostile-rdzv.sh over AF_XDP): completes,
#                      forgeries counted in rdata_unmatched
# The veth has two queues each way.  For every uet run the info log must
# name the AF_XDP link on the veth, with one AF_XDP socket per queue,
# and its counters at close must show datagrams received through
# AF_XDP.  The first run also decides: when the link cannot attach
# (no native XDP, no privileges, built without XDP) the log says why and
# the test skips (77) with that reason.
#
#   xdp:fallback:lo    first, and wherever the test runs: both sides on lo
#                      in one namespace with FI_UET_LINK=xdp run over UDP
#                      and warn why (lo has no native XDP)
# Traffic stays inside the two namespaces, which are removed on every
# exit.  Variables: ITERS (default 20), COMBOS / SKIP (patterns, as in
# test/pingpong.sh), PP_TIMEOUT, KEEP_LOGS.
set -u
ITERS=${ITERS:-20}
. "$(dirname "$0")/pingpong_lib.sh"
. "$(dirname "$0")/netns_lib.sh"

pp_want="${COMBOS} $*"
[ -z "${pp_want% }" ] && pp_want=""

ns_srv=uet-xdp-$$-srv
ns_cli=uet-xdp-$$-cli
if_srv=uetxd$$s
if_cli=uetxd$$c
a4_srv=10.251.9.1
a4_cli=10.251.9.2
a6_srv=fd00:251:9::1
a6_cli=fd00:251:9::2
hpids=""

ns_hook() {
	for p in $hpids; do
		kill "$p" 2>/dev/null
	done
}

ns_begin
ns_first "$ns_srv"
ns_add "$ns_cli"
# Two queues each way: one AF_XDP socket per receive queue.
ns_step ip -n "$ns_srv" link add "$if_srv" mtu 1500 numtxqueues 2 \
	numrxqueues 2 type veth peer name "$if_cli" netns "$ns_cli" \
	mtu 1500 numtxqueues 2 numrxqueues 2
for x in "$ns_srv $if_srv" "$ns_cli $if_cli"; do
	# shellcheck disable=SC2086 # NS IFACE
	set -- $x
	ns_step ip -n "$1" link set lo up
	ns_step ip -n "$1" link set "$2" addrgenmode none
	ns_step ip -n "$1" link set "$2" up
done

# use_family ipv4|ipv6: the veth ends carry that family only (the
# provider's data path then uses it); bounded wait for carrier.
use_family() {
	fam=$1
	for x in "$ns_srv $if_srv $a4_srv $a6_srv" \
		"$ns_cli $if_cli $a4_cli $a6_cli"; do
		# shellcheck disable=SC2086 # NS IFACE A4 A6
		set -- $x "$fam"
		ns_step ip -n "$1" addr flush dev "$2"
		if [ "$5" = ipv4 ]; then
			ns_step ip -n "$1" addr add "$3/24" dev "$2"
		else
			ns_step ip -n "$1" addr add "$4/64" dev "$2" nodad
		fi
	done
	n=100
	while [ "$n" -gt 0 ]; do
		ip -n "$ns_srv" link show dev "$if_srv" | grep -q LOWER_UP &&
			ip -n "$ns_cli" link show dev "$if_cli" |
			grep -q LOWER_UP && return
		sleep 0.05
		n=$((n - 1))
	done
	echo "FAIL: veth not ready after 5s"
	exit 1
}

export FI_LOG_LEVEL=info FI_LOG_PROV=uet FI_UET_LINK=xdp
probed=""
prog=fi_pingpong

# link_rx WHO LOG IFACE: 0 when LOG names the AF_XDP link on IFACE and
# its close-time counters show datagrams received through it; the
# counters line is left in xl.
link_rx() {
	xl=$(grep "AF_XDP link on $3:" "$2" | tail -n 1 | sed 's/.*AF_XDP link/AF_XDP link/')
	if ! grep -q "AF_XDP link on .*(AF_XDP on $3," "$2"; then
		echo "  $1: the log does not name the AF_XDP link on $3"
		return 1
	fi
	rx=$(echo "$xl" | sed -n 's/.*), rx \([0-9]*\) (socket.*/\1/p')
	case $xl in *": 2 queue(s),"*) ;; *)
		echo "  $1: not one AF_XDP socket per queue (2): $xl"
		return 1 ;;
	esac
	if [ -z "$rx" ] || [ "$rx" -eq 0 ]; then
		echo "  $1: nothing received through AF_XDP: ${xl:-no counters}"
		return 1
	fi
	return 0
}

# probe_skip LOG: the first run over the veth decides whether XDP
# attaches here (a failure before it still fails the test).
probe_skip() {
	[ -n "$probed" ] && return
	probed=1
	why=$(grep -h "no AF_XDP link" "$@" | head -n 1 | sed 's/.*FI_UET_LINK=xdp: //')
	[ -z "$why" ] && return
	if [ "$pp_nfail" -gt 0 ]; then
		echo "FAIL: $pp_nfail failed before AF_XDP was found not to attach: $why"
		exit 1
	fi
	pp_skip_all "AF_XDP cannot attach here: $why"
}

# xdp_pair COMBO SRV_ENV CLI_ENV DST WANT_MAX ARGS...: a fi_pingpong
# pair with per-side environment ("-" for none), then the AF_XDP checks
# (a side with FI_UET_LINK=udp in its environment is not checked).
xdp_pair() {
	combo=$1
	senv=$2
	cenv=$3
	dst=$4
	want=$5
	shift 5
	[ "$senv" = - ] && senv=""
	[ "$cenv" = - ] && cenv=""
	pp_slog="$pp_tmp/$(echo "$combo" | tr ':' '-').server"
	pp_clog="$pp_tmp/$(echo "$combo" | tr ':' '-').client"
	pp_combo=$combo
	if ! pp_next_port "$ns_srv"; then
		pp_fail "no free control port"
		return
	fi
	# fi_pingpong meets its peer on a TCP control port (-B / -P); a
	# fabtest through the provider's own addresses (its -B would be the
	# NIC's port), on its default port, after a second
	sport="-B $pp_port"
	cport="-P $pp_port"
	if [ "$prog" != fi_pingpong ]; then
		sport=""
		cport=""
	fi
	# shellcheck disable=SC2086 # one word per assignment
	timeout -k 5 "$PP_TIMEOUT" ip netns exec "$ns_srv" env \
		${pp_preload:+"LD_PRELOAD=$pp_preload"} $senv \
		"$prog" -p uet $sport "$@" >"$pp_slog" 2>&1 &
	pp_spid=$!
	[ -z "$sport" ] && sleep 1
	if [ -n "$sport" ] && ! pp_wait_listen "$ns_srv" "$pp_port" "$pp_spid"; then
		pp_reap "$pp_spid" 0
		pp_spid=""
		probe_skip "$pp_slog"
		pp_fail "server did not listen"
		return
	fi
	# shellcheck disable=SC2086 # one word per assignment
	timeout -k 5 "$PP_TIMEOUT" ip netns exec "$ns_cli" env \
		${pp_preload:+"LD_PRELOAD=$pp_preload"} $cenv \
		"$prog" -p uet $cport "$@" "$dst" \
		>"$pp_clog" 2>&1 &
	pp_cpid=$!
	# A hang shows where both sides were (pp_fail prints it).
	rm -f "$pp_clog.hang"
	pp_watch $((PP_TIMEOUT - 8)) "$pp_clog.hang" "$pp_cpid" "$pp_spid"
	wait "$pp_cpid"
	crc=$?
	pp_cpid=""
	pp_watch_stop
	pp_reap "$pp_spid" 10
	src=$pp_rc
	pp_spid=""
	probe_skip "$pp_slog" "$pp_clog"
	if [ "$prog" = fi_pingpong ]; then
		cres=$(pp_result "$pp_clog")
	else	# a fabtest: its last line
		cres=$(grep -v '^libfabric' "$pp_clog" | tail -n 1)
	fi
	if [ "$crc" -ne 0 ] || [ "$src" -ne 0 ] || [ -z "$cres" ]; then
		pp_fail "client $(pp_rc_text "$crc"), server $(pp_rc_text "$src")"
		return
	fi
	if [ -n "$want" ] && [ "${cres%% *}" != "$want" ]; then
		pp_fail "largest size ${cres%% *}, expected $want"
		return
	fi
	ok=1
	case " $senv " in *FI_UET_LINK=udp*) ;; *)
		link_rx server "$pp_slog" "$if_srv" || ok=0 ;;
	esac
	sxl=$xl
	case " $cenv " in *FI_UET_LINK=udp*) ;; *)
		link_rx client "$pp_clog" "$if_cli" || ok=0 ;;
	esac
	if [ "$ok" -ne 1 ]; then
		pp_fail "not over AF_XDP"
		return
	fi
	if [ "$prog" = fi_pingpong ]; then
		# shellcheck disable=SC2086
		set -- $cres
		echo "PASS $combo: size $1: $7 usec/xfer, $6 MB/s"
	else
		echo "PASS $combo: $prog $*: last line: $cres"
	fi
	echo "  server $sxl"
	pp_npass=$((pp_npass + 1))
}

echo "uet over AF_XDP between $ns_srv ($if_srv) and $ns_cli ($if_cli):" \
	"ITERS=$ITERS"
use_family ipv4
# Graceful fallback: on lo (no XDP there), FI_UET_LINK=xdp runs over UDP
# and warns why; wherever this runs, XDP or not.
if pp_selected xdp:fallback:lo; then
	pp_pair xdp:fallback:lo "$ns_srv" lo "$ns_srv" lo 127.0.0.1 1m \
		-e rdm -c -I "$ITERS"
	for lg in "$pp_slog" "$pp_clog"; do
		if ! grep -q "FI_UET_LINK=xdp: no AF_XDP link on 127.0.0.1 (.*); UDP link instead" "$lg"; then
			pp_fail "no fallback warning in $lg"
		fi
	done
	grep -h "no AF_XDP link" "$pp_slog" | head -n 1 | sed 's/.*software NIC: /  /'
fi
pp_selected xdp:msg:ipv4 &&
	xdp_pair xdp:msg:ipv4 - - "$a4_srv" 1m -e rdm -c -I "$ITERS"
pp_selected xdp:tagged:ipv4 &&
	xdp_pair xdp:tagged:ipv4 FI_UET_LINK=auto FI_UET_LINK=auto \
		"$a4_srv" 1m -e rdm -m tagged -c \
		-I "$ITERS"
pp_selected xdp:dgram:ipv4 &&
	xdp_pair xdp:dgram:ipv4 - - "$a4_srv" "" -e dgram -c -I "$ITERS"
if pp_selected xdp:loss:ipv4; then
	xdp_pair xdp:loss:ipv4 FI_UET_LOSS_PPM=20000 FI_UET_LOSS_PPM=20000 \
		"$a4_srv" 1m -e rdm -c -I "$ITERS"
	for lg in "$pp_slog" "$pp_clog"; do
		d=$(grep "AF_XDP link on" "$lg" | sed -n 's/.*, dropped \([0-9]*\), per queue.*/\1/p' | tail -n 1)
		if [ -z "$d" ] || [ "$d" -eq 0 ]; then
			pp_combo=xdp:loss:ipv4
			pp_fail "the loss knob dropped nothing on AF_XDP ($lg)"
		fi
	done
fi
if pp_selected xdp:tss:ipv4; then
	key=$pp_tmp/tss.key
	(umask 077 && head -c 32 /dev/urandom >"$key")
	xdp_pair xdp:tss:ipv4 "FI_UET_TSS=required FI_UET_TSS_KEY_FILE=$key" \
		"FI_UET_TSS=required FI_UET_TSS_KEY_FILE=$key" "$a4_srv" 1m \
		-e rdm -c -I "$ITERS"
	for lg in "$pp_slog" "$pp_clog"; do
		if ! grep -q "transport security required" "$lg"; then
			pp_combo=xdp:tss:ipv4
			pp_fail "TSS was not on ($lg)"
		fi
	done
fi
# RMA and atomics: fabtests' fi_rma_bw and fi_rdm_atomic, when
# FABTESTS_DIR names a fabtests install (docs/fabtests.md).
if [ -n "${FABTESTS_DIR:-}" ] && [ -x "$FABTESTS_DIR/bin/fi_rma_bw" ]; then
	prog=$FABTESTS_DIR/bin/fi_rma_bw
	for op in write read writedata; do
		pp_selected "xdp:rma-$op:ipv4" &&
			xdp_pair "xdp:rma-$op:ipv4" - - "$a4_srv" "" -e rdm \
				-o "$op" -I "$ITERS"
	done
	prog=$FABTESTS_DIR/bin/fi_rdm_atomic
	pp_selected xdp:atomic:ipv4 &&
		xdp_pair xdp:atomic:ipv4 - - "$a4_srv" "" -o all -I 5
	prog=fi_pingpong
else
	for c in xdp:rma-write:ipv4 xdp:atomic:ipv4; do
		pp_selected "$c" && pp_skip "$c" "FABTESTS_DIR not set (docs/fabtests.md)"
	done
fi
pp_selected xdp:mixed:ipv4 &&
	xdp_pair xdp:mixed:ipv4 - FI_UET_LINK=udp "$a4_srv" 1m -e rdm -c \
		-I "$ITERS"

# The kernel still gets what is not uet's while uet runs over AF_XDP.
if pp_selected xdp:kernel:ipv4; then
	pp_combo=xdp:kernel:ipv4
	if ! command -v python3 >/dev/null 2>&1 ||
		! command -v ping >/dev/null 2>&1; then
		pp_skip xdp:kernel:ipv4 "python3 or ping not installed"
	else
		klog=$pp_tmp/kernel
		pp_next_port "$ns_srv"
		kport=$pp_port
		timeout -k 5 "$PP_TIMEOUT" ip netns exec "$ns_srv" env \
			${pp_preload:+"LD_PRELOAD=$pp_preload"} \
			fi_pingpong -p uet -B "$kport" -e rdm -S 64 \
			-I 100000000 >"$klog.server" 2>&1 &
		spid=$!
		hpids="$hpids $spid"
		pp_wait_listen "$ns_srv" "$kport" "$spid"
		timeout -k 5 "$PP_TIMEOUT" ip netns exec "$ns_cli" env \
			${pp_preload:+"LD_PRELOAD=$pp_preload"} \
			fi_pingpong -p uet -P "$kport" -e rdm -S 64 \
			-I 100000000 "$a4_srv" >"$klog.client" 2>&1 &
		cpid=$!
		hpids="$hpids $cpid"
		# the echo: UDP port 7 + the control port, in the server ns
		eport=$((kport + 7))
		timeout 20 ip netns exec "$ns_srv" python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("0.0.0.0", int(sys.argv[1])))
s.settimeout(15)
for _ in range(5):
    d, a = s.recvfrom(2048)
    s.sendto(d, a)
' "$eport" >"$klog.echo" 2>&1 &
		epid=$!
		hpids="$hpids $epid"
		# wait until both uet NICs are up (their XDP programs on)
		n=200
		while [ "$n" -gt 0 ]; do
			ip -n "$ns_srv" link show dev "$if_srv" | grep -q 'prog/xdp' &&
				ip -n "$ns_cli" link show dev "$if_cli" |
				grep -q 'prog/xdp' && break
			sleep 0.05
			n=$((n - 1))
		done
		sleep 0.5
		res=$(timeout 20 ip netns exec "$ns_cli" python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(2)
ok = 0
for i in range(5):
    m = b"uet-xdp-echo-%d" % i
    s.sendto(m, (sys.argv[1], int(sys.argv[2])))
    try:
        d, _ = s.recvfrom(2048)
        ok += d == m
    except socket.timeout:
        pass
print(ok)
' "$a4_srv" "$eport" 2>&1)
		p1=$(ip netns exec "$ns_cli" ping -c 3 -i 0.2 -W 2 "$a4_srv" 2>&1 |
			sed -n 's/.* \([0-9]*\) received.*/\1/p')
		p2=$(ip netns exec "$ns_srv" ping -c 3 -i 0.2 -W 2 "$a4_cli" 2>&1 |
			sed -n 's/.* \([0-9]*\) received.*/\1/p')
		attached=0
		ip -n "$ns_srv" link show dev "$if_srv" | grep -q 'prog/xdp' &&
			ip -n "$ns_cli" link show dev "$if_cli" |
			grep -q 'prog/xdp' && attached=1
		running=0
		pp_alive "$spid" && pp_alive "$cpid" && running=1
		kill "$cpid" "$spid" "$epid" 2>/dev/null
		wait "$cpid" "$spid" "$epid" 2>/dev/null
		hpids=""
		probe_skip "$klog.server" "$klog.client"
		if [ "$res" = 5 ] && [ "${p1:-0}" = 3 ] &&
			[ "${p2:-0}" = 3 ] && [ "$attached" = 1 ] &&
			[ "$running" = 1 ]; then
			echo "PASS xdp:kernel:ipv4: UDP echo 5/5, ping 3/3 both" \
				"ways, with the XDP programs attached and uet running"
			pp_npass=$((pp_npass + 1))
		else
			pp_fail "echo ${res:-none}/5, ping ${p1:-0}/3 and" \
				"${p2:-0}/3, programs attached $attached, uet" \
				"running $running"
		fi
	fi
fi

# test/hostile-rdzv.sh's attack, over AF_XDP.
if pp_selected xdp:hostile:ipv4; then
	sender=${HOSTILE_RDATA:-$(pwd)/test/hostile_rdata}
	if [ ! -x "$sender" ]; then
		pp_skip xdp:hostile:ipv4 "test/hostile_rdata not built"
	else
	# One more attempt when the first exchanged nothing at all: twice
	# in full-suite runs on a loaded 2-CPU machine the pair never set
	# up (both sides timed out, every forgery counted as a refused PDC
	# opening), never when the case runs alone, loaded or not; not yet
	# explained (docs/testing.md).
	for attempt in 1 2; do
		nfail0=$pp_nfail
		hlog=$pp_tmp/hostile
		port=4793
		for ns in "$ns_srv" "$ns_cli"; do
			timeout -k 2 "$PP_TIMEOUT" ip netns exec "$ns" "$sender" \
				"$port" "$port" 1 "$PP_TIMEOUT" "$$" 20 urs \
				"$a4_srv" "$a4_cli" >"$hlog.$ns" 2>&1 &
			hpids="$hpids $!"
		done
		xdp_pair xdp:hostile:ipv4 FI_UET_PORT=$port FI_UET_PORT=$port \
			"$a4_srv" 4m -e rdm -c -S 4194304 -I "$ITERS"
		for p in $hpids; do
			kill "$p" 2>/dev/null
			wait "$p" 2>/dev/null
		done
		hpids=""
		cat "$hlog".*
		rd=0
		for lg in "$pp_slog" "$pp_clog"; do
			v=$(grep 'drops from the network since open' "$lg" |
				tr ' ' '\n' | sed -n 's/^rdata_unmatched=\([0-9]*\)$/\1/p' |
				tail -n 1)
			rd=$((rd + ${v:-0}))
		done
		if [ "$rd" -eq 0 ]; then
			pp_combo=xdp:hostile:ipv4
			pp_fail "no rdata_unmatched drop: the forgeries were not seen"
		else
			echo "  forged Response-with-Data dropped: rdata_unmatched $rd"
		fi
		[ "$pp_nfail" -eq "$nfail0" ] && break
		if [ "$attempt" -eq 1 ] && [ "$rd" -eq 0 ]; then
			echo "RETRY xdp:hostile:ipv4: the first attempt set up no PDC (see above); once more"
			pp_nfail=$nfail0
		else
			break
		fi
	done
	fi
fi

use_family ipv6
pp_selected xdp:msg:ipv6 &&
	xdp_pair xdp:msg:ipv6 FI_UET_STANDBY_MS=1 FI_UET_STANDBY_MS=1 \
		"$a6_srv" 1m -e rdm -c -6 -I "$ITERS"
pp_summary
