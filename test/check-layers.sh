#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# One-way layers (docs/architecture.md): every `#include "..."` in the
# sources of a layer names a header of that layer or of one below it.
#
#   util      nothing else
#   wire      util
#   hsi       util, wire
#   snic      util, wire, hsi          (an HSI backend)
#   prov/uet  util, wire, hsi          (the provider; never snic/)
#
# and only the provider includes libfabric (<rdma/...>): util, wire, hsi
# and snic build and link without it.
#
# Usage: check-layers.sh [TREE]   (default: $srcdir).  Exits 1 naming
# every offending include.  The script first checks itself on a small
# tree with one bad include, which it must refuse.
set -u

layers="util wire hsi snic prov/uet"

allowed() {	# allowed LAYER -> the layers it may include
	case $1 in
	util) echo "util" ;;
	wire) echo "util wire" ;;
	hsi) echo "util wire hsi" ;;
	snic) echo "util wire hsi snic" ;;
	prov/uet) echo "util wire hsi prov/uet" ;;
	esac
}

# The layer that holds header $2 in tree $1 ("" when none does: system
# and generated headers; config.h is the build's, for every layer).
owner() {
	for l in $layers; do
		if [ -f "$1/$l/$2" ]; then
			echo "$l"
			return
		fi
	done
}

check_tree() {	# check_tree TREE -> prints offences, returns 1 if any
	tree=$1
	bad=0
	for l in $layers; do
		[ -d "$tree/$l" ] || continue
		ok=$(allowed "$l")
		for f in "$tree/$l"/*.c "$tree/$l"/*.h; do
			[ -f "$f" ] || continue
			if [ "$l" != prov/uet ] &&
			   grep -q '^[[:space:]]*#[[:space:]]*include[[:space:]]*<rdma/' "$f"; then
				echo "layer violation: ${f#$tree/} ($l) includes libfabric"
				bad=1
			fi
			for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
				o=$(owner "$tree" "$h")
				[ -n "$o" ] || continue
				case " $ok " in
				*" $o "*) ;;
				*)
					echo "layer violation: ${f#$tree/} ($l) includes $h ($o)"
					bad=1
					;;
				esac
			done
		done
	done
	return $bad
}

# Self-check: a provider file including the software NIC must fail.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-layers.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/util" "$tmp/hsi" "$tmp/snic" "$tmp/prov/uet"
echo '#include "uet_log.h"' > "$tmp/hsi/uet_hsi_dev.h"
: > "$tmp/util/uet_log.h"
: > "$tmp/snic/uet_snic.h"
printf '#include "config.h"\n#include "uet_hsi_dev.h"\n' > "$tmp/prov/uet/ok.c"
if ! check_tree "$tmp" >/dev/null; then
	echo "FAIL: the self-check refused a clean tree"
	exit 99
fi
printf '#include "uet_snic.h"\n' > "$tmp/prov/uet/bad.c"
if check_tree "$tmp" >/dev/null; then
	echo "FAIL: the self-check accepted prov/uet including uet_snic.h"
	exit 99
fi
rm "$tmp/prov/uet/bad.c"
printf '#include <rdma/fabric.h>\n' > "$tmp/snic/bad.c"
if check_tree "$tmp" >/dev/null; then
	echo "FAIL: the self-check accepted snic/ including <rdma/fabric.h>"
	exit 99
fi

src="${1:-${srcdir:-.}}"
if check_tree "$src"; then
	echo "PASS: one-way layers in $src"
	exit 0
fi
exit 1
