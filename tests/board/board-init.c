// SPDX-License-Identifier: GPL-2.0
/* /init of the Raspberry Pi board test (tests/board/run.sh), on QEMU
 * raspi3b or raspi2b with the board's own GPIO driver, pinctrl-bcm2835:
 * vlc0 has probed from the shipped overlay; bring it up, let it run its
 * frames, read its TX line back from the GPIO controller and compare the
 * light it gives with the brightness asked for; then down, unbind, bind
 * and rmmod with the link up. The kernel log is the host's to check. The
 * kernel command line carries "vlc_board=MODE,BRIGHTNESS,SECONDS".
 * Ends with "board: N passed, N failed" and powers off.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "guest.h"

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

int main(void)
{
	char cmd[1024], mode[16] = "led", dev[128], b[8192], msg[200];
	int brightness = 200, seconds = 10, lo, hi;
	const char *p;
	double duty, want;

	guest_prefix = "board";
	mount_all();
	p = read_file("/proc/cmdline", cmd, sizeof(cmd)) > 0 ?
	    strstr(cmd, "vlc_board=") : NULL;
	if (p)
		sscanf(p, "vlc_board=%15[a-z],%d,%d", mode, &brightness,
		       &seconds);
	printf("board: receiver %s, brightness %d, %d s of frames\n", mode,
	       brightness, seconds);

	check(load_module("/vlc_gpio.ko") == 0, "insmod vlc_gpio.ko");
	check(wait_for("/sys/class/net/vlc0", 30) && bound_device(dev, sizeof(dev)),
	      "vlc0 probed from the overlay, bound to vlc-gpio");
	chip_consumers(CHIP, b, sizeof(b));
	fputs(b, stdout);
	check(!!strstr(b, "|tx "), "TX line requested on " CHIP);
	check(!!strstr(b, strcmp(mode, "led") ? "|rx " : "|led-cathode "),
	      "receiver line requested on " CHIP);

	check(set_up("vlc0", 1) == 0, "ip link set vlc0 up");
	sample_line(CHIP, "tx", seconds * 1000, &lo, &hi);
	duty = lo + hi ? (double)hi / (lo + hi) : 0;
	want = brightness / 1000.0;
	snprintf(msg, sizeof(msg),
		 "TX line read back from the GPIO controller: lit %.3f of %d samples, brightness asks %.3f (+-0.05)",
		 duty, lo + hi, want);
	check(lo + hi >= 100 && duty > want - 0.05 && duty < want + 0.05, msg);
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
