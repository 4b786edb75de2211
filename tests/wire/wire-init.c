// SPDX-License-Identifier: GPL-2.0
/* /init of the optical-wire test (tests/wire/run.sh): two vlc-gpio
 * devices on vlc_wire.ko's chips, one receiving with the comparator (its
 * hrtimer executor in hard IRQ), one with the LED sensor (thread
 * executor), each in its own network namespace. They ping each other and
 * carry a TCP stream that must arrive byte-exact (unless /wire.notcp
 * exists); then the MAC must have drawn backoffs and both receivers'
 * edge interrupts must have fired. Then both send with forward error
 * correction, a fixed parity and then auto, and A pings B, while a
 * shadow passes now and then (/wire.shadow: its
 * length in us, vlc_wire.ko's shadow_us) so that symbols are lost inside
 * frames: B, on the thread executor, must have decoded coded frames in
 * its work item, off the tick.
 * Both modules are removed at the end. Ends with "wire: N passed, N
 * failed" and powers off.
 *
 * /wire.args holds vlc_wire.ko's parameters (devices=2 and the timing
 * where no device tree describes the boards).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if_arp.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../dt/guest.h"
#include "../../include/uapi/linux/vlc.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define ADDR_A		"10.23.0.1"
#define ADDR_B		"10.23.0.2"
#define MAC_A		"02:56:4c:43:00:0a"
#define MAC_B		"02:56:4c:43:00:0b"
#define TCP_PORT	5001
#define TCP_BYTES	200
#define PINGS		2
#define PING_WAIT_S	600
#define PING_RESEND_S	60
#define TCP_WAIT_S	1200

static int report = -1;		/* child: pipe to the parent */
static int with_tcp;		/* the TCP stream too (no /wire.notcp) */

/* In the child, a check travels to the parent as "1 what" or "0 what". */
static void result(int ok, const char *what)
{
	char b[256];
	int n;

	if (report < 0) {
		check(ok, what);
		return;
	}
	n = snprintf(b, sizeof(b), "%d %s\n", !!ok, what);
	if (write(report, b, n) != n)
		perror("report");
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static int ifreq_ioctl(unsigned long req, struct ifreq *ifr)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int r;

	if (s < 0)
		return -1;
	r = ioctl(s, req, ifr);
	close(s);
	return r;
}

/* @ifname gets @addr/24, no IPv6, and goes up; @peer_mac is @peer's permanent
 * neighbour, so no ARP exchange competes with what is measured.
 */
static int ip_setup(const char *ifname, const char *addr, const char *peer,
		    const char *peer_mac)
{
	struct sockaddr_in *sin;
	struct arpreq ar = { 0 };
	struct ifreq ifr = { 0 };
	char path[96];
	unsigned int m[6];
	int s, r, i;

	/* A round trip takes tens of seconds at this timing: TCP's
	 * handshake must not give up after its default five or six tries.
	 */
	if (write_file("/proc/sys/net/ipv4/tcp_syn_retries", "10") ||
	    write_file("/proc/sys/net/ipv4/tcp_synack_retries", "10"))
		return -1;
	/* IPv6's router solicitations and listener reports would take
	 * the air for seconds each
	 */
	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/disable_ipv6",
		 ifname);
	if (exists(path) && write_file(path, "1"))
		return -1;
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", ifname);
	sin = (struct sockaddr_in *)&ifr.ifr_addr;
	sin->sin_family = AF_INET;
	inet_pton(AF_INET, addr, &sin->sin_addr);
	if (ifreq_ioctl(SIOCSIFADDR, &ifr))
		return -1;
	inet_pton(AF_INET, "255.255.255.0", &sin->sin_addr);
	if (ifreq_ioctl(SIOCSIFNETMASK, &ifr) || set_up(ifname, 1))
		return -1;

	sin = (struct sockaddr_in *)&ar.arp_pa;
	sin->sin_family = AF_INET;
	inet_pton(AF_INET, peer, &sin->sin_addr);
	ar.arp_ha.sa_family = ARPHRD_ETHER;
	if (sscanf(peer_mac, "%x:%x:%x:%x:%x:%x", &m[0], &m[1], &m[2], &m[3],
		   &m[4], &m[5]) != 6)
		return -1;
	for (i = 0; i < 6; i++)
		ar.arp_ha.sa_data[i] = m[i];
	ar.arp_flags = ATF_PERM | ATF_COM;
	snprintf(ar.arp_dev, sizeof(ar.arp_dev), "%s", ifname);
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	r = s < 0 ? -1 : ioctl(s, SIOCSARP, &ar);
	if (s >= 0)
		close(s);
	return r;
}

/* ip link set @ifname netns @pid */
static int move_to_netns(const char *ifname, pid_t pid)
{
	struct {
		struct nlmsghdr nh;
		struct ifinfomsg ifi;
		char attrs[64];
	} req = { 0 };
	struct rtattr *rta;
	char ack[256];
	int s, r;

	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(req.ifi));
	req.nh.nlmsg_type = RTM_NEWLINK;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.ifi.ifi_family = AF_UNSPEC;
	req.ifi.ifi_index = if_nametoindex(ifname);
	rta = (struct rtattr *)((char *)&req + NLMSG_ALIGN(req.nh.nlmsg_len));
	rta->rta_type = IFLA_NET_NS_PID;
	rta->rta_len = RTA_LENGTH(sizeof(__u32));
	*(__u32 *)RTA_DATA(rta) = pid;
	req.nh.nlmsg_len = NLMSG_ALIGN(req.nh.nlmsg_len) + rta->rta_len;

	s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (s < 0)
		return -1;
	r = send(s, &req, req.nh.nlmsg_len, 0) < 0 ? -1 : 0;
	if (!r && recv(s, ack, sizeof(ack), 0) > 0) {
		struct nlmsghdr *nh = (struct nlmsghdr *)ack;

		if (nh->nlmsg_type == NLMSG_ERROR)
			r = ((struct nlmsgerr *)NLMSG_DATA(nh))->error;
	}
	close(s);
	return r;
}

static unsigned short icmp_sum(const void *p, int len)
{
	const unsigned short *w = p;
	unsigned int sum = 0;

	for (; len > 1; len -= 2)
		sum += *w++;
	if (len)
		sum += *(const unsigned char *)w;
	sum = (sum >> 16) + (sum & 0xffff);
	sum += sum >> 16;
	return ~sum;
}

/*
 * Echo requests to @addr until @want replies or PING_WAIT_S; replies.
 * One request is outstanding at a time, sent again with the next
 * sequence number after PING_RESEND_S; as with ping(8), a reply to any
 * request sent counts once, however late it comes.
 */
static int ping(const char *addr, int want, double *rtt_max)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	unsigned short id = getpid() & 0xffff, seq = 0;
	double t_end = now_s() + PING_WAIT_S, t_last = 0;
	double sent[PING_WAIT_S / PING_RESEND_S + PINGS + 2];
	char answered[ARRAY_SIZE(sent)] = { 0 };
	int s, got = 0;

	*rtt_max = 0;
	inet_pton(AF_INET, addr, &to.sin_addr);
	s = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP);
	if (s < 0)
		return 0;
	while (got < want && now_s() < t_end) {
		struct pollfd pfd = { .fd = s, .events = POLLIN };
		unsigned short r;
		char b[256];

		if ((!t_last || now_s() - t_last > PING_RESEND_S) &&
		    seq + 1 < (int)ARRAY_SIZE(sent)) {
			struct icmphdr ic = { .type = ICMP_ECHO };

			ic.un.echo.id = id;
			ic.un.echo.sequence = htons(++seq);
			ic.checksum = icmp_sum(&ic, sizeof(ic));
			sendto(s, &ic, sizeof(ic), 0, (struct sockaddr *)&to,
			       sizeof(to));
			t_last = now_s();
			sent[seq] = t_last;
		}
		if (poll(&pfd, 1, 500) == 1) {
			int n = recv(s, b, sizeof(b), 0);
			struct iphdr *ip = (struct iphdr *)b;
			struct icmphdr *ic;

			if (n < (int)sizeof(*ip) || n < ip->ihl * 4 + 8)
				continue;
			ic = (struct icmphdr *)(b + ip->ihl * 4);
			r = ntohs(ic->un.echo.sequence);
			if (ic->type != ICMP_ECHOREPLY || ic->un.echo.id != id ||
			    !r || r > seq || answered[r])
				continue;
			answered[r] = 1;
			got++;
			if (now_s() - sent[r] > *rtt_max)
				*rtt_max = now_s() - sent[r];
			t_last = 0;
		}
	}
	close(s);
	return got;
}

/*
 * Where the guest has two CPUs, each board gets one, as real boards
 * have: /init and A (its hrtimer is armed where ndo_open ran) stay on
 * CPU 0, and B's executor thread, found by its name, goes to CPU 1.
 * pin_thread() returns 0, or -1 if no thread is called @comm or it
 * could not move.
 */
static int pin_cpu(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

static int pin_thread(const char *comm, int cpu)
{
	struct dirent *de;
	char path[300], c[32];
	int r = -1;
	DIR *d;

	d = opendir("/proc");
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		if (read_file(path, c, sizeof(c)) <= 0)
			continue;
		c[strcspn(c, "\n")] = '\0';
		if (!strcmp(c, comm)) {
			r = pin_cpu(atoi(de->d_name), cpu);
			break;
		}
	}
	closedir(d);
	return r;
}

/* The counters that tell where a failed exchange stopped. */
static void print_stats(const char *who, const char *ifn)
{
	static const char * const names[] = {
		"phy_frames", "phy_symbols_rx", "phy_erasures", "phy_late",
		"phy_overruns", "mac_tx_frames", "mac_tx_retries",
		"mac_rx_frames_ok", "mac_rx_no_delimiter",
		"mac_backoffs", "mac_rx_delivered", "mac_tx_acked",
		"mac_tx_dropped", "mac_fec_tx_frames", "mac_fec_corrected_frames",
		"mac_fec_uncorrectable", "mac_fec_deferred",
	};
	/* and these where they are not 0 */
	static const char * const more[] = {
		"phy_acq_locks", "phy_acq_lost", "mac_tx_expired",
		"mac_tx_rts", "mac_rx_cts", "mac_cts_timeouts", "mac_rx_rts",
		"mac_tx_cts", "mac_nav_set", "mac_nav_clamped",
		"mac_rx_truncated", "mac_rx_erasure_aborts", "mac_rx_bad_header",
		"mac_rx_dup", "mac_rx_out_of_order", "mac_rx_orphan",
		"mac_rx_incomplete", "mac_rx_unexpected_ack", "mac_fec_busy",
	};
	const char * const sys[] = { "rx_packets", "rx_dropped", "tx_packets",
				     "tx_dropped", "rx_crc_errors", "carrier" };
	char path[128], v[32], snmp[4096], *ic;
	unsigned int i;

	printf("wire: %s", who);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		printf(" %s %lld", names[i] + 4, ethtool_stat(ifn, names[i]));
	for (i = 0; i < ARRAY_SIZE(more); i++) {
		long long n = ethtool_stat(ifn, more[i]);

		if (n > 0)
			printf(" %s %lld", more[i] + 4, n);
	}
	for (i = 0; i < ARRAY_SIZE(sys); i++) {
		snprintf(path, sizeof(path), i < 5 ?
			 "/sys/class/net/%s/statistics/%s" :
			 "/sys/class/net/%s/%s", ifn, sys[i]);
		if (read_file(path, v, sizeof(v)) > 0)
			printf(" %s %ld", sys[i], strtol(v, NULL, 10));
	}
	if (read_file("/proc/net/snmp", snmp, sizeof(snmp)) > 0) {
		ic = strstr(snmp, "\nIcmp: ");
		ic = ic ? strstr(ic + 1, "\nIcmp: ") : NULL;
		if (ic)
			printf(" icmp:%.80s", ic + 7);
	}
	printf("\n");
	fflush(stdout);
}

static unsigned char pattern(int i)
{
	return (i * 7 + 3) & 0xff;
}

/* B's end of the stream: accept on @ls, read all, compare. */
static void tcp_receive(int ls)
{
	struct pollfd pfd = { .fd = ls, .events = POLLIN };
	int s, n = 0, bad = 0, i;
	unsigned char b[256];
	char msg[160];

	s = poll(&pfd, 1, TCP_WAIT_S * 1000) == 1 ? accept(ls, NULL, NULL) : -1;
	result(s >= 0, "B accepts A's connection");
	if (s >= 0) {
		struct timeval tv = { .tv_sec = TCP_WAIT_S };

		setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}
	while (s >= 0) {
		int r = read(s, b, sizeof(b));

		if (r <= 0)
			break;
		for (i = 0; i < r; i++)
			bad += b[i] != pattern(n + i);
		n += r;
	}
	snprintf(msg, sizeof(msg),
		 "TCP stream arrives byte-exact (%d of %d bytes, %d wrong)", n,
		 TCP_BYTES, bad);
	result(n == TCP_BYTES && !bad, msg);
}

/* B's side: its own namespace, ping A, then receive A's stream. */
static void board_b(const char *ifn, int rfd, int wfd)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(TCP_PORT) };
	int ls = -1, one = 1, got;
	char msg[160], c;
	double rtt;

	report = wfd;
	if (unshare(CLONE_NEWNET)) {
		result(0, "unshare(CLONE_NEWNET)");
		exit(1);
	}
	if (write(wfd, "ready\n", 6) != 6 || read(rfd, &c, 1) != 1)
		exit(1);
	result(if_nametoindex(ifn) > 0, "B's device in B's namespace");
	result(ip_setup(ifn, ADDR_B, ADDR_A, MAC_A) == 0,
	       "B: " ADDR_B "/24 up, A's address a permanent neighbour");
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1) {
		snprintf(msg, sizeof(msg), "vlc/%s", ifn);
		result(pin_thread(msg, 1) == 0,
		       "B's executor thread on CPU 1, A's board on CPU 0");
	}

	if (with_tcp) {
		ls = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		result(ls >= 0 &&
		       !bind(ls, (struct sockaddr *)&sa, sizeof(sa)) &&
		       !listen(ls, 1), "B listens on TCP");
	}

	got = ping(ADDR_A, PINGS, &rtt);
	snprintf(msg, sizeof(msg), "B pings A: %d of %d replies (slowest %.1f s)",
		 got, PINGS, rtt);
	result(got == PINGS, msg);
	print_stats("B after its pings:", ifn);
	if (with_tcp)
		tcp_receive(ls);
	print_stats("B (LED sensor, thread executor):", ifn);
	if (write(wfd, "done\n", 5) != 5)
		exit(1);
	/* A's requests, until A is done with the namespace */
	while (read(rfd, &c, 1) == 1 && c != 'q') {
		long long n;

		switch (c) {
		case 'f':
		case 'a':
			snprintf(msg, sizeof(msg), "B: fec %s",
				 c == 'a' ? "auto" : "8");
			result(!vlc_set_u32(ifn, VLC_ATTR_FEC,
					    c == 'a' ? VLC_FEC_AUTO : 8), msg);
			break;
		case 'p':
			print_stats("B:", ifn);
			break;
		case 's':
			n = ethtool_stat(ifn, "mac_fec_deferred");
			snprintf(msg, sizeof(msg),
				 "B decoded coded frames in its work item (mac_fec_deferred %lld)",
				 n);
			result(n > 0, msg);
			n = ethtool_stat(ifn, "mac_fec_busy");
			snprintf(msg, sizeof(msg),
				 "B dropped no frame for a busy decoder (mac_fec_busy %lld)",
				 n);
			result(n == 0, msg);
			print_stats("B after forward error correction:", ifn);
			break;
		}
		if (write(wfd, "done\n", 5) != 5)
			exit(1);
	}
	exit(0);
}

/* Lines from B: results until "done". */
static void relay(FILE *f, const char *until)
{
	char l[256];

	while (fgets(l, sizeof(l), f)) {
		l[strcspn(l, "\n")] = '\0';
		if (!strcmp(l, until))
			return;
		if ((l[0] == '0' || l[0] == '1') && l[1] == ' ')
			check(l[0] == '1', l + 2);
	}
	check(0, "B ended early");
}

static void tcp_send(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(TCP_PORT) };
	unsigned char b[TCP_BYTES];
	int s, i, n = 0;

	for (i = 0; i < TCP_BYTES; i++)
		b[i] = pattern(i);
	inet_pton(AF_INET, ADDR_B, &sa.sin_addr);
	s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	check(s >= 0 && !connect(s, (struct sockaddr *)&sa, sizeof(sa)),
	      "A connects to B over TCP");
	while (s >= 0 && n < TCP_BYTES) {
		int r = write(s, b + n, TCP_BYTES - n);

		if (r <= 0)
			break;
		n += r;
	}
	check(n == TCP_BYTES, "A writes the stream");
	if (s >= 0)
		close(s);
}

/* Ask B for @c and relay its results until it is done. */
static void ask_b(int to_b, FILE *f, char c)
{
	if (write(to_b, &c, 1) != 1)
		exit(1);
	relay(f, "done");
}

/* vlc_wire.ko's passing shadow: hides every LED's light for @us in
 * every shadow_ms (0: none).
 */
static int shadow(unsigned int us)
{
	char v[16];

	snprintf(v, sizeof(v), "%u", us);
	return write_file("/sys/module/vlc_wire/parameters/shadow_us", v);
}

/* Both boards code their frames, at parity 8 and then auto, and A pings
 * B. B, whose thread executor defers the decode to a work item, must
 * have taken that path. Where the stream went uncoded before, one echo
 * at each parity is enough for that: TCP over coded frames is the fec
 * scenario's (tests/qemu/scenarios/fec.sh).
 */
static void fec_phase(const char *ifa, int to_b, FILE *f)
{
	int pings = with_tcp ? 1 : PINGS, got, i;
	char args[64] = "", msg[160];
	unsigned int us = 0;
	double rtt;

	if (read_file("/wire.shadow", args, sizeof(args)) > 0)
		us = strtoul(args, NULL, 10);
	if (us) {
		snprintf(msg, sizeof(msg), "a shadow of %u us passes", us);
		check(!shadow(us), msg);
	}
	for (i = 0; i < 2; i++) {
		const char *name = i ? "auto" : "8";

		snprintf(msg, sizeof(msg), "A: fec %s", name);
		check(!vlc_set_u32(ifa, VLC_ATTR_FEC, i ? VLC_FEC_AUTO : 8),
		      msg);
		ask_b(to_b, f, i ? 'a' : 'f');
		got = ping(ADDR_B, pings, &rtt);
		snprintf(msg, sizeof(msg),
			 "A pings B with fec %s: %d of %d replies (slowest %.1f s)",
			 name, got, pings, rtt);
		check(got == pings, msg);
		snprintf(msg, sizeof(msg), "A after fec %s:", name);
		print_stats(msg, ifa);
		ask_b(to_b, f, 'p');
	}
	ask_b(to_b, f, 's');
	print_stats("A after forward error correction:", ifa);
	if (us)
		check(!shadow(0), "the shadow gone");
}

int main(void)
{
	char args[256] = "", ifa[IFNAMSIZ], ifb[IFNAMSIZ], msg[200];
	char dev_a[64] = "", dev_b[64] = "", path[96];
	int to_b[2], from_b[2], got, n;
	long irq_a0, irq_b0, irq_a, irq_b;
	double rtt, t0;
	FILE *f;
	pid_t pid;

	guest_prefix = "wire";
	mount_all();
	with_tcp = !exists("/wire.notcp");
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1)
		check(pin_cpu(0, 0) == 0, "/init and A's board on CPU 0");
	read_file("/wire.args", args, sizeof(args));
	args[strcspn(args, "\n")] = '\0';
	check(load_module("/vlc_wire.ko", args) == 0, "insmod vlc_wire.ko");
	check(load_module("/vlc_gpio.ko", "") == 0, "insmod vlc_gpio.ko");
	check(ifname_by_mac(MAC_A, ifa, sizeof(ifa)),
	      "A registered (comparator)");
	check(ifname_by_mac(MAC_B, ifb, sizeof(ifb)),
	      "B registered (LED sensor)");
	snprintf(path, sizeof(path), "/sys/class/net/%s/device", ifa);
	n = readlink(path, msg, sizeof(msg) - 1);
	if (n > 0) {
		msg[n] = '\0';
		snprintf(dev_a, sizeof(dev_a), "%s", strrchr(msg, '/') + 1);
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/device", ifb);
	n = readlink(path, msg, sizeof(msg) - 1);
	if (n > 0) {
		msg[n] = '\0';
		snprintf(dev_b, sizeof(dev_b), "%s", strrchr(msg, '/') + 1);
	}
	irq_a0 = irq_count(dev_a);
	irq_b0 = irq_count(dev_b);
	snprintf(msg, sizeof(msg), "edge interrupts requested (%s, %s)",
		 dev_a, dev_b);
	check(dev_a[0] && dev_b[0] && irq_a0 >= 0 && irq_b0 >= 0, msg);

	if (pipe(to_b) || pipe(from_b))
		return 1;
	t0 = now_s();
	pid = fork();
	if (!pid) {
		close(to_b[1]);
		close(from_b[0]);
		board_b(ifb, to_b[0], from_b[1]);
	}
	close(to_b[0]);
	close(from_b[1]);
	f = fdopen(from_b[0], "r");
	relay(f, "ready");
	check(move_to_netns(ifb, pid) == 0, "B's device moved to B's namespace");
	if (write(to_b[1], "g", 1) != 1)
		return 1;
	check(ip_setup(ifa, ADDR_A, ADDR_B, MAC_B) == 0,
	      "A: " ADDR_A "/24 up, B's address a permanent neighbour");

	got = ping(ADDR_B, PINGS, &rtt);
	snprintf(msg, sizeof(msg), "A pings B: %d of %d replies (slowest %.1f s)",
		 got, PINGS, rtt);
	check(got == PINGS, msg);
	print_stats("A after the pings:", ifa);
	if (got && with_tcp)
		tcp_send();
	relay(f, "done");
	if (got)
		fec_phase(ifa, to_b[1], f);
	snprintf(msg, sizeof(msg), "A and B exchanged everything in %.0f s",
		 now_s() - t0);
	check(1, msg);

	print_stats("A (comparator, hrtimer executor):", ifa);
	snprintf(msg, sizeof(msg), "A's MAC drew backoffs in hard IRQ (mac_backoffs %lld)",
		 ethtool_stat(ifa, "mac_backoffs"));
	check(ethtool_stat(ifa, "mac_backoffs") > 0, msg);
	irq_a = irq_count(dev_a) - irq_a0;
	irq_b = irq_count(dev_b) - irq_b0;
	snprintf(msg, sizeof(msg), "edge interrupts fired: %ld comparator, %ld LED sensor",
		 irq_a, irq_b);
	check(irq_a > 0 && irq_b > 0, msg);

	/* B's namespace goes; its device comes back, then both modules go */
	if (write(to_b[1], "q", 1) != 1)
		return 1;
	waitpid(pid, NULL, 0);
	check(set_up(ifa, 0) == 0, "A down");
	check(unload_module("vlc_gpio") == 0, "rmmod vlc_gpio");
	check(unload_module("vlc_wire") == 0, "rmmod vlc_wire");
	finish();
	return 0;
}
