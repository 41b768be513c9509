/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unreachable destinations: what the PDS does with the link's reports
 * (uet_link_ops.errors).
 *
 * A local verdict (the kernel refused to send to the peer's address from
 * this link's: no route, e.g. a loopback-bound NIC and another host) is
 * final: every PDC to that address that has packets outstanding fails at
 * the next timer pass with -ENETUNREACH or -EHOSTUNREACH, instead of
 * retransmitting for cfg.dead_ns.
 *
 * An ICMP report (port unreachable: the peer's process is gone; host or
 * network unreachable) is only evidence: anyone on the path can forge
 * one.  It never fails a PDC by itself.  It probes the peer at once (the
 * oldest unacked packet is resent) and arms a deadline cfg.unreach_ns
 * away; any sign of life from the peer before then (uet_pdc_alive)
 * disarms it, silence until then fails the PDC with the reported error
 * (-ECONNREFUSED for a closed port).  So a dead peer on a live host is
 * detected in about cfg.unreach_ns instead of cfg.dead_ns, and a forged
 * report costs a live peer one retransmission.
 *
 * A PDC with nothing outstanding has nothing to fail: reports for it are
 * ignored (its next packet draws its own report).
 */
#include "config.h"

#include <errno.h>

#include "uet_pds_internal.h"

/* Reports read per poll (the link keeps at most UET_LINK_ERRQ_LEN). */
#define UET_PDS_ERR_BATCH	UET_LINK_ERRQ_LEN

static bool uet_pdc_outstanding(const struct uet_pdc *pdc)
{
	return pdc->nout || !uet_dlist_empty(&pdc->rspwait);
}

/* Apply one report to pdc; false when the PDC failed (freed). */
static bool uet_pdc_unreachable(struct uet_pds *pds, struct uet_pdc *pdc,
				const struct uet_link_err *ev, uint64_t now)
{
	if (!uet_pdc_outstanding(pdc))
		return true;
	uet_pdc_touch(pds, pdc);
	if (ev->local) {
		UET_PDS_INC(pds, pdc, unreach_local);
		pdc->doom_ns = now;
		pdc->doom_err = -ev->err;
		return true;
	}
	UET_PDS_INC(pds, pdc, unreach_icmp);
	if (!pds->cfg.unreach_ns || pdc->doom_ns != UINT64_MAX)
		return true;	/* ignored, or already probing */
	pdc->doom_ns = now + pds->cfg.unreach_ns;
	pdc->doom_err = -ev->err;
	return uet_pdc_probe_now(pds, pdc, now);
}

void uet_pds_link_errors(struct uet_pds *pds, uint64_t now)
{
	struct uet_link_err ev[UET_PDS_ERR_BATCH];
	struct uet_pdc *pdc;
	unsigned int n, i;

	if (!pds->link->ops->errors)
		return;
	n = pds->link->ops->errors(pds->link, ev, UET_PDS_ERR_BATCH);
	for (i = 0; i < n; i++) {
		uet_dlist_foreach_entry_safe(&pds->pdcs, pdc, entry) {
			if (uet_link_addr_eq(&pdc->peer, &ev[i].dst))
				(void)uet_pdc_unreachable(pds, pdc, &ev[i],
							  now);
		}
	}
}

bool uet_pdc_doom_timer(struct uet_pds *pds, struct uet_pdc *pdc,
			uint64_t now)
{
	if (pdc->doom_ns > now)
		return true;
	pdc->doom_ns = UINT64_MAX;
	if (!uet_pdc_outstanding(pdc))
		return true;
	UET_PDS_INC(pds, pdc, pdc_unreach);
	uet_pdc_fail(pds, pdc, pdc->doom_err ? pdc->doom_err : -EHOSTUNREACH);
	return false;
}
