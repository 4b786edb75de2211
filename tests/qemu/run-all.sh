#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run every QEMU scenario (tests/qemu/scenarios/*.sh but the demo), or
# those named in $VLC_SCENARIOS. A scenario that needs more than run.sh's
# 300 s says so in a line "# vlc-timeout: SECONDS". $VLC_QEMU_NAME names
# the run in the closing line (default qemu).
#
# $VLC_JOBS guests run at once (default 2), each with one CPU unless its
# scenario asks for more in a line "# vlc-smp: N" (those whose races need
# two CPUs: transmit and receive beside unload and link flaps). The
# guests are CPU-bound: two guests of two CPUs each took as long as one
# after the other. The longest timeouts start first, so the slowest
# scenarios do not end the run alone. A scenario with a line
# "# vlc-pace: wall" runs the simulator at the wall clock's pace and
# leaves its CPU idle most of the time: those run one at a time beside
# the others, on the CPU time they leave. Each scenario's output is
# printed whole when it ends, then its wall and CPU seconds.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
if [ -n "${VLC_SCENARIOS:-}" ]; then
	list=$(for n in $VLC_SCENARIOS; do echo "$top/tests/qemu/scenarios/$n.sh"; done)
else
	list=$(ls "$top"/tests/qemu/scenarios/*.sh | grep -v '/demo\.sh$')
fi
jobs=${VLC_JOBS:-2}
res=$build/qemu/results-${VLC_QEMU_NAME:-qemu}
rm -rf "$res"
mkdir -p "$res"

# pool JOBS PACE: the scenarios of that pace, longest timeout first
pool() {
	for s in $list; do
		p=$(sed -n 's/^# vlc-pace: \([a-z]*\)$/\1/p' "$s")
		[ "${p:-cpu}" = "$2" ] || continue
		t=$(sed -n 's/^# vlc-timeout: \([0-9]*\)$/\1/p' "$s")
		c=$(sed -n 's/^# vlc-smp: \([0-9]*\)$/\1/p' "$s")
		echo "${t:-300} ${c:-1} $s"
	done | sort -rn | xargs -r -P "$1" -L 1 sh -c '
	t0=$(date +%s)
	n=$(basename "$5" .sh)
	if "$2/tests/qemu/run.sh" --timeout "$3" --smp "$4" "$5" \
		>"$1/$n.log" 2>&1; then
		r=ok
	else
		r=FAIL
	fi
	echo "$r $(($(date +%s) - t0))" >"$1/$n.result"
	times >"$1/$n.times"
	c=$(sed -n 2p "$1/$n.times" | tr ms "  " | awk "{ print int(\$1 * 60 + \$2 + \$3 * 60 + \$4) }")
	flock "$1/.print" sh -c "cat \"\$1\"; echo \"qemu $n: $(($(date +%s) - t0)) s, cpu $c s\"" \
		sh "$1/$n.log"
' sh "$res" "$top"
}
pool "$jobs" cpu &
pool 1 wall
wait

passed=$(grep -l '^ok' "$res"/*.result 2>/dev/null | wc -l)
ran=$(ls "$res"/*.result 2>/dev/null | wc -l)
want=$(echo "$list" | wc -l)
failed=$((want - passed))
[ "$ran" -eq "$want" ] || echo "qemu: $((want - ran)) scenarios never ended"
echo "${VLC_QEMU_NAME:-qemu}: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
