#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Open MPI over uet launched by Slurm across three emulated hosts, as an
# HPC user runs a job: no FI_UET_* variable, no mpirun --host.
#
#   test/mpi/slurm.sh [provider]        (default provider: uet)
#
# The cluster (everything made here, removed on every exit path):
#   - the hosts of test/mpi/cluster_lib.sh: a head namespace with two
#     bridges, and h1..hN (HOSTS, default 3), each with lo, a data
#     interface eth0 (10.253.0.i) and a control interface ctl0
#     (10.254.0.i; the head is 10.254.0.254);
#   - munged in the root namespace with a key generated for this run and
#     a socket of its own (slurm.conf AuthInfo names it; the namespaces
#     share the file system);
#   - slurmctld in the head namespace (hostname "head"), one slurmd per
#     host in its namespace under the host's name (a UTS namespace
#     each), with their state, spool, logs and slurm.conf in a temporary
#     directory (SLURM_CONF points every command at it); each namespace
#     gets an /etc/hosts of the cluster through /etc/netns/NS/hosts,
#     which `ip netns exec` mounts over /etc/hosts.
# The jobs, from the head namespace, RANKS_PER_HOST (2) ranks per host,
# uet_mpi_test.c (sizes to UET_MPI_TEST_MAX_SIZE, default 1 MiB) then
# uet_mpi_allreduce.c, pml cm and mtl ofi restricted to the provider
# through OMPI_MCA_* variables:
#   srun   `srun --mpi=pmix -N HOSTS -n RANKS prog`: direct launch, Slurm's
#          PMIx plugin wires up the ranks (LAUNCH=srun);
#   salloc `salloc -N HOSTS -n RANKS mpirun prog`: Open MPI's mpirun
#          reads the allocation and starts its daemons with srun
#          (LAUNCH=salloc).
# LAUNCH="srun salloc" (default) runs both.  Every rank must report the
# provider and the ranks must have run on every host.  Each job is
# bounded by UET_MPI_TIMEOUT (300 s), the daemons' start by 60 s.
#
# Installs slurm-wlm and munge when missing (test/mpi/deps.sh slurm).
# Exit 0 pass, 1 fail, 77 skip (not root, no ip netns/unshare, Open MPI
# or Slurm not installable).
set -u

prov="${1:-uet}"
tmo="${UET_MPI_TIMEOUT:-300}"
nhosts="${HOSTS:-3}"
rph="${RANKS_PER_HOST:-2}"
launches="${LAUNCH:-srun salloc}"
srcdir=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)

. "$srcdir/mpi_lib.sh"
. "$srcdir/../netns_lib.sh"
. "$srcdir/cluster_lib.sh"

cl_require "network namespaces, daemons"
have_slurm() {
	for tool in slurmctld slurmd srun salloc sinfo munged; do
		command -v "$tool" >/dev/null 2>&1 || return 1
	done
}
if ! have_slurm; then
	echo "slurm.sh: installing slurm-wlm and munge (test/mpi/deps.sh slurm)"
	if ! sh "$srcdir/deps.sh" slurm; then
		echo "SKIP: slurm-wlm and munge could not be installed"
		exit 77
	fi
	if ! have_slurm; then
		echo "SKIP: slurmctld, slurmd, srun, salloc, sinfo or munged not" \
			"found in PATH after installing slurm-wlm and munge"
		exit 77
	fi
fi
MPI_PINNED=0
mpi_setup uet-mpi-slurm
np=$((nhosts * rph))
# multihost.sh runs the sizes to 4 MiB across hosts; 1 MiB here keeps the
# two launches short.  Slurm passes the environment on to the ranks.
UET_MPI_TEST_MAX_SIZE="${UET_MPI_TEST_MAX_SIZE:-1048576}"
export UET_MPI_TEST_MAX_SIZE
# Nothing of uet's configuration in the job: no FI_UET_* variable.
for v in $(env | sed -n 's/^\(FI_UET_[A-Za-z0-9_]*\)=.*/\1/p'); do
	unset "$v"
done

prefix="uetsl$$-"
sdir="$bdir/slurm"
munge_pid=""
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	# The daemons run inside the namespaces: ns_cleanup kills them.
	if [ -n "$munge_pid" ]; then
		kill "$munge_pid" 2>/dev/null
		wait "$munge_pid" 2>/dev/null
	fi
	ns_cleanup
	for ns in $etc_netns; do
		rm -rf "/etc/netns/$ns"
	done
	rmdir /etc/netns 2>/dev/null
	[ "$keep" -eq 0 ] && rm -rf "$bdir"
}
etc_netns=""
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

cl_make "$prefix" "$nhosts"
if ! timeout -k 2 10 ip netns exec "$cl_head" unshare --uts true 2>/dev/null; then
	echo "SKIP: ip netns exec / unshare --uts not permitted"
	exit 77
fi
cl_family ipv4

# ---- configuration ----
rm -rf "$sdir"
mkdir -p "$sdir/state" "$sdir/munge" || exit 1
i=1
while [ "$i" -le "$nhosts" ]; do
	mkdir -p "$sdir/spool/h$i" "$sdir/tmp/h$i" || exit 1
	i=$((i + 1))
done
chmod 700 "$sdir/munge"
{
	echo "127.0.0.1 localhost"
	echo "10.254.0.254 head"
	i=1
	while [ "$i" -le "$nhosts" ]; do
		echo "10.254.0.$i h$i"
		i=$((i + 1))
	done
} >"$sdir/hosts"
for ns in "$cl_head" $(i=1; while [ "$i" -le "$nhosts" ]; do
	echo "${prefix}h$i"; i=$((i + 1)); done); do
	mkdir -p "/etc/netns/$ns" && cp "$sdir/hosts" "/etc/netns/$ns/hosts" ||
		{ echo "FAIL: /etc/netns/$ns/hosts"; exit 1; }
	etc_netns="$etc_netns $ns"
done

export SLURM_CONF="$sdir/slurm.conf"
cat >"$SLURM_CONF" <<EOF
# Written by test/mpi/slurm.sh for one run.
ClusterName=uettest
SlurmctldHost=head(10.254.0.254)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=6817
SlurmdPort=6818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sdir/munge/munge.socket
StateSaveLocation=$sdir/state
SlurmdSpoolDir=$sdir/spool/%n
SlurmctldPidFile=$sdir/slurmctld.pid
SlurmdPidFile=$sdir/slurmd-%n.pid
SlurmctldLogFile=$sdir/slurmctld.log
SlurmdLogFile=$sdir/slurmd-%n.log
# A temporary directory per node: the PMIx plugin makes its directories
# there, by job and step only, so the nodes must not share one.
TmpFS=$sdir/tmp/%n
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdParameters=config_overrides
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
MinJobAge=5
NodeName=h[1-$nhosts] NodeAddr=10.254.0.[1-$nhosts] CPUs=$rph State=UNKNOWN
PartitionName=uet Nodes=h[1-$nhosts] Default=YES MaxTime=10 State=UP OverSubscribe=NO
EOF

# Processes are tracked without cgroups (proctrack/linuxproc, task/none),
# but slurmd 22.05 loads a cgroup plugin anyway, and autodetection fails
# in a namespace entered with `ip netns exec`, whose /sys has no cgroup
# file systems: name the v1 plugin, which is loaded and not used.
cat >"$sdir/cgroup.conf" <<EOF
CgroupPlugin=cgroup/v1
CgroupAutomount=no
EOF

# in NS HOST CMD...: CMD in namespace NS under hostname HOST.
in_host() {
	ns=$1
	host=$2
	shift 2
	ip netns exec "$ns" unshare --uts \
		sh -c 'hostname "$0" && exec "$@"' "$host" "$@"
}

# ---- daemons ----
if ! (umask 077 && mungekey -c -k "$sdir/munge/munge.key" >/dev/null 2>&1 ||
	dd if=/dev/urandom of="$sdir/munge/munge.key" bs=1024 count=1 \
		status=none); then
	echo "FAIL: could not make a munge key"
	exit 1
fi
chmod 400 "$sdir/munge/munge.key"
munged --foreground --force --socket="$sdir/munge/munge.socket" \
	--key-file="$sdir/munge/munge.key" \
	--pid-file="$sdir/munge/munged.pid" \
	--log-file="$sdir/munge/munged.log" \
	--seed-file="$sdir/munge/munged.seed" >/dev/null 2>&1 &
munge_pid=$!

in_host "$cl_head" head slurmctld -D -i -f "$SLURM_CONF" \
	>"$sdir/slurmctld.out" 2>&1 &
i=1
while [ "$i" -le "$nhosts" ]; do
	in_host "${prefix}h$i" "h$i" slurmd -D -f "$SLURM_CONF" \
		>"$sdir/slurmd-h$i.out" 2>&1 &
	i=$((i + 1))
done

# show_logs: the daemons' last lines, after a failure.
show_logs() {
	for f in "$sdir"/munge/munged.log "$sdir"/slurmctld.log \
		"$sdir"/slurmctld.out "$sdir"/slurmd-*.log "$sdir"/slurmd-*.out; do
		[ -s "$f" ] || continue
		echo "  --- $f:"
		tail -n 15 "$f" | sed 's/^/  | /'
	done
}

# Every node idle within 60 s.
n=600
while :; do
	idle=$(timeout 10 ip netns exec "$cl_head" sinfo -h -N -o '%N %T' \
		2>/dev/null | grep -c ' idle$')
	[ "$idle" -eq "$nhosts" ] && break
	n=$((n - 1))
	if [ "$n" -le 0 ]; then
		echo "FAIL: $idle of $nhosts Slurm nodes idle after 60s:"
		timeout 10 ip netns exec "$cl_head" sinfo -N 2>&1 | sed 's/^/  /'
		show_logs
		keep=1
		exit 1
	fi
	sleep 0.1
done
echo "== Slurm $(slurmctld -V 2>/dev/null | awk '{print $2}'): slurmctld on head," \
	"slurmd on $(timeout 10 ip netns exec "$cl_head" sinfo -h -o '%N'), all idle" \
	"($((60 - n / 10))s)"
echo "   h1 offers (fabric domain): $(cl_show_offer "$prov")"

ar="$bdir/uet_mpi_allreduce"
pp="$bdir/uet_mpi_test"
mpi_build "$srcdir/uet_mpi_test.c" "$pp"
mpi_build "$srcdir/uet_mpi_allreduce.c" "$ar"

# What each rank of Open MPI uses: pml cm, mtl ofi on the provider (the
# verbose lines are what mpi_check_log reads), daemons and PMIx on the
# control network.
export OMPI_MCA_pml=cm OMPI_MCA_mtl=ofi OMPI_MCA_btl=self \
	OMPI_MCA_mtl_ofi_provider_include="$prov" \
	OMPI_MCA_mtl_base_verbose=100 OMPI_MCA_mtl_ofi_verbose=1 \
	OMPI_MCA_pml_base_verbose=10 OMPI_MCA_oob_tcp_if_include=br1,ctl0

status=0
for launch in $launches; do
	for exe in "$pp" "$ar"; do
		name=$(basename "$exe")
		log="$bdir/$launch-$prov-$name.log"
		start=$(date +%s)
		case $launch in
		srun)
			set -- srun --mpi=pmix -N "$nhosts" -n "$np" \
				--ntasks-per-node="$rph" "$exe" ;;
		salloc)
			set -- salloc -N "$nhosts" -n "$np" \
				--ntasks-per-node="$rph" \
				mpirun --allow-run-as-root "$exe" ;;
		*)
			echo "FAIL: LAUNCH: unknown launch '$launch'"
			exit 1 ;;
		esac
		echo "== $launch: $* ($nhosts hosts x $rph ranks, no FI_UET_*)"
		timeout -k 10 "$tmo" ip netns exec "$cl_head" "$@" >"$log" 2>&1
		rc=$?
		mpi_verdict "$log" "$np" "$name" "$(($(date +%s) - start))s"
		cl_check_hosts "$log"
	done
done
[ "$status" -eq 0 ] || show_logs
exit "$status"
