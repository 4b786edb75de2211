#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The daemons a Raspberry Pi OS board runs beside vlc0, for the chatter
# scenario: Debian 12's network-manager, avahi-daemon and dbus-daemon,
# fetched by debfetch.sh with the libraries they need that the machine
# lacks, and unpacked once into a private prefix under $VLC_CACHE. The
# QEMU guest sees the host's root, so it runs them from there. Nothing
# is installed and no service starts on the host.
#
#   daemons.sh    print the prefix: PREFIX/usr/sbin/NetworkManager,
#                 PREFIX/usr/sbin/avahi-daemon, PREFIX/usr/bin/dbus-daemon,
#                 their libraries in PREFIX/usr/lib/<multiarch>

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
suite=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release)
roots="network-manager avahi-daemon dbus-daemon"
cache=${VLC_CACHE:-/var/cache/linux-vlc}
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/linux-vlc
	mkdir -p "$cache"
fi
export VLC_CACHE="$cache"

installed() {
	case "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" in
	*"install ok installed"*) return 0 ;;
	esac
	return 1
}

# The roots, then every library package they depend on (first of each
# alternative) that the machine does not have, and so on down.
debs=""
seen=" "
todo=$roots
while [ -n "$todo" ]; do
	new=""
	for p in $todo; do
		case "$seen" in *" $p "*) continue ;; esac
		seen="$seen$p "
		new="$new $p"
	done
	[ -n "$new" ] || break
	# shellcheck disable=SC2086
	level=$("$top/scripts/debfetch.sh" "$suite" $new)
	debs="$debs $level"
	todo=$(for deb in $level; do
		dpkg-deb -f "$deb" Depends Pre-Depends |
		sed 's/^[A-Za-z-]*://' | tr ',' '\n' |
		sed 's/|.*//; s/(.*//; s/:any//; s/[[:space:]]//g'
	done | sort -u | while read -r d; do
		case "$d" in lib*) installed "$d" || echo "$d" ;; esac
	done)
done

key=$(for d in $debs; do basename "$d"; done | sort | sha256sum | cut -c1-12)
prefix=$cache/daemons-$key
exec 9>"$cache/.lock-daemons"
flock 9
if [ ! -f "$prefix/.unpacked" ]; then
	echo "daemons.sh: unpacking$(for d in $debs; do printf ' %s' "$(dpkg-deb -f "$d" Package)"; done) into $prefix" >&2
	rm -rf "$prefix"
	for d in $debs; do
		dpkg-deb -x "$d" "$prefix"
	done
	lib=$(dirname "$(find "$prefix/usr/lib" -name 'libnm.so.0' | head -n 1)")
	for b in usr/sbin/NetworkManager usr/sbin/avahi-daemon usr/bin/dbus-daemon; do
		[ -x "$prefix/$b" ] || { echo "daemons.sh: no $b in $prefix" >&2; exit 1; }
		miss=$(LD_LIBRARY_PATH=$lib ldd "$prefix/$b" | sed -n 's/^[[:space:]]*\([^ ]*\) => not found/\1/p')
		[ -z "$miss" ] || { echo "daemons.sh: $b needs $(echo "$miss" | tr '\n' ' ')" >&2; exit 1; }
	done
	touch "$prefix/.unpacked"
fi
echo "$prefix"
