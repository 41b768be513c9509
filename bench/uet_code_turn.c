/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the code between a receive and the next send costs in a raw UDP
 * ping-pong, by the size of that code (docs/performance.md, "Seventh
 * pass").  Each side of a busy-polled 64-byte ping-pong over loopback
 * runs one block of straight-line code (no loop: every instruction is
 * fetched once per round trip, as in a message path) in its turn:
 *
 *   uet_code_turn KIB ITERS      KIB: 0, 8, 16, 32, 48 or 64
 *
 * Prints one line: the block's nominal size, the time one run of the
 * block takes alone (called back to back, so its code stays in the
 * instruction cache), and the half round trip with and without it.  The
 * difference between (with - without) and alone is what the block costs
 * beyond its instructions: the cache lines it and the kernel's system
 * call path take from each other.  Not part of make check.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_tsc.h"

#define SIZE 64

static uint64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/*
 * Straight-line code: eight independent registers, each XORed with a
 * distinct 32-bit constant per step (about 7 bytes of x86-64 each); the
 * empty asm keeps every step (no folding, no reordering into a loop).
 * One STEP8 is about 56 bytes, so 2^n of them are about 2^n * 56 bytes.
 */
#define KEEP(v)		__asm__ volatile("" : "+r"(v))
#define STEP(v, k)	do { v ^= (uint32_t)((k) * 2654435761u + 1u); KEEP(v); } while (0)
#define STEP8(k)	do { STEP(a, 8u * (k)); STEP(b, 8u * (k) + 1u);	\
			     STEP(c, 8u * (k) + 2u); STEP(d, 8u * (k) + 3u); \
			     STEP(e, 8u * (k) + 4u); STEP(f, 8u * (k) + 5u); \
			     STEP(g, 8u * (k) + 6u); STEP(h, 8u * (k) + 7u); \
			} while (0)
#define S2(k)	STEP8(2u * (k)); STEP8(2u * (k) + 1u)
#define S4(k)	S2(2u * (k)); S2(2u * (k) + 1u)
#define S8(k)	S4(2u * (k)); S4(2u * (k) + 1u)
#define S16(k)	S8(2u * (k)); S8(2u * (k) + 1u)
#define S32(k)	S16(2u * (k)); S16(2u * (k) + 1u)
#define S64(k)	S32(2u * (k)); S32(2u * (k) + 1u)
#define S128(k)	S64(2u * (k)); S64(2u * (k) + 1u)
#define S256(k)	S128(2u * (k)); S128(2u * (k) + 1u)

#define BLOCK(name, body)						\
	static __attribute__((noinline)) void name(uint64_t *r)	\
	{								\
		uint64_t a = r[0], b = r[1], c = r[2], d = r[3];	\
		uint64_t e = r[4], f = r[5], g = r[6], h = r[7];	\
		body;							\
		r[0] = a; r[1] = b; r[2] = c; r[3] = d;			\
		r[4] = e; r[5] = f; r[6] = g; r[7] = h;			\
	}

BLOCK(code_8k, S128(0))				/* 128 x 56 B */
BLOCK(code_16k, S256(1))
BLOCK(code_32k, S256(2); S256(3))
BLOCK(code_48k, S256(4); S256(5); S256(6))
BLOCK(code_64k, S256(7); S256(8); S256(9); S256(10))

static void code_none(uint64_t *r)
{
	(void)r;
}

static uint64_t regs[8];

static int open_sock(struct sockaddr_in *a)
{
	socklen_t len = sizeof(*a);
	struct timeval tv = { 2, 0 };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		die("socket");
	memset(a, 0, sizeof(*a));
	a->sin_family = AF_INET;
	a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)a, sizeof(*a)) < 0 ||
	    getsockname(fd, (struct sockaddr *)a, &len) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
		die("bind");
	return fd;
}

/* Busy-poll one datagram, bounded by 2 s. */
static int recv_spin(int fd, char *buf)
{
	uint64_t end = now_ns() + 2000000000ull;

	for (;;) {
		if (recv(fd, buf, SIZE, MSG_DONTWAIT) >= 0)
			return 0;
		if ((errno != EAGAIN && errno != EINTR) || now_ns() > end)
			return -1;
	}
}

/* Half round trip in usec with turn() run by both sides each turn. */
static double pingpong(void (*turn)(uint64_t *), unsigned long iters)
{
	struct sockaddr_in a, b;
	char buf[SIZE] = { 0 };
	int fa = open_sock(&a), fb = open_sock(&b), status;
	unsigned long i;
	uint64_t t0, t1;
	pid_t pid;

	if (connect(fa, (struct sockaddr *)&b, sizeof(b)) < 0 ||
	    connect(fb, (struct sockaddr *)&a, sizeof(a)) < 0)
		die("connect");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		for (i = 0; i < iters + 100; i++) {
			if (recv_spin(fb, buf))
				_exit(1);
			turn(regs);
			if (send(fb, buf, SIZE, 0) < 0)
				_exit(1);
		}
		_exit(0);
	}
	t0 = 0;
	for (i = 0; i < iters + 100; i++) {
		if (i == 100)
			t0 = now_ns();
		turn(regs);
		if (send(fa, buf, SIZE, 0) < 0 || recv_spin(fa, buf))
			die("pingpong");
	}
	t1 = now_ns();
	waitpid(pid, &status, 0);
	close(fa);
	close(fb);
	return (double)(t1 - t0) / 1000.0 / (double)iters / 2.0;
}

int main(int argc, char **argv)
{
	static const struct {
		unsigned int kib;
		void (*fn)(uint64_t *);
	} blocks[] = {
		{ 0, code_none }, { 8, code_8k }, { 16, code_16k },
		{ 32, code_32k }, { 48, code_48k }, { 64, code_64k },
	};
	void (*fn)(uint64_t *) = NULL;
	unsigned long iters, i, reps = 20000;
	unsigned int kib, k;
	double with, without;
	uint64_t t0;

	if (argc != 3) {
		fprintf(stderr, "usage: %s KIB ITERS (KIB: 0 8 16 32 48 64)\n",
			argv[0]);
		return 2;
	}
	kib = (unsigned int)strtoul(argv[1], NULL, 0);
	iters = strtoul(argv[2], NULL, 0);
	for (k = 0; k < sizeof(blocks) / sizeof(blocks[0]); k++)
		if (blocks[k].kib == kib)
			fn = blocks[k].fn;
	if (!fn || !iters) {
		fprintf(stderr, "KIB is one of 0 8 16 32 48 64, ITERS > 0\n");
		return 2;
	}
	for (i = 0; i < 1000; i++)	/* warm */
		fn(regs);
	t0 = now_ns();
	for (i = 0; i < reps; i++)
		fn(regs);
	printf("code %2u KiB  alone %.3f usec", kib,
	       (double)(now_ns() - t0) / 1000.0 / (double)reps);
	without = pingpong(code_none, iters);
	with = pingpong(fn, iters);
	printf("  half-rtt without %.3f with %.3f usec  added %.3f usec\n",
	       without, with, with - without);
	return 0;
}
