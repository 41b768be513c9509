/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Test harness for the software NIC: see snic_harness.h.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "snic_harness.h"
#include "uet_byteorder.h"
#include "uet_ses.h"
#include "uet_wire_consts.h"

#define SNH_ADDR_MAX		128
#define SNH_CANARY		64
#define SNH_CANARY_BYTE		0xee
#define SNH_SEND_MAGIC		0x5e5du
#define SNH_POST_TRIES		100000

/* ------------------------------------------------------------------ */
/* Commands                                                            */
/* ------------------------------------------------------------------ */

unsigned int snh_cmd_sgl_count(const struct snh_cmd *c)
{
	unsigned int nseg = c->nseg ? c->nseg : 1;

	return (c->ext ? 1u : 0u) + (c->inline_data ? 0u : nseg - 1) +
	       (c->inline_data ? 0u : c->nres);
}

/* Result entry k of nres covering res/res_len. */
static void snh_res_piece(const struct snh_cmd *c, unsigned int k,
			  struct uet_hsi_sgl_entry *e)
{
	size_t a = c->res_len * k / c->nres;
	size_t b = c->res_len * (k + 1) / c->nres;

	memset(e, 0, sizeof(*e));
	e->address = (uint64_t)(uintptr_t)((uint8_t *)c->res + a);
	e->length = (uint32_t)(b - a);
}

/* SGL entry k of nseg covering buf/len. */
static void snh_sgl_piece(const struct snh_cmd *c, unsigned int nseg,
			  unsigned int k, struct uet_hsi_sgl_entry *e)
{
	size_t a = c->len * k / nseg, b = c->len * (k + 1) / nseg;

	memset(e, 0, sizeof(*e));
	e->address = (uint64_t)(uintptr_t)((uint8_t *)c->buf + a);
	e->memory_key = 0;
	e->length = (uint32_t)(b - a);
}

int snh_post(struct snh_nic *n, const struct snh_cmd *c)
{
	uint8_t seg_b[UET_HSI_CMD_SEG_LEN];
	uint8_t ent_b[1 + SNH_MAX_SEG + SNH_MAX_RES][UET_HSI_SGL_ENTRY_LEN];
	struct uet_hsi_cmdq *cq = n->q->cmdq;
	struct uet_hsi_sgl_entry e;
	struct uet_hsi_cmd_seg seg;
	unsigned int nseg = c->nseg ? c->nseg : 1, cnt, k, ne = 0;
	uint32_t idx;
	ssize_t r;
	int ret;

	if (nseg > SNH_MAX_SEG || c->len > UINT32_MAX ||
	    c->nres > SNH_MAX_RES || (c->nres && c->inline_data))
		return -EINVAL;
	if (c->inline_data &&
	    (nseg != 1 || c->len > UET_HSI_CMD_INLINE_MAX))
		return -EINVAL;
	cnt = snh_cmd_sgl_count(c);

	/* Encode everything first: a reserved slot cannot be given back. */
	memset(&seg, 0, sizeof(seg));
	seg.family = c->family;
	seg.variant = c->variant;
	seg.completion = c->completion;
	seg.remote_cq = c->remote_cq;
	seg.fence = c->fence;
	seg.inject = c->inject;
	seg.ext = c->ext;
	seg.sgl_count = (uint8_t)cnt;
	seg.tag = c->tag;
	seg.dest = c->dest;
	seg.metadata = c->metadata;
	if (c->inline_data) {
		seg.data_src = UET_HSI_DATA_INLINE;
		seg.payload_len = (uint16_t)c->len;
		if (c->len)
			memcpy(seg.inline_data, c->buf, c->len);
	} else {
		seg.data_src = UET_HSI_DATA_SGL;
		/* payload_len is 16 bits; the SGL lengths are authoritative. */
		seg.payload_len = c->len > UINT16_MAX ? UINT16_MAX :
						       (uint16_t)c->len;
		snh_sgl_piece(c, nseg, 0, &seg.sgl);
	}
	r = uet_hsi_cmd_seg_encode(seg_b, sizeof(seg_b), &seg);
	if (r < 0)
		return (int)r;
	if (c->ext) {
		r = uet_hsi_cmd_ext_encode(ent_b[ne], UET_HSI_SGL_ENTRY_LEN,
					   &c->extv);
		if (r < 0)
			return (int)r;
		ne++;
	}
	for (k = 1; !c->inline_data && k < nseg; k++) {
		snh_sgl_piece(c, nseg, k, &e);
		r = uet_hsi_sgl_entry_encode(ent_b[ne], UET_HSI_SGL_ENTRY_LEN,
					     &e);
		if (r < 0)
			return (int)r;
		ne++;
	}
	for (k = 0; k < c->nres; k++) {
		snh_res_piece(c, k, &e);
		r = uet_hsi_sgl_entry_encode(ent_b[ne], UET_HSI_SGL_ENTRY_LEN,
					     &e);
		if (r < 0)
			return (int)r;
		ne++;
	}

	ret = uet_hsi_cmdq_reserve(cq, cnt, &idx);
	if (ret)
		return ret;
	memcpy(uet_hsi_cmdq_slot(cq, idx), seg_b, sizeof(seg_b));
	for (k = 0; k < ne; k++)
		memcpy(uet_hsi_cmdq_sgl(cq, idx, k), ent_b[k],
		       UET_HSI_SGL_ENTRY_LEN);
	return 0;
}

int snh_ring(struct snh_nic *n)
{
	uet_hsi_cmdq_doorbell(n->q->cmdq);
	if (n->w) {
		uet_link_mem_fabric_set_time(n->w->fab, n->w->now);
		return uet_snic_doorbell_at(n->q, n->w->now);
	}
	return n->dev->ops->doorbell(n->q);
}

int snh_post_ring(struct snh_nic *n, const struct snh_cmd *c)
{
	unsigned int i;
	int ret;

	for (i = 0; i < SNH_POST_TRIES; i++) {
		ret = snh_post(n, c);
		if (ret != -EAGAIN)
			break;
		snh_ring(n);
		if (n->w)
			snh_world_step(n->w);
		else
			snh_nic_progress(n);
	}
	if (ret)
		return ret;
	ret = snh_ring(n);
	return ret < 0 ? ret : 0;
}

/* ------------------------------------------------------------------ */
/* Notifications                                                       */
/* ------------------------------------------------------------------ */

static void snh_nic_err(struct snh_nic *n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void snh_nic_err(struct snh_nic *n, const char *fmt, ...)
{
	va_list ap;

	n->bad++;
	if (n->err[0])
		return;
	va_start(ap, fmt);
	vsnprintf(n->err, sizeof(n->err), fmt, ap);
	va_end(ap);
}

static void snh_deliver(struct snh_nic *n, const struct snh_notif *nt)
{
	if (n->fn)
		n->fn(n, nt, n->arg);
}

static void snh_decode(struct snh_nic *n, const uint8_t *e)
{
	struct snh_notif nt;
	ssize_t r;
	int type;

	if (n->cont_wait) {
		/* The entry after a receive with CONTINUATION. */
		r = uet_hsi_recv_notif_decode(&n->pend.cont, e,
					      UET_HSI_NOTIF_LEN);
		if (r >= 0)
			r = uet_hsi_recv_cont_decode(&n->pend.contx, e,
						     UET_HSI_NOTIF_LEN);
		n->cont_wait = false;
		if (r < 0 || n->pend.cont.is_inline ||
		    !n->pend.cont.continuation) {
			snh_nic_err(n, "entry after a CONTINUATION receive is not a continuation entry (type %u flags 0x%02x, decode %zd)",
				    e[0], e[1], r);
			return;
		}
		n->conts++;
		n->pend.has_cont = true;
		snh_deliver(n, &n->pend);
		return;
	}
	memset(&nt, 0, sizeof(nt));
	type = uet_hsi_notif_peek_type(e, UET_HSI_NOTIF_LEN);
	nt.type = (uint8_t)type;
	switch (type) {
	case UET_HSI_NOTIF_RECV:
		r = uet_hsi_recv_notif_decode(&nt.recv, e, UET_HSI_NOTIF_LEN);
		if (r < 0)
			break;
		n->recvs++;
		if (nt.recv.continuation) {
			n->pend = nt;
			n->cont_wait = true;
			return;
		}
		snh_deliver(n, &nt);
		return;
	case UET_HSI_NOTIF_SEND:
		r = uet_hsi_send_cmpl_decode(&nt.send, e, UET_HSI_NOTIF_LEN);
		if (r < 0)
			break;
		n->sends++;
		snh_deliver(n, &nt);
		return;
	case UET_HSI_NOTIF_EVENT:
		r = uet_hsi_event_notif_decode(&nt.event, e,
					       UET_HSI_NOTIF_LEN);
		if (r < 0)
			break;
		n->events++;
		snh_deliver(n, &nt);
		return;
	default:
		r = 0;
		break;
	}
	snh_nic_err(n, "undecodable notification: type %d flags 0x%02x (decode %zd)",
		    type, e[1], r);
}

unsigned int snh_poll(struct snh_nic *n)
{
	uint8_t e[UET_HSI_NOTIF_LEN];
	unsigned int cnt = 0;

	while (uet_hsi_notifq_poll(n->q->notifq, e) == 1) {
		cnt++;
		n->notifs++;
		snh_decode(n, e);
	}
	return cnt;
}

unsigned int snh_nic_progress(struct snh_nic *n)
{
	unsigned int act = 0;
	int r;

	if (n->w)
		r = uet_snic_progress_at(n->dev, n->w->now);
	else
		r = n->dev->ops->progress(n->dev);
	if (r < 0) {
		n->progress_err++;
		n->last_progress_err = r;
	} else {
		act += (unsigned int)r;
	}
	return n->hold ? act : act + snh_poll(n);
}

/* ------------------------------------------------------------------ */
/* NIC setup                                                           */
/* ------------------------------------------------------------------ */

int snh_nic_open_queue(struct snh_nic *n, uint32_t cmdq_depth,
		       uint32_t notifq_depth)
{
	struct uet_hsi_queue_attr qa;

	memset(&qa, 0, sizeof(qa));
	qa.cmdq_depth = cmdq_depth ? cmdq_depth : SNH_CMDQ_DEPTH;
	qa.notifq_depth = notifq_depth ? notifq_depth : SNH_NOTIFQ_DEPTH;
	qa.pid_on_fep = n->pid;
	qa.resource_index = n->ri;
	qa.mode = n->qmode;
	qa.rma_events = n->rma_events;
	return n->dev->ops->queue_open(n->dev, &qa, &n->q);
}

int snh_nic_open_udp(struct snh_nic *n, const char *host, uint32_t job_id,
		     uint16_t pid, uint16_t ri)
{
	struct uet_hsi_dev_attr da;
	int ret;

	memset(n, 0, sizeof(*n));
	n->job_id = job_id;
	n->pid = pid;
	n->ri = ri;
	memset(&da, 0, sizeof(da));
	da.host = host;
	da.port = 0;
	da.job_id = job_id;
	ret = uet_snic_dev_ops.open(&da, &n->dev);
	if (ret)
		return ret;
	ret = snh_nic_open_queue(n, 0, 0);
	if (ret)
		goto err_close;
	return 0;

err_close:
	n->dev->ops->close(n->dev);
	n->dev = NULL;
	return ret;
}

void snh_nic_close(struct snh_nic *n)
{
	if (n->q) {
		n->dev->ops->queue_close(n->q);
		n->q = NULL;
	}
	if (n->dev) {
		n->dev->ops->close(n->dev);
		n->dev = NULL;
	}
}

int snh_connect(struct snh_nic *a, struct snh_nic *b)
{
	uint8_t aa[SNH_ADDR_MAX], ba[SNH_ADDR_MAX];
	size_t al = sizeof(aa), bl = sizeof(ba);
	int ret;

	ret = a->dev->ops->getname(a->dev, aa, &al);
	if (ret)
		return ret;
	ret = b->dev->ops->getname(b->dev, ba, &bl);
	if (ret)
		return ret;
	ret = a->dev->ops->peer_insert(a->dev, ba, bl, &a->peer);
	if (ret)
		return ret;
	return b->dev->ops->peer_insert(b->dev, aa, al, &b->peer);
}

/* ------------------------------------------------------------------ */
/* World                                                               */
/* ------------------------------------------------------------------ */

void snh_world_cfg_default(struct snh_world_cfg *c)
{
	int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < 2; i++) {
		uet_snic_cfg_default(&c->snic[i]);
		/* The suites exercise rendezvous above 64 KiB (the default
		 * is 2 MiB): their sizes were chosen around this one. */
		c->snic[i].rdzv_threshold = 64u << 10;
		c->snic[i].pds.seed = 0x1000 + (uint64_t)i;
		c->job[i] = SNH_JOB;
		c->pid[i] = (uint16_t)(0x10 + i);
		c->ri[i] = (uint16_t)(0x20 + i);
	}
	c->mtu = 2048;
	c->seed = 0x5eed;
	c->faults.delay_ns = 2 * SNH_US;
	c->cmdq_depth = SNH_CMDQ_DEPTH;
	c->notifq_depth = SNH_NOTIFQ_DEPTH;
	c->quantum_ns = 1 * SNH_US;
	c->start_ns = 1 * SNH_SEC;
}

int snh_world_open(struct snh_world *w, const struct snh_world_cfg *c)
{
	struct uet_link *link;
	struct snh_nic *n;
	int i, ret;

	memset(w, 0, sizeof(*w));
	ret = uet_link_mem_fabric_create(&w->fab, c->seed, c->mtu);
	if (ret)
		return ret;
	uet_link_mem_fabric_set_faults(w->fab, &c->faults);
	w->now = c->start_ns;
	w->quantum_ns = c->quantum_ns ? c->quantum_ns : SNH_US;
	uet_link_mem_fabric_set_time(w->fab, w->now);
	for (i = 0; i < 2; i++) {
		n = &w->nic[i];
		n->w = w;
		n->idx = i;
		n->job_id = c->job[i];
		n->pid = c->pid[i];
		n->ri = c->ri[i];
		n->qmode = c->qmode[i];
		n->rma_events = c->rma_events[i];
		ret = uet_link_mem_open(w->fab, i ? SNH_PORT_B : SNH_PORT_A,
					&link);
		if (ret)
			goto err_close;
		if (c->wrap) {
			struct uet_link *tap = c->wrap(link, i, c->wrap_arg);

			if (!tap) {
				link->ops->close(link);
				ret = -ENOMEM;
				goto err_close;
			}
			link = tap;
		}
		ret = uet_snic_open_link(&c->snic[i], c->job[i], link, true,
					 &n->dev);
		if (ret) {
			link->ops->close(link);
			n->dev = NULL;
			goto err_close;
		}
		ret = snh_nic_open_queue(n, c->cmdq_depth, c->notifq_depth);
		if (ret)
			goto err_close;
	}
	ret = snh_connect(&w->nic[0], &w->nic[1]);
	if (ret)
		goto err_close;
	return 0;

err_close:
	snh_world_close(w);
	return ret;
}

void snh_world_close(struct snh_world *w)
{
	snh_nic_close(&w->nic[0]);
	snh_nic_close(&w->nic[1]);
	if (w->fab)
		uet_link_mem_fabric_destroy(w->fab);
	w->fab = NULL;
}

static bool snh_running(const struct snh_nic *n)
{
	return n->dev && n->q && !n->stopped;
}

unsigned int snh_world_step(struct snh_world *w)
{
	struct uet_link_mem_stats s0, s1;
	uint64_t next = UINT64_MAX, d;
	unsigned int act = 0;
	int i;

	w->steps++;
	uet_link_mem_fabric_set_time(w->fab, w->now);
	uet_link_mem_fabric_get_stats(w->fab, &s0);
	for (i = 0; i < 2; i++)
		if (snh_running(&w->nic[i]))
			act += snh_nic_progress(&w->nic[i]);
	/* Datagrams moved count as activity: progress itself only reports
	 * the notifications it wrote. */
	uet_link_mem_fabric_get_stats(w->fab, &s1);
	act += (unsigned int)(s1.sent - s0.sent) +
	       (unsigned int)(s1.delivered - s0.delivered);
	if (act) {
		w->now += w->quantum_ns;
		return act;
	}
	/* Idle: jump to the next thing that will happen.  Datagrams already
	 * due (e.g. for a stopped NIC) do not hold the clock back. */
	for (i = 0; i < 2; i++) {
		if (!snh_running(&w->nic[i]))
			continue;
		d = uet_snic_next_deadline(w->nic[i].dev);
		if (d > w->now && d < next)
			next = d;
	}
	d = uet_link_mem_fabric_next_delivery(w->fab);
	if (d > w->now && d < next)
		next = d;
	w->now = next == UINT64_MAX ? w->now + w->quantum_ns : next;
	return 0;
}

bool snh_world_run(struct snh_world *w, snh_pump_fn pump, void *arg,
		   uint64_t max_ns, uint64_t max_steps)
{
	uint64_t start = w->now, s;

	for (s = 0; s < max_steps; s++) {
		if (pump(arg))
			return true;
		if (w->now - start > max_ns)
			return false;
		snh_world_step(w);
	}
	return pump(arg);
}

void snh_world_settle(struct snh_world *w, uint64_t max_ns)
{
	uint64_t start = w->now, s;

	for (s = 0; s < 1000000 && w->now - start < max_ns; s++)
		snh_world_step(w);
}

/* ------------------------------------------------------------------ */
/* Payload pattern                                                     */
/* ------------------------------------------------------------------ */

uint8_t snh_pat(uint32_t id, size_t i)
{
	uint32_t x = id * 2654435761u + (uint32_t)i * 40503u +
		     (uint32_t)(i >> 11) * 977u;

	return (uint8_t)(x ^ (x >> 13) ^ (x >> 24));
}

static uint8_t snh_byte(uint32_t id, size_t len, size_t i)
{
	if (len >= 8 && i < 8)
		return (uint8_t)((i < 4 ? id : id ^ SNH_ID_XOR) >>
				 (8 * (i & 3)));
	return snh_pat(id, i);
}

void snh_fill(uint8_t *buf, size_t len, uint32_t id)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = snh_byte(id, len, i);
}

size_t snh_check(const uint8_t *buf, size_t len, uint32_t id)
{
	return snh_check_part(buf, len, len, id);
}

size_t snh_check_part(const uint8_t *buf, size_t n, size_t len, uint32_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (buf[i] != snh_byte(id, len, i))
			return i;
	return n;
}

/* ------------------------------------------------------------------ */
/* Traffic: plan                                                       */
/* ------------------------------------------------------------------ */

static uint64_t snh_rng(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t snh_range(uint64_t *s, uint64_t lo, uint64_t hi)
{
	return lo + snh_rng(s) % (hi - lo + 1);
}

void snh_traffic_cfg_default(struct snh_traffic_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->n = 1000;
	c->seed = 1;
	c->max_len = 4u << 20;
	c->rdzv_threshold = 64u << 10;
	c->max_volume = 64ull << 20;
	c->window = 128;
	c->untag_max = 16u << 10;
	c->pm_small = 8500;
	c->pm_multi = 1290;
	c->pm_across = 200;
	c->pm_tagged = 6000;
	c->pm_hd = 2500;
	c->one_max = true;
}

enum { SNH_C_SMALL, SNH_C_MULTI, SNH_C_ACROSS, SNH_C_LARGE };

static uint32_t snh_gen_len(struct snh_traffic *t, uint64_t *s, int cls)
{
	const struct snh_traffic_cfg *c = &t->cfg;
	uint64_t thr = c->rdzv_threshold, lo, hi;

	switch (cls) {
	case SNH_C_SMALL:
		return (uint32_t)snh_range(s, 0, 1024);
	case SNH_C_MULTI:
		return (uint32_t)snh_range(s, 1025, 16384);
	case SNH_C_ACROSS:
		lo = thr / 2;
		hi = thr * 2;
		break;
	default:
		lo = 256u << 10;
		hi = c->max_len;
		break;
	}
	if (hi > c->max_len)
		hi = c->max_len;
	if (lo > hi)
		lo = hi;
	return (uint32_t)snh_range(s, lo, hi);
}

static void snh_gen_msg(struct snh_traffic *t, uint64_t *s, uint32_t id,
			uint32_t len)
{
	const struct snh_traffic_cfg *c = &t->cfg;
	struct snh_msg *m = &t->msgs[id];
	uint64_t span;

	memset(m, 0, sizeof(*m));
	m->id = id;
	m->len = len;
	m->from = (uint8_t)(snh_rng(s) & 1);
	if (len < 8 || len > c->untag_max)
		m->tagged = true;
	else
		m->tagged = snh_rng(s) % 10000 < c->pm_tagged;
	m->has_hd = snh_rng(s) % 10000 < c->pm_hd;
	m->hd = snh_rng(s);
	m->inline_src = len <= UET_HSI_CMD_INLINE_MAX && (snh_rng(s) & 1);
	span = len < SNH_MAX_SEG ? (len ? len : 1) : SNH_MAX_SEG;
	m->nseg = m->inline_src ? 1 : (uint8_t)snh_range(s, 1, span);
	if (m->tagged) {
		m->tag = (snh_rng(s) & 0xffffull) << 48 |
			 (uint64_t)m->from << 32 | id;
		if (snh_rng(s) % 10 < 3) {
			m->ignore = 0xffffull << 48;
			m->rtag = m->tag ^ ((snh_rng(s) | 1) & 0xffffull) << 48;
		} else {
			m->rtag = m->tag;
		}
		m->rlen = len;
		if (snh_rng(s) % 5 == 0)
			m->rlen += (uint32_t)snh_range(s, 1, 256);
	} else {
		m->rlen = c->untag_max;
	}
	span = m->rlen < 3 ? (m->rlen ? m->rlen : 1) : 3;
	m->rseg = (uint8_t)snh_range(s, 1, span);
	t->volume += len;
	t->n_tagged += m->tagged;
	t->n_hd += m->has_hd;
	if (len > t->max_seen)
		t->max_seen = len;
}

static int snh_side_init(struct snh_traffic *t, int s, struct snh_nic *nic)
{
	struct snh_tside *sd = &t->side[s];
	uint32_t i;

	sd->t = t;
	sd->nic = nic;
	sd->idx = s;
	atomic_init(&sd->in_posted, 0);
	atomic_init(&sd->done, false);
	sd->out = calloc(t->n ? t->n : 1, sizeof(*sd->out));
	sd->in = calloc(t->n ? t->n : 1, sizeof(*sd->in));
	sd->nslots = t->cfg.window;
	sd->slots = calloc(sd->nslots, sizeof(*sd->slots));
	if (!sd->out || !sd->in || !sd->slots)
		return -ENOMEM;
	for (i = 0; i < t->n; i++) {
		if (t->msgs[i].from == s)
			sd->out[sd->nout++] = i;
		else
			sd->in[sd->nin++] = i;
	}
	nic->idx = s;
	nic->fn = snh_traffic_notif;
	nic->arg = t;
	if (!sd->nout && !sd->nin)
		atomic_store(&sd->done, true);
	return 0;
}

int snh_traffic_init(struct snh_traffic *t, const struct snh_traffic_cfg *c,
		     struct snh_nic *a, struct snh_nic *b)
{
	uint64_t s = c->seed, rest;
	uint32_t i, len, r, force = UINT32_MAX;
	int cls, ret;

	memset(t, 0, sizeof(*t));
	t->cfg = *c;
	/* Notifications in flight per NIC: a receive and its continuation
	 * per posted receive, a completion per send. */
	if (!c->window || 3 * c->window > SNH_NOTIFQ_DEPTH)
		return -EINVAL;
	atomic_init(&t->failed, false);
	t->n = c->n;
	t->msgs = calloc(c->n ? c->n : 1, sizeof(*t->msgs));
	if (!t->msgs)
		return -ENOMEM;
	if (c->one_max && c->n)
		force = c->n / 3;
	for (i = 0; i < c->n; i++) {
		r = (uint32_t)(snh_rng(&s) % 10000);
		if (r < c->pm_small)
			cls = SNH_C_SMALL;
		else if (r < c->pm_small + c->pm_multi)
			cls = SNH_C_MULTI;
		else if (r < c->pm_small + c->pm_multi + c->pm_across)
			cls = SNH_C_ACROSS;
		else
			cls = SNH_C_LARGE;
		if (i == force)
			cls = SNH_C_LARGE;
		len = i == force ? c->max_len : snh_gen_len(t, &s, cls);
		/* Keep room for the rest (as small) and the forced one. */
		rest = (uint64_t)(c->n - i) * 1024 +
		       (i < force && force != UINT32_MAX ? c->max_len : 0);
		if (i != force && t->volume + len + rest > c->max_volume) {
			cls = SNH_C_SMALL;
			len = snh_gen_len(t, &s, cls);
		}
		switch (cls) {
		case SNH_C_SMALL:
			t->n_small++;
			break;
		case SNH_C_MULTI:
			t->n_multi++;
			break;
		case SNH_C_ACROSS:
			t->n_across++;
			break;
		default:
			t->n_large++;
			break;
		}
		snh_gen_msg(t, &s, i, len);
	}
	ret = snh_side_init(t, 0, a);
	if (ret)
		goto err_free;
	ret = snh_side_init(t, 1, b);
	if (ret)
		goto err_free;
	return 0;

err_free:
	snh_traffic_fini(t);
	return ret;
}

void snh_traffic_fini(struct snh_traffic *t)
{
	uint32_t i;
	int s;

	for (s = 0; s < 2; s++) {
		struct snh_tside *sd = &t->side[s];

		for (i = 0; sd->slots && i < sd->nslots; i++)
			free(sd->slots[i].buf);
		free(sd->slots);
		free(sd->out);
		free(sd->in);
		sd->slots = NULL;
		sd->out = sd->in = NULL;
		if (sd->nic && sd->nic->fn == snh_traffic_notif) {
			sd->nic->fn = NULL;
			sd->nic->arg = NULL;
		}
	}
	for (i = 0; t->msgs && i < t->n; i++)
		free(t->msgs[i].sbuf);
	free(t->msgs);
	t->msgs = NULL;
}

void snh_traffic_fail(struct snh_traffic *t, const char *fmt, ...)
{
	bool expected = false;
	va_list ap;

	if (!atomic_compare_exchange_strong(&t->failed, &expected, true))
		return;
	va_start(ap, fmt);
	vsnprintf(t->err, sizeof(t->err), fmt, ap);
	va_end(ap);
}

void snh_traffic_describe(const struct snh_traffic *t, char *buf, size_t len)
{
	const struct snh_tside *a = &t->side[0], *b = &t->side[1];

	snprintf(buf, len,
		 "A: sent %u/%u (posted %u) recvd %u/%u (posted %u); "
		 "B: sent %u/%u (posted %u) recvd %u/%u (posted %u); %s",
		 a->out_done, a->nout, a->next_out, a->in_done, a->nin,
		 a->next_in, b->out_done, b->nout, b->next_out, b->in_done,
		 b->nin, b->next_in,
		 atomic_load(&t->failed) ? t->err : "no failure");
}

/* ------------------------------------------------------------------ */
/* Traffic: pump                                                       */
/* ------------------------------------------------------------------ */

static int snh_slot_get(struct snh_tside *sd)
{
	uint32_t i;

	for (i = 0; i < sd->nslots; i++)
		if (!sd->slots[i].busy)
			return (int)i;
	return -1;
}

static int snh_post_recv(struct snh_tside *sd, struct snh_msg *m)
{
	struct snh_traffic *t = sd->t;
	struct snh_rslot *rs;
	struct snh_cmd c;
	size_t blen;
	uint8_t *buf;
	int slot, ret;

	slot = snh_slot_get(sd);
	if (slot < 0)
		return -EAGAIN;
	blen = m->tagged ? m->rlen : t->cfg.untag_max;
	buf = malloc(blen + SNH_CANARY);
	if (!buf)
		return -ENOMEM;
	memset(buf, 0xdd, blen);
	memset(buf + blen, SNH_CANARY_BYTE, SNH_CANARY);
	memset(&c, 0, sizeof(c));
	c.family = m->tagged ? UET_HSI_FAMILY_TAGGED : UET_HSI_FAMILY_MSG;
	c.variant = UET_HSI_VARIANT_RECV;
	c.completion = true;
	c.tag = m->tagged ? m->rtag : 0;
	c.metadata = (uint64_t)slot;
	c.buf = buf;
	c.len = blen;
	c.nseg = m->tagged ? m->rseg : 1 + (m->id % 3);
	if (m->tagged && m->ignore) {
		c.ext = true;
		c.extv.ignore = m->ignore;
	}
	ret = snh_post(sd->nic, &c);
	if (ret) {
		free(buf);
		return ret;
	}
	rs = &sd->slots[slot];
	rs->busy = true;
	rs->msg = m->tagged ? m->id : ~0u;
	rs->buf = buf;
	rs->len = blen;
	return 0;
}

static int snh_post_send(struct snh_tside *sd, struct snh_msg *m)
{
	struct snh_nic *peer = sd->t->side[1 - sd->idx].nic;
	struct snh_cmd c;
	int ret;

	m->sbuf = malloc(m->len ? m->len : 1);
	if (!m->sbuf)
		return -ENOMEM;
	snh_fill(m->sbuf, m->len, m->id);
	memset(&c, 0, sizeof(c));
	c.family = m->tagged ? UET_HSI_FAMILY_TAGGED : UET_HSI_FAMILY_MSG;
	c.variant = UET_HSI_VARIANT_SEND;
	c.completion = true;
	c.inline_data = m->inline_src;
	c.tag = m->tagged ? m->tag : 0;
	c.dest = snh_dest(sd->nic, peer);
	c.metadata = (uint64_t)SNH_SEND_MAGIC << 32 | m->id;
	c.buf = m->sbuf;
	c.len = m->len;
	c.nseg = m->nseg;
	if (m->has_hd) {
		c.remote_cq = true;
		c.ext = true;
		c.extv.header_data = m->hd;
		c.extv.ext_flags = UET_HSI_EXT_HAS_DATA;
	}
	ret = snh_post(sd->nic, &c);
	if (ret) {
		free(m->sbuf);
		m->sbuf = NULL;
		return ret;
	}
	m->send_state = 1;
	return 0;
}

unsigned int snh_traffic_pump(struct snh_traffic *t, int s)
{
	struct snh_tside *sd = &t->side[s], *peer = &t->side[1 - s];
	uint32_t lim, win = t->cfg.window;
	unsigned int posted = 0, nr;
	int ret;

	if (atomic_load(&t->failed))
		return 0;
	while (sd->next_in < sd->nin && sd->next_in - sd->in_done < win) {
		ret = snh_post_recv(sd, &t->msgs[sd->in[sd->next_in]]);
		if (ret == -EAGAIN) {
			sd->eagain++;
			break;
		}
		if (ret) {
			snh_traffic_fail(t, "NIC %d: posting receive for msg %u: %d",
					 s, sd->in[sd->next_in], ret);
			return posted;
		}
		sd->next_in++;
		posted++;
	}
	/* Receives are rung before the peer may send to them. */
	if (posted)
		snh_ring(sd->nic);
	atomic_store_explicit(&sd->in_posted, sd->next_in,
			      memory_order_release);
	nr = posted;
	lim = atomic_load_explicit(&peer->in_posted, memory_order_acquire);
	while (sd->next_out < sd->nout && sd->next_out < lim &&
	       sd->next_out - sd->out_done < win) {
		ret = snh_post_send(sd, &t->msgs[sd->out[sd->next_out]]);
		if (ret == -EAGAIN) {
			sd->eagain++;
			break;
		}
		if (ret) {
			snh_traffic_fail(t, "NIC %d: posting send of msg %u: %d",
					 s, sd->out[sd->next_out], ret);
			return posted;
		}
		sd->next_out++;
		posted++;
	}
	if (posted > nr)
		snh_ring(sd->nic);
	return posted;
}

/* ------------------------------------------------------------------ */
/* Traffic: verification                                               */
/* ------------------------------------------------------------------ */

static void snh_traffic_recv(struct snh_traffic *t, struct snh_tside *sd,
			     const struct snh_notif *n)
{
	const struct uet_hsi_recv_notif *r = &n->recv;
	struct snh_nic *peer = t->side[1 - sd->idx].nic;
	uint32_t slot = r->buffer_id_0 | (uint32_t)r->buffer_id_1 << 16;
	struct snh_rslot *rs;
	struct snh_msg *m;
	uint32_t id, xid, want_init;
	size_t bad, i;

	if (slot >= sd->nslots || !sd->slots[slot].busy) {
		snh_traffic_fail(t, "NIC %d: receive notification for buffer id %u which is not posted (status %u len %u)",
				 sd->idx, slot, r->status, r->total_length);
		return;
	}
	rs = &sd->slots[slot];
	if (r->status) {
		snh_traffic_fail(t, "NIC %d: receive (buffer %u, msg %d) completed with status %u",
				 sd->idx, slot, (int)rs->msg, r->status);
		return;
	}
	if (rs->msg != ~0u) {
		id = rs->msg;
	} else {
		if (r->total_length < 8 || r->total_length > rs->len) {
			snh_traffic_fail(t, "NIC %d: untagged receive of %u bytes into a %zu-byte buffer",
					 sd->idx, r->total_length, rs->len);
			return;
		}
		id = uet_get_le32(rs->buf);
		xid = uet_get_le32(rs->buf + 4) ^ SNH_ID_XOR;
		if (id >= t->n || xid != id) {
			snh_traffic_fail(t, "NIC %d: untagged receive carries no valid message id (%08x %08x)",
					 sd->idx, id, xid ^ SNH_ID_XOR);
			return;
		}
		if (t->msgs[id].tagged) {
			snh_traffic_fail(t, "NIC %d: tagged msg %u matched an untagged receive",
					 sd->idx, id);
			return;
		}
	}
	m = &t->msgs[id];
	if (m->from != 1 - sd->idx) {
		snh_traffic_fail(t, "NIC %d: received msg %u that NIC %d sent",
				 sd->idx, id, m->from);
		return;
	}
	if (r->total_length != m->len) {
		snh_traffic_fail(t, "NIC %d: msg %u: total_length %u, sent %u",
				 sd->idx, id, r->total_length, m->len);
		return;
	}
	bad = snh_check(rs->buf, m->len, id);
	if (bad != m->len) {
		snh_traffic_fail(t, "NIC %d: msg %u (%u bytes, %s): byte %zu is 0x%02x, expected 0x%02x",
				 sd->idx, id, m->len,
				 m->tagged ? "tagged" : "untagged", bad,
				 rs->buf[bad], snh_byte(id, m->len, bad));
		return;
	}
	/* A small message may also come in the notification itself. */
	if (r->is_inline &&
	    (!m->len || m->len > UET_HSI_RECV_INLINE_MAX ||
	     memcmp(r->inline_data, rs->buf, m->len))) {
		snh_traffic_fail(t, "NIC %d: msg %u (%u bytes): wrong INLINE data in the notification",
				 sd->idx, id, m->len);
		return;
	}
	if (r->is_inline)
		t->inline_rx++;
	for (i = 0; i < SNH_CANARY; i++) {
		if (rs->buf[rs->len + i] != SNH_CANARY_BYTE) {
			snh_traffic_fail(t, "NIC %d: msg %u: write past the receive buffer (offset %zu)",
					 sd->idx, id, rs->len + i);
			return;
		}
	}
	if (m->tagged && r->tag != m->tag) {
		snh_traffic_fail(t, "NIC %d: msg %u: tag 0x%llx, sent 0x%llx",
				 sd->idx, id, (unsigned long long)r->tag,
				 (unsigned long long)m->tag);
		return;
	}
	if (r->src_id != (uint32_t)sd->nic->peer) {
		snh_traffic_fail(t, "NIC %d: msg %u: src_id 0x%x, the sender's peer handle is 0x%llx",
				 sd->idx, id, r->src_id,
				 (unsigned long long)sd->nic->peer);
		return;
	}
	/* E-5: header_data or a non-zero initiator field */
	want_init = uet_ses_initiator_id(peer->pid, peer->ri);
	if ((m->has_hd || want_init) != n->has_cont) {
		snh_traffic_fail(t, "NIC %d: msg %u: header_data %s, initiator 0x%x, but continuation entry %s",
				 sd->idx, id, m->has_hd ? "sent" : "not sent",
				 want_init, n->has_cont ? "present" : "absent");
		return;
	}
	if (n->has_cont) {
		if (n->cont.tag != (m->has_hd ? m->hd : 0) ||
		    (n->cont.status & 1) != m->has_hd ||
		    n->cont.total_length != 0 || n->cont.src_id != want_init ||
		    n->contx.mr_valid || n->contx.mr_released) {
			snh_traffic_fail(t, "NIC %d: msg %u: continuation tag 0x%llx status 0x%x overflow %u src 0x%x; expected hd 0x%llx (%s), 0, src 0x%x",
					 sd->idx, id,
					 (unsigned long long)n->cont.tag,
					 n->cont.status, n->cont.total_length,
					 n->cont.src_id,
					 (unsigned long long)m->hd,
					 m->has_hd ? "valid" : "none",
					 want_init);
			return;
		}
	}
	if (++m->nrecv != 1) {
		snh_traffic_fail(t, "NIC %d: msg %u delivered %u times",
				 sd->idx, id, m->nrecv);
		return;
	}
	free(rs->buf);
	rs->buf = NULL;
	rs->busy = false;
	sd->in_done++;
	sd->bytes_in += m->len;
}

static void snh_traffic_send(struct snh_traffic *t, struct snh_tside *sd,
			     const struct snh_notif *n)
{
	const struct uet_hsi_send_cmpl *c = &n->send;
	struct snh_msg *m;
	uint32_t id = (uint32_t)c->op_context;

	if (c->op_context >> 32 != SNH_SEND_MAGIC || id >= t->n) {
		snh_traffic_fail(t, "NIC %d: send completion with unknown op_context 0x%llx",
				 sd->idx, (unsigned long long)c->op_context);
		return;
	}
	m = &t->msgs[id];
	if (m->from != sd->idx || m->send_state != 1) {
		snh_traffic_fail(t, "NIC %d: send completion for msg %u (from %d, state %u)",
				 sd->idx, id, m->from, m->send_state);
		return;
	}
	if (c->status || c->flags != UET_RC_OK || c->bytes_sent != m->len) {
		snh_traffic_fail(t, "NIC %d: msg %u (%u bytes): send completion status %u flags (rc) 0x%x bytes_sent %u",
				 sd->idx, id, m->len, c->status, c->flags,
				 c->bytes_sent);
		return;
	}
	free(m->sbuf);
	m->sbuf = NULL;
	m->send_state = 2;
	sd->out_done++;
	sd->bytes_out += m->len;
}

void snh_traffic_notif(struct snh_nic *nic, const struct snh_notif *n,
		       void *arg)
{
	const struct uet_hsi_event_notif *ev;
	struct snh_traffic *t = arg;
	struct snh_tside *sd = &t->side[nic->idx];

	switch (n->type) {
	case UET_HSI_NOTIF_RECV:
		snh_traffic_recv(t, sd, n);
		break;
	case UET_HSI_NOTIF_SEND:
		snh_traffic_send(t, sd, n);
		break;
	case UET_HSI_NOTIF_EVENT:
		ev = &n->event;
		sd->events++;
		if (ev->severity >= UET_HSI_SEV_ERROR)
			snh_traffic_fail(t, "NIC %d: event %s severity %u data %llu",
					 sd->idx,
					 uet_hsi_event_type_str(ev->event_type),
					 ev->severity,
					 (unsigned long long)ev->event_data);
		break;
	default:
		snh_traffic_fail(t, "NIC %d: notification type %u", sd->idx,
				 n->type);
		break;
	}
	if (sd->out_done == sd->nout && sd->in_done == sd->nin)
		atomic_store(&sd->done, true);
}

bool snh_traffic_side_done(const struct snh_traffic *t, int s)
{
	const struct snh_tside *sd = &t->side[s];

	return sd->out_done == sd->nout && sd->in_done == sd->nin;
}

bool snh_traffic_done(const struct snh_traffic *t)
{
	return snh_traffic_side_done(t, 0) && snh_traffic_side_done(t, 1);
}

bool snh_traffic_world_pump(void *arg)
{
	struct snh_traffic *t = arg;

	if (atomic_load(&t->failed))
		return true;
	if (t->side[0].nic->err[0] || t->side[1].nic->err[0]) {
		snh_traffic_fail(t, "decoder: %s%s", t->side[0].nic->err,
				 t->side[1].nic->err);
		return true;
	}
	snh_traffic_pump(t, 0);
	snh_traffic_pump(t, 1);
	return snh_traffic_done(t);
}
