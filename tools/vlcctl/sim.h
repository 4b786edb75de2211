/* SPDX-License-Identifier: GPL-2.0 */
/* vlcctl: the simulated medium of vlc_sim.ko, as sim.c gives it to
 * topo.c (the topology file).
 */

#ifndef VLCCTL_SIM_H
#define VLCCTL_SIM_H

#include <limits.h>
#include <arpa/inet.h>
#include <net/if.h>

#include "vlcctl.h"

#define SIM_NODES	64	/* VLC_SIM_MAX_NODES of vlc_sim_ctl.h */
#define SIM_ADDRS	16	/* addresses a node line may give */
#define NAME_LEN	(NAME_MAX + IFNAMSIZ + 2)	/* NS/DEV */
#define ADDR_LEN	(INET6_ADDRSTRLEN + 4)		/* A/PLEN */
#define NETNS_RUN_DIR	"/run/netns"

/* The settings of the medium a user gives, speed to burst-us: in the
 * order of the enum, which is the order sim show prints them in.
 */
#define SIM_KEY_FIRST	VLC_SIM_ATTR_SPEED
#define SIM_KEY_LAST	VLC_SIM_ATTR_BURST_US

/* The medium's settings, indexed by VLC_SIM_ATTR_*. */
struct sim_medium {
	uint64_t val[VLC_SIM_ATTR_MAX + 1];
	uint32_t given;			/* 1 << VLC_SIM_ATTR_* */
};

/* The settings of a node a user gives. */
struct sim_conf {
	int32_t skew_ppm, phase_us;
	uint8_t rx;
	uint32_t given;			/* 1 << VLC_SIM_NODE_ATTR_* */
};

/* A node as a user names it: its id; DEV, in the caller's netns; NS/DEV,
 * in /run/netns/NS; or #COOKIE/DEV, as sim show names a device in a
 * netns that has no name there.
 */
struct noderef {
	const char *text;
	long long id;			/* -1: by name */
	char ns[NAME_MAX + 1];		/* "": the caller's netns */
	char dev[IFNAMSIZ];
	uint64_t cookie;
	bool by_cookie;
};

struct sim_edge {
	uint32_t from, to, gain, cover_us;
};

/* A node as SIM_NODE_GET gives it, and what sim show reads in its netns. */
struct sim_node {
	uint32_t id, ifindex;
	char dev[IFNAMSIZ];
	uint64_t cookie;
	int32_t skew_ppm, phase_us;
	uint8_t rx;
	unsigned long long bursts, rx_lit;
	struct sim_edge edge[SIM_NODES];	/* into it, by from */
	unsigned int nedges;

	char name[NAME_LEN];	/* DEV, NS/DEV or #COOKIE/DEV */
	const char *ns;		/* the name of its netns; NULL: ours */
	bool known;		/* its netns is ours or has a name */
	bool seen;		/* read there: up, mac and addresses */
	bool up, has_mac;
	uint8_t mac[6];
	char addr[SIM_ADDRS][ADDR_LEN];
	unsigned int naddrs;
};

struct sim_nodes {
	struct sim_node node[SIM_NODES];	/* by id */
	unsigned int n;
	bool dumped;
};

/* ---- sim.c: what a user gives ---- */

/* What a parser found wrong, for its caller to say where. */
const char *fail(const char *fmt, ...);

/* KEY VALUE pairs of the medium into @m. Return: NULL, or what is wrong. */
const char *parse_medium(struct sim_medium *m, char **w, int n);

/* A node setting @key @val (NULL: none was given) into @nc. Return:
 * NULL; "" when @key is not one; or what is wrong.
 */
const char *parse_conf(struct sim_conf *nc, const char *key,
		       const char *val);

/* @s into @r. Return: NULL, or what is wrong. */
const char *parse_ref(struct noderef *r, const char *s);

/* ---- sim.c: the kernel's view ---- */

/* The cookie of netns @ns (NULL: ours), as the kernel gives a node's. */
int ns_cookie(const char *ns, uint64_t *cookie, bool warn);

/* The medium into @m; every node with its edges into @ns. Return: 0, or
 * -1 with the error reported.
 */
int sim_get(struct ctx *c, struct sim_medium *m);
int sim_dump(struct ctx *c, struct sim_nodes *ns);

/* By (FROM, TO) id, for qsort(). */
int edge_cmp(const void *x, const void *y);

/* How sim show names them: "pd"; the node's name, or its id. */
const char *rx_name(unsigned int rx);
const char *sim_name_of(const struct sim_nodes *ns, uint32_t id,
			char *b, size_t len);
const char *mac_str(char *b, size_t len, const uint8_t *m);

/* ---- sim.c: requests ---- */

/* A SIM_SET request, and the nests to put in it. */
struct nlmsghdr *sim_set_req(struct ctx *c);
void put_medium(struct nlmsghdr *nlh, const struct sim_medium *m);
void put_conf(struct nlmsghdr *nlh, uint32_t id, const struct sim_conf *nc);
void put_edge(struct nlmsghdr *nlh, uint32_t from, uint32_t to,
	      const uint32_t *gain, const uint32_t *cover_us, bool both);

/* ---- topo.c ---- */

/* The topology as sim load reads it, on stdout. Return: 0, or -1. */
int sim_show_text(const struct sim_medium *m, const struct sim_nodes *ns);

/* vlcctl sim load FILE|-. Return: the exit status. */
int cmd_sim_load(struct ctx *c, int argc, char **argv);

#endif /* VLCCTL_SIM_H */
