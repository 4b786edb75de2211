// SPDX-License-Identifier: GPL-2.0
/*
 * vlc-hwtest: check the wiring of a linux-vlc board with libgpiod (1.x or
 * 2.x, through gpio.h) before the driver is loaded. It blinks the TX LED
 * and reports what the receiver sees:
 *
 *   comparator  the level of the comparator output while the TX LED is lit
 *               and while it is dark (a photodiode facing the LED);
 *   led         an LED used as a light sensor: its cathode is driven high
 *               (reverse bias), released, and the time it takes to read low
 *               is printed in microseconds, lit against dark. With --shared
 *               the TX LED itself senses: it cannot see its own light, so
 *               only the room's light is measured, while the LED is dark.
 *
 * It ends with one verdict line and exits 0 when the wiring works, 1 when
 * it does not, 2 on a bad argument and 3 when the GPIOs cannot be used.
 * See Documentation/networking/vlc-hardware.rst.
 */

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpio.h"

#define CONSUMER	"vlc-hwtest"
#define EXIT_WIRING	1
#define EXIT_ARGS	2
#define EXIT_GPIO	3

/* Samples kept per phase (lit, dark); more are counted but not kept. */
#define MAX_SAMPLES	4096
/* Reverse-bias charge of the sensing LED: nanoseconds are enough. */
#define CHARGE_NS	10000LL
/* Pause between two comparator reads, and after an LED measurement. */
#define PAUSE_NS	100000LL
/* "Always" and "never", for the verdicts: 90% and 10% of the samples. */
#define MOST(n)		((n) * 9 / 10)

enum mode { MODE_LED, MODE_CMP };

struct opts {
	const char *chip;
	int tx, rx, anode;
	enum mode mode;
	bool shared, active_low, verbose;
	unsigned int cycles, period_ms, max_us, slot_us;
};

/* What one phase (TX lit or TX dark) saw. */
struct phase {
	unsigned int n;			/* samples */
	unsigned int high;		/* comparator: reads of "lit" */
	unsigned int raw_high;		/* comparator: reads of 1 */
	unsigned int timeouts;		/* led: no discharge within max_us */
	unsigned int instant;		/* led: low at the first read */
	unsigned int kept;
	long long ns[MAX_SAMPLES];	/* led: discharge times */
};

static atomic_int stop;
static bool gpio_err;
static struct hw_line *tx_line, *rx_line, *anode_line;
static struct phase lit, dark;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_until(long long t)
{
	struct timespec ts = { .tv_sec = t / 1000000000LL,
			       .tv_nsec = t % 1000000000LL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR && !stop)
		;
}

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: vlc-hwtest --tx LINE --rx LINE [options]\n"
		"  --chip CHIP       GPIO chip: name, number, /dev path or label\n"
		"                    (default gpiochip0; gpiodetect lists them)\n"
		"  --tx LINE         line of the TX LED's anode (active high)\n"
		"  --rx LINE         receiver line: comparator output, or the\n"
		"                    sensing LED's cathode\n"
		"  --mode MODE       led (default) or comparator\n"
		"  --anode LINE      led: anode of a second, sensing LED (held low);\n"
		"                    without it that LED's anode is on ground\n"
		"  --shared          led: the TX LED senses too (cathode on --rx)\n"
		"  --active-low      comparator: the output is low when lit\n"
		"  --cycles N        on/off cycles of the TX LED (default 10)\n"
		"  --period-ms MS    length of one cycle (default 200)\n"
		"  --max-us US       led: longest discharge waited for (default 20000)\n"
		"  --slot-us US      led: data slot length of the driver (default 50)\n"
		"  -v, --verbose     print every cycle\n"
		"  -h, --help        this text\n"
		"Run it with the driver unloaded (rmmod vlc_gpio).\n");
}

static void arg_error(const char *fmt, ...)
{
	va_list ap;

	fputs("vlc-hwtest: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (--help for usage)\n", stderr);
	exit(EXIT_ARGS);
}

static unsigned int parse_uint(const char *name, const char *s,
			       unsigned long min, unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!*s || *end || *s == '-' || errno)
		arg_error("%s: \"%s\" is not a number", name, s);
	if (v < min || v > max)
		arg_error("%s: %lu is out of range %lu..%lu", name, v, min, max);
	return v;
}

/* Options that make no sense together, or with a line missing. */
static void check_args(const struct opts *o, bool mode_set)
{
	if (o->tx < 0)
		arg_error("--tx: missing (the line of the TX LED, e.g. --tx 17)");
	if (o->rx < 0)
		arg_error("--rx: missing (the receiver's line, e.g. --rx 27)");
	if (o->rx == o->tx)
		arg_error("--rx: line %d is the TX line too", o->rx);
	if (o->mode == MODE_CMP) {
		if (o->anode >= 0)
			arg_error("--anode: only with --mode led");
		if (o->shared)
			arg_error("--shared: only with --mode led");
	} else {
		if (o->active_low)
			arg_error("--active-low: only with --mode comparator%s",
				  mode_set ? "" : " (the default mode is led)");
		if (o->shared && o->anode >= 0)
			arg_error("--anode: not with --shared (the TX line is the anode)");
		if (o->anode >= 0 && (o->anode == o->tx || o->anode == o->rx))
			arg_error("--anode: line %d is already --%s", o->anode,
				  o->anode == o->tx ? "tx" : "rx");
		/* One discharge must fit in the sampling part of a phase. */
		if (o->max_us > o->period_ms * 1000ULL * 3 / 8)
			arg_error("--max-us: %u us is longer than the %u us %s",
				  o->max_us, o->period_ms * 1000 * 3 / 8,
				  "sampled per half cycle: raise --period-ms");
	}
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "chip", required_argument, NULL, 'c' },
		{ "tx", required_argument, NULL, 't' },
		{ "rx", required_argument, NULL, 'r' },
		{ "mode", required_argument, NULL, 'm' },
		{ "anode", required_argument, NULL, 'a' },
		{ "shared", no_argument, NULL, 's' },
		{ "active-low", no_argument, NULL, 'l' },
		{ "cycles", required_argument, NULL, 'n' },
		{ "period-ms", required_argument, NULL, 'p' },
		{ "max-us", required_argument, NULL, 'x' },
		{ "slot-us", required_argument, NULL, 'S' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	bool mode_set = false;
	int c;

	*o = (struct opts){ .chip = "gpiochip0", .tx = -1, .rx = -1,
			    .anode = -1, .mode = MODE_LED, .cycles = 10,
			    .period_ms = 200, .max_us = 20000, .slot_us = 50 };
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":vh", lo, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (!*optarg)
				arg_error("--chip: empty");
			o->chip = optarg;
			break;
		case 't':
			o->tx = parse_uint("--tx", optarg, 0, 65535);
			break;
		case 'r':
			o->rx = parse_uint("--rx", optarg, 0, 65535);
			break;
		case 'a':
			o->anode = parse_uint("--anode", optarg, 0, 65535);
			break;
		case 'm':
			if (!strcmp(optarg, "led"))
				o->mode = MODE_LED;
			else if (!strcmp(optarg, "comparator"))
				o->mode = MODE_CMP;
			else
				arg_error("--mode: \"%s\" is neither led nor comparator",
					  optarg);
			mode_set = true;
			break;
		case 's':
			o->shared = true;
			break;
		case 'l':
			o->active_low = true;
			break;
		case 'n':
			o->cycles = parse_uint("--cycles", optarg, 1, 100000);
			break;
		case 'p':
			o->period_ms = parse_uint("--period-ms", optarg, 2, 60000);
			break;
		case 'x':
			o->max_us = parse_uint("--max-us", optarg, 1, 10000000);
			break;
		case 'S':
			o->slot_us = parse_uint("--slot-us", optarg, 1, 100000);
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			print_help(stdout);
			exit(0);
		case ':':
			arg_error("%s: needs a value", argv[optind - 1]);
			break;
		default:
			arg_error("%s: unknown option", argv[optind - 1]);
			break;
		}
	}
	if (optind < argc)
		arg_error("%s: unexpected argument", argv[optind]);
	check_args(o, mode_set);
}

static struct hw_line *get_line(struct hw_chip *chip, const char *name,
				int off)
{
	unsigned int n = hw_chip_num_lines(chip);
	struct hw_line *l;

	if ((unsigned int)off >= n) {
		fprintf(stderr, "vlc-hwtest: %s: %s has %u lines (0..%u), not %d\n",
			name, hw_chip_name(chip), n, n - 1, off);
		exit(EXIT_ARGS);
	}
	l = hw_line_get(chip, off);
	if (!l) {
		fprintf(stderr, "vlc-hwtest: %s: line %d of %s: %s\n", name,
			off, hw_chip_name(chip), strerror(errno));
		exit(EXIT_GPIO);
	}
	return l;
}

/* Request a line as an output at val, or as an input when val < 0. The
 * receiver's line asks for no pull-up or pull-down, as the overlays do:
 * a pull resistor of ~50 kohm would discharge a sensing LED's junction
 * in microseconds. Chips that cannot set the bias ignore the request
 * (then the pin mux decides).
 */
static void request(struct hw_chip *chip, struct hw_line *l,
		    const char *name, int val, bool no_pull)
{
	const char *who;
	int err, ret;

	ret = hw_line_request(l, CONSUMER, val, no_pull);
	if (ret == 0)
		return;
	err = errno;
	who = hw_line_consumer(l);
	fprintf(stderr, "vlc-hwtest: %s: cannot use line %u of %s: %s",
		name, hw_line_offset(l), hw_chip_name(chip),
		strerror(err));
	if (err == EBUSY)
		fprintf(stderr, ", in use by \"%s\": %s", who ? who : "?",
			"unload the driver (rmmod vlc_gpio) or boot without the overlay");
	fputc('\n', stderr);
	exit(EXIT_GPIO);
}

static void gpio_fail(const char *what)
{
	fprintf(stderr, "vlc-hwtest: %s: %s\n", what, strerror(errno));
	gpio_err = true;
	stop = 1;
}

static void set_tx(int on)
{
	if (hw_line_set_value(tx_line, on) < 0)
		gpio_fail("--tx: set");
}

/* Charge the sensing LED in reverse (cathode high, anode low), release the
 * cathode and time until it reads low. Returns the time in ns, -1 when it
 * did not read low within max_ns; *instant when the first read was low.
 * The cathode is parked as an output low afterwards: LED unbiased, and a
 * shared TX LED can light.
 */
static long long discharge_ns(long long max_ns, bool *instant)
{
	long long t0, t, d = -1;
	bool first = true;
	int v;

	*instant = false;
	if (hw_line_output(rx_line, 1) < 0) {
		gpio_fail("--rx: drive high");
		return -1;
	}
	t0 = now_ns();
	while (now_ns() - t0 < CHARGE_NS)
		;
	if (hw_line_input(rx_line) < 0) {
		gpio_fail("--rx: release as input");
		return -1;
	}
	t0 = now_ns();
	for (;;) {
		v = hw_line_get_value(rx_line);
		t = now_ns();
		if (v < 0) {
			gpio_fail("--rx: read");
			break;
		}
		if (v == 0) {
			*instant = first;
			d = t - t0;
			break;
		}
		if (t - t0 > max_ns || stop)
			break;
		first = false;
	}
	if (hw_line_output(rx_line, 0) < 0)
		gpio_fail("--rx: park low");
	return d;
}

static void record_led(struct phase *p, long long d, bool instant)
{
	p->n++;
	if (d < 0) {
		p->timeouts++;
		return;
	}
	p->instant += instant;
	if (p->kept < MAX_SAMPLES)
		p->ns[p->kept++] = d;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* Median discharge time with timeouts counted as "longer than any": -1
 * when more than half the samples timed out.
 */
static long long median_ns(struct phase *p)
{
	unsigned int i = p->n / 2;

	if (!p->n || i >= p->kept)
		return -1;
	qsort(p->ns, p->kept, sizeof(p->ns[0]), cmp_ll);
	return p->ns[i];
}

static const char *fmt_us(char *buf, size_t len, long long ns,
			  unsigned int max_us)
{
	if (ns < 0)
		snprintf(buf, len, "more than %u us", max_us);
	else
		snprintf(buf, len, "%lld us", (ns + 500) / 1000);
	return buf;
}

static void run_phase(const struct opts *o, int on, long long start,
		      long long half)
{
	struct phase *p = on ? &lit : &dark;
	long long end = start + half, max_ns = o->max_us * 1000LL;
	bool instant;
	long long d;
	int v;

	set_tx(on);
	/* Let the light and the receiver settle for a quarter. */
	sleep_until(start + half / 4);
	while (!stop) {
		if (o->mode == MODE_CMP) {
			if (now_ns() + PAUSE_NS > end)
				break;
			v = hw_line_get_value(rx_line);
			if (v < 0) {
				gpio_fail("--rx: read");
				break;
			}
			p->n++;
			p->raw_high += v;
			p->high += o->active_low ? !v : v;
		} else {
			/* One LED cannot sense while it is lit. */
			if (o->shared && on)
				break;
			if (now_ns() + max_ns + CHARGE_NS + PAUSE_NS > end)
				break;
			d = discharge_ns(max_ns, &instant);
			if (stop)
				break;
			record_led(p, d, instant);
		}
		sleep_until(now_ns() + PAUSE_NS);
	}
	sleep_until(end);
}

static void hint(const char *s)
{
	printf("  %s\n", s);
}

static int verdict_cmp(const struct opts *o)
{
	unsigned int pl = lit.high * 100 / lit.n, pd = dark.high * 100 / dark.n;
	unsigned int raw = lit.raw_high + dark.raw_high, n = lit.n + dark.n;

	printf("RX while TX lit:  reads light in %3u%% of %u samples\n", pl,
	       lit.n);
	printf("RX while TX dark: reads light in %3u%% of %u samples\n", pd,
	       dark.n);
	if (raw == 0 || raw == n) {
		printf("RX never changes (line %d always reads %s): check wiring:\n",
		       o->rx, raw ? "high" : "low");
		printf("  comparator output to line %d of %s\n", o->rx,
		       o->chip);
		hint("comparator powered from 3.3 V, never 5 V");
		hint("output pull-up to 3.3 V (open-collector LM393: 10 kohm)");
		hint("threshold (trimmer) between the dark and the lit level");
		hint("photodiode reverse-biased, facing the TX LED");
		return EXIT_WIRING;
	}
	if (lit.high >= MOST(lit.n) && dark.high <= dark.n - MOST(dark.n)) {
		printf("TX->RX: OK, sees its own LED\n");
		return 0;
	}
	if (lit.high <= lit.n - MOST(lit.n) && dark.high >= MOST(dark.n)) {
		printf("TX->RX: inverted, RX reads %s while the TX LED is lit:\n",
		       o->active_low ? "high" : "low");
		if (o->active_low)
			hint("active high: drop --active-low (overlay: rx_active_low=0)");
		else
			hint("active low: pass --active-low (overlay: rx_active_low=1)");
		return EXIT_WIRING;
	}
	printf("TX->RX: FAIL, RX changes but does not follow the TX LED:\n");
	hint("ambient light or mains flicker crosses the threshold, or the");
	hint("LED is too far: set the threshold between dark and lit,");
	hint("shade the photodiode, point the LED at it");
	return EXIT_WIRING;
}

static int verdict_led(const struct opts *o)
{
	long long ml = median_ns(&lit), md = median_ns(&dark);
	unsigned int n = lit.n + dark.n;
	char a[32], b[32];

	fmt_us(a, sizeof(a), ml, o->max_us);
	fmt_us(b, sizeof(b), md, o->max_us);
	if (!o->shared)
		printf("RX while TX lit:  discharges in %s (median of %u, %u timed out)\n",
		       a, lit.n, lit.timeouts);
	printf("RX while TX dark: discharges in %s (median of %u, %u timed out)\n",
	       b, dark.n, dark.timeouts);

	if (lit.timeouts + dark.timeouts == n) {
		printf("RX never changes (line %d never reads low within %u us): check wiring:\n",
		       o->rx, o->max_us);
		printf("  line %d to the LED's cathode (short leg, flat side)\n",
		       o->rx);
		printf("  the LED's anode %s\n",
		       o->shared ? "through the resistor to the TX line" :
		       o->anode >= 0 ? "to the --anode line" : "to ground");
		hint("in a dark room: shine a torch on it, or raise --max-us");
		return EXIT_WIRING;
	}
	if (lit.instant + dark.instant >= MOST(n)) {
		printf("RX never changes (line %d reads low at once, no charge): check wiring:\n",
		       o->rx);
		printf("  line %d to the LED's cathode only, nothing else pulling it low\n",
		       o->rx);
		hint("the LED the right way round (reversed, it conducts)");
		return EXIT_WIRING;
	}
	if (o->shared) {
		printf("RX: OK, the LED holds a charge and discharges in %s in this light\n",
		       b);
		hint("one LED cannot see itself: cover it and the time must grow;");
		printf("  lit by the other board's LED it must fall below %u us\n",
		       o->slot_us);
		return 0;
	}
	if (ml >= 0 && (md < 0 || ml * 2 <= md)) {
		printf("TX->RX: OK, sees its own LED\n");
		if (ml > o->slot_us * 1000LL) {
			printf("warning: lit, it discharges in %s, over a data slot (%u us):\n",
			       a, o->slot_us);
			hint("the driver will not see lit slots: bring the LEDs closer");
			hint("(a few mm), or use longer data-us and frame_us");
		}
		return 0;
	}
	printf("TX->RX: FAIL, RX does not see the TX LED (%s lit, %s dark):\n",
	       a, b);
	hint("point the LEDs at each other, closer, and darken the room");
	if (ml < 0 && md >= 0)
		hint("(lit, it never discharged: if the TX LED senses too, pass --shared)");
	return EXIT_WIRING;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct hw_chip *chip;
	long long half, t;
	struct opts o;
	unsigned int c;
	int rc;

	parse_args(argc, argv, &o);
	chip = hw_chip_open(o.chip);
	if (!chip) {
		fprintf(stderr, "vlc-hwtest: --chip: cannot open \"%s\": %s %s\n",
			o.chip, strerror(errno), "(gpiodetect lists the chips)");
		return errno == EACCES ? EXIT_GPIO : EXIT_ARGS;
	}
	tx_line = get_line(chip, "--tx", o.tx);
	rx_line = get_line(chip, "--rx", o.rx);
	if (o.anode >= 0)
		anode_line = get_line(chip, "--anode", o.anode);

	request(chip, tx_line, "--tx", 0, false);
	/* The comparator is read; the LED cathode is parked low. */
	request(chip, rx_line, "--rx", o.mode == MODE_CMP ? -1 : 0, true);
	if (anode_line)
		request(chip, anode_line, "--anode", 0, false);

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	printf("vlc-hwtest: %s [%s], TX line %d, RX line %d: %s\n",
	       hw_chip_name(chip), hw_chip_label(chip), o.tx, o.rx,
	       o.mode == MODE_CMP ? (o.active_low ?
				     "comparator output, active low" :
				     "comparator output, active high") :
	       o.shared ? "cathode of the TX LED (shared)" :
	       o.anode >= 0 ? "cathode of the sensing LED, anode on --anode" :
	       "cathode of the sensing LED, anode on ground");
	printf("TX: blinking line %d, %u cycles of %u ms: the LED should blink now\n",
	       o.tx, o.cycles, o.period_ms);
	fflush(stdout);

	half = o.period_ms * 1000000LL / 2;
	t = now_ns();
	for (c = 0; c < o.cycles && !stop; c++) {
		unsigned int n0 = lit.n, n1 = dark.n;

		run_phase(&o, 1, t, half);
		run_phase(&o, 0, t + half, half);
		t += 2 * half;
		if (o.verbose)
			printf("cycle %u: lit %u samples, dark %u samples\n",
			       c + 1, lit.n - n0, dark.n - n1);
	}
	set_tx(0);
	if (gpio_err) {
		rc = EXIT_GPIO;
	} else if (stop) {
		fprintf(stderr, "vlc-hwtest: interrupted\n");
		rc = 130;
	} else if ((!lit.n && !(o.mode == MODE_LED && o.shared)) || !dark.n) {
		printf("vlc-hwtest: no samples: raise --period-ms\n");
		rc = EXIT_ARGS;
	} else {
		rc = o.mode == MODE_CMP ? verdict_cmp(&o) : verdict_led(&o);
	}
	hw_chip_close(chip);
	return rc;
}
