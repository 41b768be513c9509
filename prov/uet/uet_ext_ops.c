/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The provider's extension operations (include/rdma/fi_uet_ext.h):
 * fi_open_ops on a domain with FI_UET_OPS_V2 (or V1, without the per-peer
 * PDC state of uet_ext_peer.c) gives the counters of its
 * software NIC: PDS packets, retransmissions, drops by cause, PDCs open,
 * TSS authentication failures by cause, replays.
 */
#include "config.h"

#include <string.h>

#include <rdma/fi_errno.h>
#include <rdma/fi_uet_ext.h>

#include "uet_prov.h"

_Static_assert((int)UET_HSI_DROP_RMA_ACCESS == (int)FI_UET_DROP_RMA_ACCESS,
	       "fi_uet_drop follows uet_hsi_drop");
_Static_assert((int)UET_HSI_DROP_WIRE_MISMATCH ==
	       (int)FI_UET_DROP_WIRE_MISMATCH, "drop causes");
_Static_assert((int)UET_HSI_DROP_RDATA == (int)FI_UET_DROP_RDATA,
	       "fi_uet_drop follows uet_hsi_drop");
_Static_assert((int)UET_HSI_DROP_N <= (int)FI_UET_DROP_MAX,
	       "room for the PDS and SES causes");
_Static_assert(FI_UET_TSS_FAIL_DOWNGRADE < FI_UET_TSS_FAIL_MAX,
	       "TSS causes");

/* The device's counters (the HSI query_counters op) in the extension's
 * layout. */
static int uet_ext_fill(struct uet_domain *dom, struct fi_uet_counters *c)
{
	struct uet_hsi_counters hc;
	unsigned int i;
	int ret;

	if (!dom->ops->query_counters)
		return -FI_EOPNOTSUPP;
	memset(&hc, 0, sizeof(hc));
	ret = dom->ops->query_counters(dom->dev, &hc);
	if (ret)
		return ret;
	c->pkts_tx = hc.pkts_tx;
	c->pkts_rx = hc.pkts_rx;
	c->bytes_tx = hc.bytes_tx;
	c->bytes_rx = hc.bytes_rx;
	c->retransmissions = hc.retransmissions;
	c->malformed = hc.malformed;
	c->pdcs_open = hc.pdcs_open;
	for (i = 0; i < UET_HSI_DROP_N; i++)
		c->drops[i] = hc.drops[i];
	c->ndrops = UET_HSI_DROP_N;
	c->tss_mode = hc.tss_mode == UET_HSI_TSS_REQUIRED ?
		      FI_UET_TSS_MODE_REQUIRED :
		      hc.tss_mode == UET_HSI_TSS_ON ? FI_UET_TSS_MODE_ON :
		      FI_UET_TSS_MODE_OFF;
	c->tss_tx = hc.tss_tx;
	c->tss_rx = hc.tss_rx;
	c->tss_fail[FI_UET_TSS_FAIL_MALFORMED] = hc.tss_fail_malformed;
	c->tss_fail[FI_UET_TSS_FAIL_AUTH] = hc.tss_fail_auth;
	c->tss_fail[FI_UET_TSS_FAIL_UNPROTECTED] = hc.tss_fail_unprotected;
	c->tss_fail[FI_UET_TSS_FAIL_STALE] = hc.tss_fail_stale;
	c->tss_fail[FI_UET_TSS_FAIL_DOWNGRADE] = hc.tss_fail_downgrade;
	c->tss_replays = hc.tss_replays;
	c->tss_too_old = hc.tss_too_old;
	c->tss_rekeys = hc.tss_rekeys;
	c->wire_mismatch = hc.drops[UET_HSI_DROP_WIRE_MISMATCH];
	c->wire = dom->addr.wire;
	return 0;
}

static int uet_ext_get_counters(struct fid_domain *domain,
				struct fi_uet_counters *c, size_t len)
{
	struct fi_uet_counters all;
	struct uet_domain *dom;
	int ret;

	if (!domain || !c || !len)
		return -FI_EINVAL;
	dom = uet_container_of(domain, struct uet_domain, fid);
	memset(&all, 0, sizeof(all));
	ret = uet_ext_fill(dom, &all);
	if (ret)
		return ret == -EOPNOTSUPP ? -FI_EOPNOTSUPP : ret;
	if (len > sizeof(all)) {
		memset(c, 0, len);
		len = sizeof(all);
	}
	memcpy(c, &all, len);
	return 0;
}

static struct fi_uet_ops_v1 uet_ext_ops_v1 = {
	.size = sizeof(struct fi_uet_ops_v1),
	.get_counters = uet_ext_get_counters,
};

static struct fi_uet_ops_v2 uet_ext_ops_v2 = {
	.size = sizeof(struct fi_uet_ops_v2),
	.get_counters = uet_ext_get_counters,
	.get_peer_pdcs = uet_ext_get_peer_pdcs,		/* uet_ext_peer.c */
};

int uet_ext_ops_open(struct fid *fid, const char *name, uint64_t flags,
		     void **ops, void *context)
{
	(void)context;
	if (!fid || !name || !ops || flags)
		return -FI_EINVAL;
	if (!strcmp(name, FI_UET_OPS_V2))
		*ops = &uet_ext_ops_v2;
	else if (!strcmp(name, FI_UET_OPS_V1))
		*ops = &uet_ext_ops_v1;
	else
		return -FI_ENOSYS;
	return 0;
}
