/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * FI_HMEM with system memory and what GPU clients ask around it: the
 * capability in discovery (API 1.9 on, only when asked or when no
 * capability is named), FI_MR_HMEM cleared, fi_mr_regattr honouring
 * iface/device only where the application has them, device memory
 * refused, data moved through FI_HMEM_SYSTEM registrations (send, tagged
 * receive, RMA write and read with descriptors), the endpoint options
 * FI_OPT_CUDA_API_PERMITTED and FI_OPT_FI_HMEM_P2P as aws-ofi-nccl needs
 * them answered, its two protocols' hints, and FI_UET_FABRIC's names.
 * Two RDM endpoints on 127.0.0.1, each on its own domain.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_tagged.h>

#include "uet_iface.h"
#include "uet_prov.h"
#include "uet_test.h"
#include "prov_test.h"

#define API		FI_VERSION(1, 18)
#define WAIT_MS		20000
/* fi_endpoint.h (1.18): FI_OPT_CUDA_API_PERMITTED, after
 * FI_OPT_XPU_TRIGGER; spelled out so that 1.17 headers build this too. */
#define OPT_CUDA_API_PERMITTED	10
#define HMEM_CAPS	(FI_MSG | FI_TAGGED | FI_RMA | FI_HMEM)

struct side {
	struct fid_domain *dom;
	struct fid_ep *ep;
	struct fid_cq *cq;
	struct fid_av *av;
	fi_addr_t peer;
};

struct pair {
	struct fi_info *info;
	struct fid_fabric *fab;
	struct side s[2];
};

static struct fi_info *hints_new(uint64_t caps, int mr_mode)
{
	struct fi_info *h = fi_allocinfo();

	ck_assert_ptr_nonnull(h);
	h->caps = caps;
	h->ep_attr->type = FI_EP_RDM;
	h->domain_attr->mr_mode = mr_mode;
	h->addr_format = FI_SOCKADDR_IN;
	return h;
}

static int getinfo(uint32_t api, const struct fi_info *h,
		   struct fi_info **info)
{
	*info = NULL;
	return uet_getinfo(api, "127.0.0.1", NULL, FI_SOURCE, h, info);
}

static void pair_open(struct pair *p, uint64_t caps)
{
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_TAGGED };
	struct fi_av_attr ava = { .type = FI_AV_TABLE };
	struct fi_info *h = hints_new(caps, 0);
	int i;

	memset(p, 0, sizeof(*p));
	ck_assert_int_eq(getinfo(API, h, &p->info), 0);
	fi_freeinfo(h);
	ck_assert_int_eq(uet_fabric(p->info->fabric_attr, &p->fab, NULL), 0);
	for (i = 0; i < 2; i++) {
		struct side *s = &p->s[i];

		ck_assert_int_eq(fi_domain(p->fab, p->info, &s->dom, NULL), 0);
		ck_assert_int_eq(fi_cq_open(s->dom, &cqa, &s->cq, NULL), 0);
		ck_assert_int_eq(fi_av_open(s->dom, &ava, &s->av, NULL), 0);
		ck_assert_int_eq(fi_endpoint(s->dom, p->info, &s->ep, NULL),
				 0);
		ck_assert_int_eq(fi_ep_bind(s->ep, &s->cq->fid,
					    FI_TRANSMIT | FI_RECV), 0);
		ck_assert_int_eq(fi_ep_bind(s->ep, &s->av->fid, 0), 0);
		ck_assert_int_eq(fi_enable(s->ep), 0);
	}
	uet_test_pair_connect((struct fid_ep *[2]){ p->s[0].ep, p->s[1].ep },
			      (struct fid_av *[2]){ p->s[0].av, p->s[1].av },
			      (fi_addr_t *[2]){ &p->s[0].peer,
						&p->s[1].peer });
}

static void pair_close(struct pair *p)
{
	int i;

	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(fi_close(&p->s[i].ep->fid), 0);
		ck_assert_int_eq(fi_close(&p->s[i].av->fid), 0);
		ck_assert_int_eq(fi_close(&p->s[i].cq->fid), 0);
		ck_assert_int_eq(fi_close(&p->s[i].dom->fid), 0);
	}
	ck_assert_int_eq(fi_close(&p->fab->fid), 0);
	fi_freeinfo(p->info);
}

static void wait_ok(struct pair *p, int i, struct fi_cq_tagged_entry *e)
{
	struct fi_cq_err_entry err;

	ck_assert_int_eq(uet_test_cq_wait(p->s[i].cq, p->s[1 - i].cq, WAIT_MS,
					  e, NULL, &err), 1);
}

/* One region of buf through fi_mr_regattr with iface and device. */
static int reg(struct fid_domain *dom, void *buf, size_t len,
	       uint64_t access, enum fi_hmem_iface iface, uint64_t key,
	       struct fid_mr **mr)
{
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct fi_mr_attr a = {
		.mr_iov = &iov, .iov_count = 1, .access = access,
		.requested_key = key, .iface = iface,
	};

	a.device.reserved = 0;
	return fi_mr_regattr(dom, &a, 0, mr);
}

/* ---- tests ---- */

/* FI_HMEM in discovery: given when asked for from API 1.9 and when the
 * hints name no capability; never to hints that do not ask for it;
 * FI_MR_HMEM offered by the application is cleared (system memory needs
 * no registration); before 1.9 it is not offered. */
START_TEST(test_hmem_discovery)
{
	struct fi_info *h, *info;

	uet_prov_init();
	setenv("FI_UET_IFACE", "lo", 1);
	h = hints_new(FI_MSG | FI_HMEM, FI_MR_LOCAL | FI_MR_HMEM);
	ck_assert_int_eq(getinfo(API, h, &info), 0);
	ck_assert(info->caps & FI_HMEM);
	ck_assert(info->tx_attr->caps & FI_HMEM);
	ck_assert(info->rx_attr->caps & FI_HMEM);
	ck_assert_int_eq(info->domain_attr->mr_mode, 0);
	/* fi_info -v shows it */
	ck_assert_ptr_nonnull(strstr(fi_tostr(info, FI_TYPE_INFO),
				     "FI_HMEM"));
	fi_freeinfo(info);
	ck_assert_int_eq(getinfo(FI_VERSION(1, 9), h, &info), 0);
	fi_freeinfo(info);
	ck_assert_int_eq(getinfo(FI_VERSION(1, 8), h, &info), -FI_ENODATA);
	ck_assert_ptr_null(info);
	/* DGRAM endpoints too */
	h->ep_attr->type = FI_EP_DGRAM;
	ck_assert_int_eq(getinfo(API, h, &info), 0);
	ck_assert(info->caps & FI_HMEM);
	fi_freeinfo(info);
	fi_freeinfo(h);

	/* not asked for: not given (Open MPI's, fabtests' hints) */
	h = hints_new(FI_MSG | FI_TAGGED, 0);
	ck_assert_int_eq(getinfo(API, h, &info), 0);
	ck_assert(!(info->caps & FI_HMEM));
	ck_assert(!(info->tx_attr->caps & FI_HMEM));
	fi_freeinfo(info);
	fi_freeinfo(h);
	/* no capability named: everything, FI_HMEM from 1.9 */
	h = hints_new(0, 0);
	ck_assert_int_eq(getinfo(API, h, &info), 0);
	ck_assert(info->caps & FI_HMEM);
	fi_freeinfo(info);
	ck_assert_int_eq(getinfo(FI_VERSION(1, 5), h, &info), 0);
	ck_assert(!(info->caps & FI_HMEM));
	fi_freeinfo(info);
	fi_freeinfo(h);
}
END_TEST

/* The hints of aws-ofi-nccl's two protocols, as its sources build them:
 * RDMA (FI_MSG|FI_RMA|FI_HMEM, FI_CONTEXT|FI_CONTEXT2, the mr_mode bits it
 * can cope with, FI_THREAD_COMPLETION, 4 bytes of CQ data, API 1.18) and
 * SENDRECV (FI_TAGGED|FI_HMEM with FI_MR_HMEM).  Both find uet, with a
 * nic whose bus is PCI wherever the host has a network controller. */
START_TEST(test_hmem_nccl_hints)
{
	struct fi_info *h, *info;

	uet_prov_init();
	setenv("FI_UET_IFACE", "lo", 1);
	h = hints_new(FI_MSG | FI_RMA | FI_HMEM | FI_LOCAL_COMM |
		      FI_REMOTE_COMM,
		      FI_MR_LOCAL | FI_MR_HMEM | FI_MR_VIRT_ADDR |
		      FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT);
	h->mode = FI_CONTEXT | FI_CONTEXT2;
	h->domain_attr->mr_key_size = 8;
	h->domain_attr->threading = FI_THREAD_COMPLETION;
	h->domain_attr->cq_data_size = 4;
	ck_assert_int_eq(getinfo(API, h, &info), 0);
	ck_assert((info->caps & (FI_MSG | FI_RMA | FI_HMEM)) ==
		  (FI_MSG | FI_RMA | FI_HMEM));
	ck_assert_int_eq(info->domain_attr->mr_mode, 0);
	ck_assert_ptr_nonnull(info->nic);
	ck_assert_str_eq(info->nic->device_attr->name, "lo");
	fi_freeinfo(info);
	fi_freeinfo(h);

	h = hints_new(FI_TAGGED | FI_HMEM | FI_LOCAL_COMM | FI_REMOTE_COMM,
		      FI_MR_LOCAL | FI_MR_ENDPOINT | FI_MR_HMEM |
		      FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY);
	h->mode = FI_CONTEXT;
	ck_assert_int_eq(getinfo(API, h, &info), 0);
	ck_assert(info->caps & FI_HMEM);
	fi_freeinfo(info);
	fi_freeinfo(h);
}
END_TEST

/* FI_HMEM_SYSTEM registrations carry data (descriptors given): a tagged
 * message into a registered receive buffer, an RMA write into and a read
 * from a registered target; device memory is refused; a domain opened
 * without FI_HMEM ignores iface (not the application's field). */
START_TEST(test_hmem_system_data)
{
	static uint8_t src[65536], dst[65536], tgt[65536], back[65536];
	struct fid_mr *msrc, *mdst, *mtgt, *mback, *mcuda;
	struct fi_cq_tagged_entry e;
	struct pair p;
	size_t i;

	for (i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i * 7 + 3);
	pair_open(&p, HMEM_CAPS);
	ck_assert(p.info->caps & FI_HMEM);
	ck_assert_int_eq(reg(p.s[0].dom, src, sizeof(src),
			     FI_SEND | FI_WRITE, FI_HMEM_SYSTEM, 0, &msrc), 0);
	ck_assert_int_eq(reg(p.s[1].dom, dst, sizeof(dst), FI_RECV,
			     FI_HMEM_SYSTEM, 0, &mdst), 0);
	ck_assert_int_eq(reg(p.s[1].dom, tgt, sizeof(tgt),
			     FI_REMOTE_WRITE | FI_REMOTE_READ, FI_HMEM_SYSTEM,
			     77, &mtgt), 0);
	ck_assert_int_eq(reg(p.s[0].dom, back, sizeof(back), FI_READ,
			     FI_HMEM_SYSTEM, 0, &mback), 0);
	/* device memory: refused, not mistaken for host memory */
	mcuda = (struct fid_mr *)0x1;
	ck_assert_int_eq(reg(p.s[1].dom, dst, sizeof(dst), FI_RECV,
			     FI_HMEM_CUDA, 0, &mcuda), -FI_EOPNOTSUPP);
	ck_assert_ptr_null(mcuda);
	ck_assert_int_eq(reg(p.s[1].dom, dst, sizeof(dst), FI_RECV,
			     FI_HMEM_ZE, 0, &mcuda), -FI_EOPNOTSUPP);

	ck_assert_int_eq(fi_trecv(p.s[1].ep, dst, sizeof(dst),
				  fi_mr_desc(mdst), FI_ADDR_UNSPEC, 9, 0,
				  (void *)1), 0);
	ck_assert_int_eq(fi_tsend(p.s[0].ep, src, sizeof(src),
				  fi_mr_desc(msrc), p.s[0].peer, 9,
				  (void *)2), 0);
	wait_ok(&p, 1, &e);
	ck_assert_uint_eq(e.len, sizeof(src));
	wait_ok(&p, 0, &e);
	ck_assert_mem_eq(dst, src, sizeof(src));

	ck_assert_int_eq(fi_write(p.s[0].ep, src, sizeof(src),
				  fi_mr_desc(msrc), p.s[0].peer, 0,
				  fi_mr_key(mtgt), (void *)3), 0);
	wait_ok(&p, 0, &e);
	ck_assert_mem_eq(tgt, src, sizeof(src));
	tgt[100] ^= 0xff;
	ck_assert_int_eq(fi_read(p.s[0].ep, back, sizeof(back),
				 fi_mr_desc(mback), p.s[0].peer, 0,
				 fi_mr_key(mtgt), (void *)4), 0);
	wait_ok(&p, 0, &e);
	ck_assert_mem_eq(back, tgt, sizeof(tgt));

	ck_assert_int_eq(fi_close(&msrc->fid), 0);
	ck_assert_int_eq(fi_close(&mdst->fid), 0);
	ck_assert_int_eq(fi_close(&mtgt->fid), 0);
	ck_assert_int_eq(fi_close(&mback->fid), 0);
	pair_close(&p);

	/* without FI_HMEM the iface field is not read */
	pair_open(&p, FI_MSG | FI_TAGGED | FI_RMA);
	ck_assert(!(p.info->caps & FI_HMEM));
	ck_assert_int_eq(reg(p.s[1].dom, dst, sizeof(dst), FI_RECV,
			     FI_HMEM_CUDA, 0, &mdst), 0);
	ck_assert_int_eq(fi_close(&mdst->fid), 0);
	pair_close(&p);
}
END_TEST

/* FI_OPT_CUDA_API_PERMITTED: true 0, false -FI_EOPNOTSUPP (never
 * -FI_EINVAL, which aws-ofi-nccl treats as fatal), a malformed call
 * -FI_EINVAL, set-only; FI_OPT_FI_HMEM_P2P: DISABLED is what uet does,
 * ENABLED and PREFERRED accepted, REQUIRED -FI_EOPNOTSUPP. */
START_TEST(test_hmem_options)
{
	bool yes = true, no = false;
	struct fid *ep;
	struct pair p;
	size_t len;
	int v;

	pair_open(&p, HMEM_CAPS);
	ep = &p.s[0].ep->fid;
	ck_assert_int_eq(fi_setopt(ep, FI_OPT_ENDPOINT, OPT_CUDA_API_PERMITTED,
				   &yes, sizeof(yes)), 0);
	ck_assert_int_eq(fi_setopt(ep, FI_OPT_ENDPOINT, OPT_CUDA_API_PERMITTED,
				   &no, sizeof(no)), -FI_EOPNOTSUPP);
	ck_assert_int_eq(fi_setopt(ep, FI_OPT_ENDPOINT, OPT_CUDA_API_PERMITTED,
				   &no, sizeof(int)), -FI_EINVAL);
	ck_assert_int_eq(fi_setopt(ep, FI_OPT_ENDPOINT, OPT_CUDA_API_PERMITTED,
				   NULL, sizeof(no)), -FI_EINVAL);
	len = sizeof(yes);
	ck_assert_int_eq(fi_getopt(ep, FI_OPT_ENDPOINT, OPT_CUDA_API_PERMITTED,
				   &yes, &len), -FI_ENOPROTOOPT);

	len = sizeof(v);
	ck_assert_int_eq(fi_getopt(ep, FI_OPT_ENDPOINT, FI_OPT_FI_HMEM_P2P,
				   &v, &len), 0);
	ck_assert_int_eq(v, FI_HMEM_P2P_DISABLED);
	for (v = FI_HMEM_P2P_ENABLED; v <= FI_HMEM_P2P_DISABLED; v++)
		ck_assert_int_eq(fi_setopt(ep, FI_OPT_ENDPOINT,
					   FI_OPT_FI_HMEM_P2P, &v, sizeof(v)),
				 v == FI_HMEM_P2P_REQUIRED ? -FI_EOPNOTSUPP :
				 0);
	v = 99;
	ck_assert_int_eq(fi_setopt(ep, FI_OPT_ENDPOINT, FI_OPT_FI_HMEM_P2P,
				   &v, sizeof(v)), -FI_EINVAL);
	/* the endpoint still works after the refusals */
	{
		struct fi_cq_tagged_entry e;
		static char buf[64] = "after the options";

		ck_assert_int_eq(fi_recv(p.s[1].ep, buf + 32, 32, NULL,
					 FI_ADDR_UNSPEC, (void *)1), 0);
		ck_assert_int_eq(fi_send(p.s[0].ep, buf, 18, NULL,
					 p.s[0].peer, (void *)2), 0);
		wait_ok(&p, 1, &e);
		ck_assert_str_eq(buf + 32, "after the options");
		wait_ok(&p, 0, &e);
	}
	pair_close(&p);
}
END_TEST

static struct uet_iface iface_of(int family, const char *ip,
				 const char *mask, bool loopback)
{
	struct uet_iface ifc;

	memset(&ifc, 0, sizeof(ifc));
	ck_assert_int_eq(uet_addr_resolve(ip, NULL, family, true, &ifc.addr),
			 0);
	ck_assert_int_eq(uet_addr_resolve(mask, NULL, family, true,
					  &ifc.mask), 0);
	ifc.loopback = loopback;
	uet_iface_set_fabric(&ifc);
	return ifc;
}

/* FI_UET_FABRIC: subnet names by default; routed puts the rails (one
 * subnet each) into one fabric, loopback and link-local apart. */
START_TEST(test_fabric_scope)
{
	struct uet_iface r0 = iface_of(AF_INET, "10.1.0.5", "255.255.255.0",
				       false);
	struct uet_iface r1 = iface_of(AF_INET, "10.2.0.5", "255.255.255.0",
				       false);
	struct uet_iface lo = iface_of(AF_INET, "127.0.0.1", "255.0.0.0",
				       true);
	struct uet_iface g6 = iface_of(AF_INET6, "2001:db8::5",
				       "ffff:ffff:ffff:ffff::", false);
	struct uet_iface l6 = iface_of(AF_INET6, "fe80::5",
				       "ffff:ffff:ffff:ffff::", false);

	uet_iface_scope_fabric(&r0, UET_IFACE_SCOPE_SUBNET);
	ck_assert_str_eq(r0.fabric, "10.1.0.0/24");
	ck_assert_str_ne(r0.fabric, r1.fabric);
	uet_iface_scope_fabric(&r0, UET_IFACE_SCOPE_ROUTED);
	uet_iface_scope_fabric(&r1, UET_IFACE_SCOPE_ROUTED);
	uet_iface_scope_fabric(&lo, UET_IFACE_SCOPE_ROUTED);
	uet_iface_scope_fabric(&g6, UET_IFACE_SCOPE_ROUTED);
	uet_iface_scope_fabric(&l6, UET_IFACE_SCOPE_ROUTED);
	ck_assert_str_eq(r0.fabric, UET_IFACE_FABRIC_IPV4);
	ck_assert_str_eq(r1.fabric, UET_IFACE_FABRIC_IPV4);
	ck_assert_str_eq(lo.fabric, "127.0.0.0/8");
	ck_assert_str_eq(g6.fabric, UET_IFACE_FABRIC_IPV6);
	ck_assert_str_eq(l6.fabric, "fe80::/64");

	/* the variable reaches discovery: lo keeps its subnet name, and
	 * an unknown value is refused as the other enums are */
	setenv("FI_UET_FABRIC", "routed", 1);
	ck_assert_int_eq(uet_env_get_enum(&uet_iface_env_fabric),
			 UET_IFACE_SCOPE_ROUTED);
	ck_assert(uet_iface_fabric_known("127.0.0.0/8"));
	unsetenv("FI_UET_FABRIC");
	ck_assert_int_eq(uet_env_get_enum(&uet_iface_env_fabric),
			 UET_IFACE_SCOPE_SUBNET);
}
END_TEST

static Suite *prov_hmem_suite(void)
{
	Suite *s = suite_create("prov_hmem");
	TCase *tc = tcase_create("hmem");

	/* System memory only, also on a machine with a GPU (CUDA:
	 * check_prov_hmem_cuda). */
	setenv("FI_UET_HMEM_CUDA_LIB", "libuet-no-such-cuda.so.1", 1);

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_hmem_discovery);
	tcase_add_test(tc, test_hmem_nccl_hints);
	tcase_add_test(tc, test_hmem_system_data);
	tcase_add_test(tc, test_hmem_options);
	tcase_add_test(tc, test_fabric_scope);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(prov_hmem_suite)
