#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The installed-style extension header (include/rdma/fi_uet_ext.h) from an
# application built only against it and libfabric (test/uet_ext_ops_test):
# fi_open_ops(FI_UET_OPS_V1) counters with FI_UET_TSS=required (40-byte
# auth_key with the secret), with TSS off, and FI_UET_TSS=required without
# any key refused at fi_domain.
set -u
libdir=${UET_PROV_LIBDIR:-$(pwd)/.libs}
prog=./test/uet_ext_ops_test
if [ ! -f "$libdir/libuet-fi.so" ] || [ ! -x "$prog" ]; then
	echo "SKIP: provider or $prog not built"
	exit 77
fi
FI_PROVIDER_PATH=$libdir
FI_UET_IFACE=lo
export FI_PROVIDER_PATH FI_UET_IFACE
unset FI_UET_TSS_KEY_FILE
preload=""
if nm -D "$libdir/libuet-fi.so" 2>/dev/null | grep -q '__asan_init'; then
	preload=$(${CC:-cc} -print-file-name=libasan.so)
	ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
	export ASAN_OPTIONS
fi
run() {
	env ${preload:+"LD_PRELOAD=$preload"} timeout -k 5 60 "$@"
}
fail=0
FI_UET_TSS=required run "$prog" required || fail=1
FI_UET_TSS=on run "$prog" on || fail=1
FI_UET_TSS=off run "$prog" off || fail=1
# With the mode asking for TSS and no secret anywhere, the domain fails.
FI_UET_TSS=required run "$prog" nokey || fail=1
if [ $fail -ne 0 ]; then
	echo "FAIL: ext-ops.sh"
	exit 1
fi
echo "PASS: ext-ops.sh"
exit 0
