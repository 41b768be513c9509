/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fi_uet_ext.h: the uet provider's extensions to the libfabric API
 * (installed as <rdma/fi_uet_ext.h>; man fi_uet(7)).  Needs only the
 * libfabric headers.
 *
 * 1. auth_key.  A domain's or endpoint's auth_key is either
 *      - 4 bytes: the JobID, a uint32_t in host order below 2^24; or
 *      - sizeof(struct fi_uet_auth_key) (40) bytes: the JobID as above,
 *        a flags word (0), and the job's 32-byte TSS secret, shared by
 *        all the processes of the job.  Packets are then protected with
 *        TSS (AES-256-GCM, keys derived from the secret) as
 *        FI_UET_TSS says; see fi_uet(7), "Transport security".
 *    An endpoint's auth_key may repeat its domain's, not differ from it.
 *
 * 2. Extension operations.  fi_open_ops(&domain->fid, FI_UET_OPS_V1, 0,
 *    (void **)&ops, NULL) gives a struct fi_uet_ops_v1: the counters of
 *    the domain's (software) NIC.  -FI_ENOSYS for another name.
 */
#ifndef FI_UET_EXT_H
#define FI_UET_EXT_H

#include <stddef.h>
#include <stdint.h>

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FI_UET_TSS_SECRET_LEN	32

struct fi_uet_auth_key {
	uint32_t job_id;		/* host order, < 2^24 */
	uint32_t flags;			/* 0 */
	uint8_t secret[FI_UET_TSS_SECRET_LEN];
};

#define FI_UET_AUTH_KEY_JOB_SIZE	4
#define FI_UET_AUTH_KEY_TSS_SIZE	sizeof(struct fi_uet_auth_key)

#define FI_UET_OPS_V1		"uet_ops_v1"

/* Datagrams and requests from the network that the NIC dropped, by cause
 * (the index of fi_uet_counters.drops[]). */
enum fi_uet_drop {
	FI_UET_DROP_MALFORMED,		/* PDS: undecodable datagrams */
	FI_UET_DROP_UNKNOWN_PDC,	/* PDS: no such PDC */
	FI_UET_DROP_WRONG_MODE,		/* PDS: request of another mode */
	FI_UET_DROP_SYN_REFUSED,	/* PDS: PDC released, SES refused */
	FI_UET_DROP_SRC_LIMIT,		/* PDS: per-source PDC limit */
	FI_UET_DROP_REPLAY,		/* PDS: replay of a closed PDC */
	FI_UET_DROP_SYN_CONFLICT,	/* PDS: syn would reset a busy PDC */
	FI_UET_DROP_HOLD_LIMIT,		/* PDS: ROD hold bound per PDC */
	FI_UET_DROP_HOLD_EXPIRED,	/* PDS: PDCs with stale held packets */
	FI_UET_DROP_SES_MALFORMED,	/* SES: malformed headers */
	FI_UET_DROP_ADDR,		/* SES: no such endpoint */
	FI_UET_DROP_MODE,		/* SES: RMA/send in the wrong mode */
	FI_UET_DROP_OVERLAP,		/* SES: bytes already received */
	FI_UET_DROP_AHEAD,		/* SES: unexpected data too far ahead */
	FI_UET_DROP_UNEXP_FULL,		/* SES: unexpected bound (retried) */
	FI_UET_DROP_MSG_EXPIRED,	/* SES: incomplete messages timed out */
	FI_UET_DROP_RMA_FULL,		/* SES: write record bound (retried) */
	FI_UET_DROP_RMA_EXPIRED,	/* SES: incomplete writes timed out */
	FI_UET_DROP_RMA_KEY,		/* SES: bad or stale memory key */
	FI_UET_DROP_RMA_ACCESS,		/* SES: permission or range */
	FI_UET_DROP_MAX = 32		/* room for more causes */
};

/* TSS authentication failures, by cause (fi_uet_counters.tss_fail[]). */
enum fi_uet_tss_fail {
	FI_UET_TSS_FAIL_MALFORMED,	/* short, bad TSS header or type */
	FI_UET_TSS_FAIL_AUTH,		/* tag did not verify: tampered, wrong
					 * key or wrong security context */
	FI_UET_TSS_FAIL_UNPROTECTED,	/* FI_UET_TSS=required: no TSS */
	FI_UET_TSS_FAIL_MAX = 8
};

/* FI_UET_TSS mode in effect (fi_uet_counters.tss_mode). */
enum fi_uet_tss_mode {
	FI_UET_TSS_MODE_OFF,
	FI_UET_TSS_MODE_ON,
	FI_UET_TSS_MODE_REQUIRED,
};

struct fi_uet_counters {
	uint64_t pkts_tx, pkts_rx;	/* PDS datagrams */
	uint64_t bytes_tx, bytes_rx;
	uint64_t retransmissions;
	uint64_t malformed;		/* = drops[FI_UET_DROP_MALFORMED] */
	uint64_t pdcs_open;		/* PDCs open now */
	uint64_t drops[FI_UET_DROP_MAX];
	uint32_t ndrops;		/* causes the provider filled */
	uint32_t tss_mode;		/* enum fi_uet_tss_mode */
	uint64_t tss_tx;		/* datagrams protected */
	uint64_t tss_rx;		/* datagrams authenticated */
	uint64_t tss_fail[FI_UET_TSS_FAIL_MAX];
	uint64_t tss_replays;		/* sequence number seen already */
	uint64_t tss_too_old;		/* older than the replay window */
	uint64_t tss_rekeys;
};

struct fi_uet_ops_v1 {
	size_t size;			/* sizeof(struct fi_uet_ops_v1) */
	/*
	 * Fill c (len bytes of it, at most sizeof(struct fi_uet_counters);
	 * a larger struct of a later version gets zeros past the end) with
	 * the counters of domain's NIC since it opened.  0, -FI_EINVAL (NULL
	 * or len 0), -FI_EOPNOTSUPP when the device keeps none.
	 */
	int (*get_counters)(struct fid_domain *domain,
			    struct fi_uet_counters *c, size_t len);
};

#ifdef __cplusplus
}
#endif

#endif /* FI_UET_EXT_H */
