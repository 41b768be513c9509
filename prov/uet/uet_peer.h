/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libfabric's peer API (FI_PEER), used by the lnx (LINKx) provider:
 * an imported peer CQ, a peer shared receive context and FI_AV_USER_ID.
 *
 * Compiled only when the libfabric headers provide
 * <rdma/providers/fi_peer.h> (libfabric 1.18 and later; Debian's 1.17
 * package does not install it): UET_HAVE_PEER is 1 then, else 0 and
 * uet offers neither FI_PEER nor FI_AV_USER_ID.
 */
#ifndef UET_PEER_H
#define UET_PEER_H

#if defined(__has_include)
#if __has_include(<rdma/providers/fi_peer.h>)
#define UET_HAVE_PEER 1
#endif
#endif
#ifndef UET_HAVE_PEER
#define UET_HAVE_PEER 0
#endif

#if UET_HAVE_PEER
#include <rdma/providers/fi_peer.h>

#include "uet_list.h"

struct uet_ep;
struct uet_domain;
struct uet_hsi_recv_notif;
struct uet_hsi_recv_cont;

/* The peer SRX of an endpoint (fi_srx_context with FI_PEER). */
struct uet_srx {
	struct fid_ep fid;
	struct uet_domain *domain;
	struct fid_peer_srx *owner;	/* the owner's queue (lnx) */
	struct uet_ep *ep;		/* bound to, NULL before */
	/* Every record (struct uet_peer_msg) of a message handed to the
	 * owner and not yet finished: queued with the owner, or with a
	 * CLAIM / DISCARD command out.  Under ep->lock while bound; freed
	 * at close. */
	struct uet_dlist msgs;
	/* Records whose start or discard found the command ring or the
	 * operation table full (-FI_EAGAIN): retried in this order by the
	 * endpoint's progress, before any newer start or discard.  Under
	 * ep->lock; emptied when the endpoint closes. */
	struct uet_dlist pending;
	bool draining;			/* in uet_peer_drain_locked */
};

/* fi_srx_context: FI_PEER in attr->op_flags and a struct
 * fi_peer_srx_context; anything else -FI_ENOSYS (no shared receive
 * contexts of uet's own). */
int uet_srx_context(struct fid_domain *domain, struct fi_rx_attr *attr,
		    struct fid_ep **rx_ep, void *context);
/* fi_ep_bind of a peer SRX to ep (before enable). */
int uet_peer_ep_bind_srx(struct uet_ep *ep, struct fid *srx);
/* Close: no new peeks from now on (before the endpoint drains). */
void uet_peer_ep_close(struct uet_ep *ep);
/* Close: unbind the SRX (after the queue closed); the records of the
 * messages still queued with the owner stay with the SRX (a later
 * discard frees one, start fails with -FI_EINVAL) until it closes. */
void uet_peer_ep_release(struct uet_ep *ep);
/* With ep->lock held, after the notifications: keep one tagged and one
 * untagged PEEK|CLAIM outstanding so that every message that arrives
 * unmatched is handed to the owner. */
void uet_peer_poll_locked(struct uet_ep *ep);
/* A receive notification for operation idx: true when it was one of
 * the peer machinery's (handled), false otherwise. */
bool uet_peer_recv_done_locked(struct uet_ep *ep, uint32_t idx,
			       const struct uet_hsi_recv_notif *n,
			       const struct uet_hsi_recv_cont *cont);
/* Records (struct uet_peer_msg) of the process not yet freed (tests). */
long uet_peer_msgs_live(void);
#endif /* UET_HAVE_PEER */

#endif /* UET_PEER_H */
