#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch --strict on every C file, then a W=1 build with sparse (C=2)
# for x86_64, arm64 and armhf; any warning fails. The cross trees are
# prepared with modules_prepare only (no vmlinux), so modpost cannot
# resolve kernel symbols there: its notes about that are not ours and are
# filtered; compiler and sparse warnings are never filtered.

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
src=$("$top/scripts/ksrc.sh" src)
passed=0
failed=0

ok() { passed=$((passed + 1)); }
ko() { failed=$((failed + 1)); echo "lint: FAIL: $*"; }

cd "$top"
files=$(git ls-files '*.c' '*.h' 2>/dev/null || find drivers include tools tests -name '*.[ch]')
for f in $files; do
	case "$f" in
	tests/host/include/*) continue ;;	# host stand-ins for kernel headers
	esac
	ign=FILE_PATH_CHANGES,SPDX_LICENSE_TAG
	case "$f" in
	# TRACE_EVENT() is written the way every include/trace/events/ header
	# writes it, which --strict's alignment checks do not know about.
	include/trace/events/*) ign=$ign,PARENTHESIS_ALIGNMENT,OPEN_ENDED_LINE ;;
	esac
	if out=$(perl "$src/scripts/checkpatch.pl" --strict --no-tree --quiet \
		 --ignore "$ign" -f "$f" 2>&1); then
		ok
	else
		ko "checkpatch $f"
		echo "$out" | head -n 20 | sed 's/^/  | /'
	fi
done

for arch in x86_64 arm64 arm; do
	case "$arch" in
	x86_64) kd=$(ls -d /usr/src/linux-headers-*-amd64 | sort -V | tail -n 1) ;;
	*) kd=$("$top/scripts/ksrc.sh" cross "$arch") ;;
	esac
	log=$build/lint-$arch.log
	rm -rf "$build/lint-$arch"
	if ! "$top/scripts/kbuild.sh" "$arch" "$kd" "$build/lint-$arch" \
		W=1 C=2 CHECK="sparse" >"$log" 2>&1; then
		ko "$arch W=1 C=2 build failed (log: $log)"
		tail -n 20 "$log" | sed 's/^/  | /'
		continue
	fi
	warn=$(grep -E 'warning|error' "$log" |
		grep -vE 'modpost: "[^"]*" \[.*\] undefined!|Module\.symvers is missing|may not have dependencies or modversions|many unresolved symbol warnings|modpost: suppressed [0-9]+ unresolved symbol' || true)
	if [ -n "$warn" ]; then
		ko "$arch W=1 C=2: $(echo "$warn" | wc -l) warnings (log: $log)"
		echo "$warn" | head -n 20 | sed 's/^/  | /'
	else
		ok
	fi
done

if "$top/scripts/modinfo-check.sh" "$build"/lint-x86_64/drivers/net/vlc/vlc.ko "$build"/lint-x86_64/drivers/net/vlc/vlc_sim.ko; then ok; else ko "modinfo-check: a parameter without description"; fi
echo "lint: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
