/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Event queues: AV insert completions (FI_EVENT AVs), asynchronous errors
 * and application events (fi_eq_write).  Events are kept in arrival order;
 * an error event at the head makes fi_eq_read return -FI_EAVAIL.  The wait
 * object is an eventfd that is readable while the queue is non-empty.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "uet_clock.h"
#include "uet_fi_no.h"
#include "uet_prov.h"

struct uet_eq_event {
	struct uet_dlist entry;
	uint32_t event;
	bool is_err;
	struct fi_eq_err_entry err;
	size_t len;
	uint8_t buf[];
};

static void uet_eq_fd_update_locked(struct uet_eq *eq)
{
	uint64_t v = 1;

	if (eq->count) {
		if (write(eq->fd, &v, sizeof(v)) < 0)
			(void)0;	/* counter saturated: still readable */
	} else if (read(eq->fd, &v, sizeof(v)) < 0) {
		(void)0;		/* already zero */
	}
}

int uet_eq_post(struct uet_eq *eq, uint32_t event, const void *buf,
		size_t len, const struct fi_eq_err_entry *err)
{
	struct uet_eq_event *ev;

	if (!eq)
		return -FI_ENOEQ;
	ev = calloc(1, sizeof(*ev) + len);
	if (!ev)
		return -FI_ENOMEM;
	ev->event = event;
	if (err) {
		ev->is_err = true;
		ev->err = *err;
	} else if (len) {
		memcpy(ev->buf, buf, len);
	}
	ev->len = len;
	uet_lock(&eq->lock, UET_LOCK_EQ);
	if (eq->count >= eq->size && !err) {
		uet_unlock(&eq->lock, UET_LOCK_EQ);
		free(ev);
		return -FI_EAGAIN;
	}
	uet_dlist_insert_tail(&eq->events, &ev->entry);
	eq->count++;
	uet_eq_fd_update_locked(eq);
	uet_unlock(&eq->lock, UET_LOCK_EQ);
	return 0;
}

/* After a read of ev (NULL: nothing read): without FI_PEEK the event
 * leaves the queue.  Caller holds eq->lock. */
static void uet_eq_read_done_locked(struct uet_eq *eq,
				    struct uet_eq_event *ev, uint64_t flags)
{
	if (!ev || (flags & FI_PEEK))
		return;
	uet_dlist_remove(&ev->entry);
	eq->count--;
	uet_eq_fd_update_locked(eq);
	free(ev);
}

static ssize_t uet_eq_read(struct fid_eq *fid, uint32_t *event, void *buf,
			   size_t len, uint64_t flags)
{
	struct uet_eq *eq = uet_container_of(fid, struct uet_eq, fid);
	struct uet_eq_event *ev = NULL;
	ssize_t ret;

	if (flags & ~(uint64_t)FI_PEEK)
		return -FI_EINVAL;
	uet_lock(&eq->lock, UET_LOCK_EQ);
	if (uet_dlist_empty(&eq->events)) {
		ret = -FI_EAGAIN;
		goto out;
	}
	ev = uet_dlist_first_entry(&eq->events, struct uet_eq_event, entry);
	if (ev->is_err) {
		ret = -FI_EAVAIL;
		goto out;
	}
	if (len < ev->len || (ev->len && !buf)) {
		ret = -FI_ETOOSMALL;
		goto out;
	}
	if (event)
		*event = ev->event;
	if (ev->len)
		memcpy(buf, ev->buf, ev->len);
	ret = (ssize_t)ev->len;
out:
	uet_eq_read_done_locked(eq, ret >= 0 ? ev : NULL, flags);
	uet_unlock(&eq->lock, UET_LOCK_EQ);
	return ret;
}

static ssize_t uet_eq_readerr(struct fid_eq *fid, struct fi_eq_err_entry *buf,
			      uint64_t flags)
{
	struct uet_eq *eq = uet_container_of(fid, struct uet_eq, fid);
	struct uet_eq_event *ev;
	ssize_t ret;

	if (!buf || (flags & ~(uint64_t)FI_PEEK))
		return -FI_EINVAL;
	uet_lock(&eq->lock, UET_LOCK_EQ);
	ev = uet_dlist_empty(&eq->events) ? NULL :
	     uet_dlist_first_entry(&eq->events, struct uet_eq_event, entry);
	if (!ev || !ev->is_err) {
		ret = -FI_EAGAIN;
		goto out;
	}
	{
		void *udata = buf->err_data;

		*buf = ev->err;
		buf->err_data = udata;
		buf->err_data_size = 0;
	}
	ret = sizeof(*buf);
out:
	uet_eq_read_done_locked(eq, ret >= 0 ? ev : NULL, flags);
	uet_unlock(&eq->lock, UET_LOCK_EQ);
	return ret;
}

static ssize_t uet_eq_write(struct fid_eq *fid, uint32_t event,
			    const void *buf, size_t len, uint64_t flags)
{
	struct uet_eq *eq = uet_container_of(fid, struct uet_eq, fid);
	int ret;

	if ((len && !buf) || (flags & ~(uint64_t)FI_SOURCE))
		return -FI_EINVAL;
	ret = uet_eq_post(eq, event, buf, len, NULL);
	return ret ? ret : (ssize_t)len;
}

static ssize_t uet_eq_sread(struct fid_eq *fid, uint32_t *event, void *buf,
			    size_t len, int timeout, uint64_t flags)
{
	struct uet_eq *eq = uet_container_of(fid, struct uet_eq, fid);
	uint64_t now = uet_clock_now_ns();
	uint64_t end = timeout < 0 ? UINT64_MAX :
		       now + (uint64_t)timeout * UET_NSEC_PER_MSEC;
	struct pollfd pfd;
	ssize_t ret;
	int ms;

	if (eq->wait_obj == FI_WAIT_NONE)
		return -FI_EINVAL;
	for (;;) {
		ret = uet_eq_read(fid, event, buf, len, flags);
		if (ret != -FI_EAGAIN)
			return ret;
		now = uet_clock_now_ns();
		if (now >= end)
			return -FI_EAGAIN;
		ms = end == UINT64_MAX ? 100 :
		     (int)((end - now + UET_NSEC_PER_MSEC - 1) /
			   UET_NSEC_PER_MSEC);
		pfd.fd = eq->fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, ms) < 0 && errno != EINTR)
			return -errno;
	}
}

static const char *uet_eq_strerror(struct fid_eq *fid, int prov_errno,
				   const void *err_data, char *buf, size_t len)
{
	(void)fid;
	(void)err_data;
	return uet_prov_strerror(prov_errno, buf, len);
}

static int uet_eq_control(struct fid *fid, int command, void *arg)
{
	struct uet_eq *eq = uet_container_of(fid, struct uet_eq, fid.fid);

	return uet_wait_control(eq->wait_obj, eq->fd, command, arg);
}

static int uet_eq_close(struct fid *fid)
{
	struct uet_eq *eq = uet_container_of(fid, struct uet_eq, fid.fid);
	struct uet_dlist *l;

	if (atomic_load(&eq->ref))
		return -FI_EBUSY;
	while ((l = uet_dlist_pop_head(&eq->events)) != NULL)
		free(uet_container_of(l, struct uet_eq_event, entry));
	close(eq->fd);
	pthread_mutex_destroy(&eq->lock);
	atomic_fetch_sub(&eq->fabric->ref, 1);
	free(eq);
	return 0;
}

static struct fi_ops uet_eq_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = uet_eq_close,
	.bind = uet_no_bind,
	.control = uet_eq_control,
	.ops_open = uet_no_ops_open,
	.tostr = uet_no_tostr,
	.ops_set = uet_no_ops_set,
};

static struct fi_ops_eq uet_eq_ops = {
	.size = sizeof(struct fi_ops_eq),
	.read = uet_eq_read,
	.readerr = uet_eq_readerr,
	.write = uet_eq_write,
	.sread = uet_eq_sread,
	.strerror = uet_eq_strerror,
};

int uet_eq_open(struct fid_fabric *fabric, struct fi_eq_attr *attr,
		struct fid_eq **out, void *context)
{
	struct uet_fabric *fab;
	struct uet_eq *eq;

	if (!fabric || !attr || !out)
		return -FI_EINVAL;
	*out = NULL;
	fab = uet_container_of(fabric, struct uet_fabric, fid);
	if (attr->flags & ~(uint64_t)FI_WRITE)
		return -FI_EINVAL;
	switch (attr->wait_obj) {
	case FI_WAIT_NONE:
	case FI_WAIT_UNSPEC:
	case FI_WAIT_FD:
		break;
	default:
		return -FI_ENOSYS;
	}
	eq = calloc(1, sizeof(*eq));
	if (!eq)
		return -FI_ENOMEM;
	eq->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (eq->fd < 0) {
		free(eq);
		return -FI_ENOMEM;
	}
	pthread_mutex_init(&eq->lock, NULL);
	uet_dlist_init(&eq->events);
	eq->size = attr->size ? attr->size : UET_EQ_DEF_SIZE;
	eq->wait_obj = attr->wait_obj;
	eq->fabric = fab;
	atomic_init(&eq->ref, 0);
	eq->fid.fid.fclass = FI_CLASS_EQ;
	eq->fid.fid.context = context;
	eq->fid.fid.ops = &uet_eq_fi_ops;
	eq->fid.ops = &uet_eq_ops;
	atomic_fetch_add(&fab->ref, 1);
	*out = &eq->fid;
	return 0;
}
