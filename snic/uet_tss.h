/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * TSS (Transport Security Sublayer) of the software NIC: a link that wraps
 * another link (UDP, or the in-memory test link) and protects every
 * datagram the NIC sends, whatever its PDS type (requests, ACKs, NACKs,
 * CPs, RUDI/UUD), with AES-256-GCM (OpenSSL libcrypto EVP).  It sits
 * between the link and PDS: PDS and SES only ever see datagrams that
 * authenticated (or, in mode "on", that came unprotected).
 *
 * A protected datagram (docs/tss.md, docs/conformance.md C-22, E-15):
 *
 *   bytes 0-1      PDS prologue, type 1 (TSS), next_hdr 0, flags 0
 *   bytes 2-13     TSS header (wire/uet_tss_wire.h): tss_type 1
 *                  (UET_TSS_TYPE_AES256_GCM), tss_flags DCI (and
 *                  ANNOUNCE for an announcement), security_context_id
 *                  (SCI), sequence_number
 *   bytes 14-17    destination context id (DCI): the SCI of the receiver
 *                  instance the datagram is for
 *   bytes 18-      the whole PDS datagram (its own prologue, PDS header,
 *                  SES header, payload), encrypted; empty in an
 *                  announcement
 *   last 16 bytes  GCM authentication tag
 *
 * Associated data: bytes 0-17, then the destination's address bytes
 * (uet_tss_addr_bytes: family, UDP port, IP), which are not sent: a
 * datagram opens only at the address it was sent to.  Nonce (12 bytes):
 * SCI (be32), 0 (be32), sequence number (be32).  Key: HKDF-SHA256
 * (uet_tss_keys.c) of the job secret, over the JobID, the SCI and the
 * sender's source address (IP and UDP port): one key per sender instance.
 *
 * Instances.  Each TSS link (each instance: a process, a restarted one, a
 * forked child) draws a random SCI; it is the instance's identity as well
 * as its key's.  A receiver delivers a datagram only when its DCI names
 * the receiver's own SCI (or the one before its last rekey): a datagram
 * captured on its way to another instance, at another address or at this
 * address before a restart, is refused (UET_TSS_DROP_STALE).  The sender
 * learns a peer's SCI from the peer's datagrams that were fresh for it.
 * Before it knows it, it holds the datagrams (a bounded queue per peer)
 * and sends an announcement with DCI 0; a receiver answers a datagram
 * that is not fresh for it (an announcement with DCI 0, or a datagram for
 * an earlier instance) with an announcement naming the sender's SCI, at
 * most one per address per UET_TSS_ANNOUNCE_GAP_NS.  So the first
 * datagram to a peer waits one round trip, later ones none.  The sender
 * starts with sequence number 1; before the sequence number would wrap
 * it moves to SCI + 1 (a new key) and starts again at 1, so a nonce is
 * never used twice under one key; after fork() the child draws a new SCI
 * (pthread_atfork) before it seals anything.  The receiver keeps a
 * security context per (source address, SCI): the derived key and a
 * replay window of UET_TSS_REPLAY_WINDOW sequence numbers; a context is
 * created only by a datagram that authenticates.
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
/* Bytes TSS adds to a datagram: prologue + TSS header + DCI + tag = 34.
 * UET_TSS_AAD_LEN is the part sent in clear (the associated data also
 * holds the destination address, which is not sent). */
#define UET_TSS_AAD_LEN		(UET_PDS_PROLOGUE_LEN + UET_TSS_HDR_LEN + 4)
#define UET_TSS_OVERHEAD	(UET_TSS_AAD_LEN + UET_TSS_TAG_LEN)
/* Sequence numbers the receiver remembers per security context. */
#define UET_TSS_REPLAY_WINDOW	1024u
/* Security contexts a receiver keeps (least recently used one goes). */
#define UET_TSS_MAX_CTX		4096u
/* Default: rekey when the next sequence number would be above this. */
#define UET_TSS_REKEY_SEQ	0xffff0000u
/* Peers (addresses) a link remembers: their SCI, whether they spoke TSS
 * (mode on), datagrams held for them; least recently used one goes. */
#define UET_TSS_MAX_PEERS	4096u
/* A peer's entry is forgotten this long after its last use (a fresh
 * datagram from it, or our send to it): its SCI is asked again.  In mode
 * on, its plaintext is dropped for this long after its last fresh
 * datagram. */
#define UET_TSS_PEER_TTL_NS	(600ull * 1000000000ull)
/* At most one announcement to an address per this interval. */
#define UET_TSS_ANNOUNCE_GAP_NS	1000000ull
/* Datagrams held for a peer whose SCI is not known yet, and their bytes;
 * peers with held datagrams at a time.  Beyond: dropped (PDS resends). */
#define UET_TSS_HOLD_PKTS	64u
#define UET_TSS_HOLD_BYTES	(64u * 1024u)
#define UET_TSS_HOLD_PEERS	64u

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
	/* Peers kept (default UET_TSS_MAX_PEERS), their time to live
	 * (default UET_TSS_PEER_TTL_NS). */
	unsigned int max_peers;
	uint64_t peer_ttl_ns;
};

/* Received datagrams dropped by TSS, by cause (before any PDS work). */
enum uet_tss_drop {
	UET_TSS_DROP_MALFORMED,		/* short, bad TSS header or type */
	UET_TSS_DROP_AUTH,		/* tag did not verify: tampered,
					 * wrong key, wrong context */
	UET_TSS_DROP_UNPROTECTED,	/* mode required: no TSS */
	UET_TSS_DROP_REPLAY,		/* sequence number seen already */
	UET_TSS_DROP_OLD,		/* older than the replay window */
	UET_TSS_DROP_STALE,		/* authentic, but for another instance
					 * of this receiver (its DCI is not
					 * ours): a capture from before a
					 * restart or fork, or DCI 0 */
	UET_TSS_DROP_DOWNGRADE,		/* mode on: unprotected, from an
					 * address that spoke TSS */
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
	uint64_t announce_tx;		/* announcements sent */
	uint64_t announce_rx;		/* ... received and authenticated */
	uint64_t announce_limited;	/* not sent: one went to that address
					 * less than UET_TSS_ANNOUNCE_GAP_NS
					 * ago */
	uint64_t held;			/* datagrams held for a peer whose SCI
					 * was not known */
	uint64_t held_sent;		/* ... sealed and sent once it was */
	uint64_t held_dropped;		/* ... dropped: queue full, peer
					 * forgotten, or the send failed */
	uint64_t peers_learned;		/* a peer's SCI learned or changed */
	uint64_t peers_evicted;		/* peers pushed out (table full) */
	uint64_t forks;			/* new SCI drawn in a forked child */
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
