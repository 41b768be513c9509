#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# util/, wire/, hsi/ and the software NIC build and link without
# libfabric: their test programs (linked with libuet_dev, DEV_TEST_LDADD)
# neither need libfabric.so nor reference an fi_* symbol.  Checked against
# check_prov first, which must be caught (it is the provider).
# Run from the build directory (make check).
set -u

dev_tests="test/check_util_log test/check_util_list test/check_pds
test/check_ses test/check_tss test/check_hsi_dev test/check_snic
test/check_snic_unit test/check_snic_udp"

for t in objdump nm; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "SKIP: $t not installed (binutils)"
		exit 77
	fi
done

# Prints why $1 depends on libfabric; empty when it does not.
fabric_deps() {
	objdump -p "$1" 2>/dev/null | sed -n 's/^ *NEEDED *\(libfabric[^ ]*\)$/needs \1/p'
	nm -u "$1" 2>/dev/null | sed -n 's/^ *U \(fi_[A-Za-z0-9_]*\).*/references \1/p' | sort -u
}

if [ ! -x test/check_prov ] || [ -z "$(fabric_deps test/check_prov)" ]; then
	echo "FAIL: the check does not see test/check_prov's libfabric"
	exit 99
fi

bad=0
for t in $dev_tests; do
	if [ ! -x "$t" ]; then
		echo "FAIL: $t not built"
		bad=1
		continue
	fi
	d=$(fabric_deps "$t")
	if [ -n "$d" ]; then
		echo "FAIL: $t:"
		echo "$d" | sed 's/^/  /'
		bad=1
	fi
done
[ $bad = 0 ] && echo "PASS: the software NIC's tests link without libfabric"
exit $bad
