#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch --strict (the newest series' checkpatch) on every C file, and
# a W=1 build with sparse (C=2) for x86_64, arm64 and armhf against every
# series of scripts/kernels, two jobs at a time; any warning fails. The cross trees are
# prepared with modules_prepare only (no vmlinux), so modpost cannot
# resolve kernel symbols there: its notes about that are not ours and are
# filtered; compiler and sparse warnings are never filtered. Where the
# kernel's own scripts/checker-valid.sh finds Debian's sparse too old for
# its headers (7.3), that build is W=1 only, and says so.

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
series=$(sed -n 's/^\([0-9][0-9.]*\)[[:space:]].*/\1/p' "$top/scripts/kernels")
newest=$(echo "$series" | tail -n 1)
# the jobs below are this script again: they inherit the source tree
src=${LINT_SRC:-$(VLC_KVER=$newest "$top/scripts/ksrc.sh" src)}
export LINT_SRC="$src"
mkdir -p "$build"
# --checkpatch FILE: "ok", or "FAIL checkpatch FILE" and its first lines
# --build SERIES ARCH: "ok" and what it built against, or "FAIL ..."
case "${1:-}" in
--checkpatch)
	f=$2
	# ALLOC_WITH_SIZEOF asks for kzalloc_obj(), which 6.1 lacks.
	ign=FILE_PATH_CHANGES,SPDX_LICENSE_TAG,ALLOC_WITH_SIZEOF
	case "$f" in
	# the one file that tests the kernel version (vlc_compat.h)
	*/vlc_compat.h) ign=$ign,LINUX_VERSION_CODE,CONSTANT_COMPARISON,MACRO_ARG_UNUSED,MACRO_WITH_FLOW_CONTROL ;;
	# TRACE_EVENT() is written the way every include/trace/events/ header
	# writes it, which --strict's alignment checks do not know about.
	*/vlc_trace.h) ign=$ign,PARENTHESIS_ALIGNMENT,OPEN_ENDED_LINE ;;
	esac
	if out=$(cd "$top" && perl "$src/scripts/checkpatch.pl" --strict \
		 --no-tree --quiet --ignore "$ign" -f "$f" 2>&1); then
		echo ok
	else
		echo "FAIL checkpatch $f"
		echo "$out" | head -n 20 | sed 's/^/  | /'
	fi
	exit 0 ;;
--build)
	v=$2 arch=$3
	name="$v $arch"
	kd=$(VLC_KVER=$v "$top/scripts/ksrc.sh" tree "$arch") ||
		{ echo "FAIL $name: no tree to build against"; exit 0; }
	ks=$kd/source
	[ -d "$ks/scripts" ] || ks=$(VLC_KVER=$v "$top/scripts/ksrc.sh" src)
	chk="C=2 CHECK=sparse"
	if [ -x "$ks/scripts/checker-valid.sh" ] &&
	   [ "$("$ks/scripts/checker-valid.sh" sparse -m64 2>/dev/null)" != 1 ]; then
		echo "lint $name: sparse $(sparse --version) cannot parse these headers (scripts/checker-valid.sh): W=1 only"
		chk=""
	fi
	log=$build/lint-$v-$arch.log
	out=$build/lint-$v-$arch
	rm -rf "$out"
	# shellcheck disable=SC2086
	if ! "$top/scripts/kbuild.sh" "$arch" "$kd" "$out" W=1 $chk >"$log" 2>&1; then
		echo "FAIL $name W=1 ${chk:+C=2 }build failed (log: $log)"
		tail -n 20 "$log" | sed 's/^/  | /'
		exit 0
	fi
	warn=$(grep -E 'warning|error' "$log" |
		grep -vE 'modpost: "[^"]*" \[.*\] undefined!|Module\.symvers is missing|may not have dependencies or modversions|many unresolved symbol warnings|modpost: suppressed [0-9]+ unresolved symbol|Skipping BTF generation|You may get many unresolved symbol errors|KBUILD_MODPOST_WARN=1 to turn errors into warning' || true)
	if [ -n "$warn" ]; then
		echo "FAIL $name W=1 ${chk:+C=2}: $(echo "$warn" | wc -l) warnings (log: $log)"
		echo "$warn" | head -n 20 | sed 's/^/  | /'
	else
		echo "lint $name: W=1 ${chk:+C=2 }clean against $("$top/scripts/krelease.sh" "$kd")"
		echo ok
	fi
	exit 0 ;;
esac

# Two at a time, each job's report in a file of its own, read in order.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top"
files=$(git ls-files '*.c' '*.h' 2>/dev/null || find drivers include tools tests -name '*.[ch]')
i=0
for f in $files; do
	case "$f" in
	tests/host/include/*) continue ;;	# host stand-ins for kernel headers
	esac
	i=$((i + 1))
	echo "--checkpatch $f $tmp/$(printf %04d $i)"
done >"$tmp/jobs"
for v in $series; do
	for arch in x86_64 arm64 arm; do
		i=$((i + 1))
		echo "--build $v $arch $tmp/$(printf %04d $i)"
	done
done >>"$tmp/jobs"
# the builds first: they are the long jobs
{ grep -e '^--build' "$tmp/jobs"; grep -v -e '^--build' "$tmp/jobs"; } |
	xargs -P 2 -L 1 sh -c 'o=$(eval echo \${$#}); "$0" "$@" >"$o" 2>&1' "$0"
passed=0
failed=0
for o in "$tmp"/[0-9]*; do
	while IFS= read -r line; do
		case "$line" in
		ok) passed=$((passed + 1)) ;;
		FAIL*) failed=$((failed + 1)); echo "lint: $line" ;;
		*) echo "$line" ;;
		esac
	done <"$o"
done

if "$top/scripts/modinfo-check.sh" "$build"/lint-6.1-x86_64/drivers/net/vlc/vlc.ko "$build"/lint-6.1-x86_64/drivers/net/vlc/vlc_sim.ko; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	echo "lint: FAIL: modinfo-check: a parameter without description"
fi
echo "lint: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
