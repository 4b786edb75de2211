#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Docs that cannot drift (make doccheck, a step of make check).

  check.py [TOP]   ends with "docs: N passed, N failed"

1. Every rst page under Documentation/ parses with docutils without a
   warning, and every ".. vlc-..." marker starts a block of its own (one
   inside a paragraph renders as text). ".. kernel-doc:: FILE" with
   ":doc: NAME" includes the source's "DOC: NAME" section, as the
   kernel's Sphinx build does; a section that is not there is an error.
2. Every file a page cites exists: paths under the checkout's top-level
   folders, and bare *.rst, *.md, *.yaml or *.dts names.
3. Figures. A paragraph that cites vlc-benchmarks.rst is followed by a
   marker naming the section and the figures it quotes:
       .. vlc-figures: SECTION: 37 18.5          (rst, a comment)
       <!-- vlc-figures: SECTION: 37 18.5 -->    (markdown)
   Each figure must be in that paragraph and in that section of
   vlc-benchmarks.rst as a reader sees it: with the fragments make bench
   writes (Documentation/networking/vlc-bench/) included and their
   |substitutions| replaced. The fragments are not pages of their own;
   the files they cite are checked as the page's. Every marker is
   checked so, and its paragraph must cite vlc-benchmarks.rst: a reader
   is told where the figure comes from.
   A figure quoted without a marker is caught too: in README.md, vlc.rst
   and vlc-hardware.rst every number that reads as a measurement, that is
     - a number (or range "a to b") before a benchmark unit: dB, bit/s,
       kbit/s, kb/s, kB/s, B/s, instructions, M instructions, ns; and
       "a million instructions" and the like, written in words;
     - the first number after a statistic (mean, median, average,
       averaged, percentile, p50/p95/p99, goodput, RTT) within a few
       words and no punctuation: "median 19", "mean RTT is 1.252",
       "95th percentile from about 1000 frames";
   must be a figure of the vlc-figures marker after its paragraph (so
   equal to the number in vlc-benchmarks.rst), or its words ("2
   kbit/s", "mean of 16") must be on FIGURES_NOT_MEASURED below, which
   says why each is not a measurement. Literal blocks (command output,
   diagrams) and ``inline literals`` are not read: they are examples,
   not quotes. A number after its statistic ("19.5 frames on average")
   and other units (ppm, us, ms) are not read; a measurement in them is
   left to review.
4. Setting names. Every overlay parameter (dts/overlays/vlc-overlay.dts,
   __overrides__) is listed in dts/overlays/README; the property it sets
   is one of the binding's; vlc-hardware.rst's table of names ("Names of
   the settings") has the two on one line. Every setting vlcctl knows
   (its attr_name table, in tools/vlcctl/nl.c) is in that section and
   in vlc.rst.
   vlcctl spells each setting one way everywhere it shows one: its
   parser's tables, the settings of its usage text's "set" line and
   of the SYNOPSIS and OPTIONS of tools/vlcctl/vlcctl.8 are the
   attr_name table's names, and a word of the usage text or the man
   page that is a setting's name but for "-"/"_" and a unit suffix
   (us, ns, ms) is spelled as the setting. The JSON keys of vlcctl -j
   (show and monitor) are the text output's words with "_" for "-",
   timings "_ns" for "-us" (that table's last column says so, row by
   row); a key that is not, such as "link_up" for "link up", is on a
   line of that section's table of other spellings, which also names
   its text.
5. The "vlc" generic netlink family's YNL spec
   (Documentation/netlink/specs/vlc.yaml): scripts/ynl-check.sh, one line
   a check of it: include/uapi/linux/vlc.h is what the kernel's generator
   makes of the spec, and vlc_nl.c registers what it describes.
"""

import glob
import os
import re
import subprocess
import sys

top = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                      os.path.join(os.path.dirname(__file__), "..", ".."))
passed = 0
failed = 0


def result(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"docs: ok   {what}")
    else:
        failed += 1
        print(f"docs: FAIL {what}" + (f": {detail}" if detail else ""))


def read(rel):
    with open(os.path.join(top, rel), encoding="utf-8") as f:
        return f.read()


rst_pages = sorted(os.path.relpath(p, top) for p in
                   glob.glob(os.path.join(top, "Documentation", "**", "*.rst"),
                             recursive=True)
                   if "/vlc-bench/" not in p)

include_re = re.compile(r"^(\s*)\.\. include:: (\S+)\s*$")
subst_re = re.compile(r"^\s*\.\. \|([^|]+)\| replace:: (.*)$")


def inlined(rel):
    """A page's lines with its ".. include::" files in their place, at the
    directive's indent."""
    lines = []
    for l in read(rel).splitlines():
        m = include_re.match(l)
        if not m:
            lines.append(l)
            continue
        inc = os.path.normpath(os.path.join(os.path.dirname(rel), m.group(2)))
        if not os.path.isfile(os.path.join(top, inc)):
            lines.append(l)  # docutils says so, in part 1
            continue
        lines += [m.group(1) + x if x.strip() else "" for x in inlined(inc)]
    return lines


def expanded(rel):
    """A page's text as a reader sees it: includes in their place, every
    |name| replaced by its value, and an escaped space ("\\ ") gone."""
    if not rel.endswith(".rst"):
        return read(rel)
    lines = inlined(rel)
    subst = {}
    for l in lines:
        m = subst_re.match(l)
        if m:
            subst[m.group(1)] = m.group(2).strip()
    text = "\n".join(l for l in lines if not subst_re.match(l))
    text = re.sub(r"\|([^|\s][^|]*)\|",
                  lambda m: subst.get(m.group(1), m.group(0)), text)
    return text.replace("\\ ", "")

pages = ["README.md", "dts/overlays/README"] + rst_pages

# 1. rst parses cleanly; markers start a block
try:
    import io

    import docutils.core
except ImportError:
    docutils = None

def doc_section(path, name):
    """The text of the kernel-doc "DOC: name" section of a source file."""
    try:
        text = read(path)
    except OSError:
        return None
    m = re.search(r"^/\*\*\n \* DOC: %s\n(.*?)^ \*/" % re.escape(name), text,
                  re.M | re.S)
    if not m:
        return None
    return [re.sub(r"^ \*(?: |$)", "", l) for l in m.group(1).splitlines()]


if docutils is not None:
    from docutils import nodes
    from docutils.parsers.rst import Directive, directives
    from docutils.statemachine import StringList

    class KernelDoc(Directive):
        """.. kernel-doc:: FILE with :doc: NAME, as the kernel's Sphinx
        extension reads it: the DOC: section, parsed in place."""
        required_arguments = 1
        option_spec = {"doc": directives.unchanged_required}

        def run(self):
            path, name = self.arguments[0], self.options.get("doc", "")
            lines = doc_section(path, name)
            if lines is None:
                raise self.error(f"kernel-doc: no DOC: {name} in {path}")
            node = nodes.Element()
            self.state.nested_parse(StringList(lines, source=path),
                                    self.content_offset, node)
            return node.children

    directives.register_directive("kernel-doc", KernelDoc)

for page in rst_pages:
    if docutils is None:
        result(False, f"{page}: parses", "python3-docutils is missing")
        continue
    warn = io.StringIO()
    try:
        tree = docutils.core.publish_doctree(
            read(page), source_path=os.path.join(top, page),
            settings_overrides={"report_level": 2, "halt_level": 5,
                                "warning_stream": warn})
        # a |name| rst did not take for a reference (a start not after
        # a space or punctuation, as in "2..|n|") is printed as it is
        for t in tree.findall(nodes.Text):
            if isinstance(t.parent, (nodes.literal_block, nodes.literal,
                                     nodes.comment)):
                continue
            for m in re.finditer(r"\|[a-z][a-z0-9_]*\|", t.astext()):
                warn.write(f"{page}: {m.group(0)} is not replaced; "
                           "write \"\\ \" before it\n")
    except Exception as e:  # a severe error still says where
        warn.write(str(e))
    result(not warn.getvalue(), f"{page}: docutils, no warning",
           warn.getvalue().strip().splitlines()[0] if warn.getvalue() else "")
    lines = read(page).splitlines()
    bad = [str(i + 1) for i, l in enumerate(lines)
           if l.lstrip().startswith(".. vlc-") and i and lines[i - 1].strip()]
    result(not bad, f"{page}: every .. vlc- marker starts a block",
           "inside a paragraph at line " + ", ".join(bad))

# 2. cited files exist
tops = "|".join(d for d in sorted(os.listdir(top))
                if os.path.isdir(os.path.join(top, d)) and not d.startswith(".")
                and d != "build")
path_re = re.compile(r"(?<![\w/.-])((?:%s)/[\w.,+*/-]*[\w*/])" % tops)
name_re = re.compile(r"(?<![\w/.,-])([\w,-]+\.(?:rst|md|yaml|dts))\b")
known = set()
for d, _, files in os.walk(top):
    if "/.git" in d or "/build" in d:
        continue
    known.update(files)
for page in pages:
    text = expanded(page)
    missing = set()
    for m in path_re.finditer(text):
        p = m.group(1).rstrip(".,")
        # a program is cited by the name its source builds
        if not glob.glob(os.path.join(top, p)) and \
           not glob.glob(os.path.join(top, p + ".c")):
            missing.add(p)
    for m in name_re.finditer(text):
        if m.group(1) not in known:
            missing.add(m.group(1))
    result(not missing, f"{page}: every file it cites exists",
           ", ".join(sorted(missing)))


# 3. figures quoted from the benchmarks
def sections(text):
    """Heading -> its text, up to the next heading."""
    out = {}
    lines = text.splitlines()
    cur, start = None, 0
    for i in range(1, len(lines)):
        if re.fullmatch(r"([=~^-])\1{2,}", lines[i]) and lines[i - 1].strip() \
           and not re.fullmatch(r"([=~^-])\1{2,}", lines[i - 1]):
            if cur:
                out[cur] = "\n".join(lines[start:i - 1])
            cur, start = lines[i - 1].strip(), i + 1
    if cur:
        out[cur] = "\n".join(lines[start:])
    return out


def numbers(text):
    return set(m.group(0).replace(",", "") for m in
               re.finditer(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?![\w])", text))


bench = sections(expanded("Documentation/networking/vlc-benchmarks.rst"))
mark_re = re.compile(r"^\s*(?:\.\. |<!-- )vlc-figures: ([^:]+):([^>]*?)(?: -->)?\s*$")


def paragraph(lines, i):
    """The first and past-the-last line of the block of lines around i."""
    s = i
    while s > 0 and lines[s - 1].strip():
        s -= 1
    e = i
    while e < len(lines) and lines[e].strip():
        e += 1
    return s, e


def marker_after(lines, e):
    j = e
    while j < len(lines) and not lines[j].strip():
        j += 1
    return (j, mark_re.match(lines[j])) if j < len(lines) else (j, None)


for page in pages:
    if page.endswith("vlc-benchmarks.rst"):
        continue
    lines = read(page).splitlines()
    seen = set()
    # every marker: its figures in its paragraph and in its section
    for k, l in enumerate(lines):
        m = mark_re.match(l)
        if not m:
            continue
        b = k - 1
        while b >= 0 and not lines[b].strip():
            b -= 1
        s, e = paragraph(lines, max(b, 0))
        seen.add(s)
        para = "\n".join(lines[s:e])
        where = f"{page}:{k + 1}"
        sec, figs = m.group(1).strip(), m.group(2).split()
        result("vlc-benchmarks" in para,
               f"{where}: the paragraph of its vlc-figures marker cites vlc-benchmarks.rst")
        if sec not in bench:
            result(False, f"{where}: vlc-figures section", f'no "{sec}" in vlc-benchmarks.rst')
            continue
        off = [f for f in figs if f not in numbers(para)]
        result(not off, f"{where}: quotes {' '.join(figs) or 'no figure'}",
               "not in the paragraph: " + " ".join(off))
        off = [f for f in figs if f not in numbers(bench[sec])]
        result(not off, f'{where}: {" ".join(figs) or "nothing"} as in vlc-benchmarks.rst, "{sec}"',
               "not there: " + " ".join(off))
    # every paragraph citing the benchmarks has a marker
    i = 0
    while i < len(lines):
        if "vlc-benchmarks" not in lines[i] or mark_re.match(lines[i]):
            i += 1
            continue
        s, e = paragraph(lines, i)
        if s not in seen:
            _, m = marker_after(lines, e)
            result(m is not None, f"{page}:{i + 1}: cites vlc-benchmarks.rst",
                   "" if m else "no vlc-figures marker after the paragraph")
        i = e


# Numbers that read as measurements (see 3. above) but are not: each
# entry is the words the check quotes, and why.
FIGURES_NOT_MEASURED = {
    "2 kbit/s": "the raw rate: one bit per 500 us frame, by definition",
    "4 kbit/s": "the raw rate in 4-PPM: two bits per 500 us frame",
    "2048 ns": "the resync loop's step limit per frame, a constant",
    "mean of 16": "the resync loop's window of 16 reports, a constant",
    "200 kB/s": "computed: a vlc_phy_frame event's 100 bytes, 2000 a second",
}

NUM = r"(?<![\w.+/-])(?:\+-|-)?\d[\d,]*(?:\.\d+)?(?:e-?\d+)?(?![\w.]\d)"
unit_re = re.compile(r"(%s)(?:\s+(?:to|and|or)\s+(%s))?\s+(?:[kMG]\s+)?"
                     r"(dB|[kMG]?bit/s|[kM]?[bB]/s|instructions|ns)(?![\w/])" % (NUM, NUM))
words_re = re.compile(r"\b(?:a|one|two|a few)\s+(?:thousand|million|billion)\s+"
                      r"(?:instructions|bit/s)\b")
stat_re = re.compile(r"\b(mean|median|average|averaged|percentile|p\d\d|goodput|RTT)"
                     r"\b([^,;:.()\d]{0,30}?)(%s)" % NUM)


def blocks(page):
    """(first line, last line + 1, text) of every block of prose of a
    page: no literal blocks, comments, directives or inline literals."""
    lines = read(page).splitlines()
    md = page.endswith(".md")
    out = []
    i = 0
    literal = None  # the indent a literal block must exceed
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        s, e = paragraph(lines, i)
        ind = len(lines[s]) - len(lines[s].lstrip())
        if literal is not None and ind > literal:
            i = e
            continue
        literal = None
        if md and ind >= 4 or lines[s].lstrip().startswith(".. ") and \
           "list-table" not in lines[s]:
            i = e
            continue
        text = " ".join(l.strip() for l in lines[s:e])
        if text.endswith("::"):
            literal = ind
        text = re.sub(r"``.*?``|`[^`]*`_|https?://\S+|<!--.*?-->", " ", text)
        out.append((s, e, text))
        i = e
    return out


for page in ("README.md", "Documentation/networking/vlc.rst",
             "Documentation/networking/vlc-hardware.rst"):
    lines = read(page).splitlines()
    untied = []
    count = 0
    for s, e, text in blocks(page):
        _, m = marker_after(lines, e)
        tied = set(m.group(2).split()) if m else set()
        quoted = []
        for u in unit_re.finditer(text):
            for n in (u.group(1), u.group(2)):
                if n:
                    quoted.append((n, f"{n} {u.group(3)}", u.group(0)))
        for w in words_re.finditer(text):
            quoted.append((w.group(0), w.group(0), w.group(0)))
        for st in stat_re.finditer(text):
            quoted.append((st.group(3), re.sub(r"\s+", " ", st.group(0)), st.group(0)))
        for n, words, ctx in quoted:
            count += 1
            if n.replace(",", "") in tied or words in FIGURES_NOT_MEASURED:
                continue
            untied.append(f'line {s + 1}: "{re.sub(chr(92) + "s+", " ", ctx)}"')
    result(not untied, f"{page}: {count} quoted figures, each in a vlc-figures "
           "marker or not a measurement",
           "not tied to vlc-benchmarks.rst: " + "; ".join(untied))

for k, why in FIGURES_NOT_MEASURED.items():
    result(any(k in re.sub(r"\s+", " ", t) for p in
               ("README.md", "Documentation/networking/vlc.rst",
                "Documentation/networking/vlc-hardware.rst")
               for _, _, t in blocks(p)),
           f'not a measurement: "{k}" is quoted', "no page says it; remove it")

# 4. one name per setting
ovl = read("dts/overlays/vlc-overlay.dts")
binding = read("Documentation/devicetree/bindings/net/linux-vlc,vlc-gpio.yaml")
oreadme = read("dts/overlays/README")
hw = read("Documentation/networking/vlc-hardware.rst")
props = set(re.findall(r"^  ([a-z][\w,-]*):", binding, re.M))
ovr = re.search(r"__overrides__\s*\{(.*?)\};", ovl, re.S)
params = re.findall(r"^\s*(\w+)\s*=(.*?);$", ovr.group(1) if ovr else "", re.M | re.S)
result(bool(params), "overlay: __overrides__ found")
for name, target in params:
    result(re.search(r"^(?:Params:)?\s*%s\b" % re.escape(name), oreadme,
                     re.M) is not None,
           f"overlay parameter {name}: listed in dts/overlays/README")
    setp = re.findall(r'"([\w,-]+?)(?:[.;:#]\d+|[?!]|=|")', target)
    setp = [p for p in setp if p and not p.startswith("status")]
    unknown = [p for p in setp if p not in props and p not in ("brcm,pins",)]
    result(not unknown, f"overlay parameter {name}: sets a binding property",
           " ".join(unknown))
    table = [l for l in hw.splitlines() if re.search(r"``%s``" % re.escape(name), l)]
    pairs = [p for p in setp if p in props and
             not any("``%s``" % p in l for l in table)]
    result(bool(table) and not pairs,
           f"overlay parameter {name}: vlc-hardware.rst names it beside its property",
           "no line with ``%s`` and ``%s``" % (name, " ".join(setp)))

# the attr_name table is nl.c's (it names a refused attribute); the set
# parser, the usage text and the show and monitor output are vlcctl.c's
vlcctl = read("tools/vlcctl/vlcctl.c")
names = re.search(r"attr_name\[[^]]*\] = \{(.*?)\};",
                  read("tools/vlcctl/nl.c"), re.S)
names = re.findall(r'= "([\w-]+)"', names.group(1) if names else "")
names = [n for n in names if n not in ("ifindex", "device")]
result(bool(names), "vlcctl: its table of setting names found")
table = hw[hw.find("Names of the settings"):]
table = table[:table.find("\n\n\n") if "\n\n\n" in table else len(table)]
rst = read("Documentation/networking/vlc.rst")
for n in names:
    result("``%s``" % n in table and re.search(r"\b%s\b" % re.escape(n), rst),
           f"vlcctl setting {n}: in vlc-hardware.rst's table of names and in vlc.rst")

# vlcctl's parser, usage text, man page and JSON keys: one name per setting
table = sections(hw).get("Names of the settings", "")


def squash(w):
    """A name without its separators and unit suffix: what two
    spellings of one setting share."""
    w = re.sub(r"[-_]", "", w.lower())
    return re.sub(r"(?:us|ns|ms)$", "", w)


setting_of = {squash(n): n for n in names}


def misspelt(text, where, conv=lambda n: n):
    """Words of text with a separator that are a setting's name spelled
    otherwise than conv(name)."""
    bad = set()
    for w in re.findall(r"(?<![\w-])[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+(?![\w-])", text):
        n = setting_of.get(squash(w))
        if n and w != conv(n):
            bad.add(f"{w} (for {conv(n)})")
    result(not bad, f"{where}: every setting spelled as vlcctl's attr_name table",
           ", ".join(sorted(bad)))


def same(what, got):
    result(sorted(got) == sorted(names), what,
           "has %s; attr_name has %s" % (" ".join(sorted(set(got) - set(names))) or "-",
                                         " ".join(sorted(set(names) - set(got))) or "-"))


parser = re.findall(r'\{ "([\w-]+)", VLC_ATTR_\w+ \}', vlcctl)
parser += re.findall(r'strcmp\(k, "([\w-]+)"\)', vlcctl)
same("vlcctl set: parses the attr_name table's names", parser)

fn = re.search(r"static void help\(FILE \*f\)\n\{(.*?)\n\}", vlcctl, re.S)
usage = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', fn.group(1))) if fn else ""
usage = usage.replace("\\n", "\n")
m = re.search(r"set DEV (.*?)\n(?!\s)", usage, re.S)
same("vlcctl usage: its set line lists every setting, as attr_name names it",
     re.findall(r"\[([\w-]+) ", m.group(1)) if m else [])
misspelt(usage, "vlcctl usage")

man = read("tools/vlcctl/vlcctl.8").replace("\\-", "-")
syn = man[man.find("\n.SH SYNOPSIS"):man.find("\n.SH DESCRIPTION")]
syn = syn[syn.find("vlcctl set"):]
syn = syn.split("\n.br\n")[0]  # the set entry, not those after it
same("vlcctl.8: its SYNOPSIS lists every setting, as attr_name names it",
     re.findall(r"^\.RB \[ ([\w-]+)", syn, re.M))
opts = man[man.find("\n.SH OPTIONS"):man.find("\n.SH EXIT STATUS")]
off = [n for n in names if not re.search(r"^\.BR? .*(?<![\w-])%s(?![\w-])" % re.escape(n),
                                         opts, re.M)]
result(not off, "vlcctl.8: OPTIONS describes every setting", " ".join(off))
misspelt(man, "vlcctl.8")


def json_name(n):
    return re.sub(r"-us$", "-ns", n).replace("-", "_")


fn = re.search(r"static void show_text\(.*?\n\}", vlcctl, re.S)
text_words = set(re.findall(r"([a-z][\w-]*) %",
                            (fn.group(0) if fn else "").replace("\\t", " ")))
fn = re.search(r"static void show_json\(.*?\n\}", vlcctl, re.S)
fm = re.search(r"static int event_cb\(.*?\n\}", vlcctl, re.S)
jtext = (fn.group(0) if fn else "") + (fm.group(0) if fm else "")
keys = re.findall(r'json_[ub]\("(\w+)"', jtext)
keys += re.findall(r'\\"(\w+)\\":', jtext)
keys = list(dict.fromkeys(keys))
result(bool(text_words) and bool(keys), "vlcctl: its text output and its JSON keys found")
missing = [json_name(n) for n in names if json_name(n) not in keys]
result(not missing, 'vlcctl -j: every setting\'s key is its name, "_" for "-", ns for us',
       "no key " + " ".join(missing))
misspelt(" ".join(keys), "vlcctl -j", json_name)
rows = [l for l in table.splitlines() if "``" in l and "  " in l.strip()]
other = [k for k in keys if k.replace("_", "-") not in text_words
         and squash(k) not in setting_of]
off = [k for k in other if not any(re.search(r"\s``%s``\s*$" % k, r) for r in rows)]
result(not off, "vlcctl -j: a key that is not its text's word is in vlc-hardware.rst's "
       "table of other spellings", " ".join(off))
for n in names:
    row = [r for r in rows if f"``{n}``" in r]
    result(any(r.rstrip().endswith(f"``{json_name(n)}``") for r in row),
           f"vlc-hardware.rst: the vlcctl -j column says {json_name(n)} for {n}")

# 5. the netlink family against its YNL spec
ynl = subprocess.run([os.path.join(top, "scripts", "ynl-check.sh")],
                     stdout=subprocess.PIPE, text=True)
said = set()
for line in ynl.stdout.splitlines():
    m = re.match(r"ynl: (ok  |FAIL) (.*)$", line)
    if m:
        said.add(m.group(1))
        result(m.group(1) == "ok  ", m.group(2))
    else:
        print(line)  # a differing header's diff
if ynl.returncode and "FAIL" not in said:
    result(False, "scripts/ynl-check.sh", f"exit status {ynl.returncode}")
elif not said:
    result(False, "scripts/ynl-check.sh", "printed no check")

print(f"docs: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
