/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * TSS (Transport Security Sublayer) of the software NIC: a link that wraps
 * another link (UDP, or the in-memory test link) and protects every
 * datagram the NIC sends, whatever its PDS type (requests, ACKs, NACKs,
 * CPs, RUDI/UUD), with AES-256-GCM (OpenSSL libcrypto EVP).  It sits
 * between the link and PDS: PDS and SES only ever see datagrams that
 * authenticated (or, in mode "on", that came unprotected).
 *
 * A protected datagram (docs/tss.md, docs/conformance.md C-22):
 *
 *   bytes 0-1      PDS prologue, type 1 (TSS), next_hdr 0, flags 0
 *   bytes 2-13     TSS header (wire/uet_tss_wire.h): tss_type 1
 *                  (UET_TSS_TYPE_AES256_GCM), tss_flags 0,
 *                  security_context_id (SCI), sequence_number
 *   bytes 14-      the whole PDS datagram (its own prologue, PDS header,
 *                  SES header, payload), encrypted
 *   last 16 bytes  GCM authentication tag
 *
 * Associated data: bytes 0-13.  Nonce (12 bytes): SCI (be32), 0 (be32),
 * sequence number (be32).  Key: HKDF-SHA256 (uet_tss_keys.c) of the job
 * secret, over the JobID, the SCI and the sender's source address (IP and
 * UDP port): one key per sender, per direction.  The sender starts with a
 * random SCI and sequence number 1; before the sequence number would wrap
 * it moves to SCI + 1 (a new key) and starts again at 1, so a nonce is
 * never used twice under one key.  The receiver keeps a security context
 * per (source address, SCI): the derived key and a replay window of
 * UET_TSS_REPLAY_WINDOW sequence numbers; a context is created only by a
 * datagram that authenticates.
 *
 * All calls on one TSS link must be serialised (as for any link).
 */
#ifndef UET_TSS_H
#define UET_TSS_H

#include <stdbool.h>
#include <stdint.h>

#include "uet_link.h"
#include "uet_wire_consts.h"

enum uet_tss_mode {
	UET_TSS_OFF,		/* no TSS: the NIC does not wrap its link */
	UET_TSS_ON,		/* send protected, accept both */
	UET_TSS_REQUIRED,	/* send protected, drop unprotected */
};

#define UET_TSS_SECRET_LEN	32	/* the job secret */
#define UET_TSS_KEY_LEN		32	/* AES-256 */
#define UET_TSS_TAG_LEN		16
#define UET_TSS_NONCE_LEN	12
/* The TSS header's tss_type of AES-256-GCM packets (the only one). */
#define UET_TSS_TYPE_AES256_GCM	1
/* Bytes TSS adds to a datagram: prologue + TSS header + tag = 30. */
#define UET_TSS_AAD_LEN		(UET_PDS_PROLOGUE_LEN + UET_TSS_HDR_LEN)
#define UET_TSS_OVERHEAD	(UET_TSS_AAD_LEN + UET_TSS_TAG_LEN)
/* Sequence numbers the receiver remembers per security context. */
#define UET_TSS_REPLAY_WINDOW	1024u
/* Security contexts a receiver keeps (least recently used one goes). */
#define UET_TSS_MAX_CTX		4096u
/* Default: rekey when the next sequence number would be above this. */
#define UET_TSS_REKEY_SEQ	0xffff0000u

struct uet_tss_cfg {
	uint8_t mode;			/* UET_TSS_ON or UET_TSS_REQUIRED */
	uint32_t job_id;
	uint8_t secret[UET_TSS_SECRET_LEN];
	/* Testing knobs (0: defaults).  First SCI (default random, not 0),
	 * first sequence number (default 1), last sequence number before
	 * the rekey (default UET_TSS_REKEY_SEQ), contexts kept. */
	uint32_t sci;
	uint32_t seq_start;
	uint32_t rekey_seq;
	unsigned int max_ctx;
};

/* Received datagrams dropped by TSS, by cause (before any PDS work). */
enum uet_tss_drop {
	UET_TSS_DROP_MALFORMED,		/* short, bad TSS header or type */
	UET_TSS_DROP_AUTH,		/* tag did not verify: tampered,
					 * wrong key, wrong context */
	UET_TSS_DROP_UNPROTECTED,	/* mode required: no TSS */
	UET_TSS_DROP_REPLAY,		/* sequence number seen already */
	UET_TSS_DROP_OLD,		/* older than the replay window */
	UET_TSS_DROP_N,
};

struct uet_tss_stats {
	uint8_t mode;			/* enum uet_tss_mode */
	uint64_t tx_pkts;		/* datagrams protected */
	uint64_t rx_pkts;		/* datagrams authenticated */
	uint64_t rx_plain;		/* unprotected, accepted (mode on) */
	uint64_t rx_in_place;		/* of rx_pkts, opened in the inner
					 * link's buffer (no copy) */
	uint64_t rekeys;		/* SCI changes of the sender */
	uint64_t ctx_new;		/* security contexts created */
	uint64_t ctx_evicted;		/* ... and pushed out by newer ones */
	uint64_t drops[UET_TSS_DROP_N];
	uint32_t tx_sci;		/* current SCI and next sequence */
	uint32_t tx_seq;
};

/*
 * Wrap inner in a TSS link.  With own_inner, closing the TSS link closes
 * inner.  -EINVAL (bad mode, NULL), -ENOMEM, -EIO (libcrypto refused).
 * The secret is copied (and wiped at close).
 */
int uet_tss_link_open(const struct uet_tss_cfg *cfg, struct uet_link *inner,
		      bool own_inner, struct uet_link **out);
/* -EINVAL when link is not a TSS link. */
int uet_tss_link_get_stats(struct uet_link *link, struct uet_tss_stats *st);
bool uet_tss_link_is(const struct uet_link *link);
/* The wrapped link. */
struct uet_link *uet_tss_link_inner(struct uet_link *link);
/* Short name of a drop cause, NULL past the end. */
const char *uet_tss_drop_name(unsigned int cause);

/*
 * Key sources (uet_tss_keys.c).  A key file holds the 32-byte secret,
 * raw (exactly 32 bytes) or as 64 hexadecimal digits (whitespace around
 * them allowed).  It is refused with -EPERM unless it is a regular file
 * owned by the effective user with mode 0600 (no other permission bits);
 * -EINVAL for another content, -errno when it cannot be opened or read.
 */
int uet_tss_key_file_load(const char *path,
			  uint8_t secret[UET_TSS_SECRET_LEN]);

#endif /* UET_TSS_H */
