/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Scale of the provider and the software NIC (docs/scale.md): an AV of
 * 1,000 addresses, and one hub endpoint that exchanges a message with each
 * of 256 peer endpoints, each on its own domain (its own software NIC and
 * UDP socket) on 127.0.0.1, all in this process with manual progress.
 *
 * State growth is checked two ways: the NIC's own counts (PDCs, SES
 * routes and streams, peer table) must be at most a fixed number per peer,
 * and the heap growth per peer (glibc's mallinfo2, or AddressSanitizer's
 * allocator statistics) must stay below a bound
 * computed from the sizes of the structures that a peer adds
 * (scale_peer_bound(), the derivation is in docs/scale.md).
 */
#include "config.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <rdma/fi_errno.h>
#if defined(__SANITIZE_ADDRESS__)
/* From AddressSanitizer's runtime (sanitizer/allocator_interface.h,
 * which not every compiler package installs). */
size_t __sanitizer_get_current_allocated_bytes(void);
#endif

#include "uet_byteorder.h"
#include "uet_clock.h"
#include "uet_pds_internal.h"
#include "uet_prov.h"
#include "uet_ses_internal.h"
#include "uet_snic.h"
#include "uet_snic_internal.h"
#include "uet_test.h"
#include "prov_test.h"

#define API		FI_VERSION(1, 17)
/* AV test: addresses inserted. */
#define AV_N		1000u
/* Hub test: peer endpoints. */
#define PEERS		256u
/* The whole exchange of one round must end within this. */
#define ROUND_MS	15000u
#define MSG_LEN		64u
/* Descriptors left free for the rest (fi_endpoint's interface listing
 * opens a netlink socket, libcheck's pipes, stdio). */
#define FD_SPARE	64u

/* ---- helpers ---- */

static struct fi_info *get_info(void)
{
	return uet_test_lo_info(API, FI_MSG | FI_SOURCE);
}

/* The software NIC behind a domain (the test reads its counts). */
static struct uet_snic_dev *snic_of(struct fid_domain *d)
{
	struct uet_domain *dom = uet_container_of(d, struct uet_domain, fid);

	ck_assert_ptr_eq(dom->ops, &uet_snic_dev_ops);
	return uet_snic_dev_of(dom->dev);
}

/* Bytes the program has allocated (AddressSanitizer's allocator: the
 * bytes asked for; glibc: arena + mmapped chunks), or -1 when this
 * allocator does not report them. */
static long long heap_used(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return (long long)__sanitizer_get_current_allocated_bytes();
#elif defined(__GLIBC__) && \
	(__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
	struct mallinfo2 mi = mallinfo2();

	return (long long)(mi.uordblks + mi.hblkhd);
#else
	return -1;
#endif
}

/* Does heap_used() see malloc? */
static bool heap_measurable(void)
{
	long long before = heap_used(), after;
	volatile char *p;

	if (before < 0)
		return false;
	p = malloc(32 * 1024);
	ck_assert_ptr_nonnull((void *)p);
	p[0] = 1;
	after = heap_used();
	free((void *)p);
	return after - before >= 32 * 1024;
}

static unsigned int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	unsigned int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;		/* the directory's own descriptor */
}

/* Heap bytes of a malloc'd block of n bytes (glibc: 8-byte header,
 * 16-byte granules, 32 bytes at least). */
static size_t mblock(size_t n)
{
	size_t b = (n + 8 + 15) & ~(size_t)15;

	return b < 32 ? 32 : b;
}

/* Bucket bytes a hash map entry costs at most: the array doubles when
 * count exceeds 3/4 of it, so it holds < 8/3 buckets per entry; and the
 * old array is freed on growth. */
#define MAP_ENTRY_BYTES	(3 * sizeof(void *))

/* Heap bytes of one PDC of a NIC with cfg.window = window (RUD: no ROD
 * hold ring, no retained response: see docs/scale.md). */
static size_t pdc_bytes(uint32_t window)
{
	size_t ring = 1, words;

	while (ring < window)
		ring <<= 1;
	words = (ring + 63) / 64;
	return mblock(sizeof(struct uet_pdc)) +
	       mblock(ring * sizeof(void *)) +		/* tx ring */
	       mblock(words * sizeof(uint64_t)) +	/* PSN window */
	       2 * MAP_ENTRY_BYTES;			/* id_map, key map */
}

/* A pool object: its size rounded to the pool's alignment (16). */
static size_t pool_obj(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

/*
 * Heap bytes one peer adds to one NIC that exchanged a message each way
 * with it (docs/scale.md, "Per peer"): the AV entry (the table doubles,
 * so up to two entries' room) and the NIC peer (its slot in the handle
 * array, which doubles too), two PDCs (ours towards it, its towards
 * us), the SES response retained for its last message until it clears
 * it, the SES route towards it, the sender stream and the target stream,
 * each with its map entry.
 */
static size_t scale_peer_bound(uint32_t window)
{
	return 2 * sizeof(struct uet_av_entry) + MAP_ENTRY_BYTES +
	       mblock(sizeof(struct uet_snic_peer)) + 2 * sizeof(void *) +
	       MAP_ENTRY_BYTES +
	       2 * pdc_bytes(window) +
	       pool_obj(sizeof(struct uet_pds_retained)) + MAP_ENTRY_BYTES +
	       pool_obj(sizeof(struct uet_ses_route)) + MAP_ENTRY_BYTES +
	       pool_obj(sizeof(struct uet_ses_txs)) + MAP_ENTRY_BYTES +
	       pool_obj(sizeof(struct uet_ses_rxs)) + MAP_ENTRY_BYTES;
}

static void print_sizes(void)
{
	struct uet_pds_cfg pc;

	uet_pds_cfg_default(&pc);
	fprintf(stderr, "scale: sizeof uet_av_entry %zu, uet_snic_peer %zu, "
		"uet_pdc %zu, uet_ses_route %zu, uet_ses_txs %zu, "
		"uet_ses_rxs %zu, uet_pds_retained %zu, uet_pds_hold %zu "
		"(+ data), uet_ses_rx_msg %zu\n",
		sizeof(struct uet_av_entry), sizeof(struct uet_snic_peer),
		sizeof(struct uet_pdc), sizeof(struct uet_ses_route),
		sizeof(struct uet_ses_txs), sizeof(struct uet_ses_rxs),
		sizeof(struct uet_pds_retained), sizeof(struct uet_pds_hold),
		sizeof(struct uet_ses_rx_msg));
	fprintf(stderr, "scale: window %u: one PDC %zu B, one peer on one "
		"NIC at most %zu B\n", pc.window, pdc_bytes(pc.window),
		scale_peer_bound(pc.window));
}

static void addr_in(struct sockaddr_in *sin, uint16_t port, uint16_t pid)
{
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	uet_put_be16((uint8_t *)sin->sin_zero, pid);
}

/* ---- 1,000 AV entries ---- */

START_TEST(test_av_1000)
{
	enum fi_av_type type = _i ? FI_AV_MAP : FI_AV_TABLE;
	struct fi_av_attr ava = { .type = type };
	struct sockaddr_in *addrs, *back, got;
	struct fi_info *info = get_info();
	struct fid_fabric *fab;
	struct fid_domain *dom;
	struct uet_snic_dev *dev;
	struct fid_av *av;
	fi_addr_t *fa;
	size_t *lens;
	int *rets;
	long long h0, h1, h2, h3;
	uint64_t t0, t1, t2;
	char str[64];
	size_t len, i, bound;
	bool heap;

	addrs = calloc(AV_N, sizeof(*addrs));
	fa = calloc(AV_N, sizeof(*fa));
	back = calloc(AV_N, sizeof(*back));
	lens = calloc(AV_N, sizeof(*lens));
	rets = calloc(AV_N, sizeof(*rets));
	ck_assert_ptr_nonnull(addrs);
	ck_assert_ptr_nonnull(fa);
	ck_assert_ptr_nonnull(back);
	ck_assert_ptr_nonnull(lens);
	ck_assert_ptr_nonnull(rets);
	/* distinct ports; every fourth address also names pid 1..3 */
	for (i = 0; i < AV_N; i++)
		addr_in(&addrs[i], (uint16_t)(20000 + i), (uint16_t)(i % 4));
	ck_assert_int_eq(uet_fabric(info->fabric_attr, &fab, NULL), 0);
	ck_assert_int_eq(fi_domain(fab, info, &dom, NULL), 0);
	dev = snic_of(dom);
	ck_assert_int_eq(fi_av_open(dom, &ava, &av, NULL), 0);
	heap = heap_measurable();

	h0 = heap_used();
	t0 = uet_clock_now_ns();
	ck_assert_int_eq(fi_av_insert(av, addrs, AV_N, fa, 0, NULL),
			 (int)AV_N);
	t1 = uet_clock_now_ns();
	h1 = heap_used();
	ck_assert_uint_eq(uet_hashmap_count(&dev->peer_map), AV_N);
	/* timed without libcheck's assertions (each one writes to a pipe
	 * in fork mode), checked after */
	memset(back, 0xee, AV_N * sizeof(*back));
	for (i = 0; i < AV_N; i++) {
		lens[i] = sizeof(back[i]);
		rets[i] = fi_av_lookup(av, fa[i], &back[i], &lens[i]);
	}
	t2 = uet_clock_now_ns();
	for (i = 0; i < AV_N; i++) {
		ck_assert_uint_eq(fa[i], i);
		ck_assert_int_eq(rets[i], 0);
		ck_assert_uint_eq(lens[i], sizeof(back[i]));
		ck_assert(!memcmp(&back[i], &addrs[i], sizeof(back[i])));
	}
	len = sizeof(str);
	ck_assert_ptr_nonnull(fi_av_straddr(av, &addrs[AV_N - 1], str, &len));
	ck_assert_str_eq(str, "uet://127.0.0.1:20999/3/0");
	/* one past the end is nothing */
	len = sizeof(got);
	ck_assert_int_eq(fi_av_lookup(av, AV_N, &got, &len), -FI_EINVAL);

	/* remove all: the NIC forgets every peer */
	ck_assert_int_eq(fi_av_remove(av, fa, AV_N, 0), 0);
	ck_assert_uint_eq(uet_hashmap_count(&dev->peer_map), 0);
	for (i = 0; i < AV_N; i += 7) {
		len = sizeof(got);
		ck_assert_int_eq(fi_av_lookup(av, fa[i], &got, &len),
				 -FI_EINVAL);
	}
	h2 = heap_used();
	/* again: same indexes, and no new memory (the table, the buckets
	 * and the peer array are reused) */
	ck_assert_int_eq(fi_av_insert(av, addrs, AV_N, fa, 0, NULL),
			 (int)AV_N);
	for (i = 0; i < AV_N; i++)
		ck_assert_uint_eq(fa[i], i);
	h3 = heap_used();
	ck_assert_uint_eq(uet_hashmap_count(&dev->peer_map), AV_N);

	bound = 2 * sizeof(struct uet_av_entry) + MAP_ENTRY_BYTES +
		mblock(sizeof(struct uet_snic_peer)) + 2 * sizeof(void *) +
		MAP_ENTRY_BYTES;
	fprintf(stderr, "scale: AV %s: %u inserts %.3f ms, %u lookups "
		"%.3f ms; heap per entry %s%lld B (bound %zu B), after "
		"remove %lld B, reinsert %+lld B\n",
		type == FI_AV_MAP ? "map" : "table", AV_N,
		(double)(t1 - t0) / 1e6, AV_N, (double)(t2 - t1) / 1e6,
		heap ? "" : "(not measured) ", heap ? (h1 - h0) / AV_N : 0,
		bound, heap ? h2 - h0 : 0, heap ? h3 - h1 : 0);
	if (heap) {
		ck_assert_int_le((h1 - h0) / (long long)AV_N,
				 (long long)bound);
		/* removal frees the NIC's peers */
		ck_assert_int_le(h2 - h0, (long long)(AV_N *
			(2 * sizeof(struct uet_av_entry) + 2 * MAP_ENTRY_BYTES +
			 2 * sizeof(void *))));
		ck_assert_int_le(h3 - h1, 4096);
	}

	ck_assert_int_eq(fi_close(&av->fid), 0);
	ck_assert_int_eq(fi_close(&dom->fid), 0);
	ck_assert_int_eq(fi_close(&fab->fid), 0);
	fi_freeinfo(info);
	free(addrs);
	free(fa);
	free(back);
	free(lens);
	free(rets);
}
END_TEST

/* ---- one hub, 256 peers ---- */

struct peer_dom {
	struct fid_domain *dom;
	struct fid_av *av;
	fi_addr_t hub[2];		/* hub A, hub B in this AV */
	bool has_hub[2];
};

struct peer_ep {
	struct peer_dom *pd;
	struct fid_ep *ep;
	struct fid_cq *cq;
	uint8_t name[64];
	size_t namelen;
	uint8_t rx[MSG_LEN], tx[MSG_LEN];
	bool got, sent;
};

struct hub {
	struct fid_domain *dom;
	struct fid_ep *ep;
	struct fid_cq *cq;
	struct fid_av *av;
	fi_addr_t *peer;		/* peer endpoint i in this AV */
	uint8_t name[64];
	size_t namelen;
	uint8_t (*tx)[MSG_LEN];
	uint8_t (*rx)[MSG_LEN];
};

struct world {
	struct fi_info *info;
	struct fid_fabric *fab;
	struct hub hub[2];
	unsigned int ndom, eps_per_dom;
	struct peer_dom *pd;
	struct peer_ep *pe;
};

static void cq_open(struct fid_domain *dom, struct fid_cq **cq)
{
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_TAGGED,
				  .size = 2 * PEERS + 16,
				  .wait_obj = FI_WAIT_NONE };

	ck_assert_int_eq(fi_cq_open(dom, &cqa, cq, NULL), 0);
}

static void ep_open(struct world *w, struct fid_domain *dom,
		    struct fid_av *av, struct fid_cq *cq, struct fid_ep **ep,
		    uint8_t *name, size_t *namelen)
{
	ck_assert_int_eq(fi_endpoint(dom, w->info, ep, NULL), 0);
	ck_assert_int_eq(fi_ep_bind(*ep, &cq->fid, FI_TRANSMIT | FI_RECV), 0);
	ck_assert_int_eq(fi_ep_bind(*ep, &av->fid, 0), 0);
	ck_assert_int_eq(fi_enable(*ep), 0);
	*namelen = 64;
	ck_assert_int_eq(fi_getname(&(*ep)->fid, name, namelen), 0);
}

static void hub_open(struct world *w, struct hub *h)
{
	struct fi_av_attr ava = { .type = FI_AV_TABLE, .count = PEERS };

	ck_assert_int_eq(fi_domain(w->fab, w->info, &h->dom, NULL), 0);
	cq_open(h->dom, &h->cq);
	ck_assert_int_eq(fi_av_open(h->dom, &ava, &h->av, NULL), 0);
	ep_open(w, h->dom, h->av, h->cq, &h->ep, h->name, &h->namelen);
	h->peer = calloc(PEERS, sizeof(*h->peer));
	h->tx = calloc(PEERS, MSG_LEN);
	h->rx = calloc(PEERS, MSG_LEN);
	ck_assert_ptr_nonnull(h->peer);
	ck_assert_ptr_nonnull(h->tx);
	ck_assert_ptr_nonnull(h->rx);
}

static void hub_close(struct hub *h)
{
	ck_assert_int_eq(fi_close(&h->ep->fid), 0);
	ck_assert_int_eq(fi_close(&h->av->fid), 0);
	ck_assert_int_eq(fi_close(&h->cq->fid), 0);
	ck_assert_int_eq(fi_close(&h->dom->fid), 0);
	free(h->peer);
	free(h->tx);
	free(h->rx);
}

/*
 * How many peer domains: one per peer endpoint when the descriptor limit
 * allows it (raised to the hard limit if needed), else fewer domains with
 * several endpoints each.  per_dom: descriptors one domain with one
 * endpoint takes (measured).
 */
static void hub_plan(struct world *w, unsigned int per_dom,
		     unsigned int per_ep)
{
	struct rlimit rl;
	rlim_t need, have;
	unsigned int used = open_fds();

	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	need = (rlim_t)used + (rlim_t)PEERS * per_dom + FD_SPARE;
	if (rl.rlim_cur < need) {
		rl.rlim_cur = rl.rlim_max < need ? rl.rlim_max : need;
		ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	}
	have = rl.rlim_cur;
	if (have >= need) {
		w->ndom = PEERS;
	} else {
		/* d domains, PEERS - d extra endpoints */
		ck_assert_uint_gt(per_dom, per_ep);
		ck_assert_uint_gt(have, used + FD_SPARE + PEERS * per_ep);
		w->ndom = (unsigned int)((have - used - FD_SPARE -
					  PEERS * per_ep) /
					 (per_dom - per_ep));
		ck_assert_uint_ge(w->ndom, 2);
		ck_assert_uint_lt(w->ndom, PEERS);
	}
	w->eps_per_dom = (PEERS + w->ndom - 1) / w->ndom;
	w->ndom = (PEERS + w->eps_per_dom - 1) / w->eps_per_dom;
	fprintf(stderr, "scale: descriptors: %u per domain, %u per extra "
		"endpoint, limit %llu: %u peer domains x %u endpoints\n",
		per_dom, per_ep, (unsigned long long)have, w->ndom,
		w->eps_per_dom);
}

static void world_open(struct world *w)
{
	struct fi_av_attr ava = { .type = FI_AV_TABLE, .count = 2 };
	unsigned int i, d, f0, f1, f2, f3;
	struct fid_cq *cq;
	long long h0;

	memset(w, 0, sizeof(*w));
	w->info = get_info();
	ck_assert_int_eq(uet_fabric(w->info->fabric_attr, &w->fab, NULL), 0);
	f0 = open_fds();
	hub_open(w, &w->hub[0]);
	f1 = open_fds();
	hub_open(w, &w->hub[1]);
	f2 = open_fds();
	ck_assert_uint_eq(f2 - f1, f1 - f0);
	/* a second endpoint on a domain costs what its CQ costs */
	cq_open(w->hub[0].dom, &cq);
	f3 = open_fds();
	ck_assert_int_eq(fi_close(&cq->fid), 0);
	hub_plan(w, f1 - f0, f3 - f2);
	w->pd = calloc(w->ndom, sizeof(*w->pd));
	w->pe = calloc(PEERS, sizeof(*w->pe));
	ck_assert_ptr_nonnull(w->pd);
	ck_assert_ptr_nonnull(w->pe);
	h0 = heap_used();
	for (d = 0; d < w->ndom; d++) {
		struct peer_dom *pd = &w->pd[d];

		ck_assert_int_eq(fi_domain(w->fab, w->info, &pd->dom, NULL),
				 0);
		ck_assert_int_eq(fi_av_open(pd->dom, &ava, &pd->av, NULL), 0);
	}
	for (i = 0; i < PEERS; i++) {
		struct peer_ep *pe = &w->pe[i];

		pe->pd = &w->pd[i / w->eps_per_dom];
		cq_open(pe->pd->dom, &pe->cq);
		ep_open(w, pe->pd->dom, pe->pd->av, pe->cq, &pe->ep, pe->name,
			&pe->namelen);
	}
	fprintf(stderr, "scale: %u peer endpoints open, %u descriptors, "
		"heap per peer domain (NIC, AV, endpoint, CQ) %lld KiB\n",
		PEERS, open_fds(),
		(heap_used() - h0) / (long long)w->ndom / 1024);
}

/* Hub h and the peer endpoints [lo, hi) learn each other's addresses
 * (the hub's AV indexes are the peer numbers). */
static void world_link(struct world *w, unsigned int h, unsigned int lo,
		       unsigned int hi)
{
	struct hub *hub = &w->hub[h];
	unsigned int i;
	fi_addr_t a;

	for (i = lo; i < hi; i++) {
		struct peer_ep *pe = &w->pe[i];

		ck_assert_int_eq(fi_av_insert(hub->av, pe->name, 1, &a, 0,
					      NULL), 1);
		ck_assert_uint_eq(a, i);
		hub->peer[i] = a;
		if (pe->pd->has_hub[h])
			continue;
		ck_assert_int_eq(fi_av_insert(pe->pd->av, hub->name, 1,
					      &pe->pd->hub[h], 0, NULL), 1);
		pe->pd->has_hub[h] = true;
	}
}

static void world_close(struct world *w)
{
	unsigned int i, d;

	for (i = 0; i < PEERS; i++) {
		ck_assert_int_eq(fi_close(&w->pe[i].ep->fid), 0);
		ck_assert_int_eq(fi_close(&w->pe[i].cq->fid), 0);
	}
	for (d = 0; d < w->ndom; d++) {
		ck_assert_int_eq(fi_close(&w->pd[d].av->fid), 0);
		ck_assert_int_eq(fi_close(&w->pd[d].dom->fid), 0);
	}
	for (i = 0; i < 2; i++)
		hub_close(&w->hub[i]);
	ck_assert_int_eq(fi_close(&w->fab->fid), 0);
	fi_freeinfo(w->info);
	free(w->pd);
	free(w->pe);
}

/* The payload of the message from -> to: its index, direction, round. */
static void pattern(uint8_t *b, unsigned int peer, unsigned int dir,
		    unsigned int round)
{
	unsigned int k;

	for (k = 0; k < MSG_LEN; k++)
		b[k] = (uint8_t)(peer * 7 + k * 13 + dir * 101 + round * 37);
	uet_put_be32(b, peer);
	b[4] = (uint8_t)dir;
	b[5] = (uint8_t)round;
}

/* Poll a peer's CQ: its receive (check it, reply) or its send. */
static void peer_poll(struct world *w, struct peer_ep *pe, unsigned int idx,
		      unsigned int h, unsigned int round)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	uint8_t want[MSG_LEN];
	ssize_t n;

	n = fi_cq_read(pe->cq, &e, 1);
	if (n == -FI_EAGAIN)
		return;
	if (n == -FI_EAVAIL) {
		memset(&err, 0, sizeof(err));
		fi_cq_readerr(pe->cq, &err, 0);
		ck_abort_msg("peer %u: error completion %d (%s)", idx,
			     err.err, fi_strerror(err.err));
	}
	ck_assert_int_eq(n, 1);
	if (e.flags & FI_RECV) {
		ck_assert(!pe->got);
		ck_assert_ptr_eq(e.op_context, pe->rx);
		ck_assert_uint_eq(e.len, MSG_LEN);
		pattern(want, idx, 0, round);
		ck_assert_msg(!memcmp(pe->rx, want, MSG_LEN),
			      "peer %u: wrong payload", idx);
		pe->got = true;
		pattern(pe->tx, idx, 1, round);
		ck_assert_int_eq(fi_send(pe->ep, pe->tx, MSG_LEN, NULL,
					 pe->pd->hub[h], pe->tx), 0);
	} else {
		ck_assert(e.flags & FI_SEND);
		ck_assert_ptr_eq(e.op_context, pe->tx);
		ck_assert(pe->got && !pe->sent);
		pe->sent = true;
	}
}

/*
 * Hub h sends one message to each peer endpoint in [lo, hi); each
 * replies; every payload, source and completion is checked.
 */
static void exchange(struct world *w, unsigned int h, unsigned int lo,
		     unsigned int hi, unsigned int round)
{
	struct hub *hub = &w->hub[h];
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	unsigned int i, n = hi - lo, rx = 0, tx = 0, pending;
	uint8_t want[MSG_LEN];
	uint8_t *seen = calloc(PEERS, 1);
	fi_addr_t src;
	uint64_t end;
	ssize_t r;

	ck_assert_ptr_nonnull(seen);
	for (i = lo; i < hi; i++) {
		w->pe[i].got = w->pe[i].sent = false;
		memset(w->pe[i].rx, 0, MSG_LEN);
		ck_assert_int_eq(fi_recv(w->pe[i].ep, w->pe[i].rx, MSG_LEN,
					 NULL, FI_ADDR_UNSPEC, w->pe[i].rx),
				 0);
		ck_assert_int_eq(fi_recv(hub->ep, hub->rx[i], MSG_LEN, NULL,
					 FI_ADDR_UNSPEC, hub->rx[i]), 0);
	}
	for (i = lo; i < hi; i++) {
		pattern(hub->tx[i], i, 0, round);
		ck_assert_int_eq(fi_send(hub->ep, hub->tx[i], MSG_LEN, NULL,
					 hub->peer[i], hub->tx[i]), 0);
	}
	end = uet_clock_now_ns() + ROUND_MS * UET_NSEC_PER_MSEC;
	do {
		for (i = lo; i < hi; i++)
			if (!w->pe[i].sent)
				peer_poll(w, &w->pe[i], i, h, round);
		while ((r = fi_cq_readfrom(hub->cq, &e, 1, &src)) == 1) {
			if (e.flags & FI_SEND) {
				tx++;
				continue;
			}
			ck_assert(e.flags & FI_RECV);
			ck_assert_uint_eq(e.len, MSG_LEN);
			i = uet_get_be32(e.buf);
			ck_assert_uint_ge(i, lo);
			ck_assert_uint_lt(i, hi);
			ck_assert(!seen[i]);
			seen[i] = 1;
			/* FI_SOURCE: the reverse map names the sender */
			ck_assert_uint_eq(src, hub->peer[i]);
			pattern(want, i, 1, round);
			ck_assert_msg(!memcmp(e.buf, want, MSG_LEN),
				      "hub: wrong payload from %u", i);
			rx++;
		}
		if (r == -FI_EAVAIL) {
			memset(&err, 0, sizeof(err));
			fi_cq_readerr(hub->cq, &err, 0);
			ck_abort_msg("hub: error completion %d (%s)", err.err,
				     fi_strerror(err.err));
		}
		ck_assert_int_eq(r, -FI_EAGAIN);
		pending = 0;
		for (i = lo; i < hi; i++)
			pending += !w->pe[i].sent;
	} while ((rx < n || tx < n || pending) && uet_clock_now_ns() < end);
	ck_assert_msg(rx == n && tx == n && !pending,
		      "round %u: hub got %u of %u replies, %u of %u send "
		      "completions; %u peers not done", round, rx, n, tx, n,
		      pending);
	free(seen);
}

/* Mean time of one progress call of a hub (an empty fi_cq_read). */
static double progress_us(struct hub *h)
{
	struct fi_cq_tagged_entry e;
	uint64_t t0;
	unsigned int k;

	t0 = uet_clock_now_ns();
	for (k = 0; k < 1000; k++)
		(void)fi_cq_read(h->cq, &e, 1);
	return (double)(uet_clock_now_ns() - t0) / 1000 / 1e3;
}

START_TEST(test_hub_256_peers)
{
	struct uet_snic_stats st;
	struct uet_snic_dev *dev;
	struct world w;
	struct uet_pds_cfg pc;
	double p0, p1;
	long long h0, h1;
	uint64_t t0, t1, t2, t3;
	size_t bound, pdcs, routes, txs, rxs;
	unsigned int half = PEERS / 2;
	bool heap;

	print_sizes();
	uet_pds_cfg_default(&pc);
	/* The heap is measured in the main thread's arena: the standby
	 * thread (which progresses the peers this test leaves idle for
	 * longer than FI_UET_STANDBY_MS) allocates and frees in its own,
	 * which moves the figure by about 100 B per peer from run to run. */
	setenv("FI_UET_STANDBY_MS", "0", 1);
	t0 = uet_clock_now_ns();
	world_open(&w);
	heap = heap_measurable();
	t1 = uet_clock_now_ns();
	/* Hub A warms every peer's NIC (its pools); hub B the first half
	 * (its own pools, for half the peers in flight at once). */
	p0 = progress_us(&w.hub[1]);
	world_link(&w, 0, 0, PEERS);
	exchange(&w, 0, 0, PEERS, 0);
	world_link(&w, 1, 0, half);
	exchange(&w, 1, 0, half, 1);
	t2 = uet_clock_now_ns();
	/* Measured: hub B meets the other half, both sides' new state
	 * (addresses, NIC peers, PDCs, routes, streams). */
	h0 = heap_used();
	world_link(&w, 1, half, PEERS);
	exchange(&w, 1, half, PEERS, 2);
	h1 = heap_used();
	t3 = uet_clock_now_ns();
	p1 = progress_us(&w.hub[1]);

	/* The NIC's counts: at most a fixed number per peer. */
	dev = snic_of(w.hub[1].dom);
	uet_snic_get_stats(&dev->pub, &st);
	pdcs = st.pds.pdc_opened - st.pds.pdc_closed;
	pthread_mutex_lock(&dev->lock);
	routes = uet_hashmap_count(&dev->ses->routes);
	txs = uet_hashmap_count(&dev->ses->tx_streams);
	rxs = uet_hashmap_count(&dev->ses->rx_streams);
	pthread_mutex_unlock(&dev->lock);
	bound = 2 * scale_peer_bound(pc.window);
	fprintf(stderr, "scale: hub: %u peers, %zu PDCs, %zu routes, %zu "
		"sender streams, %zu target streams, %zu NIC peers\n", PEERS,
		pdcs, routes, txs, rxs, uet_hashmap_count(&dev->peer_map));
	fprintf(stderr, "scale: heap per peer (both sides) %s%lld B, bound "
		"%zu B\n", heap ? "" : "(not measured) ",
		heap ? (h1 - h0) / (long long)half : 0, bound);
	fprintf(stderr, "scale: open %.0f ms, rounds %u+%u peers %.0f ms, "
		"%u peers %.0f ms\n", (double)(t1 - t0) / 1e6, PEERS, half,
		(double)(t2 - t1) / 1e6, half, (double)(t3 - t2) / 1e6);
	fprintf(stderr, "scale: hub progress call (nothing to do): %.2f us "
		"without PDCs, %.2f us with %zu\n", p0, p1, pdcs);
	ck_assert_uint_eq(st.ses.msgs_tx, PEERS);
	ck_assert_uint_eq(st.ses.msgs_rx, PEERS);
	ck_assert_uint_eq(uet_hashmap_count(&dev->peer_map),
			  w.ndom < PEERS ? w.ndom : PEERS);
	ck_assert_uint_ge(pdcs, w.ndom);
	ck_assert_uint_le(pdcs, 2 * w.ndom);
	ck_assert_uint_le(routes, 2 * w.ndom + 1);
	ck_assert_uint_le(txs, PEERS);
	ck_assert_uint_le(rxs, PEERS);
	/* Pools grow in chunks and a chunk's worth may land in the
	 * measured half or not, by timing (seen: 15257 to 15497 B a peer
	 * on one build, the same before and after issue 29's changes):
	 * 1% of slack for that, the bound itself is exact. */
	if (heap)
		ck_assert_int_le((h1 - h0) / (long long)half,
				 (long long)(bound + bound / 100));
	world_close(&w);
}
END_TEST

static Suite *prov_scale_suite(void)
{
	Suite *s = suite_create("prov_scale");
	TCase *tc = tcase_create("scale");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_av_1000, 0, 2);
	tcase_add_test(tc, test_hub_256_peers);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(prov_scale_suite)
