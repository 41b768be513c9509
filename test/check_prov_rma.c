/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The provider's RMA and atomics, driven in-process through the fid ops
 * tables (no dlopen): two RDM endpoints on 127.0.0.1, each on its own
 * domain (its own software NIC and UDP socket); one test adds four
 * forked initiator processes.
 *
 * The "objects" case needs no RMA from the NIC (discovery of valid
 * atomics, MR keys and bindings, argument checks); the "data" case moves
 * bytes and checks them against the target memory and against reference
 * results computed here, independently of the NIC's atomic engine.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rdma/fi_errno.h>

#include "uet_clock.h"
#include "uet_prov.h"
#include "uet_test.h"
#include "prov_test.h"
#include "uet_wire_consts.h"

#define API		FI_VERSION(1, 17)
#define WAIT_MS		20000
#define RMA_CAPS	(FI_MSG | FI_RMA | FI_ATOMIC | FI_RMA_EVENT)
#define MR_V1_BASIC	1	/* FI_MR_BASIC: FI_MR_PROV_KEY|VIRT_ADDR */
#define AMO_MAX		512	/* the software NIC's UET_SES_AMO_MAX */

struct side {
	struct fid_domain *dom;
	struct fid_ep *ep;
	struct fid_cq *cq;
	struct fid_av *av;
	struct fid_cntr *wc, *rc;	/* FI_WRITE, FI_READ */
	struct fid_cntr *rwc, *rrc;	/* FI_REMOTE_WRITE, FI_REMOTE_READ */
	fi_addr_t peer;
};

struct pair {
	struct fi_info *info;
	struct fid_fabric *fab;
	struct side s[2];
	bool virt;			/* FI_MR_VIRT_ADDR */
};

static void cntr_open(struct fid_domain *dom, struct fid_cntr **c)
{
	struct fi_cntr_attr ca = { .events = FI_CNTR_EVENTS_COMP,
				   .wait_obj = FI_WAIT_UNSPEC };

	ck_assert_int_eq(fi_cntr_open(dom, &ca, c, NULL), 0);
}

static void side_open(struct pair *p, int i)
{
	struct side *s = &p->s[i];
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_TAGGED,
				  .wait_obj = FI_WAIT_FD };
	struct fi_av_attr ava = { .type = FI_AV_TABLE };

	ck_assert_int_eq(fi_domain(p->fab, p->info, &s->dom, NULL), 0);
	ck_assert_int_eq(fi_cq_open(s->dom, &cqa, &s->cq, NULL), 0);
	ck_assert_int_eq(fi_av_open(s->dom, &ava, &s->av, NULL), 0);
	cntr_open(s->dom, &s->wc);
	cntr_open(s->dom, &s->rc);
	cntr_open(s->dom, &s->rwc);
	cntr_open(s->dom, &s->rrc);
	ck_assert_int_eq(fi_endpoint(s->dom, p->info, &s->ep, NULL), 0);
	ck_assert_int_eq(fi_ep_bind(s->ep, &s->cq->fid,
				    FI_TRANSMIT | FI_RECV), 0);
	ck_assert_int_eq(fi_ep_bind(s->ep, &s->av->fid, 0), 0);
	ck_assert_int_eq(fi_ep_bind(s->ep, &s->wc->fid, FI_WRITE), 0);
	ck_assert_int_eq(fi_ep_bind(s->ep, &s->rc->fid, FI_READ), 0);
	ck_assert_int_eq(fi_ep_bind(s->ep, &s->rwc->fid, FI_REMOTE_WRITE), 0);
	ck_assert_int_eq(fi_ep_bind(s->ep, &s->rrc->fid, FI_REMOTE_READ), 0);
	/* a slot is bound once */
	ck_assert_int_eq(fi_ep_bind(s->ep, &s->rc->fid, FI_WRITE), -FI_EBUSY);
	ck_assert_int_eq(fi_enable(s->ep), 0);
}

static void pair_open_caps(struct pair *p, uint64_t caps, int mr_mode)
{
	int i;

	memset(p, 0, sizeof(*p));
	p->info = uet_test_info(API, &(struct uet_test_hints){
		.caps = caps, .mr_mode = mr_mode });
	/* uet requires no mr_mode bit: fi_getinfo clears those offered
	 * (the v1.0 FI_MR_BASIC comes back as asked) */
	ck_assert_int_eq(p->info->domain_attr->mr_mode,
			 mr_mode == MR_V1_BASIC ? MR_V1_BASIC : 0);
	/* an application that wants provider keys / virtual addresses
	 * sets them in the info it passes to fi_domain */
	p->info->domain_attr->mr_mode = mr_mode;
	p->virt = uet_mr_mode_bits(mr_mode) & FI_MR_VIRT_ADDR;
	ck_assert_int_eq(uet_fabric(p->info->fabric_attr, &p->fab, NULL), 0);
	for (i = 0; i < 2; i++)
		side_open(p, i);
	uet_test_pair_connect((struct fid_ep *[2]){ p->s[0].ep, p->s[1].ep },
			      (struct fid_av *[2]){ p->s[0].av, p->s[1].av },
			      (fi_addr_t *[2]){ &p->s[0].peer,
						&p->s[1].peer });
}

static void pair_open(struct pair *p, int mr_mode)
{
	pair_open_caps(p, RMA_CAPS, mr_mode);
}

static void pair_close(struct pair *p)
{
	int i;

	for (i = 0; i < 2; i++) {
		struct side *s = &p->s[i];

		ck_assert_int_eq(fi_close(&s->ep->fid), 0);
		ck_assert_int_eq(fi_close(&s->av->fid), 0);
		ck_assert_int_eq(fi_close(&s->cq->fid), 0);
		ck_assert_int_eq(fi_close(&s->wc->fid), 0);
		ck_assert_int_eq(fi_close(&s->rc->fid), 0);
		ck_assert_int_eq(fi_close(&s->rwc->fid), 0);
		ck_assert_int_eq(fi_close(&s->rrc->fid), 0);
		ck_assert_int_eq(fi_close(&s->dom->fid), 0);
	}
	ck_assert_int_eq(fi_close(&p->fab->fid), 0);
	fi_freeinfo(p->info);
}

/* One completion of side i, progressing both sides: 1, -FI_EAVAIL (err
 * filled) or -FI_EAGAIN at timeout. */
static int wait_comp(struct pair *p, int i, struct fi_cq_tagged_entry *e,
		     fi_addr_t *src, struct fi_cq_err_entry *err)
{
	return uet_test_cq_wait(p->s[i].cq, p->s[1 - i].cq, WAIT_MS, e, src,
				err);
}

/* Wait for a successful completion of side 0 with these flags. */
static void wait_ok(struct pair *p, void *ctx, uint64_t flags)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	int ret;

	ret = wait_comp(p, 0, &e, NULL, &err);
	if (ret == -FI_EAVAIL)
		ck_abort_msg("error completion: %s (%d), prov_errno %d",
			     fi_strerror(err.err), err.err, err.prov_errno);
	ck_assert_int_eq(ret, 1);
	ck_assert_ptr_eq(e.op_context, ctx);
	ck_assert_uint_eq(e.flags, flags);
}

/* Wait for an error completion of side 0; returns it. */
static struct fi_cq_err_entry wait_err(struct pair *p, void *ctx)
{
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;

	ck_assert_int_eq(wait_comp(p, 0, &e, NULL, &err), -FI_EAVAIL);
	ck_assert_ptr_eq(err.op_context, ctx);
	return err;
}

/* Counter c reaches at least n while both sides progress. */
static void wait_cntr(struct pair *p, struct fid_cntr *c, uint64_t n)
{
	uint64_t end = uet_clock_now_ns() + WAIT_MS * UET_NSEC_PER_MSEC;

	while (fi_cntr_read(c) < n && uet_clock_now_ns() < end) {
		fi_cq_read(p->s[0].cq, NULL, 0);
		fi_cq_read(p->s[1].cq, NULL, 0);
	}
	ck_assert_uint_eq(fi_cntr_read(c), n);
}

/* Progress both sides for a while (lets late events show up). */
static void settle(struct pair *p, int ms)
{
	uint64_t end = uet_clock_now_ns() + (uint64_t)ms * UET_NSEC_PER_MSEC;

	while (uet_clock_now_ns() < end) {
		fi_cntr_read(p->s[0].wc);
		fi_cntr_read(p->s[1].rwc);
	}
}

static struct fid_mr *reg(struct pair *p, int i, void *buf, size_t len,
			  uint64_t access, uint64_t key)
{
	struct fid_mr *mr = NULL;

	ck_assert_int_eq(fi_mr_reg(p->s[i].dom, buf, len, access, 0, key, 0,
				   &mr, NULL), 0);
	return mr;
}

/* The remote address of byte at of a region that starts at base. */
static uint64_t raddr(const struct pair *p, const void *base, const void *at)
{
	return p->virt ? (uint64_t)(uintptr_t)at :
	       (uint64_t)((const uint8_t *)at - (const uint8_t *)base);
}

/* ---- what uet's atomics support (written from the contract, not from
 * the provider's tables) ---- */

enum kind { K_WRITE, K_FETCH, K_COMPARE };

static size_t dt_size(int dt)
{
	static const size_t sz[] = { 1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 8, 16 };

	return dt >= FI_INT8 && dt <= FI_DOUBLE_COMPLEX ? sz[dt] : 0;
}

static bool dt_int(int dt)
{
	return dt >= FI_INT8 && dt <= FI_UINT64;
}

static bool dt_complex(int dt)
{
	return dt == FI_FLOAT_COMPLEX || dt == FI_DOUBLE_COMPLEX;
}

static bool expect_valid(enum kind k, int op, int dt)
{
	bool cmp = op >= FI_CSWAP && op <= FI_MSWAP;

	if (!dt_size(dt) || op < FI_MIN || op > FI_MSWAP)
		return false;
	if (k == K_COMPARE ? !cmp : cmp)
		return false;
	if (k == K_WRITE && op == FI_ATOMIC_READ)
		return false;
	switch (op) {
	case FI_MIN:
	case FI_MAX:
	case FI_CSWAP_LE:
	case FI_CSWAP_LT:
	case FI_CSWAP_GE:
	case FI_CSWAP_GT:
		return !dt_complex(dt);
	case FI_LOR:
	case FI_LAND:
	case FI_LXOR:
	case FI_BOR:
	case FI_BAND:
	case FI_BXOR:
	case FI_MSWAP:
		return dt_int(dt);
	default:
		return true;
	}
}

/* ---- reference results, one element ---- */

#define REF_COMMON(a, b)						\
	case FI_MIN: r = (a) < (b) ? (a) : (b); break;			\
	case FI_MAX: r = (a) > (b) ? (a) : (b); break;			\
	case FI_SUM: r = (a) + (b); break;				\
	case FI_PROD: r = (a) * (b); break;				\
	case FI_ATOMIC_READ: r = (a); break;				\
	case FI_ATOMIC_WRITE: r = (b); break;

#define REF_CMP(a, b, c)						\
	case FI_CSWAP: r = (c) == (a) ? (b) : (a); break;		\
	case FI_CSWAP_NE: r = (c) != (a) ? (b) : (a); break;		\
	case FI_CSWAP_LE: r = (c) <= (a) ? (b) : (a); break;		\
	case FI_CSWAP_LT: r = (c) < (a) ? (b) : (a); break;		\
	case FI_CSWAP_GE: r = (c) >= (a) ? (b) : (a); break;		\
	case FI_CSWAP_GT: r = (c) > (a) ? (b) : (a); break;

#define DEF_REF_INT(name, T)						\
static void name(int op, void *tp, const void *bp, const void *cp)	\
{									\
	T a, b, c = 0, r = 0;						\
									\
	memcpy(&a, tp, sizeof(a));					\
	memcpy(&b, bp, sizeof(b));					\
	if (cp)								\
		memcpy(&c, cp, sizeof(c));				\
	switch (op) {							\
	REF_COMMON(a, b)						\
	REF_CMP(a, b, c)						\
	case FI_LOR: r = (a || b); break;				\
	case FI_LAND: r = (a && b); break;				\
	case FI_LXOR: r = (!a != !b); break;				\
	case FI_BOR: r = a | b; break;					\
	case FI_BAND: r = a & b; break;					\
	case FI_BXOR: r = a ^ b; break;					\
	case FI_MSWAP: r = (T)((b & c) | (a & ~c)); break;		\
	default: ck_abort_msg("no reference for op %d", op);		\
	}								\
	memcpy(tp, &r, sizeof(r));					\
}

#define DEF_REF_FLT(name, T)						\
static void name(int op, void *tp, const void *bp, const void *cp)	\
{									\
	T a, b, c = 0, r = 0;						\
									\
	memcpy(&a, tp, sizeof(a));					\
	memcpy(&b, bp, sizeof(b));					\
	if (cp)								\
		memcpy(&c, cp, sizeof(c));				\
	switch (op) {							\
	REF_COMMON(a, b)						\
	REF_CMP(a, b, c)						\
	default: ck_abort_msg("no reference for op %d", op);		\
	}								\
	memcpy(tp, &r, sizeof(r));					\
}

/* Complex: {re, im} pairs. */
#define DEF_REF_CPLX(name, T)						\
static void name(int op, void *tp, const void *bp, const void *cp)	\
{									\
	T a[2], b[2], c[2] = { 0, 0 }, r[2];				\
	bool eq;							\
									\
	memcpy(a, tp, sizeof(a));					\
	memcpy(b, bp, sizeof(b));					\
	if (cp)								\
		memcpy(c, cp, sizeof(c));				\
	eq = c[0] == a[0] && c[1] == a[1];				\
	switch (op) {							\
	case FI_SUM: r[0] = a[0] + b[0]; r[1] = a[1] + b[1]; break;	\
	case FI_PROD:							\
		r[0] = a[0] * b[0] - a[1] * b[1];			\
		r[1] = a[0] * b[1] + a[1] * b[0];			\
		break;							\
	case FI_ATOMIC_READ: memcpy(r, a, sizeof(r)); break;		\
	case FI_ATOMIC_WRITE: memcpy(r, b, sizeof(r)); break;		\
	case FI_CSWAP: memcpy(r, eq ? b : a, sizeof(r)); break;		\
	case FI_CSWAP_NE: memcpy(r, !eq ? b : a, sizeof(r)); break;	\
	default: ck_abort_msg("no reference for op %d", op);		\
	}								\
	memcpy(tp, r, sizeof(r));					\
}

DEF_REF_INT(ref_i8, int8_t)
DEF_REF_INT(ref_u8, uint8_t)
DEF_REF_INT(ref_i16, int16_t)
DEF_REF_INT(ref_u16, uint16_t)
DEF_REF_INT(ref_i32, int32_t)
DEF_REF_INT(ref_u32, uint32_t)
DEF_REF_INT(ref_i64, int64_t)
DEF_REF_INT(ref_u64, uint64_t)
DEF_REF_FLT(ref_f, float)
DEF_REF_FLT(ref_d, double)
DEF_REF_CPLX(ref_fc, float)
DEF_REF_CPLX(ref_dc, double)

static void ref_apply(int dt, int op, void *t, const void *b, const void *c)
{
	static void (*const fn[])(int, void *, const void *, const void *) = {
		ref_i8, ref_u8, ref_i16, ref_u16, ref_i32, ref_u32, ref_i64,
		ref_u64, ref_f, ref_d, ref_fc, ref_dc,
	};

	fn[dt](op, t, b, c);
}

/* Element value (re, im) of dt at p; integers take re. */
static void set_val(int dt, void *p, double re, double im)
{
	union {
		int8_t i8; uint8_t u8; int16_t i16; uint16_t u16;
		int32_t i32; uint32_t u32; int64_t i64; uint64_t u64;
		float f; double d; float fc[2]; double dc[2];
	} v;

	memset(&v, 0, sizeof(v));
	switch (dt) {
	case FI_INT8: v.i8 = (int8_t)re; break;
	case FI_UINT8: v.u8 = (uint8_t)(re < 0 ? -re : re); break;
	case FI_INT16: v.i16 = (int16_t)re; break;
	case FI_UINT16: v.u16 = (uint16_t)(re < 0 ? -re : re); break;
	case FI_INT32: v.i32 = (int32_t)re; break;
	case FI_UINT32: v.u32 = (uint32_t)(re < 0 ? -re : re); break;
	case FI_INT64: v.i64 = (int64_t)re; break;
	case FI_UINT64: v.u64 = (uint64_t)(re < 0 ? -re : re); break;
	case FI_FLOAT: v.f = (float)re; break;
	case FI_DOUBLE: v.d = re; break;
	case FI_FLOAT_COMPLEX: v.fc[0] = (float)re; v.fc[1] = (float)im; break;
	case FI_DOUBLE_COMPLEX: v.dc[0] = re; v.dc[1] = im; break;
	}
	memcpy(p, &v, dt_size(dt));
}

/* n elements equal?  Floating point by value (-0 == +0, whichever way
 * the NIC rounds a zero's sign), the rest byte for byte. */
static bool elems_equal(int dt, const void *a, const void *b, size_t n)
{
	size_t i, parts = n * (dt_complex(dt) ? 2 : 1);

	if (dt == FI_FLOAT || dt == FI_FLOAT_COMPLEX) {
		float x, y;

		for (i = 0; i < parts; i++) {
			memcpy(&x, (const float *)a + i, sizeof(x));
			memcpy(&y, (const float *)b + i, sizeof(y));
			if (x != y)
				return false;
		}
		return true;
	}
	if (dt == FI_DOUBLE || dt == FI_DOUBLE_COMPLEX) {
		double x, y;

		for (i = 0; i < parts; i++) {
			memcpy(&x, (const double *)a + i, sizeof(x));
			memcpy(&y, (const double *)b + i, sizeof(y));
			if (x != y)
				return false;
		}
		return true;
	}
	return !memcmp(a, b, n * dt_size(dt));
}

/* ---- objects: no RMA from the NIC needed ---- */

static const int all_dts[] = {
	FI_INT8, FI_UINT8, FI_INT16, FI_UINT16, FI_INT32, FI_UINT32,
	FI_INT64, FI_UINT64, FI_FLOAT, FI_DOUBLE, FI_FLOAT_COMPLEX,
	FI_DOUBLE_COMPLEX, FI_LONG_DOUBLE, FI_LONG_DOUBLE_COMPLEX, 99,
};
#define NDTS	(sizeof(all_dts) / sizeof(all_dts[0]))

START_TEST(test_atomic_valid)
{
	struct fi_atomic_attr attr;
	struct pair p;
	size_t count, i;
	int op, ret, k;
	unsigned int nvalid = 0;

	pair_open(&p, 0);
	for (k = K_WRITE; k <= K_COMPARE; k++) {
		for (op = FI_MIN; op <= FI_MSWAP + 1; op++) {
			for (i = 0; i < NDTS; i++) {
				int dt = all_dts[i];
				bool want = expect_valid((enum kind)k, op, dt);
				uint64_t qf = k == K_FETCH ? FI_FETCH_ATOMIC :
					      k == K_COMPARE ?
					      FI_COMPARE_ATOMIC : 0;

				count = 12345;
				if (k == K_WRITE)
					ret = fi_atomicvalid(p.s[0].ep, dt, op,
							     &count);
				else if (k == K_FETCH)
					ret = fi_fetch_atomicvalid(p.s[0].ep,
								   dt, op,
								   &count);
				else
					ret = fi_compare_atomicvalid(
						p.s[0].ep, dt, op, &count);
				ck_assert_msg(ret == (want ? 0 :
						      -FI_EOPNOTSUPP),
					      "kind %d op %d dt %d: %d", k, op,
					      dt, ret);
				memset(&attr, 0, sizeof(attr));
				ck_assert_int_eq(fi_query_atomic(p.s[0].dom,
						 dt, op, &attr, qf), ret);
				if (!want)
					continue;
				nvalid++;
				ck_assert_uint_eq(count, k == K_COMPARE ? 1 :
						  AMO_MAX / dt_size(dt));
				ck_assert_uint_eq(attr.count, count);
				ck_assert_uint_eq(attr.size, dt_size(dt));
			}
		}
	}
	/* write: 8 int x 11 ops + 2 float x 5 + 2 complex x 3; fetch: one
	 * more op (READ) each; compare: 8 x 7 + 2 x 6 + 2 x 2 */
	ck_assert_uint_eq(nvalid, (88 + 10 + 6) + (96 + 12 + 8) +
				  (56 + 12 + 4));
	/* query flags */
	ck_assert_int_eq(fi_query_atomic(p.s[0].dom, FI_INT64, FI_SUM, &attr,
					 FI_TAGGED), -FI_EOPNOTSUPP);
	ck_assert_int_eq(fi_query_atomic(p.s[0].dom, FI_INT64, FI_CSWAP,
					 &attr, FI_FETCH_ATOMIC |
					 FI_COMPARE_ATOMIC), -FI_EINVAL);
	ck_assert_int_eq(fi_query_atomic(p.s[0].dom, FI_INT64, FI_SUM, NULL,
					 0), -FI_EINVAL);
	pair_close(&p);
}
END_TEST

START_TEST(test_mr_keys_and_binds)
{
	static uint8_t buf[8192];
	struct fid_mr *mr, *mr2;
	struct fid_cntr *c;
	struct pair p;
	uint64_t k;

	/* user keys (no FI_MR_PROV_KEY): the requested key is the key */
	pair_open(&p, 0);
	ck_assert_int_eq(p.info->domain_attr->mr_mode, 0);
	ck_assert_uint_eq(p.info->domain_attr->mr_key_size, 8);
	mr = reg(&p, 1, buf, 4096, FI_REMOTE_WRITE, 0x1234);
	ck_assert_uint_eq(fi_mr_key(mr), 0x1234);
	ck_assert_ptr_nonnull(fi_mr_desc(mr));
	ck_assert_int_eq(fi_mr_reg(p.s[1].dom, buf + 4096, 4096,
				   FI_REMOTE_READ, 0, 0x1234, 0, &mr2, NULL),
			 -FI_ENOKEY);
	ck_assert_int_eq(fi_mr_reg(p.s[1].dom, buf, 16, FI_REMOTE_READ, 0,
				   1ull << 63, 0, &mr2, NULL),
			 -FI_EKEYREJECTED);
	/* local-only regions take device keys: key 0 twice is fine */
	mr2 = reg(&p, 1, buf, 16, FI_SEND | FI_RECV, 0);
	{
		struct fid_mr *mr3 = reg(&p, 1, buf + 16, 16, FI_READ, 0);

		ck_assert_uint_ne(fi_mr_key(mr2), fi_mr_key(mr3));
		ck_assert_int_eq(fi_close(&mr3->fid), 0);
	}
	ck_assert_int_eq(fi_close(&mr2->fid), 0);
	/* another domain: another key space */
	mr2 = reg(&p, 0, buf, 16, FI_REMOTE_READ, 0x1234);
	ck_assert_int_eq(fi_close(&mr2->fid), 0);
	/* bindings: counters of the same domain, remote flags only */
	cntr_open(p.s[1].dom, &c);
	ck_assert_int_eq(fi_mr_bind(mr, &c->fid, FI_SEND), -FI_EINVAL);
	ck_assert_int_eq(fi_mr_bind(mr, &p.s[1].ep->fid, 0), -FI_EINVAL);
	ck_assert_int_eq(fi_mr_bind(mr, &p.s[0].wc->fid, FI_REMOTE_WRITE),
			 -FI_EINVAL);
	ck_assert_int_eq(fi_mr_bind(mr, &c->fid, FI_REMOTE_WRITE), 0);
	ck_assert_int_eq(fi_mr_enable(mr), 0);
	ck_assert_int_eq(fi_close(&c->fid), -FI_EBUSY);
	ck_assert_int_eq(fi_close(&mr->fid), 0);
	ck_assert_int_eq(fi_close(&c->fid), 0);
	/* a closed key can be registered again */
	mr = reg(&p, 1, buf, 4096, FI_REMOTE_WRITE, 0x1234);
	ck_assert_int_eq(fi_close(&mr->fid), 0);
	pair_close(&p);

	/* provider keys: the requested key is ignored, keys differ */
	pair_open(&p, FI_MR_PROV_KEY | FI_MR_VIRT_ADDR);
	ck_assert_int_eq(p.info->domain_attr->mr_mode,
			 FI_MR_PROV_KEY | FI_MR_VIRT_ADDR);
	mr = reg(&p, 1, buf, 4096, FI_REMOTE_WRITE, 0x1234);
	mr2 = reg(&p, 1, buf, 4096, FI_REMOTE_WRITE, 0x1234);
	k = fi_mr_key(mr);
	ck_assert_uint_ne(k, fi_mr_key(mr2));
	ck_assert_int_eq(fi_close(&mr->fid), 0);
	ck_assert_int_eq(fi_close(&mr2->fid), 0);
	pair_close(&p);
}
END_TEST

/* The counter of an MR (fi_mr_bind) is bound to no endpoint: waiting on
 * it alone must progress the domain's endpoints, whose notifications
 * carry the remote accesses (fabtests' fi_multi_mr waits this way). */
START_TEST(test_mr_cntr_alone)
{
	static uint8_t src[256], dst[256];
	struct fid_cntr *c;
	struct fid_mr *mr;
	struct pair p;
	struct fi_cntr_attr ca = { .events = FI_CNTR_EVENTS_COMP,
				   .wait_obj = FI_WAIT_NONE };
	uint64_t end;
	int ret;

	pair_open(&p, 0);
	/* FI_WAIT_NONE, as fi_multi_mr opens it: uet still lets it wait */
	ck_assert_int_eq(fi_cntr_open(p.s[1].dom, &ca, &c, NULL), 0);
	mr = reg(&p, 1, dst, sizeof(dst), FI_REMOTE_WRITE, 5);
	ck_assert_int_eq(fi_mr_bind(mr, &c->fid, FI_REMOTE_WRITE), 0);
	uet_test_fill(src, sizeof(src), 5);
	ck_assert_int_eq(fi_write(p.s[0].ep, src, sizeof(src), NULL,
				  p.s[0].peer, raddr(&p, dst, dst), 5, src), 0);
	/* only the target's counter is read or waited on */
	ret = fi_cntr_wait(c, 1, WAIT_MS);
	ck_assert_int_eq(ret, 0);
	ck_assert_int_eq(memcmp(src, dst, sizeof(src)), 0);
	end = uet_clock_now_ns() + WAIT_MS * UET_NSEC_PER_MSEC;
	while (fi_cntr_read(p.s[0].wc) < 1 && uet_clock_now_ns() < end)
		;
	ck_assert_uint_eq(fi_cntr_read(p.s[0].wc), 1);
	ck_assert_int_eq(fi_close(&mr->fid), 0);
	ck_assert_int_eq(fi_close(&c->fid), 0);
	pair_close(&p);
}
END_TEST

START_TEST(test_rma_bad_args)
{
	static uint8_t buf[8192], res[64];
	struct fi_rma_iov riov[2] = { { 0, 4096, 1 }, { 0, 4096, 1 } };
	struct fi_rma_ioc rioc = { 0, 4, 1 };
	struct iovec iov[9];
	struct fi_ioc ioc = { buf, 4 }, rioc_res = { res, 4 };
	struct fi_msg_rma msg;
	struct fi_msg_atomic amsg;
	struct fid_cntr *c;
	struct pair p;
	fi_addr_t peer;
	int i;

	pair_open(&p, 0);
	peer = p.s[0].peer;
	for (i = 0; i < 9; i++) {
		iov[i].iov_base = buf;
		iov[i].iov_len = 8;
	}
	ck_assert_int_eq(fi_writev(p.s[0].ep, iov, NULL, 9, peer, 0, 1, NULL),
			 -FI_EINVAL);
	ck_assert_int_eq(fi_readv(p.s[0].ep, iov, NULL, 9, peer, 0, 1, NULL),
			 -FI_EINVAL);
	ck_assert_int_eq(fi_write(p.s[0].ep, NULL, 8, NULL, peer, 0, 1, NULL),
			 -FI_EINVAL);
	ck_assert_int_eq(fi_write(p.s[0].ep, buf, 8, NULL, 99, 0, 1, NULL),
			 -FI_EINVAL);
	ck_assert_int_eq(fi_write(p.s[0].ep, buf, 8, NULL, peer,
				  UINT64_MAX - 3, 1, NULL), -FI_EINVAL);
	ck_assert_int_eq(fi_inject_write(p.s[0].ep, buf, 4097, peer, 0, 1),
			 -FI_EMSGSIZE);
	ck_assert_int_eq(fi_write(p.s[0].ep, buf, 0x100000000ull, NULL, peer,
				  0, 1, NULL), -FI_EMSGSIZE);
	memset(&msg, 0, sizeof(msg));
	msg.msg_iov = iov;
	msg.iov_count = 1;
	msg.addr = peer;
	msg.rma_iov = riov;
	msg.rma_iov_count = 5;	/* rma_iov_limit is 4 */
	ck_assert_int_eq(fi_writemsg(p.s[0].ep, &msg, 0), -FI_EINVAL);
	msg.rma_iov_count = 0;
	ck_assert_int_eq(fi_writemsg(p.s[0].ep, &msg, 0), -FI_EINVAL);
	msg.rma_iov_count = 1;
	riov[0].len = 4;	/* shorter than the local buffer */
	ck_assert_int_eq(fi_writemsg(p.s[0].ep, &msg, 0), -FI_EINVAL);
	riov[0].len = 4096;
	ck_assert_int_eq(fi_writemsg(p.s[0].ep, &msg, FI_MULTI_RECV),
			 -FI_EBADFLAGS);
	ck_assert_int_eq(fi_readmsg(p.s[0].ep, &msg, FI_INJECT), -FI_EINVAL);
	ck_assert_int_eq(fi_readmsg(p.s[0].ep, &msg, FI_REMOTE_CQ_DATA),
			 -FI_EINVAL);

	/* atomics */
	ck_assert_int_eq(fi_atomic(p.s[0].ep, buf, 1, NULL, peer, 0, 1,
				   FI_FLOAT, FI_BOR, NULL), -FI_EOPNOTSUPP);
	ck_assert_int_eq(fi_atomic(p.s[0].ep, buf, 1, NULL, peer, 0, 1,
				   FI_LONG_DOUBLE, FI_SUM, NULL),
			 -FI_EOPNOTSUPP);
	ck_assert_int_eq(fi_atomic(p.s[0].ep, buf, 1, NULL, peer, 0, 1,
				   FI_INT32, FI_ATOMIC_READ, NULL),
			 -FI_EOPNOTSUPP);
	ck_assert_int_eq(fi_atomic(p.s[0].ep, buf, 1, NULL, peer, 0, 1,
				   FI_INT32, FI_CSWAP, NULL), -FI_EOPNOTSUPP);
	ck_assert_int_eq(fi_fetch_atomic(p.s[0].ep, buf, 1, NULL, res, NULL,
					 peer, 0, 1, FI_DOUBLE_COMPLEX, FI_MIN,
					 NULL), -FI_EOPNOTSUPP);
	ck_assert_int_eq(fi_compare_atomic(p.s[0].ep, buf, 1, NULL, buf, NULL,
					   res, NULL, peer, 0, 1, FI_INT32,
					   FI_SUM, NULL), -FI_EOPNOTSUPP);
	ck_assert_int_eq(fi_compare_atomic(p.s[0].ep, buf, 1, NULL, buf, NULL,
					   res, NULL, peer, 0, 1, FI_FLOAT,
					   FI_MSWAP, NULL), -FI_EOPNOTSUPP);
	/* counts: 0, beyond amo_max, compare atomics take one element */
	ck_assert_int_eq(fi_atomic(p.s[0].ep, buf, 0, NULL, peer, 0, 1,
				   FI_INT32, FI_SUM, NULL), -FI_EINVAL);
	ck_assert_int_eq(fi_atomic(p.s[0].ep, buf, AMO_MAX / 4 + 1, NULL,
				   peer, 0, 1, FI_INT32, FI_SUM, NULL),
			 -FI_EINVAL);
	ck_assert_int_eq(fi_compare_atomic(p.s[0].ep, buf, 2, NULL, buf, NULL,
					   res, NULL, peer, 0, 1, FI_INT32,
					   FI_CSWAP, NULL), -FI_EINVAL);
	ck_assert_int_eq(fi_atomic(p.s[0].ep, NULL, 1, NULL, peer, 0, 1,
				   FI_INT32, FI_SUM, NULL), -FI_EINVAL);
	ck_assert_int_eq(fi_atomic(p.s[0].ep, buf, 1, NULL, 99, 0, 1,
				   FI_INT32, FI_SUM, NULL), -FI_EINVAL);
	/* fetch: as many results as operands */
	ioc.count = 4;
	rioc_res.count = 3;
	ck_assert_int_eq(fi_fetch_atomicv(p.s[0].ep, &ioc, NULL, 1, &rioc_res,
					  NULL, 1, peer, 0, 1, FI_INT32,
					  FI_SUM, NULL), -FI_EINVAL);
	memset(&amsg, 0, sizeof(amsg));
	amsg.msg_iov = &ioc;
	amsg.iov_count = 1;
	amsg.addr = peer;
	amsg.rma_iov = &rioc;
	amsg.rma_iov_count = 1;
	amsg.datatype = FI_INT32;
	amsg.op = FI_SUM;
	rioc.count = 3;		/* fewer than the 4 operands */
	ck_assert_int_eq(fi_atomicmsg(p.s[0].ep, &amsg, 0), -FI_EINVAL);
	rioc.count = 4;
	ck_assert_int_eq(fi_atomicmsg(p.s[0].ep, &amsg, FI_PEEK),
			 -FI_EBADFLAGS);
	rioc_res.count = 4;
	ck_assert_int_eq(fi_fetch_atomicmsg(p.s[0].ep, &amsg, &rioc_res, NULL,
					    1, FI_INJECT), -FI_EINVAL);

	/* counters are bound before enable */
	cntr_open(p.s[0].dom, &c);
	ck_assert_int_eq(fi_ep_bind(p.s[0].ep, &c->fid, FI_WRITE),
			 -FI_EOPBADSTATE);
	ck_assert_int_eq(fi_close(&c->fid), 0);
	pair_close(&p);

	/* an endpoint opened without RMA caps refuses RMA */
	pair_open_caps(&p, FI_MSG | FI_ATOMIC, 0);
	ck_assert_int_eq(fi_write(p.s[0].ep, buf, 8, NULL, p.s[0].peer, 0, 1,
				  NULL), -FI_EOPNOTSUPP);
	pair_close(&p);
	pair_open_caps(&p, FI_MSG | FI_RMA | FI_WRITE, 0);
	ck_assert_int_eq(fi_read(p.s[0].ep, buf, 8, NULL, p.s[0].peer, 0, 1,
				 NULL), -FI_EOPNOTSUPP);
	ck_assert_int_eq(fi_atomic(p.s[0].ep, buf, 1, NULL, p.s[0].peer, 0, 1,
				   FI_INT32, FI_SUM, NULL), -FI_EOPNOTSUPP);
	pair_close(&p);
}
END_TEST

/* DGRAM endpoints (UUD) have no RMA at all. */
START_TEST(test_dgram_no_rma)
{
	struct fi_info *hints, *info = NULL;
	struct fid_fabric *fab;
	struct fid_domain *dom;
	struct fid_ep *ep;
	struct fid_cntr *c;
	uint8_t buf[8];
	size_t count;

	uet_prov_init();
	setenv("FI_UET_IFACE", "lo", 1);
	hints = fi_allocinfo();
	hints->ep_attr->type = FI_EP_DGRAM;
	hints->caps = FI_MSG;
	hints->addr_format = FI_SOCKADDR_IN;
	ck_assert_int_eq(uet_getinfo(API, "127.0.0.1", NULL, FI_SOURCE, hints,
				     &info), 0);
	ck_assert_uint_eq(info->caps & (FI_RMA | FI_ATOMIC), 0);
	ck_assert_int_eq(uet_fabric(info->fabric_attr, &fab, NULL), 0);
	ck_assert_int_eq(fi_domain(fab, info, &dom, NULL), 0);
	ck_assert_int_eq(fi_endpoint(dom, info, &ep, NULL), 0);
	ck_assert_int_lt(fi_write(ep, buf, 8, NULL, 0, 0, 1, NULL), 0);
	ck_assert_int_lt(fi_atomicvalid(ep, FI_INT32, FI_SUM, &count), 0);
	/* RMA counter flags are accepted (applications bind them
	 * unconditionally); nothing ever counts on them */
	cntr_open(dom, &c);
	ck_assert_int_eq(fi_ep_bind(ep, &c->fid, FI_SEND | FI_WRITE |
				    FI_REMOTE_WRITE), 0);
	ck_assert_int_eq(fi_ep_bind(ep, &c->fid, 0), -FI_EINVAL);
	ck_assert_int_eq(fi_close(&ep->fid), 0);
	ck_assert_int_eq(fi_close(&c->fid), 0);
	ck_assert_int_eq(fi_close(&dom->fid), 0);
	ck_assert_int_eq(fi_close(&fab->fid), 0);
	fi_freeinfo(info);
	fi_freeinfo(hints);
}
END_TEST

/* ---- data ---- */

/* User keys and offsets (what fi_getinfo returns), then the modes an
 * application requires at fi_domain, then the v1.0 FI_MR_BASIC. */
static const int mr_modes[] = { 0, FI_MR_PROV_KEY | FI_MR_VIRT_ADDR,
				FI_MR_VIRT_ADDR, MR_V1_BASIC };

/* Write then read back 1 B .. 16 MiB, at an offset into the region. */
START_TEST(test_rma_sizes)
{
	static const size_t sizes[] = { 1, 7, 32, 33, 1000, 4096, 9000,
					65536, 1 << 20, 16 << 20 };
	const size_t region = (16 << 20) + 256, off = 100;
	uint8_t *src, *dst, *back;
	struct fid_mr *mr;
	struct pair p;
	uint64_t key;
	size_t k, n = sizeof(sizes) / sizeof(sizes[0]);

	pair_open(&p, mr_modes[_i]);
	src = malloc(region);
	dst = malloc(region);
	back = malloc(region);
	ck_assert(src && dst && back);
	memset(dst, 0xee, region);
	mr = reg(&p, 1, dst, region, FI_REMOTE_WRITE | FI_REMOTE_READ, 77);
	key = fi_mr_key(mr);
	for (k = 0; k < n; k++) {
		uet_test_fill(src, sizes[k], (unsigned int)k);
		ck_assert_int_eq(fi_write(p.s[0].ep, src, sizes[k], NULL,
					  p.s[0].peer,
					  raddr(&p, dst, dst + off), key,
					  (void *)0x11), 0);
		wait_ok(&p, (void *)0x11, FI_RMA | FI_WRITE);
		ck_assert(!memcmp(dst + off, src, sizes[k]));
		/* nothing around it (sizes grow: never written yet) */
		ck_assert_uint_eq(dst[off - 1], 0xee);
		ck_assert_uint_eq(dst[off + sizes[k]], 0xee);
		memset(back, 0, sizes[k]);
		ck_assert_int_eq(fi_read(p.s[0].ep, back, sizes[k], NULL,
					 p.s[0].peer,
					 raddr(&p, dst, dst + off), key,
					 (void *)0x12), 0);
		wait_ok(&p, (void *)0x12, FI_RMA | FI_READ);
		ck_assert(!memcmp(back, src, sizes[k]));
	}
	ck_assert_uint_eq(fi_cntr_read(p.s[0].wc), n);
	ck_assert_uint_eq(fi_cntr_read(p.s[0].rc), n);
	ck_assert_uint_eq(fi_cntr_readerr(p.s[0].wc), 0);
	/* the target counted them (FI_RMA_EVENT) */
	wait_cntr(&p, p.s[1].rwc, n);
	wait_cntr(&p, p.s[1].rrc, n);
	ck_assert_int_eq(fi_close(&mr->fid), 0);
	free(src);
	free(dst);
	free(back);
	pair_close(&p);
}
END_TEST

START_TEST(test_rma_vec_inject_more)
{
	static uint8_t dst[4096], src[3][300], back[3][300];
	struct iovec iov[3], biov[3];
	struct fi_rma_iov riov;
	struct fi_msg_rma msg;
	struct fi_cq_tagged_entry e;
	struct fid_mr *mr;
	struct pair p;
	uint64_t key;
	int i;

	pair_open(&p, 0);
	mr = reg(&p, 1, dst, sizeof(dst), FI_REMOTE_WRITE | FI_REMOTE_READ,
		 5);
	key = fi_mr_key(mr);
	for (i = 0; i < 3; i++) {
		uet_test_fill(src[i], sizeof(src[i]), (unsigned int)i + 1);
		iov[i].iov_base = src[i];
		iov[i].iov_len = (size_t)(i + 1) * 100;
		biov[i].iov_base = back[i];
		biov[i].iov_len = (size_t)(3 - i) * 100;
	}
	/* writev: 100 + 200 + 300 bytes land in a row */
	ck_assert_int_eq(fi_writev(p.s[0].ep, iov, NULL, 3, p.s[0].peer, 8,
				   key, (void *)1), 0);
	wait_ok(&p, (void *)1, FI_RMA | FI_WRITE);
	ck_assert(!memcmp(dst + 8, src[0], 100));
	ck_assert(!memcmp(dst + 108, src[1], 200));
	ck_assert(!memcmp(dst + 308, src[2], 300));
	/* readv scatters them differently: 300 + 200 + 100 */
	ck_assert_int_eq(fi_readv(p.s[0].ep, biov, NULL, 3, p.s[0].peer, 8,
				  key, (void *)2), 0);
	wait_ok(&p, (void *)2, FI_RMA | FI_READ);
	ck_assert(!memcmp(back[0], dst + 8, 300));
	ck_assert(!memcmp(back[1], dst + 308, 200));
	ck_assert(!memcmp(back[2], dst + 508, 100));

	/* inject: the buffer is free at once; no CQ entry, the counter */
	uet_test_fill(src[0], 300, 9);
	memcpy(back[0], src[0], 300);
	ck_assert_int_eq(fi_inject_write(p.s[0].ep, src[0], 300, p.s[0].peer,
					 1000, key), 0);
	memset(src[0], 0, 300);
	ck_assert_int_eq(fi_inject_write(p.s[0].ep, "tiny", 4, p.s[0].peer,
					 2000, key), 0);
	wait_cntr(&p, p.s[0].wc, 3);
	ck_assert(!memcmp(dst + 1000, back[0], 300));
	ck_assert(!memcmp(dst + 2000, "tiny", 4));
	ck_assert_int_eq(fi_cq_read(p.s[0].cq, &e, 1), -FI_EAGAIN);

	/* FI_MORE batches: nothing is lost when the last one rings */
	uet_test_fill(src[0], 300, 21);
	memset(&msg, 0, sizeof(msg));
	msg.msg_iov = iov;
	msg.iov_count = 1;
	msg.addr = p.s[0].peer;
	msg.rma_iov = &riov;
	msg.rma_iov_count = 1;
	riov.key = key;
	riov.len = 100;
	for (i = 0; i < 4; i++) {
		riov.addr = 3000 + (uint64_t)i * 100;
		msg.context = (void *)(uintptr_t)(10 + i);
		ck_assert_int_eq(fi_writemsg(p.s[0].ep, &msg,
					     FI_COMPLETION |
					     (i < 3 ? FI_MORE : 0)), 0);
	}
	for (i = 0; i < 4; i++)
		wait_ok(&p, (void *)(uintptr_t)(10 + i), FI_RMA | FI_WRITE);
	for (i = 0; i < 4; i++)
		ck_assert(!memcmp(dst + 3000 + i * 100, src[0], 100));

	/* FI_FENCE: a read after a write sees it */
	uet_test_fill(src[1], 200, 33);
	msg.msg_iov = &iov[1];
	riov.addr = 3500;
	riov.len = 200;
	msg.context = (void *)20;
	ck_assert_int_eq(fi_writemsg(p.s[0].ep, &msg, FI_COMPLETION |
				     FI_DELIVERY_COMPLETE), 0);
	biov[0].iov_len = 200;
	msg.msg_iov = biov;
	msg.context = (void *)21;
	ck_assert_int_eq(fi_readmsg(p.s[0].ep, &msg, FI_COMPLETION |
				    FI_FENCE | FI_DELIVERY_COMPLETE), 0);
	wait_ok(&p, (void *)20, FI_RMA | FI_WRITE);
	wait_ok(&p, (void *)21, FI_RMA | FI_READ);
	ck_assert(!memcmp(back[0], src[1], 200));
	ck_assert_int_eq(fi_close(&mr->fid), 0);
	pair_close(&p);
}
END_TEST

/* Several remote segments (rma_iov_limit 4): writemsg scatters a local
 * iovec over them in order, readmsg gathers them, one completion each;
 * remote CQ data comes once, after every segment landed; a bad key in
 * one segment fails the whole operation. */
START_TEST(test_rma_multi_segment)
{
	static uint8_t dst[8192], dst2[1024], src[2][1500], back[3000];
	struct fi_rma_iov riov[4];
	struct iovec iov[2], biov[1];
	struct fi_msg_rma msg;
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	struct fid_mr *mr, *mr2;
	struct pair p;
	uint64_t key, key2;
	int i;

	pair_open(&p, 0);
	mr = reg(&p, 1, dst, sizeof(dst), FI_REMOTE_WRITE | FI_REMOTE_READ,
		 7);
	mr2 = reg(&p, 1, dst2, sizeof(dst2), FI_REMOTE_WRITE | FI_REMOTE_READ,
		  8);
	key = fi_mr_key(mr);
	key2 = fi_mr_key(mr2);
	ck_assert_ptr_nonnull(p.info->tx_attr);
	ck_assert_uint_eq(p.info->tx_attr->rma_iov_limit, 4);
	uet_test_fill(src[0], sizeof(src[0]), 3);
	uet_test_fill(src[1], sizeof(src[1]), 4);
	iov[0].iov_base = src[0];
	iov[0].iov_len = 1000;
	iov[1].iov_base = src[1];
	iov[1].iov_len = 1500;
	/* 2,500 bytes over segments of 16, 700, 1,000 (another region) and
	 * 784: the cuts fall inside both local buffers */
	riov[0] = (struct fi_rma_iov){ 100, 16, key };
	riov[1] = (struct fi_rma_iov){ 4000, 700, key };
	riov[2] = (struct fi_rma_iov){ 0, 1000, key2 };
	riov[3] = (struct fi_rma_iov){ 6000, 784, key };
	memset(&msg, 0, sizeof(msg));
	msg.msg_iov = iov;
	msg.iov_count = 2;
	msg.addr = p.s[0].peer;
	msg.rma_iov = riov;
	msg.rma_iov_count = 4;
	msg.context = (void *)0x41;
	msg.data = 0xfeed;
	ck_assert_int_eq(fi_writemsg(p.s[0].ep, &msg, FI_COMPLETION |
				     FI_REMOTE_CQ_DATA), 0);
	wait_ok(&p, (void *)0x41, FI_RMA | FI_WRITE);
	/* the target's one CQ entry comes after the data */
	ck_assert_int_eq(wait_comp(&p, 1, &e, NULL, &err), 1);
	ck_assert_uint_eq(e.flags & FI_REMOTE_CQ_DATA, FI_REMOTE_CQ_DATA);
	ck_assert_uint_eq(e.data, 0xfeed);
	ck_assert(!memcmp(dst + 100, src[0], 16));
	ck_assert(!memcmp(dst + 4000, src[0] + 16, 700));
	ck_assert(!memcmp(dst2, src[0] + 716, 284));
	ck_assert(!memcmp(dst2 + 284, src[1], 716));
	ck_assert(!memcmp(dst + 6000, src[1] + 716, 784));
	settle(&p, 50);
	ck_assert_int_eq(fi_cq_read(p.s[1].cq, &e, 1), -FI_EAGAIN);
	ck_assert_uint_eq(fi_cntr_read(p.s[0].wc), 1);

	/* readmsg gathers the four segments back into one buffer */
	memset(back, 0, sizeof(back));
	biov[0].iov_base = back;
	biov[0].iov_len = 2500;
	msg.msg_iov = biov;
	msg.iov_count = 1;
	msg.context = (void *)0x42;
	ck_assert_int_eq(fi_readmsg(p.s[0].ep, &msg, FI_COMPLETION), 0);
	wait_ok(&p, (void *)0x42, FI_RMA | FI_READ);
	ck_assert(!memcmp(back, src[0], 1000));
	ck_assert(!memcmp(back + 1000, src[1], 1500));
	ck_assert_uint_eq(fi_cntr_read(p.s[0].rc), 1);

	/* a local buffer longer than the segments is refused */
	riov[3].len = 10;
	ck_assert_int_eq(fi_readmsg(p.s[0].ep, &msg, FI_COMPLETION),
			 -FI_EINVAL);
	riov[3].len = 784;

	/* one bad key: one error completion for the operation */
	riov[1].key = 0x999;
	msg.context = (void *)0x43;
	ck_assert_int_eq(fi_readmsg(p.s[0].ep, &msg, FI_COMPLETION), 0);
	err = wait_err(&p, (void *)0x43);
	ck_assert_int_ne(err.err, 0);
	settle(&p, 50);
	ck_assert_int_eq(fi_cq_read(p.s[0].cq, &e, 1), -FI_EAGAIN);
	ck_assert_uint_eq(fi_cntr_readerr(p.s[0].rc), 1);

	/* writev/readv of several iovecs to one segment still work */
	for (i = 0; i < 2; i++)
		iov[i].iov_len = 300;
	ck_assert_int_eq(fi_writev(p.s[0].ep, iov, NULL, 2, p.s[0].peer, 0,
				   key, (void *)0x44), 0);
	wait_ok(&p, (void *)0x44, FI_RMA | FI_WRITE);
	ck_assert(!memcmp(dst, src[0], 300));
	ck_assert(!memcmp(dst + 300, src[1], 300));
	ck_assert_int_eq(fi_close(&mr2->fid), 0);
	ck_assert_int_eq(fi_close(&mr->fid), 0);
	pair_close(&p);
}
END_TEST

/* Remote CQ data: a target CQ entry, no receive consumed. */
START_TEST(test_rma_writedata)
{
	static uint8_t dst[4096], src[256], rbuf[64];
	struct fi_cq_tagged_entry e;
	struct fi_cq_err_entry err;
	struct fid_mr *mr;
	struct pair p;
	fi_addr_t src_addr;
	uint64_t key;

	pair_open(&p, FI_MR_VIRT_ADDR);
	mr = reg(&p, 1, dst, sizeof(dst), FI_REMOTE_WRITE, 0xabc);
	key = fi_mr_key(mr);
	ck_assert_int_eq(fi_recv(p.s[1].ep, rbuf, sizeof(rbuf), NULL,
				 FI_ADDR_UNSPEC, (void *)0x77), 0);
	uet_test_fill(src, sizeof(src), 4);
	ck_assert_int_eq(fi_writedata(p.s[0].ep, src, 200, NULL,
				      0x1122334455667788ull, p.s[0].peer,
				      (uint64_t)(uintptr_t)(dst + 16), key,
				      (void *)0x31), 0);
	wait_ok(&p, (void *)0x31, FI_RMA | FI_WRITE);
	ck_assert_int_eq(wait_comp(&p, 1, &e, &src_addr, &err), 1);
	ck_assert_uint_eq(e.flags, FI_RMA | FI_REMOTE_WRITE |
			  FI_REMOTE_CQ_DATA);
	ck_assert_uint_eq(e.data, 0x1122334455667788ull);
	ck_assert_uint_eq(e.len, 200);
	ck_assert_ptr_null(e.op_context);
	ck_assert_uint_eq(src_addr, p.s[1].peer);
	ck_assert(!memcmp(dst + 16, src, 200));
	/* inject variant, small */
	ck_assert_int_eq(fi_inject_writedata(p.s[0].ep, src, 8, 42,
					     p.s[0].peer,
					     (uint64_t)(uintptr_t)dst, key),
			 0);
	ck_assert_int_eq(wait_comp(&p, 1, &e, NULL, &err), 1);
	ck_assert_uint_eq(e.flags, FI_RMA | FI_REMOTE_WRITE |
			  FI_REMOTE_CQ_DATA);
	ck_assert_uint_eq(e.data, 42);
	ck_assert_uint_eq(e.len, 8);
	/* the posted receive is still there for a message */
	ck_assert_int_eq(fi_send(p.s[0].ep, "hello", 5, NULL, p.s[0].peer,
				 (void *)0x32), 0);
	ck_assert_int_eq(wait_comp(&p, 1, &e, NULL, &err), 1);
	ck_assert_ptr_eq(e.op_context, (void *)0x77);
	ck_assert_uint_eq(e.len, 5);
	ck_assert_uint_eq(e.flags, FI_RECV | FI_MSG);
	wait_ok(&p, (void *)0x32, FI_SEND | FI_MSG);
	ck_assert_int_eq(fi_close(&mr->fid), 0);
	pair_close(&p);
}
END_TEST

/* Every op x datatype, non-fetching, fetching and compare, against the
 * reference; each of the 3 elements lands where the reference says. */
START_TEST(test_atomic_matrix)
{
	static const double t_re[3] = { 3, 0, -17.5 }, t_im[3] = { 1.5, 0, 2 };
	static const double o_re[3] = { -10.25, 5, 0 }, o_im[3] = { 0.5, -1, 0 };
	static const double c_re[3] = { 2, 3, 4 };
	uint8_t *tgt, init[48], opnd[48], want[48], res[48], cmp[16];
	struct fid_mr *mr;
	struct pair p;
	uint64_t key, ra;
	int k, op, dt, i, sub, nops = 0;
	size_t sz, n;
	void *ctx = (void *)0x55;
	uint64_t flags;

	pair_open(&p, 0);
	tgt = aligned_alloc(64, 4096);
	ck_assert_ptr_nonnull(tgt);
	mr = reg(&p, 1, tgt, 4096, FI_REMOTE_WRITE | FI_REMOTE_READ, 0x99);
	key = fi_mr_key(mr);
	ra = raddr(&p, tgt, tgt + 64);
	for (k = K_WRITE; k <= K_COMPARE; k++) {
		flags = FI_ATOMIC | (k == K_WRITE ? FI_WRITE : FI_READ);
		for (op = FI_MIN; op <= FI_MSWAP; op++) {
			for (dt = FI_INT8; dt <= FI_DOUBLE_COMPLEX; dt++) {
				if (!expect_valid((enum kind)k, op, dt))
					continue;
				sz = dt_size(dt);
				n = k == K_COMPARE ? 1 : 3;
				for (sub = 0; sub < (k == K_COMPARE ? 3 : 1);
				     sub++) {
					for (i = 0; i < (int)n; i++) {
						set_val(dt, init + i * sz,
							t_re[i], t_im[i]);
						set_val(dt, opnd + i * sz,
							k == K_COMPARE ? 9 :
							o_re[i], o_im[i]);
					}
					set_val(dt, cmp, c_re[sub],
						sub == 1 ? t_im[0] : 0);
					memcpy(want, init, n * sz);
					for (i = 0; i < (int)n; i++)
						ref_apply(dt, op,
							  want + i * sz,
							  opnd + i * sz,
							  k == K_COMPARE ?
							  cmp : NULL);
					memset(tgt, 0x5a, 256);
					memcpy(tgt + 64, init, n * sz);
					memset(res, 0xcc, sizeof(res));
					if (k == K_WRITE)
						ck_assert_int_eq(fi_atomic(
							p.s[0].ep, opnd, n,
							NULL, p.s[0].peer, ra,
							key, dt, op, ctx), 0);
					else if (k == K_FETCH)
						ck_assert_int_eq(
							fi_fetch_atomic(
							p.s[0].ep, opnd, n,
							NULL, res, NULL,
							p.s[0].peer, ra, key,
							dt, op, ctx), 0);
					else
						ck_assert_int_eq(
							fi_compare_atomic(
							p.s[0].ep, opnd, n,
							NULL, cmp, NULL, res,
							NULL, p.s[0].peer, ra,
							key, dt, op, ctx), 0);
					wait_ok(&p, ctx, flags);
					ck_assert_msg(elems_equal(dt, tgt + 64,
								  want, n),
						      "kind %d op %d dt %d "
						      "sub %d: target", k, op,
						      dt, sub);
					ck_assert_uint_eq(tgt[63], 0x5a);
					ck_assert_uint_eq(tgt[64 + n * sz],
							  0x5a);
					if (k != K_WRITE)
						ck_assert_msg(elems_equal(dt,
							res, init, n),
							"kind %d op %d dt %d:"
							" prior values", k, op,
							dt);
					nops++;
				}
			}
		}
	}
	ck_assert_int_eq(nops, 104 + 116 + 72 * 3);
	ck_assert_int_eq(fi_close(&mr->fid), 0);
	free(tgt);
	pair_close(&p);
}
END_TEST

/* Several iocs, inject, ATOMIC_READ without a buffer, more than 32
 * bytes (not inline), the largest count. */
START_TEST(test_atomic_vectors)
{
	uint64_t *tgt, ops[64], res[64], want[64];
	struct fi_ioc ioc[3], rioc[2];
	struct fid_mr *mr;
	struct pair p;
	uint64_t key;
	size_t count;
	int i;

	pair_open(&p, FI_MR_VIRT_ADDR);
	tgt = aligned_alloc(64, 4096);
	mr = reg(&p, 1, tgt, 4096, FI_REMOTE_WRITE | FI_REMOTE_READ, 3);
	key = fi_mr_key(mr);
	for (i = 0; i < 64; i++) {
		tgt[i] = 1000 + (uint64_t)i;
		ops[i] = (uint64_t)i * 3;
		want[i] = tgt[i] + ops[i];
	}
	/* fi_atomicv: 3 iocs of 10 + 20 + 34 elements, SUM */
	ioc[0] = (struct fi_ioc){ ops, 10 };
	ioc[1] = (struct fi_ioc){ ops + 10, 20 };
	ioc[2] = (struct fi_ioc){ ops + 30, 34 };
	ck_assert_int_eq(fi_atomicv(p.s[0].ep, ioc, NULL, 3, p.s[0].peer,
				    (uint64_t)(uintptr_t)tgt, key, FI_UINT64,
				    FI_SUM, (void *)1), 0);
	wait_ok(&p, (void *)1, FI_ATOMIC | FI_WRITE);
	ck_assert(!memcmp(tgt, want, sizeof(want)));
	/* fetch into 2 result iocs: prior values come back in order */
	rioc[0] = (struct fi_ioc){ res, 40 };
	rioc[1] = (struct fi_ioc){ res + 40, 24 };
	ck_assert_int_eq(fi_fetch_atomicv(p.s[0].ep, ioc, NULL, 3, rioc, NULL,
					  2, p.s[0].peer,
					  (uint64_t)(uintptr_t)tgt, key,
					  FI_UINT64, FI_SUM, (void *)2), 0);
	wait_ok(&p, (void *)2, FI_ATOMIC | FI_READ);
	ck_assert(!memcmp(res, want, sizeof(want)));
	for (i = 0; i < 64; i++)
		want[i] += ops[i];
	ck_assert(!memcmp(tgt, want, sizeof(want)));
	/* ATOMIC_READ with no operand buffer, 64 elements */
	memset(res, 0, sizeof(res));
	ck_assert_int_eq(fi_fetch_atomic(p.s[0].ep, NULL, 64, NULL, res, NULL,
					 p.s[0].peer, (uint64_t)(uintptr_t)tgt,
					 key, FI_UINT64, FI_ATOMIC_READ,
					 (void *)3), 0);
	wait_ok(&p, (void *)3, FI_ATOMIC | FI_READ);
	ck_assert(!memcmp(res, want, sizeof(want)));
	/* inject, gathered from 3 iocs; the operands may change at once */
	ck_assert_int_eq(fi_atomicvalid(p.s[0].ep, FI_UINT64, FI_ATOMIC_WRITE,
					&count), 0);
	ck_assert_uint_eq(count, 64);
	ck_assert_int_eq(fi_inject_atomic(p.s[0].ep, ops, 64, p.s[0].peer,
					  (uint64_t)(uintptr_t)tgt, key,
					  FI_UINT64, FI_ATOMIC_WRITE), 0);
	memset(ops, 0xff, sizeof(ops));
	wait_cntr(&p, p.s[0].wc, 2);
	for (i = 0; i < 64; i++)
		ck_assert_uint_eq(tgt[i], (uint64_t)i * 3);
	ck_assert_int_eq(fi_close(&mr->fid), 0);
	free(tgt);
	pair_close(&p);
}
END_TEST

/* Four processes fetch-add one word of a fifth: the final value is exact
 * and every prior value is seen once. */
#define NPROC	4
#define NADD	100

static int child_adder(const uint8_t *name, size_t namelen, uint64_t key,
		       uint64_t ra, uint64_t *priors)
{
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_TAGGED };
	struct fi_av_attr ava = { .type = FI_AV_TABLE };
	struct fi_cq_tagged_entry e;
	struct fid_fabric *fab;
	struct fid_domain *dom;
	struct fid_cq *cq;
	struct fid_av *av;
	struct fid_ep *ep;
	struct fi_info *info = uet_test_lo_info(API, FI_ATOMIC);
	fi_addr_t peer;
	uint64_t one = 1, end;
	int i;
	ssize_t r;

	if (uet_fabric(info->fabric_attr, &fab, NULL) ||
	    fi_domain(fab, info, &dom, NULL) ||
	    fi_cq_open(dom, &cqa, &cq, NULL) ||
	    fi_av_open(dom, &ava, &av, NULL) ||
	    fi_endpoint(dom, info, &ep, NULL) ||
	    fi_ep_bind(ep, &cq->fid, FI_TRANSMIT | FI_RECV) ||
	    fi_ep_bind(ep, &av->fid, 0) || fi_enable(ep))
		return 2;
	(void)namelen;
	if (fi_av_insert(av, name, 1, &peer, 0, NULL) != 1)
		return 3;
	for (i = 0; i < NADD; i++) {
		/* -FI_EAGAIN: progress (manual) and try again, within the
		 * bound: this loop once spun without progress, and three
		 * children hung until the parent gave up (CI) */
		end = uet_clock_now_ns() + WAIT_MS * UET_NSEC_PER_MSEC;
		while ((r = fi_fetch_atomic(ep, &one, 1, NULL, &priors[i],
					    NULL, peer, ra, key, FI_UINT64,
					    FI_SUM, NULL)) == -FI_EAGAIN &&
		       uet_clock_now_ns() < end)
			(void)fi_cq_read(cq, NULL, 0);
		if (r)
			return 4;
		end = uet_clock_now_ns() + WAIT_MS * UET_NSEC_PER_MSEC;
		while ((r = fi_cq_read(cq, &e, 1)) == -FI_EAGAIN &&
		       uet_clock_now_ns() < end)
			;
		if (r != 1)
			return 5;
	}
	fi_close(&ep->fid);
	fi_close(&av->fid);
	fi_close(&cq->fid);
	fi_close(&dom->fid);
	fi_close(&fab->fid);
	fi_freeinfo(info);
	return 0;
}

START_TEST(test_fetch_add_4procs)
{
	uint64_t *word, *priors;
	uint8_t name[64], *seen;
	struct fid_mr *mr;
	struct pair p;
	pid_t pid[NPROC];
	size_t len = sizeof(name);
	uint64_t end;
	int i, st, left = NPROC;

	pair_open(&p, 0);
	word = aligned_alloc(64, 64);
	*word = 0;
	mr = reg(&p, 1, word, 64, FI_REMOTE_WRITE | FI_REMOTE_READ, 0x4444);
	ck_assert_int_eq(fi_getname(&p.s[1].ep->fid, name, &len), 0);
	priors = mmap(NULL, NPROC * NADD * sizeof(uint64_t),
		      PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
		      0);
	ck_assert(priors != MAP_FAILED);
	memset(priors, 0xff, NPROC * NADD * sizeof(uint64_t));
	for (i = 0; i < NPROC; i++) {
		pid[i] = fork();
		ck_assert_int_ge(pid[i], 0);
		if (!pid[i])
			_exit(child_adder(name, len, fi_mr_key(mr), 0,
					  priors + i * NADD));
	}
	/* the target only progresses here */
	end = uet_clock_now_ns() + 60000 * UET_NSEC_PER_MSEC;
	while (left && uet_clock_now_ns() < end) {
		fi_cq_read(p.s[1].cq, NULL, 0);
		for (i = 0; i < NPROC; i++) {
			if (pid[i] <= 0 || waitpid(pid[i], &st, WNOHANG) !=
			    pid[i])
				continue;
			ck_assert_msg(WIFEXITED(st) && !WEXITSTATUS(st),
				      "child %d: status %#x", i, st);
			pid[i] = 0;
			left--;
		}
	}
	ck_assert_int_eq(left, 0);
	ck_assert_uint_eq(*word, NPROC * NADD);
	seen = calloc(NPROC * NADD, 1);
	for (i = 0; i < NPROC * NADD; i++) {
		ck_assert_uint_lt(priors[i], NPROC * NADD);
		ck_assert_uint_eq(seen[priors[i]], 0);
		seen[priors[i]] = 1;
	}
	wait_cntr(&p, p.s[1].rrc, NPROC * NADD);
	free(seen);
	munmap(priors, NPROC * NADD * sizeof(uint64_t));
	ck_assert_int_eq(fi_close(&mr->fid), 0);
	free(word);
	pair_close(&p);
}
END_TEST

#if FI_MAJOR_VERSION >= 2
/*
 * FI_INT128 / FI_UINT128 (libfabric 2.x): offered in the UE 1.0.1 wire
 * profile, whose datatype table has them, and not in UE+ (P-24): a sum
 * that carries across the 64-bit halves, a signed MIN, a fetch and a
 * compare-and-swap, end to end.
 */
START_TEST(test_atomic_int128)
{
	__extension__ typedef __int128 i128_t;
	struct fi_atomic_attr attr;
	i128_t *tgt, o[2], res[2], cmp, want;
	struct fid_mr *mr;
	struct pair p;
	uint64_t key;

	setenv("FI_UET_WIRE", "ueplus", 1);
	pair_open(&p, FI_MR_VIRT_ADDR);
	ck_assert_int_eq(fi_query_atomic(p.s[0].dom, FI_INT128, FI_SUM, &attr,
					 0), -FI_EOPNOTSUPP);
	pair_close(&p);
	setenv("FI_UET_WIRE", "ue", 1);
	pair_open(&p, FI_MR_VIRT_ADDR);
	ck_assert_int_eq(fi_query_atomic(p.s[0].dom, FI_INT128, FI_SUM, &attr,
					 0), 0);
	ck_assert_uint_eq(attr.size, 16);
	ck_assert_int_eq(fi_query_atomic(p.s[0].dom, FI_UINT128, FI_CSWAP,
					 &attr, FI_COMPARE_ATOMIC), 0);
	tgt = aligned_alloc(64, 64);
	tgt[0] = ((i128_t)1 << 64) - 1;		/* 2^64 - 1 */
	tgt[1] = -((i128_t)5 << 80);
	mr = reg(&p, 1, tgt, 64, FI_REMOTE_WRITE | FI_REMOTE_READ, 0x128);
	key = fi_mr_key(mr);
	o[0] = 1;
	o[1] = 3;
	ck_assert_int_eq(fi_atomic(p.s[0].ep, o, 2, NULL, p.s[0].peer,
				   (uint64_t)(uintptr_t)tgt, key, FI_INT128,
				   FI_SUM, (void *)1), 0);
	wait_ok(&p, (void *)1, FI_ATOMIC | FI_WRITE);
	ck_assert(tgt[0] == ((i128_t)1 << 64));	/* the carry crossed */
	ck_assert(tgt[1] == -((i128_t)5 << 80) + 3);
	/* signed MIN: the negative one stays */
	o[0] = -((i128_t)1 << 100);
	o[1] = 0;
	ck_assert_int_eq(fi_fetch_atomic(p.s[0].ep, o, 2, NULL, res, NULL,
					 p.s[0].peer, (uint64_t)(uintptr_t)tgt,
					 key, FI_INT128, FI_MIN, (void *)2),
			 0);
	wait_ok(&p, (void *)2, FI_ATOMIC | FI_READ);
	ck_assert(res[0] == ((i128_t)1 << 64));
	ck_assert(tgt[0] == -((i128_t)1 << 100));
	ck_assert(tgt[1] == -((i128_t)5 << 80) + 3);
	/* compare-and-swap on the full 128 bits */
	want = (i128_t)0x1234 << 70;
	cmp = -((i128_t)1 << 100);
	ck_assert_int_eq(fi_compare_atomic(p.s[0].ep, &want, 1, NULL, &cmp,
					   NULL, res, NULL, p.s[0].peer,
					   (uint64_t)(uintptr_t)tgt, key,
					   FI_INT128, FI_CSWAP, (void *)3), 0);
	wait_ok(&p, (void *)3, FI_ATOMIC | FI_READ);
	ck_assert(res[0] == cmp);
	ck_assert(tgt[0] == want);
	ck_assert_int_eq(fi_close(&mr->fid), 0);
	free(tgt);
	pair_close(&p);
	unsetenv("FI_UET_WIRE");
}
END_TEST
#endif

/* Failures come back as error completions; the target is untouched. */
START_TEST(test_rma_errors)
{
	uint8_t *dst, src[256], back[256];
	struct fi_cq_err_entry err;
	struct fid_mr *mr, *ro, *wo;
	struct pair p;
	uint64_t key;
	uint32_t v = 1, r;
	char buf[256];

	pair_open(&p, mr_modes[_i]);
	dst = aligned_alloc(64, 8192);
	memset(dst, 0x3c, 8192);
	uet_test_fill(src, sizeof(src), 1);
	mr = reg(&p, 1, dst, 1024, FI_REMOTE_WRITE | FI_REMOTE_READ, 0x100);
	ro = reg(&p, 1, dst + 2048, 1024, FI_REMOTE_READ, 0x200);
	wo = reg(&p, 1, dst + 4096, 1024, FI_REMOTE_WRITE, 0x300);

	/* out of range: past the end, and straddling it */
	ck_assert_int_eq(fi_write(p.s[0].ep, src, 100, NULL, p.s[0].peer,
				  raddr(&p, dst, dst + 1000), fi_mr_key(mr),
				  (void *)1), 0);
	err = wait_err(&p, (void *)1);
	ck_assert_int_eq(err.err, FI_EINVAL);
	ck_assert_int_eq(err.prov_errno, UET_RC_AT_OUT_OF_RANGE);
	ck_assert_ptr_nonnull(strstr(fi_cq_strerror(p.s[0].cq, err.prov_errno,
						    NULL, buf, sizeof(buf)),
				     "outside the memory region"));
	ck_assert_int_eq(fi_read(p.s[0].ep, back, 8, NULL, p.s[0].peer,
				 raddr(&p, dst, dst + 1024), fi_mr_key(mr),
				 (void *)2), 0);
	ck_assert_int_eq(wait_err(&p, (void *)2).err, FI_EINVAL);
	/* no permission */
	ck_assert_int_eq(fi_write(p.s[0].ep, src, 16, NULL, p.s[0].peer,
				  raddr(&p, dst + 2048, dst + 2048),
				  fi_mr_key(ro), (void *)3), 0);
	err = wait_err(&p, (void *)3);
	ck_assert_int_eq(err.err, FI_EACCES);
	ck_assert_int_eq(err.prov_errno, UET_RC_PERM_VIOLATION);
	ck_assert_int_eq(fi_read(p.s[0].ep, back, 16, NULL, p.s[0].peer,
				 raddr(&p, dst + 4096, dst + 4096),
				 fi_mr_key(wo), (void *)4), 0);
	ck_assert_int_eq(wait_err(&p, (void *)4).err, FI_EACCES);
	/* fetching atomics need remote read too */
	ck_assert_int_eq(fi_fetch_atomic(p.s[0].ep, &v, 1, NULL, &r, NULL,
					 p.s[0].peer,
					 raddr(&p, dst + 4096, dst + 4096),
					 fi_mr_key(wo), FI_UINT32, FI_SUM,
					 (void *)5), 0);
	ck_assert_int_eq(wait_err(&p, (void *)5).err, FI_EACCES);
	/* unaligned atomic */
	ck_assert_int_eq(fi_atomic(p.s[0].ep, &v, 1, NULL, p.s[0].peer,
				   raddr(&p, dst, dst + 2), fi_mr_key(mr),
				   FI_UINT32, FI_SUM, (void *)6), 0);
	ck_assert_int_eq(wait_err(&p, (void *)6).err, FI_EINVAL);
	/* a key nobody registered */
	ck_assert_int_eq(fi_write(p.s[0].ep, src, 16, NULL, p.s[0].peer, 0,
				  0x7777, (void *)7), 0);
	err = wait_err(&p, (void *)7);
	ck_assert_int_eq(err.err, FI_EACCES);
	ck_assert_ptr_nonnull(strstr(fi_cq_strerror(p.s[0].cq, err.prov_errno,
						    NULL, buf, sizeof(buf)),
				     "key"));
	/* MR closed: later writes fail, the bytes stay */
	key = fi_mr_key(mr);
	ck_assert_int_eq(fi_close(&mr->fid), 0);
	ck_assert_int_eq(fi_write(p.s[0].ep, src, 64, NULL, p.s[0].peer,
				  raddr(&p, dst, dst), key, (void *)8), 0);
	err = wait_err(&p, (void *)8);
	ck_assert_int_eq(err.err, FI_EACCES);
	ck_assert(err.prov_errno == UET_RC_BAD_MKEY ||
		  err.prov_errno == UET_RC_BAD_GENERATION);
	ck_assert_int_eq(fi_atomic(p.s[0].ep, &v, 1, NULL, p.s[0].peer,
				   raddr(&p, dst, dst), key, FI_UINT32,
				   FI_SUM, (void *)9), 0);
	ck_assert_int_eq(wait_err(&p, (void *)9).err, FI_EACCES);
	ck_assert_uint_eq(fi_cntr_readerr(p.s[0].wc), 6);
	ck_assert_uint_eq(fi_cntr_readerr(p.s[0].rc), 3);
	{
		size_t k;

		for (k = 0; k < 8192; k++)
			ck_assert_uint_eq(dst[k], 0x3c);
	}
	/* nothing reached the target's counters */
	settle(&p, 50);
	ck_assert_uint_eq(fi_cntr_read(p.s[1].rwc), 0);
	ck_assert_uint_eq(fi_cntr_read(p.s[1].rrc), 0);
	ck_assert_int_eq(fi_close(&ro->fid), 0);
	ck_assert_int_eq(fi_close(&wo->fid), 0);
	free(dst);
	pair_close(&p);
}
END_TEST

/* Remote counters: of the endpoint, and of each MR (fi_mr_bind). */
START_TEST(test_remote_counters)
{
	static uint8_t a[1024], b[1024], src[64], back[64];
	struct fid_mr *ma, *mb;
	struct fid_cntr *ca, *cb;
	struct pair p;
	uint32_t one = 1, prior;
	int i;

	pair_open(&p, 0);
	ma = reg(&p, 1, a, sizeof(a), FI_REMOTE_WRITE | FI_REMOTE_READ, 1);
	mb = reg(&p, 1, b, sizeof(b), FI_REMOTE_WRITE | FI_REMOTE_READ, 2);
	cntr_open(p.s[1].dom, &ca);
	cntr_open(p.s[1].dom, &cb);
	ck_assert_int_eq(fi_mr_bind(ma, &ca->fid, FI_REMOTE_WRITE), 0);
	ck_assert_int_eq(fi_mr_bind(mb, &cb->fid,
				    FI_REMOTE_WRITE | FI_REMOTE_READ), 0);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(fi_write(p.s[0].ep, src, 64, NULL,
					  p.s[0].peer, 64, 1, NULL), 0);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(fi_read(p.s[0].ep, back, 64, NULL,
					 p.s[0].peer, 0, 1, NULL), 0);
	ck_assert_int_eq(fi_write(p.s[0].ep, src, 64, NULL, p.s[0].peer, 0,
				  2, NULL), 0);
	ck_assert_int_eq(fi_read(p.s[0].ep, back, 64, NULL, p.s[0].peer, 0, 2,
				 NULL), 0);
	/* RUD does not order these two: the prior value is 0 or 1 */
	ck_assert_int_eq(fi_atomic(p.s[0].ep, &one, 1, NULL, p.s[0].peer, 128,
				   2, FI_UINT32, FI_SUM, NULL), 0);
	ck_assert_int_eq(fi_fetch_atomic(p.s[0].ep, &one, 1, NULL, &prior,
					 NULL, p.s[0].peer, 128, 2, FI_UINT32,
					 FI_SUM, NULL), 0);
	wait_cntr(&p, p.s[0].wc, 5);
	wait_cntr(&p, p.s[0].rc, 4);
	/* endpoint: writes and atomics; reads and fetching atomics */
	wait_cntr(&p, p.s[1].rwc, 5);
	wait_cntr(&p, p.s[1].rrc, 4);
	/* MR a counts its writes only; MR b everything */
	wait_cntr(&p, ca, 3);
	wait_cntr(&p, cb, 4);
	ck_assert_uint_le(prior, 1);
	ck_assert_uint_eq(b[128] + b[129], 2);
	ck_assert_int_eq(fi_close(&ma->fid), 0);
	ck_assert_int_eq(fi_close(&mb->fid), 0);
	ck_assert_int_eq(fi_close(&ca->fid), 0);
	ck_assert_int_eq(fi_close(&cb->fid), 0);
	pair_close(&p);
}
END_TEST

/* The remote address of byte k of a region of several segments (byte 0
 * at seg0). */
static uint64_t raddr_k(const struct pair *p, const void *seg0, uint64_t k)
{
	return p->virt ? (uint64_t)(uintptr_t)seg0 + k : k;
}

/* Byte k of the concatenation of segs. */
static uint8_t *seg_byte(const struct iovec *segs, size_t n, uint64_t k)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (k < segs[i].iov_len)
			return (uint8_t *)segs[i].iov_base + k;
		k -= segs[i].iov_len;
	}
	return NULL;
}

/* fi_mr_regv: a region of four separate buffers; writes and reads at
 * offsets that cross their boundaries (one packet and many), atomics
 * inside one segment, refused across two; more than mr_iov_limit
 * iovs refused. */
START_TEST(test_mr_regv_segments)
{
	static const size_t lens[4] = { 100, 37, 5000, 20000 };
	const size_t total = 100 + 37 + 5000 + 20000;
	struct iovec segs[4], many[9];
	uint8_t *src, *back;
	uint8_t add[4] = { 1, 2, 3, 4 };
	struct fi_cq_err_entry err;
	struct fid_mr *mr, *bad = NULL;
	struct pair p;
	uint64_t key, k;
	size_t i;

	pair_open(&p, mr_modes[_i]);
	ck_assert_uint_eq(p.info->domain_attr->mr_iov_limit, 8);
	for (i = 0; i < 4; i++) {
		segs[i].iov_base = malloc(lens[i]);
		ck_assert_ptr_nonnull(segs[i].iov_base);
		memset(segs[i].iov_base, 0xee, lens[i]);
		segs[i].iov_len = lens[i];
	}
	src = malloc(total);
	back = malloc(total);
	ck_assert(src && back);
	ck_assert_int_eq(fi_mr_regv(p.s[1].dom, segs, 4,
				    FI_REMOTE_WRITE | FI_REMOTE_READ, 0, 0x51,
				    0, &mr, NULL), 0);
	key = fi_mr_key(mr);

	/* 200 bytes from byte 50: the end of A, all of B, the start of C */
	uet_test_fill(src, 200, 3);
	ck_assert_int_eq(fi_write(p.s[0].ep, src, 200, NULL, p.s[0].peer,
				  raddr_k(&p, segs[0].iov_base, 50), key,
				  (void *)0x21), 0);
	wait_ok(&p, (void *)0x21, FI_RMA | FI_WRITE);
	ck_assert(!memcmp((uint8_t *)segs[0].iov_base + 50, src, 50));
	ck_assert(!memcmp(segs[1].iov_base, src + 50, 37));
	ck_assert(!memcmp(segs[2].iov_base, src + 87, 113));
	ck_assert_uint_eq(((uint8_t *)segs[0].iov_base)[49], 0xee);
	ck_assert_uint_eq(((uint8_t *)segs[2].iov_base)[113], 0xee);
	memset(back, 0, 200);
	ck_assert_int_eq(fi_read(p.s[0].ep, back, 200, NULL, p.s[0].peer,
				 raddr_k(&p, segs[0].iov_base, 50), key,
				 (void *)0x22), 0);
	wait_ok(&p, (void *)0x22, FI_RMA | FI_READ);
	ck_assert(!memcmp(back, src, 200));

	/* many packets: from byte 120 (in B) through C into D */
	uet_test_fill(src, 24000, 4);
	ck_assert_int_eq(fi_write(p.s[0].ep, src, 24000, NULL, p.s[0].peer,
				  raddr_k(&p, segs[0].iov_base, 120), key,
				  (void *)0x23), 0);
	wait_ok(&p, (void *)0x23, FI_RMA | FI_WRITE);
	for (k = 0; k < 24000; k++)
		if (*seg_byte(segs, 4, 120 + k) != src[k])
			ck_abort_msg("byte %llu of the region differs",
				     (unsigned long long)(120 + k));
	ck_assert_uint_eq(*seg_byte(segs, 4, 120 + 24000), 0xee);
	memset(back, 0, total);
	ck_assert_int_eq(fi_read(p.s[0].ep, back, total, NULL, p.s[0].peer,
				 raddr_k(&p, segs[0].iov_base, 0), key,
				 (void *)0x24), 0);
	wait_ok(&p, (void *)0x24, FI_RMA | FI_READ);
	for (k = 0; k < total; k++)
		if (back[k] != *seg_byte(segs, 4, k))
			ck_abort_msg("read byte %llu differs",
				     (unsigned long long)k);
	/* past the end of the whole region */
	ck_assert_int_eq(fi_read(p.s[0].ep, back, 2, NULL, p.s[0].peer,
				 raddr_k(&p, segs[0].iov_base, total - 1),
				 key, (void *)0x25), 0);
	ck_assert_int_eq(wait_err(&p, (void *)0x25).err, FI_EINVAL);

	/* atomics: inside B, and across A and B (refused, nothing
	 * changed) */
	memset(segs[1].iov_base, 0, 37);
	ck_assert_int_eq(fi_atomic(p.s[0].ep, add, 4, NULL, p.s[0].peer,
				   raddr_k(&p, segs[0].iov_base, 100), key,
				   FI_UINT8, FI_SUM, (void *)0x26), 0);
	wait_ok(&p, (void *)0x26, FI_ATOMIC | FI_WRITE);
	ck_assert(!memcmp(segs[1].iov_base, add, 4));
	memset(segs[0].iov_base, 0, 100);
	ck_assert_int_eq(fi_atomic(p.s[0].ep, add, 4, NULL, p.s[0].peer,
				   raddr_k(&p, segs[0].iov_base, 98), key,
				   FI_UINT8, FI_SUM, (void *)0x27), 0);
	err = wait_err(&p, (void *)0x27);
	ck_assert_int_eq(err.err, FI_EINVAL);
	ck_assert_int_eq(err.prov_errno, UET_RC_AT_OUT_OF_RANGE);
	ck_assert_uint_eq(((uint8_t *)segs[0].iov_base)[98], 0);
	ck_assert_uint_eq(((uint8_t *)segs[1].iov_base)[0], 1);

	/* more iovs than mr_iov_limit; a NULL iov with bytes */
	for (i = 0; i < 9; i++) {
		many[i].iov_base = back + i;
		many[i].iov_len = 1;
	}
	ck_assert_int_eq(fi_mr_regv(p.s[1].dom, many, 9, FI_REMOTE_READ, 0,
				    0x52, 0, &bad, NULL), -FI_EINVAL);
	many[3].iov_base = NULL;
	ck_assert_int_eq(fi_mr_regv(p.s[1].dom, many, 8, FI_REMOTE_READ, 0,
				    0x53, 0, &bad, NULL), -FI_EINVAL);
	ck_assert_ptr_null(bad);

	ck_assert_int_eq(fi_close(&mr->fid), 0);
	for (i = 0; i < 4; i++)
		free(segs[i].iov_base);
	free(src);
	free(back);
	pair_close(&p);
}
END_TEST

static Suite *prov_rma_suite(void)
{
	Suite *s = suite_create("prov_rma");
	TCase *tc = tcase_create("objects");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_atomic_valid);
	tcase_add_test(tc, test_mr_keys_and_binds);
	tcase_add_test(tc, test_mr_cntr_alone);
	tcase_add_test(tc, test_rma_bad_args);
	tcase_add_test(tc, test_dgram_no_rma);
	suite_add_tcase(s, tc);
	tc = tcase_create("data");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_rma_sizes, 0, 4);
	tcase_add_test(tc, test_rma_vec_inject_more);
	tcase_add_test(tc, test_rma_writedata);
	tcase_add_test(tc, test_rma_multi_segment);
	tcase_add_loop_test(tc, test_mr_regv_segments, 0, 4);
	tcase_add_test(tc, test_atomic_matrix);
	tcase_add_test(tc, test_atomic_vectors);
#if FI_MAJOR_VERSION >= 2
	tcase_add_test(tc, test_atomic_int128);
#endif
	tcase_add_test(tc, test_fetch_add_4procs);
	tcase_add_loop_test(tc, test_rma_errors, 0, 2);
	tcase_add_test(tc, test_remote_counters);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(prov_rma_suite)
