#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run the driver's KUnit suites with kunit.py from Debian's kernel sources
# (scripts/ksrc.sh), with this driver grafted into that tree, in QEMU (TCG).
# Build folders live under the cache, keyed by the source version and a
# hash of the config, so a rerun rebuilds only what changed; kunit.py
# itself refuses a .config that lost an option the kunitconfigs ask for.
#
#   run.sh [ARCH@SERIES[:FLAG...]...]
#                   default: arm64@6.12:fast x86_64@7.3:fast:rt x86_64@6.1
#                   (the order make check builds their kernels in)
#   run.sh --build ARCH@SERIES[:rt]   build that kernel only; print its
#                   folder
#   run.sh --configs ARCH@SERIES[:rt] print the config fragments of that
#                   kernel, for the tests that boot it to verify
#
# Every kernel has debug.config. "rt" makes it the PREEMPT_RT debug
# kernel (rt.config) and leaves out KASAN (kasan.config), which the
# others carry. The newest x86_64 series is the RT one: the optical-wire
# test (tests/wire/wire.config) boots it and the arm64 kernel.
#
# x86_64 runs on the oldest and the newest series; arm64, whose
# kunitconfig adds the device-tree and gpio-sim path, on 6.12: the series
# Raspberry Pi OS runs, and the first whose printk tells lockdep that a
# legacy console may take a spinlock_t (6.1's PL011 console trips
# PROVE_RAW_LOCK_NESTING in every printk). ":fast" leaves out the cases
# marked slow (the PHY's statistical runs, which depend on neither the
# kernel's interfaces nor the arch): x86_64 6.1 runs them, under KASAN,
# and so does the host under ASan (make host); under TCG they are most
# of a run's time. The arm64 kernel is also the
# one the DT probe (tests/dt/arm64-probe.sh) and the Raspberry Pi 3B
# board test (tests/board/run.sh) boot with no suite selected: its
# kunitconfigs include tests/dt/probe.config and tests/board/arm64.config.
# kunit.py asks QEMU for KVM first. These guests run under TCG, as every
# other guest of this project, and a machine's KVM need not emulate what
# the guest kernel does (one here stopped a 7.3 kernel at its first
# cmpxchg16b): as root, kunit.py runs with /dev/kvm hidden.
no_kvm() {
	if [ -e /dev/kvm ] && [ "$(id -u)" = 0 ]; then
		unshare -m sh -c 'mount --bind /dev/null /dev/kvm && exec "$@"' \
			sh "$@"
	else
		"$@"
	fi
}

# One kunit.py at a time per build folder (a lock beside it); $VLC_JOBS
# runs at once (default 2: each guest takes one CPU while it runs its
# cases, and on an empty cache the two kernel builds share the CPUs).

set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
logs=${BUILD:-$top/build}/kunit
mkdir -p "$logs"
build_only=0
# flags ARCH@SERIES:FLAG...: the flags, space-separated
flags() {
	echo "$1" | cut -s -d: -f2- | tr : ' '
}
# configs ARCH FLAGS: the fragments of one kernel, one per line
configs() {
	echo "$top/tests/kunit/debug.config"
	echo "$top/tests/kunit/trim.config"
	case " $2 " in
	*" rt "*) echo "$top/tests/kunit/rt.config" ;;
	*) echo "$top/tests/kunit/kasan.config" ;;
	esac
	case "$1" in
	arm64) echo "$top/tests/kunit/arm64.config"
	       echo "$top/tests/dt/probe.config"
	       echo "$top/tests/board/arm64.config"
	       echo "$top/tests/wire/wire.config" ;;
	x86_64) case " $2 " in *" rt "*) echo "$top/tests/wire/wire.config" ;; esac ;;
	esac
}
case "${1:-}" in
--build) build_only=1; shift ;;
--configs)
	r=${2:?}
	configs "${r%%@*}" "$(flags "$r")"
	exit 0 ;;
esac
runs=${*:-arm64@6.12:fast x86_64@7.3:fast:rt x86_64@6.1}
kcfg=$top/drivers/net/vlc/tests/.kunitconfig
. "$top/tests/kreports.sh"
bad=$kreports

set -- $runs
if [ $build_only = 0 ] && [ $# -gt 1 ]; then
	printf '%s\n' "$@" | xargs -P "${VLC_JOBS:-2}" -I{} sh -c \
		'"$1" "{}" >"$2/{}.out" 2>&1; cat "$2/{}.out"' sh "$top/tests/kunit/run.sh" "$logs"
	passed=0
	failed=0
	for run in "$@"; do
		line=$(grep -E '^kunit: [0-9]+ passed, [0-9]+ failed' "$logs/$run.out")
		p=$(echo "$line" | sed -n 's/.*: \([0-9]*\) passed.*/\1/p')
		f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
		[ -n "$line" ] || { echo "kunit $run: ended without a result"; f=1; }
		passed=$((passed + ${p:-0}))
		failed=$((failed + ${f:-0}))
	done
	echo "kunit: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
fi

passed=0
failed=0
for run in $runs; do
	flags=$(flags "$run")
	run=${run%%:*}
	filter=""
	case " $flags " in *" fast "*) filter="speed>slow" ;; esac
	arch=${run%@*}
	series=${run#*@}
	[ "$series" != "$run" ] || series=6.1
	src=$(VLC_KVER=$series "$top/scripts/ksrc.sh" graft)
	cache=$(dirname "$(dirname "$src")")
	xc=""
	case "$arch" in
	x86_64) ;;
	arm64) xc="--cross_compile=aarch64-linux-gnu-" ;;
	*) echo "kunit: unknown arch $arch" >&2; exit 2 ;;
	esac
	frags=$(configs "$arch" "$flags")
	extra=""
	for f in $frags; do extra="$extra --kunitconfig=$f"; done
	key=$( (echo "$src $arch"; cat "$kcfg" $frags) |
		sha256sum | cut -c1-12)
	bd=$cache/kunit-$arch-$key
	name="$arch $series${flags:+ ($flags)}"
	case " $flags " in
	*" rt "*) log=$logs/$arch-$series-rt.log ;;
	*) log=$logs/$arch-$series.log ;;
	esac
	# The wire test and the DT probe ask for the kernel while KUnit runs
	# on it: their log is another file, opened once the lock is theirs.
	[ $build_only = 0 ] || log=${log%.log}.build.log
	echo "kunit $name: linux-source $(VLC_KVER=$series "$top/scripts/ksrc.sh" version), building in $bd" >&2
	cmd=run
	[ $build_only = 0 ] || cmd=build
	set +e
	(flock 8
	 cd "$src" && no_kvm python3 tools/testing/kunit/kunit.py $cmd \
		--build_dir="$bd" --arch="$arch" $xc --jobs="$(nproc)" \
		--kunitconfig="$kcfg" $extra \
		$([ $cmd = build ] || echo --timeout=900) \
		${filter:+--filter="$filter"} >"$log" 2>&1) 8>"$bd.lock"
	rc=$?
	set -e
	if [ $build_only = 1 ]; then
		[ $rc -eq 0 ] || { tail -n 30 "$log" >&2; exit 1; }
		echo "$bd"
		continue
	fi
	sum=$(grep -aE 'Testing complete\. Ran [0-9]+ tests' "$log" | tail -n 1)
	p=$(echo "$sum" | sed -n 's/.*passed: \([0-9]*\).*/\1/p')
	f=$(echo "$sum" | sed -n 's/.*failed: \([0-9]*\).*/\1/p')
	p=${p:-0}
	f=${f:-0}
	[ -n "$sum" ] || f=$((f + 1))
	[ $rc -eq 0 ] || [ "$f" -gt 0 ] || f=1
	if grep -Eq "$bad" "$bd/test.log" 2>/dev/null; then
		echo "kunit $name: kernel report: $(grep -Em1 "$bad" "$bd/test.log")"
		f=$((f + 1))
	fi
	if [ "$f" -gt 0 ]; then
		echo "kunit $name: FAIL (log: $log)"
		grep -aE 'not ok|FAILED|Error|error:|EXPECTATION|ASSERTION' "$log" | head -n 40 | sed 's/^/  | /'
	fi
	echo "kunit $name: $p passed, $f failed"
	passed=$((passed + p))
	failed=$((failed + f))
done
[ $build_only = 1 ] && exit 0
echo "kunit: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
