/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The TSS link (uet_tss.h): protects what the NIC sends, authenticates
 * and decrypts what it receives, and drops (counting the cause) whatever
 * does not authenticate, replays and, in mode required, unprotected
 * datagrams, before PDS sees them.
 *
 * send: datagrams are sealed into a transmit arena (packed, one iovec
 * per datagram) in chunks of about TSS_TX_CHUNK bytes, and each chunk
 * goes to the inner link as soon as it is sealed: the arena stays in the
 * cache, the peer starts opening the first chunk while the next one is
 * sealed, and a run of equal datagrams to one destination within a chunk
 * stays a run of equal datagrams (UDP GSO still applies; a GSO send
 * carries at most 64 KiB anyway).  A datagram the inner link does not
 * accept has used its sequence number; PDS sends it again later under a
 * new one.
 *
 * recv: up to TSS_BATCH datagrams per inner call.  (Asking for fewer, so
 * that PDS sees a burst's first datagrams sooner, was measured: more
 * progress rounds, ACKs and system calls per MiB cost more CPU than it
 * saved, 1.2 -> 1.9 ms of CPU per MiB.)  When the inner link's receive
 * buffers are writable (rx_writable: UDP, the in-memory link) each
 * datagram is opened in place and passed on in that buffer; otherwise
 * into a receive arena (valid until the next recv, as the link contract
 * says).  Unprotected datagrams accepted in mode "on" are passed on in
 * the inner link's buffer.
 *
 * peers: what the link knows of each address it talks to (uet_tss.h,
 * "Instances"): the SCI of the instance there (learned only from
 * datagrams that were fresh for us), when it last spoke TSS (mode on
 * drops its plaintext), the datagrams held for it while its SCI is not
 * known.  Entries are made by our own sends and by fresh datagrams only,
 * at most max_peers (least recently used goes), forgotten peer_ttl_ns
 * after their last use.  Announcements answering datagrams that were not
 * fresh are limited per address through a small fixed table (no entry is
 * made for their senders).
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "uet_byteorder.h"
#include "uet_clock.h"
#include "uet_hashmap.h"
#include "uet_list.h"
#include "uet_log.h"
#include "uet_pds_wire.h"
#include "uet_tss_internal.h"
#include "uet_tss_wire.h"

/* Datagrams per inner send / recv call. */
#define TSS_BATCH		64u
/* Sealed bytes per inner send call (at least one datagram). */
#define TSS_TX_CHUNK		(64u * 1024u)
/* recv() rounds that found only dropped datagrams before returning 0. */
#define TSS_RECV_ROUNDS		4
/* Context table key: address bytes then SCI (be32). */
#define TSS_CTX_KEY_LEN		(UET_TSS_ADDR_LEN + 4)
/* Associated data: the clear bytes, then the destination address. */
#define TSS_AAD_FULL		(UET_TSS_AAD_LEN + UET_TSS_ADDR_LEN)
/* Slots of the table that limits answering announcements (by address). */
#define TSS_ANN_SLOTS		64u
/* tss_open_one(): an announcement, taken in (neither delivered nor a
 * drop). */
#define TSS_CONSUMED		(-(1 + UET_TSS_DROP_N))

_Static_assert(UET_TSS_AAD_LEN ==
	       UET_PDS_PROLOGUE_LEN + UET_TSS_HDR_LEN + UET_TSS_DCI_LEN,
	       "TSS clear bytes");
_Static_assert(UET_TSS_HOLD_PKTS <= TSS_BATCH, "held datagrams: one batch");

struct tss_ctx {
	struct uet_hnode node;
	uint8_t key[TSS_CTX_KEY_LEN];
	struct uet_tss_aead aead;
	struct uet_tss_replay win;
	uint64_t last_use;
};

/* Datagrams (plaintext) held for a peer whose SCI is not known yet. */
struct tss_hold {
	unsigned int n;
	size_t used;
	size_t len[UET_TSS_HOLD_PKTS];
	uint16_t entropy[UET_TSS_HOLD_PKTS];
	uint8_t buf[UET_TSS_HOLD_BYTES];
};

struct tss_peer {
	struct uet_hnode node;
	uint8_t key[UET_TSS_ADDR_LEN];	/* uet_tss_addr_bytes */
	struct uet_link_addr addr;
	uint32_t sci;			/* its instance, 0: not known */
	uint64_t fresh_ns;		/* last fresh datagram from it, 0 */
	uint64_t used_ns;		/* that, or our last send to it */
	uint64_t hello_ns;		/* our last announcement with DCI 0 */
	struct tss_hold *hold;
};

struct tss_ann_slot {
	uint8_t addr[UET_TSS_ADDR_LEN];
	uint64_t at_ns;			/* 0: free */
};

struct tss_link {
	struct uet_link pub;
	struct uet_link *inner;
	bool own_inner;
	uint8_t mode;
	uint32_t job_id;
	uint8_t secret[UET_TSS_SECRET_LEN];
	uint8_t local[UET_TSS_ADDR_LEN];
	uint32_t rekey_seq;
	unsigned int max_ctx;

	/* transmit */
	struct uet_tss_aead tx;
	uint32_t tx_sci;
	uint32_t prev_sci;		/* before the last rekey (still ours) */
	uint32_t tx_seq;		/* next sequence number */
	unsigned int fork_gen;		/* tss_fork_gen when tx_sci was drawn */
	uint8_t *tx_arena;
	size_t tx_cap;
	struct uet_link_pkt tx_pkts[TSS_BATCH];
	uint8_t tx_dst[TSS_BATCH][UET_TSS_ADDR_LEN];
	uint32_t tx_dci[TSS_BATCH];

	/* peers */
	struct uet_hashmap peers;
	struct uet_hashmap_memo peer_memo;
	unsigned int max_peers;
	uint64_t peer_ttl_ns;
	unsigned int nhold;		/* peers with held datagrams */
	struct tss_ann_slot ann[TSS_ANN_SLOTS];

	/* receive */
	struct uet_hashmap ctxs;
	uint64_t use_clock;
	uint8_t *rx_arena;
	size_t rx_cap;
	struct uet_link_rx rx_in[TSS_BATCH];

	struct uet_tss_stats st;
	struct uet_log_rl rl[UET_TSS_DROP_N];
};

static const char *const tss_drop_names[UET_TSS_DROP_N] = {
	[UET_TSS_DROP_MALFORMED] = "tss_malformed",
	[UET_TSS_DROP_AUTH] = "tss_auth",
	[UET_TSS_DROP_UNPROTECTED] = "tss_unprotected",
	[UET_TSS_DROP_REPLAY] = "tss_replay",
	[UET_TSS_DROP_OLD] = "tss_old",
	[UET_TSS_DROP_STALE] = "tss_stale",
	[UET_TSS_DROP_DOWNGRADE] = "tss_downgrade",
};

const char *uet_tss_drop_name(unsigned int cause)
{
	return cause < UET_TSS_DROP_N ? tss_drop_names[cause] : NULL;
}

static const struct uet_link_ops tss_link_ops;

static inline struct tss_link *tss_of(struct uet_link *link)
{
	return uet_container_of(link, struct tss_link, pub);
}

bool uet_tss_link_is(const struct uet_link *link)
{
	return link && link->ops == &tss_link_ops;
}

struct uet_link *uet_tss_link_inner(struct uet_link *link)
{
	return uet_tss_link_is(link) ? tss_of(link)->inner : NULL;
}

int uet_tss_link_get_stats(struct uet_link *link, struct uet_tss_stats *st)
{
	struct tss_link *tl;

	if (!uet_tss_link_is(link) || !st)
		return -EINVAL;
	tl = tss_of(link);
	*st = tl->st;
	st->mode = tl->mode;
	st->tx_sci = tl->tx_sci;
	st->tx_seq = tl->tx_seq;
	return 0;
}

static void tss_drop(struct tss_link *tl, unsigned int cause,
		     const struct uet_link_addr *src, uint64_t now)
{
	char a[64];
	uint64_t n;

	tl->st.drops[cause]++;
	if (!uet_log_rl(&tl->rl[cause], now, &n))
		return;
	if (uet_link_addr_to_str(src, a, sizeof(a)))
		strcpy(a, "?");
	UET_WARN(UET_LOG_EP_DATA, "TSS: dropped %llu datagram(s) (%s), "
		 "last from %s\n", (unsigned long long)n,
		 tss_drop_names[cause], a);
}

/* ---- nonce, header ---- */

static void tss_nonce(uint8_t nonce[UET_TSS_NONCE_LEN], uint32_t sci,
		      uint32_t seq)
{
	uint8_t *p = uet_put_be32(nonce, sci);

	p = uet_put_be32(p, 0);
	uet_put_be32(p, seq);
}

/* The clear bytes of a protected datagram: prologue, TSS header, DCI. */
static void tss_write_hdr(uint8_t *p, uint32_t sci, uint32_t seq,
			  uint32_t dci, unsigned int flags)
{
	struct uet_pds_prologue pro = { .type = UET_PDS_TYPE_TSS };
	struct uet_tss_hdr h = {
		.tss_type = UET_TSS_TYPE_AES256_GCM,
		.tss_flags = (uint8_t)(UET_TSS_FLAG_DCI | flags),
		.security_context_id = sci,
		.sequence_number = seq,
	};
	ssize_t r;

	r = uet_pds_prologue_encode(p, UET_PDS_PROLOGUE_LEN, &pro);
	(void)r;
	p += UET_PDS_PROLOGUE_LEN;
	r = uet_tss_hdr_encode(p, UET_TSS_HDR_LEN, &h);
	(void)r;
	r = uet_tss_dci_encode(p + UET_TSS_HDR_LEN, UET_TSS_DCI_LEN, dci);
	(void)r;
}

/* The associated data: the clear bytes and the destination address. */
static void tss_aad(uint8_t aad[TSS_AAD_FULL], const uint8_t *clear,
		    const uint8_t dst[UET_TSS_ADDR_LEN])
{
	memcpy(aad, clear, UET_TSS_AAD_LEN);
	memcpy(aad + UET_TSS_AAD_LEN, dst, UET_TSS_ADDR_LEN);
}

/* Is dci this instance (its SCI, or the one before its last rekey)? */
static bool tss_is_ours(const struct tss_link *tl, uint32_t dci)
{
	return dci && (dci == tl->tx_sci || dci == tl->prev_sci);
}

/* ---- fork: a child draws its own SCI before it seals anything ---- */

static atomic_uint tss_fork_gen;
static pthread_once_t tss_atfork_once = PTHREAD_ONCE_INIT;

static void tss_atfork_child(void)
{
	atomic_fetch_add_explicit(&tss_fork_gen, 1, memory_order_relaxed);
}

static void tss_atfork_init(void)
{
	/* Unregistered by libc when the object holding it is unloaded. */
	(void)pthread_atfork(NULL, NULL, tss_atfork_child);
}

static unsigned int tss_fork_gen_now(void)
{
	return atomic_load_explicit(&tss_fork_gen, memory_order_relaxed);
}

/* ---- transmit ---- */

static int tss_tx_key(struct tss_link *tl, uint32_t sci)
{
	uint8_t key[UET_TSS_KEY_LEN];
	int ret;

	ret = uet_tss_derive_key(tl->secret, tl->job_id, sci, tl->local, key);
	if (!ret) {
		uet_tss_aead_fini(&tl->tx);
		ret = uet_tss_aead_init(&tl->tx, key, 1);
	}
	uet_tss_wipe(key, sizeof(key));
	if (ret)
		return ret;
	tl->tx_sci = sci;
	return 0;
}

/* A new SCI (and key) before the sequence number runs out. */
static int tss_rekey(struct tss_link *tl)
{
	uint32_t old = tl->tx_sci;
	uint32_t sci = old + 1 ? old + 1 : 1;
	int ret = tss_tx_key(tl, sci);

	if (ret)
		return ret;
	tl->prev_sci = old;
	tl->tx_seq = 1;
	tl->st.rekeys++;
	UET_INFO(UET_LOG_EP_DATA, "TSS: rekeyed, security context %#x\n",
		 sci);
	return 0;
}

/* A random SCI for a new instance: not 0, not avoid. */
static int tss_draw_sci(uint32_t avoid, uint32_t *sci)
{
	int ret;

	do {
		ret = uet_tss_random(sci, sizeof(*sci));
		if (ret)
			return ret;
	} while (!*sci || *sci == avoid);
	return 0;
}

/*
 * In a child after fork(): the parent goes on with its SCI, key and
 * sequence numbers, so the child becomes a new instance (a new SCI, so a
 * new key) before it seals anything.  The datagrams peers send to the
 * parent's SCI are not for it.
 */
static int tss_fork_check(struct tss_link *tl)
{
	unsigned int gen = tss_fork_gen_now();
	uint32_t sci;
	int ret;

	if (gen == tl->fork_gen)
		return 0;
	ret = tss_draw_sci(tl->tx_sci, &sci);
	if (!ret)
		ret = tss_tx_key(tl, sci);
	if (ret)
		return ret;
	tl->prev_sci = 0;
	tl->tx_seq = 1;
	tl->fork_gen = gen;
	tl->st.forks++;
	return 0;
}

static int tss_arena_reserve(uint8_t **arena, size_t *cap, size_t need)
{
	uint8_t *p;

	if (need <= *cap)
		return 0;
	p = realloc(*arena, need);
	if (!p)
		return -ENOMEM;
	*arena = p;
	*cap = need;
	return 0;
}

static size_t tss_pkt_len(const struct uet_link_pkt *pkt)
{
	size_t len = 0;
	unsigned int i;

	for (i = 0; i < pkt->iovcnt && i < UET_LINK_MAX_IOV; i++)
		len += pkt->iov[i].iov_len;
	return len;
}

/* Seal one datagram: the plaintext iov (len bytes) for the instance dci
 * at dst (address bytes) into out (len + UET_TSS_OVERHEAD bytes).  The
 * sequence number is used whatever happens.  0 or a negative errno. */
static int tss_seal_one(struct tss_link *tl, uint8_t *out,
			const struct iovec *iov, unsigned int iovcnt,
			size_t len, const uint8_t dst[UET_TSS_ADDR_LEN],
			uint32_t dci, unsigned int flags)
{
	uint8_t nonce[UET_TSS_NONCE_LEN], aad[TSS_AAD_FULL];
	int ret;

	if (tl->tx_seq > tl->rekey_seq || tl->tx_seq == 0) {
		ret = tss_rekey(tl);
		if (ret)
			return ret;
	}
	tss_write_hdr(out, tl->tx_sci, tl->tx_seq, dci, flags);
	tss_aad(aad, out, dst);
	tss_nonce(nonce, tl->tx_sci, tl->tx_seq);
	ret = uet_tss_aead_seal(&tl->tx, nonce, aad, sizeof(aad), iov, iovcnt,
				out + UET_TSS_AAD_LEN,
				out + UET_TSS_AAD_LEN + len);
	tl->tx_seq++;
	return ret;
}

/* ---- peers ---- */

static void tss_hold_free(struct tss_link *tl, struct tss_peer *pe)
{
	if (!pe->hold)
		return;
	tl->st.held_dropped += pe->hold->n;
	uet_tss_wipe(pe->hold->buf, pe->hold->used);
	free(pe->hold);
	pe->hold = NULL;
	tl->nhold--;
}

static void tss_peer_free(struct tss_link *tl, struct tss_peer *pe)
{
	uet_hashmap_memo_forget(&tl->peer_memo, &pe->node);
	uet_hashmap_remove(&tl->peers, &pe->node);
	tss_hold_free(tl, pe);
	free(pe);
}

/* The entry of the address key, NULL when there is none; one unused for
 * peer_ttl_ns is forgotten first (as if new). */
static struct tss_peer *tss_peer_find(struct tss_link *tl,
				      const uint8_t key[UET_TSS_ADDR_LEN],
				      uint64_t now)
{
	struct uet_hnode *n;
	struct tss_peer *pe;

	n = uet_hashmap_memo_lookup(&tl->peer_memo, &tl->peers, key);
	if (!n)
		return NULL;
	pe = uet_container_of(n, struct tss_peer, node);
	if (now > pe->used_ns && now - pe->used_ns > tl->peer_ttl_ns) {
		pe->sci = 0;
		pe->fresh_ns = 0;
		pe->hello_ns = 0;
		tss_hold_free(tl, pe);
		pe->used_ns = now;
	}
	return pe;
}

/* The node of map whose use stamp (a uint64_t use_off bytes after the
 * node in its entry) is the lowest: the least recently used; NULL when
 * the map is empty. */
static struct uet_hnode *tss_lru_oldest(const struct uet_hashmap *map,
					size_t use_off)
{
	struct uet_hnode *n, *old = NULL;
	struct uet_hashmap_iter it;
	uint64_t use, old_use = 0;

	uet_hashmap_foreach(map, &it, n) {
		memcpy(&use, (const uint8_t *)n + use_off, sizeof(use));
		if (!old || use < old_use) {
			old = n;
			old_use = use;
		}
	}
	return old;
}

/* Make room for one more peer: the least recently used one goes. */
static void tss_peer_evict(struct tss_link *tl)
{
	struct uet_hnode *n = tss_lru_oldest(&tl->peers,
		offsetof(struct tss_peer, used_ns) -
		offsetof(struct tss_peer, node));

	if (!n)
		return;
	tss_peer_free(tl, uet_container_of(n, struct tss_peer, node));
	tl->st.peers_evicted++;
}

/* The entry of the address key (a), made when there is none; NULL
 * without memory. */
static struct tss_peer *tss_peer_get(struct tss_link *tl,
				     const uint8_t key[UET_TSS_ADDR_LEN],
				     const struct uet_link_addr *a,
				     uint64_t now)
{
	struct tss_peer *pe = tss_peer_find(tl, key, now);

	if (pe)
		return pe;
	if (uet_hashmap_count(&tl->peers) >= tl->max_peers)
		tss_peer_evict(tl);
	pe = calloc(1, sizeof(*pe));
	if (!pe)
		return NULL;
	memcpy(pe->key, key, UET_TSS_ADDR_LEN);
	pe->addr = *a;
	pe->used_ns = now;
	if (uet_hashmap_insert_bytes(&tl->peers, &pe->node, pe->key)) {
		free(pe);
		return NULL;
	}
	return pe;
}

static int tss_send_known(struct tss_link *tl, const struct uet_link_pkt *pkts,
			  unsigned int n, uint64_t now);

/* The peer's SCI is known: seal and send what was held for it (taken
 * off the peer first, so nothing below can reach it). */
static void tss_hold_flush(struct tss_link *tl, struct tss_peer *pe,
			   uint64_t now)
{
	struct uet_link_pkt pk[UET_TSS_HOLD_PKTS];
	struct tss_hold *h = pe->hold;
	unsigned int i, sent = 0;
	size_t off = 0;
	int r;

	pe->hold = NULL;
	tl->nhold--;
	for (i = 0; i < h->n; i++) {
		pk[i] = (struct uet_link_pkt){
			.dst = &pe->addr,
			.entropy = h->entropy[i],
			.iovcnt = 1,
			.iov[0] = { .iov_base = h->buf + off,
				    .iov_len = h->len[i] },
		};
		off += h->len[i];
	}
	r = tss_send_known(tl, pk, h->n, now);
	if (r > 0)
		sent = (unsigned int)r;
	tl->st.held_sent += sent;
	tl->st.held_dropped += h->n - sent;
	uet_tss_wipe(h->buf, h->used);
	free(h);
}

/* A datagram that was fresh for us came from key (src) with SCI sci: that
 * instance is there now and knows us. */
static void tss_peer_learn(struct tss_link *tl,
			   const uint8_t key[UET_TSS_ADDR_LEN],
			   const struct uet_link_addr *src, uint32_t sci,
			   uint64_t now)
{
	struct tss_peer *pe = tss_peer_get(tl, key, src, now);

	if (!pe)
		return;
	if (pe->sci != sci) {
		pe->sci = sci;
		tl->st.peers_learned++;
	}
	pe->fresh_ns = now ? now : 1;
	pe->used_ns = now;
	if (pe->hold)
		tss_hold_flush(tl, pe, now);
}

int uet_tss_link_learn_peer(struct uet_link *link,
			    const struct uet_link_addr *addr, uint32_t sci)
{
	uint8_t key[UET_TSS_ADDR_LEN];
	uint64_t now = uet_clock_now_ns();
	struct tss_link *tl;
	struct tss_peer *pe;

	if (!uet_tss_link_is(link) || !addr || !sci ||
	    uet_tss_addr_bytes(addr, key))
		return -EINVAL;
	tl = tss_of(link);
	pe = tss_peer_get(tl, key, addr, now);
	if (!pe)
		return -ENOMEM;
	/* Its SCI only: whether it spoke TSS is for its datagrams to say. */
	pe->sci = sci;
	pe->used_ns = now;
	if (pe->hold)
		tss_hold_flush(tl, pe, now);
	return 0;
}

/* FNV-1a of an address, for the announcement slots. */
static unsigned int tss_addr_hash(const uint8_t key[UET_TSS_ADDR_LEN])
{
	uint32_t h = 2166136261u;
	unsigned int i;

	for (i = 0; i < UET_TSS_ADDR_LEN; i++)
		h = (h ^ key[i]) * 16777619u;
	return h;
}

/* Tell the instance at a (address bytes key) our SCI in an announcement
 * naming dci (0: we do not know it).  Answers (dci not 0) go to an
 * address at most once per UET_TSS_ANNOUNCE_GAP_NS. */
static void tss_announce(struct tss_link *tl, const struct uet_link_addr *a,
			 const uint8_t key[UET_TSS_ADDR_LEN], uint32_t dci,
			 uint64_t now)
{
	struct tss_ann_slot *slot =
		&tl->ann[tss_addr_hash(key) % TSS_ANN_SLOTS];
	uint8_t buf[UET_TSS_OVERHEAD];
	struct uet_link_pkt pkt = {
		.dst = a, .iovcnt = 1,
		.iov[0] = { .iov_base = buf, .iov_len = sizeof(buf) },
	};

	if (dci) {
		if (slot->at_ns && now - slot->at_ns < UET_TSS_ANNOUNCE_GAP_NS &&
		    !memcmp(slot->addr, key, UET_TSS_ADDR_LEN)) {
			tl->st.announce_limited++;
			return;
		}
		memcpy(slot->addr, key, UET_TSS_ADDR_LEN);
		slot->at_ns = now ? now : 1;
	}
	if (tss_seal_one(tl, buf, NULL, 0, 0, key, dci,
			 UET_TSS_FLAG_ANNOUNCE))
		return;
	if (tl->inner->ops->send(tl->inner, &pkt, 1) == 1)
		tl->st.announce_tx++;
}

/* pkt is for an address whose instance we do not know: hold it, and ask
 * (at most once per UET_TSS_ANNOUNCE_GAP_NS). */
static void tss_hold(struct tss_link *tl, const struct uet_link_pkt *pkt,
		     const uint8_t key[UET_TSS_ADDR_LEN], uint64_t now)
{
	struct tss_peer *pe = tss_peer_get(tl, key, pkt->dst, now);
	size_t len = tss_pkt_len(pkt), off;
	struct tss_hold *h;
	unsigned int i;

	if (!pe) {
		tl->st.held_dropped++;
		return;
	}
	h = pe->hold;
	if (!h && tl->nhold < UET_TSS_HOLD_PEERS) {
		h = malloc(sizeof(*h));
		if (h) {
			h->n = 0;
			h->used = 0;
			pe->hold = h;
			tl->nhold++;
		}
	}
	if (h && h->n < UET_TSS_HOLD_PKTS &&
	    len <= UET_TSS_HOLD_BYTES - h->used) {
		for (off = h->used, i = 0; i < pkt->iovcnt; i++) {
			memcpy(h->buf + off, pkt->iov[i].iov_base,
			       pkt->iov[i].iov_len);
			off += pkt->iov[i].iov_len;
		}
		h->len[h->n] = len;
		h->entropy[h->n] = pkt->entropy;
		h->n++;
		h->used += len;
		tl->st.held++;
	} else {
		tl->st.held_dropped++;
	}
	if (!pe->hello_ns || now - pe->hello_ns >= UET_TSS_ANNOUNCE_GAP_NS) {
		pe->hello_ns = now ? now : 1;
		tss_announce(tl, pkt->dst, key, 0, now);
	}
}

/* ---- transmit ---- */

/* Seal up to TSS_BATCH datagrams, TSS_TX_CHUNK bytes (at least one), for
 * peers whose SCI is known; returns how many (the prefix that fits the
 * MTU and the chunk and goes to known peers: 0 when the first one's peer
 * is not known) or a negative errno. */
static int tss_seal_batch(struct tss_link *tl, const struct uet_link_pkt *pkts,
			  unsigned int n, uint64_t now)
{
	size_t mtu = tl->inner->ops->mtu(tl->inner);
	size_t need = 0, len, off = 0;
	struct tss_peer *pe = NULL;
	unsigned int i, m;
	uint8_t *p;
	int ret;

	for (m = 0; m < n; m++) {
		len = tss_pkt_len(&pkts[m]);
		if (pkts[m].iovcnt > UET_LINK_MAX_IOV ||
		    len > mtu || mtu - len < UET_TSS_OVERHEAD) {
			if (!m)
				return -EMSGSIZE;
			break;
		}
		if (m && need + len + UET_TSS_OVERHEAD > TSS_TX_CHUNK)
			break;
		if (m && pkts[m].dst == pkts[m - 1].dst) {
			memcpy(tl->tx_dst[m], tl->tx_dst[m - 1],
			       UET_TSS_ADDR_LEN);
		} else {
			if (uet_tss_addr_bytes(pkts[m].dst, tl->tx_dst[m]))
				return m ? (int)m : -EINVAL;
			pe = tss_peer_find(tl, tl->tx_dst[m], now);
			if (!pe || !pe->sci)
				break;
			pe->used_ns = now;
		}
		tl->tx_dci[m] = pe->sci;
		need += len + UET_TSS_OVERHEAD;
	}
	if (m == 0)
		return 0;
	ret = tss_arena_reserve(&tl->tx_arena, &tl->tx_cap, need);
	if (ret)
		return ret;
	for (i = 0; i < m; i++) {
		len = tss_pkt_len(&pkts[i]);
		p = tl->tx_arena + off;
		ret = tss_seal_one(tl, p, pkts[i].iov, pkts[i].iovcnt, len,
				   tl->tx_dst[i], tl->tx_dci[i], 0);
		if (ret)
			return i ? (int)i : ret;
		tl->tx_pkts[i] = (struct uet_link_pkt){
			.dst = pkts[i].dst,
			.entropy = pkts[i].entropy,
			.sprayed = pkts[i].sprayed,
			.iovcnt = 1,
			.iov[0] = { .iov_base = p,
				    .iov_len = len + UET_TSS_OVERHEAD },
		};
		off += len + UET_TSS_OVERHEAD;
	}
	return (int)m;
}

/* Send datagrams; those for a peer whose SCI is not known are held. */
static int tss_send_known(struct tss_link *tl, const struct uet_link_pkt *pkts,
			  unsigned int n, uint64_t now)
{
	uint8_t key[UET_TSS_ADDR_LEN];
	unsigned int done = 0, chunk;
	int m, r;

	while (done < n) {
		chunk = n - done < TSS_BATCH ? n - done : TSS_BATCH;
		m = tss_seal_batch(tl, pkts + done, chunk, now);
		if (m == 0) {
			if (uet_tss_addr_bytes(pkts[done].dst, key))
				return done ? (int)done : -EINVAL;
			tss_hold(tl, &pkts[done], key, now);
			done++;
			continue;
		}
		if (m < 0)
			return done ? (int)done : m;
		r = tl->inner->ops->send(tl->inner, tl->tx_pkts,
					 (unsigned int)m);
		if (r < 0)
			return done ? (int)done : r;
		tl->st.tx_pkts += (unsigned int)r;
		done += (unsigned int)r;
		if (r < m)
			break;
	}
	return (int)done;
}

static int tss_send(struct uet_link *link, const struct uet_link_pkt *pkts,
		    unsigned int n)
{
	struct tss_link *tl = tss_of(link);
	int ret = tss_fork_check(tl);

	if (ret)
		return ret;
	return tss_send_known(tl, pkts, n, uet_clock_now_ns());
}

/* ---- receive ---- */

static void tss_ctx_free(struct tss_ctx *c)
{
	uet_tss_aead_fini(&c->aead);
	free(c);
}

/* Make room for one more context: the least recently used one goes. */
static void tss_ctx_evict(struct tss_link *tl)
{
	struct uet_hnode *n = tss_lru_oldest(&tl->ctxs,
		offsetof(struct tss_ctx, last_use) -
		offsetof(struct tss_ctx, node));

	if (!n)
		return;
	uet_hashmap_remove(&tl->ctxs, n);
	tss_ctx_free(uet_container_of(n, struct tss_ctx, node));
	tl->st.ctx_evicted++;
}

/* A context for key that nobody authenticated yet (not in the table). */
static struct tss_ctx *tss_ctx_new(struct tss_link *tl,
				   const uint8_t key[TSS_CTX_KEY_LEN],
				   uint32_t sci)
{
	uint8_t pk[UET_TSS_KEY_LEN];
	struct tss_ctx *c = calloc(1, sizeof(*c));
	int ret;

	if (!c)
		return NULL;
	memcpy(c->key, key, TSS_CTX_KEY_LEN);
	ret = uet_tss_derive_key(tl->secret, tl->job_id, sci, key, pk);
	if (!ret)
		ret = uet_tss_aead_init(&c->aead, pk, 0);
	uet_tss_wipe(pk, sizeof(pk));
	if (ret) {
		free(c);
		return NULL;
	}
	return c;
}

/* Open one protected datagram into out (out may be in->buf +
 * UET_TSS_AAD_LEN: in place).  Returns the plaintext length, TSS_CONSUMED
 * for an announcement, or -(1 + cause) when it is dropped. */
static ssize_t tss_open_one(struct tss_link *tl, const struct uet_link_rx *in,
			    uint8_t *out, uint64_t now)
{
	uint8_t key[TSS_CTX_KEY_LEN], nonce[UET_TSS_NONCE_LEN];
	uint8_t aad[TSS_AAD_FULL];
	struct uet_pds_prologue pro;
	struct uet_hnode *n;
	struct uet_tss_hdr h;
	struct tss_ctx *c;
	bool announce;
	uint32_t dci;
	size_t len;
	int ret;

	if (in->len < UET_TSS_OVERHEAD ||
	    uet_pds_prologue_decode(&pro, in->buf, in->len) < 0 ||
	    pro.next_hdr || pro.flags ||
	    uet_tss_hdr_decode(&h, in->buf + UET_PDS_PROLOGUE_LEN,
			       in->len - UET_PDS_PROLOGUE_LEN) < 0 ||
	    h.tss_type != UET_TSS_TYPE_AES256_GCM ||
	    (h.tss_flags & ~UET_TSS_FLAG_ANNOUNCE) != UET_TSS_FLAG_DCI ||
	    uet_tss_dci_decode(&dci, in->buf + UET_PDS_PROLOGUE_LEN +
			       UET_TSS_HDR_LEN, UET_TSS_DCI_LEN) < 0)
		return -(1 + UET_TSS_DROP_MALFORMED);
	announce = h.tss_flags & UET_TSS_FLAG_ANNOUNCE;
	if (announce && in->len != UET_TSS_OVERHEAD)
		return -(1 + UET_TSS_DROP_MALFORMED);
	if (uet_tss_addr_bytes(&in->src, key))
		return -(1 + UET_TSS_DROP_MALFORMED);
	uet_put_be32(key + UET_TSS_ADDR_LEN, h.security_context_id);
	len = in->len - UET_TSS_OVERHEAD;
	tss_nonce(nonce, h.security_context_id, h.sequence_number);
	tss_aad(aad, in->buf, tl->local);

	n = uet_hashmap_lookup_bytes(&tl->ctxs, key);
	if (n) {
		c = uet_container_of(n, struct tss_ctx, node);
		ret = uet_tss_replay_check(&c->win, h.sequence_number);
		if (ret)
			return -(1 + ret);
		if (uet_tss_aead_open(&c->aead, nonce, aad, sizeof(aad),
				      in->buf + UET_TSS_AAD_LEN, len, out,
				      in->buf + UET_TSS_AAD_LEN + len))
			return -(1 + UET_TSS_DROP_AUTH);
	} else {
		if (h.sequence_number == 0)
			return -(1 + UET_TSS_DROP_OLD);
		c = tss_ctx_new(tl, key, h.security_context_id);
		if (!c)	/* no memory: as if it had not arrived */
			return -(1 + UET_TSS_DROP_AUTH);
		if (uet_tss_aead_open(&c->aead, nonce, aad, sizeof(aad),
				      in->buf + UET_TSS_AAD_LEN, len, out,
				      in->buf + UET_TSS_AAD_LEN + len)) {
			tss_ctx_free(c);
			return -(1 + UET_TSS_DROP_AUTH);
		}
		if (uet_hashmap_count(&tl->ctxs) >= tl->max_ctx)
			tss_ctx_evict(tl);
		if (uet_hashmap_insert_bytes(&tl->ctxs, &c->node, c->key)) {
			tss_ctx_free(c);
			return -(1 + UET_TSS_DROP_AUTH);
		}
		tl->st.ctx_new++;
	}
	uet_tss_replay_accept(&c->win, h.sequence_number);
	c->last_use = ++tl->use_clock;

	/* Authentic.  For this instance: its sender is there now. */
	if (tss_is_ours(tl, dci)) {
		tss_peer_learn(tl, key, &in->src, h.security_context_id, now);
		if (!announce)
			return (ssize_t)len;
		tl->st.announce_rx++;
		return TSS_CONSUMED;
	}
	/* Its sender does not know us (DCI 0), or it is for an instance of
	 * this address that is gone (a capture from before a restart or a
	 * fork): nothing of it is delivered or remembered beyond the replay
	 * window; the sender is told who is here. */
	tss_announce(tl, &in->src, key, h.security_context_id, now);
	if (announce && !dci) {
		tl->st.announce_rx++;
		return TSS_CONSUMED;
	}
	return -(1 + UET_TSS_DROP_STALE);
}

static bool tss_is_protected(const struct uet_link_rx *in)
{
	return uet_pds_peek_type(in->buf, in->len) == UET_PDS_TYPE_TSS;
}

/* Mode on: did the sender of this unprotected datagram speak TSS (a
 * datagram fresh for us) within the last peer_ttl_ns? */
static bool tss_spoke_tss(struct tss_link *tl, const struct uet_link_rx *in,
			  uint64_t now)
{
	uint8_t key[UET_TSS_ADDR_LEN];
	struct tss_peer *pe;

	if (uet_tss_addr_bytes(&in->src, key))
		return false;
	pe = tss_peer_find(tl, key, now);
	return pe && pe->fresh_ns && now - pe->fresh_ns < tl->peer_ttl_ns;
}

static int tss_recv(struct uet_link *link, struct uet_link_rx *rx,
		    unsigned int n)
{
	struct tss_link *tl = tss_of(link);
	bool in_place = tl->inner->ops->rx_writable;
	unsigned int i, m, out = 0, want;
	size_t need, off = 0;
	uint64_t now;
	uint8_t *dst;
	ssize_t len;
	int r, round;

	r = tss_fork_check(tl);
	if (r)
		return r;
	now = uet_clock_now_ns();
	want = n < TSS_BATCH ? n : TSS_BATCH;
	for (round = 0; round < TSS_RECV_ROUNDS && out == 0; round++) {
		r = tl->inner->ops->recv(tl->inner, tl->rx_in, want);
		if (r <= 0)
			return r;
		m = (unsigned int)r;
		if (!in_place) {
			for (need = 0, i = 0; i < m; i++)
				need += tl->rx_in[i].len;
			if (tss_arena_reserve(&tl->rx_arena, &tl->rx_cap,
					      need))
				return -ENOMEM;
		}
		off = 0;
		for (i = 0; i < m; i++) {
			const struct uet_link_rx *in = &tl->rx_in[i];

			if (!tss_is_protected(in)) {
				if (tl->mode == UET_TSS_REQUIRED) {
					tss_drop(tl, UET_TSS_DROP_UNPROTECTED,
						 &in->src, now);
					continue;
				}
				if (tss_spoke_tss(tl, in, now)) {
					tss_drop(tl, UET_TSS_DROP_DOWNGRADE,
						 &in->src, now);
					continue;
				}
				tl->st.rx_plain++;
				rx[out++] = *in;
				continue;
			}
			/* The inner link lets us write its buffer: the
			 * plaintext replaces the ciphertext.  A datagram too
			 * short for that is malformed (tss_open_one). */
			if (!in_place)
				dst = tl->rx_arena + off;
			else if (in->len >= UET_TSS_OVERHEAD)
				dst = (uint8_t *)(uintptr_t)in->buf +
				      UET_TSS_AAD_LEN;
			else
				dst = NULL;	/* not written */
			len = tss_open_one(tl, in, dst, now);
			if (len == TSS_CONSUMED)
				continue;
			if (len < 0) {
				tss_drop(tl, (unsigned int)(-len - 1),
					 &in->src, now);
				continue;
			}
			tl->st.rx_pkts++;
			if (in_place)
				tl->st.rx_in_place++;
			rx[out] = (struct uet_link_rx){
				.buf = dst,
				.len = (size_t)len,
				.src = in->src,
				.tos = in->tos,
			};
			out++;
			if (!in_place)
				off += (size_t)len;
		}
		if (m < want)
			break;
	}
	return (int)out;
}

/* ---- the rest of the link ops ---- */

/*
 * No multipath under TSS: packet keys are derived from the sender's
 * address and port (uet_tss_addr_bytes), so a datagram sprayed from an
 * entropy socket's port would not authenticate.  0 entropies: PDS sends
 * every packet from the NIC's own port.
 */
static unsigned int tss_entropies(struct uet_link *link, uint16_t *ports,
				  unsigned int n)
{
	(void)link;
	(void)ports;
	(void)n;
	return 0;
}

static int tss_fd(struct uet_link *link)
{
	struct tss_link *tl = tss_of(link);

	return tl->inner->ops->fd(tl->inner);
}

static size_t tss_mtu(struct uet_link *link)
{
	struct tss_link *tl = tss_of(link);
	size_t m = tl->inner->ops->mtu(tl->inner);

	return m > UET_TSS_OVERHEAD ? m - UET_TSS_OVERHEAD : 0;
}

static int tss_local_addr(struct uet_link *link, struct uet_link_addr *a)
{
	struct tss_link *tl = tss_of(link);

	return tl->inner->ops->local_addr(tl->inner, a);
}

static unsigned int tss_errors(struct uet_link *link,
			       struct uet_link_err *ev, unsigned int n)
{
	struct tss_link *tl = tss_of(link);

	return tl->inner->ops->errors ?
	       tl->inner->ops->errors(tl->inner, ev, n) : 0;
}

static void tss_free(struct tss_link *tl)
{
	struct uet_hashmap_iter it;
	struct uet_hnode *n;

	uet_hashmap_foreach(&tl->ctxs, &it, n) {
		uet_hashmap_remove(&tl->ctxs, n);
		tss_ctx_free(uet_container_of(n, struct tss_ctx, node));
	}
	uet_hashmap_fini(&tl->ctxs);
	uet_hashmap_foreach(&tl->peers, &it, n)
		tss_peer_free(tl, uet_container_of(n, struct tss_peer, node));
	uet_hashmap_fini(&tl->peers);
	uet_tss_aead_fini(&tl->tx);
	uet_tss_wipe(tl->secret, sizeof(tl->secret));
	if (tl->rx_arena)
		uet_tss_wipe(tl->rx_arena, tl->rx_cap);
	free(tl->rx_arena);
	free(tl->tx_arena);
	free(tl);
}

static void tss_close(struct uet_link *link)
{
	struct tss_link *tl;
	struct uet_link *inner;
	bool own;

	if (!link)
		return;
	tl = tss_of(link);
	inner = tl->inner;
	own = tl->own_inner;
	tss_free(tl);
	if (own)
		inner->ops->close(inner);
}

static const struct uet_link_ops tss_link_ops = {
	.send = tss_send,
	.recv = tss_recv,
	.fd = tss_fd,
	.mtu = tss_mtu,
	.local_addr = tss_local_addr,
	.errors = tss_errors,
	.entropies = tss_entropies,
	.close = tss_close,
};

int uet_tss_link_open(const struct uet_tss_cfg *cfg, struct uet_link *inner,
		      bool own_inner, struct uet_link **out)
{
	struct uet_link_addr la;
	struct tss_link *tl;
	uint32_t sci;
	int ret;

	if (!cfg || !inner || !out || (cfg->mode != UET_TSS_ON &&
				       cfg->mode != UET_TSS_REQUIRED))
		return -EINVAL;
	ret = inner->ops->local_addr(inner, &la);
	if (ret)
		return ret;
	tl = calloc(1, sizeof(*tl));
	if (!tl)
		return -ENOMEM;
	tl->pub.ops = &tss_link_ops;
	tl->inner = inner;
	tl->mode = cfg->mode;
	tl->job_id = cfg->job_id;
	memcpy(tl->secret, cfg->secret, sizeof(tl->secret));
	tl->rekey_seq = cfg->rekey_seq ? cfg->rekey_seq : UET_TSS_REKEY_SEQ;
	tl->max_ctx = cfg->max_ctx ? cfg->max_ctx : UET_TSS_MAX_CTX;
	tl->max_peers = cfg->max_peers ? cfg->max_peers : UET_TSS_MAX_PEERS;
	tl->peer_ttl_ns = cfg->peer_ttl_ns ? cfg->peer_ttl_ns :
					     UET_TSS_PEER_TTL_NS;
	ret = uet_tss_addr_bytes(&la, tl->local);
	if (ret)
		goto err_wipe;
	ret = uet_hashmap_init(&tl->ctxs, TSS_CTX_KEY_LEN, 0);
	if (ret)
		goto err_wipe;
	ret = uet_hashmap_init(&tl->peers, UET_TSS_ADDR_LEN, 0);
	if (ret)
		goto err_fini_ctxs;
	pthread_once(&tss_atfork_once, tss_atfork_init);
	tl->fork_gen = tss_fork_gen_now();
	sci = cfg->sci;
	if (!sci) {
		ret = tss_draw_sci(0, &sci);
		if (ret)
			goto err_free;
	}
	ret = tss_tx_key(tl, sci);
	if (ret)
		goto err_free;
	tl->tx_seq = cfg->seq_start ? cfg->seq_start : 1;
	tl->own_inner = own_inner;
	*out = &tl->pub;
	return 0;

err_free:
	tss_free(tl);
	return ret;

err_fini_ctxs:
	uet_hashmap_fini(&tl->ctxs);
err_wipe:
	uet_tss_wipe(tl->secret, sizeof(tl->secret));
	free(tl);
	return ret;
}
