// SPDX-License-Identifier: GPL-2.0
/* Helpers of the device-tree guests' /init programs (guest.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/ethtool.h>
#include <linux/genetlink.h>
#include <linux/gpio.h>
#include <linux/netlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"
#include "../../include/uapi/linux/vlc.h"

const char *guest_prefix = "guest";
int guest_passed, guest_failed;

void check(int ok, const char *what)
{
	printf("%s: %s %s\n", guest_prefix, ok ? "ok  " : "FAIL", what);
	fflush(stdout);
	if (ok)
		guest_passed++;
	else
		guest_failed++;
}

/* The whole file, up to @len - 1 bytes: debugfs hands out a page a read. */
int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	size_t got = 0;
	ssize_t n = 0;

	if (fd < 0)
		return -1;
	while (got < len - 1 && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += n;
	close(fd);
	if (n < 0)
		return -1;
	buf[got] = '\0';
	return got;
}

int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

int set_up(const char *ifname, int up)
{
	struct ifreq ifr;
	int s = socket(AF_UNIX, SOCK_DGRAM, 0), err;

	if (s < 0)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	err = ioctl(s, SIOCGIFFLAGS, &ifr);
	if (!err) {
		if (up)
			ifr.ifr_flags |= IFF_UP;
		else
			ifr.ifr_flags &= ~IFF_UP;
		err = ioctl(s, SIOCSIFFLAGS, &ifr);
	}
	close(s);
	return err;
}

void mount_all(void)
{
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
}

/* gpiolib's debugfs text of the chip whose header names @chip, or "". */
static void chip_section(const char *chip, char *out, size_t len)
{
	char b[16384], *s, *e;

	out[0] = '\0';
	if (read_file("/sys/kernel/debug/gpio", b, sizeof(b)) < 0)
		return;
	s = strstr(b, chip);
	if (!s)
		return;
	e = strstr(s, "\ngpiochip");
	if (e)
		*e = '\0';
	snprintf(out, len, "%s", s);
}

/* The consumers of the lines the kernel holds on the chip whose label
 * contains @chip, as "OFFSET|CONSUMER |" a line, from the GPIO character
 * device (its node made here: the guests have no devtmpfs).
 */
void chip_consumers(const char *chip, char *out, size_t len)
{
	struct gpiochip_info ci;
	struct gpioline_info li;
	char path[300], b[32];
	struct dirent *de;
	unsigned int maj, min, i;
	size_t n = 0;
	DIR *d = opendir("/sys/bus/gpio/devices");
	int fd;

	out[0] = '\0';
	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "gpiochip", 8))
			continue;
		snprintf(path, sizeof(path), "/sys/bus/gpio/devices/%s/dev",
			 de->d_name);
		if (read_file(path, b, sizeof(b)) <= 0 ||
		    sscanf(b, "%u:%u", &maj, &min) != 2)
			continue;
		snprintf(path, sizeof(path), "/dev/%s", de->d_name);
		mknod(path, S_IFCHR | 0600, makedev(maj, min));
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		if (!ioctl(fd, GPIO_GET_CHIPINFO_IOCTL, &ci) &&
		    strstr(ci.label, chip)) {
			for (i = 0; i < ci.lines && n < len; i++) {
				memset(&li, 0, sizeof(li));
				li.line_offset = i;
				if (ioctl(fd, GPIO_GET_LINEINFO_IOCTL, &li) ||
				    !(li.flags & GPIOLINE_FLAG_KERNEL))
					continue;
				n += snprintf(out + n, n < len ? len - n : 0,
					      "%u|%s |\n", i, li.consumer);
			}
		}
		close(fd);
	}
	if (d)
		closedir(d);
}

/* The interface with MAC address @mac, into @name. */
int ifname_by_mac(const char *mac, char *name, size_t len)
{
	char path[300], b[64];
	struct dirent *de;
	DIR *d = opendir("/sys/class/net");
	int found = 0;

	name[0] = '\0';
	while (d && (de = readdir(d))) {
		snprintf(path, sizeof(path), "/sys/class/net/%s/address",
			 de->d_name);
		if (read_file(path, b, sizeof(b)) > 0 && !strncmp(b, mac, 17)) {
			snprintf(name, len, "%.15s", de->d_name);
			found = 1;
		}
	}
	if (d)
		closedir(d);
	return found;
}

/* Interrupts counted for @name in /proc/interrupts, -1 if none. */
long irq_count(const char *name)
{
	char b[16384], *l, *e;
	long n = 0;
	int cpu;

	if (read_file("/proc/interrupts", b, sizeof(b)) < 0)
		return -1;
	for (l = b; l && *l; l = e ? e + 1 : NULL) {
		e = strchr(l, '\n');
		if (e)
			*e = '\0';
		if (!strstr(l, name))
			continue;
		l = strchr(l, ':');
		for (cpu = 0; l && cpu < 2; cpu++)
			n += strtol(l + 1, &l, 10);
		return n;
	}
	return -1;
}

/* The ethtool -S counter @name of @ifname, or -1. */
long long ethtool_stat(const char *ifname, const char *name)
{
	struct {
		struct ethtool_sset_info hdr;
		__u32 len;
	} sset = { { .cmd = ETHTOOL_GSSET_INFO,
		     .sset_mask = 1ULL << ETH_SS_STATS } };
	struct ethtool_gstrings *str = NULL;
	struct ethtool_stats *st = NULL;
	struct ifreq ifr = { 0 };
	long long v = -1;
	__u32 i, n;
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&sset;
	if (fd < 0 || ioctl(fd, SIOCETHTOOL, &ifr) || !sset.hdr.sset_mask)
		goto out;
	n = sset.len;
	str = calloc(1, sizeof(*str) + n * ETH_GSTRING_LEN);
	st = calloc(1, sizeof(*st) + n * sizeof(__u64));
	if (!str || !st)
		goto out;
	str->cmd = ETHTOOL_GSTRINGS;
	str->string_set = ETH_SS_STATS;
	str->len = n;
	ifr.ifr_data = (void *)str;
	if (ioctl(fd, SIOCETHTOOL, &ifr))
		goto out;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = n;
	ifr.ifr_data = (void *)st;
	if (ioctl(fd, SIOCETHTOOL, &ifr))
		goto out;
	for (i = 0; i < n; i++)
		if (!strncmp((char *)str->data + i * ETH_GSTRING_LEN, name,
			     ETH_GSTRING_LEN))
			v = (long long)st->data[i];
out:
	free(str);
	free(st);
	if (fd >= 0)
		close(fd);
	return v;
}

/* Append attribute @type of @len bytes at @off of the message in @b. */
static int nl_put(char *b, int off, int type, const void *data, int len)
{
	struct nlattr *a = (struct nlattr *)(b + off);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy(b + off + NLA_HDRLEN, data, len);
	return off + NLA_ALIGN(a->nla_len);
}

/* Send the @len bytes of the request in @b on @s; its answer replaces it.
 * Return: the answer's length, 0 for an acknowledgment, or -errno.
 */
static int nl_talk(int s, char *b, int len, int size)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct nlmsghdr *h = (struct nlmsghdr *)b;
	int n;

	h->nlmsg_len = len;
	if (sendto(s, b, len, 0, (struct sockaddr *)&sa, sizeof(sa)) != len)
		return -errno;
	n = recv(s, b, size, 0);
	if (n < (int)NLMSG_HDRLEN)
		return n < 0 ? -errno : -EIO;
	if (h->nlmsg_type == NLMSG_ERROR)
		return ((struct nlmsgerr *)NLMSG_DATA(h))->error;
	return n;
}

/* A request of generic netlink command @cmd to family @family in @b. */
static int genl_begin(char *b, int size, int family, int cmd, int version,
		      int flags)
{
	struct nlmsghdr *h = (struct nlmsghdr *)b;
	struct genlmsghdr *g = NLMSG_DATA(h);

	memset(b, 0, size);
	h->nlmsg_type = family;
	h->nlmsg_flags = NLM_F_REQUEST | flags;
	g->cmd = cmd;
	g->version = version;
	return NLMSG_HDRLEN + GENL_HDRLEN;
}

/* The id of the generic netlink family @name, or -errno. */
static int genl_family(int s, const char *name)
{
	char b[4096];
	int off, n;

	off = genl_begin(b, sizeof(b), GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0);
	off = nl_put(b, off, CTRL_ATTR_FAMILY_NAME, name, strlen(name) + 1);
	n = nl_talk(s, b, off, sizeof(b));
	if (n <= 0)
		return n ? n : -EIO;
	for (off = NLMSG_HDRLEN + GENL_HDRLEN; off + NLA_HDRLEN <= n;) {
		struct nlattr *a = (struct nlattr *)(b + off);

		if (a->nla_len < NLA_HDRLEN)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID)
			return *(unsigned short *)(b + off + NLA_HDRLEN);
		off += NLA_ALIGN(a->nla_len);
	}
	return -ENOENT;
}

/* VLC_CMD_SET of the u32 attribute @attr of @ifname, in the caller's
 * network namespace, as vlcctl set does: 0 or -errno.
 */
int vlc_set_u32(const char *ifname, int attr, unsigned int v)
{
	unsigned int ifindex = if_nametoindex(ifname);
	int s, fam, off, r;
	char b[4096];

	if (!ifindex)
		return -ENODEV;
	s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (s < 0)
		return -errno;
	fam = genl_family(s, VLC_GENL_NAME);
	if (fam < 0) {
		close(s);
		return fam;
	}
	off = genl_begin(b, sizeof(b), fam, VLC_CMD_SET, VLC_GENL_VERSION,
			 NLM_F_ACK);
	off = nl_put(b, off, VLC_ATTR_IFINDEX, &ifindex, sizeof(ifindex));
	off = nl_put(b, off, attr, &v, sizeof(v));
	r = nl_talk(s, b, off, sizeof(b));
	close(s);
	return r > 0 ? -EIO : r;
}

/* The line of @b, from its start, whose consumer field reads "|@label "
 * (chip_section() and chip_consumers() both write them so), or NULL.
 */
static char *label_line(char *b, const char *label)
{
	char key[64], *l;

	snprintf(key, sizeof(key), "|%s ", label);
	l = strstr(b, key);
	if (!l)
		return NULL;
	while (l > b && l[-1] != '\n')
		l--;
	return l;
}

/* The offset on @chip of the line the driver requested as @label, or -1. */
int line_offset(const char *chip, const char *label)
{
	char b[8192], *l;

	chip_consumers(chip, b, sizeof(b));
	l = label_line(b, label);
	return l ? atoi(l) : -1;
}

/* The level of the line of @chip that the driver requested as @label
 * ("tx"): 1, 0, or -1 if it is not requested. An MMIO chip's line held by
 * the kernel has no other place to read it from.
 */
int line_level(const char *chip, const char *label)
{
	char b[16384], *l;

	chip_section(chip, b, sizeof(b));
	l = label_line(b, label);
	if (!l)
		return -1;
	if (strchr(l, '\n'))
		*strchr(l, '\n') = '\0';
	if (strstr(l, " hi"))
		return 1;
	return strstr(l, " lo") ? 0 : -1;
}

/* Sample that line for about @ms; count the levels seen. The pauses
 * between samples are random, 1 to 3 ms, so that the samples do not fall
 * in step with the driver's slot timers.
 */
void sample_line(const char *chip, const char *label, int ms, int *lo,
		 int *hi)
{
	struct timespec d = { 0, 0 };
	struct timespec t0, t;
	unsigned int r;
	int v;

	*lo = *hi = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = (unsigned int)t0.tv_nsec;
	do {
		v = line_level(chip, label);
		if (v == 1)
			(*hi)++;
		else if (v == 0)
			(*lo)++;
		r = r * 1103515245u + 12345u;
		d.tv_nsec = 1000000 + (r >> 8) % 2000000;
		nanosleep(&d, NULL);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 +
		 (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

/* insmod @path with parameters @args ("" for none); 0 or -1 */
int load_module(const char *path, const char *args)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int r;

	if (fd < 0)
		return -1;
	r = syscall(SYS_finit_module, fd, args, 0);
	close(fd);
	return r ? -1 : 0;
}

/* rmmod @name; 0 or -1 */
int unload_module(const char *name)
{
	return syscall(SYS_delete_module, name, O_NONBLOCK) ? -1 : 0;
}

/* The closing line the host counts, then end the guest. */
void finish(void)
{
	printf("%s: %d passed, %d failed\n", guest_prefix, guest_passed,
	       guest_failed);
	fflush(stdout);
	sync();
	/* Every guest runs with -no-reboot, so a reboot ends QEMU, also on
	 * a kernel without a power-off driver (x86 without ACPI sleep).
	 */
	reboot(RB_AUTOBOOT);
}
