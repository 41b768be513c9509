/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Wait sets (uet_wait.c) and poll sets (uet_poll.c): argument checks,
 * reference counts, bounded waits, and completions and counter changes
 * seen through them on two endpoints over 127.0.0.1 (manual progress:
 * fi_wait and fi_poll must drive it themselves).
 */
#include "config.h"

/* Wait sets and poll sets are deprecated in libfabric 2 (its inlines
 * warn); uet still implements them for 1.x applications, and this suite
 * tests them on purpose. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fi_errno.h>

#include "uet_clock.h"
#include "uet_prov.h"
#include "uet_test.h"
#include "prov_test.h"

#define API		FI_VERSION(1, 17)
#define WAIT_MS		5000

struct side {
	struct fid_domain *dom;
	struct fid_ep *ep;
	struct fid_cq *txcq, *rxcq;
	struct fid_cntr *txc, *rxc;
	struct fid_av *av;
	struct fid_wait *ws;		/* FI_WAIT_SET objects */
	fi_addr_t peer;
};

struct pair {
	struct fi_info *info;
	struct fid_fabric *fab;
	struct side s[2];
	bool wait_set;
};

static void side_open(struct pair *p, int i)
{
	struct side *s = &p->s[i];
	struct fi_wait_attr wa = { .wait_obj = FI_WAIT_UNSPEC };
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_CONTEXT };
	struct fi_cntr_attr ca = { .events = FI_CNTR_EVENTS_COMP };
	struct fi_av_attr ava = { .type = FI_AV_TABLE };

	if (p->wait_set) {
		ck_assert_int_eq(fi_wait_open(p->fab, &wa, &s->ws), 0);
		cqa.wait_obj = FI_WAIT_SET;
		cqa.wait_set = s->ws;
		ca.wait_obj = FI_WAIT_SET;
		ca.wait_set = s->ws;
	}
	ck_assert_int_eq(fi_domain(p->fab, p->info, &s->dom, NULL), 0);
	ck_assert_int_eq(fi_cq_open(s->dom, &cqa, &s->txcq, &s->txcq), 0);
	ck_assert_int_eq(fi_cq_open(s->dom, &cqa, &s->rxcq, &s->rxcq), 0);
	ck_assert_int_eq(fi_cntr_open(s->dom, &ca, &s->txc, &s->txc), 0);
	ck_assert_int_eq(fi_cntr_open(s->dom, &ca, &s->rxc, &s->rxc), 0);
	ck_assert_int_eq(fi_av_open(s->dom, &ava, &s->av, NULL), 0);
	ck_assert_int_eq(fi_endpoint(s->dom, p->info, &s->ep, NULL), 0);
	ck_assert_int_eq(fi_ep_bind(s->ep, &s->txcq->fid, FI_TRANSMIT), 0);
	ck_assert_int_eq(fi_ep_bind(s->ep, &s->rxcq->fid, FI_RECV), 0);
	ck_assert_int_eq(fi_ep_bind(s->ep, &s->txc->fid, FI_SEND), 0);
	ck_assert_int_eq(fi_ep_bind(s->ep, &s->rxc->fid, FI_RECV), 0);
	ck_assert_int_eq(fi_ep_bind(s->ep, &s->av->fid, 0), 0);
	ck_assert_int_eq(fi_enable(s->ep), 0);
}

static void pair_open(struct pair *p, enum fi_ep_type type, bool wait_set)
{
	int i;

	memset(p, 0, sizeof(*p));
	p->wait_set = wait_set;
	p->info = uet_test_info(API, &(struct uet_test_hints){
		.type = type, .caps = FI_MSG });
	ck_assert_int_eq(uet_fabric(p->info->fabric_attr, &p->fab, NULL), 0);
	for (i = 0; i < 2; i++)
		side_open(p, i);
	uet_test_pair_connect((struct fid_ep *[2]){ p->s[0].ep, p->s[1].ep },
			      (struct fid_av *[2]){ p->s[0].av, p->s[1].av },
			      (fi_addr_t *[2]){ &p->s[0].peer,
						&p->s[1].peer });
}

static void pair_close(struct pair *p)
{
	int i;

	for (i = 0; i < 2; i++) {
		struct side *s = &p->s[i];

		ck_assert_int_eq(fi_close(&s->ep->fid), 0);
		ck_assert_int_eq(fi_close(&s->av->fid), 0);
		if (s->ws)	/* members hold the set */
			ck_assert_int_eq(fi_close(&s->ws->fid), -FI_EBUSY);
		ck_assert_int_eq(fi_close(&s->txcq->fid), 0);
		ck_assert_int_eq(fi_close(&s->rxcq->fid), 0);
		ck_assert_int_eq(fi_close(&s->txc->fid), 0);
		ck_assert_int_eq(fi_close(&s->rxc->fid), 0);
		ck_assert_int_eq(fi_close(&s->dom->fid), 0);
		if (s->ws)
			ck_assert_int_eq(fi_close(&s->ws->fid), 0);
	}
	ck_assert_int_eq(fi_close(&p->fab->fid), 0);
	fi_freeinfo(p->info);
}

static uint64_t ms_since(uint64_t t0)
{
	return (uet_clock_now_ns() - t0) / UET_NSEC_PER_MSEC;
}

START_TEST(test_wait_set_objects)
{
	struct fi_info *info = uet_test_lo_info(API, FI_MSG);
	struct fi_wait_attr wa = { .wait_obj = FI_WAIT_FD };
	struct fi_cq_attr cqa = { .wait_obj = FI_WAIT_SET };
	struct fi_cntr_attr ca = { .events = FI_CNTR_EVENTS_COMP,
				   .wait_obj = FI_WAIT_SET };
	struct fid_fabric *fab;
	struct fid_domain *dom;
	struct fid_wait *ws;
	struct fid_cntr *c;
	struct fid_cq *cq;
	struct pollfd pfd;
	enum fi_wait_obj obj;
	struct fid *wfid;
	uint64_t t0;
	int fd;

	ck_assert_int_eq(uet_fabric(info->fabric_attr, &fab, NULL), 0);
	ck_assert_int_eq(fi_domain(fab, info, &dom, NULL), 0);
	/* bad arguments */
	ck_assert_int_eq(fi_wait_open(fab, NULL, &ws), -FI_EINVAL);
	wa.flags = 1;
	ck_assert_int_eq(fi_wait_open(fab, &wa, &ws), -FI_EINVAL);
	wa.flags = 0;
	wa.wait_obj = FI_WAIT_NONE;
	ck_assert_int_eq(fi_wait_open(fab, &wa, &ws), -FI_EINVAL);
	wa.wait_obj = FI_WAIT_MUTEX_COND;
	ck_assert_int_eq(fi_wait_open(fab, &wa, &ws), -FI_ENOSYS);
	/* a CQ or counter with FI_WAIT_SET needs a set */
	ck_assert_int_eq(fi_cq_open(dom, &cqa, &cq, NULL), -FI_EINVAL);
	ck_assert_int_eq(fi_cntr_open(dom, &ca, &c, NULL), -FI_EINVAL);
	cqa.wait_set = (struct fid_wait *)&dom->fid;	/* not a set */
	ck_assert_int_eq(fi_cq_open(dom, &cqa, &cq, NULL), -FI_EINVAL);

	wa.wait_obj = FI_WAIT_FD;
	ck_assert_int_eq(fi_wait_open(fab, &wa, &ws), 0);
	wfid = &ws->fid;
	ck_assert_int_eq(fi_control(&ws->fid, FI_GETWAITOBJ, &obj), 0);
	ck_assert_int_eq(obj, FI_WAIT_FD);
	fd = -1;
	ck_assert_int_eq(fi_control(&ws->fid, FI_GETWAIT, &fd), 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fi_control(&ws->fid, FI_GETWAIT, NULL), -FI_EINVAL);

	/* an empty set times out, within the caller's bound */
	t0 = uet_clock_now_ns();
	ck_assert_int_eq(fi_wait(ws, 30), -FI_ETIMEDOUT);
	ck_assert_uint_ge(ms_since(t0), 29);
	ck_assert_uint_lt(ms_since(t0), 1000);
	ck_assert_int_eq(fi_wait(ws, 0), -FI_ETIMEDOUT);

	cqa.wait_set = ws;
	ca.wait_set = ws;
	ck_assert_int_eq(fi_cq_open(dom, &cqa, &cq, NULL), 0);
	ck_assert_int_eq(fi_cntr_open(dom, &ca, &c, NULL), 0);
	ck_assert_int_eq(fi_close(&ws->fid), -FI_EBUSY);
	t0 = uet_clock_now_ns();
	ck_assert_int_eq(fi_wait(ws, 30), -FI_ETIMEDOUT);
	ck_assert_uint_lt(ms_since(t0), 1000);
	ck_assert_int_eq(fi_trywait(fab, &wfid, 1), 0);

	/* fi_cq_signal wakes the set: its fd is readable, fi_wait returns */
	ck_assert_int_eq(fi_cq_signal(cq), 0);
	pfd.fd = fd;
	pfd.events = POLLIN;
	ck_assert_int_eq(poll(&pfd, 1, 1000), 1);
	ck_assert_int_eq(fi_trywait(fab, &wfid, 1), -FI_EAGAIN);
	ck_assert_int_eq(fi_cq_signal(cq), 0);
	ck_assert_int_eq(fi_wait(ws, 1000), 0);
	/* a counter change is an event, once */
	ck_assert_int_eq(fi_cntr_add(c, 3), 0);
	ck_assert_int_eq(fi_wait(ws, 1000), 0);
	ck_assert_int_eq(fi_wait(ws, 10), -FI_ETIMEDOUT);

	ck_assert_int_eq(fi_close(&cq->fid), 0);
	ck_assert_int_eq(fi_close(&ws->fid), -FI_EBUSY);
	ck_assert_int_eq(fi_close(&c->fid), 0);
	ck_assert_int_eq(fi_close(&ws->fid), 0);
	ck_assert_int_eq(fi_close(&dom->fid), 0);
	ck_assert_int_eq(fi_close(&fab->fid), 0);
	fi_freeinfo(info);
}
END_TEST

/* DGRAM send and receive, each side sleeping in fi_wait on its set (the
 * fabtests fi_dgram_waitset pattern): fi_wait must progress the
 * endpoint, or the completions never appear. */
START_TEST(test_wait_set_dgram)
{
	static char tx[64] = "wait set", rx[64];
	struct fi_cq_entry e;
	struct pair p;
	bool txd = false, rxd = false;
	uint64_t t0 = uet_clock_now_ns();

	pair_open(&p, FI_EP_DGRAM, true);
	ck_assert_int_eq(fi_recv(p.s[1].ep, rx, sizeof(rx), NULL, 0, rx), 0);
	ck_assert_int_eq(fi_send(p.s[0].ep, tx, sizeof(tx), NULL,
				 p.s[0].peer, tx), 0);
	while ((!txd || !rxd) && ms_since(t0) < WAIT_MS) {
		if (!txd) {
			ck_assert_int_eq(fi_wait(p.s[0].ws, WAIT_MS), 0);
			if (fi_cq_read(p.s[0].txcq, &e, 1) == 1) {
				ck_assert_ptr_eq(e.op_context, tx);
				txd = true;
			}
		}
		if (!rxd) {
			int ret = fi_wait(p.s[1].ws, 100);

			ck_assert(ret == 0 || ret == -FI_ETIMEDOUT);
			if (fi_cq_read(p.s[1].rxcq, &e, 1) == 1) {
				ck_assert_ptr_eq(e.op_context, rx);
				rxd = true;
			}
		}
	}
	ck_assert(txd && rxd);
	ck_assert_str_eq(rx, "wait set");
	ck_assert_uint_eq(fi_cntr_read(p.s[0].txc), 1);
	ck_assert_uint_eq(fi_cntr_read(p.s[1].rxc), 1);
	/* the counter's change is an event once: at most one more return,
	 * then the set is quiet */
	if (fi_wait(p.s[1].ws, 0) == 0)
		ck_assert_int_eq(fi_wait(p.s[1].ws, 0), -FI_ETIMEDOUT);
	ck_assert_int_eq(fi_wait(p.s[1].ws, 10), -FI_ETIMEDOUT);
	pair_close(&p);
}
END_TEST

START_TEST(test_poll_set_objects)
{
	struct fi_poll_attr pa = { 0 };
	struct fid_poll *ps;
	struct pair p;
	void *ctx[4];

	pair_open(&p, FI_EP_RDM, false);
	ck_assert_int_eq(fi_poll_open(p.s[0].dom, NULL, &ps), -FI_EINVAL);
	pa.flags = 1;
	ck_assert_int_eq(fi_poll_open(p.s[0].dom, &pa, &ps), -FI_EINVAL);
	pa.flags = 0;
	ck_assert_int_eq(fi_poll_open(p.s[0].dom, &pa, &ps), 0);
	ck_assert_int_eq(fi_poll(ps, ctx, 4), 0);
	ck_assert_int_eq(fi_poll(ps, NULL, 4), -FI_EINVAL);
	ck_assert_int_eq(fi_poll(ps, ctx, -1), -FI_EINVAL);
	/* CQs and counters of the set's domain only, once each */
	ck_assert_int_eq(fi_poll_add(ps, &p.s[0].av->fid, 0), -FI_EINVAL);
	ck_assert_int_eq(fi_poll_add(ps, &p.s[1].rxcq->fid, 0), -FI_EINVAL);
	ck_assert_int_eq(fi_poll_add(ps, &p.s[0].rxcq->fid, 1), -FI_EINVAL);
	ck_assert_int_eq(fi_poll_add(ps, &p.s[0].rxcq->fid, 0), 0);
	ck_assert_int_eq(fi_poll_add(ps, &p.s[0].rxcq->fid, 0),
			 -FI_EALREADY);
	ck_assert_int_eq(fi_poll_add(ps, &p.s[0].rxc->fid, 0), 0);
	ck_assert_int_eq(fi_poll_del(ps, &p.s[0].txcq->fid, 0), -FI_EINVAL);
	/* members are held */
	ck_assert_int_eq(fi_close(&ps->fid), -FI_EBUSY);
	ck_assert_int_eq(fi_close(&p.s[0].ep->fid), 0);
	ck_assert_int_eq(fi_close(&p.s[0].rxcq->fid), -FI_EBUSY);
	ck_assert_int_eq(fi_poll_del(ps, &p.s[0].rxcq->fid, 0), 0);
	ck_assert_int_eq(fi_poll_del(ps, &p.s[0].rxcq->fid, 0), -FI_EINVAL);
	ck_assert_int_eq(fi_poll_del(ps, &p.s[0].rxc->fid, 0), 0);
	ck_assert_int_eq(fi_close(&ps->fid), 0);
	/* the endpoint is closed already: reopen for pair_close */
	ck_assert_int_eq(fi_endpoint(p.s[0].dom, p.info, &p.s[0].ep, NULL),
			 0);
	pair_close(&p);
}
END_TEST

/* Poll the sets of both sides until each event arrived; returns how many
 * times each context was returned. */
static void poll_until(struct fid_poll *ps[2], void *want, int *seen,
		       void *cnt_want, int *cnt_seen)
{
	uint64_t t0 = uet_clock_now_ns();
	void *ctx[8];
	int i, k, n;

	while (!*seen && ms_since(t0) < WAIT_MS) {
		for (k = 0; k < 2; k++) {
			n = fi_poll(ps[k], ctx, 8);
			ck_assert_int_ge(n, 0);
			for (i = 0; i < n; i++) {
				if (ctx[i] == want)
					(*seen)++;
				if (ctx[i] == cnt_want)
					(*cnt_seen)++;
			}
		}
	}
}

START_TEST(test_poll_set_data)
{
	static char tx[64] = "poll set", rx[64];
	struct fi_poll_attr pa = { 0 };
	struct fid_poll *ps[2];
	struct fi_cq_entry e;
	struct pair p;
	void *ctx[8];
	int k, seen = 0, cseen = 0;

	pair_open(&p, FI_EP_RDM, false);
	for (k = 0; k < 2; k++) {
		ck_assert_int_eq(fi_poll_open(p.s[k].dom, &pa, &ps[k]), 0);
		ck_assert_int_eq(fi_poll_add(ps[k], &p.s[k].txcq->fid, 0), 0);
		ck_assert_int_eq(fi_poll_add(ps[k], &p.s[k].rxcq->fid, 0), 0);
		ck_assert_int_eq(fi_poll_add(ps[k], &p.s[k].txc->fid, 0), 0);
		ck_assert_int_eq(fi_poll_add(ps[k], &p.s[k].rxc->fid, 0), 0);
	}
	ck_assert_int_eq(fi_recv(p.s[1].ep, rx, sizeof(rx), NULL, 0, rx), 0);
	ck_assert_int_eq(fi_send(p.s[0].ep, tx, sizeof(tx), NULL,
				 p.s[0].peer, tx), 0);
	/* the receive CQ's context (as given to fi_cq_open) and the
	 * receive counter's come back */
	poll_until(ps, &p.s[1].rxcq, &seen, &p.s[1].rxc, &cseen);
	ck_assert_int_ge(seen, 1);
	ck_assert_int_eq(fi_cq_read(p.s[1].rxcq, &e, 1), 1);
	ck_assert_ptr_eq(e.op_context, rx);
	ck_assert_str_eq(rx, "poll set");
	/* a CQ stays reported while it holds entries; a counter once per
	 * change */
	seen = 0;
	poll_until(ps, &p.s[0].txcq, &seen, &p.s[1].rxc, &cseen);
	ck_assert_int_eq(cseen, 1);
	ck_assert_int_eq(fi_poll(ps[0], ctx, 8) >= 1, 1);
	ck_assert_int_eq(fi_cq_read(p.s[0].txcq, &e, 1), 1);
	ck_assert_ptr_eq(e.op_context, tx);
	ck_assert_int_eq(fi_poll(ps[0], ctx, 8), 0);
	ck_assert_int_eq(fi_poll(ps[1], ctx, 8), 0);
	/* at most count contexts */
	ck_assert_int_eq(fi_cntr_add(p.s[1].txc, 1), 0);
	ck_assert_int_eq(fi_cntr_add(p.s[1].rxc, 1), 0);
	ck_assert_int_eq(fi_poll(ps[1], ctx, 1), 1);
	ck_assert_int_eq(fi_poll(ps[1], ctx, 8), 1);
	ck_assert_ptr_eq(ctx[0], &p.s[1].rxc);
	for (k = 0; k < 2; k++) {
		ck_assert_int_eq(fi_poll_del(ps[k], &p.s[k].txcq->fid, 0), 0);
		ck_assert_int_eq(fi_poll_del(ps[k], &p.s[k].rxcq->fid, 0), 0);
		ck_assert_int_eq(fi_poll_del(ps[k], &p.s[k].txc->fid, 0), 0);
		ck_assert_int_eq(fi_poll_del(ps[k], &p.s[k].rxc->fid, 0), 0);
		ck_assert_int_eq(fi_close(&ps[k]->fid), 0);
	}
	pair_close(&p);
}
END_TEST

/* Spin and sleep counts of side i's domain since the last call. */
static void spin_counts(struct pair *p, int i, uint64_t *spins,
			uint64_t *sleeps)
{
	struct uet_domain *d = uet_container_of(p->s[i].dom,
						struct uet_domain, fid);

	*spins = atomic_exchange(&d->wait_spins, 0);
	*sleeps = atomic_exchange(&d->wait_sleeps, 0);
}

/*
 * FI_UET_SPIN_US: a blocking call polls that long before it sleeps, and
 * never past its own timeout.  0 sleeps at once; a spin longer than the
 * timeout ends with the timeout, without sleeping; a message that
 * arrives within the spin is read without sleeping; a short spin is
 * followed by sleeps.
 */
START_TEST(test_spin_bounded)
{
	static char tx[64] = "spin", rx[64];
	struct fi_cq_entry e;
	uint64_t t0, spins, sleeps;
	struct pair p;

	setenv("FI_UET_SPIN_US", "0", 1);
	pair_open(&p, FI_EP_RDM, true);
	t0 = uet_clock_now_ns();
	ck_assert_int_eq(fi_cq_sread(p.s[1].rxcq, &e, 1, NULL, 20), -FI_EAGAIN);
	ck_assert_uint_ge(ms_since(t0), 20);
	spin_counts(&p, 1, &spins, &sleeps);
	ck_assert_uint_eq(spins, 0);
	ck_assert_uint_ge(sleeps, 1);
	pair_close(&p);

	setenv("FI_UET_SPIN_US", "1000000", 1);		/* 1 s */
	pair_open(&p, FI_EP_RDM, true);
	t0 = uet_clock_now_ns();
	ck_assert_int_eq(fi_cq_sread(p.s[1].rxcq, &e, 1, NULL, 20), -FI_EAGAIN);
	ck_assert_int_eq(fi_cntr_wait(p.s[1].rxc, 1, 20), -FI_ETIMEDOUT);
	ck_assert_int_eq(fi_wait(p.s[1].ws, 20), -FI_ETIMEDOUT);
	ck_assert_uint_ge(ms_since(t0), 60);
	ck_assert_uint_lt(ms_since(t0), 900);	/* the timeouts, not 3 s */
	spin_counts(&p, 1, &spins, &sleeps);
	ck_assert_uint_gt(spins, 0);
	ck_assert_uint_eq(sleeps, 0);
	ck_assert_int_eq(fi_recv(p.s[1].ep, rx, sizeof(rx), NULL, 0, rx), 0);
	ck_assert_int_eq(fi_send(p.s[0].ep, tx, sizeof(tx), NULL,
				 p.s[0].peer, tx), 0);
	ck_assert_int_eq(fi_cq_sread(p.s[1].rxcq, &e, 1, NULL, WAIT_MS), 1);
	ck_assert_ptr_eq(e.op_context, rx);
	ck_assert_str_eq(rx, "spin");
	spin_counts(&p, 1, &spins, &sleeps);
	ck_assert_uint_eq(sleeps, 0);
	ck_assert_int_eq(fi_cq_sread(p.s[0].txcq, &e, 1, NULL, WAIT_MS), 1);
	pair_close(&p);

	setenv("FI_UET_SPIN_US", "5000", 1);		/* 5 ms */
	pair_open(&p, FI_EP_RDM, true);
	t0 = uet_clock_now_ns();
	ck_assert_int_eq(fi_cq_sread(p.s[1].rxcq, &e, 1, NULL, 50), -FI_EAGAIN);
	ck_assert_uint_ge(ms_since(t0), 50);
	spin_counts(&p, 1, &spins, &sleeps);
	ck_assert_uint_gt(spins, 0);
	ck_assert_uint_ge(sleeps, 1);
	pair_close(&p);
	unsetenv("FI_UET_SPIN_US");
}
END_TEST

static Suite *prov_wait_suite(void)
{
	Suite *s = suite_create("prov_wait");
	TCase *tc = tcase_create("wait_set");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_wait_set_objects);
	tcase_add_test(tc, test_wait_set_dgram);
	suite_add_tcase(s, tc);
	tc = tcase_create("poll_set");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_poll_set_objects);
	tcase_add_test(tc, test_poll_set_data);
	suite_add_tcase(s, tc);
	tc = tcase_create("spin");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_spin_bounded);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(prov_wait_suite)
