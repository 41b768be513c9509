/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CMS (congestion management) wire codecs: the CC state carried between
 * the PDS header and the SES header of a request (CSIG), in its compact
 * (8 B) and wide (16 B) forms.
 *
 * Layouts: ../shared/spec/tagged-send-and-encapsulation.md sections 4.2
 * and 4.3; as implemented: docs/conformance.md (4.1).  Conventions:
 * uet_wire.h.  cc_flags (byte 0, bits 3:0) is reserved: no member,
 * encoders write zero, decoders reject non-zero (UET_WIRE_ERESERVED).
 */
#ifndef UET_CMS_WIRE_H
#define UET_CMS_WIRE_H

#include "uet_wire.h"

#define UET_CMS_SENT_BYTES_MAX		0xffffffu	/* 24 bits */
#define UET_CMS_WIDE_STATE_LEN		15		/* 120 bits */

/* Compact CC state (8 B). */
struct uet_cms_cc_state_compact {
	uint8_t cc_type;	/* UET_CC_NSCC or UET_CC_CREDIT */
	uint32_t sent_bytes;	/* 24 bits */
	uint32_t cwnd_bytes;
};

ssize_t uet_cms_cc_state_compact_encode(uint8_t *buf, size_t len,
				const struct uet_cms_cc_state_compact *h);
ssize_t uet_cms_cc_state_compact_decode(struct uet_cms_cc_state_compact *h,
					const uint8_t *buf, size_t len);

/* Wide CC state (16 B). */
struct uet_cms_cc_state_wide {
	uint8_t cc_type;	/* UET_CC_NSCC or UET_CC_CREDIT */
	uint8_t cc_state[UET_CMS_WIDE_STATE_LEN];
};

ssize_t uet_cms_cc_state_wide_encode(uint8_t *buf, size_t len,
				     const struct uet_cms_cc_state_wide *h);
ssize_t uet_cms_cc_state_wide_decode(struct uet_cms_cc_state_wide *h,
				     const uint8_t *buf, size_t len);

#endif /* UET_CMS_WIRE_H */
