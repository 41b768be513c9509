#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The checked-in Wireshark dissector (contrib/wireshark/uet.lua) must be
# what wire/uet_wire_lua makes of the wire description now: regenerate it
# into a temporary file and compare (one source of truth).  Fix a
# failure with `make wireshark-lua` and commit the result.
set -u

src="${srcdir:-.}"
gen=./wire/uet_wire_lua
if [ ! -x "$gen" ]; then
	echo "FAIL: $gen not built"
	exit 1
fi
tmp=$(mktemp "${TMPDIR:-/tmp}/uet-lua.XXXXXX") || exit 1
trap 'rm -f "$tmp"' EXIT
if ! "$gen" "$tmp"; then
	echo "FAIL: $gen failed"
	exit 1
fi
if ! cmp -s "$tmp" "$src/contrib/wireshark/uet.lua"; then
	diff -u "$src/contrib/wireshark/uet.lua" "$tmp" | head -40
	echo "FAIL: contrib/wireshark/uet.lua is not what wire/uet_wire_lua" \
		"generates: run 'make wireshark-lua' and commit it"
	exit 1
fi
echo "PASS: contrib/wireshark/uet.lua is up to date"
