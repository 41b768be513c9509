/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * How a message of two datagrams is best sent and received over raw UDP
 * on loopback (docs/performance.md, "Medium sizes"): a busy-polled
 * ping-pong whose every message is a datagram of A bytes followed by one
 * of B bytes (B <= A; a 16 KiB uet message is 16,439 + 57 bytes of UDP
 * payload), sent and received the ways the software NIC's UDP link can:
 *
 *   uet_udp_pair SEND RECV A B ITERS
 *     SEND  gso    one msghdr with UDP_SEGMENT (gso_size A)
 *           two    two msghdrs in one sendmmsg()
 *     RECV  adapt  the link's sparse shape: a recvmmsg() for one, then,
 *                  after one that brought a datagram, one for 64
 *           two    recvmmsg() for two until both arrived
 *           gro    UDP_GRO on, recvmmsg() for one 64 KiB buffer
 *
 * Prints "pair SEND RECV A B <usec> usec" (half round trip, the median
 * of 5 blocks of ITERS/5).  Both ends are this process's children on
 * 127.0.0.1; every receive is bounded (2 s without progress ends the
 * run with an error).  Not part of make check.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif
#ifndef UDP_GRO
#define UDP_GRO 104
#endif

#define BUF (64 * 1024)
#define SLOTS 64
#define BLOCKS 5
#define STALL_NS 2000000000ull

enum { SEND_GSO, SEND_TWO };
enum { RECV_ADAPT, RECV_TWO, RECV_GRO };

struct side {
	int fd;
	struct sockaddr_in peer;
	int send_mode, recv_mode;
	size_t a, b;
	bool narrow;
	uint8_t *tx;
	uint8_t *rx;
	struct mmsghdr msgs[SLOTS];
	struct iovec iov[SLOTS];
	char ctl[SLOTS][CMSG_SPACE(sizeof(int))];
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int open_sock(uint16_t port, bool gro)
{
	struct sockaddr_in sa;
	int fd, one = 1;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons(port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    (gro && setsockopt(fd, SOL_UDP, UDP_GRO, &one, sizeof(one)) < 0)) {
		close(fd);
		return -1;
	}
	return fd;
}

static int send_msg(struct side *s)
{
	struct mmsghdr m[2];
	struct iovec iov[2];
	union {
		char buf[CMSG_SPACE(sizeof(uint16_t))];
		struct cmsghdr align;
	} ctl;
	struct cmsghdr *cm;
	int want;

	memset(m, 0, sizeof(m));
	iov[0].iov_base = s->tx;
	iov[0].iov_len = s->a;
	iov[1].iov_base = s->tx + s->a;
	iov[1].iov_len = s->b;
	m[0].msg_hdr.msg_name = &s->peer;
	m[0].msg_hdr.msg_namelen = sizeof(s->peer);
	m[0].msg_hdr.msg_iov = iov;
	if (s->send_mode == SEND_GSO) {
		m[0].msg_hdr.msg_iovlen = 2;
		m[0].msg_hdr.msg_control = ctl.buf;
		m[0].msg_hdr.msg_controllen = sizeof(ctl.buf);
		cm = CMSG_FIRSTHDR(&m[0].msg_hdr);
		cm->cmsg_level = SOL_UDP;
		cm->cmsg_type = UDP_SEGMENT;
		cm->cmsg_len = CMSG_LEN(sizeof(uint16_t));
		*(uint16_t *)(void *)CMSG_DATA(cm) = (uint16_t)s->a;
		want = 1;
	} else {
		m[0].msg_hdr.msg_iovlen = 1;
		m[1].msg_hdr = m[0].msg_hdr;
		m[1].msg_hdr.msg_iov = &iov[1];
		want = 2;
	}
	return sendmmsg(s->fd, m, (unsigned int)want, MSG_DONTWAIT) == want ?
	       0 : -1;
}

/* Bytes of UDP payload received by one recvmmsg() (0: none). */
static long recv_some(struct side *s, unsigned int vlen)
{
	unsigned int i;
	long got = 0;
	int n;

	for (i = 0; i < vlen; i++) {
		s->msgs[i].msg_hdr.msg_controllen = sizeof(s->ctl[i]);
		s->msgs[i].msg_hdr.msg_flags = 0;
	}
	n = recvmmsg(s->fd, s->msgs, vlen, MSG_DONTWAIT, NULL);
	if (n <= 0)
		return n < 0 && errno != EAGAIN && errno != EWOULDBLOCK &&
		       errno != EINTR ? -1 : 0;
	for (i = 0; i < (unsigned int)n; i++)
		got += (long)s->msgs[i].msg_len;
	return got;
}

static int recv_msg(struct side *s)
{
	long want = (long)(s->a + s->b), got = 0, r;
	uint64_t t0 = 0;
	unsigned int vlen;
	unsigned long polls = 0;

	while (got < want) {
		if (s->recv_mode == RECV_TWO)
			vlen = 2;
		else if (s->recv_mode == RECV_GRO)
			vlen = 1;
		else
			vlen = s->narrow ? 1 : SLOTS;
		r = recv_some(s, vlen);
		if (r < 0)
			return -1;
		if (s->recv_mode == RECV_ADAPT)
			s->narrow = vlen == 1 ? r == 0 :
				    r <= (long)s->a ? true : s->narrow;
		if (r) {
			got += r;
			continue;
		}
		if ((++polls & 1023) == 0) {
			if (!t0)
				t0 = now_ns();
			else if (now_ns() - t0 > STALL_NS)
				return -1;
		}
	}
	return 0;
}

static void setup(struct side *s)
{
	unsigned int i;

	for (i = 0; i < SLOTS; i++) {
		s->iov[i].iov_base = s->rx + (size_t)i * BUF;
		s->iov[i].iov_len = BUF;
		memset(&s->msgs[i], 0, sizeof(s->msgs[i]));
		s->msgs[i].msg_hdr.msg_iov = &s->iov[i];
		s->msgs[i].msg_hdr.msg_iovlen = 1;
		s->msgs[i].msg_hdr.msg_control = s->ctl[i];
	}
	s->narrow = true;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int run(struct side *s, bool client, long iters)
{
	uint64_t blk[BLOCKS], t;
	long i, per = iters / BLOCKS;
	int b;

	for (b = 0; b < BLOCKS; b++) {
		t = now_ns();
		for (i = 0; i < per; i++) {
			if (client && (send_msg(s) || recv_msg(s)))
				return -1;
			if (!client && (recv_msg(s) || send_msg(s)))
				return -1;
		}
		blk[b] = now_ns() - t;
	}
	if (client) {
		qsort(blk, BLOCKS, sizeof(blk[0]), cmp_u64);
		printf("pair %s %s %zu %zu %.3f usec\n",
		       s->send_mode == SEND_GSO ? "gso" : "two",
		       s->recv_mode == RECV_ADAPT ? "adapt" :
		       s->recv_mode == RECV_TWO ? "two" : "gro", s->a, s->b,
		       (double)blk[BLOCKS / 2] / (double)per / 2000.0);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct side *s;
	uint16_t base;
	pid_t srv;
	int st, rc;
	long iters;
	bool gro;

	if (argc != 6) {
		fprintf(stderr, "usage: %s gso|two adapt|two|gro A B ITERS\n",
			argv[0]);
		return 2;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return 1;
	s->send_mode = strcmp(argv[1], "gso") ? SEND_TWO : SEND_GSO;
	s->recv_mode = !strcmp(argv[2], "gro") ? RECV_GRO :
		       !strcmp(argv[2], "two") ? RECV_TWO : RECV_ADAPT;
	s->a = strtoul(argv[3], NULL, 0);
	s->b = strtoul(argv[4], NULL, 0);
	iters = strtol(argv[5], NULL, 0);
	if (!s->a || s->b > s->a || s->a + s->b > 65000 || iters < BLOCKS)
		return 2;
	s->tx = calloc(1, BUF);
	s->rx = calloc(SLOTS, BUF);
	if (!s->tx || !s->rx)
		return 1;
	setup(s);
	gro = s->recv_mode == RECV_GRO;
	base = (uint16_t)(30000 + getpid() % 20000);
	memset(&s->peer, 0, sizeof(s->peer));
	s->peer.sin_family = AF_INET;
	s->peer.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

	srv = fork();
	if (srv < 0)
		return 1;
	if (srv == 0) {
		s->fd = open_sock(base, gro);
		s->peer.sin_port = htons((uint16_t)(base + 1));
		alarm(60);
		_exit(s->fd < 0 || run(s, false, iters) ? 1 : 0);
	}
	s->fd = open_sock((uint16_t)(base + 1), gro);
	s->peer.sin_port = htons(base);
	alarm(60);
	usleep(100000);
	rc = s->fd < 0 || run(s, true, iters) ? 1 : 0;
	if (rc)
		kill(srv, SIGKILL);
	waitpid(srv, &st, 0);
	return rc || !WIFEXITED(st) || WEXITSTATUS(st) ? 1 : 0;
}
