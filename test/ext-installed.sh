#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The extension header as installed: `make install` into a temporary
# DESTDIR, compile test/uet_ext_installed.c with only
# -I<DESTDIR><prefix>/include and libfabric's flags (warnings as errors,
# C99), and run it with FI_PROVIDER=uet and FI_PROVIDER_PATH at the
# installed provider: per-endpoint delivery mode, a message each way,
# per-peer PDCs and counters through fi_open_ops.  Also checks that the
# man pages and the pkg-config file (uet-ext.pc) were installed.  The
# variables come from AM_TESTS_ENVIRONMENT.
set -u
: "${UET_TOP_BUILDDIR:?run from make check}"
src="${srcdir:-.}"
cc=${UET_CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/uet-ext-inst.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

if ! ${MAKE:-make} -s -C "$UET_TOP_BUILDDIR" install DESTDIR="$tmp/root" \
	>"$tmp/install.log" 2>&1; then
	cat "$tmp/install.log"
	echo "FAIL: make install DESTDIR=$tmp/root"
	exit 1
fi
inc="$tmp/root$UET_INCLUDEDIR"
provdir="$tmp/root$UET_PROVDIR"
mandir="$tmp/root$UET_MANDIR"
for f in "$inc/rdma/fi_uet_ext.h" "$provdir/libuet-fi.so" \
	 "$mandir/man3/fi_uet_ext.3" "$mandir/man7/fi_uet.7" \
	 "$provdir/../pkgconfig/uet-ext.pc"; do
	if [ ! -f "$f" ]; then
		echo "FAIL: $f was not installed"
		exit 1
	fi
done
# shellcheck disable=SC2086 # the flags are lists
if ! $cc -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror \
	-I"$inc" ${UET_FABRIC_CFLAGS:-} -o "$tmp/prog" \
	"$src/test/uet_ext_installed.c" ${UET_FABRIC_LIBS:-} 2>"$tmp/cc.log"
then
	cat "$tmp/cc.log"
	echo "FAIL: test/uet_ext_installed.c does not build against the" \
	     "installed header"
	exit 1
fi
preload=""
if nm -D "$provdir/libuet-fi.so" 2>/dev/null | grep -q '__asan_init'; then
	preload=$($cc -print-file-name=libasan.so)
	ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
	export ASAN_OPTIONS
fi
unset FI_UET_DELIVERY FI_UET_TSS FI_UET_TSS_KEY_FILE
env ${preload:+"LD_PRELOAD=$preload"} FI_PROVIDER=uet \
	FI_PROVIDER_PATH="$provdir" FI_UET_IFACE=lo \
	timeout -k 5 60 "$tmp/prog"
ret=$?
if [ $ret -eq 77 ]; then
	echo "SKIP: ext-installed.sh"
	exit 77
fi
if [ $ret -ne 0 ]; then
	echo "FAIL: ext-installed.sh ($ret)"
	exit 1
fi
echo "PASS: ext-installed.sh"
exit 0
