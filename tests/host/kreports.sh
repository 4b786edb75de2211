#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The harnesses' list of kernel reports (tests/kreports.sh) against the
# lines the supported kernels print: each report below must fail a run,
# each line of a clean boot must not, and the stalls a guest does not
# recover from must be told apart. The lines are the kernels' own format
# strings filled in (the file that prints each is named beside it), with
# the console's timestamp.
#
# Ends with "kreports: N passed, N failed".

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/kreports.sh"
passed=0
failed=0

# each LIST: LIST's lines, "source file|line as printed"
# expect WHAT PATTERN MATCH LIST: every line of LIST matches PATTERN
# (MATCH=1) or none does (MATCH=0)
expect() {
	while IFS='|' read -r src line; do
		[ -n "$line" ] || continue
		if printf '[   42.123456] %s\n' "$line" | grep -qE "$2"; then
			got=1
		else
			got=0
		fi
		if [ $got = "$3" ]; then
			passed=$((passed + 1))
		else
			failed=$((failed + 1))
			echo "kreports: FAIL $1: \"$line\" ($src)"
		fi
	done
}

expect "a report that must fail a run" "$kreports" 1 <<'EOF2'
kernel/sched/core.c|BUG: sleeping function called from invalid context at kernel/locking/mutex.c:580
kernel/sched/core.c|BUG: scheduling while atomic: vlc/vlc1/59/0x00000002
kernel/time/tick-sched.c|NOHZ tick-stop error: local softirq work is pending, handler #08!!!
kernel/panic.c|WARNING: CPU: 1 PID: 59 at drivers/net/vlc/vlc_netdev.c:473 vlc_napi_poll+0x1c4/0x2a0 [vlc]
kernel/panic.c (7.3)|WARNING: drivers/net/vlc/vlc_netdev.c:473 at vlc_napi_poll+0x1c4/0x2a0 [vlc], CPU#1: vlc/vlc1/59
kernel/locking/lockdep.c|WARNING: possible circular locking dependency detected
kernel/locking/lockdep.c|WARNING: possible recursive locking detected
kernel/locking/lockdep.c|WARNING: inconsistent lock state
kernel/locking/lockdep.c|BUG: Invalid wait context
kernel/locking/lockdep.c|INFO: lockdep is turned off.
mm/kasan/report.c|BUG: KASAN: slab-use-after-free in vlc_mac_rx_symbol+0x3c/0x4a0 [vlc]
lib/ubsan.c|UBSAN: array-index-out-of-bounds in drivers/net/vlc/vlc_phy_rx.c:120:5
lib/bug.c|kernel BUG at drivers/net/vlc/vlc_mac.c:300!
arch/x86/kernel/dumpstack.c (6.1)|general protection fault, probably for non-canonical address 0xdffffc0000000002: 0000 [#1] PREEMPT SMP KASAN NOPTI
arch/x86/kernel/dumpstack.c (7.3)|Oops: general protection fault, probably for non-canonical address 0xdffffc0000000002: 0000 [#1] SMP KASAN NOPTI
arch/x86/mm/fault.c|BUG: kernel NULL pointer dereference, address: 0000000000000008
arch/arm64/mm/fault.c|Unable to handle kernel NULL pointer dereference at virtual address 0000000000000008
arch/arm64/kernel/traps.c|Internal error: Oops: 0000000096000004 [#1] PREEMPT SMP
kernel/panic.c|Kernel panic - not syncing: Fatal exception in interrupt
mm/kmemleak.c|kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)
kernel/rcu/tree_stall.h|rcu: INFO: rcu_preempt self-detected stall on CPU
kernel/rcu/tree_stall.h|rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:
kernel/hung_task.c (6.1)|INFO: task ip:812 blocked for more than 120 seconds.
kernel/hung_task.c (7.3)|INFO: task ip:812 blocked in I/O wait for more than 120 seconds.
EOF2

expect "a stall the guest does not recover from" "$kstalls" 1 <<'EOF2'
kernel/rcu/tree_stall.h|rcu: INFO: rcu_preempt self-detected stall on CPU
kernel/rcu/tree_stall.h|rcu: INFO: rcu_sched detected stalls on CPUs/tasks:
kernel/hung_task.c (6.1)|INFO: task kworker/0:1:12 blocked for more than 120 seconds.
kernel/hung_task.c (7.3)|INFO: task ip:812 blocked in I/O wait for more than 120 seconds.
EOF2

expect "a line of a clean boot or run" "$kreports" 0 <<'EOF2'
mm/kasan/hw_tags.c|kasan: KernelAddressSanitizer initialized (generic)
mm/kmemleak.c|kmemleak: Kernel memory leak detector initialized (mem pool available: 15845)
kernel/locking/lockdep.c|Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
kernel/rcu/tree.c|rcu: RCU calculated value of scheduler-enlistment delay is 25 jiffies.
kernel/hung_task.c|hung_task: 120 s timeout
drivers/net/vlc/vlc_exec.c|vlc/vlc1: 64 slot boundaries in a row passed before the thread was done: sleeping 1000 us (timing too fast for this board?)
drivers/net/vlc/vlc_gpio.c|vlc-gpio vlc: vlc0: rx led (shared TX LED), polled, thread executor
kernel/reboot.c|reboot: Power down
EOF2

expect "a line of a clean boot, as a stall" "$kstalls" 0 <<'EOF2'
kernel/rcu/tree.c|rcu: Hierarchical RCU implementation.
EOF2

echo "kreports: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
