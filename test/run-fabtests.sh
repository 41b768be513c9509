#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Run fabtests' runfabtests.sh for one provider (default uet) over loopback,
# with the provider's exclude file, a per-test timeout and a summary.
# Needs FABTESTS_DIR, the prefix of a fabtests install (bin/runfabtests.sh);
# without it the script skips (exit 77).  docs/fabtests.md tells how to
# build fabtests and how to read the results.
#
# Isolation: runfabtests.sh kills every process whose name starts with fi_
# after a failure and at its end.  The run therefore happens in new PID,
# mount and network namespaces (unshare), where it sees only its own
# processes and its own loopback; a host without them skips (exit 77)
# unless -K allows the host-wide kill.
#
# Exit status: 0 all tests that ran passed, 1 a test failed, the run timed
# out or produced no result, 2 usage error, 77 skipped.
set -u

prog=${0##*/}
srcdir=$(cd "$(dirname "$0")/.." && pwd)

prov=uet
sets="unit,functional,short"
per_test_timeout=""
total_timeout=${FABTESTS_TOTAL_TIMEOUT:-7200}
addr=127.0.0.1
client_addr=""
deploy=0
exclude_file=""
extra_excludes=""
strict=0
verbose=0
allow_host_kill=0
keep=0
log_copy=""

usage() {
	cat <<EOF
Usage: FABTESTS_DIR=<fabtests prefix> $prog [options]
  -p PROV   provider, as runfabtests.sh takes it (default uet; "udp;ofi_rxd")
  -t SETS   comma-separated test sets (default $sets):
            unit functional short standard regression complex multinode
            quick (= unit,functional,short) all
  -T SECS   per-test timeout (default 120, 300 when complex is selected)
  -W SECS   bound of the whole run (default \$FABTESTS_TOTAL_TIMEOUT or 7200)
  -6        run over ::1 instead of 127.0.0.1
  -D        as deployed: the network namespace gets a veth pair besides lo
            (10.252.0.1/24 and .2/24, both ends in it), server and client
            use those addresses, and FI_UET_IFACE is not set (needs a
            network namespace)
  -x FILE   exclude file (default fabtests-config/<name>.exclude, else
            fabtests' own test_configs/<name>/<name>.exclude)
  -e REGEX  exclude tests matching REGEX too (repeatable, no commas)
  -S        strict: tests answering -FI_ENODATA/-FI_ENOSYS fail
  -v        print the output of failing tests (repeat for more)
  -K        run even without namespaces (runfabtests.sh then kills every
            fi_* process of the host)
  -k        keep the scratch directory
  -l FILE   copy runfabtests.sh's full output to FILE
EOF
}

while getopts "p:t:T:W:6Dx:e:SvKkl:h" opt; do
	case $opt in
	p) prov=$OPTARG ;;
	t) sets=$OPTARG ;;
	T) per_test_timeout=$OPTARG ;;
	W) total_timeout=$OPTARG ;;
	6) addr=::1 ;;
	D) deploy=1 ;;
	x) exclude_file=$OPTARG ;;
	e) extra_excludes=${extra_excludes:+$extra_excludes,}$OPTARG ;;
	S) strict=1 ;;
	v) verbose=$((verbose + 1)) ;;
	K) allow_host_kill=1 ;;
	k) keep=1 ;;
	l) log_copy=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -ne 0 ]; then
	usage >&2
	exit 2
fi

is_uint() {
	case $1 in
	'' | *[!0-9]*) return 1 ;;
	*) return 0 ;;
	esac
}

# Expand and check the test sets.
expanded=""
has_complex=0
IFS=, read -ra set_list <<<"$sets"
for s in "${set_list[@]}"; do
	case $s in
	quick) s="unit,functional,short" ;;
	all) s="unit,regression,functional,standard,complex,multinode" ;;
	unit | functional | short | standard | regression | complex | multinode) ;;
	*)
		echo "$prog: unknown test set '$s'" >&2
		exit 2
		;;
	esac
	case $s in *complex*) has_complex=1 ;; esac
	expanded=${expanded:+$expanded,}$s
done
if [ -z "$expanded" ]; then
	echo "$prog: no test set given" >&2
	exit 2
fi
if [ -z "$per_test_timeout" ]; then
	per_test_timeout=120
	[ "$has_complex" -eq 1 ] && per_test_timeout=300
fi
if ! is_uint "$per_test_timeout" || [ "$per_test_timeout" -lt 1 ] ||
	[ "$per_test_timeout" -gt 300 ]; then
	echo "$prog: -T takes 1 .. 300 seconds" >&2
	exit 2
fi
if ! is_uint "$total_timeout" || [ "$total_timeout" -lt 1 ]; then
	echo "$prog: -W takes a positive number of seconds" >&2
	exit 2
fi
case $extra_excludes in *'#'*)
	echo "$prog: -e patterns may not hold '#'" >&2
	exit 2
	;;
esac

if [ -z "${FABTESTS_DIR:-}" ]; then
	echo "SKIP: FABTESTS_DIR is not set; point it at a fabtests install" \
		"(docs/fabtests.md)"
	exit 77
fi
runner="$FABTESTS_DIR/bin/runfabtests.sh"
if [ ! -x "$runner" ]; then
	echo "$prog: $runner not found or not executable" >&2
	exit 1
fi
for tool in timeout python3 getopt; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "SKIP: $tool is missing (runfabtests.sh needs it)"
		exit 77
	fi
done

# runfabtests.sh names the exclude and ubertest directory after the utility
# provider when there is one ("udp;ofi_rxd" -> ofi_rxd), else the core one.
name=${prov##*;}
if [ -z "$name" ] || [ -n "${prov//[A-Za-z0-9_;]/}" ]; then
	echo "$prog: bad provider name '$prov'" >&2
	exit 2
fi
shipped="$FABTESTS_DIR/share/fabtests/test_configs"
if [ -z "$exclude_file" ]; then
	if [ -f "$srcdir/fabtests-config/$name.exclude" ]; then
		exclude_file="$srcdir/fabtests-config/$name.exclude"
	elif [ -f "$shipped/$name/$name.exclude" ]; then
		exclude_file="$shipped/$name/$name.exclude"
	fi
elif [ ! -f "$exclude_file" ]; then
	echo "$prog: exclude file $exclude_file not found" >&2
	exit 1
else
	exclude_file=$(cd "$(dirname "$exclude_file")" && pwd)/${exclude_file##*/}
fi

# Namespaces: PID (runfabtests.sh's kills stay inside), mount (a /proc of
# that PID namespace) and network (a loopback of our own: no port clashes).
ns_args=()
lo_up=""
if timeout 10 unshare --pid --fork --mount-proc --kill-child --net \
	sh -c 'ip link set lo up' >/dev/null 2>&1; then
	ns_args=(unshare --pid --fork --mount-proc --kill-child --net)
	isolation="PID and network namespaces"
	lo_up='ip link set lo up && '
elif timeout 10 unshare --pid --fork --mount-proc --kill-child true >/dev/null 2>&1; then
	ns_args=(unshare --pid --fork --mount-proc --kill-child)
	isolation="PID namespace (host network)"
elif [ "$deploy" -eq 1 ]; then
	echo "SKIP: -D needs a network namespace (unshare --net, root)"
	exit 77
elif [ "$allow_host_kill" -eq 1 ]; then
	isolation="none: fi_* processes of the whole host may be killed"
else
	echo "SKIP: cannot create a PID namespace (unshare, needs root);" \
		"runfabtests.sh would kill every fi_* process of the host" \
		"(-K allows it)"
	exit 77
fi

# The uet provider of a build tree (the working directory when make check
# runs this) when no provider path is given.
if [ "$prov" = uet ] && [ -z "${FI_PROVIDER_PATH:-}" ]; then
	libdir="${UET_PROV_LIBDIR:-$(pwd)/.libs}"
	if [ -f "$libdir/libuet-fi.so" ]; then
		export FI_PROVIDER_PATH="$libdir"
		# A sanitizer build needs the ASan runtime loaded first.
		if nm -D "$libdir/libuet-fi.so" 2>/dev/null |
			grep -q '__asan_init'; then
			LD_PRELOAD=$(${CC:-cc} -print-file-name=libasan.so)
			export LD_PRELOAD
			export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
		fi
	fi
fi
if [ "$deploy" -eq 1 ]; then
	# A host with lo and other interfaces, nothing pinned.
	unset FI_UET_IFACE
	lo_up=$lo_up'ip link add uetd0 mtu 1500 type veth peer name uetd1 mtu 1500 && '
	lo_up=$lo_up'ip addr add 10.252.0.1/24 dev uetd0 && '
	lo_up=$lo_up'ip addr add 10.252.0.2/24 dev uetd1 && '
	lo_up=$lo_up'ip link set uetd0 up && ip link set uetd1 up && '
	addr=10.252.0.1
	client_addr=10.252.0.2
else
	export FI_UET_IFACE=lo
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/uet-fabtests.XXXXXX") || exit 1
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	if [ "$keep" -eq 1 ]; then
		echo "scratch directory kept: $scratch"
	else
		rm -rf -- "$scratch"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# runfabtests.sh looks for ./test_configs/<name>/ in its working directory:
# the shipped ubertest configurations plus the chosen exclude file.
mkdir -p "$scratch/test_configs/$name" || exit 1
if [ -d "$shipped/$name" ]; then
	for f in "$shipped/$name"/*; do
		[ -e "$f" ] && ln -s "$f" "$scratch/test_configs/$name/"
	done
fi
rm -f "$scratch/test_configs/$name/$name.exclude"
args=(-T "$per_test_timeout" -t "$expanded" -s "$addr" -c "${client_addr:-$addr}")
if [ -n "$exclude_file" ]; then
	ln -s "$exclude_file" "$scratch/test_configs/$name/$name.exclude"
	args+=(-f "test_configs/$name/$name.exclude")
fi
[ -n "$extra_excludes" ] && args+=(-e "$extra_excludes")
[ "$strict" -eq 1 ] && args+=(-S)
for ((i = 0; i < verbose; i++)); do args+=(-v); done
args+=(-p "$FABTESTS_DIR/bin" "$prov")

log="$scratch/runfabtests.log"
echo "fabtests:  $runner"
echo "provider:  $prov  sets: $expanded  address: $addr${client_addr:+ (client $client_addr)}"
echo "timeouts:  ${per_test_timeout}s per test, ${total_timeout}s in all"
echo "excludes:  ${exclude_file:-none}${extra_excludes:+ + $extra_excludes}"
echo "isolation: $isolation"
[ -n "${FI_PROVIDER_PATH:-}" ] && echo "FI_PROVIDER_PATH=$FI_PROVIDER_PATH"

start=$(date +%s)
# The inner shell stays as the namespace's PID 1 (which only gets signals
# it handles): on SIGTERM from timeout it exits, and the kernel then kills
# everything left in the namespace.
# shellcheck disable=SC2016 # $0, $@ and $! belong to the inner shell
inner=$lo_up'trap "exit 143" TERM INT; "$0" "$@" & wait $!'
(
	cd "$scratch" || exit 1
	PATH="$FABTESTS_DIR/bin:$PATH" timeout -k 10 "$total_timeout" \
		"${ns_args[@]}" sh -c "$inner" "$runner" "${args[@]}"
) </dev/null 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
elapsed=$(($(date +%s) - start))
[ -n "$log_copy" ] && cp -- "$log" "$log_copy"

# Results: one "<test>: <result>" line per test, or with -v YAML records
# ("- name: <test>" then "  result: <result>").
summary=$(awk '
	function add(t, r) {
		sub(/ -p "[^"]*"$/, "", t)
		if (r ~ /^Pass/) pass++
		else if (r ~ /^Fail/) { fail++; failed = failed "  FAIL " t "\n" }
		else if (r ~ /^Excluded/) excl++
		else if (r ~ /^Notrun/) { notrun++; nr = nr "  NOTRUN " t "\n" }
	}
	/^- name: / { t = $0; sub(/^- name: +/, "", t); next }
	/^  result: / { r = $0; sub(/^  result: +/, "", r); add(t, r); next }
	/^[^#].*: +(Pass|Fail|Excluded|Notrun)( \[[0-9\/]*\])?$/ {
		r = $0; sub(/.*: +/, "", r)
		t = $0; sub(/: +(Pass|Fail|Excluded|Notrun)( \[[0-9\/]*\])?$/, "", t)
		add(t, r)
	}
	END {
		printf "%d %d %d %d\n", pass, fail, excl, notrun
		printf "%s%s", failed, nr
	}' "$log")
read -r n_pass n_fail n_excl n_notrun <<<"$(head -n 1 <<<"$summary")"
n_total=$((n_pass + n_fail + n_excl + n_notrun))

echo "=== run-fabtests summary: provider $prov, sets $expanded, ${elapsed}s"
tail -n +2 <<<"$summary"
printf 'pass %d  fail %d  excluded %d  notrun %d  (total %d)\n' \
	"$n_pass" "$n_fail" "$n_excl" "$n_notrun" "$n_total"

if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	echo "FAIL: the run exceeded ${total_timeout}s (-W) and was stopped"
	exit 1
fi
if [ "$n_total" -eq 0 ]; then
	echo "FAIL: runfabtests.sh (exit $rc) reported no test"
	exit 1
fi
if [ "$n_fail" -ne 0 ] || [ "$rc" -ne 0 ]; then
	echo "FAIL: $n_fail test(s) failed (runfabtests.sh exit $rc)"
	exit 1
fi
echo "PASS: no test failed"
exit 0
