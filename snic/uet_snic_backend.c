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
	c->tss_fail_stale = ts.drops[UET_TSS_DROP_STALE];
	c->tss_fail_downgrade = ts.drops[UET_TSS_DROP_DOWNGRADE];
	c->tss_rekeys = ts.rekeys;
	return 0;
}

int uet_snic_query_peer_pdcs(struct uet_hsi_dev *dev, uint64_t peer,
			     struct uet_hsi_pdc_info *v, unsigned int max)
{
	/* The PDS fills the HSI's struct itself. */
	return uet_snic_get_peer_pdcs(dev, peer, v, max);
}

int uet_snic_backend_register(void)
{
	return uet_hsi_dev_register(UET_HSI_DEV_SNIC, &uet_snic_dev_ops);
}
