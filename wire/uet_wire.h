/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Conventions shared by every wire codec (PDS, SES, CMS, TSS).
 *
 * - Codecs are pure functions over byte buffers and host-order structs.
 *   No libfabric, no sockets, no allocation, no logging.
 * - Every fixed-size format has a UET_<FMT>_LEN constant, checked with
 *   _Static_assert against the sum of its field widths.
 * - Encoders:  ssize_t uet_<layer>_<fmt>_encode(uint8_t *buf, size_t len,
 *                                              const struct ... *h);
 *   return the encoded length, UET_WIRE_ENOBUFS when len is too small
 *   (checked first), UET_WIRE_ETYPE when the struct's type / opcode fits
 *   its wire width but belongs to another format (the values the decoder
 *   rejects with ETYPE, e.g. UET_DEFERRABLE_RTR given to the SES SOM=1
 *   encoder), or UET_WIRE_ERANGE when a host field (type and opcode
 *   included) does not fit its wire width or is a reserved/forbidden
 *   value.  Nothing is written when an encoder fails.
 * - Decoders:  ssize_t uet_<layer>_<fmt>_decode(struct ... *h,
 *                                              const uint8_t *buf,
 *                                              size_t len);
 *   check len before reading anything, then return the decoded length,
 *   UET_WIRE_ETRUNC for a short buffer, UET_WIRE_ERESERVED when a
 *   reserved-must-be-zero bit is set, UET_WIRE_ETYPE when the type /
 *   opcode / next_hdr byte does not belong to this format, or
 *   UET_WIRE_ERANGE for an invalid value (message_id 0, PDCID 0,
 *   small-message som/eom not both 1, ...).
 * - Error values are negative errno values, which are also the libfabric
 *   FI_E* values, so upper layers can pass them through unchanged.
 */
#ifndef UET_WIRE_H
#define UET_WIRE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "uet_byteorder.h"
#include "uet_wire_consts.h"

#define UET_WIRE_ENOBUFS	(-ENOBUFS)	/* encode: output too small */
#define UET_WIRE_ETRUNC		(-EMSGSIZE)	/* decode: input too short */
#define UET_WIRE_ERESERVED	(-EBADMSG)	/* reserved bits not zero */
#define UET_WIRE_ETYPE		(-EPROTO)	/* wrong type/opcode for format */
#define UET_WIRE_ERANGE		(-ERANGE)	/* value out of range / invalid */

/*
 * Wire profiles (docs/conformance.md): which packet taxonomy the PDS and
 * SES codecs speak.  UE+ is PMR's (../shared/spec/), the default; UE is
 * the published UE 1.0.1 as independent implementations read it.  Every
 * PDS and SES codec takes the profile first; header sizes come from
 * uet_pds_fmt_len() / uet_ses_format_len() of the profile, never from a
 * constant outside wire/.
 */
enum uet_wire_prof {
	UET_WIRE_UEPLUS	= 0,
	UET_WIRE_UE	= 1,
	UET_WIRE_NPROF	= 2,
};

/* "ueplus" / "ue", or "UNKNOWN". */
const char *uet_wire_prof_str(unsigned int wp);
/* The profile named s ("ueplus", "ue+", "ue", "ue1.0.1"; case-insensitive),
 * or -1. */
int uet_wire_prof_parse(const char *s);

/* Whether the datagram at buf (PDS header first, after any TSS) parses
 * in profile wp: its PDS header and the SES header next_hdr names. */
bool uet_wire_datagram_parses(enum uet_wire_prof wp, const uint8_t *buf,
			      size_t len);

/* Human-readable name of a UET_WIRE_E* value (for logs and tests). */
const char *uet_wire_strerror(ssize_t err);

#endif /* UET_WIRE_H */
