/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Raw UDP ping-pong between two hosts (bench/xdp.sh runs it between two
 * network namespaces): the floor of a socket-based transport, to set
 * uet's AF_XDP and UDP links against.
 *
 *   uet_udp_pingpong server BIND_ADDR PORT SIZE ITERS
 *   uet_udp_pingpong client BIND_ADDR SERVER_ADDR PORT SIZE ITERS
 *
 * IPv4 or IPv6 literals.  Both sides busy-poll a non-blocking socket
 * (recv with MSG_DONTWAIT in a loop, as a polling application does; no
 * sleep), one send and one receive system call per datagram.  After 100
 * warm-up round trips the client times ITERS of them and prints
 *   "udp-pingpong SIZE <half round trip usec> usec"
 * (total time / ITERS / 2, as fi_pingpong's usec/xfer).  Every wait is
 * bounded: 5 s without an answer ends the run with exit 1.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define WARMUP		100
#define TIMEOUT_NS	5000000000ll

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000000ll + t.tv_nsec;
}

static int mkaddr(const char *host, int port, struct sockaddr_storage *ss,
		  socklen_t *len)
{
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, host, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons((unsigned short)port);
		*len = sizeof(*s4);
		return AF_INET;
	}
	if (inet_pton(AF_INET6, host, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((unsigned short)port);
		*len = sizeof(*s6);
		return AF_INET6;
	}
	return -1;
}

/* Busy-poll one datagram; 0, or -1 after TIMEOUT_NS. */
static int recv_one(int fd, char *buf, size_t size,
		    struct sockaddr_storage *from, socklen_t *flen)
{
	long long t0 = 0;
	unsigned int spins = 0;

	for (;;) {
		*flen = sizeof(*from);
		if (recvfrom(fd, buf, size, MSG_DONTWAIT,
			     (struct sockaddr *)from, flen) >= 0)
			return 0;
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			return -1;
		if ((++spins & 1023) == 0) {
			if (!t0)
				t0 = now_ns();
			else if (now_ns() - t0 > TIMEOUT_NS)
				return -1;
		}
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_storage me, peer, from;
	socklen_t mlen, plen, flen;
	int fd, fam, port, i, iters, client;
	size_t size;
	long long t0 = 0;
	char *buf;

	client = argc == 7 && !strcmp(argv[1], "client");
	if (!client && !(argc == 6 && !strcmp(argv[1], "server"))) {
		fprintf(stderr, "usage: %s server BIND PORT SIZE ITERS\n"
			"       %s client BIND SERVER PORT SIZE ITERS\n",
			argv[0], argv[0]);
		return 2;
	}
	port = atoi(argv[client ? 4 : 3]);
	size = (size_t)atol(argv[client ? 5 : 4]);
	iters = atoi(argv[client ? 6 : 5]);
	fam = mkaddr(argv[2], client ? 0 : port, &me, &mlen);
	if (fam < 0 || size == 0 || size > 65000 || iters <= 0 ||
	    (client && mkaddr(argv[3], port, &peer, &plen) != fam)) {
		fprintf(stderr, "%s: bad arguments\n", argv[0]);
		return 2;
	}
	buf = calloc(1, size);
	fd = socket(fam, SOCK_DGRAM, 0);
	if (!buf || fd < 0 || bind(fd, (struct sockaddr *)&me, mlen)) {
		perror("socket/bind");
		return 1;
	}
	for (i = 0; i < WARMUP + iters; i++) {
		if (client) {
			if (i == WARMUP)
				t0 = now_ns();
			if (sendto(fd, buf, size, 0, (struct sockaddr *)&peer,
				   plen) < 0 ||
			    recv_one(fd, buf, size, &from, &flen)) {
				fprintf(stderr, "client: round trip %d lost\n",
					i);
				return 1;
			}
		} else {
			if (recv_one(fd, buf, size, &from, &flen) ||
			    sendto(fd, buf, size, 0, (struct sockaddr *)&from,
				   flen) < 0) {
				fprintf(stderr, "server: round trip %d lost\n",
					i);
				return 1;
			}
		}
	}
	if (client)
		printf("udp-pingpong %zu %.2f usec\n", size,
		       (double)(now_ns() - t0) / 1000.0 / iters / 2.0);
	close(fd);
	free(buf);
	return 0;
}
