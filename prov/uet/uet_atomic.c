/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Atomics: fi_atomic*, fi_fetch_atomic*, fi_compare_atomic* become one HSI
 * ATOMIC command each (docs/conformance.md E-6):
 *
 *   variant    SEND (fi_atomic), INJECT (fi_inject_atomic / FI_INJECT:
 *              the device copies the operand when the doorbell rings),
 *              RECV (fetching and compare atomics)
 *   data       the operand elements.  fi_atomic: <= 32 bytes INLINE
 *              (copied now), else one SGL entry per fi_ioc; FI_INJECT
 *              gathers them into one buffer first.  Fetching: one SGL
 *              entry per fi_ioc (a segment with inline data can carry
 *              no result entries).  Compare: 2 SGL entries, the swap
 *              value (buf) then the compare value (the mask of FI_MSWAP)
 *   results    fetching / compare: one trailing SGL entry per result
 *              fi_ioc, counted in the extension's nresult
 *   tag, dest, metadata, flags: as RMA (uet_rma.c); the extension has
 *              remote_addr, amo_op, amo_dtype (contract section 5 values)
 *
 * What uet supports is what the software NIC's atomic engine does:
 * INT8..UINT64, FLOAT, DOUBLE, FLOAT_COMPLEX, DOUBLE_COMPLEX; MIN/MAX and
 * CSWAP_LE..GT not on complex types; the logical and bitwise operations
 * and MSWAP on integers only.  At most amo_max operand bytes per
 * operation (fi_atomicvalid's count), one element for compare atomics.
 */
#include "config.h"

#include <string.h>

#include "uet_hmem.h"
#include "uet_post.h"
#include "uet_prov.h"
#include "uet_wire_consts.h"

#define UET_AMO_FLAGS	(FI_COMPLETION | FI_INJECT | FI_REMOTE_CQ_DATA | \
			 FI_INJECT_COMPLETE | FI_TRANSMIT_COMPLETE |	\
			 FI_DELIVERY_COMPLETE | FI_MORE | FI_FENCE)
/* The gather buffer of FI_INJECT atomics; devices may allow less
 * (uet_domain.amo_max). */
#define UET_AMO_BUF_MAX	512u
#define UET_AMO_ELEM_MAX 16u	/* DOUBLE_COMPLEX */

enum uet_amo_kind {
	UET_AMO_KIND_WRITE,	/* fi_atomic: no result */
	UET_AMO_KIND_FETCH,	/* fi_fetch_atomic */
	UET_AMO_KIND_COMPARE,	/* fi_compare_atomic */
};

struct uet_amo_req {
	enum uet_amo_kind kind;
	const struct fi_ioc *iov;
	size_t count;
	const struct fi_ioc *cmp;	/* COMPARE */
	size_t ccount;
	const struct fi_ioc *res;	/* FETCH, COMPARE */
	size_t rcount;
	fi_addr_t dest_addr;
	uint64_t raddr;
	uint64_t key;
	enum fi_datatype dt;
	enum fi_op op;
	void *context;
	uint64_t flags;
	uint64_t data;
	unsigned int opts;		/* UET_POST_SILENT: fi_inject_atomic */
};

/* ---- what is supported ---- */

static bool uet_amo_map_dtype(enum fi_datatype dt, uint8_t *udt, size_t *size)
{
	switch (dt) {
	case FI_INT8:		*udt = UET_AMO_INT8; *size = 1; return true;
	case FI_UINT8:		*udt = UET_AMO_UINT8; *size = 1; return true;
	case FI_INT16:		*udt = UET_AMO_INT16; *size = 2; return true;
	case FI_UINT16:		*udt = UET_AMO_UINT16; *size = 2; return true;
	case FI_INT32:		*udt = UET_AMO_INT32; *size = 4; return true;
	case FI_UINT32:		*udt = UET_AMO_UINT32; *size = 4; return true;
	case FI_INT64:		*udt = UET_AMO_INT64; *size = 8; return true;
	case FI_UINT64:		*udt = UET_AMO_UINT64; *size = 8; return true;
	case FI_FLOAT:		*udt = UET_AMO_FLOAT; *size = 4; return true;
	case FI_DOUBLE:		*udt = UET_AMO_DOUBLE; *size = 8; return true;
	case FI_FLOAT_COMPLEX:
		*udt = UET_AMO_FLOAT_COMPLEX;
		*size = 8;
		return true;
	case FI_DOUBLE_COMPLEX:
		*udt = UET_AMO_DOUBLE_COMPLEX;
		*size = 16;
		return true;
#if FI_MAJOR_VERSION >= 2
	/* UE 1.0.1 only: UE+ has no code (uet_amo_check) */
	case FI_INT128:		*udt = UET_AMO_INT128; *size = 16; return true;
	case FI_UINT128:	*udt = UET_AMO_UINT128; *size = 16; return true;
#endif
	default:		/* LONG_DOUBLE*, FLOAT16, ... */
		return false;
	}
}

static bool uet_amo_map_op(enum fi_op op, uint8_t *uop)
{
	switch (op) {
	case FI_MIN:		*uop = UET_AMO_MIN; return true;
	case FI_MAX:		*uop = UET_AMO_MAX; return true;
	case FI_SUM:		*uop = UET_AMO_SUM; return true;
	case FI_PROD:		*uop = UET_AMO_PROD; return true;
	case FI_LOR:		*uop = UET_AMO_LOR; return true;
	case FI_LAND:		*uop = UET_AMO_LAND; return true;
	case FI_BOR:		*uop = UET_AMO_BOR; return true;
	case FI_BAND:		*uop = UET_AMO_BAND; return true;
	case FI_LXOR:		*uop = UET_AMO_LXOR; return true;
	case FI_BXOR:		*uop = UET_AMO_BXOR; return true;
	case FI_ATOMIC_READ:	*uop = UET_AMO_READ; return true;
	case FI_ATOMIC_WRITE:	*uop = UET_AMO_WRITE; return true;
	case FI_CSWAP:		*uop = UET_AMO_CSWAP; return true;
	case FI_CSWAP_NE:	*uop = UET_AMO_CSWAP_NE; return true;
	case FI_CSWAP_LE:	*uop = UET_AMO_CSWAP_LE; return true;
	case FI_CSWAP_LT:	*uop = UET_AMO_CSWAP_LT; return true;
	case FI_CSWAP_GE:	*uop = UET_AMO_CSWAP_GE; return true;
	case FI_CSWAP_GT:	*uop = UET_AMO_CSWAP_GT; return true;
	case FI_MSWAP:		*uop = UET_AMO_MSWAP; return true;
	default:
		return false;
	}
}

static bool uet_amo_is_compare(uint8_t uop)
{
	return uop >= UET_AMO_CSWAP && uop <= UET_AMO_MSWAP;
}

static bool uet_amo_is_int(uint8_t udt)
{
	return udt <= UET_AMO_UINT64 || udt == UET_AMO_INT128 ||
	       udt == UET_AMO_UINT128;
}

static bool uet_amo_is_complex(uint8_t udt)
{
	return udt == UET_AMO_FLOAT_COMPLEX || udt == UET_AMO_DOUBLE_COMPLEX;
}

/* Does the NIC do uop on udt? */
static bool uet_amo_pair_ok(uint8_t uop, uint8_t udt)
{
	switch (uop) {
	case UET_AMO_MIN:
	case UET_AMO_MAX:
	case UET_AMO_CSWAP_LE:
	case UET_AMO_CSWAP_LT:
	case UET_AMO_CSWAP_GE:
	case UET_AMO_CSWAP_GT:
		return !uet_amo_is_complex(udt);
	case UET_AMO_LOR:
	case UET_AMO_LAND:
	case UET_AMO_LXOR:
	case UET_AMO_BOR:
	case UET_AMO_BAND:
	case UET_AMO_BXOR:
	case UET_AMO_MSWAP:
		return uet_amo_is_int(udt);
	default:
		return true;
	}
}

/* Is (dt, op) valid for kind?  Fills the UET codes and the element size;
 * -FI_EOPNOTSUPP otherwise. */
static int uet_amo_check(const struct uet_domain *dom,
			 enum uet_amo_kind kind, enum fi_datatype dt,
			 enum fi_op op, uint8_t *uop, uint8_t *udt,
			 size_t *size)
{
	if (!uet_amo_map_dtype(dt, udt, size) || !uet_amo_map_op(op, uop))
		return -FI_EOPNOTSUPP;
	/* 128-bit integers have a code in UE 1.0.1's table only */
	if ((*udt == UET_AMO_INT128 || *udt == UET_AMO_UINT128) &&
	    dom->addr.wire != FI_UET_WIRE_UE)
		return -FI_EOPNOTSUPP;
	switch (kind) {
	case UET_AMO_KIND_WRITE:
		if (*uop == UET_AMO_READ || uet_amo_is_compare(*uop))
			return -FI_EOPNOTSUPP;
		break;
	case UET_AMO_KIND_FETCH:
		if (uet_amo_is_compare(*uop))
			return -FI_EOPNOTSUPP;
		break;
	case UET_AMO_KIND_COMPARE:
		if (!uet_amo_is_compare(*uop))
			return -FI_EOPNOTSUPP;
		break;
	}
	return uet_amo_pair_ok(*uop, *udt) ? 0 : -FI_EOPNOTSUPP;
}

static size_t uet_amo_max(const struct uet_domain *dom)
{
	return dom->amo_max && dom->amo_max < UET_AMO_BUF_MAX ?
	       dom->amo_max : UET_AMO_BUF_MAX;
}

size_t uet_amo_max_bytes(const struct uet_domain *dom)
{
	return uet_amo_max(dom);
}

/* Largest element count of one operation. */
static int uet_amo_valid(struct uet_domain *dom, enum uet_amo_kind kind,
			 enum fi_datatype dt, enum fi_op op, size_t *count)
{
	uint8_t uop, udt;
	size_t size;
	int ret;

	ret = uet_amo_check(dom, kind, dt, op, &uop, &udt, &size);
	if (ret)
		return ret;
	if (count)
		*count = kind == UET_AMO_KIND_COMPARE ? 1 :
			 uet_amo_max(dom) / size;
	return 0;
}

int uet_query_atomic(struct fid_domain *domain, enum fi_datatype datatype,
		     enum fi_op op, struct fi_atomic_attr *attr,
		     uint64_t flags)
{
	struct uet_domain *dom;
	enum uet_amo_kind kind;
	uint8_t uop, udt;
	size_t size;
	int ret;

	if (!domain || !attr)
		return -FI_EINVAL;
	if (flags & ~(uint64_t)(FI_FETCH_ATOMIC | FI_COMPARE_ATOMIC))
		return -FI_EOPNOTSUPP;	/* FI_TAGGED atomics and others */
	if ((flags & FI_FETCH_ATOMIC) && (flags & FI_COMPARE_ATOMIC))
		return -FI_EINVAL;
	dom = uet_container_of(domain, struct uet_domain, fid);
	kind = (flags & FI_COMPARE_ATOMIC) ? UET_AMO_KIND_COMPARE :
	       (flags & FI_FETCH_ATOMIC) ? UET_AMO_KIND_FETCH :
	       UET_AMO_KIND_WRITE;
	ret = uet_amo_check(dom, kind, datatype, op, &uop, &udt, &size);
#if FI_MAJOR_VERSION >= 2
	if (ret && (datatype == FI_INT128 || datatype == FI_UINT128))
		UET_INFO(FI_LOG_DOMAIN, "FI_INT128/FI_UINT128 atomics are "
			 "offered in the UE 1.0.1 wire profile only "
			 "(FI_UET_WIRE=ue): UE+'s datatype table has no "
			 "128-bit integer code (docs/conformance.md E-20, "
			 "P-24)\n");
#endif
	if (ret)
		return ret;
	attr->size = size;
	attr->count = kind == UET_AMO_KIND_COMPARE ? 1 :
		      uet_amo_max(dom) / size;
	return 0;
}

/* ---- posting ---- */

/* Elements of an fi_ioc list, as iovecs; false when there are too many
 * or the total overflows (NULL addresses: uet_iov_valid). */
static bool uet_amo_iov(const struct fi_ioc *ioc, size_t n, size_t size,
			struct iovec *iov, size_t *elems)
{
	size_t i, total = 0;

	if (n > UET_IOV_LIMIT || (n && !ioc))
		return false;
	for (i = 0; i < n; i++) {
		if (ioc[i].count > UET_AMO_BUF_MAX)
			return false;
		iov[i].iov_base = ioc[i].addr;
		iov[i].iov_len = ioc[i].count * size;
		total += ioc[i].count;
	}
	*elems = total;
	return true;
}

/* Copy n bytes of the iovecs to dst (zeros for a NULL base). */
static void uet_amo_gather(uint8_t *dst, const struct iovec *iov, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (iov[i].iov_base)
			memcpy(dst, iov[i].iov_base, iov[i].iov_len);
		else
			memset(dst, 0, iov[i].iov_len);
		dst += iov[i].iov_len;
	}
}

/* The first non-empty entry (there is one: the element count is 1). */
static const struct iovec *uet_amo_first(const struct iovec *iov, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n && !iov[i].iov_len; i++)
		;
	return &iov[i];
}

/* Stage the operand, compare and result lists in place (uet_hmem.h):
 * 0 or -FI_E* with *hb freed. */
static int uet_amo_stage(const struct uet_hmem_ops *h,
			 struct uet_hmem_bounce **hb,
			 const struct uet_amo_req *r, struct iovec *iov,
			 struct iovec *cmpv, struct iovec *res)
{
	const struct iovec *l;
	int ret;

	l = iov;
	ret = uet_hmem_stage_list(h, hb, &l, r->count, iov, UET_HMEM_OUT);
	if (!ret && r->kind == UET_AMO_KIND_COMPARE) {
		l = cmpv;
		ret = uet_hmem_stage_list(h, hb, &l, r->ccount, cmpv,
					  UET_HMEM_OUT);
	}
	if (!ret && r->kind != UET_AMO_KIND_WRITE) {
		l = res;
		ret = uet_hmem_stage_list(h, hb, &l, r->rcount, res,
					  UET_HMEM_IN);
	}
	return ret;
}

static ssize_t uet_amo_post(struct uet_ep *ep, const struct uet_amo_req *r)
{
	struct iovec iov[UET_IOV_LIMIT], res[UET_IOV_LIMIT];
	struct iovec cmpv[UET_IOV_LIMIT], cv[2], gv;
	uint8_t buf[UET_AMO_BUF_MAX];
	struct uet_hmem_bounce *hb = NULL;
	struct uet_post_cmd cmd;
	size_t size, n, nres = 0, ncmp = 0, len;
	uint64_t dir, flags = r->flags;
	uint8_t uop, udt;
	bool is_read;
	int ret;

	dir = r->kind == UET_AMO_KIND_WRITE ? FI_WRITE : FI_READ;
	if (!(ep->caps & FI_ATOMIC) || !(ep->caps & dir))
		return -FI_EOPNOTSUPP;
	ret = uet_amo_check(ep->domain, r->kind, r->dt, r->op, &uop, &udt,
			    &size);
	if (ret)
		return ret;
	if (flags & ~(uint64_t)UET_AMO_FLAGS)
		return -FI_EBADFLAGS;
	if (r->kind != UET_AMO_KIND_WRITE && (flags & FI_INJECT))
		return -FI_EINVAL;
	is_read = uop == UET_AMO_READ;
	/* FI_ATOMIC_READ ignores the operand: buf may be NULL. */
	if (!uet_amo_iov(r->iov, r->count, size, iov, &n) || !n ||
	    (!is_read && !uet_iov_valid(iov, r->count)))
		return -FI_EINVAL;
	len = n * size;
	if (len > uet_amo_max(ep->domain))
		return -FI_EINVAL;
	if ((flags & FI_INJECT) && len > ep->inject_size)
		return -FI_EMSGSIZE;
	if (r->kind != UET_AMO_KIND_WRITE) {
		if (!uet_amo_iov(r->res, r->rcount, size, res, &nres) ||
		    !uet_iov_valid(res, r->rcount) || nres != n)
			return -FI_EINVAL;
	}
	if (r->kind == UET_AMO_KIND_COMPARE) {
		if (!uet_amo_iov(r->cmp, r->ccount, size, cmpv, &ncmp) ||
		    !uet_iov_valid(cmpv, r->ccount) || n != 1 || ncmp != 1)
			return -FI_EINVAL;
	}
	if (r->raddr + len - 1 < r->raddr)
		return -FI_EINVAL;
	/* Device memory: operands to host bounce buffers now, results
	 * back to the device at the completion (the lists are ours). */
	if (ep->domain->hmem_dev) {
		ret = uet_amo_stage(ep->domain->hmem_dev, &hb, r, iov, cmpv,
				    res);
		if (ret)
			return ret;
	}

	memset(&cmd, 0, sizeof(cmd));
	cmd.seg.family = UET_HSI_FAMILY_ATOMIC;
	cmd.seg.completion = true;
	cmd.seg.fence = flags & FI_FENCE;
	cmd.seg.tag = r->key;
	cmd.ext.remote_addr = r->raddr;
	cmd.ext.amo_op = uop;
	cmd.ext.amo_dtype = udt;
	if (flags & FI_REMOTE_CQ_DATA) {
		cmd.seg.remote_cq = true;
		cmd.ext.header_data = r->data;
		cmd.ext.ext_flags |= UET_HSI_EXT_HAS_DATA;
	}
	/* Fetching ones complete when the results are here. */
	if ((flags & FI_DELIVERY_COMPLETE) && r->kind == UET_AMO_KIND_WRITE)
		cmd.ext.ext_flags |= UET_HSI_EXT_DC;
	cmd.opts = UET_POST_EXT;
	cmd.flags = flags;

	/*
	 * The operand.  A segment with inline data takes no entry but the
	 * extension, so fetching and compare atomics (whose results are
	 * trailing SGL entries) point at the caller's buffers (valid until
	 * the completion); fi_atomic goes inline up to 32 bytes, gathered
	 * into one buffer with FI_INJECT (the device copies it at the
	 * doorbell), else from the iocs.
	 */
	cmd.data = UET_POST_DATA_SGL;
	cmd.iov = iov;
	cmd.count = r->count;
	if (r->kind == UET_AMO_KIND_COMPARE) {
		cv[0] = *uet_amo_first(iov, r->count);
		cv[1] = *uet_amo_first(cmpv, r->ccount);
		cmd.iov = cv;
		cmd.count = 2;
		len = 2 * size;
	} else if (r->kind == UET_AMO_KIND_FETCH) {
		/* FI_ATOMIC_READ without a buffer: any bytes will do, the
		 * result buffers have the right size. */
		if (!uet_iov_valid(iov, r->count)) {
			cmd.iov = res;
			cmd.count = r->rcount;
		}
	} else if (len <= UET_HSI_CMD_INLINE_MAX) {
		cmd.data = UET_POST_DATA_INLINE;
	} else if (flags & FI_INJECT) {
		uet_amo_gather(buf, iov, r->count);
		gv.iov_base = buf;
		gv.iov_len = len;
		cmd.iov = &gv;
		cmd.count = 1;
	}
	if (r->kind == UET_AMO_KIND_WRITE)
		cmd.seg.variant = (flags & FI_INJECT) &&
				  cmd.data == UET_POST_DATA_SGL ?
				  UET_HSI_VARIANT_INJECT : UET_HSI_VARIANT_SEND;
	else
		cmd.seg.variant = UET_HSI_VARIANT_RECV;
	cmd.seg.inject = flags & FI_INJECT;
	cmd.seg.payload_len = (uint16_t)len;
	if (r->kind != UET_AMO_KIND_WRITE) {
		cmd.extra = res;
		cmd.nextra = r->rcount;
	}
	cmd.ext.nresult = (uint8_t)cmd.nextra;

	return uet_post_tx(ep, &(struct uet_post_req){
		.dest_addr = r->dest_addr, .context = r->context,
		.op_flags = FI_ATOMIC | dir, .flags = flags,
		.opts = r->opts,
		.len = len, .cmd = &cmd, .ncmd = 1, .hb = hb });
}

static ssize_t uet_amo_msg(struct fid_ep *fid, enum uet_amo_kind kind,
			   const struct fi_msg_atomic *msg,
			   const struct fi_ioc *cmp, size_t ccount,
			   const struct fi_ioc *res, size_t rcount,
			   uint64_t flags)
{
	struct uet_amo_req r;

	if (!msg || msg->rma_iov_count != 1 || !msg->rma_iov)
		return -FI_EINVAL;
	memset(&r, 0, sizeof(r));
	r.kind = kind;
	r.iov = msg->msg_iov;
	r.count = msg->iov_count;
	r.cmp = cmp;
	r.ccount = ccount;
	r.res = res;
	r.rcount = rcount;
	r.dest_addr = msg->addr;
	r.raddr = msg->rma_iov[0].addr;
	r.key = msg->rma_iov[0].key;
	r.dt = msg->datatype;
	r.op = msg->op;
	r.context = msg->context;
	r.flags = flags;
	r.data = msg->data;
	/* The remote segment must hold every element. */
	if (msg->iov_count <= UET_IOV_LIMIT && msg->msg_iov) {
		size_t i, n = 0;

		for (i = 0; i < msg->iov_count; i++)
			n += msg->msg_iov[i].count;
		if (n > msg->rma_iov[0].count)
			return -FI_EINVAL;
	}
	return uet_amo_post(uet_ep_of(fid), &r);
}

/* Default op flags for the non-msg calls (inject makes no sense on
 * fetching ones). */
static uint64_t uet_amo_def_flags(struct fid_ep *fid, enum uet_amo_kind kind)
{
	uint64_t f = uet_ep_of(fid)->tx_op_flags;

	return kind == UET_AMO_KIND_WRITE ? f : f & ~(uint64_t)FI_INJECT;
}

static ssize_t uet_amo_vec(struct fid_ep *fid, enum uet_amo_kind kind,
			   const struct fi_ioc *iov, size_t count,
			   const struct fi_ioc *cmp, size_t ccount,
			   const struct fi_ioc *res, size_t rcount,
			   fi_addr_t dest_addr, uint64_t addr, uint64_t key,
			   enum fi_datatype dt, enum fi_op op, void *context)
{
	struct uet_amo_req r = {
		.kind = kind, .iov = iov, .count = count, .cmp = cmp,
		.ccount = ccount, .res = res, .rcount = rcount,
		.dest_addr = dest_addr, .raddr = addr, .key = key, .dt = dt,
		.op = op, .context = context,
		.flags = uet_amo_def_flags(fid, kind),
	};

	return uet_amo_post(uet_ep_of(fid), &r);
}

/* ---- fi_ops_atomic ---- */

static ssize_t uet_amo_write(struct fid_ep *fid, const void *buf,
			     size_t count, void *desc, fi_addr_t dest_addr,
			     uint64_t addr, uint64_t key, enum fi_datatype dt,
			     enum fi_op op, void *context)
{
	struct fi_ioc ioc = { .addr = (void *)buf, .count = count };

	(void)desc;
	return uet_amo_vec(fid, UET_AMO_KIND_WRITE, &ioc, 1, NULL, 0, NULL, 0,
			   dest_addr, addr, key, dt, op, context);
}

static ssize_t uet_amo_writev(struct fid_ep *fid, const struct fi_ioc *iov,
			      void **desc, size_t count, fi_addr_t dest_addr,
			      uint64_t addr, uint64_t key, enum fi_datatype dt,
			      enum fi_op op, void *context)
{
	(void)desc;
	return uet_amo_vec(fid, UET_AMO_KIND_WRITE, iov, count, NULL, 0, NULL,
			   0, dest_addr, addr, key, dt, op, context);
}

static ssize_t uet_amo_writemsg(struct fid_ep *fid,
				const struct fi_msg_atomic *msg,
				uint64_t flags)
{
	return uet_amo_msg(fid, UET_AMO_KIND_WRITE, msg, NULL, 0, NULL, 0,
			   flags);
}

static ssize_t uet_amo_inject(struct fid_ep *fid, const void *buf,
			      size_t count, fi_addr_t dest_addr,
			      uint64_t addr, uint64_t key,
			      enum fi_datatype dt, enum fi_op op)
{
	struct fi_ioc ioc = { .addr = (void *)buf, .count = count };
	struct uet_amo_req r = {
		.kind = UET_AMO_KIND_WRITE, .iov = &ioc, .count = 1,
		.dest_addr = dest_addr, .raddr = addr, .key = key, .dt = dt,
		.op = op, .flags = FI_INJECT, .opts = UET_POST_SILENT,
	};

	return uet_amo_post(uet_ep_of(fid), &r);
}

static ssize_t uet_amo_readwrite(struct fid_ep *fid, const void *buf,
				 size_t count, void *desc, void *result,
				 void *result_desc, fi_addr_t dest_addr,
				 uint64_t addr, uint64_t key,
				 enum fi_datatype dt, enum fi_op op,
				 void *context)
{
	struct fi_ioc ioc = { .addr = (void *)buf, .count = count };
	struct fi_ioc res = { .addr = result, .count = count };

	(void)desc;
	(void)result_desc;
	return uet_amo_vec(fid, UET_AMO_KIND_FETCH, &ioc, 1, NULL, 0, &res, 1,
			   dest_addr, addr, key, dt, op, context);
}

static ssize_t uet_amo_readwritev(struct fid_ep *fid,
				  const struct fi_ioc *iov, void **desc,
				  size_t count, struct fi_ioc *resultv,
				  void **result_desc, size_t result_count,
				  fi_addr_t dest_addr, uint64_t addr,
				  uint64_t key, enum fi_datatype dt,
				  enum fi_op op, void *context)
{
	(void)desc;
	(void)result_desc;
	return uet_amo_vec(fid, UET_AMO_KIND_FETCH, iov, count, NULL, 0,
			   resultv, result_count, dest_addr, addr, key, dt, op,
			   context);
}

static ssize_t uet_amo_readwritemsg(struct fid_ep *fid,
				    const struct fi_msg_atomic *msg,
				    struct fi_ioc *resultv,
				    void **result_desc, size_t result_count,
				    uint64_t flags)
{
	(void)result_desc;
	return uet_amo_msg(fid, UET_AMO_KIND_FETCH, msg, NULL, 0, resultv,
			   result_count, flags);
}

static ssize_t uet_amo_compwrite(struct fid_ep *fid, const void *buf,
				 size_t count, void *desc, const void *compare,
				 void *compare_desc, void *result,
				 void *result_desc, fi_addr_t dest_addr,
				 uint64_t addr, uint64_t key,
				 enum fi_datatype dt, enum fi_op op,
				 void *context)
{
	struct fi_ioc ioc = { .addr = (void *)buf, .count = count };
	struct fi_ioc cmp = { .addr = (void *)compare, .count = count };
	struct fi_ioc res = { .addr = result, .count = count };

	(void)desc;
	(void)compare_desc;
	(void)result_desc;
	return uet_amo_vec(fid, UET_AMO_KIND_COMPARE, &ioc, 1, &cmp, 1, &res,
			   1, dest_addr, addr, key, dt, op, context);
}

static ssize_t uet_amo_compwritev(struct fid_ep *fid,
				  const struct fi_ioc *iov, void **desc,
				  size_t count, const struct fi_ioc *comparev,
				  void **compare_desc, size_t compare_count,
				  struct fi_ioc *resultv, void **result_desc,
				  size_t result_count, fi_addr_t dest_addr,
				  uint64_t addr, uint64_t key,
				  enum fi_datatype dt, enum fi_op op,
				  void *context)
{
	(void)desc;
	(void)compare_desc;
	(void)result_desc;
	return uet_amo_vec(fid, UET_AMO_KIND_COMPARE, iov, count, comparev,
			   compare_count, resultv, result_count, dest_addr,
			   addr, key, dt, op, context);
}

static ssize_t uet_amo_compwritemsg(struct fid_ep *fid,
				    const struct fi_msg_atomic *msg,
				    const struct fi_ioc *comparev,
				    void **compare_desc, size_t compare_count,
				    struct fi_ioc *resultv,
				    void **result_desc, size_t result_count,
				    uint64_t flags)
{
	(void)compare_desc;
	(void)result_desc;
	return uet_amo_msg(fid, UET_AMO_KIND_COMPARE, msg, comparev,
			   compare_count, resultv, result_count, flags);
}

static int uet_amo_writevalid(struct fid_ep *fid, enum fi_datatype dt,
			      enum fi_op op, size_t *count)
{
	return uet_amo_valid(uet_ep_of(fid)->domain, UET_AMO_KIND_WRITE, dt,
			     op, count);
}

static int uet_amo_readwritevalid(struct fid_ep *fid, enum fi_datatype dt,
				  enum fi_op op, size_t *count)
{
	return uet_amo_valid(uet_ep_of(fid)->domain, UET_AMO_KIND_FETCH, dt,
			     op, count);
}

static int uet_amo_compwritevalid(struct fid_ep *fid, enum fi_datatype dt,
				  enum fi_op op, size_t *count)
{
	return uet_amo_valid(uet_ep_of(fid)->domain, UET_AMO_KIND_COMPARE, dt,
			     op, count);
}

struct fi_ops_atomic uet_ep_atomic_ops = {
	.size = sizeof(struct fi_ops_atomic),
	.write = uet_amo_write,
	.writev = uet_amo_writev,
	.writemsg = uet_amo_writemsg,
	.inject = uet_amo_inject,
	.readwrite = uet_amo_readwrite,
	.readwritev = uet_amo_readwritev,
	.readwritemsg = uet_amo_readwritemsg,
	.compwrite = uet_amo_compwrite,
	.compwritev = uet_amo_compwritev,
	.compwritemsg = uet_amo_compwritemsg,
	.writevalid = uet_amo_writevalid,
	.readwritevalid = uet_amo_readwritevalid,
	.compwritevalid = uet_amo_compwritevalid,
};
