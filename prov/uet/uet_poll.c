/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Poll sets (fi_poll_open): fi_poll checks several CQs and counters of a
 * domain at once.  fi_poll progresses every member and returns the fid
 * context of each that has something for the application: a CQ holding
 * a completion or an error, a counter whose value or error count changed
 * since the last fi_poll that returned it.  It never blocks.
 *
 * fi_poll_add takes a reference on the CQ or counter (closing it returns
 * -FI_EBUSY until fi_poll_del); adding one twice is -FI_EALREADY, one of
 * another domain or another class -FI_EINVAL, deleting one that is not a
 * member -FI_EINVAL.  A poll set with members cannot be closed (-FI_EBUSY).
 */
#include "config.h"

#include <stdlib.h>

#include "uet_fi_no.h"
#include "uet_prov.h"

struct uet_poll_member {
	struct uet_dlist entry;
	struct fid *fid;
	atomic_int *ref;		/* the member's reference count */
	uint64_t seen;			/* counters: value + errors */
};

struct uet_poll {
	struct fid_poll fid;
	struct uet_domain *domain;
	pthread_mutex_t lock;		/* members */
	struct uet_dlist members;	/* struct uet_poll_member */
	size_t nmembers;
};

/* The reference count and domain of a CQ or counter, or NULL. */
static atomic_int *uet_poll_member_ref(struct fid *fid,
				       struct uet_domain **dom)
{
	struct uet_cntr *c;
	struct uet_cq *cq;

	switch (fid->fclass) {
	case FI_CLASS_CQ:
		cq = uet_container_of(fid, struct uet_cq, fid.fid);
		*dom = cq->domain;
		return &cq->ref;
	case FI_CLASS_CNTR:
		c = uet_container_of(fid, struct uet_cntr, fid.fid);
		*dom = c->domain;
		return &c->ref;
	default:
		return NULL;
	}
}

static struct uet_poll_member *uet_poll_find_locked(struct uet_poll *ps,
						    const struct fid *fid)
{
	struct uet_poll_member *m;

	uet_dlist_foreach_entry(&ps->members, m, entry) {
		if (m->fid == fid)
			return m;
	}
	return NULL;
}

static int uet_poll_add(struct fid_poll *fid, struct fid *event_fid,
			uint64_t flags)
{
	struct uet_poll *ps = uet_container_of(fid, struct uet_poll, fid);
	struct uet_poll_member *m;
	struct uet_domain *dom = NULL;
	atomic_int *ref;

	if (!event_fid || flags)
		return -FI_EINVAL;
	ref = uet_poll_member_ref(event_fid, &dom);
	if (!ref) {
		UET_WARN(FI_LOG_DOMAIN, "poll sets hold CQs and counters "
			 "(fid class %zu)\n", event_fid->fclass);
		return -FI_EINVAL;
	}
	if (dom != ps->domain)
		return -FI_EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -FI_ENOMEM;
	m->fid = event_fid;
	m->ref = ref;
	uet_lock(&ps->lock, UET_LOCK_WAITSET);
	if (uet_poll_find_locked(ps, event_fid)) {
		uet_unlock(&ps->lock, UET_LOCK_WAITSET);
		free(m);
		return -FI_EALREADY;
	}
	uet_dlist_insert_tail(&ps->members, &m->entry);
	ps->nmembers++;
	atomic_fetch_add(ref, 1);
	uet_unlock(&ps->lock, UET_LOCK_WAITSET);
	return 0;
}

static int uet_poll_del(struct fid_poll *fid, struct fid *event_fid,
			uint64_t flags)
{
	struct uet_poll *ps = uet_container_of(fid, struct uet_poll, fid);
	struct uet_poll_member *m;

	if (!event_fid || flags)
		return -FI_EINVAL;
	uet_lock(&ps->lock, UET_LOCK_WAITSET);
	m = uet_poll_find_locked(ps, event_fid);
	if (m) {
		uet_dlist_remove(&m->entry);
		ps->nmembers--;
	}
	uet_unlock(&ps->lock, UET_LOCK_WAITSET);
	if (!m)
		return -FI_EINVAL;
	atomic_fetch_sub(m->ref, 1);
	free(m);
	return 0;
}

static int uet_poll_poll(struct fid_poll *fid, void **context, int count)
{
	struct uet_poll *ps = uet_container_of(fid, struct uet_poll, fid);
	struct uet_poll_member *m;
	int n = 0;

	if (count < 0 || (count && !context))
		return -FI_EINVAL;
	uet_lock(&ps->lock, UET_LOCK_WAITSET);
	uet_dlist_foreach_entry(&ps->members, m, entry) {
		if (n == count)
			break;
		if (uet_wait_fid_ready(m->fid, &m->seen))
			context[n++] = m->fid->context;
	}
	uet_unlock(&ps->lock, UET_LOCK_WAITSET);
	return n;
}

static int uet_poll_close(struct fid *fid)
{
	struct uet_poll *ps = uet_container_of(fid, struct uet_poll, fid.fid);

	if (ps->nmembers) {
		UET_WARN(FI_LOG_DOMAIN, "poll set still has %zu members\n",
			 ps->nmembers);
		return -FI_EBUSY;
	}
	pthread_mutex_destroy(&ps->lock);
	atomic_fetch_sub(&ps->domain->ref, 1);
	free(ps);
	return 0;
}

static struct fi_ops uet_poll_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = uet_poll_close,
	.bind = uet_no_bind,
	.control = uet_no_control,
	.ops_open = uet_no_ops_open,
	.tostr = uet_no_tostr,
	.ops_set = uet_no_ops_set,
};

static struct fi_ops_poll uet_poll_ops = {
	.size = sizeof(struct fi_ops_poll),
	.poll = uet_poll_poll,
	.poll_add = uet_poll_add,
	.poll_del = uet_poll_del,
};

int uet_poll_open(struct fid_domain *domain, struct fi_poll_attr *attr,
		  struct fid_poll **pollset)
{
	struct uet_domain *dom;
	struct uet_poll *ps;

	if (!domain || !attr || !pollset)
		return -FI_EINVAL;
	*pollset = NULL;
	if (attr->flags)
		return -FI_EINVAL;
	dom = uet_container_of(domain, struct uet_domain, fid);
	ps = calloc(1, sizeof(*ps));
	if (!ps)
		return -FI_ENOMEM;
	pthread_mutex_init(&ps->lock, NULL);
	uet_dlist_init(&ps->members);
	ps->domain = dom;
	ps->fid.fid.fclass = FI_CLASS_POLL;
	ps->fid.fid.ops = &uet_poll_fi_ops;
	ps->fid.ops = &uet_poll_ops;
	atomic_fetch_add(&dom->ref, 1);
	*pollset = &ps->fid;
	return 0;
}
