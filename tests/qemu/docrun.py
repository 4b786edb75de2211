#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run the shell commands an rst document shows (tests/qemu/scenarios/docs.sh).

A literal block (after "::") with lines that start with a prompt, "# " or
"$ ", is a command block; "> " continues the previous command, any other
line is that command's output, "..." skipping lines of it. Every command
block must be marked by an rst comment before the paragraph that
introduces it (the comment applies to the next literal block):

  .. vlc-test: run [fresh|loaded|vlc0|pair] [ns=NAME]
  .. vlc-test: skip REASON

run: in the QEMU guest, the block's commands run in one sh (cd and
variables carry over), in order, as root whatever the prompt, from a
scratch directory in which the tree's paths resolve as in a checkout
(its top-level entries linked), with vlcctl on PATH and the built modules
installed for modprobe. A command without shown output must exit 0; one with shown output
passes when its output (stdout and stderr) contains the shown lines, in
order, each within one line, compared with runs of blanks made one and
every number made 0: counters and addresses vary, words and messages must
not. Before the block:
  fresh   no vlc modules loaded, no network namespaces
  loaded  fresh, then vlc_sim (and vlc) loaded, speed=0
  vlc0    loaded, then one simulated device vlc0, with its LED
  pair    loaded, then vlc_pair of tests/qemu/lib.sh: vlc0 in netns a
          (10.0.0.1) and b (10.0.0.2), linked, a ping answered
  ns=NAME the commands run in network namespace NAME
Without any of the first four the block continues the previous state.
skip: not run; REASON says why (real hardware, a command that never ends,
an abbreviated sequence another test runs in full).

  docrun.py check FILE   list the command blocks; fails on an unmarked one
  docrun.py run FILE     run them (in the guest, as root)
"""

import os
import re
import subprocess
import sys

PROMPT = re.compile(r"^[#$] ")
MARK = re.compile(r"^\.\. vlc-test:\s*(\S+)\s*(.*)$")


class Block:
    def __init__(self, line, mark):
        self.line = line
        self.mark = mark        # None, or (verb, rest)
        self.cmds = []          # [line, command text, [output lines]]


def indent(s):
    return len(s) - len(s.lstrip(" "))


def parse(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    blocks = []
    mark = None
    i = 0
    while i < len(lines):
        s = lines[i]
        m = MARK.match(s.strip())
        if m:
            mark = (m.group(1), m.group(2).strip(), i + 1)
            i += 1
            continue
        if not s.rstrip().endswith("::") or s.lstrip().startswith(".. "):
            i += 1
            continue
        # The literal block: indented deeper than the introducing line.
        base = indent(s)
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        if j >= len(lines) or indent(lines[j]) <= base:
            i += 1
            continue
        lead = indent(lines[j])
        body = []
        while j < len(lines) and (not lines[j].strip() or
                                  indent(lines[j]) > base):
            body.append((j + 1, lines[j][lead:] if lines[j].strip() else ""))
            j += 1
        i = j
        if not any(PROMPT.match(t) for _, t in body):
            continue
        b = Block(body[0][0], mark)
        mark = None
        for n, t in body:
            if PROMPT.match(t):
                b.cmds.append([n, t[2:], []])
            elif t.startswith("> ") and b.cmds and not b.cmds[-1][2]:
                b.cmds[-1][1] += "\n" + t[2:]
            elif t.strip() and b.cmds:
                b.cmds[-1][2].append(t)
        blocks.append(b)
    return blocks


def norm(s):
    return re.sub(r"[0-9]+", "0", " ".join(s.split()))


def matches(shown, actual):
    """The shown lines, "..." aside, within actual's lines, in order."""
    got = [norm(x) for x in actual.split("\n")]
    k = 0
    for want in shown:
        if want.strip() == "...":
            continue
        w = norm(want)
        while k < len(got) and w not in got[k]:
            k += 1
        if k == len(got):
            return want
        k += 1
    return None


def sh(script, check=True):
    r = subprocess.run(["sh", "-c", script])
    if check and r.returncode:
        sys.exit("docrun: setup failed: " + script)


def setup(opts):
    lib = os.environ["VLC_SRC"] + "/tests/qemu/lib.sh"
    if {"fresh", "loaded", "vlc0", "pair"} & opts:
        sh("ip -all netns delete; rmmod vlc_sim 2>/dev/null;"
           " rmmod vlc 2>/dev/null; true")
    if {"loaded", "vlc0", "pair"} & opts:
        sh("modprobe vlc_sim speed=0")
    if "vlc0" in opts:
        sh("ip link add vlc0 type vlc; i=0;"
           " while [ ! -e /sys/class/leds/vlc0::illumination ]; do"
           " [ $i -lt 100 ] || exit 1; sleep 0.1; i=$((i + 1)); done")
    if "pair" in opts:
        sh(". %s; vlc_pair; wait_carrier a 60 && wait_carrier b 60 &&"
           " ip netns exec a ping -c 1 -W 60 10.0.0.2 >/dev/null" % lib)


def run_block(b, path, idx, work):
    opts = set(b.mark[1].split())
    ns = [o[3:] for o in opts if o.startswith("ns=")]
    setup(opts)
    d = "%s/%d" % (work, idx)
    os.makedirs(d, exist_ok=True)
    # the tree's paths, as the document gives them from a checkout
    src = os.environ["VLC_SRC"]
    for e in os.listdir(src):
        if not e.startswith(".") and not os.path.lexists(os.path.join(d, e)):
            os.symlink(os.path.join(src, e), os.path.join(d, e))
    script = ["cd %s" % d]
    for k, (n, cmd, out) in enumerate(b.cmds):
        script.append("{\n%s\n} >%s/out.%d 2>&1 </dev/null; echo $? >%s/rc.%d"
                      % (cmd, d, k, d, k))
    with open(d + "/block.sh", "w") as f:
        f.write("\n".join(script) + "\n")
    argv = ["sh", d + "/block.sh"]
    if ns:
        argv = ["ip", "netns", "exec", ns[0]] + argv
    subprocess.run(argv)
    bad = 0
    for k, (n, cmd, out) in enumerate(b.cmds):
        first = cmd.split("\n")[0]
        try:
            with open("%s/out.%d" % (d, k), encoding="utf-8",
                      errors="replace") as f:
                actual = f.read()
            with open("%s/rc.%d" % (d, k)) as f:
                rc = int(f.read())
        except (OSError, ValueError):
            actual, rc = "", -1
        if out:
            miss = matches(out, actual)
            ok = miss is None
            why = "" if ok else "output lacks: %s" % miss.strip()
        else:
            ok = rc == 0
            why = "" if ok else "exit status %d" % rc
        print("%s - %s:%d: %s" % ("ok" if ok else "not ok", path, n, first))
        if not ok:
            bad += 1
            print("  %s; its output:" % why)
            for x in actual.rstrip("\n").split("\n"):
                print("  | " + x)
    return bad


def install_modules():
    """Our modules in a copy of /lib/modules/KREL, as "make install" would."""
    krel = os.uname().release
    mod = os.environ["VLC_MOD"]
    root = "/tmp/docrun-modroot"
    lm = "%s/lib/modules/%s" % (root, krel)
    # What vlc.ko needs from the kernel's own modules (lib/reed_solomon)
    # is loaded first: past the bind mount below their tree is not there.
    sh("modprobe -q reed_solomon || true")
    sh("set -e; mkdir -p %s/extra; cp %s/vlc.ko %s/vlc_sim.ko %s/extra/;"
       " ln -sf /lib/modules/%s/kernel %s/kernel;"
       " cp /lib/modules/%s/modules.builtin* /lib/modules/%s/modules.order %s/;"
       " depmod -b %s %s %s/extra/vlc.ko %s/extra/vlc_sim.ko;"
       " mount --bind %s /lib/modules/%s"
       % (lm, mod, mod, lm, krel, lm, krel, krel, lm, root, krel, lm, lm, lm,
          krel))


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("check", "run"):
        sys.exit("usage: docrun.py check|run FILE")
    path = sys.argv[2]
    blocks = parse(path)
    bad = 0
    for b in blocks:
        if not b.mark:
            print("not ok - %s:%d: command block without a"
                  " \".. vlc-test:\" marker" % (path, b.line))
            bad += 1
        elif b.mark[0] not in ("run", "skip"):
            print("not ok - %s:%d: marker \"%s\" is neither run nor skip"
                  % (path, b.mark[2], b.mark[0]))
            bad += 1
        elif b.mark[0] == "skip" and not b.mark[1]:
            print("not ok - %s:%d: skip without a reason" % (path, b.mark[2]))
            bad += 1
    nrun = sum(1 for b in blocks if b.mark and b.mark[0] == "run")
    ncmd = sum(len(b.cmds) for b in blocks if b.mark and b.mark[0] == "run")
    print("%s: %d command blocks, %d to run (%d commands), %d skipped"
          % (path, len(blocks), nrun, ncmd, len(blocks) - nrun))
    if sys.argv[1] == "run" and not bad:
        install_modules()
        work = "/tmp/docrun"
        for idx, b in enumerate(blocks):
            if b.mark[0] == "skip":
                print("skip - %s:%d: %s" % (path, b.line, b.mark[1]))
                continue
            bad += run_block(b, path, idx, work)
    if bad:
        sys.exit("docrun: %d failed" % bad)


if __name__ == "__main__":
    main()
