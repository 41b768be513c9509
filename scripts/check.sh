#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Install dependencies, build and run the whole test suite:
#   1. a -Werror build and `make check`, the provider's suites again in
#      the UE 1.0.1 wire profile (make check-ue), then the fuzzers for
#      40 s each (scripts/fuzz.sh, when clang and libFuzzer are present),
#   2. the Open MPI test over uet (test/mpi/), in both wire profiles,
#      then launched by Slurm across three emulated hosts (make
#      check-slurm),
#   3. `make distcheck`,
#   4. the unit suites again in an ASan+UBSan build,
#   5. and in a clang -Werror build (the provider linked with clang's LTO),
#   6. a profile-guided provider (--enable-pgo: trained at build time),
#      fi_pingpong over loopback with data checks through it,
#   7. the Debian packages: built, lintian, installed, fi_info -p uet and
#      fi_pingpong through them, purged (test/deb-package.sh).
# Ends with every suite's libcheck summary; exits non-zero on any failure.
set -u
cd "$(dirname "$0")/.."
top=$(pwd)
jobs=$(nproc 2>/dev/null || echo 2)

fail() {
	echo "check.sh: FAILED: $*"
	for log in "$top"/build*/test-suite.log; do
		[ -f "$log" ] && { echo "== $log"; tail -n 80 "$log"; }
	done
	exit 1
}

sh scripts/deps.sh || fail "dependency installation"
./autogen.sh >/dev/null 2>&1 || fail "autogen.sh"

build() {
	dir=$1
	shift
	rm -rf "$top/$dir"
	mkdir -p "$top/$dir"
	(cd "$top/$dir" && "$top/configure" --quiet "$@") ||
		fail "configure $*"
	make -C "$top/$dir" -j"$jobs" >/dev/null || fail "build in $dir"
	make -C "$top/$dir" -j"$jobs" check || fail "make check in $dir"
}

echo "=== werror build: make check"
build build --enable-werror
echo "=== the UE 1.0.1 wire profile: the provider's suites with FI_UET_WIRE=ue"
make -C build check-ue || fail "make check-ue (FI_UET_WIRE=ue)"
echo "=== fuzzers (test/fuzz/, 40 s each; skipped without clang/libFuzzer)"
sh scripts/fuzz.sh "$top/build" 40 || fail "fuzzers (findings in build/fuzz/findings)"
echo "=== Open MPI over uet (pml cm, mtl ofi; 2 and 4 ranks, allreduce on 8)"
sh test/mpi/deps.sh || fail "Open MPI installation"
make -C build check-mpi || fail "Open MPI test over uet"
echo "=== Open MPI over uet, UE 1.0.1 wire profile (FI_UET_WIRE=ue)"
make -C build check-mpi-ue || fail "Open MPI test over uet with FI_UET_WIRE=ue"
echo "=== Open MPI over uet under Slurm (srun --mpi=pmix, salloc + mpirun; 3 emulated hosts)"
make -C build check-slurm || fail "Open MPI test over uet under Slurm"
echo "=== make distcheck"
make -C build -j"$jobs" distcheck \
	DISTCHECK_CONFIGURE_FLAGS="--enable-werror" >"$top/build/distcheck.log" 2>&1 ||
	{ tail -n 60 "$top/build/distcheck.log"; fail "make distcheck"; }
grep -A1 'archives ready' "$top/build/distcheck.log"
echo "=== sanitizer build (ASan+UBSan): make check"
build build-san --enable-sanitizers

echo "=== clang -Werror build: make check"
build build-clang --enable-werror CC=clang

echo "=== profile-guided build (--enable-pgo): libuet-fi.so trained, then fi_pingpong -c"
rm -rf "$top/build-pgo"
mkdir -p "$top/build-pgo"
(cd "$top/build-pgo" && "$top/configure" --quiet --enable-werror --enable-pgo) ||
	fail "configure --enable-pgo"
make -C build-pgo -j"$jobs" libuet-fi.la >/dev/null || fail "build in build-pgo"
(cd build-pgo && COMBOS='*:*:check:ipv4' sh "$top/test/pingpong.sh") ||
	fail "fi_pingpong through the --enable-pgo provider"

echo "=== Debian packages: build, lintian, install, fi_info/fi_pingpong, purge"
sh test/deb-package.sh || fail "Debian packages (test/deb-package.sh)"

echo "=== libcheck summaries (werror build)"
make -s -C build check-summary
echo "=== libcheck summaries (sanitizer build)"
make -s -C build-san check-summary
echo "=== libcheck summaries (clang build)"
make -s -C build-clang check-summary
