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
 * 2. Extension operations.  fi_open_ops(&domain->fid, FI_UET_OPS_V2, 0,
 *    (void **)&ops, NULL) gives a struct fi_uet_ops_v2: the counters of
 *    the domain's (software) NIC and the state of the PDCs with a peer.
 *    FI_UET_OPS_V1 still gives struct fi_uet_ops_v1 (counters only).
 *    -FI_ENOSYS for another name.
 *
 * 3. Endpoint options (fi_setopt / fi_getopt, level FI_OPT_ENDPOINT):
 *    FI_OPT_UET_DELIVERY, the delivery mode of one endpoint's messages,
 *    and FI_OPT_UET_TCLASS, its traffic class.
 *
 * 4. Error completions: what fi_cq_err_entry.prov_errno carries (the SES
 *    return code of the target, FI_UET_RC_*, or FI_UET_PROV_ERRNO_BASE
 *    plus a local FI_E* code).
 *
 * 5. Addresses: helpers that build and parse a uet endpoint address.
 *
 * man fi_uet_ext(3) describes all of it.
 */
#ifndef FI_UET_EXT_H
#define FI_UET_EXT_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_errno.h>

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
	FI_UET_DROP_RDATA,		/* SES: read data answering no READ
					 * outstanding on its PDC (late or
					 * forged) */
	FI_UET_DROP_WIRE_MISMATCH,	/* PDS: datagrams that parse only in
					 * the other wire profile (a peer
					 * with another FI_UET_WIRE; not in
					 * malformed) */
	FI_UET_DROP_MAX = 32		/* room for more causes */
};

/* TSS authentication failures, by cause (fi_uet_counters.tss_fail[]). */
enum fi_uet_tss_fail {
	FI_UET_TSS_FAIL_MALFORMED,	/* short, bad TSS header or type */
	FI_UET_TSS_FAIL_AUTH,		/* tag did not verify: tampered, wrong
					 * key or wrong security context */
	FI_UET_TSS_FAIL_UNPROTECTED,	/* FI_UET_TSS=required: no TSS */
	FI_UET_TSS_FAIL_STALE,		/* authentic, but for another
					 * instance at this address (sent
					 * before a restart or a fork) */
	FI_UET_TSS_FAIL_DOWNGRADE,	/* FI_UET_TSS=on: unprotected, from
					 * an address that spoke TSS */
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
	/* Appended after TSS (a shorter len gets what fits). */
	uint64_t wire_mismatch;		/* = drops[FI_UET_DROP_WIRE_MISMATCH] */
	uint32_t wire;			/* enum fi_uet_wire of the domain */
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

/* ---- 2. Extension operations, version 2 ---- */

#define FI_UET_OPS_V2		"uet_ops_v2"

/* Most PDCs one get_peer_pdcs call describes. */
#define FI_UET_PEER_PDC_MAX	8

/* One PDC (packet delivery context) with a peer's NIC. */
struct fi_uet_pdc_state {
	uint32_t initiator;		/* 1: this NIC opened it, 0: the peer */
	uint32_t established;		/* 1: the peer's PDCID is known */
	uint32_t mode;			/* enum fi_uet_delivery: RUD or ROD */
	uint32_t local_pdcid, remote_pdcid;	/* remote 0: not known */
	uint32_t tx_next_psn;		/* next PSN to send */
	uint32_t tx_unacked_psn;	/* first PSN not known acknowledged */
	uint32_t tx_outstanding;	/* packets sent, not yet done */
	uint32_t rx_next_psn;		/* cumulative ACK PSN + 1 */
	uint32_t rx_psn_window;		/* PSNs the receive window tracks */
	uint64_t tx_pkts, rx_pkts;
	uint64_t retransmissions;
	uint64_t srtt_ns, min_rtt_ns;	/* 0: no RTT sample yet */
};

struct fi_uet_peer_pdcs {
	uint32_t npdcs;			/* PDCs open with the peer's NIC */
	uint32_t nfilled;		/* entries of pdc[] filled */
	struct fi_uet_pdc_state pdc[FI_UET_PEER_PDC_MAX];
};

struct fi_uet_ops_v2 {
	size_t size;			/* sizeof(struct fi_uet_ops_v2) */
	/* As in struct fi_uet_ops_v1. */
	int (*get_counters)(struct fid_domain *domain,
			    struct fi_uet_counters *c, size_t len);
	/*
	 * The PDCs open between domain's NIC and the NIC of addr (an
	 * fi_addr_t of av, an AV of domain): PDCs belong to a pair of NICs
	 * and carry the traffic of all their endpoints.  Fills len bytes of
	 * p (at most sizeof(struct fi_uet_peer_pdcs), as get_counters).
	 * 0 (npdcs 0 when none is open), -FI_EINVAL (NULL, len 0, an
	 * address not in av, an AV of another domain), -FI_EOPNOTSUPP when
	 * the device keeps no such state.
	 */
	int (*get_peer_pdcs)(struct fid_domain *domain, struct fid_av *av,
			     fi_addr_t addr, struct fi_uet_peer_pdcs *p,
			     size_t len);
};

/* ---- 3. Endpoint options ---- */

/* Provider-specific option names are negative (libfabric's fi_ext.h
 * convention): -(FI_UET_OPT_BASE) and on. */
#define FI_UET_OPT_BASE		(0xee7 << 16)

enum {
	/* uint32_t, enum fi_uet_delivery.  Set before fi_enable
	 * (-FI_EOPBADSTATE after); -FI_EINVAL for another value or size;
	 * -FI_EOPNOTSUPP on an FI_EP_DGRAM endpoint (always UUD). */
	FI_OPT_UET_DELIVERY = -FI_UET_OPT_BASE,
	/* uint32_t, enum fi_traffic_class.  The software NIC sends every
	 * packet with DSCP 0: FI_TC_UNSPEC and FI_TC_BEST_EFFORT are
	 * accepted, other classes -FI_EOPNOTSUPP.  Before fi_enable. */
	FI_OPT_UET_TCLASS,
};

/* Delivery modes: FI_UET_DELIVERY_DEFAULT is the domain's (environment
 * variable FI_UET_DELIVERY, RUD unless set). */
enum fi_uet_delivery {
	FI_UET_DELIVERY_DEFAULT = 0,
	FI_UET_DELIVERY_RUD = 1,	/* reliable, unordered */
	FI_UET_DELIVERY_ROD = 2,	/* reliable, ordered */
};

/* ---- 4. prov_errno of error completions ---- */

/*
 * fi_cq_err_entry.prov_errno is either a SES return code the target
 * answered with (FI_UET_RC_*, 1..63), or FI_UET_PROV_ERRNO_BASE + the
 * FI_E* code of a failure seen locally (no answer, truncation, cancel).
 * fi_cq_strerror() describes both.
 */
#define FI_UET_PROV_ERRNO_BASE	0x10000

/* SES return codes (Ultra Ethernet 1.0.1, Table 3-19). */
enum fi_uet_rc {
	FI_UET_RC_OK			= 0x01,
	FI_UET_RC_BAD_GENERATION	= 0x02,
	FI_UET_RC_DISABLED		= 0x03,
	FI_UET_RC_DISABLED_GEN		= 0x04,
	FI_UET_RC_NO_MATCH		= 0x05,
	FI_UET_RC_UNSUPPORTED_OP	= 0x06,
	FI_UET_RC_UNSUPPORTED_SIZE	= 0x07,
	FI_UET_RC_AT_INVALID		= 0x08,
	FI_UET_RC_AT_PERM		= 0x09,
	FI_UET_RC_AT_ATS_ERROR		= 0x0a,
	FI_UET_RC_AT_NO_TRANS		= 0x0b,
	FI_UET_RC_AT_OUT_OF_RANGE	= 0x0c,
	FI_UET_RC_HOST_POISONED		= 0x0d,
	FI_UET_RC_HOST_UNSUCCESS_CMPL	= 0x0e,
	FI_UET_RC_AMO_UNSUPPORTED_OP	= 0x0f,
	FI_UET_RC_AMO_UNSUPPORTED_DT	= 0x10,
	FI_UET_RC_AMO_UNSUPPORTED_SIZE	= 0x11,
	FI_UET_RC_AMO_UNALIGNED		= 0x12,
	FI_UET_RC_AMO_FP_NAN		= 0x13,
	FI_UET_RC_AMO_FP_UNDERFLOW	= 0x14,
	FI_UET_RC_AMO_FP_OVERFLOW	= 0x15,
	FI_UET_RC_AMO_FP_INEXACT	= 0x16,
	FI_UET_RC_PERM_VIOLATION	= 0x17,
	FI_UET_RC_OP_VIOLATION		= 0x18,
	FI_UET_RC_BAD_INDEX		= 0x19,
	FI_UET_RC_BAD_PID		= 0x1a,
	FI_UET_RC_BAD_JOB_ID		= 0x1b,
	FI_UET_RC_BAD_MKEY		= 0x1c,
	FI_UET_RC_BAD_ADDR		= 0x1d,
	FI_UET_RC_CANCELLED		= 0x1e,
	FI_UET_RC_UNDELIVERABLE		= 0x1f,
	FI_UET_RC_UNCOR			= 0x20,
	FI_UET_RC_UNCOR_TRNSNT		= 0x21,
	FI_UET_RC_TOO_LONG		= 0x22,
	FI_UET_RC_INITIATOR_ERR		= 0x23,
	FI_UET_RC_DROPPED		= 0x24,
};

/* Is prov_errno a SES return code from the target? */
static inline int fi_uet_prov_errno_is_rc(int prov_errno)
{
	return prov_errno > 0 && prov_errno < FI_UET_PROV_ERRNO_BASE;
}

/* The local FI_E* code (positive) of a prov_errno that is not a SES
 * return code, else 0. */
static inline int fi_uet_prov_errno_local(int prov_errno)
{
	return prov_errno > FI_UET_PROV_ERRNO_BASE ?
	       prov_errno - FI_UET_PROV_ERRNO_BASE : 0;
}

/* ---- 5. Addresses ---- */

/*
 * A uet endpoint address (fi_getname, fi_av_insert) is a plain sockaddr
 * of the NIC's IP address and UDP port that also names the endpoint by
 * its PIDonFEP (pid) and resource index (ri), 12 bits each, and the wire
 * profile its NIC speaks (enum fi_uet_wire):
 *   FI_SOCKADDR_IN   struct sockaddr_in; sin_zero bytes 0-1 the pid,
 *                    bytes 2-3 the ri (big-endian), byte 4 the wire
 *                    profile, bytes 5-7 zero;
 *   FI_SOCKADDR_IN6  struct sockaddr_in6; sin6_flowinfo (network order)
 *                    wire << 24 | pid << 12 | ri, bits 28-31 zero.
 * A sockaddr with sin_zero / sin6_flowinfo zero names pid 0, ri 0 and no
 * profile.  fi_getname always says the profile; fi_av_insert refuses an
 * address of the other profile (FI_ADDR_NOTAVAIL, -FI_EADDRNOTAVAIL with
 * FI_SYNC_ERR; the log names both profiles).
 *
 * The wire profile of a domain (docs/conformance.md): the one its
 * fi_info's src_addr says, else FI_UET_WIRE (ueplus unless set).  To
 * open one domain in the other profile, set it in info->src_addr with
 * fi_uet_addr_set_wire() before fi_domain().
 */
#define FI_UET_ADDR_ID_MAX	0xfffu

enum fi_uet_wire {
	FI_UET_WIRE_UNSPEC = 0,		/* not said (the domain's) */
	FI_UET_WIRE_UEPLUS = 1,		/* UE+, PMR's (the default) */
	FI_UET_WIRE_UE = 2,		/* the published UE 1.0.1 */
};

/* The wire profile a uet address of len bytes says (enum fi_uet_wire),
 * or -FI_EINVAL for NULL, a short length or another family. */
static inline int fi_uet_addr_wire(const void *addr, size_t len)
{
	struct sockaddr_storage ss;

	if (!addr || len < sizeof(sa_family_t))
		return -FI_EINVAL;
	memset(&ss, 0, sizeof(ss));
	memcpy(&ss, addr, len < sizeof(ss) ? len : sizeof(ss));
	if (ss.ss_family == AF_INET && len >= sizeof(struct sockaddr_in))
		return ((unsigned char *)((struct sockaddr_in *)&ss)->sin_zero)[4];
	if (ss.ss_family == AF_INET6 && len >= sizeof(struct sockaddr_in6))
		return (int)(ntohl(((struct sockaddr_in6 *)&ss)->sin6_flowinfo)
			     >> 24 & 0xf);
	return -FI_EINVAL;
}

/* Make the uet address of len bytes at addr say wire (enum fi_uet_wire):
 * 0, or -FI_EINVAL. */
static inline int fi_uet_addr_set_wire(void *addr, size_t len, int wire)
{
	sa_family_t family;

	if (!addr || len < sizeof(family) || wire < FI_UET_WIRE_UNSPEC ||
	    wire > FI_UET_WIRE_UE)
		return -FI_EINVAL;
	memcpy(&family, (const char *)addr +
	       offsetof(struct sockaddr, sa_family), sizeof(family));
	if (family == AF_INET && len >= sizeof(struct sockaddr_in)) {
		struct sockaddr_in sin;

		memcpy(&sin, addr, sizeof(sin));
		((unsigned char *)sin.sin_zero)[4] = (unsigned char)wire;
		memcpy(addr, &sin, sizeof(sin));
		return 0;
	}
	if (family == AF_INET6 && len >= sizeof(struct sockaddr_in6)) {
		struct sockaddr_in6 sin6;
		uint32_t f;

		memcpy(&sin6, addr, sizeof(sin6));
		f = ntohl(sin6.sin6_flowinfo) & ~(0xfu << 24);
		sin6.sin6_flowinfo = htonl(f | (uint32_t)wire << 24);
		memcpy(addr, &sin6, sizeof(sin6));
		return 0;
	}
	return -FI_EINVAL;
}

/* The size of a uet address of family AF_INET or AF_INET6, else 0. */
static inline size_t fi_uet_addr_size(int family)
{
	return family == AF_INET ? sizeof(struct sockaddr_in) :
	       family == AF_INET6 ? sizeof(struct sockaddr_in6) : 0;
}

/*
 * Build into addr (*addrlen bytes of room) the address of endpoint
 * {pid, ri} on the NIC at nic (a sockaddr_in or sockaddr_in6 with the
 * NIC's address and port; its sin_zero / sin6_flowinfo are ignored).
 * 0 with *addrlen set to the address's size; -FI_ETOOSMALL (with
 * *addrlen set to the size needed); -FI_EINVAL for NULL, another family
 * or an id above FI_UET_ADDR_ID_MAX.
 */
static inline int fi_uet_addr_build(const struct sockaddr *nic, uint16_t pid,
				    uint16_t ri, void *addr, size_t *addrlen)
{
	size_t need;

	if (!nic || !addrlen || pid > FI_UET_ADDR_ID_MAX ||
	    ri > FI_UET_ADDR_ID_MAX)
		return -FI_EINVAL;
	need = fi_uet_addr_size(nic->sa_family);
	if (!need)
		return -FI_EINVAL;
	if (*addrlen < need || !addr) {
		*addrlen = need;
		return -FI_ETOOSMALL;
	}
	memcpy(addr, nic, need);
	if (nic->sa_family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)addr;
		unsigned char *z = (unsigned char *)sin->sin_zero;

		memset(z, 0, sizeof(sin->sin_zero));
		z[0] = (unsigned char)(pid >> 8);
		z[1] = (unsigned char)pid;
		z[2] = (unsigned char)(ri >> 8);
		z[3] = (unsigned char)ri;
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)addr;

		sin6->sin6_flowinfo = htonl((uint32_t)pid << 12 | ri);
	}
	*addrlen = need;
	return 0;
}

/*
 * Parse a uet address of len bytes: the NIC's address and port into nic
 * (when not NULL; sin_zero / sin6_flowinfo cleared), the endpoint's ids
 * into *pid and *ri (when not NULL).  0, or -FI_EINVAL for NULL, a short
 * length, another family or non-zero reserved bits.
 */
static inline int fi_uet_addr_parse(const void *addr, size_t len,
				    struct sockaddr_storage *nic,
				    uint16_t *pid, uint16_t *ri)
{
	struct sockaddr_storage ss;
	uint16_t p, r;
	size_t need;

	if (!addr || len < sizeof(sa_family_t))
		return -FI_EINVAL;
	memset(&ss, 0, sizeof(ss));
	memcpy(&ss, addr, len < sizeof(ss) ? len : sizeof(ss));
	need = fi_uet_addr_size(ss.ss_family);
	if (!need || len < need)
		return -FI_EINVAL;
	if (ss.ss_family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
		unsigned char *z = (unsigned char *)sin->sin_zero;

		if (z[4] > FI_UET_WIRE_UE || (z[5] | z[6] | z[7]))
			return -FI_EINVAL;
		p = (uint16_t)(z[0] << 8 | z[1]);
		r = (uint16_t)(z[2] << 8 | z[3]);
		if (p > FI_UET_ADDR_ID_MAX || r > FI_UET_ADDR_ID_MAX)
			return -FI_EINVAL;
		memset(z, 0, sizeof(sin->sin_zero));
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
		uint32_t f = ntohl(sin6->sin6_flowinfo);

		if (f >> 28 || (f >> 24 & 0xf) > FI_UET_WIRE_UE)
			return -FI_EINVAL;
		p = (uint16_t)(f >> 12 & FI_UET_ADDR_ID_MAX);
		r = (uint16_t)(f & FI_UET_ADDR_ID_MAX);
		sin6->sin6_flowinfo = 0;
	}
	if (nic)
		memcpy(nic, &ss, sizeof(ss));
	if (pid)
		*pid = p;
	if (ri)
		*ri = r;
	return 0;
}

#ifdef __cplusplus
}
#endif

#endif /* FI_UET_EXT_H */
