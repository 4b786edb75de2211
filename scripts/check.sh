#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make check: every test suite of the project. Each step ends its output
# with "<name>: N passed, N failed"; this adds them up and ends with the
# same line for the whole run. Logs: build/check/.
#
# Each step's time is printed next to its budget (the first figure from
# an empty cache on two cores, the second warm, a rerun) and its CPU
# time; a run more than a quarter over its own budget fails (below).

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
logs=$build/check
mkdir -p "$logs"

# Steps run one after the other; "a+b" runs a and b side by side, and
# "a,b" one after the other within such a lane: the steps that keep one
# CPU busy (the DT checks, the host tests, a one-CPU guest) share the
# two. The wire test's guests keep their clock under -icount whatever
# the load: the wire test runs beside the scenarios of qemu-test, below
# them in priority (nice 10, lane()), on what they leave, and the smoke
# scenarios and KUnit follow them.
steps=${VLC_CHECK_STEPS:-"lint cross dt,board-test+host,docs-check,fuzz-smoke,install-test,dt-probe qemu-test,qemu-smoke,kunit+wire"}
all=" $(echo "$steps" | tr '+,' '  ') "
# step budget, minutes: from an empty cache / warm, as a fresh clone's
# runs on two cores took them (vlc-testing.rst); "all" is the whole run.
budget() {
	case "$1" in
	host) echo 1/1 ;;
	docs-check) echo 1/1 ;;
	fuzz-smoke) echo 1/1 ;;
	lint) echo 4/1 ;;
	cross) echo 1/1 ;;
	install-test) echo 1/1 ;;
	dt) echo 5/2 ;;
	dt-probe) echo 10/1 ;;
	board-test) echo 7/2 ;;
	wire) echo 28/21 ;;
	qemu-test) echo 13/13 ;;
	qemu-smoke) echo 3/2 ;;
	kunit) echo 11/2 ;;
	all) echo 45/25 ;;
	*) echo "?/?" ;;
	esac
}
start=$(date +%s)
rm -f "$logs"/board-kernel.wall "$logs"/kernel-*.wall
bg_report() {
	[ -f "$logs/$1.wall" ] || return 0
	echo "check $1: $(mmss "$(cat "$logs/$1.wall")") in the background, cpu $(mmss $(($(secs "$logs/$1.t1") - $(secs "$logs/$1.t0"))))"
}
# The kernels no step of the first stages builds itself are built at
# the lowest priority from the start, on the CPU time the steps leave
# idle, one after the other in the order the steps need them: the
# armhf kernel of the board test, then the x86_64 ones of the wire test
# and KUnit (the arm64 one is the DT probe's, in its own lane). One at a
# time, the first is ready in a third of the time three side by side
# would take. A step that needs a kernel finds it in the cache, or waits
# on its lock, or builds what is still missing.
chain=""
case "$all" in
*" board-test "*) chain="board-kernel" ;;
esac
case "$all" in
*" kunit "*|*" wire "*) chain="$chain kernel-x86_64@7.3:rt kernel-x86_64@6.1" ;;
esac
bg_build() {
	bg_ni=$(cat "$logs/.bg-urgent" 2>/dev/null || echo 19)
	case "$1" in
	board-kernel) nice -n $bg_ni "$top/scripts/board-kernel.sh" ;;
	kernel-*) nice -n $bg_ni "$top/tests/kunit/run.sh" --build "${1#kernel-}" ;;
	esac
}
# each in turn, its output in NAME.log, its wall and CPU seconds beside
# it for the report
rm -f "$logs/.bg-urgent"
(for n in $chain; do
	t0=$(date +%s)
	times >"$logs/$n.t0"
	bg_build "$n" >"$logs/$n.log" 2>&1
	times >"$logs/$n.t1"
	echo $(($(date +%s) - t0)) >"$logs/$n.wall"
 done) &
chain_pid=$!
# unnice NICE PID: PID and what it started at priority NICE, the parent
# first so that what it starts next inherits that (root only; otherwise
# nothing changes)
unnice() {
	renice -n "$1" -p "$2" >/dev/null 2>&1 || :
	for c in $(cat /proc/"$2"/task/*/children 2>/dev/null); do
		unnice "$1" "$c"
	done
}
# A step that needs a background kernel waits for it at its own
# priority: the board test for the build in progress (the board's, on a
# cold run; the ones after it stay low until the wire test starts), the
# wire test (nice 10, beside the scenarios) and then KUnit (normal) for
# that one and every one after it.
urgent() {
	case "$1" in
	board-test) unnice 0 "$chain_pid" ;;
	wire) echo 10 >"$logs/.bg-urgent"; unnice 10 "$chain_pid" ;;
	kunit) echo 0 >"$logs/.bg-urgent"; unnice 0 "$chain_pid" ;;
	esac
}
mmss() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }
# secs FILE: the CPU seconds of the children in a file written by times
secs() {
	sed -n 2p "$1" | tr 'ms' '  ' |
		awk '{ printf "%d\n", $1 * 60 + $2 + $3 * 60 + $4 }'
}
# lane STEP,...: the steps in order, each leaving its exit status, wall
# seconds and CPU seconds beside its log
lane() {
	for s in $(echo "$1" | tr , ' '); do
		urgent "$s"
		t0=$(date +%s)
		times >"$logs/$s.t0"
		# the wire test keeps its clock whatever its share of the
		# CPU: the scenarios, whose guests run on the wall clock's
		# timers, come first
		case "$s" in wire) ni=10 ;; *) ni=0 ;; esac
		nice -n $ni make -s -C "$top" "$s" >"$logs/$s.log" 2>&1
		echo $? >"$logs/$s.rc"
		times >"$logs/$s.t1"
		echo $(($(date +%s) - t0)) >"$logs/$s.wall"
	done
}
# report STEP: its line, and its counts added to the totals
report() {
	s=$1
	rc=$(cat "$logs/$s.rc" 2>/dev/null || echo 1)
	t=$(cat "$logs/$s.wall" 2>/dev/null || echo 0)
	c=$(($(secs "$logs/$s.t1") - $(secs "$logs/$s.t0")))
	line=$(grep -E '^[a-z0-9_.-]+: [0-9]+ passed, [0-9]+ failed' "$logs/$s.log" | tail -n 1)
	p=$(echo "$line" | sed -n 's/.*: \([0-9]*\) passed.*/\1/p')
	f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
	p=${p:-0}
	f=${f:-0}
	# A step that failed without saying what counts as one failure, and
	# one that counted nothing is not a pass.
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	if [ "$f" -gt 0 ]; then
		echo "check $s: FAILED ($p passed, $f failed, $(mmss $t) of $(budget "$s") min, cpu $(mmss $c); log $logs/$s.log)"
		grep -E 'FAIL|error|Error' "$logs/$s.log" | head -n 30 | sed 's/^/  | /'
	else
		echo "check $s: ok ($p passed, $(mmss $t) of $(budget "$s") min, cpu $(mmss $c))"
	fi
	passed=$((passed + p))
	failed=$((failed + f))
}
passed=0
failed=0
for g in $steps; do
	pids=""
	for s in $(echo "$g" | tr '+,' '  '); do
		rm -f "$logs/$s.rc" "$logs/$s.wall"
	done
	for l in $(echo "$g" | tr + ' '); do
		lane "$l" &
		pids="$pids $!"
	done
	wait $pids
	for s in $(echo "$g" | tr '+,' '  '); do
		report "$s"
	done
done
wait
for k in board-kernel kernel-x86_64@7.3:rt kernel-x86_64@6.1; do
	bg_report "$k"
done
times >"$logs/.times"

# The budget is a test. A run is cold when a kernel had to be built (a
# background build, or the DT probe with its arm64 kernel, took more
# than five minutes), warm otherwise. A run of every step more than a
# quarter over its budget fails, naming the steps more than a quarter
# over theirs; a step alone does not fail a run, since the lanes trade
# time. VLC_CHECK_BUDGET=COLD/WARM (minutes) sets the run's budget, and
# applies it to a run of other steps too.
kind=warm
for n in board-kernel kernel-x86_64@7.3:rt kernel-x86_64@6.1 dt-probe; do
	[ "$(cat "$logs/$n.wall" 2>/dev/null || echo 0)" -le 300 ] || kind=cold
done
pick() { case $kind in cold) echo "${1%/*}" ;; *) echo "${1#*/}" ;; esac; }
# over SECONDS MINUTES: more than a quarter over
over() { [ $(($1 * 4)) -gt $(($2 * 60 * 5)) ]; }
total=$(($(date +%s) - start))
tb=$(pick "${VLC_CHECK_BUDGET:-$(budget all)}")
if [ -z "${VLC_CHECK_STEPS:-}" ] || [ -n "${VLC_CHECK_BUDGET:-}" ]; then
	slow=""
	for s in $all; do
		w=$(cat "$logs/$s.wall" 2>/dev/null || echo 0)
		b=$(pick "$(budget "$s")")
		case "$b" in '' | *[!0-9]*) continue ;; esac
		! over "$w" "$b" || slow="$slow $s ($(mmss "$w") of $b min)"
	done
	if over "$total" "$tb"; then
		echo "check: FAIL: $(mmss $total) is more than a quarter over the $kind budget of $tb min; steps more than a quarter over theirs:${slow:- none}"
		failed=$((failed + 1))
	elif [ -n "$slow" ]; then
		echo "check: more than a quarter over their $kind budgets:$slow"
	fi
fi
echo "check: $(mmss $total) in all ($kind; budget $tb min, a failure past $(mmss $((tb * 75)))), cpu $(mmss "$(secs "$logs/.times")")"
echo "check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
