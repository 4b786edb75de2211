#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vlc-timeout: 600
# The simulated medium over netlink (vlcctl sim), and who may touch it:
# - a topology loads from a file (namespaces, nodes, addresses, MAC
#   addresses, clocks, receivers, edges, the medium's settings) and
#   "vlcctl sim show" prints the same file back; a file with an error
#   changes nothing; the loaded boards ping each other;
# - root of a user namespace can neither read nor change the medium, nor
#   add nodes: it cannot disturb another's medium, nor use up the IDs,
#   which the initial namespace's admin still gets.
. "$VLC_SRC/tests/qemu/lib.sh"

vlcctl=$(vlcctl_bin)
topo=/tmp/topo
sim_load

# ---- a topology, loaded and read back ----
# Canonical: what show prints, in its order, only what differs from the
# defaults (the medium's line lists every setting).
cat >$topo <<'EOF'
medium speed 0 seed 7 ambient 2500 flicker 300 flicker-hz 120 noise 12 ser-ppm 0 late-ppm 0 late-us 200 burst-ppm 0 burst-us 2000
node x/vlc0 address 10.0.0.1/24 skew-ppm 120 phase-us 350 up
node y/vlc0 address 10.0.0.2/24 mac 02:56:4c:43:00:42 rx led up
node z/vlc0 address 10.0.0.3/24 skew-ppm -80 up
edge x/vlc0 y/vlc0 1000
edge x/vlc0 z/vlc0 300
edge y/vlc0 x/vlc0 1000
edge z/vlc0 x/vlc0 300
EOF
sed 's/^/  | /' $topo
expect "the topology loads" sim load $topo
sim show >/tmp/topo.show
sed 's/^/  > /' /tmp/topo.show
expect "sim show prints the same file back" cmp $topo /tmp/topo.show
expect "  ... y and z do not see each other" \
	sh -c "! grep -Eq '^edge (y/vlc0 z/vlc0|z/vlc0 y/vlc0) ' /tmp/topo.show"
expect "y has the MAC address of the file" sh -c \
	"ip -n y link show vlc0 | grep -q 'link/ether 02:56:4c:43:00:42 '"
expect "x has its address" sh -c \
	"ip -n x -o addr show dev vlc0 | grep -q 'inet 10.0.0.1/24 '"
expect "carrier on x" wait_carrier x 120
expect "carrier on y" wait_carrier y 120
expect "y pings x" ping_ok y 10.0.0.1
expect "carrier on z" wait_carrier z 120
expect "z pings x" ping_ok z 10.0.0.1

# A file with an error changes nothing: it is read whole first.
cat >/tmp/bad.topo <<'EOF'
node w/vlc0 address 10.0.0.9/24 up
edge w/vlc0 x/vlc0 2000x
EOF
rc=0
sim load /tmp/bad.topo 2>/tmp/load.err || rc=$?
sed 's/^/  | /' /tmp/load.err
expect "a file with a bad gain is refused" test $rc != 0
expect "  ... naming its line" grep -q "bad.topo:2" /tmp/load.err
expect "  ... and w was not made" test ! -e /run/netns/w
sim show >/tmp/topo.show2
expect "  ... and the medium is as before" cmp /tmp/topo.show /tmp/topo.show2

# ---- a user namespace's root ----
# As in vlcctl.sh: a holder started from init's root makes a user
# namespace (uid 0 mapped to itself) with a netns of its own.
rm -f /tmp/uns.pid
nsenter --target 1 --root /bin/busybox unshare -r -n /bin/busybox sh -c \
	'echo $$ >/mnt/tmp/uns.pid; exec /bin/busybox sleep 600' &
wait_until 10 test -s /tmp/uns.pid || fail "no user namespace"
upid=$(cat /tmp/uns.pid)
uns() {
	nsenter --preserve-credentials --target "$upid" --user --net "$@"
}
# uns_refused DESCRIPTION ARGS...: vlcctl sim ARGS as the user
# namespace's root fails, "Operation not permitted"
uns_refused() {
	d=$1
	shift
	rc=0
	uns "$vlcctl" sim "$@" 2>/tmp/uns.err || rc=$?
	sed 's/^/  | /' /tmp/uns.err
	expect "$d: refused to the user namespace's root" sh -c \
		"[ $rc = 1 ] && grep -q 'Operation not permitted' /tmp/uns.err"
}
uns_refused "sim show" show
uns_refused "sim set ambient" set ambient 900000
uns_refused "sim edge" edge 0 1 gain 0
uns_refused "sim node" node 0 skew-ppm 1000
uns_refused "sim time" time
sim show >/tmp/topo.show2
expect "  ... and the medium is as before" cmp /tmp/topo.show /tmp/topo.show2

# IDs: the user namespace's root cannot add a node, however often it
# tries; the initial namespace's admin then still gets all that are left.
n=0
made=0
while [ $n -lt 70 ]; do
	uns ip link add "u$n" type vlc 2>/dev/null && made=$((made + 1))
	n=$((n + 1))
done
expect "70 tries of the user namespace's root: no node made" test $made = 0
left=$((64 - $(sim_count)))
n=0
while [ $n -lt $left ]; do
	ip link add "id$n" type vlc || fail "node $n of $left not made"
	n=$((n + 1))
done
expect "the initial admin got the $left IDs left" test "$(sim_count)" = 64
rc=0
ip link add id64 type vlc 2>/tmp/ip.err || rc=$?
expect "a 65th node is refused" test $rc != 0
expect "  ... saying why" grep -q "too many nodes" /tmp/ip.err
n=0
while [ $n -lt $left ]; do
	ip link del "id$n"
	n=$((n + 1))
done
kill "$upid"

for ns in x y z; do
	ip netns del $ns
done
wait_until 60 sim_empty || fail "nodes left"
sim_unload
