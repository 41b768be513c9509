/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SES: instance and endpoint lifetime, deferred release of objects, the
 * READ id space, stream keys, and the small helpers the other uet_ses*.c
 * share (fabric-address keys, iovec walking, return codes).
 */
#include "config.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "uet_byteorder.h"
#include "uet_csprng.h"
#include "uet_ses_internal.h"

#define UET_SES_DEFAULT_RDZV_THRESHOLD	(64u * 1024)
#define UET_SES_DEFAULT_UNEXP_BYTES	(8u * 1024 * 1024)
#define UET_SES_DEFAULT_UNEXP_MSGS	1024u
/* Fits IPv4 and IPv6 in a 1500-byte Ethernet frame (1500 - 40 - 8). */
#define UET_SES_DEFAULT_MTU		1452u
/* Above the PDS failure bound with its defaults (at most 6.5 s). */
#define UET_SES_DEFAULT_ORDER_TIMEOUT	(10ull * 1000 * 1000 * 1000)
/* Twice the order timeout: longer than PDS keeps retrying a packet. */
#define UET_SES_DEFAULT_MSG_TIMEOUT	(20ull * 1000 * 1000 * 1000)
#define UET_SES_DEFAULT_RMA_RX_MAX	1024u
/* Smallest MTU: a standard header, a rendezvous extension (UE+'s, the
 * larger) and 1 byte. */
#define UET_SES_MTU_MIN	\
	(UET_SES_PDS_HDR_LEN + UET_SES_STD_SOM1_LEN + UET_SES_RDZV_EXT_LEN + 1)

void uet_ses_cfg_default(struct uet_ses_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->rdzv_threshold = UET_SES_DEFAULT_RDZV_THRESHOLD;
	cfg->unexp_max_bytes = UET_SES_DEFAULT_UNEXP_BYTES;
	cfg->unexp_max_msgs = UET_SES_DEFAULT_UNEXP_MSGS;
	cfg->tc = 0;
	cfg->mode = UET_PDS_MODE_RUD;
	cfg->mtu = UET_SES_DEFAULT_MTU;
	cfg->order_timeout_ns = UET_SES_DEFAULT_ORDER_TIMEOUT;
	cfg->msg_timeout_ns = UET_SES_DEFAULT_MSG_TIMEOUT;
	cfg->rma_rx_max = UET_SES_DEFAULT_RMA_RX_MAX;
}

/* ---- entry points, deferred release ---- */

void uet_ses_enter(struct uet_ses *ses)
{
	ses->depth++;
}

static struct uet_bufpool *ses_obj_pool(struct uet_ses *ses, uint8_t type)
{
	switch (type) {
	case UET_SES_OBJ_SEND:
		return &ses->send_pool;
	case UET_SES_OBJ_RECV:
		return &ses->recv_pool;
	case UET_SES_OBJ_RXMSG:
		return &ses->rxmsg_pool;
	case UET_SES_OBJ_READ:
		return &ses->read_pool;
	case UET_SES_OBJ_REPLY:
		return &ses->reply_pool;
	case UET_SES_OBJ_NOTICE:
		return &ses->notice_pool;
	case UET_SES_OBJ_RMARX:
		return &ses->rmarx_pool;
	default:
		return NULL;
	}
}

/* Deliver obj's completion (if any) and free it. */
static void ses_obj_finish(struct uet_ses *ses, struct uet_ses_obj *obj)
{
	struct uet_ses_send_op *op;
	struct uet_ses_recv_op *r;
	struct uet_ses_rma_rx *x;
	struct uet_ses_rx_msg *m;

	uet_dlist_remove(&obj->live);
	switch (obj->type) {
	case UET_SES_OBJ_SEND:
		op = (struct uet_ses_send_op *)obj;
		if (obj->cmpl && !ses->zombie)
			ses->up.send_done(ses->up_ctx, &op->cmpl);
		uet_ses_iov_free(op->iov, op->iov_inline);
		uet_ses_iov_free(op->res_iov, op->res_inline);
		break;
	case UET_SES_OBJ_RECV:
		r = (struct uet_ses_recv_op *)obj;
		if (r->parent)
			uet_ses_mr_child_done(ses, r);
		if (obj->cmpl && !ses->zombie)
			ses->up.recv_done(ses->up_ctx, &r->cmpl);
		uet_ses_iov_free(r->iov, r->iov_inline);
		break;
	case UET_SES_OBJ_RXMSG:
		m = (struct uet_ses_rx_msg *)obj;
		free(m->ubuf);
		uet_ranges_fini(&m->cov);
		break;
	case UET_SES_OBJ_REPLY:
		free(((struct uet_ses_reply *)obj)->own);
		break;
	case UET_SES_OBJ_READ:
		uet_ranges_fini(&((struct uet_ses_read *)obj)->got);
		break;
	case UET_SES_OBJ_RMARX:
		x = (struct uet_ses_rma_rx *)obj;
		if (obj->cmpl && !ses->zombie && ses->up.rma_event)
			ses->up.rma_event(ses->up_ctx, &x->ev);
		uet_ranges_fini(&x->cov);
		break;
	default:
		break;
	}
	uet_bufpool_put(ses_obj_pool(ses, obj->type), obj);
}

static void ses_drain(struct uet_ses *ses)
{
	struct uet_dlist *e;

	while ((e = uet_dlist_pop_head(&ses->reapq)) != NULL)
		ses_obj_finish(ses, uet_container_of(e, struct uet_ses_obj,
						     reap));
}

void uet_ses_leave(struct uet_ses *ses)
{
	/* Completions run at depth 1, so that SES calls made from a user
	 * upcall nest and do not drain recursively. */
	if (ses->depth == 1)
		ses_drain(ses);
	ses->depth--;
}

void *uet_ses_obj_alloc(struct uet_ses *ses, uint8_t type)
{
	struct uet_bufpool *pool = ses_obj_pool(ses, type);
	struct uet_ses_obj *obj;

	obj = uet_bufpool_get(pool);
	if (!obj)
		return NULL;
	memset(obj, 0, pool->size);
	obj->type = type;
	uet_dlist_init(&obj->reap);
	uet_dlist_insert_tail(&ses->live, &obj->live);
	return obj;
}

void uet_ses_release(struct uet_ses *ses, struct uet_ses_obj *obj, bool cmpl)
{
	if (obj->dead)
		return;
	obj->dead = true;
	obj->cmpl = cmpl;
	uet_dlist_insert_tail(&ses->reapq, &obj->reap);
}

/* ---- READ id space ---- */

/*
 * The message_id of the UET_READs this SES sends (rendezvous pulls): one
 * 16-bit space per SES, allocated round-robin, skipping ids in use.  The
 * message_id of a send is its stream's sequence number instead
 * (uet_ses_tx.c), so READs never leave a hole in that sequence.
 */

int uet_ses_msgid_alloc(struct uet_ses *ses, struct uet_ses_msgid *mid,
			uint8_t kind)
{
	uint16_t id;

	if (uet_hashmap_count(&ses->msg_ids) >= UET_SES_MSG_IDS)
		return -EAGAIN;
	/* Terminates: fewer than UET_SES_MSG_IDS ids are in use. */
	/* From an unpredictable start (issue 30: an id a forger must
	 * guess), the first free one after it. */
	id = (uint16_t)uet_csprng_u64();
	while (!id || uet_hashmap_lookup_u64(&ses->msg_ids, id))
		id++;
	mid->id = id;
	mid->kind = kind;
	return uet_hashmap_insert_u64(&ses->msg_ids, &mid->node, id);
}

void uet_ses_msgid_free(struct uet_ses *ses, struct uet_ses_msgid *mid)
{
	if (!mid->id)
		return;
	uet_hashmap_remove(&ses->msg_ids, &mid->node);
	mid->id = 0;
}

struct uet_ses_msgid *uet_ses_msgid_find(struct uet_ses *ses, uint16_t id,
					 uint8_t kind)
{
	struct uet_hnode *n = uet_hashmap_lookup_u64(&ses->msg_ids, id);
	struct uet_ses_msgid *mid;

	if (!n)
		return NULL;
	mid = uet_container_of(n, struct uet_ses_msgid, node);
	return mid->kind == kind ? mid : NULL;
}

/* ---- helpers ---- */

void uet_ses_stream_key(uint8_t key[UET_SES_STREAM_KEY_LEN],
			const struct uet_link_addr *fa, uint32_t initiator,
			uint32_t job_id, uint16_t pid_on_fep, uint16_t ri)
{
	uint8_t *p = key + UET_SES_FA_KEY_LEN;

	uet_link_addr_key(fa, key);
	p = uet_put_be32(p, initiator);
	p = uet_put_be24(p, job_id & UET_JOB_ID_MAX);
	uet_put_be24(p, uet_ses_initiator_id(pid_on_fep, ri));
}

static uint64_t ses_ep_key(uint32_t job_id, uint16_t pid_on_fep, uint16_t ri)
{
	return ((uint64_t)job_id << 24) | ((uint64_t)pid_on_fep << 12) | ri;
}

struct uet_ses_ep *uet_ses_ep_find(struct uet_ses *ses, uint32_t job_id,
				   uint16_t pid_on_fep, uint16_t ri,
				   uint8_t *rc)
{
	struct uet_hnode *n;
	struct uet_ses_ep *ep;
	bool job = false, pid = false;

	n = uet_hashmap_lookup_u64(&ses->eps,
				   ses_ep_key(job_id, pid_on_fep, ri));
	if (n)
		return uet_container_of(n, struct uet_ses_ep, node);
	uet_dlist_foreach_entry(&ses->ep_list, ep, entry) {
		if (ep->job_id != job_id)
			continue;
		job = true;
		if (ep->pid_on_fep == pid_on_fep)
			pid = true;
	}
	*rc = !job ? UET_RC_BAD_JOB_ID : !pid ? UET_RC_BAD_PID :
	      UET_RC_BAD_INDEX;
	return NULL;
}

int uet_ses_iov_dup(const struct iovec *src, unsigned int cnt,
		    struct iovec *inl, struct iovec **out, uint64_t *len)
{
	struct iovec *iov = inl;
	uint64_t total = 0;
	unsigned int i;

	if (cnt && !src)
		return -EINVAL;
	for (i = 0; i < cnt; i++) {
		if (src[i].iov_len && !src[i].iov_base)
			return -EINVAL;
		if (src[i].iov_len > UINT64_MAX - total)
			return -EINVAL;
		total += src[i].iov_len;
	}
	if (cnt > UET_SES_IOV_INLINE) {
		iov = malloc(cnt * sizeof(*iov));
		if (!iov)
			return -ENOMEM;
	}
	if (cnt)
		memcpy(iov, src, cnt * sizeof(*iov));
	*out = iov;
	*len = total;
	return 0;
}

void uet_ses_iov_free(struct iovec *iov, struct iovec *inl)
{
	if (iov != inl)
		free(iov);
}

uint64_t uet_ses_iov_copy_in(const struct iovec *iov, unsigned int cnt,
			     uint64_t off, const void *src, uint64_t len)
{
	const uint8_t *s = src;
	uint64_t done = 0, n;
	unsigned int i;

	for (i = 0; i < cnt && done < len; i++) {
		if (off >= iov[i].iov_len) {
			off -= iov[i].iov_len;
			continue;
		}
		n = iov[i].iov_len - off;
		if (n > len - done)
			n = len - done;
		memcpy((uint8_t *)iov[i].iov_base + off, s + done, n);
		done += n;
		off = 0;
	}
	return done;
}

uint64_t uet_ses_iov_gather(const struct iovec *iov, unsigned int cnt,
			    uint64_t off, uint64_t max, struct iovec *out,
			    unsigned int outmax, unsigned int *outcnt)
{
	uint64_t done = 0, n;
	unsigned int i, k = 0;

	for (i = 0; i < cnt && done < max && k < outmax; i++) {
		if (off >= iov[i].iov_len) {
			off -= iov[i].iov_len;
			continue;
		}
		n = iov[i].iov_len - off;
		if (n > max - done)
			n = max - done;
		out[k].iov_base = (uint8_t *)iov[i].iov_base + off;
		out[k].iov_len = n;
		k++;
		done += n;
		off = 0;
	}
	*outcnt = k;
	return done;
}

int uet_ses_rc_errno(uint8_t rc)
{
	switch (rc) {
	case UET_RC_NULL:
	case UET_RC_OK:
		return 0;
	case UET_RC_BAD_JOB_ID:
	case UET_RC_BAD_PID:
	case UET_RC_BAD_INDEX:
		return -EADDRNOTAVAIL;
	case UET_RC_BAD_MKEY:
	case UET_RC_BAD_GENERATION:
	case UET_RC_PERM_VIOLATION:
		return -EACCES;
	case UET_RC_BAD_ADDR:
	case UET_RC_AT_OUT_OF_RANGE:
	case UET_RC_AMO_UNALIGNED:
		return -EINVAL;
	case UET_RC_CANCELLED:
		return -ECANCELED;
	case UET_RC_TOO_LONG:
		return -EMSGSIZE;
	case UET_RC_UNSUPPORTED_OP:
	case UET_RC_AMO_UNSUPPORTED_OP:
	case UET_RC_AMO_UNSUPPORTED_DT:
	case UET_RC_AMO_UNSUPPORTED_SIZE:
		return -EOPNOTSUPP;
	case UET_RC_NO_MATCH:
		return -ENOMSG;
	default:
		return -EIO;
	}
}

/* ---- instance ---- */

static uint64_t ses_min(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static void ses_pools_destroy(struct uet_ses *ses)
{
	uet_bufpool_destroy(&ses->pkt_pool);
	uet_bufpool_destroy(&ses->send_pool);
	uet_bufpool_destroy(&ses->recv_pool);
	uet_bufpool_destroy(&ses->rxmsg_pool);
	uet_bufpool_destroy(&ses->read_pool);
	uet_bufpool_destroy(&ses->reply_pool);
	uet_bufpool_destroy(&ses->notice_pool);
	uet_bufpool_destroy(&ses->route_pool);
	uet_bufpool_destroy(&ses->txs_pool);
	uet_bufpool_destroy(&ses->rxs_pool);
	uet_bufpool_destroy(&ses->rmarx_pool);
	uet_bufpool_destroy(&ses->bounce_pool);
	uet_bufpool_destroy(&ses->bounce_big_pool);
}

static int ses_pools_init(struct uet_ses *ses)
{
	struct {
		struct uet_bufpool *pool;
		size_t size;
		size_t chunk;
	} p[] = {
		{ &ses->pkt_pool, sizeof(struct uet_ses_pkt), 256 },
		{ &ses->send_pool, sizeof(struct uet_ses_send_op), 64 },
		{ &ses->recv_pool, sizeof(struct uet_ses_recv_op), 64 },
		{ &ses->rxmsg_pool, sizeof(struct uet_ses_rx_msg), 64 },
		{ &ses->read_pool, sizeof(struct uet_ses_read), 64 },
		{ &ses->reply_pool, sizeof(struct uet_ses_reply), 64 },
		{ &ses->notice_pool, sizeof(struct uet_ses_notice), 16 },
		{ &ses->route_pool, sizeof(struct uet_ses_route), 16 },
		{ &ses->txs_pool, sizeof(struct uet_ses_txs), 16 },
		{ &ses->rxs_pool, sizeof(struct uet_ses_rxs), 16 },
		{ &ses->rmarx_pool, sizeof(struct uet_ses_rma_rx), 16 },
		{ &ses->bounce_pool, (size_t)ses->pay_rdata, 16 },
		{ &ses->bounce_big_pool, UET_SES_SMALL_LEN_MAX, 4 },
	};
	struct uet_bufpool_attr attr;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
		memset(&attr, 0, sizeof(attr));
		attr.size = p[i].size;
		attr.chunk_count = p[i].chunk;
		ret = uet_bufpool_init(p[i].pool, &attr);
		if (ret)
			goto err_destroy;
	}
	return 0;

err_destroy:
	while (i--)
		uet_bufpool_destroy(p[i].pool);
	return ret;
}

static void ses_free(struct uet_ses *ses)
{
	uet_ses_mr_fini(ses);
	uet_hashmap_fini(&ses->rma_rx);
	uet_hashmap_fini(&ses->rx_streams);
	uet_hashmap_fini(&ses->tx_streams);
	uet_hashmap_fini(&ses->routes);
	uet_hashmap_fini(&ses->mkeys);
	uet_hashmap_fini(&ses->rx_msgs);
	uet_hashmap_fini(&ses->msg_ids);
	uet_hashmap_fini(&ses->eps);
	ses_pools_destroy(ses);
	free(ses);
}

uint64_t uet_ses_path_one(size_t mtu, size_t hdr)
{
	return mtu > UET_SES_PDS_HDR_LEN + hdr ?
	       mtu - UET_SES_PDS_HDR_LEN - hdr : 0;
}

uint64_t uet_ses_path_pay(size_t mtu, size_t hdr)
{
	return ses_min(uet_ses_path_one(mtu, hdr), UET_SES_SMALL_LEN_MAX);
}

uint64_t uet_ses_rdata_pay(const struct uet_ses *ses, size_t mtu)
{
	if (mtu <= ses->cfg.mtu)
		return ses->pay_rdata;
	return uet_ses_path_pay(mtu, uet_ses_format_len(ses->cfg.wire,
							UET_SES_FMT_RSP_DATA));
}

int uet_ses_create(struct uet_ses **out, const struct uet_ses_cfg *cfg,
		   struct uet_pds *pds, const struct uet_ses_upcalls *up,
		   void *up_ctx)
{
	enum uet_wire_prof wp;
	struct uet_ses *ses;
	int ret;

	if (!out || !cfg || !pds || !up || !up->send_done || !up->recv_done)
		return -EINVAL;
	if (cfg->mode > UET_PDS_MODE_UUD || cfg->mtu < UET_SES_MTU_MIN ||
	    cfg->wire >= UET_WIRE_NPROF)
		return -EINVAL;
	wp = (enum uet_wire_prof)cfg->wire;

	ses = calloc(1, sizeof(*ses));
	if (!ses)
		return -ENOMEM;
	ses->cfg = *cfg;
	ses->pds = pds;
	ses->up = *up;
	ses->up_ctx = up_ctx;
	/* Provider key tags: a test's fixed seed, else the CSPRNG
	 * (ses_mr_rand). */
	ses->mr_rng = cfg->key_seed;

	/* Header sizes are the wire profile's (wire/). */
	ses->pay_small = uet_ses_path_pay(cfg->mtu,
		uet_ses_format_len(wp, UET_SES_FMT_SMALL_MSG));
	ses->pay_std = uet_ses_path_pay(cfg->mtu,
		uet_ses_format_len(wp, UET_SES_FMT_STD_SOM1));
	ses->pay_rdzv = uet_ses_path_pay(cfg->mtu,
		uet_ses_format_len(wp, UET_SES_FMT_STD_SOM1) +
		uet_ses_ext_len(wp, UET_SES_EXT_RDZV));
	ses->pay_rdata = uet_ses_path_pay(cfg->mtu,
		uet_ses_format_len(wp, UET_SES_FMT_RSP_DATA));
	ses->notice_len = uet_ses_format_len(wp, UET_SES_FMT_RSP) +
			  UET_SES_NOTICE_KEY_LEN;

	uet_dlist_init(&ses->ep_list);
	uet_dlist_init(&ses->txq);
	uet_dlist_init(&ses->sends);
	uet_dlist_init(&ses->live);
	uet_dlist_init(&ses->reapq);
	uet_dlist_init(&ses->txs_idle);
	uet_dlist_init(&ses->rxs_lru);
	uet_dlist_init(&ses->rxs_held);
	uet_dlist_init(&ses->rx_inc);
	uet_dlist_init(&ses->rma_inc);

	ret = uet_hashmap_init(&ses->eps, 0, 0);
	if (ret)
		goto err_free;
	ret = uet_hashmap_init(&ses->msg_ids, 0, 256);
	if (ret)
		goto err_eps;
	ret = uet_hashmap_init(&ses->rx_msgs, UET_SES_RXKEY_LEN, 64);
	if (ret)
		goto err_msg_ids;
	ret = uet_hashmap_init(&ses->mkeys, 0, 0);
	if (ret)
		goto err_rx_msgs;
	ret = uet_hashmap_init(&ses->routes, UET_SES_ROUTE_KEY_LEN, 0);
	if (ret)
		goto err_mkeys;
	ret = uet_hashmap_init(&ses->tx_streams, UET_SES_STREAM_KEY_LEN, 0);
	if (ret)
		goto err_routes;
	ret = uet_hashmap_init(&ses->rx_streams, UET_SES_STREAM_KEY_LEN, 0);
	if (ret)
		goto err_tx_streams;
	ret = uet_hashmap_init(&ses->rma_rx, UET_SES_RXKEY_LEN, 0);
	if (ret)
		goto err_rx_streams;
	ret = uet_ses_mr_init(ses);
	if (ret)
		goto err_rma_rx;
	ret = ses_pools_init(ses);
	if (ret)
		goto err_mr;

	ses->pds_up.rx = uet_ses_pds_rx;
	ses->pds_up.check = uet_ses_pds_check;
	ses->pds_up.tx_done = uet_ses_pds_tx_done;
	ses->pds_up.tx_room = uet_ses_pds_tx_room;
	uet_pds_set_upcalls(pds, &ses->pds_up, ses);
	*out = ses;
	return 0;

err_mr:
	uet_ses_mr_fini(ses);
err_rma_rx:
	uet_hashmap_fini(&ses->rma_rx);
err_rx_streams:
	uet_hashmap_fini(&ses->rx_streams);
err_tx_streams:
	uet_hashmap_fini(&ses->tx_streams);
err_routes:
	uet_hashmap_fini(&ses->routes);
err_mkeys:
	uet_hashmap_fini(&ses->mkeys);
err_rx_msgs:
	uet_hashmap_fini(&ses->rx_msgs);
err_msg_ids:
	uet_hashmap_fini(&ses->msg_ids);
err_eps:
	uet_hashmap_fini(&ses->eps);
err_free:
	free(ses);
	return ret;
}

/*
 * Tear down: every endpoint is closed (receives and unexpected messages
 * cancelled), every send completes with -ECANCELED, then every object is
 * freed.  Packets PDS still holds cannot be taken back through the PDS
 * API; their memory (the packet pool and this struct) stays until PDS
 * reports them with tx_done (normally from the uet_pds_destroy() that
 * follows), and only then are the upcalls removed.  Until that
 * uet_pds_destroy(), PDS may still read the payload of those packets
 * from the send buffers.
 */
void uet_ses_destroy(struct uet_ses *ses)
{
	struct uet_ses_send_op *op;
	struct uet_ses_obj *obj;
	struct uet_dlist *e;
	struct uet_ses_txi *txi;

	if (!ses)
		return;
	uet_ses_enter(ses);
	ses->closing = true;
	while ((e = uet_dlist_first(&ses->ep_list)) != NULL)
		uet_ses_ep_close(uet_container_of(e, struct uet_ses_ep, entry));

	/* Sends, whatever PDS still holds of them. */
	uet_dlist_foreach_entry_safe(&ses->sends, op, entry) {
		uet_ses_send_error(ses, op, -ECANCELED, UET_RC_NULL,
				   UET_RC_NULL);
		if (op->obj.dead)
			continue;
		op->pkts_out = 0;
		uet_dlist_init(&op->replies);
		op->stop = true;
		op->notice = true;
		uet_ses_send_check(ses, op);
	}
	/* Packets built but never handed to PDS. */
	while ((e = uet_dlist_pop_head(&ses->txq)) != NULL) {
		txi = uet_container_of(e, struct uet_ses_txi, entry);
		if (txi->stash)
			uet_ses_pkt_put(ses, txi->stash);
		txi->stash = NULL;
	}
	/* Everything else (reads, replies, notices) goes without a word. */
	uet_dlist_foreach_entry(&ses->live, obj, live)
		uet_ses_release(ses, obj, false);
	uet_ses_leave(ses);

	if (ses->pkts_in_pds) {
		ses->zombie = true;
		return;
	}
	uet_pds_set_upcalls(ses->pds, NULL, NULL);
	ses_free(ses);
}

/* Called from tx_done once the last packet of a destroyed SES is back. */
void uet_ses_zombie_pkt_done(struct uet_ses *ses, struct uet_ses_pkt *pkt)
{
	uet_ses_pkt_put(ses, pkt);
	if (--ses->pkts_in_pds)
		return;
	uet_pds_set_upcalls(ses->pds, NULL, NULL);
	ses_free(ses);
}

/* ---- endpoints ---- */

int uet_ses_ep_open(struct uet_ses *ses, uint32_t job_id, uint16_t pid_on_fep,
		    uint16_t ri, struct uet_ses_ep **out)
{
	struct uet_ses_ep *ep;
	uint64_t key;
	int ret;

	if (!ses || !out || ses->closing || job_id > UET_JOB_ID_MAX ||
	    pid_on_fep > UET_PID_ON_FEP_MAX || ri > UET_RESOURCE_INDEX_MAX)
		return -EINVAL;
	key = ses_ep_key(job_id, pid_on_fep, ri);
	if (uet_hashmap_lookup_u64(&ses->eps, key))
		return -EEXIST;
	ep = calloc(1, sizeof(*ep));
	if (!ep)
		return -ENOMEM;
	ep->ses = ses;
	ep->job_id = job_id;
	ep->pid_on_fep = pid_on_fep;
	ep->ri = ri;
	ep->mode = ses->cfg.mode;
	uet_dlist_init(&ep->posted);
	uet_dlist_init(&ep->unexp);
	uet_dlist_init(&ep->active);
	uet_dlist_init(&ep->rx_streams);
	uet_dlist_init(&ep->rma_rx);
	ret = uet_hashmap_insert_u64(&ses->eps, &ep->node, key);
	if (ret) {
		free(ep);
		return ret;
	}
	uet_dlist_insert_tail(&ses->ep_list, &ep->entry);
	*out = ep;
	return 0;
}

void uet_ses_ep_close(struct uet_ses_ep *ep)
{
	struct uet_ses_recv_op *r;
	struct uet_ses_rx_msg *m;
	struct uet_ses *ses;
	struct uet_dlist *e;

	if (!ep)
		return;
	ses = ep->ses;
	uet_ses_enter(ses);
	while ((e = uet_dlist_first(&ep->posted)) != NULL) {
		r = uet_container_of(e, struct uet_ses_recv_op, entry);
		if (r->multi) {
			uet_ses_mr_retire(ses, r, -ECANCELED);
			continue;
		}
		uet_dlist_remove(&r->entry);
		r->posted = false;
		uet_ses_recv_complete(ses, r, -ECANCELED);
	}
	while ((e = uet_dlist_first(&ep->active)) != NULL) {
		m = uet_container_of(e, struct uet_ses_rx_msg, entry);
		uet_ses_rx_fail(ses, m, -ECANCELED, UET_RC_CANCELLED);
	}
	while ((e = uet_dlist_first(&ep->unexp)) != NULL) {
		m = uet_container_of(e, struct uet_ses_rx_msg, entry);
		uet_ses_rx_drop_unexp(ses, m);
	}
	uet_ses_send_cancel_all(ses, ep);
	uet_ses_rxs_free_ep(ses, ep);
	uet_ses_rma_rx_free_ep(ses, ep);
	uet_hashmap_remove(&ses->eps, &ep->node);
	uet_dlist_remove(&ep->entry);
	free(ep);
	uet_ses_push(ses);
	uet_ses_leave(ses);
}

void uet_ses_ep_set_user(struct uet_ses_ep *ep, void *user)
{
	if (ep)
		ep->user = user;
}

int uet_ses_ep_set_mode(struct uet_ses_ep *ep, uint8_t mode)
{
	if (!ep || mode > UET_PDS_MODE_UUD)
		return -EINVAL;
	ep->mode = mode;
	return 0;
}

size_t uet_ses_max_single(const struct uet_ses *ses)
{
	return (size_t)ses->pay_small;
}

/* ---- progress, stats ---- */

void uet_ses_set_now(struct uet_ses *ses, uint64_t now)
{
	if (now > ses->now)
		ses->now = now;
}

/* Nothing queued to send, held for order, incomplete, to reap or to
 * sweep: a progress pass has no work (the common empty poll). */
static bool ses_idle(const struct uet_ses *ses)
{
	return uet_dlist_empty(&ses->txq) && uet_dlist_empty(&ses->reapq) &&
	       uet_dlist_empty(&ses->rxs_held) &&
	       uet_dlist_empty(&ses->rx_inc) &&
	       uet_dlist_empty(&ses->rma_inc) &&
	       uet_hashmap_count(&ses->routes) <= UET_SES_ROUTES_IDLE_MAX;
}

void uet_ses_progress(struct uet_ses *ses, uint64_t now)
{
	if (!ses || ses->zombie)
		return;
	uet_ses_set_now(ses, now);
	if (!ses->depth && ses_idle(ses))
		return;
	uet_ses_enter(ses);
	uet_ses_ord_timer(ses);
	uet_ses_expire(ses);
	uet_ses_ord_release_all(ses);
	uet_ses_push(ses);
	if (ses->depth == 1)
		uet_ses_routes_sweep(ses);
	uet_ses_leave(ses);
}

void uet_ses_get_stats(const struct uet_ses *ses, struct uet_ses_stats *st)
{
	*st = ses->stats;
}

static const char *const ses_drop_name[UET_SES_DROP_N] = {
	[UET_SES_DROP_ADDR] = "requests for no endpoint (JobID, PIDonFEP, resource index)",
	[UET_SES_DROP_MODE] = "requests in another delivery mode than their endpoint's (RMA without a PDC)",
	[UET_SES_DROP_OVERLAP] = "packets with message bytes already received",
	[UET_SES_DROP_AHEAD] = "unexpected packets too far ahead of their message",
	[UET_SES_DROP_EXPIRED] = "incomplete messages (timed out)",
	[UET_SES_DROP_RMA_FULL] = "multi-packet writes over the record bound",
	[UET_SES_DROP_RMA_EXPIRED] = "incomplete multi-packet writes (timed out)",
};

void uet_ses_drop_warn(struct uet_ses *ses, enum uet_ses_drop cause)
{
	uint64_t n;

	if (cause >= UET_SES_DROP_N ||
	    !uet_log_rl(&ses->drop_rl[cause], ses->now, &n))
		return;
	UET_WARN(UET_LOG_EP_DATA,
		 "software NIC: dropped %llu %s (hostile or misconfigured peer; counters in uet_snic_get_drops)\n",
		 (unsigned long long)n, ses_drop_name[cause]);
}

uint64_t uet_ses_unexp_refused(const struct uet_ses *ses)
{
	return ses->stats.unexp_refused;
}
