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
#include "uet_snic.h"

_Static_assert((int)UET_SNIC_DROP_RMA_ACCESS == (int)FI_UET_DROP_RMA_ACCESS,
	       "fi_uet_drop follows uet_snic_drop");
_Static_assert((int)UET_SNIC_DROP_TSS_MALFORMED <= (int)FI_UET_DROP_MAX,
	       "room for the PDS and SES causes");
_Static_assert(FI_UET_TSS_FAIL_UNPROTECTED < FI_UET_TSS_FAIL_MAX,
	       "TSS causes");

static void uet_ext_fill(struct uet_hsi_dev *dev, struct fi_uet_counters *c)
{
	struct uet_snic_stats st;
	struct uet_snic_drops dr;
	struct uet_tss_stats ts;
	unsigned int i;
	uint8_t mode;

	uet_snic_get_stats(dev, &st);
	uet_snic_get_drops(dev, &dr);
	uet_snic_get_tss_stats(dev, &mode, &ts);
	c->pkts_tx = st.pds.tx_pkts;
	c->pkts_rx = st.pds.rx_pkts;
	c->bytes_tx = st.pds.tx_bytes;
	c->bytes_rx = st.pds.rx_bytes;
	c->retransmissions = st.pds.retx;
	c->malformed = st.pds.malformed;
	c->pdcs_open = st.pds.pdcs_open;
	/* PDS and SES causes only: the TSS ones have their own fields. */
	for (i = 0; i < UET_SNIC_DROP_TSS_MALFORMED; i++)
		c->drops[i] = dr.v[i];
	c->ndrops = UET_SNIC_DROP_TSS_MALFORMED;
	c->tss_mode = mode == UET_TSS_REQUIRED ? FI_UET_TSS_MODE_REQUIRED :
		      mode == UET_TSS_ON ? FI_UET_TSS_MODE_ON :
		      FI_UET_TSS_MODE_OFF;
	c->tss_tx = ts.tx_pkts;
	c->tss_rx = ts.rx_pkts;
	c->tss_fail[FI_UET_TSS_FAIL_MALFORMED] =
		ts.drops[UET_TSS_DROP_MALFORMED];
	c->tss_fail[FI_UET_TSS_FAIL_AUTH] = ts.drops[UET_TSS_DROP_AUTH];
	c->tss_fail[FI_UET_TSS_FAIL_UNPROTECTED] =
		ts.drops[UET_TSS_DROP_UNPROTECTED];
	c->tss_replays = ts.drops[UET_TSS_DROP_REPLAY];
	c->tss_too_old = ts.drops[UET_TSS_DROP_OLD];
	c->tss_rekeys = ts.rekeys;
}

static int uet_ext_get_counters(struct fid_domain *domain,
				struct fi_uet_counters *c, size_t len)
{
	struct fi_uet_counters all;
	struct uet_domain *dom;

	if (!domain || !c || !len)
		return -FI_EINVAL;
	dom = uet_container_of(domain, struct uet_domain, fid);
	if (dom->ops != &uet_snic_dev_ops)
		return -FI_EOPNOTSUPP;
	memset(&all, 0, sizeof(all));
	uet_ext_fill(dom->dev, &all);
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
