/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * An application of the installed extension header: test/ext-installed.sh
 * installs the tree into a temporary DESTDIR and compiles this file with
 * -I<DESTDIR><prefix>/include and libfabric's flags only, then runs it
 * with FI_PROVIDER=uet and FI_PROVIDER_PATH at the installed provider.
 *
 * One domain on 127.0.0.1, two RDM endpoints: A asks for ROD through
 * FI_OPT_UET_DELIVERY, B keeps the default (RUD).  A sends to B and B to
 * A; then FI_UET_OPS_V2 shows an initiator PDC of each mode, and the
 * counters show the datagrams.  The address helpers take B's name apart
 * and build it again.
 *
 * Exit 0 on success, 1 on failure (with a message), 77 to skip.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_uet_ext.h>

#define MSG_LEN		2000
#define WAIT_SEC	10

#define FAIL(...)							\
	do {								\
		fprintf(stderr, "uet_ext_installed: " __VA_ARGS__);	\
		fputc('\n', stderr);					\
		exit(1);						\
	} while (0)

#define CHECK(call)							\
	do {								\
		int r_ = (int)(call);					\
		if (r_)							\
			FAIL("%s: %d (%s)", #call, r_, fi_strerror(-r_)); \
	} while (0)

struct ep {
	struct fid_ep *ep;
	struct fid_cq *cq;
	fi_addr_t other;
};

static void wait_one(struct fid_cq *cq, struct fid_cq *other)
{
	struct fi_cq_entry e;
	time_t end = time(NULL) + WAIT_SEC;
	ssize_t r;

	for (;;) {
		r = fi_cq_read(cq, &e, 1);
		if (r == 1)
			return;
		if (r != -FI_EAGAIN)
			FAIL("fi_cq_read: %zd", r);
		(void)fi_cq_read(other, NULL, 0);	/* progress */
		if (time(NULL) > end)
			FAIL("no completion within %d s", WAIT_SEC);
	}
}

static void one_message(struct ep *from, struct ep *to)
{
	static char sb[MSG_LEN], rb[MSG_LEN];

	memset(sb, 'u', sizeof(sb));
	memset(rb, 0, sizeof(rb));
	CHECK(fi_recv(to->ep, rb, sizeof(rb), NULL, FI_ADDR_UNSPEC, NULL));
	CHECK(fi_send(from->ep, sb, sizeof(sb), NULL, from->other, NULL));
	wait_one(to->cq, from->cq);
	wait_one(from->cq, to->cq);
	if (memcmp(sb, rb, sizeof(sb)))
		FAIL("the message differs");
}

int main(void)
{
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_CONTEXT };
	struct fi_av_attr ava = { .type = FI_AV_TABLE };
	struct fi_info *hints, *info = NULL;
	struct fi_uet_peer_pdcs pd;
	struct fi_uet_counters c;
	struct fi_uet_ops_v2 *ops;
	struct sockaddr_storage nic;
	struct fid_fabric *fab;
	struct fid_domain *dom;
	struct fid_av *av;
	struct ep e[2];
	char name[2][64], again[64];
	size_t len[2], alen = sizeof(again);
	uint32_t mode;
	uint16_t pid, ri;
	unsigned int k, rud = 0, rod = 0;
	fi_addr_t addr[2];
	void *p;
	int i, ret;

	hints = fi_allocinfo();
	if (!hints)
		FAIL("fi_allocinfo");
	hints->ep_attr->type = FI_EP_RDM;
	hints->caps = FI_MSG;
	hints->addr_format = FI_SOCKADDR_IN;
	ret = fi_getinfo(FI_VERSION(1, 17), "127.0.0.1", NULL, FI_SOURCE,
			 hints, &info);
	fi_freeinfo(hints);
	if (ret == -FI_ENODATA) {
		printf("SKIP: uet not found (FI_PROVIDER_PATH?)\n");
		return 77;
	}
	if (ret)
		FAIL("fi_getinfo: %d", ret);
	if (strcmp(info->fabric_attr->prov_name, "uet"))
		FAIL("provider %s, not uet", info->fabric_attr->prov_name);
	CHECK(fi_fabric(info->fabric_attr, &fab, NULL));
	CHECK(fi_domain(fab, info, &dom, NULL));
	CHECK(fi_open_ops(&dom->fid, FI_UET_OPS_V2, 0, &p, NULL));
	ops = p;
	if (ops->size != sizeof(*ops))
		FAIL("ops size %zu", ops->size);
	CHECK(fi_av_open(dom, &ava, &av, NULL));
	for (i = 0; i < 2; i++) {
		CHECK(fi_endpoint(dom, info, &e[i].ep, NULL));
		CHECK(fi_cq_open(dom, &cqa, &e[i].cq, NULL));
		CHECK(fi_ep_bind(e[i].ep, &e[i].cq->fid, FI_TRANSMIT | FI_RECV));
		CHECK(fi_ep_bind(e[i].ep, &av->fid, 0));
	}
	mode = FI_UET_DELIVERY_ROD;
	CHECK(fi_setopt(&e[0].ep->fid, FI_OPT_ENDPOINT, FI_OPT_UET_DELIVERY,
			&mode, sizeof(mode)));
	mode = 7;
	if (fi_setopt(&e[1].ep->fid, FI_OPT_ENDPOINT, FI_OPT_UET_DELIVERY,
		      &mode, sizeof(mode)) != -FI_EINVAL)
		FAIL("delivery mode 7 was not refused");
	for (i = 0; i < 2; i++) {
		CHECK(fi_enable(e[i].ep));
		len[i] = sizeof(name[i]);
		CHECK(fi_getname(&e[i].ep->fid, name[i], &len[i]));
		if (fi_av_insert(av, name[i], 1, &addr[i], 0, NULL) != 1)
			FAIL("fi_av_insert");
	}
	mode = FI_UET_DELIVERY_RUD;
	if (fi_setopt(&e[0].ep->fid, FI_OPT_ENDPOINT, FI_OPT_UET_DELIVERY,
		      &mode, sizeof(mode)) != -FI_EOPBADSTATE)
		FAIL("the delivery mode changed after fi_enable");
	e[0].other = addr[1];
	e[1].other = addr[0];

	/* the address helpers: B's name apart and back */
	CHECK(fi_uet_addr_parse(name[1], len[1], &nic, &pid, &ri));
	CHECK(fi_uet_addr_build((struct sockaddr *)&nic, pid, ri, again,
				&alen));
	/* fi_getname says the wire profile; the built name says none */
	if (fi_uet_addr_wire(name[1], len[1]) != FI_UET_WIRE_UEPLUS &&
	    fi_uet_addr_wire(name[1], len[1]) != FI_UET_WIRE_UE)
		FAIL("fi_getname did not say the wire profile");
	CHECK(fi_uet_addr_set_wire(again, alen,
				   fi_uet_addr_wire(name[1], len[1])));
	if (alen != len[1] || alen != fi_uet_addr_size(AF_INET) ||
	    memcmp(again, name[1], alen))
		FAIL("fi_uet_addr_build did not rebuild the name");

	one_message(&e[0], &e[1]);
	one_message(&e[1], &e[0]);

	/* Both endpoints are on one NIC: its PDCs with itself are the
	 * initiator and target ends of each mode's PDC. */
	CHECK(ops->get_peer_pdcs(dom, av, addr[1], &pd, sizeof(pd)));
	for (k = 0; k < pd.nfilled; k++) {
		if (!pd.pdc[k].initiator)
			continue;
		rud += pd.pdc[k].mode == FI_UET_DELIVERY_RUD;
		rod += pd.pdc[k].mode == FI_UET_DELIVERY_ROD;
	}
	printf("PDCs with the NIC: %u (initiator RUD %u, ROD %u)\n",
	       pd.npdcs, rud, rod);
	if (rud != 1 || rod != 1)
		FAIL("expected one RUD and one ROD initiator PDC");

	memset(&c, 0, sizeof(c));
	CHECK(ops->get_counters(dom, &c, sizeof(c)));
	printf("counters: pkts_tx %llu pkts_rx %llu pdcs_open %llu\n",
	       (unsigned long long)c.pkts_tx, (unsigned long long)c.pkts_rx,
	       (unsigned long long)c.pdcs_open);
	if (!c.pkts_tx || !c.pkts_rx || c.pdcs_open < 2)
		FAIL("no traffic counted");

	for (i = 0; i < 2; i++) {
		CHECK(fi_close(&e[i].ep->fid));
		CHECK(fi_close(&e[i].cq->fid));
	}
	CHECK(fi_close(&av->fid));
	CHECK(fi_close(&dom->fid));
	CHECK(fi_close(&fab->fid));
	fi_freeinfo(info);
	printf("PASS: uet_ext_installed\n");
	return 0;
}
