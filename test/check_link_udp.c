/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * snic/uet_link_udp and the address helpers of snic/uet_link.c.
 *
 * Network traffic stays on 127.0.0.1 and ::1.  Every wait is a poll()
 * with a timeout (WAIT_MS per datagram batch), so a lost datagram fails
 * the test within seconds instead of hanging it.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "uet_link.h"
#include "uet_link_udp.h"
#include "uet_test.h"
#include "uet_wire_consts.h"

#define WAIT_MS		2000

/* ---- helpers ---- */

static bool same_bytes(const uint8_t *buf, size_t len, uint32_t id)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (buf[i] != uet_test_pattern(id, i))
			return false;
	return true;
}

static struct uet_link *open_link(const char *host, uint16_t port,
				  size_t mtu)
{
	struct uet_link_udp_cfg cfg = { .host = host, .port = port,
					.mtu = mtu };
	struct uet_link *l = NULL;

	ck_assert_int_eq(uet_link_udp_open(&cfg, &l), 0);
	ck_assert_ptr_nonnull(l);
	return l;
}

static struct uet_link_addr addr_of(struct uet_link *l)
{
	struct uet_link_addr a;

	ck_assert_int_eq(l->ops->local_addr(l, &a), 0);
	return a;
}

static uint16_t port_of(const struct uet_link_addr *a)
{
	struct sockaddr_in6 sin6;
	struct sockaddr_in sin;

	if (a->ss.ss_family == AF_INET) {
		memcpy(&sin, &a->ss, sizeof(sin));
		return ntohs(sin.sin_port);
	}
	memcpy(&sin6, &a->ss, sizeof(sin6));
	return ntohs(sin6.sin6_port);
}

static bool wait_readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

/* Receive one datagram, waiting at most WAIT_MS. */
static int recv_one(struct uet_link *l, struct uet_link_rx *rx)
{
	int n;

	ck_assert(wait_readable(l->ops->fd(l), WAIT_MS));
	n = l->ops->recv(l, rx, 1);
	ck_assert_int_eq(n, 1);
	return n;
}

/*
 * One datagram of len bytes split over niov iovecs (some of them empty
 * when niov > len) at uneven cut points.
 */
static void make_pkt(struct uet_link_pkt *pkt, const struct uet_link_addr *dst,
		     uint8_t *buf, size_t len, unsigned int niov)
{
	size_t off = 0, part;
	unsigned int i;

	memset(pkt, 0, sizeof(*pkt));
	pkt->dst = dst;
	pkt->iovcnt = niov;
	for (i = 0; i < niov; i++) {
		part = i + 1 == niov ? len - off : (len - off) / 3;
		pkt->iov[i].iov_base = buf + off;
		pkt->iov[i].iov_len = part;
		off += part;
	}
}

/* True when binding host:port with a plain socket works now. */
static bool port_free(int family, const char *host, uint16_t port)
{
	struct uet_link_addr a;
	int fd, one = 1;
	bool ok;

	ck_assert_int_eq(uet_link_addr_from_str(&a, host, port), 0);
	fd = socket(family, SOCK_DGRAM, 0);
	ck_assert_int_ge(fd, 0);
	if (family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	ok = bind(fd, (struct sockaddr *)&a.ss, a.len) == 0;
	close(fd);
	return ok;
}

/* ---- address helpers ---- */

static void check_str(const char *host, uint16_t port, const char *want,
		      int family)
{
	struct uet_link_addr a, b;
	char buf[80];

	ck_assert_int_eq(uet_link_addr_from_str(&a, host, port), 0);
	ck_assert_int_eq(a.ss.ss_family, family);
	ck_assert_uint_eq(a.len, family == AF_INET ?
			  sizeof(struct sockaddr_in) :
			  sizeof(struct sockaddr_in6));
	ck_assert_uint_eq(port_of(&a), port);
	ck_assert_int_eq(uet_link_addr_to_str(&a, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, want);
	ck_assert(uet_link_addr_eq(&a, &a));
	/* The bracketed form parses to the same address. */
	if (family == AF_INET6) {
		char host2[80];

		snprintf(host2, sizeof(host2), "[%s]", host);
		ck_assert_int_eq(uet_link_addr_from_str(&b, host2, port), 0);
		ck_assert(uet_link_addr_eq(&a, &b));
	}
}

START_TEST(test_addr_str)
{
	static const char *const bad[] = {
		"", "localhost", "1.2.3", "1.2.3.4.5", "256.1.1.1",
		" 1.2.3.4", "1.2.3.4 ", "::g", ":::", "[1.2.3.4]", "[::1",
		"::1]", "[]", "fe80::1%", "fe80::1%0", "fe80::1%no-such-if9",
		"1.2.3.4%1", "example.com",
	};
	struct uet_link_addr a;
	char want[64], buf[64];
	unsigned int lo;
	size_t i;

	check_str("1.2.3.4", 80, "1.2.3.4:80", AF_INET);
	check_str("127.0.0.1", UET_UDP_PORT, "127.0.0.1:4793", AF_INET);
	check_str("0.0.0.0", 0, "0.0.0.0:0", AF_INET);
	check_str("255.255.255.255", 65535, "255.255.255.255:65535", AF_INET);
	check_str("::1", 4793, "[::1]:4793", AF_INET6);
	check_str("::", 1, "[::]:1", AF_INET6);
	check_str("2001:DB8:0:0:0:0:0:1", 7, "[2001:db8::1]:7", AF_INET6);
	check_str("::ffff:1.2.3.4", 9, "[::ffff:1.2.3.4]:9", AF_INET6);
	check_str("fe80::1%3", 5, "[fe80::1%3]:5", AF_INET6);
	lo = if_nametoindex("lo");
	ck_assert_uint_ne(lo, 0);
	snprintf(want, sizeof(want), "[fe80::1%%%u]:5", lo);
	check_str("fe80::1%lo", 5, want, AF_INET6);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(uet_link_addr_from_str(&a, bad[i], 1) == -EINVAL,
			      "accepted \"%s\"", bad[i]);
	ck_assert_int_eq(uet_link_addr_from_str(&a, NULL, 1), -EINVAL);
	ck_assert_int_eq(uet_link_addr_from_str(NULL, "::1", 1), -EINVAL);

	/* "1.2.3.4:80" needs 11 bytes with its terminator. */
	ck_assert_int_eq(uet_link_addr_from_str(&a, "1.2.3.4", 80), 0);
	memset(buf, 'x', sizeof(buf));
	ck_assert_int_eq(uet_link_addr_to_str(&a, buf, 10), -ENOSPC);
	ck_assert_int_eq(buf[0], '\0');
	ck_assert_int_eq(uet_link_addr_to_str(&a, buf, 11), 0);
	ck_assert_str_eq(buf, "1.2.3.4:80");
	ck_assert_int_eq(uet_link_addr_to_str(&a, buf, 0), -ENOSPC);
	memset(&a, 0, sizeof(a));
	a.ss.ss_family = AF_UNIX;
	a.len = sizeof(a.ss);
	ck_assert_int_eq(uet_link_addr_to_str(&a, buf, sizeof(buf)),
			 -EAFNOSUPPORT);
	ck_assert_int_eq(uet_link_addr_to_str(NULL, buf, sizeof(buf)),
			 -EINVAL);
}
END_TEST

START_TEST(test_addr_eq)
{
	struct uet_link_addr a, b;

	ck_assert_int_eq(uet_link_addr_from_str(&a, "10.0.0.1", 5), 0);
	ck_assert_int_eq(uet_link_addr_from_str(&b, "10.0.0.1", 5), 0);
	ck_assert(uet_link_addr_eq(&a, &b));
	ck_assert_int_eq(uet_link_addr_from_str(&b, "10.0.0.1", 6), 0);
	ck_assert(!uet_link_addr_eq(&a, &b));
	ck_assert_int_eq(uet_link_addr_from_str(&b, "10.0.0.2", 5), 0);
	ck_assert(!uet_link_addr_eq(&a, &b));
	ck_assert_int_eq(uet_link_addr_from_str(&b, "::ffff:10.0.0.1", 5), 0);
	ck_assert(!uet_link_addr_eq(&a, &b));
	ck_assert(!uet_link_addr_eq(&b, &a));

	ck_assert_int_eq(uet_link_addr_from_str(&a, "fe80::1%1", 5), 0);
	ck_assert_int_eq(uet_link_addr_from_str(&b, "fe80::1%1", 5), 0);
	ck_assert(uet_link_addr_eq(&a, &b));
	ck_assert_int_eq(uet_link_addr_from_str(&b, "fe80::1%2", 5), 0);
	ck_assert(!uet_link_addr_eq(&a, &b));
	ck_assert_int_eq(uet_link_addr_from_str(&b, "fe80::2%1", 5), 0);
	ck_assert(!uet_link_addr_eq(&a, &b));
	ck_assert_int_eq(uet_link_addr_from_str(&b, "fe80::1%1", 6), 0);
	ck_assert(!uet_link_addr_eq(&a, &b));

	/* Bytes beyond the sockaddr do not matter. */
	ck_assert_int_eq(uet_link_addr_from_str(&a, "10.0.0.1", 5), 0);
	ck_assert_int_eq(uet_link_addr_from_str(&b, "10.0.0.1", 5), 0);
	((uint8_t *)&b.ss)[sizeof(struct sockaddr_in) + 3] = 0xaa;
	ck_assert(uet_link_addr_eq(&a, &b));
}
END_TEST

/* ---- UDP link ---- */

/* a -> b and back, each size over several iovecs, byte exact. */
static void exchange(const char *host)
{
	size_t sizes[] = { 1, 1000, 8000, 60000, 0 };
	static uint8_t buf[65536];
	struct uet_link_addr aa, ab;
	struct uet_link_udp_stats st;
	struct uet_link *a, *b;
	struct uet_link_pkt pkt;
	struct uet_link_rx rx;
	unsigned int round;
	size_t i;

	a = open_link(host, 0, 0);
	b = open_link(host, 0, 0);
	aa = addr_of(a);
	ab = addr_of(b);
	ck_assert(!uet_link_addr_eq(&aa, &ab));
	sizes[4] = b->ops->mtu(b);	/* the largest datagram */
	ck_assert_uint_eq(a->ops->mtu(a), sizes[4]);

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (round = 0; round < 2; round++) {
			struct uet_link *from = round ? b : a;
			struct uet_link *to = round ? a : b;
			uint32_t id = (uint32_t)(i * 2 + round);

			uet_test_fill(buf, sizes[i], id);
			make_pkt(&pkt, round ? &aa : &ab, buf, sizes[i],
				 sizes[i] == 1 ? 3 : 2 + (unsigned int)i);
			ck_assert_int_eq(from->ops->send(from, &pkt, 1), 1);
			/* The caller's memory is free again at once. */
			memset(buf, 0, sizes[i]);
			recv_one(to, &rx);
			ck_assert_uint_eq(rx.len, sizes[i]);
			ck_assert(same_bytes(rx.buf, rx.len, id));
			/* sent ECN-capable, and the receiver reads it */
			ck_assert_uint_eq(rx.tos & UET_LINK_ECN_MASK,
					  UET_LINK_ECN_ECT0);
			ck_assert(uet_link_addr_eq(&rx.src,
						   round ? &ab : &aa));
		}
	}
	ck_assert_int_eq(uet_link_udp_get_stats(a, &st), 0);
	ck_assert_uint_eq(st.tx_pkts, 5);
	ck_assert_uint_eq(st.rx_pkts, 5);
	ck_assert_uint_eq(st.tx_bytes, 69001 + sizes[4]);
	ck_assert_uint_eq(st.rx_bytes, 69001 + sizes[4]);
	ck_assert_uint_eq(st.rx_trunc + st.tx_err, 0);
	a->ops->close(a);
	b->ops->close(b);
}

START_TEST(test_exchange_v4)
{
	exchange("127.0.0.1");
}
END_TEST

/* A datagram that arrives CE-marked (sent here from a plain socket with
 * that TOS, as a congested router would leave it) is returned with its
 * TOS byte, and counted. */
static void ecn_ce(const char *host)
{
	struct uet_link_udp_stats st;
	struct uet_link_addr ab;
	struct uet_link_rx rx;
	struct uet_link *b;
	int fd, tos = 0x80 | UET_LINK_ECN_CE;
	uint8_t byte = 7;

	b = open_link(host, 0, 0);
	ab = addr_of(b);
	fd = socket(ab.ss.ss_family, SOCK_DGRAM, 0);
	ck_assert_int_ge(fd, 0);
	if (ab.ss.ss_family == AF_INET)
		ck_assert_int_eq(setsockopt(fd, IPPROTO_IP, IP_TOS, &tos,
					    sizeof(tos)), 0);
	else
		ck_assert_int_eq(setsockopt(fd, IPPROTO_IPV6, IPV6_TCLASS,
					    &tos, sizeof(tos)), 0);
	ck_assert_int_eq(sendto(fd, &byte, 1, 0, (struct sockaddr *)&ab.ss,
				ab.len), 1);
	recv_one(b, &rx);
	ck_assert_uint_eq(rx.len, 1);
	ck_assert_uint_eq(rx.tos, 0x80 | UET_LINK_ECN_CE);
	ck_assert_int_eq(uet_link_udp_get_stats(b, &st), 0);
	ck_assert_uint_eq(st.rx_ce, 1);
	close(fd);
	b->ops->close(b);
}

START_TEST(test_ecn_ce_v4)
{
	ecn_ce("127.0.0.1");
}
END_TEST

START_TEST(test_ecn_ce_v6)
{
	ecn_ce("::1");
}
END_TEST

/* Multipath: a link with entropy sockets lists their ports; a sprayed
 * datagram leaves from the socket of its entropy, anything else (not
 * sprayed, or an entropy that is not one of ours) from the NIC's port;
 * the receiver sees the source port.  Batches mixing sockets go out in
 * order. */
static void entropy_socks(const char *host)
{
	struct uet_link_udp_cfg cfg = { .host = host, .entropy_socks = 4 };
	struct uet_link_udp_stats st;
	struct uet_link_addr aa, ab;
	struct uet_link_pkt pkts[6];
	struct uet_link *a = NULL, *b;
	struct uet_link_rx rx;
	uint16_t ports[8];
	uint8_t buf[6][16];
	unsigned int i, k;

	ck_assert_int_eq(uet_link_udp_open(&cfg, &a), 0);
	b = open_link(host, 0, 0);
	aa = addr_of(a);
	ab = addr_of(b);
	ck_assert_ptr_nonnull(a->ops->entropies);
	ck_assert_uint_eq(a->ops->entropies(a, ports, 8), 4);
	for (i = 0; i < 4; i++) {
		ck_assert_uint_ne(ports[i], 0);
		ck_assert_uint_ne(ports[i], port_of(&aa));
		for (k = 0; k < i; k++)
			ck_assert_uint_ne(ports[i], ports[k]);
	}
	ck_assert_uint_eq(b->ops->entropies(b, ports + 4, 4), 0);
	for (i = 0; i < 6; i++) {
		memset(buf[i], (int)i, sizeof(buf[i]));
		make_pkt(&pkts[i], &ab, buf[i], sizeof(buf[i]), 1);
		pkts[i].sprayed = i < 4;
		pkts[i].entropy = i < 4 ? ports[3 - i] : ports[0];
	}
	pkts[3].entropy = 1;	/* not one of ours: the NIC's port */
	ck_assert_int_eq(a->ops->send(a, pkts, 6), 6);
	for (i = 0; i < 6; i++) {
		/* the last three may come as one GRO buffer: what the link
		 * holds is returned before the socket is read again */
		if (b->ops->recv(b, &rx, 1) != 1)
			recv_one(b, &rx);
		ck_assert_uint_eq(rx.len, 16);
		ck_assert_uint_eq(rx.buf[0], i);
		ck_assert_uint_eq(port_of(&rx.src),
				  i < 3 ? ports[3 - i] : port_of(&aa));
		ck_assert_uint_eq(rx.tos & UET_LINK_ECN_MASK,
				  UET_LINK_ECN_ECT0);
	}
	ck_assert_int_eq(uet_link_udp_get_stats(a, &st), 0);
	ck_assert_uint_eq(st.tx_sprayed, 3);
	ck_assert_uint_eq(st.tx_pkts, 6);
	a->ops->close(a);
	b->ops->close(b);
	cfg.entropy_socks = UET_LINK_UDP_ENT_MAX + 1;
	ck_assert_int_eq(uet_link_udp_open(&cfg, &a), -EINVAL);
}

START_TEST(test_entropy_socks_v4)
{
	entropy_socks("127.0.0.1");
}
END_TEST

START_TEST(test_entropy_socks_v6)
{
	entropy_socks("::1");
}
END_TEST

/* ICMP errors on the entropy sockets: a sprayed datagram to a port
 * nobody listens on draws a port unreachable, which comes back to the
 * entropy socket that sent it; errors() reports the destination
 * (ECONNREFUSED), as for the NIC's own socket, within a bounded wait. */
static void entropy_icmp(const char *host)
{
	struct uet_link_udp_cfg cfg = { .host = host, .entropy_socks = 2 };
	struct uet_link_udp_stats st;
	struct uet_link_err ev[4];
	struct uet_link_addr ab;
	struct uet_link_pkt pkt;
	struct uet_link *a = NULL, *b;
	uint16_t ports[2];
	uint8_t buf[16] = { 0 };
	unsigned int tries, n = 0;

	ck_assert_int_eq(uet_link_udp_open(&cfg, &a), 0);
	b = open_link(host, 0, 0);
	ab = addr_of(b);
	b->ops->close(b);		/* its port is closed now */
	ck_assert_uint_eq(a->ops->entropies(a, ports, 2), 2);
	make_pkt(&pkt, &ab, buf, sizeof(buf), 1);
	pkt.sprayed = true;
	pkt.entropy = ports[1];
	ck_assert_int_eq(a->ops->send(a, &pkt, 1), 1);
	for (tries = 0; tries < 200 && !n; tries++) {
		n = a->ops->errors(a, ev, 4);
		if (!n)
			usleep(1000);
	}
	ck_assert_uint_eq(n, 1);
	ck_assert(uet_link_addr_eq(&ev[0].dst, &ab));
	ck_assert_int_eq(ev[0].err, ECONNREFUSED);
	ck_assert(!ev[0].local);
	ck_assert_int_eq(uet_link_udp_get_stats(a, &st), 0);
	ck_assert_uint_eq(st.icmp_err, 1);
	ck_assert_uint_eq(st.tx_sprayed, 1);
	/* the socket error it left does not fail the next sprayed send */
	ck_assert_int_eq(a->ops->send(a, &pkt, 1), 1);
	a->ops->close(a);
}

START_TEST(test_entropy_icmp_v4)
{
	entropy_icmp("127.0.0.1");
}
END_TEST

START_TEST(test_entropy_icmp_v6)
{
	entropy_icmp("::1");
}
END_TEST

START_TEST(test_exchange_v6)
{
	exchange("::1");
}
END_TEST

/* Send n datagrams (id = first + i, len bytes) in one call, retrying
 * the rest after a bounded wait when the socket is full. */
static void send_batch(struct uet_link *from, const struct uet_link_addr *to,
		       unsigned int n, size_t len, uint8_t (*bufs)[256])
{
	static struct uet_link_pkt pkts[256];
	unsigned int i, done = 0, tries = 0;
	struct pollfd p;
	int ret;

	ck_assert_uint_le(n, 256);
	for (i = 0; i < n; i++) {
		uet_test_fill(bufs[i], len, i);
		make_pkt(&pkts[i], to, bufs[i], len, 1 + i % UET_LINK_MAX_IOV);
	}
	while (done < n) {
		ret = from->ops->send(from, pkts + done, n - done);
		ck_assert_int_ge(ret, 0);
		done += (unsigned int)ret;
		if (done < n) {
			ck_assert_uint_lt(tries++, 10);
			p.fd = from->ops->fd(from);
			p.events = POLLOUT;
			poll(&p, 1, 200);
		}
	}
}

static void batch(const char *host)
{
	static uint8_t bufs[256][256];
	struct uet_link_udp_stats st;
	struct uet_link_rx rx[256];
	struct uet_link_addr ab;
	struct uet_link *a, *b;
	unsigned int got, round, total;
	int i, n;

	a = open_link(host, 0, 0);
	b = open_link(host, 0, 0);
	ab = addr_of(b);
	for (round = 0; round < 2; round++) {
		/* 64: one sendmmsg(); 200: several. */
		total = round ? 200 : UET_LINK_UDP_BATCH;
		send_batch(a, &ab, total, 100, bufs);
		got = 0;
		while (got < total) {
			ck_assert(wait_readable(b->ops->fd(b), WAIT_MS));
			n = b->ops->recv(b, rx, 256);
			ck_assert_int_gt(n, 0);
			/* At most what was asked (with GRO a buffer holds
			 * many datagrams: more than UET_LINK_UDP_BATCH). */
			ck_assert_int_le(n, 256);
			/* Loopback keeps the order. */
			for (i = 0; i < n; i++, got++) {
				ck_assert_uint_eq(rx[i].len, 100);
				ck_assert(same_bytes(rx[i].buf, 100, got));
			}
		}
		ck_assert_uint_eq(got, total);
		ck_assert_int_eq(b->ops->recv(b, rx, 256), 0);
	}
	ck_assert_int_eq(uet_link_udp_get_stats(a, &st), 0);
	ck_assert_uint_eq(st.tx_pkts, UET_LINK_UDP_BATCH + 200);
	ck_assert_uint_eq(st.tx_bytes, 100 * (UET_LINK_UDP_BATCH + 200));
	ck_assert_int_eq(uet_link_udp_get_stats(b, &st), 0);
	ck_assert_uint_eq(st.rx_pkts, UET_LINK_UDP_BATCH + 200);
	a->ops->close(a);
	b->ops->close(b);
}

START_TEST(test_batch_v4)
{
	batch("127.0.0.1");
}
END_TEST

START_TEST(test_batch_v6)
{
	batch("::1");
}
END_TEST

/* Port 0: UET_UDP_PORT if free, else an ephemeral port; an explicit
 * port in use is -EADDRINUSE. */
static void port_rules(int family, const char *host)
{
	struct uet_link_udp_cfg cfg = { .host = host };
	struct uet_link *a, *b, *c = NULL;
	struct uet_link_addr aa, ab;
	bool was_free;

	was_free = port_free(family, host, UET_UDP_PORT);
	a = open_link(host, 0, 0);
	aa = addr_of(a);
	/* Another process may hold UET_UDP_PORT (parallel test runs): then
	 * a already shows the fallback, and b shows it in any case. */
	if (was_free)
		ck_assert(port_of(&aa) == UET_UDP_PORT ||
			  !port_free(family, host, UET_UDP_PORT));
	ck_assert_uint_ne(port_of(&aa), 0);

	b = open_link(host, 0, 0);
	ab = addr_of(b);
	ck_assert_uint_ne(port_of(&ab), 0);
	ck_assert_uint_ne(port_of(&ab), port_of(&aa));

	cfg.port = port_of(&ab);
	ck_assert_int_eq(uet_link_udp_open(&cfg, &c), -EADDRINUSE);
	ck_assert_ptr_null(c);
	cfg.port = port_of(&aa);
	ck_assert_int_eq(uet_link_udp_open(&cfg, &c), -EADDRINUSE);

	/* A freed port can be asked for explicitly. */
	b->ops->close(b);
	cfg.port = port_of(&ab);
	ck_assert_int_eq(uet_link_udp_open(&cfg, &c), 0);
	ab = addr_of(c);
	ck_assert_uint_eq(port_of(&ab), cfg.port);
	c->ops->close(c);
	a->ops->close(a);
}

START_TEST(test_port_rules_v4)
{
	port_rules(AF_INET, "127.0.0.1");
}
END_TEST

START_TEST(test_port_rules_v6)
{
	port_rules(AF_INET6, "::1");
}
END_TEST

START_TEST(test_mtu)
{
	static uint8_t buf[65536];
	struct uet_link_udp_cfg cfg = { .host = "127.0.0.1" };
	struct uet_link *a, *b, *c, *v6;
	struct uet_link_pkt pkts[3];
	struct uet_link_addr ab;
	struct uet_link_rx rx;
	size_t mtu;

	/* Loopback: 65536 - 28 capped at 65507; IPv6: 65536 - 48. */
	a = open_link("127.0.0.1", 0, 0);
	mtu = a->ops->mtu(a);
	ck_assert_uint_gt(mtu, 60000);
	ck_assert_uint_le(mtu, UET_LINK_UDP_MAX_PAYLOAD_V4);
	v6 = open_link("::1", 0, 0);
	ck_assert_uint_gt(v6->ops->mtu(v6), 60000);
	ck_assert_uint_le(v6->ops->mtu(v6), UET_LINK_UDP_MAX_PAYLOAD_V6);
	v6->ops->close(v6);

	b = open_link("127.0.0.1", 0, 1000);
	ck_assert_uint_eq(b->ops->mtu(b), 1000);
	ab = addr_of(b);
	make_pkt(&pkts[0], &ab, buf, 1000, 4);
	make_pkt(&pkts[1], &ab, buf, 1001, 4);
	make_pkt(&pkts[2], &ab, buf, 10, 1);
	ck_assert_int_eq(b->ops->send(b, &pkts[1], 2), -EMSGSIZE);
	ck_assert_int_eq(b->ops->send(b, pkts, 3), 1);
	ck_assert_int_eq(b->ops->send(b, &pkts[1], 1), -EMSGSIZE);
	recv_one(b, &rx);
	ck_assert_uint_eq(rx.len, 1000);

	/* Above the link's own mtu. */
	make_pkt(&pkts[0], &ab, buf, mtu + 1, 2);
	ck_assert_int_eq(a->ops->send(a, pkts, 1), -EMSGSIZE);

	/* A datagram above the receiver's own mtu is still received: the
	 * mtu bounds what a link sends, a peer's may be larger (jumbo
	 * frames, loopback). */
	make_pkt(&pkts[0], &ab, buf, 2000, 1);
	uet_test_fill(buf, 2000, 77);
	make_pkt(&pkts[1], &ab, buf, 500, 1);
	ck_assert_int_eq(a->ops->send(a, pkts, 2), 2);
	{
		struct uet_link_udp_stats st;
		int n = 0, tries, got = 0;

		for (tries = 0; tries < 20 && got < 2; tries++) {
			n = b->ops->recv(b, &rx, 1);
			if (n != 1) {
				ck_assert(wait_readable(b->ops->fd(b),
							WAIT_MS));
				continue;
			}
			ck_assert_uint_eq(rx.len, got ? 500 : 2000);
			ck_assert(same_bytes(rx.buf, rx.len, 77));
			got++;
		}
		ck_assert_int_eq(got, 2);
		ck_assert_int_eq(uet_link_udp_get_stats(b, &st), 0);
		ck_assert_uint_eq(st.rx_trunc, 0);
	}

	/* Configured mtu above what UDP carries. */
	cfg.mtu = UET_LINK_UDP_MAX_PAYLOAD_V4 + 1;
	ck_assert_int_eq(uet_link_udp_open(&cfg, &c), -EINVAL);
	cfg.host = "::1";
	cfg.mtu = UET_LINK_UDP_MAX_PAYLOAD_V6 + 1;
	ck_assert_int_eq(uet_link_udp_open(&cfg, &c), -EINVAL);
	cfg.mtu = UET_LINK_UDP_MAX_PAYLOAD_V6;
	ck_assert_int_eq(uet_link_udp_open(&cfg, &c), 0);
	ck_assert_uint_eq(c->ops->mtu(c), UET_LINK_UDP_MAX_PAYLOAD_V6);
	c->ops->close(c);
	a->ops->close(a);
	b->ops->close(b);
}
END_TEST

/*
 * The path MTU to a destination on this host: the loopback device's
 * (65536 less the headers, capped) whatever the link's own mtu is; asked
 * of the kernel once per host, not per port.  A link bound to the
 * wildcard address has the smallest MTU of the interfaces that are up
 * (1500 on a host with an Ethernet interface): there, a datagram of the
 * path's size reaches a peer on 127.0.0.1 / ::1 intact, one byte more
 * is refused.  A configured mtu holds on every path.
 */
static void path_mtu(const char *any, const char *loop, size_t cap)
{
	static uint8_t buf[65536];
	struct uet_link_udp_stats st;
	struct uet_link *w, *r, *f;
	struct uet_link_addr dst, other;
	struct uet_link_pkt pkt;
	struct uet_link_rx rx;
	size_t m, p;

	w = open_link(any, 0, 0);
	r = open_link(loop, 0, 0);
	dst = addr_of(r);
	ck_assert_int_eq(uet_link_addr_from_str(&other, loop,
						(uint16_t)(port_of(&dst) ^ 1)),
			 0);
	m = w->ops->mtu(w);
	ck_assert_ptr_nonnull(w->ops->path_mtu);
	p = w->ops->path_mtu(w, &dst);
	ck_assert_uint_gt(p, 60000);
	ck_assert_uint_le(p, cap);
	ck_assert_uint_ge(p, m);
	ck_assert_uint_eq(w->ops->path_mtu(w, &other), p);
	ck_assert_int_eq(uet_link_udp_get_stats(w, &st), 0);
	ck_assert_uint_eq(st.path_probes, 1);
	ck_assert_uint_eq(st.path_wide, m < p);

	uet_test_fill(buf, p, 91);
	make_pkt(&pkt, &dst, buf, p, 3);
	ck_assert_int_eq(w->ops->send(w, &pkt, 1), 1);
	recv_one(r, &rx);
	ck_assert_uint_eq(rx.len, p);
	ck_assert(same_bytes(rx.buf, rx.len, 91));
	make_pkt(&pkt, &dst, buf, p + 1, 2);
	ck_assert_int_eq(w->ops->send(w, &pkt, 1), -EMSGSIZE);
	ck_assert_int_eq(uet_link_udp_get_stats(w, &st), 0);
	ck_assert_uint_eq(st.path_probes, 1);

	f = open_link(any, 0, 1200);
	ck_assert_uint_eq(f->ops->path_mtu(f, &dst), 1200);
	make_pkt(&pkt, &dst, buf, 1201, 1);
	ck_assert_int_eq(f->ops->send(f, &pkt, 1), -EMSGSIZE);
	ck_assert_int_eq(uet_link_udp_get_stats(f, &st), 0);
	ck_assert_uint_eq(st.path_probes, 0);
	f->ops->close(f);
	w->ops->close(w);
	r->ops->close(r);
}

START_TEST(test_path_mtu)
{
	path_mtu("0.0.0.0", "127.0.0.1", UET_LINK_UDP_MAX_PAYLOAD_V4);
	path_mtu("::", "::1", UET_LINK_UDP_MAX_PAYLOAD_V6);
}
END_TEST

/* A wildcard bind reports the loopback address and is reachable there. */
static void wildcard(const char *any, const char *loop, size_t cap)
{
	struct uet_link_addr aw, want;
	struct uet_link *w, *a;
	struct uet_link_pkt pkt;
	struct uet_link_rx rx;
	uint8_t buf[64];

	w = open_link(any, 0, 0);
	a = open_link(loop, 0, 0);
	aw = addr_of(w);
	ck_assert_int_eq(uet_link_addr_from_str(&want, loop, port_of(&aw)), 0);
	ck_assert(uet_link_addr_eq(&aw, &want));
	ck_assert_uint_gt(w->ops->mtu(w), 0);
	ck_assert_uint_le(w->ops->mtu(w), cap);
	uet_test_fill(buf, sizeof(buf), 5);
	make_pkt(&pkt, &aw, buf, sizeof(buf), 2);
	ck_assert_int_eq(a->ops->send(a, &pkt, 1), 1);
	recv_one(w, &rx);
	ck_assert_uint_eq(rx.len, sizeof(buf));
	ck_assert(same_bytes(rx.buf, rx.len, 5));
	w->ops->close(w);
	a->ops->close(a);
}

START_TEST(test_wildcard)
{
	struct uet_link *w;
	int v6only = 0;
	socklen_t sl = sizeof(v6only);

	wildcard("0.0.0.0", "127.0.0.1", UET_LINK_UDP_MAX_PAYLOAD_V4);
	wildcard("::", "::1", UET_LINK_UDP_MAX_PAYLOAD_V6);
	w = open_link("::", 0, 0);
	ck_assert_int_eq(getsockopt(w->ops->fd(w), IPPROTO_IPV6, IPV6_V6ONLY,
				    &v6only, &sl), 0);
	ck_assert_int_eq(v6only, 1);
	w->ops->close(w);
}
END_TEST

START_TEST(test_empty_and_poll)
{
	struct uet_link_addr ab;
	struct uet_link *a, *b;
	struct uet_link_pkt pkt;
	struct uet_link_rx rx[4];
	uint8_t buf[32];
	int fd;

	a = open_link("127.0.0.1", 0, 0);
	b = open_link("127.0.0.1", 0, 0);
	ab = addr_of(b);
	fd = b->ops->fd(b);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_ne(fd, a->ops->fd(a));
	ck_assert(fcntl(fd, F_GETFL) & O_NONBLOCK);
	ck_assert(fcntl(fd, F_GETFD) & FD_CLOEXEC);

	/* Nothing there: no wait, 0. */
	ck_assert_int_eq(b->ops->recv(b, rx, 4), 0);
	ck_assert_int_eq(b->ops->recv(b, rx, 0), 0);
	ck_assert(!wait_readable(fd, 0));

	uet_test_fill(buf, sizeof(buf), 9);
	make_pkt(&pkt, &ab, buf, sizeof(buf), 1);
	ck_assert_int_eq(a->ops->send(a, &pkt, 1), 1);
	ck_assert(wait_readable(fd, WAIT_MS));
	/* n == 0 leaves it queued. */
	ck_assert_int_eq(b->ops->recv(b, rx, 0), 0);
	ck_assert(wait_readable(fd, 0));
	ck_assert_int_eq(b->ops->recv(b, rx, 4), 1);
	ck_assert(same_bytes(rx[0].buf, rx[0].len, 9));
	ck_assert(!wait_readable(fd, 0));
	ck_assert_int_eq(b->ops->recv(b, rx, 4), 0);
	a->ops->close(a);
	b->ops->close(b);
}
END_TEST

static int other_send(struct uet_link *l, const struct uet_link_pkt *p,
		      unsigned int n)
{
	return 0;
}

START_TEST(test_errors)
{
	static const struct uet_link_ops other_ops = { .send = other_send };
	struct uet_link other = { .ops = &other_ops };
	struct uet_link_udp_cfg cfg = { .host = NULL };
	struct uet_link_addr v6, v4;
	struct uet_link_udp_stats st;
	struct uet_link_pkt pkt;
	struct uet_link *l = NULL, *a, *b6;
	uint8_t buf[16] = { 0 };

	ck_assert_int_eq(uet_link_udp_open(&cfg, &l), -EINVAL);
	ck_assert_int_eq(uet_link_udp_open(NULL, &l), -EINVAL);
	cfg.host = "localhost";
	ck_assert_int_eq(uet_link_udp_open(&cfg, &l), -EINVAL);
	cfg.host = "127.0.0.1";
	ck_assert_int_eq(uet_link_udp_open(&cfg, NULL), -EINVAL);
	/* TEST-NET-2 is nobody's local address. */
	cfg.host = "198.51.100.1";
	ck_assert_int_eq(uet_link_udp_open(&cfg, &l), -EADDRNOTAVAIL);
	ck_assert_ptr_null(l);

	a = open_link("127.0.0.1", 0, 0);
	b6 = open_link("::1", 0, 0);
	v6 = addr_of(b6);
	v4 = addr_of(a);
	make_pkt(&pkt, &v6, buf, sizeof(buf), 1);
	ck_assert_int_eq(a->ops->send(a, &pkt, 1), -EAFNOSUPPORT);
	make_pkt(&pkt, &v4, buf, sizeof(buf), 1);
	ck_assert_int_eq(b6->ops->send(b6, &pkt, 1), -EAFNOSUPPORT);
	pkt.iovcnt = UET_LINK_MAX_IOV + 1;
	ck_assert_int_eq(a->ops->send(a, &pkt, 1), -EINVAL);
	pkt.iovcnt = 1;
	pkt.dst = NULL;
	ck_assert_int_eq(a->ops->send(a, &pkt, 1), -EINVAL);
	ck_assert_int_eq(a->ops->send(a, &pkt, 0), 0);

	ck_assert_int_eq(uet_link_udp_get_stats(&other, &st), -EINVAL);
	ck_assert_int_eq(uet_link_udp_get_stats(a, NULL), -EINVAL);
	ck_assert_int_eq(uet_link_udp_get_stats(a, &st), 0);
	ck_assert_uint_eq(st.tx_pkts, 0);
	a->ops->close(a);
	b6->ops->close(b6);
}
END_TEST

START_TEST(test_sockbuf)
{
	struct uet_link_udp_cfg cfg = { .host = "127.0.0.1",
					.sndbuf = 65536, .rcvbuf = 98304 };
	struct uet_link *l;
	socklen_t sl;
	int v;

	ck_assert_int_eq(uet_link_udp_open(&cfg, &l), 0);
	/* Linux reports twice the value set (bookkeeping overhead). */
	sl = sizeof(v);
	ck_assert_int_eq(getsockopt(l->ops->fd(l), SOL_SOCKET, SO_SNDBUF, &v,
				    &sl), 0);
	ck_assert_int_eq(v, 2 * 65536);
	sl = sizeof(v);
	ck_assert_int_eq(getsockopt(l->ops->fd(l), SOL_SOCKET, SO_RCVBUF, &v,
				    &sl), 0);
	ck_assert_int_eq(v, 2 * 98304);
	l->ops->close(l);
}
END_TEST

/*
 * Send total datagrams from a to b in rounds of 200 and receive them all
 * (delivered or dropped by b's loss knob, as b's counters say).  Returns
 * how many recv() returned; checks they are the right bytes in order.
 */
static unsigned int loss_run(struct uet_link *a, struct uet_link *b,
			     unsigned int total)
{
	static uint8_t bufs[256][256];
	struct uet_link_udp_stats st;
	struct uet_link_rx rx[64];
	struct uet_link_addr ab = addr_of(b);
	unsigned int sent, round, next, got = 0;
	uint64_t seen;
	int i, n;

	for (sent = 0; sent < total; sent += round) {
		round = total - sent < 200 ? total - sent : 200;
		send_batch(a, &ab, round, 64, bufs);
		next = 0;
		for (;;) {
			ck_assert_int_eq(uet_link_udp_get_stats(b, &st), 0);
			seen = st.rx_pkts + st.rx_dropped;
			if (seen == sent + round)
				break;
			ck_assert_uint_lt(seen, sent + round);
			n = b->ops->recv(b, rx, 64);
			ck_assert_int_ge(n, 0);
			if (n == 0) {
				/* All dropped, or nothing yet: wait only if
				 * datagrams are still missing. */
				ck_assert_int_eq(uet_link_udp_get_stats(b, &st),
						 0);
				if (st.rx_pkts + st.rx_dropped < sent + round)
					ck_assert(wait_readable(b->ops->fd(b),
								WAIT_MS));
				continue;
			}
			/* Loopback keeps the order: each datagram is a
			 * later one of this round (ids 0..round-1). */
			for (i = 0; i < n; i++, got++, next++) {
				ck_assert_uint_eq(rx[i].len, 64);
				while (next < round &&
				       !same_bytes(rx[i].buf, 64, next))
					next++;
				ck_assert_uint_lt(next, round);
			}
		}
	}
	ck_assert_int_eq(uet_link_udp_get_stats(b, &st), 0);
	ck_assert_uint_eq(st.rx_pkts, got);
	ck_assert_uint_eq(st.rx_bytes, 64ull * got);
	ck_assert_uint_eq(st.rx_pkts + st.rx_dropped, total);
	ck_assert_uint_eq(st.rx_trunc, 0);
	return got;
}

/* FI_UET_LOSS_PPM's link knob: unset drops nothing, N ppm drops about N
 * per million received datagrams, 10^6 drops all, above is -EINVAL. */
START_TEST(test_loss_knob)
{
	struct uet_link_udp_cfg cfg = { .host = "127.0.0.1" };
	struct uet_link_udp_stats st;
	struct uet_link *a, *b, *l = NULL;
	unsigned int got;

	cfg.loss_ppm = UET_LINK_UDP_LOSS_PPM_MAX + 1;
	ck_assert_int_eq(uet_link_udp_open(&cfg, &l), -EINVAL);
	ck_assert_ptr_null(l);

	a = open_link("127.0.0.1", 0, 0);

	/* Unset: nothing dropped. */
	b = open_link("127.0.0.1", 0, 0);
	got = loss_run(a, b, 2000);
	ck_assert_uint_eq(got, 2000);
	ck_assert_int_eq(uet_link_udp_get_stats(b, &st), 0);
	ck_assert_uint_eq(st.rx_dropped, 0);
	b->ops->close(b);

	/* 1% of 20,000: 200 expected, sd 14; a fixed seed, loose bounds. */
	cfg.loss_ppm = 10000;
	cfg.loss_seed = 42;
	ck_assert_int_eq(uet_link_udp_open(&cfg, &b), 0);
	got = loss_run(a, b, 20000);
	ck_assert_int_eq(uet_link_udp_get_stats(b, &st), 0);
	ck_assert_uint_ge(st.rx_dropped, 140);
	ck_assert_uint_le(st.rx_dropped, 260);
	ck_assert_uint_eq(got + st.rx_dropped, 20000);
	b->ops->close(b);

	/* 25%, seed from getrandom(): 500 of 2,000 expected, sd 19. */
	cfg.loss_ppm = 250000;
	cfg.loss_seed = 0;
	ck_assert_int_eq(uet_link_udp_open(&cfg, &b), 0);
	loss_run(a, b, 2000);
	ck_assert_int_eq(uet_link_udp_get_stats(b, &st), 0);
	ck_assert_uint_ge(st.rx_dropped, 400);
	ck_assert_uint_le(st.rx_dropped, 600);
	b->ops->close(b);

	/* All of them. */
	cfg.loss_ppm = UET_LINK_UDP_LOSS_PPM_MAX;
	ck_assert_int_eq(uet_link_udp_open(&cfg, &b), 0);
	ck_assert_uint_eq(loss_run(a, b, 300), 0);
	ck_assert_int_eq(uet_link_udp_get_stats(b, &st), 0);
	ck_assert_uint_eq(st.rx_dropped, 300);
	b->ops->close(b);

	/* The sender (no knob) sent everything and dropped nothing. */
	ck_assert_int_eq(uet_link_udp_get_stats(a, &st), 0);
	ck_assert_uint_eq(st.tx_pkts, 2000 + 20000 + 2000 + 300);
	ck_assert_uint_eq(st.rx_dropped, 0);
	a->ops->close(a);
}
END_TEST

/*
 * Runs of equal datagrams (GSO on send, GRO on receive where the kernel
 * has them; plain UDP with no_gso): every datagram arrives whole, in
 * order, with its own length, also when the caller takes them three at a
 * time (the rest of a coalesced buffer waits for the next calls).
 */
static void gso_roundtrip(bool no_gso)
{
	enum { NRUN = 20, LEN = 3000 };
	struct uet_link_udp_cfg cfg = { .host = "127.0.0.1", .port = 0,
					.no_gso = no_gso };
	struct uet_link_pkt pkts[NRUN + 2];
	static uint8_t bufs[NRUN + 2][LEN];
	struct uet_link_udp_stats st;
	struct uet_link *a = NULL, *b = NULL;
	struct uet_link_rx rx[3];
	struct uet_link_addr ab;
	size_t lens[NRUN + 2];
	unsigned int got = 0, k, tries;
	int n;

	ck_assert_int_eq(uet_link_udp_open(&cfg, &a), 0);
	ck_assert_int_eq(uet_link_udp_open(&cfg, &b), 0);
	ab = addr_of(b);
	for (k = 0; k < NRUN + 2; k++) {
		/* NRUN of LEN, one shorter (ends the run), one of LEN again */
		lens[k] = k == NRUN ? 777 : LEN;
		uet_test_fill(bufs[k], lens[k], 1000 + k);
		make_pkt(&pkts[k], &ab, bufs[k], lens[k], 1 + k % 3);
	}
	ck_assert_int_eq(a->ops->send(a, pkts, NRUN + 2), NRUN + 2);
	for (tries = 0; got < NRUN + 2 && tries < 200; tries++) {
		n = b->ops->recv(b, rx, 3);
		ck_assert_int_ge(n, 0);
		ck_assert_int_le(n, 3);
		if (n == 0) {
			wait_readable(b->ops->fd(b), WAIT_MS);
			continue;
		}
		for (k = 0; k < (unsigned int)n; k++, got++) {
			ck_assert_uint_eq(rx[k].len, lens[got]);
			ck_assert(same_bytes(rx[k].buf, rx[k].len, 1000 + got));
			ck_assert(uet_link_addr_eq(&rx[k].src, &ab) ||
				  rx[k].src.len > 0);
		}
	}
	ck_assert_uint_eq(got, NRUN + 2);
	ck_assert_int_eq(b->ops->recv(b, rx, 3), 0);
	ck_assert_int_eq(uet_link_udp_get_stats(a, &st), 0);
	ck_assert_uint_eq(st.tx_pkts, NRUN + 2);
	ck_assert_uint_eq(st.gso_off, 0);
	ck_assert_int_eq(uet_link_udp_get_stats(b, &st), 0);
	ck_assert_uint_eq(st.rx_pkts, NRUN + 2);
	ck_assert_uint_eq(st.rx_trunc, 0);
	if (no_gso)
		ck_assert_uint_eq(st.rx_gro, 0);
	else	/* the kernel may lack GSO/GRO: then plain datagrams */
		printf("gso_runs: %llu coalesced receive buffers\n",
		       (unsigned long long)st.rx_gro);
	ck_assert_int_eq(uet_link_udp_get_stats(a, &st), 0);
	if (no_gso)
		ck_assert_uint_eq(st.tx_gso, 0);
	a->ops->close(a);
	b->ops->close(b);
}

START_TEST(test_gso_runs)
{
	gso_roundtrip(false);
	gso_roundtrip(true);
}
END_TEST

/*
 * A pair of large datagrams goes as two msghdrs, a run of three and a
 * pair of small ones as one GSO buffer each (UET_LINK_UDP_GSO_PAIR_SPLIT,
 * 4096): tx_gso counts the GSO msghdrs.  Every datagram arrives whole.
 */
START_TEST(test_gso_pair_split)
{
	static const size_t lens[] = { 5000, 5000, 5000,	/* run of 3 */
				       5000, 100,		/* large pair */
				       200, 100 };		/* small pair */
	enum { N = sizeof(lens) / sizeof(lens[0]) };
	struct uet_link_udp_cfg cfg = { .host = "127.0.0.1", .port = 0 };
	static uint8_t bufs[N][5000];
	struct uet_link_pkt pkts[N];
	struct uet_link_udp_stats st;
	struct uet_link *a = NULL, *b = NULL;
	struct uet_link_rx rx[N];
	struct uet_link_addr ab;
	unsigned int got = 0, k, tries, sent = 0;
	uint64_t gso_before;
	int n;

	ck_assert_int_eq(uet_link_udp_open(&cfg, &a), 0);
	ck_assert_int_eq(uet_link_udp_open(&cfg, &b), 0);
	ab = addr_of(b);
	for (k = 0; k < N; k++) {
		uet_test_fill(bufs[k], lens[k], 2000 + k);
		make_pkt(&pkts[k], &ab, bufs[k], lens[k], 1);
	}
	/* one call per group, so that the groups are runs of their own */
	ck_assert_int_eq(a->ops->send(a, pkts, 3), 3);
	ck_assert_int_eq(uet_link_udp_get_stats(a, &st), 0);
	gso_before = st.tx_gso;
	if (gso_before == 0) {
		printf("gso_pair_split: no UDP GSO here, only delivery checked\n");
	} else {
		ck_assert_uint_eq(gso_before, 1);
	}
	ck_assert_int_eq(a->ops->send(a, pkts + 3, 2), 2);
	ck_assert_int_eq(uet_link_udp_get_stats(a, &st), 0);
	ck_assert_uint_eq(st.tx_gso, gso_before);	/* two msghdrs */
	ck_assert_int_eq(a->ops->send(a, pkts + 5, 2), 2);
	ck_assert_int_eq(uet_link_udp_get_stats(a, &st), 0);
	if (gso_before)
		ck_assert_uint_eq(st.tx_gso, 2);	/* one GSO buffer */
	ck_assert_uint_eq(st.tx_pkts, N);
	sent = N;
	for (tries = 0; got < sent && tries < 200; tries++) {
		n = b->ops->recv(b, rx, N - got);
		ck_assert_int_ge(n, 0);
		if (n == 0) {
			wait_readable(b->ops->fd(b), WAIT_MS);
			continue;
		}
		for (k = 0; k < (unsigned int)n; k++, got++) {
			ck_assert_uint_eq(rx[k].len, lens[got]);
			ck_assert(same_bytes(rx[k].buf, rx[k].len, 2000 + got));
		}
	}
	ck_assert_uint_eq(got, sent);
	a->ops->close(a);
	b->ops->close(b);
}
END_TEST

/* Send k datagrams of len bytes (ids id0..) from a to b and receive
 * them with calls for up to 64; returns the counts the calls brought in
 * calls[] (at most ncalls) and checks every datagram. */
static unsigned int adapt_exchange(struct uet_link *a, struct uet_link *b,
				   unsigned int k, size_t len, uint32_t id0,
				   int *calls, unsigned int ncalls)
{
	static struct uet_link_pkt pkts[32];
	static uint8_t bufs[32][1200];
	struct uet_link_addr ab = addr_of(b);
	struct uet_link_rx rx[64];
	unsigned int got = 0, nc = 0, i;
	int n;

	ck_assert_uint_le(k, 32);
	ck_assert_uint_le(len, sizeof(bufs[0]));
	for (i = 0; i < k; i++) {
		uet_test_fill(bufs[i], len, id0 + i);
		make_pkt(&pkts[i], &ab, bufs[i], len, 1);
	}
	ck_assert_int_eq(a->ops->send(a, pkts, k), (int)k);
	while (got < k) {
		ck_assert(wait_readable(b->ops->fd(b), WAIT_MS));
		n = b->ops->recv(b, rx, 64);
		ck_assert_int_ge(n, 0);
		ck_assert_uint_lt(nc, ncalls);
		calls[nc++] = n;
		for (i = 0; i < (unsigned int)n; i++, got++) {
			ck_assert_uint_eq(rx[i].len, len);
			ck_assert(same_bytes(rx[i].buf, len, id0 + got));
		}
	}
	ck_assert_uint_eq(got, k);
	return nc;
}

/* UDP_GRO of a link's socket: 0 (off, or no such option), 1 (on). */
static int udp_gro_of(struct uet_link *l)
{
	int v = 0;
	socklen_t vl = sizeof(v);

	if (getsockopt(l->ops->fd(l), IPPROTO_UDP, 104 /* UDP_GRO */, &v,
		       &vl) != 0)
		return 0;
	return v;
}

/*
 * The receive shape follows the traffic (uet_link_udp_rx_adapt): a link
 * starts with UDP_GRO off and reads one datagram per call after a call
 * that brought one; a call for one that brought it is followed by a wide
 * one; a burst turns UDP_GRO on, after which a GSO run arrives as one
 * coalesced buffer.  Every datagram arrives whole and in order throughout.
 */
START_TEST(test_rx_adapt)
{
	struct uet_link_udp_cfg cfg = { .host = "127.0.0.1", .port = 0 };
	struct uet_link_udp_stats st;
	struct uet_link *a = NULL, *b = NULL;
	int calls[40], one = 1;
	unsigned int nc;
	bool gro;

	ck_assert_int_eq(uet_link_udp_open(&cfg, &a), 0);
	ck_assert_int_eq(uet_link_udp_open(&cfg, &b), 0);
	gro = setsockopt(a->ops->fd(a), IPPROTO_UDP, 104 /* UDP_GRO */, &one,
			 sizeof(one)) == 0;
	if (!gro)	/* a kernel without UDP_GRO: the receive shape only */
		printf("rx_adapt: no UDP_GRO in this kernel\n");
	ck_assert_int_eq(udp_gro_of(b), 0);
	/* sparse: the first call is wide and brings one */
	nc = adapt_exchange(a, b, 1, 100, 1, calls, 40);
	ck_assert_uint_eq(nc, 1);
	ck_assert_int_eq(uet_link_udp_get_stats(b, &st), 0);
	ck_assert_uint_eq(st.rx_narrow, 0);
	/* five queued: a call for one, then a wide one for the other four */
	nc = adapt_exchange(a, b, 5, 100, 10, calls, 40);
	ck_assert_uint_eq(nc, 2);
	ck_assert_int_eq(calls[0], 1);
	ck_assert_int_eq(calls[1], 4);
	ck_assert_int_eq(uet_link_udp_get_stats(b, &st), 0);
	ck_assert_uint_eq(st.rx_narrow, 1);
	ck_assert_uint_eq(st.gro_on, 0);	/* four is no burst */
	ck_assert_int_eq(udp_gro_of(b), 0);
	/* a burst of 20 (one GSO run, cut by the kernel for a socket
	 * without UDP_GRO): the wide call brings it and turns GRO on */
	nc = adapt_exchange(a, b, 20, 1000, 100, calls, 40);
	ck_assert_uint_eq(nc, 1);
	ck_assert_int_eq(calls[0], 20);
	ck_assert_int_eq(uet_link_udp_get_stats(b, &st), 0);
	ck_assert_uint_eq(st.gro_on, gro ? 1 : 0);
	ck_assert_uint_eq(st.rx_gro, 0);
	ck_assert_int_eq(udp_gro_of(b), gro ? 1 : 0);
	/* the next run comes as one coalesced buffer, cut back into 20 */
	adapt_exchange(a, b, 20, 1000, 200, calls, 40);
	ck_assert_int_eq(uet_link_udp_get_stats(b, &st), 0);
	if (gro)
		ck_assert_uint_ge(st.rx_gro, 1);
	ck_assert_uint_eq(st.gro_on, gro ? 1 : 0);
	ck_assert_uint_eq(st.rx_pkts, 46);
	a->ops->close(a);
	b->ops->close(b);
}
END_TEST

/* Many small datagrams of UET_LINK_MAX_IOV pieces each in one call: GSO
 * runs whose iovecs fill the link's per-call array (an overflow of it
 * shows under the sanitizers) still deliver every datagram intact. */
START_TEST(test_gso_many_iov)
{
	enum { N = 300, LEN = 100 };
	struct uet_link_udp_cfg cfg = { .host = "127.0.0.1", .port = 0 };
	static struct uet_link_pkt pkts[N];
	static uint8_t bufs[N][LEN];
	struct uet_link *a = NULL, *b = NULL;
	struct uet_link_rx rx[64];
	struct uet_link_addr ab;
	unsigned int sent = 0, got = 0, k, tries;
	int n;

	ck_assert_int_eq(uet_link_udp_open(&cfg, &a), 0);
	ck_assert_int_eq(uet_link_udp_open(&cfg, &b), 0);
	ab = addr_of(b);
	for (k = 0; k < N; k++) {
		uet_test_fill(bufs[k], LEN, 5000 + k);
		make_pkt(&pkts[k], &ab, bufs[k], LEN, UET_LINK_MAX_IOV);
	}
	for (tries = 0; sent < N && tries < 100; tries++) {
		n = a->ops->send(a, pkts + sent, N - sent);
		ck_assert_int_ge(n, 0);
		sent += (unsigned int)n;
	}
	ck_assert_uint_eq(sent, N);
	for (tries = 0; got < N && tries < 200; tries++) {
		n = b->ops->recv(b, rx, 64);
		ck_assert_int_ge(n, 0);
		if (n == 0) {
			wait_readable(b->ops->fd(b), WAIT_MS);
			continue;
		}
		for (k = 0; k < (unsigned int)n; k++, got++) {
			ck_assert_uint_eq(rx[k].len, LEN);
			ck_assert(same_bytes(rx[k].buf, LEN, 5000 + got));
		}
	}
	ck_assert_uint_eq(got, N);
	a->ops->close(a);
	b->ops->close(b);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("link_udp");
	TCase *tc_addr = tcase_create("addr");
	TCase *tc = tcase_create("udp");

	tcase_add_test(tc_addr, test_addr_str);
	tcase_add_test(tc_addr, test_addr_eq);
	suite_add_tcase(s, tc_addr);

	tcase_add_test(tc, test_exchange_v4);
	tcase_add_test(tc, test_exchange_v6);
	tcase_add_test(tc, test_ecn_ce_v4);
	tcase_add_test(tc, test_ecn_ce_v6);
	tcase_add_test(tc, test_entropy_socks_v4);
	tcase_add_test(tc, test_entropy_socks_v6);
	tcase_add_test(tc, test_entropy_icmp_v4);
	tcase_add_test(tc, test_entropy_icmp_v6);
	tcase_add_test(tc, test_batch_v4);
	tcase_add_test(tc, test_batch_v6);
	tcase_add_test(tc, test_port_rules_v4);
	tcase_add_test(tc, test_port_rules_v6);
	tcase_add_test(tc, test_mtu);
	tcase_add_test(tc, test_path_mtu);
	tcase_add_test(tc, test_wildcard);
	tcase_add_test(tc, test_empty_and_poll);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_sockbuf);
	tcase_add_test(tc, test_loss_knob);
	tcase_add_test(tc, test_gso_runs);
	tcase_add_test(tc, test_gso_pair_split);
	tcase_add_test(tc, test_gso_many_iov);
	tcase_add_test(tc, test_rx_adapt);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(make_suite)
