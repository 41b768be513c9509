#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The documentation must work on any machine: README.md, docs/ and man/
# may not name a path of the machine they were written on.  Where a
# reader's own directory is meant, they write a placeholder
# (<libfabric-2.x-prefix>, <uet-build-dir>, $FABTESTS_DIR, ...).
#
# A path of one machine is any of:
#   /work/...                 a workspace (its worktrees, ext/, mirrors)
#   /root/..., /home/NAME, /Users/NAME        a user's home directory
#   /tmp/NAME                 a file or directory made under /tmp (a bare
#                             /tmp or ${TMPDIR:-/tmp} is fine)
#   /mnt/NAME, /scratch/NAME  a local mount
#   .mirror/, /mirror/        a local git mirror
# System paths every Debian machine has (/usr/lib/<triplet>/libfabric,
# /etc/..., /proc/..., /sys/...) are fine.
#
# Before scanning, the script checks itself: every pattern must catch a
# planted example, and a planted clean text must pass.
#
#   test/docs-no-machine-paths.sh [FILE|DIR]...   (default: README.md
#                                                 docs man of the tree)
# Exit 0 clean, 1 a path found (each printed as file:line: text).
set -u
top=$(CDPATH='' cd -- "${srcdir:-$(dirname -- "$0")/..}" && pwd)

# One extended regex per kind of path.
re='(^|[^A-Za-z0-9_.~-])(/work(/|$|[^A-Za-z0-9_-])|/root/|/home/[A-Za-z0-9_.-]|/Users/[A-Za-z0-9_.-]|/tmp/[A-Za-z0-9_.-]|/mnt/[A-Za-z0-9_.-]|/scratch/[A-Za-z0-9_.-])|\.mirror/|/mirror/'

# scan FILE|DIR...: print every offending line; 1 when any.
scan() {
	grep -rnIE "$re" --include='*.md' --include='*.[0-9]' "$@" 2>/dev/null
	[ $? -eq 1 ]
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/uet-docpaths.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# ---- self-test: each planted path is caught, the clean text passes ----
n=0
for bad in 'built in /work/ext/lf-v2.6.0 first' \
	'FABTESTS_DIR=/work/fabtests-install sh bench/run.sh' \
	'git -C /work/.mirror/ofiwg+libfabric/repo archive' \
	'see /root/notes.txt' '(/home/alice/src/uet)' '`/Users/bob/uet`' \
	'mpicc -o /tmp/osc test.c' 'cd /mnt/data/uet' '/scratch/me/run' \
	'a clone at ~/git.mirror/libfabric' 'from /srv/mirror/libfabric.git'; do
	n=$((n + 1))
	printf 'text\n%s\n' "$bad" >"$tmp/planted$n.md"
	if scan "$tmp/planted$n.md" >/dev/null; then
		echo "FAIL: self-test: '$bad' was not caught"
		exit 1
	fi
done
cat >"$tmp/clean.md" <<'EOF'
Installed in /usr/lib/x86_64-linux-gnu/libfabric (Debian's provider
directory); mktemp -d "${TMPDIR:-/tmp}/uet.XXXXXX"; files under /tmp are
removed; /etc/netns/NS/hosts, /proc/net/tcp, /sys/fs/cgroup, a key file
~/.uet-tss.key; <libfabric-2.x-prefix>/lib, $FABTESTS_DIR/bin,
<uet-build-dir>/.libs, rdma/fi_uet_ext.h, the workspace, homework/x,
a /workload and /tmpfs mount.
EOF
if ! out=$(scan "$tmp/clean.md"); then
	echo "FAIL: self-test: clean text flagged:"
	echo "$out"
	exit 1
fi
echo "self-test: $n planted machine paths caught, clean text passes"

# ---- the documentation ----
if [ $# -eq 0 ]; then
	set -- "$top/README.md" "$top/docs" "$top/man"
fi
if ! out=$(scan "$@"); then
	echo "$out" | sed "s|^$top/||"
	echo "FAIL: the lines above name a path of one machine; write a" \
		"placeholder (<libfabric-2.x-prefix>, <uet-build-dir>," \
		"\$FABTESTS_DIR, ...) and say what is needed instead"
	exit 1
fi
echo "PASS: no machine path in $*" | sed "s|$top/||g"
exit 0
