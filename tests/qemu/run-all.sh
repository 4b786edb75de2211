#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run every QEMU scenario (tests/qemu/scenarios/*.sh but the demo), or
# those named in $VLC_SCENARIOS. A scenario that needs more than run.sh's
# 300 s says so in a line "# vlc-timeout: SECONDS". $VLC_QEMU_NAME names
# the run in the closing line (default qemu).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
passed=0
failed=0
if [ -n "${VLC_SCENARIOS:-}" ]; then
	list=$(for n in $VLC_SCENARIOS; do echo "$top/tests/qemu/scenarios/$n.sh"; done)
else
	list=$(ls "$top"/tests/qemu/scenarios/*.sh | grep -v '/demo\.sh$')
fi
for s in $list; do
	t=$(sed -n 's/^# vlc-timeout: \([0-9]*\)$/\1/p' "$s")
	if "$top/tests/qemu/run.sh" --timeout "${t:-300}" "$s"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
done
echo "${VLC_QEMU_NAME:-qemu}: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
