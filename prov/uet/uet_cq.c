/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Completion queues.  Completions are produced by the endpoints' progress
 * (uet_ep_progress.c) from notification-ring entries and kept here in a
 * ring of the application's size; when the ring is full they wait in an
 * overflow list, so nothing is lost.  Errors wait in their own list and
 * are returned by fi_cq_readerr; a read returns -FI_EAVAIL while one
 * waits.  Reading drives progress of every bound endpoint.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "uet_clock.h"
#include "uet_fi_no.h"
#include "uet_peer.h"
#include "uet_prov.h"
#include "uet_wire_consts.h"

struct uet_cq_ovf {
	struct uet_dlist entry;
	struct uet_cq_entry ce;
};

static size_t uet_cq_format_size(enum fi_cq_format f)
{
	switch (f) {
	case FI_CQ_FORMAT_CONTEXT:
		return sizeof(struct fi_cq_entry);
	case FI_CQ_FORMAT_MSG:
		return sizeof(struct fi_cq_msg_entry);
	case FI_CQ_FORMAT_DATA:
		return sizeof(struct fi_cq_data_entry);
	case FI_CQ_FORMAT_TAGGED:
		return sizeof(struct fi_cq_tagged_entry);
	default:
		return 0;
	}
}

static void uet_cq_copy(const struct uet_cq *cq, void *dst,
			const struct fi_cq_tagged_entry *e)
{
	struct fi_cq_msg_entry *m = dst;
	struct fi_cq_data_entry *d = dst;

	switch (cq->format) {
	case FI_CQ_FORMAT_CONTEXT:
		((struct fi_cq_entry *)dst)->op_context = e->op_context;
		break;
	case FI_CQ_FORMAT_MSG:
		m->op_context = e->op_context;
		m->flags = e->flags;
		m->len = e->len;
		break;
	case FI_CQ_FORMAT_DATA:
		d->op_context = e->op_context;
		d->flags = e->flags;
		d->len = e->len;
		d->buf = e->buf;
		d->data = e->data;
		break;
	default:
		memcpy(dst, e, sizeof(*e));
		break;
	}
}

void uet_cq_write(struct uet_cq *cq, const struct fi_cq_tagged_entry *e,
		  fi_addr_t src)
{
	struct uet_cq_ovf *o;
	struct uet_cq_entry *ce;

#if UET_HAVE_PEER
	if (cq->peer) {
		struct fid_peer_cq *pc = cq->peer;
		ssize_t ret;

		ret = pc->owner_ops->write(pc, e->op_context, e->flags,
					   e->len, e->buf, e->data, e->tag,
					   src);
		if (ret)
			UET_WARN(FI_LOG_CQ, "peer CQ write: %zd: completion "
				 "lost\n", ret);
		return;
	}
#endif
	uet_lock(&cq->lock, UET_LOCK_CQ);
	if (cq->count < cq->size && !cq->noverflow) {
		ce = &cq->ring[(cq->head + cq->count) % cq->size];
		ce->e = *e;
		ce->src = src;
		cq->count++;
		atomic_fetch_add_explicit(&cq->held, 1, memory_order_release);
	} else {
		o = malloc(sizeof(*o));
		if (!o) {
			uet_unlock(&cq->lock, UET_LOCK_CQ);
			UET_WARN(FI_LOG_CQ, "completion lost: out of memory "
				 "with the CQ full\n");
			return;
		}
		o->ce.e = *e;
		o->ce.src = src;
		uet_dlist_insert_tail(&cq->overflow, &o->entry);
		atomic_fetch_add_explicit(&cq->held, 1, memory_order_release);
		if (!cq->noverflow++)
			UET_INFO(FI_LOG_CQ, "CQ of %zu entries is full; "
				 "completions overflow to a list\n", cq->size);
	}
	uet_unlock(&cq->lock, UET_LOCK_CQ);
}

void uet_cq_write_err(struct uet_cq *cq, const struct fi_cq_err_entry *err,
		      fi_addr_t src)
{
	struct uet_cq_err *e;

#if UET_HAVE_PEER
	if (cq->peer) {
		struct fid_peer_cq *pc = cq->peer;
		ssize_t ret;

		(void)src;
		ret = pc->owner_ops->writeerr(pc, err);
		if (ret)
			UET_WARN(FI_LOG_CQ, "peer CQ writeerr: %zd: error "
				 "completion lost\n", ret);
		return;
	}
#endif
	e = calloc(1, sizeof(*e));
	if (!e) {
		UET_WARN(FI_LOG_CQ, "error completion lost: out of memory\n");
		return;
	}
	e->e = *err;
	e->src = src;
	uet_lock(&cq->lock, UET_LOCK_CQ);
	uet_dlist_insert_tail(&cq->errors, &e->entry);
	atomic_fetch_add_explicit(&cq->held, 1, memory_order_release);
	uet_unlock(&cq->lock, UET_LOCK_CQ);
}

/* Refill the ring from the overflow list, with cq->lock held. */
static void uet_cq_refill_locked(struct uet_cq *cq)
{
	struct uet_cq_ovf *o;
	struct uet_dlist *l;

	while (cq->noverflow && cq->count < cq->size) {
		l = uet_dlist_pop_head(&cq->overflow);
		o = uet_container_of(l, struct uet_cq_ovf, entry);
		cq->ring[(cq->head + cq->count) % cq->size] = o->ce;
		cq->count++;
		cq->noverflow--;
		free(o);
	}
}

static void uet_cq_progress(struct uet_cq *cq)
{
	uet_bind_set_progress(&cq->bound, cq->domain);
}

bool uet_cq_ready(struct uet_cq *cq)
{
	bool ready;

	uet_cq_progress(cq);
	uet_lock(&cq->lock, UET_LOCK_CQ);
	ready = cq->count || !uet_dlist_empty(&cq->errors);
	uet_unlock(&cq->lock, UET_LOCK_CQ);
	return ready;
}

bool uet_cq_wait_ready(struct uet_cq *cq)
{
	uint64_t v;

	if (atomic_exchange(&cq->signaled, false)) {
		if (read(cq->signal_fd, &v, sizeof(v)) < 0)
			(void)0;
		return true;
	}
	return uet_cq_ready(cq);
}

static ssize_t uet_cq_readfrom(struct fid_cq *fid, void *buf, size_t count,
			       fi_addr_t *src_addr)
{
	struct uet_cq *cq = uet_container_of(fid, struct uet_cq, fid);
	struct uet_cq_entry *ce;
	size_t i;

	if (count && !buf)
		return -FI_EINVAL;
	uet_cq_progress(cq);
	/* Nothing held: what the locked path below would return.  An entry
	 * written while this runs is read by the next call, as if it had
	 * come a moment later. */
	if (!atomic_load_explicit(&cq->held, memory_order_acquire))
		return -FI_EAGAIN;
	uet_lock(&cq->lock, UET_LOCK_CQ);
	if (!uet_dlist_empty(&cq->errors)) {
		uet_unlock(&cq->lock, UET_LOCK_CQ);
		return -FI_EAVAIL;
	}
	for (i = 0; i < count && cq->count; i++) {
		ce = &cq->ring[cq->head];
		uet_cq_copy(cq, (uint8_t *)buf + i * cq->entry_size, &ce->e);
		if (src_addr)
			src_addr[i] = ce->src;
		cq->head = (cq->head + 1) % cq->size;
		cq->count--;
	}
	if (i)
		atomic_fetch_sub_explicit(&cq->held, i, memory_order_relaxed);
	uet_cq_refill_locked(cq);
	uet_unlock(&cq->lock, UET_LOCK_CQ);
	return i ? (ssize_t)i : -FI_EAGAIN;
}

static ssize_t uet_cq_read(struct fid_cq *fid, void *buf, size_t count)
{
	return uet_cq_readfrom(fid, buf, count, NULL);
}

static ssize_t uet_cq_readerr(struct fid_cq *fid, struct fi_cq_err_entry *buf,
			      uint64_t flags)
{
	struct uet_cq *cq = uet_container_of(fid, struct uet_cq, fid);
	struct uet_cq_err *e;
	struct uet_dlist *l;
	uint32_t api = cq->domain->fabric->fid.api_version;

	if (!buf || flags)
		return -FI_EINVAL;
	uet_lock(&cq->lock, UET_LOCK_CQ);
	l = uet_dlist_pop_head(&cq->errors);
	if (l)
		atomic_fetch_sub_explicit(&cq->held, 1, memory_order_relaxed);
	uet_unlock(&cq->lock, UET_LOCK_CQ);
	if (!l)
		return -FI_EAGAIN;
	e = uet_container_of(l, struct uet_cq_err, entry);
	/* err_data: the provider supplies none (max_err_data 0); since
	 * API 1.5 the application's buffer is left alone when err_data_size
	 * is 0 on return. */
	if (FI_VERSION_GE(api, FI_VERSION(1, 5))) {
		void *udata = buf->err_data;

		*buf = e->e;
		buf->err_data = udata;
		buf->err_data_size = 0;
	} else {
		memcpy(buf, &e->e, offsetof(struct fi_cq_err_entry, err_data));
		buf->err_data = NULL;
	}
	free(e);
	return 1;
}

static ssize_t uet_cq_sreadfrom(struct fid_cq *fid, void *buf, size_t count,
				fi_addr_t *src_addr, const void *cond,
				int timeout)
{
	struct uet_cq *cq = uet_container_of(fid, struct uet_cq, fid);
	uint64_t now = uet_clock_now_ns();
	uint64_t end = timeout < 0 ? UINT64_MAX :
		       now + (uint64_t)timeout * UET_NSEC_PER_MSEC;
	uint64_t spin_end = uet_domain_spin_end(cq->domain, now, end);
	ssize_t ret;
	uint64_t v;

	if (cq->wait_obj == FI_WAIT_NONE)
		return -FI_EINVAL;
	/* A threshold condition (cond) is not honoured: any completion
	 * ends the wait (fi_uet(7), LIMITATIONS). */
	(void)cond;
	for (;;) {
		ret = uet_cq_readfrom(fid, buf, count, src_addr);
		if (ret != -FI_EAGAIN)
			return ret;
		if (atomic_exchange(&cq->signaled, false)) {
			if (read(cq->signal_fd, &v, sizeof(v)) < 0)
				(void)0;
			return -FI_EAGAIN;
		}
		now = uet_clock_now_ns();
		if (now >= end)
			return -FI_EAGAIN;
		ret = uet_domain_block(cq->domain, cq->signal_fd, now,
				       spin_end, end);
		if (ret)
			return ret;
	}
}

static ssize_t uet_cq_sread(struct fid_cq *fid, void *buf, size_t count,
			    const void *cond, int timeout)
{
	return uet_cq_sreadfrom(fid, buf, count, NULL, cond, timeout);
}

static int uet_cq_signal(struct fid_cq *fid)
{
	struct uet_cq *cq = uet_container_of(fid, struct uet_cq, fid);
	uint64_t one = 1;

	atomic_store(&cq->signaled, true);
	if (write(cq->signal_fd, &one, sizeof(one)) < 0)
		return -errno;
	return 0;
}

/* What the return codes of RMA and atomics mean for the application. */
static const char *uet_prov_rc_detail(unsigned int rc)
{
	switch (rc) {
	case UET_RC_BAD_MKEY:
		return "no memory region with this key at the target";
	case UET_RC_BAD_GENERATION:
		return "the memory region of this key was closed";
	case UET_RC_PERM_VIOLATION:
		return "the memory region does not allow this access "
		       "(FI_REMOTE_READ / FI_REMOTE_WRITE)";
	case UET_RC_AT_OUT_OF_RANGE:
	case UET_RC_BAD_ADDR:
		return "address range outside the memory region";
	case UET_RC_AMO_UNSUPPORTED_OP:
		return "atomic operation not supported for this datatype";
	case UET_RC_AMO_UNSUPPORTED_DT:
		return "atomic datatype not supported";
	case UET_RC_AMO_UNSUPPORTED_SIZE:
		return "atomic size not supported";
	case UET_RC_AMO_UNALIGNED:
		return "atomic target address not aligned to the datatype";
	default:
		return NULL;
	}
}

const char *uet_prov_strerror(int prov_errno, char *buf, size_t len)
{
	static __thread char tbuf[160];
	const char *what;
	int err;

	if (!buf || !len) {
		buf = tbuf;
		len = sizeof(tbuf);
	}
	if (prov_errno > 0 && prov_errno < UET_PROV_ERRNO_BASE) {
		what = uet_prov_rc_detail((unsigned int)prov_errno);
		snprintf(buf, len, "UET return code %s from the target%s%s",
			 uet_ses_rc_str((unsigned int)prov_errno),
			 what ? ": " : "", what ? what : "");
		return buf;
	}
	err = prov_errno - UET_PROV_ERRNO_BASE;
	switch (err) {
	case FI_ETIMEDOUT:
		what = "peer unreachable: no answer after the retransmission "
		       "rounds (FI_UET_MAX_RETRIES) and FI_UET_DEAD_MS of silence";
		break;
	case FI_ECONNREFUSED:
		what = "peer unreachable: its host reported its port closed "
		       "(ICMP) and it stayed silent for FI_UET_UNREACH_MS";
		break;
	case FI_EHOSTUNREACH:
	case FI_ENETUNREACH:
		what = "peer unreachable: no route to its address from this "
		       "domain's interface, or the network reported it "
		       "unreachable (ICMP) and it stayed silent";
		break;
	case FI_ETRUNC:
		what = "message longer than the posted receive buffer";
		break;
	case FI_ECANCELED:
		what = "operation cancelled";
		break;
	case FI_ENOMSG:
		what = "no matching message (peek)";
		break;
	case FI_EMSGSIZE:
		what = "message larger than one packet (DGRAM)";
		break;
	default:
		what = prov_errno ? fi_strerror(err) : "no detail";
		break;
	}
	snprintf(buf, len, "uet: %s", what);
	return buf;
}

static const char *uet_cq_strerror(struct fid_cq *fid, int prov_errno,
				   const void *err_data, char *buf, size_t len)
{
	(void)fid;
	(void)err_data;
	return uet_prov_strerror(prov_errno, buf, len);
}

static int uet_cq_control(struct fid *fid, int command, void *arg)
{
	struct uet_cq *cq = uet_container_of(fid, struct uet_cq, fid.fid);

	return uet_wait_control(cq->wait_obj,
				cq->domain->ops->wait_fd(cq->domain->dev),
				command, arg);
}

static int uet_cq_close(struct fid *fid)
{
	struct uet_cq *cq = uet_container_of(fid, struct uet_cq, fid.fid);
	struct uet_dlist *l;

	if (atomic_load(&cq->ref))
		return -FI_EBUSY;
	if (cq->wait_set)
		uet_wait_leave(cq->wait_set, &cq->fid.fid);
	while ((l = uet_dlist_pop_head(&cq->overflow)) != NULL)
		free(uet_container_of(l, struct uet_cq_ovf, entry));
	while ((l = uet_dlist_pop_head(&cq->errors)) != NULL)
		free(uet_container_of(l, struct uet_cq_err, entry));
	close(cq->signal_fd);
	free(cq->ring);
	uet_bind_set_fini(&cq->bound);
	pthread_mutex_destroy(&cq->lock);
	atomic_fetch_sub(&cq->domain->ref, 1);
	free(cq);
	return 0;
}

static struct fi_ops uet_cq_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = uet_cq_close,
	.bind = uet_no_bind,
	.control = uet_cq_control,
	.ops_open = uet_no_ops_open,
	.tostr = uet_no_tostr,
	.ops_set = uet_no_ops_set,
};

static struct fi_ops_cq uet_cq_ops = {
	.size = sizeof(struct fi_ops_cq),
	.read = uet_cq_read,
	.readfrom = uet_cq_readfrom,
	.readerr = uet_cq_readerr,
	.sread = uet_cq_sread,
	.sreadfrom = uet_cq_sreadfrom,
	.signal = uet_cq_signal,
	.strerror = uet_cq_strerror,
};

int uet_cq_open(struct fid_domain *domain, struct fi_cq_attr *attr,
		struct fid_cq **out, void *context)
{
	struct uet_wait *ws;
	struct uet_domain *dom;
	struct uet_cq *cq;
	int ret;

	if (!domain || !attr || !out)
		return -FI_EINVAL;
	*out = NULL;
	dom = uet_container_of(domain, struct uet_domain, fid);
#if UET_HAVE_PEER
	/* FI_PEER: an imported CQ; completions go to the owner's
	 * (context: struct fi_peer_cq_context) */
	if (attr->flags & ~(uint64_t)(FI_AFFINITY | FI_PEER))
		return -FI_EINVAL;
	if ((attr->flags & FI_PEER) &&
	    (!context ||
	     ((struct fi_peer_cq_context *)context)->size <
	     sizeof(struct fi_peer_cq_context) ||
	     !((struct fi_peer_cq_context *)context)->cq ||
	     !((struct fi_peer_cq_context *)context)->cq->owner_ops))
		return -FI_EINVAL;
#else
	if (attr->flags & ~(uint64_t)FI_AFFINITY)
		return -FI_EINVAL;
#endif
	ret = uet_wait_attr_check(attr->wait_obj, attr->wait_set, &ws);
	if (ret)
		return ret;
	if (attr->wait_cond != FI_CQ_COND_NONE &&
	    attr->wait_cond != FI_CQ_COND_THRESHOLD)
		return -FI_EINVAL;
	cq = calloc(1, sizeof(*cq));
	if (!cq)
		return -FI_ENOMEM;
	cq->format = attr->format == FI_CQ_FORMAT_UNSPEC ?
		     FI_CQ_FORMAT_CONTEXT : attr->format;
	cq->entry_size = uet_cq_format_size(cq->format);
	if (!cq->entry_size) {
		ret = -FI_ENOSYS;
		goto err_free;
	}
	cq->wait_obj = attr->wait_obj;
	cq->size = attr->size ? attr->size : UET_CQ_DEF_SIZE;
	cq->ring = calloc(cq->size, sizeof(*cq->ring));
	if (!cq->ring) {
		ret = -FI_ENOMEM;
		goto err_free;
	}
	cq->signal_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (cq->signal_fd < 0) {
		ret = -errno;
		goto err_ring;
	}
	pthread_mutex_init(&cq->lock, NULL);
	uet_bind_set_init(&cq->bound);
	uet_dlist_init(&cq->overflow);
	uet_dlist_init(&cq->errors);
	cq->domain = dom;
	atomic_init(&cq->ref, 0);
	atomic_init(&cq->signaled, false);
	atomic_init(&cq->held, 0);
	cq->fid.fid.fclass = FI_CLASS_CQ;
	cq->fid.fid.context = context;
#if UET_HAVE_PEER
	if (attr->flags & FI_PEER) {
		cq->peer = ((struct fi_peer_cq_context *)context)->cq;
		cq->fid.fid.context = NULL;
	}
#endif
	cq->fid.fid.ops = &uet_cq_fi_ops;
	cq->fid.ops = &uet_cq_ops;
	if (ws) {
		ret = uet_wait_join(ws, &cq->fid.fid, dom, cq->signal_fd);
		if (ret)
			goto err_lock;
		cq->wait_set = ws;
	}
	atomic_fetch_add(&dom->ref, 1);
	*out = &cq->fid;
	return 0;

err_lock:
	uet_bind_set_fini(&cq->bound);
	pthread_mutex_destroy(&cq->lock);
	close(cq->signal_fd);
err_ring:
	free(cq->ring);
err_free:
	free(cq);
	return ret;
}
