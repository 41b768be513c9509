#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The Debian packages (debian/, docs/packaging.md) as an administrator
# uses them, on this machine (as root; CI runs it from scripts/check.sh):
#
#   1. copies the source tree (the files git knows, committed or not; a
#      plain copy outside a git checkout) to a scratch directory and runs
#      `dpkg-buildpackage -us -uc -b` there, so nothing clashes with the
#      build trees of the checkout;
#   2. runs lintian on the packages: any error or warning fails;
#   3. installs libfabric-uet and libfabric-uet-dev with dpkg -i and,
#      with no FI_* variable set: `fi_info -p uet` must list uet from the
#      directory Debian's libfabric searches; fi_uet(7) must be found by
#      man; a program built with `pkg-config --cflags --libs uet-ext`
#      alone must compile; fi_pingpong -c over uet (server and client in
#      a network namespace this test makes, with lo and a veth pair);
#   4. purges both packages and checks that no file they installed is
#      left (the list from dpkg -L before the purge).
#
# Files of the packages that exist before the install (e.g. from
# scripts/install.sh) are put aside and put back at the end; if
# libfabric-uet is already installed as a package the test refuses to
# run.  DEB_BUILD_OPTIONS defaults to "nocheck" (CI has run make check on
# the same tree); UET_DEB_CHECK=1 runs make check inside the package
# build too.  Everything is bounded by timeout and undone on every exit
# path.  Exit 0 pass, 1 fail, 77 skip (not root, or the Debian packaging
# tools missing: scripts/deps.sh installs them).
set -u
top=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)
pkgs="libfabric-uet libfabric-uet-dev"

. "$top/test/pingpong_lib.sh"
. "$top/test/netns_lib.sh"

[ "$(id -u)" -eq 0 ] || pp_skip_all "needs root (dpkg -i, dpkg --purge)"
for t in dpkg-buildpackage dh lintian dpkg-deb pkg-config cc ip; do
	command -v "$t" >/dev/null 2>&1 ||
		pp_skip_all "$t not installed (sh scripts/deps.sh)"
done
for p in $pkgs; do
	if dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q 'installed'; then
		echo "FAIL: $p is already installed on this machine;" \
			"this test installs and purges it (dpkg --purge $pkgs)"
		exit 1
	fi
done

# Nothing of uet or libfabric chosen by a variable: an administrator's
# machine sets none.
for v in $(env | sed -n 's/^\(FI_[A-Za-z0-9_]*\)=.*/\1/p'); do
	unset "$v"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/uet-deb.XXXXXX") || exit 1
installed=0
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	pp_cleanup
	ns_cleanup
	if [ "$installed" -eq 1 ]; then
		# shellcheck disable=SC2086 # a list of package names
		timeout 300 dpkg --purge $pkgs >/dev/null 2>&1 ||
			echo "warning: dpkg --purge $pkgs failed"
	fi
	if [ -s "$tmp/saved.list" ]; then
		while IFS= read -r f; do
			mkdir -p "$(dirname "$f")"
			mv -f "$tmp/saved$f" "$f"
		done <"$tmp/saved.list"
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
start=$(date +%s)

step() {
	echo "== $* ($(($(date +%s) - start))s)"
}

# ---- 1. build ----
step "copying the source tree"
mkdir -p "$tmp/src"
if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	(cd "$top" && git ls-files -z -c -o --exclude-standard |
		tar --null -T - --ignore-failed-read -cf - 2>/dev/null) |
		tar -x -C "$tmp/src" || { echo "FAIL: copying the tree"; exit 1; }
else
	(cd "$top" && tar --exclude='./build*' --exclude=./debian/build \
		-cf - .) | tar -x -C "$tmp/src" ||
		{ echo "FAIL: copying the tree"; exit 1; }
fi
opts="nocheck"
[ "${UET_DEB_CHECK:-0}" = 1 ] && opts=""
step "dpkg-buildpackage -us -uc -b (DEB_BUILD_OPTIONS='$opts parallel=$jobs')"
if ! (cd "$tmp/src" && DEB_BUILD_OPTIONS="$opts parallel=$jobs" \
	timeout -k 10 1800 dpkg-buildpackage -us -uc -b) \
	>"$tmp/build.log" 2>&1; then
	tail -n 60 "$tmp/build.log"
	# With UET_DEB_CHECK=1: the tests that did not pass, and the log
	# of each failure.
	grep -E '^(FAIL|ERROR|SKIP):' "$tmp/build.log"
	suite="$tmp/src/debian/build/test-suite.log"
	[ -f "$suite" ] && awk '/^(FAIL|ERROR): /,0' "$suite" | head -n 200
	echo "FAIL: dpkg-buildpackage"
	exit 1
fi
grep -E '^ +(werror|lto|provider dir):' "$tmp/build.log"
# With UET_DEB_CHECK=1, make check's summary.
grep -E '^# (TOTAL|PASS|SKIP|FAIL|ERROR):' "$tmp/build.log" | tr '\n' ' ' |
	sed 's/^./  make check in the package build: &/;s/ *$//'
grep -q '^# TOTAL:' "$tmp/build.log" && echo
debs=""
for p in $pkgs; do
	d=$(find "$tmp" -maxdepth 1 -name "${p}_*.deb" | head -n 1)
	[ -n "$d" ] || { echo "FAIL: no $p package built"; exit 1; }
	debs="$debs $d"
	echo "  $(basename "$d"): $(dpkg-deb -f "$d" Installed-Size) KiB installed"
done

# ---- 2. lintian ----
step "lintian"
# shellcheck disable=SC2086 # a list of files
timeout 300 lintian --fail-on error,warning -I --pedantic \
	"$tmp"/*.buildinfo $debs >"$tmp/lintian.log" 2>&1
lrc=$?
grep -v 'running with root privileges' "$tmp/lintian.log" | sed 's/^/  /'
[ "$lrc" -eq 0 ] || { echo "FAIL: lintian errors or warnings"; exit 1; }
echo "  lintian (pedantic, info shown): no error or warning"

# ---- 3. install and use ----
# Files of the packages already on the machine (not from a package):
# put aside, put back at the end.
: >"$tmp/saved.list"
for d in $debs; do
	dpkg-deb --fsys-tarfile "$d" | tar -t | sed -n 's|^\./|/|p' |
		grep -v '/$'
done | while IFS= read -r f; do
	if [ -e "$f" ] && [ ! -d "$f" ]; then
		mkdir -p "$tmp/saved$(dirname "$f")"
		mv "$f" "$tmp/saved$f" && echo "$f" >>"$tmp/saved.list"
		echo "  put aside until the end: $f"
	fi
done
step "dpkg -i$(for d in $debs; do printf ' %s' "$(basename "$d")"; done)"
installed=1
# shellcheck disable=SC2086
if ! timeout 300 dpkg -i $debs >"$tmp/dpkg.log" 2>&1; then
	cat "$tmp/dpkg.log"
	echo "FAIL: dpkg -i"
	exit 1
fi
# shellcheck disable=SC2086
dpkg -L $pkgs | sort -u >"$tmp/files.list"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null ||
	gcc -print-multiarch)
prov="/usr/lib/$multiarch/libfabric/libuet-fi.so"
grep -qx "$prov" "$tmp/files.list" ||
	{ echo "FAIL: the package does not install $prov"; exit 1; }

step "fi_info -p uet (no FI_* variable set)"
if ! timeout -k 5 60 fi_info -p uet >"$tmp/fi_info.log" 2>&1; then
	cat "$tmp/fi_info.log"
	echo "FAIL: fi_info -p uet does not list the installed provider"
	exit 1
fi
grep -m 4 -E 'provider:|fabric:|domain:|type:' "$tmp/fi_info.log" | sed 's/^/  /'
if ! man -w fi_uet >/dev/null 2>&1 || ! man -w 3 fi_uet_ext >/dev/null 2>&1
then
	echo "FAIL: man does not find fi_uet(7) and fi_uet_ext(3)"
	exit 1
fi
echo "  man: $(man -w fi_uet) $(man -w 3 fi_uet_ext)"

step "a program built with pkg-config uet-ext"
# shellcheck disable=SC2046 # pkg-config prints a list of flags
if ! cc -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror \
	$(pkg-config --cflags uet-ext) -o "$tmp/ext_prog" \
	"$top/test/uet_ext_installed.c" $(pkg-config --libs uet-ext) \
	>"$tmp/cc.log" 2>&1; then
	cat "$tmp/cc.log"
	echo "FAIL: test/uet_ext_installed.c does not build with" \
		"pkg-config uet-ext"
	exit 1
fi
echo "  cflags '$(pkg-config --cflags uet-ext)' libs" \
	"'$(pkg-config --libs uet-ext)', provdir $(pkg-config --variable=provdir uet-ext)"

step "fi_pingpong -c over the installed uet in a namespace (lo + veth)"
# pingpong_lib.sh: the installed provider, not one of a build tree
# (set only now: the package build's make check needs its own).
UET_PROV_LIBDIR=/nonexistent
export UET_PROV_LIBDIR
pp_init
ns=uet-deb-$$
ns_first "$ns"
ns_step ip -n "$ns" link set lo up
ns_step ip -n "$ns" link add udeb$$a type veth peer name udeb$$b
ns_step ip -n "$ns" addr add 10.250.9.1/24 dev udeb$$a
ns_step ip -n "$ns" addr add 10.250.9.2/24 dev udeb$$b
ns_step ip -n "$ns" link set udeb$$a up
ns_step ip -n "$ns" link set udeb$$b up
echo "  first fi_info entry in $ns: $(pp_data_path "$ns" - FI_EP_RDM)"
pp_pair rdm:msg "$ns" - "$ns" - 127.0.0.1 "" -e rdm -c -I 100 -S 1024
pp_pair rdm:tagged "$ns" - "$ns" - 127.0.0.1 "" -e rdm -m tagged -c \
	-I 10 -S all
# shellcheck disable=SC2154 # pp_nfail: pingpong_lib.sh
[ "$pp_nfail" -eq 0 ] || exit 1
ns_cleanup

# ---- 4. purge ----
step "dpkg --purge $pkgs"
# shellcheck disable=SC2086
if ! timeout 300 dpkg --purge $pkgs >"$tmp/purge.log" 2>&1; then
	cat "$tmp/purge.log"
	echo "FAIL: dpkg --purge"
	exit 1
fi
installed=0
left=0
while IFS= read -r f; do
	if [ -e "$f" ] && [ ! -d "$f" ]; then
		echo "  left after purge: $f"
		left=1
	fi
done <"$tmp/files.list"
for d in /usr/share/doc/libfabric-uet /usr/share/doc/libfabric-uet-dev; do
	[ -d "$d" ] && { echo "  directory left after purge: $d"; left=1; }
done
# shellcheck disable=SC2086
if dpkg-query -W $pkgs >/dev/null 2>&1; then
	echo "  dpkg still knows: $(dpkg-query -W $pkgs 2>/dev/null | tr '\n' ' ')"
	left=1
fi
[ "$left" -eq 0 ] || { echo "FAIL: the purge left files behind"; exit 1; }
echo "  $(wc -l <"$tmp/files.list") paths checked: none left"
if timeout -k 5 30 fi_info -p uet >/dev/null 2>&1; then
	echo "FAIL: fi_info still lists uet after the purge"
	exit 1
fi
echo "PASS: deb-package.sh ($(($(date +%s) - start))s)"
exit 0
