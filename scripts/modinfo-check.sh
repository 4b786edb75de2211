#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every module parameter has a description (MODULE_PARM_DESC), so that
# "modinfo vlc_sim" documents it.
#   modinfo-check.sh [KO...]    default: build/<arch>/drivers/net/vlc/
#                               vlc.ko and vlc_sim.ko
# The parameters are those modinfo lists a type for (parmtype) and those
# the module defines (its __param_str_NAME symbols: module_param_cb()
# gives no type); each needs a "parm=NAME:DESCRIPTION" entry in .modinfo
# whose description is not blank. Exits 1 naming the ones that have none.

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -eq 0 ]; then
	arch=$(uname -m | sed -e 's/aarch64/arm64/' -e 's/armv.*/arm/')
	d=${BUILD:-$top/build}/$arch/drivers/net/vlc
	set -- "$d/vlc.ko" "$d/vlc_sim.ko"
fi

bad=0
for ko in "$@"; do
	[ -f "$ko" ] || { echo "modinfo-check: $ko missing (make modules)" >&2; bad=1; continue; }
	m=$(basename "$ko" .ko)
	info=$(objcopy -O binary --only-section=.modinfo "$ko" /dev/stdout |
		tr '\0' '\n')
	names=$( { modinfo -F parmtype "$ko" | cut -d: -f1
		   nm "$ko" | sed -n 's/.* __param_str_\(.*\)$/\1/p'; } | sort -u)
	n=0
	for p in $names; do
		n=$((n + 1))
		desc=$(printf '%s\n' "$info" | sed -n "s/^parm=$p://p" | head -n 1)
		if [ -z "$(printf '%s' "$desc" | tr -d ' \t')" ]; then
			echo "modinfo-check: $m: parameter $p has no description (MODULE_PARM_DESC)"
			bad=1
		fi
	done
	echo "modinfo-check: $m: $n parameters"
done
exit $bad
