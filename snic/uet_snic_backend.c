/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The software NIC as an HSI backend: its registration with the HSI and
 * the ops that report what it counted (query_counters).
 */
#include "config.h"

#include <string.h>

#include "uet_hsi.h"
#include "uet_snic.h"
#include "uet_tss.h"

_Static_assert((int)UET_SNIC_DROP_RMA_ACCESS == (int)UET_HSI_DROP_RMA_ACCESS,
	       "uet_hsi_drop follows uet_snic_drop");
_Static_assert((int)UET_SNIC_DROP_TSS_MALFORMED == (int)UET_HSI_DROP_N,
	       "the PDS and SES causes come first");
_Static_assert((int)UET_TSS_OFF == (int)UET_HSI_TSS_OFF &&
	       (int)UET_TSS_ON == (int)UET_HSI_TSS_ON &&
	       (int)UET_TSS_REQUIRED == (int)UET_HSI_TSS_REQUIRED,
	       "TSS modes");

int uet_snic_query_counters(struct uet_hsi_dev *dev,
			    struct uet_hsi_counters *c)
{
	struct uet_snic_stats st;
	struct uet_snic_drops dr;
	struct uet_tss_stats ts;
	unsigned int i;
	uint8_t mode;

	if (!dev || !c)
		return -EINVAL;
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
	for (i = 0; i < UET_HSI_DROP_N; i++)
		c->drops[i] = dr.v[i];
	c->tss_mode = mode;
	c->tss_tx = ts.tx_pkts;
	c->tss_rx = ts.rx_pkts;
	c->tss_fail_malformed = ts.drops[UET_TSS_DROP_MALFORMED];
	c->tss_fail_auth = ts.drops[UET_TSS_DROP_AUTH];
	c->tss_fail_unprotected = ts.drops[UET_TSS_DROP_UNPROTECTED];
	c->tss_replays = ts.drops[UET_TSS_DROP_REPLAY];
	c->tss_too_old = ts.drops[UET_TSS_DROP_OLD];
	c->tss_rekeys = ts.rekeys;
	return 0;
}

int uet_snic_query_peer_pdcs(struct uet_hsi_dev *dev, uint64_t peer,
			     struct uet_hsi_pdc_info *v, unsigned int max)
{
	struct uet_pds_pdc_info p[UET_SNIC_PEER_PDCS_MAX];
	unsigned int k, n;
	int ret;

	if (!dev || (max && !v))
		return -EINVAL;
	ret = uet_snic_get_peer_pdcs(dev, peer, p,
				     max < UET_SNIC_PEER_PDCS_MAX ? max :
				     UET_SNIC_PEER_PDCS_MAX);
	if (ret < 0)
		return ret;
	n = (unsigned int)ret < max ? (unsigned int)ret : max;
	if (n > UET_SNIC_PEER_PDCS_MAX)
		n = UET_SNIC_PEER_PDCS_MAX;
	for (k = 0; k < n; k++) {
		memset(&v[k], 0, sizeof(v[k]));
		v[k].initiator = p[k].initiator;
		v[k].established = p[k].established;
		v[k].mode = p[k].mode == UET_PDS_MODE_ROD ?
			    UET_HSI_QUEUE_MODE_ROD : UET_HSI_QUEUE_MODE_RUD;
		v[k].lpdcid = p[k].lpdcid;
		v[k].rpdcid = p[k].rpdcid;
		v[k].tx_next_psn = p[k].tx_next_psn;
		v[k].tx_una_psn = p[k].tx_una_psn;
		v[k].tx_outstanding = p[k].tx_outstanding;
		v[k].rx_next_psn = p[k].rx_next_psn;
		v[k].rx_window = p[k].rx_window;
		v[k].tx_pkts = p[k].tx_pkts;
		v[k].rx_pkts = p[k].rx_pkts;
		v[k].retx = p[k].retx;
		v[k].srtt_ns = p[k].srtt_ns;
		v[k].min_rtt_ns = p[k].min_rtt_ns;
	}
	return ret;
}

int uet_snic_backend_register(void)
{
	return uet_hsi_dev_register(UET_HSI_DEV_SNIC, &uet_snic_dev_ops);
}
