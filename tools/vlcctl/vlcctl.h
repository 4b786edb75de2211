/* SPDX-License-Identifier: GPL-2.0 */
/* vlcctl: what its files share.
 *
 *   vlcctl.c  main, the usage text, the device commands (show, set,
 *             monitor) and the output and number helpers below
 *   nl.c      the generic netlink plumbing: requests, the "vlc" family,
 *             and a refused request's extended ACK in the user's words
 *   sim.c     the sim commands (vlc_sim.ko): show, time, set, node, edge
 *   topo.c    the topology file: sim show's text and sim load
 *   sim.h     what sim.c gives topo.c
 */

#ifndef VLCCTL_H
#define VLCCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>
#include <linux/vlc.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* One invocation: the generic netlink socket and the request in flight. */
struct ctx {
	struct mnl_socket *nl;
	uint16_t family;
	uint32_t mcgrp;			/* VLC_MCGRP_EVENTS, 0 if none */
	unsigned int portid;
	uint32_t seq;
	char *buf;
	const struct nlmsghdr *req;	/* for extack offsets */
	const char *what;		/* "show vlc0", for messages */
	int shown;
	bool json;
};

/* ---- vlcctl.c ---- */

extern const char *prog;

/* Say what is wrong with the command line, then the usage; return 2. */
int usage_err(const char *fmt, ...);

/* v / 1000, with three decimals where it has any. */
const char *milli(char *b, size_t n, unsigned long long v);

/* JSON on stdout: a string, quoted and escaped; a member after the
 * first, ,"key":value.
 */
void json_str(const char *s);
void json_u(const char *key, unsigned long long v);
void json_b(const char *key, bool v);

/* A whole number of the command line: 0, or -1 if it is not one. */
int parse_u32(const char *s, uint32_t *v);

/* ---- nl.c ---- */

/* The keys of the medium's settings (sim set), by VLC_SIM_ATTR_*: the
 * names a refused one is reported by, and those sim.c parses and prints.
 */
extern const char *const sim_names[VLC_SIM_ATTR_MAX + 1];

/* A request of @type (a generic netlink family) in c->buf. */
struct nlmsghdr *new_req(struct ctx *c, uint16_t type, uint16_t flags,
			 uint8_t cmd, uint8_t version);

/* Send @nlh and feed the answers to @cb until the ACK or the end of the
 * dump. Return: 0, or -1 with the error reported (as c->what).
 */
int talk(struct ctx *c, struct nlmsghdr *nlh, mnl_cb_t cb, void *data);

/* The "vlc" family's id and events group into @c. Return: 0, or -1 with
 * the error reported.
 */
int resolve_family(struct ctx *c);

/* ---- sim.c ---- */

/* vlcctl sim ARGS: the simulated medium. Return: the exit status. */
int cmd_sim(struct ctx *c, int argc, char **argv);

#endif /* VLCCTL_H */
