/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where a half round trip goes, in time (bench/split.sh): an LD_PRELOAD
 * shim that times the datagram system calls of the process it is loaded
 * into and prints, at exit (counts per turn below, i.e. per round trip of
 * a ping-pong's client):
 *
 *   recv-data   receive calls that returned data: their count, mean
 *               duration and datagrams (msghdrs) per call;
 *   recv-empty  receive calls that returned nothing (busy polling), per
 *               round trip, and their mean duration;
 *   send        send calls per round trip, their mean duration and
 *               datagrams (msghdrs) per call;
 *   gso         those sendmmsg calls whose first datagram carries control
 *               (UDP_SEGMENT: a GSO run), per round trip, mean duration;
 *   turn        from the return of a receive that brought data to the
 *               entry of the next send: the user space on the critical
 *               path (the library's receive work, the application's
 *               loop, the library's send work), median and mean.
 *
 * Only datagram sockets count (SO_TYPE, cached per descriptor until it
 * is closed: a netlink socket's number is reused by the UDP socket), so
 * the out-of-band TCP exchange fi_pingpong makes at start and end is
 * left out.  Wrapped: recv, recvfrom, recvmsg, recvmmsg, send, sendto,
 * sendmsg, sendmmsg, and close for the cache.  Single-threaded use
 * (fi_pingpong, uet_udp_limit's client): no locking.  The clock is CLOCK_MONOTONIC through the vDSO,
 * about 2 x 25 ns per call, the same for every case compared.
 *
 *   UET_CLOCK_OUT=FILE  append the line there instead of stderr
 *
 * Not part of the product: bench/split.sh builds it with cc -shared.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define CLK_FDS		1024
#define CLK_BUCKET_NS	10u
#define CLK_BUCKETS	20000u	/* 200 usec */

struct clk_sum {
	uint64_t n;
	uint64_t ns;
};

static signed char clk_dgram[CLK_FDS];	/* 0 unknown, 1 dgram, -1 other */
static struct clk_sum clk_rdata, clk_rempty, clk_send, clk_turn;
static uint64_t clk_rdgrams, clk_sdgrams;	/* datagrams moved */
static struct clk_sum clk_send_ctl;	/* sends with control (UDP GSO) */
static uint32_t clk_turn_hist[CLK_BUCKETS + 1];
static uint64_t clk_data_at;		/* return of the last data receive */
static int clk_armed;			/* a data receive since the last send */

static uint64_t clk_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int clk_is_dgram(int fd)
{
	int type = 0;
	socklen_t len = sizeof(type);

	if (fd < 0 || fd >= CLK_FDS)
		return 0;
	if (!clk_dgram[fd]) {
		if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) == 0 &&
		    type == SOCK_DGRAM)
			clk_dgram[fd] = 1;
		else
			clk_dgram[fd] = -1;
	}
	return clk_dgram[fd] > 0;
}

static void clk_add(struct clk_sum *s, uint64_t ns)
{
	s->n++;
	s->ns += ns;
}

static void clk_recv_done(uint64_t t0, long got, int mmsg)
{
	uint64_t t1 = clk_now();

	if (got > 0) {
		clk_rdgrams += mmsg ? (uint64_t)got : 1;
		clk_add(&clk_rdata, t1 - t0);
		clk_data_at = t1;
		clk_armed = 1;
	} else {
		clk_add(&clk_rempty, t1 - t0);
	}
}

static void clk_send_begin(uint64_t t0)
{
	uint64_t d;

	if (!clk_armed)
		return;
	clk_armed = 0;
	d = t0 - clk_data_at;
	clk_add(&clk_turn, d);
	d /= CLK_BUCKET_NS;
	clk_turn_hist[d < CLK_BUCKETS ? d : CLK_BUCKETS]++;
}

static void clk_send_done(uint64_t t0, long sent, int mmsg, int gso)
{
	uint64_t d = clk_now() - t0;

	clk_add(&clk_send, d);
	if (gso)
		clk_add(&clk_send_ctl, d);
	if (sent > 0)
		clk_sdgrams += mmsg ? (uint64_t)sent : 1;
}

#define CLK_NEXT(name) \
	static __typeof__(name) *next_##name; \
	if (!next_##name) \
		next_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

/* Every wrapper: time the call; a receive is classified by what it
 * returned, a send counted with its datagrams (gso: its first datagram
 * carries control, a UDP GSO run). */
#define CLK_CALL(fd, call, mmsg, sending, gso) do { \
	uint64_t t0_; \
	long r_; \
	int e_; \
	if (!clk_is_dgram(fd)) \
		return call; \
	t0_ = clk_now(); \
	if (sending) \
		clk_send_begin(t0_); \
	r_ = (long)(call); \
	e_ = errno; \
	if (sending) \
		clk_send_done(t0_, r_, mmsg, gso); \
	else \
		clk_recv_done(t0_, r_, mmsg); \
	errno = e_; \
	return r_; \
} while (0)

ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	CLK_NEXT(recv);
	CLK_CALL(fd, next_recv(fd, buf, len, flags), 0, 0, 0);
}

ssize_t recvfrom(int fd, void *buf, size_t len, int flags,
		 struct sockaddr *sa, socklen_t *salen)
{
	CLK_NEXT(recvfrom);
	CLK_CALL(fd, next_recvfrom(fd, buf, len, flags, sa, salen), 0, 0, 0);
}

ssize_t recvmsg(int fd, struct msghdr *mh, int flags)
{
	CLK_NEXT(recvmsg);
	if (flags & MSG_ERRQUEUE)	/* ICMP reports, not data */
		return next_recvmsg(fd, mh, flags);
	CLK_CALL(fd, next_recvmsg(fd, mh, flags), 0, 0, 0);
}

int recvmmsg(int fd, struct mmsghdr *v, unsigned int n, int flags,
	     struct timespec *tmo)
{
	CLK_NEXT(recvmmsg);
	CLK_CALL(fd, next_recvmmsg(fd, v, n, flags, tmo), 1, 0, 0);
}

ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	CLK_NEXT(send);
	CLK_CALL(fd, next_send(fd, buf, len, flags), 0, 1, 0);
}

ssize_t sendto(int fd, const void *buf, size_t len, int flags,
	       const struct sockaddr *sa, socklen_t salen)
{
	CLK_NEXT(sendto);
	CLK_CALL(fd, next_sendto(fd, buf, len, flags, sa, salen), 0, 1, 0);
}

ssize_t sendmsg(int fd, const struct msghdr *mh, int flags)
{
	CLK_NEXT(sendmsg);
	CLK_CALL(fd, next_sendmsg(fd, mh, flags), 0, 1, 0);
}

int sendmmsg(int fd, struct mmsghdr *v, unsigned int n, int flags)
{
	CLK_NEXT(sendmmsg);
	CLK_CALL(fd, next_sendmmsg(fd, v, n, flags), 1, 1,
		 n && v[0].msg_hdr.msg_controllen);
}

int close(int fd)
{
	CLK_NEXT(close);
	if (fd >= 0 && fd < CLK_FDS)
		clk_dgram[fd] = 0;
	return next_close(fd);
}

static double clk_mean_us(const struct clk_sum *s)
{
	return s->n ? (double)s->ns / (double)s->n / 1000.0 : 0.0;
}

static double clk_turn_median_us(void)
{
	uint64_t half = (clk_turn.n + 1) / 2, seen = 0;
	unsigned int i;

	for (i = 0; i <= CLK_BUCKETS; i++) {
		seen += clk_turn_hist[i];
		if (seen >= half)
			return (i + 0.5) * CLK_BUCKET_NS / 1000.0;
	}
	return 0.0;
}

__attribute__((destructor)) static void clk_report(void)
{
	const char *path = getenv("UET_CLOCK_OUT");
	FILE *f = stderr;
	double per;

	if (!clk_send.n)
		return;
	if (path && !(f = fopen(path, "a")))
		f = stderr;
	/* per turn: a client's round trip */
	per = clk_turn.n ? (double)clk_turn.n : 1.0;
	fprintf(f, "recv-data %.2f %.3f %.2f recv-empty %.2f %.3f "
		"send %.2f %.3f %.2f gso %.2f %.3f turn %llu %.3f %.3f\n",
		(double)clk_rdata.n / per, clk_mean_us(&clk_rdata),
		clk_rdata.n ? (double)clk_rdgrams / (double)clk_rdata.n : 0.0,
		(double)clk_rempty.n / per, clk_mean_us(&clk_rempty),
		(double)clk_send.n / per, clk_mean_us(&clk_send),
		clk_send.n ? (double)clk_sdgrams / (double)clk_send.n : 0.0,
		(double)clk_send_ctl.n / per, clk_mean_us(&clk_send_ctl),
		(unsigned long long)clk_turn.n, clk_turn_median_us(),
		clk_mean_us(&clk_turn));
	if (f != stderr)
		fclose(f);
}
