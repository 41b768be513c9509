/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Notifications: SES completions and NIC events encoded with the HSI
 * codecs and written into a queue's notification ring, following the
 * conventions in uet_snic.h (docs/conformance.md E-4, E-5).
 *
 * When the ring has no room, entries wait in the NIC on the queue's
 * deferred list, in order, and are written by later doorbells and
 * progress; once something waits, newer entries queue behind it so the
 * order never changes.  A receive and its continuation entry are always
 * written together.  What waits is bounded: completions by the
 * operations in flight, events by the doorbell, which stops consuming
 * commands while a ring's worth of entries waits, and RXPOOL_EXHAUSTED
 * events are coalesced (one waits per queue, with the latest count).
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "uet_log.h"
#include "uet_snic_internal.h"
#include "uet_wire_consts.h"

/* Entries the producer may still write (it reads the consumer index
 * itself: the ring API reserves one entry at a time, and a receive with
 * its continuation needs two at once). */
static uint32_t snic_notifq_room(struct uet_hsi_notifq *nq)
{
	return uet_hsi_notifq_room(nq);
}

static void snic_post_locked(struct uet_snic_queue *q,
			     const uint8_t (*e)[UET_HSI_NOTIF_LEN],
			     unsigned int n)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = uet_hsi_notifq_post(&q->notifq, e[i]);
		/* room was checked by the only producer */
		if (ret) {
			q->dev->st.notif_dropped++;
			continue;
		}
		q->dev->st.notifs++;
	}
}

struct uet_snic_notif *uet_snic_notify_locked(struct uet_snic_queue *q,
				const uint8_t (*e)[UET_HSI_NOTIF_LEN],
				unsigned int n)
{
	struct uet_snic_dev *dev = q->dev;
	struct uet_snic_notif *rec;

	uet_snic_assert_locked(dev);
	if (uet_dlist_empty(&q->deferred) &&
	    snic_notifq_room(&q->notifq) >= n) {
		snic_post_locked(q, e, n);
		return NULL;
	}
	rec = uet_bufpool_get(&dev->notif_pool);
	if (!rec) {
		dev->st.notif_dropped += n;
		UET_WARN_ONCE(UET_LOG_EP_DATA, "software NIC: out of memory, "
			      "notification dropped\n");
		return NULL;
	}
	rec->n = n;
	memcpy(rec->e, e, (size_t)n * UET_HSI_NOTIF_LEN);
	uet_dlist_insert_tail(&q->deferred, &rec->entry);
	q->ndeferred += n;
	dev->st.notif_deferred += n;
	return rec;
}

unsigned int uet_snic_flush_locked(struct uet_snic_queue *q)
{
	struct uet_snic_dev *dev = q->dev;
	struct uet_snic_notif *rec;
	unsigned int done = 0;
	uint32_t room;

	if (uet_dlist_empty(&q->deferred))
		return 0;
	room = snic_notifq_room(&q->notifq);
	while (!uet_dlist_empty(&q->deferred)) {
		rec = uet_dlist_first_entry(&q->deferred, struct uet_snic_notif,
					    entry);
		if (room < rec->n)
			break;
		uet_dlist_remove(&rec->entry);
		snic_post_locked(q, (const uint8_t (*)[UET_HSI_NOTIF_LEN])
				 rec->e, rec->n);
		room -= rec->n;
		done += rec->n;
		q->ndeferred -= rec->n;
		if (q->rxpool == rec)
			q->rxpool = NULL;
		uet_bufpool_put(&dev->notif_pool, rec);
	}
	return done;
}

void uet_snic_drop_deferred_locked(struct uet_snic_queue *q)
{
	struct uet_snic_notif *rec;
	struct uet_dlist *e;

	while ((e = uet_dlist_pop_head(&q->deferred)) != NULL) {
		rec = uet_container_of(e, struct uet_snic_notif, entry);
		q->dev->st.notif_dropped += rec->n;
		uet_bufpool_put(&q->dev->notif_pool, rec);
	}
	q->ndeferred = 0;
	q->rxpool = NULL;
}

/* A negative errno as a notification status (enum uet_hsi_status). */
static uint16_t snic_status(int err)
{
	return uet_hsi_status_from_errno(err);
}

/* ---- SES upcalls ---- */

/* A send SES holds for retransmission: done for the provider now (its
 * success notification, when one is wanted); send_done later writes
 * nothing, a failure then is only counted (ses stats held_failed). */
void uet_snic_send_ok_locked(struct uet_snic_queue *q, uint64_t metadata,
			     uint64_t len)
{
	uint8_t e[1][UET_HSI_NOTIF_LEN];
	struct uet_hsi_send_cmpl sc;

	memset(&sc, 0, sizeof(sc));
	sc.flags = UET_RC_OK;
	sc.op_context = metadata;
	sc.bytes_sent = (uint32_t)len;
	uet_hsi_send_cmpl_encode(e[0], UET_HSI_NOTIF_LEN, &sc);
	uet_snic_notify_locked(q, (const uint8_t (*)[64])e, 1);
}

void uet_snic_send_held_locked(struct uet_snic_queue *q,
			       struct uet_snic_op *op, uint64_t len)
{
	if (op->completion)
		uet_snic_send_ok_locked(q, op->metadata, len);
	op->completion = false;
	op->held = true;
}

void uet_snic_ses_send_done(void *ctx, const struct uet_ses_send_cmpl *c)
{
	struct uet_snic_dev *dev = ctx;
	struct uet_snic_op *op = c->op_ctx;
	struct uet_snic_queue *q = op->q;
	uint8_t e[1][UET_HSI_NOTIF_LEN];
	struct uet_hsi_send_cmpl sc;

	if (q) {
		uet_dlist_remove(&op->entry);
		/* the last earlier transmit of a waiting FENCE: run again */
		if (q->ntx && !--q->ntx && q->fence_wait)
			q->stalled = true;
		if ((c->status && !op->held) || op->completion) {
			memset(&sc, 0, sizeof(sc));
			sc.flags = c->rc;
			sc.status = snic_status(c->status);
			sc.op_context = op->metadata;
			sc.bytes_sent = (uint32_t)c->len;
			uet_hsi_send_cmpl_encode(e[0], UET_HSI_NOTIF_LEN, &sc);
			uet_snic_notify_locked(q, (const uint8_t (*)[64])e, 1);
		}
	}
	uet_snic_op_free_locked(dev, op);
}

void uet_snic_recv_notify_locked(struct uet_snic_queue *q, uint64_t metadata,
				 const struct uet_ses_recv_cmpl *c, int err,
				 const void *first, size_t first_len)
{
	uint8_t e[2][UET_HSI_NOTIF_LEN];
	struct uet_hsi_recv_cont rc;
	struct uet_hsi_recv_notif rn;
	unsigned int n = 1;

	memset(&rn, 0, sizeof(rn));
	rn.status = snic_status(err);
	rn.src_id = c->mr_valid || !c->multi ?
		    uet_snic_peer_find_locked(q->dev, &c->src.fa) :
		    UET_HSI_PEER_UNKNOWN;
	rn.tag = c->tag;
	rn.total_length = (uint32_t)c->len;
	rn.buffer_id_0 = (uint16_t)metadata;
	rn.buffer_id_1 = (uint16_t)(metadata >> 16);
	/* E-5: the continuation entry */
	rn.continuation = c->has_data || c->olen || c->initiator || c->multi;
	/* Small messages also travel in the notification itself. */
	if (!err && first && c->len && c->len <= UET_HSI_RECV_INLINE_MAX &&
	    c->len <= first_len) {
		rn.is_inline = true;
		memcpy(rn.inline_data, first, (size_t)c->len);
	}
	uet_hsi_recv_notif_encode(e[0], UET_HSI_NOTIF_LEN, &rn);
	if (rn.continuation) {
		memset(&rc, 0, sizeof(rc));
		rc.has_data = c->has_data;
		rc.header_data = c->has_data ? c->header_data : 0;
		rc.olen = c->olen > UINT32_MAX ? UINT32_MAX :
			  (uint32_t)c->olen;
		rc.initiator = c->initiator & UET_HSI_CONT_INITIATOR_MAX;
		rc.mr_valid = c->mr_valid;
		rc.mr_offset = c->mr_valid ? c->mr_offset : 0;
		rc.mr_released = c->mr_released;
		uet_hsi_recv_cont_encode(e[1], UET_HSI_NOTIF_LEN, &rc);
		n = 2;
	}
	uet_snic_notify_locked(q, (const uint8_t (*)[64])e, n);
}

void uet_snic_ses_recv_done(void *ctx, const struct uet_ses_recv_cmpl *c)
{
	struct uet_snic_dev *dev = ctx;
	struct uet_snic_op *op = c->op_ctx;
	struct uet_snic_queue *q = op->q;
	/* A multi-receive buffer lives until its released completion. */
	bool last = !op->multi || c->mr_released;
	const uint8_t *first = op->rx_first;
	size_t first_len = op->rx_first_len;

	if (q && last)
		uet_dlist_remove(&op->entry);
	if (!q || (!c->status && !op->completion && !op->multi))
		goto out;
	if (op->multi) {
		/* The message's bytes start at its offset. */
		if (c->mr_valid && first && c->mr_offset <= first_len) {
			first += c->mr_offset;
			first_len -= (size_t)c->mr_offset;
		} else {
			first = NULL;
		}
	}
	uet_snic_recv_notify_locked(q, op->metadata, c, c->status, first,
				    first_len);
out:
	if (last)
		uet_snic_op_free_locked(dev, op);
}

void uet_snic_ses_rma_event(void *ctx, const struct uet_ses_rma_event *ev)
{
	struct uet_snic_dev *dev = ctx;
	struct uet_snic_queue *q = ev->ep_user;
	uint8_t e[2][UET_HSI_NOTIF_LEN];
	struct uet_hsi_recv_cont rc;
	struct uet_hsi_recv_notif rn;
	unsigned int n = 1;

	if (!q || (!q->rma_events && !ev->has_data))
		return;
	memset(&rn, 0, sizeof(rn));
	rn.rma = true;
	rn.src_id = uet_snic_peer_find_locked(dev, &ev->src.fa);
	rn.tag = ev->key;
	rn.total_length = ev->len > UINT32_MAX ? UINT32_MAX :
			  (uint32_t)ev->len;
	/* E-6: buffer_id_0 is the SES opcode of the RMA kind. */
	rn.buffer_id_0 = uet_ses_rma_opcode(ev->kind);
	rn.continuation = ev->has_data;
	uet_hsi_recv_notif_encode(e[0], UET_HSI_NOTIF_LEN, &rn);
	if (rn.continuation) {
		memset(&rc, 0, sizeof(rc));
		rc.has_data = true;
		rc.header_data = ev->header_data;
		rc.initiator = ev->initiator & UET_HSI_CONT_INITIATOR_MAX;
		uet_hsi_recv_cont_encode(e[1], UET_HSI_NOTIF_LEN, &rc);
		n = 2;
	}
	dev->st.rma_notifs++;
	uet_snic_notify_locked(q, (const uint8_t (*)[64])e, n);
}

/* ---- errors and events ---- */

void uet_snic_cmd_error_locked(struct uet_snic_queue *q, bool recv,
			       uint64_t metadata, int err)
{
	uint8_t e[1][UET_HSI_NOTIF_LEN];
	struct uet_hsi_recv_notif rn;
	struct uet_hsi_send_cmpl sc;

	if (recv) {
		memset(&rn, 0, sizeof(rn));
		rn.status = snic_status(err);
		rn.src_id = UET_HSI_PEER_UNKNOWN;
		rn.buffer_id_0 = (uint16_t)metadata;
		rn.buffer_id_1 = (uint16_t)(metadata >> 16);
		uet_hsi_recv_notif_encode(e[0], UET_HSI_NOTIF_LEN, &rn);
	} else {
		memset(&sc, 0, sizeof(sc));
		sc.status = snic_status(err);
		sc.op_context = metadata;
		uet_hsi_send_cmpl_encode(e[0], UET_HSI_NOTIF_LEN, &sc);
	}
	uet_snic_notify_locked(q, (const uint8_t (*)[64])e, 1);
}

static void snic_event_encode(uint8_t *e, struct uet_snic_queue *q,
			      uint8_t type, uint8_t sev, int err,
			      uint64_t data, uint64_t now)
{
	struct uet_hsi_event_notif ev;

	memset(&ev, 0, sizeof(ev));
	ev.event_type = type;
	ev.severity = sev;
	ev.status_code = (uint16_t)((err < 0 ? -err : err) &
				    UET_HSI_EVENT_CODE_MAX);
	ev.endpoint_id = q->pid_on_fep;
	ev.event_data = data;
	ev.timestamp = now;
	uet_hsi_event_notif_encode(e, UET_HSI_NOTIF_LEN, &ev);
}

void uet_snic_bad_cmd_locked(struct uet_snic_queue *q, uint32_t idx,
			     const uint8_t *seg, int err, uint64_t now)
{
	struct uet_snic_dev *dev = q->dev;
	uint8_t e[1][UET_HSI_NOTIF_LEN];
	unsigned int family, variant;
	uint64_t metadata = 0;
	uint8_t opcode, flags;
	bool msg, rma;

	dev->st.bad_cmds++;
	dev->st.events++;
	snic_event_encode(e[0], q, UET_HSI_EVENT_INVALID_DESCRIPTOR,
			  UET_HSI_SEV_ERROR, err, idx, now);
	uet_snic_notify_locked(q, (const uint8_t (*)[64])e, 1);
	UET_WARN_ONCE(UET_LOG_EP_DATA, "software NIC: invalid command "
		      "descriptor (%d), see the INVALID_DESCRIPTOR events\n",
		      err);
	if (!seg)
		return;
	/* The raw fields: the segment may not decode. */
	opcode = (uint8_t)uet_hsi_cmd_seg_peek_opcode(seg, UET_HSI_CMD_SEG_LEN);
	flags = (uint8_t)uet_hsi_cmd_seg_peek_flags(seg, UET_HSI_CMD_SEG_LEN);
	uet_hsi_cmd_seg_peek_metadata(seg, UET_HSI_CMD_SEG_LEN, &metadata);
	family = (opcode & UET_HSI_OP_FAMILY_MASK) >> UET_HSI_OP_FAMILY_SHIFT;
	variant = (opcode & UET_HSI_OP_VARIANT_MASK) >>
		  UET_HSI_OP_VARIANT_SHIFT;
	msg = (family == UET_HSI_FAMILY_MSG ||
	       family == UET_HSI_FAMILY_TAGGED) &&
	      variant <= UET_HSI_VARIANT_INJECT;
	/* RMA and atomics (reads too) complete as sends (E-6) */
	rma = (family == UET_HSI_FAMILY_RMA ||
	       family == UET_HSI_FAMILY_ATOMIC) &&
	      variant <= UET_HSI_VARIANT_INJECT;
	if (!msg && !rma && !(flags & UET_HSI_CMD_FLAG_COMPLETION))
		return;
	uet_snic_cmd_error_locked(q, msg && variant == UET_HSI_VARIANT_RECV,
				  metadata, -EINVAL);
}

void uet_snic_rxpool_check_locked(struct uet_snic_dev *dev, uint64_t now)
{
	uint8_t e[1][UET_HSI_NOTIF_LEN];
	uint64_t refused = uet_ses_unexp_refused(dev->ses);
	struct uet_snic_queue *q;

	if (refused == dev->refused_seen)
		return;
	dev->refused_seen = refused;
	uet_dlist_foreach_entry(&dev->queues, q, entry) {
		snic_event_encode(e[0], q, UET_HSI_EVENT_RXPOOL_EXHAUSTED,
				  UET_HSI_SEV_WARNING, 0, refused,
				  now);
		if (q->rxpool) {
			/* one waits already: give it the latest count */
			memcpy(q->rxpool->e[0], e[0], UET_HSI_NOTIF_LEN);
			continue;
		}
		dev->st.events++;
		q->rxpool = uet_snic_notify_locked(q,
					(const uint8_t (*)[64])e, 1);
	}
}
