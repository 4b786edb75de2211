#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""UDP datagrams that carry their own checksum, to prove that nothing
corrupt is ever delivered.

  udpcheck.py send HOST PORT COUNT SIZE   send COUNT datagrams
  udpcheck.py recv PORT SECONDS           count good and bad ones; prints
                                          "udp: good G bad B"
"""
import hashlib
import os
import socket
import struct
import sys
import time


def send(host, port, count, size):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for i in range(count):
        body = struct.pack("!I", i) + os.urandom(size - 4 - 32)
        s.sendto(body + hashlib.sha256(body).digest(), (host, port))
        time.sleep(0.05)


def recv(port, seconds):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", port))
    s.settimeout(1.0)
    good = bad = 0
    seen = set()
    end = time.time() + seconds
    while time.time() < end:
        try:
            data = s.recv(65536)
        except socket.timeout:
            continue
        body, digest = data[:-32], data[-32:]
        if len(data) < 36 or hashlib.sha256(body).digest() != digest:
            bad += 1
            continue
        seen.add(struct.unpack("!I", body[:4])[0])
        good += 1
    print("udp: good %d bad %d distinct %d" % (good, bad, len(seen)))


if __name__ == "__main__":
    if sys.argv[1] == "send":
        send(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    else:
        recv(int(sys.argv[2]), float(sys.argv[3]))
