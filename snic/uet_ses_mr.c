/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SES: the RI table, the memory this NIC lets its peers access.
 *
 * Provider keys index a slot array: key = UET_SES_MKEY_PROV | tag << 32 |
 * slot.  A slot's 31-bit tag starts random and moves on by a random step
 * (1..65536) when its registration goes, so a key kept after
 * uet_ses_mr_dereg() is recognised as stale (UET_RC_BAD_GENERATION)
 * rather than unknown (UET_RC_BAD_MKEY) and never matches the slot's
 * next registrations (the tag comes back only after at least 32768 of
 * them), and keys cannot be predicted from one another.  The low byte of
 * the tag is the ri_generation on the wire.  Free slots are kept on a
 * FIFO list and reused oldest first.
 * The array grows by doubling; registrations are allocated one by one,
 * so pointers to them (replies in progress) stay valid.
 *
 * A registration may be several segments (up to UET_SES_MR_SEGS_MAX, the
 * provider's mr_iov_limit): the region is their bytes one after the
 * other; accesses are checked against the whole and copied segment by
 * segment (uet_ses_mr_put / uet_ses_mr_get).
 *
 * Device memory (devmem: the provider's accelerator runtime owns it) is
 * never addressed directly: uet_ses_mr_put / _get copy through the mem
 * ops the device was given (uet_ses_set_mem_ops), reads are answered
 * from a host copy and atomics applied to one (uet_ses_rma.c).
 *
 * User keys (bit 63 clear) live in a hash map by the full key.  Their
 * generation is byte 4 of the key (UET_SES_MKEY_GEN), which the initiator
 * also puts in ri_generation, so the generation check passes for them.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_csprng.h"
#include "uet_log.h"
#include "uet_ses_internal.h"
#include "uet_rand.h"

/* Slots allocated at first use. */
#define UET_SES_MR_SLOTS_INIT	64u

int uet_ses_mr_init(struct uet_ses *ses)
{
	ses->mr_slots = NULL;
	ses->mr_nslots = 0;
	ses->mr_cap = 0;
	ses->mr_free_head = UET_SES_MR_NONE;
	ses->mr_free_tail = UET_SES_MR_NONE;
	return uet_hashmap_init(&ses->mr_user, 0, 0);
}

void uet_ses_mr_fini(struct uet_ses *ses)
{
	struct uet_hashmap_iter it;
	struct uet_hnode *n;
	uint64_t i;

	for (i = 0; i < ses->mr_nslots; i++)
		free(ses->mr_slots[i].mr);
	free(ses->mr_slots);
	ses->mr_slots = NULL;
	ses->mr_nslots = 0;
	uet_hashmap_foreach(&ses->mr_user, &it, n)
		free(uet_container_of(n, struct uet_ses_mr, node));
	uet_hashmap_fini(&ses->mr_user);
}

static bool ses_mkey_is_prov(uint64_t key)
{
	return (key & UET_SES_MKEY_PROV) != 0;
}

static uint64_t ses_mkey_slot(uint64_t key)
{
	return key & 0xffffffffull;
}

#define UET_SES_MKEY_TAG_MASK	0x7fffffffu

static uint64_t ses_mkey_make(uint64_t slot, uint32_t tag)
{
	return UET_SES_MKEY_PROV | (uint64_t)tag << 32 | slot;
}

static uint32_t ses_mkey_tag(uint64_t key)
{
	return (uint32_t)(key >> 32) & UET_SES_MKEY_TAG_MASK;
}

/* The CSPRNG; xorshift64* over a test's fixed key_seed. */
static uint64_t ses_mr_rand(struct uet_ses *ses)
{
	if (ses->mr_rng)
		return uet_rand_next(&ses->mr_rng);
	return uet_csprng_u64();
}

/* A free slot index (oldest freed first, else a new one), off the free
 * list; -ENOMEM / -ENOSPC. */
static int ses_mr_slot_get(struct uet_ses *ses, uint64_t *slot)
{
	struct uet_ses_mr_slot *a;
	uint64_t cap;

	if (ses->mr_free_head != UET_SES_MR_NONE) {
		*slot = ses->mr_free_head;
		ses->mr_free_head = ses->mr_slots[*slot].next_free;
		if (ses->mr_free_head == UET_SES_MR_NONE)
			ses->mr_free_tail = UET_SES_MR_NONE;
		return 0;
	}
	if (ses->mr_nslots >= UET_SES_MR_SLOTS_MAX)
		return -ENOSPC;
	if (ses->mr_nslots == ses->mr_cap) {
		cap = ses->mr_cap ? ses->mr_cap * 2 : UET_SES_MR_SLOTS_INIT;
		if (cap > UET_SES_MR_SLOTS_MAX)
			cap = UET_SES_MR_SLOTS_MAX;
		if (cap > SIZE_MAX / sizeof(*a))
			return -ENOMEM;
		a = realloc(ses->mr_slots, (size_t)cap * sizeof(*a));
		if (!a)
			return -ENOMEM;
		ses->mr_slots = a;
		ses->mr_cap = cap;
	}
	*slot = ses->mr_nslots++;
	memset(&ses->mr_slots[*slot], 0, sizeof(ses->mr_slots[*slot]));
	ses->mr_slots[*slot].next_free = UET_SES_MR_NONE;
	ses->mr_slots[*slot].gen = (uint32_t)ses_mr_rand(ses) &
				   UET_SES_MKEY_TAG_MASK;
	return 0;
}

/* Slot goes to the tail of the free list. */
static void ses_mr_slot_put(struct uet_ses *ses, uint64_t slot)
{
	struct uet_ses_mr_slot *s = &ses->mr_slots[slot];

	s->mr = NULL;
	s->next_free = UET_SES_MR_NONE;
	if (ses->mr_free_tail == UET_SES_MR_NONE)
		ses->mr_free_head = slot;
	else
		ses->mr_slots[ses->mr_free_tail].next_free = slot;
	ses->mr_free_tail = slot;
}

/*
 * The segments of a: one (addr, len) or a->segs, with their offsets in
 * the region; -EINVAL for a segment of bytes at NULL, one that wraps
 * the address space or a total above SIZE_MAX.
 */
static int ses_mr_segs_set(struct uet_ses_mr *mr,
			   const struct uet_ses_mr_attr *a)
{
	const struct iovec one = { .iov_base = a->addr, .iov_len = a->len };
	const struct iovec *v = a->nsegs ? a->segs : &one;
	size_t i, n = a->nsegs ? a->nsegs : 1;
	uint64_t total = 0;

	for (i = 0; i < n; i++) {
		if (v[i].iov_len && !v[i].iov_base)
			return -EINVAL;
		if ((uint64_t)v[i].iov_len >
		    UINT64_MAX - (uint64_t)(uintptr_t)v[i].iov_base)
			return -EINVAL;
		if ((uint64_t)v[i].iov_len > (uint64_t)SIZE_MAX - total)
			return -EINVAL;
		mr->segs[i] = v[i];
		mr->seg_off[i] = total;
		total += v[i].iov_len;
	}
	mr->nsegs = n;
	mr->addr = v[0].iov_base;
	mr->len = total;
	return 0;
}

/* The segment holding region byte moff (< mr->len), the last one for
 * moff == mr->len. */
static size_t ses_mr_seg_of(const struct uet_ses_mr *mr, uint64_t moff)
{
	size_t i = 0;

	while (i + 1 < mr->nsegs && moff >= mr->seg_off[i + 1])
		i++;
	/* empty segments: move on to the one that holds the byte */
	while (i + 1 < mr->nsegs && moff >= mr->seg_off[i] +
	       mr->segs[i].iov_len)
		i++;
	return i;
}

bool uet_ses_mr_contig(const struct uet_ses_mr *mr, uint64_t moff,
		       uint64_t len)
{
	size_t i;

	if (mr->nsegs <= 1 || !len)
		return true;
	i = ses_mr_seg_of(mr, moff);
	return len <= mr->seg_off[i] + mr->segs[i].iov_len - moff;
}

/* Which way ses_mr_copy copies. */
enum ses_mr_dir {
	SES_MR_INTO,		/* buf -> region */
	SES_MR_OUT_OF,		/* region -> buf */
};

/* n bytes between seg (in the region) and buf. */
static int ses_mr_copy_one(const struct uet_ses_mr *mr, uint8_t *seg,
			   uint8_t *buf, size_t n, enum ses_mr_dir dir)
{
	const struct uet_ses_mem_ops *m = mr->mops;

	if (!mr->devmem) {
		if (dir == SES_MR_INTO)
			memcpy(seg, buf, n);
		else
			memcpy(buf, seg, n);
		return 0;
	}
	if (dir == SES_MR_INTO)
		return m->to_dev(m->ctx, seg, buf, n) ? -EIO : 0;
	return m->from_dev(m->ctx, buf, seg, n) ? -EIO : 0;
}

static int ses_mr_copy(const struct uet_ses_mr *mr, uint64_t moff,
		       uint8_t *buf, uint64_t len, enum ses_mr_dir dir)
{
	uint8_t *seg;
	uint64_t n;
	size_t i;

	if (!len)
		return 0;
	for (i = ses_mr_seg_of(mr, moff); len && i < mr->nsegs; i++) {
		seg = (uint8_t *)mr->segs[i].iov_base + (moff - mr->seg_off[i]);
		n = mr->segs[i].iov_len - (moff - mr->seg_off[i]);
		if (n > len)
			n = len;
		if (ses_mr_copy_one(mr, seg, buf, (size_t)n, dir))
			return -EIO;
		buf += n;
		len -= n;
		moff += n;
	}
	return 0;
}

int uet_ses_mr_put(const struct uet_ses_mr *mr, uint64_t moff,
		   const void *src, uint64_t len)
{
	/* SES_MR_INTO only reads buf. */
	return ses_mr_copy(mr, moff, (uint8_t *)(uintptr_t)src, len,
			   SES_MR_INTO);
}

int uet_ses_mr_get(const struct uet_ses_mr *mr, uint64_t moff, void *dst,
		   uint64_t len)
{
	return ses_mr_copy(mr, moff, dst, len, SES_MR_OUT_OF);
}

void uet_ses_set_mem_ops(struct uet_ses *ses,
			 const struct uet_ses_mem_ops *ops)
{
	if (ops)
		ses->mem_ops = *ops;
	else
		memset(&ses->mem_ops, 0, sizeof(ses->mem_ops));
}

uint64_t uet_ses_mr_gather(const struct uet_ses_mr *mr, uint64_t moff,
			   uint64_t max, struct iovec *out,
			   unsigned int outmax, unsigned int *outcnt)
{
	unsigned int cnt = 0;
	uint64_t got = 0, n, in;
	size_t i;

	if (max && moff < mr->len) {
		for (i = ses_mr_seg_of(mr, moff); i < mr->nsegs && got < max;
		     i++) {
			in = moff - mr->seg_off[i];
			n = mr->segs[i].iov_len - in;
			if (!n)
				continue;	/* an empty segment */
			if (cnt == outmax)
				break;
			if (n > max - got)
				n = max - got;
			out[cnt].iov_base = (uint8_t *)mr->segs[i].iov_base +
					    in;
			out[cnt].iov_len = (size_t)n;
			cnt++;
			got += n;
			moff += n;
		}
	}
	*outcnt = cnt;
	return got;
}

void uet_ses_mr_pkt_add(struct uet_ses_mr *mr, struct uet_ses_pkt *pkt)
{
	pkt->mr = mr;
	uet_dlist_insert_tail(&mr->pkts, &pkt->mr_entry);
	mr->npkts++;
}

void uet_ses_mr_pkt_del(struct uet_ses_pkt *pkt)
{
	if (!pkt->mr)
		return;
	uet_dlist_remove(&pkt->mr_entry);
	pkt->mr->npkts--;
	pkt->mr = NULL;
}

/*
 * Copy on deregistration: the payload of every packet still referring
 * to mr's memory moves into a NIC buffer (bounce_pool), so that PDS
 * retransmits the bytes the packet was built with and never reads the
 * memory again.  All the buffers are taken first: -ENOMEM with nothing
 * changed when one is missing.
 */
static int ses_mr_pkts_copy(struct uet_ses *ses, struct uet_ses_mr *mr)
{
	struct uet_ses_pkt *pkt, *undo;
	uint8_t *b;
	unsigned int i;

	uet_dlist_foreach_entry(&mr->pkts, pkt, mr_entry) {
		pkt->bounce = uet_bufpool_get(uet_ses_bounce_pool(ses,
								  pkt->len));
		if (!pkt->bounce)
			goto err_put_bounces;
	}
	while ((pkt = uet_dlist_first_entry(&mr->pkts, struct uet_ses_pkt,
					    mr_entry)) != NULL) {
		b = pkt->bounce;
		for (i = 0; i < pkt->pds.iovcnt; i++) {
			memcpy(b, pkt->pds.iov[i].iov_base,
			       pkt->pds.iov[i].iov_len);
			b += pkt->pds.iov[i].iov_len;
		}
		pkt->pds.iov[0].iov_base = pkt->bounce;
		pkt->pds.iov[0].iov_len = pkt->len;
		pkt->pds.iovcnt = 1;
		ses->stats.reply_copy_bytes += pkt->len;
		uet_ses_mr_pkt_del(pkt);
	}
	return 0;

err_put_bounces:
	uet_dlist_foreach_entry(&mr->pkts, undo, mr_entry) {
		if (undo == pkt)
			break;
		uet_bufpool_put(uet_ses_bounce_pool(ses, undo->len),
				undo->bounce);
		undo->bounce = NULL;
	}
	UET_WARN(UET_LOG_MR,
		 "SES: no memory to copy %u reply packets in flight\n",
		 mr->npkts);
	return -ENOMEM;
}

int uet_ses_mr_reg(struct uet_ses *ses, const struct uet_ses_mr_attr *a,
		   uint64_t *key)
{
	struct uet_ses_mr *mr;
	uint64_t slot;
	int ret;

	if (!ses || !a || !key || ses->closing || ses->zombie)
		return -EINVAL;
	if (a->access & ~(UET_SES_ACC_REMOTE_READ | UET_SES_ACC_REMOTE_WRITE))
		return -EINVAL;
	if (a->nsegs > UET_SES_MR_SEGS_MAX || (a->nsegs && !a->segs))
		return -EINVAL;
	if (!a->nsegs && ((!a->addr && a->len) ||
			  (uint64_t)a->len >
			  UINT64_MAX - (uint64_t)(uintptr_t)a->addr))
		return -EINVAL;
	if (a->user_key && ses_mkey_is_prov(a->requested_key))
		return -EINVAL;
	if (a->devmem && (!ses->mem_ops.to_dev || !ses->mem_ops.from_dev))
		return -EINVAL;
	if (a->user_key &&
	    uet_hashmap_lookup_u64(&ses->mr_user, a->requested_key))
		return -EEXIST;

	mr = calloc(1, sizeof(*mr));
	if (!mr)
		return -ENOMEM;
	ret = ses_mr_segs_set(mr, a);
	if (ret)
		goto err_free;
	mr->access = a->access;
	mr->virt_addr = a->virt_addr;
	mr->devmem = a->devmem;
	mr->mops = &ses->mem_ops;
	uet_dlist_init(&mr->replies);
	uet_dlist_init(&mr->pkts);
	if (a->user_key) {
		mr->user = true;
		mr->key = a->requested_key;
		mr->gen = UET_SES_MKEY_GEN(mr->key);
		ret = uet_hashmap_insert_u64(&ses->mr_user, &mr->node,
					     mr->key);
		if (ret)
			goto err_free;
	} else {
		ret = ses_mr_slot_get(ses, &slot);
		if (ret)
			goto err_free;
		mr->key = ses_mkey_make(slot, ses->mr_slots[slot].gen);
		mr->gen = UET_SES_MKEY_GEN(mr->key);
		ses->mr_slots[slot].mr = mr;
	}
	*key = mr->key;
	return 0;

err_free:
	free(mr);
	return ret;
}

/*
 * The registration of key: NULL and *rc = UET_RC_BAD_GENERATION (a
 * provider key of a slot that now has another generation: its
 * registration went) or UET_RC_BAD_MKEY (never a key here).
 */
static struct uet_ses_mr *ses_mr_find(struct uet_ses *ses, uint64_t key,
				      uint8_t *rc)
{
	struct uet_ses_mr_slot *s;
	struct uet_hnode *n;
	uint64_t slot;

	if (!ses_mkey_is_prov(key)) {
		n = uet_hashmap_lookup_u64(&ses->mr_user, key);
		if (n)
			return uet_container_of(n, struct uet_ses_mr, node);
		*rc = UET_RC_BAD_MKEY;
		return NULL;
	}
	slot = ses_mkey_slot(key);
	if (slot >= ses->mr_nslots) {
		*rc = UET_RC_BAD_MKEY;
		return NULL;
	}
	s = &ses->mr_slots[slot];
	if (s->gen != ses_mkey_tag(key)) {
		*rc = UET_RC_BAD_GENERATION;
		return NULL;
	}
	if (!s->mr) {
		*rc = UET_RC_BAD_MKEY;	/* a generation not yet handed out */
		return NULL;
	}
	return s->mr;
}

int uet_ses_mr_dereg(struct uet_ses *ses, uint64_t key)
{
	struct uet_ses_reply *rp;
	struct uet_ses_mr *mr;
	struct uet_dlist *e;
	uint8_t rc;

	if (!ses)
		return -ENOENT;
	mr = ses_mr_find(ses, key, &rc);
	if (!mr)
		return -ENOENT;
	if (ses_mr_pkts_copy(ses, mr))
		return -ENOMEM;
	if (mr->user) {
		uet_hashmap_remove(&ses->mr_user, &mr->node);
	} else {
		ses->mr_slots[ses_mkey_slot(key)].gen =
			(ses->mr_slots[ses_mkey_slot(key)].gen + 1 +
			 (uint32_t)(ses_mr_rand(ses) & 0xffff)) &
			UET_SES_MKEY_TAG_MASK;
		ses_mr_slot_put(ses, ses_mkey_slot(key));
	}
	/* Reads being answered from it stop; the reader is told what a new
	 * request with this key would get now. */
	(void)ses_mr_find(ses, key, &rc);
	uet_ses_enter(ses);
	while ((e = uet_dlist_pop_head(&mr->replies)) != NULL) {
		rp = uet_container_of(e, struct uet_ses_reply, mr_entry);
		uet_dlist_init(&rp->mr_entry);
		rp->mr = NULL;
		rp->src = NULL;
		uet_ses_reply_stop(ses, rp, rc);
	}
	uet_ses_push(ses);
	uet_ses_leave(ses);
	free(mr);
	return 0;
}

static void ses_mr_refuse(struct uet_ses *ses, uint8_t rc, uint64_t key,
			  uint64_t addr, uint64_t len)
{
	switch (rc) {
	case UET_RC_BAD_MKEY:
		ses->stats.rma_bad_key++;
		break;
	case UET_RC_BAD_GENERATION:
		ses->stats.rma_bad_gen++;
		break;
	case UET_RC_PERM_VIOLATION:
		ses->stats.rma_perm++;
		break;
	default:
		ses->stats.rma_range++;
		break;
	}
	UET_DBG(UET_LOG_EP_DATA,
		"SES: remote access refused (rc %u): key %#llx addr %#llx len %llu\n",
		rc, (unsigned long long)key, (unsigned long long)addr,
		(unsigned long long)len);
}

uint8_t uet_ses_mr_access(struct uet_ses *ses, uint64_t key, uint8_t ri_gen,
			  uint32_t need, uint64_t addr, uint64_t len,
			  struct uet_ses_mr **out, uint64_t *moff,
			  uint8_t **ptr)
{
	struct uet_ses_mr *mr;
	uint64_t base, start;
	size_t i;
	uint8_t rc;

	mr = ses_mr_find(ses, key, &rc);
	if (!mr)
		goto err_refuse;
	rc = UET_RC_BAD_GENERATION;
	if (ri_gen != mr->gen)
		goto err_refuse;
	rc = UET_RC_PERM_VIOLATION;
	if ((mr->access & need) != need)
		goto err_refuse;
	rc = UET_RC_AT_OUT_OF_RANGE;
	base = (uint64_t)(uintptr_t)mr->addr;
	if (mr->virt_addr) {
		start = addr;
	} else {
		if (addr > UINT64_MAX - base)
			goto err_refuse;
		start = base + addr;
	}
	if (start < base || start - base > mr->len ||
	    len > mr->len - (start - base))
		goto err_refuse;
	*out = mr;
	*moff = start - base;
	if (!mr->len) {
		*ptr = NULL;
	} else if (mr->nsegs <= 1) {
		*ptr = mr->addr + (start - base);
	} else {
		i = ses_mr_seg_of(mr, *moff);
		*ptr = (uint8_t *)mr->segs[i].iov_base +
		       (*moff - mr->seg_off[i]);
	}
	return UET_RC_OK;

err_refuse:
	ses_mr_refuse(ses, rc, key, addr, len);
	return rc;
}
