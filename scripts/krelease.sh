#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the release of a kernel build tree, as uname -r and vermagic say
# it: UTS_RELEASE. Debian's 6.1 headers have 6.1.0-57-amd64 there, but
# only the upstream version in include/config/kernel.release.
sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "${1:?KDIR}/include/generated/utsrelease.h"
