#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# CPU per MiB of RMA read and write between two software NICs driven by
# one thread (bench/uet_rma_nics.c): independent of the machine's load,
# unlike fi_rma_bw's bandwidth (docs/performance.md).  Not part of make
# check.
#
#   sh bench/rma.sh [ops per run] [rounds] [size] [depth]
#   UET_BUILD=<build dir> (default build/, which must be built)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${UET_BUILD:-$top/build}
src=${UET_SRC:-$top}

if [ ! -f "$build/.libs/libuet_dev.a" ]; then
	echo "rma.sh: build uet first ($build/.libs/libuet_dev.a)" >&2
	exit 2
fi
mkdir -p "$build/bench"
ibv=""
nm "$build/.libs/libuet_dev.a" 2>/dev/null | grep -q ' U ibv_' && ibv=-libverbs
cc -O2 -Wall -I"$build" -I"$src/snic" -I"$src/util" -I"$src/wire" \
	-I"$src/hsi" -I"$src/test" -o "$build/bench/uet_rma_nics" \
	"$top/bench/uet_rma_nics.c" "$src/test/snic_harness.c" \
	"$build/.libs/libuet_dev.a" "$build/.libs/libuet_core.a" \
	$(pkg-config --libs libcrypto 2>/dev/null || echo -lcrypto) $ibv \
	-lpthread
"$build/bench/uet_rma_nics" "${1:-200}" "${2:-5}" "${3:-1048576}" \
	"${4:-16}"
