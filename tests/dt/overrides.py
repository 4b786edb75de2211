#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Raspberry Pi firmware parameters for an overlay, applied the way the
# firmware applies them: to the overlay itself, before it is merged.
# Only the forms the project's overlays use are supported:
#   <&label>,"prop:N"   u32 cell at byte offset N
#   <&label>,"prop"     string property
#
#   overrides.py list  OVERLAY.dtbo             one line per target
#   overrides.py apply OVERLAY.dtbo name=value...   edits OVERLAY.dtbo
#
# It uses fdtget/fdtput only, so what it reads is what dtc wrote.

import subprocess
import sys


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
    """{name: [(node path, property, byte offset or None)]}"""
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
            if ':' in spec:
                prop, off = spec.split(':')
                ents.append((ph[h], prop, int(off)))
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
        cells = fdt('fdtget', '-t', 'x', dtb, path, prop).split()
        if off % 4 or off // 4 >= len(cells):
            raise SystemExit(f'{name}: {prop}:{off} outside the property')
        cells[off // 4] = '%x' % int(value, 0)
        fdt('fdtput', '-t', 'x', dtb, path, prop, *cells)


def main():
    cmd, dtb = sys.argv[1], sys.argv[2]
    tg = targets(dtb)
    if cmd == 'list':
        for name, ents in tg.items():
            for path, prop, off in ents:
                print(name, path, prop, '' if off is None else off)
    elif cmd == 'apply':
        for kv in sys.argv[3:]:
            name, value = kv.split('=', 1)
            apply(dtb, name, value, tg)
    else:
        raise SystemExit('usage: overrides.py list|apply DTBO [name=value...]')


main()
