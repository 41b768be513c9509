/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Wait sets (fi_wait_open): one wait object for several CQs and counters.
 * CQs and counters opened with wait_obj FI_WAIT_SET and attr->wait_set
 * join the set at open and leave it at close.
 *
 * The set's wait object is an epoll fd (FI_WAIT_FD; FI_WAIT_UNSPEC gives
 * the same).  Each member adds the wait fd of its domain's device (a
 * dup, so several members of one domain are several registrations) and,
 * for a CQ, its fi_cq_signal eventfd.  fi_control(FI_GETWAIT) returns the
 * epoll fd: it is readable when a device may have work or a CQ was
 * signaled.  Under manual progress a readable fd does not mean a
 * completion: fi_wait progresses every member and returns 0 only when one
 * holds a completion or error, or a counter changed since the last return
 * (uet_wait_fid_ready); otherwise it sleeps on the epoll fd, at most
 * UET_WAIT_SLICE_MS at a time (the device's auto-progress thread, if any,
 * does not make the fd readable) and never past the caller's timeout
 * (-FI_ETIMEDOUT).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "uet_clock.h"
#include "uet_env.h"
#include "uet_fi_no.h"
#include "uet_prov.h"

struct uet_wait_member {
	struct uet_dlist entry;
	struct fid *fid;		/* CQ or counter */
	int dev_fd;			/* dup of the device wait fd, or -1 */
	int signal_fd;			/* not owned; -1 when none */
	uint64_t seen;			/* counters: value + errors */
};

bool uet_wait_fid_ready(struct fid *member, uint64_t *seen)
{
	switch (member->fclass) {
	case FI_CLASS_CQ:
		return uet_cq_wait_ready(uet_container_of(member,
							  struct uet_cq,
							  fid.fid));
	case FI_CLASS_CNTR:
		return uet_cntr_changed(uet_container_of(member,
							 struct uet_cntr,
							 fid.fid), seen);
	default:
		return false;
	}
}

/* Progress every member; true when one is ready. */
static bool uet_wait_any_ready(struct uet_wait *ws)
{
	struct uet_wait_member *m;
	bool ready = false;

	uet_lock(&ws->lock, UET_LOCK_WAITSET);
	uet_dlist_foreach_entry(&ws->members, m, entry) {
		if (uet_wait_fid_ready(m->fid, &m->seen))
			ready = true;
	}
	uet_unlock(&ws->lock, UET_LOCK_WAITSET);
	return ready;
}

int uet_wait_trywait(struct fid *waitset)
{
	struct uet_wait *ws = uet_container_of(waitset, struct uet_wait,
					       fid.fid);

	return uet_wait_any_ready(ws) ? -FI_EAGAIN : 0;
}

static int uet_wait_wait(struct fid_wait *fid, int timeout)
{
	struct uet_wait *ws = uet_container_of(fid, struct uet_wait, fid);
	struct epoll_event ev[8];
	uint64_t now = uet_clock_now_ns();
	uint64_t end = timeout < 0 ? UINT64_MAX :
		       now + (uint64_t)timeout * UET_NSEC_PER_MSEC;
	uint64_t spin_end = ws->spin_ns < end - now ? now + ws->spin_ns : end;
	int ms;

	for (;;) {
		if (uet_wait_any_ready(ws))
			return 0;
		now = uet_clock_now_ns();
		if (now >= end)
			return -FI_ETIMEDOUT;
		if (now < spin_end) {	/* the bounded spin (uet_domain_block) */
#if defined(__x86_64__) || defined(__i386__)
			__builtin_ia32_pause();
#endif
			continue;
		}
		ms = UET_WAIT_SLICE_MS;
		if (end != UINT64_MAX && end - now <
		    (uint64_t)ms * UET_NSEC_PER_MSEC)
			ms = (int)((end - now + UET_NSEC_PER_MSEC - 1) /
				   UET_NSEC_PER_MSEC);
		if (epoll_wait(ws->epfd, ev, 8, ms) < 0 && errno != EINTR)
			return -errno;
	}
}

static int uet_wait_epoll_add(struct uet_wait *ws, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };

	if (epoll_ctl(ws->epfd, EPOLL_CTL_ADD, fd, &ev))
		return -errno;
	return 0;
}

static void uet_wait_epoll_del(struct uet_wait *ws, int fd)
{
	if (fd >= 0)
		(void)epoll_ctl(ws->epfd, EPOLL_CTL_DEL, fd, NULL);
}

struct uet_wait *uet_wait_of(struct fid_wait *waitset)
{
	if (!waitset || waitset->fid.fclass != FI_CLASS_WAIT ||
	    !waitset->ops || waitset->ops->wait != uet_wait_wait)
		return NULL;
	return uet_container_of(waitset, struct uet_wait, fid);
}

int uet_wait_attr_check(enum fi_wait_obj wait_obj, struct fid_wait *waitset,
			struct uet_wait **ws)
{
	*ws = NULL;
	switch (wait_obj) {
	case FI_WAIT_NONE:
	case FI_WAIT_UNSPEC:
	case FI_WAIT_FD:
		return 0;
	case FI_WAIT_SET:
		*ws = uet_wait_of(waitset);
		return *ws ? 0 : -FI_EINVAL;
	default:
		UET_WARN(FI_LOG_CORE, "wait object %d is not supported\n",
			 wait_obj);
		return -FI_ENOSYS;
	}
}

int uet_wait_join(struct uet_wait *ws, struct fid *member,
		  struct uet_domain *dom, int signal_fd)
{
	struct uet_wait_member *m;
	int fd, ret;

	m = calloc(1, sizeof(*m));
	if (!m)
		return -FI_ENOMEM;
	m->fid = member;
	m->signal_fd = -1;
	m->dev_fd = -1;
	fd = dom->ops->wait_fd(dom->dev);
	if (fd >= 0) {
		m->dev_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		if (m->dev_fd < 0) {
			ret = -errno;
			goto err_free;
		}
		ret = uet_wait_epoll_add(ws, m->dev_fd);
		if (ret)
			goto err_close_dup;
	}
	if (signal_fd >= 0) {
		ret = uet_wait_epoll_add(ws, signal_fd);
		if (ret)
			goto err_del_dev;
		m->signal_fd = signal_fd;
	}
	uet_lock(&ws->lock, UET_LOCK_WAITSET);
	uet_dlist_insert_tail(&ws->members, &m->entry);
	uet_unlock(&ws->lock, UET_LOCK_WAITSET);
	atomic_fetch_add(&ws->ref, 1);
	return 0;

err_del_dev:
	uet_wait_epoll_del(ws, m->dev_fd);
err_close_dup:
	if (m->dev_fd >= 0)
		close(m->dev_fd);
err_free:
	free(m);
	return ret;
}

void uet_wait_leave(struct uet_wait *ws, struct fid *member)
{
	struct uet_wait_member *m, *found = NULL;

	uet_lock(&ws->lock, UET_LOCK_WAITSET);
	uet_dlist_foreach_entry(&ws->members, m, entry) {
		if (m->fid == member) {
			found = m;
			break;
		}
	}
	if (found)
		uet_dlist_remove(&found->entry);
	uet_unlock(&ws->lock, UET_LOCK_WAITSET);
	if (!found)
		return;
	uet_wait_epoll_del(ws, found->signal_fd);
	uet_wait_epoll_del(ws, found->dev_fd);
	if (found->dev_fd >= 0)
		close(found->dev_fd);
	free(found);
	atomic_fetch_sub(&ws->ref, 1);
}

static int uet_wait_set_control(struct fid *fid, int command, void *arg)
{
	struct uet_wait *ws = uet_container_of(fid, struct uet_wait, fid.fid);

	return uet_wait_control(FI_WAIT_FD, ws->epfd, command, arg);
}

static int uet_wait_close(struct fid *fid)
{
	struct uet_wait *ws = uet_container_of(fid, struct uet_wait, fid.fid);

	if (atomic_load(&ws->ref)) {
		UET_WARN(FI_LOG_CORE, "wait set still has %d members\n",
			 atomic_load(&ws->ref));
		return -FI_EBUSY;
	}
	close(ws->epfd);
	pthread_mutex_destroy(&ws->lock);
	atomic_fetch_sub(&ws->fabric->ref, 1);
	free(ws);
	return 0;
}

static struct fi_ops uet_wait_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = uet_wait_close,
	.bind = uet_no_bind,
	.control = uet_wait_set_control,
	.ops_open = uet_no_ops_open,
	.tostr = uet_no_tostr,
	.ops_set = uet_no_ops_set,
};

static struct fi_ops_wait uet_wait_ops = {
	.size = sizeof(struct fi_ops_wait),
	.wait = uet_wait_wait,
};

int uet_wait_open(struct fid_fabric *fabric, struct fi_wait_attr *attr,
		  struct fid_wait **waitset)
{
	struct uet_fabric *fab;
	struct uet_wait *ws;
	int ret;

	if (!fabric || !attr || !waitset)
		return -FI_EINVAL;
	*waitset = NULL;
	if (attr->flags)
		return -FI_EINVAL;
	switch (attr->wait_obj) {
	case FI_WAIT_UNSPEC:
	case FI_WAIT_FD:
		break;
	case FI_WAIT_NONE:
	case FI_WAIT_SET:
		return -FI_EINVAL;
	default:
		UET_WARN(FI_LOG_CORE, "wait set object %d is not supported\n",
			 attr->wait_obj);
		return -FI_ENOSYS;
	}
	fab = uet_container_of(fabric, struct uet_fabric, fid);
	ws = calloc(1, sizeof(*ws));
	if (!ws)
		return -FI_ENOMEM;
	ws->spin_ns = uet_env_get_uint(&uet_domain_env_spin_us) *
		      UET_NSEC_PER_USEC;
	ws->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (ws->epfd < 0) {
		ret = -errno;
		goto err_free;
	}
	pthread_mutex_init(&ws->lock, NULL);
	uet_dlist_init(&ws->members);
	atomic_init(&ws->ref, 0);
	ws->fabric = fab;
	ws->wait_obj = FI_WAIT_FD;
	ws->fid.fid.fclass = FI_CLASS_WAIT;
	ws->fid.fid.ops = &uet_wait_fi_ops;
	ws->fid.ops = &uet_wait_ops;
	atomic_fetch_add(&fab->ref, 1);
	*waitset = &ws->fid;
	return 0;

err_free:
	free(ws);
	return ret;
}
