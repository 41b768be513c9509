#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Install the build and test dependencies (Debian 12).  Run as root, or as
# a user with sudo.  libxdp-dev and libbpf-dev (with clang's BPF target)
# build the AF_XDP link (docs/software-nic.md); xdp-tools is not needed.
set -eu
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
# tshark (test/tshark-dissector.sh) asks whether non-root users may
# capture: answer no, without a prompt.
echo "wireshark-common wireshark-common/install-setuid boolean false" |
	$SUDO debconf-set-selections
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
	build-essential autoconf automake libtool pkg-config \
	libfabric-dev libfabric-bin check libssl-dev binutils pandoc iproute2 tcpdump tshark \
	iputils-ping gdb \
	debhelper dpkg-dev fakeroot lintian \
	clang libfuzzer-14-dev \
	libxdp-dev libbpf-dev >/dev/null
echo "deps: installed (libfabric $(pkg-config --modversion libfabric)," \
	"check $(pkg-config --modversion check))"
