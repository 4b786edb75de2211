#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The "vlc" generic netlink family against its YNL spec,
# Documentation/netlink/specs/vlc.yaml, with the YNL tools of a kernel
# source (tools/net/ynl, through scripts/ksrc.sh; series $VLC_YNL_KVER,
# default 7.3: the generator's output changes between releases, so the
# header is that of one series, and moves with it):
#   1. the spec is valid against the generator's schema (genetlink-legacy);
#   2. include/uapi/linux/vlc.h is, byte for byte, what ynl_gen_c.py
#      --mode uapi --header makes of the spec;
#   3. the spec's kernel constants, and vlc_nl.c's policy, operations and
#      multicast groups, are what it says (scripts/ynl-policy.py, with
#      what --mode kernel --source makes of the spec).
# A step of make docs-check: tests/docs/check.py counts its lines.
#
#   ynl-check.sh          one line a check, "ynl: ok   WHAT" or
#                         "ynl: FAIL WHAT: WHY" (a differing header is
#                         followed by its diff); exits 1 if one failed
#   ynl-check.sh --regen  write include/uapi/linux/vlc.h from the spec
#   ynl-check.sh --src    print the kernel source whose tools it runs

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
series=${VLC_YNL_KVER:-7.3}
spec=Documentation/netlink/specs/vlc.yaml
hdr=include/uapi/linux/vlc.h

src=$(VLC_KVER=$series "$top/scripts/ksrc.sh" src) || {
	echo "ynl: FAIL the $series kernel source: scripts/ksrc.sh src failed"
	exit 1
}
gen=$src/tools/net/ynl/pyynl/ynl_gen_c.py
cli=$src/tools/net/ynl/pyynl/cli.py
if [ ! -f "$gen" ] || [ ! -f "$cli" ]; then
	echo "ynl: FAIL the $series kernel source: no tools/net/ynl/pyynl in $src"
	exit 1
fi
if [ "${1:-}" = --src ]; then
	echo "$src"
	exit 0
fi
# nothing written into the kernel source (__pycache__)
export PYTHONDONTWRITEBYTECODE=1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ynl_gen_c.py names the spec by its path below the folder that holds
# MAINTAINERS, and validates it against the schema two folders up: a
# scratch tree of that shape, with the kernel's schemas.
mkdir -p "$tmp/tree/Documentation/netlink/specs"
: >"$tmp/tree/MAINTAINERS"
cp "$src"/Documentation/netlink/*.yaml "$tmp/tree/Documentation/netlink/"
cp "$top/$spec" "$tmp/tree/$spec"

# generate MODE OUT ARGS...: ynl_gen_c.py on the spec; its errors in
# $tmp/err
generate() {
	(cd "$tmp/tree" && python3 "$gen" --mode "$1" --spec "$spec" \
		-o "$tmp/$2" "$3") >"$tmp/err" 2>&1
}

# why: the last line of what a tool printed on failure
why() {
	grep -v '^[[:space:]]*$' "$tmp/err" | tail -n 1
}

if [ "${1:-}" = --regen ]; then
	generate uapi vlc.h --header || { cat "$tmp/err" >&2; exit 1; }
	cp "$tmp/vlc.h" "$top/$hdr"
	echo "ynl: wrote $hdr from $spec ($series generator)"
	exit 0
fi

failed=0
if python3 "$cli" --spec "$tmp/tree/$spec" --validate \
	--schema "$src/Documentation/netlink/genetlink-legacy.yaml" \
	>"$tmp/err" 2>&1; then
	echo "ynl: ok   $spec: valid against the $series schema"
else
	echo "ynl: FAIL $spec: valid against the $series schema: $(why)"
	failed=1
fi

what="$hdr: as the $series ynl_gen_c.py generates it from $spec"
if ! generate uapi vlc.h --header; then
	echo "ynl: FAIL $what: the generator failed: $(why)"
	failed=1
elif cmp -s "$tmp/vlc.h" "$top/$hdr"; then
	echo "ynl: ok   $what"
else
	echo "ynl: FAIL $what: it differs (scripts/ynl-check.sh --regen writes it)"
	diff -u -L "$hdr" -L "$hdr as generated" "$top/$hdr" "$tmp/vlc.h" |
		head -n 40 | sed 's/^/  | /'
	failed=1
fi

what="drivers/net/vlc/vlc_nl.c: as the spec"
if ! generate kernel vlc-nl.c --source; then
	echo "ynl: FAIL $what: the generator failed: $(why)"
	failed=1
elif [ ! -f "$tmp/vlc.h" ]; then
	echo "ynl: FAIL $what: no uAPI header generated to compare with"
	failed=1
elif ! python3 "$top/scripts/ynl-policy.py" "$top" "$tmp/vlc-nl.c" \
	"$tmp/vlc.h"; then
	failed=1
fi
exit $failed
