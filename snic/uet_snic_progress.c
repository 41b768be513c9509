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
	int ret;

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
	/* The link's socket joins later, when someone may sleep
	 * (uet_snic_wait_link). */
	atomic_store_explicit(&dev->link_waited, false, memory_order_relaxed);
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

/*
 * The link's socket joins the wait fd's epoll set only once someone may
 * sleep on it: the wait fd handed out (wait_fd()), the auto-progress
 * thread started, or the standby thread answering.  While it is in an
 * epoll set, every datagram the kernel queues on it also runs the
 * epoll's wakeup callback in the sender's system call: about 0.25 usec
 * per datagram on the loopback of a 2-vCPU VM, paid by an application
 * that only ever polls (docs/performance.md, issue 18).  Level-triggered:
 * datagrams already queued when it joins make the set ready at once.
 * It stays while the fd may have a sleeper; the standby thread's use
 * ends when it stops answering (uet_snic_wait_unlink), so that a pause
 * of the application at start-up does not cost it for the whole run.
 */
void uet_snic_wait_link(struct uet_snic_dev *dev)
{
	struct epoll_event ev;
	int lfd;

	if (atomic_load_explicit(&dev->link_waited, memory_order_acquire))
		return;
	pthread_mutex_lock(&dev->lock);
	if (!atomic_load_explicit(&dev->link_waited, memory_order_relaxed)) {
		lfd = dev->link->ops->fd(dev->link);
		memset(&ev, 0, sizeof(ev));
		ev.events = EPOLLIN;
		ev.data.fd = lfd;
		if (lfd >= 0 &&
		    epoll_ctl(dev->wait_fd, EPOLL_CTL_ADD, lfd, &ev) &&
		    errno != EEXIST)
			/* The waits then end on the timer or their slice. */
			UET_WARN_ONCE(UET_LOG_EP_CTRL, "software NIC: "
				      "epoll_ctl(link): %d\n", errno);
		else
			atomic_store_explicit(&dev->link_waited, true,
					      memory_order_release);
	}
	pthread_mutex_unlock(&dev->lock);
}

/* The standby thread stopped answering for dev: the link's socket
 * leaves the wait fd's epoll set unless the fd may have a sleeper (both
 * decided under the device lock, where sleepers is set). */
static void uet_snic_wait_unlink(struct uet_snic_dev *dev)
{
	int lfd;

	pthread_mutex_lock(&dev->lock);
	if (atomic_load_explicit(&dev->link_waited, memory_order_relaxed) &&
	    !atomic_load_explicit(&dev->sleepers, memory_order_relaxed)) {
		lfd = dev->link->ops->fd(dev->link);
		if (lfd >= 0)
			(void)epoll_ctl(dev->wait_fd, EPOLL_CTL_DEL, lfd, NULL);
		atomic_store_explicit(&dev->link_waited, false,
				      memory_order_release);
	}
	pthread_mutex_unlock(&dev->lock);
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
	/* after sleepers: the standby thread no longer takes it out */
	uet_snic_wait_link(dev);
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
	    !atomic_load_explicit(&dev->sb.acting, memory_order_relaxed))
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

/*
 * The rest of a pass would change nothing: no notification waits in the
 * NIC, no queue has a command published and not executed (stalled and
 * fenced ones stay published), and the SES refused no unexpected message
 * since the last RXPOOL event.
 */
static bool snic_quiet_locked(struct uet_snic_dev *dev)
{
	struct uet_snic_queue *q;

	if (uet_ses_unexp_refused(dev->ses) != dev->refused_seen)
		return false;
	uet_dlist_foreach_entry(&dev->queues, q, entry)
		if (q->ndeferred || q->stalled || q->fence_wait ||
		    uet_hsi_cmdq_doorbell_read(&q->cmdq) != q->cmdq.cons.ci)
			return false;
	return true;
}

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
	if (ret == 0 && dev->st.notifs == before &&
	    uet_pds_quiet(dev->pds, now) && snic_quiet_locked(dev)) {
		/* The empty pass (most of them, while an application polls):
		 * the steps below would find nothing to do. */
		dev->st.quiet_passes++;
		uet_pds_batch_end_quiet(dev->pds);
	} else {
		uet_snic_rxpool_check_locked(dev, now);
		uet_dlist_foreach_entry(&dev->queues, q, entry) {
			uet_snic_flush_locked(q);
			uet_snic_queue_run_locked(q, now);
		}
		uet_pds_batch_end(dev->pds, now);
	}
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

static int snic_ap_start(struct uet_snic_dev *dev)
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
	ret = pthread_create(&dev->ap.thread, NULL, snic_ap_main, dev);
	if (ret) {
		ret = -ret;
		goto err_ep;
	}
	dev->ap.running = true;
	/* Arm the timer for work queued before the thread existed. */
	pthread_mutex_lock(&dev->lock);
	atomic_store_explicit(&dev->sleepers, true, memory_order_release);
	dev->armed_ns = UINT64_MAX;
	uet_snic_rearm_locked(dev, uet_clock_now_ns());
	pthread_mutex_unlock(&dev->lock);
	/* Level-triggered: what arrived before this wakes the thread. */
	uet_snic_wait_link(dev);
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
	return snic_ap_start(uet_snic_dev_of(d));
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

/* ---- standby (manual progress) ---- */

/*
 * A hardware NIC answers its peers without the host.  Under manual
 * progress the software NIC runs only inside the application's calls, so
 * an application that got what it waited for and blocks elsewhere (its
 * own out-of-band exchange) would leave a peer whose last ACK was lost
 * retransmitting until it gives up.  One thread per process watches the
 * devices put on standby: every progress call and doorbell records its
 * time (app_ns); a device whose application has not called for idle_ns
 * is progressed by the thread, its wait fd (link and deadline timer) in
 * the thread's epoll set, until the application calls again.  While every
 * application calls, the thread sleeps until the earliest moment one
 * could become idle: one wake-up per idle_ns at most, nothing on the
 * application's fast path but a relaxed store.
 */
static struct {
	pthread_mutex_t lock;		/* the list; taken before dev->lock */
	pthread_cond_t joined;		/* a stopped thread was joined */
	struct uet_dlist devs;
	pthread_t thread;
	bool running;
	bool stop;
	bool joining;			/* stopped, not joined yet */
	int wake_fd;			/* eventfd: list changed, or stop */
	int ep_fd;			/* wake_fd + acting devices' wait fds */
} snic_sb = { .lock = PTHREAD_MUTEX_INITIALIZER,
	      .joined = PTHREAD_COND_INITIALIZER,
	      .devs = { &snic_sb.devs, &snic_sb.devs },
	      .wake_fd = -1, .ep_fd = -1 };

static void snic_sb_act(struct uet_snic_dev *dev, bool on)
{
	struct epoll_event ev;

	if (atomic_load_explicit(&dev->sb.acting, memory_order_relaxed) == on)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	ev.data.ptr = dev;
	if (on) {
		uet_snic_wait_link(dev);
		pthread_mutex_lock(&dev->lock);
		atomic_store_explicit(&dev->sb.acting, true,
				      memory_order_relaxed);
		dev->armed_ns = UINT64_MAX;	/* arm it anew */
		pthread_mutex_unlock(&dev->lock);
		if (epoll_ctl(snic_sb.ep_fd, EPOLL_CTL_ADD, dev->wait_fd, &ev))
			UET_WARN_ONCE(UET_LOG_EP_CTRL, "software NIC: standby "
				      "epoll_ctl: %d\n", errno);
		return;
	}
	atomic_store_explicit(&dev->sb.acting, false, memory_order_relaxed);
	(void)epoll_ctl(snic_sb.ep_fd, EPOLL_CTL_DEL, dev->wait_fd, &ev);
	uet_snic_wait_unlink(dev);
}

static void *snic_sb_main(void *arg)
{
	struct epoll_event ev[16];
	struct uet_snic_dev *dev;
	uint64_t now, last, next, v;
	ssize_t r;
	int n;

	(void)arg;
	pthread_mutex_lock(&snic_sb.lock);
	while (!snic_sb.stop) {
		now = uet_clock_now_ns();
		next = now + 60 * UET_NSEC_PER_SEC;
		uet_dlist_foreach_entry(&snic_sb.devs, dev, sb.entry) {
			last = atomic_load_explicit(&dev->app_ns,
						    memory_order_relaxed);
			if (last > now || now - last < dev->sb.idle_ns) {
				snic_sb_act(dev, false);
				if (last + dev->sb.idle_ns < next)
					next = last + dev->sb.idle_ns;
				continue;
			}
			snic_sb_act(dev, true);
			snic_progress_at(dev, now);	/* re-arms the timer */
			if (now + dev->sb.idle_ns < next)
				next = now + dev->sb.idle_ns;
		}
		pthread_mutex_unlock(&snic_sb.lock);
		/* A datagram or deadline of an acting device, a change of
		 * the list, or the time to look again. */
		n = epoll_wait(snic_sb.ep_fd, ev, 16,
			       snic_ms_ceil(next > now ? next - now : 0));
		if (n < 0 && errno != EINTR)
			UET_WARN_ONCE(UET_LOG_EP_CTRL, "software NIC: standby "
				      "epoll_wait: %d\n", errno);
		do {
			r = read(snic_sb.wake_fd, &v, sizeof(v));
		} while (r < 0 && errno == EINTR);
		pthread_mutex_lock(&snic_sb.lock);
	}
	pthread_mutex_unlock(&snic_sb.lock);
	return NULL;
}

static void snic_sb_wake(void)
{
	uint64_t one = 1;
	ssize_t r;

	do {
		r = write(snic_sb.wake_fd, &one, sizeof(one));
	} while (r < 0 && errno == EINTR);
}

/* The thread and its fds, under snic_sb.lock. */
static int snic_sb_thread_start(void)
{
	struct epoll_event ev;
	int ret;

	while (snic_sb.joining)
		pthread_cond_wait(&snic_sb.joined, &snic_sb.lock);
	if (snic_sb.running)
		return 0;
	snic_sb.wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (snic_sb.wake_fd < 0)
		return -errno;
	snic_sb.ep_fd = epoll_create1(EPOLL_CLOEXEC);
	if (snic_sb.ep_fd < 0) {
		ret = -errno;
		goto err_wake;
	}
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	ev.data.ptr = NULL;
	if (epoll_ctl(snic_sb.ep_fd, EPOLL_CTL_ADD, snic_sb.wake_fd, &ev)) {
		ret = -errno;
		goto err_ep;
	}
	snic_sb.stop = false;
	ret = pthread_create(&snic_sb.thread, NULL, snic_sb_main, NULL);
	if (ret) {
		ret = -ret;
		goto err_ep;
	}
	snic_sb.running = true;
	return 0;

err_ep:
	close(snic_sb.ep_fd);
	snic_sb.ep_fd = -1;
err_wake:
	close(snic_sb.wake_fd);
	snic_sb.wake_fd = -1;
	return ret;
}

int uet_snic_standby_start(struct uet_hsi_dev *d, uint64_t idle_ns)
{
	struct uet_snic_dev *dev;
	int ret;

	if (!d || !idle_ns)
		return -EINVAL;
	dev = uet_snic_dev_of(d);
	if (dev->ap.running)
		return -EALREADY;		/* auto progress needs none */
	pthread_mutex_lock(&snic_sb.lock);
	if (uet_dlist_linked(&dev->sb.entry)) {
		ret = -EALREADY;
		goto out;
	}
	ret = snic_sb_thread_start();
	if (ret)
		goto out;
	dev->sb.idle_ns = idle_ns;
	atomic_store_explicit(&dev->sb.acting, false, memory_order_relaxed);
	atomic_store_explicit(&dev->app_ns, uet_clock_now_ns(),
			      memory_order_relaxed);
	uet_dlist_insert_tail(&snic_sb.devs, &dev->sb.entry);
	snic_sb_wake();
out:
	pthread_mutex_unlock(&snic_sb.lock);
	return ret;
}

void uet_snic_standby_stop(struct uet_hsi_dev *d)
{
	struct uet_snic_dev *dev;
	pthread_t t;
	bool join = false;

	if (!d)
		return;
	dev = uet_snic_dev_of(d);
	pthread_mutex_lock(&snic_sb.lock);
	if (!uet_dlist_linked(&dev->sb.entry)) {
		pthread_mutex_unlock(&snic_sb.lock);
		return;
	}
	snic_sb_act(dev, false);
	uet_dlist_remove(&dev->sb.entry);
	if (uet_dlist_empty(&snic_sb.devs)) {
		/* The last one: the thread goes (a process without devices
		 * keeps no thread). */
		snic_sb.stop = true;
		snic_sb.running = false;
		snic_sb.joining = true;
		t = snic_sb.thread;
		join = true;
	}
	snic_sb_wake();
	pthread_mutex_unlock(&snic_sb.lock);
	if (!join)
		return;
	pthread_join(t, NULL);
	pthread_mutex_lock(&snic_sb.lock);
	close(snic_sb.ep_fd);
	close(snic_sb.wake_fd);
	snic_sb.ep_fd = snic_sb.wake_fd = -1;
	snic_sb.joining = false;
	pthread_cond_broadcast(&snic_sb.joined);
	pthread_mutex_unlock(&snic_sb.lock);
}
