#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the seed corpus of the fuzz targets (corpus/TARGET/NAME).

The seeds are small programs in each target's input format (see the top
of fuzz_*.c): a valid DATA frame, an ACK, a beacon, a fragmented packet,
a locked PHY link, accepted and refused parameters. Run from tests/fuzz
after changing an input format, and commit the result.
"""
import os
import struct

# fuzz_mac_rx.c
(OP_REPORT, OP_IDLE, OP_DATA, OP_ACK, OP_BEACON, OP_FRAME, OP_XMIT, OP_WAIT,
 OP_PARAM, OP_FLUSH, OP_TEMPLATE, OP_PACKET, OP_CODED) = range(13)
# fec= of mac_setup()
(FEC_OFF, FEC_AUTO, FEC_FIXED, FEC_NO_CODECS) = range(4)


def mac_setup(bits2=False, addr_sel=0, beacon=False, retry1=False,
              small_cw=True, preamble=8, sifs=2, difs=4, frag=240,
              fec=FEC_OFF, level=1):
    """fec: FEC_FIXED codes at level (1..5)."""
    b0 = (1 if bits2 else 0) | addr_sel << 1 | (8 if beacon else 0) | \
        (0x10 if retry1 else 0) | (0x20 if small_cw else 0) | fec << 6
    return bytes([b0, preamble - 2, (sifs - 1) | (difs - sifs - 1) << 2 |
                  (level - 1) << 5, frag - 48])


def mac_data(payload, last=True, et=0, dst_sel=0, sf=0, opt=0, fill=None):
    """A DATA frame from the peer; fill (odd) makes len(payload) bytes of
    the target's pattern instead."""
    fl = (1 if last else 0) | et << 1 | dst_sel << 5
    head = bytes([OP_DATA, fl, 0x80, sf, len(payload)])
    if fill is not None:
        return head + bytes([fill, opt])
    return head + bytes([0]) + payload + bytes([opt])


def mac_coded(payload, level=3, damage=(), opt=0):
    """A DATA frame from the peer (to us, the IPv4 code) coded at level
    (1..5), with damage: up to 7 (position, value) after the delimiter,
    an odd value erasing that byte's first symbol, an even one XORed."""
    sel = 0x80 | (level - 1) | len(damage) << 3
    return bytes([OP_CODED, sel, 1, 0x80, 0, len(payload), 0]) + payload + \
        b''.join(struct.pack('<H', pos - 1) + bytes([val])
                 for pos, val in damage) + bytes([opt])


def mac_packet(nfrag, length, mode=0, which=0, seq=1, et=0, dst_sel=0):
    """nfrag fragments of length bytes from the peer; mode 1 sends
    fragment which twice, 2 leaves it out, 3 changes its header."""
    return bytes([OP_PACKET, (nfrag - 1) | mode << 5, et << 1 | dst_sel << 5,
                  seq, length, 0x11, which, 0x80])


def mac_xmit(length, sel=0, fill=0):
    return bytes([OP_XMIT]) + struct.pack('<H', length - 15) + \
        bytes([sel, fill])


# fuzz_phy_rx.c: the header read at the top of LLVMFuzzerTestOneInput
(EV_LATE, EV_LEVEL, EV_ADD, EV_EXTREME, EV_PHASE, EV_BRIGHT, EV_MODE,
 EV_TIMING, EV_FLICKER, EV_GAIN, EV_NOISE, EV_MIN_LEVEL) = range(12)


def phy_setup(mode=0, bright=200, tsel=0, tx=0x42, resync=3, defer=0,
              frames=60, seed=1, gain=10000, ambient=50000, noise=100,
              offset_us=120, events=(), seq=b''):
    ev = b''.join(bytes([dt, kind | node << 4]) + struct.pack('<H', v)
                  for dt, kind, node, v in events)
    return bytes([mode, bright // 4, tsel, tx, resync, defer, frames - 4,
                  seed]) + struct.pack('<HHHH', gain, ambient, noise,
                                       offset_us) + \
        bytes([len(events)]) + ev + seq


# fuzz_params.c: MAC fields, PHY fields, the MAC's loc_interval,
# rts_threshold and max_age (read after the PHY's), then the runs of
# accepted ones: MAC (packet length / 6, broadcast length, ethertype),
# PHY (search, frames, offset)
def params(mac, phy, mac_run=bytes([10, 20, 0]),
           phy_run=bytes([1, 40]) + struct.pack('<I', 5000), loc=0, rts=0,
           max_age=0):
    return mac + phy + struct.pack('<HHH', loc, rts, max_age) + mac_run + \
        phy_run


def mac_params(short=1, bits=1, frag=240, retry=7, cw_min=8, cw_max=256,
               difs=4, sifs=2, ack=0, pre=8, dead=2000, beacon=1000):
    return struct.pack('<BBHBHHBBHBIH', short, bits, frag, retry, cw_min,
                       cw_max, difs, sifs, ack, pre, dead, beacon)


def phy_params(sync=40000, guard=20000, data=50000, frame=500000,
               tol=20000, mode=0, bright=200):
    return struct.pack('<IIIIIBI', sync, guard, data, frame, tol, mode,
                       bright)


# fuzz_fec.c: codewords of level, len, mode, neras, the erased
# positions, then the symbols (data; the spoiling bytes, or garbage)
FEC_PARITY = (0, 2, 4, 8, 16, 32)


def fec_word(level, length, mode=0, eras=(), data=None, spoil=None,
             full=None, errors=()):
    """One codeword. full: positions of the largest list (mode bit 1);
    errors: (position, value) pairs, not listed as erased."""
    if data is None:
        data = bytes((7 * i + 3) & 0xff for i in range(length))
    npar = FEC_PARITY[level] if level < len(FEC_PARITY) else 0
    mode |= len(errors) << 4
    b = bytes([level, length, mode, len(eras)]) + bytes(eras)
    if full is not None:
        b += bytes(full)
    b += data
    # garbage, and words the wrapper refuses: data and parity as read
    refused = not npar or not 1 <= length <= 255 - npar or \
        len(eras) > npar or len(set(eras)) != len(eras) or \
        any(e >= length + npar for e in eras)
    if mode & 1 or (refused and full is None):
        return b + bytes(range(npar))
    n = len(full) if full is not None else len(eras)
    b += spoil if spoil is not None else bytes(0x5a for _ in range(n))
    for pos, val in errors:
        b += bytes([pos, val])
    return b


SEEDS = {
    'mac_rx': {
        # a 20-byte IPv4 payload to us, then idle: the MAC ACKs it
        'data-to-us': mac_setup() + mac_data(bytes(range(20))) +
        bytes([OP_WAIT, 100]),
        # we send a packet, the peer ACKs it
        'xmit-acked': mac_setup() + mac_xmit(80) + bytes([OP_IDLE, 30]) +
        bytes([OP_ACK, 1, 0]) + bytes([OP_WAIT, 20]),
        # a beacon from the peer, then ours
        'beacon': mac_setup(beacon=True) + bytes([OP_BEACON, 5, 0]) +
        bytes([OP_IDLE, 200]),
        # two fragments in 4-PPM, the ethertype on air, broadcast
        'frags-4ppm': mac_setup(bits2=True) +
        mac_data(b'\x88\xb5' + bytes(46), last=False, et=3, dst_sel=4) +
        mac_data(bytes(range(30)), et=3, dst_sel=4, sf=1) +
        bytes([OP_WAIT, 10]),
        # a 1500-byte packet in 7 fragments of 240 and 60 bytes, 4-PPM,
        # each acknowledged before the next
        'frags-mtu': mac_setup(bits2=True) +
        b''.join(mac_data(bytes(240), last=False, sf=0x20 | i, fill=1 + 2 * i)
                 + bytes([OP_IDLE, 4, OP_WAIT, 2]) for i in range(6)) +
        mac_data(bytes(60), sf=0x26, fill=13) + bytes([OP_WAIT, 10]),
        # packets in one go: a fragment sent twice, one too long to fit,
        # one whose first fragment expires before the rest comes
        'packet-dup': mac_setup() + mac_packet(3, 100, mode=1, which=1),
        'packet-too-long': mac_setup(bits2=True) + mac_packet(7, 240) +
        mac_packet(1, 10, seq=2),
        'packet-expired': mac_setup(bits2=True) + mac_packet(1, 50) +
        mac_data(bytes(50), last=False, sf=0x40, fill=3) +
        bytes([OP_IDLE, 0xf8]) + mac_data(bytes(50), sf=0x41, fill=5),
        # reports straight from the PHY: acquiring, coarse, fine offsets
        'reports': mac_setup() + bytes([OP_TEMPLATE, 0x1c, 40]) +
        bytes([OP_IDLE, 40]) + bytes([OP_REPORT, 1, 0x8c]) +
        struct.pack('<i', -300000) + bytes([0]) +
        bytes([OP_REPORT, 0xf0]) + struct.pack('<i', 7) + bytes([1, 0]),
        # coded DATA to us: clean at level 1, two bytes erased and one
        # changed at level 3 (8 parity), four erased at level 2 (all its
        # parity), then beyond the reach of level 1
        'coded-rx': mac_setup() + mac_coded(bytes(range(20)), level=1) +
        bytes([OP_IDLE, 4, OP_WAIT, 20]) +
        mac_coded(bytes(range(40)), damage=((10, 1), (30, 3), (20, 0x40))) +
        bytes([OP_IDLE, 4, OP_WAIT, 20]) +
        mac_coded(bytes(range(50)), level=2,
                  damage=((12, 1), (20, 1), (33, 1), (50, 1))) +
        bytes([OP_IDLE, 4, OP_WAIT, 20]) +
        mac_coded(bytes(range(30)), level=1, damage=((8, 0x10), (12, 2))) +
        bytes([OP_IDLE, 4, OP_WAIT, 20]),
        # we send coded: a fixed 16 parity (level 4), then 4 parity set
        # by a parameter change, each acknowledged
        'coded-tx': mac_setup(fec=FEC_FIXED, level=4) + mac_xmit(100) +
        bytes([OP_IDLE, 30, OP_ACK, 1, 0, OP_WAIT, 20]) +
        bytes([OP_PARAM, 12, 4, 0]) + mac_xmit(60) +
        bytes([OP_IDLE, 30, OP_ACK, 1, 0, OP_WAIT, 20]),
        # auto: erasures in what comes in raise the parity of what goes
        'coded-auto': mac_setup(fec=FEC_AUTO) +
        b''.join(mac_coded(bytes(range(60)), damage=((5 + i, 1),
                                                      (9 + i, 1))) +
                 bytes([OP_IDLE, 4, OP_WAIT, 10]) for i in range(8)) +
        mac_xmit(100) + bytes([OP_IDLE, 30, OP_ACK, 1, 0, OP_WAIT, 20]),
        # no codecs: a whole coded frame is taken, a damaged one is not
        'coded-no-codecs': mac_setup(fec=FEC_NO_CODECS) +
        mac_coded(bytes(range(20))) + bytes([OP_IDLE, 4, OP_WAIT, 20]) +
        mac_coded(bytes(range(20)), damage=((6, 1),)) +
        bytes([OP_IDLE, 4, OP_WAIT, 20]),
        # a retransmission lost, parameters changed, queue flushed
        'retry-flush': mac_setup(retry1=True) + mac_xmit(200, sel=0) +
        mac_xmit(15, sel=1) + bytes([OP_IDLE, 20, OP_WAIT, 250]) +
        bytes([OP_IDLE, 20, OP_WAIT, 250, OP_PARAM, 9, 4, 0]) +
        bytes([OP_FLUSH, OP_IDLE, 5]),
    },
    'phy_rx': {
        # a neighbour 120 us late: acquired, locked, symbols decided
        'locked-2slot': phy_setup(),
        'locked-4ppm': phy_setup(mode=1, bright=120, offset_us=300),
        # half a frame away, node 1 sends a fixed sequence
        'acquire-far': phy_setup(offset_us=250, frames=90, tx=1,
                                 seq=bytes([0, 1] * 40)),
        # late ticks, a forced level and a phase step on the receiver
        'noisy-late': phy_setup(noise=2000, frames=40,
                                events=((200, EV_LATE, 0, 400),
                                        (30, EV_LEVEL, 0, 0xffff),
                                        (30, EV_PHASE, 0, 0xff00),
                                        (100, EV_EXTREME, 0, 3))),
        # deferred search, an interferer, settings changed mid-run
        'deferred-mixed': phy_setup(mode=8, defer=0x32, offset_us=60,
                                    seed=7, events=((250, EV_BRIGHT, 0, 300),
                                                    (250, EV_MODE, 1, 0),
                                                    (250, EV_TIMING, 0, 1))),
        # one LED both emits and senses
        'shared-led': phy_setup(mode=4, frames=30),
    },
    'fec': {
        # untouched words at every level, short and longest
        'round-trip': b''.join(fec_word(lv, n) for lv in range(1, 6)
                               for n in (1, 255 - FEC_PARITY[lv])),
        # as many erasures as each level has parity, spread over the word
        'erasures-max': b''.join(
            fec_word(lv, 200, mode=2,
                     full=bytes(range(0, 7 * FEC_PARITY[lv], 7)))
            for lv in range(1, 6)),
        # 8 erasures and 4 errors the PHY did not see: at capacity
        'errors-and-erasures': fec_word(4, 64, eras=range(8),
                                        errors=((20, 1), (30, 2), (40, 4),
                                                (70, 8))),
        # and one error more: refused, or decoded to another word
        'beyond-capacity': fec_word(2, 40, eras=(1, 2),
                                    errors=((10, 1), (11, 2))),
        # garbage straight from the air
        'garbage': fec_word(5, 223, mode=1) + fec_word(1, 253, mode=1),
        # lists no word can have: duplicate, out of range, too long
        'bad-lists': fec_word(2, 10, eras=(3, 3)) +
        fec_word(2, 10, eras=(14,)) + fec_word(1, 10, eras=(0, 1, 2)) +
        fec_word(5, 100, eras=range(33)),
        # lengths decode_rs8() would BUG_ON, levels without a codec
        'bad-lengths': fec_word(5, 224) + fec_word(1, 0) +
        fec_word(1, 255) + fec_word(0, 10) + fec_word(6, 10) +
        fec_word(0x85, 10),
    },
    'params': {
        'defaults': params(mac_params(), phy_params()),
        'fast-4ppm': params(mac_params(bits=2, pre=4, frag=48, difs=3,
                                       sifs=1, beacon=64),
                            phy_params(sync=2000, guard=1000, data=2000,
                                       frame=30000, tol=500, mode=1,
                                       bright=400)),
        'bad-mac': params(mac_params(difs=2, sifs=2), phy_params(),
                          mac_run=b''),
        'bad-phy': params(mac_params(), phy_params(guard=1000),
                          phy_run=b''),
        # a data slot under VLC_PHY_SLOT_NS_MIN
        'bad-slot': params(mac_params(), phy_params(data=999),
                           phy_run=b''),
        'slow-mtu': params(mac_params(ack=200, retry=0, cw_min=1, cw_max=1),
                           phy_params(frame=100000000, bright=990),
                           mac_run=bytes([250, 63, 1]),
                           phy_run=bytes([0, 200, 0, 0, 0, 0])),
        # an age limit longer than this MTU packet takes: nothing expires
        'max-age': params(mac_params(), phy_params(),
                          mac_run=bytes([250, 63, 0]), max_age=65535),
        'bad-max-age': params(mac_params(), phy_params(), max_age=63,
                              mac_run=b''),
    },
}


# Reproducers of the findings (crashes/README), named TARGET-NAME: each
# fails the strict build (make -C tests/fuzz repro) until it is fixed.
CRASHES = {
}


def write(d, files):
    os.makedirs(d, exist_ok=True)
    for name, data in files.items():
        with open(os.path.join(d, name), 'wb') as f:
            f.write(data)


# Findings since fixed, kept as seeds of their targets.
FIXED = {
    'mac_rx': {
        # K1: a DATA frame whose 2-byte payload is only the ethertype
        'k1-short-delivery': mac_setup() +
        mac_data(b'\x88\xb5', et=3) + bytes([OP_WAIT, 10]),
    },
    'phy_rx': {
        # K2: timing with frame_ns < 64 made the search divide by zero
        'k2-tiny-frame': phy_setup(tsel=2, frames=8),
    },
    'params': {
        # K3: a false lock, then a neighbour's illumination pulse decided
        # as a data symbol on a noiseless channel: default settings, the
        # neighbour 109 us early, both sides correcting as the MAC does
        'k3-false-lock-default': params(
            mac_params(), phy_params(),
            phy_run=bytes([5, 40]) + struct.pack('<I', 390944)),
        # K3 again, no correction, a brightness below the range's
        # minimum (now refused) ...
        'k3-false-lock-dim': params(
            mac_params(),
            phy_params(sync=1872, guard=1000, data=2000, frame=30000,
                       tol=500, mode=1, bright=54),
            phy_run=bytes([1, 40]) + struct.pack('<I', 13192)),
        # ... and at the minimum, 67: locked "hidden" after one frame
        # without light, where two were meant
        'k3-false-lock-dim-min': params(
            mac_params(),
            phy_params(sync=1872, guard=1000, data=2000, frame=30000,
                       tol=500, mode=1, bright=67),
            phy_run=bytes([1, 200]) + struct.pack('<I', 13192)),
    },
}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    for target, seeds in SEEDS.items():
        write(os.path.join(here, 'corpus', target), seeds)
    for target, seeds in FIXED.items():
        write(os.path.join(here, 'corpus', target), seeds)
    write(os.path.join(here, 'crashes'), CRASHES)


if __name__ == '__main__':
    main()
