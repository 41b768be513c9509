/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Named address vectors shared between the processes of a host
 * (fi_av_open with attr->name; fi_av(3)).
 *
 * The table lives in POSIX shared memory, /fi_uet_av.<name> (characters
 * other than letters, digits, '.', '-' and '_' become '_'), with a fixed
 * layout:
 *
 *   header   struct uet_av_shm_hdr (64 bytes): magic, layout version,
 *            capacity, the number of slots published (one past the
 *            highest), offsets of the two arrays
 *   map      fi_addr_t[cap]: map[i] = i when slot i holds an address,
 *            FI_ADDR_NOTAVAIL when not.  This is what attr->map_addr
 *            points at (fabtests' fi_rdm_shared_av reads map_addr[0]).
 *   entries  struct uet_av_shm_entry[cap] (64 bytes each): state and the
 *            raw endpoint address (the fi_getname bytes)
 *
 * An AV opened without FI_READ creates the table anew (replacing one of
 * the same name) and is its only writer: every insert is published to
 * the slot of its fi_addr (address first, then state and map with
 * release ordering, then the count), every remove clears it.  The writer
 * unlinks the name when it closes.  An AV opened with FI_READ maps an
 * existing table read-only (-FI_ENOENT when there is none) and imports
 * its addresses into the same slots, so fi_addr values mean the same in
 * every process; addresses published later are imported when an
 * fi_addr it does not know yet is used.  Removals by the writer after a
 * reader imported the slot are not seen by that reader.
 *
 * The table is host memory shared by processes of one machine: fields
 * are in host byte order and the layout is checked by static asserts.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uet_prov.h"

#define UET_AV_SHM_MAGIC	0x3156414e54455531ull	/* "1UETNAV1" */
#define UET_AV_SHM_VERSION	1u
#define UET_AV_SHM_MIN_CAP	1024u
#define UET_AV_SHM_MAX_CAP	(1u << 20)
#define UET_AV_SHM_NAME_MAX	200
#define UET_AV_SHM_PREFIX	"/fi_uet_av."

struct uet_av_shm_hdr {
	uint64_t magic;
	uint32_t version;
	uint32_t cap;
	_Atomic uint32_t count;		/* slots published: highest + 1 */
	uint32_t entry_size;
	uint64_t map_off;
	uint64_t entry_off;
	uint8_t reserved[24];
};

enum {
	UET_AV_SHM_FREE = 0,
	UET_AV_SHM_USED = 1,
};

struct uet_av_shm_entry {
	_Atomic uint32_t state;
	uint32_t len;			/* bytes of raw */
	uint8_t raw[UET_ADDR_RAW_MAX];
	uint8_t reserved[64 - 8 - UET_ADDR_RAW_MAX];
};

_Static_assert(sizeof(struct uet_av_shm_hdr) == 64, "header layout");
_Static_assert(sizeof(struct uet_av_shm_entry) == 64, "entry layout");
_Static_assert(sizeof(fi_addr_t) == 8, "map layout");

struct uet_av_shm {
	char name[sizeof(UET_AV_SHM_PREFIX) + UET_AV_SHM_NAME_MAX];
	bool writer;
	void *base;
	size_t size;
	struct uet_av_shm_hdr *hdr;
	fi_addr_t *map;
	struct uet_av_shm_entry *ent;
	uint32_t cap;
};

static size_t uet_av_shm_size(uint32_t cap)
{
	return sizeof(struct uet_av_shm_hdr) + (size_t)cap * sizeof(fi_addr_t) +
	       (size_t)cap * sizeof(struct uet_av_shm_entry);
}

static int uet_av_shm_name(const char *name, char *out, size_t len)
{
	size_t n = strlen(name), i, p = strlen(UET_AV_SHM_PREFIX);
	char c;

	if (!n || n > UET_AV_SHM_NAME_MAX || p + n + 1 > len)
		return -FI_EINVAL;
	memcpy(out, UET_AV_SHM_PREFIX, p);
	for (i = 0; i < n; i++) {
		c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '-' ||
		      c == '_'))
			c = '_';
		out[p + i] = c;
	}
	out[p + n] = '\0';
	return 0;
}

static void uet_av_shm_layout(struct uet_av_shm *s)
{
	s->hdr = s->base;
	s->map = (fi_addr_t *)((uint8_t *)s->base + s->hdr->map_off);
	s->ent = (struct uet_av_shm_entry *)((uint8_t *)s->base +
					     s->hdr->entry_off);
}

static int uet_av_shm_create(struct uet_av_shm *s, size_t count)
{
	uint32_t cap = count > UET_AV_SHM_MIN_CAP ? (uint32_t)count :
		       UET_AV_SHM_MIN_CAP;
	struct uet_av_shm_hdr *h;
	uint32_t i;
	int fd, ret;

	if (count > UET_AV_SHM_MAX_CAP)
		return -FI_EINVAL;
	fd = shm_open(s->name, O_CREAT | O_RDWR | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	s->size = uet_av_shm_size(cap);
	if (ftruncate(fd, (off_t)s->size)) {
		ret = -errno;
		goto err_unlink;
	}
	s->base = mmap(NULL, s->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       0);
	if (s->base == MAP_FAILED) {
		ret = -errno;
		goto err_unlink;
	}
	close(fd);
	h = s->base;
	h->version = UET_AV_SHM_VERSION;
	h->cap = cap;
	atomic_store_explicit(&h->count, 0, memory_order_relaxed);
	h->entry_size = sizeof(struct uet_av_shm_entry);
	h->map_off = sizeof(*h);
	h->entry_off = sizeof(*h) + (uint64_t)cap * sizeof(fi_addr_t);
	uet_av_shm_layout(s);
	for (i = 0; i < cap; i++)
		s->map[i] = FI_ADDR_NOTAVAIL;
	/* The magic last: a reader that sees it sees the rest. */
	atomic_thread_fence(memory_order_release);
	h->magic = UET_AV_SHM_MAGIC;
	s->cap = cap;
	s->writer = true;
	return 0;

err_unlink:
	close(fd);
	shm_unlink(s->name);
	return ret;
}

static int uet_av_shm_attach(struct uet_av_shm *s)
{
	const struct uet_av_shm_hdr *h;
	struct stat st;
	int fd, ret;

	fd = shm_open(s->name, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return errno == ENOENT ? -FI_ENOENT : -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		goto err_close;
	}
	if ((size_t)st.st_size < sizeof(*h)) {
		ret = -FI_EINVAL;
		goto err_close;
	}
	s->size = (size_t)st.st_size;
	s->base = mmap(NULL, s->size, PROT_READ, MAP_SHARED, fd, 0);
	if (s->base == MAP_FAILED) {
		ret = -errno;
		goto err_close;
	}
	close(fd);
	h = s->base;
	if (h->magic != UET_AV_SHM_MAGIC || h->version != UET_AV_SHM_VERSION ||
	    h->entry_size != sizeof(struct uet_av_shm_entry) ||
	    h->map_off != sizeof(*h) ||
	    h->entry_off != sizeof(*h) + (uint64_t)h->cap * sizeof(fi_addr_t) ||
	    uet_av_shm_size(h->cap) > s->size) {
		UET_WARN(FI_LOG_AV, "%s is not a uet AV table\n", s->name);
		munmap(s->base, s->size);
		return -FI_EINVAL;
	}
	atomic_thread_fence(memory_order_acquire);
	uet_av_shm_layout(s);
	s->cap = h->cap;
	s->writer = false;
	return 0;

err_close:
	close(fd);
	return ret;
}

int uet_av_shm_open(const struct fi_av_attr *attr, struct uet_av_shm **out)
{
	struct uet_av_shm *s;
	int ret;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -FI_ENOMEM;
	ret = uet_av_shm_name(attr->name, s->name, sizeof(s->name));
	if (ret)
		goto err_free;
	if (attr->flags & FI_READ)
		ret = uet_av_shm_attach(s);
	else
		ret = uet_av_shm_create(s, attr->count);
	if (ret) {
		UET_WARN(FI_LOG_AV, "opening shared AV %s: %s\n", s->name,
			 fi_strerror(-ret));
		goto err_free;
	}
	*out = s;
	return 0;

err_free:
	free(s);
	return ret;
}

void uet_av_shm_close(struct uet_av_shm *s)
{
	if (!s)
		return;
	munmap(s->base, s->size);
	if (s->writer)
		shm_unlink(s->name);
	free(s);
}

void *uet_av_shm_map_addr(struct uet_av_shm *s)
{
	return s->map;
}

bool uet_av_shm_writer(const struct uet_av_shm *s)
{
	return s->writer;
}

size_t uet_av_shm_cap(const struct uet_av_shm *s)
{
	return s->cap;
}

void uet_av_shm_publish(struct uet_av_shm *s, size_t i,
			const struct uet_addr *a)
{
	struct uet_av_shm_entry *e = &s->ent[i];
	uint32_t n;

	e->len = (uint32_t)uet_addr_to_raw(a, e->raw, sizeof(e->raw));
	atomic_store_explicit(&e->state, UET_AV_SHM_USED,
			      memory_order_release);
	s->map[i] = (fi_addr_t)i;
	n = atomic_load_explicit(&s->hdr->count, memory_order_relaxed);
	if (i + 1 > n)
		atomic_store_explicit(&s->hdr->count, (uint32_t)(i + 1),
				      memory_order_release);
}

void uet_av_shm_clear(struct uet_av_shm *s, size_t i)
{
	s->map[i] = FI_ADDR_NOTAVAIL;
	atomic_store_explicit(&s->ent[i].state, UET_AV_SHM_FREE,
			      memory_order_release);
}

size_t uet_av_shm_count(const struct uet_av_shm *s)
{
	uint32_t n = atomic_load_explicit(&s->hdr->count,
					  memory_order_acquire);

	return n < s->cap ? n : s->cap;
}

int uet_av_shm_entry(const struct uet_av_shm *s, size_t i,
		     struct uet_addr *a)
{
	const struct uet_av_shm_entry *e = &s->ent[i];
	uint8_t raw[UET_ADDR_RAW_MAX];
	uint32_t len;

	if (atomic_load_explicit(&e->state, memory_order_acquire) !=
	    UET_AV_SHM_USED)
		return -FI_ENOENT;
	len = e->len;
	if (len > sizeof(raw))
		return -FI_EINVAL;
	memcpy(raw, e->raw, len);
	return uet_addr_from_raw(a, raw, len);
}
