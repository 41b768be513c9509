/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * PDC table and life cycle: keys, PDCID allocation, creation, teardown,
 * failure, restart after INV_DPDCID, idle close and clear.
 *
 * Keys (byte keys, canonical, no padding):
 *   initiator  {job_id (24 bits BE), destination FA, tc, mode}
 *   target     {source FA, source PDCID (BE)}
 *   id_map     local PDCID (u64 map), for every PDC of either role
 * PDCIDs are allocated from one rolling 16-bit counter (random start,
 * never 0, skipping PDCIDs in use), so a PDCID is not reused until the
 * counter wraps: a late packet of a closed PDC does not hit its
 * successor.
 *
 * Life cycle (docs/software-nic.md (PDS) has the diagrams):
 *   initiator  SYN_SENT --first ACK--> ESTABLISHED --idle--> CLOSE_ACK_WAIT
 *              --ACK of the CLOSE_COMMAND (or retries exhausted)--> freed.
 *              INV_DPDCID in SYN_SENT/ESTABLISHED restarts it (new PDCID,
 *              new Start_PSN, unacked packets renumbered and resent).
 *   target     T_ESTABLISHED --idle 2x--> T_CLOSE_REQ_WAIT (CLOSE_REQUEST
 *              sent; any request brings it back) --CLOSE_COMMAND or
 *              retries exhausted--> freed.
 *   either     retries exhausted on a packet -> every outstanding packet
 *              fails (-ETIMEDOUT) and the PDC is freed.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_byteorder.h"
#include "uet_csprng.h"
#include "uet_pds_internal.h"

int uet_pds_ini_key(const struct uet_pds_key *key,
		    uint8_t out[UET_PDS_INI_KEY_LEN])
{
	int ret;

	if (key->job_id > UET_JOB_ID_MAX)
		return -EINVAL;
	uet_put_be24(out, key->job_id);
	ret = uet_link_addr_key(&key->dst, out + 3);
	if (ret)
		return ret;
	out[3 + UET_PDS_ADDR_KEY_LEN] = key->tc;
	out[4 + UET_PDS_ADDR_KEY_LEN] = key->mode;
	return 0;
}

struct uet_pdc *uet_pdc_by_id(struct uet_pds *pds, uint16_t lpdcid)
{
	struct uet_pdc **slot = &pds->id_cache[lpdcid &
						 (UET_PDS_ID_CACHE - 1)];
	struct uet_pdc *pdc = *slot;
	struct uet_hnode *n;

	if (!lpdcid)
		return NULL;
	/* A few live PDCs carry the traffic: no hash lookup for them.  A
	 * restart changes pdc->lpdcid (the old one no longer matches);
	 * teardown forgets the PDC before freeing it. */
	if (pdc && pdc->lpdcid == lpdcid) {
		pds->st.pdc_id_cached++;
		return pdc;
	}
	n = uet_hashmap_lookup_u64(&pds->id_map, lpdcid);
	if (!n)
		return NULL;
	pdc = uet_container_of(n, struct uet_pdc, id_node);
	*slot = pdc;
	return pdc;
}

struct uet_pdc *uet_pdc_by_ini_key(const struct uet_pds *pds,
				   const uint8_t key[UET_PDS_INI_KEY_LEN])
{
	struct uet_hnode *n = uet_hashmap_lookup_bytes(&pds->ini_map, key);

	return n ? uet_container_of(n, struct uet_pdc, key_node) : NULL;
}

struct uet_pdc *uet_pdc_by_ini_key_last(struct uet_pds *pds,
					const uint8_t key[UET_PDS_INI_KEY_LEN])
{
	struct uet_pdc *pdc = pds->ini_last;

	if (pdc && !memcmp(pdc->key, key, UET_PDS_INI_KEY_LEN))
		return pdc;
	pdc = uet_pdc_by_ini_key(pds, key);
	pds->ini_last = pdc;
	return pdc;
}

struct uet_pdc *uet_pdc_by_tgt_key(const struct uet_pds *pds,
				   const uint8_t key[UET_PDS_TGT_KEY_LEN])
{
	struct uet_hnode *n = uet_hashmap_lookup_bytes(&pds->tgt_map, key);

	return n ? uet_container_of(n, struct uet_pdc, key_node) : NULL;
}

void *uet_pdc_handle(const struct uet_pdc *pdc)
{
	return (void *)(((uintptr_t)pdc->gen << 16) | pdc->lpdcid);
}

struct uet_pdc *uet_pdc_from_handle(struct uet_pds *pds, void *h)
{
	struct uet_pdc *pdc;

	pdc = uet_pdc_by_id(pds, (uint16_t)((uintptr_t)h & 0xffff));
	if (!pdc || uet_pdc_handle(pdc) != h)
		return NULL;
	return pdc;
}

/* A value an off-path attacker must not guess: from the CSPRNG, or
 * from the PDS generator (whose outputs reveal its state) when a test
 * fixed the seed. */
static uint64_t uet_pdc_secret(struct uet_pds *pds)
{
	return pds->cfg.seed ? uet_pds_rand(pds) : uet_csprng_u64();
}

/* PDCIDs are unpredictable (issue 30, findings 5 and 7: with a rolling
 * counter, one PDCID seen gives every other): a random start, then the
 * first free one after it.  Terminates: fewer than 65,535 are in use
 * (max_pdcs). */
static int uet_pdc_alloc_id(struct uet_pds *pds, uint16_t *id)
{
	uint16_t c = (uint16_t)uet_pdc_secret(pds);
	unsigned int i;

	for (i = 0; i <= UINT16_MAX; i++, c++) {
		if (c && !uet_hashmap_lookup_u64(&pds->id_map, c)) {
			*id = c;
			return 0;
		}
	}
	return -ENOMEM;
}

/* Start_PSNs are unpredictable too, unless a test fixed them. */
static uint32_t uet_pdc_new_start_psn(struct uet_pds *pds)
{
	if (pds->cfg.fixed_start_psn)
		return pds->cfg.start_psn;
	return (uint32_t)uet_pdc_secret(pds);
}

static int uet_pdc_alloc(struct uet_pds *pds, uint32_t start_psn,
			 uint64_t now, struct uet_pdc **out)
{
	struct uet_pdc *pdc;
	int ret;

	if (pds->npdcs >= pds->cfg.max_pdcs)
		return -ENOMEM;
	pdc = calloc(1, sizeof(*pdc));
	if (!pdc)
		return -ENOMEM;
	ret = uet_pdc_alloc_id(pds, &pdc->lpdcid);
	if (ret)
		goto err_free;
	pdc->start_psn = start_psn;
	pdc->gen = pds->next_gen++;
	pdc->last_active_ns = now;
	pdc->last_heard_ns = now;
	pdc->last_alive_ns = now;
	pdc->doom_ns = UINT64_MAX;
	uet_dlist_init(&pdc->entry);
	uet_dlist_init(&pdc->touch_entry);
	ret = uet_pdc_tx_init(pds, pdc);
	if (ret)
		goto err_free;
	ret = uet_pdc_rx_init(pds, pdc);
	if (ret)
		goto err_tx;
	uet_hashmap_insert_u64(&pds->id_map, &pdc->id_node, pdc->lpdcid);
	uet_dlist_insert_tail(&pds->pdcs, &pdc->entry);
	uet_pdc_touch(pds, pdc);
	pds->npdcs++;
	UET_PDS_INC(pds, pdc, pdc_opened);
	*out = pdc;
	return 0;

err_tx:
	uet_pdc_tx_fini(pds, pdc);
err_free:
	free(pdc);
	return ret;
}

int uet_pdc_create_ini(struct uet_pds *pds, const struct uet_pds_key *key,
		       const uint8_t ikey[UET_PDS_INI_KEY_LEN], uint64_t now,
		       struct uet_pdc **out)
{
	struct uet_pdc *pdc;
	int ret;

	ret = uet_pdc_alloc(pds, uet_pdc_new_start_psn(pds), now, &pdc);
	if (ret)
		return ret;
	pdc->initiator = true;
	pdc->verified = true;
	pdc->state = UET_PDC_SYN_SENT;
	pdc->mode = key->mode;
	pdc->peer = key->dst;
	uet_pds_cc_attach(pds, pdc);
	memcpy(pdc->key, ikey, UET_PDS_INI_KEY_LEN);
	uet_hashmap_insert_bytes(&pds->ini_map, &pdc->key_node, pdc->key);
	pdc->in_key_map = true;
	*out = pdc;
	return 0;
}

int uet_pdc_create_tgt(struct uet_pds *pds, const struct uet_link_addr *src,
		       const uint8_t tkey[UET_PDS_TGT_KEY_LEN], uint16_t spdcid,
		       uint8_t mode, uint32_t start_psn, uint64_t now,
		       struct uet_pdc **out)
{
	struct uet_pdc *pdc;
	int ret;

	ret = uet_pdc_alloc(pds, start_psn, now, &pdc);
	if (ret)
		return ret;
	pdc->initiator = false;
	pdc->fresh = true;
	pdc->state = UET_PDC_T_ESTABLISHED;
	pdc->mode = mode;
	pdc->peer = *src;
	uet_pds_cc_attach(pds, pdc);
	pdc->rpdcid = spdcid;
	memcpy(pdc->key, tkey, UET_PDS_TGT_KEY_LEN);
	if (!uet_pds_src_add(pds, tkey))
		pdc->src_counted = true;
	uet_hashmap_insert_bytes(&pds->tgt_map, &pdc->key_node, pdc->key);
	pdc->in_key_map = true;
	*out = pdc;
	return 0;
}

void uet_pdc_unkey(struct uet_pds *pds, struct uet_pdc *pdc)
{
	if (pds->ini_last == pdc)
		pds->ini_last = NULL;
	if (!pdc->in_key_map)
		return;
	uet_hashmap_remove(pdc->initiator ? &pds->ini_map : &pds->tgt_map,
			   &pdc->key_node);
	pdc->in_key_map = false;
}

void uet_pdc_teardown(struct uet_pds *pds, struct uet_pdc *pdc)
{
	unsigned int i;

	if (pdc->nout)
		uet_pdc_tx_fail_all(pds, pdc, -ECONNRESET);
	if (!pdc->initiator && !pdc->fresh)
		uet_pds_closed_note(pds, pdc);
	if (pdc->src_counted) {
		uet_pds_src_unhold(pds, pdc, pdc->nheld_src);
		uet_pds_src_del(pds, pdc->key);
	}
	pdc->src_counted = false;
	uet_pdc_unkey(pds, pdc);
	uet_hashmap_remove(&pds->id_map, &pdc->id_node);
	/* Every slot: a restarted PDC may sit under its old PDCID too. */
	for (i = 0; i < UET_PDS_ID_CACHE; i++)
		if (pds->id_cache[i] == pdc)
			pds->id_cache[i] = NULL;
	uet_dlist_remove(&pdc->entry);
	if (uet_dlist_linked(&pdc->touch_entry))
		uet_dlist_remove(&pdc->touch_entry);
	pds->npdcs--;
	pdc->state = UET_PDC_CLOSED;
	uet_pdc_rx_fini(pds, pdc);
	uet_pdc_tx_fini(pds, pdc);
	uet_pds_cc_detach(pds, pdc);
	free(pdc);
}

void uet_pdc_fail(struct uet_pds *pds, struct uet_pdc *pdc, int status)
{
	if (status != -ECANCELED)
		UET_PDS_INC(pds, pdc, pdc_failed);
	uet_pdc_tx_fail_all(pds, pdc, status);
	uet_pdc_teardown(pds, pdc);
}

void uet_pdc_restart(struct uet_pds *pds, struct uet_pdc *pdc, uint64_t now)
{
	struct uet_pds_tx_pkt *pkt;
	struct uet_dlist redo;
	uint16_t id;
	uint32_t psn, n = 0;

	if (!pdc->initiator) {
		/* The initiator forgot the PDC our replies travel on. */
		uet_pdc_fail(pds, pdc, -ECONNRESET);
		return;
	}
	if (pdc->state == UET_PDC_CLOSE_ACK_WAIT) {
		/* The target already forgot it: closed. */
		UET_PDS_INC(pds, pdc, pdc_closed);
		uet_pdc_teardown(pds, pdc);
		return;
	}

	/* Unacked packets go again; acked ones lost their response. */
	uet_dlist_init(&redo);
	for (psn = pdc->oldest; psn != pdc->next_psn; psn++) {
		pkt = pdc->ring[psn & pds->ring_mask];
		if (!pkt)
			continue;
		pdc->ring[psn & pds->ring_mask] = NULL;
		if (pkt->priv.acked) {
			pdc->nout--;
			uet_pds_complete(pds, pkt, -ECONNRESET, UET_HDR_NONE,
					 NULL, 0);
			continue;
		}
		uet_dlist_remove(&pkt->priv.entry);
		uet_dlist_insert_tail(&redo, &pkt->priv.entry);
		n++;
	}
	if (!n) {
		uet_pdc_teardown(pds, pdc);
		return;
	}

	/* New identity: late packets of the old one find nothing. */
	if (!uet_pdc_alloc_id(pds, &id)) {
		uet_hashmap_remove(&pds->id_map, &pdc->id_node);
		pdc->lpdcid = id;
		uet_hashmap_insert_u64(&pds->id_map, &pdc->id_node, id);
	}
	pdc->gen = pds->next_gen++;
	pdc->start_psn = uet_pdc_new_start_psn(pds);
	pdc->rpdcid = 0;
	pdc->state = UET_PDC_SYN_SENT;
	pdc->next_psn = pdc->start_psn;
	pdc->snd_una = pdc->start_psn;
	pdc->oldest = pdc->start_psn;
	pdc->backoff = 0;
	pdc->rto_fired = false;
	pdc->rack_valid = false;
	pdc->sacked = 0;
	pdc->reo_due_ns = UINT64_MAX;
	pdc->tlp_due_ns = UINT64_MAX;
	pdc->tlp_out = false;
	pdc->epoch++;
	pdc->rsp_since_clear = false;
	uet_pdc_rx_reset(pds, pdc);

	while ((pkt = uet_dlist_first_entry(&redo, struct uet_pds_tx_pkt,
					    priv.entry))) {
		uet_dlist_remove(&pkt->priv.entry);
		pkt->priv.psn = pdc->next_psn++;
		pdc->ring[pkt->priv.psn & pds->ring_mask] = pkt;
		pkt->priv.state = UET_PKT_SENT;
		pkt->priv.nack_retx = false;
		pkt->priv.ar = uet_dlist_empty(&redo);
		pkt->priv.tx_count++;
		pkt->priv.last_tx_ns = now;
		pkt->priv.tx_seq = pdc->tx_seq++;
		pkt->priv.rack_retx = false;
		uet_dlist_insert_tail(&pdc->sent, &pkt->priv.entry);
		UET_PDS_INC(pds, pdc, retx);
		UET_PDS_INC(pds, pdc, retx_nack);
		uet_pds_out_pkt(pds, pkt, now);
	}
	pdc->nout = n;
	pdc->last_active_ns = now;
	uet_pdc_touch(pds, pdc);
	/* The timer may be off (everything was on `nacked`). */
	pdc->rto_due_ns = now + uet_pds_rto_backoff(pds, &pdc->rtt, 0);
}

void uet_pdc_send_cp(struct uet_pds *pds, struct uet_pdc *pdc,
		     uint8_t ctl_type, uint32_t psn, bool retx, bool ar,
		     uint16_t probe_opaque, uint64_t now)
{
	uint8_t buf[UET_PDS_CP_LEN_MAX];
	struct uet_pds_cp cp;
	ssize_t n;

	if (!pdc->rpdcid)
		return;		/* a CP with syn=0 needs the DPDCID */
	memset(&cp, 0, sizeof(cp));
	cp.ctl_type = ctl_type;
	cp.isrod = pdc->mode == UET_PDS_MODE_ROD;
	cp.retx = retx;
	cp.ar = ar;
	cp.probe_opaque = probe_opaque;
	cp.psn = psn;
	cp.spdcid = pdc->lpdcid;
	cp.dpdcid = pdc->rpdcid;
	/* UE 1.0.1's payload (bytes 12-15): the PSN a clear names; 0 for
	 * the rest (docs/conformance.md) */
	if (ctl_type == UET_CTL_CLEAR_COMMAND ||
	    ctl_type == UET_CTL_CLEAR_REQUEST)
		cp.payload = psn;
	n = uet_pds_cp_encode(pds->cfg.wire, buf, sizeof(buf), &cp);
	if (n <= 0)
		return;
	UET_PDS_INC(pds, pdc, cp_tx);
	uet_pds_out_ctl(pds, &pdc->peer, pdc->lpdcid, buf, (size_t)n, now);
}

void uet_pdc_start_close(struct uet_pds *pds, struct uet_pdc *pdc,
			 uint64_t now)
{
	uet_pdc_unkey(pds, pdc);
	uet_pdc_touch(pds, pdc);
	pdc->state = UET_PDC_CLOSE_ACK_WAIT;
	pdc->close_psn = pdc->next_psn;
	pdc->close_tries = 0;
	pdc->close_due_ns = now + uet_pds_rto_backoff(pds, &pdc->rtt, 0);
	uet_pdc_send_cp(pds, pdc, UET_CTL_CLOSE_COMMAND, pdc->close_psn,
			false, true, 0, now);
}

static bool uet_pdc_idle(const struct uet_pdc *pdc)
{
	return pdc->nout == 0 && uet_pdc_rx_idle(pdc);
}

static uint64_t uet_pdc_idle_limit(const struct uet_pds *pds,
				   const struct uet_pdc *pdc)
{
	uint64_t t = pds->cfg.idle_close_ns;

	/* Targets wait twice as long, so the initiator normally closes. */
	if (!pdc->initiator)
		t = t > UINT64_MAX / 2 ? UINT64_MAX : 2 * t;
	return t;
}

static uint64_t uet_pdc_add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* The closing handshake timed out: forget the PDC anyway. */
static bool uet_pdc_close_retry(struct uet_pds *pds, struct uet_pdc *pdc,
				uint8_t ctl_type, uint64_t now)
{
	if (now < pdc->close_due_ns)
		return true;
	if (pdc->close_tries >= pds->cfg.max_retries) {
		UET_PDS_INC(pds, pdc, pdc_closed);
		uet_pdc_teardown(pds, pdc);
		return false;
	}
	pdc->close_tries++;
	pdc->close_due_ns = now + uet_pds_rto_backoff(pds, &pdc->rtt,
						      pdc->close_tries);
	uet_pdc_send_cp(pds, pdc, ctl_type, pdc->close_psn, true, true, 0,
			now);
	return true;
}

bool uet_pdc_lifecycle_timer(struct uet_pds *pds, struct uet_pdc *pdc,
			     uint64_t now)
{
	uint64_t idle = pds->cfg.idle_close_ns;
	bool quiet = uet_pdc_idle(pdc);

	switch (pdc->state) {
	case UET_PDC_ESTABLISHED:
		if (quiet && pdc->rsp_since_clear &&
		    now >= pdc->last_active_ns + pdc->rtt.rto) {
			/* Let the target drop the responses it retains. */
			pdc->rsp_since_clear = false;
			uet_pdc_send_cp(pds, pdc, UET_CTL_CLEAR_COMMAND,
					pdc->next_psn, false, false, 0, now);
		}
		if (idle && quiet &&
		    now >= uet_pdc_add_sat(pdc->last_active_ns, idle))
			uet_pdc_start_close(pds, pdc, now);
		return true;
	case UET_PDC_SYN_SENT:
		if (quiet && idle &&
		    now >= uet_pdc_add_sat(pdc->last_active_ns, idle)) {
			UET_PDS_INC(pds, pdc, pdc_closed);
			uet_pdc_teardown(pds, pdc);
			return false;
		}
		return true;
	case UET_PDC_CLOSE_ACK_WAIT:
		return uet_pdc_close_retry(pds, pdc, UET_CTL_CLOSE_COMMAND,
					   now);
	case UET_PDC_T_ESTABLISHED:
		if (idle && quiet &&
		    now >= uet_pdc_add_sat(pdc->last_active_ns,
					   uet_pdc_idle_limit(pds, pdc))) {
			pdc->state = UET_PDC_T_CLOSE_REQ_WAIT;
			pdc->close_psn = pdc->next_psn;
			pdc->close_tries = 0;
			pdc->close_due_ns = now +
				uet_pds_rto_backoff(pds, &pdc->rtt, 0);
			uet_pdc_send_cp(pds, pdc, UET_CTL_CLOSE_REQUEST,
					pdc->close_psn, false, false, 0, now);
		}
		return true;
	case UET_PDC_T_CLOSE_REQ_WAIT:
		return uet_pdc_close_retry(pds, pdc, UET_CTL_CLOSE_REQUEST,
					   now);
	default:
		return true;
	}
}

uint64_t uet_pdc_lifecycle_deadline(const struct uet_pds *pds,
				    const struct uet_pdc *pdc)
{
	uint64_t idle = pds->cfg.idle_close_ns, next = UINT64_MAX;
	bool quiet = uet_pdc_idle(pdc);

	switch (pdc->state) {
	case UET_PDC_ESTABLISHED:
		if (quiet && pdc->rsp_since_clear)
			next = pdc->last_active_ns + pdc->rtt.rto;
		if (quiet && idle)
			next = uet_pds_min64(next,
				uet_pdc_add_sat(pdc->last_active_ns, idle));
		return next;
	case UET_PDC_SYN_SENT:
	case UET_PDC_T_ESTABLISHED:
		if (quiet && idle)
			return uet_pdc_add_sat(pdc->last_active_ns,
					       uet_pdc_idle_limit(pds, pdc));
		return UINT64_MAX;
	case UET_PDC_CLOSE_ACK_WAIT:
	case UET_PDC_T_CLOSE_REQ_WAIT:
		return pdc->close_due_ns;
	default:
		return UINT64_MAX;
	}
}
