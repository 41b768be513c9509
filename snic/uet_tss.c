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
 */
#include "config.h"

#include <errno.h>
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

struct tss_ctx {
	struct uet_hnode node;
	uint8_t key[TSS_CTX_KEY_LEN];
	struct uet_tss_aead aead;
	struct uet_tss_replay win;
	uint64_t last_use;
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
	uint32_t tx_seq;		/* next sequence number */
	uint8_t *tx_arena;
	size_t tx_cap;
	struct uet_link_pkt tx_pkts[TSS_BATCH];

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
		     const struct uet_link_addr *src)
{
	char a[64];
	uint64_t n;

	tl->st.drops[cause]++;
	if (!uet_log_rl(&tl->rl[cause], uet_clock_now_ns(), &n))
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

static void tss_write_aad(uint8_t *p, uint32_t sci, uint32_t seq)
{
	struct uet_pds_prologue pro = { .type = UET_PDS_TYPE_TSS };
	struct uet_tss_hdr h = {
		.tss_type = UET_TSS_TYPE_AES256_GCM,
		.security_context_id = sci,
		.sequence_number = seq,
	};
	ssize_t r;

	r = uet_pds_prologue_encode(p, UET_PDS_PROLOGUE_LEN, &pro);
	(void)r;
	r = uet_tss_hdr_encode(p + UET_PDS_PROLOGUE_LEN, UET_TSS_HDR_LEN, &h);
	(void)r;
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
	uint32_t sci = tl->tx_sci + 1 ? tl->tx_sci + 1 : 1;
	int ret = tss_tx_key(tl, sci);

	if (ret)
		return ret;
	tl->tx_seq = 1;
	tl->st.rekeys++;
	UET_INFO(UET_LOG_EP_DATA, "TSS: rekeyed, security context %#x\n",
		 sci);
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

/* Seal up to TSS_BATCH datagrams, TSS_TX_CHUNK bytes (at least one);
 * returns how many (the prefix that fits the MTU and the chunk) or a
 * negative errno. */
static int tss_seal_batch(struct tss_link *tl, const struct uet_link_pkt *pkts,
			  unsigned int n)
{
	size_t mtu = tl->inner->ops->mtu(tl->inner);
	uint8_t nonce[UET_TSS_NONCE_LEN];
	size_t need = 0, len, off = 0;
	unsigned int i, m;
	uint8_t *p;
	int ret;

	for (m = 0; m < n; m++) {
		len = tss_pkt_len(&pkts[m]);
		if (pkts[m].iovcnt > UET_LINK_MAX_IOV ||
		    len > mtu || mtu - len < UET_TSS_OVERHEAD)
			break;
		if (m && need + len + UET_TSS_OVERHEAD > TSS_TX_CHUNK)
			break;
		need += len + UET_TSS_OVERHEAD;
	}
	if (m == 0)
		return -EMSGSIZE;
	ret = tss_arena_reserve(&tl->tx_arena, &tl->tx_cap, need);
	if (ret)
		return ret;
	for (i = 0; i < m; i++) {
		if (tl->tx_seq > tl->rekey_seq || tl->tx_seq == 0) {
			ret = tss_rekey(tl);
			if (ret)
				return i ? (int)i : ret;
		}
		len = tss_pkt_len(&pkts[i]);
		p = tl->tx_arena + off;
		tss_write_aad(p, tl->tx_sci, tl->tx_seq);
		tss_nonce(nonce, tl->tx_sci, tl->tx_seq);
		ret = uet_tss_aead_seal(&tl->tx, nonce, p, UET_TSS_AAD_LEN,
					pkts[i].iov, pkts[i].iovcnt,
					p + UET_TSS_AAD_LEN,
					p + UET_TSS_AAD_LEN + len);
		tl->tx_seq++;		/* used, whatever happens next */
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

static int tss_send(struct uet_link *link, const struct uet_link_pkt *pkts,
		    unsigned int n)
{
	struct tss_link *tl = tss_of(link);
	unsigned int done = 0, chunk;
	int m, r;

	while (done < n) {
		chunk = n - done < TSS_BATCH ? n - done : TSS_BATCH;
		m = tss_seal_batch(tl, pkts + done, chunk);
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

/* ---- receive ---- */

static void tss_ctx_free(struct tss_ctx *c)
{
	uet_tss_aead_fini(&c->aead);
	free(c);
}

/* Make room for one more context: the least recently used one goes. */
static void tss_ctx_evict(struct tss_link *tl)
{
	struct uet_hashmap_iter it;
	struct tss_ctx *c, *old = NULL;
	struct uet_hnode *n;

	uet_hashmap_foreach(&tl->ctxs, &it, n) {
		c = uet_container_of(n, struct tss_ctx, node);
		if (!old || c->last_use < old->last_use)
			old = c;
	}
	if (!old)
		return;
	uet_hashmap_remove(&tl->ctxs, &old->node);
	tss_ctx_free(old);
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
 * UET_TSS_AAD_LEN: in place).  Returns the plaintext length, or
 * -(1 + cause) when it is dropped. */
static ssize_t tss_open_one(struct tss_link *tl, const struct uet_link_rx *in,
			    uint8_t *out)
{
	uint8_t key[TSS_CTX_KEY_LEN], nonce[UET_TSS_NONCE_LEN];
	struct uet_pds_prologue pro;
	struct uet_hnode *n;
	struct uet_tss_hdr h;
	struct tss_ctx *c;
	size_t len;
	int ret;

	if (in->len < UET_TSS_OVERHEAD ||
	    uet_pds_prologue_decode(&pro, in->buf, in->len) < 0 ||
	    pro.next_hdr || pro.flags ||
	    uet_tss_hdr_decode(&h, in->buf + UET_PDS_PROLOGUE_LEN,
			       in->len - UET_PDS_PROLOGUE_LEN) < 0 ||
	    h.tss_type != UET_TSS_TYPE_AES256_GCM || h.tss_flags)
		return -(1 + UET_TSS_DROP_MALFORMED);
	if (uet_tss_addr_bytes(&in->src, key))
		return -(1 + UET_TSS_DROP_MALFORMED);
	uet_put_be32(key + UET_TSS_ADDR_LEN, h.security_context_id);
	len = in->len - UET_TSS_OVERHEAD;
	tss_nonce(nonce, h.security_context_id, h.sequence_number);

	n = uet_hashmap_lookup_bytes(&tl->ctxs, key);
	if (n) {
		c = uet_container_of(n, struct tss_ctx, node);
		ret = uet_tss_replay_check(&c->win, h.sequence_number);
		if (ret)
			return -(1 + ret);
		if (uet_tss_aead_open(&c->aead, nonce, in->buf,
				      UET_TSS_AAD_LEN,
				      in->buf + UET_TSS_AAD_LEN, len, out,
				      in->buf + UET_TSS_AAD_LEN + len))
			return -(1 + UET_TSS_DROP_AUTH);
	} else {
		if (h.sequence_number == 0)
			return -(1 + UET_TSS_DROP_OLD);
		c = tss_ctx_new(tl, key, h.security_context_id);
		if (!c)	/* no memory: as if it had not arrived */
			return -(1 + UET_TSS_DROP_AUTH);
		if (uet_tss_aead_open(&c->aead, nonce, in->buf,
				      UET_TSS_AAD_LEN,
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
	return (ssize_t)len;
}

static bool tss_is_protected(const struct uet_link_rx *in)
{
	return uet_pds_peek_type(in->buf, in->len) == UET_PDS_TYPE_TSS;
}

static int tss_recv(struct uet_link *link, struct uet_link_rx *rx,
		    unsigned int n)
{
	struct tss_link *tl = tss_of(link);
	bool in_place = tl->inner->ops->rx_writable;
	unsigned int i, m, out = 0, want;
	size_t need, off = 0;
	uint8_t *dst;
	ssize_t len;
	int r, round;

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
						 &in->src);
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
			len = tss_open_one(tl, in, dst);
			if (len < 0) {
				tss_drop(tl, (unsigned int)(-len - 1),
					 &in->src);
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
	ret = uet_tss_addr_bytes(&la, tl->local);
	if (ret)
		goto err_wipe;
	ret = uet_hashmap_init(&tl->ctxs, TSS_CTX_KEY_LEN, 0);
	if (ret)
		goto err_wipe;
	sci = cfg->sci;
	while (!sci) {
		ret = uet_tss_random(&sci, sizeof(sci));
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

err_wipe:
	uet_tss_wipe(tl->secret, sizeof(tl->secret));
	free(tl);
	return ret;
}
