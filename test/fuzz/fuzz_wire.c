/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer harness: every wire decoder (wire/uet_*_wire.h), in both wire
 * profiles, with a round-trip oracle.  The first input byte picks the
 * decoder (bits 6:0) and the profile of the PDS and SES codecs (bit 7:
 * UE 1.0.1), the rest is the datagram.  Whatever decodes must re-encode to exactly the bytes it
 * was decoded from (the codecs reject reserved bits and bad values, so a
 * decoded header has one encoding), and that encoding must decode to the
 * same header again.  Any difference, or a sanitizer report, is a
 * finding (abort).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "uet_cms_wire.h"
#include "uet_pds_wire.h"
#include "uet_ses_wire.h"
#include "uet_tss_wire.h"

/* PRE: nothing, or "wp," for the codecs that take a wire profile. */
#define ROUND_TRIP_P(name, buf, len, PRE)				\
	do {								\
		struct uet_##name a, b;					\
		uint8_t enc[256], enc2[256];				\
		uint8_t *again;						\
		ssize_t n, m, k;					\
									\
		memset(&a, 0, sizeof(a));				\
		n = uet_##name##_decode(PRE &a, buf, len);		\
		if (n < 0)						\
			break;						\
		if ((size_t)n > len || (size_t)n > sizeof(enc))		\
			abort();					\
		m = uet_##name##_encode(PRE enc, sizeof(enc), &a);	\
		if (m != n || memcmp(enc, buf, (size_t)n))		\
			abort();					\
		/* The re-encoded header with the original payload. */	\
		again = malloc(len);					\
		if (!again)						\
			break;						\
		memcpy(again, enc, (size_t)m);				\
		memcpy(again + m, buf + m, len - (size_t)m);		\
		memset(&b, 0, sizeof(b));				\
		k = uet_##name##_decode(PRE &b, again, len);		\
		free(again);						\
		if (k != n)						\
			abort();					\
		/* Same header (compared encoded: structs have padding). */ \
		if (uet_##name##_encode(PRE enc2, sizeof(enc2), &b) != m || \
		    memcmp(enc, enc2, (size_t)m))			\
			abort();					\
	} while (0)

#define NOPRE
#define WP		wp,
/* The codecs without a profile (CMS, prologue, entropy, TSS). */
#define ROUND_TRIP(name, buf, len)	ROUND_TRIP_P(name, buf, len, NOPRE)
/* The PDS and SES codecs, in profile wp. */
#define ROUND_TRIP_W(name, buf, len)	ROUND_TRIP_P(name, buf, len, WP)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum uet_wire_prof wp;
	const uint8_t *buf;
	uint8_t *copy;
	size_t len;

	if (size < 1)
		return 0;
	wp = data[0] & 0x80 ? UET_WIRE_UE : UET_WIRE_UEPLUS;
	/* A heap copy of exactly the datagram: ASan sees any overread. */
	len = size - 1;
	copy = malloc(len ? len : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, len);
	buf = copy;
	switch ((data[0] & 0x7f) % 28) {
	case 0: ROUND_TRIP(cms_cc_state_compact, buf, len); break;
	case 1: ROUND_TRIP(cms_cc_state_wide, buf, len); break;
	case 2: ROUND_TRIP(pds_prologue, buf, len); break;
	case 3: ROUND_TRIP_W(pds_rud_rod_req, buf, len); break;
	case 4: ROUND_TRIP_W(pds_rud_rod_cc_req, buf, len); break;
	case 5: ROUND_TRIP_W(pds_rudi, buf, len); break;
	case 6: ROUND_TRIP_W(pds_uud_req, buf, len); break;
	case 7: ROUND_TRIP_W(pds_ack, buf, len); break;
	case 8: ROUND_TRIP_W(pds_ack_cc, buf, len); break;
	case 9: ROUND_TRIP_W(pds_ack_ccx, buf, len); break;
	case 10: ROUND_TRIP_W(pds_nack, buf, len); break;
	case 11: ROUND_TRIP_W(pds_nack_ccx, buf, len); break;
	case 12: ROUND_TRIP_W(pds_cp, buf, len); break;
	case 13: ROUND_TRIP(pds_entropy, buf, len); break;
	case 14: ROUND_TRIP_W(pds_default_ses_rsp, buf, len); break;
	case 15: ROUND_TRIP_W(ses_std_som1, buf, len); break;
	case 16: ROUND_TRIP_W(ses_std_som0, buf, len); break;
	case 17: ROUND_TRIP_W(ses_small_msg, buf, len); break;
	case 18: ROUND_TRIP_W(ses_opt_nonmatch, buf, len); break;
	case 19: ROUND_TRIP_W(ses_rsp, buf, len); break;
	case 20: ROUND_TRIP_W(ses_rsp_data, buf, len); break;
	case 21: ROUND_TRIP_W(ses_opt_rsp_data, buf, len); break;
	case 22: ROUND_TRIP_W(ses_atomic_ext, buf, len); break;
	case 23: ROUND_TRIP_W(ses_cas_ext, buf, len); break;
	case 24: ROUND_TRIP_W(ses_rdzv_ext, buf, len); break;
	case 25: ROUND_TRIP_W(ses_defer_send, buf, len); break;
	case 26: ROUND_TRIP_W(ses_rtr, buf, len); break;
	case 27: ROUND_TRIP(tss_hdr, buf, len);
		if (len)
			(void)uet_ses_request_format(wp, buf[0] & 7, buf + 1,
						     len - 1);
		(void)uet_wire_datagram_parses(wp, buf, len);
		break;
	}
	free(copy);
	return 0;
}
