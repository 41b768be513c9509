#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The Open MPI two-sided test (run-mpi.sh) with transport security
# required on every rank: a fresh 32-byte secret in a mode-0600 key file
# (FI_UET_TSS_KEY_FILE), FI_UET_TSS=required, both forwarded by mpirun.
# `make check-mpi-tss`.  Exit as run-mpi.sh.
set -u
srcdir=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/uet-tss-mpi.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
(umask 077 && od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >"$dir/key") ||
	exit 1
FI_UET_TSS=required
FI_UET_TSS_KEY_FILE=$dir/key
export FI_UET_TSS FI_UET_TSS_KEY_FILE
echo "Open MPI over ${1:-uet} with FI_UET_TSS=required"
sh "$srcdir/run-mpi.sh" "$@"
