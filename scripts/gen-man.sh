#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Regenerate the man pages from their markdown sources with pandoc:
# man/fi_uet.7 from man/fi_uet.7.md, man/fi_uet_ext.3 from
# man/fi_uet_ext.3.md.  The output is deterministic: the date comes from
# the markdown title block, not from the clock.
#
#   sh scripts/gen-man.sh              rewrite every page
#   sh scripts/gen-man.sh PAGE OUT     write the page PAGE (fi_uet.7,
#                                      fi_uet_ext.3) to OUT instead (used
#                                      by test/man_up_to_date.sh)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
pages="fi_uet.7 fi_uet_ext.3"

if ! command -v pandoc >/dev/null 2>&1; then
	echo "gen-man.sh: pandoc not found (apt-get install pandoc)" >&2
	exit 2
fi

# gen PAGE OUT
gen() {
	src="$top/man/$1.md"
	tmp="$2.tmp.$$"
	trap 'rm -f "$tmp"' EXIT
	# pandoc's first line names its version; the licence and the source
	# file follow it, so the page says where to edit.
	pandoc --standalone --from markdown --to man "$src" |
		sed "1a\\
.\\\\\" SPDX-License-Identifier: BSD-2-Clause\\
.\\\\\" Generated from man/$1.md by scripts/gen-man.sh: edit that file." \
		>"$tmp"
	mv "$tmp" "$2"
	trap - EXIT
}

if [ $# -eq 2 ]; then
	gen "$1" "$2"
	exit 0
fi
if [ $# -ne 0 ]; then
	echo "usage: gen-man.sh [PAGE OUT]" >&2
	exit 2
fi
for p in $pages; do
	gen "$p" "$top/man/$p"
done
