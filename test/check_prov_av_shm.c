/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Named (shared) address vectors (uet_av_shm.c): a writer AV and
 * FI_READ readers of the same name, in one process and across fork(),
 * with map_addr and fi_addr values that mean the same everywhere.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rdma/fi_errno.h>

#include "uet_clock.h"
#include "uet_prov.h"
#include "prov_test.h"
#include "uet_test.h"

#define API		FI_VERSION(1, 17)
#define WAIT_MS		10000

static struct fi_info *get_info(void)
{
	return uet_test_lo_info(API, FI_MSG | FI_SHARED_AV);
}

/* A unique name per run: tests of two builds may run at once. */
static void av_name(char *buf, size_t len, const char *what)
{
	snprintf(buf, len, "uet check/%s.%ld", what, (long)getpid());
}

static void addr_of(struct fid_ep *ep, uint8_t *buf, size_t *len)
{
	*len = 64;
	ck_assert_int_eq(fi_getname(&ep->fid, buf, len), 0);
}

START_TEST(test_named_av_objects)
{
	struct fi_info *info = get_info();
	struct fi_av_attr wa = { .type = FI_AV_TABLE };
	struct fi_av_attr ra = { .type = FI_AV_TABLE, .flags = FI_READ };
	uint8_t a[3][sizeof(struct sockaddr_in)], out[64];
	struct fid_fabric *fab;
	struct fid_domain *dom[2];
	struct fid_av *w, *r, *r2;
	fi_addr_t fa[3], rm;
	char name[64], longname[300];
	fi_addr_t *map;
	size_t len, i;

	av_name(name, sizeof(name), "objects");
	ck_assert_int_eq(uet_fabric(info->fabric_attr, &fab, NULL), 0);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(fi_domain(fab, info, &dom[i], NULL), 0);
	/* FI_READ needs a name, and a table of that name */
	ck_assert_int_eq(fi_av_open(dom[1], &ra, &r, NULL), -FI_EINVAL);
	ra.name = name;
	ck_assert_int_eq(fi_av_open(dom[1], &ra, &r, NULL), -FI_ENOENT);
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	wa.name = longname;
	ck_assert_int_eq(fi_av_open(dom[0], &wa, &w, NULL), -FI_EINVAL);

	/* the writer: map_addr is its fi_addr array */
	wa.name = name;
	ck_assert_int_eq(fi_av_open(dom[0], &wa, &w, NULL), 0);
	ck_assert_ptr_nonnull(wa.map_addr);
	map = wa.map_addr;
	ck_assert_uint_eq(map[0], FI_ADDR_NOTAVAIL);
	for (i = 0; i < 3; i++) {
		struct uet_addr ua;

		ck_assert_int_eq(uet_addr_resolve("127.0.0.1", "4800", AF_INET,
						  true, &ua), 0);
		ua.pid = (uint16_t)(i + 1);
		len = uet_addr_to_raw(&ua, a[i], sizeof(a[i]));
		ck_assert_uint_eq(len, sizeof(a[i]));
	}
	ck_assert_int_eq(fi_av_insert(w, a[0], 2, fa, 0, NULL), 2);
	ck_assert_uint_eq(fa[0], 0);
	ck_assert_uint_eq(fa[1], 1);
	ck_assert_uint_eq(map[0], 0);
	ck_assert_uint_eq(map[1], 1);

	/* a reader (another domain) sees the same slots, read-only */
	ck_assert_int_eq(fi_av_open(dom[1], &ra, &r, NULL), 0);
	map = ra.map_addr;
	ck_assert_ptr_nonnull(map);
	ck_assert_uint_eq(map[0], 0);
	ck_assert_uint_eq(map[1], 1);
	len = sizeof(out);
	ck_assert_int_eq(fi_av_lookup(r, 1, out, &len), 0);
	ck_assert_int_eq(memcmp(out, a[1], len), 0);
	ck_assert_int_eq(fi_av_insert(r, a[2], 1, NULL, 0, NULL), -FI_EPERM);
	rm = 0;
	ck_assert_int_eq(fi_av_remove(r, &rm, 1, 0), -FI_EPERM);
	/* published after the reader opened: imported when used */
	ck_assert_int_eq(fi_av_insert(w, a[2], 1, &fa[2], 0, NULL), 1);
	ck_assert_uint_eq(fa[2], 2);
	ck_assert_uint_eq(map[2], 2);
	len = sizeof(out);
	ck_assert_int_eq(fi_av_lookup(r, 2, out, &len), 0);
	ck_assert_int_eq(memcmp(out, a[2], len), 0);
	/* a remove shows in the table; the slot is reused */
	rm = 0;
	ck_assert_int_eq(fi_av_remove(w, &rm, 1, 0), 0);
	ck_assert_uint_eq(map[0], FI_ADDR_NOTAVAIL);
	ck_assert_int_eq(fi_av_insert(w, a[0], 1, &fa[0], 0, NULL), 1);
	ck_assert_uint_eq(fa[0], 0);
	ck_assert_uint_eq(map[0], 0);

	ck_assert_int_eq(fi_close(&r->fid), 0);
	/* closing the writer removes the name; readers keep theirs */
	ra.map_addr = NULL;
	ck_assert_int_eq(fi_av_open(dom[1], &ra, &r2, NULL), 0);
	ck_assert_int_eq(fi_close(&w->fid), 0);
	ra.map_addr = NULL;
	ck_assert_int_eq(fi_av_open(dom[1], &ra, &r, NULL), -FI_ENOENT);
	len = sizeof(out);
	ck_assert_int_eq(fi_av_lookup(r2, 2, out, &len), 0);
	ck_assert_int_eq(memcmp(out, a[2], len), 0);
	ck_assert_int_eq(fi_close(&r2->fid), 0);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(fi_close(&dom[i]->fid), 0);
	ck_assert_int_eq(fi_close(&fab->fid), 0);
	fi_freeinfo(info);
}
END_TEST

/* Child: open the table read-only (before the parent inserted anything),
 * say so on ready, wait for go, then send to map_addr[0]: the slot is
 * imported when the send uses it (fabtests' fi_rdm_shared_av order). */
static int child_send(const char *name, int ready, int go)
{
	struct fi_info *info = get_info();
	struct fi_av_attr ra = { .type = FI_AV_MAP, .flags = FI_READ,
				 .name = name };
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_CONTEXT };
	static char msg[32] = "from the child";
	struct fid_fabric *fab;
	struct fid_domain *dom;
	struct fid_av *av;
	struct fid_cq *cq;
	struct fid_ep *ep;
	struct fi_cq_entry e;
	uint64_t end = uet_clock_now_ns() + WAIT_MS * UET_NSEC_PER_MSEC;
	ssize_t ret;
	char c = 'r';

	if (uet_fabric(info->fabric_attr, &fab, NULL) ||
	    fi_domain(fab, info, &dom, NULL) ||
	    fi_av_open(dom, &ra, &av, NULL) ||
	    fi_cq_open(dom, &cqa, &cq, NULL) ||
	    fi_endpoint(dom, info, &ep, NULL) ||
	    fi_ep_bind(ep, &av->fid, 0) ||
	    fi_ep_bind(ep, &cq->fid, FI_TRANSMIT | FI_RECV) ||
	    fi_enable(ep) || !ra.map_addr)
		return 2;
	if (write(ready, &c, 1) != 1 || read(go, &c, 1) != 1)
		return 5;
	if (fi_send(ep, msg, sizeof(msg), NULL,
		    ((fi_addr_t *)ra.map_addr)[0], msg))
		return 3;
	do {
		ret = fi_cq_read(cq, &e, 1);
	} while (ret == -FI_EAGAIN && uet_clock_now_ns() < end);
	return ret == 1 && e.op_context == msg ? 0 : 4;
}

START_TEST(test_named_av_fork)
{
	struct fi_info *info = get_info();
	struct fi_av_attr wa = { .type = FI_AV_MAP };
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_CONTEXT };
	static char buf[32];
	struct fid_fabric *fab;
	struct fid_domain *dom[2];
	struct fid_av *av, *w;
	struct fid_cq *cq;
	struct fid_ep *ep;
	struct fi_cq_entry e;
	uint8_t a[64];
	char name[64];
	size_t len;
	fi_addr_t fa;
	uint64_t end;
	ssize_t ret;
	pid_t pid;
	int st, ready[2], go[2];
	char c = 'g';

	av_name(name, sizeof(name), "fork");
	/* the receiver, with an AV of its own */
	ck_assert_int_eq(uet_fabric(info->fabric_attr, &fab, NULL), 0);
	ck_assert_int_eq(fi_domain(fab, info, &dom[0], NULL), 0);
	ck_assert_int_eq(fi_av_open(dom[0], &(struct fi_av_attr){
					.type = FI_AV_MAP }, &av, NULL), 0);
	ck_assert_int_eq(fi_cq_open(dom[0], &cqa, &cq, NULL), 0);
	ck_assert_int_eq(fi_endpoint(dom[0], info, &ep, NULL), 0);
	ck_assert_int_eq(fi_ep_bind(ep, &av->fid, 0), 0);
	ck_assert_int_eq(fi_ep_bind(ep, &cq->fid, FI_TRANSMIT | FI_RECV), 0);
	ck_assert_int_eq(fi_enable(ep), 0);
	ck_assert_int_eq(fi_recv(ep, buf, sizeof(buf), NULL, 0, buf), 0);
	/* the named AV holds the receiver's address in slot 0 */
	ck_assert_int_eq(fi_domain(fab, info, &dom[1], NULL), 0);
	wa.name = name;
	ck_assert_int_eq(fi_av_open(dom[1], &wa, &w, NULL), 0);
	ck_assert_int_eq(pipe(ready), 0);
	ck_assert_int_eq(pipe(go), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(child_send(name, ready[1], go[0]));
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	addr_of(ep, a, &len);
	ck_assert_int_eq(fi_av_insert(w, a, 1, &fa, 0, NULL), 1);
	ck_assert_uint_eq(((fi_addr_t *)wa.map_addr)[0], fa);
	ck_assert_int_eq(write(go[1], &c, 1), 1);
	end = uet_clock_now_ns() + WAIT_MS * UET_NSEC_PER_MSEC;
	do {
		ret = fi_cq_read(cq, &e, 1);
	} while (ret == -FI_EAGAIN && uet_clock_now_ns() < end);
	ck_assert_int_eq(ret, 1);
	ck_assert_ptr_eq(e.op_context, buf);
	ck_assert_str_eq(buf, "from the child");
	/* keep progressing until the child saw its completion */
	for (;;) {
		ret = waitpid(pid, &st, WNOHANG);
		if (ret == pid)
			break;
		ck_assert_int_eq(ret, 0);
		ck_assert_uint_lt(uet_clock_now_ns(), end);
		fi_cq_read(cq, &e, 0);
		usleep(1000);
	}
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);

	ck_assert_int_eq(fi_close(&ep->fid), 0);
	ck_assert_int_eq(fi_close(&w->fid), 0);
	ck_assert_int_eq(fi_close(&av->fid), 0);
	ck_assert_int_eq(fi_close(&cq->fid), 0);
	ck_assert_int_eq(fi_close(&dom[0]->fid), 0);
	ck_assert_int_eq(fi_close(&dom[1]->fid), 0);
	ck_assert_int_eq(fi_close(&fab->fid), 0);
	fi_freeinfo(info);
}
END_TEST

/*
 * Objects planted in /dev/shm under a name an AV will use (issue 30,
 * finding 3): another user's, writable by others, not a regular file,
 * malformed or truncated.  Each is refused with an error, never a crash
 * or a hang, and addresses in it are never used.
 *
 * The layout is written here byte by byte as uet_av_shm.c defines it:
 * header (magic at 0, version 4, cap 8, count 12, entry_size 16, map_off
 * 24, entry_off 32; 64 bytes), fi_addr_t map[cap], 64-byte entries
 * (state 0, len 4, raw address 8).
 */
#define SHM_DIR		"/dev/shm"
#define SHM_MAGIC	0x3156414e54455531ull
#define NOBODY		65534
#define HANG_S		10	/* a blocking open fails the test */

struct plant {
	uint32_t cap;
	uint32_t count;
	uint64_t map_off;
	uint64_t entry_off;
	size_t size;		/* of the object */
	mode_t mode;
	uid_t uid;
	uint32_t len0;		/* slot 0's address length */
};

/* Names of only letters, digits, '.', '_': the object's name is the
 * AV's with the prefix uet_av_shm.c adds. */
static void plant_name(char *av, size_t alen, char *path, size_t plen,
		       const char *what)
{
	snprintf(av, alen, "uet_check_plant_%s.%ld", what, (long)getpid());
	snprintf(path, plen, SHM_DIR "/fi_uet_av.%s", av);
}

static struct plant plant_valid(void)
{
	struct plant p = {
		.cap = 1024, .count = 1, .map_off = 64,
		.entry_off = 64 + 1024 * 8, .mode = 0600,
		.uid = geteuid(), .len0 = sizeof(struct sockaddr_in),
	};

	p.size = 64 + 1024 * (8 + 64);
	return p;
}

static void put(uint8_t *buf, size_t size, size_t off, const void *v,
		size_t n)
{
	if (off + n <= size)
		memcpy(buf + off, v, n);
}

/* Slot 0 holds an address the attacker chose: 127.0.0.1:4800, pid 9. */
static void plant(const char *path, const struct plant *p)
{
	uint64_t magic = SHM_MAGIC, zero = 0;
	uint32_t version = 1, esize = 64, used = 1;
	struct uet_addr ua;
	uint8_t raw[64], *buf;
	int fd;

	buf = calloc(1, p->size ? p->size : 1);
	ck_assert_ptr_nonnull(buf);
	put(buf, p->size, 0, &magic, 8);
	put(buf, p->size, 8, &version, 4);
	put(buf, p->size, 12, &p->cap, 4);
	put(buf, p->size, 16, &p->count, 4);
	put(buf, p->size, 20, &esize, 4);
	put(buf, p->size, 24, &p->map_off, 8);
	put(buf, p->size, 32, &p->entry_off, 8);
	ck_assert_int_eq(uet_addr_resolve("127.0.0.1", "4800", AF_INET, true,
					  &ua), 0);
	ua.pid = 9;
	ck_assert_uint_eq(uet_addr_to_raw(&ua, raw, sizeof(raw)),
			  sizeof(struct sockaddr_in));
	if (p->map_off < p->size && p->entry_off < p->size) {
		put(buf, p->size, p->map_off, &zero, 8);
		put(buf, p->size, p->entry_off, &used, 4);
		put(buf, p->size, p->entry_off + 4, &p->len0, 4);
		put(buf, p->size, p->entry_off + 8, raw, sizeof(raw) - 8);
	}
	unlink(path);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, p->size), (ssize_t)p->size);
	ck_assert_int_eq(fchmod(fd, p->mode), 0);
	if (p->uid != geteuid())
		ck_assert_int_eq(fchown(fd, p->uid, (gid_t)p->uid), 0);
	close(fd);
	free(buf);
}

struct two_doms {
	struct fi_info *info;
	struct fid_fabric *fab;
	struct fid_domain *dom;
};

static void doms_open(struct two_doms *d)
{
	d->info = get_info();
	ck_assert_int_eq(uet_fabric(d->info->fabric_attr, &d->fab, NULL), 0);
	ck_assert_int_eq(fi_domain(d->fab, d->info, &d->dom, NULL), 0);
}

static void doms_close(struct two_doms *d)
{
	ck_assert_int_eq(fi_close(&d->dom->fid), 0);
	ck_assert_int_eq(fi_close(&d->fab->fid), 0);
	fi_freeinfo(d->info);
}

/* fi_av_open of name as a reader (FI_READ) or the writer; the AV is
 * closed again when it opened. */
static int try_open(struct two_doms *d, const char *name, bool reader)
{
	struct fi_av_attr at = { .type = FI_AV_TABLE, .name = name,
				 .flags = reader ? FI_READ : 0 };
	struct fid_av *av;
	int ret;

	alarm(HANG_S);
	ret = fi_av_open(d->dom, &at, &av, NULL);
	alarm(0);
	if (!ret)
		ck_assert_int_eq(fi_close(&av->fid), 0);
	return ret;
}

/* Another user's object: a reader would use the addresses in it, a
 * writer would take it over (and its owner could change it under the
 * writer).  Both refuse; the object is left as it was. */
START_TEST(test_named_av_other_user)
{
	struct plant p = plant_valid();
	struct two_doms d;
	struct stat st;
	char name[96], path[160];

	if (geteuid() != 0) {
		fprintf(stderr, "test_named_av_other_user: skipped, not root\n");
		return;
	}
	plant_name(name, sizeof(name), path, sizeof(path), "other");
	p.uid = NOBODY;
	plant(path, &p);
	doms_open(&d);
	ck_assert_int_eq(try_open(&d, name, true), -FI_EPERM);
	ck_assert_int_eq(try_open(&d, name, false), -FI_EPERM);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_uid, NOBODY);
	ck_assert_uint_eq(st.st_size, p.size);
	/* nor when it is a FIFO: no hang, no takeover */
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(chown(path, NOBODY, NOBODY), 0);
	ck_assert_int_ne(try_open(&d, name, true), 0);
	ck_assert_int_eq(try_open(&d, name, false), -FI_EPERM);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));
	unlink(path);
	doms_close(&d);
}
END_TEST

/* Our own objects that others may write, or that are not regular
 * files: readers refuse them; a writer replaces them with a fresh table
 * of mode 0600 (a stale table of a crashed run of ours is replaced the
 * same way). */
START_TEST(test_named_av_mode)
{
	static const mode_t modes[] = { 0666, 0620, 0602 };
	struct plant p = plant_valid();
	struct two_doms d;
	struct fid_av *w;
	struct fi_av_attr wa = { .type = FI_AV_TABLE };
	struct stat st;
	char name[96], path[160];
	size_t i;

	plant_name(name, sizeof(name), path, sizeof(path), "mode");
	doms_open(&d);
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		p.mode = modes[i];
		plant(path, &p);
		ck_assert_int_eq(try_open(&d, name, true), -FI_EPERM);
		wa.name = name;
		ck_assert_int_eq(fi_av_open(d.dom, &wa, &w, NULL), 0);
		ck_assert_int_eq(stat(path, &st), 0);
		ck_assert_uint_eq(st.st_mode & 07777, 0600);
		/* the new table is empty: slot 0 is not the planted one */
		ck_assert_uint_eq(((fi_addr_t *)wa.map_addr)[0],
				  FI_ADDR_NOTAVAIL);
		ck_assert_int_eq(try_open(&d, name, true), 0);
		ck_assert_int_eq(fi_close(&w->fid), 0);
		wa.map_addr = NULL;
	}
	/* a FIFO: the reader does not block on it */
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(try_open(&d, name, true), -FI_EPERM);
	ck_assert_int_eq(fi_av_open(d.dom, &wa, &w, NULL), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	ck_assert_int_eq(fi_close(&w->fid), 0);
	ck_assert_int_eq(stat(path, &st), -1);
	doms_close(&d);
}
END_TEST

/* Malformed and truncated tables of our own: -FI_EINVAL, no crash. */
START_TEST(test_named_av_malformed)
{
	struct plant bad[12], v = plant_valid();
	struct two_doms d;
	char name[96], path[160];
	size_t i, n = 0;

	plant_name(name, sizeof(name), path, sizeof(path), "malformed");
	bad[n] = v, bad[n].cap = 0, bad[n].entry_off = 64,
		bad[n].size = 64, n++;
	bad[n] = v, bad[n].cap = 0xffffffffu, n++;
	bad[n] = v, bad[n].cap = (1u << 20) + 1, n++;
	bad[n] = v, bad[n].cap = 2048, n++;	/* more than the object */
	bad[n] = v, bad[n].cap = 512, n++;	/* less than the object */
	bad[n] = v, bad[n].map_off = 1ull << 40, n++;
	bad[n] = v, bad[n].entry_off = 1ull << 40, n++;
	bad[n] = v, bad[n].entry_off = 64, n++;	/* over the map */
	bad[n] = v, bad[n].size = 64 + 1024 * 8, n++;	/* truncated */
	bad[n] = v, bad[n].size = 63, n++;
	bad[n] = v, bad[n].size = 0, n++;
	bad[n] = v, bad[n].size = 64 + 1024 * (8 + 64) + 4096, n++;
	ck_assert_uint_le(n, sizeof(bad) / sizeof(bad[0]));
	doms_open(&d);
	for (i = 0; i < n; i++) {
		plant(path, &bad[i]);
		ck_assert_msg(try_open(&d, name, true) == -FI_EINVAL,
			      "planted table %zu accepted", i);
	}
	unlink(path);
	doms_close(&d);
}
END_TEST

/* Entries are checked before use: a length past the address field, and
 * a count past the capacity, give errors for those slots only. */
START_TEST(test_named_av_bad_entry)
{
	struct plant p = plant_valid();
	struct two_doms d;
	struct fi_av_attr ra = { .type = FI_AV_TABLE, .flags = FI_READ };
	struct fid_av *r;
	uint8_t out[64];
	char name[96], path[160];
	size_t len;

	plant_name(name, sizeof(name), path, sizeof(path), "entry");
	doms_open(&d);
	p.len0 = 1000;
	p.count = 0xffffffffu;
	plant(path, &p);
	ra.name = name;
	ck_assert_int_eq(fi_av_open(d.dom, &ra, &r, NULL), 0);
	len = sizeof(out);
	ck_assert_int_eq(fi_av_lookup(r, 0, out, &len), -FI_EINVAL);
	len = sizeof(out);
	ck_assert_int_eq(fi_av_lookup(r, 5000, out, &len), -FI_EINVAL);
	ck_assert_int_eq(fi_close(&r->fid), 0);
	unlink(path);
	doms_close(&d);
}
END_TEST

/* A reader keeps the geometry it validated: the header changed under
 * it afterwards (here by its own user, through a second mapping) moves
 * nothing it reads. */
START_TEST(test_named_av_header_changed)
{
	struct two_doms d;
	struct fi_av_attr wa = { .type = FI_AV_TABLE };
	struct fi_av_attr ra = { .type = FI_AV_TABLE, .flags = FI_READ };
	struct fid_av *w, *r;
	struct uet_addr ua;
	uint8_t a[64], out[64], *base;
	char name[96], path[160];
	uint32_t big = 0xffffffffu;
	uint64_t far = 1ull << 40;
	struct stat st;
	fi_addr_t fa;
	size_t len, i;
	int fd;

	plant_name(name, sizeof(name), path, sizeof(path), "changed");
	doms_open(&d);
	wa.name = name;
	ra.name = name;
	ck_assert_int_eq(fi_av_open(d.dom, &wa, &w, NULL), 0);
	ck_assert_int_eq(uet_addr_resolve("127.0.0.1", "4800", AF_INET, true,
					  &ua), 0);
	len = uet_addr_to_raw(&ua, a, sizeof(a));
	ck_assert_int_eq(fi_av_insert(w, a, 1, &fa, 0, NULL), 1);
	ck_assert_int_eq(fi_av_open(d.dom, &ra, &r, NULL), 0);
	fd = open(path, O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	base = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE,
		    MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(base, MAP_FAILED);
	close(fd);
	memcpy(base + 12, &big, 4);	/* cap */
	memcpy(base + 16, &big, 4);	/* count */
	memcpy(base + 24, &far, 8);	/* map_off */
	memcpy(base + 32, &far, 8);	/* entry_off */
	for (i = 0; i < 3; i++) {
		len = sizeof(out);
		ck_assert_int_eq(fi_av_lookup(r, fa, out, &len), 0);
		ck_assert_int_eq(memcmp(out, a, len), 0);
		len = sizeof(out);
		ck_assert_int_eq(fi_av_lookup(r, 4096 + i, out, &len),
				 -FI_EINVAL);
	}
	munmap(base, (size_t)st.st_size);
	ck_assert_int_eq(fi_close(&r->fid), 0);
	ck_assert_int_eq(fi_close(&w->fid), 0);
	doms_close(&d);
}
END_TEST

static Suite *prov_av_shm_suite(void)
{
	Suite *s = suite_create("prov_av_shm");
	TCase *tc = tcase_create("named_av");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_named_av_objects);
	tcase_add_test(tc, test_named_av_fork);
	tcase_add_test(tc, test_named_av_other_user);
	tcase_add_test(tc, test_named_av_mode);
	tcase_add_test(tc, test_named_av_malformed);
	tcase_add_test(tc, test_named_av_bad_entry);
	tcase_add_test(tc, test_named_av_header_changed);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(prov_av_shm_suite)
