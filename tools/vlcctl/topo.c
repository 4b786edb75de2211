// SPDX-License-Identifier: GPL-2.0
/* vlcctl: the topology file (vlcctl.8, "TOPOLOGY FILES"). sim show
 * prints the simulated medium as one, and sim load reads one: every line
 * checked first, then the netns and devices made by ip(8), then the
 * medium, the nodes and the light between them set over netlink.
 */

#define _GNU_SOURCE		/* getline(), strdup() */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "sim.h"

/* ---- sim show ---- */

static bool default_mac(const struct sim_node *n)
{
	static const uint8_t base[5] = { 0x02, 0x56, 0x4c, 0x43, 0x00 };

	/* 02:56:4c:43:00:XX, XX = id + 1: vlc_sim's, the short address XX */
	return !memcmp(n->mac, base, sizeof(base)) && n->mac[5] == n->id + 1;
}

/* The topology as sim load reads it: the medium, the nodes by id with
 * what differs from a new node's, and every lit edge, by (FROM, TO) id.
 */
int sim_show_text(const struct sim_medium *m, const struct sim_nodes *ns)
{
	struct sim_edge *all = malloc(sizeof(*all) * SIM_NODES * SIM_NODES);
	unsigned int i, j, t, nall = 0;
	char b[2][24];

	if (!all) {
		perror(prog);
		return -1;
	}
	printf("medium");
	for (t = SIM_KEY_FIRST; t <= SIM_KEY_LAST; t++)
		printf(" %s %llu", sim_names[t], (unsigned long long)m->val[t]);
	putchar('\n');
	for (i = 0; i < ns->n; i++) {
		const struct sim_node *n = &ns->node[i];

		printf("node %s", n->name);
		for (j = 0; j < n->naddrs; j++)
			printf(" address %s", n->addr[j]);
		if (n->has_mac && !default_mac(n))
			printf(" mac %s", mac_str(b[0], sizeof(b[0]), n->mac));
		if (n->skew_ppm)
			printf(" skew-ppm %d", n->skew_ppm);
		if (n->phase_us)
			printf(" phase-us %d", n->phase_us);
		if (n->rx != VLC_SIM_RX_PD)
			printf(" rx %s", rx_name(n->rx));
		if (n->up)
			printf(" up");
		putchar('\n');
		for (j = 0; j < n->nedges; j++)
			if (n->edge[j].gain)
				all[nall++] = n->edge[j];
	}
	qsort(all, nall, sizeof(*all), edge_cmp);
	for (i = 0; i < nall; i++)
		printf("edge %s %s %u\n",
		       sim_name_of(ns, all[i].from, b[0], sizeof(b[0])),
		       sim_name_of(ns, all[i].to, b[1], sizeof(b[1])),
		       all[i].gain);
	free(all);
	return 0;
}

/* ---- sim load ---- */

#define LINE_WORDS	64

struct file_node {
	unsigned int line;
	struct noderef ref;		/* DEV or NS/DEV */
	char addr[SIM_ADDRS][ADDR_LEN];
	unsigned int naddrs;
	char mac[18];
	struct sim_conf conf;
	bool up;
	uint32_t id;			/* once created */
};

struct file_edge {
	unsigned int line;
	char *from_name, *to_name;
	int from, to;			/* file nodes */
	uint32_t gain;
};

struct topo {
	const char *file;
	struct sim_medium medium;
	unsigned int medium_line;
	struct file_node node[SIM_NODES];
	unsigned int nnodes;
	struct file_edge *edge;
	unsigned int nedges;
	unsigned int edge_line[SIM_NODES][SIM_NODES];	/* [from][to] */
};

/* Split @line at blanks into @w, up to a '#' that starts a word: a
 * comment, *@comment. Return: the number of words, -1 if too many.
 */
static int split(char *line, char **w, const char **comment)
{
	char *p = line;
	int n = 0;

	*comment = NULL;
	for (;;) {
		while (*p && strchr(" \t\r\n\v\f", *p))
			p++;
		if (!*p)
			return n;
		if (*p == '#') {
			*comment = p;
			return n;
		}
		if (n == LINE_WORDS)
			return -1;
		w[n++] = p;
		while (*p && !strchr(" \t\r\n\v\f", *p))
			p++;
		if (*p)
			*p++ = '\0';
	}
}

/* A node name of a file, @s: DEV or NS/DEV, which load can create. A
 * name sim show gives a node in a netns without a name, #COOKIE/DEV,
 * reads as a comment: @comment says so.
 */
static const char *file_name(struct noderef *r, const char *s,
			     const char *comment)
{
	const char *err;

	if (!s && comment && comment[1] >= '0' && comment[1] <= '9')
		return fail("%.*s: a netns without a name under %s cannot be loaded",
			    (int)strcspn(comment, " \t\r\n"), comment,
			    NETNS_RUN_DIR);
	if (!s)
		return fail("which node? DEV or NS/DEV");
	err = parse_ref(r, s);
	if (err)
		return err;
	if (r->id >= 0)
		return fail("'%s': a file names its nodes DEV or NS/DEV, not by id",
			    s);
	return NULL;
}

/* A/PLEN, or A: what ip addr add takes, as far as a file goes. */
static const char *check_addr(const char *s, char *out, size_t len)
{
	const char *slash = strchr(s, '/');
	size_t n = slash ? (size_t)(slash - s) : strlen(s);
	char a[INET6_ADDRSTRLEN];
	unsigned char bin[16];
	uint32_t plen;
	int af;

	if (n >= sizeof(a) || strlen(s) >= len)
		return fail("address '%s' is not A/PLEN", s);
	memcpy(a, s, n);
	a[n] = '\0';
	af = strchr(a, ':') ? AF_INET6 : AF_INET;
	if (inet_pton(af, a, bin) != 1 ||
	    (slash && (parse_u32(slash + 1, &plen) ||
		       plen > (af == AF_INET ? 32U : 128U))))
		return fail("address '%s' is not an IPv4 or IPv6 A/PLEN", s);
	memcpy(out, s, strlen(s) + 1);
	return NULL;
}

static bool valid_mac(const char *s)
{
	int i;

	if (strlen(s) != 17)
		return false;
	for (i = 0; i < 17; i++)
		if (i % 3 == 2 ? s[i] != ':' : !strchr("0123456789abcdefABCDEF", s[i]))
			return false;
	return true;
}

static bool same_ref(const struct noderef *a, const struct noderef *b)
{
	return !strcmp(a->ns, b->ns) && !strcmp(a->dev, b->dev);
}

static const char *parse_node(struct topo *t, char **w, int n,
			      unsigned int line, const char *comment)
{
	struct file_node *fn = &t->node[t->nnodes];
	const char *err, *key, *val;
	unsigned int i;
	int k;

	if (t->nnodes == SIM_NODES)
		return fail("more than %d nodes", SIM_NODES);
	memset(fn, 0, sizeof(*fn));
	fn->line = line;
	err = file_name(&fn->ref, n > 1 ? w[1] : NULL, comment);
	if (err)
		return err;
	for (i = 0; i < t->nnodes; i++)
		if (same_ref(&t->node[i].ref, &fn->ref))
			return fail("node %s: already on line %u", w[1],
				    t->node[i].line);
	for (k = 2; k < n; k++) {
		key = w[k];
		val = k + 1 < n ? w[k + 1] : NULL;
		if (!strcmp(key, "up")) {
			fn->up = true;
			continue;
		}
		if (!strcmp(key, "address")) {
			if (!val)
				return fail("address: which one?");
			if (fn->naddrs == SIM_ADDRS)
				return fail("more than %d addresses", SIM_ADDRS);
			err = check_addr(val, fn->addr[fn->naddrs],
					 sizeof(fn->addr[0]));
			if (err)
				return err;
			fn->naddrs++;
		} else if (!strcmp(key, "mac")) {
			if (!val || !valid_mac(val))
				return fail("mac: '%s' is not XX:XX:XX:XX:XX:XX",
					    val ? val : "");
			memcpy(fn->mac, val, sizeof(fn->mac));
		} else {
			err = parse_conf(&fn->conf, key, val);
			if (err && !*err)
				return fail("node %s: unknown setting '%s'",
					    w[1], key);
			if (err)
				return err;
		}
		k++;
	}
	t->nnodes++;
	return NULL;
}

static const char *parse_edge(struct topo *t, char **w, int n,
			      unsigned int line, const char *comment)
{
	struct file_edge *e;
	struct noderef r;
	const char *err;
	uint32_t gain;

	err = file_name(&r, n > 1 ? w[1] : NULL, comment);
	if (!err)
		err = file_name(&r, n > 2 ? w[2] : NULL, comment);
	if (err)
		return err;
	if (n != 4)
		return fail("edge FROM TO GAIN");
	if (parse_u32(w[3], &gain))
		return fail("edge %s %s: gain '%s' is not a whole number", w[1],
			    w[2], w[3]);
	if (!strcmp(w[1], w[2]))
		return fail("edge %s %s: a node does not light itself", w[1],
			    w[2]);
	e = realloc(t->edge, (t->nedges + 1) * sizeof(*e));
	if (!e)
		return fail("%s", strerror(errno));
	t->edge = e;
	e += t->nedges;
	e->line = line;
	e->gain = gain;
	e->from_name = strdup(w[1]);
	e->to_name = strdup(w[2]);
	t->nedges++;
	if (!e->from_name || !e->to_name)
		return fail("%s", strerror(errno));
	return NULL;
}

static int file_node_of(const struct topo *t, const char *name)
{
	struct noderef r;
	unsigned int i;

	if (parse_ref(&r, name))
		return -1;
	for (i = 0; i < t->nnodes; i++)
		if (same_ref(&t->node[i].ref, &r))
			return i;
	return -1;
}

/* The whole file, checked before anything changes. */
static int load_parse(FILE *f, struct topo *t)
{
	char *line = NULL, *w[LINE_WORDS];
	const char *err = NULL, *comment;
	unsigned int ln = 0, i;
	struct file_edge *e;
	size_t cap = 0;
	int n;

	while (!err && getline(&line, &cap, f) >= 0) {
		ln++;
		n = split(line, w, &comment);
		if (n < 0)
			err = fail("more than %d words", LINE_WORDS);
		else if (!n)
			continue;
		else if (!strcmp(w[0], "medium"))
			err = parse_medium(&t->medium, w + 1, n - 1);
		else if (!strcmp(w[0], "node"))
			err = parse_node(t, w, n, ln, comment);
		else if (!strcmp(w[0], "edge"))
			err = parse_edge(t, w, n, ln, comment);
		else
			err = fail("'%s': a line is medium, node or edge", w[0]);
		if (!err && !strcmp(w[0], "medium") && !t->medium_line)
			t->medium_line = ln;
	}
	free(line);
	if (err) {
		fprintf(stderr, "%s: %s:%u: %s\n", prog, t->file, ln, err);
		return -1;
	}
	if (ferror(f)) {
		fprintf(stderr, "%s: %s: %s\n", prog, t->file, strerror(errno));
		return -1;
	}

	/* an edge may name a node of a later line */
	for (i = 0; i < t->nedges; i++) {
		e = &t->edge[i];
		e->from = file_node_of(t, e->from_name);
		e->to = file_node_of(t, e->to_name);
		if (e->from < 0 || e->to < 0)
			err = fail("edge: no node %s in this file",
				   e->from < 0 ? e->from_name : e->to_name);
		else if (t->edge_line[e->from][e->to])
			err = fail("edge %s %s: already on line %u",
				   e->from_name, e->to_name,
				   t->edge_line[e->from][e->to]);
		else if (e->from == e->to)
			err = fail("edge %s %s: a node does not light itself",
				   e->from_name, e->to_name);
		if (err) {
			fprintf(stderr, "%s: %s:%u: %s\n", prog, t->file,
				e->line, err);
			return -1;
		}
		t->edge_line[e->from][e->to] = e->line;
	}
	return 0;
}

/* Run ip(8) with @argv (argv[0] "ip"): it says what went wrong, we say
 * where (@where) and what we ran.
 */
static int run_ip(const char *where, char **argv)
{
	int status, i;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "%s: %s: fork: %s\n", prog, where,
			strerror(errno));
		return -1;
	}
	if (!pid) {
		execvp(argv[0], argv);
		fprintf(stderr, "%s: %s: %s: %s\n", prog, where, argv[0],
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "%s: %s: wait: %s\n", prog, where,
				strerror(errno));
			return -1;
		}
	}
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	fprintf(stderr, "%s: %s:", prog, where);
	for (i = 0; argv[i]; i++)
		fprintf(stderr, " %s", argv[i]);
	if (WIFEXITED(status))
		fprintf(stderr, ": failed (exit status %d)\n",
			WEXITSTATUS(status));
	else
		fprintf(stderr, ": killed by signal %d\n", WTERMSIG(status));
	return -1;
}

/* "ip [-n NS]" for node @fn, then @... (NULL-terminated) into @argv. */
static char **ip_argv(char **argv, struct file_node *fn, ...)
{
	unsigned int n = 0;
	va_list ap;
	char *s;

	argv[n++] = "ip";
	if (fn && fn->ref.ns[0]) {
		argv[n++] = "-n";
		argv[n++] = fn->ref.ns;
	}
	va_start(ap, fn);
	while ((s = va_arg(ap, char *)) && n < 15)
		argv[n++] = s;
	va_end(ap);
	argv[n] = NULL;
	return argv;
}

/* The node of line @fn: its netns if missing, the device (down), its
 * addresses. IPv6 ones in reverse: the kernel lists the last added of a
 * scope first, and show lists them as the kernel does.
 */
static int load_node(struct topo *t, struct file_node *fn)
{
	char where[PATH_MAX + 16], path[sizeof(NETNS_RUN_DIR) + NAME_MAX + 1];
	char *dev = fn->ref.dev, *argv[16];
	struct stat st;
	unsigned int i;
	int v6;

	snprintf(where, sizeof(where), "%s:%u", t->file, fn->line);
	snprintf(path, sizeof(path), "%s/%s", NETNS_RUN_DIR, fn->ref.ns);
	if (fn->ref.ns[0] && stat(path, &st) &&
	    run_ip(where, ip_argv(argv, NULL, "netns", "add", fn->ref.ns, NULL)))
		return -1;
	if (fn->mac[0] ?
	    run_ip(where, ip_argv(argv, fn, "link", "add", dev, "address",
				  fn->mac, "type", "vlc", NULL)) :
	    run_ip(where, ip_argv(argv, fn, "link", "add", dev, "type",
				  "vlc", NULL)))
		return -1;
	for (v6 = 0; v6 < 2; v6++) {
		for (i = 0; i < fn->naddrs; i++) {
			char *a = fn->addr[v6 ? fn->naddrs - 1 - i : i];

			if (!strchr(a, ':') != !v6)
				continue;
			if (run_ip(where, ip_argv(argv, fn, "addr", "add", a,
						  "dev", dev, NULL)))
				return -1;
		}
	}
	return 0;
}

/* Each step in turn; the first that fails says where and stops. */
/* what a message of sim load names: the file, and a line of it */
#define LOAD_WHAT	(PATH_MAX + 16)

/* Each node of @t gets its id on the simulated medium, as dumped in
 * @ns; names the file's line of the first one missing.
 */
static int load_ids(struct ctx *c, struct topo *t, struct sim_nodes *ns,
		    char *what)
{
	struct file_node *fn;
	unsigned int i, j;
	uint64_t cookie;

	for (i = 0; i < t->nnodes; i++) {
		fn = &t->node[i];
		snprintf(what, LOAD_WHAT, "%s:%u", t->file, fn->line);
		if (ns_cookie(fn->ref.ns[0] ? fn->ref.ns : NULL, &cookie, true))
			return 1;
		for (j = 0; j < ns->n; j++)
			if (ns->node[j].cookie == cookie &&
			    !strcmp(ns->node[j].dev, fn->ref.dev))
				break;
		if (j == ns->n) {
			fprintf(stderr, "%s: %s: %s: created, but not on the simulated medium\n",
				prog, what, fn->ref.text);
			return 1;
		}
		fn->id = ns->node[j].id;
	}
	return 0;
}

/* The nodes' settings and the light between them, as the file says, while
 * they are down: rx can only change then, and no frame flies before the
 * light between the nodes is what the file says.
 */
static int load_light(struct ctx *c, struct topo *t, char *what)
{
	struct nlmsghdr *nlh;
	struct file_node *fn;
	unsigned int i, j, k;
	uint32_t zero = 0;

	for (i = 0; i < t->nnodes; i++) {
		fn = &t->node[i];
		snprintf(what, LOAD_WHAT, "%s:%u", t->file, fn->line);
		if (fn->conf.given) {
			nlh = sim_set_req(c);
			put_conf(nlh, fn->id, &fn->conf);
			if (talk(c, nlh, NULL, NULL))
				return 1;
		}
		/* the light of the file's other nodes it is not given: none */
		nlh = sim_set_req(c);
		for (j = k = 0; j < t->nnodes; j++) {
			if (j != i && !t->edge_line[j][i]) {
				put_edge(nlh, t->node[j].id, fn->id, &zero,
					 NULL, false);
				k++;
			}
		}
		if (k && talk(c, nlh, NULL, NULL))
			return 1;
	}
	for (i = 0; i < t->nedges; i++) {
		snprintf(what, LOAD_WHAT, "%s:%u", t->file,
			 t->edge[i].line);
		nlh = sim_set_req(c);
		put_edge(nlh, t->node[t->edge[i].from].id,
			 t->node[t->edge[i].to].id, &t->edge[i].gain, NULL,
			 false);
		if (talk(c, nlh, NULL, NULL))
			return 1;
	}
	return 0;
}

static int load_run(struct ctx *c, struct topo *t)
{
	char what[LOAD_WHAT], *argv[16];
	struct sim_medium m;
	struct sim_nodes *ns;
	struct nlmsghdr *nlh;
	struct file_node *fn;
	unsigned int i;
	int ret = 1;

	c->what = what;
	snprintf(what, sizeof(what), "%s", t->file);
	if (resolve_family(c))
		return 1;
	/* the medium first: a kernel without vlc_sim.ko stops here */
	if (t->medium.given) {
		snprintf(what, sizeof(what), "%s:%u", t->file, t->medium_line);
		nlh = sim_set_req(c);
		put_medium(nlh, &t->medium);
		if (talk(c, nlh, NULL, NULL))
			return 1;
	} else if (sim_get(c, &m)) {
		return 1;
	}

	for (i = 0; i < t->nnodes; i++)
		if (load_node(t, &t->node[i]))
			return 1;

	ns = calloc(1, sizeof(*ns));
	if (!ns) {
		perror(prog);
		return 1;
	}
	snprintf(what, sizeof(what), "%s", t->file);
	if (sim_dump(c, ns) || load_ids(c, t, ns, what) ||
	    load_light(c, t, what))
		goto out;
	for (i = 0; i < t->nnodes; i++) {
		fn = &t->node[i];
		snprintf(what, sizeof(what), "%s:%u", t->file, fn->line);
		if (fn->up && run_ip(what, ip_argv(argv, fn, "link", "set",
						   fn->ref.dev, "up", NULL)))
			goto out;
	}
	ret = 0;
out:
	free(ns);
	return ret;
}

int cmd_sim_load(struct ctx *c, int argc, char **argv)
{
	struct topo *t;
	unsigned int i;
	FILE *f;
	int ret;

	if (argc != 1)
		return usage_err("sim load: one FILE, or - for stdin");
	t = calloc(1, sizeof(*t));
	if (!t) {
		perror(prog);
		return 1;
	}
	if (strcmp(argv[0], "-")) {
		t->file = argv[0];
		f = fopen(argv[0], "r");
	} else {
		t->file = "<stdin>";
		f = stdin;
	}
	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, argv[0], strerror(errno));
		free(t);
		return 1;
	}
	ret = load_parse(f, t) || load_run(c, t) ? 1 : 0;
	if (f != stdin)
		fclose(f);
	for (i = 0; i < t->nedges; i++) {
		free(t->edge[i].from_name);
		free(t->edge[i].to_name);
	}
	free(t->edge);
	free(t);
	return ret;
}
