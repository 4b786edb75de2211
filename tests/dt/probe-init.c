// SPDX-License-Identifier: GPL-2.0
/* /init of the arm64 probe test (tests/dt/arm64-probe.sh): the vlc-gpio
 * driver has probed from the device tree on gpio-sim lines; check that
 * the device exists, goes up, toggles the TX line, and that unbinding
 * removes it and leaves the LED dark and the lines free; then bind it
 * again. A second device on the PL061 runs under the hrtimer executor
 * with an edge interrupt, which the host's power button press drives.
 * Ends with "probe: N passed, N failed" and powers off.
 */
#include <glob.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "guest.h"

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

/* Lines requested by the driver on the gpio-sim chip: the consumer label
 * is the con_id, "tx" and "led-cathode".
 */
static int vlc_lines_requested(void)
{
	char b[4096];

	chip_consumers("gpio-sim", b, sizeof(b));
	fputs(b, stdout);
	return (strstr(b, "|tx ") ? 1 : 0) + (strstr(b, "|led-cathode ") ? 1 : 0);
}

/* The hrtimer executor and the edge interrupt, on the PL061 of the virt
 * machine (an MMIO chip that never sleeps): TX on line 4, a comparator
 * on line 3, which QEMU's power button drives (acpi=off).
 */
static void hard_irq_device(void)
{
	char ifn[IFNAMSIZ], b[4096], msg[160];
	long n0, n1;
	int lo, hi, i;

	check(ifname_by_mac("02:56:4c:43:00:2b", ifn, sizeof(ifn)),
	      "PL061 device registered (02:56:4c:43:00:2b)");
	chip_consumers("pl061", b, sizeof(b));
	fputs(b, stdout);
	check(strstr(b, "|tx ") && strstr(b, "|rx "),
	      "PL061 TX and RX lines requested");
	n0 = irq_count("vlc-hard");
	check(n0 >= 0, "RX edge interrupt requested (vlc-hard)");
	check(ifn[0] && set_up(ifn, 1) == 0, "PL061 device up");
	sample_line("pl061", "tx", 2000, &lo, &hi);
	snprintf(msg, sizeof(msg),
		 "PL061 TX toggles under the hrtimer executor (%d low, %d high)",
		 lo, hi);
	check(lo > 0 && hi > 0, msg);

	/* the host presses the power button when it reads this */
	printf("probe: press\n");
	fflush(stdout);
	for (i = 0; i < 100; i++) {
		struct timespec d = { 0, 100000000 };

		n1 = irq_count("vlc-hard");
		if (n1 >= n0 + 2)
			break;
		nanosleep(&d, NULL);
	}
	snprintf(msg, sizeof(msg),
		 "RX edges reach the handler (%ld interrupts, press and release)",
		 n1 - n0);
	check(n1 >= n0 + 2, msg);
	check(set_up(ifn, 0) == 0, "PL061 device down");
}

int main(void)
{
	char tx[256] = "", dev[128] = "", b[64], msg[160], sim[IFNAMSIZ];
	glob_t g;
	int lo, hi;

	guest_prefix = "probe";
	mount_all();
	check(load_module("/vlc_gpio.ko", "") == 0, "insmod vlc_gpio.ko");

	if (!glob("/sys/bus/gpio/devices/gpiochip*/sim_gpio0/value", 0, NULL,
		  &g) && g.gl_pathc)
		snprintf(tx, sizeof(tx), "%s", g.gl_pathv[0]);
	check(tx[0], "gpio-sim bank from the device tree (sim_gpio0 = TX)");

	if (!glob("/sys/bus/platform/drivers/vlc-gpio/*vlc*", 0, NULL, &g) &&
	    g.gl_pathc)
		snprintf(dev, sizeof(dev), "%s", strrchr(g.gl_pathv[0], '/') + 1);
	check(dev[0], "vlc-gpio bound to the DT node");
	/* two devices probe in either order: vlc0 and vlc1 */
	check(ifname_by_mac("02:56:4c:43:00:2a", sim, sizeof(sim)),
	      "gpio-sim device registered, local-mac-address honoured (02:56:4c:43:00:2a)");
	check(vlc_lines_requested() == 2, "TX and cathode lines requested");

	check(set_up(sim, 1) == 0, "gpio-sim device up");
	sample(tx, 3000, &lo, &hi);
	snprintf(msg, sizeof(msg),
		 "TX line toggles while up (%d low, %d high samples)", lo, hi);
	check(lo > 0 && hi > 0, msg);

	check(dev[0] && write_file("/sys/bus/platform/drivers/vlc-gpio/unbind",
				   dev) == 0, "unbind");
	snprintf(b, sizeof(b), "/sys/class/net/%s", sim);
	check(!exists(b), "device gone after unbind");
	sample(tx, 300, &lo, &hi);
	check(hi == 0 && lo > 0, "TX LED dark after unbind");
	check(vlc_lines_requested() == 0, "lines released after unbind");

	check(dev[0] && write_file("/sys/bus/platform/drivers/vlc-gpio/bind",
				   dev) == 0, "bind again");
	check(ifname_by_mac("02:56:4c:43:00:2a", sim, sizeof(sim)),
	      "device back after bind");
	check(set_up(sim, 1) == 0 && set_up(sim, 0) == 0,
	      "up and down again");

	hard_irq_device();
	finish();
	return 0;
}
