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
 * An AV opened without FI_READ creates the table anew and is its only
 * writer: every insert is published to the slot of its fi_addr (address
 * first, then state and map with release ordering, then the count),
 * every remove clears it.  The writer unlinks the name when it closes
 * (if the name is still its table).  An AV opened with FI_READ maps an
 * existing table read-only (-FI_ENOENT when there is none) and imports
 * its addresses into the same slots, so fi_addr values mean the same in
 * every process; addresses published later are imported when an
 * fi_addr it does not know yet is used.  Removals by the writer after a
 * reader imported the slot are not seen by that reader.
 *
 * The table is host memory shared by processes of one machine: fields
 * are in host byte order and the layout is checked by static asserts.
 *
 * Other local users can create objects in /dev/shm under any name, and
 * write to objects that give them write permission (issue 30).  So a
 * table is created with O_EXCL and mode 0600; an object found under the
 * name is replaced only when it belongs to this user (a crashed run's),
 * and refused (-FI_EPERM) otherwise.  A reader attaches only to a
 * regular file of this user that neither its group nor others may
 * write; then only this user can change the table under it.  The
 * geometry is read from the header once, checked against the size
 * fstat gives, and never read again; every entry is checked before its
 * address is used.  A malformed table gives -FI_EINVAL, not a crash.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
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
#define UET_AV_SHM_MODE		0600
/* Objects of this user under the name replaced before giving up. */
#define UET_AV_SHM_TRIES	3

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

/* The header's fields as read once from shared memory. */
struct uet_av_shm_geom {
	uint64_t magic;
	uint32_t version;
	uint32_t cap;
	uint32_t entry_size;
	uint64_t map_off;
	uint64_t entry_off;
};

struct uet_av_shm {
	char name[sizeof(UET_AV_SHM_PREFIX) + UET_AV_SHM_NAME_MAX];
	bool writer;
	dev_t dev;			/* writer: its object */
	ino_t ino;
	void *base;
	size_t size;
	struct uet_av_shm_hdr *hdr;
	fi_addr_t *map;
	struct uet_av_shm_entry *ent;
	uint32_t cap;			/* private: never re-read */
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

/* A field of shared memory read exactly once: the compiler may not
 * load it again later in place of the copy. */
static uint32_t uet_av_shm_load32(const void *p)
{
	return *(const volatile uint32_t *)p;
}

static uint64_t uet_av_shm_load64(const void *p)
{
	return *(const volatile uint64_t *)p;
}

/* The arrays of a table of cap slots, from cap alone (the offsets are
 * fixed by it; the header's copies are only checked). */
static void uet_av_shm_layout(struct uet_av_shm *s, uint32_t cap)
{
	s->hdr = s->base;
	s->map = (fi_addr_t *)((uint8_t *)s->base + sizeof(*s->hdr));
	s->ent = (struct uet_av_shm_entry *)((uint8_t *)s->base +
					     sizeof(*s->hdr) +
					     (size_t)cap * sizeof(fi_addr_t));
	s->cap = cap;
}

/* A new object under the name, created by us with O_EXCL.  One already
 * there that belongs to this user (a stale table of a crashed run) is
 * removed and the creation tried again; one of another user is left
 * alone: -FI_EPERM. */
static int uet_av_shm_create_fd(struct uet_av_shm *s)
{
	struct stat st;
	int fd, i, ret;

	for (i = 0; i < UET_AV_SHM_TRIES; i++) {
		fd = shm_open(s->name, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC,
			      UET_AV_SHM_MODE);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			return -errno;
		/* O_NONBLOCK: a FIFO under the name must not block us. */
		fd = shm_open(s->name, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
		if (fd < 0) {
			if (errno == ENOENT)
				continue;	/* removed meanwhile */
			return -errno;
		}
		ret = fstat(fd, &st) ? -errno : 0;
		close(fd);
		if (ret)
			return ret;
		if (st.st_uid != geteuid()) {
			UET_WARN(FI_LOG_AV, "%s exists and belongs to uid %u, not to this user: not replaced\n",
				 s->name, (unsigned int)st.st_uid);
			return -FI_EPERM;
		}
		UET_INFO(FI_LOG_AV, "replacing %s, left by an earlier run\n",
			 s->name);
		if (shm_unlink(s->name) && errno != ENOENT)
			return -errno;
	}
	UET_WARN(FI_LOG_AV, "%s keeps reappearing: not created\n", s->name);
	return -FI_EBUSY;
}

static int uet_av_shm_create(struct uet_av_shm *s, size_t count)
{
	uint32_t cap = count > UET_AV_SHM_MIN_CAP ? (uint32_t)count :
		       UET_AV_SHM_MIN_CAP;
	struct uet_av_shm_hdr *h;
	struct stat st;
	uint32_t i;
	int fd, ret;

	if (count > UET_AV_SHM_MAX_CAP)
		return -FI_EINVAL;
	fd = uet_av_shm_create_fd(s);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st)) {
		ret = -errno;
		goto err_unlink;
	}
	s->dev = st.st_dev;
	s->ino = st.st_ino;
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
	uet_av_shm_layout(s, cap);
	for (i = 0; i < cap; i++)
		s->map[i] = FI_ADDR_NOTAVAIL;
	/* The magic last: a reader that sees it sees the rest. */
	atomic_thread_fence(memory_order_release);
	h->magic = UET_AV_SHM_MAGIC;
	s->writer = true;
	return 0;

err_unlink:
	close(fd);
	shm_unlink(s->name);
	return ret;
}

/* A reader attaches only to what this user alone can write: a regular
 * file (not a FIFO or device planted under the name) of the effective
 * user, not writable by its group or others. */
static int uet_av_shm_check_owner(const struct uet_av_shm *s,
				  const struct stat *st)
{
	if (!S_ISREG(st->st_mode)) {
		UET_WARN(FI_LOG_AV, "%s is not a regular file\n", s->name);
		return -FI_EPERM;
	}
	if (st->st_uid != geteuid()) {
		UET_WARN(FI_LOG_AV, "%s belongs to uid %u, not to this user\n",
			 s->name, (unsigned int)st->st_uid);
		return -FI_EPERM;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		UET_WARN(FI_LOG_AV, "%s is writable by others (mode %o)\n",
			 s->name, (unsigned int)(st->st_mode & 07777));
		return -FI_EPERM;
	}
	return 0;
}

static void uet_av_shm_read_geom(const struct uet_av_shm_hdr *h,
				 struct uet_av_shm_geom *g)
{
	g->magic = uet_av_shm_load64(&h->magic);
	g->version = uet_av_shm_load32(&h->version);
	g->cap = uet_av_shm_load32(&h->cap);
	g->entry_size = uet_av_shm_load32(&h->entry_size);
	g->map_off = uet_av_shm_load64(&h->map_off);
	g->entry_off = uet_av_shm_load64(&h->entry_off);
}

/* The copy g describes a table of exactly size bytes, as
 * uet_av_shm_create lays it out. */
static bool uet_av_shm_geom_ok(const struct uet_av_shm_geom *g, size_t size)
{
	return g->magic == UET_AV_SHM_MAGIC &&
	       g->version == UET_AV_SHM_VERSION &&
	       g->entry_size == sizeof(struct uet_av_shm_entry) &&
	       g->cap && g->cap <= UET_AV_SHM_MAX_CAP &&
	       g->map_off == sizeof(struct uet_av_shm_hdr) &&
	       g->entry_off == sizeof(struct uet_av_shm_hdr) +
			       (uint64_t)g->cap * sizeof(fi_addr_t) &&
	       uet_av_shm_size(g->cap) == size;
}

static int uet_av_shm_attach(struct uet_av_shm *s)
{
	struct uet_av_shm_geom g;
	struct stat st;
	int fd, ret;

	/* O_NONBLOCK: a FIFO under the name must not block us. */
	fd = shm_open(s->name, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
	if (fd < 0)
		return errno == ENOENT ? -FI_ENOENT : -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		goto err_close;
	}
	ret = uet_av_shm_check_owner(s, &st);
	if (ret)
		goto err_close;
	/*
	 * Map what exists and nothing past it: every offset used later is
	 * checked to lie within this size.  The object could still shrink
	 * afterwards (and an access past its new end raise SIGBUS), but
	 * only its owner can do that, and its owner is this user (checked
	 * above): that is the defence, not the size check.
	 */
	if ((uint64_t)st.st_size < sizeof(struct uet_av_shm_hdr) ||
	    (uint64_t)st.st_size > uet_av_shm_size(UET_AV_SHM_MAX_CAP)) {
		UET_WARN(FI_LOG_AV, "%s is not a uet AV table (%jd bytes)\n",
			 s->name, (intmax_t)st.st_size);
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
	uet_av_shm_read_geom(s->base, &g);
	if (!uet_av_shm_geom_ok(&g, s->size)) {
		ret = -FI_EINVAL;
		goto err_unmap;
	}
	atomic_thread_fence(memory_order_acquire);
	uet_av_shm_layout(s, g.cap);
	s->writer = false;
	return 0;

err_unmap:
	munmap(s->base, s->size);
	UET_WARN(FI_LOG_AV, "%s is not a uet AV table\n", s->name);
	return ret;
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

/* Remove the name if it is still the writer's object: a writer of the
 * same name opened since replaced it, and keeps it. */
static void uet_av_shm_unlink_own(const struct uet_av_shm *s)
{
	struct stat st;
	int fd, ret;

	fd = shm_open(s->name, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
	if (fd < 0)
		return;
	ret = fstat(fd, &st);
	close(fd);
	if (!ret && st.st_dev == s->dev && st.st_ino == s->ino)
		shm_unlink(s->name);
}

void uet_av_shm_close(struct uet_av_shm *s)
{
	if (!s)
		return;
	munmap(s->base, s->size);
	if (s->writer)
		uet_av_shm_unlink_own(s);
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
	const struct uet_av_shm_entry *e;
	uint8_t raw[UET_ADDR_RAW_MAX];
	uint32_t len;

	if (i >= s->cap)
		return -FI_EINVAL;
	e = &s->ent[i];
	if (atomic_load_explicit(&e->state, memory_order_acquire) !=
	    UET_AV_SHM_USED)
		return -FI_ENOENT;
	/* The length once, then the bytes into our copy, then the checks
	 * of uet_addr_from_raw on that copy. */
	len = uet_av_shm_load32(&e->len);
	if (len > sizeof(raw)) {
		UET_WARN_ONCE(FI_LOG_AV, "%s: slot %zu has a bad address length %u\n",
			      s->name, i, len);
		return -FI_EINVAL;
	}
	memcpy(raw, e->raw, len);
	return uet_addr_from_raw(a, raw, len);
}
