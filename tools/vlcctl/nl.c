// SPDX-License-Identifier: GPL-2.0
/* vlcctl: the generic netlink plumbing all its commands share: a request,
 * its answers, the "vlc" family's id, and a refused request told in the
 * user's words (the kernel's extended ACK: its message, the attribute it
 * points at, by the name the user gave it, and the allowed range).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "vlcctl.h"

/* What the user calls each attribute (error messages, parsing). */
static const char *const attr_name[VLC_ATTR_MAX + 1] = {
	[VLC_ATTR_IFINDEX] = "ifindex",
	[VLC_ATTR_IFNAME] = "device",
	[VLC_ATTR_MODULATION] = "modulation",
	[VLC_ATTR_BRIGHTNESS] = "brightness",
	[VLC_ATTR_SYNC_NS] = "sync-us",
	[VLC_ATTR_GUARD_NS] = "guard-us",
	[VLC_ATTR_DATA_NS] = "data-us",
	[VLC_ATTR_FRAME_NS] = "frame-us",
	[VLC_ATTR_TOLERANCE_NS] = "tolerance-us",
	[VLC_ATTR_RTS_THRESHOLD] = "rts-threshold",
	[VLC_ATTR_RETRY_LIMIT] = "retry-limit",
	[VLC_ATTR_CW_MIN] = "cw-min",
	[VLC_ATTR_CW_MAX] = "cw-max",
	[VLC_ATTR_FRAG_SIZE] = "frag-size",
	[VLC_ATTR_BEACON_INTERVAL] = "beacon-interval",
	[VLC_ATTR_LOC_INTERVAL] = "loc-interval",
	[VLC_ATTR_MAX_AGE] = "max-age",
	[VLC_ATTR_FEC] = "fec",
};

/* Inside the sim nests, the keys of the sim commands: a value the kernel
 * refuses is named as the user gave it.
 */
const char *const sim_names[VLC_SIM_ATTR_MAX + 1] = {
	[VLC_SIM_ATTR_SPEED] = "speed",
	[VLC_SIM_ATTR_SEED] = "seed",
	[VLC_SIM_ATTR_AMBIENT] = "ambient",
	[VLC_SIM_ATTR_FLICKER] = "flicker",
	[VLC_SIM_ATTR_FLICKER_HZ] = "flicker-hz",
	[VLC_SIM_ATTR_NOISE] = "noise",
	[VLC_SIM_ATTR_SER_PPM] = "ser-ppm",
	[VLC_SIM_ATTR_LATE_PPM] = "late-ppm",
	[VLC_SIM_ATTR_LATE_US] = "late-us",
	[VLC_SIM_ATTR_BURST_PPM] = "burst-ppm",
	[VLC_SIM_ATTR_BURST_US] = "burst-us",
	[VLC_SIM_ATTR_VTIME_US] = "vtime-us",
	[VLC_SIM_ATTR_NODES] = "nodes",
};

static const char *const node_names[VLC_SIM_NODE_ATTR_MAX + 1] = {
	[VLC_SIM_NODE_ATTR_ID] = "node",
	[VLC_SIM_NODE_ATTR_IFINDEX] = "ifindex",
	[VLC_SIM_NODE_ATTR_IFNAME] = "dev",
	[VLC_SIM_NODE_ATTR_NETNS_COOKIE] = "netns",
	[VLC_SIM_NODE_ATTR_SKEW_PPM] = "skew-ppm",
	[VLC_SIM_NODE_ATTR_PHASE_US] = "phase-us",
	[VLC_SIM_NODE_ATTR_RX] = "rx",
	[VLC_SIM_NODE_ATTR_BURSTS] = "bursts",
	[VLC_SIM_NODE_ATTR_RX_LIT] = "rx-lit",
};

static const char *const edge_names[VLC_SIM_EDGE_ATTR_MAX + 1] = {
	[VLC_SIM_EDGE_ATTR_FROM] = "from",
	[VLC_SIM_EDGE_ATTR_TO] = "to",
	[VLC_SIM_EDGE_ATTR_GAIN] = "gain",
	[VLC_SIM_EDGE_ATTR_BOTH] = "both",
	[VLC_SIM_EDGE_ATTR_COVER_US] = "cover",
};

struct sim_nest {
	unsigned int type;		/* VLC_ATTR_SIM* */
	const char *name;
	const char *const *names;	/* of the attributes inside */
	unsigned int max;
};

static const struct sim_nest sim_nests[] = {
	{ VLC_ATTR_SIM, "medium", sim_names, VLC_SIM_ATTR_MAX },
	{ VLC_ATTR_SIM_NODE, "node", node_names, VLC_SIM_NODE_ATTR_MAX },
	{ VLC_ATTR_SIM_EDGE, "edge", edge_names, VLC_SIM_EDGE_ATTR_MAX },
};

/* ---- extended ACK ---- */

struct extack {
	const char *msg;
	uint32_t offs;
	bool has_offs;
	uint32_t miss_type;
	bool has_miss;
	uint32_t miss_nest;
	bool has_miss_nest;
	uint64_t min, max;
	bool has_min, has_max;
	bool min_signed;
	int64_t smin, smax;
};

static int policy_cb(const struct nlattr *a, void *data)
{
	struct extack *ea = data;

	switch (mnl_attr_get_type(a)) {
	case NL_POLICY_TYPE_ATTR_MIN_VALUE_U:
		ea->min = mnl_attr_get_u64(a);
		ea->has_min = true;
		break;
	case NL_POLICY_TYPE_ATTR_MAX_VALUE_U:
		ea->max = mnl_attr_get_u64(a);
		ea->has_max = true;
		break;
	case NL_POLICY_TYPE_ATTR_MIN_VALUE_S:
		ea->smin = (int64_t)mnl_attr_get_u64(a);
		ea->has_min = true;
		ea->min_signed = true;
		break;
	case NL_POLICY_TYPE_ATTR_MAX_VALUE_S:
		ea->smax = (int64_t)mnl_attr_get_u64(a);
		ea->has_max = true;
		ea->min_signed = true;
		break;
	default:
		break;
	}
	return MNL_CB_OK;
}

static int extack_cb(const struct nlattr *a, void *data)
{
	struct extack *ea = data;

	switch (mnl_attr_get_type(a)) {
	case NLMSGERR_ATTR_MSG:
		if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0)
			ea->msg = mnl_attr_get_str(a);
		break;
	case NLMSGERR_ATTR_OFFS:
		if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0) {
			ea->offs = mnl_attr_get_u32(a);
			ea->has_offs = true;
		}
		break;
	case NLMSGERR_ATTR_MISS_TYPE:
		if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0) {
			ea->miss_type = mnl_attr_get_u32(a);
			ea->has_miss = true;
		}
		break;
	case NLMSGERR_ATTR_MISS_NEST:
		if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0) {
			ea->miss_nest = mnl_attr_get_u32(a);
			ea->has_miss_nest = true;
		}
		break;
	case NLMSGERR_ATTR_POLICY:
		mnl_attr_parse_nested(a, policy_cb, ea);
		break;
	default:
		break;
	}
	return MNL_CB_OK;
}

static const struct sim_nest *sim_nest_of(unsigned int type)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_nests); i++)
		if (sim_nests[i].type == type)
			return &sim_nests[i];
	return NULL;
}

static const char *name_of(unsigned int type)
{
	const struct sim_nest *n = sim_nest_of(type);

	if (type <= VLC_ATTR_MAX && attr_name[type])
		return attr_name[type];
	return n ? n->name : "attribute";
}

/* An attribute of type @type inside the nest @nest of the request. */
static const char *nested_name(const struct nlattr *nest, unsigned int type)
{
	const struct sim_nest *n = sim_nest_of(mnl_attr_get_type(nest));

	if (n && type <= n->max && n->names[type])
		return n->names[type];
	return "attribute";
}

/* The attribute at @offs of the request @req: a top-level one, or one
 * inside a top-level nest (@nest set to that nest). NULL if none starts
 * there.
 */
static const struct nlattr *req_attr_at(const struct nlmsghdr *req,
					uint32_t offs,
					const struct nlattr **nest)
{
	const char *base = (const char *)req;
	const struct nlattr *a, *b;

	*nest = NULL;
	mnl_attr_for_each(a, req, sizeof(struct genlmsghdr)) {
		uint32_t at = (const char *)a - base;

		if (offs == at)
			return a;
		if (offs < at || offs >= at + a->nla_len)
			continue;
		mnl_attr_for_each_nested(b, a) {
			if ((uint32_t)((const char *)b - base) == offs) {
				*nest = a;
				return b;
			}
		}
		return NULL;
	}
	return NULL;
}

/* A policy limit in the unit the user typed: the kernel's timings are in
 * ns, the user's ("frame-us") in us. @ns: a top-level attribute, whose
 * "-us" names are such timings; the simulator's are in us for both.
 */
static void print_limit(const char *attr, bool ns, uint64_t v)
{
	size_t n = strlen(attr);
	char b[32];

	if (ns && n > 3 && !strcmp(attr + n - 3, "-us"))
		fputs(milli(b, sizeof(b), v), stderr);
	else
		fprintf(stderr, "%llu", (unsigned long long)v);
}

/* Whether the request is a simulator command: they need CAP_NET_ADMIN
 * in the initial user namespace, and vlc_sim.ko.
 */
static bool sim_req(const struct ctx *c)
{
	const struct genlmsghdr *g;

	if (!c->req || !c->family || c->req->nlmsg_type != c->family)
		return false;
	g = mnl_nlmsg_get_payload(c->req);
	return g->cmd == VLC_CMD_SIM_GET || g->cmd == VLC_CMD_SIM_SET ||
	       g->cmd == VLC_CMD_SIM_NODE_GET;
}

/* Print a refused request the way the kernel explained it. */
static void report(struct ctx *c, const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	struct extack ea = { 0 };
	size_t hlen = sizeof(*err);
	const struct nlattr *a = NULL, *nest = NULL;
	const char *attr = NULL;
	bool ours;

	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		hlen += err->msg.nlmsg_len - sizeof(struct nlmsghdr);
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) &&
	    nlh->nlmsg_len > NLMSG_HDRLEN + hlen)
		mnl_attr_parse_payload((const char *)err + hlen,
				       nlh->nlmsg_len - NLMSG_HDRLEN - hlen,
				       extack_cb, &ea);

	/* The offsets are into our request: find the attribute there, in a
	 * nest if it points into one (the sim commands' settings). Only ours
	 * are named: rtnetlink's and the controller's types mean other things.
	 */
	ours = c->req && c->family && c->req->nlmsg_type == c->family;
	if (ours && ea.has_offs)
		a = req_attr_at(c->req, ea.offs, &nest);
	if (a && nest) {
		attr = nested_name(nest, mnl_attr_get_type(a));
	} else if (a) {
		attr = name_of(mnl_attr_get_type(a));
	} else if (ours && ea.has_miss) {
		/* missing inside a nest: named as the nest's attributes are */
		if (ea.has_miss_nest)
			a = req_attr_at(c->req, ea.miss_nest, &nest);
		attr = a && !nest ? nested_name(a, ea.miss_type) :
				    name_of(ea.miss_type);
	}

	fprintf(stderr, "%s: %s: ", prog, c->what);
	if (ea.msg)
		fprintf(stderr, "%s", ea.msg);
	else
		fprintf(stderr, "%s", strerror(-err->error));
	if (!ea.msg && err->error == -EPERM)
		fprintf(stderr, ": %s", sim_req(c) ?
			"the simulator needs CAP_NET_ADMIN in the initial user namespace" :
			"changing settings needs CAP_NET_ADMIN in the device's network namespace");
	if (!ea.msg && err->error == -EOPNOTSUPP && sim_req(c))
		fprintf(stderr, ": is vlc_sim.ko loaded?");
	if (attr)
		fprintf(stderr, " [%s", attr);
	if (attr && ea.has_min && ea.has_max && ea.min_signed) {
		fprintf(stderr, ": %lld..%lld", (long long)ea.smin,
			(long long)ea.smax);
	} else if (attr && ea.has_min && ea.has_max) {
		fputs(": ", stderr);
		print_limit(attr, !nest, ea.min);
		fputs("..", stderr);
		print_limit(attr, !nest, ea.max);
	}
	if (attr)
		fputc(']', stderr);
	if (ea.msg)
		fprintf(stderr, " (%s)", strerror(-err->error));
	fputc('\n', stderr);
}

/* ---- requests ---- */

struct nlmsghdr *new_req(struct ctx *c, uint16_t type, uint16_t flags,
			 uint8_t cmd, uint8_t version)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(c->buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++c->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

/* Send @nlh and feed the answers to @cb until the ACK or the end of the
 * dump. Return: 0, or -1 with the error reported.
 */
int talk(struct ctx *c, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	char *rbuf = malloc(MNL_SOCKET_BUFFER_SIZE * 8);
	size_t rlen = MNL_SOCKET_BUFFER_SIZE * 8;
	int ret = -1;

	if (!rbuf) {
		perror(prog);
		return -1;
	}
	c->req = nlh;
	if (mnl_socket_sendto(c->nl, nlh, nlh->nlmsg_len) < 0) {
		fprintf(stderr, "%s: %s: send: %s\n", prog, c->what,
			strerror(errno));
		goto out;
	}
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(c->nl, rbuf, rlen);
		const struct nlmsghdr *h = (const void *)rbuf;
		int len = n;

		if (n < 0) {
			fprintf(stderr, "%s: %s: receive: %s\n", prog, c->what,
				strerror(errno));
			goto out;
		}
		for (; mnl_nlmsg_ok(h, len); h = mnl_nlmsg_next(h, &len)) {
			if (h->nlmsg_seq != nlh->nlmsg_seq ||
			    h->nlmsg_pid != c->portid)
				continue;
			if (h->nlmsg_type == NLMSG_DONE) {
				const int *e = mnl_nlmsg_get_payload(h);

				/* a dump that failed half way says so here */
				if (mnl_nlmsg_get_payload_len(h) >= sizeof(*e) &&
				    *e < 0)
					fprintf(stderr, "%s: %s: %s\n", prog,
						c->what, strerror(-*e));
				else
					ret = 0;
				goto out;
			}
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e =
					mnl_nlmsg_get_payload(h);

				if (e->error)
					report(c, h);
				else
					ret = 0;
				goto out;
			}
			if (cb && cb(h, data) < MNL_CB_OK)
				goto out;
		}
	}
out:
	c->req = NULL;
	free(rbuf);
	return ret;
}

/* One CTRL_ATTR_MCAST_GROUPS entry: the events group's id. */
static void mcgrp_entry(const struct nlattr *grp, struct ctx *c)
{
	const struct nlattr *a;
	const char *name = NULL;
	uint32_t id = 0;

	mnl_attr_for_each_nested(a, grp) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_NAME &&
		    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0)
			name = mnl_attr_get_str(a);
		else if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_ID &&
			 mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
			id = mnl_attr_get_u32(a);
	}
	if (name && !strcmp(name, VLC_MCGRP_EVENTS))
		c->mcgrp = id;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct ctx *c = data;
	const struct nlattr *a, *g;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID &&
		    mnl_attr_validate(a, MNL_TYPE_U16) >= 0)
			c->family = mnl_attr_get_u16(a);
		else if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GROUPS)
			mnl_attr_for_each_nested(g, a)
				mcgrp_entry(g, c);
	}
	return MNL_CB_OK;
}

int resolve_family(struct ctx *c)
{
	struct nlmsghdr *nlh = new_req(c, GENL_ID_CTRL, NLM_F_ACK,
				       CTRL_CMD_GETFAMILY, 1);
	const char *what = c->what;

	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, VLC_GENL_NAME);
	c->what = "generic netlink family \"" VLC_GENL_NAME
		  "\" (is vlc.ko loaded?)";
	if (talk(c, nlh, family_cb, c) || !c->family)
		return -1;
	c->what = what;
	return 0;
}
