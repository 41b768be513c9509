/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The physical limit for bench/run.sh: raw UDP over loopback, no UET.
 *
 *   uet_udp_limit pingpong SIZE ITERS   half round trip, busy-polled
 *   uet_udp_limit pingpong-uet SIZE ITERS
 *                                       the same with the software NIC's
 *                                       system calls: unconnected
 *                                       sockets, sendmmsg to an address,
 *                                       recvmmsg of one datagram (as the
 *                                       link reads while the traffic is
 *                                       sparse) into a buffer of 64 KiB
 *                                       with the source address and
 *                                       IP_RECVTOS, UDP_GRO probed and
 *                                       left off (SIZE is the datagram:
 *                                       120 for a 64 B message)
 *   uet_udp_limit stream SIZE BYTES     one-way throughput, SIZE-byte
 *                                       datagrams
 *   uet_udp_limit gso SEG BYTES         one-way throughput, SEG-byte
 *                                       segments sent with UDP GSO in
 *                                       batches below 64 KB, received
 *                                       with GRO (both streams read with
 *                                       recvmmsg() of up to 32 buffers
 *                                       a call)
 *
 * Both ends run in this process's two children (fork) on 127.0.0.1 (or
 * ::1 with -6).  Prints one line: "<mode> <size> <value> <unit>".
 * Every blocking call has a bound (SO_RCVTIMEO); the stream receiver
 * stops on the sender's end marker or after 2 s of silence.
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

#define BIG (64 * 1024)
#define GSO_MAX 65000

static bool v6;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void die(const char *what)
{
	perror(what);
	exit(2);
}

/* A UDP socket bound to an ephemeral loopback port; *ss gets the port. */
static int open_sock(struct sockaddr_storage *ss, socklen_t *len)
{
	struct timeval tv = { .tv_sec = 2 };
	int buf = 8 << 20;
	int fd;

	memset(ss, 0, sizeof(*ss));
	if (v6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		a->sin6_family = AF_INET6;
		a->sin6_addr = in6addr_loopback;
		*len = sizeof(*a);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)ss;

		a->sin_family = AF_INET;
		a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		*len = sizeof(*a);
	}
	fd = socket(ss->ss_family, SOCK_DGRAM, 0);
	if (fd < 0)
		die("socket");
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (bind(fd, (struct sockaddr *)ss, *len) < 0)
		die("bind");
	if (getsockname(fd, (struct sockaddr *)ss, len) < 0)
		die("getsockname");
	return fd;
}

/* Busy-poll one datagram (bounded by 2 s). */
static ssize_t recv_spin(int fd, void *buf, size_t len)
{
	uint64_t end = now_ns() + 2000000000ull;
	ssize_t n;

	for (;;) {
		n = recv(fd, buf, len, MSG_DONTWAIT);
		if (n >= 0 || (errno != EAGAIN && errno != EINTR))
			return n;
		if (now_ns() > end)
			return -1;
	}
}

static int pingpong(size_t size, unsigned long iters)
{
	struct sockaddr_storage a, b;
	socklen_t alen, blen;
	char *buf = calloc(1, size ? size : 1);
	int fa, fb, status;
	unsigned long i;
	uint64_t t0, t1;
	pid_t pid;

	fa = open_sock(&a, &alen);
	fb = open_sock(&b, &blen);
	if (connect(fa, (struct sockaddr *)&b, blen) < 0 ||
	    connect(fb, (struct sockaddr *)&a, alen) < 0)
		die("connect");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {		/* echo side */
		for (i = 0; i < iters + 10; i++) {
			if (recv_spin(fb, buf, size) < 0)
				_exit(1);
			if (send(fb, buf, size, 0) < 0)
				_exit(1);
		}
		_exit(0);
	}
	for (i = 0; i < 10; i++) {	/* warm-up */
		if (send(fa, buf, size, 0) < 0 || recv_spin(fa, buf, size) < 0)
			die("warm-up");
	}
	t0 = now_ns();
	for (i = 0; i < iters; i++) {
		if (send(fa, buf, size, 0) < 0 || recv_spin(fa, buf, size) < 0)
			die("pingpong");
	}
	t1 = now_ns();
	waitpid(pid, &status, 0);
	printf("pingpong %zu %.3f usec\n", size,
	       (double)(t1 - t0) / 1000.0 / (double)iters / 2.0);
	free(buf);
	return 0;
}

/* The software NIC's receive shape (snic/uet_link_udp.c) while the
 * traffic is sparse: one datagram a call. */
#define SHAPE_SLOTS 1
#define SHAPE_BUF (64 * 1024)

struct shape_rx {
	struct mmsghdr msgs[SHAPE_SLOTS];
	struct iovec iov[SHAPE_SLOTS];
	struct sockaddr_storage from[SHAPE_SLOTS];
	char ctl[SHAPE_SLOTS][2 * CMSG_SPACE(sizeof(int))];
	char *bufs;
};

/* The link's socket options: UDP_GRO probed (on, then off until a
 * burst arrives, which a ping-pong never brings) and IP_RECVTOS. */
static void shape_sock(int fd)
{
	int on = 1, off = 0;

	if (setsockopt(fd, SOL_UDP, UDP_GRO, &on, sizeof(on)) ||
	    setsockopt(fd, SOL_UDP, UDP_GRO, &off, sizeof(off)) ||
	    setsockopt(fd, v6 ? IPPROTO_IPV6 : IPPROTO_IP,
		       v6 ? IPV6_RECVTCLASS : IP_RECVTOS, &on, sizeof(on)))
		die("UDP_GRO/IP_RECVTOS");
}

static void shape_rx_init(struct shape_rx *r)
{
	struct msghdr *mh;

	r->bufs = malloc((size_t)SHAPE_SLOTS * SHAPE_BUF);
	if (!r->bufs)
		die("malloc");
	for (int i = 0; i < SHAPE_SLOTS; i++) {
		r->iov[i].iov_base = r->bufs + (size_t)i * SHAPE_BUF;
		r->iov[i].iov_len = SHAPE_BUF;
		mh = &r->msgs[i].msg_hdr;
		memset(mh, 0, sizeof(*mh));
		mh->msg_iov = &r->iov[i];
		mh->msg_iovlen = 1;
	}
}

/* Busy-poll one batch (bounded by 2 s), re-arming the lengths the
 * kernel overwrote as the software NIC does. */
static int shape_recv_spin(int fd, struct shape_rx *r)
{
	uint64_t end = now_ns() + 2000000000ull;
	int n;

	for (;;) {
		for (int i = 0; i < SHAPE_SLOTS; i++) {
			r->msgs[i].msg_hdr.msg_name = &r->from[i];
			r->msgs[i].msg_hdr.msg_namelen = sizeof(r->from[i]);
			r->msgs[i].msg_hdr.msg_control = r->ctl[i];
			r->msgs[i].msg_hdr.msg_controllen = sizeof(r->ctl[i]);
		}
		n = recvmmsg(fd, r->msgs, SHAPE_SLOTS, MSG_DONTWAIT, NULL);
		if (n > 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			return n;
		if (now_ns() > end)
			return -1;
	}
}

static int shape_send(int fd, void *buf, size_t size,
		      struct sockaddr_storage *to, socklen_t tolen)
{
	struct iovec iov = { .iov_base = buf, .iov_len = size };
	struct mmsghdr m;

	memset(&m, 0, sizeof(m));
	m.msg_hdr.msg_name = to;
	m.msg_hdr.msg_namelen = tolen;
	m.msg_hdr.msg_iov = &iov;
	m.msg_hdr.msg_iovlen = 1;
	return sendmmsg(fd, &m, 1, MSG_DONTWAIT) == 1 ? 0 : -1;
}

static int pingpong_shaped(size_t size, unsigned long iters)
{
	struct sockaddr_storage a, b;
	struct shape_rx *rx = calloc(1, sizeof(*rx));
	char *buf = calloc(1, size ? size : 1);
	socklen_t alen, blen;
	int fa, fb, status;
	unsigned long i;
	uint64_t t0 = 0, t1;
	pid_t pid;

	if (!rx || !buf || size > BIG - 64)
		return 2;
	fa = open_sock(&a, &alen);
	fb = open_sock(&b, &blen);
	shape_sock(fa);
	shape_sock(fb);
	shape_rx_init(rx);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {		/* echo side */
		for (i = 0; i < iters + 10; i++) {
			if (shape_recv_spin(fb, rx) < 0 ||
			    shape_send(fb, buf, size, &a, alen) < 0)
				_exit(1);
		}
		_exit(0);
	}
	for (i = 0; i < iters + 10; i++) {
		if (i == 10)	/* after the warm-up */
			t0 = now_ns();
		if (shape_send(fa, buf, size, &b, blen) < 0 ||
		    shape_recv_spin(fa, rx) < 0)
			die("pingpong-uet");
	}
	t1 = now_ns();
	waitpid(pid, &status, 0);
	printf("pingpong-uet %zu %.3f usec\n", size,
	       (double)(t1 - t0) / 1000.0 / (double)iters / 2.0);
	free(rx->bufs);
	free(rx);
	free(buf);
	return 0;
}

/* Receive buffers of the stream: RX_BATCH of BIG bytes, one recvmmsg(). */
#define RX_BATCH 32

struct stream_rx {
	struct mmsghdr msgs[RX_BATCH];
	struct iovec iov[RX_BATCH];
	char *bufs;
};

static struct stream_rx *stream_rx_new(void)
{
	struct stream_rx *rx = calloc(1, sizeof(*rx));

	if (!rx)
		return NULL;
	rx->bufs = calloc(RX_BATCH, BIG);
	if (!rx->bufs) {
		free(rx);
		return NULL;
	}
	for (int k = 0; k < RX_BATCH; k++) {
		rx->iov[k].iov_base = rx->bufs + (size_t)k * BIG;
		rx->iov[k].iov_len = BIG;
		rx->msgs[k].msg_hdr.msg_iov = &rx->iov[k];
		rx->msgs[k].msg_hdr.msg_iovlen = 1;
	}
	return rx;
}

static int stream(size_t size, uint64_t bytes, bool gso)
{
	struct sockaddr_storage a, b;
	socklen_t alen, blen;
	/* A GSO buffer is one UDP datagram to the kernel: at most 65,507
	 * bytes of payload over IPv4, so whole segments below that. */
	size_t chunk = gso ? (GSO_MAX / size) * size : size;
	char *buf = calloc(1, BIG);
	uint64_t got = 0, t0 = 0, t1 = 0, sent = 0;
	int fa, fb, on = 1, status, seg = (int)size;
	int pfd[2];
	pid_t pid;

	struct stream_rx *rx = stream_rx_new();

	if (!buf || !rx || !chunk || size > BIG - 64)
		return 2;
	fa = open_sock(&a, &alen);
	fb = open_sock(&b, &blen);
	if (connect(fa, (struct sockaddr *)&b, blen) < 0)
		die("connect");
	if (gso && (setsockopt(fa, SOL_UDP, UDP_SEGMENT, &seg, sizeof(seg)) ||
		    setsockopt(fb, SOL_UDP, UDP_GRO, &on, sizeof(on))))
		die("UDP_SEGMENT/UDP_GRO");
	if (pipe(pfd))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {		/* sender */
		struct timespec pause = { .tv_nsec = 20000 };
		char c = 0;

		close(pfd[1]);
		if (read(pfd[0], &c, 1) != 1)	/* receiver ready */
			_exit(1);
		while (sent < bytes) {
			if (send(fa, buf, chunk, 0) < 0) {
				if (errno == ENOBUFS || errno == EAGAIN) {
					nanosleep(&pause, NULL);
					continue;
				}
				_exit(1);
			}
			sent += chunk;
		}
		buf[0] = 1;		/* end marker: one 1-byte datagram */
		for (int k = 0; k < 50; k++) {
			send(fa, buf, 1, 0);
			nanosleep(&pause, NULL);
		}
		_exit(0);
	}
	close(pfd[0]);
	if (write(pfd[1], "g", 1) != 1)
		die("write");
	/* The receiver reads the best way raw sockets can: recvmmsg() of up
	 * to RX_BATCH buffers a call (MSG_WAITFORONE: the first blocks, 2 s
	 * at most, the rest are taken if already queued). */
	for (bool end = false; !end;) {
		int n = recvmmsg(fb, rx->msgs, RX_BATCH, MSG_WAITFORONE, NULL);

		if (n <= 0)
			break;		/* 2 s of silence */
		if (!t0)
			t0 = now_ns();
		for (int k = 0; k < n; k++) {
			if (rx->msgs[k].msg_len == 1 &&
			    rx->bufs[(size_t)k * BIG] == 1) {
				end = true;
				break;
			}
			got += rx->msgs[k].msg_len;
		}
		t1 = now_ns();
	}
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	printf("%s %zu %.3f GB/s (%.1f%% received)\n", gso ? "gso" : "stream",
	       size, t1 > t0 ? (double)got / (double)(t1 - t0) : 0.0,
	       100.0 * (double)got / (double)bytes);
	free(rx->bufs);
	free(rx);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int i = 1;

	if (argc > 1 && !strcmp(argv[1], "-6")) {
		v6 = true;
		i++;
	}
	if (argc - i != 3) {
		fprintf(stderr, "usage: %s [-6] "
			"pingpong|pingpong-uet|stream|gso SIZE N\n", argv[0]);
		return 2;
	}
	if (!strcmp(argv[i], "pingpong"))
		return pingpong(strtoul(argv[i + 1], NULL, 0),
				strtoul(argv[i + 2], NULL, 0));
	if (!strcmp(argv[i], "pingpong-uet"))
		return pingpong_shaped(strtoul(argv[i + 1], NULL, 0),
				       strtoul(argv[i + 2], NULL, 0));
	if (!strcmp(argv[i], "stream"))
		return stream(strtoul(argv[i + 1], NULL, 0),
			      strtoull(argv[i + 2], NULL, 0), false);
	if (!strcmp(argv[i], "gso"))
		return stream(strtoul(argv[i + 1], NULL, 0),
			      strtoull(argv[i + 2], NULL, 0), true);
	fprintf(stderr, "unknown mode %s\n", argv[i]);
	return 2;
}
