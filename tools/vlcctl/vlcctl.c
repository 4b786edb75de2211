// SPDX-License-Identifier: GPL-2.0
/* vlcctl: show and change the PHY and MAC settings of vlc net_devices at
 * run time, and list the neighbours they hear by their beacons, through the
 * "vlc" generic netlink family (include/uapi/linux/vlc.h).
 *
 *   vlcctl [-j] show [DEV]
 *   vlcctl set DEV [modulation 2slot|4ppm] [brightness N] [frame-us N]
 *                  [sync-us N] [guard-us N] [data-us N] [tolerance-us N]
 *                  [rts-threshold N] [retry-limit N] [cw-min N] [cw-max N]
 *                  [frag-size N] [beacon-interval N] [loc-interval N]
 *                  [max-age N] [fec off|auto|N]
 *   vlcctl [-j] monitor [DEV]
 *
 * and the simulated medium of vlc_sim.ko:
 *
 *   vlcctl [-j] sim show
 *   vlcctl [-j] sim time
 *   vlcctl sim set KEY VALUE...
 *   vlcctl sim node NODE [skew-ppm N] [phase-us N] [rx pd|led]
 *   vlcctl sim edge FROM TO [gain N] [cover US] [both]
 *   vlcctl sim load FILE|-
 *
 * NODE, FROM and TO are a node id, DEV (in the caller's netns) or NS/DEV
 * (in /run/netns/NS); sim show prints the topology in the line format
 * that sim load reads (vlcctl.8, "TOPOLOGY FILES").
 *
 * -j prints show as JSON (one array of devices, like ip -j), and sim show
 * and sim time as one object. Errors print the kernel's extended ACK (the
 * message, the attribute it points at and the allowed range) and exit
 * with status 1; usage errors exit with 2.
 *
 * This file: main, the usage text and the device commands. The netlink
 * plumbing is nl.c's, the sim commands sim.c's and topo.c's (vlcctl.h).
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "vlcctl.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

const char *prog = "vlcctl";
static bool json_out;		/* monitor's -j */

static void help(FILE *f)
{
	fprintf(f,
		"usage: %s [-j] show [DEV]\n"
		"       %s [-j] monitor [DEV]\n"
		"       %s set DEV [modulation 2slot|4ppm] [brightness N] [frame-us N]\n"
		"                  [sync-us N] [guard-us N] [data-us N] [tolerance-us N]\n"
		"                  [rts-threshold N] [retry-limit N] [cw-min N] [cw-max N]\n"
		"                  [frag-size N] [beacon-interval N] [loc-interval N]\n"
		"                  [max-age N] [fec off|auto|N]\n"
		"brightness is in per-mille of full light; timings in microseconds\n"
		"(up to three decimals). MAC settings: rts-threshold and frag-size in\n"
		"bytes (rts-threshold 0: no RTS/CTS), cw-min, cw-max, beacon-interval,\n"
		"loc-interval and max-age in frames (2000 frames = 1 s at the default\n"
		"500 us frame; intervals and max-age 0: off). fec: off, auto (the parity\n"
		"follows the erasures the link sees), or 2, 4, 8, 16 or 32 Reed-Solomon\n"
		"parity symbols per codeword of the frames sent. Settings left out keep\n"
		"their values; a refused set changes nothing. monitor prints lock, carrier and\n"
		"neighbour events as they come. -j: JSON (monitor: one object a line).\n"
		"The simulated medium (vlc_sim.ko; CAP_NET_ADMIN in the initial user ns):\n"
		"       %s [-j] sim show\n"
		"       %s [-j] sim time\n"
		"       %s sim set KEY VALUE...\n"
		"       %s sim node NODE [skew-ppm N] [phase-us N] [rx pd|led]\n"
		"       %s sim edge FROM TO [gain N] [cover US] [both]\n"
		"       %s sim load FILE|-\n"
		"sim set keys: speed, seed, ambient, flicker, flicker-hz, noise, ser-ppm,\n"
		"late-ppm, late-us, burst-ppm, burst-us. NODE, FROM and TO: a node id, DEV\n"
		"(in this netns) or NS/DEV (in /run/netns/NS). An edge is the light of FROM\n"
		"seen by TO: gain per mille, cover darkens it for US microseconds both ways,\n"
		"both sets TO to FROM too. sim time prints the virtual time in us. sim show\n"
		"prints the medium, the nodes and the edges as sim load reads them.\n",
		prog, prog, prog, prog, prog, prog, prog, prog, prog);
}

int usage_err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	help(stderr);
	return 2;
}

/* ---- show ---- */

#define BEACONS_MAX	64	/* the kernel keeps 16 */

struct beacon {
	unsigned int id;
	uint32_t level, count, age_ms;
};

struct info {
	const struct nlattr *a[VLC_ATTR_MAX + 1];
	struct beacon beacons[BEACONS_MAX];
	unsigned int nbeacons;
};

static int info_attr_cb(const struct nlattr *a, void *data)
{
	struct info *in = data;
	unsigned int type = mnl_attr_get_type(a);

	if (type <= VLC_ATTR_MAX)
		in->a[type] = a;
	return MNL_CB_OK;
}

static int beacon_attr_cb(const struct nlattr *a, void *data)
{
	struct beacon *b = data;

	switch (mnl_attr_get_type(a)) {
	case VLC_BEACON_ATTR_ID:
		if (mnl_attr_validate(a, MNL_TYPE_U8) >= 0)
			b->id = mnl_attr_get_u8(a);
		break;
	case VLC_BEACON_ATTR_LEVEL:
		if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
			b->level = mnl_attr_get_u32(a);
		break;
	case VLC_BEACON_ATTR_COUNT:
		if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
			b->count = mnl_attr_get_u32(a);
		break;
	case VLC_BEACON_ATTR_AGE_MS:
		if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
			b->age_ms = mnl_attr_get_u32(a);
		break;
	default:
		break;
	}
	return MNL_CB_OK;
}

/* Strongest first: the nearest light. */
static int beacon_cmp(const void *x, const void *y)
{
	const struct beacon *a = x, *b = y;

	if (a->level != b->level)
		return a->level < b->level ? 1 : -1;
	return (int)a->id - (int)b->id;
}

static void parse_beacons(struct info *in)
{
	const struct nlattr *list = in->a[VLC_ATTR_BEACONS], *e;

	if (!list)
		return;
	mnl_attr_for_each_nested(e, list) {
		struct beacon *b = &in->beacons[in->nbeacons];

		if (mnl_attr_get_type(e) != VLC_BEACONS_ENTRY ||
		    in->nbeacons == BEACONS_MAX)
			continue;
		memset(b, 0, sizeof(*b));
		if (mnl_attr_parse_nested(e, beacon_attr_cb, b) >= 0)
			in->nbeacons++;
	}
	qsort(in->beacons, in->nbeacons, sizeof(in->beacons[0]), beacon_cmp);
}

static uint32_t get32(const struct info *in, int type)
{
	const struct nlattr *a = in->a[type];

	return a && mnl_attr_get_payload_len(a) >= 4 ? mnl_attr_get_u32(a) : 0;
}

static uint8_t get8(const struct info *in, int type)
{
	const struct nlattr *a = in->a[type];

	return a && mnl_attr_get_payload_len(a) >= 1 ? mnl_attr_get_u8(a) : 0;
}

static unsigned long long get64(const struct info *in, int type)
{
	const struct nlattr *a = in->a[type];

	return a && mnl_attr_get_payload_len(a) >= 8 ? mnl_attr_get_u64(a) : 0;
}

static const char *getstr(const struct info *in, int type)
{
	const struct nlattr *a = in->a[type];

	if (!a || mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0)
		return "?";
	return mnl_attr_get_str(a);
}

/* v / 1000, with three decimals where it has any. */
const char *milli(char *b, size_t n, unsigned long long v)
{
	if (v % 1000)
		snprintf(b, n, "%llu.%03llu", v / 1000, v % 1000);
	else
		snprintf(b, n, "%llu", v / 1000);
	return b;
}

/* Thousandths as a decimal number, with decimals only when needed:
 * nanoseconds as microseconds, microseconds as milliseconds.
 */
static const char *us(char *b, size_t n, uint32_t ns)
{
	return milli(b, n, ns);
}

/* An interval in frames, in milliseconds of the frame time. */
static const char *frames_ms(char *b, size_t n, uint32_t frames,
			     uint32_t frame_ns)
{
	char v[32];

	if (!frames)
		snprintf(b, n, "off");
	else
		snprintf(b, n, "%s ms",
			 milli(v, sizeof(v),
			       (unsigned long long)frames * frame_ns / 1000));
	return b;
}

/* The fec setting as vlcctl set takes it: off, auto or a parity count. */
static const char *fec_name(char *b, size_t n, uint32_t fec)
{
	if (fec == VLC_FEC_OFF)
		snprintf(b, n, "off");
	else if (fec == VLC_FEC_AUTO)
		snprintf(b, n, "auto");
	else
		snprintf(b, n, "%u", fec);
	return b;
}

static const char *mode_name(uint8_t mode)
{
	return mode == VLC_MODULATION_4PPM ? "4ppm" :
	       mode == VLC_MODULATION_2SLOT ? "2slot" : "?";
}

static void show_text(const struct info *in)
{
	uint32_t frame = get32(in, VLC_ATTR_FRAME_NS);
	unsigned int bits, i;
	char b[5][48];

	bits = get8(in, VLC_ATTR_MODULATION) == VLC_MODULATION_4PPM ? 2 : 1;
	printf("%s: ifindex %u modulation %s brightness %u (%u..%u) short-addr %u executor %s\n",
	       getstr(in, VLC_ATTR_IFNAME), get32(in, VLC_ATTR_IFINDEX),
	       mode_name(get8(in, VLC_ATTR_MODULATION)),
	       get32(in, VLC_ATTR_BRIGHTNESS),
	       get32(in, VLC_ATTR_BRIGHTNESS_MIN),
	       get32(in, VLC_ATTR_BRIGHTNESS_MAX),
	       get8(in, VLC_ATTR_SHORT_ADDR), getstr(in, VLC_ATTR_EXECUTOR));
	printf("\tframe-us %s sync-us %s guard-us %s data-us %s tolerance-us %s",
	       us(b[0], sizeof(b[0]), frame),
	       us(b[1], sizeof(b[1]), get32(in, VLC_ATTR_SYNC_NS)),
	       us(b[2], sizeof(b[2]), get32(in, VLC_ATTR_GUARD_NS)),
	       us(b[3], sizeof(b[3]), get32(in, VLC_ATTR_DATA_NS)),
	       us(b[4], sizeof(b[4]), get32(in, VLC_ATTR_TOLERANCE_NS)));
	printf(" (%llu bit/s raw)\n",
	       frame ? (unsigned long long)bits * 1000000000 / frame : 0ULL);
	printf("\tlink %s carrier %s locked %s signal %u noise %u ambient %u\n",
	       get8(in, VLC_ATTR_RUNNING) ? "up" : "down",
	       get8(in, VLC_ATTR_CARRIER) ? "yes" : "no",
	       get8(in, VLC_ATTR_LOCKED) ? "yes" : "no",
	       get32(in, VLC_ATTR_SIGNAL), get32(in, VLC_ATTR_NOISE),
	       get32(in, VLC_ATTR_AMBIENT));
	printf("\tframes %llu symbols-tx %llu symbols-rx %llu",
	       get64(in, VLC_ATTR_PHY_FRAMES),
	       get64(in, VLC_ATTR_PHY_SYMBOLS_TX),
	       get64(in, VLC_ATTR_PHY_SYMBOLS_RX));
	printf(" erasures %llu late %llu overruns %llu\n",
	       get64(in, VLC_ATTR_PHY_ERASURES),
	       get64(in, VLC_ATTR_PHY_LATE),
	       get64(in, VLC_ATTR_PHY_OVERRUNS));

	/* a kernel older than the MAC attributes has none of them */
	if (!in->a[VLC_ATTR_RTS_THRESHOLD])
		return;
	printf("\trts-threshold %u retry-limit %u cw-min %u cw-max %u frag-size %u\n",
	       get32(in, VLC_ATTR_RTS_THRESHOLD),
	       get32(in, VLC_ATTR_RETRY_LIMIT), get32(in, VLC_ATTR_CW_MIN),
	       get32(in, VLC_ATTR_CW_MAX), get32(in, VLC_ATTR_FRAG_SIZE));
	printf("\tbeacon-interval %u (%s) loc-interval %u (%s) max-age %u (%s)",
	       get32(in, VLC_ATTR_BEACON_INTERVAL),
	       frames_ms(b[0], sizeof(b[0]),
			 get32(in, VLC_ATTR_BEACON_INTERVAL), frame),
	       get32(in, VLC_ATTR_LOC_INTERVAL),
	       frames_ms(b[1], sizeof(b[1]),
			 get32(in, VLC_ATTR_LOC_INTERVAL), frame),
	       get32(in, VLC_ATTR_MAX_AGE),
	       frames_ms(b[2], sizeof(b[2]),
			 get32(in, VLC_ATTR_MAX_AGE), frame));
	/* a kernel older than the fec attribute does not report it */
	if (in->a[VLC_ATTR_FEC])
		printf(" fec %s",
		       fec_name(b[3], sizeof(b[3]), get32(in, VLC_ATTR_FEC)));
	printf(" nav %u\n", get32(in, VLC_ATTR_NAV));
	if (!in->nbeacons)
		printf("\tno beacons heard\n");
	for (i = 0; i < in->nbeacons; i++)
		printf("\tbeacon id %u level %u count %u age %u ms\n",
		       in->beacons[i].id, in->beacons[i].level,
		       in->beacons[i].count, in->beacons[i].age_ms);
}

/* A JSON string: quotes, backslashes and control characters escaped. */
void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char ch = *s;

		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

void json_u(const char *key, unsigned long long v)
{
	printf(",\"%s\":%llu", key, v);
}

void json_b(const char *key, bool v)
{
	printf(",\"%s\":%s", key, v ? "true" : "false");
}

/* One object per device, on one line: keys as in the text output, with
 * '_' for '-', timings in nanoseconds, booleans for yes/no.
 */
static void show_json(const struct info *in)
{
	uint32_t frame = get32(in, VLC_ATTR_FRAME_NS);
	unsigned int bits, i;
	char b[16];

	bits = get8(in, VLC_ATTR_MODULATION) == VLC_MODULATION_4PPM ? 2 : 1;
	printf("{\"ifname\":");
	json_str(getstr(in, VLC_ATTR_IFNAME));
	json_u("ifindex", get32(in, VLC_ATTR_IFINDEX));
	printf(",\"modulation\":\"%s\"", mode_name(get8(in, VLC_ATTR_MODULATION)));
	json_u("brightness", get32(in, VLC_ATTR_BRIGHTNESS));
	json_u("brightness_min", get32(in, VLC_ATTR_BRIGHTNESS_MIN));
	json_u("brightness_max", get32(in, VLC_ATTR_BRIGHTNESS_MAX));
	json_u("short_addr", get8(in, VLC_ATTR_SHORT_ADDR));
	printf(",\"executor\":");
	json_str(getstr(in, VLC_ATTR_EXECUTOR));
	json_u("frame_ns", frame);
	json_u("sync_ns", get32(in, VLC_ATTR_SYNC_NS));
	json_u("guard_ns", get32(in, VLC_ATTR_GUARD_NS));
	json_u("data_ns", get32(in, VLC_ATTR_DATA_NS));
	json_u("tolerance_ns", get32(in, VLC_ATTR_TOLERANCE_NS));
	json_u("bit_rate", frame ? (unsigned long long)bits * 1000000000 /
		frame : 0ULL);
	json_b("link_up", get8(in, VLC_ATTR_RUNNING));
	json_b("carrier", get8(in, VLC_ATTR_CARRIER));
	json_b("locked", get8(in, VLC_ATTR_LOCKED));
	json_u("signal", get32(in, VLC_ATTR_SIGNAL));
	json_u("noise", get32(in, VLC_ATTR_NOISE));
	json_u("ambient", get32(in, VLC_ATTR_AMBIENT));
	json_u("frames", get64(in, VLC_ATTR_PHY_FRAMES));
	json_u("symbols_tx", get64(in, VLC_ATTR_PHY_SYMBOLS_TX));
	json_u("symbols_rx", get64(in, VLC_ATTR_PHY_SYMBOLS_RX));
	json_u("erasures", get64(in, VLC_ATTR_PHY_ERASURES));
	json_u("late", get64(in, VLC_ATTR_PHY_LATE));
	json_u("overruns", get64(in, VLC_ATTR_PHY_OVERRUNS));
	if (in->a[VLC_ATTR_RTS_THRESHOLD]) {
		json_u("rts_threshold", get32(in, VLC_ATTR_RTS_THRESHOLD));
		json_u("retry_limit", get32(in, VLC_ATTR_RETRY_LIMIT));
		json_u("cw_min", get32(in, VLC_ATTR_CW_MIN));
		json_u("cw_max", get32(in, VLC_ATTR_CW_MAX));
		json_u("frag_size", get32(in, VLC_ATTR_FRAG_SIZE));
		json_u("beacon_interval",
		       get32(in, VLC_ATTR_BEACON_INTERVAL));
		json_u("loc_interval", get32(in, VLC_ATTR_LOC_INTERVAL));
		json_u("max_age", get32(in, VLC_ATTR_MAX_AGE));
		/* "off", "auto" or the parity count, as in the text */
		if (in->a[VLC_ATTR_FEC]) {
			uint32_t fec = get32(in, VLC_ATTR_FEC);

			if (fec == VLC_FEC_OFF || fec == VLC_FEC_AUTO)
				printf(",\"fec\":\"%s\"",
				       fec_name(b, sizeof(b), fec));
			else
				json_u("fec", fec);
		}
		json_u("nav", get32(in, VLC_ATTR_NAV));
		printf(",\"beacons\":[");
		for (i = 0; i < in->nbeacons; i++)
			printf("%s{\"id\":%u,\"level\":%u,\"count\":%u,\"age_ms\":%u}",
			       i ? "," : "", in->beacons[i].id,
			       in->beacons[i].level, in->beacons[i].count,
			       in->beacons[i].age_ms);
		printf("]");
	}
	printf("}");
}

static int show_cb(const struct nlmsghdr *nlh, void *data)
{
	struct ctx *c = data;
	struct info in;

	memset(&in, 0, sizeof(in));
	if (mnl_attr_parse(nlh, sizeof(struct genlmsghdr), info_attr_cb,
			   &in) < 0)
		return MNL_CB_ERROR;
	parse_beacons(&in);
	if (c->json) {
		if (c->shown)
			putchar(',');
		show_json(&in);
	} else {
		show_text(&in);
	}
	c->shown++;
	return MNL_CB_OK;
}

static int cmd_show(struct ctx *c, int argc, char **argv)
{
	struct nlmsghdr *nlh;
	char what[64];
	int ret;

	if (argc > 1)
		return usage_err("show: one device at most, not '%s'", argv[1]);
	if (argc == 1) {
		snprintf(what, sizeof(what), "show %s", argv[0]);
		c->what = what;
		if (resolve_family(c))
			return 1;
		nlh = new_req(c, c->family, NLM_F_ACK, VLC_CMD_GET,
			      VLC_GENL_VERSION);
		mnl_attr_put_strz(nlh, VLC_ATTR_IFNAME, argv[0]);
	} else {
		c->what = "show";
		if (resolve_family(c))
			return 1;
		nlh = new_req(c, c->family, NLM_F_DUMP, VLC_CMD_GET,
			      VLC_GENL_VERSION);
	}
	/* JSON: an array, complete even when the request fails */
	if (c->json)
		putchar('[');
	ret = talk(c, nlh, show_cb, c) ? 1 : 0;
	if (c->json)
		printf("]\n");
	return ret;
}

/* ---- monitor ---- */

static const char *const event_name[VLC_EVENT_MAX + 1] = {
	[VLC_EVENT_LOCK] = "lock",
	[VLC_EVENT_UNLOCK] = "unlock",
	[VLC_EVENT_CARRIER_ON] = "carrier on",
	[VLC_EVENT_CARRIER_OFF] = "carrier off",
	[VLC_EVENT_NEIGH_NEW] = "neighbour heard",
	[VLC_EVENT_NEIGH_GONE] = "neighbour forgotten",
};

struct event {
	const char *ifname;
	int event;
	int neigh;
};

static int event_attr_cb(const struct nlattr *a, void *data)
{
	struct event *ev = data;

	switch (mnl_attr_get_type(a)) {
	case VLC_ATTR_IFNAME:
		if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0)
			ev->ifname = mnl_attr_get_str(a);
		break;
	case VLC_ATTR_EVENT:
		if (mnl_attr_validate(a, MNL_TYPE_U8) >= 0)
			ev->event = mnl_attr_get_u8(a);
		break;
	case VLC_ATTR_NEIGH_ID:
		if (mnl_attr_validate(a, MNL_TYPE_U8) >= 0)
			ev->neigh = mnl_attr_get_u8(a);
		break;
	default:
		break;
	}
	return MNL_CB_OK;
}

static int event_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	struct event ev = { .event = -1, .neigh = -1 };
	const char *dev = data, *name;

	if (g->cmd != VLC_CMD_EVENT ||
	    mnl_attr_parse(nlh, sizeof(*g), event_attr_cb, &ev) < 0 ||
	    !ev.ifname || (dev && strcmp(dev, ev.ifname)))
		return MNL_CB_OK;
	name = ev.event >= 0 && ev.event <= VLC_EVENT_MAX &&
	       event_name[ev.event] ? event_name[ev.event] : "unknown";
	if (json_out) {
		printf("{\"ifname\":");
		json_str(ev.ifname);
		printf(",\"event\":\"%s\"", name);
		if (ev.neigh >= 0)
			printf(",\"neighbour\":%d", ev.neigh);
		printf("}\n");
	} else if (ev.neigh >= 0) {
		printf("%s: %s %d\n", ev.ifname, name, ev.neigh);
	} else {
		printf("%s: %s\n", ev.ifname, name);
	}
	fflush(stdout);
	return MNL_CB_OK;
}

static int cmd_monitor(struct ctx *c, int argc, char **argv)
{
	char *rbuf;
	ssize_t n;
	int grp;

	if (argc > 1)
		return usage_err("monitor: one device at most, not '%s'",
				 argv[1]);
	c->what = "monitor";
	if (resolve_family(c))
		return 1;
	if (!c->mcgrp) {
		fprintf(stderr, "%s: monitor: no \"%s\" group (vlc.ko too old?)\n",
			prog, VLC_MCGRP_EVENTS);
		return 1;
	}
	grp = c->mcgrp;
	if (mnl_socket_setsockopt(c->nl, NETLINK_ADD_MEMBERSHIP, &grp,
				  sizeof(grp)) < 0) {
		perror(prog);
		return 1;
	}
	json_out = c->json;
	rbuf = malloc(MNL_SOCKET_BUFFER_SIZE);
	if (!rbuf) {
		perror(prog);
		return 1;
	}
	while ((n = mnl_socket_recvfrom(c->nl, rbuf,
					MNL_SOCKET_BUFFER_SIZE)) > 0)
		if (mnl_cb_run(rbuf, n, 0, 0, event_cb,
			       argc ? argv[0] : NULL) < MNL_CB_STOP)
			break;
	perror(prog);
	free(rbuf);
	return 1;
}

/* ---- set ---- */

/* "12", "12.5" or "0.125" microseconds to nanoseconds. */
static int parse_us(const char *s, uint32_t *ns)
{
	uint64_t v = 0;
	int frac = -1;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s == '.' && frac < 0) {
			frac = 0;
			continue;
		}
		if (*s < '0' || *s > '9' || frac == 3)
			return -1;
		v = v * 10 + (*s - '0');
		if (frac >= 0)
			frac++;
		if (v > UINT32_MAX)
			return -1;
	}
	if (frac == 0)
		return -1;
	for (frac = frac < 0 ? 0 : frac; frac < 3; frac++)
		v *= 10;
	if (v > UINT32_MAX)
		return -1;
	*ns = v;
	return 0;
}

int parse_u32(const char *s, uint32_t *v)
{
	char *end;
	unsigned long long x;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end || x > UINT32_MAX)
		return -1;
	*v = x;
	return 0;
}

static const struct {
	const char *key;
	int type;
} timing_keys[] = {
	{ "frame-us", VLC_ATTR_FRAME_NS },
	{ "sync-us", VLC_ATTR_SYNC_NS },
	{ "guard-us", VLC_ATTR_GUARD_NS },
	{ "data-us", VLC_ATTR_DATA_NS },
	{ "tolerance-us", VLC_ATTR_TOLERANCE_NS },
};

/* MAC settings: whole numbers; the kernel checks their ranges. */
static const struct {
	const char *key;
	int type;
} mac_keys[] = {
	{ "rts-threshold", VLC_ATTR_RTS_THRESHOLD },
	{ "retry-limit", VLC_ATTR_RETRY_LIMIT },
	{ "cw-min", VLC_ATTR_CW_MIN },
	{ "cw-max", VLC_ATTR_CW_MAX },
	{ "frag-size", VLC_ATTR_FRAG_SIZE },
	{ "beacon-interval", VLC_ATTR_BEACON_INTERVAL },
	{ "loc-interval", VLC_ATTR_LOC_INTERVAL },
	{ "max-age", VLC_ATTR_MAX_AGE },
};

/* fec: off, auto, or the parity symbols of a level the MAC knows; any
 * other word is refused here, before the kernel is asked.
 */
static int parse_fec(const char *s, uint32_t *v)
{
	static const char *const parity[] = { "2", "4", "8", "16", "32" };
	unsigned int i;

	if (!strcmp(s, "off")) {
		*v = VLC_FEC_OFF;
		return 0;
	}
	if (!strcmp(s, "auto")) {
		*v = VLC_FEC_AUTO;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(parity); i++)
		if (!strcmp(s, parity[i]))
			return parse_u32(s, v);
	return -1;
}

static int mac_key(const char *k)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mac_keys); i++)
		if (!strcmp(k, mac_keys[i].key))
			return mac_keys[i].type;
	return -1;
}

static int cmd_set(struct ctx *c, int argc, char **argv)
{
	struct { int type; uint32_t v; } set[16];
	struct nlmsghdr *nlh;
	unsigned int i, nset = 0;
	char what[64];
	uint32_t v;
	int n;

	if (argc < 1)
		return usage_err("set: which device?");
	if (argc < 3)
		return usage_err("set %s: nothing to set", argv[0]);
	if (argc % 2 == 0)
		return usage_err("set: '%s' needs a value", argv[argc - 1]);
	if ((argc - 1) / 2 > (int)ARRAY_SIZE(set))
		return usage_err("set %s: too many settings", argv[0]);

	/* All of the command line is checked before the kernel is asked. */
	for (n = 1; n < argc; n += 2) {
		const char *k = argv[n], *val = argv[n + 1];

		if (!strcmp(k, "modulation")) {
			if (!strcmp(val, "2slot"))
				v = VLC_MODULATION_2SLOT;
			else if (!strcmp(val, "4ppm"))
				v = VLC_MODULATION_4PPM;
			else
				return usage_err("modulation: '%s' is neither 2slot nor 4ppm",
						 val);
			set[nset].type = VLC_ATTR_MODULATION;
		} else if (!strcmp(k, "brightness")) {
			if (parse_u32(val, &v))
				return usage_err("brightness: '%s' is not a number of per-mille",
						 val);
			set[nset].type = VLC_ATTR_BRIGHTNESS;
		} else if (!strcmp(k, "fec")) {
			if (parse_fec(val, &v))
				return usage_err("fec: '%s' is not off, auto, 2, 4, 8, 16 or 32",
						 val);
			set[nset].type = VLC_ATTR_FEC;
		} else if (mac_key(k) >= 0) {
			if (parse_u32(val, &v))
				return usage_err("%s: '%s' is not a whole number",
						 k, val);
			set[nset].type = mac_key(k);
		} else {
			for (i = 0; i < ARRAY_SIZE(timing_keys); i++)
				if (!strcmp(k, timing_keys[i].key))
					break;
			if (i == ARRAY_SIZE(timing_keys))
				return usage_err("set: unknown setting '%s'", k);
			if (parse_us(val, &v)) {
				fprintf(stderr,
					"%s: %s: '%s' is not microseconds (0..4294967.295)\n",
					prog, k, val);
				return 2;
			}
			set[nset].type = timing_keys[i].type;
		}
		set[nset++].v = v;
	}

	snprintf(what, sizeof(what), "set %s", argv[0]);
	c->what = what;
	if (resolve_family(c))
		return 1;
	nlh = new_req(c, c->family, NLM_F_ACK, VLC_CMD_SET, VLC_GENL_VERSION);
	mnl_attr_put_strz(nlh, VLC_ATTR_IFNAME, argv[0]);
	for (i = 0; i < nset; i++) {
		if (set[i].type == VLC_ATTR_MODULATION)
			mnl_attr_put_u8(nlh, set[i].type, set[i].v);
		else
			mnl_attr_put_u32(nlh, set[i].type, set[i].v);
	}
	return talk(c, nlh, NULL, NULL) ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct ctx c = { 0 };
	int one = 1, ret;

	while (argc > 1 && argv[1][0] == '-') {
		if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
			help(stdout);
			return 0;
		}
		if (strcmp(argv[1], "-j") && strcmp(argv[1], "--json"))
			return usage_err("unknown option '%s'", argv[1]);
		c.json = true;
		argc--;
		argv++;
	}
	if (argc < 2) {
		help(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "help")) {
		help(stdout);
		return 0;
	}
	if (strcmp(argv[1], "show") && strcmp(argv[1], "set") &&
	    strcmp(argv[1], "monitor") && strcmp(argv[1], "sim"))
		return usage_err("unknown command '%s'", argv[1]);

	c.buf = malloc(MNL_SOCKET_BUFFER_SIZE);
	c.nl = mnl_socket_open(NETLINK_GENERIC);
	if (!c.buf || !c.nl) {
		perror(prog);
		return 1;
	}
	/* Extended ACKs: the kernel's message and the attribute it names. */
	mnl_socket_setsockopt(c.nl, NETLINK_EXT_ACK, &one, sizeof(one));
	if (mnl_socket_bind(c.nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror(prog);
		return 1;
	}
	c.portid = mnl_socket_get_portid(c.nl);
	c.seq = time(NULL);

	if (!strcmp(argv[1], "show"))
		ret = cmd_show(&c, argc - 2, argv + 2);
	else if (!strcmp(argv[1], "monitor"))
		ret = cmd_monitor(&c, argc - 2, argv + 2);
	else if (!strcmp(argv[1], "sim"))
		ret = cmd_sim(&c, argc - 2, argv + 2);
	else
		ret = cmd_set(&c, argc - 2, argv + 2);

	mnl_socket_close(c.nl);
	free(c.buf);
	return ret;
}
