/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SES (Semantic Sublayer) header codecs.
 *
 * Layouts: ../shared/spec/ses-formats.md, as resolved to UE 1.0.1 where
 * that document contradicts itself; docs/conformance.md (4.2) lists every
 * field as implemented and every contradiction.  All multi-byte fields
 * are big-endian.
 *
 * Conventions (see uet_wire.h): every encoder returns the encoded length,
 * UET_WIRE_ENOBUFS, UET_WIRE_ETYPE (the request/response opcode fits its
 * 6 bits but belongs to another format, e.g. UET_DEFERRABLE_RTR given to
 * the SOM=1 encoder; the same values the decoder rejects with ETYPE) or
 * UET_WIRE_ERANGE (a host value does not fit its width or is forbidden
 * in this format); nothing is written on failure.  Every decoder checks
 * the length first and returns the decoded length, UET_WIRE_ETRUNC,
 * UET_WIRE_ERESERVED, UET_WIRE_ETYPE or UET_WIRE_ERANGE; on failure the
 * output struct is left untouched.
 *
 * The SES "version" field is carried in the structs so that a decoded
 * header shows every wire field; only UET_SES_VERSION is accepted.
 */
#ifndef UET_SES_WIRE_H
#define UET_SES_WIRE_H

#include "uet_wire.h"

/* Bytes 0-1 of every request format (request opcode, version, flags). */
struct uet_ses_req_ctl {
	uint8_t opcode;		/* enum uet_ses_opcode, 6 bits */
	uint8_t version;	/* 2 bits, must be UET_SES_VERSION */
	bool dc;		/* delivery complete */
	bool ie;		/* initiator error */
	bool rel;		/* relative addressing */
	bool hd;		/* header_data present */
	bool eom;		/* end of message */
	bool som;		/* start of message */
};

/* Bytes 0-1 of every response format. */
struct uet_ses_rsp_ctl {
	uint8_t list;		/* enum uet_ses_list, 2 bits, 0 or 1 */
	uint8_t opcode;		/* enum uet_ses_rsp_opcode, 6 bits */
	uint8_t version;	/* 2 bits, must be UET_SES_VERSION */
	uint8_t return_code;	/* enum uet_ses_rc, 6 bits */
};

/* Standard request, SOM=1 (UET_SES_STD_SOM1_LEN = 44 bytes). */
struct uet_ses_std_som1 {
	struct uet_ses_req_ctl ctl;	/* som = 1 */
	uint16_t message_id;		/* != 0 */
	uint8_t ri_generation;
	uint32_t job_id;		/* 24 bits */
	uint16_t pid_on_fep;		/* 12 bits */
	uint16_t resource_index;	/* 12 bits */
	uint64_t buffer_offset;
	uint32_t initiator;
	/* match_bits for tagged sends, memory_key for RMA and atomics */
	uint64_t match_bits;
	uint64_t header_data;
	uint32_t request_length;
};

/*
 * Standard request, SOM=0 continuation (UET_SES_STD_SOM0_LEN = 44 bytes,
 * UE 1.0.1; docs/conformance.md C-16).  Bytes 0-31 and 40-43
 * are those of SOM=1, so that every packet of a message can be matched
 * and placed on its own; header_data (32-39) is replaced by the
 * packet's payload_length and message_offset.
 */
struct uet_ses_std_som0 {
	struct uet_ses_req_ctl ctl;	/* som = 0; hd reserved (false) */
	uint16_t message_id;		/* != 0 */
	uint8_t ri_generation;
	uint32_t job_id;		/* 24 bits */
	uint16_t pid_on_fep;		/* 12 bits */
	uint16_t resource_index;	/* 12 bits */
	/* RMA: target offset of this packet's payload */
	uint64_t buffer_offset;
	uint32_t initiator;
	/* match_bits for tagged sends, memory_key for RMA and atomics */
	uint64_t match_bits;
	uint16_t payload_length;	/* 14 bits: bytes in this packet */
	uint32_t message_offset;	/* of this payload in the message */
	uint32_t request_length;	/* whole message, as in SOM=1 */
};

/* Small message / small RMA (UET_SES_SMALL_MSG_LEN = 32 bytes). */
struct uet_ses_small_msg {
	struct uet_ses_req_ctl ctl;	/* som = eom = 1 */
	uint16_t request_length;	/* 14 bits */
	uint8_t ri_generation;
	uint32_t job_id;		/* 24 bits */
	uint16_t pid_on_fep;		/* 12 bits */
	uint16_t resource_index;	/* 12 bits */
	uint32_t initiator;
	uint64_t match_bits;
	uint64_t header_data;
};

/* Optimized non-matching (UET_SES_OPT_NONMATCH_LEN = 32 bytes). */
struct uet_ses_opt_nonmatch {
	struct uet_ses_req_ctl ctl;	/* som = eom = 1, hd = 0 (reserved) */
	uint16_t request_length;	/* 14 bits */
	uint8_t ri_generation;
	uint32_t job_id;		/* 24 bits */
	uint16_t pid_on_fep;		/* 12 bits */
	uint16_t resource_index;	/* 12 bits */
	uint64_t buffer_offset;
};

/* Response (UET_SES_RSP_LEN = 16 bytes), opcode UET_RESPONSE. */
struct uet_ses_rsp {
	struct uet_ses_rsp_ctl ctl;
	uint16_t message_id;		/* != 0 */
	uint8_t ri_generation;
	uint32_t job_id;		/* 24 bits */
	uint32_t modified_length;
};

/* Response with data (UET_SES_RSP_DATA_LEN = 24), UET_RESPONSE_W_DATA. */
struct uet_ses_rsp_data {
	struct uet_ses_rsp_ctl ctl;
	uint16_t response_message_id;
	uint32_t job_id;		/* 24 bits */
	uint16_t read_request_message_id;	/* != 0 */
	uint16_t payload_length;	/* 14 bits */
	uint32_t modified_length;
	uint32_t message_offset;
};

/* Optimized response with data (UET_SES_OPT_RSP_DATA_LEN = 16). */
struct uet_ses_opt_rsp_data {
	struct uet_ses_rsp_ctl ctl;	/* opcode UET_RESPONSE_W_DATA */
	uint16_t payload_length;	/* 14 bits */
	uint32_t job_id;		/* 24 bits */
	uint32_t original_request_psn;
};

/* Atomic extension (UE+ UET_SES_ATOMIC_EXT_LEN = 8 bytes, UE 1.0.1 4,
 * where semantic_control is one byte). */
struct uet_ses_atomic_ext {
	uint8_t atomic_opcode;	/* enum uet_amo_op, any of Table 3-21 */
	uint8_t atomic_datatype;	/* enum uet_amo_dtype, defined size */
	uint16_t semantic_control;	/* UET_AMO_SEMCTL_* */
};

/* Compare-and-swap extension (UE+ UET_SES_CAS_EXT_LEN = 40 bytes, UE
 * 1.0.1 36: the values at 4-19 and 20-35). */
struct uet_ses_cas_ext {
	uint8_t atomic_opcode;	/* UET_AMO_CSWAP..UET_AMO_CSWAP_GT; UE+: MSWAP */
	uint8_t atomic_datatype;	/* enum uet_amo_dtype, defined size */
	uint16_t semantic_control;	/* UET_AMO_SEMCTL_* */
	uint8_t compare_mask_value[16];	/* raw wire bytes 8-23 */
	uint8_t swap_value[16];		/* raw wire bytes 24-39 */
};

/* Whether atomic opcode op travels in the CAS extension in profile wp
 * (UE+: the compare-and-swaps and MSWAP; UE 1.0.1: the compare-and-swaps,
 * MSWAP in the 4-byte extension). */
bool uet_ses_amo_uses_cas(enum uet_wire_prof wp, uint8_t op);

/*
 * Rendezvous extension (UE+ UET_SES_RDZV_EXT_LEN = 32 bytes, UE 1.0.1
 * 24).  UE 1.0.1 names memory_key "read match bits" and buffer_offset
 * "read offset", and says where to read (read_*); UE+ carries
 * remaining_length instead.  A member the profile does not carry is
 * written as nothing and decodes as 0.
 */
struct uet_ses_rdzv_ext {
	uint32_t eager_length;
	uint64_t memory_key;
	uint64_t buffer_offset;
	uint32_t remaining_length;	/* UE+ only */
	uint8_t read_ri_generation;	/* UE 1.0.1 only */
	uint16_t read_pid_on_fep;	/* UE 1.0.1 only, 12 bits */
	uint16_t read_resource_index;	/* UE 1.0.1 only, 12 bits */
};

/*
 * Deferrable send (UET_SES_DEFER_SEND_LEN = 44 bytes): opcode
 * UET_DEFERRABLE_SEND or UET_DEFERRABLE_TSEND, som = 1.
 */
struct uet_ses_defer_send {
	struct uet_ses_req_ctl ctl;
	uint16_t message_id;		/* != 0 */
	uint8_t ri_generation;
	uint32_t job_id;		/* 24 bits */
	uint16_t pid_on_fep;		/* 12 bits */
	uint16_t resource_index;	/* 12 bits */
	uint32_t initiator_restart_token;
	uint32_t target_restart_token;	/* 0 in the initial request */
	uint32_t initiator;
	uint64_t match_bits;
	uint64_t header_data;
	uint32_t request_length;
};

/*
 * Ready to restart (UET_SES_RTR_LEN = 44 bytes): opcode
 * UET_DEFERRABLE_RTR, som = 1.
 */
struct uet_ses_rtr {
	struct uet_ses_req_ctl ctl;
	uint16_t message_id;		/* != 0 */
	uint8_t ri_generation;
	uint32_t job_id;		/* 24 bits */
	uint16_t pid_on_fep;		/* 12 bits */
	uint16_t resource_index;	/* 12 bits */
	uint64_t buffer_offset;		/* <= 2^32 - 2 */
	uint32_t initiator_restart_token;
	uint32_t target_restart_token;
	uint32_t initiator;		/* UE 1.0.1 only (bytes 20-23) */
	uint64_t header_data;
	uint32_t request_length;
};

ssize_t uet_ses_std_som1_encode(enum uet_wire_prof wp, uint8_t *buf, size_t len,
				const struct uet_ses_std_som1 *h);
ssize_t uet_ses_std_som1_decode(enum uet_wire_prof wp,
				struct uet_ses_std_som1 *h, const uint8_t *buf,
				size_t len);
ssize_t uet_ses_std_som0_encode(enum uet_wire_prof wp, uint8_t *buf, size_t len,
				const struct uet_ses_std_som0 *h);
ssize_t uet_ses_std_som0_decode(enum uet_wire_prof wp,
				struct uet_ses_std_som0 *h, const uint8_t *buf,
				size_t len);
ssize_t uet_ses_small_msg_encode(enum uet_wire_prof wp, uint8_t *buf,
				 size_t len, const struct uet_ses_small_msg *h);
ssize_t uet_ses_small_msg_decode(enum uet_wire_prof wp,
				 struct uet_ses_small_msg *h,
				 const uint8_t *buf, size_t len);
ssize_t uet_ses_opt_nonmatch_encode(enum uet_wire_prof wp, uint8_t *buf,
				    size_t len,
				    const struct uet_ses_opt_nonmatch *h);
ssize_t uet_ses_opt_nonmatch_decode(enum uet_wire_prof wp,
				    struct uet_ses_opt_nonmatch *h,
				    const uint8_t *buf, size_t len);
ssize_t uet_ses_rsp_encode(enum uet_wire_prof wp, uint8_t *buf, size_t len,
			   const struct uet_ses_rsp *h);
ssize_t uet_ses_rsp_decode(enum uet_wire_prof wp, struct uet_ses_rsp *h,
			   const uint8_t *buf, size_t len);
ssize_t uet_ses_rsp_data_encode(enum uet_wire_prof wp, uint8_t *buf, size_t len,
				const struct uet_ses_rsp_data *h);
ssize_t uet_ses_rsp_data_decode(enum uet_wire_prof wp,
				struct uet_ses_rsp_data *h, const uint8_t *buf,
				size_t len);
ssize_t uet_ses_opt_rsp_data_encode(enum uet_wire_prof wp, uint8_t *buf,
				    size_t len,
				    const struct uet_ses_opt_rsp_data *h);
ssize_t uet_ses_opt_rsp_data_decode(enum uet_wire_prof wp,
				    struct uet_ses_opt_rsp_data *h,
				    const uint8_t *buf, size_t len);
ssize_t uet_ses_atomic_ext_encode(enum uet_wire_prof wp, uint8_t *buf,
				  size_t len,
				  const struct uet_ses_atomic_ext *h);
/* Opcode and datatype (bytes 0 and 1) of an atomic or CAS extension,
 * whatever their values (a target refuses unknown ones with their own
 * return codes); the datatype as an enum uet_amo_dtype, or
 * UET_AMO_DTYPE_UNKNOWN when profile wp defines no such code: 0, or
 * UET_WIRE_ETRUNC when len < 2. */
int uet_ses_amo_ext_peek(enum uet_wire_prof wp, const uint8_t *buf,
			 size_t len, uint8_t *op, uint8_t *dtype);
/* The compare and swap values of a CAS extension, copied as they are
 * whatever its other fields hold: the extension's length, or
 * UET_WIRE_ETRUNC. */
ssize_t uet_ses_cas_ext_values(enum uet_wire_prof wp,
			       struct uet_ses_cas_ext *h, const uint8_t *buf,
			       size_t len);
ssize_t uet_ses_atomic_ext_decode(enum uet_wire_prof wp,
				  struct uet_ses_atomic_ext *h,
				  const uint8_t *buf, size_t len);
ssize_t uet_ses_cas_ext_encode(enum uet_wire_prof wp, uint8_t *buf, size_t len,
			       const struct uet_ses_cas_ext *h);
ssize_t uet_ses_cas_ext_decode(enum uet_wire_prof wp, struct uet_ses_cas_ext *h,
			       const uint8_t *buf, size_t len);
ssize_t uet_ses_rdzv_ext_encode(enum uet_wire_prof wp, uint8_t *buf, size_t len,
				const struct uet_ses_rdzv_ext *h);
ssize_t uet_ses_rdzv_ext_decode(enum uet_wire_prof wp,
				struct uet_ses_rdzv_ext *h, const uint8_t *buf,
				size_t len);
ssize_t uet_ses_defer_send_encode(enum uet_wire_prof wp, uint8_t *buf,
				  size_t len,
				  const struct uet_ses_defer_send *h);
ssize_t uet_ses_defer_send_decode(enum uet_wire_prof wp,
				  struct uet_ses_defer_send *h,
				  const uint8_t *buf, size_t len);
ssize_t uet_ses_rtr_encode(enum uet_wire_prof wp, uint8_t *buf, size_t len,
			   const struct uet_ses_rtr *h);
ssize_t uet_ses_rtr_decode(enum uet_wire_prof wp, struct uet_ses_rtr *h,
			   const uint8_t *buf, size_t len);

/*
 * Which SES header a packet carries, from the PDS next_hdr and the
 * opcode / som bits in SES bytes 0-1.  The extensions (atomic, CAS,
 * rendezvous) follow a request header and are not classified here.
 * Values start at 1 so that a zeroed variable names no format.
 */
enum uet_ses_fmt {
	UET_SES_FMT_STD_SOM1		= 1,	/* struct uet_ses_std_som1 */
	UET_SES_FMT_STD_SOM0		= 2,	/* struct uet_ses_std_som0 */
	UET_SES_FMT_SMALL_MSG		= 3,	/* struct uet_ses_small_msg */
	UET_SES_FMT_OPT_NONMATCH	= 4,	/* uet_ses_opt_nonmatch */
	UET_SES_FMT_DEFER_SEND		= 5,	/* struct uet_ses_defer_send */
	UET_SES_FMT_RTR			= 6,	/* struct uet_ses_rtr */
	UET_SES_FMT_RSP			= 7,	/* struct uet_ses_rsp */
	UET_SES_FMT_RSP_DATA		= 8,	/* struct uet_ses_rsp_data */
	UET_SES_FMT_OPT_RSP_DATA	= 9,	/* uet_ses_opt_rsp_data */
	/* PDS Default SES Response (8 bytes), decoded by the PDS codec */
	UET_SES_FMT_DEFAULT_RSP		= 10,
	UET_SES_FMT_MAX			= 10,
};

/*
 * Classify the SES header at buf.  Reads only bytes 0-1.  Returns an
 * enum uet_ses_fmt value, UET_WIRE_ETRUNC when len < 2, or
 * UET_WIRE_ETYPE when no format fits (unknown next_hdr, request opcode
 * above UET_SES_OPCODE_MAX, response opcode that does not belong to
 * next_hdr).  Field validation is left to the format's decoder.
 */
int uet_ses_request_format(enum uet_wire_prof wp, unsigned int next_hdr,
			   const uint8_t *buf, size_t len);

/* Header length in bytes of an enum uet_ses_fmt value, 0 if unknown. */
size_t uet_ses_format_len(enum uet_wire_prof wp, unsigned int fmt);

/* The extensions that follow a request header. */
enum uet_ses_ext {
	UET_SES_EXT_ATOMIC	= 1,	/* struct uet_ses_atomic_ext */
	UET_SES_EXT_CAS		= 2,	/* struct uet_ses_cas_ext */
	UET_SES_EXT_RDZV	= 3,	/* struct uet_ses_rdzv_ext */
	UET_SES_EXT_MAX		= 3,
};

/* Length in bytes of an enum uet_ses_ext in profile wp, 0 if unknown. */
size_t uet_ses_ext_len(enum uet_wire_prof wp, unsigned int ext);

/* Name of an enum uet_ses_fmt value, "UNKNOWN" if unknown. */
const char *uet_ses_format_str(unsigned int fmt);

#endif /* UET_SES_WIRE_H */
