#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# MACsec (IEEE 802.1AE) over vlc0, static keys: GCM-AES-128 with one
# secure association each way. A ping over macsec0 works, only MACsec
# frames (ethertype 0x88e5) are on the light, and a receiver with the
# wrong key drops everything. See "Security" in vlc.rst.
# vlc-timeout: 600
. "$VLC_SRC/tests/qemu/lib.sh"

# Debian's kernel has these as modules (the stress kernel built in), and
# the guest's kernel cannot load them on demand: its modprobe helper
# runs outside the chroot, where there are no modules.
modprobe -qa macsec gcm ghash-generic ctr 2>/dev/null || true

KA=000102030405060708090a0b0c0d0e0f
KB=f0e0d0c0b0a090807060504030201000

# macsec_up NS MYKEY PEERMAC PEERKEY ADDR: macsec0 on vlc0 in NS,
# encrypting with MYKEY, accepting the peer's SCI with PEERKEY.
macsec_up() {
	ip -n "$1" link add link vlc0 macsec0 type macsec port 1 encrypt on
	ip -n "$1" link set macsec0 addrgenmode none
	ip netns exec "$1" ip macsec add macsec0 tx sa 0 pn 1 on key 01 "$2"
	ip netns exec "$1" ip macsec add macsec0 rx port 1 address "$3"
	ip netns exec "$1" ip macsec add macsec0 rx port 1 address "$3" sa 0 pn 1 on key 02 "$4"
	ip -n "$1" addr add "$5/24" dev macsec0
	ip -n "$1" link set macsec0 up
}

mac() { ip netns exec "$1" cat /sys/class/net/vlc0/address; }

sim_load
ip netns add a
ip netns add b
ip link add vlca type vlc
ip link add vlcb type vlc
ip link set vlca netns a name vlc0
ip link set vlcb netns b name vlc0
# No IPv6 autoconfiguration: seconds of airtime (vlc.rst).
for ns in a b; do
	ip -n $ns link set vlc0 addrgenmode none
	ip -n $ns link set vlc0 up
done
expect "carrier on a" wait_carrier a 60
expect "carrier on b" wait_carrier b 60

macsec_up a $KA "$(mac b)" $KB 10.1.0.1
macsec_up b $KB "$(mac a)" $KA 10.1.0.2
mtu=$(ip netns exec a cat /sys/class/net/macsec0/mtu)
echo "macsec0 mtu $mtu (vlc0 $(ip netns exec a cat /sys/class/net/vlc0/mtu))"

# What crosses the light, seen by b's vlc0.
ip netns exec b tcpdump -i vlc0 -n -U -w /tmp/air.pcap 2>/dev/null &
td=$!
sleep 2
ping_ok a 10.1.0.2 || fail "no first ping over macsec0"
# A payload pattern to look for on the light.
ip netns exec a ping -c 5 -W 20 -p 5eca7e5eca7e 10.1.0.2 >/tmp/ping.txt || {
	cat /tmp/ping.txt
	fail "ping over macsec0"
}
echo "ok - ping over macsec0: $(grep -o '[0-9]* received' /tmp/ping.txt)"
sleep 1
kill $td
wait $td 2>/dev/null || true
cp /tmp/air.pcap "$VLC_OUT/"
# frames: how many packets of the capture match filter $1
frames() { tcpdump -r /tmp/air.pcap -n "$1" 2>/dev/null | grep -c '^[0-9]' || true; }
sec=$(frames 'ether proto 0x88e5')
other=$(frames 'not ether proto 0x88e5')
clear=$(LC_ALL=C grep -caP '\x5e\xca\x7e\x5e\xca\x7e' /tmp/air.pcap || true)
echo "on the light at b: $sec MACsec frames, $other others, $clear with the payload in clear"
expect "MACsec frames on the light" test "$sec" -ge 10
expect "nothing but MACsec on the light" test "$other" -eq 0
expect "the ping payload never in clear" test "$clear" -eq 0

# b's receive SA with a wrong key: every frame fails its ICV.
ip netns exec b ip macsec set macsec0 rx port 1 address "$(mac a)" sa 0 off
ip netns exec b ip macsec del macsec0 rx port 1 address "$(mac a)" sa 0
ip netns exec b ip macsec add macsec0 rx port 1 address "$(mac a)" sa 0 pn 100 on key 02 $KB
ip netns exec a ping -c 3 -W 5 10.1.0.2 >/dev/null 2>&1 &&
	fail "ping answered with the wrong key"
echo "ok - wrong key: no reply"
ip netns exec b ip -s macsec show macsec0 >/tmp/sa.txt
cat /tmp/sa.txt
# The receive SA's counters (the last of the listing): each request
# failed its integrity check.
nv=$(awk '/stats: InPktsOK InPktsInvalid InPktsNotValid/ {getline; v = $3}
	  END {print v}' /tmp/sa.txt)
expect "requests with the wrong key counted as not valid ($nv)" test "${nv:-0}" -ge 3
