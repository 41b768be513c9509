/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Counters: success and error counts of the operations of the endpoints
 * bound to them.  Reading one drives those endpoints' progress.  A
 * counter opened with FI_WAIT_SET is a member of that wait set
 * (uet_wait.c) until it closes.
 */
#include "config.h"

#include <stdlib.h>

#include "uet_clock.h"
#include "uet_fi_no.h"
#include "uet_prov.h"

static void uet_cntr_progress(struct uet_cntr *c)
{
	uet_bind_set_progress(&c->bound, c->domain);
}

static uint64_t uet_cntr_read(struct fid_cntr *fid)
{
	struct uet_cntr *c = uet_container_of(fid, struct uet_cntr, fid);

	uet_cntr_progress(c);
	return atomic_load_explicit(&c->value, memory_order_acquire);
}

static uint64_t uet_cntr_readerr(struct fid_cntr *fid)
{
	struct uet_cntr *c = uet_container_of(fid, struct uet_cntr, fid);

	uet_cntr_progress(c);
	return atomic_load_explicit(&c->err, memory_order_acquire);
}

bool uet_cntr_changed(struct uet_cntr *c, uint64_t *seen)
{
	uint64_t now;

	uet_cntr_progress(c);
	now = atomic_load_explicit(&c->value, memory_order_acquire) +
	      atomic_load_explicit(&c->err, memory_order_acquire);
	if (now == *seen)
		return false;
	*seen = now;
	return true;
}

static int uet_cntr_add(struct fid_cntr *fid, uint64_t value)
{
	struct uet_cntr *c = uet_container_of(fid, struct uet_cntr, fid);

	atomic_fetch_add(&c->value, value);
	return 0;
}

static int uet_cntr_set(struct fid_cntr *fid, uint64_t value)
{
	struct uet_cntr *c = uet_container_of(fid, struct uet_cntr, fid);

	atomic_store(&c->value, value);
	return 0;
}

static int uet_cntr_adderr(struct fid_cntr *fid, uint64_t value)
{
	struct uet_cntr *c = uet_container_of(fid, struct uet_cntr, fid);

	atomic_fetch_add(&c->err, value);
	return 0;
}

static int uet_cntr_seterr(struct fid_cntr *fid, uint64_t value)
{
	struct uet_cntr *c = uet_container_of(fid, struct uet_cntr, fid);

	atomic_store(&c->err, value);
	return 0;
}

/* Wait until the counter reaches threshold; an error increment ends the
 * wait with -FI_EAVAIL, the timeout with -FI_ETIMEDOUT.  The wait sleeps
 * on the device's wait fd whatever the counter's wait object, so it is
 * also allowed for FI_WAIT_NONE and FI_WAIT_SET counters (fi_cntr(3)
 * calls that invalid; fabtests' fi_multi_mr does it). */
static int uet_cntr_wait(struct fid_cntr *fid, uint64_t threshold,
			 int timeout)
{
	struct uet_cntr *c = uet_container_of(fid, struct uet_cntr, fid);
	uint64_t now = uet_clock_now_ns();
	uint64_t end = timeout < 0 ? UINT64_MAX :
		       now + (uint64_t)timeout * UET_NSEC_PER_MSEC;
	uint64_t spin_end = uet_domain_spin_end(c->domain, now, end);
	uint64_t err0 = atomic_load(&c->err);
	int ret;

	for (;;) {
		uet_cntr_progress(c);
		if (atomic_load(&c->value) >= threshold)
			return 0;
		if (atomic_load(&c->err) != err0)
			return -FI_EAVAIL;
		now = uet_clock_now_ns();
		if (now >= end)
			return -FI_ETIMEDOUT;
		ret = uet_domain_block(c->domain, -1, now, spin_end, end);
		if (ret)
			return ret;
	}
}

static int uet_cntr_control(struct fid *fid, int command, void *arg)
{
	struct uet_cntr *c = uet_container_of(fid, struct uet_cntr, fid.fid);

	return uet_wait_control(c->wait_obj,
				c->domain->ops->wait_fd(c->domain->dev),
				command, arg);
}

static int uet_cntr_close(struct fid *fid)
{
	struct uet_cntr *c = uet_container_of(fid, struct uet_cntr, fid.fid);

	if (atomic_load(&c->ref))
		return -FI_EBUSY;
	if (c->wait_set)
		uet_wait_leave(c->wait_set, &c->fid.fid);
	uet_bind_set_fini(&c->bound);
	atomic_fetch_sub(&c->domain->ref, 1);
	free(c);
	return 0;
}

static struct fi_ops uet_cntr_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = uet_cntr_close,
	.bind = uet_no_bind,
	.control = uet_cntr_control,
	.ops_open = uet_no_ops_open,
	.tostr = uet_no_tostr,
	.ops_set = uet_no_ops_set,
};

static struct fi_ops_cntr uet_cntr_ops = {
	.size = sizeof(struct fi_ops_cntr),
	.read = uet_cntr_read,
	.readerr = uet_cntr_readerr,
	.add = uet_cntr_add,
	.set = uet_cntr_set,
	.wait = uet_cntr_wait,
	.adderr = uet_cntr_adderr,
	.seterr = uet_cntr_seterr,
};

int uet_cntr_open(struct fid_domain *domain, struct fi_cntr_attr *attr,
		  struct fid_cntr **out, void *context)
{
	struct uet_wait *ws;
	struct uet_domain *dom;
	struct uet_cntr *c;
	int ret;

	if (!domain || !attr || !out)
		return -FI_EINVAL;
	*out = NULL;
	dom = uet_container_of(domain, struct uet_domain, fid);
	if (attr->events != FI_CNTR_EVENTS_COMP || attr->flags)
		return -FI_EINVAL;
	ret = uet_wait_attr_check(attr->wait_obj, attr->wait_set, &ws);
	if (ret)
		return ret;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -FI_ENOMEM;
	uet_bind_set_init(&c->bound);
	c->domain = dom;
	c->wait_obj = attr->wait_obj;
	atomic_init(&c->ref, 0);
	atomic_init(&c->value, 0);
	atomic_init(&c->err, 0);
	c->fid.fid.fclass = FI_CLASS_CNTR;
	c->fid.fid.context = context;
	c->fid.fid.ops = &uet_cntr_fi_ops;
	c->fid.ops = &uet_cntr_ops;
	if (ws) {
		ret = uet_wait_join(ws, &c->fid.fid, dom, -1);
		if (ret) {
			uet_bind_set_fini(&c->bound);
			free(c);
			return ret;
		}
		c->wait_set = ws;
	}
	atomic_fetch_add(&dom->ref, 1);
	*out = &c->fid;
	return 0;
}
