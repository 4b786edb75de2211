#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A config fragment is not a config: olddefconfig silently drops an
# option whose dependencies are off. Check that every line a fragment
# asks for is in the .config that came out.
#
#   kconfig-verify.sh FRAGMENT... DOTCONFIG

set -eu
[ $# -ge 2 ] || { echo "usage: kconfig-verify.sh FRAGMENT... DOTCONFIG" >&2; exit 2; }
eval "cfg=\${$#}"
bad=""
while [ $# -gt 1 ]; do
	frag=$1
	shift
	bad=$bad$(sed -n 's/^\(CONFIG_[A-Za-z0-9_]*=.*\)/\1/p; s/^# \(CONFIG_[A-Za-z0-9_]*\) is not set/\1 is not set/p' "$frag" |
		while read -r l; do
			case "$l" in
			*" is not set") ! grep -q "^${l%% *}=[ym]" "$cfg" || echo " $l" ;;
			*=n) ! grep -q "^${l%%=*}=[ym]" "$cfg" || echo " $l" ;;
			*) grep -qxF "$l" "$cfg" || echo " $l" ;;
			esac
		done)
done
if [ -n "$bad" ]; then
	echo "kconfig-verify: $cfg lacks what was asked for:$bad" >&2
	exit 1
fi
