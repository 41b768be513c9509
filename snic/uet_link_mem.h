/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * In-memory link for tests: a "fabric" object joins any number of links,
 * each with its own fabric address (an IPv4 address in 127.0.0.0/8 and a
 * port, never put on a wire).  send() copies the datagram into the fabric
 * with a delivery time; recv() returns datagrams whose delivery time has
 * come according to the fabric's clock, which the test sets.  Faults are
 * programmable per fabric:
 *   - by rate (probability in parts per million, from a seeded PRNG):
 *     drop, duplicate, reorder (hold back behind later packets), corrupt
 *     (flip one random bit), extra delay (uniform 0..max);
 *   - by packet index (the n-th datagram sent on the fabric, counting from
 *     0): drop or corrupt exactly that one.
 * Every decision is counted, so tests can assert what happened.
 */
#ifndef UET_LINK_MEM_H
#define UET_LINK_MEM_H

#include <stdint.h>

#include "uet_link.h"

struct uet_link_mem_fabric;

struct uet_link_mem_faults {
	uint32_t drop_ppm;
	uint32_t dup_ppm;
	uint32_t reorder_ppm;
	uint32_t corrupt_ppm;
	uint64_t delay_ns;		/* base one-way latency */
	uint64_t jitter_ns;		/* extra uniform delay 0..jitter */
	bool unreach_reports;		/* a datagram for an address with no
					 * link draws an ECONNREFUSED report
					 * (errors op), as ICMP port
					 * unreachable does over UDP */
};

struct uet_link_mem_stats {
	uint64_t sent, delivered, dropped, duplicated, reordered, corrupted;
	uint64_t queued;		/* in flight now */
};

int uet_link_mem_fabric_create(struct uet_link_mem_fabric **fab,
			       uint64_t seed, size_t mtu);
void uet_link_mem_fabric_destroy(struct uet_link_mem_fabric *fab);
/* The fabric clock: datagrams become receivable at send time + delay. */
void uet_link_mem_fabric_set_time(struct uet_link_mem_fabric *fab,
				  uint64_t now_ns);
void uet_link_mem_fabric_set_faults(struct uet_link_mem_fabric *fab,
				    const struct uet_link_mem_faults *f);
/* Drop / corrupt the datagram with this fabric-wide send index. */
int uet_link_mem_fabric_drop_index(struct uet_link_mem_fabric *fab,
				   uint64_t index);
int uet_link_mem_fabric_corrupt_index(struct uet_link_mem_fabric *fab,
				      uint64_t index);
void uet_link_mem_fabric_get_stats(const struct uet_link_mem_fabric *fab,
				   struct uet_link_mem_stats *st);
/* Earliest pending delivery time, UINT64_MAX when nothing is in flight. */
uint64_t uet_link_mem_fabric_next_delivery(
	const struct uet_link_mem_fabric *fab);

/* A link on the fabric with address 127.0.0.1:port (any port not yet
 * used on this fabric). */
int uet_link_mem_open(struct uet_link_mem_fabric *fab, uint16_t port,
		      struct uet_link **link);
/* The link's mtu() becomes mtu (at most the fabric's) while its path_mtu()
 * to every destination stays the fabric's: a host whose interface is
 * narrower than the path to its peers (UDP: eth0 at 1500, peers on the
 * same host reached through loopback).  Before a PDS uses the link. */
int uet_link_mem_set_base_mtu(struct uet_link *link, size_t mtu);

#endif /* UET_LINK_MEM_H */
