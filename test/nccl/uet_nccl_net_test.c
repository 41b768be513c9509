/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * An NCCL network plugin (ncclNet v6, the interface aws-ofi-nccl exports
 * as ncclNetPlugin_v6) driven the way NCCL drives it, with MPI in place
 * of NCCL's bootstrap: load the plugin with dlopen, init, devices,
 * getProperties; per thread a ring (each rank listens, gives its handle
 * to the previous rank, connects to the next and accepts from the
 * previous with the non-blocking connect/accept loop); host buffers
 * registered per comm; for every size pair of the list below, a window
 * of isend to the next rank and irecv from the previous one, tested to
 * completion, the receives flushed with UET_NCCL_TEST_FLUSH=1 (NCCL
 * flushes GPU buffers only: iflush reads the received buffer back through
 * the network, which a plugin's host registrations need not allow) and
 * every byte checked
 * against a pattern of (sender, thread, size, iteration).  Sends larger
 * than the receive deliver the receive's size (NCCL's truncation rule);
 * the plugin only accepts them with global registrations (regIsGlobal),
 * as its own test does.
 *
 *   mpirun -n 2 uet_nccl_net_test PLUGIN.so [threads]
 *
 * The header is NCCL's net.h as shipped in the plugin's source
 * (configure --with-nccl-net-header=DIR, DIR holding nccl/net.h: the
 * Neuron or the CUDA flavour).  Every wait is bounded
 * (UET_NCCL_TEST_TIMEOUT seconds, default 120, through alarm()).  Exit
 * 0 when every rank passed, 1 otherwise.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>
#include <nccl/net.h>

/* The plugin's registration size type: size_t in the Neuron flavour of
 * ncclNet v6, int in the CUDA one. */
#ifdef NCCL_PTR_NEURON
typedef size_t reg_size_t;
#else
typedef int reg_size_t;
#endif

#define MAX_THREADS	16
#define WINDOW		8	/* requests in flight per direction */
#define ITERS		3

static const struct { size_t send, recv; } sizes[] = {
	{ 512, 512 },
	{ 4 * 1024, 4 * 1024 },
	{ 16 * 1024, 16 * 1024 },
	{ 1024 * 1024, 1024 * 1024 },
	{ 5 * 1024, 4 * 1024 },		/* sends larger than receives */
	{ 17 * 1024, 16 * 1024 },
	{ 2 * 1024 * 1024, 1024 * 1024 },
	{ 4 * 1024, 5 * 1024 },		/* and smaller */
	{ 16 * 1024, 17 * 1024 },
	{ 1024 * 1024, 2 * 1024 * 1024 },
};
#define NSIZES	(sizeof(sizes) / sizeof(sizes[0]))

static ncclNet_v6_t *net;
static int rank, nranks, verbose;
/* iflush after every receive: NCCL flushes receives into GPU memory only
 * (with GPUDirect), never host buffers; UET_NCCL_TEST_FLUSH=1 flushes
 * the host buffers too, as NCCL would flush GPU ones. */
static int flush;
static int reg_global = -1;	/* -1: the flavour does not say */

__attribute__((format(printf, 5, 6)))
static void logger(ncclDebugLogLevel level, unsigned long flags,
		   const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	(void)flags;
	/* warnings always, the rest with UET_NCCL_TEST_VERBOSE */
	if (level != NCCL_LOG_WARN && !verbose)
		return;
	fprintf(stderr, "[%d] plugin %s:%d: ", rank, file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

#define CHECK(call) do {						\
		ncclResult_t r_ = (call);				\
		if (r_ != ncclSuccess) {				\
			fprintf(stderr, "[%d] %s:%d: %s = %d\n", rank,	\
				__FILE__, __LINE__, #call, (int)r_);	\
			return -1;					\
		}							\
	} while (0)

static uint8_t pattern(int src, int tid, size_t size, int iter, size_t i)
{
	return (uint8_t)(src * 131 + tid * 71 + size * 7 + iter * 29 + i * 13 +
			 (i >> 9));
}

struct ring {
	int tid;
	MPI_Comm comm;
	void *lcomm, *scomm, *rcomm;
	uint8_t *sbuf[WINDOW], *rbuf[WINDOW];
	void *smh[WINDOW], *rmh[WINDOW];
	long errors;
};

/* The ring's connections: my handle to the previous rank, the next
 * rank's to me; connect and accept until both exist. */
static int ring_connect(struct ring *r)
{
	char mine[NCCL_NET_HANDLE_MAXSIZE], next[NCCL_NET_HANDLE_MAXSIZE];
	int prev = (rank + nranks - 1) % nranks, nxt = (rank + 1) % nranks;

	memset(mine, 0, sizeof(mine));
	CHECK(net->listen(0, mine, &r->lcomm));
	MPI_Sendrecv(mine, sizeof(mine), MPI_BYTE, prev, 1, next,
		     sizeof(next), MPI_BYTE, nxt, 1, r->comm,
		     MPI_STATUS_IGNORE);
	while (!r->scomm || !r->rcomm) {
		if (!r->scomm)
			CHECK(net->connect(0, next, &r->scomm));
		if (!r->rcomm)
			CHECK(net->accept(r->lcomm, &r->rcomm));
	}
	return 0;
}

/* Wait for every request of reqs (NULL ones are done); sizes back. */
static int wait_all(void **reqs, int *got, int n)
{
	int left = n, i, done;

	while (left) {
		left = 0;
		for (i = 0; i < n; i++) {
			if (!reqs[i])
				continue;
			done = 0;
			CHECK(net->test(reqs[i], &done, &got[i]));
			if (done)
				reqs[i] = NULL;
			else
				left++;
		}
	}
	return 0;
}

static int one_size(struct ring *r, size_t s, size_t rs, int iter)
{
	int prev = (rank + nranks - 1) % nranks;
	void *sreq[WINDOW] = { 0 }, *rreq[WINDOW] = { 0 }, *freq;
	int ssz[WINDOW], rsz[WINDOW], tag[WINDOW], rsize[WINDOW];
	size_t want = s < rs ? s : rs, i;
	int w, fsz;

	for (w = 0; w < WINDOW; w++) {
		memset(r->rbuf[w], 0xee, rs);
		for (i = 0; i < s; i++)
			r->sbuf[w][i] = pattern(rank, r->tid, s, iter * WINDOW + w,
						i);
		tag[w] = w;
		rsize[w] = (int)rs;
	}
	/* receives first, as NCCL's proxy posts them, then sends; a NULL
	 * request means "not now": retried */
	for (w = 0; w < WINDOW; w++)
		while (!rreq[w])
			CHECK(net->irecv(r->rcomm, 1, (void **)&r->rbuf[w],
					 &rsize[w], &tag[w], &r->rmh[w],
					 &rreq[w]));
	for (w = 0; w < WINDOW; w++)
		while (!sreq[w])
			CHECK(net->isend(r->scomm, r->sbuf[w], (int)s, tag[w],
					 r->smh[w], &sreq[w]));
	if (wait_all(sreq, ssz, WINDOW) || wait_all(rreq, rsz, WINDOW))
		return -1;
	for (w = 0; w < WINDOW; w++) {
		if (rsz[w] != (int)want && r->errors++ < 4)
			fprintf(stderr, "[%d] size %zu/%zu: test() says %d "
				"bytes\n", rank, s, rs, rsz[w]);
		freq = NULL;
		if (flush)
			CHECK(net->iflush(r->rcomm, 1, (void **)&r->rbuf[w],
					  &rsize[w], &r->rmh[w], &freq));
		if (freq && wait_all(&freq, &fsz, 1))
			return -1;
		for (i = 0; i < want; i++)
			if (r->rbuf[w][i] != pattern(prev, r->tid, s,
						     iter * WINDOW + w, i)) {
				if (r->errors++ < 4)
					fprintf(stderr, "[%d] thread %d size "
						"%zu/%zu: byte %zu wrong\n",
						rank, r->tid, s, rs, i);
				break;
			}
		/* nothing beyond the receive size or the data */
		for (i = want; i < rs; i++)
			if (r->rbuf[w][i] != 0xee) {
				if (r->errors++ < 4)
					fprintf(stderr, "[%d] size %zu/%zu: "
						"byte %zu written\n", rank, s,
						rs, i);
				break;
			}
	}
	return 0;
}

static int ring_run(struct ring *r)
{
	size_t k, max = 0;
	int w, iter;

	if (ring_connect(r))
		return -1;
	for (k = 0; k < NSIZES; k++) {
		max = sizes[k].send > max ? sizes[k].send : max;
		max = sizes[k].recv > max ? sizes[k].recv : max;
	}
	for (w = 0; w < WINDOW; w++) {
		r->sbuf[w] = aligned_alloc(4096, max);
		r->rbuf[w] = aligned_alloc(4096, max);
		if (!r->sbuf[w] || !r->rbuf[w])
			return -1;
		CHECK(net->regMr(r->scomm, r->sbuf[w], (reg_size_t)max,
				 NCCL_PTR_HOST, &r->smh[w]));
		CHECK(net->regMr(r->rcomm, r->rbuf[w], (reg_size_t)max,
				 NCCL_PTR_HOST, &r->rmh[w]));
	}
	for (k = 0; k < NSIZES; k++) {
		if (sizes[k].send > sizes[k].recv && reg_global == 0)
			continue;	/* the plugin's own rule */
		for (iter = 0; iter < ITERS; iter++)
			if (one_size(r, sizes[k].send, sizes[k].recv, iter))
				return -1;
		MPI_Barrier(r->comm);
	}
	for (w = 0; w < WINDOW; w++) {
		CHECK(net->deregMr(r->scomm, r->smh[w]));
		CHECK(net->deregMr(r->rcomm, r->rmh[w]));
		free(r->sbuf[w]);
		free(r->rbuf[w]);
	}
	MPI_Barrier(r->comm);
	CHECK(net->closeSend(r->scomm));
	CHECK(net->closeRecv(r->rcomm));
	CHECK(net->closeListen(r->lcomm));
	return 0;
}

static void *ring_thread(void *arg)
{
	struct ring *r = arg;

	if (ring_run(r))
		r->errors++;
	return NULL;
}

int main(int argc, char **argv)
{
	struct ring rings[MAX_THREADS];
	pthread_t th[MAX_THREADS];
	ncclNetProperties_v6_t props;
	long errors = 0, all = 0;
	int provided, ndev = 0, nthreads = 1, t;
	const char *tmo = getenv("UET_NCCL_TEST_TIMEOUT");
	void *lib;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	alarm(tmo ? (unsigned int)atoi(tmo) : 120);
	verbose = getenv("UET_NCCL_TEST_VERBOSE") != NULL;
	flush = getenv("UET_NCCL_TEST_FLUSH") &&
		!strcmp(getenv("UET_NCCL_TEST_FLUSH"), "1");
	if (argc < 2) {
		fprintf(stderr, "usage: %s PLUGIN.so [threads]\n", argv[0]);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	if (argc > 2)
		nthreads = atoi(argv[2]);
	if (nthreads < 1 || nthreads > MAX_THREADS ||
	    (nthreads > 1 && provided < MPI_THREAD_MULTIPLE)) {
		fprintf(stderr, "threads: 1 to %d (and MPI_THREAD_MULTIPLE)\n",
			MAX_THREADS);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "[%d] dlopen: %s\n", rank, dlerror());
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	net = dlsym(lib, "ncclNetPlugin_v6");
	if (!net) {
		fprintf(stderr, "[%d] no ncclNetPlugin_v6 in %s\n", rank,
			argv[1]);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (net->init(logger) != ncclSuccess || net->devices(&ndev) !=
	    ncclSuccess || ndev < 1) {
		fprintf(stderr, "[%d] %s: init/devices failed (%d devices)\n",
			rank, net->name, ndev);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	memset(&props, 0, sizeof(props));
	if (net->getProperties(0, &props) != ncclSuccess) {
		fprintf(stderr, "[%d] getProperties failed\n", rank);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
#ifdef NCCL_PTR_NEURON
	reg_global = props.regIsGlobal;
#endif
	printf("[%d] %s: %d device(s); dev 0 name %s pciPath %s ptrSupport "
	       "%#x speed %d maxComms %d maxRecvs %d regIsGlobal %d\n", rank,
	       net->name, ndev, props.name ? props.name : "(null)",
	       props.pciPath ? props.pciPath : "(null)", props.ptrSupport,
	       props.speed, props.maxComms, props.maxRecvs, reg_global);
	fflush(stdout);
	for (t = 0; t < nthreads; t++) {
		memset(&rings[t], 0, sizeof(rings[t]));
		rings[t].tid = t;
		MPI_Comm_dup(MPI_COMM_WORLD, &rings[t].comm);
	}
	for (t = 0; t < nthreads; t++)
		if (pthread_create(&th[t], NULL, ring_thread, &rings[t])) {
			fprintf(stderr, "pthread_create failed\n");
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
	for (t = 0; t < nthreads; t++) {
		pthread_join(th[t], NULL);
		errors += rings[t].errors;
		MPI_Comm_free(&rings[t].comm);
	}
	MPI_Allreduce(&errors, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%s: %d ranks, %d thread(s), %zu size pairs x %d x %d%s: "
		       "%s\n", all ? "FAIL" : "PASS", nranks, nthreads, NSIZES,
		       ITERS, WINDOW, flush ? ", iflush" : "",
		       all ? "errors" : "every byte checked");
	MPI_Finalize();
	return all ? 1 : 0;
}
