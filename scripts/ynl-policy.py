#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What drivers/net/vlc/vlc_nl.c registers, against what the kernel's YNL
generator makes of Documentation/netlink/specs/vlc.yaml (a step of
scripts/ynl-check.sh).

  ynl-policy.py TOP GENERATED.c GENERATED.h

GENERATED.c is ynl_gen_c.py's --mode kernel --source of the spec,
GENERATED.h its --mode uapi --header. One line a check, "ynl: ok   WHAT"
or "ynl: FAIL WHAT: WHY"; exits 1 if one failed.

1. The spec's kernel constants (definitions with a header, scope kernel)
   have the values the driver's headers define.
2. The request policies: vlc_nl.c's vlc_nl_policy and the policies of the
   nested attribute sets validate the attributes the spec's do, each alike
   once the limits are evaluated (type and range, or type and length), and
   no other; no policy is missing or extra.
3. The operations (command, do and dump handlers, flags) and the
   multicast groups are the spec's.
"""

import glob
import os
import re
import sys

import yaml

top, gen_c, gen_h = sys.argv[1:4]
nl_c = "drivers/net/vlc/vlc_nl.c"
failed = 0


def result(ok, what, why=""):
    global failed
    if ok:
        print(f"ynl: ok   {what}")
    else:
        failed += 1
        print(f"ynl: FAIL {what}: {why}")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def code(path):
    """A C file without its comments."""
    text = re.sub(r"/\*.*?\*/", " ", read(path), flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


# What the limits are written with: the kernel's, the driver's macros,
# and the constants of the uAPI header (its enums count from 0).
symbols = {"U8_MAX": "255", "U16_MAX": "65535", "U32_MAX": "4294967295",
           "IFNAMSIZ": "16"}
strings = {}
for h in sorted(glob.glob(os.path.join(top, "drivers/net/vlc/*.h"))):
    for name, val in re.findall(r"^#define[ \t]+(\w+)[ \t]+(.+)$", code(h),
                                re.M):
        symbols.setdefault(name, val.strip())
uapi = code(gen_h)
for name, val in re.findall(r'^#define[ \t]+(\w+)[ \t]+"([^"]*)"', uapi, re.M):
    strings[name] = val


def ev(expr, seen=()):
    """The integer value of a C constant expression of known symbols."""
    expr = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\b", r"\1", expr)
    env = {}
    for name in set(re.findall(r"\b[A-Za-z_]\w*\b", expr)):
        if name not in symbols or name in seen:
            raise KeyError(name)
        v = symbols[name]
        env[name] = v if isinstance(v, int) else ev(v, seen + (name,))
    return int(eval(expr, {"__builtins__": {}}, env))


for body in re.findall(r"\benum\b[^{;]*\{(.*?)\};", uapi, re.S):
    n = -1
    for entry in (e.strip() for e in body.split(",")):
        if not entry:
            continue
        name, _, val = entry.partition("=")
        n = ev(val) if val.strip() else n + 1
        symbols[name.strip()] = n


def initializers(text, ctype):
    """Name and body of every "ctype NAME[...] = { BODY };"."""
    out = []
    for m in re.finditer(r"\b%s\s+(\w+)\s*\[[^]]*\]\s*=\s*\{" % ctype,
                         text):
        depth, i = 1, m.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        out.append((m.group(1), text[m.end():i - 1]))
    return out


def initializer(text, ctype):
    """Name and body of the first "ctype NAME[...] = { BODY };"."""
    found = initializers(text, ctype)
    return found[0] if found else (None, None)


def fields(text):
    return {k: " ".join(v.split()) for k, v in
            re.findall(r"\.(\w+)\s*=\s*([^,}]+)", text)}


TYPE_MAX = {"NLA_U8": 0xff, "NLA_U16": 0xffff, "NLA_U32": 0xffffffff,
            "NLA_U64": 0xffffffffffffffff, "NLA_S8": 0x7f, "NLA_S16": 0x7fff,
            "NLA_S32": 0x7fffffff, "NLA_S64": 0x7fffffffffffffff}


def validation(val, ranges):
    """What one policy entry accepts, as text to compare."""
    val = " ".join(val.split())
    m = re.fullmatch(r"NLA_POLICY_(MIN|MAX|RANGE|FULL_RANGE(?:_SIGNED)?)"
                     r"\((\w+), (.*)\)", val)
    if m:
        kind, typ, args = m.groups()
        hi = TYPE_MAX.get(typ, 0)
        lo = -hi - 1 if typ.startswith("NLA_S") else 0
        if kind == "MIN":
            lo = ev(args)
        elif kind == "MAX":
            hi = ev(args)
        elif kind == "RANGE":
            a, b = args.split(",")
            lo, hi = ev(a), ev(b)
        else:
            r = ranges[args.lstrip("& ")]
            lo, hi = ev(r.get("min", "0")), ev(r.get("max", "0"))
        return f"{typ} {lo}..{hi}"
    m = re.fullmatch(r"\{(.*)\}", val)
    if m:
        f = fields(m.group(1))
        typ = f.get("type", "NLA_UNSPEC")
        if "len" in f:
            return f"{typ} len {ev(f['len'])}"
        if typ in TYPE_MAX:
            return f"{typ} 0..{TYPE_MAX[typ]}"
        return typ
    return val


def policies(text):
    """Every struct nla_policy array: name -> {attribute: validation}."""
    ranges = {name: fields(b) for name, b in re.findall(
        r"struct netlink_range_validation(?:_signed)?\s+(\w+)\s*=\s*"
        r"\{(.*?)\};", text, re.S)}
    out = {}
    for name, body in initializers(text, "struct nla_policy"):
        parts = re.split(r"\[(\w+)\]\s*=", body)
        out[name] = {parts[i]: validation(parts[i + 1].strip().rstrip(","),
                                          ranges)
                     for i in range(1, len(parts), 2)}
    return out


def blocks(body):
    """The top-level { ... } of an array's body, with their index if any."""
    out, depth, start, index = [], 0, 0, None
    for i, c in enumerate(body):
        if c == "{":
            if depth == 0:
                start = i + 1
                m = re.search(r"\[(\w+)\]\s*=\s*$", body[:i])
                index = m.group(1) if m else None
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                out.append((index, body[start:i]))
    return out


def ops(text):
    _, body = initializer(text, "struct genl_small_ops")
    if body is None:
        return None
    out = []
    for _, b in blocks(body):
        f = fields(b)
        out.append(" ".join([f.get("cmd", "?")] +
                            [k for k in ("doit", "dumpit") if k in f] +
                            [f"{k}={f[k]}" for k in sorted(f)
                             if k not in ("cmd", "doit", "dumpit")]))
    return sorted(out)


def mcgrps(text):
    _, body = initializer(text, "struct genl_multicast_group")
    if body is None:
        return None
    out = []
    for _, b in blocks(body):
        f = fields(b)
        name = f.get("name", b.split(",")[0].strip())
        out.append(strings.get(name, name.strip('"')))
    return out


# 1. the spec's kernel constants
with open(os.path.join(top, "Documentation/netlink/specs/vlc.yaml"),
          encoding="utf-8") as f:
    spec = yaml.safe_load(f)
consts = [d for d in spec.get("definitions", [])
          if d["type"] == "const" and d.get("header")]
bad = []
for d in consts:
    name = d["name"].upper().replace("-", "_")
    try:
        val = ev(name)
    except (KeyError, SyntaxError, TypeError, NameError) as e:
        bad.append(f"{name} is not defined in drivers/net/vlc/*.h ({e})")
        continue
    if val != d["value"]:
        bad.append(f"{d['name']} is {d['value']}, {name} {val}")
result(not bad, f"Documentation/netlink/specs/vlc.yaml: its {len(consts)} "
       "kernel constants are the driver's", "; ".join(bad))

# 2. the policies; the generator calls the global one vlc_main_nl_policy
kernel, ours = code(gen_c), code(os.path.join(top, nl_c))
try:
    want, have = policies(kernel), policies(ours)
except (KeyError, SyntaxError, TypeError, NameError, ValueError) as e:
    want = have = None
    result(False, f"{nl_c}: its policies are the spec's",
           f"cannot evaluate {e}")
else:
    if "vlc_main_nl_policy" in want:
        want["vlc_nl_policy"] = want.pop("vlc_main_nl_policy")
    for name in sorted(set(want) | set(have)):
        if name not in have or name not in want:
            result(False, f"{nl_c}: policy {name}",
                   "not in " + (nl_c if name not in have else "the spec"))
            continue
        w, h = want[name], have[name]
        diff = [f"{a}: {h.get(a, 'none')} here, {w.get(a, 'none')} "
                "in the spec" for a in sorted(set(w) | set(h))
                if w.get(a) != h.get(a)]
        result(not diff, f"{nl_c}: policy {name} is the spec's "
               f"({len(w)} attributes)", "; ".join(diff))

# 3. operations and multicast groups
want, have = ops(kernel), ops(ours)
result(want == have and want is not None,
       f"{nl_c}: its operations are the spec's",
       f"{have} here, {want} in the spec")
want, have = mcgrps(kernel), mcgrps(ours)
result(want == have and want is not None,
       f"{nl_c}: its multicast groups are the spec's",
       f"{have} here, {want} in the spec")

sys.exit(1 if failed else 0)
