# SPDX-License-Identifier: GPL-2.0
"""A VLC_CMD_SET of the "vlc" generic netlink family with raw u32
attributes, past vlcctl's own checks: what the kernel alone does with a
value vlcctl would not send (tests/qemu/scenarios/params.sh). The
numbers come from the uAPI header, as simtime.py's do.

    python3 nlset.py DEV NAME=VALUE...

NAME is the attribute's uAPI name without VLC_ATTR_ (FEC for
VLC_ATTR_FEC), VALUE a u32. Exits 0 when the kernel takes the request;
1 when it refuses it, having printed to stderr, as vlcctl does, the
extended ACK's message, the attribute it points at in brackets (by
NAME) and the error; 2 when the request could not be made.
"""

import os
import socket
import struct
import sys

import simtime

SOL_NETLINK = 270
NETLINK_EXT_ACK = 11
NLM_F_REQUEST, NLM_F_ACK = 1, 4
NLM_F_CAPPED = 0x100
NLMSGERR_ATTR_MSG, NLMSGERR_ATTR_OFFS = 1, 2


def attr(typ, payload):
    """One netlink attribute, padded to 4 bytes."""
    a = struct.pack("HH", 4 + len(payload), typ) + payload
    return a + b"\0" * (-len(a) % 4)


def request(sock, family, flags, cmd, body):
    """Send one request of family; its answer: type, flags, the whole
    message. A request that asks for data asks for no ACK too: the ACK
    would be the next request's answer."""
    sock.send(struct.pack("IHHII", 20 + len(body), family,
                          NLM_F_REQUEST | flags, 1, 0) +
              struct.pack("BBH", cmd, 1, 0) + body)
    buf = sock.recv(65536)
    ln, typ, flags = struct.unpack_from("IHH", buf, 0)
    return typ, flags, buf[:ln]


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    e = simtime._enums(simtime._HDR)
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                         simtime.NETLINK_GENERIC)
    sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
    typ, _, buf = request(sock, simtime.GENL_ID_CTRL, 0,
                          simtime.CTRL_CMD_GETFAMILY,
                          attr(simtime.CTRL_ATTR_FAMILY_NAME, b"vlc\0"))
    fid = simtime._attrs(buf[20:]).get(simtime.CTRL_ATTR_FAMILY_ID)
    if typ != simtime.GENL_ID_CTRL or not fid:
        print("nlset: no vlc family (is vlc.ko loaded?)", file=sys.stderr)
        return 2
    family = struct.unpack("H", fid[:2])[0]

    # the request: the device by name, then each NAME=VALUE, whose
    # offsets in the message name the attribute an extended ACK points at
    hdr_len = 20
    body = attr(e["VLC_ATTR_IFNAME"], argv[1].encode() + b"\0")
    at = {}
    for kv in argv[2:]:
        key, _, val = kv.partition("=")
        typ = e.get("VLC_ATTR_" + key)
        if typ is None or not val.isdigit() or int(val) > 0xffffffff:
            print(f"nlset: '{kv}' is not NAME=U32", file=sys.stderr)
            return 2
        at[hdr_len + len(body)] = key
        body += attr(typ, struct.pack("I", int(val)))
    typ, flags, buf = request(sock, family, NLM_F_ACK, e["VLC_CMD_SET"],
                              body)
    if typ != simtime.NLMSG_ERROR:
        print(f"nlset: answer of type {typ}, not an ACK", file=sys.stderr)
        return 2
    err = struct.unpack_from("i", buf, 16)[0]
    if not err:
        return 0
    # after the error: the request (its header alone if capped), then
    # the extended ACK's attributes
    inner = 16 if flags & NLM_F_CAPPED else \
        struct.unpack_from("I", buf, 20)[0]
    tlv = simtime._attrs(buf[20 + inner:])
    text = tlv.get(NLMSGERR_ATTR_MSG, b"").rstrip(b"\0").decode()
    if NLMSGERR_ATTR_OFFS in tlv:
        off = struct.unpack("I", tlv[NLMSGERR_ATTR_OFFS][:4])[0]
        text += f" [{at.get(off, 'offset %d' % off)}]"
    print(f"nlset: set {argv[1]}: {text} ({os.strerror(-err)})",
          file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
