#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Discovery end to end: libfabric's own fi_info loads the built provider
# from FI_PROVIDER_PATH and lists it, and the library exports nothing but
# fi_prov_ini.  Exit 77 (skip) when fi_info is not installed.  Runs
# with libfabric 1.17's fi_info and 2.x's (first in PATH): only what both
# print is checked.
set -u

# fi_info's answer to an unsatisfiable hint: a failure that is not a
# crash, naming -FI_ENODATA (1.17 prints "fi_getinfo: -61", 2.x adds
# "(No data available)").
is_enodata() {
	[ "$1" -ne 0 ] && [ "$1" -lt 128 ] &&
		printf '%s\n' "$2" | grep -q '^fi_getinfo: -61\( (.*)\)\{0,1\}$'
}

libdir="${UET_PROV_LIBDIR:-$(pwd)/.libs}"
so="$libdir/libuet-fi.so"

if [ ! -f "$so" ]; then
	echo "FAIL: $so not built"
	exit 1
fi

exports=$(nm -D --defined-only "$so" | awk '{print $3}' | grep -v '^$' | sort)
if [ "$exports" != "fi_prov_ini" ]; then
	echo "FAIL: libuet-fi.so exports more than fi_prov_ini:"
	echo "$exports"
	exit 1
fi
echo "PASS: only fi_prov_ini is exported"

if ! command -v fi_info >/dev/null 2>&1; then
	echo "SKIP: fi_info not installed (apt-get install libfabric-bin)"
	exit 77
fi

# A sanitizer build needs the ASan runtime loaded first in fi_info.
preload=""
if nm -D "$so" 2>/dev/null | grep -q '__asan_init'; then
	preload=$(${CC:-cc} -print-file-name=libasan.so)
	export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
fi

out=$(FI_PROVIDER_PATH="$libdir" LD_PRELOAD="$preload" fi_info -l 2>&1)
rc=$?
echo "$out" | grep -A1 '^uet:'
if [ $rc -ne 0 ] || ! echo "$out" | grep -q '^uet:'; then
	echo "FAIL: fi_info -l (rc=$rc) does not list uet:"
	echo "$out"
	exit 1
fi
if ! echo "$out" | grep -A1 '^uet:' | grep -q 'version: 0\.1'; then
	echo "FAIL: uet listed without its version 0.1"
	exit 1
fi
echo "PASS: fi_info -l lists uet"

# Registered FI_UET_* variables are visible through libfabric.
out=$(FI_PROVIDER_PATH="$libdir" LD_PRELOAD="$preload" fi_info -g FI_UET_ 2>&1)
if ! echo "$out" | grep -q '^# FI_UET_DEVICE: String'; then
	echo "FAIL: fi_info -g FI_UET_ does not list FI_UET_DEVICE:"
	echo "$out"
	exit 1
fi
echo "PASS: fi_info -g FI_UET_ lists FI_UET_DEVICE"

# Discovery over loopback: RDM and DGRAM infos of the lo domain, only uet
# (no utility provider stacked on uet's DGRAM endpoints).
out=$(FI_UET_IFACE=lo FI_PROVIDER_PATH="$libdir" LD_PRELOAD="$preload" \
	fi_info -p uet 2>&1)
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL: fi_info -p uet (rc=$rc): $out"
	exit 1
fi
for want in "provider: uet" "fabric: 127.0.0.0/8" "domain: lo" "type: FI_EP_RDM" \
	"type: FI_EP_DGRAM"; do
	if ! echo "$out" | grep -q "$want"; then
		echo "FAIL: fi_info -p uet does not show '$want':"
		echo "$out"
		exit 1
	fi
done
if echo "$out" | grep -q "provider: uet;"; then
	echo "FAIL: a utility provider is layered on uet:"
	echo "$out"
	exit 1
fi
echo "PASS: fi_info -p uet lists the lo domain, RDM and DGRAM"

# An unsatisfiable hint gets "no data", cleanly.
out=$(FI_UET_IFACE=lo FI_PROVIDER_PATH="$libdir" LD_PRELOAD="$preload" \
	fi_info -p uet -t FI_EP_MSG 2>&1)
rc=$?
if ! is_enodata "$rc" "$out"; then
	echo "FAIL: fi_info -p uet -t FI_EP_MSG (rc=$rc) should answer -61: $out"
	exit 1
fi
echo "PASS: fi_info -p uet -t FI_EP_MSG answers -FI_ENODATA"

# RMA and atomics: RDM endpoints only, the caps split between tx and rx.
out=$(FI_UET_IFACE=lo FI_PROVIDER_PATH="$libdir" LD_PRELOAD="$preload" \
	fi_info -p uet -c "FI_RMA|FI_ATOMIC" -v 2>&1)
rc=$?
if [ $rc -ne 0 ] || ! echo "$out" | grep -q "type: FI_EP_RDM" ||
	echo "$out" | grep -q "type: FI_EP_DGRAM"; then
	echo "FAIL: fi_info -c FI_RMA|FI_ATOMIC (rc=$rc) should list RDM only:"
	echo "$out"
	exit 1
fi
for want in "FI_REMOTE_WRITE" "FI_REMOTE_READ" "mr_key_size: 8"; do
	if ! echo "$out" | grep -q "$want"; then
		echo "FAIL: fi_info -c FI_RMA|FI_ATOMIC does not show '$want':"
		echo "$out"
		exit 1
	fi
done
out=$(FI_UET_IFACE=lo FI_PROVIDER_PATH="$libdir" LD_PRELOAD="$preload" \
	fi_info -p uet -c FI_RMA -t FI_EP_DGRAM 2>&1)
rc=$?
if ! is_enodata "$rc" "$out"; then
	echo "FAIL: fi_info -c FI_RMA -t FI_EP_DGRAM (rc=$rc) should answer -61: $out"
	exit 1
fi
echo "PASS: fi_info -p uet -c FI_RMA|FI_ATOMIC lists RDM only"
exit 0
