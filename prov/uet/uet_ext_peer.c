/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * FI_UET_OPS_V2's get_peer_pdcs (include/rdma/fi_uet_ext.h): the PDCs
 * open between a domain's NIC and the NIC of an AV address.  The device
 * is asked in one function, uet_ext_peer_query(); the rest is the
 * libfabric side (AV lookup, the public struct).  Also the compile-time
 * checks that the header's SES return codes and prov_errno base are the
 * provider's.
 */
#include "config.h"

#include <string.h>

#include <rdma/fi_errno.h>
#include <rdma/fi_uet_ext.h>

#include "uet_prov.h"
#include "uet_wire_consts.h"

_Static_assert(FI_UET_PROV_ERRNO_BASE == UET_PROV_ERRNO_BASE,
	       "prov_errno base");
_Static_assert((int)FI_UET_RC_OK == (int)UET_RC_OK &&
	       (int)FI_UET_RC_BAD_GENERATION == (int)UET_RC_BAD_GENERATION &&
	       (int)FI_UET_RC_NO_MATCH == (int)UET_RC_NO_MATCH &&
	       (int)FI_UET_RC_AT_OUT_OF_RANGE == (int)UET_RC_AT_OUT_OF_RANGE &&
	       (int)FI_UET_RC_AMO_FP_INEXACT == (int)UET_RC_AMO_FP_INEXACT &&
	       (int)FI_UET_RC_PERM_VIOLATION == (int)UET_RC_PERM_VIOLATION &&
	       (int)FI_UET_RC_BAD_MKEY == (int)UET_RC_BAD_MKEY &&
	       (int)FI_UET_RC_DROPPED == (int)UET_RC_DROPPED &&
	       (int)FI_UET_RC_DROPPED == (int)UET_RC_MAX,
	       "fi_uet_rc follows uet_ses_rc");
_Static_assert(UET_RC_MAX < FI_UET_PROV_ERRNO_BASE, "prov_errno ranges");

/* The device's state of the PDCs with peer (a peer_insert handle), through
 * the HSI: the number open, at most max of them in v; -FI_EOPNOTSUPP when
 * the device keeps none. */
static int uet_ext_peer_query(struct uet_domain *dom, uint32_t peer,
			      struct uet_hsi_pdc_info *v, unsigned int max)
{
	int ret;

	if (!dom->ops->query_peer_pdcs)
		return -FI_EOPNOTSUPP;
	ret = dom->ops->query_peer_pdcs(dom->dev, peer, v, max);
	if (ret == -ENOENT)
		return -FI_EINVAL;
	return ret == -EOPNOTSUPP ? -FI_EOPNOTSUPP : ret;
}

static uint32_t uet_ext_pds_mode(uint8_t mode)
{
	return mode == UET_HSI_QUEUE_MODE_ROD ? FI_UET_DELIVERY_ROD :
	       FI_UET_DELIVERY_RUD;
}

static void uet_ext_pdc_state(const struct uet_hsi_pdc_info *i,
			      struct fi_uet_pdc_state *o)
{
	o->initiator = i->initiator;
	o->established = i->established;
	o->mode = uet_ext_pds_mode(i->mode);
	o->local_pdcid = i->lpdcid;
	o->remote_pdcid = i->rpdcid;
	o->tx_next_psn = i->tx_next_psn;
	o->tx_unacked_psn = i->tx_una_psn;
	o->tx_outstanding = i->tx_outstanding;
	o->rx_next_psn = i->rx_next_psn;
	o->rx_psn_window = i->rx_window;
	o->tx_pkts = i->tx_pkts;
	o->rx_pkts = i->rx_pkts;
	o->retransmissions = i->retx;
	o->srtt_ns = i->srtt_ns;
	o->min_rtt_ns = i->min_rtt_ns;
}

int uet_ext_get_peer_pdcs(struct fid_domain *domain, struct fid_av *av_fid,
			  fi_addr_t addr, struct fi_uet_peer_pdcs *p,
			  size_t len)
{
	struct uet_hsi_pdc_info v[FI_UET_PEER_PDC_MAX];
	struct fi_uet_peer_pdcs all;
	struct uet_domain *dom;
	struct uet_av *av;
	uint64_t dest;
	unsigned int k;
	int ret;

	if (!domain || !av_fid || !p || !len)
		return -FI_EINVAL;
	dom = uet_container_of(domain, struct uet_domain, fid);
	av = uet_container_of(av_fid, struct uet_av, fid);
	if (av->domain != dom)
		return -FI_EINVAL;
	ret = uet_av_dest(av, addr, &dest);
	if (ret)
		return ret;
	ret = uet_ext_peer_query(dom, UET_HSI_DEST_PEER(dest), v,
				 FI_UET_PEER_PDC_MAX);
	if (ret < 0)
		return ret;
	memset(&all, 0, sizeof(all));
	all.npdcs = (uint32_t)ret;
	all.nfilled = all.npdcs < FI_UET_PEER_PDC_MAX ? all.npdcs :
		      FI_UET_PEER_PDC_MAX;
	for (k = 0; k < all.nfilled; k++)
		uet_ext_pdc_state(&v[k], &all.pdc[k]);
	if (len > sizeof(all)) {
		memset(p, 0, len);
		len = sizeof(all);
	}
	memcpy(p, &all, len);
	return 0;
}
