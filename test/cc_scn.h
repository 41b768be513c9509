/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Congestion scenarios on the simulated fabric (snic/uet_link_sim.c):
 * real PDS instances on every host, bulk flows of 4 KiB packets, virtual
 * time.  Shared by test/check_cc_sim.c (assertions) and bench/fabric-sim
 * (CSV time series for docs/congestion.md).
 *
 * Topologies:
 *   STAR        every host on one switch; flow i goes from sender i to
 *               receiver i % nrecv; the bottleneck is the switch port to
 *               receiver 0.
 *   LEAF_SPINE  senders on leaf 0, receivers on leaf 1, nspine spines
 *               each joined to both leaves; every link at rate_bps.
 */
#ifndef CC_SCN_H
#define CC_SCN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define CC_SCN_MAX_FLOWS	16
#define CC_SCN_MAX_SPINES	8

enum cc_scn_topo {
	CC_SCN_STAR,
	CC_SCN_LEAF_SPINE,
};

struct cc_scn_cfg {
	enum cc_scn_topo topo;
	unsigned int nsend, nrecv, nspine;
	/* STAR only: sender 0 opens one flow to every receiver instead
	 * (outcast: its uplink is the bottleneck). */
	bool outcast;
	uint64_t rate_bps;		/* every link */
	uint64_t delay_ns;		/* every link, one way */
	uint32_t queue_bytes;		/* switch ports */
	uint32_t ecn_bytes;		/* switch ports, 0: no marking */
	bool trim;
	uint8_t cc_send, cc_recv;	/* UET_PDS_CC_* of senders, receivers */
	uint32_t entropies;		/* spraying, <= 1 none */
	bool pace;			/* NSCC senders pace */
	uint64_t bytes_per_flow;
	uint64_t seed;
	/* Degraded path (LEAF_SPINE): the leaf 0 -> spine 0 port runs at
	 * degrade_rate_bps (and loses degrade_drop_ppm) from degrade_at_ns
	 * to recover_at_ns after the start (0: never). */
	uint64_t degrade_at_ns, recover_at_ns, degrade_rate_bps;
	uint32_t degrade_drop_ppm;
	uint64_t sample_ns;		/* time series period (0: 10 us) */
	FILE *csv;			/* time series, NULL: none */
	uint64_t limit_ns;		/* virtual time bound (0: 100 ms) */
};

struct cc_scn_res {
	bool complete;			/* every byte delivered and acked */
	uint64_t ns;			/* first send to last completion */
	uint64_t bytes;			/* payload delivered */
	double goodput_gbps;
	double jain;			/* over the middle half of the run */
	uint64_t qmax;			/* bottleneck port, whole run */
	uint64_t qmax_steady;		/* after the first 20% of the run */
	uint64_t nic_qmax;		/* largest sender NIC queue */
	uint64_t nic_burst;		/* most bytes a sender sent at once */
	uint64_t drops, trims, marks;	/* all switch ports */
	uint64_t retx;			/* senders' retransmissions */
	uint64_t retx_rack, retx_rto, retx_nack;	/* by cause */
	uint64_t flow_bytes[CC_SCN_MAX_FLOWS];
	/* LEAF_SPINE: payload-carrying bytes per leaf 0 uplink, in three
	 * windows: before degrade_at, from degrade_at + 200 us to
	 * recover_at, from recover_at + 500 us to the end. */
	uint64_t spine_bytes[3][CC_SCN_MAX_SPINES];
	uint64_t spine_total[CC_SCN_MAX_SPINES];
};

/* Run the scenario; 0 or a negative errno (bad configuration, ENOMEM). */
int cc_scn_run(const struct cc_scn_cfg *cfg, struct cc_scn_res *res);
/* Defaults: 100 Gbit/s, 1 us per link, 4 KiB packets. */
void cc_scn_defaults(struct cc_scn_cfg *cfg);
double cc_scn_jain(const double *x, unsigned int n);

#endif /* CC_SCN_H */
