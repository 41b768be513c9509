/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * In-memory test fabric; see uet_link_mem.h for the contract.
 *
 * Each datagram in flight is a struct uet_link_mem_dgram (from one pool)
 * plus a data buffer from the smallest size class (256 << k bytes) that
 * holds it.  The bytes of all data buffers not yet given back -- queued,
 * held for reordering, or returned by the last recv() and not yet
 * released -- are charged against UET_LINK_MEM_INFLIGHT_MAX; send()
 * accepts fewer datagrams once that is reached.  Memory is therefore
 * bounded whatever the test does, and pools never shrink nor malloc again
 * once they hold the working set.
 *
 * Every link keeps its datagrams in one list sorted by delivery time;
 * equal times keep insertion order, so with no delay variation delivery
 * is in send order.  Send-time decisions, in this order, per datagram:
 *
 *   index faults    drop / corrupt the datagram with this send index;
 *   drop            rate drop_ppm;
 *   corrupt         rate corrupt_ppm: one uniformly chosen bit flipped;
 *   delay           delay_ns + uniform 0..jitter_ns;
 *   reorder         rate reorder_ppm: the datagram is held back (at most
 *                   one per destination link); the next datagram for
 *                   that link, from any sender, is queued first and the
 *                   held one right behind it (delivery time raised to
 *                   the overtaking one's if needed).  A datagram that
 *                   overtakes is not itself held, so 100% gives pairwise
 *                   swaps.  A held datagram nobody overtakes is
 *                   released on its own max(delay_ns,
 *                   UET_LINK_MEM_HOLD_MIN_NS) after its delivery time;
 *   duplicate       rate dup_ppm: a second copy of the bytes as sent
 *                   (corruption included) with delivery time 1 ns +
 *                   uniform 0..jitter_ns after the original's.  Skipped
 *                   without error when the in-flight bound is reached.
 *
 * The PRNG (xorshift64*) is drawn only for faults whose rate is non-zero,
 * so a run is a function of the seed, the fault settings and the calls.
 *
 * Counters: sent counts datagrams accepted by send(); dropped counts
 * fault drops, datagrams for an address with no link, and datagrams
 * discarded when their link closes.  At every moment
 *	sent + duplicated == delivered + dropped + queued.
 *
 * A datagram refused because the in-flight bound is reached consumes no
 * send index and no PRNG draw.
 *
 * Thread safety: a mutex per fabric covers every call, so links of one
 * fabric may be used from different threads (one thread per link: the
 * buffers returned by recv() stay valid until that link's next recv()).
 * The fabric must outlive concurrent calls: destroy it once no other
 * thread uses it or its links.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "uet_bufpool.h"
#include "uet_link_mem.h"
#include "uet_list.h"
#include "uet_rand.h"

/* Bytes of datagram buffers a fabric may hold at once. */
#define UET_LINK_MEM_INFLIGHT_MAX	(8u << 20)
/* Smallest data buffer, and the number of size classes (256 .. 64 KiB). */
#define UET_LINK_MEM_CLASS_SHIFT	8
#define UET_LINK_MEM_NCLASS		9
/* Largest datagram a fabric carries (the largest size class). */
#define UET_LINK_MEM_MTU_MAX	\
	((size_t)1 << (UET_LINK_MEM_CLASS_SHIFT + UET_LINK_MEM_NCLASS - 1))
/* Bytes per pool chunk (a chunk holds at least one buffer). */
#define UET_LINK_MEM_CHUNK_BYTES	(256u << 10)
/* Shortest time a reordered datagram waits for someone to overtake it. */
#define UET_LINK_MEM_HOLD_MIN_NS	10000ull
/* Where uet_link_mem_open(port 0) starts looking for a free port. */
#define UET_LINK_MEM_EPHEMERAL		49152u
#define UET_LINK_MEM_PPM		1000000u

struct uet_link_mem_dgram {
	struct uet_dlist entry;		/* queue, or rx_done after recv() */
	uint64_t deliver_ns;
	uint8_t *data;
	size_t len;
	uint16_t src_port;
	uint16_t entropy;		/* recorded from uet_link_pkt */
	uint8_t cls;			/* size class of data */
};

/* A small set of send indices (faults by index). */
struct uet_link_mem_idxset {
	uint64_t *v;
	size_t n;
	size_t cap;
};

struct uet_link_mem_fabric {
	pthread_mutex_t lock;		/* covers everything below */
	uint64_t now_ns;
	uint64_t rng;
	uint64_t next_index;		/* fabric-wide send index */
	size_t mtu;
	size_t inflight_bytes;		/* data buffer bytes charged */
	size_t inflight_max;
	struct uet_link_mem_faults faults;
	struct uet_link_mem_stats stats;
	struct uet_link_mem_idxset drop_idx;
	struct uet_link_mem_idxset corrupt_idx;
	struct uet_dlist links;
	unsigned int nclass;
	struct uet_bufpool dgram_pool;
	struct uet_bufpool data_pool[UET_LINK_MEM_NCLASS];
};

struct uet_link_mem {
	struct uet_link base;
	struct uet_link_mem_fabric *fab;	/* NULL after fabric_destroy */
	struct uet_dlist fab_entry;
	uint16_t port;
	size_t mtu;			/* the fabric's: what send() takes */
	size_t base_mtu;		/* what mtu() says (set_base_mtu) */
	struct uet_dlist queue;		/* sorted by deliver_ns, stable */
	struct uet_link_mem_dgram *held;	/* held back for reordering */
	uint64_t held_release_ns;
	struct uet_dlist rx_done;	/* returned by the last recv() */
	struct uet_link_errq errq;	/* faults.unreach_reports */
};

static const struct uet_link_ops uet_link_mem_ops;

static inline struct uet_link_mem *uet_link_mem_of(struct uet_link *link)
{
	return uet_container_of(link, struct uet_link_mem, base);
}

/* The lock is not part of the fabric's logical state: const getters
 * take it too. */
static void uet_link_mem_lock(const struct uet_link_mem_fabric *fab)
{
	pthread_mutex_lock((pthread_mutex_t *)(uintptr_t)&fab->lock);
}

static void uet_link_mem_unlock(const struct uet_link_mem_fabric *fab)
{
	pthread_mutex_unlock((pthread_mutex_t *)(uintptr_t)&fab->lock);
}

/* ---- PRNG ---- */

static uint64_t uet_link_mem_rand(struct uet_link_mem_fabric *fab)
{
	return uet_rand_next(&fab->rng);
}

/* True with probability ppm / 10^6; draws only for 0 < ppm < 10^6. */
static bool uet_link_mem_chance(struct uet_link_mem_fabric *fab, uint32_t ppm)
{
	if (ppm == 0)
		return false;
	if (ppm >= UET_LINK_MEM_PPM)
		return true;
	return uet_link_mem_rand(fab) % UET_LINK_MEM_PPM < ppm;
}

/* Uniform in [0, max]; draws only for max > 0. */
static uint64_t uet_link_mem_upto(struct uet_link_mem_fabric *fab,
				  uint64_t max)
{
	if (max == 0)
		return 0;
	if (max == UINT64_MAX)
		return uet_link_mem_rand(fab);
	return uet_link_mem_rand(fab) % (max + 1);
}

static uint64_t uet_link_mem_add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* ---- index sets ---- */

static int uet_link_mem_idxset_add(struct uet_link_mem_idxset *s,
				   uint64_t index)
{
	uint64_t *v;
	size_t i, cap;

	for (i = 0; i < s->n; i++)
		if (s->v[i] == index)
			return 0;
	if (s->n == s->cap) {
		cap = s->cap ? s->cap * 2 : 8;
		v = realloc(s->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = index;
	return 0;
}

/* Remove index from the set; true when it was there. */
static bool uet_link_mem_idxset_take(struct uet_link_mem_idxset *s,
				     uint64_t index)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (s->v[i] == index) {
			s->v[i] = s->v[--s->n];
			return true;
		}
	}
	return false;
}

/* ---- datagram buffers ---- */

static size_t uet_link_mem_class_size(unsigned int cls)
{
	return (size_t)1 << (UET_LINK_MEM_CLASS_SHIFT + cls);
}

static unsigned int uet_link_mem_class_of(size_t len)
{
	unsigned int cls = 0;

	while (uet_link_mem_class_size(cls) < len)
		cls++;
	return cls;
}

/* A datagram with room for len bytes, or NULL (in-flight bound, ENOMEM). */
static struct uet_link_mem_dgram *
uet_link_mem_dgram_get(struct uet_link_mem_fabric *fab, size_t len)
{
	unsigned int cls = uet_link_mem_class_of(len);
	size_t size = uet_link_mem_class_size(cls);
	struct uet_link_mem_dgram *d;

	if (fab->inflight_bytes + size > fab->inflight_max)
		return NULL;
	d = uet_bufpool_get(&fab->dgram_pool);
	if (!d)
		return NULL;
	d->data = uet_bufpool_get(&fab->data_pool[cls]);
	if (!d->data) {
		uet_bufpool_put(&fab->dgram_pool, d);
		return NULL;
	}
	uet_dlist_init(&d->entry);
	d->cls = (uint8_t)cls;
	d->len = len;
	fab->inflight_bytes += size;
	return d;
}

static void uet_link_mem_dgram_put(struct uet_link_mem_fabric *fab,
				   struct uet_link_mem_dgram *d)
{
	fab->inflight_bytes -= uet_link_mem_class_size(d->cls);
	uet_bufpool_put(&fab->data_pool[d->cls], d->data);
	uet_bufpool_put(&fab->dgram_pool, d);
}

/* ---- per-link queues ---- */

/* Insert after every datagram due at or before d (stable in time). */
static void uet_link_mem_insert(struct uet_link_mem *lm,
				struct uet_link_mem_dgram *d)
{
	struct uet_dlist *pos = lm->queue.prev;

	while (pos != &lm->queue &&
	       uet_dlist_entry(pos, struct uet_link_mem_dgram, entry)
			->deliver_ns > d->deliver_ns)
		pos = pos->prev;
	uet_dlist_insert_after(pos, &d->entry);
}

/* Release the held datagram once nobody overtook it in time. */
static void uet_link_mem_release_expired(struct uet_link_mem *lm)
{
	struct uet_link_mem_dgram *h = lm->held;

	if (!h || lm->fab->now_ns < lm->held_release_ns)
		return;
	lm->held = NULL;
	h->deliver_ns = lm->held_release_ns;
	uet_link_mem_insert(lm, h);
}

/* Queue a freshly sent datagram, applying the reorder fault. */
static void uet_link_mem_enqueue(struct uet_link_mem *lm,
				 struct uet_link_mem_dgram *d)
{
	struct uet_link_mem_fabric *fab = lm->fab;
	struct uet_link_mem_dgram *h;

	uet_link_mem_release_expired(lm);
	h = lm->held;
	if (h) {
		/* d overtakes the held datagram. */
		lm->held = NULL;
		uet_link_mem_insert(lm, d);
		if (h->deliver_ns < d->deliver_ns)
			h->deliver_ns = d->deliver_ns;
		uet_link_mem_insert(lm, h);
		return;
	}
	if (uet_link_mem_chance(fab, fab->faults.reorder_ppm)) {
		lm->held = d;
		lm->held_release_ns = uet_link_mem_add_sat(d->deliver_ns,
			fab->faults.delay_ns > UET_LINK_MEM_HOLD_MIN_NS ?
			fab->faults.delay_ns : UET_LINK_MEM_HOLD_MIN_NS);
		fab->stats.reordered++;
		return;
	}
	uet_link_mem_insert(lm, d);
}

static void uet_link_mem_free_rx_done(struct uet_link_mem *lm)
{
	struct uet_link_mem_dgram *d;

	uet_dlist_foreach_entry_safe(&lm->rx_done, d, entry) {
		uet_dlist_remove(&d->entry);
		uet_link_mem_dgram_put(lm->fab, d);
	}
}

/* Give back every buffer of the link; undelivered datagrams are dropped. */
static void uet_link_mem_flush(struct uet_link_mem *lm)
{
	struct uet_link_mem_fabric *fab = lm->fab;
	struct uet_link_mem_dgram *d;

	uet_link_mem_free_rx_done(lm);
	if (lm->held) {
		uet_dlist_insert_tail(&lm->queue, &lm->held->entry);
		lm->held = NULL;
	}
	uet_dlist_foreach_entry_safe(&lm->queue, d, entry) {
		uet_dlist_remove(&d->entry);
		uet_link_mem_dgram_put(fab, d);
		fab->stats.queued--;
		fab->stats.dropped++;
	}
}

static struct uet_link_mem *
uet_link_mem_find(struct uet_link_mem_fabric *fab, uint16_t port)
{
	struct uet_link_mem *lm;

	uet_dlist_foreach_entry(&fab->links, lm, fab_entry)
		if (lm->port == port)
			return lm;
	return NULL;
}

/* The link a fabric address names, or NULL. */
static struct uet_link_mem *
uet_link_mem_lookup(struct uet_link_mem_fabric *fab,
		    const struct uet_link_addr *addr)
{
	struct sockaddr_in sin;

	if (addr->ss.ss_family != AF_INET || addr->len < sizeof(sin))
		return NULL;
	memcpy(&sin, &addr->ss, sizeof(sin));
	if (sin.sin_addr.s_addr != htonl(INADDR_LOOPBACK))
		return NULL;
	return uet_link_mem_find(fab, ntohs(sin.sin_port));
}

/* Datagram length, or -EMSGSIZE / -EINVAL. */
static ssize_t uet_link_mem_pkt_len(const struct uet_link_pkt *pkt,
				    size_t mtu)
{
	size_t len = 0;
	unsigned int i;

	if (!pkt->dst || pkt->iovcnt > UET_LINK_MAX_IOV)
		return -EINVAL;
	for (i = 0; i < pkt->iovcnt; i++) {
		if (pkt->iov[i].iov_len && !pkt->iov[i].iov_base)
			return -EINVAL;
		if (pkt->iov[i].iov_len > mtu - len)
			return -EMSGSIZE;
		len += pkt->iov[i].iov_len;
	}
	return (ssize_t)len;
}

static void uet_link_mem_copy_in(uint8_t *dst, const struct uet_link_pkt *pkt)
{
	unsigned int i;

	for (i = 0; i < pkt->iovcnt; i++) {
		if (!pkt->iov[i].iov_len)
			continue;
		memcpy(dst, pkt->iov[i].iov_base, pkt->iov[i].iov_len);
		dst += pkt->iov[i].iov_len;
	}
}

/* Send one datagram of len bytes; false when the in-flight bound is hit. */
static bool uet_link_mem_send_one(struct uet_link_mem *src,
				  const struct uet_link_pkt *pkt, size_t len)
{
	struct uet_link_mem_fabric *fab = src->fab;
	const struct uet_link_mem_faults *f = &fab->faults;
	struct uet_link_mem_dgram *d, *dup;
	struct uet_link_mem *dst;
	bool drop, corrupt;
	uint64_t index, bit;

	d = uet_link_mem_dgram_get(fab, len);
	if (!d)
		return false;
	index = fab->next_index++;
	fab->stats.sent++;

	dst = uet_link_mem_lookup(fab, pkt->dst);
	drop = uet_link_mem_idxset_take(&fab->drop_idx, index);
	corrupt = uet_link_mem_idxset_take(&fab->corrupt_idx, index);
	if (!dst && f->unreach_reports)
		uet_link_errq_push(&src->errq, pkt->dst, ECONNREFUSED, false);
	if (!dst || drop || uet_link_mem_chance(fab, f->drop_ppm)) {
		uet_link_mem_dgram_put(fab, d);
		fab->stats.dropped++;
		return true;
	}

	uet_link_mem_copy_in(d->data, pkt);
	d->src_port = src->port;
	d->entropy = pkt->entropy;
	if (uet_link_mem_chance(fab, f->corrupt_ppm))
		corrupt = true;
	if (corrupt && len) {
		bit = uet_link_mem_rand(fab) % ((uint64_t)len * 8);
		d->data[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		fab->stats.corrupted++;
	}
	d->deliver_ns = uet_link_mem_add_sat(fab->now_ns, f->delay_ns);
	d->deliver_ns = uet_link_mem_add_sat(d->deliver_ns,
		uet_link_mem_upto(fab, f->jitter_ns));
	fab->stats.queued++;

	/* Decide on the copy before queueing: d may be held back. */
	dup = NULL;
	if (uet_link_mem_chance(fab, f->dup_ppm)) {
		dup = uet_link_mem_dgram_get(fab, len);
		if (dup) {
			memcpy(dup->data, d->data, len);
			dup->src_port = d->src_port;
			dup->entropy = d->entropy;
			dup->deliver_ns = uet_link_mem_add_sat(d->deliver_ns,
				uet_link_mem_add_sat(1,
					uet_link_mem_upto(fab, f->jitter_ns)));
		}
	}
	uet_link_mem_enqueue(dst, d);
	if (dup) {
		uet_link_mem_insert(dst, dup);
		fab->stats.duplicated++;
		fab->stats.queued++;
	}
	return true;
}

static int uet_link_mem_send(struct uet_link *link,
			     const struct uet_link_pkt *pkts, unsigned int n)
{
	struct uet_link_mem *lm = uet_link_mem_of(link);
	ssize_t len = 0;
	unsigned int i;
	int ret;

	if (!lm->fab)
		return -ENOTCONN;
	if (n && !pkts)
		return -EINVAL;
	uet_link_mem_lock(lm->fab);
	for (i = 0; i < n; i++) {
		len = uet_link_mem_pkt_len(&pkts[i], lm->mtu);
		if (len < 0)
			break;
		if (!uet_link_mem_send_one(lm, &pkts[i], (size_t)len))
			break;
	}
	uet_link_mem_unlock(lm->fab);
	ret = (int)i;
	if (i == 0 && n > 0 && len < 0)
		ret = (int)len;
	return ret;
}

static int uet_link_mem_recv(struct uet_link *link, struct uet_link_rx *rx,
			     unsigned int n)
{
	struct uet_link_mem *lm = uet_link_mem_of(link);
	struct uet_link_mem_fabric *fab = lm->fab;
	struct uet_link_mem_dgram *d;
	struct sockaddr_in sin;
	unsigned int i;

	if (!fab)
		return -ENOTCONN;
	if (n && !rx)
		return -EINVAL;
	uet_link_mem_lock(fab);
	uet_link_mem_free_rx_done(lm);
	uet_link_mem_release_expired(lm);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	for (i = 0; i < n; i++) {
		d = uet_dlist_first_entry(&lm->queue,
					  struct uet_link_mem_dgram, entry);
		if (!d || d->deliver_ns > fab->now_ns)
			break;
		uet_dlist_remove(&d->entry);
		uet_dlist_insert_tail(&lm->rx_done, &d->entry);
		rx[i].buf = d->data;
		rx[i].len = d->len;
		sin.sin_port = htons(d->src_port);
		memset(&rx[i].src, 0, sizeof(rx[i].src));
		memcpy(&rx[i].src.ss, &sin, sizeof(sin));
		rx[i].src.len = sizeof(sin);
		fab->stats.queued--;
		fab->stats.delivered++;
	}
	uet_link_mem_unlock(fab);
	return (int)i;
}

static int uet_link_mem_fd(struct uet_link *link)
{
	return -1;
}

static size_t uet_link_mem_mtu(struct uet_link *link)
{
	return uet_link_mem_of(link)->base_mtu;
}

/* Every destination is reached over the fabric's MTU. */
static size_t uet_link_mem_path_mtu(struct uet_link *link,
				    const struct uet_link_addr *dst)
{
	(void)dst;
	return uet_link_mem_of(link)->mtu;
}

int uet_link_mem_set_base_mtu(struct uet_link *link, size_t mtu)
{
	struct uet_link_mem *lm;

	if (!link || link->ops != &uet_link_mem_ops)
		return -EINVAL;
	lm = uet_link_mem_of(link);
	if (!mtu || mtu > lm->mtu)
		return -EINVAL;
	lm->base_mtu = mtu;
	return 0;
}

static int uet_link_mem_local_addr(struct uet_link *link,
				   struct uet_link_addr *addr)
{
	struct uet_link_mem *lm = uet_link_mem_of(link);
	struct sockaddr_in sin;

	if (!addr)
		return -EINVAL;
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = htons(lm->port);
	memset(addr, 0, sizeof(*addr));
	memcpy(&addr->ss, &sin, sizeof(sin));
	addr->len = sizeof(sin);
	return 0;
}

static void uet_link_mem_close(struct uet_link *link)
{
	struct uet_link_mem *lm;

	if (!link)
		return;
	lm = uet_link_mem_of(link);
	if (lm->fab) {
		uet_link_mem_lock(lm->fab);
		uet_link_mem_flush(lm);
		uet_dlist_remove(&lm->fab_entry);
		uet_link_mem_unlock(lm->fab);
	}
	free(lm);
}

static unsigned int uet_link_mem_errors(struct uet_link *link,
					struct uet_link_err *ev, unsigned int n)
{
	struct uet_link_mem *lm = uet_link_mem_of(link);
	unsigned int k;

	if (!lm->fab)
		return uet_link_errq_pop(&lm->errq, ev, n);
	uet_link_mem_lock(lm->fab);
	k = uet_link_errq_pop(&lm->errq, ev, n);
	uet_link_mem_unlock(lm->fab);
	return k;
}

static const struct uet_link_ops uet_link_mem_ops = {
	.errors = uet_link_mem_errors,
	.send = uet_link_mem_send,
	.recv = uet_link_mem_recv,
	.fd = uet_link_mem_fd,
	.mtu = uet_link_mem_mtu,
	.path_mtu = uet_link_mem_path_mtu,
	.local_addr = uet_link_mem_local_addr,
	.close = uet_link_mem_close,
	.rx_writable = true,
};

/* ---- fabric ---- */

int uet_link_mem_fabric_create(struct uet_link_mem_fabric **fabp,
			       uint64_t seed, size_t mtu)
{
	struct uet_bufpool_attr attr;
	struct uet_link_mem_fabric *fab;
	unsigned int cls;
	size_t size;
	int ret;

	if (!fabp || mtu == 0 || mtu > UET_LINK_MEM_MTU_MAX)
		return -EINVAL;
	fab = calloc(1, sizeof(*fab));
	if (!fab)
		return -ENOMEM;
	fab->rng = seed ? seed : 0x9e3779b97f4a7c15ull;
	fab->mtu = mtu;
	fab->inflight_max = UET_LINK_MEM_INFLIGHT_MAX;
	uet_dlist_init(&fab->links);
	ret = -pthread_mutex_init(&fab->lock, NULL);
	if (ret)
		goto err_free_fab;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(struct uet_link_mem_dgram);
	attr.chunk_count = 256;
	ret = uet_bufpool_init(&fab->dgram_pool, &attr);
	if (ret)
		goto err_destroy_lock;

	fab->nclass = uet_link_mem_class_of(mtu) + 1;
	for (cls = 0; cls < fab->nclass; cls++) {
		size = uet_link_mem_class_size(cls);
		memset(&attr, 0, sizeof(attr));
		attr.size = size;
		attr.chunk_count = size < UET_LINK_MEM_CHUNK_BYTES ?
				   UET_LINK_MEM_CHUNK_BYTES / size : 1;
		ret = uet_bufpool_init(&fab->data_pool[cls], &attr);
		if (ret)
			goto err_destroy_pools;
	}
	*fabp = fab;
	return 0;

err_destroy_pools:
	while (cls--)
		uet_bufpool_destroy(&fab->data_pool[cls]);
	uet_bufpool_destroy(&fab->dgram_pool);
err_destroy_lock:
	pthread_mutex_destroy(&fab->lock);
err_free_fab:
	free(fab);
	return ret;
}

void uet_link_mem_fabric_destroy(struct uet_link_mem_fabric *fab)
{
	struct uet_link_mem *lm;
	unsigned int cls;

	if (!fab)
		return;
	/* Links still open stay valid for close() only. */
	uet_dlist_foreach_entry_safe(&fab->links, lm, fab_entry) {
		uet_link_mem_flush(lm);
		uet_dlist_remove(&lm->fab_entry);
		lm->fab = NULL;
	}
	for (cls = 0; cls < fab->nclass; cls++)
		uet_bufpool_destroy(&fab->data_pool[cls]);
	uet_bufpool_destroy(&fab->dgram_pool);
	free(fab->drop_idx.v);
	free(fab->corrupt_idx.v);
	pthread_mutex_destroy(&fab->lock);
	free(fab);
}

void uet_link_mem_fabric_set_time(struct uet_link_mem_fabric *fab,
				  uint64_t now_ns)
{
	uet_link_mem_lock(fab);
	fab->now_ns = now_ns;
	uet_link_mem_unlock(fab);
}

void uet_link_mem_fabric_set_faults(struct uet_link_mem_fabric *fab,
				    const struct uet_link_mem_faults *f)
{
	uet_link_mem_lock(fab);
	if (f)
		fab->faults = *f;
	else
		memset(&fab->faults, 0, sizeof(fab->faults));
	uet_link_mem_unlock(fab);
}

static int uet_link_mem_index_fault(struct uet_link_mem_fabric *fab,
				    struct uet_link_mem_idxset *set,
				    uint64_t index)
{
	int ret = -EINVAL;	/* already sent */

	uet_link_mem_lock(fab);
	if (index >= fab->next_index)
		ret = uet_link_mem_idxset_add(set, index);
	uet_link_mem_unlock(fab);
	return ret;
}

int uet_link_mem_fabric_drop_index(struct uet_link_mem_fabric *fab,
				   uint64_t index)
{
	return uet_link_mem_index_fault(fab, &fab->drop_idx, index);
}

int uet_link_mem_fabric_corrupt_index(struct uet_link_mem_fabric *fab,
				      uint64_t index)
{
	return uet_link_mem_index_fault(fab, &fab->corrupt_idx, index);
}

void uet_link_mem_fabric_get_stats(const struct uet_link_mem_fabric *fab,
				   struct uet_link_mem_stats *st)
{
	uet_link_mem_lock(fab);
	*st = fab->stats;
	uet_link_mem_unlock(fab);
}

uint64_t uet_link_mem_fabric_next_delivery(
	const struct uet_link_mem_fabric *fab)
{
	const struct uet_link_mem_dgram *d;
	const struct uet_link_mem *lm;
	uint64_t next = UINT64_MAX;

	uet_link_mem_lock(fab);
	uet_dlist_foreach_entry(&fab->links, lm, fab_entry) {
		d = uet_dlist_first_entry(&lm->queue,
					  struct uet_link_mem_dgram, entry);
		if (d && d->deliver_ns < next)
			next = d->deliver_ns;
		if (lm->held && lm->held_release_ns < next)
			next = lm->held_release_ns;
	}
	uet_link_mem_unlock(fab);
	return next;
}

/* The port asked for, or for port 0 the first free one from 49152 up
 * (wrapping to 1). */
static int uet_link_mem_pick_port(struct uet_link_mem_fabric *fab,
				  uint16_t *port)
{
	uint16_t p;
	unsigned int i;

	if (*port)
		return uet_link_mem_find(fab, *port) ? -EADDRINUSE : 0;
	for (i = 0; i < UINT16_MAX; i++) {
		p = (uint16_t)((UET_LINK_MEM_EPHEMERAL - 1 + i) % UINT16_MAX +
			       1);
		if (!uet_link_mem_find(fab, p)) {
			*port = p;
			return 0;
		}
	}
	return -EADDRINUSE;
}

int uet_link_mem_open(struct uet_link_mem_fabric *fab, uint16_t port,
		      struct uet_link **link)
{
	struct uet_link_mem *lm;
	int ret;

	if (!fab || !link)
		return -EINVAL;
	lm = calloc(1, sizeof(*lm));
	if (!lm)
		return -ENOMEM;
	lm->base.ops = &uet_link_mem_ops;
	lm->fab = fab;
	lm->mtu = fab->mtu;
	lm->base_mtu = fab->mtu;
	uet_dlist_init(&lm->queue);
	uet_dlist_init(&lm->rx_done);

	uet_link_mem_lock(fab);
	ret = uet_link_mem_pick_port(fab, &port);
	if (!ret) {
		lm->port = port;
		uet_dlist_insert_tail(&fab->links, &lm->fab_entry);
	}
	uet_link_mem_unlock(fab);
	if (ret) {
		free(lm);
		return ret;
	}
	*link = &lm->base;
	return 0;
}
