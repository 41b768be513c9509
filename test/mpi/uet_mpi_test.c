/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * MPI conformance test for a libfabric provider under Open MPI's OFI MTL.
 *
 * Covers blocking and non-blocking point-to-point (sizes 0 B .. 4 MiB and
 * odd sizes), MPI_ANY_SOURCE / MPI_ANY_TAG, MPI_Probe / MPI_Iprobe /
 * MPI_Mprobe / MPI_Mrecv, and the collectives MPI_Barrier, MPI_Bcast,
 * MPI_Allreduce and MPI_Alltoall.  Every payload byte is checked against a
 * pattern derived from (source, destination, size, iteration).
 *
 * Rank 0 prints one line per test group.  Any mismatch prints a FAIL line
 * naming the rank, group and offset and aborts the job with a non-zero
 * exit status.  Each rank arms alarm() so a hang ends the run.
 *
 * Environment (all optional):
 *   UET_MPI_TEST_TIMEOUT   seconds before a rank gives up (default 120)
 *   UET_MPI_TEST_MAX_SIZE  largest point-to-point message (default 4 MiB)
 *   UET_MPI_TEST_CORRUPT   1: rank 1 flips one received byte before the
 *                          first check, to show that a mismatch fails
 */
#define _POSIX_C_SOURCE 200809L

#include <mpi.h>

#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define UMT_DEFAULT_TIMEOUT	120
#define UMT_DEFAULT_MAX_SIZE	(4u << 20)
#define UMT_COLL_MAX_BYTES	(1u << 20)
#define UMT_ORDER_MSGS		32
#define UMT_PROBE_MSGS		6

static int umt_rank;
static int umt_nranks;
static const char *umt_group = "init";
static int umt_corrupt;

/* Message sizes: 0, 1, every power of two up to the maximum, and odd sizes
 * around common eager/inject/rendezvous thresholds. */
static const size_t umt_odd_sizes[] = {
	3, 7, 13, 63, 255, 1023, 4095, 4097, 8191, 16383, 16385, 65535,
	65537, 262143, 1048575, 1048577, 4194303,
};

static size_t umt_sizes[64];
static size_t umt_nsizes;

static void umt_fail(const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "uet_mpi_test: FAIL rank %d/%d group %s: %s\n",
		umt_rank, umt_nranks, umt_group, msg);
	fflush(stderr);
	MPI_Abort(MPI_COMM_WORLD, 1);
	exit(1);
}

#define UMT_MPI(call)                                                        \
	do {                                                                 \
		int umt_rc_ = (call);                                        \
		if (umt_rc_ != MPI_SUCCESS) {                                \
			char umt_es_[MPI_MAX_ERROR_STRING];                  \
			int umt_el_ = 0;                                     \
			MPI_Error_string(umt_rc_, umt_es_, &umt_el_);        \
			umt_fail("%s returned %d (%s) at line %d", #call,    \
				 umt_rc_, umt_es_, __LINE__);                \
		}                                                            \
	} while (0)

static void umt_on_alarm(int sig)
{
	static const char msg[] =
		"uet_mpi_test: FAIL timeout: a rank did not finish in time\n";
	ssize_t w;

	(void)sig;
	w = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)w;
	_exit(2);
}

static unsigned long umt_env_ulong(const char *name, unsigned long dflt)
{
	const char *s = getenv(name);
	char *end;
	unsigned long v;

	if (s == NULL || *s == '\0')
		return dflt;
	v = strtoul(s, &end, 0);
	if (*end != '\0') {
		fprintf(stderr, "uet_mpi_test: ignoring bad %s=%s\n", name, s);
		return dflt;
	}
	return v;
}

static int umt_size_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

static void umt_build_sizes(size_t max_size)
{
	size_t s, i;

	umt_nsizes = 0;
	umt_sizes[umt_nsizes++] = 0;
	for (s = 1; s <= max_size; s <<= 1)
		umt_sizes[umt_nsizes++] = s;
	for (i = 0; i < sizeof(umt_odd_sizes) / sizeof(umt_odd_sizes[0]); i++)
		if (umt_odd_sizes[i] <= max_size)
			umt_sizes[umt_nsizes++] = umt_odd_sizes[i];
	qsort(umt_sizes, umt_nsizes, sizeof(umt_sizes[0]), umt_size_cmp);
}

/* --- payload pattern --------------------------------------------------- */

static uint64_t umt_mix(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x7fb5d329728ea185ull;
	x ^= x >> 27;
	x *= 0x81dadef4bc2dd44dull;
	x ^= x >> 33;
	return x;
}

static uint64_t umt_seed(int src, int dst, size_t size, unsigned iter)
{
	uint64_t s = umt_mix((uint64_t)(uint32_t)src + 0x100000001ull);

	s = umt_mix(s ^ ((uint64_t)(uint32_t)dst << 20));
	s = umt_mix(s ^ (uint64_t)size);
	return umt_mix(s ^ ((uint64_t)iter << 40));
}

/* Eight pattern bytes per mixed word: cheap enough for 4 MiB buffers and
 * different at every offset for every (src, dst, size, iter). */
static void umt_fill(void *buf, size_t len, int src, int dst, size_t size,
		     unsigned iter)
{
	uint8_t *p = buf;
	uint64_t seed = umt_seed(src, dst, size, iter), w = 0;
	size_t k;

	for (k = 0; k < len; k++) {
		if ((k & 7) == 0)
			w = umt_mix(seed + (k >> 3));
		p[k] = (uint8_t)(w >> ((k & 7) * 8));
	}
}

static void umt_verify(void *buf, size_t len, int src, int dst,
		       size_t size, unsigned iter, const char *what)
{
	uint8_t *p = buf;
	uint64_t seed = umt_seed(src, dst, size, iter), w = 0;
	size_t k;

	if (umt_corrupt && umt_rank == 1 && len > 0) {
		p[len / 2] ^= 0x10;
		umt_corrupt = 0;
	}
	for (k = 0; k < len; k++) {
		uint8_t want;

		if ((k & 7) == 0)
			w = umt_mix(seed + (k >> 3));
		want = (uint8_t)(w >> ((k & 7) * 8));
		if (p[k] != want)
			umt_fail("%s: data mismatch src=%d dst=%d size=%zu "
				 "iter=%u at offset %zu: got 0x%02x want 0x%02x",
				 what, src, dst, size, iter, k, p[k], want);
	}
}

static void umt_check_status(const MPI_Status *st, int src, int tag,
			     size_t size, const char *what)
{
	int count = -1;

	UMT_MPI(MPI_Get_count(st, MPI_BYTE, &count));
	if (st->MPI_SOURCE != src || st->MPI_TAG != tag ||
	    count < 0 || (size_t)count != size)
		umt_fail("%s: status source=%d tag=%d count=%d, want "
			 "source=%d tag=%d count=%zu", what, st->MPI_SOURCE,
			 st->MPI_TAG, count, src, tag, size);
}

static void *umt_alloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		umt_fail("out of memory (%zu bytes)", n);
	return p;
}

/* Ends a group: every rank passes what it received (messages for
 * point-to-point, calls for collectives counted on rank 0 only); rank 0
 * prints the sums.  Times are informational. */
static void umt_pass(const char *group, const char *unit, unsigned long msgs,
		     double bytes, double t0)
{
	double loc[2] = { (double)msgs, bytes }, sum[2] = { 0, 0 };
	double dt;

	UMT_MPI(MPI_Reduce(loc, sum, 2, MPI_DOUBLE, MPI_SUM, 0,
			   MPI_COMM_WORLD));
	dt = MPI_Wtime() - t0;
	if (umt_rank == 0) {
		printf("uet_mpi_test: PASS %-13s ranks=%d %s=%.0f "
		       "MiB=%.1f time=%.2fs\n", group, umt_nranks, unit,
		       sum[0], sum[1] / (1024.0 * 1024.0), dt);
		fflush(stdout);
	}
}

/* --- point-to-point ---------------------------------------------------- */

/* Partner of this rank in round r (r = 0 .. rounds-1), or -1.  A power of
 * two rank count pairs rank ^ (r + 1), so all ranks work at once;
 * otherwise round r is one pair (a, b), a < b, in one global order.
 * Either way the lower rank sends first and no blocking cycle forms. */
static int umt_rounds(void)
{
	if ((umt_nranks & (umt_nranks - 1)) == 0)
		return umt_nranks - 1;
	return umt_nranks * (umt_nranks - 1) / 2;
}

static int umt_partner(int r)
{
	int a, b;

	if ((umt_nranks & (umt_nranks - 1)) == 0)
		return umt_rank ^ (r + 1);
	for (a = 0; a < umt_nranks; a++)
		for (b = a + 1; b < umt_nranks; b++)
			if (r-- == 0)
				return umt_rank == a ? b
				       : umt_rank == b ? a : -1;
	return -1;
}

/* Blocking ping-pong between every pair, each size, two iterations. */
static void umt_p2p_blocking(void)
{
	const unsigned iters = 2;
	size_t maxs = umt_sizes[umt_nsizes - 1];
	uint8_t *buf = umt_alloc(maxs);
	unsigned long msgs = 0;
	double bytes = 0, t0 = MPI_Wtime();
	unsigned it;
	size_t si;
	int r, rounds = umt_rounds();

	umt_group = "p2p-blocking";
	for (it = 0; it < iters; it++)
		for (si = 0; si < umt_nsizes; si++)
			for (r = 0; r < rounds; r++) {
				size_t n = umt_sizes[si];
				int tag = (int)(si * 8 + it);
				int p = umt_partner(r);
				MPI_Status st;

				if (p < 0)
					continue;
				if (umt_rank < p) {
					umt_fill(buf, n, umt_rank, p, n, it);
					UMT_MPI(MPI_Send(buf, (int)n, MPI_BYTE,
						p, tag, MPI_COMM_WORLD));
				}
				memset(buf, 0xa5, n);
				UMT_MPI(MPI_Recv(buf, (int)n, MPI_BYTE, p, tag,
						 MPI_COMM_WORLD, &st));
				umt_check_status(&st, p, tag, n, "MPI_Recv");
				umt_verify(buf, n, p, umt_rank, n, it,
					   "MPI_Recv");
				if (umt_rank > p) {
					umt_fill(buf, n, umt_rank, p, n, it);
					UMT_MPI(MPI_Send(buf, (int)n, MPI_BYTE,
						p, tag, MPI_COMM_WORLD));
				}
				msgs++;
				bytes += (double)n;
			}
	free(buf);
	umt_pass(umt_group, "msgs", msgs, bytes, t0);
}

/* Rank 0 sends UMT_ORDER_MSGS messages with one tag to rank 1. */
static void umt_ordered(int peer, size_t maxs, unsigned long *msgs,
			double *bytes)
{
	size_t omax = maxs / 8 + UMT_ORDER_MSGS, osz[UMT_ORDER_MSGS];
	uint8_t *ob[UMT_ORDER_MSGS];
	MPI_Request oreq[UMT_ORDER_MSGS];
	MPI_Status ost[UMT_ORDER_MSGS];
	const int tag = 77, half = UMT_ORDER_MSGS / 2;
	int i;

	for (i = 0; i < UMT_ORDER_MSGS; i++) {
		osz[i] = (i % 4 == 3) ? omax - (size_t)i
				      : (size_t)i * 37 % (omax / 2);
		ob[i] = umt_alloc(omax);
	}
	if (umt_rank == 0) {
		UMT_MPI(MPI_Recv(NULL, 0, MPI_BYTE, peer, tag + 1,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		for (i = 0; i < UMT_ORDER_MSGS; i++) {
			umt_fill(ob[i], osz[i], umt_rank, peer, osz[i],
				 (unsigned)i);
			UMT_MPI(MPI_Isend(ob[i], (int)osz[i], MPI_BYTE, peer,
					  tag, MPI_COMM_WORLD, &oreq[i]));
		}
		UMT_MPI(MPI_Waitall(UMT_ORDER_MSGS, oreq,
				    MPI_STATUSES_IGNORE));
	} else {
		for (i = 0; i < UMT_ORDER_MSGS; i++) {
			if (i == half)
				UMT_MPI(MPI_Send(NULL, 0, MPI_BYTE, peer,
						 tag + 1, MPI_COMM_WORLD));
			UMT_MPI(MPI_Irecv(ob[i], (int)omax, MPI_BYTE, peer,
					  tag, MPI_COMM_WORLD, &oreq[i]));
		}
		UMT_MPI(MPI_Waitall(UMT_ORDER_MSGS, oreq, ost));
		for (i = 0; i < UMT_ORDER_MSGS; i++) {
			umt_check_status(&ost[i], peer, tag, osz[i],
					 "ordered MPI_Irecv");
			umt_verify(ob[i], osz[i], peer, umt_rank, osz[i],
				   (unsigned)i, "ordered MPI_Irecv");
		}
	}
	for (i = 0; i < UMT_ORDER_MSGS; i++) {
		free(ob[i]);
		if (umt_rank == 1) {
			*msgs += 1;
			*bytes += (double)osz[i];
		}
	}
}

/* All-to-all exchange with Irecv posted first, Isend, one Waitall. */
static void umt_p2p_nonblocking(void)
{
	const unsigned iters = 2;
	int peers = umt_nranks - 1;
	size_t maxs = umt_sizes[umt_nsizes - 1];
	uint8_t **sbuf = umt_alloc(sizeof(*sbuf) * (size_t)umt_nranks);
	uint8_t **rbuf = umt_alloc(sizeof(*rbuf) * (size_t)umt_nranks);
	MPI_Request *req = umt_alloc(sizeof(*req) * 2 * (size_t)umt_nranks);
	MPI_Status *st = umt_alloc(sizeof(*st) * 2 * (size_t)umt_nranks);
	unsigned long msgs = 0;
	double bytes = 0, t0 = MPI_Wtime();
	unsigned it;
	size_t si;
	int p, nreq;

	umt_group = "p2p-nonblock";
	for (p = 0; p < umt_nranks; p++) {
		sbuf[p] = umt_alloc(maxs);
		rbuf[p] = umt_alloc(maxs);
	}
	for (it = 0; it < iters; it++)
		for (si = 0; si < umt_nsizes; si++) {
			size_t n = umt_sizes[si];
			int tag = 1000 + (int)(si * 8 + it);

			nreq = 0;
			for (p = 0; p < umt_nranks; p++) {
				if (p == umt_rank)
					continue;
				memset(rbuf[p], 0x3c, n);
				UMT_MPI(MPI_Irecv(rbuf[p], (int)n, MPI_BYTE,
					p, tag, MPI_COMM_WORLD, &req[nreq++]));
			}
			for (p = 0; p < umt_nranks; p++) {
				if (p == umt_rank)
					continue;
				umt_fill(sbuf[p], n, umt_rank, p, n, it);
				UMT_MPI(MPI_Isend(sbuf[p], (int)n, MPI_BYTE,
					p, tag, MPI_COMM_WORLD, &req[nreq++]));
			}
			UMT_MPI(MPI_Waitall(nreq, req, st));
			nreq = 0;
			for (p = 0; p < umt_nranks; p++) {
				if (p == umt_rank)
					continue;
				umt_check_status(&st[nreq++], p, tag, n,
						 "MPI_Irecv");
				umt_verify(rbuf[p], n, p, umt_rank, n, it,
					   "MPI_Irecv");
			}
			msgs += (unsigned long)peers;
			bytes += (double)peers * (double)n;
		}

	/* Non-overtaking: many messages with one tag from one source must
	 * complete the receives in posting order (FI_ORDER_SAS).  Sizes mix
	 * eager and rendezvous; half the receives are posted before the
	 * sender starts, half after (unexpected messages). */
	if (umt_rank < 2)
		umt_ordered(1 - umt_rank, maxs, &msgs, &bytes);

	for (p = 0; p < umt_nranks; p++) {
		free(sbuf[p]);
		free(rbuf[p]);
	}
	free(sbuf);
	free(rbuf);
	free(req);
	free(st);
	umt_pass(umt_group, "msgs", msgs, bytes, t0);
}

/* Ring shift in both directions with MPI_Sendrecv. */
static void umt_sendrecv(void)
{
	const unsigned iters = 2;
	size_t maxs = umt_sizes[umt_nsizes - 1];
	uint8_t *sb = umt_alloc(maxs), *rb = umt_alloc(maxs);
	unsigned long msgs = 0;
	double bytes = 0, t0 = MPI_Wtime();
	unsigned it;
	size_t si;
	int d;

	umt_group = "sendrecv";
	for (it = 0; it < iters; it++)
		for (si = 0; si < umt_nsizes; si++)
			for (d = 1; d < umt_nranks; d++) {
				size_t n = umt_sizes[si];
				int to = (umt_rank + d) % umt_nranks;
				int from = (umt_rank - d + umt_nranks) %
					   umt_nranks;
				int tag = 2000 + d;
				MPI_Status st;

				umt_fill(sb, n, umt_rank, to, n, it);
				memset(rb, 0xc3, n);
				UMT_MPI(MPI_Sendrecv(sb, (int)n, MPI_BYTE, to,
					tag, rb, (int)n, MPI_BYTE, from, tag,
					MPI_COMM_WORLD, &st));
				umt_check_status(&st, from, tag, n,
						 "MPI_Sendrecv");
				umt_verify(rb, n, from, umt_rank, n, it,
					   "MPI_Sendrecv");
				msgs++;
				bytes += (double)n;
			}
	free(sb);
	free(rb);
	umt_pass(umt_group, "msgs", msgs, bytes, t0);
}

/* Each rank in turn is the root and takes one message from every other
 * rank through wildcards; the status names the sender, the tag and the
 * size, and the payload is verified against the reported sender. */
static size_t umt_wild_size(int src, int round, size_t maxs)
{
	size_t n = round == 0 ? 17 + (size_t)src
			      : (size_t)1 << 20 | (size_t)(src * 3 + 1);

	return n > maxs ? maxs - (size_t)src : n;
}

static void umt_wildcards(void)
{
	size_t maxs = umt_sizes[umt_nsizes - 1];
	uint8_t *buf = umt_alloc(maxs);
	char *seen = umt_alloc((size_t)umt_nranks);
	unsigned long msgs = 0;
	double bytes = 0, t0 = MPI_Wtime();
	int root, round, i, mode;

	umt_group = "any-src-tag";
	for (root = 0; root < umt_nranks; root++)
		for (round = 0; round < 2; round++)
			/* mode 0: ANY_SOURCE+ANY_TAG, 1: ANY_SOURCE+tag,
			 * 2: source+ANY_TAG */
			for (mode = 0; mode < 3; mode++) {
				int base = 3000 + 100 * mode + 10 * round;

				if (umt_rank != root) {
					size_t n = umt_wild_size(umt_rank,
							round, maxs);

					umt_fill(buf, n, umt_rank, root, n,
						 (unsigned)mode);
					UMT_MPI(MPI_Send(buf, (int)n, MPI_BYTE,
						root, base + umt_rank,
						MPI_COMM_WORLD));
					UMT_MPI(MPI_Barrier(MPI_COMM_WORLD));
					continue;
				}
				memset(seen, 0, (size_t)umt_nranks);
				for (i = 1; i < umt_nranks; i++) {
					int want_src = (root + i) % umt_nranks;
					int src = mode == 2 ? want_src
							    : MPI_ANY_SOURCE;
					int tag = mode == 1 ? base + want_src
							    : MPI_ANY_TAG;
					MPI_Status st;
					size_t n;
					int s;

					UMT_MPI(MPI_Recv(buf, (int)maxs,
						MPI_BYTE, src, tag,
						MPI_COMM_WORLD, &st));
					s = st.MPI_SOURCE;
					if (s < 0 || s >= umt_nranks ||
					    s == root || seen[s])
						umt_fail("wildcard recv mode %d"
							 ": bad or repeated "
							 "MPI_SOURCE %d",
							 mode, s);
					if (mode != 0 && s != want_src)
						umt_fail("wildcard recv mode %d"
							 ": MPI_SOURCE %d, want"
							 " %d", mode, s,
							 want_src);
					seen[s] = 1;
					n = umt_wild_size(s, round, maxs);
					umt_check_status(&st, s, base + s, n,
							 "wildcard MPI_Recv");
					umt_verify(buf, n, s, root, n,
						   (unsigned)mode,
						   "wildcard MPI_Recv");
					msgs++;
					bytes += (double)n;
				}
				/* a sender's next message must not reach
				 * this round's wildcard receives */
				UMT_MPI(MPI_Barrier(MPI_COMM_WORLD));
			}
	free(buf);
	free(seen);
	umt_pass(umt_group, "msgs", msgs, bytes, t0);
}

/* Probe family, rank pairs (0,1), (2,3), ...: the even rank sends, the
 * odd rank probes.  An odd rank count leaves the last rank idle. */
static void umt_probe(void)
{
	static const size_t psz[] = { 0, 1, 100, 16385, (1u << 20) + 3 };
	const size_t npsz = sizeof(psz) / sizeof(psz[0]);
	size_t maxs = umt_sizes[umt_nsizes - 1];
	int peer = umt_rank ^ 1;
	int sender = (umt_rank & 1) == 0;
	unsigned long msgs = 0;
	double bytes = 0, t0 = MPI_Wtime();
	size_t i;

	umt_group = "probe";
	if (peer >= umt_nranks)
		goto out;
	for (i = 0; i < npsz; i++) {
		size_t n = psz[i] > maxs ? maxs : psz[i];
		unsigned it = (unsigned)i;
		uint8_t *a = umt_alloc(n), *b = umt_alloc(n);
		MPI_Status st;
		MPI_Message m1, m2;
		int flag, count;

		if (sender) {
			/* 1: Probe, 2: Iprobe, 3+4: Mprobe ordering,
			 * 5: Improbe, 6: Iprobe(ANY_SOURCE, ANY_TAG).
			 * Isend: a blocking send of the first 4003 message
			 * may wait for the receiver, which first wants the
			 * second one. */
			static const int tags[UMT_PROBE_MSGS] = {
				4001, 4002, 4003, 4003, 4005, 4006 };
			uint8_t *sb[UMT_PROBE_MSGS];
			MPI_Request rq[UMT_PROBE_MSGS];
			int k;

			for (k = 0; k < UMT_PROBE_MSGS; k++) {
				sb[k] = umt_alloc(n);
				umt_fill(sb[k], n, umt_rank, peer, n,
					 it * 16 + (unsigned)k);
				UMT_MPI(MPI_Isend(sb[k], (int)n, MPI_BYTE,
					peer, tags[k], MPI_COMM_WORLD,
					&rq[k]));
			}
			UMT_MPI(MPI_Waitall(UMT_PROBE_MSGS, rq,
					    MPI_STATUSES_IGNORE));
			for (k = 0; k < UMT_PROBE_MSGS; k++)
				free(sb[k]);
			/* wait for the receiver before reusing tags */
			UMT_MPI(MPI_Recv(NULL, 0, MPI_BYTE, peer, 4099,
					 MPI_COMM_WORLD, MPI_STATUS_IGNORE));
			free(a);
			free(b);
			continue;
		}

		/* nothing was sent with tag 4098: Iprobe must say so */
		UMT_MPI(MPI_Iprobe(peer, 4098, MPI_COMM_WORLD, &flag, &st));
		if (flag)
			umt_fail("MPI_Iprobe matched tag 4098 never sent");

		/* MPI_Probe, then size the receive from the status */
		UMT_MPI(MPI_Probe(peer, 4001, MPI_COMM_WORLD, &st));
		umt_check_status(&st, peer, 4001, n, "MPI_Probe");
		UMT_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
		UMT_MPI(MPI_Recv(a, count, MPI_BYTE, peer, 4001,
				 MPI_COMM_WORLD, &st));
		umt_check_status(&st, peer, 4001, n, "recv after MPI_Probe");
		umt_verify(a, n, peer, umt_rank, n, it * 16 + 0,
			   "recv after MPI_Probe");

		/* MPI_Iprobe with ANY_SOURCE until it matches (bounded by
		 * the alarm) */
		flag = 0;
		while (!flag)
			UMT_MPI(MPI_Iprobe(MPI_ANY_SOURCE, 4002,
					   MPI_COMM_WORLD, &flag, &st));
		umt_check_status(&st, peer, 4002, n, "MPI_Iprobe");
		UMT_MPI(MPI_Recv(a, (int)n, MPI_BYTE, st.MPI_SOURCE, 4002,
				 MPI_COMM_WORLD, &st));
		umt_verify(a, n, peer, umt_rank, n, it * 16 + 1,
			   "recv after MPI_Iprobe");

		/* Mprobe claims the first 4003 message; a later receive
		 * for the same tag must get the second one, Mrecv the
		 * first. */
		UMT_MPI(MPI_Mprobe(MPI_ANY_SOURCE, 4003, MPI_COMM_WORLD, &m1,
				   &st));
		umt_check_status(&st, peer, 4003, n, "MPI_Mprobe");
		UMT_MPI(MPI_Recv(b, (int)n, MPI_BYTE, peer, 4003,
				 MPI_COMM_WORLD, &st));
		umt_check_status(&st, peer, 4003, n, "recv after MPI_Mprobe");
		umt_verify(b, n, peer, umt_rank, n, it * 16 + 3,
			   "recv after MPI_Mprobe (2nd message)");
		UMT_MPI(MPI_Mrecv(a, (int)n, MPI_BYTE, &m1, &st));
		umt_check_status(&st, peer, 4003, n, "MPI_Mrecv");
		umt_verify(a, n, peer, umt_rank, n, it * 16 + 2,
			   "MPI_Mrecv (1st message)");
		if (m1 != MPI_MESSAGE_NULL)
			umt_fail("MPI_Mrecv left the message handle set");

		/* Improbe with ANY_TAG until it matches, then Mrecv */
		flag = 0;
		while (!flag)
			UMT_MPI(MPI_Improbe(peer, MPI_ANY_TAG, MPI_COMM_WORLD,
					    &flag, &m2, &st));
		umt_check_status(&st, peer, 4005, n, "MPI_Improbe");
		UMT_MPI(MPI_Mrecv(a, (int)n, MPI_BYTE, &m2, &st));
		umt_check_status(&st, peer, 4005, n, "Mrecv after Improbe");
		umt_verify(a, n, peer, umt_rank, n, it * 16 + 4,
			   "Mrecv after Improbe");

		/* Iprobe with both wildcards */
		flag = 0;
		while (!flag)
			UMT_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG,
					   MPI_COMM_WORLD, &flag, &st));
		umt_check_status(&st, peer, 4006, n, "Iprobe(ANY, ANY)");
		UMT_MPI(MPI_Recv(a, (int)n, MPI_BYTE, MPI_ANY_SOURCE,
				 MPI_ANY_TAG, MPI_COMM_WORLD, &st));
		umt_check_status(&st, peer, 4006, n, "recv after Iprobe");
		umt_verify(a, n, peer, umt_rank, n, it * 16 + 5,
			   "recv after Iprobe(ANY, ANY)");

		msgs += UMT_PROBE_MSGS;
		bytes += (double)n * UMT_PROBE_MSGS;
		UMT_MPI(MPI_Send(NULL, 0, MPI_BYTE, peer, 4099,
				 MPI_COMM_WORLD));
		free(a);
		free(b);
	}
out:
	umt_pass(umt_group, "msgs", msgs, bytes, t0);
}

/* --- collectives ------------------------------------------------------- */

static void umt_barrier(void)
{
	double t0 = MPI_Wtime();
	int i;

	umt_group = "barrier";
	for (i = 0; i < 50; i++)
		UMT_MPI(MPI_Barrier(MPI_COMM_WORLD));
	umt_pass(umt_group, "calls", umt_rank == 0 ? 50 : 0, 0, t0);
}

static void umt_bcast(void)
{
	static const size_t bsz[] = { 0, 1, 7, 1000, 65536, (1u << 20) + 1,
				      4u << 20 };
	size_t maxs = umt_sizes[umt_nsizes - 1];
	uint8_t *buf = umt_alloc(maxs);
	unsigned long msgs = 0;
	double bytes = 0, t0 = MPI_Wtime();
	size_t i;
	int root;

	umt_group = "bcast";
	for (i = 0; i < sizeof(bsz) / sizeof(bsz[0]); i++) {
		size_t n = bsz[i] > maxs ? maxs : bsz[i];

		for (root = 0; root < umt_nranks; root++) {
			if (umt_rank == root)
				umt_fill(buf, n, root, -1, n, (unsigned)i);
			else
				memset(buf, 0x96, n);
			UMT_MPI(MPI_Bcast(buf, (int)n, MPI_BYTE, root,
					  MPI_COMM_WORLD));
			umt_verify(buf, n, root, -1, n, (unsigned)i,
				   "MPI_Bcast");
			msgs += umt_rank == 0;
			bytes += umt_rank != 0 ? 0 : (double)n;
		}
	}
	free(buf);
	umt_pass(umt_group, "calls", msgs, bytes, t0);
}

static int umt_ival(int r, size_t i)
{
	return (int)((i * 7 + (size_t)r * 13) % 1001) - 500;
}

/* Values that are exact in binary so any summation order is exact. */
static double umt_dval(int r, size_t i)
{
	return (double)((i + (size_t)r * 5) % 4096) * 0.25 - 100.0;
}

static void umt_allreduce(void)
{
	static const size_t cnt_bytes[] = { 4, 8, 28, 4096, 65536, 262148,
					    UMT_COLL_MAX_BYTES };
	int *is = umt_alloc(UMT_COLL_MAX_BYTES);
	int *ir = umt_alloc(UMT_COLL_MAX_BYTES);
	double *ds = umt_alloc(UMT_COLL_MAX_BYTES);
	double *dr = umt_alloc(UMT_COLL_MAX_BYTES);
	unsigned long msgs = 0;
	double bytes = 0, t0 = MPI_Wtime();
	size_t c, i;
	int r;

	umt_group = "allreduce";
	for (c = 0; c < sizeof(cnt_bytes) / sizeof(cnt_bytes[0]); c++) {
		size_t ni = cnt_bytes[c] / sizeof(int);
		size_t nd = cnt_bytes[c] / sizeof(double);

		if (nd == 0)
			nd = 1;
		/* int sum */
		for (i = 0; i < ni; i++)
			is[i] = umt_ival(umt_rank, i);
		UMT_MPI(MPI_Allreduce(is, ir, (int)ni, MPI_INT, MPI_SUM,
				      MPI_COMM_WORLD));
		for (i = 0; i < ni; i++) {
			int want = 0;

			for (r = 0; r < umt_nranks; r++)
				want += umt_ival(r, i);
			if (ir[i] != want)
				umt_fail("MPI_Allreduce(int, SUM) count %zu "
					 "element %zu: got %d want %d", ni, i,
					 ir[i], want);
		}
		/* int max, in place */
		for (i = 0; i < ni; i++)
			ir[i] = umt_ival(umt_rank, i);
		UMT_MPI(MPI_Allreduce(MPI_IN_PLACE, ir, (int)ni, MPI_INT,
				      MPI_MAX, MPI_COMM_WORLD));
		for (i = 0; i < ni; i++) {
			int want = umt_ival(0, i);

			for (r = 1; r < umt_nranks; r++)
				if (umt_ival(r, i) > want)
					want = umt_ival(r, i);
			if (ir[i] != want)
				umt_fail("MPI_Allreduce(int, MAX, in place) "
					 "count %zu element %zu: got %d want "
					 "%d", ni, i, ir[i], want);
		}
		/* double sum */
		for (i = 0; i < nd; i++)
			ds[i] = umt_dval(umt_rank, i);
		UMT_MPI(MPI_Allreduce(ds, dr, (int)nd, MPI_DOUBLE, MPI_SUM,
				      MPI_COMM_WORLD));
		for (i = 0; i < nd; i++) {
			double want = 0;

			for (r = 0; r < umt_nranks; r++)
				want += umt_dval(r, i);
			if (dr[i] != want)
				umt_fail("MPI_Allreduce(double, SUM) count %zu"
					 " element %zu: got %.17g want %.17g",
					 nd, i, dr[i], want);
		}
		msgs += umt_rank == 0 ? 3 : 0;
		bytes += umt_rank != 0 ? 0 : 2.0 * (double)(ni * 4) +
					      (double)(nd * 8);
	}
	free(is);
	free(ir);
	free(ds);
	free(dr);
	umt_pass(umt_group, "calls", msgs, bytes, t0);
}

static void umt_alltoall(void)
{
	static const size_t blk[] = { 1, 64, 4096, 65537, 262144 };
	size_t nr = (size_t)umt_nranks;
	size_t maxb = blk[sizeof(blk) / sizeof(blk[0]) - 1];
	uint8_t *sb = umt_alloc(maxb * nr), *rb = umt_alloc(maxb * nr);
	unsigned long msgs = 0;
	double bytes = 0, t0 = MPI_Wtime();
	size_t i;
	unsigned it;
	int p;

	umt_group = "alltoall";
	for (it = 0; it < 2; it++)
		for (i = 0; i < sizeof(blk) / sizeof(blk[0]); i++) {
			size_t n = blk[i];

			for (p = 0; p < umt_nranks; p++)
				umt_fill(sb + (size_t)p * n, n, umt_rank, p,
					 n, it);
			memset(rb, 0x69, n * nr);
			UMT_MPI(MPI_Alltoall(sb, (int)n, MPI_BYTE, rb, (int)n,
					     MPI_BYTE, MPI_COMM_WORLD));
			for (p = 0; p < umt_nranks; p++)
				umt_verify(rb + (size_t)p * n, n, p, umt_rank,
					   n, it, "MPI_Alltoall");
			msgs += umt_rank == 0;
			bytes += umt_rank != 0 ? 0 : (double)(n * nr);
		}
	free(sb);
	free(rb);
	umt_pass(umt_group, "calls", msgs, bytes, t0);
}

/*
 * Many receives posted before any send (the pattern of MPICH's
 * rma/test5 through osc pt2pt): every rank posts UMT_MANY_IRECV
 * MPI_Irecv from its ring predecessor, then a barrier, then the
 * predecessor sends them.  More than a provider's rx_attr->size: uet
 * used to refuse the 1,025th with -FI_EAGAIN, which the OFI MTL retries
 * forever.
 */
#define UMT_MANY_IRECV	3000
static void umt_many_irecv(void)
{
	int from = (umt_rank + umt_nranks - 1) % umt_nranks;
	int to = (umt_rank + 1) % umt_nranks;
	MPI_Request *rq = umt_alloc(UMT_MANY_IRECV * sizeof(*rq));
	int *in = umt_alloc(UMT_MANY_IRECV * sizeof(*in));
	double t0 = MPI_Wtime();
	int i, v;

	umt_group = "many-irecv";
	for (i = 0; i < UMT_MANY_IRECV; i++)
		UMT_MPI(MPI_Irecv(&in[i], 1, MPI_INT, from, 77,
				  MPI_COMM_WORLD, &rq[i]));
	UMT_MPI(MPI_Barrier(MPI_COMM_WORLD));
	for (i = 0; i < UMT_MANY_IRECV; i++) {
		v = i * 7 + umt_rank;
		UMT_MPI(MPI_Send(&v, 1, MPI_INT, to, 77, MPI_COMM_WORLD));
	}
	UMT_MPI(MPI_Waitall(UMT_MANY_IRECV, rq, MPI_STATUSES_IGNORE));
	for (i = 0; i < UMT_MANY_IRECV; i++)
		if (in[i] != i * 7 + from)
			umt_fail("many-irecv: message %d from %d is %d, "
				 "not %d", i, from, in[i], i * 7 + from);
	free(rq);
	free(in);
	umt_pass(umt_group, "msgs", UMT_MANY_IRECV,
		 (double)UMT_MANY_IRECV * sizeof(int), t0);
}

/*
 * One message above 1 GiB from rank 0 to rank 1 (MPICH's
 * pt2pt/large_message sends 2.16 GB): uet's max_msg_size was 1 GiB, and
 * past that its rendezvous was quadratic (the sender re-ran every parked
 * READ reply per packet).  UET_MPI_TEST_HUGE bytes (0: skip); every 4 KiB
 * page carries its offset mixed with the size, checked at the receiver.
 */
static void umt_huge(size_t len)
{
	const size_t step = 4096;
	uint64_t *b = NULL, v, want;
	MPI_Status st;
	MPI_Count got;
	size_t off;
	double t0;

	if (!len)
		return;
	umt_group = "huge";
	if (umt_rank < 2) {
		b = umt_alloc(len);
		for (off = 0; off + sizeof(v) <= len; off += step) {
			v = umt_rank == 0 ? umt_mix(off ^ len) : 0;
			memcpy((char *)b + off, &v, sizeof(v));
		}
	}
	UMT_MPI(MPI_Barrier(MPI_COMM_WORLD));
	t0 = MPI_Wtime();
	if (umt_rank == 0) {
		UMT_MPI(MPI_Send(b, (int)len, MPI_BYTE, 1, 91,
				 MPI_COMM_WORLD));
	} else if (umt_rank == 1) {
		UMT_MPI(MPI_Recv(b, (int)len, MPI_BYTE, 0, 91,
				 MPI_COMM_WORLD, &st));
		UMT_MPI(MPI_Get_elements_x(&st, MPI_BYTE, &got));
		if ((size_t)got != len)
			umt_fail("huge: received %lld bytes, not %zu",
				 (long long)got, len);
		for (off = 0; off + sizeof(v) <= len; off += step) {
			memcpy(&v, (char *)b + off, sizeof(v));
			want = umt_mix(off ^ len);
			if (v != want)
				umt_fail("huge: bad data at offset %zu", off);
		}
	}
	free(b);
	umt_pass(umt_group, "msgs", umt_rank == 1,
		 umt_rank == 1 ? (double)len : 0, t0);
}

int main(int argc, char **argv)
{
	unsigned long timeout = umt_env_ulong("UET_MPI_TEST_TIMEOUT",
					      UMT_DEFAULT_TIMEOUT);
	unsigned long max_size = umt_env_ulong("UET_MPI_TEST_MAX_SIZE",
					       UMT_DEFAULT_MAX_SIZE);
	unsigned long huge = umt_env_ulong("UET_MPI_TEST_HUGE", 0);
	struct sigaction sa;
	double t0;

	if (timeout == 0)
		timeout = UMT_DEFAULT_TIMEOUT;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = umt_on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm((unsigned)timeout);

	UMT_MPI(MPI_Init(&argc, &argv));
	UMT_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	UMT_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &umt_rank));
	UMT_MPI(MPI_Comm_size(MPI_COMM_WORLD, &umt_nranks));
	if (umt_nranks < 2)
		umt_fail("needs at least 2 ranks, got %d", umt_nranks);
	if (max_size < 64 || max_size > (1ul << 30))
		umt_fail("UET_MPI_TEST_MAX_SIZE %lu out of range", max_size);
	if (huge > INT_MAX)
		umt_fail("UET_MPI_TEST_HUGE %lu above INT_MAX", huge);
	umt_build_sizes((size_t)max_size);
	umt_corrupt = umt_env_ulong("UET_MPI_TEST_CORRUPT", 0) == 1;

	if (umt_rank == 0) {
		char ver[MPI_MAX_LIBRARY_VERSION_STRING];
		int len = 0;

		MPI_Get_library_version(ver, &len);
		ver[strcspn(ver, "\n,")] = '\0';
		printf("uet_mpi_test: %s, %d ranks, %zu sizes up to %zu B, "
		       "timeout %lus\n", ver, umt_nranks, umt_nsizes,
		       umt_sizes[umt_nsizes - 1], timeout);
		fflush(stdout);
	}

	t0 = MPI_Wtime();
	umt_p2p_blocking();
	umt_p2p_nonblocking();
	umt_sendrecv();
	umt_wildcards();
	umt_probe();
	umt_many_irecv();
	umt_huge((size_t)huge);
	umt_barrier();
	umt_bcast();
	umt_allreduce();
	umt_alltoall();

	umt_group = "finalize";
	UMT_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (umt_rank == 0) {
		printf("uet_mpi_test: ALL PASS ranks=%d time=%.2fs\n",
		       umt_nranks, MPI_Wtime() - t0);
		fflush(stdout);
	}
	UMT_MPI(MPI_Finalize());
	return 0;
}
