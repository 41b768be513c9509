/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Address vectors, FI_AV_TABLE and FI_AV_MAP.  Both hand out the table
 * index as fi_addr_t (MAP allows any value, TABLE requires the index).
 * Each entry holds the peer's address and the device peer handle that
 * commands carry; a reverse map {peer handle, initiator} -> fi_addr serves
 * FI_SOURCE.
 *
 * Named AVs (attr->name) keep their slots in a table in shared memory
 * (uet_av_shm.c): the AV opened without FI_READ publishes every insert
 * and remove there; AVs opened with FI_READ import the slots at open and
 * when an fi_addr they do not know is used, and refuse inserts and
 * removes (-FI_EPERM).  attr->map_addr, when 0, returns the table's
 * fi_addr_t array (fi_av(3)).
 *
 * With attr->rx_ctx_bits (scalable endpoints, uet_sep.c) the top bits of
 * an fi_addr (fi_rx_addr) name a receive context: it is added to the
 * resource index of the address.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "uet_fi_no.h"
#include "uet_prov.h"

#define UET_AV_DEF_COUNT	64

static uint64_t uet_av_rev_key(uint64_t peer, uint16_t pid, uint16_t ri)
{
	return peer << 24 | (uint64_t)(pid & 0xfffu) << 12 | (ri & 0xfffu);
}

static int uet_av_grow_locked(struct uet_av *av)
{
	struct uet_av_entry *t;
	size_t cap = av->cap ? av->cap * 2 : UET_AV_DEF_COUNT;
	size_t i;

	t = realloc(av->tbl, cap * sizeof(*t));
	if (!t)
		return -FI_ENOMEM;
	memset(t + av->cap, 0, (cap - av->cap) * sizeof(*t));
	/* The reverse map points into the table: rebuild it. */
	uet_hashmap_fini(&av->rev);
	if (uet_hashmap_init(&av->rev, 0, cap)) {
		av->tbl = t;
		av->cap = cap;
		return -FI_ENOMEM;
	}
	for (i = 0; i < av->cap; i++) {
		if (t[i].in_rev)
			uet_hashmap_insert_u64(&av->rev, &t[i].node,
					       uet_av_rev_key(t[i].peer,
							      t[i].addr.pid,
							      t[i].addr.ri));
	}
	av->tbl = t;
	av->cap = cap;
	return 0;
}

/* Insert one address, into slot want (SIZE_MAX: the first free one);
 * 0 with *out its fi_addr, or a negative error. */
static int uet_av_insert_one(struct uet_av *av, const struct uet_addr *a,
			     size_t want, fi_addr_t *out)
{
	struct uet_domain *dom = av->domain;
	struct uet_av_entry *e;
	uint64_t peer;
	size_t i;
	int ret;

	if (a->u.sa.sa_family != dom->addr.u.sa.sa_family)
		return -FI_EINVAL;
	ret = dom->ops->peer_insert(dom->dev, &a->u, a->len, &peer);
	if (ret)
		return ret;
	uet_lock(&av->lock, UET_LOCK_AV);
	if (want == SIZE_MAX) {
		for (i = av->hint; i < av->cap && av->tbl[i].used; i++)
			;
	} else {
		i = want;
	}
	ret = 0;
	while (i >= av->cap && !ret)
		ret = uet_av_grow_locked(av);
	if (!ret && av->tbl[i].used)
		ret = -FI_EBUSY;
	if (!ret && av->shm && !av->read_only && i >= uet_av_shm_cap(av->shm))
		ret = -FI_ENOSPC;	/* the shared table is full */
	if (ret) {
		uet_unlock(&av->lock, UET_LOCK_AV);
		dom->ops->peer_remove(dom->dev, peer);
		return ret;
	}
	e = &av->tbl[i];
	e->used = true;
	e->addr = *a;
	e->peer = peer;
	/* A duplicate {peer, pid, ri} keeps the first entry for FI_SOURCE. */
	if (!uet_hashmap_lookup_u64(&av->rev,
				    uet_av_rev_key(peer, a->pid, a->ri))) {
		uet_hashmap_insert_u64(&av->rev, &e->node,
				       uet_av_rev_key(peer, a->pid, a->ri));
		e->in_rev = true;
		atomic_fetch_add(&av->rev_gen, 1);
	}
	av->count++;
	if (want == SIZE_MAX)
		av->hint = i + 1;
	if (av->shm && !av->read_only)
		uet_av_shm_publish(av->shm, i, a);
	uet_unlock(&av->lock, UET_LOCK_AV);
	*out = (fi_addr_t)i;
	return 0;
}

/* Reader of a named AV: import the slots published since the last call.
 * Returns true when something new was imported. */
static bool uet_av_shm_import(struct uet_av *av)
{
	struct uet_addr a;
	fi_addr_t out;
	size_t i, from, n;
	bool any = false;

	if (!av->shm || !av->read_only)
		return false;
	n = uet_av_shm_count(av->shm);
	uet_lock(&av->lock, UET_LOCK_AV);
	from = av->shm_synced;
	if (n > from)
		av->shm_synced = n;
	uet_unlock(&av->lock, UET_LOCK_AV);
	for (i = from; i < n; i++) {
		if (uet_av_shm_entry(av->shm, i, &a))
			continue;
		if (!uet_av_insert_one(av, &a, i, &out))
			any = true;
	}
	return any;
}

/* Report the result of an insert: synchronously, or as an EQ event when
 * the AV was opened with FI_EVENT. */
static int uet_av_report(struct uet_av *av, int done, void *context)
{
	struct fi_eq_entry ev;

	if (!(av->flags & FI_EVENT))
		return done;
	if (!av->eq)
		return -FI_ENOEQ;
	memset(&ev, 0, sizeof(ev));
	ev.fid = &av->fid.fid;
	ev.context = context;
	ev.data = (uint64_t)done;
	uet_eq_post(av->eq, FI_AV_COMPLETE, &ev, sizeof(ev), NULL);
	return 0;
}

/* An address that says another wire profile than the domain's cannot be
 * reached: -FI_EADDRNOTAVAIL, with both profiles in the log. */
static int uet_av_wire_check(struct uet_av *av, const struct uet_addr *a,
			     size_t i)
{
	uint8_t own = av->domain->addr.wire;

	if (!a->wire || !own || a->wire == own)
		return 0;
	UET_WARN(FI_LOG_AV, "address %zu speaks the '%s' wire profile, this "
		 "domain '%s': peers must agree (FI_UET_WIRE, "
		 "docs/conformance.md)\n", i, uet_wire_name(a->wire),
		 uet_wire_name(own));
	return -FI_EADDRNOTAVAIL;
}

static int uet_av_insert_addrs(struct uet_av *av, const struct uet_addr *as,
			       size_t count, fi_addr_t *fi_addr,
			       uint64_t flags, void *context)
{
	int *errs = (flags & FI_SYNC_ERR) ? context : NULL;
	fi_addr_t a, uid = FI_ADDR_NOTAVAIL;
	size_t i;
	int done = 0, ret;

	if ((flags & FI_AV_USER_ID) && !fi_addr)
		return -FI_EINVAL;
	for (i = 0; i < count; i++) {
		if (flags & FI_AV_USER_ID)
			uid = fi_addr[i];
		ret = uet_av_wire_check(av, &as[i], i);
		if (!ret)
			ret = uet_av_insert_one(av, &as[i], SIZE_MAX, &a);
		if (!ret && (flags & FI_AV_USER_ID)) {
			uet_lock(&av->lock, UET_LOCK_AV);
			av->tbl[a].has_user_id = true;
			av->tbl[a].user_id = uid;
			atomic_fetch_add(&av->rev_gen, 1);
			uet_unlock(&av->lock, UET_LOCK_AV);
		}
		if (errs)
			errs[i] = -ret;
		if (ret) {
			UET_WARN(FI_LOG_AV, "inserting address %zu: %s\n", i,
				 fi_strerror(-ret));
			a = FI_ADDR_NOTAVAIL;
			if ((av->flags & FI_EVENT) && av->eq) {
				/* Asynchronous inserts report each failed
				 * address as an error event (data = index)
				 * before the completion. */
				struct fi_eq_err_entry ee;

				memset(&ee, 0, sizeof(ee));
				ee.fid = &av->fid.fid;
				ee.context = context;
				ee.data = i;
				ee.err = -ret;
				uet_eq_post(av->eq, FI_AV_COMPLETE, NULL, 0,
					    &ee);
			}
		} else {
			done++;
		}
		if (fi_addr)
			fi_addr[i] = a;
	}
	return uet_av_report(av, done, errs ? NULL : context);
}

static int uet_av_check_flags(struct uet_av *av, uint64_t flags)
{
	if (av->read_only)
		return -FI_EPERM;
	/* FI_AV_USER_ID (libfabric 1.18 and later): fi_addr[i] is an id
	 * reported as the source of completions instead of the fi_addr_t
	 * returned in its place */
	if (flags & ~(uint64_t)(FI_MORE | FI_SYNC_ERR | FI_AV_USER_ID))
		return -FI_EINVAL;
	if ((flags & FI_AV_USER_ID) && av->shm)
		return -FI_EINVAL;
	if ((flags & FI_SYNC_ERR) && (av->flags & FI_EVENT))
		return -FI_EINVAL;
	return 0;
}

static int uet_av_insert(struct fid_av *fid, const void *addr, size_t count,
			 fi_addr_t *fi_addr, uint64_t flags, void *context)
{
	struct uet_av *av = uet_container_of(fid, struct uet_av, fid);
	size_t alen = av->domain->addr.u.sa.sa_family == AF_INET ?
		      sizeof(struct sockaddr_in) :
		      sizeof(struct sockaddr_in6);
	struct uet_addr *as;
	size_t i;
	int ret;

	ret = uet_av_check_flags(av, flags);
	if (ret)
		return ret;
	if (!count)
		return uet_av_report(av, 0, context);
	if (!addr)
		return -FI_EINVAL;
	as = calloc(count, sizeof(*as));
	if (!as)
		return -FI_ENOMEM;
	for (i = 0; i < count; i++) {
		ret = uet_addr_from_raw(&as[i],
					(const uint8_t *)addr + i * alen,
					alen);
		if (ret) {
			/* Keep the bad entry out; the insert reports it. */
			memset(&as[i], 0, sizeof(as[i]));
		}
	}
	ret = uet_av_insert_addrs(av, as, count, fi_addr, flags, context);
	free(as);
	return ret;
}

static int uet_av_insertsvc(struct fid_av *fid, const char *node,
			    const char *service, fi_addr_t *fi_addr,
			    uint64_t flags, void *context)
{
	struct uet_av *av = uet_container_of(fid, struct uet_av, fid);
	struct uet_addr a;
	int ret;

	ret = uet_av_check_flags(av, flags);
	if (ret)
		return ret;
	if (!node || !service)
		return -FI_EINVAL;
	ret = uet_addr_resolve(node, service,
			       av->domain->addr.u.sa.sa_family, false, &a);
	if (ret)
		return ret;
	return uet_av_insert_addrs(av, &a, 1, fi_addr, flags, context);
}

static int uet_av_insertsym(struct fid_av *fid, const char *node,
			    size_t nodecnt, const char *service,
			    size_t svccnt, fi_addr_t *fi_addr, uint64_t flags,
			    void *context)
{
	struct uet_av *av = uet_container_of(fid, struct uet_av, fid);
	struct uet_addr base, *as;
	size_t n, s, k = 0;
	int ret;

	ret = uet_av_check_flags(av, flags);
	if (ret)
		return ret;
	if (!node || !service || !nodecnt || !svccnt ||
	    nodecnt > UINT32_MAX || svccnt > UINT32_MAX ||
	    nodecnt > SIZE_MAX / svccnt)
		return -FI_EINVAL;
	ret = uet_addr_resolve(node, service,
			       av->domain->addr.u.sa.sa_family, true, &base);
	if (ret)
		return ret;
	as = calloc(nodecnt * svccnt, sizeof(*as));
	if (!as)
		return -FI_ENOMEM;
	for (n = 0; n < nodecnt; n++) {
		for (s = 0; s < svccnt; s++) {
			as[k] = base;
			ret = uet_addr_add(&as[k], (uint32_t)n, (uint32_t)s);
			if (ret)
				goto out;
			k++;
		}
	}
	ret = uet_av_insert_addrs(av, as, k, fi_addr, flags, context);
out:
	free(as);
	return ret;
}

static int uet_av_remove(struct fid_av *fid, fi_addr_t *fi_addr,
			 size_t count, uint64_t flags)
{
	struct uet_av *av = uet_container_of(fid, struct uet_av, fid);
	struct uet_av_entry *e;
	uint64_t peer;
	size_t i;
	int ret = 0;

	if (flags || (count && !fi_addr))
		return -FI_EINVAL;
	if (av->read_only)
		return -FI_EPERM;
	for (i = 0; i < count; i++) {
		uet_lock(&av->lock, UET_LOCK_AV);
		if (fi_addr[i] >= av->cap || !av->tbl[fi_addr[i]].used) {
			uet_unlock(&av->lock, UET_LOCK_AV);
			ret = -FI_EINVAL;
			continue;
		}
		e = &av->tbl[fi_addr[i]];
		if (e->in_rev)
			uet_hashmap_remove(&av->rev, &e->node);
		atomic_fetch_add(&av->rev_gen, 1);
		peer = e->peer;
		memset(e, 0, sizeof(*e));
		if (av->shm)
			uet_av_shm_clear(av->shm, fi_addr[i]);
		av->count--;
		if (fi_addr[i] < av->hint)
			av->hint = fi_addr[i];
		uet_unlock(&av->lock, UET_LOCK_AV);
		av->domain->ops->peer_remove(av->domain->dev, peer);
	}
	return ret;
}

static int uet_av_lookup(struct fid_av *fid, fi_addr_t fi_addr, void *addr,
			 size_t *addrlen)
{
	struct uet_av *av = uet_container_of(fid, struct uet_av, fid);
	struct uet_addr a;
	size_t need;

	if (!addrlen)
		return -FI_EINVAL;
	if (av->read_only)
		uet_av_shm_import(av);
	uet_lock(&av->lock, UET_LOCK_AV);
	if (fi_addr >= av->cap || !av->tbl[fi_addr].used) {
		uet_unlock(&av->lock, UET_LOCK_AV);
		return -FI_EINVAL;
	}
	a = av->tbl[fi_addr].addr;
	uet_unlock(&av->lock, UET_LOCK_AV);
	need = uet_addr_to_raw(&a, addr, addr ? *addrlen : 0);
	*addrlen = need;
	return 0;
}

static const char *uet_av_straddr(struct fid_av *fid, const void *addr,
				  char *buf, size_t *len)
{
	struct uet_addr a;
	size_t alen;

	(void)fid;
	if (!addr || !buf || !len)
		return NULL;
	alen = ((const struct sockaddr *)addr)->sa_family == AF_INET6 ?
	       sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
	if (uet_addr_from_raw(&a, addr, alen))
		return NULL;
	if (uet_addr_str(&a, buf, len) && !*len)
		return NULL;
	return buf;
}

int uet_av_dest(struct uet_av *av, fi_addr_t fi_addr, uint64_t *dest)
{
	struct uet_av_entry *e;
	bool again = av->read_only;
	uint64_t rx = 0;
	int ret;

	/* fi_rx_addr: the receive context in the top rx_ctx_bits bits. */
	if (av->rx_ctx_bits) {
		rx = fi_addr >> (64 - av->rx_ctx_bits);
		fi_addr &= ~(uint64_t)0 >> av->rx_ctx_bits;
	}
retry:
	ret = 0;
	uet_lock(&av->lock, UET_LOCK_AV);
	if (fi_addr >= av->cap || !av->tbl[fi_addr].used) {
		ret = -FI_EINVAL;
	} else {
		e = &av->tbl[fi_addr];
		if (e->addr.ri + rx > UET_ADDR_ID_MAX)
			ret = -FI_EINVAL;
		else
			*dest = UET_HSI_DEST(e->peer, e->addr.pid,
					     e->addr.ri + rx);
	}
	uet_unlock(&av->lock, UET_LOCK_AV);
	/* A reader may not have imported the slot yet. */
	if (ret && again) {
		again = false;
		if (uet_av_shm_import(av))
			goto retry;
	}
	return ret;
}

fi_addr_t uet_av_reverse(struct uet_av *av, uint32_t peer,
			 uint32_t initiator)
{
	unsigned long gen;

	return uet_av_reverse_gen(av, peer, initiator, &gen);
}

fi_addr_t uet_av_reverse_gen(struct uet_av *av, uint32_t peer,
			     uint32_t initiator, unsigned long *gen)
{
	struct uet_hnode *n;
	fi_addr_t a = FI_ADDR_NOTAVAIL;

	*gen = 0;
	if (!av || peer == UET_HSI_PEER_UNKNOWN)
		return FI_ADDR_NOTAVAIL;
	uet_lock(&av->lock, UET_LOCK_AV);
	*gen = atomic_load(&av->rev_gen);
	n = uet_hashmap_lookup_u64(&av->rev,
				   uet_av_rev_key(peer, (uint16_t)(initiator >> 12),
						  (uint16_t)initiator));
	/* A queue of a process the AV names by its endpoint (resource
	 * index 0): a scalable endpoint's transmit context i sends from
	 * rx_cnt + i, and its messages are from the scalable endpoint. */
	if (!n && (initiator & 0xfffu))
		n = uet_hashmap_lookup_u64(&av->rev,
				uet_av_rev_key(peer,
					       (uint16_t)(initiator >> 12), 0));
	if (n) {
		struct uet_av_entry *e = uet_container_of(n,
							  struct uet_av_entry,
							  node);

		a = e->has_user_id ? e->user_id : (fi_addr_t)(e - av->tbl);
	}
	uet_unlock(&av->lock, UET_LOCK_AV);
	return a;
}

static int uet_av_close(struct fid *fid)
{
	struct uet_av *av = uet_container_of(fid, struct uet_av, fid.fid);
	size_t i;

	if (atomic_load(&av->ref))
		return -FI_EBUSY;
	for (i = 0; i < av->cap; i++) {
		if (av->tbl[i].used)
			av->domain->ops->peer_remove(av->domain->dev,
						     av->tbl[i].peer);
	}
	if (av->eq)
		atomic_fetch_sub(&av->eq->ref, 1);
	uet_hashmap_fini(&av->rev);
	free(av->tbl);
	uet_av_shm_close(av->shm);
	pthread_mutex_destroy(&av->lock);
	atomic_fetch_sub(&av->domain->ref, 1);
	free(av);
	return 0;
}

static int uet_av_bind(struct fid *fid, struct fid *bfid, uint64_t flags)
{
	struct uet_av *av = uet_container_of(fid, struct uet_av, fid.fid);

	if (!bfid || bfid->fclass != FI_CLASS_EQ || flags)
		return -FI_EINVAL;
	if (av->eq)
		return -FI_EBUSY;
	av->eq = uet_container_of(bfid, struct uet_eq, fid.fid);
	atomic_fetch_add(&av->eq->ref, 1);
	return 0;
}

static struct fi_ops uet_av_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = uet_av_close,
	.bind = uet_av_bind,
	.control = uet_no_control,
	.ops_open = uet_no_ops_open,
	.tostr = uet_no_tostr,
	.ops_set = uet_no_ops_set,
};

static struct fi_ops_av uet_av_ops = {
	.size = sizeof(struct fi_ops_av),
	.insert = uet_av_insert,
	.insertsvc = uet_av_insertsvc,
	.insertsym = uet_av_insertsym,
	.remove = uet_av_remove,
	.lookup = uet_av_lookup,
	.straddr = uet_av_straddr,
	.av_set = uet_no_av_set,
};

int uet_av_open(struct fid_domain *domain, struct fi_av_attr *attr,
		struct fid_av **out, void *context)
{
	struct uet_domain *dom;
	struct uet_av *av;
	int ret;

	if (!domain || !attr || !out)
		return -FI_EINVAL;
	*out = NULL;
	dom = uet_container_of(domain, struct uet_domain, fid);
	if (attr->type != FI_AV_UNSPEC && attr->type != FI_AV_TABLE &&
	    attr->type != FI_AV_MAP)
		return -FI_EINVAL;
	if (attr->flags & ~(uint64_t)(FI_EVENT | FI_SYMMETRIC | FI_READ))
		return -FI_EINVAL;
	if ((attr->flags & FI_READ) && !attr->name)
		return -FI_EINVAL;
	/* The receive context becomes part of the resource index. */
	if (attr->rx_ctx_bits < 0 || attr->rx_ctx_bits > UET_ADDR_ID_BITS)
		return -FI_EINVAL;
	av = calloc(1, sizeof(*av));
	if (!av)
		return -FI_ENOMEM;
	ret = pthread_mutex_init(&av->lock, NULL);
	if (ret) {
		ret = -ret;
		goto err_free;
	}
	ret = uet_hashmap_init(&av->rev, 0, attr->count ? attr->count :
			       UET_AV_DEF_COUNT);
	if (ret) {
		ret = -FI_ENOMEM;
		goto err_lock;
	}
	if (attr->name) {
		ret = uet_av_shm_open(attr, &av->shm);
		if (ret)
			goto err_map;
		av->read_only = !uet_av_shm_writer(av->shm);
		if (!attr->map_addr)
			attr->map_addr = uet_av_shm_map_addr(av->shm);
	}
	av->domain = dom;
	av->type = attr->type == FI_AV_MAP ? FI_AV_MAP : FI_AV_TABLE;
	av->rx_ctx_bits = attr->rx_ctx_bits;
	av->flags = attr->flags;
	atomic_init(&av->ref, 0);
	atomic_init(&av->rev_gen, 0);
	av->fid.fid.fclass = FI_CLASS_AV;
	av->fid.fid.context = context;
	av->fid.fid.ops = &uet_av_fi_ops;
	av->fid.ops = &uet_av_ops;
	atomic_fetch_add(&dom->ref, 1);
	uet_av_shm_import(av);
	*out = &av->fid;
	return 0;

err_map:
	uet_hashmap_fini(&av->rev);
err_lock:
	pthread_mutex_destroy(&av->lock);
err_free:
	free(av);
	return ret;
}
