/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Named (shared) address vectors (uet_av_shm.c): a writer AV and
 * FI_READ readers of the same name, in one process and across fork(),
 * with map_addr and fi_addr values that mean the same everywhere.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rdma/fi_errno.h>

#include "uet_clock.h"
#include "uet_prov.h"
#include "prov_test.h"
#include "uet_test.h"

#define API		FI_VERSION(1, 17)
#define WAIT_MS		10000

static struct fi_info *get_info(void)
{
	return uet_test_lo_info(API, FI_MSG | FI_SHARED_AV);
}

/* A unique name per run: tests of two builds may run at once. */
static void av_name(char *buf, size_t len, const char *what)
{
	snprintf(buf, len, "uet check/%s.%ld", what, (long)getpid());
}

static void addr_of(struct fid_ep *ep, uint8_t *buf, size_t *len)
{
	*len = 64;
	ck_assert_int_eq(fi_getname(&ep->fid, buf, len), 0);
}

START_TEST(test_named_av_objects)
{
	struct fi_info *info = get_info();
	struct fi_av_attr wa = { .type = FI_AV_TABLE };
	struct fi_av_attr ra = { .type = FI_AV_TABLE, .flags = FI_READ };
	uint8_t a[3][sizeof(struct sockaddr_in)], out[64];
	struct fid_fabric *fab;
	struct fid_domain *dom[2];
	struct fid_av *w, *r, *r2;
	fi_addr_t fa[3], rm;
	char name[64], longname[300];
	fi_addr_t *map;
	size_t len, i;

	av_name(name, sizeof(name), "objects");
	ck_assert_int_eq(uet_fabric(info->fabric_attr, &fab, NULL), 0);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(fi_domain(fab, info, &dom[i], NULL), 0);
	/* FI_READ needs a name, and a table of that name */
	ck_assert_int_eq(fi_av_open(dom[1], &ra, &r, NULL), -FI_EINVAL);
	ra.name = name;
	ck_assert_int_eq(fi_av_open(dom[1], &ra, &r, NULL), -FI_ENOENT);
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	wa.name = longname;
	ck_assert_int_eq(fi_av_open(dom[0], &wa, &w, NULL), -FI_EINVAL);

	/* the writer: map_addr is its fi_addr array */
	wa.name = name;
	ck_assert_int_eq(fi_av_open(dom[0], &wa, &w, NULL), 0);
	ck_assert_ptr_nonnull(wa.map_addr);
	map = wa.map_addr;
	ck_assert_uint_eq(map[0], FI_ADDR_NOTAVAIL);
	for (i = 0; i < 3; i++) {
		struct uet_addr ua;

		ck_assert_int_eq(uet_addr_resolve("127.0.0.1", "4800", AF_INET,
						  true, &ua), 0);
		ua.pid = (uint16_t)(i + 1);
		len = uet_addr_to_raw(&ua, a[i], sizeof(a[i]));
		ck_assert_uint_eq(len, sizeof(a[i]));
	}
	ck_assert_int_eq(fi_av_insert(w, a[0], 2, fa, 0, NULL), 2);
	ck_assert_uint_eq(fa[0], 0);
	ck_assert_uint_eq(fa[1], 1);
	ck_assert_uint_eq(map[0], 0);
	ck_assert_uint_eq(map[1], 1);

	/* a reader (another domain) sees the same slots, read-only */
	ck_assert_int_eq(fi_av_open(dom[1], &ra, &r, NULL), 0);
	map = ra.map_addr;
	ck_assert_ptr_nonnull(map);
	ck_assert_uint_eq(map[0], 0);
	ck_assert_uint_eq(map[1], 1);
	len = sizeof(out);
	ck_assert_int_eq(fi_av_lookup(r, 1, out, &len), 0);
	ck_assert_int_eq(memcmp(out, a[1], len), 0);
	ck_assert_int_eq(fi_av_insert(r, a[2], 1, NULL, 0, NULL), -FI_EPERM);
	rm = 0;
	ck_assert_int_eq(fi_av_remove(r, &rm, 1, 0), -FI_EPERM);
	/* published after the reader opened: imported when used */
	ck_assert_int_eq(fi_av_insert(w, a[2], 1, &fa[2], 0, NULL), 1);
	ck_assert_uint_eq(fa[2], 2);
	ck_assert_uint_eq(map[2], 2);
	len = sizeof(out);
	ck_assert_int_eq(fi_av_lookup(r, 2, out, &len), 0);
	ck_assert_int_eq(memcmp(out, a[2], len), 0);
	/* a remove shows in the table; the slot is reused */
	rm = 0;
	ck_assert_int_eq(fi_av_remove(w, &rm, 1, 0), 0);
	ck_assert_uint_eq(map[0], FI_ADDR_NOTAVAIL);
	ck_assert_int_eq(fi_av_insert(w, a[0], 1, &fa[0], 0, NULL), 1);
	ck_assert_uint_eq(fa[0], 0);
	ck_assert_uint_eq(map[0], 0);

	ck_assert_int_eq(fi_close(&r->fid), 0);
	/* closing the writer removes the name; readers keep theirs */
	ra.map_addr = NULL;
	ck_assert_int_eq(fi_av_open(dom[1], &ra, &r2, NULL), 0);
	ck_assert_int_eq(fi_close(&w->fid), 0);
	ra.map_addr = NULL;
	ck_assert_int_eq(fi_av_open(dom[1], &ra, &r, NULL), -FI_ENOENT);
	len = sizeof(out);
	ck_assert_int_eq(fi_av_lookup(r2, 2, out, &len), 0);
	ck_assert_int_eq(memcmp(out, a[2], len), 0);
	ck_assert_int_eq(fi_close(&r2->fid), 0);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(fi_close(&dom[i]->fid), 0);
	ck_assert_int_eq(fi_close(&fab->fid), 0);
	fi_freeinfo(info);
}
END_TEST

/* Child: open the table read-only (before the parent inserted anything),
 * say so on ready, wait for go, then send to map_addr[0]: the slot is
 * imported when the send uses it (fabtests' fi_rdm_shared_av order). */
static int child_send(const char *name, int ready, int go)
{
	struct fi_info *info = get_info();
	struct fi_av_attr ra = { .type = FI_AV_MAP, .flags = FI_READ,
				 .name = name };
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_CONTEXT };
	static char msg[32] = "from the child";
	struct fid_fabric *fab;
	struct fid_domain *dom;
	struct fid_av *av;
	struct fid_cq *cq;
	struct fid_ep *ep;
	struct fi_cq_entry e;
	uint64_t end = uet_clock_now_ns() + WAIT_MS * UET_NSEC_PER_MSEC;
	ssize_t ret;
	char c = 'r';

	if (uet_fabric(info->fabric_attr, &fab, NULL) ||
	    fi_domain(fab, info, &dom, NULL) ||
	    fi_av_open(dom, &ra, &av, NULL) ||
	    fi_cq_open(dom, &cqa, &cq, NULL) ||
	    fi_endpoint(dom, info, &ep, NULL) ||
	    fi_ep_bind(ep, &av->fid, 0) ||
	    fi_ep_bind(ep, &cq->fid, FI_TRANSMIT | FI_RECV) ||
	    fi_enable(ep) || !ra.map_addr)
		return 2;
	if (write(ready, &c, 1) != 1 || read(go, &c, 1) != 1)
		return 5;
	if (fi_send(ep, msg, sizeof(msg), NULL,
		    ((fi_addr_t *)ra.map_addr)[0], msg))
		return 3;
	do {
		ret = fi_cq_read(cq, &e, 1);
	} while (ret == -FI_EAGAIN && uet_clock_now_ns() < end);
	return ret == 1 && e.op_context == msg ? 0 : 4;
}

START_TEST(test_named_av_fork)
{
	struct fi_info *info = get_info();
	struct fi_av_attr wa = { .type = FI_AV_MAP };
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_CONTEXT };
	static char buf[32];
	struct fid_fabric *fab;
	struct fid_domain *dom[2];
	struct fid_av *av, *w;
	struct fid_cq *cq;
	struct fid_ep *ep;
	struct fi_cq_entry e;
	uint8_t a[64];
	char name[64];
	size_t len;
	fi_addr_t fa;
	uint64_t end;
	ssize_t ret;
	pid_t pid;
	int st, ready[2], go[2];
	char c = 'g';

	av_name(name, sizeof(name), "fork");
	/* the receiver, with an AV of its own */
	ck_assert_int_eq(uet_fabric(info->fabric_attr, &fab, NULL), 0);
	ck_assert_int_eq(fi_domain(fab, info, &dom[0], NULL), 0);
	ck_assert_int_eq(fi_av_open(dom[0], &(struct fi_av_attr){
					.type = FI_AV_MAP }, &av, NULL), 0);
	ck_assert_int_eq(fi_cq_open(dom[0], &cqa, &cq, NULL), 0);
	ck_assert_int_eq(fi_endpoint(dom[0], info, &ep, NULL), 0);
	ck_assert_int_eq(fi_ep_bind(ep, &av->fid, 0), 0);
	ck_assert_int_eq(fi_ep_bind(ep, &cq->fid, FI_TRANSMIT | FI_RECV), 0);
	ck_assert_int_eq(fi_enable(ep), 0);
	ck_assert_int_eq(fi_recv(ep, buf, sizeof(buf), NULL, 0, buf), 0);
	/* the named AV holds the receiver's address in slot 0 */
	ck_assert_int_eq(fi_domain(fab, info, &dom[1], NULL), 0);
	wa.name = name;
	ck_assert_int_eq(fi_av_open(dom[1], &wa, &w, NULL), 0);
	ck_assert_int_eq(pipe(ready), 0);
	ck_assert_int_eq(pipe(go), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(child_send(name, ready[1], go[0]));
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	addr_of(ep, a, &len);
	ck_assert_int_eq(fi_av_insert(w, a, 1, &fa, 0, NULL), 1);
	ck_assert_uint_eq(((fi_addr_t *)wa.map_addr)[0], fa);
	ck_assert_int_eq(write(go[1], &c, 1), 1);
	end = uet_clock_now_ns() + WAIT_MS * UET_NSEC_PER_MSEC;
	do {
		ret = fi_cq_read(cq, &e, 1);
	} while (ret == -FI_EAGAIN && uet_clock_now_ns() < end);
	ck_assert_int_eq(ret, 1);
	ck_assert_ptr_eq(e.op_context, buf);
	ck_assert_str_eq(buf, "from the child");
	/* keep progressing until the child saw its completion */
	for (;;) {
		ret = waitpid(pid, &st, WNOHANG);
		if (ret == pid)
			break;
		ck_assert_int_eq(ret, 0);
		ck_assert_uint_lt(uet_clock_now_ns(), end);
		fi_cq_read(cq, &e, 0);
		usleep(1000);
	}
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);

	ck_assert_int_eq(fi_close(&ep->fid), 0);
	ck_assert_int_eq(fi_close(&w->fid), 0);
	ck_assert_int_eq(fi_close(&av->fid), 0);
	ck_assert_int_eq(fi_close(&cq->fid), 0);
	ck_assert_int_eq(fi_close(&dom[0]->fid), 0);
	ck_assert_int_eq(fi_close(&dom[1]->fid), 0);
	ck_assert_int_eq(fi_close(&fab->fid), 0);
	fi_freeinfo(info);
}
END_TEST

static Suite *prov_av_shm_suite(void)
{
	Suite *s = suite_create("prov_av_shm");
	TCase *tc = tcase_create("named_av");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_named_av_objects);
	tcase_add_test(tc, test_named_av_fork);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(prov_av_shm_suite)
