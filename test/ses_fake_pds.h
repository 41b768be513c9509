/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A fake of the uet_pds.h functions SES uses, for the SES unit tests.
 *
 * Several fake PDS instances join one in-memory "net".  uet_pds_send()
 * and uet_pds_send_reply() queue the packet (nothing is copied: the
 * payload is read from the sender's iovecs when it is delivered, so a
 * buffer released too early shows up under AddressSanitizer);
 * fake_net_step() then delivers queued packets to the destination's rx
 * upcall and reports finished packets to the sender's tx_done with the
 * SES response the receiver attached, like PDS over RUD:
 *   - every packet is delivered exactly once (no loss, no duplicates);
 *   - the order is FIFO, newest-first (so continuations reach the target
 *     before their SOM=1 packet), or random (deliveries and ACKs
 *     interleaved in any order), per fake_net_cfg;
 *   - an rx upcall returning -EAGAIN is a NACK: the packet stays queued
 *     and is offered again later;
 *   - a per-direction window bounds the packets in flight (-EAGAIN from
 *     uet_pds_send, uet_pds_tx_space());
 *   - optionally the response of a packet sent without want_rsp is lost
 *     (a cumulative ACK carries no SES response).
 * uet_pds_destroy() fails the instance's packets with -ECANCELED.
 * The path MTU of every destination is fake_net_cfg.path_mtu.
 * A tap sees every delivery attempt (and what the rx upcall returned), in
 * the order the net makes them.
 */
#ifndef SES_FAKE_PDS_H
#define SES_FAKE_PDS_H

#include <stdbool.h>
#include <stdint.h>

#include "uet_pds.h"

enum fake_order {
	FAKE_FIFO = 0,
	FAKE_LIFO = 1,		/* newest queued packet first */
	FAKE_SHUFFLE = 2,	/* random deliveries and ACKs */
};

struct fake_net_cfg {
	uint64_t seed;
	unsigned int window;		/* packets in flight per direction */
	uint8_t order;			/* enum fake_order */
	unsigned int rsp_drop_pct;	/* lose responses nobody waits for */
	/* uet_pds_path_mtu / uet_pds_reply_mtu of every destination (a
	 * path wider than the link); 0: none */
	size_t path_mtu;
};

struct fake_net_stats {
	uint64_t sent;			/* accepted by uet_pds_send* */
	uint64_t busy;			/* -EAGAIN from uet_pds_send* */
	uint64_t delivered;		/* rx upcall returned 0 */
	uint64_t nacked;		/* rx upcall returned -EAGAIN */
	uint64_t rx_err;		/* rx upcall returned another error */
	uint64_t acked;			/* tx_done(0) */
	uint64_t failed;		/* tx_done(< 0) */
	uint64_t rsp_dropped;
	uint64_t max_in_flight;		/* largest per-direction count */
};

struct fake_net;

int fake_net_create(struct fake_net **net, const struct fake_net_cfg *cfg);
/* Destroy the net; every fake PDS must have been destroyed. */
void fake_net_destroy(struct fake_net *net);
void fake_net_set_order(struct fake_net *net, uint8_t order);
/* A fake PDS reachable at ip:port (IPv4 text). */
int fake_pds_create(struct fake_net *net, const char *ip, uint16_t port,
		    struct uet_pds **pds);
const struct uet_link_addr *fake_pds_addr(const struct uet_pds *pds);
/* Do up to max deliveries / ACKs; returns how many were done. */
unsigned int fake_net_step(struct fake_net *net, unsigned int max);
/* Packets queued or awaiting their ACK. */
size_t fake_net_pending(const struct fake_net *net);
/* Fail every queued packet with status (e.g. -ETIMEDOUT). */
void fake_net_fail_all(struct fake_net *net, int status);
void fake_net_get_stats(const struct fake_net *net, struct fake_net_stats *st);
/* Hand bytes straight to dst's rx upcall as if from src; returns what the
 * upcall returned.  rsp receives the response. */
int fake_pds_inject(struct uet_pds *dst, const struct uet_link_addr *src,
		    uint8_t next_hdr, const void *ses, size_t len,
		    struct uet_pds_rsp *rsp);
/* Last rx upcall result per instance (for tests). */
int fake_pds_last_rx(const struct uet_pds *pds);
/* The next n uet_pds_send / uet_pds_send_reply calls of pds return err. */
void fake_pds_fail_sends(struct uet_pds *pds, int err, unsigned int n);

/* Called after each delivery attempt of a queued packet: its addresses,
 * mode, SES bytes and the rx upcall's return value. */
typedef void (*fake_tap_fn)(void *arg, const struct uet_link_addr *from,
			    const struct uet_link_addr *to, uint8_t mode,
			    uint8_t next_hdr, const uint8_t *ses, size_t len,
			    int rx_ret);
void fake_net_set_tap(struct fake_net *net, fake_tap_fn fn, void *arg);

#endif /* SES_FAKE_PDS_H */
