# SPDX-License-Identifier: GPL-2.0
# Helpers for QEMU scenarios; sourced, runs in the guest under sh -eu.

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# expect DESCRIPTION COMMAND...: run, fail the scenario if it fails
expect() {
	d=$1
	shift
	if "$@"; then
		echo "ok - $d"
	else
		fail "$d"
	fi
}

vlc_load() {
	insmod "$VLC_MOD/vlc.ko" "$@"
	insmod "$VLC_MOD/vlc_sim.ko"
}

vlc_unload() {
	rmmod vlc_sim
	rmmod vlc
}
