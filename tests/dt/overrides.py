#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Raspberry Pi firmware parameters for an overlay, applied the way the
# firmware applies them: to the overlay itself, before it is merged.
# The string and integer forms are supported:
#   <&label>,"prop"     string property
#   <&label>,"prop.N"   8-bit integer at byte offset N
#   <&label>,"prop;N"   16-bit integer at byte offset N
#   <&label>,"prop:N"   32-bit integer (a cell) at byte offset N
#   <&label>,"prop#N"   64-bit integer at byte offset N
# An integer goes in big-endian; as the firmware does, it may create the
# property or write beyond its end (zeros fill the gap).
#
#   overrides.py list  OVERLAY.dtbo             one line per target
#   overrides.py apply OVERLAY.dtbo name=value...   edits OVERLAY.dtbo
#
# It uses fdtget/fdtput only, so what it reads is what dtc wrote.

import re
import subprocess
import sys

WIDTH = {'.': 1, ';': 2, ':': 4, '#': 8}


def fdt(*args):
    return subprocess.run(args, check=True, capture_output=True,
                          text=True).stdout


def nodes(dtb, path='/'):
    yield path
    for sub in fdt('fdtget', '-l', dtb, path).split():
        yield from nodes(dtb, path.rstrip('/') + '/' + sub)


def phandles(dtb):
    out = {}
    for p in nodes(dtb):
        props = fdt('fdtget', '-p', dtb, p).split()
        if 'phandle' in props:
            out[int(fdt('fdtget', '-t', 'u', dtb, p, 'phandle'))] = p
    return out


def targets(dtb):
    """{name: [(node path, property, (byte offset, width) or None)]}"""
    ph = phandles(dtb)
    res = {}
    for name in fdt('fdtget', '-p', dtb, '/__overrides__').split():
        raw = bytes(int(b, 16) for b in
                    fdt('fdtget', '-t', 'bx', dtb, '/__overrides__',
                        name).split())
        ents = []
        while raw:
            h = int.from_bytes(raw[:4], 'big')
            end = raw.index(0, 4)
            spec = raw[4:end].decode()
            raw = raw[end + 1:]
            if h not in ph:
                raise SystemExit(f'{name}: phandle {h} names no node')
            m = re.fullmatch(r'(.+?)([.;:#])(\d+)', spec)
            if m:
                ents.append((ph[h], m.group(1),
                             (int(m.group(3)), WIDTH[m.group(2)])))
            else:
                ents.append((ph[h], spec, None))
        res[name] = ents
    return res


def apply(dtb, name, value, tg):
    if name not in tg:
        raise SystemExit(f'no parameter {name}')
    for path, prop, off in tg[name]:
        if off is None:
            fdt('fdtput', '-t', 's', dtb, path, prop, value)
            continue
        at, width = off
        try:
            old = bytearray(int(b, 16) for b in
                            fdt('fdtget', '-t', 'bx', dtb, path,
                                prop).split())
        except subprocess.CalledProcessError:
            old = bytearray()
        old.extend(bytes(max(0, at + width - len(old))))
        old[at:at + width] = int(value, 0).to_bytes(width, 'big')
        fdt('fdtput', '-t', 'bx', dtb, path, prop,
            *('%02x' % b for b in old))


def main():
    cmd, dtb = sys.argv[1], sys.argv[2]
    tg = targets(dtb)
    if cmd == 'list':
        for name, ents in tg.items():
            for path, prop, off in ents:
                print(name, path, prop, '' if off is None else off[0])
    elif cmd == 'apply':
        for kv in sys.argv[3:]:
            name, value = kv.split('=', 1)
            apply(dtb, name, value, tg)
    else:
        raise SystemExit('usage: overrides.py list|apply DTBO [name=value...]')


main()
