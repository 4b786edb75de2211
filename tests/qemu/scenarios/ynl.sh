#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vlc-timeout: 300
# vlc-pace: wall
# The "vlc" generic netlink family through the kernel's YNL CLI
# (tools/net/ynl/pyynl/cli.py of the kernel source that make ynl-ksrc
# links as build/ynl-ksrc: scripts/ynl-check.sh's) and its spec,
# Documentation/netlink/specs/vlc.yaml: the spec validates, a get and a
# dump in netns a decode vlc0 with its default settings, a set of
# brightness is read back by a get, a set the policy refuses (sync-ns 0)
# fails naming the attribute and its range, sets the PHY's and the MAC's
# checks refuse name the attribute the request carried (the refused
# field's own, or the one it was checked against), refused sets change
# nothing, and fec auto is read back.
. "$VLC_SRC/tests/qemu/lib.sh"

ksrc=$VLC_SRC/build/ynl-ksrc
cli=$ksrc/tools/net/ynl/pyynl/cli.py
spec=$VLC_SRC/Documentation/netlink/specs/vlc.yaml
[ -f "$cli" ] ||
	fail "$cli missing: make ynl-ksrc (BUILD= outside the checkout is not supported here)"
# the host's root is read-only here: no __pycache__
export PYTHONDONTWRITEBYTECODE=1

# ynl NS ARGS...: the YNL CLI on the spec in netns NS, its JSON reply (or
# error) in /tmp/ynl.out and shown; fails as the CLI does. nsenter, as
# ctl of lib.sh.
ynl() {
	ynl_ns=$1
	shift
	ynl_rc=0
	nsenter --net="/run/netns/$ynl_ns" python3 "$cli" --spec "$spec" \
		--no-schema --output-json "$@" >/tmp/ynl.out 2>&1 || ynl_rc=$?
	sed 's/^/  | /' /tmp/ynl.out
	return $ynl_rc
}

# is KEY VALUE: the device vlc0 in the JSON of /tmp/ynl.out (a get's
# reply, or the one vlc0 of a dump's list) has KEY at VALUE
is() {
	python3 - "$1" "$2" <<'EOF'
import json
import sys

r = json.load(open("/tmp/ynl.out"))
if isinstance(r, list):
    r = [d for d in r if d.get("ifname") == "vlc0"]
    if len(r) != 1:
        sys.exit("%d devices named vlc0" % len(r))
    r = r[0]
v = r.get(sys.argv[1])
if str(v) != sys.argv[2]:
    sys.exit("%s is %r, not %s" % (sys.argv[1], v, sys.argv[2]))
EOF
}

expect "the spec is valid against the kernel's schema" \
	python3 "$cli" --spec "$spec" --validate \
	--schema "$ksrc/Documentation/netlink/genetlink-legacy.yaml"

# Real time: the CLI needs the CPU more than the light does.
sim_load speed=100
vlc_pair

get='{"ifname": "vlc0"}'
expect "get of vlc0 in netns a" ynl a --do get --json "$get"
expect "  ... names it" is ifname vlc0
expect "  ... with the default modulation, by its name" is modulation 2slot
expect "  ... brightness" is brightness 200
expect "  ... and timing, in ns" is frame-ns 500000
expect "  ... and MAC settings" is rts-threshold 200
a_ifindex=$(python3 -c 'import json; print(json.load(open("/tmp/ynl.out"))["ifindex"])')
a_fec=$(python3 -c 'import json; print(json.load(open("/tmp/ynl.out"))["fec"])')

expect "dump of get in netns a" ynl a --dump get
expect "  ... lists one device" python3 -c \
	'import json, sys; sys.exit(len(json.load(open("/tmp/ynl.out"))) != 1)'
expect "  ... vlc0, by the same ifindex" is ifindex "$a_ifindex"
expect "  ... with its settings" is sync-ns 40000

expect "set of brightness 300" \
	ynl a --do set --json '{"ifname": "vlc0", "brightness": 300}'
expect "  ... read back by a get" ynl a --do get --json "$get"
expect "  ... brightness 300" is brightness 300
expect "  ... the timing unchanged" is sync-ns 40000
expect "b kept its brightness" ynl b --do get --json "$get"
expect "  ... 200" is brightness 200

rc=0
ynl a --do set --json '{"ifname": "vlc0", "sync-ns": 0, "brightness": 250}' ||
	rc=$?
expect "set of sync-ns 0 refused by the policy" test $rc = 1
expect "  ... out of range" grep -q "Netlink error: integer out of range" \
	/tmp/ynl.out
expect "  ... the extended ACK names sync-ns" grep -q "'bad-attr': '.sync-ns'" \
	/tmp/ynl.out
expect "  ... with its range" \
	grep -q "'min-value': 1000,.*'max-value': 100000000" /tmp/ynl.out
expect "  ... and nothing changed" ynl a --do get --json "$get"
expect "  ... sync-ns 40000" is sync-ns 40000
expect "  ... brightness 300" is brightness 300

# refused SET MESSAGE ATTR: the set of the JSON members SET on vlc0 in
# netns a fails, with MESSAGE and ATTR as the extended ACK's bad attribute
refused() {
	rc=0
	ynl a --do set --json "{\"ifname\": \"vlc0\", $1}" || rc=$?
	[ $rc = 1 ] || { echo "exit status $rc, not 1" >&2; return 1; }
	grep -q "Netlink error: $2" /tmp/ynl.out ||
		{ echo "no \"$2\"" >&2; return 1; }
	grep -q "'bad-attr': '.$3'" /tmp/ynl.out ||
		{ echo "the bad attribute is not $3" >&2; return 1; }
}

expect "tolerance-ns above guard-ns refused, naming tolerance-ns" \
	refused '"tolerance-ns": 30000' "guard-us shorter than tolerance-us" \
	tolerance-ns
expect "4ppm at brightness 300 refused, naming modulation" \
	refused '"modulation": "4ppm"' "brightness above the maximum" \
	modulation
expect "a frame too short for its data slots refused, naming data-ns" \
	refused '"data-ns": 200000' "frame-us too short" data-ns
expect "retry-limit 16 refused, naming retry-limit" \
	refused '"retry-limit": 16' "retry-limit: must be 0..15" retry-limit
expect "cw-max under cw-min refused, naming cw-max" \
	refused '"cw-max": 8' "cw-min: must be 1..cw-max" cw-max
expect "a MAC refusal names its own attribute, not the PHY's" \
	refused '"brightness": 250, "frag-size": 47' "frag-size: must be" \
	frag-size
expect "fec 3 refused, naming fec" \
	refused '"fec": 3' "fec: must be off, auto, or 2, 4, 8, 16 or 32" fec
expect "  ... and nothing changed" ynl a --do get --json "$get"
expect "  ... tolerance-ns 20000" is tolerance-ns 20000
expect "  ... modulation 2slot" is modulation 2slot
expect "  ... data-ns 50000" is data-ns 50000
expect "  ... brightness 300" is brightness 300
expect "  ... retry-limit 7" is retry-limit 7
expect "  ... cw-max 256" is cw-max 256
expect "  ... fec $a_fec" is fec "$a_fec"

expect "set of fec 255 (auto)" \
	ynl a --do set --json '{"ifname": "vlc0", "fec": 255}'
expect "  ... read back by a get" ynl a --do get --json "$get"
expect "  ... fec 255" is fec 255
expect "set of fec 16" ynl a --do set --json '{"ifname": "vlc0", "fec": 16}'
expect "  ... read back by a get" ynl a --do get --json "$get"
expect "  ... fec 16" is fec 16
expect "fec back to $a_fec" \
	ynl a --do set --json "{\"ifname\": \"vlc0\", \"fec\": $a_fec}"

# The simulated medium: a get, a set read back, a node dump with its edges,
# an edge set, and refusals by the policy and by the checks.
expect "sim-get" ynl a --do sim-get
expect "  ... reports the medium" python3 -c '
import json, sys
m = json.load(open("/tmp/ynl.out"))["sim"]
sys.exit(not (m["speed"] == 100 and m["nodes"] == 2 and m["vtime-us"] > 0))'
expect "sim-set of ambient and late-us" \
	ynl a --do sim-set --json '{"sim": {"ambient": 2500, "late-us": 300}}'
expect "  ... read back by sim-get" ynl a --do sim-get
expect "  ... ambient 2500, late-us 300" python3 -c '
import json, sys
m = json.load(open("/tmp/ynl.out"))["sim"]
sys.exit(not (m["ambient"] == 2500 and m["late-us"] == 300))'
expect "sim-set of an edge's gain, one way" ynl a --do sim-set \
	--json '{"sim-edge": [{"from": 0, "to": 1, "gain": 700}]}'
expect "sim-node-get dump" ynl a --dump sim-node-get
expect "  ... two nodes, each seeing the other; 0 as 700 from 1" python3 -c '
import json, sys
r = json.load(open("/tmp/ynl.out"))
e = {(x["from"], x["to"]): x["gain"] for n in r for x in n["sim-edge"]}
ids = sorted(n["sim-node"]["id"] for n in r)
sys.exit(not (ids == [0, 1] and e == {(0, 1): 700, (1, 0): 1000}))'
rc=0
ynl a --do sim-set --json '{"sim": {"flicker-hz": 0}}' || rc=$?
expect "sim-set of flicker-hz 0 refused by the policy" test $rc = 1
expect "  ... naming flicker-hz" grep -q "'bad-attr': '.sim.flicker-hz'" \
	/tmp/ynl.out
rc=0
ynl a --do sim-set --json '{"sim-node": {"id": 0, "rx": "led"}}' || rc=$?
expect "sim-set of rx on a node that is up refused" test $rc = 1
expect "  ... saying why" grep -q "set it while the interface is down" \
	/tmp/ynl.out
rc=0
ynl a --do sim-set --json '{"sim-node": {"id": 9, "skew-ppm": 5}}' || rc=$?
expect "sim-set on a node that does not exist refused" test $rc = 1
rc=0
ynl a --do sim-set --json '{"sim-node": {"id": 0, "bursts": 5}}' || rc=$?
expect "sim-set of a read-only attribute refused" test $rc = 1
expect "  ... naming it" grep -q "read-only attribute" /tmp/ynl.out

sim_unload
