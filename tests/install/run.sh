#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The maker's install path on the host, against Debian 12's 6.1 headers:
#   - dkms builds all three modules from a copy of the tree (dkms.conf),
#     in a dkms and source tree of its own, and never calls apt or dpkg
#     (dpkg holds their lock while dkms runs in a kernel upgrade);
#   - make install DESTDIR=... lays down the modules (with depmod), the
#     tools, their man pages and the network files (the neighbour
#     timers of vlc.rst in the sysctl.d file beside vlc0.network).
# Ends with "install: N passed, N failed".

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
kd=$(KDIR= KERNEL=6.1 KDIR_QUIET=1 "$top/scripts/kdir.sh") ||
	{ echo "install: FAIL no Debian 6.1 headers"; echo "install: 0 passed, 1 failed"; exit 1; }
krel=$("$top/scripts/krelease.sh" "$kd")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { echo "install: ok   $*"; passed=$((passed + 1)); }
ko() { echo "install: FAIL $*"; failed=$((failed + 1)); }

# Package managers that only say they were called.
mkdir -p "$tmp/bin"
for p in apt apt-get dpkg dpkg-query; do
	printf '#!/bin/sh\necho "%s $*" >>%s/called\nexit 1\n' "$p" "$tmp" >"$tmp/bin/$p"
	chmod +x "$tmp/bin/$p"
done

src=$tmp/src/linux-vlc-0.1
mkdir -p "$src" "$tmp/dkms"
(cd "$top" && git ls-files -z | xargs -0 tar cf - 2>/dev/null) | tar -C "$src" -xf - ||
	cp -a "$top/." "$src/"
rm -rf "$src/build"
dk="dkms --dkmstree $tmp/dkms --sourcetree $tmp/src"
if PATH=$tmp/bin:$PATH $dk build -m linux-vlc -v 0.1 -k "$krel" \
	--kernelsourcedir "$kd" >"$tmp/dkms.log" 2>&1; then
	ok "dkms build against $krel"
else
	ko "dkms build against $krel"
	tail -n 30 "$tmp/dkms.log" | sed 's/^/  | /'
	find "$tmp/dkms" -name make.log -exec tail -n 20 {} \; | sed 's/^/  | /'
fi
for m in vlc vlc_sim vlc_gpio; do
	if [ -n "$(find "$tmp/dkms/linux-vlc/0.1/$krel" -name "$m.ko*" 2>/dev/null)" ]; then
		ok "dkms built $m.ko"
	else
		ko "dkms did not build $m.ko"
	fi
done
if [ -s "$tmp/called" ]; then
	ko "the dkms build called: $(tr '\n' ';' <"$tmp/called")"
else
	ok "the dkms build called no package manager"
fi

root=$tmp/root
if make -s -C "$top" KDIR="$kd" DESTDIR="$root" PREFIX=/usr/local install \
	>"$tmp/make-install.log" 2>&1; then
	ok "make install DESTDIR=..."
else
	ko "make install DESTDIR=..."
	tail -n 20 "$tmp/make-install.log" | sed 's/^/  | /'
fi
for m in vlc vlc_sim vlc_gpio; do
	f=$(find "$root/lib/modules/$krel" -name "$m.ko*" 2>/dev/null | head -n 1)
	if [ -n "$f" ] && grep -q "/$m.ko" "$root/lib/modules/$krel/modules.dep" 2>/dev/null; then
		ok "module $m in ${f#"$root"}, in modules.dep"
	else
		ko "module $m not installed or not in modules.dep"
	fi
done
for f in /usr/local/sbin/vlcctl /usr/local/sbin/vlc-hwtest \
	 /usr/local/share/man/man8/vlcctl.8 /usr/local/share/man/man8/vlc-hwtest.8 \
	 /etc/NetworkManager/conf.d/90-linux-vlc.conf \
	 /usr/local/share/doc/linux-vlc/examples/vlc0.network \
	 /usr/local/share/doc/linux-vlc/examples/90-vlc0-neigh.conf; do
	if [ -s "$root$f" ]; then ok "$f"; else ko "$f missing"; fi
done
# The neighbour timers vlc.rst ("Queueing and neighbour resolution")
# recommends, which systemd-networkd 252 has no key for: in the sysctl.d
# file beside vlc0.network, at the value vlc.rst gives, and named by
# vlc0.network so that who copies one finds the other.
ex=$root/usr/local/share/doc/linux-vlc/examples
want=$(sed -n 's/.*net\.ipv4\.neigh\.vlc0\.retrans_time_ms=\([0-9][0-9]*\).*/\1/p' \
	"$top/Documentation/networking/vlc.rst" | head -n 1)
[ -n "$want" ] || ko "vlc.rst recommends no net.ipv4.neigh.vlc0.retrans_time_ms"
for v in 4 6; do
	k=net.ipv$v.neigh.vlc0.retrans_time_ms
	got=$(sed -n "s/^[[:space:]]*${k}[[:space:]]*=[[:space:]]*\([0-9]*\)[[:space:]]*\$/\1/p" \
		"$ex/90-vlc0-neigh.conf" 2>/dev/null)
	if [ -n "$want" ] && [ "$got" = "$want" ]; then
		ok "90-vlc0-neigh.conf sets $k = $want, as vlc.rst recommends"
	else
		ko "90-vlc0-neigh.conf: $k is '${got:-unset}', vlc.rst says '${want:-?}'"
	fi
	if grep -q "^#.*$k" "$ex/vlc0.network" 2>/dev/null; then
		ok "vlc0.network names $k"
	else
		ko "vlc0.network does not name $k"
	fi
done
bad=$(grep -v -E '^[[:space:]]*([#;]|$)|^-?[a-z0-9_./*-]+[[:space:]]*=[[:space:]]*[^[:space:]]' \
	"$ex/90-vlc0-neigh.conf" 2>/dev/null)
if [ -z "$bad" ]; then
	ok "90-vlc0-neigh.conf: every line a comment or key = value (sysctl.d(5))"
else
	ko "90-vlc0-neigh.conf: not sysctl.d(5): $bad"
fi
if grep -q "90-vlc0-neigh.conf" "$ex/vlc0.network" 2>/dev/null; then
	ok "vlc0.network names 90-vlc0-neigh.conf"
else
	ko "vlc0.network does not name 90-vlc0-neigh.conf"
fi
for m in vlcctl vlc-hwtest; do
	if man -l "$root/usr/local/share/man/man8/$m.8" >/dev/null 2>"$tmp/man.err" &&
	   [ ! -s "$tmp/man.err" ]; then
		ok "man page $m.8 renders"
	else
		ko "man page $m.8: $(cat "$tmp/man.err")"
	fi
done
echo "install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
