#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kconfig-verify.sh, which every kernel this project builds
# passes after olddefconfig, on small fragments and configs: what it
# must accept, and what it must refuse and name.
#
# Ends with "kconfig_verify: N passed, N failed".

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

cat >"$tmp/config" <<'EOC'
CONFIG_NET=y
CONFIG_VLC=m
CONFIG_HZ=250
# CONFIG_IPV6 is not set
EOC

# verify WHAT RC NAMED FRAGMENT-TEXT: the script's status is RC, and its
# message names NAMED (empty: says nothing)
verify() {
	printf '%s\n' "$4" >"$tmp/frag"
	"$top/scripts/kconfig-verify.sh" "$tmp/frag" "$tmp/config" \
		>"$tmp/out" 2>&1
	rc=$?
	if [ -z "$3" ]; then
		[ ! -s "$tmp/out" ]
	else
		grep -qF "$3" "$tmp/out"
	fi
	said=$?
	if [ $rc -eq "$2" ] && [ $said -eq 0 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "kconfig_verify: FAIL $1: status $rc, said \"$(cat "$tmp/out")\""
	fi
}

verify "every option there" 0 "" "CONFIG_NET=y
CONFIG_VLC=m
CONFIG_HZ=250"
verify "an option off, asked off, last" 0 "" "CONFIG_NET=y
# CONFIG_IPV6 is not set"
verify "an option absent, asked =n, last" 0 "" "CONFIG_NET=y
CONFIG_USB=n"
verify "an option missing" 1 "CONFIG_GPIO_SIM=y" "CONFIG_GPIO_SIM=y
# CONFIG_IPV6 is not set"
verify "a module where built-in was asked" 1 "CONFIG_VLC=y" "CONFIG_VLC=y"
verify "an option on, asked off" 1 "CONFIG_NET is not set" "# CONFIG_NET is not set"
verify "an option on, asked =n" 1 "CONFIG_VLC=n" "CONFIG_VLC=n"
verify "another value" 1 "CONFIG_HZ=1000" "CONFIG_HZ=1000"

echo "kconfig_verify: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
