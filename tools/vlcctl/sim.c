// SPDX-License-Identifier: GPL-2.0
/* vlcctl sim: the simulated medium of vlc_sim.ko. show, time, set, node
 * and edge; load is the topology file's (topo.c). A node is named by its
 * id, or by its device and netns: the kernel gives each node's netns as a
 * cookie, which is matched against those of the netns named under
 * /run/netns (setns() there and back).
 */

#define _GNU_SOURCE		/* setns() */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "sim.h"

/* a node or an edge nest, parsed: the sum is above either's max */
#define SIM_TB		(VLC_SIM_NODE_ATTR_MAX + VLC_SIM_EDGE_ATTR_MAX + 1)

/* Older C libraries lack it; the asm-generic value, as on x86, arm and
 * arm64 (Linux 5.14 and later).
 */
#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE	71
#endif

/* ---- sim: what a user gives ---- */

static char errbuf[256];

/* What a parser found wrong, for its caller to say where. */
const char *fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(errbuf, sizeof(errbuf), fmt, ap);
	va_end(ap);
	return errbuf;
}

static int parse_u64(const char *s, uint64_t *v)
{
	unsigned long long x;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

static int parse_s32(const char *s, int32_t *v)
{
	const char *d = *s == '-' || *s == '+' ? s + 1 : s;
	long long x;
	char *end;

	if (*d < '0' || *d > '9')
		return -1;
	errno = 0;
	x = strtoll(s, &end, 10);
	if (errno || *end || x < INT32_MIN || x > INT32_MAX)
		return -1;
	*v = x;
	return 0;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static bool sim_u64(unsigned int type)
{
	return type == VLC_SIM_ATTR_SEED || type == VLC_SIM_ATTR_VTIME_US;
}

static int sim_key(const char *key)
{
	unsigned int t;

	for (t = SIM_KEY_FIRST; t <= SIM_KEY_LAST; t++)
		if (!strcmp(key, sim_names[t]))
			return t;
	return -1;
}

/* KEY VALUE pairs of the medium into @m; a key given twice keeps its
 * last value, as the kernel would. Return: NULL, or what is wrong.
 */
const char *parse_medium(struct sim_medium *m, char **w, int n)
{
	int i, t;

	for (i = 0; i < n; i += 2) {
		t = sim_key(w[i]);
		if (t < 0)
			return fail("unknown medium setting '%s'", w[i]);
		if (i + 1 == n)
			return fail("%s: which value?", w[i]);
		if (parse_u64(w[i + 1], &m->val[t]) ||
		    (!sim_u64(t) && m->val[t] > UINT32_MAX))
			return fail("%s: '%s' is not a whole number", w[i],
				    w[i + 1]);
		m->given |= 1u << t;
	}
	return NULL;
}

static const char *const rx_names[VLC_SIM_RX_MAX + 1] = {
	[VLC_SIM_RX_PD] = "pd",
	[VLC_SIM_RX_LED] = "led",
};

const char *rx_name(unsigned int rx)
{
	return rx <= VLC_SIM_RX_MAX && rx_names[rx] ? rx_names[rx] : "?";
}

/* A node setting @key @val (NULL: none was given) into @nc. Return:
 * NULL; "" when @key is not one (a file's node line has others); or what
 * is wrong.
 */
const char *parse_conf(struct sim_conf *nc, const char *key,
		       const char *val)
{
	unsigned int rx;

	if (!strcmp(key, "skew-ppm") || !strcmp(key, "phase-us")) {
		bool skew = key[0] == 's';

		if (!val)
			return fail("%s: which value?", key);
		if (parse_s32(val, skew ? &nc->skew_ppm : &nc->phase_us))
			return fail("%s: '%s' is not a whole number", key, val);
		nc->given |= 1u << (skew ? VLC_SIM_NODE_ATTR_SKEW_PPM :
				    VLC_SIM_NODE_ATTR_PHASE_US);
		return NULL;
	}
	if (strcmp(key, "rx"))
		return "";
	for (rx = 0; rx <= VLC_SIM_RX_MAX; rx++)
		if (val && rx_names[rx] && !strcmp(val, rx_names[rx]))
			break;
	if (rx > VLC_SIM_RX_MAX)
		return fail("rx: '%s' is neither pd nor led", val ? val : "");
	nc->rx = rx;
	nc->given |= 1u << VLC_SIM_NODE_ATTR_RX;
	return NULL;
}

/* As the kernel's dev_valid_name(). */
static bool valid_dev(const char *s)
{
	size_t n = strlen(s);

	return n && n < IFNAMSIZ && strcmp(s, ".") && strcmp(s, "..") &&
	       !strpbrk(s, "/: \t\n\v\f\r");
}

/* As ip netns add takes them. */
static bool valid_ns(const char *s)
{
	size_t n = strlen(s);

	return n && n <= NAME_MAX && strcmp(s, ".") && strcmp(s, "..") &&
	       !strchr(s, '/');
}

const char *parse_ref(struct noderef *r, const char *s)
{
	const char *slash = strchr(s, '/');
	size_t n = slash ? (size_t)(slash - s) : 0;
	char cookie[24];
	uint32_t id;

	memset(r, 0, sizeof(*r));
	r->text = s;
	r->id = -1;
	if (all_digits(s)) {
		if (parse_u32(s, &id))
			return fail("'%s': no node has that id", s);
		r->id = id;
		return NULL;
	}
	if (!valid_dev(slash ? slash + 1 : s))
		return fail("'%s' is not a node: an id, DEV or NS/DEV", s);
	snprintf(r->dev, sizeof(r->dev), "%s", slash ? slash + 1 : s);
	if (!slash)
		return NULL;
	if (s[0] == '#') {
		if (n < 2 || n > sizeof(cookie))
			return fail("'%s' is not #COOKIE/DEV", s);
		memcpy(cookie, s + 1, n - 1);
		cookie[n - 1] = '\0';
		if (!all_digits(cookie) || parse_u64(cookie, &r->cookie))
			return fail("'%s' is not #COOKIE/DEV", s);
		r->by_cookie = true;
		return NULL;
	}
	if (n > NAME_MAX)
		return fail("'%s': the netns name is too long", s);
	memcpy(r->ns, s, n);
	r->ns[n] = '\0';
	if (!valid_ns(r->ns))
		return fail("'%s' is not a node: an id, DEV or NS/DEV", s);
	return NULL;
}

/* ---- sim: network namespaces ---- */

/* A socket made in netns @ns (a name under /run/netns; NULL: ours): a
 * socket keeps the netns it was made in, so setns() there and back.
 * Return: the socket, or -1 (said on stderr if @warn).
 */
static int ns_socket(const char *ns, int domain, int type, int proto,
		     bool warn)
{
	char path[sizeof(NETNS_RUN_DIR) + NAME_MAX + 1];
	int self = -1, fd = -1, s = -1, err;

	if (!ns) {
		s = socket(domain, type | SOCK_CLOEXEC, proto);
		if (s < 0 && warn)
			fprintf(stderr, "%s: socket: %s\n", prog,
				strerror(errno));
		return s;
	}
	snprintf(path, sizeof(path), "%s/%s", NETNS_RUN_DIR, ns);
	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (self < 0) {
		if (warn)
			fprintf(stderr, "%s: /proc/self/ns/net: %s\n", prog,
				strerror(errno));
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET)) {
		if (warn)
			fprintf(stderr, "%s: netns %s: %s\n", prog, ns,
				strerror(errno));
		goto out;
	}
	s = socket(domain, type | SOCK_CLOEXEC, proto);
	err = errno;
	/* stranded in another netns, nothing after this would be right */
	if (setns(self, CLONE_NEWNET)) {
		fprintf(stderr, "%s: back from netns %s: %s\n", prog, ns,
			strerror(errno));
		exit(1);
	}
	if (s < 0 && warn)
		fprintf(stderr, "%s: netns %s: socket: %s\n", prog, ns,
			strerror(err));
out:
	if (fd >= 0)
		close(fd);
	close(self);
	return s;
}

/* The cookie of netns @ns (NULL: ours), as the kernel gives a node's. */
int ns_cookie(const char *ns, uint64_t *cookie, bool warn)
{
	socklen_t len = sizeof(*cookie);
	int s = ns_socket(ns, AF_UNIX, SOCK_DGRAM, 0, warn);

	if (s < 0)
		return -1;
	if (getsockopt(s, SOL_SOCKET, SO_NETNS_COOKIE, cookie, &len) ||
	    len != sizeof(*cookie)) {
		if (warn)
			fprintf(stderr, "%s: SO_NETNS_COOKIE: %s (Linux 5.14 or later)\n",
				prog, strerror(errno));
		close(s);
		return -1;
	}
	close(s);
	return 0;
}

struct netns_name {
	char name[NAME_MAX + 1];
	uint64_t cookie;
};

static int not_dot(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* The netns named under /run/netns, with their cookies, by name: where
 * two names are one netns, sim show says the first. Those that cannot be
 * entered (a name left from a netns gone) are left out.
 */
static unsigned int netns_names(struct netns_name **out)
{
	struct netns_name *nn;
	struct dirent **list;
	unsigned int k = 0;
	int n, i;

	*out = NULL;
	n = scandir(NETNS_RUN_DIR, &list, not_dot, alphasort);
	if (n <= 0)
		return 0;
	nn = calloc(n, sizeof(*nn));
	for (i = 0; i < n; i++) {
		if (nn && valid_ns(list[i]->d_name) &&
		    !ns_cookie(list[i]->d_name, &nn[k].cookie, false)) {
			snprintf(nn[k].name, sizeof(nn[k].name), "%s",
				 list[i]->d_name);
			k++;
		}
		free(list[i]);
	}
	free(list);
	*out = nn;
	return k;
}

/* ---- sim: the kernel's view ---- */

static int tb_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;
	unsigned int type = mnl_attr_get_type(a);

	if (type < SIM_TB)
		tb[type] = a;
	return MNL_CB_OK;
}

static uint8_t tb_u8(const struct nlattr *const *tb, unsigned int type)
{
	const struct nlattr *a = tb[type];

	return a && mnl_attr_validate(a, MNL_TYPE_U8) >= 0 ?
	       mnl_attr_get_u8(a) : 0;
}

static uint32_t tb_u32(const struct nlattr *const *tb, unsigned int type)
{
	const struct nlattr *a = tb[type];

	return a && mnl_attr_validate(a, MNL_TYPE_U32) >= 0 ?
	       mnl_attr_get_u32(a) : 0;
}

static uint64_t tb_u64(const struct nlattr *const *tb, unsigned int type)
{
	const struct nlattr *a = tb[type];

	return a && mnl_attr_validate(a, MNL_TYPE_U64) >= 0 ?
	       mnl_attr_get_u64(a) : 0;
}

static int sim_medium_cb(const struct nlmsghdr *nlh, void *data)
{
	struct sim_medium *m = data;
	const struct nlattr *a, *s;
	unsigned int t;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) != VLC_ATTR_SIM)
			continue;
		mnl_attr_for_each_nested(s, a) {
			t = mnl_attr_get_type(s);
			if (t < SIM_KEY_FIRST || t > VLC_SIM_ATTR_MAX ||
			    mnl_attr_validate(s, sim_u64(t) ? MNL_TYPE_U64 :
							      MNL_TYPE_U32) < 0)
				continue;
			m->val[t] = sim_u64(t) ? mnl_attr_get_u64(s) :
						 mnl_attr_get_u32(s);
			m->given |= 1u << t;
		}
	}
	return MNL_CB_OK;
}

int sim_get(struct ctx *c, struct sim_medium *m)
{
	struct nlmsghdr *nlh = new_req(c, c->family, NLM_F_ACK,
				       VLC_CMD_SIM_GET, VLC_GENL_VERSION);

	memset(m, 0, sizeof(*m));
	return talk(c, nlh, sim_medium_cb, m);
}

static int sim_node_cb(const struct nlmsghdr *nlh, void *data)
{
	struct sim_nodes *ns = data;
	struct sim_node *n = &ns->node[ns->n];
	const struct nlattr *tb[SIM_TB], *a;
	struct sim_edge *e;
	bool has_id = false;

	if (ns->n == SIM_NODES)
		return MNL_CB_OK;
	memset(n, 0, sizeof(*n));
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		memset(tb, 0, sizeof(tb));
		if (mnl_attr_get_type(a) == VLC_ATTR_SIM_NODE &&
		    mnl_attr_parse_nested(a, tb_cb, tb) >= 0) {
			has_id = tb[VLC_SIM_NODE_ATTR_ID];
			n->id = tb_u32(tb, VLC_SIM_NODE_ATTR_ID);
			n->ifindex = tb_u32(tb, VLC_SIM_NODE_ATTR_IFINDEX);
			if (tb[VLC_SIM_NODE_ATTR_IFNAME] &&
			    mnl_attr_validate(tb[VLC_SIM_NODE_ATTR_IFNAME],
					      MNL_TYPE_NUL_STRING) >= 0)
				snprintf(n->dev, sizeof(n->dev), "%s",
					 mnl_attr_get_str(tb[VLC_SIM_NODE_ATTR_IFNAME]));
			n->cookie = tb_u64(tb, VLC_SIM_NODE_ATTR_NETNS_COOKIE);
			n->skew_ppm = tb_u32(tb, VLC_SIM_NODE_ATTR_SKEW_PPM);
			n->phase_us = tb_u32(tb, VLC_SIM_NODE_ATTR_PHASE_US);
			n->rx = tb_u8(tb, VLC_SIM_NODE_ATTR_RX);
			n->bursts = tb_u64(tb, VLC_SIM_NODE_ATTR_BURSTS);
			n->rx_lit = tb_u64(tb, VLC_SIM_NODE_ATTR_RX_LIT);
		} else if (mnl_attr_get_type(a) == VLC_ATTR_SIM_EDGE &&
			   n->nedges < SIM_NODES &&
			   mnl_attr_parse_nested(a, tb_cb, tb) >= 0 &&
			   tb[VLC_SIM_EDGE_ATTR_FROM]) {
			e = &n->edge[n->nedges++];
			e->from = tb_u32(tb, VLC_SIM_EDGE_ATTR_FROM);
			e->gain = tb_u32(tb, VLC_SIM_EDGE_ATTR_GAIN);
			e->cover_us = tb_u32(tb, VLC_SIM_EDGE_ATTR_COVER_US);
		}
	}
	if (has_id)
		ns->n++;
	return MNL_CB_OK;
}

static int node_cmp(const void *x, const void *y)
{
	const struct sim_node *a = x, *b = y;

	return a->id < b->id ? -1 : a->id > b->id;
}

int edge_cmp(const void *x, const void *y)
{
	const struct sim_edge *a = x, *b = y;

	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	return a->to < b->to ? -1 : a->to > b->to;
}

/* Every node, by id, with the edges into it, by the node they come from. */
int sim_dump(struct ctx *c, struct sim_nodes *ns)
{
	struct nlmsghdr *nlh = new_req(c, c->family, NLM_F_DUMP,
				       VLC_CMD_SIM_NODE_GET, VLC_GENL_VERSION);
	unsigned int i, j;

	ns->n = 0;
	if (talk(c, nlh, sim_node_cb, ns))
		return -1;
	qsort(ns->node, ns->n, sizeof(ns->node[0]), node_cmp);
	for (i = 0; i < ns->n; i++) {
		for (j = 0; j < ns->node[i].nedges; j++)
			ns->node[i].edge[j].to = ns->node[i].id;
		qsort(ns->node[i].edge, ns->node[i].nedges,
		      sizeof(ns->node[i].edge[0]), edge_cmp);
	}
	ns->dumped = true;
	return 0;
}

/* The id of node @r: a name is looked up in a SIM_NODE_GET dump (into
 * @ns, once) by the device's name and its netns's cookie.
 */
static int resolve_ref(struct ctx *c, const struct noderef *r,
		       struct sim_nodes *ns, uint32_t *id)
{
	uint64_t cookie = r->cookie;
	unsigned int i;

	if (r->id >= 0) {
		*id = r->id;
		return 0;
	}
	if (!r->by_cookie && ns_cookie(r->ns[0] ? r->ns : NULL, &cookie, true))
		return -1;
	if (!ns->dumped && sim_dump(c, ns))
		return -1;
	for (i = 0; i < ns->n; i++) {
		if (ns->node[i].cookie == cookie &&
		    !strcmp(ns->node[i].dev, r->dev)) {
			*id = ns->node[i].id;
			return 0;
		}
	}
	fprintf(stderr, "%s: %s: %s is not a node of the simulated medium\n",
		prog, c->what, r->text);
	return -1;
}

/* ---- sim: requests ---- */

void put_medium(struct nlmsghdr *nlh, const struct sim_medium *m)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, VLC_ATTR_SIM);
	unsigned int t;

	for (t = SIM_KEY_FIRST; t <= SIM_KEY_LAST; t++) {
		if (!(m->given & 1u << t))
			continue;
		if (sim_u64(t))
			mnl_attr_put_u64(nlh, t, m->val[t]);
		else
			mnl_attr_put_u32(nlh, t, m->val[t]);
	}
	mnl_attr_nest_end(nlh, nest);
}

void put_conf(struct nlmsghdr *nlh, uint32_t id, const struct sim_conf *nc)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, VLC_ATTR_SIM_NODE);

	mnl_attr_put_u32(nlh, VLC_SIM_NODE_ATTR_ID, id);
	if (nc->given & 1u << VLC_SIM_NODE_ATTR_SKEW_PPM)
		mnl_attr_put_u32(nlh, VLC_SIM_NODE_ATTR_SKEW_PPM,
				 (uint32_t)nc->skew_ppm);
	if (nc->given & 1u << VLC_SIM_NODE_ATTR_PHASE_US)
		mnl_attr_put_u32(nlh, VLC_SIM_NODE_ATTR_PHASE_US,
				 (uint32_t)nc->phase_us);
	if (nc->given & 1u << VLC_SIM_NODE_ATTR_RX)
		mnl_attr_put_u8(nlh, VLC_SIM_NODE_ATTR_RX, nc->rx);
	mnl_attr_nest_end(nlh, nest);
}

/* The light of @from seen by @to: a @gain and/or a cover of @cover_us
 * (NULL: not changed), and the same from @to to @from if @both.
 */
void put_edge(struct nlmsghdr *nlh, uint32_t from, uint32_t to,
	      const uint32_t *gain, const uint32_t *cover_us, bool both)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, VLC_ATTR_SIM_EDGE);

	mnl_attr_put_u32(nlh, VLC_SIM_EDGE_ATTR_FROM, from);
	mnl_attr_put_u32(nlh, VLC_SIM_EDGE_ATTR_TO, to);
	if (gain)
		mnl_attr_put_u32(nlh, VLC_SIM_EDGE_ATTR_GAIN, *gain);
	if (cover_us)
		mnl_attr_put_u32(nlh, VLC_SIM_EDGE_ATTR_COVER_US, *cover_us);
	if (both)
		mnl_attr_put(nlh, VLC_SIM_EDGE_ATTR_BOTH, 0, NULL);
	mnl_attr_nest_end(nlh, nest);
}

struct nlmsghdr *sim_set_req(struct ctx *c)
{
	return new_req(c, c->family, NLM_F_ACK, VLC_CMD_SIM_SET,
		       VLC_GENL_VERSION);
}

static int cmd_sim_set(struct ctx *c, int argc, char **argv)
{
	struct sim_medium m = { 0 };
	struct nlmsghdr *nlh;
	const char *err;

	if (!argc)
		return usage_err("sim set: nothing to set");
	err = parse_medium(&m, argv, argc);
	if (err)
		return usage_err("sim set: %s", err);
	c->what = "sim set";
	if (resolve_family(c))
		return 1;
	nlh = sim_set_req(c);
	put_medium(nlh, &m);
	return talk(c, nlh, NULL, NULL) ? 1 : 0;
}

static int cmd_sim_node(struct ctx *c, int argc, char **argv)
{
	struct sim_conf nc = { 0 };
	struct sim_nodes *ns;
	struct nlmsghdr *nlh;
	struct noderef r;
	const char *err;
	char what[64];
	uint32_t id;
	int i, ret = 1;

	if (argc < 1)
		return usage_err("sim node: which node?");
	if (argc < 2)
		return usage_err("sim node %s: nothing to set", argv[0]);
	err = parse_ref(&r, argv[0]);
	if (err)
		return usage_err("sim node: %s", err);
	for (i = 1; i < argc; i += 2) {
		err = parse_conf(&nc, argv[i], i + 1 < argc ? argv[i + 1] : NULL);
		if (err && !*err)
			return usage_err("sim node: unknown setting '%s'",
					 argv[i]);
		if (err)
			return usage_err("sim node: %s", err);
	}

	snprintf(what, sizeof(what), "sim node %s", argv[0]);
	c->what = what;
	if (resolve_family(c))
		return 1;
	ns = calloc(1, sizeof(*ns));
	if (!ns) {
		perror(prog);
		return 1;
	}
	if (!resolve_ref(c, &r, ns, &id)) {
		nlh = sim_set_req(c);
		put_conf(nlh, id, &nc);
		ret = talk(c, nlh, NULL, NULL) ? 1 : 0;
	}
	free(ns);
	return ret;
}

static int cmd_sim_edge(struct ctx *c, int argc, char **argv)
{
	uint32_t gain, cover_us, from, to;
	bool has_gain = false, has_cover = false, both = false;
	struct noderef rf, rt;
	struct sim_nodes *ns;
	struct nlmsghdr *nlh;
	const char *err;
	char what[80];
	int i, ret = 1;

	if (argc < 2)
		return usage_err("sim edge: FROM TO [gain N] [cover US] [both]");
	err = parse_ref(&rf, argv[0]);
	if (!err)
		err = parse_ref(&rt, argv[1]);
	if (err)
		return usage_err("sim edge: %s", err);
	for (i = 2; i < argc; i++) {
		bool g = !strcmp(argv[i], "gain");

		if (!strcmp(argv[i], "both")) {
			both = true;
			continue;
		}
		if (!g && strcmp(argv[i], "cover"))
			return usage_err("sim edge: unknown setting '%s'",
					 argv[i]);
		if (i + 1 == argc)
			return usage_err("sim edge: %s: which value?", argv[i]);
		if (parse_u32(argv[i + 1], g ? &gain : &cover_us))
			return usage_err("sim edge: %s: '%s' is not a whole number",
					 argv[i], argv[i + 1]);
		if (g)
			has_gain = true;
		else
			has_cover = true;
		i++;
	}
	if (!has_gain && !has_cover)
		return usage_err("sim edge %s %s: nothing to set (gain, cover)",
				 argv[0], argv[1]);

	snprintf(what, sizeof(what), "sim edge %s %s", argv[0], argv[1]);
	c->what = what;
	if (resolve_family(c))
		return 1;
	ns = calloc(1, sizeof(*ns));
	if (!ns) {
		perror(prog);
		return 1;
	}
	if (!resolve_ref(c, &rf, ns, &from) && !resolve_ref(c, &rt, ns, &to)) {
		nlh = sim_set_req(c);
		put_edge(nlh, from, to, has_gain ? &gain : NULL,
			 has_cover ? &cover_us : NULL, both);
		ret = talk(c, nlh, NULL, NULL) ? 1 : 0;
	}
	free(ns);
	return ret;
}

static int cmd_sim_time(struct ctx *c, int argc, char **argv)
{
	struct sim_medium m;

	if (argc)
		return usage_err("sim time: no arguments, not '%s'", argv[0]);
	c->what = "sim time";
	if (resolve_family(c) || sim_get(c, &m))
		return 1;
	if (!(m.given & 1u << VLC_SIM_ATTR_VTIME_US)) {
		fprintf(stderr, "%s: sim time: the kernel gave no virtual time\n",
			prog);
		return 1;
	}
	if (c->json)
		printf("{\"vtime_us\":%llu}\n",
		       (unsigned long long)m.val[VLC_SIM_ATTR_VTIME_US]);
	else
		printf("%llu\n",
		       (unsigned long long)m.val[VLC_SIM_ATTR_VTIME_US]);
	return 0;
}

/* ---- sim show ---- */

static int link_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);
	struct sim_node *n = data;
	const struct nlattr *a;

	if (nlh->nlmsg_type != RTM_NEWLINK ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*ifi) ||
	    ifi->ifi_index != (int)n->ifindex)
		return MNL_CB_OK;
	n->up = ifi->ifi_flags & IFF_UP;
	mnl_attr_for_each(a, nlh, sizeof(*ifi)) {
		if (mnl_attr_get_type(a) == IFLA_ADDRESS &&
		    mnl_attr_get_payload_len(a) == sizeof(n->mac)) {
			memcpy(n->mac, mnl_attr_get_payload(a), sizeof(n->mac));
			n->has_mac = true;
		}
	}
	return MNL_CB_OK;
}

static int addr_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct ifaddrmsg *ifa = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a, *local = NULL, *addr = NULL;
	struct sim_node *n = data;
	char b[INET6_ADDRSTRLEN];
	uint32_t flags;

	if (nlh->nlmsg_type != RTM_NEWADDR ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*ifa) ||
	    ifa->ifa_index != n->ifindex)
		return MNL_CB_OK;
	flags = ifa->ifa_flags;
	mnl_attr_for_each(a, nlh, sizeof(*ifa)) {
		if (mnl_attr_get_type(a) == IFA_LOCAL)
			local = a;
		else if (mnl_attr_get_type(a) == IFA_ADDRESS)
			addr = a;
		else if (mnl_attr_get_type(a) == IFA_FLAGS &&
			 mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
			flags = mnl_attr_get_u32(a);
	}
	/* as ip shows it: the local address, not a point-to-point peer */
	if (local)
		addr = local;
	/* What a file gives: IPv4, and IPv6 of global scope, but for those
	 * autoconfiguration adds (not permanent).
	 */
	if (!addr || (ifa->ifa_family == AF_INET6 &&
		      (ifa->ifa_scope != RT_SCOPE_UNIVERSE ||
		       !(flags & IFA_F_PERMANENT))) ||
	    mnl_attr_get_payload_len(addr) !=
	    (ifa->ifa_family == AF_INET ? 4U : ifa->ifa_family == AF_INET6 ? 16U : 0U) ||
	    !inet_ntop(ifa->ifa_family, mnl_attr_get_payload(addr), b, sizeof(b)))
		return MNL_CB_OK;
	if (n->naddrs == SIM_ADDRS) {
		fprintf(stderr, "%s: sim show: %s: more than %d addresses, %s left out\n",
			prog, n->name, SIM_ADDRS, b);
		return MNL_CB_OK;
	}
	snprintf(n->addr[n->naddrs++], sizeof(n->addr[0]), "%s/%u", b,
		 ifa->ifa_prefixlen);
	return MNL_CB_OK;
}

/* Whether node @n is up, its MAC address and its addresses, by
 * rtnetlink in its netns.
 */
static int sim_link(struct ctx *c, struct sim_node *n)
{
	struct ctx r = { .buf = c->buf, .seq = c->seq };
	struct ifinfomsg *ifi;
	struct ifaddrmsg *ifa;
	struct nlmsghdr *nlh;
	char what[NAME_LEN + 16];
	int fd, ret = -1;

	fd = ns_socket(n->ns, AF_NETLINK, SOCK_RAW, NETLINK_ROUTE, true);
	if (fd < 0)
		return -1;
	r.nl = mnl_socket_fdopen(fd);
	if (!r.nl) {
		perror(prog);
		close(fd);
		return -1;
	}
	if (mnl_socket_bind(r.nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror(prog);
		goto out;
	}
	r.portid = mnl_socket_get_portid(r.nl);
	snprintf(what, sizeof(what), "sim show: %s", n->name);
	r.what = what;

	nlh = mnl_nlmsg_put_header(r.buf);
	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = ++r.seq;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = n->ifindex;
	if (talk(&r, nlh, link_cb, n))
		goto out;

	/* IPv4 first, then IPv6; each in the order the kernel keeps them */
	nlh = mnl_nlmsg_put_header(r.buf);
	nlh->nlmsg_type = RTM_GETADDR;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = ++r.seq;
	ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	ifa->ifa_family = AF_UNSPEC;
	if (talk(&r, nlh, addr_cb, n))
		goto out;
	n->seen = true;
	ret = 0;
out:
	c->seq = r.seq;
	mnl_socket_close(r.nl);
	return ret;
}

/* How a file names node @n: DEV in our netns, NS/DEV in a named one. */
static void sim_name(struct sim_node *n, uint64_t self,
		     const struct netns_name *nn, unsigned int k)
{
	unsigned int i;

	n->known = true;
	if (n->cookie == self) {
		snprintf(n->name, sizeof(n->name), "%s", n->dev);
		return;
	}
	for (i = 0; i < k; i++) {
		if (nn[i].cookie == n->cookie) {
			n->ns = nn[i].name;
			snprintf(n->name, sizeof(n->name), "%s/%s", n->ns,
				 n->dev);
			return;
		}
	}
	n->known = false;
	snprintf(n->name, sizeof(n->name), "#%llu/%s",
		 (unsigned long long)n->cookie, n->dev);
	fprintf(stderr,
		"%s: sim show: node %u (%s) is in a netns without a name under %s: shown as %s, which sim load cannot create\n",
		prog, n->id, n->dev, NETNS_RUN_DIR, n->name);
}

const char *sim_name_of(const struct sim_nodes *ns, uint32_t id,
			char *b, size_t len)
{
	unsigned int i;

	for (i = 0; i < ns->n; i++)
		if (ns->node[i].id == id)
			return ns->node[i].name;
	snprintf(b, len, "%u", id);
	return b;
}

const char *mac_str(char *b, size_t len, const uint8_t *m)
{
	snprintf(b, len, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2],
		 m[3], m[4], m[5]);
	return b;
}

/* One object: "medium" with the keys of sim set ('_' for '-', values
 * in their units), and "nodes", by id; a node whose netns vlcctl cannot
 * enter has no "mac", "addresses" nor "up".
 */
static void sim_show_json(const struct sim_medium *m,
			  const struct sim_nodes *ns)
{
	unsigned int i, j, t;
	const char *p;
	char b[24];

	printf("{\"medium\":{");
	for (t = SIM_KEY_FIRST; t <= VLC_SIM_ATTR_NODES; t++) {
		printf("%s\"", t == SIM_KEY_FIRST ? "" : ",");
		for (p = sim_names[t]; *p; p++)
			putchar(*p == '-' ? '_' : *p);
		printf("\":%llu", (unsigned long long)m->val[t]);
	}
	printf("},\"nodes\":[");
	for (i = 0; i < ns->n; i++) {
		const struct sim_node *n = &ns->node[i];

		printf("%s{\"id\":%u,\"name\":", i ? "," : "", n->id);
		json_str(n->name);
		printf(",\"netns\":");
		if (n->ns)
			json_str(n->ns);
		else
			printf("null");
		json_u("netns_cookie", n->cookie);
		printf(",\"dev\":");
		json_str(n->dev);
		json_u("ifindex", n->ifindex);
		printf(",\"skew_ppm\":%d,\"phase_us\":%d,\"rx\":\"%s\"",
		       n->skew_ppm, n->phase_us, rx_name(n->rx));
		json_u("bursts", n->bursts);
		json_u("rx_lit", n->rx_lit);
		if (n->seen) {
			if (n->has_mac)
				printf(",\"mac\":\"%s\"",
				       mac_str(b, sizeof(b), n->mac));
			printf(",\"addresses\":[");
			for (j = 0; j < n->naddrs; j++)
				printf("%s\"%s\"", j ? "," : "", n->addr[j]);
			printf("]");
			json_b("up", n->up);
		}
		printf(",\"edges\":[");
		for (j = 0; j < n->nedges; j++) {
			printf("%s{\"from\":", j ? "," : "");
			json_str(sim_name_of(ns, n->edge[j].from, b,
					     sizeof(b)));
			printf(",\"gain\":%u,\"cover_us\":%u}",
			       n->edge[j].gain, n->edge[j].cover_us);
		}
		printf("]}");
	}
	printf("]}\n");
}

static int cmd_sim_show(struct ctx *c, int argc, char **argv)
{
	struct netns_name *nn = NULL;
	struct sim_nodes *ns;
	struct sim_medium m;
	unsigned int i, k;
	uint64_t self;
	int ret = 1;

	if (argc)
		return usage_err("sim show: no arguments, not '%s'", argv[0]);
	c->what = "sim show";
	if (resolve_family(c) || sim_get(c, &m))
		return 1;
	ns = calloc(1, sizeof(*ns));
	if (!ns) {
		perror(prog);
		return 1;
	}
	if (sim_dump(c, ns) || ns_cookie(NULL, &self, true))
		goto out;
	k = netns_names(&nn);
	ret = 0;
	for (i = 0; i < ns->n; i++) {
		sim_name(&ns->node[i], self, nn, k);
		/* printed all the same, but what was not read is wrong */
		if (ns->node[i].known && sim_link(c, &ns->node[i]))
			ret = 1;
	}
	if (c->json)
		sim_show_json(&m, ns);
	else if (sim_show_text(&m, ns))
		ret = 1;
out:
	free(nn);
	free(ns);
	return ret;
}

int cmd_sim(struct ctx *c, int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(struct ctx *c, int argc, char **argv);
	} cmds[] = {
		{ "show", cmd_sim_show },
		{ "time", cmd_sim_time },
		{ "set", cmd_sim_set },
		{ "node", cmd_sim_node },
		{ "edge", cmd_sim_edge },
		{ "load", cmd_sim_load },
	};
	unsigned int i;

	if (!argc)
		return usage_err("sim: show, time, set, node, edge or load?");
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(argv[0], cmds[i].name))
			return cmds[i].fn(c, argc - 1, argv + 1);
	return usage_err("sim: unknown command '%s'", argv[0]);
}
