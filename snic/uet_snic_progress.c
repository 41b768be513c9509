/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Progress: receive and timers (PDS), transmit queue (SES), deferred
 * notifications and stalled commands; the wait fd; the auto-progress
 * thread.
 *
 * The wait fd is an epoll instance holding the link's socket and a
 * timerfd (CLOCK_MONOTONIC, absolute) that doorbells and progress calls
 * arm for the next PDS deadline (and, while notifications wait in the
 * NIC, for a retry within UET_SNIC_DEFER_RETRY_NS) when the armed time
 * is later than that deadline or has passed.  It is readable when
 * progress has work (a datagram arrived or a deadline passed) and at
 * most once more per armed time (a deadline that moved later: one spare
 * pass, which re-arms it).  The timer is never armed closer than
 * UET_SNIC_TIMER_MIN_NS to "now", so a sleeper on the fd cannot spin.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "uet_clock.h"
#include "uet_log.h"
#include "uet_pds.h"
#include "uet_snic_internal.h"

/* ---- the wait fd ---- */

int uet_snic_wait_init(struct uet_snic_dev *dev)
{
	struct epoll_event ev;
	int lfd, ret;

	dev->timer_fd = timerfd_create(CLOCK_MONOTONIC,
				       TFD_NONBLOCK | TFD_CLOEXEC);
	if (dev->timer_fd < 0)
		return -errno;
	dev->wait_fd = epoll_create1(EPOLL_CLOEXEC);
	if (dev->wait_fd < 0) {
		ret = -errno;
		goto err_timer;
	}
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	ev.data.fd = dev->timer_fd;
	if (epoll_ctl(dev->wait_fd, EPOLL_CTL_ADD, dev->timer_fd, &ev)) {
		ret = -errno;
		goto err_epoll;
	}
	lfd = dev->link->ops->fd(dev->link);
	if (lfd >= 0) {
		ev.data.fd = lfd;
		if (epoll_ctl(dev->wait_fd, EPOLL_CTL_ADD, lfd, &ev)) {
			ret = -errno;
			goto err_epoll;
		}
	}
	dev->armed_ns = 0;
	return 0;

err_epoll:
	close(dev->wait_fd);
	dev->wait_fd = -1;
err_timer:
	close(dev->timer_fd);
	dev->timer_fd = -1;
	return ret;
}

void uet_snic_wait_fini(struct uet_snic_dev *dev)
{
	if (dev->wait_fd >= 0)
		close(dev->wait_fd);
	if (dev->timer_fd >= 0)
		close(dev->timer_fd);
	dev->wait_fd = dev->timer_fd = -1;
}

int uet_snic_wait_fd(struct uet_hsi_dev *d)
{
	struct uet_snic_dev *dev;

	if (!d)
		return -1;
	dev = uet_snic_dev_of(d);
	if (!atomic_load_explicit(&dev->sleepers, memory_order_acquire)) {
		pthread_mutex_lock(&dev->lock);
		atomic_store_explicit(&dev->sleepers, true,
				      memory_order_release);
		uet_snic_rearm_locked(dev, uet_clock_now_ns());
		pthread_mutex_unlock(&dev->lock);
	}
	return dev->wait_fd;
}

static bool snic_deferred_locked(struct uet_snic_dev *dev)
{
	struct uet_snic_queue *q;

	uet_dlist_foreach_entry(&dev->queues, q, entry)
		if (q->ndeferred || q->stalled)
			return true;
	return false;
}

static uint64_t snic_next_deadline_locked(struct uet_snic_dev *dev)
{
	return dev->pds ? uet_pds_next_deadline(dev->pds) : UINT64_MAX;
}

uint64_t uet_snic_next_deadline(struct uet_hsi_dev *d)
{
	struct uet_snic_dev *dev = uet_snic_dev_of(d);
	uint64_t t;

	pthread_mutex_lock(&dev->lock);
	t = snic_next_deadline_locked(dev);
	pthread_mutex_unlock(&dev->lock);
	return t;
}

void uet_snic_rearm_locked(struct uet_snic_dev *dev, uint64_t now)
{
	struct itimerspec its;
	uint64_t when;

	uet_snic_assert_locked(dev);
	if (!atomic_load_explicit(&dev->sleepers, memory_order_relaxed) &&
	    !atomic_load_explicit(&dev->ap.acting, memory_order_relaxed))
		return;
	when = snic_next_deadline_locked(dev);
	if (snic_deferred_locked(dev) &&
	    when > now + UET_SNIC_DEFER_RETRY_NS)
		when = now + UET_SNIC_DEFER_RETRY_NS;
	if (when != UINT64_MAX && when < now + UET_SNIC_TIMER_MIN_NS)
		when = now + UET_SNIC_TIMER_MIN_NS;
	if (when == UINT64_MAX)
		when = 0;			/* disarm */
	/* Re-arming also clears an expiry nobody read, so an expired timer
	 * is always re-armed (or disarmed).  A timer still ahead that fires
	 * no later than needed is kept: firing early only costs one more
	 * progress pass, which re-arms it, while a timerfd_settime() on every
	 * pass (deadlines move with every packet) costs a system call on the
	 * fast path. */
	if (dev->armed_ns > now &&
	    (when == 0 || dev->armed_ns <= when))
		return;
	if (when == dev->armed_ns && when == 0)
		return;
	memset(&its, 0, sizeof(its));
	its.it_value = uet_ns_to_timespec(when);
	if (timerfd_settime(dev->timer_fd, TFD_TIMER_ABSTIME, &its, NULL))
		UET_WARN_ONCE(UET_LOG_EP_CTRL, "software NIC: timerfd_settime: "
			      "%d\n", errno);
	dev->armed_ns = when;
}

/* ---- progress ---- */

static int snic_progress_at(struct uet_snic_dev *dev, uint64_t now)
{
	struct uet_snic_queue *q;
	uint64_t before;
	int ret = 0;

	pthread_mutex_lock(&dev->lock);
	if (now > dev->now)
		dev->now = now;
	before = dev->st.notifs;
	uet_pds_batch_begin(dev->pds);
	/* Notifications that waited go first: they are older. */
	uet_dlist_foreach_entry(&dev->queues, q, entry)
		uet_snic_flush_locked(q);
	ret = uet_pds_poll(dev->pds, now);
	uet_ses_progress(dev->ses, now);
	uet_snic_rxpool_check_locked(dev, now);
	uet_dlist_foreach_entry(&dev->queues, q, entry) {
		uet_snic_flush_locked(q);
		uet_snic_queue_run_locked(q, now);
	}
	uet_pds_batch_end(dev->pds, now);
	uet_snic_rearm_locked(dev, now);
	if (ret >= 0)
		ret = (int)(dev->st.notifs - before);
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

int uet_snic_progress_at(struct uet_hsi_dev *d, uint64_t now)
{
	struct uet_snic_dev *dev;

	if (!d)
		return -EINVAL;
	dev = uet_snic_dev_of(d);
	atomic_store_explicit(&dev->app_ns, now, memory_order_relaxed);
	return snic_progress_at(dev, now);
}

int uet_snic_progress(struct uet_hsi_dev *d)
{
	return uet_snic_progress_at(d, uet_clock_now_ns());
}

/* ---- auto-progress thread ---- */

static void *snic_ap_main(void *arg)
{
	struct uet_snic_dev *dev = arg;
	struct epoll_event ev[2];
	int n;

	for (;;) {
		/* Blocks until a datagram, a deadline or stop: no spin. */
		n = epoll_wait(dev->ap.ep_fd, ev, 2, -1);
		if (atomic_load_explicit(&dev->ap.stop, memory_order_acquire))
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			UET_WARN(UET_LOG_EP_CTRL, "software NIC: auto-progress "
				 "epoll_wait: %d\n", errno);
			break;
		}
		uet_snic_progress(&dev->pub);
	}
	return NULL;
}

/* Milliseconds for a poll/epoll timeout: at least 1, never shorter than
 * what is left (no wake-up before the time it waits for). */
static int snic_ms_ceil(uint64_t ns)
{
	uint64_t ms = (ns + UET_NSEC_PER_MSEC - 1) / UET_NSEC_PER_MSEC;

	if (ms < 1)
		ms = 1;
	return ms > 60000 ? 60000 : (int)ms;
}

/*
 * Standby (manual progress): while the application calls (a progress
 * call or doorbell within standby_ns), the thread sleeps on its wake fd
 * only, waking once per standby_ns to look; once the application has
 * been silent that long (blocked outside libfabric, e.g. in its own
 * out-of-band exchange), the thread progresses for it, sleeping in epoll
 * on the link and the deadline timer, until the application is back.
 * A peer whose last ACK was lost is answered without the application.
 */
static void *snic_standby_main(void *arg)
{
	struct uet_snic_dev *dev = arg;
	uint64_t idle = dev->ap.standby_ns, now, last;
	struct epoll_event ev[2];
	struct pollfd pw;
	int n;

	for (;;) {
		if (atomic_load_explicit(&dev->ap.stop, memory_order_acquire))
			break;
		now = uet_clock_now_ns();
		last = atomic_load_explicit(&dev->app_ns, memory_order_relaxed);
		if (last > now || now - last < idle) {
			atomic_store_explicit(&dev->ap.acting, false,
					      memory_order_relaxed);
			pw.fd = dev->ap.wake_fd;
			pw.events = POLLIN;
			pw.revents = 0;
			n = poll(&pw, 1, snic_ms_ceil(last > now ? idle :
						      last + idle - now));
			if (n < 0 && errno != EINTR)
				break;
			continue;
		}
		if (!atomic_load_explicit(&dev->ap.acting,
					  memory_order_relaxed)) {
			atomic_store_explicit(&dev->ap.acting, true,
					      memory_order_relaxed);
			pthread_mutex_lock(&dev->lock);
			dev->armed_ns = UINT64_MAX;	/* arm it anew */
			pthread_mutex_unlock(&dev->lock);
		}
		snic_progress_at(dev, now);	/* re-arms the timer */
		/* A datagram, a deadline, stop, or time to look again. */
		n = epoll_wait(dev->ap.ep_fd, ev, 2, snic_ms_ceil(idle));
		if (n < 0 && errno != EINTR) {
			UET_WARN(UET_LOG_EP_CTRL, "software NIC: standby "
				 "epoll_wait: %d\n", errno);
			break;
		}
	}
	atomic_store_explicit(&dev->ap.acting, false, memory_order_relaxed);
	return NULL;
}

static int snic_ap_start(struct uet_snic_dev *dev, uint64_t standby_ns)
{
	struct epoll_event ev;
	int ret;

	if (dev->ap.running)
		return -EALREADY;
	dev->ap.wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (dev->ap.wake_fd < 0)
		return -errno;
	dev->ap.ep_fd = epoll_create1(EPOLL_CLOEXEC);
	if (dev->ap.ep_fd < 0) {
		ret = -errno;
		goto err_wake;
	}
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	ev.data.fd = dev->wait_fd;
	if (epoll_ctl(dev->ap.ep_fd, EPOLL_CTL_ADD, dev->wait_fd, &ev)) {
		ret = -errno;
		goto err_ep;
	}
	ev.data.fd = dev->ap.wake_fd;
	if (epoll_ctl(dev->ap.ep_fd, EPOLL_CTL_ADD, dev->ap.wake_fd, &ev)) {
		ret = -errno;
		goto err_ep;
	}
	atomic_store(&dev->ap.stop, false);
	atomic_store(&dev->ap.acting, false);
	dev->ap.standby_ns = standby_ns;
	atomic_store_explicit(&dev->app_ns, uet_clock_now_ns(),
			      memory_order_relaxed);
	ret = pthread_create(&dev->ap.thread, NULL, standby_ns ?
			     snic_standby_main : snic_ap_main, dev);
	if (ret) {
		ret = -ret;
		goto err_ep;
	}
	dev->ap.running = true;
	if (standby_ns)
		return 0;
	/* Arm the timer for work queued before the thread existed. */
	pthread_mutex_lock(&dev->lock);
	atomic_store_explicit(&dev->sleepers, true, memory_order_release);
	dev->armed_ns = UINT64_MAX;
	uet_snic_rearm_locked(dev, uet_clock_now_ns());
	pthread_mutex_unlock(&dev->lock);
	return 0;

err_ep:
	close(dev->ap.ep_fd);
	dev->ap.ep_fd = -1;
err_wake:
	close(dev->ap.wake_fd);
	dev->ap.wake_fd = -1;
	return ret;
}

int uet_snic_auto_progress_start(struct uet_hsi_dev *d)
{
	if (!d)
		return -EINVAL;
	return snic_ap_start(uet_snic_dev_of(d), 0);
}

int uet_snic_standby_start(struct uet_hsi_dev *d, uint64_t idle_ns)
{
	if (!d || !idle_ns)
		return -EINVAL;
	return snic_ap_start(uet_snic_dev_of(d), idle_ns);
}

void uet_snic_auto_progress_stop(struct uet_hsi_dev *d)
{
	struct uet_snic_dev *dev;
	uint64_t one = 1;
	ssize_t r;

	if (!d)
		return;
	dev = uet_snic_dev_of(d);
	if (!dev->ap.running)
		return;
	atomic_store_explicit(&dev->ap.stop, true, memory_order_release);
	do {
		r = write(dev->ap.wake_fd, &one, sizeof(one));
	} while (r < 0 && errno == EINTR);
	pthread_join(dev->ap.thread, NULL);
	dev->ap.running = false;
	close(dev->ap.ep_fd);
	close(dev->ap.wake_fd);
	dev->ap.ep_fd = dev->ap.wake_fd = -1;
}
