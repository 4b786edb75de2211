#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run every QEMU scenario (tests/qemu/scenarios/*.sh but the demo).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
passed=0
failed=0
for s in "$top"/tests/qemu/scenarios/*.sh; do
	[ "$(basename "$s")" = demo.sh ] && continue
	if "$top/tests/qemu/run.sh" "$s"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
done
echo "qemu: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
