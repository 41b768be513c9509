/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The domain: one HSI device (for the software NIC, one UDP socket) bound
 * to the info's source address.  Endpoints of the domain are queue pairs
 * of that device, told apart by their PIDonFEP.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uet_clock.h"
#include "uet_env.h"
#include "uet_fi_no.h"
#include "uet_info.h"
#include "uet_peer.h"
#include "uet_hmem.h"
#include "uet_prov.h"

void uet_domain_progress(struct uet_domain *dom)
{
	int ret;

	uet_lock_check_acquire(UET_LOCK_DEV);	/* its lock, in the backend */
	ret = dom->ops->progress(dom->dev);
	uet_lock_check_release(UET_LOCK_DEV);
	if (ret < 0)
		UET_WARN_ONCE(FI_LOG_DOMAIN, "device progress: %s\n",
			      fi_strerror(-ret));
}

void uet_domain_progress_eps(struct uet_domain *dom)
{
	struct uet_cq_bind *b;
	bool any = false;

	uet_lock(&dom->eps->lock, UET_LOCK_BIND);
	uet_dlist_foreach_entry(&dom->eps->eps, b, entry) {
		uet_ep_progress(b->ep);
		any = true;
	}
	uet_unlock(&dom->eps->lock, UET_LOCK_BIND);
	if (!any)
		uet_domain_progress(dom);
}

const struct uet_env_var uet_domain_env_spin_us =
	UET_ENV_UINT_VAR("spin_us", 20, 0, 1000000,
			 "Microseconds a blocking call (fi_cq_sread, "
			 "fi_cntr_wait, fi_wait) polls before it sleeps; 0: "
			 "sleep at once");

uint64_t uet_domain_spin_end(const struct uet_domain *dom, uint64_t now,
			     uint64_t end)
{
	return dom->spin_ns < end - now ? now + dom->spin_ns : end;
}

int uet_domain_block(struct uet_domain *dom, int extra_fd, uint64_t now,
		     uint64_t spin_end, uint64_t end)
{
	int ms;

	if (now < spin_end) {
		atomic_fetch_add_explicit(&dom->wait_spins, 1,
					  memory_order_relaxed);
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
		return 0;
	}
	atomic_fetch_add_explicit(&dom->wait_sleeps, 1, memory_order_relaxed);
	ms = end == UINT64_MAX ? UET_WAIT_SLICE_MS :
	     (int)((end - now + UET_NSEC_PER_MSEC - 1) / UET_NSEC_PER_MSEC);
	return uet_domain_wait(dom, extra_fd, ms);
}

int uet_domain_wait(struct uet_domain *dom, int extra_fd, int timeout_ms)
{
	struct pollfd pfd[2];
	nfds_t n = 0;
	int fd, ret;

	fd = dom->ops->wait_fd(dom->dev);
	if (fd >= 0) {
		pfd[n].fd = fd;
		pfd[n].events = POLLIN;
		n++;
	}
	if (extra_fd >= 0) {
		pfd[n].fd = extra_fd;
		pfd[n].events = POLLIN;
		n++;
	}
	if (timeout_ms < 0 || timeout_ms > UET_WAIT_SLICE_MS)
		timeout_ms = UET_WAIT_SLICE_MS;
	ret = poll(pfd, n, timeout_ms);
	if (ret < 0 && errno != EINTR)
		return -errno;
	return 0;
}

/* Overwrite the secret (a store the compiler cannot drop). */
static void uet_domain_wipe_secret(struct uet_domain *dom)
{
	volatile uint8_t *p = dom->secret;
	size_t i;

	for (i = 0; i < sizeof(dom->secret); i++)
		p[i] = 0;
}

static int uet_domain_close(struct fid *fid)
{
	struct uet_domain *dom = uet_container_of(fid, struct uet_domain,
						  fid.fid);

	if (atomic_load(&dom->ref)) {
		UET_WARN(FI_LOG_DOMAIN, "domain still has %d open objects\n",
			 atomic_load(&dom->ref));
		return -FI_EBUSY;
	}
	if (dom->auto_progress)
		dom->ops->auto_progress(dom->dev, false);
	if (dom->standby)
		dom->ops->standby(dom->dev, false);
	dom->ops->close(dom->dev);
	uet_hashmap_fini(&dom->mr_map);
	uet_bind_set_fini(dom->eps);
	free(dom->eps);
	if (dom->eq)
		atomic_fetch_sub(&dom->eq->ref, 1);
	atomic_fetch_sub(&dom->fabric->ref, 1);
	pthread_mutex_destroy(&dom->lock);
	uet_domain_wipe_secret(dom);
	free(dom);
	return 0;
}

/* FI_REG_MR (domain bind flag: MR registrations complete on the EQ),
 * which libfabric 2 deprecates with a warning at each use; uet refuses
 * it in both generations. */
#define UET_DOMAIN_BIND_REG_MR	(1ULL << 59)
#if FI_MAJOR_VERSION < 2
_Static_assert(FI_REG_MR == UET_DOMAIN_BIND_REG_MR, "FI_REG_MR");
#endif

static int uet_domain_bind(struct fid *fid, struct fid *bfid, uint64_t flags)
{
	struct uet_domain *dom = uet_container_of(fid, struct uet_domain,
						  fid.fid);
	struct uet_eq *eq;

	if (!bfid || bfid->fclass != FI_CLASS_EQ)
		return -FI_EINVAL;
	if (flags & ~(uint64_t)UET_DOMAIN_BIND_REG_MR)
		return -FI_EINVAL;
	if (flags & UET_DOMAIN_BIND_REG_MR) {
		UET_WARN(FI_LOG_DOMAIN, "asynchronous MR registration is "
			 "not supported\n");
		return -FI_ENOSYS;
	}
	eq = uet_container_of(bfid, struct uet_eq, fid.fid);
	if (dom->eq)
		return -FI_EBUSY;
	dom->eq = eq;
	atomic_fetch_add(&eq->ref, 1);
	return 0;
}

static struct fi_ops uet_domain_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = uet_domain_close,
	.bind = uet_domain_bind,
	.control = uet_no_control,
	.ops_open = uet_ext_ops_open,
	.tostr = uet_no_tostr,
	.ops_set = uet_no_ops_set,
};

/* fi_endpoint2: flags 0 or FI_PEER (an endpoint of a peer domain, opened
 * as any other: the peer objects are its CQ and SRX), else -FI_EINVAL. */
static int uet_endpoint2(struct fid_domain *domain, struct fi_info *info,
			 struct fid_ep **ep, uint64_t flags, void *context)
{
	if (flags & ~(uint64_t)FI_PEER)
		return -FI_EINVAL;
	return uet_ep_open(domain, info, ep, context);
}

static struct fi_ops_domain uet_domain_ops = {
	.size = sizeof(struct fi_ops_domain),
	.av_open = uet_av_open,
	.cq_open = uet_cq_open,
	.endpoint = uet_ep_open,
	.scalable_ep = uet_scalable_ep,
	.cntr_open = uet_cntr_open,
	.poll_open = uet_poll_open,
	.stx_ctx = uet_no_stx_ctx,
#if UET_HAVE_PEER
	.srx_ctx = uet_srx_context,
#else
	.srx_ctx = uet_no_srx_ctx,
#endif
	.query_atomic = uet_query_atomic,
	.query_collective = uet_no_query_collective,
	.endpoint2 = uet_endpoint2,
};

static struct fi_ops_mr uet_domain_mr_ops = {
	.size = sizeof(struct fi_ops_mr),
	.reg = uet_mr_reg,
	.regv = uet_mr_regv,
	.regattr = uet_mr_regattr,
};

/* The JobID (and TSS secret): the domain's auth_key when the application
 * gave one (4 or 40 bytes, fi_uet_ext.h), else FI_UET_JOB_ID. */
static int uet_domain_job_id(const struct fi_domain_attr *da,
			     struct uet_domain *dom)
{
	const uint8_t *secret;
	uint32_t v;
	int ret;

	if (da && da->auth_key && da->auth_key_size) {
		ret = uet_info_auth_key_parse(da->auth_key, da->auth_key_size,
					      &v, &secret);
		if (ret)
			return ret;
		dom->job_id = v;
		if (secret) {
			memcpy(dom->secret, secret, sizeof(dom->secret));
			dom->has_secret = true;
		}
		return 0;
	}
	dom->job_id = (uint32_t)uet_env_get_uint(&uet_info_env_job_id);
	return 0;
}

static int uet_domain_open_dev(struct uet_domain *dom,
			       const struct fi_info *info)
{
	struct uet_hsi_dev_attr attr;
	struct uet_hsi_dev_limits lim;
	struct uet_addr src;
	char host[INET6_ADDRSTRLEN + 16];
	uint8_t raw[sizeof(struct sockaddr_in6)];
	size_t rawlen = sizeof(raw);
	const void *ip;
	uint8_t wire;
	int ret;

	if (!info->src_addr) {
		UET_WARN(FI_LOG_DOMAIN, "info has no source address\n");
		return -FI_EINVAL;
	}
	ret = uet_addr_from_info(&src, info->addr_format, info->src_addr,
				 info->src_addrlen);
	if (ret)
		return ret;
	if (src.u.sa.sa_family == AF_INET) {
		ip = &src.u.sin.sin_addr;
		attr.port = ntohs(src.u.sin.sin_port);
	} else {
		ip = &src.u.sin6.sin6_addr;
		attr.port = ntohs(src.u.sin6.sin6_port);
	}
	if (!inet_ntop(src.u.sa.sa_family, ip, host, INET6_ADDRSTRLEN))
		return -FI_EINVAL;
	if (src.u.sa.sa_family == AF_INET6 && src.u.sin6.sin6_scope_id) {
		size_t l = strlen(host);

		snprintf(host + l, sizeof(host) - l, "%%%u",
			 (unsigned int)src.u.sin6.sin6_scope_id);
	}
	attr.host = host;
	attr.job_id = dom->job_id;
	attr.tss_secret = dom->has_secret ? dom->secret : NULL;
	/* The wire profile: src_addr's, else FI_UET_WIRE. */
	wire = src.wire ? src.wire : uet_info_wire();
	attr.wire = wire == FI_UET_WIRE_UE ? UET_WIRE_UE : UET_WIRE_UEPLUS;

	uet_prov_backends_init();
	ret = uet_hsi_dev_select(&dom->ops);
	if (ret)
		return ret;
	ret = dom->ops->open(&attr, &dom->dev);
	if (ret == -ENOKEY)	/* FI_UET_TSS wants a secret, none given */
		ret = -FI_ENOKEY;
	if (ret) {
		UET_WARN(FI_LOG_DOMAIN, "opening the %s device on %s port %u: "
			 "%s\n", dom->ops->name, host, attr.port,
			 fi_strerror(-ret));
		return ret;
	}
	ret = dom->ops->getname(dom->dev, raw, &rawlen);
	if (!ret)
		ret = uet_addr_from_raw(&dom->addr, raw, rawlen);
	if (ret)
		goto err_close;
	dom->addr.wire = wire;
	if (dom->ops->get_limits && !dom->ops->get_limits(dom->dev, &lim))
		dom->amo_max = lim.amo_max;
	if (dom->data_progress == FI_PROGRESS_AUTO) {
		ret = dom->ops->auto_progress ?
		      dom->ops->auto_progress(dom->dev, true) : -ENOTSUP;
		if (ret && ret != -ENOTSUP)
			goto err_close;
		dom->auto_progress = !ret;
	} else if (dom->ops->standby) {
		/* Manual progress: the device answers peers while the
		 * application is away (FI_UET_STANDBY_MS; 0: off). */
		ret = dom->ops->standby(dom->dev, true);
		if (ret && ret != -ENOTSUP)
			UET_WARN(FI_LOG_DOMAIN, "standby progress: %s\n",
				 fi_strerror(-ret));
		dom->standby = !ret;
	}
	UET_INFO(FI_LOG_DOMAIN, "domain %s: %s device on %s port %u, wire "
		 "profile %s\n",
		 info->domain_attr && info->domain_attr->name ?
		 info->domain_attr->name : "?", dom->ops->name, host,
		 (unsigned int)ntohs(dom->addr.u.sa.sa_family == AF_INET ?
				     dom->addr.u.sin.sin_port :
				     dom->addr.u.sin6.sin6_port),
		 uet_wire_name(wire));
	return 0;

err_close:
	dom->ops->close(dom->dev);
	dom->dev = NULL;
	return ret;
}

/* FI_HMEM asked for: device memory when a runtime is offered and the
 * device can copy into registrations of it (uet_hmem.h). */
static void uet_domain_hmem(struct uet_domain *dom)
{
	const struct uet_hmem_ops *h = uet_hmem_any();
	struct uet_hsi_mem_ops m;
	int ret;

	if (!h)
		return;
	if (!dom->ops->set_mem_ops) {
		UET_INFO(FI_LOG_DOMAIN, "hmem %s: device %s copies no device "
			 "memory: system memory only\n", h->name,
			 dom->ops->name);
		return;
	}
	uet_hmem_hsi_ops(h, &m);
	ret = dom->ops->set_mem_ops(dom->dev, &m);
	if (ret) {
		UET_WARN(FI_LOG_DOMAIN, "hmem %s: set_mem_ops: %d: system "
			 "memory only\n", h->name, ret);
		return;
	}
	dom->hmem_dev = h;
}

int uet_domain_open(struct fid_fabric *fabric, struct fi_info *info,
		    struct fid_domain **domain, void *context)
{
	struct uet_fabric *fab;
	struct uet_domain *dom;
	int ret;

	if (!fabric || !info || !domain)
		return -FI_EINVAL;
	*domain = NULL;
	fab = uet_container_of(fabric, struct uet_fabric, fid);
	ret = uet_info_check(fabric->api_version, info);
	if (ret)
		return ret;
	dom = calloc(1, sizeof(*dom));
	if (!dom)
		return -FI_ENOMEM;
	ret = pthread_mutex_init(&dom->lock, NULL);
	if (ret) {
		ret = -ret;
		goto err_free;
	}
	dom->fabric = fab;
	atomic_init(&dom->ref, 0);
	dom->data_progress = info->domain_attr &&
			     info->domain_attr->data_progress ==
			     FI_PROGRESS_AUTO ? FI_PROGRESS_AUTO :
			     FI_PROGRESS_MANUAL;
	dom->mr_mode = info->domain_attr ? (uint64_t)info->domain_attr->mr_mode
					 : 0;
	dom->hmem = (info->caps & FI_HMEM) &&
		    FI_VERSION_GE(fabric->api_version, UET_HMEM_API);
	dom->spin_ns = uet_env_get_uint(&uet_domain_env_spin_us) *
		       UET_NSEC_PER_USEC;
	ret = uet_domain_job_id(info->domain_attr, dom);
	if (ret)
		goto err_lock;
	ret = uet_hashmap_init(&dom->mr_map, 0, 0);
	if (ret) {
		ret = -FI_ENOMEM;
		goto err_lock;
	}
	atomic_init(&dom->mr_cntrs, 0);
	dom->eps = calloc(1, sizeof(*dom->eps));
	if (!dom->eps) {
		ret = -FI_ENOMEM;
		goto err_map;
	}
	uet_bind_set_init(dom->eps);
	atomic_init(&dom->neps, 0);
	ret = uet_domain_open_dev(dom, info);
	if (ret)
		goto err_eps;
	if (dom->hmem)
		uet_domain_hmem(dom);

	dom->fid.fid.fclass = FI_CLASS_DOMAIN;
	dom->fid.fid.context = context;
	dom->fid.fid.ops = &uet_domain_fi_ops;
	dom->fid.ops = &uet_domain_ops;
	dom->fid.mr = &uet_domain_mr_ops;
	atomic_fetch_add(&fab->ref, 1);
	*domain = &dom->fid;
	return 0;

err_eps:
	uet_bind_set_fini(dom->eps);
	free(dom->eps);
err_map:
	uet_hashmap_fini(&dom->mr_map);
err_lock:
	pthread_mutex_destroy(&dom->lock);
err_free:
	uet_domain_wipe_secret(dom);
	free(dom);
	return ret;
}
