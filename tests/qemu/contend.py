#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Saturating UDP senders and a receiver that measures, in the
simulator's virtual time, how much each sender got through.

  contend.py send HOST PORT SIZE
      send SIZE-byte datagrams to HOST:PORT until killed; a small send
      buffer makes the sender block when the link is full, so the
      device's queue always holds a packet and nothing is lost in the
      stack
  contend.py recv PORT VSECONDS
      count datagrams per source for VSECONDS of virtual time from the
      first arrival, then print "CONTEND vns NS", "CONTEND total BYTES"
      and "CONTEND src ADDR BYTES" per source (bytes after each
      source's first datagram, so that all count from steady state)

The receiver needs fd 3 open on /sys/kernel/debug/vlc_sim (the root
namespace's debugfs; ip netns exec gives the command its own /sys).
"""
import os
import socket
import sys

VT = 3


def vtime():
    fd = os.open("vtime_ns", os.O_RDONLY, dir_fd=VT)
    try:
        return int(os.read(fd, 64))
    finally:
        os.close(fd)


def send(host, port, size):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    body = bytes(size)
    while True:
        s.sendto(body, (host, port))


def recv(port, vseconds):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", port))
    s.settimeout(0.2)
    called, start = vtime(), None
    per_src = {}
    while True:
        try:
            d, (addr, _) = s.recvfrom(65536)
        except socket.timeout:
            d = None
        now = vtime()
        if start is not None and now - start >= vseconds * 10**9:
            break
        if d is None:
            if start is None and now - called > 600 * 10**9:
                break	# nothing at all in 600 virtual seconds
            continue
        if start is None:
            start = now
        if addr in per_src:
            per_src[addr] += len(d)
        else:
            per_src[addr] = 0
    end = vtime()
    print("CONTEND vns %d" % (end - start if start is not None else 0))
    print("CONTEND total %d" % sum(per_src.values()))
    for addr in sorted(per_src):
        print("CONTEND src %s %d" % (addr, per_src[addr]))


if sys.argv[1] == "send":
    send(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
elif sys.argv[1] == "recv":
    recv(int(sys.argv[2]), float(sys.argv[3]))
else:
    sys.exit("usage: contend.py send HOST PORT SIZE | recv PORT VSECONDS")
