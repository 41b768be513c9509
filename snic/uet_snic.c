/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The software NIC as an HSI device: open/close, the peer table, queues,
 * memory registrations, statistics and the ops table.  Command execution
 * is in uet_snic_exec.c, notifications in uet_snic_notify.c, progress and
 * the auto-progress thread in uet_snic_progress.c.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "uet_byteorder.h"
#include "uet_clock.h"
#include "uet_link_udp.h"
#include "uet_link_xdp.h"
#include "uet_log.h"
#include "uet_snic_internal.h"
#include "uet_tss_internal.h"

/* Access bits a registration may carry. */
#define UET_SNIC_MR_ACCESS	UET_HSI_ACCESS_ALL
/* Largest peer handle; UET_HSI_PEER_UNKNOWN is never one. */
#define UET_SNIC_PEER_MAX	(UET_HSI_PEER_UNKNOWN - 1u)

static const struct uet_ses_upcalls uet_snic_ses_up = {
	.send_done = uet_snic_ses_send_done,
	.recv_done = uet_snic_ses_recv_done,
	.rma_event = uet_snic_ses_rma_event,
};

/* ---- fabric addresses ---- */

/* Raw sockaddr bytes (as getname gives them) to a link address. */
static int snic_addr_from_raw(struct uet_link_addr *a, const void *raw,
			      size_t len)
{
	sa_family_t family;

	if (!raw || len < sizeof(family))
		return -EINVAL;
	memcpy(&family, raw, sizeof(family));
	if (!((family == AF_INET && len == sizeof(struct sockaddr_in)) ||
	      (family == AF_INET6 && len == sizeof(struct sockaddr_in6))))
		return -EINVAL;
	memset(a, 0, sizeof(*a));
	memcpy(&a->ss, raw, len);
	a->len = (socklen_t)len;
	return 0;
}

/* ---- peers ---- */

struct uet_snic_peer *uet_snic_peer_get_locked(struct uet_snic_dev *dev,
					       uint32_t handle)
{
	if (handle >= dev->npeers)
		return NULL;
	return dev->peers[handle];
}

uint32_t uet_snic_peer_find_locked(struct uet_snic_dev *dev,
				   const struct uet_link_addr *a)
{
	uint8_t key[UET_SNIC_FA_KEY_LEN];
	struct uet_hnode *n;

	if (a->ss.ss_family != AF_INET && a->ss.ss_family != AF_INET6)
		return UET_HSI_PEER_UNKNOWN;
	uet_link_addr_key(a, key);
	n = uet_hashmap_memo_lookup(&dev->peer_memo, &dev->peer_map, key);
	if (!n)
		return UET_HSI_PEER_UNKNOWN;
	return uet_container_of(n, struct uet_snic_peer, node)->handle;
}

/* A free handle: the first NULL slot at or after the hint, else a new
 * slot at the end (growing the table). */
static int snic_peer_slot_locked(struct uet_snic_dev *dev, uint32_t *handle)
{
	struct uet_snic_peer **p;
	uint32_t i, cap;

	for (i = dev->peer_hint; i < dev->npeers; i++) {
		if (!dev->peers[i]) {
			*handle = i;
			return 0;
		}
	}
	if (dev->npeers > UET_SNIC_PEER_MAX)
		return -ENOSPC;
	if (dev->npeers == dev->peers_cap) {
		cap = dev->peers_cap ? dev->peers_cap * 2 : 64;
		if (cap > UET_SNIC_PEER_MAX + 1u || cap < dev->peers_cap)
			cap = UET_SNIC_PEER_MAX + 1u;
		p = realloc(dev->peers, (size_t)cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		dev->peers = p;
		dev->peers_cap = cap;
	}
	dev->peers[dev->npeers] = NULL;
	*handle = dev->npeers++;
	return 0;
}

static int snic_peer_insert(struct uet_hsi_dev *d, const void *addr,
			    size_t len, uint64_t *out)
{
	struct uet_snic_dev *dev = uet_snic_dev_of(d);
	struct uet_snic_peer *peer;
	struct uet_link_addr a;
	struct uet_hnode *n;
	uint32_t handle;
	int ret;

	if (!dev || !out)
		return -EINVAL;
	ret = snic_addr_from_raw(&a, addr, len);
	if (ret)
		return ret;
	peer = calloc(1, sizeof(*peer));
	if (!peer)
		return -ENOMEM;
	peer->addr = a;
	uet_link_addr_key(&a, peer->key);

	pthread_mutex_lock(&dev->lock);
	n = uet_hashmap_lookup_bytes(&dev->peer_map, peer->key);
	if (n) {
		free(peer);
		peer = uet_container_of(n, struct uet_snic_peer, node);
		if (peer->refs == UINT32_MAX) {
			ret = -EOVERFLOW;
			goto out;
		}
		peer->refs++;
		*out = peer->handle;
		goto out;
	}
	ret = snic_peer_slot_locked(dev, &handle);
	if (ret) {
		free(peer);
		goto out;
	}
	peer->handle = handle;
	peer->refs = 1;
	dev->peers[handle] = peer;
	dev->peer_hint = handle + 1;
	uet_hashmap_insert_bytes(&dev->peer_map, &peer->node, peer->key);
	*out = handle;
out:
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

static int snic_peer_remove(struct uet_hsi_dev *d, uint64_t handle)
{
	struct uet_snic_dev *dev = uet_snic_dev_of(d);
	struct uet_snic_peer *peer;
	int ret = 0;

	if (!dev)
		return -EINVAL;
	pthread_mutex_lock(&dev->lock);
	peer = handle > UET_SNIC_PEER_MAX ? NULL :
	       uet_snic_peer_get_locked(dev, (uint32_t)handle);
	if (!peer) {
		ret = -ENOENT;
		goto out;
	}
	if (--peer->refs)
		goto out;
	uet_hashmap_memo_forget(&dev->peer_memo, &peer->node);
	uet_hashmap_remove(&dev->peer_map, &peer->node);
	dev->peers[handle] = NULL;
	if (handle < dev->peer_hint)
		dev->peer_hint = (uint32_t)handle;
	free(peer);
out:
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

static int snic_getname(struct uet_hsi_dev *d, void *addr, size_t *len)
{
	struct uet_snic_dev *dev = uet_snic_dev_of(d);
	struct uet_link_addr a;
	int ret;

	if (!dev || !len)
		return -EINVAL;
	ret = dev->link->ops->local_addr(dev->link, &a);
	if (ret)
		return ret;
	if (!addr || *len < a.len) {
		*len = a.len;
		return -ENOBUFS;
	}
	memcpy(addr, &a.ss, a.len);
	*len = a.len;
	return 0;
}

/* ---- memory registrations ---- */

static struct uet_snic_mr *snic_mr_find_locked(struct uet_snic_dev *dev,
					       uint64_t key)
{
	struct uet_hnode *n = uet_hashmap_lookup_u64(&dev->mr_map, key);

	return n ? uet_container_of(n, struct uet_snic_mr, node) : NULL;
}

/* HSI access bits -> the SES RI table's remote rights. */
static uint32_t snic_ses_access(uint64_t access)
{
	uint32_t a = 0;

	if (access & UET_HSI_ACCESS_REMOTE_READ)
		a |= UET_SES_ACC_REMOTE_READ;
	if (access & UET_HSI_ACCESS_REMOTE_WRITE)
		a |= UET_SES_ACC_REMOTE_WRITE;
	return a;
}

/*
 * Every registration goes into the SES RI table, which makes the key
 * (a provider key, or the requested user key) and checks remote
 * accesses; local-only ones too (no remote right: every remote access
 * fails), so keys are unique whatever the access.  The NIC keeps its own
 * record for local checks (uet_snic_mr_check).
 */
_Static_assert(UET_HSI_MR_SEGS_MAX <= UET_SES_MR_SEGS_MAX,
	       "the RI table holds every HSI segment");

static int snic_mr_regv(struct uet_hsi_dev *d, const struct iovec *segs,
			size_t nsegs, uint64_t access, uint64_t flags,
			uint64_t *key)
{
	struct uet_snic_dev *dev = uet_snic_dev_of(d);
	struct uet_ses_mr_attr sa;
	struct uet_snic_mr *mr;
	uint64_t k;
	size_t i;
	int ret;

	if (!dev || !key || !segs || !nsegs || nsegs > UET_HSI_MR_SEGS_MAX)
		return -EINVAL;
	if (access & ~(uint64_t)UET_SNIC_MR_ACCESS)
		return -EINVAL;
	if (flags & ~(uint64_t)(UET_HSI_MR_USER_KEY | UET_HSI_MR_VIRT_ADDR |
				UET_HSI_MR_DEVMEM))
		return -EINVAL;
	for (i = 0; i < nsegs; i++) {
		if (segs[i].iov_len && !segs[i].iov_base)
			return -EINVAL;
		if (segs[i].iov_len > UINTPTR_MAX -
		    (uintptr_t)segs[i].iov_base)
			return -EINVAL;
	}
	if ((flags & UET_HSI_MR_USER_KEY) && (*key & UET_SES_MKEY_PROV))
		return -EINVAL;
	mr = calloc(1, sizeof(*mr));
	if (!mr)
		return -ENOMEM;
	memcpy(mr->segs, segs, nsegs * sizeof(*segs));
	mr->nsegs = nsegs;
	mr->access = access;
	memset(&sa, 0, sizeof(sa));
	sa.segs = segs;
	sa.nsegs = nsegs;
	sa.access = snic_ses_access(access);
	sa.virt_addr = !!(flags & UET_HSI_MR_VIRT_ADDR);
	sa.user_key = !!(flags & UET_HSI_MR_USER_KEY);
	sa.requested_key = sa.user_key ? *key : 0;
	sa.devmem = !!(flags & UET_HSI_MR_DEVMEM);

	pthread_mutex_lock(&dev->lock);
	ret = uet_ses_mr_reg(dev->ses, &sa, &k);
	if (ret)
		goto err_unlock;
	if (snic_mr_find_locked(dev, k)) {
		/* the RI table gave a key the NIC still holds: never */
		uet_ses_mr_dereg(dev->ses, k);
		ret = -EEXIST;
		goto err_unlock;
	}
	uet_hashmap_insert_u64(&dev->mr_map, &mr->node, k);
	pthread_mutex_unlock(&dev->lock);
	*key = k;
	return 0;

err_unlock:
	pthread_mutex_unlock(&dev->lock);
	free(mr);
	return ret;
}

/* The copies of UET_HSI_MR_DEVMEM registrations, handed to SES (the
 * same shape: SES knows no HSI). */
static int snic_set_mem_ops(struct uet_hsi_dev *d,
			    const struct uet_hsi_mem_ops *ops)
{
	struct uet_snic_dev *dev = uet_snic_dev_of(d);
	struct uet_ses_mem_ops m;

	if (!dev)
		return -EINVAL;
	memset(&m, 0, sizeof(m));
	if (ops) {
		m.to_dev = ops->to_dev;
		m.from_dev = ops->from_dev;
		m.ctx = ops->ctx;
	}
	pthread_mutex_lock(&dev->lock);
	uet_ses_set_mem_ops(dev->ses, ops ? &m : NULL);
	pthread_mutex_unlock(&dev->lock);
	return 0;
}

static int snic_mr_reg(struct uet_hsi_dev *d, void *addr, size_t len,
		       uint64_t access, uint64_t flags, uint64_t *key)
{
	struct iovec seg = { .iov_base = addr, .iov_len = len };

	return snic_mr_regv(d, &seg, 1, access, flags, key);
}

static int snic_mr_dereg(struct uet_hsi_dev *d, uint64_t key)
{
	struct uet_snic_dev *dev = uet_snic_dev_of(d);
	struct uet_snic_mr *mr;
	int ret = -ENOENT;

	if (!dev)
		return -EINVAL;
	pthread_mutex_lock(&dev->lock);
	mr = snic_mr_find_locked(dev, key);
	if (mr) {
		/* After this nothing touches the memory: no remote request,
		 * no retransmission (the NIC copied the read replies in
		 * flight); -ENOMEM when it could not, still registered. */
		ret = uet_ses_mr_dereg(dev->ses, key);
		if (!ret)
			uet_hashmap_remove(&dev->mr_map, &mr->node);
	}
	pthread_mutex_unlock(&dev->lock);
	if (ret)
		return ret;
	free(mr);
	return 0;
}

/* Whether [a, a + len) lies in one segment of mr. */
static bool snic_mr_holds(const struct uet_snic_mr *mr, uintptr_t a,
			  size_t len)
{
	uintptr_t b;
	size_t i;

	for (i = 0; i < mr->nsegs; i++) {
		b = (uintptr_t)mr->segs[i].iov_base;
		if (a >= b && a + len <= b + mr->segs[i].iov_len)
			return true;
	}
	return false;
}

int uet_snic_mr_check(struct uet_hsi_dev *d, uint64_t key, const void *addr,
		      size_t len, uint64_t access)
{
	struct uet_snic_dev *dev = uet_snic_dev_of(d);
	uintptr_t a = (uintptr_t)addr;
	struct uet_snic_mr *mr;
	int ret = 0;

	if (!dev || len > UINTPTR_MAX - a)
		return -EINVAL;
	pthread_mutex_lock(&dev->lock);
	mr = snic_mr_find_locked(dev, key);
	if (!mr)
		ret = -ENOENT;
	else if (access & ~mr->access)
		ret = -EACCES;
	else if (!snic_mr_holds(mr, a, len))
		ret = -EFAULT;
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

/* ---- queues ---- */

/* The queue's SES endpoint, in the queue's delivery mode. */
static int snic_ep_open_locked(struct uet_snic_queue *q)
{
	struct uet_snic_dev *dev = q->dev;
	int ret;

	ret = uet_ses_ep_open(dev->ses, dev->job_id, q->pid_on_fep, q->ri,
			      &q->ep);
	if (ret)
		return ret;
	ret = uet_ses_ep_set_mode(q->ep, q->mode);
	if (ret) {
		uet_ses_ep_close(q->ep);
		q->ep = NULL;
		return ret;
	}
	/* rma_event upcalls name the queue */
	uet_ses_ep_set_user(q->ep, q);
	return 0;
}

/* The PDS delivery mode of a queue opened with HSI mode hsi_mode;
 * -EINVAL for a value the HSI does not define. */
static int snic_queue_mode(const struct uet_snic_dev *dev, uint8_t hsi_mode,
			   uint8_t *pds_mode)
{
	switch (hsi_mode) {
	case UET_HSI_QUEUE_MODE_DEFAULT:
		*pds_mode = dev->cfg.mode;
		return 0;
	case UET_HSI_QUEUE_MODE_RUD:
		*pds_mode = UET_PDS_MODE_RUD;
		return 0;
	case UET_HSI_QUEUE_MODE_ROD:
		*pds_mode = UET_PDS_MODE_ROD;
		return 0;
	case UET_HSI_QUEUE_MODE_RUDI:
		*pds_mode = UET_PDS_MODE_RUDI;
		return 0;
	case UET_HSI_QUEUE_MODE_UUD:
		*pds_mode = UET_PDS_MODE_UUD;
		return 0;
	default:
		return -EINVAL;
	}
}

static int snic_queue_open(struct uet_hsi_dev *d,
			   const struct uet_hsi_queue_attr *attr,
			   struct uet_hsi_queue **out)
{
	struct uet_snic_dev *dev = uet_snic_dev_of(d);
	struct uet_snic_queue *q;
	uint8_t mode;
	int ret;

	if (!dev || !attr || !out)
		return -EINVAL;
	if (attr->pid_on_fep > UET_HSI_DEST_ID_MASK ||
	    attr->resource_index > UET_HSI_DEST_ID_MASK ||
	    snic_queue_mode(dev, attr->mode, &mode))
		return -EINVAL;
	q = calloc(1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	ret = uet_hsi_cmdq_init(&q->cmdq, attr->cmdq_depth);
	if (ret)
		goto err_free;
	ret = uet_hsi_notifq_init(&q->notifq, attr->notifq_depth);
	if (ret)
		goto err_cmdq;
	q->pub.dev = d;
	q->pub.cmdq = &q->cmdq;
	q->pub.notifq = &q->notifq;
	q->dev = dev;
	q->pid_on_fep = attr->pid_on_fep;
	q->ri = attr->resource_index;
	q->mode = mode;
	q->rma_events = attr->rma_events;
	uet_dlist_init(&q->ops);
	uet_dlist_init(&q->deferred);

	pthread_mutex_lock(&dev->lock);
	ret = snic_ep_open_locked(q);
	if (!ret)
		uet_dlist_insert_tail(&dev->queues, &q->entry);
	pthread_mutex_unlock(&dev->lock);
	if (ret)
		goto err_notifq;
	*out = &q->pub;
	return 0;

err_notifq:
	uet_hsi_notifq_fini(&q->notifq);
err_cmdq:
	uet_hsi_cmdq_fini(&q->cmdq);
err_free:
	free(q);
	return ret;
}

/* Forget the operations SES still holds for q: their completions will
 * find no queue and only free them. */
static void snic_queue_orphan_locked(struct uet_snic_queue *q)
{
	struct uet_snic_op *op;
	struct uet_dlist *e;

	while ((e = uet_dlist_pop_head(&q->ops)) != NULL) {
		op = uet_container_of(e, struct uet_snic_op, entry);
		uet_dlist_init(&op->entry);
		op->q = NULL;
	}
}

int uet_snic_queue_cancel(struct uet_hsi_queue *pq)
{
	struct uet_snic_queue *q = uet_snic_queue_of(pq);
	struct uet_snic_dev *dev = q->dev;
	int ret = 0;

	pthread_mutex_lock(&dev->lock);
	if (q->ep) {
		uet_ses_ep_close(q->ep);
		q->ep = NULL;
	}
	ret = snic_ep_open_locked(q);
	if (ret)
		q->ep = NULL;
	uet_snic_rearm_locked(dev, dev->now);
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

static void snic_queue_free(struct uet_snic_queue *q)
{
	uet_hsi_notifq_fini(&q->notifq);
	uet_hsi_cmdq_fini(&q->cmdq);
	free(q);
}

static bool snic_queue_holds_locked(struct uet_snic_queue *q)
{
	struct uet_snic_op *op;

	uet_dlist_foreach_entry(&q->ops, op, entry)
		if (op->held)
			return true;
	return false;
}

/*
 * Held sends (docs/software-nic.md) completed for the provider, so their
 * data must still reach the peer as after a close() of a TCP socket:
 * progress until they are acknowledged, for at most UET_SNIC_LINGER_NS
 * (a dead peer fails them sooner), sleeping on the wait fd meanwhile.
 */
static void snic_queue_linger(struct uet_snic_queue *q)
{
	struct uet_snic_dev *dev = q->dev;
	uint64_t end = uet_clock_now_ns() + UET_SNIC_LINGER_NS;
	struct pollfd pfd;
	bool busy;

	for (;;) {
		pthread_mutex_lock(&dev->lock);
		busy = q->ep && snic_queue_holds_locked(q);
		pthread_mutex_unlock(&dev->lock);
		if (!busy)
			return;
		if (uet_clock_now_ns() >= end)
			break;
		uet_snic_progress(&dev->pub);
		pfd.fd = uet_snic_wait_fd(&dev->pub);
		pfd.events = POLLIN;
		pfd.revents = 0;
		if (pfd.fd >= 0)
			(void)poll(&pfd, 1, 1);
	}
	UET_WARN(UET_LOG_EP_CTRL, "software NIC: queue closed with held sends "
		 "not yet acknowledged\n");
}

static void snic_queue_close(struct uet_hsi_queue *pq)
{
	struct uet_snic_queue *q;
	struct uet_snic_dev *dev;

	if (!pq)
		return;
	q = uet_snic_queue_of(pq);
	dev = q->dev;
	snic_queue_linger(q);
	pthread_mutex_lock(&dev->lock);
	if (q->ep) {
		/* Receives complete here (written while the ring has room). */
		uet_ses_ep_close(q->ep);
		q->ep = NULL;
	}
	uet_snic_flush_locked(q);
	uet_snic_drop_deferred_locked(q);
	snic_queue_orphan_locked(q);
	uet_dlist_remove(&q->entry);
	pthread_mutex_unlock(&dev->lock);
	snic_queue_free(q);
}

/* ---- open / close ---- */

static int snic_pools_init(struct uet_snic_dev *dev)
{
	struct uet_bufpool_attr a;
	int ret;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(struct uet_snic_op);
	ret = uet_bufpool_init(&dev->op_pool, &a);
	if (ret)
		return ret;
	a.size = UET_SNIC_BUF_SMALL;
	a.align = 64;
	ret = uet_bufpool_init(&dev->small_pool, &a);
	if (ret)
		goto err_op;
	a.size = UET_SNIC_BUF_LARGE;
	a.chunk_count = 8;
	ret = uet_bufpool_init(&dev->large_pool, &a);
	if (ret)
		goto err_small;
	a.size = UET_SNIC_BUF_BIG;
	a.chunk_count = 4;
	ret = uet_bufpool_init(&dev->big_pool, &a);
	if (ret)
		goto err_large;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(struct uet_snic_notif);
	ret = uet_bufpool_init(&dev->notif_pool, &a);
	if (ret)
		goto err_big;
	return 0;

err_big:
	uet_bufpool_destroy(&dev->big_pool);
err_large:
	uet_bufpool_destroy(&dev->large_pool);
err_small:
	uet_bufpool_destroy(&dev->small_pool);
err_op:
	uet_bufpool_destroy(&dev->op_pool);
	return ret;
}

static void snic_pools_fini(struct uet_snic_dev *dev)
{
	uet_bufpool_destroy(&dev->notif_pool);
	uet_bufpool_destroy(&dev->big_pool);
	uet_bufpool_destroy(&dev->large_pool);
	uet_bufpool_destroy(&dev->small_pool);
	uet_bufpool_destroy(&dev->op_pool);
}

int uet_snic_open_link(const struct uet_snic_cfg *cfg, uint32_t job_id,
		       struct uet_link *link, bool own_link,
		       struct uet_hsi_dev **out)
{
	struct uet_snic_dev *dev;
	struct uet_ses_cfg scfg;
	size_t lmtu;
	int ret;

	if (!cfg || !link || !out || job_id > 0xffffffu ||
	    cfg->mode > UET_PDS_MODE_UUD)
		return -EINVAL;
	lmtu = link->ops->mtu(link);
	if (cfg->mtu > lmtu)
		return -EINVAL;

	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	dev->pub.ops = &uet_snic_dev_ops;
	dev->cfg = *cfg;
	dev->cfg.mtu = cfg->mtu ? cfg->mtu : lmtu;
	dev->job_id = job_id;
	dev->link = link;
	dev->wait_fd = -1;
	dev->timer_fd = -1;
	dev->ap.wake_fd = -1;
	dev->ap.ep_fd = -1;
	uet_dlist_init(&dev->queues);
	uet_dlist_init(&dev->sb.entry);
	ret = pthread_mutex_init(&dev->lock, NULL);
	if (ret) {
		ret = -ret;
		goto err_free;
	}
	ret = uet_hashmap_init(&dev->peer_map, UET_SNIC_FA_KEY_LEN, 0);
	if (ret)
		goto err_mutex;
	ret = uet_hashmap_init(&dev->mr_map, 0, 0);
	if (ret)
		goto err_peer_map;
	ret = snic_pools_init(dev);
	if (ret)
		goto err_mr_map;

	ret = uet_pds_create(&dev->pds, &cfg->pds, link, NULL, NULL);
	if (ret)
		goto err_pools;
	uet_ses_cfg_default(&scfg);
	scfg.rdzv_threshold = cfg->rdzv_threshold;
	scfg.unexp_max_bytes = cfg->unexp_max_bytes;
	scfg.unexp_max_msgs = cfg->unexp_max_msgs;
	scfg.mode = cfg->mode;
	scfg.mtu = dev->cfg.mtu;
	scfg.wire = cfg->pds.wire;
	ret = uet_ses_create(&dev->ses, &scfg, dev->pds, &uet_snic_ses_up,
			     dev);
	if (ret)
		goto err_pds;
	ret = uet_snic_wait_init(dev);
	if (ret)
		goto err_ses;
	dev->own_link = own_link;
	*out = &dev->pub;
	return 0;

err_ses:
	uet_ses_destroy(dev->ses);
err_pds:
	uet_pds_destroy(dev->pds);
err_pools:
	snic_pools_fini(dev);
err_mr_map:
	uet_hashmap_fini(&dev->mr_map);
err_peer_map:
	uet_hashmap_fini(&dev->peer_map);
err_mutex:
	pthread_mutex_destroy(&dev->lock);
err_free:
	free(dev);
	return ret;
}

/*
 * The NIC's link (FI_UET_LINK, docs/software-nic.md): the AF_XDP link
 * when asked for and it can attach, else the UDP link.  The info log
 * names the link each NIC runs over and why; FI_UET_LINK=xdp makes a
 * fallback a warning.
 */
static int snic_link_open(const struct uet_link_udp_cfg *lcfg,
			  struct uet_link **link)
{
	int want = uet_snic_env_link();
	char why[256];
	int ret;

	if (want == UET_SNIC_LINK_UDP) {
		ret = uet_link_udp_open(lcfg, link);
		if (!ret)
			UET_INFO(UET_LOG_CORE, "software NIC: UDP link on %s "
				 "(FI_UET_LINK=udp)\n", lcfg->host);
		return ret;
	}
	why[0] = '\0';
	ret = uet_link_xdp_open(lcfg, link, why, sizeof(why));
	if (!ret) {
		UET_INFO(UET_LOG_CORE, "software NIC: AF_XDP link on %s (%s, "
			 "FI_UET_LINK=%s)\n", lcfg->host, why,
			 want == UET_SNIC_LINK_XDP ? "xdp" : "auto");
		return 0;
	}
	if (want == UET_SNIC_LINK_XDP)
		UET_WARN(UET_LOG_CORE, "software NIC: FI_UET_LINK=xdp: no "
			 "AF_XDP link on %s (%s: %s); UDP link instead\n",
			 lcfg->host, strerror(-ret), why);
	else
		UET_INFO(UET_LOG_CORE, "software NIC: FI_UET_LINK=auto: UDP "
			 "link on %s (AF_XDP: %s)\n", lcfg->host, why);
	return uet_link_udp_open(lcfg, link);
}

static int snic_open(const struct uet_hsi_dev_attr *attr,
		     struct uet_hsi_dev **out)
{
	struct uet_link_udp_cfg lcfg;
	struct uet_link *link, *tss = NULL, *base = NULL;
	struct uet_tss_cfg tcfg;
	struct uet_snic_cfg cfg;
	int ret;

	if (!attr || !out)
		return -EINVAL;
	uet_snic_cfg_default(&cfg);
	uet_snic_cfg_from_env(&cfg);
	if (attr->wire >= UET_WIRE_NPROF)
		return -EINVAL;
	cfg.pds.wire = attr->wire;
	ret = uet_snic_tss_cfg(attr->tss_secret, attr->job_id, &tcfg);
	if (ret) {
		UET_WARN(UET_LOG_CORE, "software NIC: transport security "
			 "(FI_UET_TSS, FI_UET_TSS_KEY_FILE): %s\n",
			 strerror(-ret));
		return ret;
	}
	/* FI_UET_MTU is the datagram size; TSS takes its share of it. */
	if (tcfg.mode != UET_TSS_OFF && cfg.mtu)
		cfg.mtu = cfg.mtu > UET_TSS_OVERHEAD ?
			  cfg.mtu - UET_TSS_OVERHEAD : 0;
	memset(&lcfg, 0, sizeof(lcfg));
	lcfg.host = attr->host && *attr->host ? attr->host : "0.0.0.0";
	lcfg.port = attr->port ? attr->port : uet_snic_env_port();
	lcfg.mtu = cfg.mtu;
	lcfg.loss_ppm = uet_snic_env_loss_ppm();
	lcfg.no_gso = !uet_snic_env_gso();
	/* Multipath: twice as many entropy sockets as a PDC sprays over, so
	 * that a congested entropy is replaced by another port. */
	if (cfg.pds.cc && cfg.pds.cc_entropies > 1)
		lcfg.entropy_socks = 2 * cfg.pds.cc_entropies >
				     UET_LINK_UDP_ENT_MAX ?
				     UET_LINK_UDP_ENT_MAX :
				     2 * cfg.pds.cc_entropies;
	ret = snic_link_open(&lcfg, &link);
	if (ret) {
		UET_WARN(UET_LOG_CORE, "software NIC: UDP link on %s port %u: "
			 "%d\n", lcfg.host, lcfg.port, ret);
		goto out_wipe;
	}
	if (tcfg.mode != UET_TSS_OFF) {
		base = link;
		ret = uet_tss_link_open(&tcfg, link, true, &tss);
		if (ret) {
			UET_WARN(UET_LOG_CORE, "software NIC: TSS: %d\n", ret);
			link->ops->close(link);
			goto out_wipe;
		}
		link = tss;
	}
	ret = uet_snic_open_link(&cfg, attr->job_id, link, true, out);
	if (!ret && base)
		uet_snic_dev_of(*out)->base_link = base;
	if (ret) {
		UET_WARN(UET_LOG_CORE, "software NIC: open: %d\n", ret);
		link->ops->close(link);
		goto out_wipe;
	}
	UET_INFO(UET_LOG_CORE, "software NIC: transport security %s\n",
		 tcfg.mode == UET_TSS_REQUIRED ? "required" :
		 tcfg.mode == UET_TSS_ON ? "on" : "off");
out_wipe:
	uet_tss_wipe(tcfg.secret, sizeof(tcfg.secret));
	return ret;
}

static void snic_mr_free_all(struct uet_snic_dev *dev)
{
	struct uet_hashmap_iter it;
	struct uet_hnode *n;

	uet_hashmap_foreach(&dev->mr_map, &it, n) {
		uet_hashmap_remove(&dev->mr_map, n);
		free(uet_container_of(n, struct uet_snic_mr, node));
	}
	uet_hashmap_fini(&dev->mr_map);
}

/* At close, one warning with every drop counter that is not 0 (the
 * rate-limited warnings of the data path show only samples). */
static void snic_log_drops(struct uet_hsi_dev *d)
{
	struct uet_snic_drops dr;
	char line[1024];
	size_t n = 0;
	unsigned int i;
	int k;

	if (uet_snic_get_drops(d, &dr))
		return;
	for (i = 0; i < UET_SNIC_DROP_N && n < sizeof(line); i++) {
		if (!dr.v[i])
			continue;
		k = snprintf(line + n, sizeof(line) - n, " %s=%llu",
			     uet_snic_drop_name(i),
			     (unsigned long long)dr.v[i]);
		if (k < 0)
			return;
		n += (size_t)k;
	}
	if (n)
		UET_WARN(UET_LOG_EP_DATA,
			 "software NIC: drops from the network since open:%s\n",
			 line);
}

/* At close, one info line with the message-path counters (FI_LOG_LEVEL=info):
 * what a run cost in doorbells, packets, ACKs sent alone or with data,
 * deferred doorbells and unexpected messages (docs/performance.md). */
static void snic_log_counters(struct uet_hsi_dev *d)
{
	struct uet_snic_stats st;

	if (!uet_log_enabled(UET_LOG_INFO, UET_LOG_EP_DATA))
		return;
	uet_snic_get_stats(d, &st);
	UET_INFO(UET_LOG_EP_DATA, "software NIC counters: cmds %" PRIu64
		 " doorbells %" PRIu64 " notifs %" PRIu64 " tx_pkts %" PRIu64
		 " rx_pkts %" PRIu64 " ack_tx %" PRIu64 " ack_rx %" PRIu64
		 " ack_piggyback %" PRIu64 " ack_coalesced %" PRIu64
		 " ack_timer %" PRIu64 " data_first %" PRIu64
		 " rsp_deferred %" PRIu64
		 " default_rsp_tx %" PRIu64 " tx_deferred %" PRIu64
		 " send_first %" PRIu64 " retx %" PRIu64 " (timeout %"
		 PRIu64 " sack/tlp %" PRIu64 ") msgs_tx %" PRIu64 " msgs_rx %" PRIu64
		 " expected %" PRIu64 " unexpected %" PRIu64 " held_tx %"
		 PRIu64 "\n", st.cmds, st.doorbells, st.notifs, st.pds.tx_pkts,
		 st.pds.rx_pkts, st.pds.ack_tx, st.pds.ack_rx,
		 st.pds.ack_piggyback, st.pds.ack_coalesced,
		 st.pds.ack_timer, st.pds.data_first, st.pds.rsp_deferred,
		 st.pds.default_rsp_tx, st.pds.tx_deferred, st.send_first,
		 st.pds.retx,
		 st.pds.retx_timeout, st.pds.retx_sack,
		 st.ses.msgs_tx, st.ses.msgs_rx, st.ses.expected,
		 st.ses.unexpected, st.ses.held_tx);
}

/* At close, a UDP link's MTU and the path MTUs it asked the kernel for
 * (FI_LOG_LEVEL=info): whether peers on wider paths (this host) got
 * larger datagrams. */
static void snic_log_udp(struct uet_link *l)
{
	struct uet_link_udp_stats st;

	if (uet_link_udp_get_stats(l, &st))
		return;
	UET_INFO(UET_LOG_CORE, "software NIC: UDP link MTU %zu, path MTUs "
		 "asked %" PRIu64 " (wider than the MTU %" PRIu64 ")\n",
		 l->ops->mtu(l), st.path_probes, st.path_wide);
}

/* At close, the AF_XDP link's counters (FI_LOG_LEVEL=info): how much
 * went through AF_XDP and how much through the socket beside it. */
static void snic_log_link(struct uet_snic_dev *dev)
{
	struct uet_link *l = dev->base_link ? dev->base_link : dev->link;
	struct uet_link_xdp_stats st;
	char perq[UET_LINK_XDP_QMAX * 22];
	size_t n = 0;
	uint32_t i;

	if (!uet_log_enabled(UET_LOG_INFO, UET_LOG_CORE))
		return;
	if (uet_link_xdp_get_stats(l, &st)) {
		snic_log_udp(l);
		return;
	}
	perq[0] = '\0';
	for (i = 0; i < st.queues && n < sizeof(perq); i++) {
		int k = snprintf(perq + n, sizeof(perq) - n, "%s%" PRIu64,
				 i ? "/" : "", st.rx_q[i]);

		if (k < 0)
			break;
		n += (size_t)k;
	}
	UET_INFO(UET_LOG_CORE, "software NIC: AF_XDP link on %s: %u "
		 "queue(s), %s; tx %" PRIu64 " (socket %" PRIu64 ", ring full "
		 "%" PRIu64 ", kicks %" PRIu64 "), rx %" PRIu64 " (socket %"
		 PRIu64 ", malformed %" PRIu64 ", dropped %" PRIu64 ", per "
		 "queue %s), neighbour lookups %" PRIu64 " (misses %" PRIu64
		 ")\n",
		 uet_link_xdp_ifname(l), st.queues,
		 st.zerocopy ? "zero copy" : "copy mode", st.tx_pkts,
		 st.tx_udp, st.tx_full, st.tx_kicks, st.rx_pkts, st.rx_udp,
		 st.rx_bad, st.rx_dropped, perq, st.neigh_lookups,
		 st.neigh_miss);
}

static void snic_close(struct uet_hsi_dev *d)
{
	struct uet_snic_dev *dev = uet_snic_dev_of(d);
	struct uet_snic_queue *q;
	struct uet_dlist *e;
	uint32_t i;

	if (!dev)
		return;
	uet_snic_standby_stop(d);
	uet_snic_auto_progress_stop(d);
	snic_log_drops(d);
	snic_log_counters(d);
	snic_log_link(dev);

	pthread_mutex_lock(&dev->lock);
	/* Every operation completes with -ECANCELED now (SES first, then
	 * PDS takes back the packets it held). */
	uet_ses_destroy(dev->ses);
	dev->ses = NULL;
	uet_pds_destroy(dev->pds);
	dev->pds = NULL;
	while ((e = uet_dlist_pop_head(&dev->queues)) != NULL) {
		q = uet_container_of(e, struct uet_snic_queue, entry);
		q->ep = NULL;
		uet_snic_flush_locked(q);
		uet_snic_drop_deferred_locked(q);
		snic_queue_orphan_locked(q);
		snic_queue_free(q);
	}
	pthread_mutex_unlock(&dev->lock);

	if (dev->own_link)
		dev->link->ops->close(dev->link);
	uet_snic_wait_fini(dev);
	for (i = 0; i < dev->npeers; i++)
		free(dev->peers[i]);
	free(dev->peers);
	uet_hashmap_fini(&dev->peer_map);
	snic_mr_free_all(dev);
	snic_pools_fini(dev);
	pthread_mutex_destroy(&dev->lock);
	free(dev);
}

static bool snic_present(void)
{
	return true;
}

/* ---- statistics ---- */

void uet_snic_get_stats(struct uet_hsi_dev *d, struct uet_snic_stats *st)
{
	struct uet_snic_dev *dev = uet_snic_dev_of(d);

	memset(st, 0, sizeof(*st));
	pthread_mutex_lock(&dev->lock);
	st->cmds = dev->st.cmds;
	st->bad_cmds = dev->st.bad_cmds;
	st->doorbells = dev->st.doorbells;
	st->notifs = dev->st.notifs;
	st->notif_deferred = dev->st.notif_deferred;
	st->events = dev->st.events;
	st->rma_cmds = dev->st.rma_cmds;
	st->amo_cmds = dev->st.amo_cmds;
	st->fence_waits = dev->st.fence_waits;
	st->rma_notifs = dev->st.rma_notifs;
	st->quiet_passes = dev->st.quiet_passes;
	st->send_first = dev->st.send_first;
	uet_pds_get_stats(dev->pds, &st->pds);
	uet_ses_get_stats(dev->ses, &st->ses);
	pthread_mutex_unlock(&dev->lock);
}

static const char *const uet_snic_drop_names[UET_SNIC_DROP_N] = {
	[UET_HSI_DROP_MALFORMED] = "malformed",
	[UET_HSI_DROP_UNKNOWN_PDC] = "unknown_pdc",
	[UET_HSI_DROP_WRONG_MODE] = "wrong_mode",
	[UET_HSI_DROP_SYN_REFUSED] = "syn_refused",
	[UET_HSI_DROP_SRC_LIMIT] = "src_limit",
	[UET_HSI_DROP_REPLAY] = "replay",
	[UET_HSI_DROP_SYN_CONFLICT] = "syn_conflict",
	[UET_HSI_DROP_HOLD_LIMIT] = "hold_limit",
	[UET_HSI_DROP_HOLD_EXPIRED] = "hold_expired",
	[UET_HSI_DROP_SES_MALFORMED] = "ses_malformed",
	[UET_HSI_DROP_ADDR] = "addr_refused",
	[UET_HSI_DROP_MODE] = "mode_refused",
	[UET_HSI_DROP_OVERLAP] = "overlap",
	[UET_HSI_DROP_AHEAD] = "ahead",
	[UET_HSI_DROP_UNEXP_FULL] = "unexp_full",
	[UET_HSI_DROP_MSG_EXPIRED] = "msg_expired",
	[UET_HSI_DROP_RMA_FULL] = "rma_full",
	[UET_HSI_DROP_RMA_EXPIRED] = "rma_expired",
	[UET_HSI_DROP_RMA_KEY] = "rma_key",
	[UET_HSI_DROP_RMA_ACCESS] = "rma_access",
	[UET_HSI_DROP_RDATA] = "rdata_unmatched",
	[UET_HSI_DROP_WIRE_MISMATCH] = "wire_mismatch",
	[UET_SNIC_DROP_TSS_MALFORMED] = "tss_malformed",
	[UET_SNIC_DROP_TSS_AUTH] = "tss_auth",
	[UET_SNIC_DROP_TSS_UNPROTECTED] = "tss_unprotected",
	[UET_SNIC_DROP_TSS_REPLAY] = "tss_replay",
	[UET_SNIC_DROP_TSS_OLD] = "tss_old",
	[UET_SNIC_DROP_TSS_STALE] = "tss_stale",
	[UET_SNIC_DROP_TSS_DOWNGRADE] = "tss_downgrade",
};

const char *uet_snic_drop_name(unsigned int cause)
{
	return cause < UET_SNIC_DROP_N ? uet_snic_drop_names[cause] : NULL;
}

int uet_snic_get_drops(struct uet_hsi_dev *d, struct uet_snic_drops *out)
{
	struct uet_tss_stats ts;
	struct uet_snic_stats st;
	uint8_t mode;
	uint64_t *v;

	if (!d || !out)
		return -EINVAL;
	uet_snic_get_stats(d, &st);
	v = out->v;
	v[UET_HSI_DROP_MALFORMED] = st.pds.malformed;
	v[UET_HSI_DROP_UNKNOWN_PDC] = st.pds.unknown_pdc;
	v[UET_HSI_DROP_WRONG_MODE] = st.pds.wrong_mode;
	v[UET_HSI_DROP_SYN_REFUSED] = st.pds.syn_refused;
	v[UET_HSI_DROP_SRC_LIMIT] = st.pds.src_limit;
	v[UET_HSI_DROP_REPLAY] = st.pds.replay_drop;
	v[UET_HSI_DROP_SYN_CONFLICT] = st.pds.syn_conflict;
	v[UET_HSI_DROP_HOLD_LIMIT] = st.pds.hold_limit;
	v[UET_HSI_DROP_HOLD_EXPIRED] = st.pds.hold_expired;
	v[UET_HSI_DROP_SES_MALFORMED] = st.ses.bad_hdr;
	v[UET_HSI_DROP_ADDR] = st.ses.addr_refused;
	v[UET_HSI_DROP_MODE] = st.ses.mode_refused;
	v[UET_HSI_DROP_OVERLAP] = st.ses.overlap_refused;
	v[UET_HSI_DROP_AHEAD] = st.ses.ahead_refused;
	v[UET_HSI_DROP_UNEXP_FULL] = st.ses.unexp_refused;
	v[UET_HSI_DROP_MSG_EXPIRED] = st.ses.msgs_expired;
	v[UET_HSI_DROP_RMA_FULL] = st.ses.rma_rx_full;
	v[UET_HSI_DROP_RMA_EXPIRED] = st.ses.rma_rx_expired;
	v[UET_HSI_DROP_RMA_KEY] = st.ses.rma_bad_key + st.ses.rma_bad_gen;
	v[UET_HSI_DROP_RMA_ACCESS] = st.ses.rma_perm + st.ses.rma_range;
	v[UET_HSI_DROP_RDATA] = st.ses.rdata_unmatched;
	v[UET_HSI_DROP_WIRE_MISMATCH] = st.pds.wire_mismatch;
	uet_snic_get_tss_stats(d, &mode, &ts);
	v[UET_SNIC_DROP_TSS_MALFORMED] = ts.drops[UET_TSS_DROP_MALFORMED];
	v[UET_SNIC_DROP_TSS_AUTH] = ts.drops[UET_TSS_DROP_AUTH];
	v[UET_SNIC_DROP_TSS_UNPROTECTED] = ts.drops[UET_TSS_DROP_UNPROTECTED];
	v[UET_SNIC_DROP_TSS_REPLAY] = ts.drops[UET_TSS_DROP_REPLAY];
	v[UET_SNIC_DROP_TSS_OLD] = ts.drops[UET_TSS_DROP_OLD];
	v[UET_SNIC_DROP_TSS_STALE] = ts.drops[UET_TSS_DROP_STALE];
	v[UET_SNIC_DROP_TSS_DOWNGRADE] = ts.drops[UET_TSS_DROP_DOWNGRADE];
	return 0;
}

int uet_snic_get_tss_stats(struct uet_hsi_dev *d, uint8_t *mode,
			   struct uet_tss_stats *st)
{
	struct uet_snic_dev *dev = uet_snic_dev_of(d);

	if (!d || !mode || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	pthread_mutex_lock(&dev->lock);
	if (uet_tss_link_get_stats(dev->link, st))
		st->mode = UET_TSS_OFF;
	*mode = st->mode;
	pthread_mutex_unlock(&dev->lock);
	return 0;
}

int uet_snic_get_pdc_stats(struct uet_hsi_dev *d, uint64_t handle,
			   struct uet_pds_stats *st)
{
	struct uet_snic_dev *dev = uet_snic_dev_of(d);
	struct uet_snic_peer *peer;
	struct uet_ses_cfg scfg;
	struct uet_pds_key key;
	int ret;

	if (!dev || !st)
		return -EINVAL;
	uet_ses_cfg_default(&scfg);
	pthread_mutex_lock(&dev->lock);
	peer = handle > UET_SNIC_PEER_MAX ? NULL :
	       uet_snic_peer_get_locked(dev, (uint32_t)handle);
	if (!peer) {
		ret = -ENOENT;
	} else {
		memset(&key, 0, sizeof(key));
		key.job_id = dev->job_id;
		key.dst = peer->addr;
		key.tc = scfg.tc;
		key.mode = dev->cfg.mode;
		ret = uet_pds_get_pdc_stats(dev->pds, &key, st);
	}
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

int uet_snic_get_peer_pdcs(struct uet_hsi_dev *d, uint64_t handle,
			   struct uet_hsi_pdc_info *v, unsigned int max)
{
	struct uet_snic_dev *dev = uet_snic_dev_of(d);
	struct uet_snic_peer *peer;
	int ret;

	if (!dev || (max && !v))
		return -EINVAL;
	pthread_mutex_lock(&dev->lock);
	peer = handle > UET_SNIC_PEER_MAX ? NULL :
	       uet_snic_peer_get_locked(dev, (uint32_t)handle);
	ret = peer ? uet_pds_get_peer_pdcs(dev->pds, &peer->addr, v, max) :
	      -ENOENT;
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

/* ---- limits ---- */

size_t uet_snic_max_single_pkt(struct uet_hsi_dev *d)
{
	struct uet_snic_dev *dev = uet_snic_dev_of(d);
	size_t n;

	if (!dev)
		return 0;
	pthread_mutex_lock(&dev->lock);
	n = uet_ses_max_single(dev->ses);
	pthread_mutex_unlock(&dev->lock);
	/* Gathered into a NIC buffer when it has many SGL entries. */
	return n < UET_SNIC_BUF_LARGE ? n : UET_SNIC_BUF_LARGE;
}

static int snic_get_limits(struct uet_hsi_dev *d,
			   struct uet_hsi_dev_limits *lim)
{
	struct uet_snic_dev *dev = uet_snic_dev_of(d);

	if (!dev || !lim)
		return -EINVAL;
	memset(lim, 0, sizeof(*lim));
	lim->mtu = dev->cfg.mtu;
	lim->max_single_pkt = uet_snic_max_single_pkt(d);
	lim->inject_max = UET_SNIC_INJECT_MAX;
	lim->max_msg = UINT32_MAX;
	lim->amo_max = UET_SES_AMO_MAX;
	return 0;
}

static int snic_auto_progress(struct uet_hsi_dev *d, bool enable)
{
	if (!d)
		return -EINVAL;
	if (!enable) {
		uet_snic_auto_progress_stop(d);
		return 0;
	}
	return uet_snic_auto_progress_start(d);
}

static int snic_standby(struct uet_hsi_dev *d, bool enable)
{
	uint64_t ms;

	if (!d)
		return -EINVAL;
	if (!enable) {
		uet_snic_standby_stop(d);
		return 0;
	}
	ms = uet_snic_env_standby_ms();
	if (!ms)
		return -ENOTSUP;
	return uet_snic_standby_start(d, ms * UET_NSEC_PER_MSEC);
}

const struct uet_hsi_dev_ops uet_snic_dev_ops = {
	.name = "snic",
	.present = snic_present,
	.open = snic_open,
	.close = snic_close,
	.getname = snic_getname,
	.queue_open = snic_queue_open,
	.queue_close = snic_queue_close,
	.doorbell = uet_snic_doorbell,
	.progress = uet_snic_progress,
	.wait_fd = uet_snic_wait_fd,
	.auto_progress = snic_auto_progress,
	.standby = snic_standby,
	.peer_insert = snic_peer_insert,
	.peer_remove = snic_peer_remove,
	.mr_reg = snic_mr_reg,
	.mr_regv = snic_mr_regv,
	.mr_dereg = snic_mr_dereg,
	.set_mem_ops = snic_set_mem_ops,
	.get_limits = snic_get_limits,
	.query_counters = uet_snic_query_counters,
	.query_peer_pdcs = uet_snic_query_peer_pdcs,
	.dgram_overhead = uet_snic_dgram_overhead,
	.env_vars = uet_snic_env_list,
};
