# SPDX-License-Identifier: BSD-2-Clause
#
# Shared by run-mpi.sh and scale-allreduce.sh (sourced, not run): the
# tools check, the build directory, loopback, mpirun with pml cm + mtl ofi
# restricted to the provider, and the check that every rank really ran on
# it.  The caller sets prov (the provider) and tmo (seconds per mpirun).

# mpi_setup TAG: exit 77 without Open MPI; bdir (UET_MPI_BUILDDIR or a
# temporary directory named after TAG), keep (1: keep bdir), and, unless
# the caller set MPI_PINNED=0, everything on loopback: the uet provider
# lists only the interfaces in FI_UET_IFACE; libfabric's tcp/udp/sockets
# providers read FI_<PROV>_IFACE.  fwd: the mpirun -x options that
# forward them.
mpi_setup() {
	for tool in mpirun mpicc timeout; do
		if ! command -v "$tool" >/dev/null 2>&1; then
			echo "SKIP: $tool not found (sh test/mpi/deps.sh installs Open MPI)"
			exit 77
		fi
	done
	if ! mpirun --version 2>&1 | grep -q 'Open MPI'; then
		echo "SKIP: mpirun is not Open MPI's (this test uses the OFI MTL)"
		exit 77
	fi
	if [ -n "${UET_MPI_BUILDDIR:-}" ]; then
		bdir="$UET_MPI_BUILDDIR"
		mkdir -p "$bdir" || exit 1
		keep=1
	else
		bdir=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 1
		keep=0
	fi
	upper=$(printf '%s' "$prov" | tr '[:lower:]' '[:upper:]' |
		tr -c 'A-Z0-9_\n' '_')
	iface_var="FI_${upper}_IFACE"
	fwd=""
	[ "${MPI_PINNED:-1}" = 0 ] && return
	export FI_UET_IFACE=lo
	export "$iface_var=lo"
	fwd="-x FI_UET_IFACE -x $iface_var"
}

# mpi_forward VAR...: forward each variable that is set (once).
mpi_forward() {
	for v in "$@"; do
		case " $fwd " in
		*" -x $v "*) continue ;;
		esac
		if env | grep -q "^$v="; then
			fwd="$fwd -x $v"
		fi
	done
}

# mpi_build SRC EXE
mpi_build() {
	if ! mpicc -std=c11 -O2 -Wall -Wextra -o "$2" "$1"; then
		echo "FAIL: mpicc could not build $(basename "$1")"
		exit 1
	fi
}

# mpi_run N EXE LOG [mpirun options...]: rc is mpirun's status.
mpi_run() {
	n="$1"
	exe="$2"
	log="$3"
	shift 3
	# shellcheck disable=SC2086 # $fwd is a list of -x options
	timeout -k 10 "$tmo" mpirun --allow-run-as-root --oversubscribe \
		-np "$n" \
		--mca pml cm --mca mtl ofi \
		--mca mtl_ofi_provider_include "$prov" \
		--mca mtl_base_verbose 100 --mca mtl_ofi_verbose 1 \
		--mca pml_base_verbose 10 \
		--mca btl self \
		--mca oob_tcp_if_include lo --mca btl_tcp_if_include lo \
		"$@" $fwd \
		"$exe" >"$log" 2>&1
	rc=$?
}

# mpi_check_log LOG N PROGRAM: the verbose output of one run must show,
# for each of the N ranks, pml cm and mtl ofi selected and the OFI MTL on
# provider $prov (mtl_ofi prints "mtl:ofi:prov: <name>"; a utility
# provider layered on top shows as "<prov>;ofi_rxm", so the first ';'
# part is compared), and PROGRAM's ALL PASS line.
mpi_check_log() {
	log="$1"
	n="$2"
	bad=0

	provs=$(sed -n 's/.*mtl:ofi:prov: \([^[:space:]]*\).*/\1/p' "$log")
	nprov=$(printf '%s\n' "$provs" | grep -c .)
	nmatch=$(printf '%s\n' "$provs" | grep -c "^${prov}\(;.*\)\{0,1\}\$")
	if [ "$nprov" -ne "$n" ] || [ "$nmatch" -ne "$n" ]; then
		echo "FAIL: expected $n ranks on provider '$prov', mtl_ofi reported:" \
			"$(printf '%s\n' "$provs" | sort | uniq -c | tr -s ' \n' ' ')"
		bad=1
	fi
	npml=$(grep -c 'select: component cm selected' "$log")
	nmtl=$(grep -c 'select: component ofi selected' "$log")
	if [ "$npml" -ne "$n" ] || [ "$nmtl" -ne "$n" ]; then
		echo "FAIL: pml cm selected by $npml, mtl ofi by $nmtl of $n ranks"
		bad=1
	fi
	if ! grep -q "^$3: ALL PASS ranks=$n " "$log"; then
		echo "FAIL: $3 did not report ALL PASS for $n ranks"
		bad=1
	fi
	domains=$(sed -n 's/.*mtl:ofi:provider: \([^[:space:]]*\).*/\1/p' "$log" |
		sort -u | tr '\n' ' ')
	echo "  provider: $(printf '%s\n' "$provs" | sort -u | tr '\n' ' ')domain: $domains"
	return "$bad"
}

# mpi_verdict LOG N PROGRAM TIME: print the program's lines and the
# verdict of the run that left rc; a failure sets status=1 and keep=1.
mpi_verdict() {
	grep "^$3:" "$1" | sed 's/^/  /'
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "FAIL: mpirun did not finish within ${tmo}s"
	elif [ "$rc" -ne 0 ]; then
		echo "FAIL: mpirun exited with status $rc"
	fi
	if ! mpi_check_log "$1" "$2" "$3" || [ "$rc" -ne 0 ]; then
		echo "  last lines of $1:"
		grep -v -e 'mca: base:' -e 'select:' -e 'mtl:ofi' "$1" |
			tail -n 25 | sed 's/^/  | /'
		status=1
		keep=1
		echo "FAIL: $prov, $2 ranks ($4)"
	else
		echo "PASS: $prov, $2 ranks ($4)"
	fi
}
