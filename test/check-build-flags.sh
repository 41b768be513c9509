#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# configure leaves the user's CFLAGS alone: the Makefile's CFLAGS is what
# the user gave, else autoconf's default (-g -O2; -O0 -g3 with
# --enable-debug); its own flags live in UET_* variables (AM_CFLAGS,
# AM_CPPFLAGS), NDEBUG only without --enable-debug.  Run from the build
# directory (make check).
set -u

if [ ! -x ./config.status ] || [ ! -f Makefile ]; then
	echo "SKIP: not in a configured build directory"
	exit 77
fi
args=$(./config.status --config)
mk() {	# the value of a Makefile variable
	sed -n "s/^$1 = *//p" Makefile | head -n 1
}

# config.status --config quotes an argument only when it must:
# --enable-debug, '--enable-debug', CFLAGS=-O1, 'CFLAGS=-O1 -g'.
debug=no
for a in $(printf '%s\n' "$args" | tr -d "'"); do
	case $a in
	--enable-debug|--enable-debug=yes) debug=yes ;;
	--disable-debug|--enable-debug=no) debug=no ;;
	esac
done
has_user=no
want=$(printf '%s\n' "$args" | sed -n "s/.*'CFLAGS=\([^']*\)'.*/\1/p")
[ -n "$want" ] || want=$(printf ' %s\n' "$args" |
	sed -n "s/.* CFLAGS=\([^ ']*\).*/\1/p")
case " $args" in *" CFLAGS="*|*" 'CFLAGS="*) has_user=yes ;; esac

bad=0
cflags=$(mk CFLAGS)
if [ $has_user = yes ]; then
	[ "$cflags" = "$want" ] || {
		echo "FAIL: CFLAGS is \"$cflags\", the user gave \"$want\""
		bad=1
	}
elif [ $debug = yes ]; then
	[ "$cflags" = "-O0 -g3" ] || {
		echo "FAIL: --enable-debug without CFLAGS: \"$cflags\", want \"-O0 -g3\""
		bad=1
	}
else
	[ "$cflags" = "-g -O2" ] || {
		echo "FAIL: CFLAGS is \"$cflags\", autoconf's default is \"-g -O2\""
		bad=1
	}
fi

nd=$(mk UET_DEBUG_CPPFLAGS)
if [ $debug = yes ] && [ -n "$nd" ]; then
	echo "FAIL: --enable-debug build with UET_DEBUG_CPPFLAGS \"$nd\""
	bad=1
elif [ $debug = no ] && [ "$nd" != "-DNDEBUG" ]; then
	echo "FAIL: release build without -DNDEBUG (UET_DEBUG_CPPFLAGS \"$nd\")"
	bad=1
fi
case " $(mk AM_CPPFLAGS) " in
*'$(UET_DEBUG_CPPFLAGS)'*) ;;
*) echo "FAIL: AM_CPPFLAGS does not carry UET_DEBUG_CPPFLAGS"; bad=1 ;;
esac
for v in NDEBUG_DATA_PATH AX_PTHREAD_LIBS; do
	if grep -q "$v" config.h Makefile 2>/dev/null; then
		echo "FAIL: unused configure variable $v is back"
		bad=1
	fi
done
[ $bad = 0 ] && echo "PASS: CFLAGS \"$cflags\" (debug $debug), UET_DEBUG_CPPFLAGS \"$nd\""
exit $bad
