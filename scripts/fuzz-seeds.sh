#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Generate the fuzzers' seed corpora: valid packets of every kind
# (test/fuzz/gen_seeds.c), into DIR/wire, DIR/hsi and DIR/rx.
#   sh scripts/fuzz-seeds.sh BUILD_DIR DIR
set -eu
build=${1:?usage: fuzz-seeds.sh BUILD_DIR DIR}
out=${2:?usage: fuzz-seeds.sh BUILD_DIR DIR}
make -s -C "$build" fuzz/gen_seeds >/dev/null
"$build/fuzz/gen_seeds" "$out"
