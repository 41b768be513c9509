/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Simulated fabric for congestion tests (docs/congestion.md): hosts and
 * switches joined by links with a rate and a propagation delay, each
 * direction of a link an output port with a finite FIFO queue, ECN
 * marking at a queue threshold, optional payload trimming instead of
 * tail drop, random loss, and ECMP that hashes (source, destination,
 * entropy) onto the equal-cost next hops of every switch.
 *
 * Time is virtual and driven by the caller: uet_link_sim_run(now) moves
 * every packet whose next event (arrival at a node) is at or before now;
 * a send happens at the time of the latest run.  The real PDS and SES
 * state machines run over the links of the hosts (struct uet_link).
 *
 * Queue model: a port transmits FIFO at its rate; a packet arriving at a
 * port when the port is busy until B starts at B, so the backlog seen on
 * arrival is (B - now) * rate.  Decisions on arrival, in this order:
 *   drop_ppm   random loss (seeded PRNG, drawn only when non-zero);
 *   bound      backlog + packet > queue_bytes: trimmed to
 *              UET_LINK_SIM_TRIM_BYTES with DSCP UET_LINK_DSCP_TRIMMED
 *              when the port trims (and the packet is longer), else
 *              dropped (tail drop);
 *   ECN        an ECN-capable packet (ECT(0) or ECT(1)) is marked CE when
 *              the backlog is at least ecn_bytes.
 * A host's own uplink port is its NIC: over its bound a send is refused
 * (the link accepts fewer datagrams, as a full socket buffer does), never
 * dropped.  Every host sends ECT(0).
 *
 * Routing: shortest paths in hops (hosts never forward); a switch with
 * several next hops towards a destination picks one by a hash of
 * (source host, destination host, entropy, switch).
 *
 * Not thread-safe: one thread drives a simulation.
 */
#ifndef UET_LINK_SIM_H
#define UET_LINK_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uet_link.h"

/* Bytes (UDP payload) a trimming port keeps of a packet: the PDS prologue
 * and request header and the start of the SES header. */
#define UET_LINK_SIM_TRIM_BYTES		64u

struct uet_link_sim;

struct uet_link_sim_port_cfg {
	uint64_t rate_bps;		/* bits per second, > 0 */
	uint64_t delay_ns;		/* propagation */
	uint32_t queue_bytes;		/* FIFO bound; 0: unbounded */
	uint32_t ecn_bytes;		/* CE at this backlog; 0: never */
	bool trim;			/* trim instead of tail drop */
	uint32_t drop_ppm;		/* random loss */
};

struct uet_link_sim_port_stats {
	uint64_t tx_pkts, tx_bytes;	/* accepted for transmission */
	uint64_t drops;			/* tail and random drops */
	uint64_t marks;			/* CE set here */
	uint64_t trims;
	uint64_t refused;		/* host uplink: sends refused */
	uint64_t qbytes;		/* backlog at the current time */
	uint64_t qmax;			/* largest backlog seen on arrival */
	uint64_t burst_max;		/* most bytes accepted at one instant */
};

int uet_link_sim_create(struct uet_link_sim **sim, uint64_t seed, size_t mtu);
/* Closes every host link too. */
void uet_link_sim_destroy(struct uet_link_sim *sim);

/* A switch; returns its node number (>= 0) or a negative errno. */
int uet_link_sim_add_switch(struct uet_link_sim *sim);
/* A host with address 127.0.0.1:port and its link; returns its node
 * number or a negative errno (-EADDRINUSE). */
int uet_link_sim_add_host(struct uet_link_sim *sim, uint16_t port,
			  struct uet_link **link);
/* Join nodes a and b: port a->b with cfg ab, port b->a with ba.
 * Returns the number of port a->b (b->a is that number ^ 1) or a
 * negative errno.  A host has one uplink. */
int uet_link_sim_connect(struct uet_link_sim *sim, int a, int b,
			 const struct uet_link_sim_port_cfg *ab,
			 const struct uet_link_sim_port_cfg *ba);
/* Change a port's configuration (a degraded or recovered path); packets
 * already queued keep their times. */
int uet_link_sim_port_set(struct uet_link_sim *sim, int port,
			  const struct uet_link_sim_port_cfg *cfg);
int uet_link_sim_port_get_stats(const struct uet_link_sim *sim, int port,
				struct uet_link_sim_port_stats *st);
/* Zero a port's counters (qmax included), or its qmax alone. */
void uet_link_sim_port_reset_stats(struct uet_link_sim *sim, int port);
void uet_link_sim_port_reset_qmax(struct uet_link_sim *sim, int port);

/* Advance virtual time to now (never backwards), moving packets. */
void uet_link_sim_run(struct uet_link_sim *sim, uint64_t now);
uint64_t uet_link_sim_now(const struct uet_link_sim *sim);
/* Time of the next packet event, UINT64_MAX when none. */
uint64_t uet_link_sim_next_event(const struct uet_link_sim *sim);
/* Packets delivered to hosts, dropped anywhere (incl. unknown address). */
void uet_link_sim_totals(const struct uet_link_sim *sim, uint64_t *delivered,
			 uint64_t *dropped);

#endif /* UET_LINK_SIM_H */
