// SPDX-License-Identifier: GPL-2.0
/* /init of the arm64 probe test (tests/dt/arm64-probe.sh): the vlc-gpio
 * driver has probed from the device tree on gpio-sim lines; check that
 * vlc0 exists, goes up, toggles the TX line, and that unbinding removes
 * it and leaves the LED dark and the lines free; then bind it again.
 * Ends with "probe: N passed, N failed" and powers off.
 */
#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int passed, failed;

static void check(int ok, const char *what)
{
	printf("probe: %s %s\n", ok ? "ok  " : "FAIL", what);
	if (ok)
		passed++;
	else
		failed++;
}

static int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static int set_up(const char *ifname, int up)
{
	struct ifreq ifr;
	int s = socket(AF_UNIX, SOCK_DGRAM, 0), err;

	if (s < 0)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
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

/* Sample the TX line for about @ms; count the levels seen. */
static void sample(const char *path, int ms, int *lo, int *hi)
{
	struct timespec d = { 0, 200000 };
	struct timespec t0, t;
	char b[8];

	*lo = *hi = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		if (read_file(path, b, sizeof(b)) > 0)
			(b[0] == '1' ? (*hi)++ : (*lo)++);
		nanosleep(&d, NULL);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 +
		 (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

/* Lines requested by the driver, from gpiolib's debugfs: the consumer
 * label is the con_id, "tx" and "led-cathode".
 */
static int vlc_lines_requested(void)
{
	char b[8192];

	if (read_file("/sys/kernel/debug/gpio", b, sizeof(b)) < 0)
		return -1;
	fputs(b, stdout);
	return (strstr(b, "|tx ") ? 1 : 0) + (strstr(b, "|led-cathode ") ? 1 : 0);
}

int main(void)
{
	char tx[256] = "", dev[128] = "", b[64], msg[160];
	glob_t g;
	int lo, hi;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);

	if (!glob("/sys/bus/gpio/devices/gpiochip*/sim_gpio0/value", 0, NULL,
		  &g) && g.gl_pathc)
		snprintf(tx, sizeof(tx), "%s", g.gl_pathv[0]);
	check(tx[0], "gpio-sim bank from the device tree (sim_gpio0 = TX)");

	if (!glob("/sys/bus/platform/drivers/vlc-gpio/*vlc*", 0, NULL, &g) &&
	    g.gl_pathc)
		snprintf(dev, sizeof(dev), "%s", strrchr(g.gl_pathv[0], '/') + 1);
	check(dev[0], "vlc-gpio bound to the DT node");
	check(exists("/sys/class/net/vlc0"), "vlc0 registered");
	check(read_file("/sys/class/net/vlc0/address", b, sizeof(b)) > 0 &&
	      !strncmp(b, "02:56:4c:43:00:2a", 17),
	      "local-mac-address honoured (02:56:4c:43:00:2a)");
	check(vlc_lines_requested() == 2, "TX and cathode lines requested");

	check(set_up("vlc0", 1) == 0, "ip link set vlc0 up");
	sample(tx, 3000, &lo, &hi);
	snprintf(msg, sizeof(msg),
		 "TX line toggles while up (%d low, %d high samples)", lo, hi);
	check(lo > 0 && hi > 0, msg);

	check(dev[0] && write_file("/sys/bus/platform/drivers/vlc-gpio/unbind",
				   dev) == 0, "unbind");
	check(!exists("/sys/class/net/vlc0"), "vlc0 gone after unbind");
	sample(tx, 300, &lo, &hi);
	check(hi == 0 && lo > 0, "TX LED dark after unbind");
	check(vlc_lines_requested() == 0, "lines released after unbind");

	check(dev[0] && write_file("/sys/bus/platform/drivers/vlc-gpio/bind",
				   dev) == 0, "bind again");
	check(exists("/sys/class/net/vlc0"), "vlc0 back after bind");
	check(set_up("vlc0", 1) == 0 && set_up("vlc0", 0) == 0,
	      "up and down again");

	printf("probe: %d passed, %d failed\n", passed, failed);
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
