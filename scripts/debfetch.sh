#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Download Debian packages of another suite than the machine's (Debian 13's
# trixie-backports has linux-source-7.3; trixie has libgpiod 2) without
# touching the system's apt configuration: a private sources list, built
# from the mirror URI the machine's own sources already use, and private
# lists and cache under $VLC_CACHE/apt. Nothing is installed; the .debs
# are unpacked by whoever asked for them.
#
#   debfetch.sh SUITE PKG...   print the path of each PKG's .deb

set -eu
suite=$1
shift
cache=${VLC_CACHE:-/var/cache/linux-vlc}
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/linux-vlc
fi
d=$cache/apt/$suite
mkdir -p "$d/lists/partial" "$d/archives/partial" "$d/debs"

# The first http(s) URI of the machine's Debian sources, deb822 or
# one-line format.
uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
      sed -n 's/^URIs:[[:space:]]*\(http[^[:space:]]*\/debian\)[[:space:]]*$/\1/p' | head -n 1)
[ -n "$uri" ] || uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
      sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\(http[^[:space:]]*\/debian\)[[:space:]].*/\2/p' | head -n 1)
[ -n "$uri" ] || { echo "debfetch.sh: no Debian mirror URI in /etc/apt" >&2; exit 1; }

kr=/usr/share/keyrings/debian-archive-keyring.gpg
echo "deb [signed-by=$kr] $uri $suite main" >"$d/sources.list"
apt="-o Dir::Etc::SourceList=$d/sources.list -o Dir::Etc::SourceParts=/nonexistent
     -o Dir::State::Lists=$d/lists -o Dir::Cache=$d -o Dir::Cache::Archives=$d/archives
     -o APT::Sandbox::User=root"

exec 9>"$d/.lock"
flock 9
# A day-old list is fresh enough; a package it names that the mirror
# no longer has makes the download fail, and then the list is renewed.
fresh=$(find "$d/lists" -maxdepth 1 -name '*Packages*' -mmin -1440 | head -n 1)
# shellcheck disable=SC2086
[ -n "$fresh" ] || apt-get $apt -q update >"$d/update.log" 2>&1 ||
	{ cat "$d/update.log" >&2; exit 1; }
# One apt-cache call for all: "PACKAGE VERSION ARCH" per line.
show() {
	# shellcheck disable=SC2086
	apt-cache $apt show --no-all-versions "$@" 2>"$d/show.log" |
		awk '/^Package: /{ p = $2 } /^Version: /{ v = $2 }
		     /^Architecture: /{ a = $2 } /^$/{ if (p != "") print p, v, a; p = "" }
		     END { if (p != "") print p, v, a }' || true
}
info=$(show "$@")
for p in "$@"; do
	va=$(echo "$info" | awk -v p="$p" '$1 == p && NF == 3 { print $2, $3; exit }')
	# apt-cache can miss a package its list has while other callers
	# run: ask again before saying it is not there.
	if [ -z "$va" ]; then
		sleep 2
		info=$(show "$@")
		va=$(echo "$info" | awk -v p="$p" '$1 == p && NF == 3 { print $2, $3; exit }')
	fi
	[ -n "$va" ] || { echo "debfetch.sh: $p not in $suite" >&2; cat "$d/show.log" >&2; exit 1; }
	v=${va% *}
	a=${va#* }
	f=$d/debs/${p}_$(echo "$v" | sed 's/:/%3a/')_$a.deb
	if [ ! -s "$f" ]; then
		echo "debfetch.sh: downloading $p $v ($suite)" >&2
		# shellcheck disable=SC2086
		(cd "$d/debs" && apt-get $apt -q download "$p=$v" >"$d/download.log" 2>&1) ||
			{ cat "$d/download.log" >&2; exit 1; }
	fi
	[ -s "$f" ] || { echo "debfetch.sh: $f missing after download" >&2; exit 1; }
	echo "$f"
done
