# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh
#
# Network namespaces for the script tests (netns-pingpong.sh,
# mpi/netns-mpi.sh, mpi/multihost.sh): make them, run set-up steps in
# them, and remove them, with whatever still runs inside, on every exit
# path.  Sourced, not run.  Traffic of the tests stays inside the
# namespaces made here.

ns_made=""

# ns_begin [TOOL...]: the common start of a namespace test (pingpong_lib.sh
# sourced before): skip unless root and ip (and every TOOL named) are
# there, pp_init, and on every exit ns_hook (when the test defines it),
# pp_cleanup and ns_cleanup.
ns_begin() {
	[ "$(id -u)" -eq 0 ] || pp_skip_all "needs root (network namespaces)"
	for t in ip "$@"; do
		command -v "$t" >/dev/null 2>&1 || pp_skip_all "$t not installed"
	done
	pp_init
	trap ns_end EXIT
	trap 'exit 130' INT TERM HUP
}

# shellcheck disable=SC2317 # called by the EXIT trap
ns_end() {
	command -v ns_hook >/dev/null 2>&1 && ns_hook
	pp_cleanup
	ns_cleanup
}

# ns_first NAME: make the first namespace; exits 77 (skip) when the
# system does not let this process make or enter one.
ns_first() {
	if ! out=$(timeout -k 2 10 ip netns add "$1" 2>&1); then
		echo "SKIP: ip netns add not permitted: $out"
		exit 77
	fi
	ns_made=$1
	if ! timeout -k 2 10 ip netns exec "$1" true 2>/dev/null; then
		echo "SKIP: ip netns exec not permitted"
		exit 77
	fi
}

# ns_add NAME: one more namespace (a failure fails the test).
ns_add() {
	ns_step ip netns add "$1"
	ns_made="$ns_made $1"
}

# ns_step CMD...: a step of the set-up; any failure ends the test as
# failed.
ns_step() {
	if ! out=$(timeout -k 2 10 "$@" 2>&1); then
		echo "FAIL: set-up step '$*': $out"
		exit 1
	fi
}

# ns_cleanup: kill what still runs in the namespaces made, remove them.
ns_cleanup() {
	for ns in $ns_made; do
		pids=$(ip netns pids "$ns" 2>/dev/null)
		# shellcheck disable=SC2086 # a list of PIDs
		[ -n "$pids" ] && kill -9 $pids 2>/dev/null
		timeout -k 2 10 ip netns del "$ns" 2>/dev/null ||
			echo "warning: could not delete network namespace $ns"
	done
	ns_made=""
}
