/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * TSS (Transport Security Sublayer) header codec, 12 bytes
 * (tagged-send-and-encapsulation.md 4.6 and 5.2; docs/conformance.md (4.2)).
 *
 * The software NIC's TSS link (snic/uet_tss.c, docs/tss.md) writes and
 * reads it after an outer prologue of type TSS.  Conventions as in
 * uet_wire.h.
 */
#ifndef UET_TSS_WIRE_H
#define UET_TSS_WIRE_H

#include "uet_wire.h"

struct uet_tss_hdr {
	uint8_t tss_type;		/* 4 bits */
	uint8_t tss_flags;		/* 4 bits */
	uint32_t security_context_id;
	uint32_t sequence_number;	/* anti-replay */
};

ssize_t uet_tss_hdr_encode(uint8_t *buf, size_t len,
			   const struct uet_tss_hdr *h);
ssize_t uet_tss_hdr_decode(struct uet_tss_hdr *h, const uint8_t *buf,
			   size_t len);

#endif /* UET_TSS_WIRE_H */
