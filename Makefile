# SPDX-License-Identifier: GPL-2.0
#
# linux-vlc: visible-light networking for Linux.
#
#   make            build the modules for the running (or Debian's) kernel,
#                   and vlcctl (run-time tuning, build/<arch>/tools/vlcctl)
#   make install    install them (modules_install + depmod), the tools with
#                   their man pages, and the network files (tools/network)
#   make demo       two simulated boards ping each other over light, in QEMU
#   make hwtest     build/<arch>/tools/vlc-hwtest, the board wiring check
#                   (the system's libgpiod, 1.x or 2.x)
#   make check      every test; ends with "N passed, N failed"
#   make help       everything else

TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD ?= $(TOP)/build

# The kernel to build against: KDIR=<build tree>, or KERNEL=<series> (6.1,
# 6.12: Debian's generic linux-headers-<series>.*-amd64), else the running
# kernel's build tree, else Debian 12's 6.1: see scripts/kdir.sh, which
# says which it took. It is looked up when a recipe runs, after the
# dependency step may have installed it. make qemu-test and make demo boot
# the Debian kernel the modules were built for.
KERNEL ?=
KDIR_SH := KDIR="$(KDIR)" KERNEL="$(KERNEL)" $(TOP)/scripts/kdir.sh

HOSTARCH := $(shell uname -m | sed -e 's/aarch64/arm64/' -e 's/armv.*/arm/')
# Where the native modules are built (dkms.conf sets its own): one folder
# per kernel choice, so modules of two kernels never mix.
OUT ?= $(BUILD)/$(HOSTARCH)$(if $(KERNEL),-$(KERNEL))
override OUT := $(abspath $(OUT))
# The tools are user space: one build serves every kernel.
TOOLS_OUT := $(BUILD)/$(HOSTARCH)/tools
# The QEMU scenarios run with the modules of OUT.
export VLC_MODDIR := $(OUT)/drivers/net/vlc

# What the out-of-tree build enables; in a kernel tree Kconfig decides.
VLC_CONFIG := CONFIG_VLC=m CONFIG_VLC_SIM=m

export TOP BUILD VLC_CONFIG

.PHONY: all modules tools install clean deps cross lint kunit host qemu-test daemons ynl-ksrc wire \
	qemu-smoke install-test board-test docs-check \
	check demo bench dt dt-probe help hwtest hwtest-gpiod2 gpio-sim fuzz \
	fuzz-smoke stress stress-smoke

all: modules tools

# Each target tree gets its own copy of the sources under $(BUILD) so that
# native and cross objects never mix; rsync --checksum keeps mtimes of
# unchanged files, so rebuilds are incremental.
modules:
	@$(TOP)/scripts/deps.sh build
	@kd=$$($(KDIR_SH)) || { [ "$(HOSTARCH)" = x86_64 ] && \
		$(TOP)/scripts/deps.sh headers && kd=$$($(KDIR_SH)); } || \
		{ echo "no kernel build tree: install your kernel's headers" \
		"(Raspberry Pi OS: apt-get install linux-headers-rpi-v8," \
		"or linux-headers-\$$(uname -r)) or set KDIR=" >&2; exit 1; }; \
	$(TOP)/scripts/kbuild.sh $(HOSTARCH) "$$kd" $(OUT)
	@echo "modules: $$(ls $(OUT)/drivers/net/vlc/*.ko | tr '\n' ' ')"

# vlcctl, the run-time tuning tool (libmnl); the QEMU guest runs it from
# there.
tools:
	@$(TOP)/scripts/deps.sh tools
	@$(MAKE) -s -C $(TOP)/tools/vlcctl TOP=$(TOP) O=$(TOOLS_OUT)

# Modules (with depmod), vlcctl and vlc-hwtest with their man pages, the
# NetworkManager file that leaves vlc* alone, and an example
# systemd-networkd file with the sysctl.d file of vlc0's neighbour timers
# (networkd has no key for them); DESTDIR= stages them, PREFIX= places
# the tools.
PREFIX ?= /usr/local
install: modules tools hwtest
	@kd=$$($(KDIR_SH)); krel=$$($(TOP)/scripts/krelease.sh $$kd); \
	$(MAKE) -s -C $$kd M=$(OUT)/drivers/net/vlc $(VLC_CONFIG) \
		CONFIG_MODULE_SIG_ALL= \
		$(if $(DESTDIR),INSTALL_MOD_PATH=$(DESTDIR)) modules_install && \
	depmod -a $(if $(DESTDIR),-b $(DESTDIR)) $$krel
	install -D -m 0755 $(TOOLS_OUT)/vlcctl $(DESTDIR)$(PREFIX)/sbin/vlcctl
	install -D -m 0755 $(TOOLS_OUT)/vlc-hwtest $(DESTDIR)$(PREFIX)/sbin/vlc-hwtest
	install -D -m 0644 $(TOP)/tools/vlcctl/vlcctl.8 \
		$(DESTDIR)$(PREFIX)/share/man/man8/vlcctl.8
	install -D -m 0644 $(TOP)/tools/hwtest/vlc-hwtest.8 \
		$(DESTDIR)$(PREFIX)/share/man/man8/vlc-hwtest.8
	install -D -m 0644 $(TOP)/tools/network/90-linux-vlc.conf \
		$(DESTDIR)/etc/NetworkManager/conf.d/90-linux-vlc.conf
	install -D -m 0644 $(TOP)/tools/network/vlc0.network \
		$(DESTDIR)$(PREFIX)/share/doc/linux-vlc/examples/vlc0.network
	install -D -m 0644 $(TOP)/tools/network/90-vlc0-neigh.conf \
		$(DESTDIR)$(PREFIX)/share/doc/linux-vlc/examples/90-vlc0-neigh.conf

cross:
	@$(TOP)/scripts/deps.sh cross
	@$(TOP)/scripts/cross.sh

lint:
	@$(TOP)/scripts/deps.sh build cross lint
	@$(TOP)/scripts/lint.sh

kunit:
	@$(TOP)/scripts/deps.sh kunit
	@$(TOP)/tests/kunit/run.sh

# The cores' unit tests, and vlc-hwtest built against libgpiod 1.6 and 2
# and checked (tests/host/hwtest_gpiod.sh, which runs both builds).
host:
	@$(TOP)/scripts/deps.sh host hwtest gpiod2
	@$(MAKE) -s -C $(TOP)/tests/host check

# libFuzzer on the pure cores (tests/fuzz): FUZZ_TIME seconds per target;
# fuzz-smoke is the short run of make check.
FUZZ_TIME ?= 60

fuzz:
	@$(TOP)/scripts/deps.sh fuzz
	@$(MAKE) -s -C $(TOP)/tests/fuzz run FUZZ_TIME=$(FUZZ_TIME)

fuzz-smoke:
	@$(TOP)/scripts/deps.sh fuzz
	@$(MAKE) -s -C $(TOP)/tests/fuzz smoke

# Docs that cannot drift: figures as in the benchmarks, cited files,
# setting names, rst warning-free, the uAPI header as the YNL generator
# makes it from Documentation/netlink/specs/vlc.yaml (tests/docs/check.py,
# scripts/ynl-check.sh).
docs-check:
	@$(TOP)/scripts/deps.sh docs
	@python3 $(TOP)/tests/docs/check.py $(TOP)

dt:
	@$(TOP)/scripts/deps.sh dt
	@$(TOP)/tests/dt/run.sh

dt-probe:
	@$(TOP)/scripts/deps.sh probe
	@$(TOP)/tests/dt/arm64-probe.sh

# The Raspberry Pi path on the Pi's own GPIO driver: QEMU raspi3b (arm64)
# and raspi2b (armhf) with the shipped overlay, every receiver mode
# (tests/board/run.sh); a step of make check.
board-test:
	@$(TOP)/scripts/deps.sh probe board
	@$(TOP)/tests/board/run.sh

# The board stack carrying IP over vlc_wire.ko's GPIO chips: ping and TCP
# between two vlc-gpio devices on the PREEMPT_RT x86_64 and the arm64
# debug kernels (tests/wire/run.sh).
wire:
	@$(TOP)/scripts/deps.sh kunit probe
	@$(TOP)/tests/wire/run.sh

qemu-test: modules tools hwtest gpio-sim daemons ynl-ksrc
	@$(TOP)/scripts/deps.sh qemu
	@$(TOP)/tests/qemu/run-all.sh

# A smoke set of the scenarios on Debian's stock kernel of another series
# (SMOKE_KERNEL, default 6.12): the kernel a Debian 13 or an updated
# Raspberry Pi OS runs.
SMOKE_KERNEL ?= 6.12
SMOKE_SCENARIOS := link-up tcp-transfer flap-unload vlcctl
qemu-smoke:
	@$(TOP)/scripts/deps.sh qemu kernels
	@$(MAKE) -s -C $(TOP) KERNEL=$(SMOKE_KERNEL) modules tools
	@VLC_MODDIR=$(BUILD)/$(HOSTARCH)-$(SMOKE_KERNEL)/drivers/net/vlc \
		VLC_SCENARIOS="$(SMOKE_SCENARIOS)" VLC_QEMU_NAME=qemu-smoke \
		$(TOP)/tests/qemu/run-all.sh

# The stress scenario and macsec on the sanitizer kernel (KASAN, UBSAN,
# lockdep, kmemleak) of scripts/stress-kernel.sh, built on first use and
# cached; STRESS_ARGS sizes the run (tests/qemu/stress/stress.sh), e.g.
# STRESS_ARGS="reload=10 flaps=100". See vlc-stress.rst.
STRESS_ARGS ?=

stress:
	@$(TOP)/scripts/deps.sh kunit qemu
	@kd=$$($(TOP)/scripts/stress-kernel.sh) && \
	$(TOP)/tests/qemu/run.sh --kernel "$$kd" --timeout 10800 \
		$(TOP)/tests/qemu/stress/stress.sh $(STRESS_ARGS) && \
	$(TOP)/tests/qemu/run.sh --kernel "$$kd" --timeout 600 \
		$(TOP)/tests/qemu/scenarios/macsec.sh

# The same, reduced to fit a make check: 4 boards, 5 reloads, 50 flaps,
# 1 removal, 2 netns deletions; no MACsec. Sizes in vlc-stress.rst.
STRESS_SMOKE_ARGS := nodes=4 pings=2 tcp=300 reload=5 flaps=50 removals=1 \
	netns=2
stress-smoke:
	@$(TOP)/scripts/deps.sh kunit qemu
	@kd=$$($(TOP)/scripts/stress-kernel.sh) && \
	$(TOP)/tests/qemu/run.sh --kernel "$$kd" --timeout 2400 \
		--out $(BUILD)/qemu/stress-smoke \
		$(TOP)/tests/qemu/stress/stress.sh $(STRESS_SMOKE_ARGS)

# dkms build and make install DESTDIR= of a copy of the tree, on the host
# (tests/install/run.sh).
install-test:
	@$(TOP)/scripts/deps.sh build tools hwtest install
	@$(TOP)/tests/install/run.sh

check:
	@$(TOP)/scripts/deps.sh all
	@$(TOP)/scripts/check.sh

demo: modules
	@$(TOP)/scripts/deps.sh qemu
	@$(TOP)/tests/qemu/run.sh --show $(TOP)/tests/qemu/scenarios/demo.sh

bench:
	@$(TOP)/scripts/deps.sh host bench
	@$(TOP)/tools/bench/run.sh

# The wiring check for real boards (tools/hwtest, libgpiod).
hwtest:
	@$(TOP)/scripts/deps.sh hwtest
	@$(MAKE) -s -C $(TOP)/tools/hwtest O=$(TOOLS_OUT)

# The same source against libgpiod 2 on Debian 12, which has only 1.6:
# build/<arch>/tools/vlc-hwtest-gpiod2, on Debian 13's libgpiod-dev and
# libgpiod3 unpacked into a private prefix (scripts/libgpiod2.sh, or
# GPIOD2_PREFIX=), with an rpath into it: a test build, not installed.
GPIOD2_PREFIX ?=
hwtest-gpiod2:
	@$(TOP)/scripts/deps.sh hwtest gpiod2
	@p="$(GPIOD2_PREFIX)"; [ -n "$$p" ] || p=$$($(TOP)/scripts/libgpiod2.sh) && \
	pc=$$(find "$$p/usr/lib" -path '*/pkgconfig/libgpiod.pc' | head -n 1) && \
	lib=$$(dirname "$$(dirname "$$pc")") && \
	v=$$(PKG_CONFIG_LIBDIR=$$(dirname "$$pc") pkg-config --modversion libgpiod) && \
	$(MAKE) -s -C $(TOP)/tools/hwtest O=$(TOOLS_OUT) NAME=vlc-hwtest-gpiod2 \
		GPIOD_VERSION="$$v" GPIOD_CFLAGS="-I$$p/usr/include" \
		GPIOD_LIBS="-L$$lib -Wl,-rpath,$$lib -lgpiod"

# Debian 12's NetworkManager, avahi-daemon and dbus-daemon unpacked into
# a private prefix in the cache (scripts/daemons.sh), linked as
# build/<arch>/daemons, for the chatter scenario. Nothing is installed.
daemons:
	@$(TOP)/scripts/deps.sh daemons
	@p=$$($(TOP)/scripts/daemons.sh) && mkdir -p $(OUT) && ln -sfn "$$p" $(OUT)/daemons

# The kernel source whose YNL tools (tools/net/ynl) scripts/ynl-check.sh
# runs, linked as build/ynl-ksrc for the ynl scenario: the guest runs the
# YNL CLI from there.
ynl-ksrc:
	@$(TOP)/scripts/deps.sh docs
	@s=$$($(TOP)/scripts/ynl-check.sh --src) && mkdir -p $(BUILD) && ln -sfn "$$s" $(BUILD)/ynl-ksrc

# gpio-sim.ko, which Debian's kernel lacks, for the hwtest QEMU scenario.
gpio-sim:
	@$(TOP)/scripts/deps.sh headers gpiosim
	@$(TOP)/tools/hwtest/gpio-sim.sh "$$($(KDIR_SH))" $(OUT)/gpio-sim

clean:
	rm -rf $(BUILD)
	$(MAKE) -s -C $(TOP)/tests/host clean

help:
	@sed -n 's/^#   //p' $(TOP)/Makefile
	@echo "  make cross      build for arm64 and armhf against 6.1, 6.12 and 7.3"
	@echo "                  (trees cached in /var/cache/linux-vlc)"
	@echo "  make lint       checkpatch --strict, W=1 and sparse on x86_64, arm64, armhf,"
	@echo "                  against 6.1, 6.12 and 7.3 (scripts/kernels)"
	@echo "  make kunit      KUnit in QEMU with UBSAN/lockdep: x86_64 on 6.1 (KASAN) and"
	@echo "                  7.3 (PREEMPT_RT), arm64 on 6.12 (KASAN)"
	@echo "  make host       the pure PHY/MAC cores' unit tests on the host (cmocka),"
	@echo "                  and vlc-hwtest's libgpiod 1.6 and 2 builds checked"
	@echo "  make hwtest-gpiod2  vlc-hwtest against Debian 13's libgpiod 2, unpacked"
	@echo "                  in the cache (build/<arch>/tools/vlc-hwtest-gpiod2)"
	@echo "  make fuzz       libFuzzer+ASan+UBSan on the MAC, PHY and parameter checks,"
	@echo "                  FUZZ_TIME=60 s per target; make fuzz-smoke: 10 s each"
	@echo "  make tools      vlcctl as build/<arch>/tools/vlcctl (needs libmnl-dev)"
	@echo "  make qemu-test  end-to-end scenarios in a QEMU guest"
	@echo "  make daemons    Debian's NetworkManager and avahi-daemon for the chatter"
	@echo "                  scenario, unpacked in the cache (build/<arch>/daemons)"
	@echo "  make ynl-ksrc   link the kernel source whose YNL CLI the ynl scenario runs"
	@echo "                  (build/ynl-ksrc)"
	@echo "  make qemu-smoke four scenarios on Debian's stock 6.12 (SMOKE_KERNEL=)"
	@echo "  make stress     stress scenario on a KASAN/UBSAN/lockdep/kmemleak kernel"
	@echo "  make stress-smoke  the same, reduced (4 boards, 5 reloads, 50 flaps)"
	@echo "  make dt         binding, overlays and merged DTBs checked with dtc/fdtoverlay/dt-schema"
	@echo "  make docs-check docs against the code and the benchmarks (tests/docs/check.py),"
	@echo "                  the uAPI header against the YNL spec (scripts/ynl-check.sh)"
	@echo "  make dt-probe   arm64 QEMU: vlc-gpio probes from DT on gpio-sim lines"
	@echo "  make wire       two vlc-gpio devices ping over simulated light on GPIO"
	@echo "                  chips: x86_64 PREEMPT_RT and arm64 debug kernels"
	@echo "  make install-test  dkms build and make install DESTDIR=, checked"
	@echo "  make board-test QEMU raspi3b and raspi2b: vlc0 from the overlay on"
	@echo "                  pinctrl-bcm2835, every receiver mode, lockdep on"
	@echo "  make bench      measure; writes the tables and figures that"
	@echo "                  Documentation/networking/vlc-benchmarks.rst includes"
	@echo "  variables: KERNEL=<series: 6.1, 6.12> KDIR=<kernel build dir>"
	@echo "             BUILD=<object dir> VLC_CACHE=<cache dir>"
