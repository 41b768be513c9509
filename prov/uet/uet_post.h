/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The one posting path of the provider (uet_post.c).  Every transmit-side
 * call (fi_send/fi_tsend, fi_write/fi_read, fi_atomic/fi_fetch_atomic/
 * fi_compare_atomic and their variants) fills a uet_post_req and calls
 * uet_post_tx(), which takes the endpoint lock, checks that the endpoint
 * is enabled, resolves the destination in the AV, allocates the
 * operation, posts its command(s) with their SGL entries and rings the
 * doorbell (unless FI_MORE), then frees the operation or counts it in
 * flight.  Receives and cancels post one command each through
 * uet_post_cmd_locked().
 */
#ifndef UET_POST_H
#define UET_POST_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include <rdma/fabric.h>

#include "uet_hsi_formats.h"

struct uet_ep;
struct uet_hmem_bounce;

/* Where a command's data is. */
enum uet_post_data {
	UET_POST_DATA_NONE,	/* no data: the inline source, no bytes
				 * (peeks, cancels) */
	UET_POST_DATA_INLINE,	/* the iovec bytes, copied into the segment
				 * now (at most UET_HSI_CMD_INLINE_MAX) */
	UET_POST_DATA_SGL,	/* the iovec as SGL entries: the first in
				 * the segment, one entry per further one */
};

/* uet_post_cmd.opts */
#define UET_POST_EXT		(1u << 0)	/* the extension entry
						 * follows the segment */

/* One command: a segment, its extension and its SGL. */
struct uet_post_cmd {
	struct uet_hsi_cmd_seg seg;
	struct uet_hsi_cmd_ext ext;
	unsigned int opts;		/* UET_POST_* */
	enum uet_post_data data;
	const struct iovec *iov;	/* the data */
	size_t count;
	const struct iovec *extra;	/* entries after the data (atomic
					 * results) */
	size_t nextra;
	uint64_t flags;			/* FI_MORE holds the doorbell back,
					 * FI_INJECT rings it at once */
};

/* uet_post_req.opts */
#define UET_POST_SILENT		(1u << 0)	/* fi_inject*: no CQ entry,
						 * not even an error */

/* One transmit operation: one command, or one per remote segment of an
 * RMA (posted all or none, completing as one operation with the last). */
struct uet_post_req {
	fi_addr_t dest_addr;
	void *context;
	uint64_t op_flags;		/* its completion's flags: FI_SEND |
					 * FI_MSG, FI_RMA | FI_READ, ... */
	uint64_t flags;			/* the call's (FI_COMPLETION) */
	unsigned int opts;		/* UET_POST_SILENT */
	size_t len;			/* the operation's bytes */
	struct uet_post_cmd *cmd;	/* dest and metadata filled here */
	size_t ncmd;			/* 1 .. UET_RMA_IOV_LIMIT */
	/* Host bounce buffers the commands point at (device memory,
	 * uet_hmem.h), NULL: none.  The operation owns them once posted;
	 * uet_post_tx frees them when it fails. */
	struct uet_hmem_bounce *hb;
};

/* Post a transmit operation.  0, -FI_EOPBADSTATE (not enabled),
 * -FI_EINVAL (dest_addr), -FI_EAGAIN (ring or operation table full, after
 * one progress) or another -FI_E* from the device. */
ssize_t uet_post_tx(struct uet_ep *ep, struct uet_post_req *req);

/* Post one command with ep->lock held and ring the doorbell unless
 * cmd->flags has FI_MORE (FI_INJECT always rings).  0, -FI_EINVAL (too
 * many entries), -FI_EAGAIN (ring full, after one progress). */
int uet_post_cmd_locked(struct uet_ep *ep, struct uet_post_cmd *cmd);

/* Ring the doorbell of the commands posted so far (FI_MORE held it). */
void uet_post_ring_locked(struct uet_ep *ep);

#endif /* UET_POST_H */
