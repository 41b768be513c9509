/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Discovery: uet_info_getinfo() against hints, node/service/flags, and
 * uet_info_check().  FI_UET_IFACE=lo keeps the answers the same on every
 * machine: lo with 127.0.0.1 and ::1.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fabric.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_uet_ext.h>

#include "uet_addr.h"
#include "uet_hsi.h"
#include "uet_iface.h"
#include "uet_info.h"
#include "uet_log.h"
#include "uet_nic.h"
#include "uet_peer.h"
#include "uet_prov.h"
#include "uet_test.h"
#include "uet_xlate.h"

#define V FI_VERSION(1, 17)

static void lo_only(void)
{
	setenv("FI_UET_IFACE", "lo", 1);
	unsetenv("FI_UET_JOB_ID");
}

static size_t count(const struct fi_info *info)
{
	size_t n = 0;

	for (; info; info = info->next)
		n++;
	return n;
}

static struct uet_addr src_of(const struct fi_info *info)
{
	struct uet_addr a;

	ck_assert_ptr_nonnull(info->src_addr);
	ck_assert_int_eq(uet_addr_from_raw(&a, info->src_addr,
					   info->src_addrlen), 0);
	ck_assert_uint_eq(info->src_addrlen, a.len);
	ck_assert_uint_eq(info->addr_format, uet_addr_fi_format(&a));
	return a;
}

static struct fi_info *get(const char *node, const char *service,
			   uint64_t flags, const struct fi_info *hints)
{
	struct fi_info *info = NULL;

	ck_assert_int_eq(uet_info_getinfo(V, node, service, flags, hints,
					  &info), 0);
	ck_assert_ptr_nonnull(info);
	return info;
}

static void expect_nodata(const struct fi_info *hints)
{
	struct fi_info *info = (struct fi_info *)0x1;

	ck_assert_int_eq(uet_info_getinfo(V, NULL, NULL, 0, hints, &info),
			 -FI_ENODATA);
	ck_assert_ptr_null(info);
}

static uint32_t job_of(const struct fi_info *info)
{
	uint32_t job;

	ck_assert_uint_eq(info->domain_attr->auth_key_size, 4);
	memcpy(&job, info->domain_attr->auth_key, sizeof(job));
	return job;
}

START_TEST(test_info_defaults)
{
	struct fi_info *info = get(NULL, NULL, 0, NULL), *cur;
	int v4 = 0, v6 = 0, i = 0;
	struct uet_addr a;

	ck_assert_uint_eq(count(info), 4);
	for (cur = info; cur; cur = cur->next, i++) {
		ck_assert_int_eq(cur->ep_attr->type,
				 i < 2 ? FI_EP_RDM : FI_EP_DGRAM);
		a = src_of(cur);
		ck_assert(uet_addr_is_loopback(&a));
		ck_assert_uint_eq(uet_addr_port(&a), 0);
		ck_assert_uint_eq(a.pid | a.ri, 0);
		if (a.u.sa.sa_family == AF_INET)
			v4++;
		else
			v6++;
		ck_assert_ptr_null(cur->dest_addr);
		ck_assert_uint_eq(cur->caps,
				  i < 2 ? UET_CAPS_RDM : UET_CAPS_DGRAM);
		ck_assert_uint_eq(cur->mode, 0);
		/* a fabric per subnet */
		ck_assert_str_eq(cur->fabric_attr->name,
				 a.u.sa.sa_family == AF_INET ? "127.0.0.0/8" :
							 "::1/128");
		ck_assert_ptr_null(cur->fabric_attr->prov_name);
		ck_assert_uint_eq(cur->fabric_attr->prov_version,
				  uet_prov.version);
		ck_assert_uint_eq(cur->fabric_attr->api_version, V);
		ck_assert_str_eq(cur->domain_attr->name, "lo");
		ck_assert_int_eq(cur->domain_attr->threading, FI_THREAD_SAFE);
		ck_assert_int_eq(cur->domain_attr->control_progress,
				 FI_PROGRESS_MANUAL);
		ck_assert_int_eq(cur->domain_attr->data_progress,
				 FI_PROGRESS_MANUAL);
		ck_assert_int_eq(cur->domain_attr->resource_mgmt,
				 FI_RM_ENABLED);
		ck_assert_int_eq(cur->domain_attr->av_type, FI_AV_UNSPEC);
		ck_assert_int_eq(cur->domain_attr->mr_mode, 0);
		ck_assert_uint_eq(cur->domain_attr->mr_key_size, 8);
		ck_assert_uint_eq(cur->domain_attr->cq_data_size, 8);
		ck_assert_uint_eq(cur->domain_attr->cq_cnt, 256);
		ck_assert_uint_eq(cur->domain_attr->ep_cnt, 4096);
		ck_assert_uint_eq(cur->domain_attr->max_ep_tx_ctx, 64);
		ck_assert_uint_eq(cur->domain_attr->max_ep_rx_ctx, 64);
		ck_assert_uint_eq(cur->domain_attr->mr_cnt, 65536);
		ck_assert_uint_eq(cur->domain_attr->caps,
				  FI_LOCAL_COMM | FI_REMOTE_COMM |
				  FI_SHARED_AV | UET_CAPS_PEER);
		ck_assert(cur->domain_attr->caps & FI_AV_USER_ID);
		ck_assert_uint_eq(job_of(cur), 1);
		ck_assert_int_eq(cur->ep_attr->protocol, FI_PROTO_UNSPEC);
		ck_assert_uint_eq(cur->ep_attr->protocol_version, 1);
		ck_assert_uint_eq(cur->ep_attr->auth_key_size, 4);
		ck_assert_uint_eq(cur->ep_attr->tx_ctx_cnt, 1);
		ck_assert_uint_eq(cur->ep_attr->msg_prefix_size, 0);
		if (i < 2) {
			/* RDM: messaging, RMA and atomics, split into the
			 * initiator and target halves */
			ck_assert_uint_eq(cur->tx_attr->caps,
					  FI_MSG | FI_TAGGED | FI_SEND |
					  FI_RMA | FI_ATOMIC | FI_READ |
					  FI_WRITE | FI_FENCE |
					  FI_NAMED_RX_CTX | FI_HMEM);
			ck_assert_uint_eq(cur->rx_attr->caps,
					  FI_MSG | FI_TAGGED | FI_RECV |
					  FI_DIRECTED_RECV | FI_SOURCE |
					  FI_MULTI_RECV | FI_RMA | FI_ATOMIC |
					  FI_REMOTE_READ | FI_REMOTE_WRITE |
					  FI_RMA_EVENT | FI_HMEM);
			ck_assert_uint_eq(cur->tx_attr->rma_iov_limit, 4);
		} else {
			ck_assert_uint_eq(cur->tx_attr->caps,
					  FI_MSG | FI_TAGGED | FI_SEND |
					  FI_NAMED_RX_CTX | FI_HMEM);
			ck_assert_uint_eq(cur->rx_attr->caps,
					  FI_MSG | FI_TAGGED | FI_RECV |
					  FI_DIRECTED_RECV | FI_SOURCE |
					  FI_MULTI_RECV | FI_HMEM);
			ck_assert_uint_eq(cur->tx_attr->rma_iov_limit, 0);
		}
		/* RUD may reorder RMA: no RMA ordering */
		ck_assert_uint_eq(cur->ep_attr->max_order_raw_size, 0);
		ck_assert_uint_eq(cur->ep_attr->max_order_war_size, 0);
		ck_assert_uint_eq(cur->ep_attr->max_order_waw_size, 0);
		/* send-after-send on RDM (ROD/RUD in order per PDC), none
		 * on unordered UUD (DGRAM) */
		ck_assert_uint_eq(cur->tx_attr->msg_order,
				  i < 2 ? FI_ORDER_SAS : 0);
		ck_assert_uint_eq(cur->rx_attr->msg_order,
				  i < 2 ? FI_ORDER_SAS : 0);
		ck_assert_uint_eq(cur->tx_attr->comp_order, 0);
		ck_assert_uint_eq(cur->tx_attr->size, 1024);
		ck_assert_uint_eq(cur->tx_attr->iov_limit, 8);
		ck_assert_uint_eq(cur->tx_attr->inject_size, 4096);
		ck_assert_uint_eq(cur->rx_attr->size, 1024);
		ck_assert_uint_eq(cur->rx_attr->total_buffered_recv, 0);
		if (i < 2) {
			ck_assert_uint_eq(cur->ep_attr->max_msg_size,
					  0xffffffffull);
		} else {
			/* lo's MTU is at least 65535: one UDP datagram,
			 * capped by the NIC's single-packet buffer */
			ck_assert_uint_eq(cur->ep_attr->max_msg_size,
					  UET_DGRAM_MAX_MSG);
		}
		ck_assert_int_eq(uet_info_check(V, cur), 0);
	}
	ck_assert_int_eq(v4, 2);
	ck_assert_int_eq(v6, 2);
	fi_freeinfo(info);

	ck_assert_int_eq(uet_info_getinfo(V, NULL, NULL, 0, NULL, NULL),
			 -FI_EINVAL);
	ck_assert_int_eq(uet_info_check(V, NULL), -FI_EINVAL);
}
END_TEST

/* Each hint uet cannot satisfy gives no info at all. */
START_TEST(test_info_unsatisfiable)
{
	struct fi_info *h = fi_allocinfo();
	uint32_t job = 1u << 24;

	ck_assert_ptr_nonnull(h);
	/* RMA and atomics: RDM only */
	h->ep_attr->type = FI_EP_DGRAM;
	h->caps = FI_RMA;
	expect_nodata(h);
	h->caps = FI_MSG | FI_ATOMIC;
	expect_nodata(h);
	h->caps = FI_MSG;
	h->rx_attr->caps = FI_REMOTE_WRITE;
	expect_nodata(h);
	h->rx_attr->caps = 0;
	h->ep_attr->type = FI_EP_UNSPEC;
	h->caps = FI_MSG | FI_COLLECTIVE;
	expect_nodata(h);
	h->caps = FI_RMA;
	h->ep_attr->max_order_waw_size = 8;	/* RMA is not ordered */
	expect_nodata(h);
	h->ep_attr->max_order_waw_size = 0;
	h->ep_attr->max_order_raw_size = 1;
	expect_nodata(h);
	h->ep_attr->max_order_raw_size = 0;
	h->caps = 0;
	h->ep_attr->type = FI_EP_MSG;
	expect_nodata(h);
	h->ep_attr->type = FI_EP_UNSPEC;
	h->tx_attr->inject_size = 1u << 20;
	expect_nodata(h);
	h->tx_attr->inject_size = 0;
	h->tx_attr->msg_order = FI_ORDER_RAW;
	expect_nodata(h);
	h->tx_attr->msg_order = 0;
	h->rx_attr->msg_order = FI_ORDER_SAW;
	expect_nodata(h);
	h->rx_attr->msg_order = 0;
	h->tx_attr->comp_order = 1;	/* FI_ORDER_STRICT's low bit */
	expect_nodata(h);
	h->tx_attr->comp_order = 0;
	h->domain_attr->cq_data_size = 16;
	expect_nodata(h);
	h->domain_attr->cq_data_size = 0;
	h->addr_format = FI_ADDR_STR;
	expect_nodata(h);
	h->addr_format = FI_SOCKADDR_IB;
	expect_nodata(h);
	h->addr_format = FI_FORMAT_UNSPEC;
	h->domain_attr->name = strdup("no-such-if");
	expect_nodata(h);
	free(h->domain_attr->name);
	h->domain_attr->name = NULL;
	h->domain_attr->auth_key = malloc(4);
	memcpy(h->domain_attr->auth_key, &job, 4);
	h->domain_attr->auth_key_size = 4;
	expect_nodata(h);		/* JobID beyond 24 bits */
	h->domain_attr->auth_key_size = 8;
	expect_nodata(h);		/* wrong size */
	free(h->domain_attr->auth_key);
	h->domain_attr->auth_key = NULL;
	h->domain_attr->auth_key_size = 0;
	h->ep_attr->auth_key_size = 2;
	expect_nodata(h);
	h->ep_attr->auth_key_size = 0;
	h->ep_attr->max_msg_size = 0x100000000ull;
	expect_nodata(h);
	h->ep_attr->max_msg_size = 0;
	h->ep_attr->protocol = FI_PROTO_RXD;
	expect_nodata(h);
	h->ep_attr->protocol = 0;
	h->ep_attr->protocol_version = 2;
	expect_nodata(h);
	h->ep_attr->protocol_version = 0;
	h->ep_attr->tx_ctx_cnt = FI_SHARED_CONTEXT;
	expect_nodata(h);
	h->ep_attr->tx_ctx_cnt = 0;
	h->ep_attr->rx_ctx_cnt = 65;	/* scalable endpoints: 64 */
	expect_nodata(h);
	h->ep_attr->rx_ctx_cnt = 0;
	h->tx_attr->iov_limit = 9;
	expect_nodata(h);
	h->tx_attr->iov_limit = 0;
	h->tx_attr->rma_iov_limit = 5;
	expect_nodata(h);
	h->tx_attr->rma_iov_limit = 0;
	h->tx_attr->size = 1025;
	expect_nodata(h);
	h->tx_attr->size = 0;
	h->tx_attr->op_flags = FI_COMMIT_COMPLETE;
	expect_nodata(h);
	h->tx_attr->op_flags = 0;
	h->tx_attr->caps = FI_TRIGGER;
	expect_nodata(h);
	h->tx_attr->caps = 0;
	h->rx_attr->caps = FI_RMA_PMEM;
	expect_nodata(h);
	h->rx_attr->caps = 0;
	h->rx_attr->total_buffered_recv = 1;
	expect_nodata(h);
	h->rx_attr->total_buffered_recv = 0;
	h->rx_attr->iov_limit = 16;
	expect_nodata(h);
	h->rx_attr->iov_limit = 0;
	h->domain_attr->threading = (enum fi_threading)99;
	expect_nodata(h);
	h->domain_attr->threading = FI_THREAD_UNSPEC;
	h->domain_attr->data_progress = (enum fi_progress)99;
	expect_nodata(h);
	h->domain_attr->data_progress = FI_PROGRESS_UNSPEC;
	h->domain_attr->av_type = (enum fi_av_type)99;
	expect_nodata(h);
	h->domain_attr->av_type = FI_AV_UNSPEC;
	h->domain_attr->mr_key_size = 16;
	expect_nodata(h);
	h->domain_attr->mr_key_size = 0;
	h->domain_attr->cq_cnt = 257;
	expect_nodata(h);
	h->domain_attr->cq_cnt = 0;
	h->domain_attr->max_ep_stx_ctx = 1;
	expect_nodata(h);
	h->domain_attr->max_ep_stx_ctx = 0;
	h->domain_attr->mr_iov_limit = 9;	/* UET_MR_IOV_LIMIT + 1 */
	expect_nodata(h);
	h->domain_attr->mr_iov_limit = 0;
	h->domain_attr->max_err_data = 1;
	expect_nodata(h);
	h->domain_attr->max_err_data = 0;
	h->domain_attr->caps = FI_MSG;		/* not a domain cap */
	expect_nodata(h);
	h->domain_attr->caps = 0;
	h->domain_attr->mr_mode = 1 | FI_MR_LOCAL;	/* FI_MR_BASIC | .. */
	expect_nodata(h);
	h->domain_attr->mr_mode = 0;
	h->fabric_attr->name = strdup("TCP-IP");
	expect_nodata(h);
	free(h->fabric_attr->name);
	h->fabric_attr->name = strdup("10.255.255.0/24");	/* not lo's */
	expect_nodata(h);
	free(h->fabric_attr->name);
	h->fabric_attr->name = strdup("uet");
	h->fabric_attr->prov_name = strdup("tcp");
	expect_nodata(h);
	free(h->fabric_attr->prov_name);
	h->fabric_attr->prov_name = strdup("UET");
	h->fabric_attr->prov_version = FI_VERSION(9, 0);
	expect_nodata(h);
	h->fabric_attr->prov_version = 0;

	/* and with all of that undone the hints are satisfiable */
	{
		struct fi_info *info = get(NULL, NULL, 0, h);

		ck_assert_uint_eq(count(info), 4);
		fi_freeinfo(info);
	}
	fi_freeinfo(h);
}
END_TEST

START_TEST(test_info_node_dest)
{
	struct fi_info *info = get("127.0.0.1", "4793", 0, NULL), *cur;
	struct uet_addr a, d;

	ck_assert_uint_eq(count(info), 2);	/* IPv4 only, RDM + DGRAM */
	for (cur = info; cur; cur = cur->next) {
		a = src_of(cur);
		ck_assert_int_eq(a.u.sa.sa_family, AF_INET);
		ck_assert_uint_eq(uet_addr_port(&a), 0);
		ck_assert_ptr_nonnull(cur->dest_addr);
		ck_assert_int_eq(uet_addr_from_raw(&d, cur->dest_addr,
						   cur->dest_addrlen), 0);
		ck_assert_uint_eq(uet_addr_port(&d), 4793);
		ck_assert(uet_addr_is_loopback(&d));
		ck_assert_uint_eq(d.pid | d.ri, 0);
	}
	ck_assert_int_eq(info->ep_attr->type, FI_EP_RDM);
	fi_freeinfo(info);
}
END_TEST

START_TEST(test_info_node_source)
{
	struct fi_info *info = get("127.0.0.1", "4793", FI_SOURCE, NULL), *cur;
	struct uet_addr a;

	ck_assert_uint_eq(count(info), 2);
	for (cur = info; cur; cur = cur->next) {
		a = src_of(cur);
		ck_assert_int_eq(a.u.sa.sa_family, AF_INET);
		ck_assert_uint_eq(uet_addr_port(&a), 4793);
		ck_assert_ptr_null(cur->dest_addr);
		ck_assert_str_eq(cur->domain_attr->name, "lo");
	}
	fi_freeinfo(info);

	/* service alone: the source port of every interface address */
	info = get(NULL, "4794", FI_SOURCE, NULL);
	ck_assert_uint_eq(count(info), 4);
	for (cur = info; cur; cur = cur->next) {
		a = src_of(cur);
		ck_assert_uint_eq(uet_addr_port(&a), 4794);
		ck_assert_ptr_null(cur->dest_addr);
	}
	fi_freeinfo(info);
	info = get(NULL, "4795", 0, NULL);
	ck_assert_uint_eq(count(info), 4);
	a = src_of(info);
	ck_assert_uint_eq(uet_addr_port(&a), 4795);
	ck_assert_ptr_null(info->dest_addr);
	fi_freeinfo(info);

	/* FI_SOURCE needs a node or a service */
	info = (struct fi_info *)0x1;
	ck_assert_int_eq(uet_info_getinfo(V, NULL, NULL, FI_SOURCE, NULL,
					  &info), -FI_EINVAL);
	ck_assert_ptr_null(info);
	/* a source address no interface owns */
	ck_assert_int_eq(uet_info_getinfo(V, "192.0.2.200", NULL, FI_SOURCE,
					  NULL, &info), -FI_ENODATA);
	ck_assert_int_eq(uet_info_getinfo(V, "no.such.host.invalid", NULL,
					  FI_NUMERICHOST, NULL, &info),
			 -FI_ENODATA);
}
END_TEST

START_TEST(test_info_ipv6)
{
	struct fi_info *hints = fi_allocinfo(), *info, *cur;
	struct uet_addr a, d;

	info = get("::1", NULL, 0, NULL);
	ck_assert_uint_eq(count(info), 2);
	for (cur = info; cur; cur = cur->next) {
		a = src_of(cur);
		ck_assert_uint_eq(cur->addr_format, FI_SOCKADDR_IN6);
		ck_assert_int_eq(uet_addr_from_raw(&d, cur->dest_addr,
						   cur->dest_addrlen), 0);
		ck_assert_int_eq(d.u.sa.sa_family, AF_INET6);
	}
	fi_freeinfo(info);

	hints->addr_format = FI_SOCKADDR_IN6;
	info = get(NULL, NULL, 0, hints);
	ck_assert_uint_eq(count(info), 2);
	for (cur = info; cur; cur = cur->next) {
		ck_assert_uint_eq(cur->addr_format, FI_SOCKADDR_IN6);
		a = src_of(cur);
		ck_assert(uet_addr_is_loopback(&a));
	}
	fi_freeinfo(info);
	hints->addr_format = FI_SOCKADDR_IN;
	info = get(NULL, NULL, 0, hints);
	ck_assert_uint_eq(count(info), 2);
	ck_assert_uint_eq(info->addr_format, FI_SOCKADDR_IN);
	fi_freeinfo(info);
	/* FI_SOCKADDR: either family */
	hints->addr_format = FI_SOCKADDR;
	info = get(NULL, NULL, 0, hints);
	ck_assert_uint_eq(count(info), 4);
	fi_freeinfo(info);
	/* an IPv6 node with an IPv4-only hint resolves to nothing */
	hints->addr_format = FI_SOCKADDR_IN;
	info = (struct fi_info *)0x1;
	ck_assert_int_eq(uet_info_getinfo(V, "::1", NULL, FI_NUMERICHOST,
					  hints, &info), -FI_ENODATA);
	ck_assert_ptr_null(info);
	fi_freeinfo(hints);
}
END_TEST

/* hints->src_addr / dest_addr, and pid/ri carried through. */
START_TEST(test_info_hint_addrs)
{
	struct fi_info *hints = fi_allocinfo(), *info;
	uint8_t raw[UET_ADDR_RAW_MAX];
	struct uet_addr a, b;

	ck_assert_int_eq(uet_addr_resolve("127.0.0.1", "5000", AF_INET, true,
					  &a), 0);
	a.pid = 5;
	a.ri = 6;
	hints->src_addrlen = uet_addr_to_raw(&a, raw, sizeof(raw));
	hints->src_addr = malloc(hints->src_addrlen);
	memcpy(hints->src_addr, raw, hints->src_addrlen);
	hints->addr_format = FI_SOCKADDR_IN;
	info = get(NULL, NULL, 0, hints);
	ck_assert_uint_eq(count(info), 2);
	b = src_of(info);
	ck_assert_int_eq(uet_addr_cmp(&a, &b), 0);
	ck_assert_str_eq(info->domain_attr->name, "lo");
	ck_assert_int_eq(uet_info_check(V, info), 0);
	fi_freeinfo(info);

	/* a source no interface owns */
	ck_assert_int_eq(uet_addr_resolve("192.0.2.201", NULL, AF_INET, true,
					  &a), 0);
	uet_addr_to_raw(&a, hints->src_addr, hints->src_addrlen);
	info = (struct fi_info *)0x1;
	ck_assert_int_eq(uet_info_getinfo(V, NULL, NULL, 0, hints, &info),
			 -FI_ENODATA);
	/* a malformed one (reserved bits) */
	memset(raw, 0xff, sizeof(raw));
	memcpy(hints->src_addr, raw, hints->src_addrlen);
	memcpy(hints->src_addr, &(sa_family_t){ AF_INET },
	       sizeof(sa_family_t));
	ck_assert_int_eq(uet_info_getinfo(V, NULL, NULL, 0, hints, &info),
			 -FI_ENODATA);
	free(hints->src_addr);
	hints->src_addr = NULL;
	hints->src_addrlen = 0;

	/* dest_addr in the hints: copied, same family only */
	ck_assert_int_eq(uet_addr_resolve("::1", "6000", AF_INET6, true, &a),
			 0);
	a.ri = 9;
	hints->addr_format = FI_SOCKADDR_IN6;
	hints->dest_addrlen = uet_addr_to_raw(&a, NULL, 0);
	hints->dest_addr = malloc(hints->dest_addrlen);
	uet_addr_to_raw(&a, hints->dest_addr, hints->dest_addrlen);
	info = get(NULL, NULL, 0, hints);
	ck_assert_uint_eq(count(info), 2);
	ck_assert_int_eq(uet_addr_from_raw(&b, info->dest_addr,
					   info->dest_addrlen), 0);
	ck_assert_int_eq(uet_addr_cmp(&a, &b), 0);
	b = src_of(info);
	ck_assert_int_eq(b.u.sa.sa_family, AF_INET6);
	fi_freeinfo(info);
	fi_freeinfo(hints);
}
END_TEST

/* Primary caps as asked, secondary ones always, tx/rx split. */
START_TEST(test_info_caps)
{
	struct fi_info *hints = fi_allocinfo(), *info;

	hints->caps = FI_TAGGED;
	info = get(NULL, NULL, 0, hints);
	/* RDM also has FI_FENCE, a secondary capability */
	ck_assert_int_eq(info->ep_attr->type, FI_EP_RDM);
	ck_assert_uint_eq(info->caps, FI_TAGGED | FI_SEND | FI_RECV |
			  FI_SOURCE | FI_MULTI_RECV | FI_LOCAL_COMM |
			  FI_REMOTE_COMM | FI_SHARED_AV | FI_FENCE);
	ck_assert_uint_eq(info->tx_attr->caps, FI_TAGGED | FI_SEND | FI_FENCE);
	ck_assert_uint_eq(info->rx_attr->caps, FI_TAGGED | FI_RECV |
			  FI_SOURCE | FI_MULTI_RECV);
	ck_assert_int_eq(uet_info_check(V, info), 0);
	fi_freeinfo(info);

	hints->caps = FI_MSG | FI_SEND | FI_DIRECTED_RECV;
	info = get(NULL, NULL, 0, hints);
	ck_assert_uint_eq(info->caps & ~(FI_SOURCE | FI_MULTI_RECV |
					 FI_LOCAL_COMM | FI_REMOTE_COMM |
					 FI_SHARED_AV | FI_FENCE),
			  FI_MSG | FI_SEND | FI_DIRECTED_RECV);
	ck_assert_uint_eq(info->tx_attr->caps, FI_MSG | FI_SEND | FI_FENCE);
	fi_freeinfo(info);

	/* RMA named without a direction: all four, split between tx (the
	 * initiator) and rx (the target); RDM only; FI_RMA_EVENT only when
	 * asked for */
	hints->caps = FI_RMA;
	info = get(NULL, NULL, 0, hints);
	ck_assert_uint_eq(count(info), 2);
	ck_assert_int_eq(info->ep_attr->type, FI_EP_RDM);
	ck_assert_uint_eq(info->caps, FI_RMA | FI_READ | FI_WRITE |
			  FI_REMOTE_READ | FI_REMOTE_WRITE | FI_SOURCE |
			  FI_MULTI_RECV | FI_LOCAL_COMM | FI_REMOTE_COMM |
			  FI_SHARED_AV | FI_FENCE);
	ck_assert_uint_eq(info->tx_attr->caps, FI_RMA | FI_READ | FI_WRITE |
			  FI_FENCE);
	ck_assert_uint_eq(info->rx_attr->caps, FI_RMA | FI_REMOTE_READ |
			  FI_REMOTE_WRITE | FI_SOURCE | FI_MULTI_RECV);
	ck_assert_int_eq(uet_info_check(V, info), 0);
	fi_freeinfo(info);
	hints->caps = FI_ATOMIC | FI_READ | FI_RMA_EVENT;
	info = get(NULL, NULL, 0, hints);
	ck_assert_uint_eq(info->caps & ~(FI_SOURCE | FI_MULTI_RECV |
					 FI_LOCAL_COMM | FI_REMOTE_COMM |
					 FI_SHARED_AV | FI_FENCE),
			  FI_ATOMIC | FI_READ | FI_RMA_EVENT);
	ck_assert_uint_eq(info->tx_attr->caps, FI_ATOMIC | FI_READ | FI_FENCE);
	ck_assert_uint_eq(info->rx_attr->caps, FI_ATOMIC | FI_RMA_EVENT |
			  FI_SOURCE | FI_MULTI_RECV);
	fi_freeinfo(info);
	/* tx/rx hints narrow the halves */
	hints->caps = FI_MSG | FI_RMA | FI_ATOMIC;
	hints->tx_attr->caps = FI_RMA | FI_WRITE;
	hints->rx_attr->caps = FI_MSG | FI_RECV;
	info = get(NULL, NULL, 0, hints);
	ck_assert_uint_eq(info->tx_attr->caps, FI_RMA | FI_WRITE | FI_FENCE);
	ck_assert_uint_eq(info->rx_attr->caps, FI_MSG | FI_RECV | FI_SOURCE |
			  FI_MULTI_RECV);
	fi_freeinfo(info);
	fi_freeinfo(hints);
}
END_TEST

/* A 40-byte auth_key (struct fi_uet_auth_key: JobID, flags, TSS secret)
 * comes back whole in the domain and endpoint attributes; other sizes,
 * flags other than 0 and JobIDs of more than 24 bits give nothing. */
START_TEST(test_info_auth_key_tss)
{
	struct fi_info *hints = fi_allocinfo(), *info;
	struct fi_uet_auth_key k;
	const uint8_t *secret;
	uint32_t job;
	size_t i;

	lo_only();
	memset(&k, 0, sizeof(k));
	k.job_id = 0x123456;
	for (i = 0; i < sizeof(k.secret); i++)
		k.secret[i] = (uint8_t)(0x80 + i);
	ck_assert_uint_eq(sizeof(k), 40);
	hints->ep_attr->type = FI_EP_RDM;
	hints->domain_attr->auth_key = malloc(sizeof(k));
	memcpy(hints->domain_attr->auth_key, &k, sizeof(k));
	hints->domain_attr->auth_key_size = sizeof(k);
	hints->ep_attr->auth_key = malloc(sizeof(k));
	memcpy(hints->ep_attr->auth_key, &k, sizeof(k));
	hints->ep_attr->auth_key_size = sizeof(k);
	info = get(NULL, NULL, 0, hints);
	ck_assert_uint_eq(info->domain_attr->auth_key_size, sizeof(k));
	ck_assert_mem_eq(info->domain_attr->auth_key, &k, sizeof(k));
	ck_assert_uint_eq(info->ep_attr->auth_key_size, sizeof(k));
	ck_assert_mem_eq(info->ep_attr->auth_key, &k, sizeof(k));
	ck_assert_int_eq(uet_info_check(V, info), 0);
	ck_assert_int_eq(uet_info_auth_key_parse(info->domain_attr->auth_key,
						 sizeof(k), &job, &secret), 0);
	ck_assert_uint_eq(job, 0x123456);
	ck_assert_ptr_nonnull(secret);
	ck_assert_mem_eq(secret, k.secret, sizeof(k.secret));
	fi_freeinfo(info);
	ck_assert_int_eq(uet_info_auth_key_parse(&k, 4, &job, &secret), 0);
	ck_assert_ptr_null(secret);

	k.flags = 1;
	memcpy(hints->domain_attr->auth_key, &k, sizeof(k));
	expect_nodata(hints);
	ck_assert_int_eq(uet_info_auth_key_parse(&k, sizeof(k), &job,
						 &secret), -FI_EINVAL);
	k.flags = 0;
	k.job_id = 1u << 24;
	memcpy(hints->domain_attr->auth_key, &k, sizeof(k));
	expect_nodata(hints);
	k.job_id = 7;
	memcpy(hints->domain_attr->auth_key, &k, sizeof(k));
	hints->domain_attr->auth_key_size = sizeof(k) - 1;
	expect_nodata(hints);
	ck_assert_int_eq(uet_info_auth_key_parse(&k, 8, &job, &secret),
			 -FI_EINVAL);
	fi_freeinfo(hints);
}
END_TEST

/* Hinted levels are returned; the answer is never weaker than asked. */
START_TEST(test_info_domain_choices)
{
	struct fi_info *hints = fi_allocinfo(), *info;
	uint32_t job = 0xabcdef;

	hints->ep_attr->type = FI_EP_RDM;
	hints->mode = FI_CONTEXT | FI_CONTEXT2;
	hints->domain_attr->threading = FI_THREAD_DOMAIN;
	hints->domain_attr->data_progress = FI_PROGRESS_AUTO;
	hints->domain_attr->av_type = FI_AV_TABLE;
	hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR |
		FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT |
		FI_MR_HMEM;
	hints->domain_attr->auth_key = malloc(4);
	memcpy(hints->domain_attr->auth_key, &job, 4);
	hints->domain_attr->auth_key_size = 4;
	hints->tx_attr->size = 64;
	hints->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
	hints->rx_attr->iov_limit = 2;
	hints->tx_attr->msg_order = FI_ORDER_SAS;
	hints->domain_attr->name = strdup("lo");
	hints->fabric_attr->prov_name = strdup("uet");
	info = get(NULL, NULL, 0, hints);
	ck_assert_uint_eq(count(info), 2);
	ck_assert_int_eq(info->ep_attr->type, FI_EP_RDM);
	ck_assert_uint_eq(info->mode, 0);
	/* the model asked for is the model returned (uet locks as for
	 * FI_THREAD_SAFE whatever it is): MPICH's ch4:ofi requires it */
	ck_assert_int_eq(info->domain_attr->threading, FI_THREAD_DOMAIN);
	ck_assert_int_eq(info->domain_attr->data_progress, FI_PROGRESS_AUTO);
	ck_assert_int_eq(info->domain_attr->control_progress,
			 FI_PROGRESS_MANUAL);
	ck_assert_int_eq(info->domain_attr->av_type, FI_AV_TABLE);
	/* uet requires no mr_mode bit: those the application offers are
	 * cleared (fi_mr(3)), FI_MR_LOCAL and FI_MR_PROV_KEY included */
	ck_assert_int_eq(info->domain_attr->mr_mode, 0);
	ck_assert_uint_eq(job_of(info), 0xabcdef);
	ck_assert_uint_eq(info->tx_attr->size, 64);
	ck_assert_uint_eq(info->tx_attr->op_flags, FI_DELIVERY_COMPLETE);
	ck_assert_uint_eq(info->rx_attr->iov_limit, 2);
	ck_assert_int_eq(uet_info_check(V, info), 0);
	fi_freeinfo(info);

	/* with or without remote access, DGRAM too */
	hints->caps = FI_MSG | FI_RMA | FI_READ | FI_WRITE;
	hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR |
		FI_MR_ALLOCATED | FI_MR_PROV_KEY;
	info = get(NULL, NULL, 0, hints);
	ck_assert_int_eq(info->domain_attr->mr_mode, 0);
	ck_assert_uint_eq(info->caps & (FI_REMOTE_READ | FI_REMOTE_WRITE), 0);
	ck_assert_uint_eq(info->rx_attr->caps & FI_RMA_EVENT, 0);
	fi_freeinfo(info);
	hints->caps = FI_MSG;
	hints->domain_attr->mr_mode = FI_MR_VIRT_ADDR | FI_MR_PROV_KEY;
	info = get(NULL, NULL, 0, hints);
	ck_assert_int_eq(info->domain_attr->mr_mode, 0);
	fi_freeinfo(info);
	hints->caps = 0;
	info = get(NULL, NULL, 0, hints);
	ck_assert_uint_ne(info->caps & FI_REMOTE_WRITE, 0);
	ck_assert_int_eq(info->domain_attr->mr_mode, 0);
	fi_freeinfo(info);
	hints->ep_attr->type = FI_EP_DGRAM;
	hints->domain_attr->mr_mode = FI_MR_LOCAL;
	/* UUD keeps no order: DGRAM refuses send-after-send */
	expect_nodata(hints);
	hints->tx_attr->msg_order = 0;
	info = get(NULL, NULL, 0, hints);
	ck_assert_int_eq(info->domain_attr->mr_mode, 0);
	fi_freeinfo(info);
	hints->ep_attr->type = FI_EP_RDM;
	hints->tx_attr->msg_order = FI_ORDER_SAS;
	/* the v1.0 values are returned as asked (provider keys and virtual
	 * addresses for FI_MR_BASIC) */
	hints->domain_attr->mr_mode = 1;	/* FI_MR_BASIC */
	info = get(NULL, NULL, 0, hints);
	ck_assert_int_eq(info->domain_attr->mr_mode, 1);
	fi_freeinfo(info);
	hints->domain_attr->mr_mode = 0;
	ck_assert_int_eq(uet_info_getinfo(FI_VERSION(1, 4), NULL, NULL, 0,
					  hints, &info), 0);
	ck_assert_int_eq(info->domain_attr->mr_mode, 2);  /* SCALABLE */
	fi_freeinfo(info);
	fi_freeinfo(hints);

	/* FI_UET_JOB_ID sets the default JobID */
	setenv("FI_UET_JOB_ID", "7", 1);
	info = get(NULL, NULL, 0, NULL);
	ck_assert_uint_eq(job_of(info), 7);
	fi_freeinfo(info);
}
END_TEST

/* fi_domain/fi_endpoint's check: returned infos pass, altered ones not. */
START_TEST(test_info_check)
{
	struct fi_info *info = get(NULL, NULL, 0, NULL), *dup;
	uint32_t job = 1u << 24;

	ck_assert_int_eq(uet_info_check(V, info), 0);
	ck_assert_int_eq(uet_info_check(V, info->next->next), 0);
	/* DGRAM: no RMA */
	dup = fi_dupinfo(info->next->next);
	dup->caps |= FI_RMA;
	ck_assert_int_eq(uet_info_check(V, dup), -FI_ENODATA);
	fi_freeinfo(dup);

#define CHECK_ALTERED(stmt, expect) do {				\
		dup = fi_dupinfo(info);					\
		ck_assert_ptr_nonnull(dup);				\
		stmt;							\
		ck_assert_int_eq(uet_info_check(V, dup), (expect));	\
		fi_freeinfo(dup);					\
	} while (0)

	CHECK_ALTERED(dup->domain_attr->threading = FI_THREAD_COMPLETION, 0);
	CHECK_ALTERED(dup->tx_attr->size = 16, 0);
	CHECK_ALTERED(dup->domain_attr->av_type = FI_AV_MAP, 0);
	CHECK_ALTERED(dup->caps |= FI_HMEM, 0);
	CHECK_ALTERED(dup->caps |= FI_COLLECTIVE, -FI_ENODATA);
	CHECK_ALTERED(dup->tx_attr->inject_size = 8192, -FI_ENODATA);
	CHECK_ALTERED(dup->ep_attr->type = FI_EP_MSG, -FI_ENODATA);
	CHECK_ALTERED(dup->ep_attr->max_msg_size = SIZE_MAX, -FI_ENODATA);
	CHECK_ALTERED(dup->rx_attr->msg_order |= FI_ORDER_RAW, -FI_ENODATA);
	CHECK_ALTERED(dup->domain_attr->cq_data_size = 16, -FI_ENODATA);
	CHECK_ALTERED(memcpy(dup->domain_attr->auth_key, &job, 4),
		      -FI_ENODATA);
	CHECK_ALTERED((free(dup->domain_attr->name),
		       dup->domain_attr->name = strdup("eth-none")),
		      -FI_ENODATA);
	/* text addresses only for a peer's owner (FI_PEER: lnx) */
	CHECK_ALTERED((dup->caps &= ~(uint64_t)FI_PEER,
		       dup->addr_format = FI_ADDR_STR), -FI_ENODATA);
#if UET_HAVE_PEER
	CHECK_ALTERED((free(dup->src_addr),
		       dup->src_addr = strdup("uet://127.0.0.1:0/0/0"),
		       dup->src_addrlen = strlen(dup->src_addr) + 1,
		       dup->addr_format = FI_ADDR_STR), 0);
	CHECK_ALTERED((free(dup->src_addr),
		       dup->src_addr = strdup("uet://10.0.0.1:0/0/0"),
		       dup->src_addrlen = strlen(dup->src_addr) + 1,
		       dup->addr_format = FI_ADDR_STR), -FI_ENODATA);
#endif
	/* a source address lo does not own */
	CHECK_ALTERED(((uint8_t *)dup->src_addr)[4] = 10, -FI_ENODATA);
#undef CHECK_ALTERED
	fi_freeinfo(info);
}
END_TEST

/* Without FI_UET_IFACE: a loopback destination puts lo first. */
START_TEST(test_info_order_all_ifaces)
{
	struct fi_info *info, *cur;
	struct uet_addr a;
	bool dgram_seen = false;

	unsetenv("FI_UET_IFACE");
	info = get("127.0.0.1", NULL, FI_NUMERICHOST, NULL);
	ck_assert_str_eq(info->domain_attr->name, "lo");
	a = src_of(info);
	ck_assert(uet_addr_is_loopback(&a));
	for (cur = info; cur; cur = cur->next) {
		a = src_of(cur);
		ck_assert_int_eq(a.u.sa.sa_family, AF_INET);
		/* every RDM info before every DGRAM info */
		if (cur->ep_attr->type == FI_EP_DGRAM)
			dgram_seen = true;
		else
			ck_assert(!dgram_seen);
	}
	fi_freeinfo(info);

	setenv("FI_UET_IFACE", "no-such-if,also-not", 1);
	info = (struct fi_info *)0x1;
	ck_assert_int_eq(uet_info_getinfo(V, NULL, NULL, 0, NULL, &info),
			 -FI_ENODATA);
	setenv("FI_UET_IFACE", "no-such-if,lo", 1);
	info = get(NULL, NULL, 0, NULL);
	ck_assert_uint_eq(count(info), 4);
	fi_freeinfo(info);
}
END_TEST

/* ---- interface order and fabric names (uet_iface.c), on made-up
 * interfaces: the host's own differ from machine to machine ---- */

static void mk_if(struct uet_iface *ifc, const char *name, const char *ip,
		  const char *mask, bool loopback)
{
	memset(ifc, 0, sizeof(*ifc));
	strcpy(ifc->name, name);
	ck_assert_int_eq(uet_addr_resolve(ip, NULL, AF_UNSPEC, true,
					  &ifc->addr), 0);
	if (mask)
		ck_assert_int_eq(uet_addr_resolve(mask, NULL, AF_UNSPEC, true,
						  &ifc->mask), 0);
	ifc->loopback = loopback;
	uet_iface_set_fabric(ifc);
}

START_TEST(test_iface_fabric_names)
{
	struct uet_iface ifc;

	mk_if(&ifc, "eth0", "10.77.1.2", "255.255.255.0", false);
	ck_assert_str_eq(ifc.fabric, "10.77.1.0/24");
	mk_if(&ifc, "eth0", "172.16.5.9", "255.255.240.0", false);
	ck_assert_str_eq(ifc.fabric, "172.16.0.0/20");
	mk_if(&ifc, "lo", "127.0.0.1", "255.0.0.0", true);
	ck_assert_str_eq(ifc.fabric, "127.0.0.0/8");
	mk_if(&ifc, "eth1", "fd00:1:2:3::9", "ffff:ffff:ffff:ffff::", false);
	ck_assert_str_eq(ifc.fabric, "fd00:1:2:3::/64");
	mk_if(&ifc, "lo", "::1", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
	      true);
	ck_assert_str_eq(ifc.fabric, "::1/128");
	/* No mask known: the host address alone. */
	mk_if(&ifc, "tun0", "192.0.2.7", NULL, false);
	ck_assert_str_eq(ifc.fabric, "192.0.2.7/32");
	ck_assert(uet_iface_fabric_known("uet"));
	ck_assert(uet_iface_fabric_known("127.0.0.0/8"));
	ck_assert(!uet_iface_fabric_known("192.0.2.7/32"));
}
END_TEST

/* Without a destination: IPv4, global IPv6, link-local IPv6, loopback
 * last, each class in the kernel's order. */
START_TEST(test_iface_order)
{
	struct uet_iface ifs[6];
	struct uet_addr d, route;
	size_t n;

	mk_if(&ifs[0], "lo", "127.0.0.1", "255.0.0.0", true);
	mk_if(&ifs[1], "lo", "::1", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
	      true);
	mk_if(&ifs[2], "eth0", "fe80::1", "ffff:ffff:ffff:ffff::", false);
	mk_if(&ifs[3], "eth0", "10.77.1.2", "255.255.255.0", false);
	mk_if(&ifs[4], "eth1", "fd00::2", "ffff:ffff:ffff:ffff::", false);
	mk_if(&ifs[5], "eth1", "10.88.0.5", "255.255.0.0", false);
	n = uet_iface_order(ifs, 6, AF_UNSPEC, NULL, NULL);
	ck_assert_uint_eq(n, 6);
	ck_assert_str_eq(ifs[0].fabric, "10.77.1.0/24");
	ck_assert_str_eq(ifs[1].fabric, "10.88.0.0/16");
	ck_assert_str_eq(ifs[2].fabric, "fd00::/64");
	ck_assert_str_eq(ifs[3].fabric, "fe80::/64");
	ck_assert_str_eq(ifs[4].fabric, "127.0.0.0/8");
	ck_assert_str_eq(ifs[5].fabric, "::1/128");
	ck_assert_uint_eq(uet_iface_class_of(&ifs[4]), UET_IFACE_LOOPBACK);

	/* One family only. */
	n = uet_iface_order(ifs, 6, AF_INET, NULL, NULL);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(ifs[2].name, "lo");

	/* A destination: the routed source first, then its subnet, then
	 * the rest (loopback still after the others). */
	mk_if(&ifs[0], "lo", "127.0.0.1", "255.0.0.0", true);
	mk_if(&ifs[1], "eth0", "10.77.1.2", "255.255.255.0", false);
	mk_if(&ifs[2], "eth1", "10.88.0.5", "255.255.0.0", false);
	mk_if(&ifs[3], "eth2", "10.99.0.5", "255.255.0.0", false);
	ck_assert_int_eq(uet_addr_resolve("10.88.3.3", NULL, AF_UNSPEC, true,
					  &d), 0);
	ck_assert_int_eq(uet_addr_resolve("10.99.0.5", NULL, AF_UNSPEC, true,
					  &route), 0);
	n = uet_iface_order(ifs, 4, AF_UNSPEC, &d, &route);
	ck_assert_uint_eq(n, 4);
	ck_assert_str_eq(ifs[0].name, "eth2");
	ck_assert_str_eq(ifs[1].name, "eth1");
	ck_assert_str_eq(ifs[2].name, "eth0");
	ck_assert_str_eq(ifs[3].name, "lo");
	/* A loopback destination without a route puts lo first among the
	 * unrouted (same "reach" as a subnet match). */
	ck_assert_int_eq(uet_addr_resolve("127.0.0.1", NULL, AF_UNSPEC, true,
					  &d), 0);
	n = uet_iface_order(ifs, 4, AF_UNSPEC, &d, NULL);
	ck_assert_str_eq(ifs[0].name, "lo");
}
END_TEST

/* Write text (and a newline) to dir/name. */
static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

/* fi_info->nic: lo as the kernel describes it, and a fake sysfs tree for
 * a virtio-net interface under a PCI function; fi_dupinfo copies it,
 * fi_freeinfo frees it. */
/* Append to b (at *off) one RTM_NEWADDR message of seq: family, flags
 * in ifa_flags (ifa8) and, when flags32 is not 0, in IFA_FLAGS. */
static void nl_addr_msg(uint8_t *b, size_t *off, uint32_t seq, int family,
			uint32_t ifindex, const char *ip, uint8_t ifa8,
			uint32_t flags32)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)(b + *off);
	struct ifaddrmsg *ifa = NLMSG_DATA(nh);
	struct rtattr *rta;
	size_t alen = family == AF_INET6 ? 16 : 4;

	memset(nh, 0, NLMSG_SPACE(sizeof(*ifa)));
	nh->nlmsg_type = RTM_NEWADDR;
	nh->nlmsg_seq = seq;
	nh->nlmsg_flags = NLM_F_MULTI;
	ifa->ifa_family = (uint8_t)family;
	ifa->ifa_index = ifindex;
	ifa->ifa_flags = ifa8;
	nh->nlmsg_len = NLMSG_LENGTH(sizeof(*ifa));
	rta = (struct rtattr *)(b + *off + NLMSG_ALIGN(nh->nlmsg_len));
	rta->rta_type = IFA_ADDRESS;
	rta->rta_len = (unsigned short)RTA_LENGTH(alen);
	ck_assert_int_eq(inet_pton(family, ip, RTA_DATA(rta)), 1);
	nh->nlmsg_len = NLMSG_ALIGN(nh->nlmsg_len) + RTA_ALIGN(rta->rta_len);
	if (flags32) {
		rta = (struct rtattr *)(b + *off + nh->nlmsg_len);
		rta->rta_type = IFA_FLAGS;
		rta->rta_len = (unsigned short)RTA_LENGTH(sizeof(flags32));
		memcpy(RTA_DATA(rta), &flags32, sizeof(flags32));
		nh->nlmsg_len += RTA_ALIGN(rta->rta_len);
	}
	*off += NLMSG_ALIGN(nh->nlmsg_len);
}

static void nl_ctl_msg(uint8_t *b, size_t *off, uint32_t seq, int type,
		       int error)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)(b + *off);
	struct nlmsgerr *e = NLMSG_DATA(nh);

	memset(nh, 0, NLMSG_SPACE(sizeof(*e)));
	nh->nlmsg_type = (uint16_t)type;
	nh->nlmsg_seq = seq;
	nh->nlmsg_len = NLMSG_LENGTH(type == NLMSG_ERROR ? sizeof(*e) :
							   sizeof(int));
	if (type == NLMSG_ERROR)
		e->error = error;
	*off += NLMSG_ALIGN(nh->nlmsg_len);
}

/* IPv6 addresses bind() refuses, from an RTM_GETADDR dump: tentative
 * (not optimistic) and DAD-failed ones; the 32-bit IFA_FLAGS wins over
 * ifa_flags; other families, other sequence numbers and the rest are
 * not listed; truncation and kernel errors are reported. */
START_TEST(test_iface_nl_unusable)
{
	uint8_t b[2048] __attribute__((aligned(8)));
	struct uet_iface_v6_addr *v = NULL;
	struct in6_addr want;
	size_t off = 0, n = 0, cap = 0;

	ck_assert(uet_iface_nl_flags_unusable(0x40));	/* tentative */
	ck_assert(!uet_iface_nl_flags_unusable(0x44));	/* + optimistic */
	ck_assert(uet_iface_nl_flags_unusable(0x48));	/* + dadfailed */
	ck_assert(uet_iface_nl_flags_unusable(0x08));
	ck_assert(!uet_iface_nl_flags_unusable(0x80));	/* permanent */
	ck_assert(!uet_iface_nl_flags_unusable(0));

	nl_addr_msg(b, &off, 7, AF_INET6, 2, "fe80::1", 0x40, 0);
	nl_addr_msg(b, &off, 7, AF_INET6, 3, "fe80::2", 0x44, 0);
	nl_addr_msg(b, &off, 7, AF_INET6, 4, "fd00::3", 0x80, 0x48);
	nl_addr_msg(b, &off, 7, AF_INET6, 5, "fd00::4", 0x40, 0x80);
	nl_addr_msg(b, &off, 7, AF_INET6, 1, "::1", 0x80, 0);
	nl_addr_msg(b, &off, 7, AF_INET, 6, "10.0.0.1", 0x40, 0);
	nl_addr_msg(b, &off, 8, AF_INET6, 7, "fe80::7", 0x40, 0);
	ck_assert_int_eq(uet_iface_nl_parse(b, off, 7, 0, &v, &n, &cap), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(v[0].ifindex, 2);
	ck_assert_int_eq(inet_pton(AF_INET6, "fe80::1", &want), 1);
	ck_assert_mem_eq(&v[0].addr, &want, sizeof(want));
	ck_assert_uint_eq(v[1].ifindex, 4);
	ck_assert_uint_eq(v[1].flags, 0x48);
	ck_assert_int_eq(inet_pton(AF_INET6, "fd00::3", &want), 1);
	ck_assert_mem_eq(&v[1].addr, &want, sizeof(want));
	/* the end of the dump */
	off = 0;
	nl_addr_msg(b, &off, 7, AF_INET6, 9, "fe80::9", 0x48, 0);
	nl_ctl_msg(b, &off, 7, NLMSG_DONE, 0);
	ck_assert_int_eq(uet_iface_nl_parse(b, off, 7, 0, &v, &n, &cap), 1);
	ck_assert_uint_eq(n, 3);
	/* a message cut short */
	off = 0;
	nl_addr_msg(b, &off, 7, AF_INET6, 9, "fe80::9", 0x48, 0);
	ck_assert_int_eq(uet_iface_nl_parse(b, off - 4, 7, 0, &v, &n, &cap),
			 -FI_EINVAL);
	/* an answer to another socket's request (nlmsg_pid) */
	off = 0;
	nl_addr_msg(b, &off, 7, AF_INET6, 9, "fe80::9", 0x48, 0);
	((struct nlmsghdr *)b)->nlmsg_pid = 4242;
	n = 0;
	ck_assert_int_eq(uet_iface_nl_parse(b, off, 7, 0, &v, &n, &cap), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(uet_iface_nl_parse(b, off, 7, 4242, &v, &n, &cap), 0);
	ck_assert_uint_eq(n, 1);
	/* the kernel's error */
	off = 0;
	nl_ctl_msg(b, &off, 7, NLMSG_ERROR, -EPERM);
	ck_assert_int_eq(uet_iface_nl_parse(b, off, 7, 0, &v, &n, &cap),
			 -FI_EIO);
	free(v);
	/* and the live one answers (a bounded netlink dump) */
	v = NULL;
	ck_assert_int_eq(uet_iface_v6_unusable(&v, &n), 0);
	free(v);
}
END_TEST

/* A reply that does not come from the kernel (issue 30, finding 12):
 * another netlink socket (root may unicast to any port id) queues a
 * forged dump of the right sequence number, a DAD-failed address and
 * NLMSG_DONE, on the socket before the real request goes out.  The
 * forgery is dropped; the answer is the kernel's. */
START_TEST(test_iface_nl_forged_sender)
{
	uint8_t b[512] __attribute__((aligned(8)));
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_sec = 1 };
	struct uet_iface_v6_addr *v = NULL;
	struct in6_addr forged;
	socklen_t salen = sizeof(sa);
	const uint32_t seq = 0x5eed;
	size_t off = 0, done, n, i;
	int fd, f;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	f = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_ge(f, 0);
	ck_assert_int_eq(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv,
				    sizeof(tv)), 0);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&sa, &salen), 0);
	ck_assert_uint_ne(sa.nl_pid, 0);
	nl_addr_msg(b, &off, seq, AF_INET6, 1, "fe80::dead", 0x48, 0);
	((struct nlmsghdr *)b)->nlmsg_pid = sa.nl_pid;
	done = off;
	nl_ctl_msg(b, &off, seq, NLMSG_DONE, 0);
	((struct nlmsghdr *)(b + done))->nlmsg_pid = sa.nl_pid;
	if (sendto(f, b, off, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		ck_assert_int_eq(errno, EPERM);
		fprintf(stderr, "test_iface_nl_forged_sender: skipped, "
			"no CAP_NET_ADMIN\n");
		goto out;
	}
	ck_assert_int_eq(uet_iface_nl_dump(fd, seq, &v, &n), 0);
	ck_assert_int_eq(inet_pton(AF_INET6, "fe80::dead", &forged), 1);
	for (i = 0; i < n; i++)
		ck_assert_msg(memcmp(&v[i].addr, &forged, sizeof(forged)),
			      "forged address accepted");
	free(v);
	/* the sender check itself */
	salen = sizeof(sa);
	ck_assert_int_eq(getsockname(f, (struct sockaddr *)&sa, &salen), 0);
	ck_assert(!uet_iface_nl_from_kernel(&sa, salen));
	sa.nl_pid = 0;
	ck_assert(uet_iface_nl_from_kernel(&sa, salen));
	ck_assert(!uet_iface_nl_from_kernel(&sa, salen - 1));
out:
	close(f);
	close(fd);
}
END_TEST

START_TEST(test_info_nic)
{
	char root[] = "/tmp/uet_nic_XXXXXX", d[512], l[512], pci[384];
	struct fi_info *info, *dup;
	struct fid_nic *nic, *dupnic;
	const struct fi_link_attr *link;
	const char *str;

	info = get(NULL, NULL, 0, NULL);
	ck_assert_ptr_nonnull(info->nic);
	ck_assert_int_eq(info->nic->fid.fclass, FI_CLASS_NIC);
	ck_assert_str_eq(info->nic->device_attr->name, "lo");
	link = info->nic->link_attr;
	ck_assert_int_eq(link->state, FI_LINK_UP);
	ck_assert_uint_eq(link->mtu, 65536);
	ck_assert_uint_eq(link->speed, 0);	/* lo has none */
	ck_assert_str_eq(link->network_type, "loopback");
	ck_assert_str_eq(link->address, "00:00:00:00:00:00");
	/* lo is anchored to the host's first network controller, if any:
	 * a bus address, but no vendor, device or driver of its own */
	ck_assert(info->nic->bus_attr->bus_type == FI_BUS_PCI ||
		  info->nic->bus_attr->bus_type == FI_BUS_UNKNOWN);
	ck_assert_ptr_null(info->nic->device_attr->driver);
	ck_assert_ptr_null(info->nic->device_attr->vendor_id);
	/* fi_info -v prints it */
	str = fi_tostr(info, FI_TYPE_INFO);
	ck_assert_ptr_nonnull(strstr(str, "    nic:\n"));
	ck_assert_ptr_nonnull(strstr(str, "            name: lo\n"));
	ck_assert_ptr_nonnull(strstr(str, "            state: FI_LINK_UP\n"));
	ck_assert_ptr_nonnull(strstr(str, "            mtu: 65536\n"));
	dup = fi_dupinfo(info);
	ck_assert_ptr_nonnull(dup);
	ck_assert_ptr_nonnull(dup->nic);
	ck_assert_ptr_ne(dup->nic, info->nic);
	ck_assert_str_eq(dup->nic->device_attr->name, "lo");
	ck_assert_uint_eq(dup->nic->link_attr->mtu, 65536);
	fi_freeinfo(dup);
	fi_freeinfo(info);

	/* <root>/net/eth9 -> device: <root>/devices/pci0000:00/0000:3b:00.1/
	 * virtio5, whose driver is virtio_net */
	ck_assert_ptr_nonnull(mkdtemp(root));
	snprintf(d, sizeof(d), "%s/net", root);
	ck_assert_int_eq(mkdir(d, 0700), 0);
	snprintf(d, sizeof(d), "%s/net/eth9", root);
	ck_assert_int_eq(mkdir(d, 0700), 0);
	put(d, "address", "02:fc:00:00:00:09");
	put(d, "type", "1");
	put(d, "mtu", "9000");
	put(d, "speed", "25000");
	put(d, "operstate", "up");
	snprintf(d, sizeof(d), "%s/devices", root);
	ck_assert_int_eq(mkdir(d, 0700), 0);
	snprintf(d, sizeof(d), "%s/devices/pci0000:00", root);
	ck_assert_int_eq(mkdir(d, 0700), 0);
	snprintf(d, sizeof(d), "%s/devices/pci0000:00/0000:3b:00.1", root);
	ck_assert_int_eq(mkdir(d, 0700), 0);
	put(d, "vendor", "0x1af4");
	put(d, "device", "0x1041");
	put(d, "revision", "0x01");
	snprintf(d, sizeof(d), "%s/devices/pci0000:00/0000:3b:00.1/virtio5",
		 root);
	ck_assert_int_eq(mkdir(d, 0700), 0);
	snprintf(d, sizeof(d), "%s/drivers", root);
	ck_assert_int_eq(mkdir(d, 0700), 0);
	snprintf(d, sizeof(d), "%s/drivers/virtio_net", root);
	ck_assert_int_eq(mkdir(d, 0700), 0);
	snprintf(l, sizeof(l), "%s/net/eth9/device", root);
	ck_assert_int_eq(symlink("../../devices/pci0000:00/0000:3b:00.1/"
				 "virtio5", l), 0);
	snprintf(l, sizeof(l), "%s/devices/pci0000:00/0000:3b:00.1/virtio5/"
		 "driver", root);
	ck_assert_int_eq(symlink("../../../../drivers/virtio_net", l), 0);
	snprintf(d, sizeof(d), "%s/net", root);
	snprintf(pci, sizeof(pci), "%s/pci", root);
	nic = uet_nic_new(d, pci, "eth9");
	ck_assert_ptr_nonnull(nic);
	ck_assert_str_eq(nic->device_attr->name, "eth9");
	ck_assert_str_eq(nic->device_attr->driver, "virtio_net");
	ck_assert_str_eq(nic->device_attr->vendor_id, "0x1af4");
	ck_assert_str_eq(nic->device_attr->device_id, "0x1041");
	ck_assert_str_eq(nic->device_attr->device_version, "0x01");
	ck_assert_ptr_null(nic->device_attr->firmware);
	ck_assert_int_eq(nic->bus_attr->bus_type, FI_BUS_PCI);
	ck_assert_uint_eq(nic->bus_attr->attr.pci.domain_id, 0);
	ck_assert_uint_eq(nic->bus_attr->attr.pci.bus_id, 0x3b);
	ck_assert_uint_eq(nic->bus_attr->attr.pci.device_id, 0);
	ck_assert_uint_eq(nic->bus_attr->attr.pci.function_id, 1);
	ck_assert_int_eq(nic->link_attr->state, FI_LINK_UP);
	ck_assert_uint_eq(nic->link_attr->mtu, 9000);
	ck_assert_uint_eq(nic->link_attr->speed, 25000ull * 1000 * 1000);
	ck_assert_str_eq(nic->link_attr->network_type, "Ethernet");
	ck_assert_str_eq(nic->link_attr->address, "02:fc:00:00:00:09");
	ck_assert_int_eq(nic->fid.ops->tostr(&nic->fid, (char[1024]){ 0 },
					     1024), 0);
	ck_assert_int_eq(fi_close(&nic->fid), 0);
	/* down, unknown speed (-1); an interface sysfs does not know */
	snprintf(d, sizeof(d), "%s/net/eth9", root);
	put(d, "operstate", "down");
	put(d, "speed", "-1");
	snprintf(d, sizeof(d), "%s/net", root);
	nic = uet_nic_new(d, pci, "eth9");
	ck_assert_int_eq(nic->link_attr->state, FI_LINK_DOWN);
	ck_assert_uint_eq(nic->link_attr->speed, 0);
	ck_assert_int_eq(fi_close(&nic->fid), 0);
	nic = uet_nic_new(d, NULL, "nosuch0");
	ck_assert_ptr_nonnull(nic);
	ck_assert_str_eq(nic->device_attr->name, "nosuch0");
	ck_assert_int_eq(nic->link_attr->state, FI_LINK_UNKNOWN);
	ck_assert_int_eq(nic->bus_attr->bus_type, FI_BUS_UNKNOWN);
	ck_assert_int_eq(fi_close(&nic->fid), 0);
	ck_assert_ptr_null(uet_nic_new(d, pci, "../eth9"));
	ck_assert_ptr_null(uet_nic_new(d, pci, ""));

	/* virtual interfaces: vlan9 over eth9 takes eth9's function; lo9
	 * (no device, no lower interface) the first network controller of
	 * <root>/pci (0000:1a:00.0: the bridge 0000:00:1f.0 is no network
	 * controller, 0000:3b:00.1 comes later); none without a PCI
	 * directory or without a network controller in it */
	snprintf(d, sizeof(d), "%s/net/vlan9", root);
	ck_assert_int_eq(mkdir(d, 0700), 0);
	put(d, "type", "1");
	put(d, "operstate", "up");
	snprintf(l, sizeof(l), "%s/net/vlan9/lower_eth9", root);
	ck_assert_int_eq(symlink("../eth9", l), 0);
	snprintf(d, sizeof(d), "%s/net/lo9", root);
	ck_assert_int_eq(mkdir(d, 0700), 0);
	put(d, "type", "772");
	ck_assert_int_eq(mkdir(pci, 0700), 0);
	snprintf(d, sizeof(d), "%s/0000:3b:00.1", pci);
	ck_assert_int_eq(mkdir(d, 0700), 0);
	put(d, "class", "0x020000");
	snprintf(d, sizeof(d), "%s/0000:1a:00.0", pci);
	ck_assert_int_eq(mkdir(d, 0700), 0);
	put(d, "class", "0x020000");
	snprintf(d, sizeof(d), "%s/0000:00:1f.0", pci);
	ck_assert_int_eq(mkdir(d, 0700), 0);
	put(d, "class", "0x060100");
	snprintf(d, sizeof(d), "%s/net", root);
	nic = uet_nic_new(d, pci, "vlan9");
	ck_assert_int_eq(nic->bus_attr->bus_type, FI_BUS_PCI);
	ck_assert_uint_eq(nic->bus_attr->attr.pci.bus_id, 0x3b);
	ck_assert_uint_eq(nic->bus_attr->attr.pci.function_id, 1);
	ck_assert_ptr_null(nic->device_attr->vendor_id);
	ck_assert_ptr_null(nic->device_attr->driver);
	ck_assert_int_eq(fi_close(&nic->fid), 0);
	nic = uet_nic_new(d, pci, "lo9");
	ck_assert_int_eq(nic->bus_attr->bus_type, FI_BUS_PCI);
	ck_assert_uint_eq(nic->bus_attr->attr.pci.domain_id, 0);
	ck_assert_uint_eq(nic->bus_attr->attr.pci.bus_id, 0x1a);
	ck_assert_uint_eq(nic->bus_attr->attr.pci.device_id, 0);
	ck_assert_uint_eq(nic->bus_attr->attr.pci.function_id, 0);
	ck_assert_str_eq(nic->link_attr->network_type, "loopback");
	ck_assert_ptr_null(nic->device_attr->vendor_id);
	/* fi_dupinfo's path (FI_DUP) keeps the anchor */
	ck_assert_int_eq(fi_control(&nic->fid, FI_DUP, &dupnic), 0);
	ck_assert_int_eq(dupnic->bus_attr->bus_type, FI_BUS_PCI);
	ck_assert_uint_eq(dupnic->bus_attr->attr.pci.bus_id, 0x1a);
	ck_assert_int_eq(fi_close(&dupnic->fid), 0);
	ck_assert_int_eq(fi_close(&nic->fid), 0);
	nic = uet_nic_new(d, NULL, "lo9");
	ck_assert_int_eq(nic->bus_attr->bus_type, FI_BUS_UNKNOWN);
	ck_assert_int_eq(fi_close(&nic->fid), 0);
	snprintf(d, sizeof(d), "%s/0000:1a:00.0", pci);
	put(d, "class", "0x030000");
	snprintf(d, sizeof(d), "%s/0000:3b:00.1", pci);
	put(d, "class", "0x010802");
	snprintf(d, sizeof(d), "%s/net", root);
	nic = uet_nic_new(d, pci, "lo9");
	ck_assert_int_eq(nic->bus_attr->bus_type, FI_BUS_UNKNOWN);
	ck_assert_int_eq(fi_close(&nic->fid), 0);
	snprintf(l, sizeof(l), "rm -rf '%s'", root);
	ck_assert_int_eq(system(l), 0);
}
END_TEST

/* HSI status codes and access bits <-> libfabric's (uet_xlate.c). */
START_TEST(test_xlate)
{
	static const struct { uint16_t st; int fi; } map[] = {
		{ UET_HSI_ST_OK, 0 }, { UET_HSI_ST_TRUNCATED, FI_ETRUNC },
		{ UET_HSI_ST_CANCELED, FI_ECANCELED },
		{ UET_HSI_ST_NO_MSG, FI_ENOMSG },
		{ UET_HSI_ST_TIMED_OUT, FI_ETIMEDOUT },
		{ UET_HSI_ST_INVALID, FI_EINVAL },
		{ UET_HSI_ST_NOT_SUPPORTED, FI_EOPNOTSUPP },
		{ UET_HSI_ST_TOO_LONG, FI_EMSGSIZE },
		{ UET_HSI_ST_ACCESS, FI_EACCES },
		{ UET_HSI_ST_NO_ADDR, FI_EADDRNOTAVAIL },
		{ UET_HSI_ST_NO_MEM, FI_ENOMEM }, { UET_HSI_ST_IO, FI_EIO },
		{ UET_HSI_ST_HOST_UNREACHABLE, FI_EHOSTUNREACH },
		{ UET_HSI_ST_NET_UNREACHABLE, FI_ENETUNREACH },
		{ UET_HSI_ST_NO_SPACE, FI_ENOSPC },
		{ UET_HSI_ST_NO_BUFS, FI_ENOBUFS },
		{ UET_HSI_ST_NO_PEER, ENXIO }, { UET_HSI_ST_PERMISSION, FI_EPERM },
		{ UET_HSI_ST_RANGE, ERANGE }, { UET_HSI_ST_BAD_MSG, EBADMSG },
		{ UET_HSI_ST_BUSY, FI_EBUSY }, { UET_HSI_ST_ALREADY, FI_EALREADY },
		{ UET_HSI_ST_CONN_RESET, FI_ECONNRESET },
		{ UET_HSI_ST_CONN_REFUSED, FI_ECONNREFUSED },
		{ UET_HSI_ST_AGAIN, FI_EAGAIN }, { UET_HSI_ST_FAULT, FI_EFAULT },
		{ UET_HSI_ST_PROTOCOL, EPROTO },
		{ UET_HSI_ST_NOT_CONNECTED, FI_ENOTCONN },
		{ UET_HSI_ST_NOT_FOUND, FI_ENOENT },
		{ UET_HSI_ST_OTHER, FI_EOTHER }, { 77, FI_EOTHER },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		ck_assert_int_eq(uet_xlate_status(map[i].st), map[i].fi);
	ck_assert_uint_eq(uet_xlate_access(FI_READ | FI_WRITE | FI_SEND |
					   FI_RECV | FI_REMOTE_READ |
					   FI_REMOTE_WRITE),
			  UET_HSI_ACCESS_ALL);
	ck_assert_uint_eq(uet_xlate_access(FI_REMOTE_READ),
			  UET_HSI_ACCESS_REMOTE_READ);
	ck_assert_uint_eq(uet_xlate_access(FI_REMOTE_WRITE),
			  UET_HSI_ACCESS_REMOTE_WRITE);
	ck_assert_uint_eq(uet_xlate_access(0), 0);
}
END_TEST

static Suite *info_suite(void)
{
	Suite *s = suite_create("prov_info");
	TCase *tc = tcase_create("getinfo");

	tcase_add_checked_fixture(tc, lo_only, NULL);
	tcase_add_test(tc, test_info_defaults);
	tcase_add_test(tc, test_info_nic);
	tcase_add_test(tc, test_info_unsatisfiable);
	tcase_add_test(tc, test_info_auth_key_tss);
	tcase_add_test(tc, test_info_node_dest);
	tcase_add_test(tc, test_info_node_source);
	tcase_add_test(tc, test_info_ipv6);
	tcase_add_test(tc, test_info_hint_addrs);
	tcase_add_test(tc, test_info_caps);
	tcase_add_test(tc, test_info_domain_choices);
	tcase_add_test(tc, test_info_check);
	tcase_add_test(tc, test_info_order_all_ifaces);
	tcase_add_test(tc, test_iface_fabric_names);
	tcase_add_test(tc, test_iface_order);
	tcase_add_test(tc, test_iface_nl_unusable);
	tcase_add_test(tc, test_iface_nl_forged_sender);
	tcase_add_test(tc, test_xlate);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(info_suite)
