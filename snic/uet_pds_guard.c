/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * PDS guards against a hostile network (docs/software-nic.md, "Hostile
 * network"): the memory of recently closed target PDCs (replays of their
 * packets are dropped), per-source target PDC counts, and the drop
 * causes with their rate-limited warnings.
 *
 * Closed PDCs: {source FA, source PDCID, Start_PSN} of the last
 * UET_PDS_CLOSED_MAX target PDCs that executed anything, each kept for
 * UET_PDS_CLOSED_NS.  A syn request that names one of them (same source,
 * same SPDCID, same Start_PSN) is a replay of a capture: a genuine
 * initiator opens every PDC with a new random Start_PSN.  So is one
 * whose PSN lies in what that PDC received, whatever Start_PSN its
 * edited psn_offset names.  Older captures
 * (evicted, or kept longer than that) are the exposure only TSS closes.
 *
 * Per-source counts: target PDCs per source address (IP and port,
 * max_pdcs_per_src) and per source IP (every port of it together,
 * max_pdcs_per_ip), so that rotating source ports does not multiply
 * what one host can hold (issue 30, finding 4).  Both live in src_map:
 * an IP's entry is its address key with the port zeroed.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_log.h"
#include "uet_pds_internal.h"

struct uet_pds_closed {
	struct uet_hnode node;		/* pds->closed_map while used */
	bool used;
	uint8_t key[UET_PDS_TGT_KEY_LEN];
	uint32_t start_psn;
	uint32_t end_psn;		/* first PSN it had not received */
	uint64_t expires_ns;
};

struct uet_pds_src {
	struct uet_hnode node;		/* pds->src_map */
	uint8_t key[UET_PDS_ADDR_KEY_LEN];
	uint32_t n;			/* target PDCs of this source */
	uint32_t held;			/* IP entries: ROD hold buffers of
					 * its PDCs */
};

int uet_pds_guard_init(struct uet_pds *pds)
{
	int ret;

	pds->closed = calloc(UET_PDS_CLOSED_MAX, sizeof(*pds->closed));
	if (!pds->closed)
		return -ENOMEM;
	ret = uet_hashmap_init(&pds->closed_map, UET_PDS_TGT_KEY_LEN, 0);
	if (ret)
		goto err_free;
	ret = uet_hashmap_init(&pds->src_map, UET_PDS_ADDR_KEY_LEN, 0);
	if (ret)
		goto err_closed_map;
	return 0;

err_closed_map:
	uet_hashmap_fini(&pds->closed_map);
err_free:
	free(pds->closed);
	pds->closed = NULL;
	return ret;
}

void uet_pds_guard_fini(struct uet_pds *pds)
{
	struct uet_hashmap_iter it;
	struct uet_hnode *n;
	struct uet_pds_src *s;

	/* Every target PDC is gone by now; free what is left anyway. */
	uet_hashmap_foreach(&pds->src_map, &it, n) {
		s = uet_container_of(n, struct uet_pds_src, node);
		free(s);
	}
	uet_hashmap_fini(&pds->src_map);
	uet_hashmap_fini(&pds->closed_map);
	free(pds->closed);
	pds->closed = NULL;
}

void uet_pds_closed_note(struct uet_pds *pds, const struct uet_pdc *pdc)
{
	struct uet_pds_closed *c;
	struct uet_hnode *n;

	n = uet_hashmap_lookup_bytes(&pds->closed_map, pdc->key);
	if (n) {
		c = uet_container_of(n, struct uet_pds_closed, node);
	} else {
		c = &pds->closed[pds->closed_next];
		pds->closed_next = (pds->closed_next + 1) % UET_PDS_CLOSED_MAX;
		if (c->used)
			uet_hashmap_remove(&pds->closed_map, &c->node);
		memcpy(c->key, pdc->key, UET_PDS_TGT_KEY_LEN);
		c->used = true;
		uet_hashmap_insert_bytes(&pds->closed_map, &c->node, c->key);
	}
	c->start_psn = pdc->start_psn;
	c->end_psn = uet_psn_window_base(&pdc->win);
	c->expires_ns = pds->now + UET_PDS_CLOSED_NS;
}

/* psn in [start, end) of the sequence space. */
static bool uet_psn_in(uint32_t psn, uint32_t start, uint32_t end)
{
	return psn - start < end - start;
}

bool uet_pdc_psn_seen(const struct uet_pdc *pdc, uint32_t psn)
{
	return uet_psn_in(psn, pdc->start_psn,
			  uet_psn_window_base(&pdc->win));
}

bool uet_pds_closed_replay(struct uet_pds *pds,
			   const uint8_t tkey[UET_PDS_TGT_KEY_LEN],
			   uint32_t start_psn, uint32_t psn)
{
	struct uet_pds_closed *c;
	struct uet_hnode *n;

	n = uet_hashmap_lookup_bytes(&pds->closed_map, tkey);
	if (!n)
		return false;
	c = uet_container_of(n, struct uet_pds_closed, node);
	/* A capture with its psn_offset edited names another Start_PSN
	 * but a PSN the PDC received (issue 30, finding 6). */
	if (c->expires_ns > pds->now &&
	    uet_psn_in(psn, c->start_psn, c->end_psn))
		return true;
	if (c->expires_ns <= pds->now || c->start_psn != start_psn) {
		/* Expired, or a new incarnation: forget it. */
		uet_hashmap_remove(&pds->closed_map, &c->node);
		c->used = false;
		return false;
	}
	return true;
}

static struct uet_pds_src *uet_pds_src_find(struct uet_pds *pds,
					    const uint8_t *key)
{
	struct uet_hnode *n = uet_hashmap_lookup_bytes(&pds->src_map, key);

	return n ? uet_container_of(n, struct uet_pds_src, node) : NULL;
}

/* The key of the source IP of an address key: its port (bytes 2-3 of
 * uet_link_addr_key) zeroed.  No address has port 0. */
static void uet_pds_ip_key(uint8_t ip[UET_PDS_ADDR_KEY_LEN],
			   const uint8_t *tkey)
{
	memcpy(ip, tkey, UET_PDS_ADDR_KEY_LEN);
	ip[2] = 0;
	ip[3] = 0;
}

static bool uet_pds_src_at(struct uet_pds *pds, const uint8_t *key,
			   uint32_t max)
{
	struct uet_pds_src *s;

	if (!max)
		return false;
	s = uet_pds_src_find(pds, key);
	return s && s->n >= max;
}

bool uet_pds_src_full(struct uet_pds *pds, const uint8_t *tkey)
{
	uint8_t ip[UET_PDS_ADDR_KEY_LEN];

	uet_pds_ip_key(ip, tkey);
	return uet_pds_src_at(pds, tkey, pds->cfg.max_pdcs_per_src) ||
	       uet_pds_src_at(pds, ip, pds->cfg.max_pdcs_per_ip);
}

static int uet_pds_src_inc(struct uet_pds *pds, const uint8_t *key)
{
	struct uet_pds_src *s = uet_pds_src_find(pds, key);

	if (!s) {
		s = calloc(1, sizeof(*s));
		if (!s)
			return -ENOMEM;
		memcpy(s->key, key, UET_PDS_ADDR_KEY_LEN);
		if (uet_hashmap_insert_bytes(&pds->src_map, &s->node,
					     s->key)) {
			free(s);
			return -ENOMEM;
		}
	}
	s->n++;
	return 0;
}

static void uet_pds_src_dec(struct uet_pds *pds, const uint8_t *key)
{
	struct uet_pds_src *s = uet_pds_src_find(pds, key);

	if (!s)
		return;
	if (--s->n == 0) {
		uet_hashmap_remove(&pds->src_map, &s->node);
		free(s);
	}
}

int uet_pds_src_add(struct uet_pds *pds, const uint8_t *tkey)
{
	uint8_t ip[UET_PDS_ADDR_KEY_LEN];
	int ret;

	uet_pds_ip_key(ip, tkey);
	ret = uet_pds_src_inc(pds, tkey);
	if (ret)
		return ret;
	ret = uet_pds_src_inc(pds, ip);
	if (ret)
		goto err_src;
	return 0;

err_src:
	uet_pds_src_dec(pds, tkey);
	return ret;
}

/* The entry of pdc's source IP, if pdc is counted against it. */
static struct uet_pds_src *uet_pds_src_ip(struct uet_pds *pds,
					  const struct uet_pdc *pdc)
{
	uint8_t ip[UET_PDS_ADDR_KEY_LEN];

	if (!pdc->src_counted)
		return NULL;
	uet_pds_ip_key(ip, pdc->key);
	return uet_pds_src_find(pds, ip);
}

bool uet_pds_src_hold(struct uet_pds *pds, struct uet_pdc *pdc)
{
	struct uet_pds_src *s = uet_pds_src_ip(pds, pdc);

	if (!s)
		return true;	/* our own PDCs: the per-PDC bound only */
	if (s->held >= UET_PDS_HOLD_PER_SRC(pds->cfg.window))
		return false;
	s->held++;
	pdc->nheld_src++;
	return true;
}

void uet_pds_src_unhold(struct uet_pds *pds, struct uet_pdc *pdc, uint32_t n)
{
	struct uet_pds_src *s;

	if (n > pdc->nheld_src)
		n = pdc->nheld_src;
	if (!n)
		return;
	pdc->nheld_src -= n;
	s = uet_pds_src_ip(pds, pdc);
	if (s)
		s->held -= n < s->held ? n : s->held;
}

void uet_pds_src_del(struct uet_pds *pds, const uint8_t *tkey)
{
	uint8_t ip[UET_PDS_ADDR_KEY_LEN];

	uet_pds_ip_key(ip, tkey);
	uet_pds_src_dec(pds, tkey);
	uet_pds_src_dec(pds, ip);
}

/* ---- drop causes ---- */

static const char *const uet_pds_drop_name[UET_PDS_DROP_N] = {
	[UET_PDS_DROP_MALFORMED] = "malformed datagrams",
	[UET_PDS_DROP_UNKNOWN_PDC] = "datagrams for no PDC",
	[UET_PDS_DROP_SYN_REFUSED] = "PDC openings refused by SES (no endpoint or wrong mode)",
	[UET_PDS_DROP_SRC_LIMIT] = "PDC openings over the per-source limit",
	[UET_PDS_DROP_REPLAY] = "replays of a closed PDC",
	[UET_PDS_DROP_SYN_CONFLICT] = "syn requests conflicting with a live PDC",
	[UET_PDS_DROP_HOLD_LIMIT] = "out-of-order ROD packets over the per-PDC hold bound",
	[UET_PDS_DROP_HOLD_EXPIRED] = "PDCs whose held packets waited too long",
	[UET_PDS_DROP_WIRE_MISMATCH] = "datagrams of the other wire profile",
};

void uet_pds_wire_mismatch(struct uet_pds *pds, const uint8_t *buf,
			   size_t len, const struct uet_link_addr *src,
			   uint64_t nmal)
{
	enum uet_wire_prof own = (enum uet_wire_prof)pds->cfg.wire;
	enum uet_wire_prof other = own == UET_WIRE_UE ? UET_WIRE_UEPLUS :
							UET_WIRE_UE;
	char peer[64] = "?";
	uint64_t n;

	if (uet_wire_datagram_parses(own, buf, len) ||
	    !uet_wire_datagram_parses(other, buf, len))
		return;
	pds->st.malformed -= nmal < pds->st.malformed ? nmal :
							pds->st.malformed;
	pds->st.wire_mismatch++;
	if (!uet_log_rl(&pds->drop_rl[UET_PDS_DROP_WIRE_MISMATCH], pds->now,
			&n))
		return;
	(void)uet_link_addr_to_str(src, peer, sizeof(peer));
	UET_WARN(UET_LOG_EP_DATA,
		 "software NIC: dropped %llu datagrams that parse only in the "
		 "'%s' wire profile (latest from %s); this domain speaks '%s': "
		 "the peer likely runs with FI_UET_WIRE=%s\n",
		 (unsigned long long)n, uet_wire_prof_str(other), peer,
		 uet_wire_prof_str(own), uet_wire_prof_str(other));
}

void uet_pds_drop_warn(struct uet_pds *pds, enum uet_pds_drop cause)
{
	uint64_t n;

	if (cause >= UET_PDS_DROP_N ||
	    !uet_log_rl(&pds->drop_rl[cause], pds->now, &n))
		return;
	UET_WARN(UET_LOG_EP_DATA,
		 "software NIC: dropped %llu %s (counters in uet_snic_get_drops)\n",
		 (unsigned long long)n, uet_pds_drop_name[cause]);
}
