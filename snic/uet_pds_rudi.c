/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RUDI and UUD: the delivery modes without a PDC.
 *
 * RUDI initiator: each packet gets the next pkt_id of the NIC and waits
 * in rudi_ring[pkt_id & ring_mask] (at most cfg.window outstanding) until
 * its RUDI response (type 5) arrives; it is retransmitted on an RTO that
 * doubles per retry (one NIC-wide RTT estimate, Karn's rule) and fails
 * with -ETIMEDOUT once it has been retransmitted cfg.max_retries times
 * and cfg.dead_ns have passed since it was first sent or last NACKed.  A
 * RUDI NACK (nt = 1) shows the target alive: it resets the retry count
 * and postpones the next retransmission by an RTO that doubles with
 * every NACK of the packet.
 *
 * RUDI target: a FIFO cache of the last UET_PDS_RUDI_CACHE {source FA,
 * pkt_id} with the SES response sent for each.  A request found there is
 * a duplicate: the response is sent again and SES does not see it.  A
 * new request goes to SES; its response (or the Default SES Response
 * when SES gave none) rides on the RUDI response.  SES answering -EAGAIN
 * gets a NACK NO_PKT_BUF and nothing is cached.
 *
 * UUD: a pkt_id per packet, no acknowledgement, no retransmission;
 * tx_done(0) once the link has accepted the datagram.  The receiver
 * delivers whatever arrives.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_byteorder.h"
#include "uet_pds_internal.h"

int uet_pds_rudi_init(struct uet_pds *pds)
{
	int ret;

	pds->rudi_ring = calloc(pds->ring_size, sizeof(*pds->rudi_ring));
	if (!pds->rudi_ring)
		return -ENOMEM;
	pds->rudi_cache = calloc(UET_PDS_RUDI_CACHE, sizeof(*pds->rudi_cache));
	if (!pds->rudi_cache) {
		ret = -ENOMEM;
		goto err_ring;
	}
	ret = uet_hashmap_init(&pds->rudi_map, UET_PDS_RUDI_KEY_LEN,
			       UET_PDS_RUDI_CACHE);
	if (ret)
		goto err_cache;
	uet_dlist_init(&pds->rudi_out);
	pds->rudi_rtt.rto = pds->cfg.rto_init_ns;
	pds->rudi_next_id = (uint32_t)uet_pds_rand(pds);
	pds->uud_next_id = (uint32_t)uet_pds_rand(pds);
	return 0;

err_cache:
	free(pds->rudi_cache);
err_ring:
	free(pds->rudi_ring);
	return ret;
}

void uet_pds_rudi_fini(struct uet_pds *pds)
{
	uet_hashmap_fini(&pds->rudi_map);
	free(pds->rudi_cache);
	free(pds->rudi_ring);
}

unsigned int uet_pds_rudi_space(const struct uet_pds *pds)
{
	return pds->rudi_nout < pds->cfg.window ?
	       pds->cfg.window - pds->rudi_nout : 0;
}

unsigned int uet_pds_uud_space(const struct uet_pds *pds)
{
	return pds->uud_pending < pds->cfg.window ?
	       pds->cfg.window - pds->uud_pending : 0;
}

static struct uet_pds_hbuf *uet_pds_hbuf_get(struct uet_pds *pds,
					     const struct uet_pds_key *key,
					     struct uet_pds_tx_pkt *pkt)
{
	uint8_t akey[UET_PDS_ADDR_KEY_LEN];
	struct uet_pds_hbuf *hb;

	if (uet_link_addr_key(&key->dst, akey))
		return NULL;
	hb = uet_bufpool_get(&pds->hbuf_pool);
	if (!hb)
		return NULL;
	hb->dst = key->dst;
	pkt->priv.pds_len = (uint8_t)uet_pds_mode_hdr_len(pds, key->mode);
	memcpy(hb->bytes + pkt->priv.pds_len, pkt->hdr, pkt->hdr_len);
	pkt->priv.hbuf = hb;
	return hb;
}

int uet_pds_rudi_send(struct uet_pds *pds, const struct uet_pds_key *key,
		      struct uet_pds_tx_pkt *pkt, uint64_t now)
{
	uint8_t akey[UET_PDS_ADDR_KEY_LEN];
	uint32_t id = pds->rudi_next_id;

	if (uet_link_addr_key(&key->dst, akey))
		return -EINVAL;
	if (!uet_pds_rudi_space(pds) || pds->rudi_ring[id & pds->ring_mask])
		return -EAGAIN;
	if (!uet_pds_hbuf_get(pds, key, pkt))
		return -ENOMEM;
	pds->rudi_next_id++;
	pkt->priv.psn = id;
	pkt->priv.state = UET_PKT_SENT;
	pkt->priv.first_tx_ns = now;
	pkt->priv.last_tx_ns = now;
	pkt->priv.due_ns = now + uet_pds_rto_backoff(pds, &pds->rudi_rtt, 0);
	pkt->priv.tx_count = 1;
	pds->rudi_ring[id & pds->ring_mask] = pkt;
	pds->rudi_nout++;
	uet_dlist_insert_tail(&pds->rudi_out, &pkt->priv.entry);
	uet_pds_out_pkt(pds, pkt, now);
	return 0;
}

int uet_pds_uud_send(struct uet_pds *pds, const struct uet_pds_key *key,
		     struct uet_pds_tx_pkt *pkt, uint64_t now)
{
	uint8_t akey[UET_PDS_ADDR_KEY_LEN];

	if (uet_link_addr_key(&key->dst, akey))
		return -EINVAL;
	if (!uet_pds_uud_space(pds))
		return -EAGAIN;
	if (!uet_pds_hbuf_get(pds, key, pkt))
		return -ENOMEM;
	pkt->priv.psn = pds->uud_next_id++;
	pkt->priv.state = UET_PKT_UUD;
	pkt->priv.first_tx_ns = now;
	pkt->priv.last_tx_ns = now;
	pkt->priv.tx_count = 1;
	pds->uud_pending++;
	uet_pds_out_pkt(pds, pkt, now);
	return 0;
}

void uet_pds_nopdc_encode_hdr(struct uet_pds *pds, struct uet_pds_tx_pkt *pkt)
{
	struct uet_pds_hbuf *hb = pkt->priv.hbuf;
	struct uet_pds_uud_req u;
	struct uet_pds_rudi r;

	if (pkt->priv.mode == UET_PDS_MODE_UUD) {
		memset(&u, 0, sizeof(u));
		u.next_hdr = pkt->next_hdr;
		u.pkt_id = pkt->priv.psn;
		(void)uet_pds_uud_req_encode(pds->cfg.wire, hb->bytes,
					     pkt->priv.pds_len, &u);
		return;
	}
	memset(&r, 0, sizeof(r));
	r.type = UET_PDS_TYPE_RUDI_REQ;
	r.next_hdr = pkt->next_hdr;
	r.retx = pkt->priv.tx_count > 1;
	r.pkt_id = pkt->priv.psn;
	(void)uet_pds_rudi_encode(pds->cfg.wire, hb->bytes, pkt->priv.pds_len,
				  &r);
}

/* ---- initiator ---- */

static struct uet_pds_tx_pkt *
uet_pds_rudi_find(const struct uet_pds *pds, uint32_t id,
		  const struct uet_link_addr *src)
{
	struct uet_pds_tx_pkt *pkt = pds->rudi_ring[id & pds->ring_mask];
	struct uet_pds_hbuf *hb;

	if (!pkt || pkt->priv.psn != id)
		return NULL;
	hb = pkt->priv.hbuf;
	return uet_link_addr_eq(&hb->dst, src) ? pkt : NULL;
}

static void uet_pds_rudi_done(struct uet_pds *pds, struct uet_pds_tx_pkt *pkt,
			      int status, uint8_t rsp_nh, const uint8_t *rsp,
			      size_t rsp_len)
{
	pds->rudi_ring[pkt->priv.psn & pds->ring_mask] = NULL;
	pds->rudi_nout--;
	uet_pds_complete(pds, pkt, status, rsp_nh, rsp, rsp_len);
}

void uet_pds_rudi_resp_rx(struct uet_pds *pds, const uint8_t *buf,
			  size_t len, const struct uet_link_addr *src,
			  uint64_t now)
{
	struct uet_pds_tx_pkt *pkt;
	struct uet_pds_rudi h;
	const uint8_t *rsp;
	size_t rsp_len;
	ssize_t hl;

	hl = uet_pds_rudi_decode(pds->cfg.wire, &h, buf, len);
	if (hl < 0) {
		pds->st.malformed++;
		return;
	}
	rsp = buf + hl;
	rsp_len = len - (size_t)hl;
	if (h.next_hdr == UET_HDR_NONE) {
		rsp = NULL;
		rsp_len = 0;
	} else if (rsp_len == 0 || rsp_len > UET_PDS_RSP_MAX) {
		pds->st.malformed++;
		return;
	}
	pds->st.ack_rx++;
	pkt = uet_pds_rudi_find(pds, h.pkt_id, src);
	if (!pkt)
		return;		/* a late duplicate: already done */
	if (pkt->priv.tx_count == 1)
		uet_pds_rtt_sample(pds, &pds->rudi_rtt,
				   now - pkt->priv.first_tx_ns);
	uet_pds_rudi_done(pds, pkt, 0, h.next_hdr, rsp, rsp_len);
}

void uet_pds_rudi_nack_rx(struct uet_pds *pds, const struct uet_pds_nack *n,
			  const struct uet_link_addr *src, uint64_t now)
{
	struct uet_pds_tx_pkt *pkt;

	pds->st.nack_rx++;
	pkt = uet_pds_rudi_find(pds, n->nack_psn, src);
	if (!pkt)
		return;
	/* Whatever the reason, the target is alive: a fresh retry budget,
	 * and try again after an RTO that doubles with every NACK. */
	pkt->priv.nack_retx = true;
	pkt->priv.retries = 0;
	pkt->priv.alive_ns = now;
	pkt->priv.due_ns = now + uet_pds_rto_backoff(pds, &pds->rudi_rtt,
						     pkt->priv.nacks);
	if (pkt->priv.nacks < UET_PDS_NACK_BACKOFF_MAX)
		pkt->priv.nacks++;
}

void uet_pds_rudi_timer(struct uet_pds *pds, uint64_t now)
{
	struct uet_pds_tx_pkt *pkt;
	uint64_t since;

	uet_dlist_foreach_entry_safe(&pds->rudi_out, pkt, priv.entry) {
		if (pkt->priv.due_ns > now)
			continue;
		since = pkt->priv.alive_ns > pkt->priv.first_tx_ns ?
			pkt->priv.alive_ns : pkt->priv.first_tx_ns;
		if (pkt->priv.retries >= pds->cfg.max_retries &&
		    now >= since && now - since >= pds->cfg.dead_ns) {
			uet_pds_rudi_done(pds, pkt, -ETIMEDOUT, UET_HDR_NONE,
					  NULL, 0);
			continue;
		}
		if (pkt->priv.retries < pds->cfg.max_retries)
			pkt->priv.retries++;
		if (pkt->priv.tx_count < UINT16_MAX)
			pkt->priv.tx_count++;
		pkt->priv.last_tx_ns = now;
		pkt->priv.due_ns = now + uet_pds_rto_backoff(pds,
				&pds->rudi_rtt, pkt->priv.retries);
		pds->st.retx++;
		if (pkt->priv.nack_retx)
			pds->st.retx_nack++;
		else
			pds->st.retx_timeout++;
		pkt->priv.nack_retx = false;
		uet_pds_out_pkt(pds, pkt, now);
	}
}

uint64_t uet_pds_rudi_deadline(const struct uet_pds *pds)
{
	const struct uet_pds_tx_pkt *pkt;
	uint64_t next = UINT64_MAX;

	uet_dlist_foreach_entry(&pds->rudi_out, pkt, priv.entry)
		next = uet_pds_min64(next, pkt->priv.due_ns);
	return next;
}

void uet_pds_rudi_fail_all(struct uet_pds *pds, int status)
{
	struct uet_pds_tx_pkt *pkt;

	uet_dlist_foreach_entry_safe(&pds->rudi_out, pkt, priv.entry)
		uet_pds_rudi_done(pds, pkt, status, UET_HDR_NONE, NULL, 0);
	uet_dlist_foreach_entry_safe(&pds->dataq, pkt, priv.qentry) {
		if (pkt->priv.state != UET_PKT_UUD)
			continue;
		pds->uud_pending--;
		uet_pds_complete(pds, pkt, status, UET_HDR_NONE, NULL, 0);
	}
}

/* ---- target ---- */

static void uet_pds_rudi_send_resp(struct uet_pds *pds,
				   const struct uet_link_addr *dst,
				   uint32_t pkt_id, bool retx,
				   const struct uet_pds_rsp *rsp, uint64_t now)
{
	uint8_t buf[UET_PDS_RUDI_LEN_MAX + UET_PDS_RSP_MAX];
	struct uet_pds_rudi h;
	ssize_t n;

	memset(&h, 0, sizeof(h));
	h.type = UET_PDS_TYPE_RUDI_RESP;
	h.next_hdr = rsp->next_hdr;
	h.retx = retx;
	h.pkt_id = pkt_id;
	n = uet_pds_rudi_encode(pds->cfg.wire, buf, sizeof(buf), &h);
	if (n < 0)
		return;
	memcpy(buf + n, rsp->buf, rsp->len);
	pds->st.ack_tx++;
	uet_pds_out_ctl(pds, dst, (uint16_t)pkt_id, buf,
			(size_t)n + rsp->len, now);
}

static void uet_pds_rudi_cache_add(struct uet_pds *pds,
				   const uint8_t key[UET_PDS_RUDI_KEY_LEN],
				   const struct uet_pds_rsp *rsp)
{
	struct uet_pds_rudi_ent *e;

	e = &pds->rudi_cache[pds->rudi_cache_next];
	pds->rudi_cache_next = (pds->rudi_cache_next + 1) % UET_PDS_RUDI_CACHE;
	if (e->used)
		uet_hashmap_remove(&pds->rudi_map, &e->node);
	memcpy(e->key, key, UET_PDS_RUDI_KEY_LEN);
	e->rsp = *rsp;
	e->used = !uet_hashmap_insert_bytes(&pds->rudi_map, &e->node, e->key);
}

/* Hand one PDC-less request to SES. */
static int uet_pds_nopdc_deliver(struct uet_pds *pds, uint8_t mode,
				 uint8_t next_hdr, uint32_t pkt_id,
				 const uint8_t *ses, size_t ses_len,
				 const struct uet_link_addr *src,
				 struct uet_pds_rsp *rsp)
{
	struct uet_pds_rx_info info;

	memset(rsp, 0, sizeof(*rsp));
	rsp->next_hdr = UET_HDR_NONE;
	if (!pds->have_up || !pds->up.rx)
		return -EAGAIN;
	info.src = src;
	info.mode = mode;
	info.next_hdr = next_hdr;
	info.psn = pkt_id;
	info.pdc = NULL;
	info.ses = ses;
	info.ses_len = ses_len;
	info.now = pds->now;
	return pds->up.rx(pds->up_ctx, &info, rsp);
}

void uet_pds_rudi_req_rx(struct uet_pds *pds, const uint8_t *buf, size_t len,
			 const struct uet_link_addr *src, uint64_t now)
{
	uint8_t key[UET_PDS_RUDI_KEY_LEN];
	struct uet_pds_rudi_ent *e;
	struct uet_pds_rsp rsp;
	struct uet_pds_rudi h;
	struct uet_hnode *n;
	ssize_t hl;
	int ret;

	hl = uet_pds_rudi_decode(pds->cfg.wire, &h, buf, len);
	if (hl < 0 || h.next_hdr == UET_HDR_NONE ||
	    uet_link_addr_key(src, key)) {
		pds->st.malformed++;
		return;
	}
	uet_put_be32(key + UET_PDS_ADDR_KEY_LEN, h.pkt_id);
	n = uet_hashmap_lookup_bytes(&pds->rudi_map, key);
	if (n) {
		e = uet_container_of(n, struct uet_pds_rudi_ent, node);
		pds->st.dup_rx++;
		uet_pds_rudi_send_resp(pds, src, h.pkt_id, true, &e->rsp, now);
		return;
	}
	ret = uet_pds_nopdc_deliver(pds, UET_PDS_MODE_RUDI, h.next_hdr,
				    h.pkt_id, buf + hl, len - (size_t)hl, src,
				    &rsp);
	if (ret == -EAGAIN) {
		uet_pds_send_nack(pds, src, UET_NACK_NO_PKT_BUF, true,
				  h.pkt_id, 0, 0, h.retx, now);
		return;
	}
	if (ret < 0)
		pds->st.malformed++;
	if (ret < 0 || rsp.next_hdr == UET_HDR_NONE ||
	    rsp.next_hdr > UET_HDR_MAX || rsp.len == 0 ||
	    rsp.len > UET_PDS_RSP_MAX) {
		uet_pds_default_rsp(pds, &rsp);
		pds->st.default_rsp_tx++;
	} else {
		pds->st.rsp_retained++;
	}
	uet_pds_rudi_cache_add(pds, key, &rsp);
	uet_pds_rudi_send_resp(pds, src, h.pkt_id, h.retx, &rsp, now);
}

void uet_pds_uud_rx(struct uet_pds *pds, const uint8_t *buf, size_t len,
		    const struct uet_link_addr *src, uint64_t now)
{
	struct uet_pds_uud_req h;
	struct uet_pds_rsp rsp;
	ssize_t hl;

	hl = uet_pds_uud_req_decode(pds->cfg.wire, &h, buf, len);
	if (hl < 0 || h.next_hdr == UET_HDR_NONE) {
		pds->st.malformed++;
		return;
	}
	/* No acknowledgement: a refusal or a response is simply dropped. */
	(void)uet_pds_nopdc_deliver(pds, UET_PDS_MODE_UUD, h.next_hdr,
				    h.pkt_id, buf + hl, len - (size_t)hl, src,
				    &rsp);
}
