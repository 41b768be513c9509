#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Regenerate the man page man/fi_uet.7 from its source man/fi_uet.7.md
# with pandoc.  The output is deterministic: the date comes from the
# markdown title block, not from the clock.
#
#   sh scripts/gen-man.sh            rewrite man/fi_uet.7
#   sh scripts/gen-man.sh OUT        write OUT instead (used by
#                                    test/man_up_to_date.sh)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
src="$top/man/fi_uet.7.md"
out="${1:-$top/man/fi_uet.7}"

if ! command -v pandoc >/dev/null 2>&1; then
	echo "gen-man.sh: pandoc not found (apt-get install pandoc)" >&2
	exit 2
fi

tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT
# pandoc's first line names its version; the licence and the source file
# follow it, so the .7 says where to edit.
pandoc --standalone --from markdown --to man "$src" |
	sed '1a\
.\\" SPDX-License-Identifier: BSD-2-Clause\
.\\" Generated from man/fi_uet.7.md by scripts/gen-man.sh: edit that file.' \
	>"$tmp"
mv "$tmp" "$out"
trap - EXIT
