# SPDX-License-Identifier: GPL-2.0
"""The simulated medium's virtual time, read over the "vlc" generic
netlink family (VLC_CMD_SIM_GET), for guest scripts that time events in
it: one request on an open socket, no process started per reading, so a
timestamp is not late by a fork under TCG while the medium runs at full
speed. The command and attribute numbers come from the uAPI header, so
they follow the spec.

    import simtime
    clock = simtime.Clock()     # in any netns; CAP_NET_ADMIN needed
    clock.ns()                  # virtual time, ns (us resolution)
"""

import os
import re
import socket
import struct

_HDR = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                    "../../include/uapi/linux/vlc.h")
NETLINK_GENERIC = 16
NLM_F_REQUEST = 1
NLMSG_ERROR = 2
GENL_ID_CTRL, CTRL_CMD_GETFAMILY = 0x10, 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 1, 2


def _enums(path):
    """NAME -> value of every enum constant of the uAPI header."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    out = {}
    for body in re.findall(r"enum\s+\w+\s*\{(.*?)\};", text, re.S):
        n = -1
        for entry in body.split(","):
            entry = re.sub(r"/\*.*?\*/", "", entry, flags=re.S).strip()
            if not entry:
                continue
            name, _, val = entry.partition("=")
            val = val.strip()
            if not val:
                n += 1
            elif val in out:
                n = out[val]
            elif re.fullmatch(r"-?(0[xX][0-9a-fA-F]+|\d+)", val):
                n = int(val, 0)
            else:
                continue    # an expression: the enum's MAX, not needed
            out[name.strip()] = n
    return out


def _attrs(buf):
    """Type -> payload of the netlink attributes in buf."""
    out, i = {}, 0
    while i + 4 <= len(buf):
        ln, typ = struct.unpack_from("HH", buf, i)
        if ln < 4:
            break
        out[typ & 0x3fff] = buf[i + 4:i + ln]
        i += (ln + 3) & ~3
    return out


class Clock:
    """A generic netlink socket that asks the medium for its time."""

    def __init__(self):
        e = _enums(_HDR)
        self.cmd = e["VLC_CMD_SIM_GET"]
        self.sim = e["VLC_ATTR_SIM"]
        self.vtime = e["VLC_SIM_ATTR_VTIME_US"]
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                                  NETLINK_GENERIC)
        self.seq = 0
        name = b"vlc\0"
        attr = struct.pack("HH", 4 + len(name), CTRL_ATTR_FAMILY_NAME) + name
        reply = self._talk(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, attr)
        self.family = struct.unpack("H", reply[CTRL_ATTR_FAMILY_ID][:2])[0]

    def _talk(self, family, cmd, payload=b""):
        self.seq += 1
        payload += b"\0" * (-len(payload) % 4)
        msg = struct.pack("IHHII", 16 + 4 + len(payload), family,
                          NLM_F_REQUEST, self.seq, 0)
        self.sock.send(msg + struct.pack("BBH", cmd, 1, 0) + payload)
        buf = self.sock.recv(65536)
        ln, typ = struct.unpack_from("IH", buf, 0)
        if typ == NLMSG_ERROR:
            err = struct.unpack_from("i", buf, 16)[0]
            raise OSError(-err, os.strerror(-err))
        return _attrs(buf[20:ln])

    def ns(self):
        """The medium's virtual time, in ns."""
        sim = _attrs(self._talk(self.family, self.cmd)[self.sim])
        return struct.unpack("Q", sim[self.vtime][:8])[0] * 1000
