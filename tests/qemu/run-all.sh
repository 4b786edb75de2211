#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run every QEMU scenario (tests/qemu/scenarios/*.sh but the demo). A
# scenario that needs more than run.sh's 300 s says so in a line
# "# vlc-timeout: SECONDS".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
passed=0
failed=0
for s in "$top"/tests/qemu/scenarios/*.sh; do
	[ "$(basename "$s")" = demo.sh ] && continue
	t=$(sed -n 's/^# vlc-timeout: \([0-9]*\)$/\1/p' "$s")
	if "$top/tests/qemu/run.sh" --timeout "${t:-300}" "$s"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
done
echo "qemu: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
