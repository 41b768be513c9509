/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SES wire codec tests.
 *
 * Every format is driven through one table (struct fmt): a known byte
 * vector worked out by hand, the host struct it stands for, the mask of
 * its reserved bits, a generator of random valid headers and a field-by-
 * field comparison.  Generic loop tests run the known vector both ways,
 * the random round trip, every truncated prefix, every reserved bit and
 * every short output buffer over all formats; per-format tests check the
 * invalid values; the last tests cover the format dispatcher.
 *
 * Layout source for every vector: ../shared/spec/ses-formats.md (section
 * and table named at each vector), as resolved in docs/conformance.md (4.2).
 */
#include <stdlib.h>
#include <string.h>

#include "uet_pds_wire.h"
#include "uet_ses_wire.h"
#include "uet_test.h"

#define ROUNDTRIP_ITERS	2000
#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_LEN		44	/* largest SES format */
#define POISON		0xa5

union any_hdr {
	struct uet_ses_std_som1 som1;
	struct uet_ses_std_som0 som0;
	struct uet_ses_small_msg small;
	struct uet_ses_opt_nonmatch onm;
	struct uet_ses_rsp rsp;
	struct uet_ses_rsp_data rspd;
	struct uet_ses_opt_rsp_data orspd;
	struct uet_ses_atomic_ext amo;
	struct uet_ses_cas_ext cas;
	struct uet_ses_rdzv_ext rdzv;
	struct uet_ses_defer_send defer;
	struct uet_ses_rtr rtr;
};

struct fmt {
	const char *name;
	size_t len;
	unsigned int next_hdr;	/* PDS next_hdr, 0 for extensions */
	int ses_fmt;		/* enum uet_ses_fmt, 0 for extensions */
	ssize_t (*enc)(uint8_t *buf, size_t len, const union any_hdr *h);
	ssize_t (*dec)(union any_hdr *h, const uint8_t *buf, size_t len);
	void (*rand)(union any_hdr *h);
	void (*eq)(const char *what, const union any_hdr *a,
		   const union any_hdr *b);
	const union any_hdr *ref;	/* fields of the known vector */
	const uint8_t *vec;		/* bytes of the known vector */
	const uint8_t *rsvd;		/* reserved-bit mask, len bytes */
};

#define EQ(f)								\
	ck_assert_msg(a->f == b->f, "%s: %s: 0x%llx != 0x%llx", what,	\
		      #f, (unsigned long long)a->f,			\
		      (unsigned long long)b->f)

/* ------------------------------------------------------------------ */
/* Random valid field values                                           */
/* ------------------------------------------------------------------ */

static bool rand_bool(void)
{
	return uet_test_rand_bits(1);
}

static uint16_t rand_nonzero16(void)
{
	uint16_t v;

	do
		v = (uint16_t)uet_test_rand_bits(16);
	while (!v);
	return v;
}

/* A request opcode valid for a format other than the deferrable ones. */
static uint8_t rand_plain_opcode(void)
{
	uint8_t op;

	do
		op = (uint8_t)uet_test_rand_bits(4);
	while (op == UET_DEFERRABLE_SEND || op == UET_DEFERRABLE_TSEND ||
	       op == UET_DEFERRABLE_RTR);
	return op;
}

static void rand_req_ctl(struct uet_ses_req_ctl *c, uint8_t opcode)
{
	*c = (struct uet_ses_req_ctl){
		.opcode = opcode, .version = UET_SES_VERSION,
		.dc = rand_bool(), .ie = rand_bool(), .rel = rand_bool(),
		.hd = rand_bool(), .eom = rand_bool(), .som = rand_bool(),
	};
}

static void rand_rsp_ctl(struct uet_ses_rsp_ctl *c, uint8_t opcode)
{
	uint8_t rc;

	do
		rc = (uint8_t)uet_test_rand_bits(6);
	while (rc > UET_RC_MAX);
	*c = (struct uet_ses_rsp_ctl){
		.list = (uint8_t)uet_test_rand_bits(1), .opcode = opcode,
		.version = UET_SES_VERSION, .return_code = rc,
	};
}

static uint8_t rand_amo_dtype(void)
{
	uint8_t dt;

	do
		dt = (uint8_t)uet_test_rand_bits(4);
	while (!uet_amo_dtype_size(dt));
	return dt;
}

static void eq_req_ctl(const char *what, const struct uet_ses_req_ctl *a,
		       const struct uet_ses_req_ctl *b)
{
	EQ(opcode);
	EQ(version);
	EQ(dc);
	EQ(ie);
	EQ(rel);
	EQ(hd);
	EQ(eom);
	EQ(som);
}

static void eq_rsp_ctl(const char *what, const struct uet_ses_rsp_ctl *a,
		       const struct uet_ses_rsp_ctl *b)
{
	EQ(list);
	EQ(opcode);
	EQ(version);
	EQ(return_code);
}

/* ------------------------------------------------------------------ */
/* 1. Standard request SOM=1 (ses-formats.md 3.1, Table 3-8)           */
/* ------------------------------------------------------------------ */

/*
 * Vector A (the UET_WRITE of the walk-through): rel=1 hd=1 som=1.
 *   byte 0 = rsvd 0 | opcode 0x01                         = 0x01
 *   byte 1 = version 0<<6 | rel 0x08 | hd 0x04 | som 0x01  = 0x0d
 *   2-3 message_id 1, 4 ri_generation 1, 5-7 job_id 101 = 0x000065
 *   8-9 rsvd 0 | pid_on_fep 0x002, 10-11 rsvd 0 | resource_index 0x00a
 *   12-19 buffer_offset 0, 20-23 initiator 0,
 *   24-31 memory_key 0xacce5, 32-39 header_data 11,
 *   40-43 request_length 16384 = 0x00004000
 */
static const uint8_t som1_vec[UET_SES_STD_SOM1_LEN] = {
	0x01, 0x0d, 0x00, 0x01, 0x01, 0x00, 0x00, 0x65,
	0x00, 0x02, 0x00, 0x0a,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x0a, 0xcc, 0xe5,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0b,
	0x00, 0x00, 0x40, 0x00,
};

static const union any_hdr som1_ref = { .som1 = {
	.ctl = { .opcode = UET_WRITE, .rel = true, .hd = true, .som = true },
	.message_id = 1, .ri_generation = 1, .job_id = 101,
	.pid_on_fep = 2, .resource_index = 0x00a,
	.buffer_offset = 0, .initiator = 0, .match_bits = 0xacce5,
	.header_data = 11, .request_length = 16384,
} };

/*
 * Vector B: every field distinct and non-zero.  UET_TAGGED_SEND (0x09),
 * dc=1 hd=1 eom=1 som=1:
 *   byte 1 = 0<<6 | dc 0x20 | hd 0x04 | eom 0x02 | som 0x01 = 0x27
 *   message_id 0xbeef, ri_generation 0x7f, job_id 0xabcdef,
 *   pid_on_fep 0xfff -> 0f ff, resource_index 0x123 -> 01 23,
 *   buffer_offset 0x0102030405060708, initiator 0xdeadbeef,
 *   match_bits 0x1122334455667788, header_data 0x99aabbccddeeff00,
 *   request_length 0xffffffff
 */
static const uint8_t som1_vec_b[UET_SES_STD_SOM1_LEN] = {
	0x09, 0x27, 0xbe, 0xef, 0x7f, 0xab, 0xcd, 0xef,
	0x0f, 0xff, 0x01, 0x23,
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0xde, 0xad, 0xbe, 0xef,
	0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
	0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00,
	0xff, 0xff, 0xff, 0xff,
};

static const union any_hdr som1_ref_b = { .som1 = {
	.ctl = { .opcode = UET_TAGGED_SEND, .dc = true, .hd = true,
		 .eom = true, .som = true },
	.message_id = 0xbeef, .ri_generation = 0x7f, .job_id = 0xabcdef,
	.pid_on_fep = 0xfff, .resource_index = 0x123,
	.buffer_offset = 0x0102030405060708ull, .initiator = 0xdeadbeef,
	.match_bits = 0x1122334455667788ull,
	.header_data = 0x99aabbccddeeff00ull, .request_length = 0xffffffff,
} };

/* rsvd 0[7:6], 8[7:4], 10[7:4] */
static const uint8_t som1_rsvd[UET_SES_STD_SOM1_LEN] = {
	[0] = 0xc0, [8] = 0xf0, [10] = 0xf0,
};

static void som1_rand(union any_hdr *u)
{
	struct uet_ses_std_som1 *h = &u->som1;

	rand_req_ctl(&h->ctl, rand_plain_opcode());
	h->ctl.som = true;
	h->message_id = rand_nonzero16();
	h->ri_generation = (uint8_t)uet_test_rand_bits(8);
	h->job_id = (uint32_t)uet_test_rand_bits(24);
	h->pid_on_fep = (uint16_t)uet_test_rand_bits(12);
	h->resource_index = (uint16_t)uet_test_rand_bits(12);
	h->buffer_offset = uet_test_rand64();
	h->initiator = (uint32_t)uet_test_rand_bits(32);
	h->match_bits = uet_test_rand64();
	h->header_data = uet_test_rand64();
	h->request_length = (uint32_t)uet_test_rand_bits(32);
}

static void som1_eq(const char *what, const union any_hdr *ua,
		    const union any_hdr *ub)
{
	const struct uet_ses_std_som1 *a = &ua->som1, *b = &ub->som1;

	eq_req_ctl(what, &a->ctl, &b->ctl);
	EQ(message_id);
	EQ(ri_generation);
	EQ(job_id);
	EQ(pid_on_fep);
	EQ(resource_index);
	EQ(buffer_offset);
	EQ(initiator);
	EQ(match_bits);
	EQ(header_data);
	EQ(request_length);
}

/* ------------------------------------------------------------------ */
/* 2. Standard request SOM=0 (44 B continuation, UE 1.0.1)             */
/* ------------------------------------------------------------------ */

/*
 * Layout: docs/conformance.md C-16 (UE 1.0.1 continuation
 * header; ses-formats.md 3.2 / Table 3-9 is superseded there): bytes
 * 0-31 and 40-43 as SOM=1 (Table 3-8), and in place of header_data
 * 32-33 reserved, 34-35 rsvd[15:14] + payload_length[13:0], 36-39
 * message_offset.
 *
 * Vector A: the second and last packet of a 27324-byte UET_WRITE to
 * target offset 0x100000; this packet carries message bytes 16384..27323.
 *   byte 0 = rsvd 0 | opcode UET_WRITE 0x01                  = 0x01
 *   byte 1 = version 0<<6 | dc 0x20 | rel 0x08 | eom 0x02
 *            (hd 0, som 0)                                  = 0x2a
 *   2-3 message_id 0x1234, 4 ri_generation 0x56, 5-7 job_id 0x789abc
 *   8-9   = rsvd 0<<12 | pid_on_fep 0x0a5      = 0x00a5 -> 00 a5
 *   10-11 = rsvd 0<<12 | resource_index 0x123  = 0x0123 -> 01 23
 *   12-19 buffer_offset = 0x100000 + message_offset 0x4000
 *         = 0x0000000000104000
 *   20-23 initiator 0xdeadbeef, 24-31 memory_key 0x00000000000acce5
 *   32-33 reserved 0
 *   34-35 = rsvd 0<<14 | payload_length 10940 (= 0x2abc) = 0x2abc
 *   36-39 message_offset 16384 = 0x00004000
 *   40-43 request_length 0x4000 + 0x2abc = 0x6abc = 27324 -> 00 00 6a bc
 */
static const uint8_t som0_vec[UET_SES_STD_SOM0_LEN] = {
	0x01, 0x2a, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc,
	0x00, 0xa5, 0x01, 0x23,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x40, 0x00,
	0xde, 0xad, 0xbe, 0xef,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x0a, 0xcc, 0xe5,
	0x00, 0x00,
	0x2a, 0xbc,
	0x00, 0x00, 0x40, 0x00,
	0x00, 0x00, 0x6a, 0xbc,
};

static const union any_hdr som0_ref = { .som0 = {
	.ctl = { .opcode = UET_WRITE, .dc = true, .rel = true, .eom = true },
	.message_id = 0x1234, .ri_generation = 0x56, .job_id = 0x789abc,
	.pid_on_fep = 0x0a5, .resource_index = 0x123,
	.buffer_offset = 0x104000, .initiator = 0xdeadbeef,
	.match_bits = 0xacce5, .payload_length = 0x2abc,
	.message_offset = 0x4000, .request_length = 0x6abc,
} };

/*
 * Vector B: every field distinct and non-zero, widths at their maxima.
 * UET_TAGGED_SEND (0x09), ie=1, eom=0 som=0:
 *   byte 1 = 0<<6 | ie 0x10 = 0x10
 *   message_id 0xbeef, ri_generation 0x7f, job_id 0xabcdef,
 *   pid_on_fep 0xfff -> 0f ff, resource_index 0x800 -> 08 00,
 *   buffer_offset 0x0102030405060708, initiator 0x11223344,
 *   match_bits 0x8877665544332211, 32-33 reserved 0,
 *   34-35 = rsvd 0<<14 | payload_length 16383 (0x3fff) = 0x3fff,
 *   message_offset 0xfffc0001, request_length 0xffffffff
 */
static const uint8_t som0_vec_b[UET_SES_STD_SOM0_LEN] = {
	0x09, 0x10, 0xbe, 0xef, 0x7f, 0xab, 0xcd, 0xef,
	0x0f, 0xff, 0x08, 0x00,
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0x11, 0x22, 0x33, 0x44,
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
	0x00, 0x00,
	0x3f, 0xff,
	0xff, 0xfc, 0x00, 0x01,
	0xff, 0xff, 0xff, 0xff,
};

static const union any_hdr som0_ref_b = { .som0 = {
	.ctl = { .opcode = UET_TAGGED_SEND, .ie = true },
	.message_id = 0xbeef, .ri_generation = 0x7f, .job_id = 0xabcdef,
	.pid_on_fep = 0xfff, .resource_index = 0x800,
	.buffer_offset = 0x0102030405060708ull, .initiator = 0x11223344,
	.match_bits = 0x8877665544332211ull, .payload_length = 0x3fff,
	.message_offset = 0xfffc0001, .request_length = 0xffffffff,
} };

/* rsvd 0[7:6], hd 1[2], 8[7:4], 10[7:4], 32-33, 34[7:6] */
static const uint8_t som0_rsvd[UET_SES_STD_SOM0_LEN] = {
	[0] = 0xc0, [1] = 0x04, [8] = 0xf0, [10] = 0xf0,
	[32] = 0xff, [33] = 0xff, [34] = 0xc0,
};

static void som0_rand(union any_hdr *u)
{
	struct uet_ses_std_som0 *h = &u->som0;

	rand_req_ctl(&h->ctl, rand_plain_opcode());
	h->ctl.som = false;
	h->ctl.hd = false;
	h->message_id = rand_nonzero16();
	h->ri_generation = (uint8_t)uet_test_rand_bits(8);
	h->job_id = (uint32_t)uet_test_rand_bits(24);
	h->pid_on_fep = (uint16_t)uet_test_rand_bits(12);
	h->resource_index = (uint16_t)uet_test_rand_bits(12);
	h->buffer_offset = uet_test_rand64();
	h->initiator = (uint32_t)uet_test_rand_bits(32);
	h->match_bits = uet_test_rand64();
	h->payload_length = (uint16_t)uet_test_rand_bits(14);
	h->message_offset = (uint32_t)uet_test_rand_bits(32);
	h->request_length = (uint32_t)uet_test_rand_bits(32);
}

static void som0_eq(const char *what, const union any_hdr *ua,
		    const union any_hdr *ub)
{
	const struct uet_ses_std_som0 *a = &ua->som0, *b = &ub->som0;

	eq_req_ctl(what, &a->ctl, &b->ctl);
	EQ(message_id);
	EQ(ri_generation);
	EQ(job_id);
	EQ(pid_on_fep);
	EQ(resource_index);
	EQ(buffer_offset);
	EQ(initiator);
	EQ(match_bits);
	EQ(payload_length);
	EQ(message_offset);
	EQ(request_length);
}

/* ------------------------------------------------------------------ */
/* 3. Small message / small RMA (ses-formats.md 3.5, 3.13, Fig. 3-14)  */
/* ------------------------------------------------------------------ */

/*
 * Bytes 0-1 as ses-formats.md 3.5's field table (and
 * tagged-send-and-encapsulation.md 4.7) lay them out: opcode 0[7:2],
 * version 0[1:0], dc 1[7], ie 1[6], rel 1[5], hd 1[4], eom 1[3], som 1[2],
 * reserved 1[1:0].
 * UET_TAGGED_SEND (0x09), ie=1 hd=1 eom=1 som=1:
 *   byte 0 = opcode 0x09<<2 | version 0 = 0x24
 *   byte 1 = ie 0x40 | hd 0x10 | eom 0x08 | som 0x04 = 0x5c
 *   2-3 = rsvd 0<<14 | request_length 0x2abc = 0x2abc
 *   ri_generation 0x03, job_id 0x000065,
 *   pid_on_fep 0x0a5 -> 00 a5, resource_index 0xfff -> 0f ff,
 *   initiator 0x01020304, match_bits 0xfedcba9876543210, header_data 7
 */
static const uint8_t small_vec[UET_SES_SMALL_MSG_LEN] = {
	0x24, 0x5c, 0x2a, 0xbc, 0x03, 0x00, 0x00, 0x65,
	0x00, 0xa5, 0x0f, 0xff, 0x01, 0x02, 0x03, 0x04,
	0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07,
};

static const union any_hdr small_ref = { .small = {
	.ctl = { .opcode = UET_TAGGED_SEND, .ie = true, .hd = true,
		 .eom = true, .som = true },
	.request_length = 0x2abc, .ri_generation = 3, .job_id = 0x65,
	.pid_on_fep = 0x0a5, .resource_index = 0xfff,
	.initiator = 0x01020304, .match_bits = 0xfedcba9876543210ull,
	.header_data = 7,
} };

static const uint8_t small_rsvd[UET_SES_SMALL_MSG_LEN] = {
	[1] = 0x03, [2] = 0xc0, [8] = 0xf0, [10] = 0xf0,
};

static void small_rand(union any_hdr *u)
{
	struct uet_ses_small_msg *h = &u->small;

	rand_req_ctl(&h->ctl, (uint8_t)uet_test_rand_bits(4));
	h->ctl.som = h->ctl.eom = true;
	h->request_length = (uint16_t)uet_test_rand_bits(14);
	h->ri_generation = (uint8_t)uet_test_rand_bits(8);
	h->job_id = (uint32_t)uet_test_rand_bits(24);
	h->pid_on_fep = (uint16_t)uet_test_rand_bits(12);
	h->resource_index = (uint16_t)uet_test_rand_bits(12);
	h->initiator = (uint32_t)uet_test_rand_bits(32);
	h->match_bits = uet_test_rand64();
	h->header_data = uet_test_rand64();
}

static void small_eq(const char *what, const union any_hdr *ua,
		     const union any_hdr *ub)
{
	const struct uet_ses_small_msg *a = &ua->small, *b = &ub->small;

	eq_req_ctl(what, &a->ctl, &b->ctl);
	EQ(request_length);
	EQ(ri_generation);
	EQ(job_id);
	EQ(pid_on_fep);
	EQ(resource_index);
	EQ(initiator);
	EQ(match_bits);
	EQ(header_data);
}

/* ------------------------------------------------------------------ */
/* 4. Optimized non-matching (ses-formats.md 3.11, Table 3-10)         */
/* ------------------------------------------------------------------ */

/*
 * Bytes 0-1 as in the small message (ses-formats.md 3.11: opcode 0[7:2],
 * version 0[1:0], flags in byte 1; hd 1[4] and 1[1:0] reserved).
 * UET_READ (0x02), dc=1 rel=1 eom=1 som=1:
 *   byte 0 = opcode 0x02<<2 | version 0 = 0x08
 *   byte 1 = dc 0x80 | rel 0x20 | eom 0x08 | som 0x04 = 0xac
 *   2-3 = rsvd 0 | request_length 16383 = 0x3fff
 *   ri_generation 0xff, job_id 0xffffff,
 *   pid_on_fep 0x800 -> 08 00, resource_index 0x001 -> 00 01,
 *   buffer_offset 0x8000000000000001, 20-31 reserved 0
 */
static const uint8_t onm_vec[UET_SES_OPT_NONMATCH_LEN] = {
	0x08, 0xac, 0x3f, 0xff, 0xff, 0xff, 0xff, 0xff,
	0x08, 0x00, 0x00, 0x01,
	0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
};

static const union any_hdr onm_ref = { .onm = {
	.ctl = { .opcode = UET_READ, .dc = true, .rel = true, .eom = true,
		 .som = true },
	.request_length = 16383, .ri_generation = 0xff, .job_id = 0xffffff,
	.pid_on_fep = 0x800, .resource_index = 0x001,
	.buffer_offset = 0x8000000000000001ull,
} };

static const uint8_t onm_rsvd[UET_SES_OPT_NONMATCH_LEN] = {
	[1] = 0x13, [2] = 0xc0, [8] = 0xf0, [10] = 0xf0,
	[20] = 0xff, [21] = 0xff, [22] = 0xff, [23] = 0xff,
	[24] = 0xff, [25] = 0xff, [26] = 0xff, [27] = 0xff,
	[28] = 0xff, [29] = 0xff, [30] = 0xff, [31] = 0xff,
};

static void onm_rand(union any_hdr *u)
{
	struct uet_ses_opt_nonmatch *h = &u->onm;

	rand_req_ctl(&h->ctl, (uint8_t)uet_test_rand_bits(4));
	h->ctl.som = h->ctl.eom = true;
	h->ctl.hd = false;
	h->request_length = (uint16_t)uet_test_rand_bits(14);
	h->ri_generation = (uint8_t)uet_test_rand_bits(8);
	h->job_id = (uint32_t)uet_test_rand_bits(24);
	h->pid_on_fep = (uint16_t)uet_test_rand_bits(12);
	h->resource_index = (uint16_t)uet_test_rand_bits(12);
	h->buffer_offset = uet_test_rand64();
}

static void onm_eq(const char *what, const union any_hdr *ua,
		   const union any_hdr *ub)
{
	const struct uet_ses_opt_nonmatch *a = &ua->onm, *b = &ub->onm;

	eq_req_ctl(what, &a->ctl, &b->ctl);
	EQ(request_length);
	EQ(ri_generation);
	EQ(job_id);
	EQ(pid_on_fep);
	EQ(resource_index);
	EQ(buffer_offset);
}

/* ------------------------------------------------------------------ */
/* 5. Response (ses-formats.md 3.3, Table 3-11)                        */
/* ------------------------------------------------------------------ */

/*
 * list 1 (unexpected), UET_RESPONSE (0x01), rc UET_RC_NO_MATCH (0x05):
 *   byte 0 = list 1<<6 | opcode 0x01 = 0x41
 *   byte 1 = version 0<<6 | rc 0x05  = 0x05
 *   message_id 0x0102, ri_generation 0x09, job_id 0x123456,
 *   modified_length 0x00010000, 12-15 reserved 0
 */
static const uint8_t rsp_vec[UET_SES_RSP_LEN] = {
	0x41, 0x05, 0x01, 0x02, 0x09, 0x12, 0x34, 0x56,
	0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static const union any_hdr rsp_ref = { .rsp = {
	.ctl = { .list = UET_LIST_UNEXPECTED, .opcode = UET_RESPONSE,
		 .return_code = UET_RC_NO_MATCH },
	.message_id = 0x0102, .ri_generation = 9, .job_id = 0x123456,
	.modified_length = 0x10000,
} };

static const uint8_t rsp_rsvd[UET_SES_RSP_LEN] = {
	[12] = 0xff, [13] = 0xff, [14] = 0xff, [15] = 0xff,
};

static void rsp_rand(union any_hdr *u)
{
	struct uet_ses_rsp *h = &u->rsp;

	rand_rsp_ctl(&h->ctl, UET_RESPONSE);
	h->message_id = rand_nonzero16();
	h->ri_generation = (uint8_t)uet_test_rand_bits(8);
	h->job_id = (uint32_t)uet_test_rand_bits(24);
	h->modified_length = (uint32_t)uet_test_rand_bits(32);
}

static void rsp_eq(const char *what, const union any_hdr *ua,
		   const union any_hdr *ub)
{
	const struct uet_ses_rsp *a = &ua->rsp, *b = &ub->rsp;

	eq_rsp_ctl(what, &a->ctl, &b->ctl);
	EQ(message_id);
	EQ(ri_generation);
	EQ(job_id);
	EQ(modified_length);
}

/* ------------------------------------------------------------------ */
/* 6. Response with data (ses-formats.md 3.4, Table 3-12)              */
/* ------------------------------------------------------------------ */

/*
 * list 0, UET_RESPONSE_W_DATA (0x02), rc UET_RC_OK (0x01):
 *   byte 0 = 0<<6 | 0x02 = 0x02, byte 1 = 0<<6 | 0x01 = 0x01
 *   response_message_id 0xa1b2, 4 reserved 0, job_id 0x000065,
 *   read_request_message_id 0x0007,
 *   10-11 = rsvd 0<<14 | payload_length 0x2345 = 0x2345,
 *   modified_length 0x00002000, message_offset 0x00001000, 20-23 rsvd 0
 */
static const uint8_t rspd_vec[UET_SES_RSP_DATA_LEN] = {
	0x02, 0x01, 0xa1, 0xb2, 0x00, 0x00, 0x00, 0x65,
	0x00, 0x07, 0x23, 0x45, 0x00, 0x00, 0x20, 0x00,
	0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static const union any_hdr rspd_ref = { .rspd = {
	.ctl = { .list = UET_LIST_EXPECTED, .opcode = UET_RESPONSE_W_DATA,
		 .return_code = UET_RC_OK },
	.response_message_id = 0xa1b2, .job_id = 0x65,
	.read_request_message_id = 7, .payload_length = 0x2345,
	.modified_length = 0x2000, .message_offset = 0x1000,
} };

static const uint8_t rspd_rsvd[UET_SES_RSP_DATA_LEN] = {
	[4] = 0xff, [10] = 0xc0,
	[20] = 0xff, [21] = 0xff, [22] = 0xff, [23] = 0xff,
};

static void rspd_rand(union any_hdr *u)
{
	struct uet_ses_rsp_data *h = &u->rspd;

	rand_rsp_ctl(&h->ctl, UET_RESPONSE_W_DATA);
	h->response_message_id = (uint16_t)uet_test_rand_bits(16);
	h->job_id = (uint32_t)uet_test_rand_bits(24);
	h->read_request_message_id = rand_nonzero16();
	h->payload_length = (uint16_t)uet_test_rand_bits(14);
	h->modified_length = (uint32_t)uet_test_rand_bits(32);
	h->message_offset = (uint32_t)uet_test_rand_bits(32);
}

static void rspd_eq(const char *what, const union any_hdr *ua,
		    const union any_hdr *ub)
{
	const struct uet_ses_rsp_data *a = &ua->rspd, *b = &ub->rspd;

	eq_rsp_ctl(what, &a->ctl, &b->ctl);
	EQ(response_message_id);
	EQ(job_id);
	EQ(read_request_message_id);
	EQ(payload_length);
	EQ(modified_length);
	EQ(message_offset);
}

/* ------------------------------------------------------------------ */
/* 7. Optimized response with data (ses-formats.md 3.12, Table 3-13)   */
/* ------------------------------------------------------------------ */

/*
 * list 1, UET_RESPONSE_W_DATA (0x02), rc UET_RC_TOO_LONG (0x22):
 *   byte 0 = 1<<6 | 0x02 = 0x42, byte 1 = 0<<6 | 0x22 = 0x22
 *   2-3 = rsvd 0 | payload_length 0x3fff, 4 reserved 0,
 *   job_id 0xfedcba, original_request_psn 0x8000014d, 12-15 rsvd 0
 */
static const uint8_t orspd_vec[UET_SES_OPT_RSP_DATA_LEN] = {
	0x42, 0x22, 0x3f, 0xff, 0x00, 0xfe, 0xdc, 0xba,
	0x80, 0x00, 0x01, 0x4d, 0x00, 0x00, 0x00, 0x00,
};

static const union any_hdr orspd_ref = { .orspd = {
	.ctl = { .list = UET_LIST_UNEXPECTED, .opcode = UET_RESPONSE_W_DATA,
		 .return_code = UET_RC_TOO_LONG },
	.payload_length = 0x3fff, .job_id = 0xfedcba,
	.original_request_psn = 0x8000014d,
} };

static const uint8_t orspd_rsvd[UET_SES_OPT_RSP_DATA_LEN] = {
	[2] = 0xc0, [4] = 0xff,
	[12] = 0xff, [13] = 0xff, [14] = 0xff, [15] = 0xff,
};

static void orspd_rand(union any_hdr *u)
{
	struct uet_ses_opt_rsp_data *h = &u->orspd;

	rand_rsp_ctl(&h->ctl, UET_RESPONSE_W_DATA);
	h->payload_length = (uint16_t)uet_test_rand_bits(14);
	h->job_id = (uint32_t)uet_test_rand_bits(24);
	h->original_request_psn = (uint32_t)uet_test_rand_bits(32);
}

static void orspd_eq(const char *what, const union any_hdr *ua,
		     const union any_hdr *ub)
{
	const struct uet_ses_opt_rsp_data *a = &ua->orspd, *b = &ub->orspd;

	eq_rsp_ctl(what, &a->ctl, &b->ctl);
	EQ(payload_length);
	EQ(job_id);
	EQ(original_request_psn);
}

/* ------------------------------------------------------------------ */
/* 8. Atomic extension (ses-formats.md 3.7, Figure 3-16 table)         */
/* ------------------------------------------------------------------ */

/*
 * UET_AMO_SUM (0x02), UET_AMO_UINT64 (0x07),
 * semantic_control CACHEABLE|CPU_COHERENT = 0x0003, 4-7 reserved 0
 */
static const uint8_t amo_vec[UET_SES_ATOMIC_EXT_LEN] = {
	0x02, 0x07, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00,
};

static const union any_hdr amo_ref = { .amo = {
	.atomic_opcode = UET_AMO_SUM, .atomic_datatype = UET_AMO_UINT64,
	.semantic_control = UET_AMO_SEMCTL_CACHEABLE |
			    UET_AMO_SEMCTL_CPU_COHERENT,
} };

static const uint8_t amo_rsvd[UET_SES_ATOMIC_EXT_LEN] = {
	[4] = 0xff, [5] = 0xff, [6] = 0xff, [7] = 0xff,
};

static bool amo_op_is_cas(unsigned int op)
{
	return (op >= UET_AMO_CSWAP && op <= UET_AMO_CSWAP_GT) ||
	       op == UET_AMO_MSWAP;
}

static void amo_rand(union any_hdr *u)
{
	struct uet_ses_atomic_ext *h = &u->amo;

	do
		h->atomic_opcode = (uint8_t)uet_test_rand_bits(5);
	while (h->atomic_opcode > UET_AMO_OP_MAX ||
	       amo_op_is_cas(h->atomic_opcode));
	h->atomic_datatype = rand_amo_dtype();
	h->semantic_control = (uint16_t)uet_test_rand_bits(16);
}

static void amo_eq(const char *what, const union any_hdr *ua,
		   const union any_hdr *ub)
{
	const struct uet_ses_atomic_ext *a = &ua->amo, *b = &ub->amo;

	EQ(atomic_opcode);
	EQ(atomic_datatype);
	EQ(semantic_control);
}

/* ------------------------------------------------------------------ */
/* 9. Compare-and-swap extension (ses-formats.md 3.8, Figure 3-17)     */
/* ------------------------------------------------------------------ */

/*
 * UET_AMO_CSWAP_GE (0x11), UET_AMO_DOUBLE_COMPLEX (0x0b),
 * semantic_control 0x0001, 4-7 reserved 0,
 * compare_mask_value bytes 0x10..0x1f, swap_value bytes 0x20..0x2f
 */
static const uint8_t cas_vec[UET_SES_CAS_EXT_LEN] = {
	0x11, 0x0b, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
	0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
	0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
	0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27,
	0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f,
};

static const union any_hdr cas_ref = { .cas = {
	.atomic_opcode = UET_AMO_CSWAP_GE,
	.atomic_datatype = UET_AMO_DOUBLE_COMPLEX,
	.semantic_control = UET_AMO_SEMCTL_CACHEABLE,
	.compare_mask_value = { 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16,
				0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d,
				0x1e, 0x1f },
	.swap_value = { 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27,
			0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f },
} };

static const uint8_t cas_rsvd[UET_SES_CAS_EXT_LEN] = {
	[4] = 0xff, [5] = 0xff, [6] = 0xff, [7] = 0xff,
};

static void cas_rand(union any_hdr *u)
{
	struct uet_ses_cas_ext *h = &u->cas;
	size_t i;

	do
		h->atomic_opcode = (uint8_t)uet_test_rand_bits(5);
	while (!amo_op_is_cas(h->atomic_opcode));
	h->atomic_datatype = rand_amo_dtype();
	h->semantic_control = (uint16_t)uet_test_rand_bits(16);
	for (i = 0; i < sizeof(h->compare_mask_value); i++) {
		h->compare_mask_value[i] = (uint8_t)uet_test_rand_bits(8);
		h->swap_value[i] = (uint8_t)uet_test_rand_bits(8);
	}
}

static void cas_eq(const char *what, const union any_hdr *ua,
		   const union any_hdr *ub)
{
	const struct uet_ses_cas_ext *a = &ua->cas, *b = &ub->cas;

	EQ(atomic_opcode);
	EQ(atomic_datatype);
	EQ(semantic_control);
	ck_assert_msg(!memcmp(a->compare_mask_value, b->compare_mask_value,
			      sizeof(a->compare_mask_value)),
		      "%s: compare_mask_value differs", what);
	ck_assert_msg(!memcmp(a->swap_value, b->swap_value,
			      sizeof(a->swap_value)),
		      "%s: swap_value differs", what);
}

/* ------------------------------------------------------------------ */
/* 10. Rendezvous extension (ses-formats.md 3.6, Figure 3-15 table)    */
/* ------------------------------------------------------------------ */

/*
 * eager_length 16384 = 0x00004000, memory_key 0xacce5,
 * buffer_offset 0x00007f0012345678, remaining_length 0x000fc000,
 * 24-31 reserved 0
 */
static const uint8_t rdzv_vec[UET_SES_RDZV_EXT_LEN] = {
	0x00, 0x00, 0x40, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x0a, 0xcc, 0xe5,
	0x00, 0x00, 0x7f, 0x00, 0x12, 0x34, 0x56, 0x78,
	0x00, 0x0f, 0xc0, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static const union any_hdr rdzv_ref = { .rdzv = {
	.eager_length = 16384, .memory_key = 0xacce5,
	.buffer_offset = 0x00007f0012345678ull,
	.remaining_length = 0x000fc000,
} };

static const uint8_t rdzv_rsvd[UET_SES_RDZV_EXT_LEN] = {
	[24] = 0xff, [25] = 0xff, [26] = 0xff, [27] = 0xff,
	[28] = 0xff, [29] = 0xff, [30] = 0xff, [31] = 0xff,
};

static void rdzv_rand(union any_hdr *u)
{
	struct uet_ses_rdzv_ext *h = &u->rdzv;

	h->eager_length = (uint32_t)uet_test_rand_bits(32);
	h->memory_key = uet_test_rand64();
	h->buffer_offset = uet_test_rand64();
	h->remaining_length = (uint32_t)uet_test_rand_bits(32);
}

static void rdzv_eq(const char *what, const union any_hdr *ua,
		    const union any_hdr *ub)
{
	const struct uet_ses_rdzv_ext *a = &ua->rdzv, *b = &ub->rdzv;

	EQ(eager_length);
	EQ(memory_key);
	EQ(buffer_offset);
	EQ(remaining_length);
}

/* ------------------------------------------------------------------ */
/* 11. Deferrable send (ses-formats.md 3.9, Figure 3-11)               */
/* ------------------------------------------------------------------ */

/*
 * UET_DEFERRABLE_TSEND (0x0b), hd=1 som=1:
 *   byte 1 = 0<<6 | hd 0x04 | som 0x01 = 0x05
 *   message_id 0x0042, ri_generation 0, job_id 0x000065,
 *   pid_on_fep 0x002, resource_index 0x00a,
 *   12-15 initiator_restart_token 0x98765432,
 *   16-19 target_restart_token 0, 20-23 initiator 0x00000011,
 *   24-31 match_bits 0x0123456789abcdef, 32-39 header_data 0xb0b,
 *   40-43 request_length 0x00100000
 */
static const uint8_t defer_vec[UET_SES_DEFER_SEND_LEN] = {
	0x0b, 0x05, 0x00, 0x42, 0x00, 0x00, 0x00, 0x65,
	0x00, 0x02, 0x00, 0x0a,
	0x98, 0x76, 0x54, 0x32,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x11,
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0b, 0x0b,
	0x00, 0x10, 0x00, 0x00,
};

static const union any_hdr defer_ref = { .defer = {
	.ctl = { .opcode = UET_DEFERRABLE_TSEND, .hd = true, .som = true },
	.message_id = 0x42, .ri_generation = 0, .job_id = 0x65,
	.pid_on_fep = 2, .resource_index = 0x00a,
	.initiator_restart_token = 0x98765432, .target_restart_token = 0,
	.initiator = 0x11, .match_bits = 0x0123456789abcdefull,
	.header_data = 0xb0b, .request_length = 0x00100000,
} };

static const uint8_t defer_rsvd[UET_SES_DEFER_SEND_LEN] = {
	[0] = 0xc0, [8] = 0xf0, [10] = 0xf0,
};

static void defer_rand(union any_hdr *u)
{
	struct uet_ses_defer_send *h = &u->defer;

	rand_req_ctl(&h->ctl, rand_bool() ? UET_DEFERRABLE_SEND :
					    UET_DEFERRABLE_TSEND);
	h->ctl.som = true;
	h->message_id = rand_nonzero16();
	h->ri_generation = (uint8_t)uet_test_rand_bits(8);
	h->job_id = (uint32_t)uet_test_rand_bits(24);
	h->pid_on_fep = (uint16_t)uet_test_rand_bits(12);
	h->resource_index = (uint16_t)uet_test_rand_bits(12);
	h->initiator_restart_token = (uint32_t)uet_test_rand_bits(32);
	h->target_restart_token = (uint32_t)uet_test_rand_bits(32);
	h->initiator = (uint32_t)uet_test_rand_bits(32);
	h->match_bits = uet_test_rand64();
	h->header_data = uet_test_rand64();
	h->request_length = (uint32_t)uet_test_rand_bits(32);
}

static void defer_eq(const char *what, const union any_hdr *ua,
		     const union any_hdr *ub)
{
	const struct uet_ses_defer_send *a = &ua->defer, *b = &ub->defer;

	eq_req_ctl(what, &a->ctl, &b->ctl);
	EQ(message_id);
	EQ(ri_generation);
	EQ(job_id);
	EQ(pid_on_fep);
	EQ(resource_index);
	EQ(initiator_restart_token);
	EQ(target_restart_token);
	EQ(initiator);
	EQ(match_bits);
	EQ(header_data);
	EQ(request_length);
}

/* ------------------------------------------------------------------ */
/* 12. Ready to restart (ses-formats.md 3.10, Figure 3-12)             */
/* ------------------------------------------------------------------ */

/*
 * UET_DEFERRABLE_RTR (0x0c), eom=1 som=1:
 *   byte 1 = 0<<6 | eom 0x02 | som 0x01 = 0x03
 *   message_id 0x0043, ri_generation 2, job_id 0x000065,
 *   pid_on_fep 0x002, resource_index 0x00a,
 *   12-19 buffer_offset 2^32-2 = 0x00000000fffffffe,
 *   20-23 initiator_restart_token 0x98765432,
 *   24-27 target_restart_token 0x0000abcd, 28-31 reserved 0,
 *   32-39 header_data 0xb0b, 40-43 request_length 0x00100000
 */
static const uint8_t rtr_vec[UET_SES_RTR_LEN] = {
	0x0c, 0x03, 0x00, 0x43, 0x02, 0x00, 0x00, 0x65,
	0x00, 0x02, 0x00, 0x0a,
	0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xfe,
	0x98, 0x76, 0x54, 0x32,
	0x00, 0x00, 0xab, 0xcd,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0b, 0x0b,
	0x00, 0x10, 0x00, 0x00,
};

static const union any_hdr rtr_ref = { .rtr = {
	.ctl = { .opcode = UET_DEFERRABLE_RTR, .eom = true, .som = true },
	.message_id = 0x43, .ri_generation = 2, .job_id = 0x65,
	.pid_on_fep = 2, .resource_index = 0x00a,
	.buffer_offset = 0xfffffffeull,
	.initiator_restart_token = 0x98765432,
	.target_restart_token = 0xabcd,
	.header_data = 0xb0b, .request_length = 0x00100000,
} };

static const uint8_t rtr_rsvd[UET_SES_RTR_LEN] = {
	[0] = 0xc0, [8] = 0xf0, [10] = 0xf0,
	[28] = 0xff, [29] = 0xff, [30] = 0xff, [31] = 0xff,
};

static void rtr_rand(union any_hdr *u)
{
	struct uet_ses_rtr *h = &u->rtr;

	rand_req_ctl(&h->ctl, UET_DEFERRABLE_RTR);
	h->ctl.som = true;
	h->message_id = rand_nonzero16();
	h->ri_generation = (uint8_t)uet_test_rand_bits(8);
	h->job_id = (uint32_t)uet_test_rand_bits(24);
	h->pid_on_fep = (uint16_t)uet_test_rand_bits(12);
	h->resource_index = (uint16_t)uet_test_rand_bits(12);
	do
		h->buffer_offset = uet_test_rand_bits(32);
	while (h->buffer_offset > 0xfffffffeull);
	h->initiator_restart_token = (uint32_t)uet_test_rand_bits(32);
	h->target_restart_token = (uint32_t)uet_test_rand_bits(32);
	h->header_data = uet_test_rand64();
	h->request_length = (uint32_t)uet_test_rand_bits(32);
}

static void rtr_eq(const char *what, const union any_hdr *ua,
		   const union any_hdr *ub)
{
	const struct uet_ses_rtr *a = &ua->rtr, *b = &ub->rtr;

	eq_req_ctl(what, &a->ctl, &b->ctl);
	EQ(message_id);
	EQ(ri_generation);
	EQ(job_id);
	EQ(pid_on_fep);
	EQ(resource_index);
	EQ(buffer_offset);
	EQ(initiator_restart_token);
	EQ(target_restart_token);
	EQ(header_data);
	EQ(request_length);
}

/* ------------------------------------------------------------------ */
/* Format table                                                        */
/* ------------------------------------------------------------------ */

#define WRAP(name, member)						\
static ssize_t name##_enc(uint8_t *b, size_t l, const union any_hdr *h) \
{									\
	return uet_ses_##name##_encode(UET_WIRE_UEPLUS, b, l, &h->member);		\
}									\
static ssize_t name##_dec(union any_hdr *h, const uint8_t *b, size_t l) \
{									\
	return uet_ses_##name##_decode(UET_WIRE_UEPLUS, &h->member, b, l);		\
}

WRAP(std_som1, som1)
WRAP(std_som0, som0)
WRAP(small_msg, small)
WRAP(opt_nonmatch, onm)
WRAP(rsp, rsp)
WRAP(rsp_data, rspd)
WRAP(opt_rsp_data, orspd)
WRAP(atomic_ext, amo)
WRAP(cas_ext, cas)
WRAP(rdzv_ext, rdzv)
WRAP(defer_send, defer)
WRAP(rtr, rtr)

#define FMT(nm, codec, pfx, LEN, nh, sf) {				\
	.name = nm, .len = LEN, .next_hdr = nh, .ses_fmt = sf,		\
	.enc = codec##_enc, .dec = codec##_dec, .rand = pfx##_rand,	\
	.eq = pfx##_eq, .ref = &pfx##_ref, .vec = pfx##_vec,		\
	.rsvd = pfx##_rsvd,						\
}

static const struct fmt fmts[] = {
	FMT("std_som1", std_som1, som1, UET_SES_STD_SOM1_LEN,
	    UET_HDR_REQUEST_STD, UET_SES_FMT_STD_SOM1),
	FMT("std_som0", std_som0, som0, UET_SES_STD_SOM0_LEN,
	    UET_HDR_REQUEST_STD, UET_SES_FMT_STD_SOM0),
	FMT("small_msg", small_msg, small, UET_SES_SMALL_MSG_LEN,
	    UET_HDR_REQUEST_MEDIUM, UET_SES_FMT_SMALL_MSG),
	FMT("opt_nonmatch", opt_nonmatch, onm, UET_SES_OPT_NONMATCH_LEN,
	    UET_HDR_REQUEST_SMALL, UET_SES_FMT_OPT_NONMATCH),
	FMT("rsp", rsp, rsp, UET_SES_RSP_LEN,
	    UET_HDR_RESPONSE, UET_SES_FMT_RSP),
	FMT("rsp_data", rsp_data, rspd, UET_SES_RSP_DATA_LEN,
	    UET_HDR_RESPONSE_DATA, UET_SES_FMT_RSP_DATA),
	FMT("opt_rsp_data", opt_rsp_data, orspd, UET_SES_OPT_RSP_DATA_LEN,
	    UET_HDR_RESPONSE_DATA_SMALL, UET_SES_FMT_OPT_RSP_DATA),
	FMT("atomic_ext", atomic_ext, amo, UET_SES_ATOMIC_EXT_LEN, 0, 0),
	FMT("cas_ext", cas_ext, cas, UET_SES_CAS_EXT_LEN, 0, 0),
	FMT("rdzv_ext", rdzv_ext, rdzv, UET_SES_RDZV_EXT_LEN, 0, 0),
	FMT("defer_send", defer_send, defer, UET_SES_DEFER_SEND_LEN,
	    UET_HDR_REQUEST_STD, UET_SES_FMT_DEFER_SEND),
	FMT("rtr", rtr, rtr, UET_SES_RTR_LEN,
	    UET_HDR_REQUEST_STD, UET_SES_FMT_RTR),
};

enum {
	F_SOM1, F_SOM0, F_SMALL, F_ONM, F_RSP, F_RSPD, F_ORSPD, F_AMO,
	F_CAS, F_RDZV, F_DEFER, F_RTR, F_COUNT
};
_Static_assert(F_COUNT == ARRAY_LEN(fmts), "format index");

/* ------------------------------------------------------------------ */
/* Shared checks                                                       */
/* ------------------------------------------------------------------ */

/* Decode n bytes from an exact-size heap copy (ASan sees over-reads). */
static ssize_t dec_exact(const struct fmt *f, union any_hdr *h,
			 const uint8_t *bytes, size_t n)
{
	uint8_t *copy = malloc(n ? n : 1);
	ssize_t ret;

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, bytes, n);
	ret = f->dec(h, copy, n);
	free(copy);
	return ret;
}

/* Decoding must fail with err and leave the output struct untouched. */
static void check_dec_err(const struct fmt *f, const uint8_t *bytes,
			  ssize_t err, const char *what)
{
	union any_hdr out, before;
	ssize_t ret;

	memset(&out, POISON, sizeof(out));
	memcpy(&before, &out, sizeof(out));
	ret = dec_exact(f, &out, bytes, f->len);
	ck_assert_msg(ret == err, "%s: decode %s: got %zd (%s), want %zd",
		      f->name, what, ret, uet_wire_strerror(ret), err);
	ck_assert_msg(!memcmp(&out, &before, sizeof(out)),
		      "%s: decode %s: output written on failure",
		      f->name, what);
}

/* Decode the known vector with `n` bytes at `off` replaced by `patch`. */
static void check_dec_patch(const struct fmt *f, size_t off,
			    const void *patch, size_t n, ssize_t err,
			    const char *what)
{
	uint8_t b[MAX_LEN];

	ck_assert_uint_le(off + n, f->len);
	memcpy(b, f->vec, f->len);
	memcpy(b + off, patch, n);
	check_dec_err(f, b, err, what);
}

static void check_dec_byte(const struct fmt *f, size_t off, uint8_t v,
			   ssize_t err, const char *what)
{
	check_dec_patch(f, off, &v, 1, err, what);
}

/* Encoding must fail with err and write nothing. */
static void check_enc_err(const struct fmt *f, const union any_hdr *h,
			  ssize_t err, const char *what)
{
	uint8_t b[MAX_LEN + 8], before[MAX_LEN + 8];
	ssize_t ret;

	memset(b, POISON, sizeof(b));
	memcpy(before, b, sizeof(b));
	ret = f->enc(b, sizeof(b), h);
	ck_assert_msg(ret == err, "%s: encode %s: got %zd (%s), want %zd",
		      f->name, what, ret, uet_wire_strerror(ret), err);
	ck_assert_msg(!memcmp(b, before, sizeof(b)),
		      "%s: encode %s: buffer written on failure", f->name,
		      what);
}

/* Mutate a copy of the known struct with `stmt`, expect `err`. */
#define ENC_ERR(fi, member, err, stmt) do {				\
	union any_hdr h_ = *fmts[fi].ref;				\
	{								\
		__typeof__(h_.member) *h = &h_.member;			\
		stmt;							\
	}								\
	check_enc_err(&fmts[fi], &h_, err, #stmt);			\
} while (0)

/* Out of width or forbidden in this format. */
#define ENC_BAD(fi, member, stmt)					\
	ENC_ERR(fi, member, UET_WIRE_ERANGE, stmt)
/* Type/opcode of another format. */
#define ENC_ETYPE(fi, member, stmt)					\
	ENC_ERR(fi, member, UET_WIRE_ETYPE, stmt)

/* Mutate a copy of the known struct with `stmt`, expect success. */
#define ENC_OK(fi, member, stmt) do {					\
	union any_hdr h_ = *fmts[fi].ref;				\
	uint8_t b_[MAX_LEN];						\
	{								\
		__typeof__(h_.member) *h = &h_.member;			\
		stmt;							\
	}								\
	ck_assert_msg(fmts[fi].enc(b_, fmts[fi].len, &h_) ==		\
		      (ssize_t)fmts[fi].len, "%s: encode %s failed",	\
		      fmts[fi].name, #stmt);				\
} while (0)

/* ------------------------------------------------------------------ */
/* Generic tests over every format (loop index = format)               */
/* ------------------------------------------------------------------ */

static void check_vector(const struct fmt *f, const union any_hdr *ref,
			 const uint8_t *vec)
{
	uint8_t b[MAX_LEN + 8], big[MAX_LEN + 8];
	union any_hdr out;
	ssize_t ret;
	size_t i;

	memset(b, POISON, sizeof(b));
	ret = f->enc(b, f->len, ref);
	ck_assert_msg(ret == (ssize_t)f->len, "%s: encode returned %zd",
		      f->name, ret);
	for (i = 0; i < f->len; i++)
		ck_assert_msg(b[i] == vec[i],
			      "%s: byte %zu: got 0x%02x, want 0x%02x",
			      f->name, i, b[i], vec[i]);
	ck_assert_uint_eq(b[f->len], POISON);	/* nothing past len */

	memset(&out, 0, sizeof(out));
	ret = dec_exact(f, &out, vec, f->len);
	ck_assert_msg(ret == (ssize_t)f->len, "%s: decode returned %zd (%s)",
		      f->name, ret, uet_wire_strerror(ret));
	f->eq(f->name, &out, ref);

	/* trailing payload after the header is not consumed */
	memcpy(big, vec, f->len);
	memset(big + f->len, 0xff, sizeof(big) - f->len);
	memset(&out, 0, sizeof(out));
	ret = f->dec(&out, big, sizeof(big));
	ck_assert_int_eq(ret, (ssize_t)f->len);
	f->eq(f->name, &out, ref);
}

START_TEST(test_known_vector)
{
	check_vector(&fmts[_i], fmts[_i].ref, fmts[_i].vec);
}
END_TEST

START_TEST(test_known_vector_som1_b)
{
	check_vector(&fmts[F_SOM1], &som1_ref_b, som1_vec_b);
}
END_TEST

START_TEST(test_known_vector_som0_b)
{
	check_vector(&fmts[F_SOM0], &som0_ref_b, som0_vec_b);
}
END_TEST

START_TEST(test_roundtrip)
{
	const struct fmt *f = &fmts[_i];
	uint8_t b[MAX_LEN], b2[MAX_LEN];
	union any_hdr h, out;
	ssize_t ret;
	int n;

	for (n = 0; n < ROUNDTRIP_ITERS; n++) {
		memset(&h, 0, sizeof(h));
		f->rand(&h);
		ret = f->enc(b, f->len, &h);
		ck_assert_msg(ret == (ssize_t)f->len,
			      "%s: iter %d: encode %zd (%s)", f->name, n, ret,
			      uet_wire_strerror(ret));
		memset(&out, POISON, sizeof(out));
		ret = f->dec(&out, b, f->len);
		ck_assert_msg(ret == (ssize_t)f->len,
			      "%s: iter %d: decode %zd (%s)", f->name, n, ret,
			      uet_wire_strerror(ret));
		f->eq(f->name, &out, &h);
		ck_assert_int_eq(f->enc(b2, f->len, &out), (ssize_t)f->len);
		ck_assert(!memcmp(b, b2, f->len));
		/* the encoded reserved bits are zero */
		for (size_t i = 0; i < f->len; i++)
			ck_assert_msg(!(b[i] & f->rsvd[i]),
				      "%s: reserved bits set in byte %zu",
				      f->name, i);
	}
}
END_TEST

START_TEST(test_truncated)
{
	const struct fmt *f = &fmts[_i];
	size_t n;

	for (n = 0; n < f->len; n++) {
		union any_hdr out, before;
		ssize_t ret;

		memset(&out, POISON, sizeof(out));
		memcpy(&before, &out, sizeof(out));
		ret = dec_exact(f, &out, f->vec, n);
		ck_assert_msg(ret == UET_WIRE_ETRUNC,
			      "%s: prefix %zu: got %zd", f->name, n, ret);
		ck_assert(!memcmp(&out, &before, sizeof(out)));
	}
}
END_TEST

START_TEST(test_reserved_bits)
{
	const struct fmt *f = &fmts[_i];
	uint8_t b[MAX_LEN];
	union any_hdr out;
	unsigned int bit, nrsvd = 0;
	size_t i;
	char what[64];

	for (i = 0; i < f->len; i++) {
		for (bit = 0; bit < 8; bit++) {
			uint8_t m = (uint8_t)(1u << bit);
			ssize_t ret;

			memcpy(b, f->vec, f->len);
			b[i] ^= m;
			if (f->rsvd[i] & m) {
				snprintf(what, sizeof(what),
					 "reserved byte %zu bit %u", i, bit);
				check_dec_err(f, b, UET_WIRE_ERESERVED, what);
				nrsvd++;
				continue;
			}
			/* a non-reserved bit never reads as reserved */
			ret = dec_exact(f, &out, b, f->len);
			ck_assert_msg(ret != UET_WIRE_ERESERVED,
				      "%s: byte %zu bit %u is not reserved",
				      f->name, i, bit);
		}
	}
	ck_assert_uint_gt(nrsvd, 0);
}
END_TEST

START_TEST(test_enobufs)
{
	const struct fmt *f = &fmts[_i];
	uint8_t b[MAX_LEN + 8], before[MAX_LEN + 8];
	size_t n;

	for (n = 0; n < f->len; n++) {
		uint8_t *exact = malloc(n ? n : 1);
		ssize_t ret;

		memset(b, POISON, sizeof(b));
		memcpy(before, b, sizeof(b));
		ret = f->enc(b, n, f->ref);
		ck_assert_msg(ret == UET_WIRE_ENOBUFS, "%s: len %zu: got %zd",
			      f->name, n, ret);
		ck_assert(!memcmp(b, before, sizeof(b)));

		ck_assert_ptr_nonnull(exact);
		ck_assert_int_eq(f->enc(exact, n, f->ref), UET_WIRE_ENOBUFS);
		free(exact);
	}
}
END_TEST

/*
 * Mutation fuzz: flip 1-4 random bits of a random valid header.  When the
 * decoder accepts the result, the encoder must accept the decoded struct
 * and give back exactly the mutated bytes (canonical decoding: no wire
 * bit is dropped or ignored).
 */
START_TEST(test_canonical)
{
	const struct fmt *f = &fmts[_i];
	uint8_t b[MAX_LEN], b2[MAX_LEN];
	union any_hdr h, out;
	unsigned int accepted = 0;
	int n, k, flips;

	for (n = 0; n < ROUNDTRIP_ITERS; n++) {
		memset(&h, 0, sizeof(h));
		f->rand(&h);
		ck_assert_int_eq(f->enc(b, f->len, &h), (ssize_t)f->len);
		flips = 1 + (int)uet_test_rand_bits(2);
		for (k = 0; k < flips; k++) {
			size_t bit = (size_t)(uet_test_rand64() %
					      (f->len * 8));

			b[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		}
		if (f->dec(&out, b, f->len) != (ssize_t)f->len)
			continue;
		accepted++;
		ck_assert_msg(f->enc(b2, f->len, &out) == (ssize_t)f->len,
			      "%s: decoded header does not encode", f->name);
		ck_assert_msg(!memcmp(b, b2, f->len),
			      "%s: decode/encode is not canonical", f->name);
	}
	ck_assert_uint_gt(accepted, 0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Invalid values, per format                                          */
/* ------------------------------------------------------------------ */

/* Request byte 0/1 values that no request format accepts (ERANGE). */
static void check_req_ctl_invalid(const struct fmt *f)
{
	uint8_t b1 = f->vec[1];
	unsigned int v;

	/* opcode 0x10..0x3f: above UET_SES_OPCODE_MAX */
	for (v = UET_SES_OPCODE_MAX + 1; v <= 0x3f; v++)
		check_dec_byte(f, 0, (uint8_t)v, UET_WIRE_ERANGE, "opcode");
	/* version 1..3 */
	for (v = 1; v <= 3; v++)
		check_dec_byte(f, 1, (uint8_t)((b1 & 0x3f) | v << 6),
			       UET_WIRE_ERANGE, "version");
}

/* The same for the small-message layout: opcode 0[7:2], version 0[1:0]. */
static void check_small_ctl_invalid(const struct fmt *f)
{
	uint8_t b0 = f->vec[0];
	unsigned int v;

	for (v = UET_SES_OPCODE_MAX + 1; v <= 0x3f; v++)
		check_dec_byte(f, 0, (uint8_t)(v << 2 | (b0 & 0x03)),
			       UET_WIRE_ERANGE, "opcode");
	for (v = 1; v <= 3; v++)
		check_dec_byte(f, 0, (uint8_t)((b0 & 0xfc) | v),
			       UET_WIRE_ERANGE, "version");
}

/* Where a format keeps its opcode: bits 7:2 of byte 0 in the small and
 * optimized non-matching headers, bits 5:0 elsewhere. */
static unsigned int opcode_shift(const struct fmt *f)
{
	return f == &fmts[F_SMALL] || f == &fmts[F_ONM] ? 2 : 0;
}

#define REQ_CTL_ENC_BAD(fi, member) do {				\
	ENC_BAD(fi, member, h->ctl.opcode = UET_SES_OPCODE_MAX + 1);	\
	ENC_BAD(fi, member, h->ctl.opcode = 0x3f);			\
	ENC_BAD(fi, member, h->ctl.opcode = 0xff);			\
	ENC_BAD(fi, member, h->ctl.version = 1);			\
	ENC_BAD(fi, member, h->ctl.version = 3);			\
} while (0)

/* Which defined request opcodes (0..0x0f) a format takes: 0 or ETYPE. */
static ssize_t op_any(unsigned int op)
{
	(void)op;
	return 0;
}

static ssize_t op_standard(unsigned int op)
{
	return op == UET_DEFERRABLE_SEND || op == UET_DEFERRABLE_TSEND ||
	       op == UET_DEFERRABLE_RTR ? UET_WIRE_ETYPE : 0;
}

static ssize_t op_defer(unsigned int op)
{
	return op == UET_DEFERRABLE_SEND || op == UET_DEFERRABLE_TSEND ?
	       0 : UET_WIRE_ETYPE;
}

static ssize_t op_rtr(unsigned int op)
{
	return op == UET_DEFERRABLE_RTR ? 0 : UET_WIRE_ETYPE;
}

/*
 * Every request opcode value in both directions.  Decode (6-bit wire
 * values): 0x10..0x3f ERANGE, defined opcodes as want().  Encode (any
 * host byte): the same for 0..0x3f, ERANGE above (out of width).
 * `opcode` points at the ctl.opcode member of *u.
 */
static void check_req_opcodes(const struct fmt *f, union any_hdr *u,
			      uint8_t *opcode, ssize_t (*want)(unsigned int))
{
	uint8_t b[MAX_LEN];
	unsigned int v, ok = 0;

	for (v = 0; v <= 0xff; v++) {
		ssize_t w = v > UET_SES_OPCODE_MAX ? UET_WIRE_ERANGE :
			    want(v);

		if (v <= 0x3f) {
			memcpy(b, f->vec, f->len);
			if (opcode_shift(f))
				b[0] = (uint8_t)((b[0] & 0x03) | v << 2);
			else
				b[0] = (uint8_t)((b[0] & 0xc0) | v);
			if (w)
				check_dec_err(f, b, w, "opcode");
			else
				ck_assert_msg(dec_exact(f, u, b, f->len) ==
					      (ssize_t)f->len,
					      "%s: opcode 0x%x rejected",
					      f->name, v);
		}
		*u = *f->ref;
		*opcode = (uint8_t)v;
		if (w) {
			check_enc_err(f, u, w, "opcode");
		} else {
			ck_assert_int_eq(f->enc(b, f->len, u),
					 (ssize_t)f->len);
			ck_assert_uint_eq(b[0], v << opcode_shift(f));
			ok++;
		}
	}
	ck_assert_uint_gt(ok, 0);
}

/* Every response opcode host value: ETYPE in 0..0x3f, ERANGE above. */
static void check_rsp_opcodes_enc(const struct fmt *f, union any_hdr *u,
				  uint8_t *opcode, uint8_t good)
{
	uint8_t b[MAX_LEN];
	unsigned int v;

	for (v = 0; v <= 0xff; v++) {
		*u = *f->ref;
		*opcode = (uint8_t)v;
		if (v == good)
			ck_assert_int_eq(f->enc(b, f->len, u),
					 (ssize_t)f->len);
		else
			check_enc_err(f, u, v <= 0x3f ? UET_WIRE_ETYPE :
					    UET_WIRE_ERANGE, "opcode");
	}
}

START_TEST(test_invalid_std_som1)
{
	const struct fmt *f = &fmts[F_SOM1];
	static const uint8_t zero16[2];

	check_req_ctl_invalid(f);
	check_dec_byte(f, 1, 0x0c, UET_WIRE_ERANGE, "som=0");
	check_dec_patch(f, 2, zero16, 2, UET_WIRE_ERANGE, "message_id 0");
	check_dec_byte(f, 0, UET_DEFERRABLE_SEND, UET_WIRE_ETYPE,
		       "DEFERRABLE_SEND");
	check_dec_byte(f, 0, UET_DEFERRABLE_TSEND, UET_WIRE_ETYPE,
		       "DEFERRABLE_TSEND");
	check_dec_byte(f, 0, UET_DEFERRABLE_RTR, UET_WIRE_ETYPE,
		       "DEFERRABLE_RTR");

	REQ_CTL_ENC_BAD(F_SOM1, som1);
	ENC_BAD(F_SOM1, som1, h->ctl.som = false);
	ENC_BAD(F_SOM1, som1, h->message_id = 0);
	ENC_BAD(F_SOM1, som1, h->job_id = UET_JOB_ID_MAX + 1);
	ENC_BAD(F_SOM1, som1, h->job_id = 0xffffffff);
	ENC_BAD(F_SOM1, som1, h->pid_on_fep = UET_PID_ON_FEP_MAX + 1);
	ENC_BAD(F_SOM1, som1, h->pid_on_fep = 0xffff);
	ENC_BAD(F_SOM1, som1,
		h->resource_index = UET_RESOURCE_INDEX_MAX + 1);
	ENC_ETYPE(F_SOM1, som1, h->ctl.opcode = UET_DEFERRABLE_SEND);
	ENC_ETYPE(F_SOM1, som1, h->ctl.opcode = UET_DEFERRABLE_TSEND);
	ENC_ETYPE(F_SOM1, som1, h->ctl.opcode = UET_DEFERRABLE_RTR);
	/* out-of-range fields are reported before the opcode's format */
	ENC_BAD(F_SOM1, som1,
		(h->ctl.opcode = UET_DEFERRABLE_RTR, h->message_id = 0));

	{
		union any_hdr u;

		check_req_opcodes(f, &u, &u.som1.ctl.opcode, op_standard);
	}
}
END_TEST

START_TEST(test_invalid_std_som0)
{
	const struct fmt *f = &fmts[F_SOM0];
	static const uint8_t zero16[2];
	static const uint8_t len_max[2] = { 0x3f, 0xff };
	union any_hdr u;
	uint8_t b[UET_SES_STD_SOM0_LEN];

	check_req_ctl_invalid(f);
	/* vector byte 1 = 0x2a: set som (0x01), set hd (0x04) */
	check_dec_byte(f, 1, 0x2b, UET_WIRE_ERANGE, "som=1");
	check_dec_byte(f, 1, 0x2e, UET_WIRE_ERESERVED, "hd=1");
	check_dec_patch(f, 2, zero16, 2, UET_WIRE_ERANGE, "message_id 0");
	check_dec_byte(f, 32, 0x80, UET_WIRE_ERESERVED, "byte 32");
	check_dec_byte(f, 34, 0x40 | 0x2a, UET_WIRE_ERESERVED,
		       "payload_length bit 14");
	check_dec_byte(f, 34, 0x80 | 0x2a, UET_WIRE_ERESERVED,
		       "payload_length bit 15");
	/* reserved bits are reported before ranges and the opcode */
	memcpy(b, f->vec, sizeof(b));
	b[0] = UET_DEFERRABLE_RTR;
	b[2] = b[3] = 0;
	b[33] = 0x01;
	check_dec_err(f, b, UET_WIRE_ERESERVED, "rsvd + RTR + id 0");
	/* payload_length 16383 is the largest value */
	memcpy(b, f->vec, sizeof(b));
	memcpy(b + 34, len_max, sizeof(len_max));
	ck_assert_int_eq(dec_exact(f, &u, b, sizeof(b)),
			 UET_SES_STD_SOM0_LEN);
	ck_assert_uint_eq(u.som0.payload_length, UET_SES_SMALL_LEN_MAX);
	/* eom = 0 (a middle packet) is valid */
	memcpy(b, f->vec, sizeof(b));
	b[1] = 0x28;
	ck_assert_int_eq(dec_exact(f, &u, b, sizeof(b)),
			 UET_SES_STD_SOM0_LEN);
	ck_assert(!u.som0.ctl.eom && !u.som0.ctl.som);
	/* decode and encode of every opcode: DEFERRABLE_* -> ETYPE */
	check_req_opcodes(f, &u, &u.som0.ctl.opcode, op_standard);
	check_dec_byte(f, 0, UET_DEFERRABLE_SEND, UET_WIRE_ETYPE,
		       "DEFERRABLE_SEND");
	check_dec_byte(f, 0, UET_DEFERRABLE_TSEND, UET_WIRE_ETYPE,
		       "DEFERRABLE_TSEND");
	check_dec_byte(f, 0, UET_DEFERRABLE_RTR, UET_WIRE_ETYPE,
		       "DEFERRABLE_RTR");

	REQ_CTL_ENC_BAD(F_SOM0, som0);
	ENC_BAD(F_SOM0, som0, h->ctl.som = true);
	ENC_BAD(F_SOM0, som0, h->ctl.hd = true);
	ENC_BAD(F_SOM0, som0, h->message_id = 0);
	ENC_BAD(F_SOM0, som0, h->job_id = UET_JOB_ID_MAX + 1);
	ENC_BAD(F_SOM0, som0, h->job_id = 0xffffffff);
	ENC_BAD(F_SOM0, som0, h->pid_on_fep = UET_PID_ON_FEP_MAX + 1);
	ENC_BAD(F_SOM0, som0, h->pid_on_fep = 0xffff);
	ENC_BAD(F_SOM0, som0,
		h->resource_index = UET_RESOURCE_INDEX_MAX + 1);
	ENC_BAD(F_SOM0, som0,
		h->payload_length = UET_SES_SMALL_LEN_MAX + 1);
	ENC_BAD(F_SOM0, som0, h->payload_length = 0xffff);
	ENC_OK(F_SOM0, som0, h->payload_length = UET_SES_SMALL_LEN_MAX);
	ENC_OK(F_SOM0, som0, h->ctl.eom = false);
	ENC_ETYPE(F_SOM0, som0, h->ctl.opcode = UET_DEFERRABLE_SEND);
	ENC_ETYPE(F_SOM0, som0, h->ctl.opcode = UET_DEFERRABLE_TSEND);
	ENC_ETYPE(F_SOM0, som0, h->ctl.opcode = UET_DEFERRABLE_RTR);
	/* out-of-range fields are reported before the opcode's format */
	ENC_BAD(F_SOM0, som0,
		(h->ctl.opcode = UET_DEFERRABLE_SEND, h->ctl.hd = true));
}
END_TEST

START_TEST(test_invalid_small_msg)
{
	const struct fmt *f = &fmts[F_SMALL];

	check_small_ctl_invalid(f);
	check_dec_byte(f, 1, 0x58, UET_WIRE_ERANGE, "som=0");
	check_dec_byte(f, 1, 0x54, UET_WIRE_ERANGE, "eom=0");
	check_dec_byte(f, 1, 0x50, UET_WIRE_ERANGE, "som=eom=0");

	ENC_BAD(F_SMALL, small, h->ctl.opcode = UET_SES_OPCODE_MAX + 1);
	ENC_BAD(F_SMALL, small, h->ctl.version = 1);
	ENC_BAD(F_SMALL, small, h->ctl.som = false);
	ENC_BAD(F_SMALL, small, h->ctl.eom = false);
	ENC_BAD(F_SMALL, small,
		h->request_length = UET_SES_SMALL_LEN_MAX + 1);
	ENC_BAD(F_SMALL, small, h->request_length = 0xffff);
	ENC_BAD(F_SMALL, small, h->job_id = UET_JOB_ID_MAX + 1);
	ENC_BAD(F_SMALL, small, h->pid_on_fep = UET_PID_ON_FEP_MAX + 1);
	ENC_BAD(F_SMALL, small,
		h->resource_index = UET_RESOURCE_INDEX_MAX + 1);

	{
		union any_hdr u;

		check_req_opcodes(f, &u, &u.small.ctl.opcode, op_any);
	}
}
END_TEST

START_TEST(test_invalid_opt_nonmatch)
{
	const struct fmt *f = &fmts[F_ONM];

	check_small_ctl_invalid(f);
	check_dec_byte(f, 1, 0xa8, UET_WIRE_ERANGE, "som=0");
	check_dec_byte(f, 1, 0xa4, UET_WIRE_ERANGE, "eom=0");

	ENC_BAD(F_ONM, onm, h->ctl.opcode = UET_SES_OPCODE_MAX + 1);
	ENC_BAD(F_ONM, onm, h->ctl.version = 1);
	ENC_BAD(F_ONM, onm, h->ctl.som = false);
	ENC_BAD(F_ONM, onm, h->ctl.eom = false);
	ENC_BAD(F_ONM, onm, h->ctl.hd = true);
	ENC_BAD(F_ONM, onm, h->request_length = UET_SES_SMALL_LEN_MAX + 1);
	ENC_BAD(F_ONM, onm, h->job_id = UET_JOB_ID_MAX + 1);
	ENC_BAD(F_ONM, onm, h->pid_on_fep = UET_PID_ON_FEP_MAX + 1);
	ENC_BAD(F_ONM, onm, h->resource_index = UET_RESOURCE_INDEX_MAX + 1);

	{
		union any_hdr u;

		check_req_opcodes(f, &u, &u.onm.ctl.opcode, op_any);
	}
}
END_TEST

/* Response bytes 0-1: opcode (ETYPE) and list/version/rc (ERANGE). */
static void check_rsp_ctl_invalid(const struct fmt *f, uint8_t opcode)
{
	uint8_t b0 = f->vec[0], b1 = f->vec[1];
	unsigned int v;

	for (v = 0; v <= 0x3f; v++) {
		if (v == opcode)
			continue;
		check_dec_byte(f, 0, (uint8_t)((b0 & 0xc0) | v),
			       UET_WIRE_ETYPE, "opcode");
	}
	check_dec_byte(f, 0, (uint8_t)(2 << 6 | opcode), UET_WIRE_ERANGE,
		       "list 2");
	check_dec_byte(f, 0, (uint8_t)(3 << 6 | opcode), UET_WIRE_ERANGE,
		       "list 3");
	for (v = 1; v <= 3; v++)
		check_dec_byte(f, 1, (uint8_t)((b1 & 0x3f) | v << 6),
			       UET_WIRE_ERANGE, "version");
	for (v = UET_RC_MAX + 1; v <= 0x3f; v++)
		check_dec_byte(f, 1, (uint8_t)v, UET_WIRE_ERANGE,
			       "return_code");
}

#define RSP_CTL_ENC_BAD(fi, member, good) do {				\
	union any_hdr u_;						\
									\
	ENC_ETYPE(fi, member, h->ctl.opcode = UET_DEFAULT_RESPONSE);	\
	ENC_ETYPE(fi, member, h->ctl.opcode = UET_NO_RESPONSE);		\
	ENC_ETYPE(fi, member, h->ctl.opcode = (good) == UET_RESPONSE ?	\
		  UET_RESPONSE_W_DATA : UET_RESPONSE);			\
	ENC_ETYPE(fi, member, h->ctl.opcode = 0x3f);			\
	ENC_BAD(fi, member, h->ctl.opcode = 0x40 | (good));		\
	ENC_BAD(fi, member, h->ctl.opcode = 0xff);			\
	/* the opcode's format is checked before the other fields */	\
	ENC_ETYPE(fi, member, (h->ctl.opcode = UET_NO_RESPONSE,	\
			       h->ctl.list = 2));			\
	check_rsp_opcodes_enc(&fmts[fi], &u_, &u_.member.ctl.opcode,	\
			      good);					\
	ENC_BAD(fi, member, h->ctl.list = 2);				\
	ENC_BAD(fi, member, h->ctl.list = 0xff);			\
	ENC_BAD(fi, member, h->ctl.version = 1);			\
	ENC_BAD(fi, member, h->ctl.return_code = UET_RC_MAX + 1);	\
	ENC_BAD(fi, member, h->ctl.return_code = 0x40);			\
} while (0)

START_TEST(test_invalid_rsp)
{
	const struct fmt *f = &fmts[F_RSP];
	static const uint8_t zero16[2];

	check_rsp_ctl_invalid(f, UET_RESPONSE);
	check_dec_patch(f, 2, zero16, 2, UET_WIRE_ERANGE, "message_id 0");

	RSP_CTL_ENC_BAD(F_RSP, rsp, UET_RESPONSE);
	ENC_BAD(F_RSP, rsp, h->message_id = 0);
	ENC_BAD(F_RSP, rsp, h->job_id = UET_JOB_ID_MAX + 1);
}
END_TEST

START_TEST(test_invalid_rsp_data)
{
	const struct fmt *f = &fmts[F_RSPD];
	static const uint8_t zero16[2];
	union any_hdr u;
	uint8_t b[UET_SES_RSP_DATA_LEN];

	check_rsp_ctl_invalid(f, UET_RESPONSE_W_DATA);
	check_dec_patch(f, 8, zero16, 2, UET_WIRE_ERANGE,
			"read_request_message_id 0");
	/* response_message_id 0 is allowed (target allocates none) */
	memcpy(b, f->vec, sizeof(b));
	b[2] = b[3] = 0;
	ck_assert_int_eq(f->dec(&u, b, sizeof(b)), UET_SES_RSP_DATA_LEN);
	ck_assert_uint_eq(u.rspd.response_message_id, 0);

	RSP_CTL_ENC_BAD(F_RSPD, rspd, UET_RESPONSE_W_DATA);
	ENC_BAD(F_RSPD, rspd, h->read_request_message_id = 0);
	ENC_BAD(F_RSPD, rspd, h->job_id = UET_JOB_ID_MAX + 1);
	ENC_BAD(F_RSPD, rspd, h->payload_length = UET_SES_SMALL_LEN_MAX + 1);
	ENC_BAD(F_RSPD, rspd, h->payload_length = 0xffff);
}
END_TEST

START_TEST(test_invalid_opt_rsp_data)
{
	const struct fmt *f = &fmts[F_ORSPD];

	check_rsp_ctl_invalid(f, UET_RESPONSE_W_DATA);

	RSP_CTL_ENC_BAD(F_ORSPD, orspd, UET_RESPONSE_W_DATA);
	ENC_BAD(F_ORSPD, orspd, h->job_id = UET_JOB_ID_MAX + 1);
	ENC_BAD(F_ORSPD, orspd,
		h->payload_length = UET_SES_SMALL_LEN_MAX + 1);
}
END_TEST

START_TEST(test_invalid_atomic_ext)
{
	const struct fmt *f = &fmts[F_AMO];
	union any_hdr u;
	uint8_t b[UET_SES_ATOMIC_EXT_LEN];
	unsigned int v;

	for (v = 0; v <= 0xff; v++) {
		/* ses-formats.md 3.7 lists Table 3-21 in full: 0x00-0x14 */
		ssize_t want = v <= 0x14 ?
			       UET_SES_ATOMIC_EXT_LEN : UET_WIRE_ERANGE;

		memcpy(b, f->vec, sizeof(b));
		b[0] = (uint8_t)v;
		ck_assert_msg(f->dec(&u, b, sizeof(b)) == want,
			      "atomic_opcode 0x%x", v);
		u = *f->ref;
		u.amo.atomic_opcode = (uint8_t)v;
		if (want < 0)
			check_enc_err(f, &u, UET_WIRE_ERANGE, "atomic_opcode");
		else
			ck_assert_int_eq(f->enc(b, sizeof(b), &u), want);
	}
	for (v = 0; v <= 0xff; v++) {
		/* UE+ has no code for the 128-bit integers (0x10, 0x11
		 * are host values of UE 1.0.1's) */
		ssize_t want = v <= UET_AMO_DTYPE_MAX && uet_amo_dtype_size(v) ?
			       UET_SES_ATOMIC_EXT_LEN : UET_WIRE_ERANGE;

		memcpy(b, f->vec, sizeof(b));
		b[1] = (uint8_t)v;
		ck_assert_msg(f->dec(&u, b, sizeof(b)) == want,
			      "atomic_datatype 0x%x", v);
		u = *f->ref;
		u.amo.atomic_datatype = (uint8_t)v;
		if (want < 0)
			check_enc_err(f, &u, UET_WIRE_ERANGE, "datatype");
		else
			ck_assert_int_eq(f->enc(b, sizeof(b), &u), want);
	}
	/* spot checks independent of the helper above */
	for (v = 0x0d; v <= 0x14; v++) {	/* CSWAP .. MSWAP, INVAL */
		memcpy(b, f->vec, sizeof(b));
		b[0] = (uint8_t)v;
		ck_assert_int_eq(f->dec(&u, b, sizeof(b)), 8);
		ck_assert_uint_eq(u.amo.atomic_opcode, v);
	}
	check_dec_byte(f, 0, 0x15, UET_WIRE_ERANGE, "op 0x15");
	check_dec_byte(f, 1, 0x0c, UET_WIRE_ERANGE, "dtype 0x0c");
	check_dec_byte(f, 1, 0x0d, UET_WIRE_ERANGE, "dtype 0x0d");
	check_dec_byte(f, 1, 0x10, UET_WIRE_ERANGE, "dtype 0x10");
	ENC_BAD(F_AMO, amo, h->atomic_opcode = 0x15);
	ENC_BAD(F_AMO, amo, h->atomic_datatype = 0x0d);
}
END_TEST

START_TEST(test_invalid_cas_ext)
{
	const struct fmt *f = &fmts[F_CAS];
	union any_hdr u;
	uint8_t b[UET_SES_CAS_EXT_LEN];
	unsigned int v, ok = 0;

	for (v = 0; v <= 0xff; v++) {
		ssize_t want = amo_op_is_cas(v) ? UET_SES_CAS_EXT_LEN :
						  UET_WIRE_ERANGE;

		memcpy(b, f->vec, sizeof(b));
		b[0] = (uint8_t)v;
		ck_assert_msg(f->dec(&u, b, sizeof(b)) == want,
			      "atomic_opcode 0x%x", v);
		ok += want > 0;
		u = *f->ref;
		u.cas.atomic_opcode = (uint8_t)v;
		if (want < 0)
			check_enc_err(f, &u, UET_WIRE_ERANGE, "atomic_opcode");
		else
			ck_assert_int_eq(f->enc(b, sizeof(b), &u), want);
	}
	ck_assert_uint_eq(ok, 7);	/* CSWAP, 5 CSWAP_xx, MSWAP */
	check_dec_byte(f, 0, UET_AMO_SUM, UET_WIRE_ERANGE, "SUM");
	check_dec_byte(f, 0, UET_AMO_INVAL, UET_WIRE_ERANGE, "INVAL");
	check_dec_byte(f, 1, 0x0c, UET_WIRE_ERANGE, "dtype 0x0c");
	check_dec_byte(f, 1, 0xff, UET_WIRE_ERANGE, "dtype 0xff");
	ENC_BAD(F_CAS, cas, h->atomic_opcode = UET_AMO_WRITE);
	ENC_BAD(F_CAS, cas, h->atomic_opcode = UET_AMO_INVAL);
	ENC_BAD(F_CAS, cas, h->atomic_datatype = 0x0c);
	ENC_BAD(F_CAS, cas, h->atomic_datatype = 0x10);
}
END_TEST

START_TEST(test_invalid_rdzv_ext)
{
	/* every host value fits; all-ones fields are valid */
	const struct fmt *f = &fmts[F_RDZV];
	union any_hdr u = { .rdzv = {
		.eager_length = 0xffffffff, .memory_key = UINT64_MAX,
		.buffer_offset = UINT64_MAX, .remaining_length = 0xffffffff,
	} }, out;
	uint8_t b[UET_SES_RDZV_EXT_LEN];
	size_t i;

	ck_assert_int_eq(f->enc(b, sizeof(b), &u), UET_SES_RDZV_EXT_LEN);
	for (i = 0; i < 24; i++)
		ck_assert_uint_eq(b[i], 0xff);
	for (; i < sizeof(b); i++)
		ck_assert_uint_eq(b[i], 0);
	ck_assert_int_eq(f->dec(&out, b, sizeof(b)), UET_SES_RDZV_EXT_LEN);
	f->eq("rdzv all-ones", &out, &u);
}
END_TEST

START_TEST(test_invalid_defer_send)
{
	const struct fmt *f = &fmts[F_DEFER];
	static const uint8_t zero16[2];
	unsigned int op;

	check_req_ctl_invalid(f);
	check_dec_byte(f, 1, 0x04, UET_WIRE_ERANGE, "som=0");
	check_dec_patch(f, 2, zero16, 2, UET_WIRE_ERANGE, "message_id 0");
	for (op = 0; op <= UET_SES_OPCODE_MAX; op++) {
		if (op == UET_DEFERRABLE_SEND || op == UET_DEFERRABLE_TSEND)
			continue;
		check_dec_byte(f, 0, (uint8_t)op, UET_WIRE_ETYPE, "opcode");
	}

	REQ_CTL_ENC_BAD(F_DEFER, defer);
	ENC_ETYPE(F_DEFER, defer, h->ctl.opcode = UET_SEND);
	ENC_ETYPE(F_DEFER, defer, h->ctl.opcode = UET_TAGGED_SEND);
	ENC_ETYPE(F_DEFER, defer, h->ctl.opcode = UET_DEFERRABLE_RTR);
	ENC_OK(F_DEFER, defer, h->ctl.opcode = UET_DEFERRABLE_SEND);
	ENC_BAD(F_DEFER, defer, h->ctl.som = false);
	ENC_BAD(F_DEFER, defer, h->message_id = 0);
	ENC_BAD(F_DEFER, defer, h->job_id = UET_JOB_ID_MAX + 1);
	ENC_BAD(F_DEFER, defer, h->pid_on_fep = UET_PID_ON_FEP_MAX + 1);
	ENC_BAD(F_DEFER, defer,
		h->resource_index = UET_RESOURCE_INDEX_MAX + 1);

	{
		union any_hdr u;

		check_req_opcodes(f, &u, &u.defer.ctl.opcode, op_defer);
	}
}
END_TEST

START_TEST(test_invalid_rtr)
{
	const struct fmt *f = &fmts[F_RTR];
	static const uint8_t zero16[2];
	/* 2^32 - 1, 2^32 and 2^64 - 1 are above the 2^32 - 2 limit */
	static const uint8_t off_ffffffff[8] = { 0, 0, 0, 0,
						 0xff, 0xff, 0xff, 0xff };
	static const uint8_t off_2p32[8] = { 0, 0, 0, 1, 0, 0, 0, 0 };
	static const uint8_t off_max[8] = { 0xff, 0xff, 0xff, 0xff,
					    0xff, 0xff, 0xff, 0xff };
	unsigned int op;

	check_req_ctl_invalid(f);
	check_dec_byte(f, 1, 0x02, UET_WIRE_ERANGE, "som=0");
	check_dec_patch(f, 2, zero16, 2, UET_WIRE_ERANGE, "message_id 0");
	check_dec_patch(f, 12, off_ffffffff, 8, UET_WIRE_ERANGE,
			"buffer_offset 2^32-1");
	check_dec_patch(f, 12, off_2p32, 8, UET_WIRE_ERANGE,
			"buffer_offset 2^32");
	check_dec_patch(f, 12, off_max, 8, UET_WIRE_ERANGE,
			"buffer_offset 2^64-1");
	for (op = 0; op <= UET_SES_OPCODE_MAX; op++) {
		if (op == UET_DEFERRABLE_RTR)
			continue;
		check_dec_byte(f, 0, (uint8_t)op, UET_WIRE_ETYPE, "opcode");
	}

	REQ_CTL_ENC_BAD(F_RTR, rtr);
	ENC_ETYPE(F_RTR, rtr, h->ctl.opcode = UET_DEFERRABLE_SEND);
	ENC_ETYPE(F_RTR, rtr, h->ctl.opcode = UET_WRITE);
	ENC_BAD(F_RTR, rtr, h->ctl.som = false);
	ENC_BAD(F_RTR, rtr, h->message_id = 0);
	ENC_BAD(F_RTR, rtr, h->buffer_offset = 0xffffffffull);
	ENC_BAD(F_RTR, rtr, h->buffer_offset = UINT64_MAX);
	ENC_BAD(F_RTR, rtr, h->job_id = UET_JOB_ID_MAX + 1);
	ENC_BAD(F_RTR, rtr, h->pid_on_fep = UET_PID_ON_FEP_MAX + 1);
	ENC_BAD(F_RTR, rtr, h->resource_index = UET_RESOURCE_INDEX_MAX + 1);

	{
		union any_hdr u;

		check_req_opcodes(f, &u, &u.rtr.ctl.opcode, op_rtr);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* Format dispatcher                                                   */
/* ------------------------------------------------------------------ */

/* Classify two bytes from an exact-size heap buffer. */
static int classify(unsigned int next_hdr, uint8_t b0, uint8_t b1)
{
	uint8_t *p = malloc(2);
	int ret;

	ck_assert_ptr_nonnull(p);
	p[0] = b0;
	p[1] = b1;
	ret = uet_ses_request_format(UET_WIRE_UEPLUS, next_hdr, p, 2);
	free(p);
	return ret;
}

START_TEST(test_dispatch_short)
{
	static const uint8_t b[2] = { UET_WRITE, 0x01 };

	ck_assert_int_eq(uet_ses_request_format(UET_WIRE_UEPLUS, UET_HDR_REQUEST_STD, b, 0),
			 UET_WIRE_ETRUNC);
	ck_assert_int_eq(uet_ses_request_format(UET_WIRE_UEPLUS, UET_HDR_REQUEST_STD, b, 1),
			 UET_WIRE_ETRUNC);
	ck_assert_int_eq(uet_ses_request_format(UET_WIRE_UEPLUS, UET_HDR_REQUEST_STD, b, 2),
			 UET_SES_FMT_STD_SOM1);
}
END_TEST

START_TEST(test_dispatch_requests)
{
	unsigned int op, som, b1;

	for (op = 0; op <= 0x3f; op++) {
		for (som = 0; som <= 1; som++) {
			int std, want;

			b1 = som ? 0x03 : 0x02;
			if (op > UET_SES_OPCODE_MAX)
				want = UET_WIRE_ETYPE;
			else if (!som)
				want = UET_SES_FMT_STD_SOM0;
			else if (op == UET_DEFERRABLE_SEND ||
				 op == UET_DEFERRABLE_TSEND)
				want = UET_SES_FMT_DEFER_SEND;
			else if (op == UET_DEFERRABLE_RTR)
				want = UET_SES_FMT_RTR;
			else
				want = UET_SES_FMT_STD_SOM1;
			std = classify(UET_HDR_REQUEST_STD, (uint8_t)op,
				       (uint8_t)b1);
			ck_assert_msg(std == want, "STD op 0x%x som %u: %d",
				      op, som, std);
			/* the small layouts: opcode in byte 0 bits 7:2 */
			ck_assert_int_eq(classify(UET_HDR_REQUEST_MEDIUM,
						  (uint8_t)(op << 2),
						  (uint8_t)b1),
					 op > UET_SES_OPCODE_MAX ?
					 UET_WIRE_ETYPE :
					 UET_SES_FMT_SMALL_MSG);
			ck_assert_int_eq(classify(UET_HDR_REQUEST_SMALL,
						  (uint8_t)(op << 2),
						  (uint8_t)b1),
					 op > UET_SES_OPCODE_MAX ?
					 UET_WIRE_ETYPE :
					 UET_SES_FMT_OPT_NONMATCH);
		}
	}
	/* reserved bits of byte 0 are left to the decoder */
	ck_assert_int_eq(classify(UET_HDR_REQUEST_STD, 0xc0 | UET_SEND, 1),
			 UET_SES_FMT_STD_SOM1);
}
END_TEST

START_TEST(test_dispatch_responses)
{
	unsigned int op, list;

	for (list = 0; list <= 3; list++) {
		for (op = 0; op <= 0x3f; op++) {
			uint8_t b0 = (uint8_t)(list << 6 | op);
			int want;

			if (op == UET_RESPONSE)
				want = UET_SES_FMT_RSP;
			else if (op == UET_DEFAULT_RESPONSE ||
				 op == UET_NO_RESPONSE)
				want = UET_SES_FMT_DEFAULT_RSP;
			else
				want = UET_WIRE_ETYPE;
			ck_assert_int_eq(classify(UET_HDR_RESPONSE, b0, 1),
					 want);
			want = op == UET_RESPONSE_W_DATA ?
			       UET_SES_FMT_RSP_DATA : UET_WIRE_ETYPE;
			ck_assert_int_eq(classify(UET_HDR_RESPONSE_DATA, b0,
						  1), want);
			want = op == UET_RESPONSE_W_DATA ?
			       UET_SES_FMT_OPT_RSP_DATA : UET_WIRE_ETYPE;
			ck_assert_int_eq(classify(UET_HDR_RESPONSE_DATA_SMALL,
						  b0, 1), want);
		}
	}
}
END_TEST

START_TEST(test_dispatch_bad_next_hdr)
{
	unsigned int nh;

	ck_assert_int_eq(classify(UET_HDR_NONE, UET_SEND, 3),
			 UET_WIRE_ETYPE);
	for (nh = UET_HDR_MAX + 1; nh <= 0xf; nh++)
		ck_assert_int_eq(classify(nh, UET_SEND, 3), UET_WIRE_ETYPE);
	ck_assert_int_eq(classify(0x100 | UET_HDR_REQUEST_STD, UET_SEND, 3),
			 UET_WIRE_ETYPE);
}
END_TEST

/* Every encoded header classifies as its own format. */
START_TEST(test_dispatch_encoded)
{
	uint8_t b[MAX_LEN];
	union any_hdr h;
	size_t fi;
	int n;

	for (fi = 0; fi < ARRAY_LEN(fmts); fi++) {
		const struct fmt *f = &fmts[fi];

		if (!f->ses_fmt)
			continue;	/* extensions are not classified */
		ck_assert_int_eq(uet_ses_request_format(UET_WIRE_UEPLUS, f->next_hdr, f->vec,
							f->len), f->ses_fmt);
		ck_assert_uint_eq(uet_ses_format_len(UET_WIRE_UEPLUS, f->ses_fmt), f->len);
		for (n = 0; n < 200; n++) {
			memset(&h, 0, sizeof(h));
			f->rand(&h);
			ck_assert_int_eq(f->enc(b, f->len, &h), f->len);
			ck_assert_int_eq(uet_ses_request_format(UET_WIRE_UEPLUS, f->next_hdr,
								b, f->len),
					 f->ses_fmt);
		}
	}
	/* pds-formats.md 3.13: "Default SES Response (8 bytes)" */
	ck_assert_uint_eq(uet_ses_format_len(UET_WIRE_UEPLUS, UET_SES_FMT_DEFAULT_RSP), 8);
}
END_TEST

/*
 * Every format's length as printed in its ses-formats.md heading
 * (pds-formats.md for the Default SES Response), literal numbers:
 * SOM=0 is 44, not Table 3-9's 16 (conformance.md C-16).
 */
START_TEST(test_format_len_literal)
{
	static const struct {
		unsigned int fmt;
		size_t len;
	} want[] = {
		{ UET_SES_FMT_STD_SOM1, 44 },		/* 3.1 Table 3-8 */
		{ UET_SES_FMT_STD_SOM0, 44 },		/* 3.2, C-16 */
		{ UET_SES_FMT_SMALL_MSG, 32 },		/* 3.5 Figure 3-14 */
		{ UET_SES_FMT_OPT_NONMATCH, 32 },	/* 3.11 Table 3-10 */
		{ UET_SES_FMT_DEFER_SEND, 44 },		/* 3.9 Figure 3-11 */
		{ UET_SES_FMT_RTR, 44 },		/* 3.10 Figure 3-12 */
		{ UET_SES_FMT_RSP, 16 },		/* 3.3 Table 3-11 */
		{ UET_SES_FMT_RSP_DATA, 24 },		/* 3.4 Table 3-12 */
		{ UET_SES_FMT_OPT_RSP_DATA, 16 },	/* 3.12 Table 3-13 */
		{ UET_SES_FMT_DEFAULT_RSP, 8 },		/* pds 3.13 */
	};
	size_t i;

	for (i = 0; i < ARRAY_LEN(want); i++)
		ck_assert_msg(uet_ses_format_len(UET_WIRE_UEPLUS, want[i].fmt) == want[i].len,
			      "%s: %zu, want %zu",
			      uet_ses_format_str(want[i].fmt),
			      uet_ses_format_len(UET_WIRE_UEPLUS, want[i].fmt), want[i].len);
	ck_assert_uint_eq(ARRAY_LEN(want), UET_SES_FMT_MAX);
}
END_TEST

/*
 * REQUEST_STD: the som bit alone tells SOM=1 from SOM=0, and both are
 * 44 bytes.  Flipping som in either known vector switches the format.
 */
START_TEST(test_dispatch_som_bit)
{
	uint8_t b[MAX_LEN];

	ck_assert_uint_eq(uet_ses_format_len(UET_WIRE_UEPLUS, UET_SES_FMT_STD_SOM0), 44);
	ck_assert_uint_eq(uet_ses_format_len(UET_WIRE_UEPLUS, UET_SES_FMT_STD_SOM1), 44);
	ck_assert_str_eq(uet_ses_format_str(UET_SES_FMT_STD_SOM0),
			 "STD_SOM0");

	ck_assert_int_eq(uet_ses_request_format(UET_WIRE_UEPLUS, UET_HDR_REQUEST_STD,
						som0_vec, 2),
			 UET_SES_FMT_STD_SOM0);
	ck_assert_int_eq(uet_ses_request_format(UET_WIRE_UEPLUS, UET_HDR_REQUEST_STD,
						som0_vec_b, 2),
			 UET_SES_FMT_STD_SOM0);
	memcpy(b, som0_vec, UET_SES_STD_SOM0_LEN);
	b[1] |= 0x01;
	ck_assert_int_eq(uet_ses_request_format(UET_WIRE_UEPLUS, UET_HDR_REQUEST_STD, b, 2),
			 UET_SES_FMT_STD_SOM1);

	ck_assert_int_eq(uet_ses_request_format(UET_WIRE_UEPLUS, UET_HDR_REQUEST_STD,
						som1_vec_b, 2),
			 UET_SES_FMT_STD_SOM1);
	memcpy(b, som1_vec_b, UET_SES_STD_SOM1_LEN);
	b[1] &= (uint8_t)~0x01;
	ck_assert_int_eq(uet_ses_request_format(UET_WIRE_UEPLUS, UET_HDR_REQUEST_STD, b, 2),
			 UET_SES_FMT_STD_SOM0);
	/* deferrable opcodes with som = 0 are still SOM=0 by the som bit;
	 * its decoder then rejects the opcode (ETYPE) */
	ck_assert_int_eq(classify(UET_HDR_REQUEST_STD, UET_DEFERRABLE_SEND,
				  0x02), UET_SES_FMT_STD_SOM0);
	ck_assert_int_eq(classify(UET_HDR_REQUEST_STD, UET_DEFERRABLE_RTR,
				  0x00), UET_SES_FMT_STD_SOM0);
}
END_TEST

START_TEST(test_format_names)
{
	ck_assert_str_eq(uet_ses_format_str(UET_SES_FMT_STD_SOM1),
			 "STD_SOM1");
	ck_assert_str_eq(uet_ses_format_str(UET_SES_FMT_RTR), "RTR");
	ck_assert_str_eq(uet_ses_format_str(UET_SES_FMT_DEFAULT_RSP),
			 "DEFAULT_RSP");
	ck_assert_str_eq(uet_ses_format_str(0), "UNKNOWN");
	ck_assert_str_eq(uet_ses_format_str(UET_SES_FMT_MAX + 1), "UNKNOWN");
	ck_assert_uint_eq(uet_ses_format_len(UET_WIRE_UEPLUS, 0), 0);
	ck_assert_uint_eq(uet_ses_format_len(UET_WIRE_UEPLUS, UET_SES_FMT_MAX + 1), 0);
	ck_assert_uint_eq(uet_ses_format_len(UET_WIRE_UEPLUS, UET_SES_FMT_STD_SOM0), 44);
}
END_TEST

/*
 * The walk-through's success response (congestion-and-packet-flow.md,
 * "Target - SES Response, PDS Ack Response and Packet Transmission"):
 * the PDS ACK that carries the SES Response of the first UET_WRITE
 * fragment, as the 28 header bytes after UDP.
 *
 * PDS ACK, pds-formats.md 3.6 (Table 3-35), 12 B:
 *   0-1   type PDS_ACK 7, next_hdr UET_HDR_RESPONSE 4 (C-2), flags 0:
 *         7 << 11 | 4 << 7 = 0x3800 + 0x0200 = 0x3a00   -> 3a 00
 *   2-3   ack_psn_offset 0 (PSN 0x12000 = cack_psn + 0)  -> 00 00
 *   4-7   cack_psn 0x12000                               -> 00 01 20 00
 *   8-9   spdcid = target's initial PDCID 0x8001         -> 80 01
 *   10-11 dpdcid = the request's spdcid 0x4001           -> 40 01
 * SES Response, ses-formats.md 3.3 (Table 3-11 field table), 16 B:
 *   0     list UET_EXPECTED 0 << 6 | opcode 0x01         -> 01
 *         (the walk-through names UET_DEFAULT_RESPONSE; a response that
 *         carries modified_length is UET_RESPONSE, conformance.md C-4)
 *   1     version 0 << 6 | return_code RC_OK 0x01 (C-5)  -> 01
 *   2-3   message_id 1                                   -> 00 01
 *   4     ri_generation 0x001                            -> 01
 *   5-7   JobID 101 = 0x000065                           -> 00 00 65
 *   8-11  modified_length 16384 = 0x00004000             -> 00 00 40 00
 *   12-15 reserved                                       -> 00 00 00 00
 */
START_TEST(test_walkthrough_success_response)
{
	static const uint8_t want[28] = {
		0x3a, 0x00, 0x00, 0x00, 0x00, 0x01, 0x20, 0x00,
		0x80, 0x01, 0x40, 0x01,
		0x01, 0x01, 0x00, 0x01, 0x01, 0x00, 0x00, 0x65,
		0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	const struct uet_pds_ack ack = {
		.next_hdr = UET_HDR_RESPONSE, .ack_psn_offset = 0,
		.cack_psn = 0x12000, .spdcid = 0x8001, .dpdcid = 0x4001,
	};
	const struct uet_ses_rsp rsp = {
		.ctl = { .list = UET_LIST_EXPECTED, .opcode = UET_RESPONSE,
			 .return_code = UET_RC_OK },
		.message_id = 1, .ri_generation = 0x001, .job_id = 101,
		.modified_length = 16384,
	};
	struct uet_pds_ack ack2;
	struct uet_ses_rsp rsp2;
	uint8_t b[28];
	size_t i;

	memset(b, POISON, sizeof(b));
	ck_assert_int_eq(uet_pds_ack_encode(UET_WIRE_UEPLUS, b, sizeof(b), &ack), 12);
	ck_assert_int_eq(uet_ses_rsp_encode(UET_WIRE_UEPLUS, b + 12, sizeof(b) - 12, &rsp),
			 16);
	for (i = 0; i < sizeof(b); i++)
		ck_assert_msg(b[i] == want[i], "byte %zu = 0x%02x, want 0x%02x",
			      i, b[i], want[i]);
	ck_assert_int_eq(uet_pds_ack_decode(UET_WIRE_UEPLUS, &ack2, want, sizeof(want)), 12);
	ck_assert_uint_eq(ack2.next_hdr, 4);
	ck_assert_uint_eq(ack2.cack_psn, 0x12000);
	ck_assert_uint_eq(ack2.spdcid, 0x8001);
	ck_assert_uint_eq(ack2.dpdcid, 0x4001);
	ck_assert_int_eq(uet_ses_request_format(UET_WIRE_UEPLUS, ack2.next_hdr, want + 12,
						16), UET_SES_FMT_RSP);
	ck_assert_int_eq(uet_ses_rsp_decode(UET_WIRE_UEPLUS, &rsp2, want + 12, 16), 16);
	ck_assert_uint_eq(rsp2.ctl.list, 0);
	ck_assert_uint_eq(rsp2.ctl.opcode, 0x01);
	ck_assert_uint_eq(rsp2.ctl.return_code, 0x01);
	ck_assert_uint_eq(rsp2.message_id, 1);
	ck_assert_uint_eq(rsp2.ri_generation, 1);
	ck_assert_uint_eq(rsp2.job_id, 101);
	ck_assert_uint_eq(rsp2.modified_length, 16384);
}
END_TEST

/* Opcode and datatype of an atomic extension, valid or not (the target
 * answers unknown ones with their return codes); a datatype code the
 * profile does not define reads as UET_AMO_DTYPE_UNKNOWN. */
START_TEST(test_amo_ext_peek)
{
	const uint8_t ext[4] = { 0xfe, 0x7f, 0x00, 0x00 };
	uint8_t op = 1, dt = 2;

	ck_assert_int_eq(uet_ses_amo_ext_peek(UET_WIRE_UEPLUS, ext,
					      sizeof(ext), &op, &dt), 0);
	ck_assert_uint_eq(op, 0xfe);
	ck_assert_uint_eq(dt, UET_AMO_DTYPE_UNKNOWN);
	op = 1;
	dt = 2;
	ck_assert_int_eq(uet_ses_amo_ext_peek(UET_WIRE_UEPLUS, ext, 1, &op,
					      &dt), UET_WIRE_ETRUNC);
	ck_assert_int_eq(uet_ses_amo_ext_peek(UET_WIRE_UEPLUS, NULL, 4, &op,
					      &dt), UET_WIRE_ETRUNC);
	ck_assert_uint_eq(op, 1);
	ck_assert_uint_eq(dt, 2);
}
END_TEST

static Suite *ses_wire_suite(void)
{
	Suite *s = suite_create("ses_wire");
	TCase *tc = tcase_create("generic");
	TCase *inv = tcase_create("invalid");
	TCase *disp = tcase_create("dispatch");

	tcase_add_loop_test(tc, test_known_vector, 0, F_COUNT);
	tcase_add_test(tc, test_known_vector_som1_b);
	tcase_add_test(tc, test_known_vector_som0_b);
	tcase_add_test(tc, test_amo_ext_peek);
	tcase_add_loop_test(tc, test_roundtrip, 0, F_COUNT);
	tcase_add_loop_test(tc, test_truncated, 0, F_COUNT);
	tcase_add_loop_test(tc, test_reserved_bits, 0, F_COUNT);
	tcase_add_loop_test(tc, test_enobufs, 0, F_COUNT);
	tcase_add_loop_test(tc, test_canonical, 0, F_COUNT);
	suite_add_tcase(s, tc);

	tcase_add_test(inv, test_invalid_std_som1);
	tcase_add_test(inv, test_invalid_std_som0);
	tcase_add_test(inv, test_invalid_small_msg);
	tcase_add_test(inv, test_invalid_opt_nonmatch);
	tcase_add_test(inv, test_invalid_rsp);
	tcase_add_test(inv, test_invalid_rsp_data);
	tcase_add_test(inv, test_invalid_opt_rsp_data);
	tcase_add_test(inv, test_invalid_atomic_ext);
	tcase_add_test(inv, test_invalid_cas_ext);
	tcase_add_test(inv, test_invalid_rdzv_ext);
	tcase_add_test(inv, test_invalid_defer_send);
	tcase_add_test(inv, test_invalid_rtr);
	suite_add_tcase(s, inv);

	tcase_add_test(disp, test_dispatch_short);
	tcase_add_test(disp, test_dispatch_requests);
	tcase_add_test(disp, test_dispatch_responses);
	tcase_add_test(disp, test_dispatch_bad_next_hdr);
	tcase_add_test(disp, test_dispatch_encoded);
	tcase_add_test(disp, test_dispatch_som_bit);
	tcase_add_test(disp, test_format_names);
	tcase_add_test(disp, test_format_len_literal);
	tcase_add_test(disp, test_walkthrough_success_response);
	suite_add_tcase(s, disp);
	return s;
}

UET_TEST_MAIN(ses_wire_suite)
