#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Installs what test/mpi/run-mpi.sh needs on Debian 12 (as root): Open MPI
# (mpirun, mpicc; the Debian build includes the OFI MTL) and fi_info;
# with the argument `slurm`, also what test/mpi/slurm.sh needs: Slurm
# (slurmctld, slurmd, srun, salloc, its PMIx plugin) and munge.
# Idempotent and quiet: does nothing when the packages are present.
set -eu

pkgs="openmpi-bin libopenmpi-dev libfabric-bin"
[ "${1:-}" = slurm ] && pkgs="$pkgs slurm-wlm munge"
missing=""
for p in $pkgs; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086 # $missing is a list of package names
timeout 900 apt-get install -y -q $missing >/dev/null ||
	{ timeout 300 apt-get update -q >/dev/null &&
	  timeout 900 apt-get install -y -q $missing >/dev/null; }
