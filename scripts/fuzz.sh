#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Build and run the libFuzzer harnesses (test/fuzz/) from a configured
# build directory; exits non-zero on any finding (crash, sanitizer
# report, oracle violation, leak, timeout).  Skips (exit 0) when clang or
# libFuzzer is missing.
#   sh scripts/fuzz.sh [BUILD_DIR] [SECONDS]
#       each harness for SECONDS (default 40; CI)
#   FUZZ_RUNS=1 sh scripts/fuzz.sh [BUILD_DIR]
#       the long run: 10^7 executions of each decoder harness, 10^6 of
#       the receive path (hours on one core)
# Corpora grow in BUILD_DIR/fuzz/corpus/<harness>; findings are written to
# BUILD_DIR/fuzz/findings/.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
secs=${2:-40}

if ! command -v clang >/dev/null 2>&1; then
	echo "fuzz.sh: clang not found, fuzzers skipped"
	exit 0
fi
if ! echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){return 0;}' |
	clang -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then
	echo "fuzz.sh: libFuzzer not available (libfuzzer-14-dev), fuzzers skipped"
	exit 0
fi
make -s -C "$build" fuzz || { echo "fuzz.sh: FAILED: make fuzz"; exit 1; }
fz="$build/fuzz"
rm -rf "$fz/seeds"
sh "$top/scripts/fuzz-seeds.sh" "$build" "$fz/seeds" || exit 1
mkdir -p "$fz/findings"
status=0
# fuzz_tss makes its protected datagrams itself: two one-byte-case seeds.
mkdir -p "$fz/seeds/tss"
printf '\000\010\000' >"$fz/seeds/tss/raw"
printf '\001\000\000UET TSS fuzz seed' >"$fz/seeds/tss/sealed"
for h in wire hsi rx tss; do
	corpus="$fz/corpus/$h"
	mkdir -p "$corpus"
	if [ -n "${FUZZ_RUNS:-}" ]; then
		case $h in rx | tss) runs=1000000 ;; *) runs=10000000 ;; esac
		limit="-runs=$runs"
	else
		limit="-max_total_time=$secs"
	fi
	echo "=== fuzz_$h ($limit)"
	"$fz/fuzz_$h" "$limit" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$fz/findings/$h-" \
		"$corpus" "$fz/seeds/$h" >"$fz/fuzz_$h.log" 2>&1
	rc=$?
	grep -E '^(stat::number_of_executed_units|Done)' "$fz/fuzz_$h.log"
	if [ $rc -ne 0 ]; then
		echo "fuzz.sh: FINDING in fuzz_$h (exit $rc):"
		grep -E 'ERROR|SUMMARY|abort|Test unit written' \
			"$fz/fuzz_$h.log" | head -20
		status=1
	fi
done
[ $status -eq 0 ] && echo "fuzz.sh: no findings"
exit $status
