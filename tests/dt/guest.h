/* SPDX-License-Identifier: GPL-2.0 */
/* What the static /init programs of the device-tree guests share
 * (probe-init.c on QEMU virt, board-init.c on QEMU raspi3b and raspi2b,
 * tests/wire/wire-init.c on both QEMU virt machines):
 * one line per check under a prefix, sysfs and debugfs reads, an
 * interface up or down, the level of a GPIO line the driver holds, read
 * from gpiolib's debugfs, vlc_gpio.ko loaded and removed, and a setting
 * changed through the driver's generic netlink family.
 */
#ifndef VLC_GUEST_H
#define VLC_GUEST_H

#include <stddef.h>

extern const char *guest_prefix;
extern int guest_passed, guest_failed;

void check(int ok, const char *what);
int read_file(const char *path, char *buf, size_t len);
int write_file(const char *path, const char *s);
int exists(const char *path);
int set_up(const char *ifname, int up);
void mount_all(void);
void chip_consumers(const char *chip, char *out, size_t len);
int ifname_by_mac(const char *mac, char *name, size_t len);
long irq_count(const char *name);
long long ethtool_stat(const char *ifname, const char *name);
int vlc_set_u32(const char *ifname, int attr, unsigned int v);
int line_offset(const char *chip, const char *label);
int line_level(const char *chip, const char *label);
void sample_line(const char *chip, const char *label, int ms, int *lo,
		 int *hi);
int load_module(const char *path, const char *args);
int unload_module(const char *name);
void finish(void);

#endif
