/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The extension header as an application sees it: built only against the
 * libfabric headers and include/rdma/fi_uet_ext.h (installed as
 * <rdma/fi_uet_ext.h>), linked only with libfabric, the provider loaded
 * by libfabric (test/ext-ops.sh sets FI_PROVIDER_PATH and FI_UET_TSS).
 *
 * It opens a domain with a 40-byte auth_key (JobID + TSS secret), an RDM
 * endpoint on 127.0.0.1, sends itself messages, and reads the counters
 * through fi_open_ops(FI_UET_OPS_V1): TSS mode, protected and
 * authenticated datagrams, PDS packets, no failures.  Then: another ops
 * name gives -FI_ENOSYS; auth_key flags other than 0 are refused.
 *
 * Usage: uet_ext_ops_test [expect-mode]  (off, on or required), or
 *        uet_ext_ops_test nokey: a 4-byte auth_key (no secret) must make
 *        fi_domain fail with -FI_ENOKEY (run with FI_UET_TSS=required and
 *        no FI_UET_TSS_KEY_FILE).
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

#define MSGS		8
#define MSG_LEN		3000
#define WAIT_SEC	10

#define FAIL(...)							\
	do {								\
		fprintf(stderr, "uet_ext_ops_test: " __VA_ARGS__);	\
		fputc('\n', stderr);					\
		exit(1);						\
	} while (0)

#define CHECK(call)							\
	do {								\
		int r_ = (call);					\
		if (r_)							\
			FAIL("%s: %d (%s)", #call, r_, fi_strerror(-r_)); \
	} while (0)

static struct fi_info *get_info(const struct fi_uet_auth_key *key,
			       size_t key_size)
{
	struct fi_info *hints = fi_allocinfo(), *info = NULL;
	int ret;

	if (!hints)
		FAIL("fi_allocinfo");
	hints->fabric_attr->prov_name = strdup("uet");
	hints->ep_attr->type = FI_EP_RDM;
	hints->caps = FI_MSG;
	hints->addr_format = FI_SOCKADDR_IN;
	hints->domain_attr->auth_key = malloc(key_size);
	memcpy(hints->domain_attr->auth_key, key, key_size);
	hints->domain_attr->auth_key_size = key_size;
	ret = fi_getinfo(FI_VERSION(1, 17), "127.0.0.1", NULL, FI_SOURCE,
			 hints, &info);
	fi_freeinfo(hints);
	if (ret == -FI_ENODATA) {
		printf("SKIP: uet not found (FI_PROVIDER_PATH?)\n");
		exit(77);
	}
	if (ret)
		FAIL("fi_getinfo: %d", ret);
	if (info->domain_attr->auth_key_size != key_size ||
	    memcmp(info->domain_attr->auth_key, key, key_size))
		FAIL("fi_getinfo did not return the auth_key");
	return info;
}

static void wait_cq(struct fid_cq *cq, int n)
{
	struct fi_cq_entry e[8];
	time_t end = time(NULL) + WAIT_SEC;
	ssize_t r;

	while (n > 0) {
		r = fi_cq_read(cq, e, 8);
		if (r > 0) {
			n -= (int)r;
		} else if (r != -FI_EAGAIN) {
			FAIL("fi_cq_read: %zd", r);
		} else if (time(NULL) > end) {
			FAIL("completions did not come within %d s", WAIT_SEC);
		}
	}
}

int main(int argc, char **argv)
{
	static char sbuf[MSGS][MSG_LEN], rbuf[MSGS][MSG_LEN];
	const char *expect = argc > 1 ? argv[1] : "required";
	struct fi_uet_auth_key key;
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_CONTEXT };
	struct fi_av_attr ava = { .type = FI_AV_MAP };
	struct fi_uet_counters c;
	struct fi_uet_ops_v1 *ops;
	struct fi_info *info;
	struct fid_fabric *fab;
	struct fid_domain *dom, *dom2;
	struct fid_ep *ep;
	struct fid_cq *cq;
	struct fid_av *av;
	fi_addr_t self;
	char name[64];
	size_t namelen = sizeof(name);
	void *p;
	uint32_t want_mode;
	int i;

	want_mode = !strcmp(expect, "off") ? FI_UET_TSS_MODE_OFF :
		    !strcmp(expect, "on") ? FI_UET_TSS_MODE_ON :
		    FI_UET_TSS_MODE_REQUIRED;
	memset(&key, 0, sizeof(key));
	key.job_id = 0x4321;
	for (i = 0; i < FI_UET_TSS_SECRET_LEN; i++)
		key.secret[i] = (uint8_t)(i * 7 + 1);
	if (!strcmp(expect, "nokey")) {
		int ret;

		info = get_info(&key, FI_UET_AUTH_KEY_JOB_SIZE);
		CHECK(fi_fabric(info->fabric_attr, &fab, NULL));
		ret = fi_domain(fab, info, &dom, NULL);
		if (ret != -FI_ENOKEY)
			FAIL("fi_domain without a TSS key: %d, expected %d",
			     ret, -FI_ENOKEY);
		CHECK(fi_close(&fab->fid));
		fi_freeinfo(info);
		printf("PASS: uet_ext_ops_test (nokey)\n");
		return 0;
	}
	info = get_info(&key, FI_UET_AUTH_KEY_TSS_SIZE);
	CHECK(fi_fabric(info->fabric_attr, &fab, NULL));
	CHECK(fi_domain(fab, info, &dom, NULL));
	CHECK(fi_open_ops(&dom->fid, FI_UET_OPS_V1, 0, &p, NULL));
	ops = p;
	if (ops->size < sizeof(*ops) || !ops->get_counters)
		FAIL("ops size %zu", ops->size);
	if (fi_open_ops(&dom->fid, "uet_ops_v0", 0, &p, NULL) != -FI_ENOSYS)
		FAIL("another ops name was not refused with -FI_ENOSYS");
	if (ops->get_counters(dom, NULL, sizeof(c)) != -FI_EINVAL)
		FAIL("get_counters(NULL) was not refused");

	/* An endpoint may repeat its domain's auth_key, not change the
	 * secret. */
	info->ep_attr->auth_key = malloc(sizeof(key));
	if (!info->ep_attr->auth_key)
		FAIL("malloc");
	info->ep_attr->auth_key_size = sizeof(key);
	key.secret[0] ^= 1;
	memcpy(info->ep_attr->auth_key, &key, sizeof(key));
	if (fi_endpoint(dom, info, &ep, NULL) == 0)
		FAIL("an endpoint with another TSS secret was opened");
	key.secret[0] ^= 1;
	memcpy(info->ep_attr->auth_key, &key, sizeof(key));
	CHECK(fi_endpoint(dom, info, &ep, NULL));
	CHECK(fi_cq_open(dom, &cqa, &cq, NULL));
	CHECK(fi_av_open(dom, &ava, &av, NULL));
	CHECK(fi_ep_bind(ep, &cq->fid, FI_TRANSMIT | FI_RECV));
	CHECK(fi_ep_bind(ep, &av->fid, 0));
	CHECK(fi_enable(ep));
	CHECK(fi_getname(&ep->fid, name, &namelen));
	if (fi_av_insert(av, name, 1, &self, 0, NULL) != 1)
		FAIL("fi_av_insert");
	for (i = 0; i < MSGS; i++) {
		memset(sbuf[i], 'A' + i, MSG_LEN);
		CHECK((int)fi_recv(ep, rbuf[i], MSG_LEN, NULL, FI_ADDR_UNSPEC,
				   NULL));
	}
	for (i = 0; i < MSGS; i++)
		CHECK((int)fi_send(ep, sbuf[i], MSG_LEN, NULL, self, NULL));
	wait_cq(cq, 2 * MSGS);
	for (i = 0; i < MSGS; i++)
		if (memcmp(rbuf[i], sbuf[i], MSG_LEN))
			FAIL("message %d differs", i);

	memset(&c, 0xff, sizeof(c));
	CHECK(ops->get_counters(dom, &c, sizeof(c)));
	printf("counters: pkts_tx %llu pkts_rx %llu retx %llu malformed %llu "
	       "pdcs_open %llu tss_mode %u tss_tx %llu tss_rx %llu "
	       "tss_fail auth %llu malformed %llu unprotected %llu "
	       "replays %llu too_old %llu ndrops %u\n",
	       (unsigned long long)c.pkts_tx, (unsigned long long)c.pkts_rx,
	       (unsigned long long)c.retransmissions,
	       (unsigned long long)c.malformed,
	       (unsigned long long)c.pdcs_open, c.tss_mode,
	       (unsigned long long)c.tss_tx, (unsigned long long)c.tss_rx,
	       (unsigned long long)c.tss_fail[FI_UET_TSS_FAIL_AUTH],
	       (unsigned long long)c.tss_fail[FI_UET_TSS_FAIL_MALFORMED],
	       (unsigned long long)c.tss_fail[FI_UET_TSS_FAIL_UNPROTECTED],
	       (unsigned long long)c.tss_replays,
	       (unsigned long long)c.tss_too_old, c.ndrops);
	if (c.tss_mode != want_mode)
		FAIL("tss_mode %u, expected %u (%s)", c.tss_mode, want_mode,
		     expect);
	if (!c.pkts_tx || !c.pkts_rx || c.pdcs_open < 1)
		FAIL("no PDS traffic counted");
	if (want_mode != FI_UET_TSS_MODE_OFF &&
	    (c.tss_tx < c.pkts_tx || c.tss_rx < c.pkts_rx))
		FAIL("datagrams went unprotected");
	if (want_mode == FI_UET_TSS_MODE_OFF && (c.tss_tx || c.tss_rx))
		FAIL("TSS counted with TSS off");
	if (c.tss_fail[FI_UET_TSS_FAIL_AUTH] || c.tss_replays ||
	    c.malformed || c.ndrops < FI_UET_DROP_RMA_ACCESS + 1)
		FAIL("unexpected failures");
	/* A shorter (older) struct gets its prefix only. */
	{
		uint64_t two[3] = { 0, 0, 0x1234 };

		CHECK(ops->get_counters(dom, (void *)two,
					2 * sizeof(uint64_t)));
		if (two[2] != 0x1234 || !two[0])
			FAIL("a short counters struct was overrun");
	}

	/* auth_key flags must be 0 (refused as fi_getinfo would refuse
	 * such hints: -FI_ENODATA). */
	key.flags = 1;
	memcpy(info->domain_attr->auth_key, &key, sizeof(key));
	i = fi_domain(fab, info, &dom2, NULL);
	if (i != -FI_ENODATA && i != -FI_EINVAL)
		FAIL("auth_key flags 1: fi_domain gave %d", i);

	CHECK(fi_close(&ep->fid));
	CHECK(fi_close(&av->fid));
	CHECK(fi_close(&cq->fid));
	CHECK(fi_close(&dom->fid));
	CHECK(fi_close(&fab->fid));
	fi_freeinfo(info);
	printf("PASS: uet_ext_ops_test (%s)\n", expect);
	return 0;
}
