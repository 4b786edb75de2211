#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vlc-timeout: 600
# The commands Documentation/networking/vlc.rst shows run as shown: every
# command block is marked ".. vlc-test: run" or ".. vlc-test: skip REASON"
# (tests/qemu/docrun.py describes the convention); those to run must exit
# 0, or print the output shown under them. An unmarked block fails.
#   docs.sh [RST]   another document (inside the checkout), e.g. a copy
#                   with a command broken on purpose
. "$VLC_SRC/tests/qemu/lib.sh"

doc=${1:-$VLC_SRC/Documentation/networking/vlc.rst}
case "$doc" in /*) ;; *) doc=$VLC_SRC/$doc ;; esac
# vlcctl as the document calls it
PATH=$(dirname "$(vlcctl_bin)"):$PATH
export PATH
python3 "$VLC_SRC/tests/qemu/docrun.py" run "$doc" ||
	fail "a command of $(basename "$doc") did not run as shown"
umount "/lib/modules/$(uname -r)" 2>/dev/null || true
