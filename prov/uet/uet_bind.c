/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What CQs, counters and EQs share: the list of endpoints bound to a CQ
 * or counter (progressed when it is read) and the wait-object controls.
 */
#include "config.h"

#include <stdlib.h>

#include "uet_prov.h"

void uet_bind_set_init(struct uet_bind_set *set)
{
	pthread_mutex_init(&set->lock, NULL);
	uet_dlist_init(&set->eps);
}

void uet_bind_set_fini(struct uet_bind_set *set)
{
	pthread_mutex_destroy(&set->lock);
}

int uet_bind_set_add(struct uet_bind_set *set, struct uet_ep *ep,
		     atomic_int *ref)
{
	struct uet_cq_bind *b;
	int ret = 0;

	uet_lock(&set->lock, UET_LOCK_BIND);
	uet_dlist_foreach_entry(&set->eps, b, entry) {
		if (b->ep == ep)
			goto out;
	}
	b = calloc(1, sizeof(*b));
	if (!b) {
		ret = -FI_ENOMEM;
		goto out;
	}
	b->ep = ep;
	uet_dlist_insert_tail(&set->eps, &b->entry);
	atomic_fetch_add(ref, 1);
out:
	uet_unlock(&set->lock, UET_LOCK_BIND);
	return ret;
}

void uet_bind_set_del(struct uet_bind_set *set, struct uet_ep *ep,
		      atomic_int *ref)
{
	struct uet_cq_bind *b;

	uet_lock(&set->lock, UET_LOCK_BIND);
	uet_dlist_foreach_entry_safe(&set->eps, b, entry) {
		if (b->ep == ep) {
			uet_dlist_remove(&b->entry);
			free(b);
			atomic_fetch_sub(ref, 1);
			break;
		}
	}
	uet_unlock(&set->lock, UET_LOCK_BIND);
}

void uet_bind_set_progress(struct uet_bind_set *set, struct uet_domain *dom)
{
	struct uet_cq_bind *b;
	bool any = false;

	uet_lock(&set->lock, UET_LOCK_BIND);
	uet_dlist_foreach_entry(&set->eps, b, entry) {
		uet_ep_progress(b->ep);
		any = true;
	}
	uet_unlock(&set->lock, UET_LOCK_BIND);
	if (!any)
		uet_domain_progress_eps(dom);
}

int uet_wait_control(enum fi_wait_obj wait_obj, int fd, int command,
		     void *arg)
{
	switch (command) {
	case FI_GETWAIT:
		if (wait_obj != FI_WAIT_FD || !arg)
			return -FI_EINVAL;
		if (fd < 0)
			return -FI_ENOSYS;
		*(int *)arg = fd;
		return 0;
	case FI_GETWAITOBJ:
		if (!arg)
			return -FI_EINVAL;
		*(enum fi_wait_obj *)arg = wait_obj;
		return 0;
	default:
		return -FI_ENOSYS;
	}
}
