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

/*
 * uet's use of the four tss_flags bits (docs/tss.md "Instances",
 * docs/conformance.md C-22 and E-15):
 *   DCI       a 4-byte destination context id (be32) follows the TSS
 *             header: the security context id of the receiver instance
 *             the datagram is meant for, 0 when the sender does not know
 *             it yet.  uet sets it on every datagram.
 *   ANNOUNCE  the datagram carries no PDS datagram (empty plaintext): it
 *             tells the receiver the sender's security context id.
 */
#define UET_TSS_FLAG_DCI	0x1u
#define UET_TSS_FLAG_ANNOUNCE	0x2u
#define UET_TSS_DCI_LEN		4

ssize_t uet_tss_dci_encode(uint8_t *buf, size_t len, uint32_t dci);
ssize_t uet_tss_dci_decode(uint32_t *dci, const uint8_t *buf, size_t len);

#endif /* UET_TSS_WIRE_H */
