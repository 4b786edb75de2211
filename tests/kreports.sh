# SPDX-License-Identifier: GPL-2.0
#
# What a kernel prints when something went wrong, as extended regular
# expressions, for every harness that reads a guest's console or dmesg
# (sourced; POSIX sh). A run fails on any line matching $kreports;
# $kstalls is the part after which a guest does not recover, so a
# harness may stop waiting for it. tests/host/kreports.sh checks both
# against the lines the kernels print.
kstalls='detected stalls? on CPU|INFO: task .* blocked.* for more than'
kreports="BUG:|WARNING:|Oops|kernel BUG at|general protection fault|Unable to handle kernel|Kernel panic|KASAN|UBSAN|INFO: lockdep|possible recursive locking|circular locking|inconsistent lock state|Invalid wait context|sleeping function|scheduling while atomic|NOHZ tick-stop error|kmemleak: [0-9]+ new suspected|$kstalls"
