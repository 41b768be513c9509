/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Discovery: what fi_getinfo answers for uet, and the check fi_domain /
 * fi_endpoint make on the fi_info they are given.
 *
 * One fabric per IP subnet (named "<network>/<prefix>", uet_iface.h; the
 * name "uet" in hints or fi_fabric stands for any of them); one domain
 * per usable local interface (named after it); one fi_info per
 * (interface address x endpoint type), every RDM info before every DGRAM
 * info, the addresses in uet_iface_order()'s order: loopback last.  src_addr is the interface address in
 * uet's raw form (uet_addr.h), pid 0, ri 0.
 *
 * The capabilities uet offers are defined once, below; the fi_info
 * attributes, their checks against hints and the tx/rx split all follow
 * from UET_CAPS.
 */
#ifndef UET_INFO_H
#define UET_INFO_H

#include <stdint.h>

#include <rdma/fabric.h>

#include "uet_env.h"
#include "uet_peer.h"
#include "uet_wire_consts.h"	/* UET_JOB_ID_MAX */

/* ---- capabilities ---- */
/* FI_HMEM: buffers of FI_HMEM_SYSTEM memory are accepted with every
 * operation and in fi_mr_regattr (iface and device honoured from API 1.9,
 * where struct fi_mr_attr has them); CUDA memory where the driver loads
 * with a device, through host bounce buffers (uet_hmem.h); other device
 * memory (ROCr, ZE, Neuron, SynapseAI) is refused at registration
 * (-FI_EOPNOTSUPP), which makes clients that can stage through host
 * memory do so (uet_mr.c).
 * Offered from API 1.9 (uet_info.c), a primary capability: given only
 * when asked for (or when the hints name no capability). */
#define UET_CAPS_MSG	(FI_MSG | FI_TAGGED | FI_SEND | FI_RECV | \
			 FI_DIRECTED_RECV | FI_SOURCE | FI_MULTI_RECV | \
			 FI_NAMED_RX_CTX | FI_HMEM)
/* The first API version whose struct fi_mr_attr has iface and device. */
#define UET_HMEM_API		FI_VERSION(1, 9)
/* RMA and atomics need a reliable delivery mode: RDM only.  FI_FENCE:
 * a fenced operation starts when every earlier one has completed. */
#define UET_CAPS_RMA	(FI_RMA | FI_ATOMIC | FI_READ | FI_WRITE | \
			 FI_REMOTE_READ | FI_REMOTE_WRITE | FI_RMA_EVENT | \
			 FI_FENCE)
/* FI_AV_USER_ID: insert-time ids reported as sources (uet_av.c);
 * FI_PEER: imported peer CQs and peer SRX (uet_peer.c, only when the
 * libfabric headers have fi_peer.h). */
#if UET_HAVE_PEER
#define UET_CAPS_PEER	(FI_AV_USER_ID | FI_PEER)
#else
#define UET_CAPS_PEER	FI_AV_USER_ID
#endif
/* FI_SHARED_AV: named AVs shared between processes (uet_av_shm.c). */
#define UET_CAPS_DOMAIN	(FI_LOCAL_COMM | FI_REMOTE_COMM | FI_SHARED_AV | \
			 UET_CAPS_PEER)
#define UET_CAPS_RDM	(UET_CAPS_MSG | UET_CAPS_RMA | UET_CAPS_DOMAIN)
#define UET_CAPS_DGRAM	(UET_CAPS_MSG | UET_CAPS_DOMAIN)
/* Every capability of some endpoint type. */
#define UET_CAPS	UET_CAPS_RDM

/* Operation flags an application may set as tx/rx defaults. */
#define UET_TX_OP_FLAGS	(FI_COMPLETION | FI_INJECT | FI_INJECT_COMPLETE | \
			 FI_TRANSMIT_COMPLETE | FI_DELIVERY_COMPLETE)
#define UET_RX_OP_FLAGS	(FI_COMPLETION | FI_MULTI_RECV)

/* Memory registration modes uet honours when the application sets them
 * in the info it passes to fi_domain; fi_getinfo returns none (uet
 * requires none).  FI_MR_PROV_KEY: the provider chooses keys (else
 * requested_key is the key); FI_MR_VIRT_ADDR: remote addresses are
 * virtual addresses (else offsets into the region). */
#define UET_MR_MODE	(FI_MR_VIRT_ADDR | FI_MR_PROV_KEY)

/* ---- attributes ---- */
/* Stands for any uet fabric in hints and fi_fabric (legacy name). */
#define UET_FABRIC_NAME		"uet"
#define UET_PROTOCOL_VERSION	1
/* The SES request_length is 32 bits: 4 GiB - 1. */
#define UET_RDM_MAX_MSG_SIZE	0xffffffffull
/* Room taken in a DGRAM packet by the UET headers (PDS + SES). */
#define UET_DGRAM_HDR_MAX	44	/* PDS UUD 12 + SES small header 32 */
/* ... and at most this much: the software NIC's single-packet limit
 * (uet_hsi_dev_limits.max_single_pkt, a NIC buffer). */
#define UET_DGRAM_MAX_MSG	8192
#define UET_INJECT_SIZE		4096
/* Largest send the NIC copies when no completion level is asked for
 * (ep->copy_max): beyond the inject size, so that a send of a few
 * packets completes without waiting for its ACK (docs/software-nic.md,
 * "Held sends"). */
#define UET_COPY_MAX		16384
#define UET_QUEUE_SIZE		1024
#define UET_IOV_LIMIT		8
#define UET_RMA_IOV_LIMIT	4	/* remote segments per RMA (uet_rma.c) */
/* ep_attr.mem_tag_format: every tag bit usable (the top bit must be set
 * for applications that count from it, e.g. the OFI MTL). */
#define UET_MEM_TAG_FORMAT	0xaaaaaaaaaaaaaaaaull
#define UET_MSG_ORDER		FI_ORDER_SAS
#define UET_COMP_ORDER		0	/* FI_ORDER_NONE, deprecated in 2.x */
#define UET_MR_KEY_SIZE		8
#define UET_CQ_DATA_SIZE	8
#define UET_CQ_CNT		256
#define UET_EP_CNT		4096
#define UET_CTX_CNT		4096
/* Transmit / receive contexts of a scalable endpoint (uet_sep.c). */
#define UET_EP_CTX_MAX		64
#define UET_CNTR_CNT		256
/* Segments of one registration (fi_mr_regv): UET_HSI_MR_SEGS_MAX. */
#define UET_MR_IOV_LIMIT	8
#define UET_MR_CNT		65536
/* auth_key: the JobID, a uint32_t in host order below 2^24 (4 bytes), or
 * a struct fi_uet_auth_key (40 bytes: JobID, flags 0, TSS secret;
 * include/rdma/fi_uet_ext.h).  fi_info offers the 4-byte form. */
#define UET_AUTH_KEY_SIZE	4
/* Parse an auth_key of size bytes: the JobID, and *secret pointing into
 * key at the 32-byte TSS secret (NULL for the 4-byte form).  0 or
 * -FI_EINVAL (size, flags, JobID of more than 24 bits). */
int uet_info_auth_key_parse(const void *key, size_t size, uint32_t *job,
			    const uint8_t **secret);

/* FI_UET_IFACE (interfaces offered) and FI_UET_JOB_ID (default JobID). */
extern const struct uet_env_var uet_info_env_iface;
extern const struct uet_env_var uet_info_env_job_id;
extern const struct uet_env_var uet_info_env_wire;
/* FI_UET_WIRE: enum fi_uet_wire, FI_UET_WIRE_UEPLUS unless set. */
uint8_t uet_info_wire(void);
/* FI_UET_ADDR_FAMILY: any, ipv4 or ipv6. */
extern const struct uet_env_var uet_info_env_addr_family;

/*
 * fi_getinfo for uet.  node/service/flags follow libfabric's IP provider
 * conventions: with FI_SOURCE they name the source; without it node names
 * the destination and service alone is the source port.  Returns 0 and a
 * list in *info, or -FI_ENODATA when nothing uet offers matches the hints
 * (or the source address is not a local one), -FI_EINVAL, -FI_ENOMEM.
 */
int uet_info_getinfo(uint32_t version, const char *node, const char *service,
		     uint64_t flags, const struct fi_info *hints,
		     struct fi_info **info);

/*
 * For fi_domain / fi_endpoint: 0 when uet can provide what info (as
 * returned by uet_info_getinfo, possibly altered by the application)
 * asks for, -FI_ENODATA when not, -FI_EINVAL for a NULL info.
 */
int uet_info_check(uint32_t version, const struct fi_info *info);

#endif /* UET_INFO_H */
