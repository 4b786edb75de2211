#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Saturating UDP senders and a receiver that measures, in the
simulator's virtual time, how much each sender got through.

  contend.py send HOST PORT SIZE
      send SIZE-byte datagrams to HOST:PORT until killed; a small send
      buffer makes the sender block when the link is full, so the
      device's queue always holds a packet and nothing is lost in the
      stack
  contend.py recv PORT VSECONDS SENDERS
      wait until SENDERS sources have each delivered a datagram, then
      count datagrams per source for VSECONDS of virtual time, and print
      "CONTEND start NS" (virtual time from the first datagram to the
      last sender's first, the start-up), "CONTEND vns NS", "CONTEND
      total BYTES" and "CONTEND src ADDR BYTES" per source; if the
      senders are not all through within 2 VSECONDS + 60 virtual
      seconds, "CONTEND vns 0" and "CONTEND total 0".

The count starts when every sender is through, in steady state: a sender
that joins while a hidden one's exchange is on the air sends RTS nobody
can answer, doubles its window and waits out several of the other's
packets (see "Medium access" in vlc.rst); that start-up is printed, not
counted.

The receiver reads the virtual time over netlink (simtime.py).
"""
import os
import socket
import sys

import simtime


def vtime():
    """The simulator's virtual time, ns; a clock opened on first use."""
    if not hasattr(vtime, "clock"):
        vtime.clock = simtime.Clock()
    return vtime.clock.ns()


def send(host, port, size):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    body = bytes(size)
    while True:
        s.sendto(body, (host, port))


def recv(port, vseconds, senders):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", port))
    s.settimeout(0.2)
    called, first, start = vtime(), None, None
    seen, per_src = set(), {}
    while True:
        try:
            d, (addr, _) = s.recvfrom(65536)
        except socket.timeout:
            d = None
        now = vtime()
        if start is not None and now - start >= vseconds * 10**9:
            break
        if start is None and now - called > (2 * vseconds + 60) * 10**9:
            break   # the senders not all through: starved
        if d is None:
            continue
        if first is None:
            first = now
        if start is None:
            seen.add(addr)
            per_src.setdefault(addr, 0)
            if len(seen) >= senders:
                start = now
            continue
        per_src[addr] = per_src.get(addr, 0) + len(d)
    if start is None:
        print("CONTEND vns 0")
        print("CONTEND total 0")
        return
    print("CONTEND start %d" % (start - first))
    print("CONTEND vns %d" % (vtime() - start))
    print("CONTEND total %d" % sum(per_src.values()))
    for addr in sorted(per_src):
        print("CONTEND src %s %d" % (addr, per_src[addr]))


if sys.argv[1] == "send":
    send(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
elif sys.argv[1] == "recv":
    recv(int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]))
else:
    sys.exit("usage: contend.py send HOST PORT SIZE | recv PORT VSECONDS SENDERS")
