/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The cost of an empty poll: one RDM endpoint of the uet provider with
 * its CQ, no peer, and ITERS fi_cq_read calls that find nothing.  Run it
 * under callgrind (bench/cpu.sh does) and divide uet_cq_read's inclusive
 * count by its calls: what a polling application pays per poll while it
 * waits, every layer included (provider, software NIC, recvmmsg).
 *
 *   uet_poll_empty [ITERS]          FI_PROVIDER_PATH, FI_UET_IFACE as usual
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>

#define CHECK(what, call)						\
	do {								\
		int rc_ = (call);					\
		if (rc_) {						\
			fprintf(stderr, "%s: %s\n", what,		\
				fi_strerror(-rc_));			\
			return 1;					\
		}							\
	} while (0)

int main(int argc, char **argv)
{
	long iters = argc > 1 ? atol(argv[1]) : 100000, i, got = 0;
	struct fi_info *hints, *info;
	struct fid_fabric *fabric;
	struct fid_domain *domain;
	struct fi_cq_attr cq_attr;
	struct fi_av_attr av_attr;
	struct fi_cq_tagged_entry e;
	struct fid_ep *ep;
	struct fid_cq *cq;
	struct fid_av *av;
	ssize_t r;

	hints = fi_allocinfo();
	if (!hints)
		return 1;
	hints->ep_attr->type = FI_EP_RDM;
	hints->caps = FI_MSG;
	hints->mode = FI_CONTEXT;
	hints->domain_attr->threading = FI_THREAD_SAFE;
	hints->fabric_attr->prov_name = strdup("uet");
	CHECK("fi_getinfo", fi_getinfo(fi_version(), NULL, NULL, 0,
					hints, &info));
	CHECK("fi_fabric", fi_fabric(info->fabric_attr, &fabric, NULL));
	CHECK("fi_domain", fi_domain(fabric, info, &domain, NULL));
	memset(&cq_attr, 0, sizeof(cq_attr));
	cq_attr.format = FI_CQ_FORMAT_TAGGED;
	cq_attr.wait_obj = FI_WAIT_NONE;
	CHECK("fi_cq_open", fi_cq_open(domain, &cq_attr, &cq, NULL));
	memset(&av_attr, 0, sizeof(av_attr));
	av_attr.type = FI_AV_TABLE;
	CHECK("fi_av_open", fi_av_open(domain, &av_attr, &av, NULL));
	CHECK("fi_endpoint", fi_endpoint(domain, info, &ep, NULL));
	CHECK("bind cq", fi_ep_bind(ep, &cq->fid, FI_TRANSMIT | FI_RECV));
	CHECK("bind av", fi_ep_bind(ep, &av->fid, 0));
	CHECK("fi_enable", fi_enable(ep));
	for (i = 0; i < iters; i++) {
		r = fi_cq_read(cq, &e, 1);
		if (r > 0)
			got += r;
		else if (r != -FI_EAGAIN)
			fprintf(stderr, "fi_cq_read: %s\n", fi_strerror((int)-r));
	}
	printf("%ld empty polls, %ld completions\n", iters - got, got);
	fi_close(&ep->fid);
	fi_close(&av->fid);
	fi_close(&cq->fid);
	fi_close(&domain->fid);
	fi_close(&fabric->fid);
	fi_freeinfo(info);
	fi_freeinfo(hints);
	return 0;
}
