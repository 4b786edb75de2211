// SPDX-License-Identifier: GPL-2.0
/* /init of the Raspberry Pi board test (tests/board/run.sh), on QEMU
 * raspi3b or raspi2b with the board's own GPIO driver, pinctrl-bcm2835:
 * vlc0 has probed from the shipped overlay; turn forward error
 * correction on (fec auto), bring it up, let it run its frames, read its
 * TX line back from the GPIO controller and compare the light it gives
 * with the brightness asked for; then down, unbind, bind and rmmod with
 * the link up. The kernel log is the host's to check. The
 * kernel command line carries "vlc_board=MODE,BRIGHTNESS,SECONDS,MAC".
 * Ends with "board: N passed, N failed" and powers off.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"
#include "../../include/uapi/linux/vlc.h"

#define CHIP	"pinctrl-bcm2835"
#define DRV	"/sys/bus/platform/drivers/vlc-gpio/"

/* The vlc-gpio device bound to the overlay's node, into @dev. */
static int bound_device(char *dev, size_t len)
{
	glob_t g;
	int found = 0;

	dev[0] = '\0';
	if (!glob(DRV "*vlc*", 0, NULL, &g) && g.gl_pathc) {
		snprintf(dev, len, "%s", strrchr(g.gl_pathv[0], '/') + 1);
		found = 1;
	}
	globfree(&g);
	return found;
}

static int wait_for(const char *path, int seconds)
{
	struct timespec d = { 0, 100000000 };
	int i;

	for (i = 0; i < seconds * 10 && !exists(path); i++)
		nanosleep(&d, NULL);
	return exists(path);
}

/* The BCM2835 GPIO block's first pin level register (GPLEV0). */
#define GPLEV0	0x34

/* Physical address of the GPIO block, from /proc/iomem; 0 if not found. */
static unsigned long gpio_block(void)
{
	char b[16384], *l;
	unsigned long start = 0;

	if (read_file("/proc/iomem", b, sizeof(b)) < 0)
		return 0;
	l = strstr(b, "gpio@7e200000");
	if (!l)
		return 0;
	while (l > b && l[-1] != '\n')
		l--;
	return sscanf(l, " %lx-", &start) == 1 ? start : 0;
}

/* Sample the level of @pin (< 32) straight from the controller's level
 * register for @ms, at random pauses of 0.5 to 1.5 ms, counting the
 * levels seen. A debugfs read takes tens of milliseconds in the kernel
 * under TCG, holding off the executor's thread (PREEMPT_NONE), and a
 * sampler that never pauses does the same: either skews the duty it
 * measures. -1 without /dev/mem or if the pauses fail.
 */
static int sample_pin(unsigned int pin, int ms, long *lo, long *hi)
{
	struct timespec d = { 0, 0 }, t0, t;
	unsigned long base = gpio_block();
	unsigned int *regs;
	unsigned int r;
	int fd, ret = 0;

	*lo = *hi = 0;
	mknod("/mem", S_IFCHR | 0600, makedev(1, 1));
	fd = open("/mem", O_RDONLY | O_SYNC);
	if (!base || pin >= 32 || fd < 0)
		return -1;
	regs = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, base);
	close(fd);
	if (regs == MAP_FAILED)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = (unsigned int)t0.tv_nsec;
	do {
		/* an atomic load is never elided or merged: a fresh read */
		if (__atomic_load_n(&regs[GPLEV0 / 4], __ATOMIC_RELAXED) &
		    (1u << pin))
			(*hi)++;
		else
			(*lo)++;
		r = r * 1103515245u + 12345u;
		d.tv_nsec = 500000 + (r >> 8) % 1000000;
		if (nanosleep(&d, NULL) && errno != EINTR) {
			ret = -1;	/* ENOSYS: see tests/board/armhf.config */
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 +
		 (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	munmap((void *)regs, 4096);
	return ret;
}

int main(void)
{
	char cmd[1024], mode[16] = "led", dev[128], b[8192], msg[200];
	char mac[18] = "", addr[64];
	int brightness = 200, seconds = 10, pin;
	long lo = 0, hi = 0;
	const char *p;
	double duty, want;

	guest_prefix = "board";
	mount_all();
	p = read_file("/proc/cmdline", cmd, sizeof(cmd)) > 0 ?
	    strstr(cmd, "vlc_board=") : NULL;
	if (p)
		sscanf(p, "vlc_board=%15[a-z],%d,%d,%17[0-9a-f:]", mode,
		       &brightness, &seconds, mac);
	printf("board: receiver %s, brightness %d, %d s of frames\n", mode,
	       brightness, seconds);

	check(load_module("/vlc_gpio.ko", "") == 0, "insmod vlc_gpio.ko");
	check(wait_for("/sys/class/net/vlc0", 30) && bound_device(dev, sizeof(dev)),
	      "vlc0 probed from the overlay, bound to vlc-gpio");
	chip_consumers(CHIP, b, sizeof(b));
	fputs(b, stdout);
	check(!!strstr(b, "|tx "), "TX line requested on " CHIP);
	snprintf(msg, sizeof(msg),
		 "vlc0's MAC address is %s, from the overlay's mac_hi, mac_lo",
		 mac);
	check(read_file("/sys/class/net/vlc0/address", addr, sizeof(addr)) > 0 &&
	      !strncmp(addr, mac, 17) && mac[0], msg);
	check(!!strstr(b, strcmp(mode, "led") ? "|rx " : "|led-cathode "),
	      "receiver line requested on " CHIP);

	/* the codecs are made at ndo_open and freed at ndo_stop */
	check(!vlc_set_u32("vlc0", VLC_ATTR_FEC, VLC_FEC_AUTO),
	      "fec auto: forward error correction on");
	check(set_up("vlc0", 1) == 0, "ip link set vlc0 up");
	pin = line_offset(CHIP, "tx");
	check(pin >= 0 && sample_pin(pin, seconds * 1000, &lo, &hi) == 0,
	      "TX pin sampled from the controller's level register (/dev/mem), with pauses");
	duty = lo + hi ? (double)hi / (lo + hi) : 0;
	want = brightness / 1000.0;
	snprintf(msg, sizeof(msg),
		 "TX line read back from the GPIO controller: lit %.3f of %ld samples, brightness asks %.3f (+-0.05)",
		 duty, lo + hi, want);
	check(lo + hi >= 1000 && duty > want - 0.05 && duty < want + 0.05,
	      msg);
	printf("board: PHY frames %lld, late slots %lld, overruns %lld\n",
	       ethtool_stat("vlc0", "phy_frames"),
	       ethtool_stat("vlc0", "phy_late"),
	       ethtool_stat("vlc0", "phy_overruns"));
	check(set_up("vlc0", 0) == 0, "ip link set vlc0 down");

	check(dev[0] && write_file(DRV "unbind", dev) == 0, "unbind");
	check(!exists("/sys/class/net/vlc0"), "vlc0 gone after unbind");
	chip_consumers(CHIP, b, sizeof(b));
	check(!strstr(b, "|tx "), "TX line released after unbind");
	check(dev[0] && write_file(DRV "bind", dev) == 0, "bind again");
	check(wait_for("/sys/class/net/vlc0", 10), "vlc0 back after bind");
	check(set_up("vlc0", 1) == 0 && set_up("vlc0", 0) == 0,
	      "up and down again");
	check(set_up("vlc0", 1) == 0 && unload_module("vlc_gpio") == 0,
	      "rmmod vlc_gpio with vlc0 up");
	check(!exists("/sys/class/net/vlc0"), "vlc0 gone after rmmod");
	chip_consumers(CHIP, b, sizeof(b));
	check(!strstr(b, "|tx ") && !strstr(b, "|rx ") &&
	      !strstr(b, "|led-cathode "), "lines released after rmmod");
	finish();
	return 0;
}
