/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Simulated fabric; see uet_link_sim.h for the model.
 *
 * Events are packet arrivals at nodes, kept in a binary min-heap by
 * (time, sequence) so that equal times keep their order and a run is a
 * function of the seed, the topology and the calls.  A packet is one
 * malloc'ed buffer that travels from port to port; a host's link hands
 * out the buffers of the last recv() and frees them at the next.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "uet_link_sim.h"
#include "uet_list.h"
#include "uet_rand.h"

#define UET_LINK_SIM_NS		1000000000ull
#define UET_LINK_SIM_PPM	1000000u
#define UET_LINK_SIM_RX_MAX	256u

struct uet_link_sim_pkt {
	struct uet_link_sim_pkt *next;	/* host rx FIFO, rx_done */
	int src, dst;			/* host nodes */
	uint16_t src_port;
	uint16_t entropy;
	uint8_t tos;
	size_t len;
	uint8_t data[];
};

struct uet_link_sim_port {
	int from, to;
	struct uet_link_sim_port_cfg cfg;
	uint64_t busy_until;
	uint64_t burst_ns, burst;	/* bytes that arrived at burst_ns */
	struct uet_link_sim_port_stats st;
};

struct uet_link_sim_host {
	struct uet_link base;
	struct uet_link_sim *sim;
	int node;
	uint16_t port;
	struct uet_link_sim_pkt *rx_head, *rx_tail;
	struct uet_link_sim_pkt *rx_done;
	bool open;
};

struct uet_link_sim_node {
	bool is_host;
	struct uet_link_sim_host *host;	/* hosts */
	int *ports;			/* output port numbers */
	unsigned int nports;
};

struct uet_link_sim_ev {
	uint64_t t;
	uint64_t seq;
	int node;
	struct uet_link_sim_pkt *pkt;
};

struct uet_link_sim {
	uint64_t now;
	uint64_t rng;
	uint64_t seq;
	size_t mtu;
	struct uet_link_sim_node *nodes;
	unsigned int nnodes;
	struct uet_link_sim_port *ports;
	unsigned int nports;
	struct uet_link_sim_ev *heap;
	size_t nheap, heap_cap;
	/* dist[node * nnodes + host]: hops to host, UINT32_MAX unreachable */
	uint32_t *dist;
	bool routes_valid;
	uint64_t delivered, dropped;
};

static const struct uet_link_ops uet_link_sim_ops;

static struct uet_link_sim_host *uet_link_sim_host_of(struct uet_link *l)
{
	return uet_container_of(l, struct uet_link_sim_host, base);
}

static uint64_t uet_link_sim_rand(struct uet_link_sim *sim)
{
	return uet_rand_next(&sim->rng);
}

static uint64_t uet_link_sim_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* ---- event heap ---- */

static bool uet_link_sim_ev_lt(const struct uet_link_sim_ev *a,
			       const struct uet_link_sim_ev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static int uet_link_sim_push(struct uet_link_sim *sim, uint64_t t, int node,
			     struct uet_link_sim_pkt *pkt)
{
	struct uet_link_sim_ev ev = { t, sim->seq++, node, pkt }, tmp;
	struct uet_link_sim_ev *h;
	size_t i, cap;

	if (sim->nheap == sim->heap_cap) {
		cap = sim->heap_cap ? sim->heap_cap * 2 : 1024;
		h = realloc(sim->heap, cap * sizeof(*h));
		if (!h)
			return -ENOMEM;
		sim->heap = h;
		sim->heap_cap = cap;
	}
	i = sim->nheap++;
	sim->heap[i] = ev;
	while (i && uet_link_sim_ev_lt(&sim->heap[i], &sim->heap[(i - 1) / 2])) {
		tmp = sim->heap[i];
		sim->heap[i] = sim->heap[(i - 1) / 2];
		sim->heap[(i - 1) / 2] = tmp;
		i = (i - 1) / 2;
	}
	return 0;
}

static struct uet_link_sim_ev uet_link_sim_pop(struct uet_link_sim *sim)
{
	struct uet_link_sim_ev top = sim->heap[0], tmp;
	size_t i = 0, l, r, m;

	sim->heap[0] = sim->heap[--sim->nheap];
	for (;;) {
		l = 2 * i + 1;
		r = l + 1;
		m = i;
		if (l < sim->nheap &&
		    uet_link_sim_ev_lt(&sim->heap[l], &sim->heap[m]))
			m = l;
		if (r < sim->nheap &&
		    uet_link_sim_ev_lt(&sim->heap[r], &sim->heap[m]))
			m = r;
		if (m == i)
			break;
		tmp = sim->heap[i];
		sim->heap[i] = sim->heap[m];
		sim->heap[m] = tmp;
		i = m;
	}
	return top;
}

/* ---- routing ---- */

/* Hop counts from every node to every host (BFS from each host; hosts
 * other than the origin are not crossed). */
static int uet_link_sim_routes(struct uet_link_sim *sim)
{
	unsigned int n = sim->nnodes, h, head, tail, i;
	uint32_t *dist, *q;
	int v, p, u;

	if (sim->routes_valid)
		return 0;
	dist = malloc((size_t)n * n * sizeof(*dist));
	q = malloc((size_t)n * sizeof(*q));
	if (!dist || !q) {
		free(dist);
		free(q);
		return -ENOMEM;
	}
	for (i = 0; i < n * n; i++)
		dist[i] = UINT32_MAX;
	for (h = 0; h < n; h++) {
		if (!sim->nodes[h].is_host)
			continue;
		head = tail = 0;
		dist[h * n + h] = 0;
		q[tail++] = h;
		while (head < tail) {
			v = (int)q[head++];
			if (sim->nodes[v].is_host && (unsigned int)v != h)
				continue;
			/* Neighbours u that reach v in one hop: the ends of
			 * v's ports (links are bidirectional). */
			for (i = 0; i < sim->nodes[v].nports; i++) {
				p = sim->nodes[v].ports[i];
				u = sim->ports[p].to;
				if (dist[(unsigned int)u * n + h] != UINT32_MAX)
					continue;
				dist[(unsigned int)u * n + h] =
					dist[(unsigned int)v * n + h] + 1;
				q[tail++] = (uint32_t)u;
			}
		}
	}
	free(q);
	free(sim->dist);
	sim->dist = dist;
	sim->routes_valid = true;
	return 0;
}

/* The output port of node towards host dst, or -1. */
static int uet_link_sim_next_port(struct uet_link_sim *sim, int node,
				  const struct uet_link_sim_pkt *pkt)
{
	unsigned int n = sim->nnodes, i, k = 0, pick;
	struct uet_link_sim_node *nd = &sim->nodes[node];
	uint32_t d = sim->dist[(unsigned int)node * n + (unsigned int)pkt->dst];
	int cand[16];
	int p, to;

	if (d == UINT32_MAX || d == 0)
		return -1;
	for (i = 0; i < nd->nports && k < 16; i++) {
		p = nd->ports[i];
		to = sim->ports[p].to;
		if (sim->dist[(unsigned int)to * n + (unsigned int)pkt->dst] ==
		    d - 1)
			cand[k++] = p;
	}
	if (!k)
		return -1;
	if (k == 1)
		return cand[0];
	pick = (unsigned int)(uet_link_sim_mix(
		((uint64_t)(uint32_t)pkt->src << 40) ^
		((uint64_t)(uint32_t)pkt->dst << 20) ^
		((uint64_t)pkt->entropy << 4) ^
		uet_link_sim_mix((uint64_t)node)) % k);
	return cand[pick];
}

/* ---- ports ---- */

static uint64_t uet_link_sim_ser_ns(const struct uet_link_sim_port *p,
				    size_t len)
{
	return ((uint64_t)len * 8u * UET_LINK_SIM_NS + p->cfg.rate_bps - 1) /
	       p->cfg.rate_bps;
}

static uint64_t uet_link_sim_backlog(const struct uet_link_sim_port *p,
				     uint64_t now)
{
	if (p->busy_until <= now)
		return 0;
	return (p->busy_until - now) * p->cfg.rate_bps / (8u * UET_LINK_SIM_NS);
}

static void uet_link_sim_drop(struct uet_link_sim *sim,
			      struct uet_link_sim_pkt *pkt)
{
	sim->dropped++;
	free(pkt);
}

/* A packet arrives at port p at time now: queue it (or drop/trim/mark). */
static int uet_link_sim_enqueue(struct uet_link_sim *sim, int pn,
				struct uet_link_sim_pkt *pkt, uint64_t now)
{
	struct uet_link_sim_port *p = &sim->ports[pn];
	uint64_t backlog = uet_link_sim_backlog(p, now), start, done;

	if (p->cfg.drop_ppm &&
	    (p->cfg.drop_ppm >= UET_LINK_SIM_PPM ||
	     uet_link_sim_rand(sim) % UET_LINK_SIM_PPM < p->cfg.drop_ppm)) {
		p->st.drops++;
		uet_link_sim_drop(sim, pkt);
		return 0;
	}
	if (p->cfg.queue_bytes && backlog + pkt->len > p->cfg.queue_bytes) {
		if (!p->cfg.trim || pkt->len <= UET_LINK_SIM_TRIM_BYTES) {
			p->st.drops++;
			uet_link_sim_drop(sim, pkt);
			return 0;
		}
		pkt->len = UET_LINK_SIM_TRIM_BYTES;
		pkt->tos = (uint8_t)(UET_LINK_DSCP_TRIMMED << 2 |
				     (pkt->tos & UET_LINK_ECN_MASK));
		p->st.trims++;
	}
	if (p->cfg.ecn_bytes && backlog >= p->cfg.ecn_bytes &&
	    (pkt->tos & UET_LINK_ECN_MASK) &&
	    (pkt->tos & UET_LINK_ECN_MASK) != UET_LINK_ECN_CE) {
		pkt->tos |= UET_LINK_ECN_CE;
		p->st.marks++;
	}
	if (backlog > p->st.qmax)
		p->st.qmax = backlog;
	if (p->st.tx_pkts && now == p->burst_ns) {
		p->burst += pkt->len;
	} else {
		p->burst_ns = now;
		p->burst = pkt->len;
	}
	if (p->burst > p->st.burst_max)
		p->st.burst_max = p->burst;
	start = p->busy_until > now ? p->busy_until : now;
	done = start + uet_link_sim_ser_ns(p, pkt->len);
	p->busy_until = done;
	p->st.tx_pkts++;
	p->st.tx_bytes += pkt->len;
	if (uet_link_sim_push(sim, done + p->cfg.delay_ns, p->to, pkt)) {
		uet_link_sim_drop(sim, pkt);
		return -ENOMEM;
	}
	return 0;
}

/* A packet reaches node at time t. */
static void uet_link_sim_arrive(struct uet_link_sim *sim, int node,
				struct uet_link_sim_pkt *pkt, uint64_t t)
{
	struct uet_link_sim_node *nd = &sim->nodes[node];
	struct uet_link_sim_host *h;
	int p;

	if (nd->is_host) {
		h = nd->host;
		if (node != pkt->dst || !h || !h->open) {
			uet_link_sim_drop(sim, pkt);
			return;
		}
		pkt->next = NULL;
		if (h->rx_tail)
			h->rx_tail->next = pkt;
		else
			h->rx_head = pkt;
		h->rx_tail = pkt;
		sim->delivered++;
		return;
	}
	p = uet_link_sim_next_port(sim, node, pkt);
	if (p < 0)
		uet_link_sim_drop(sim, pkt);
	else
		(void)uet_link_sim_enqueue(sim, p, pkt, t);	/* lost on
								 * ENOMEM */
}

void uet_link_sim_run(struct uet_link_sim *sim, uint64_t now)
{
	struct uet_link_sim_ev ev;

	if (!sim)
		return;
	if (now < sim->now)
		now = sim->now;
	while (sim->nheap && sim->heap[0].t <= now) {
		ev = uet_link_sim_pop(sim);
		sim->now = ev.t > sim->now ? ev.t : sim->now;
		uet_link_sim_arrive(sim, ev.node, ev.pkt, ev.t);
	}
	sim->now = now;
}

uint64_t uet_link_sim_now(const struct uet_link_sim *sim)
{
	return sim->now;
}

uint64_t uet_link_sim_next_event(const struct uet_link_sim *sim)
{
	return sim->nheap ? sim->heap[0].t : UINT64_MAX;
}

void uet_link_sim_totals(const struct uet_link_sim *sim, uint64_t *delivered,
			 uint64_t *dropped)
{
	if (delivered)
		*delivered = sim->delivered;
	if (dropped)
		*dropped = sim->dropped;
}

/* ---- host link ops ---- */

static int uet_link_sim_find_host(const struct uet_link_sim *sim,
				  const struct uet_link_addr *a)
{
	const struct sockaddr_in *sin = (const void *)&a->ss;
	unsigned int i;

	if (a->ss.ss_family != AF_INET ||
	    sin->sin_addr.s_addr != htonl(INADDR_LOOPBACK))
		return -1;
	for (i = 0; i < sim->nnodes; i++)
		if (sim->nodes[i].is_host && sim->nodes[i].host &&
		    sim->nodes[i].host->port == ntohs(sin->sin_port))
			return (int)i;
	return -1;
}

static int uet_link_sim_send(struct uet_link *link,
			     const struct uet_link_pkt *pkts, unsigned int n)
{
	struct uet_link_sim_host *h = uet_link_sim_host_of(link);
	struct uet_link_sim *sim = h->sim;
	struct uet_link_sim_node *nd = &sim->nodes[h->node];
	struct uet_link_sim_port *up;
	struct uet_link_sim_pkt *pkt;
	unsigned int i, k;
	size_t len;
	int dst, ret;

	if (!h->open)
		return -EBADF;
	if (!nd->nports)
		return -ENETUNREACH;
	ret = uet_link_sim_routes(sim);
	if (ret)
		return ret;
	up = &sim->ports[nd->ports[0]];
	for (i = 0; i < n; i++) {
		len = 0;
		for (k = 0; k < pkts[i].iovcnt; k++)
			len += pkts[i].iov[k].iov_len;
		if (len > sim->mtu)
			return i ? (int)i : -EMSGSIZE;
		if (up->cfg.queue_bytes &&
		    uet_link_sim_backlog(up, sim->now) + len >
		    up->cfg.queue_bytes) {
			up->st.refused++;
			return (int)i;
		}
		pkt = malloc(sizeof(*pkt) + len);
		if (!pkt)
			return i ? (int)i : -ENOMEM;
		pkt->next = NULL;
		pkt->src = h->node;
		pkt->src_port = h->port;
		pkt->entropy = pkts[i].entropy;
		pkt->tos = UET_LINK_ECN_ECT0;
		pkt->len = 0;
		for (k = 0; k < pkts[i].iovcnt; k++) {
			if (pkts[i].iov[k].iov_len)
				memcpy(pkt->data + pkt->len,
				       pkts[i].iov[k].iov_base,
				       pkts[i].iov[k].iov_len);
			pkt->len += pkts[i].iov[k].iov_len;
		}
		dst = uet_link_sim_find_host(sim, pkts[i].dst);
		if (dst < 0) {
			uet_link_sim_drop(sim, pkt);
			continue;
		}
		pkt->dst = dst;
		if (uet_link_sim_enqueue(sim, nd->ports[0], pkt, sim->now))
			return i ? (int)i : -ENOMEM;
	}
	return (int)n;
}

static void uet_link_sim_free_done(struct uet_link_sim_host *h)
{
	struct uet_link_sim_pkt *p;

	while ((p = h->rx_done)) {
		h->rx_done = p->next;
		free(p);
	}
}

static void uet_link_sim_set_addr(struct uet_link_addr *a, uint16_t port)
{
	struct sockaddr_in *sin = (void *)&a->ss;

	memset(a, 0, sizeof(*a));
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a->len = sizeof(*sin);
}

static int uet_link_sim_recv(struct uet_link *link, struct uet_link_rx *rx,
			     unsigned int n)
{
	struct uet_link_sim_host *h = uet_link_sim_host_of(link);
	struct uet_link_sim_pkt *p, *done_tail = NULL;
	unsigned int got = 0;

	uet_link_sim_free_done(h);
	if (n > UET_LINK_SIM_RX_MAX)
		n = UET_LINK_SIM_RX_MAX;
	while (got < n && (p = h->rx_head)) {
		h->rx_head = p->next;
		if (!h->rx_head)
			h->rx_tail = NULL;
		p->next = NULL;
		if (done_tail)
			done_tail->next = p;
		else
			h->rx_done = p;
		done_tail = p;
		rx[got].buf = p->data;
		rx[got].len = p->len;
		rx[got].tos = p->tos;
		uet_link_sim_set_addr(&rx[got].src, p->src_port);
		got++;
	}
	return (int)got;
}

static int uet_link_sim_fd(struct uet_link *link)
{
	(void)link;
	return -1;
}

static size_t uet_link_sim_mtu(struct uet_link *link)
{
	return uet_link_sim_host_of(link)->sim->mtu;
}

static int uet_link_sim_local_addr(struct uet_link *link,
				   struct uet_link_addr *addr)
{
	uet_link_sim_set_addr(addr, uet_link_sim_host_of(link)->port);
	return 0;
}

static void uet_link_sim_close(struct uet_link *link)
{
	struct uet_link_sim_host *h = uet_link_sim_host_of(link);
	struct uet_link_sim_pkt *p;

	uet_link_sim_free_done(h);
	while ((p = h->rx_head)) {
		h->rx_head = p->next;
		free(p);
	}
	h->rx_tail = NULL;
	h->open = false;
}

static const struct uet_link_ops uet_link_sim_ops = {
	.send = uet_link_sim_send,
	.recv = uet_link_sim_recv,
	.fd = uet_link_sim_fd,
	.mtu = uet_link_sim_mtu,
	.local_addr = uet_link_sim_local_addr,
	.close = uet_link_sim_close,
	.rx_sets_tos = true,
};

/* ---- topology ---- */

int uet_link_sim_create(struct uet_link_sim **sim, uint64_t seed, size_t mtu)
{
	struct uet_link_sim *s;

	if (!sim || mtu < UET_LINK_SIM_TRIM_BYTES || mtu > 65507)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->rng = seed ? seed : 0x9e3779b97f4a7c15ull;
	s->mtu = mtu;
	*sim = s;
	return 0;
}

void uet_link_sim_destroy(struct uet_link_sim *sim)
{
	unsigned int i;

	if (!sim)
		return;
	while (sim->nheap)
		free(uet_link_sim_pop(sim).pkt);
	for (i = 0; i < sim->nnodes; i++) {
		if (sim->nodes[i].host) {
			uet_link_sim_close(&sim->nodes[i].host->base);
			free(sim->nodes[i].host);
		}
		free(sim->nodes[i].ports);
	}
	free(sim->nodes);
	free(sim->ports);
	free(sim->heap);
	free(sim->dist);
	free(sim);
}

static int uet_link_sim_add_node(struct uet_link_sim *sim, bool is_host)
{
	struct uet_link_sim_node *nodes;

	nodes = realloc(sim->nodes, (sim->nnodes + 1) * sizeof(*nodes));
	if (!nodes)
		return -ENOMEM;
	sim->nodes = nodes;
	memset(&nodes[sim->nnodes], 0, sizeof(*nodes));
	nodes[sim->nnodes].is_host = is_host;
	sim->routes_valid = false;
	return (int)sim->nnodes++;
}

int uet_link_sim_add_switch(struct uet_link_sim *sim)
{
	if (!sim)
		return -EINVAL;
	return uet_link_sim_add_node(sim, false);
}

int uet_link_sim_add_host(struct uet_link_sim *sim, uint16_t port,
			  struct uet_link **link)
{
	struct uet_link_sim_host *h;
	struct uet_link_addr a;
	int node;

	if (!sim || !link || !port)
		return -EINVAL;
	uet_link_sim_set_addr(&a, port);
	if (uet_link_sim_find_host(sim, &a) >= 0)
		return -EADDRINUSE;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	node = uet_link_sim_add_node(sim, true);
	if (node < 0) {
		free(h);
		return node;
	}
	h->base.ops = &uet_link_sim_ops;
	h->sim = sim;
	h->node = node;
	h->port = port;
	h->open = true;
	sim->nodes[node].host = h;
	*link = &h->base;
	return node;
}

static int uet_link_sim_node_add_port(struct uet_link_sim_node *nd, int port)
{
	int *ports = realloc(nd->ports, (nd->nports + 1) * sizeof(*ports));

	if (!ports)
		return -ENOMEM;
	nd->ports = ports;
	nd->ports[nd->nports++] = port;
	return 0;
}

static bool uet_link_sim_cfg_ok(const struct uet_link_sim_port_cfg *c)
{
	return c && c->rate_bps && c->drop_ppm <= UET_LINK_SIM_PPM;
}

int uet_link_sim_connect(struct uet_link_sim *sim, int a, int b,
			 const struct uet_link_sim_port_cfg *ab,
			 const struct uet_link_sim_port_cfg *ba)
{
	struct uet_link_sim_port *ports;
	int pn;

	if (!sim || a < 0 || b < 0 || a == b ||
	    (unsigned int)a >= sim->nnodes || (unsigned int)b >= sim->nnodes ||
	    !uet_link_sim_cfg_ok(ab) || !uet_link_sim_cfg_ok(ba))
		return -EINVAL;
	if ((sim->nodes[a].is_host && sim->nodes[a].nports) ||
	    (sim->nodes[b].is_host && sim->nodes[b].nports))
		return -EEXIST;		/* one uplink per host */
	ports = realloc(sim->ports, (sim->nports + 2) * sizeof(*ports));
	if (!ports)
		return -ENOMEM;
	sim->ports = ports;
	pn = (int)sim->nports;
	memset(&ports[pn], 0, 2 * sizeof(*ports));
	ports[pn].from = a;
	ports[pn].to = b;
	ports[pn].cfg = *ab;
	ports[pn + 1].from = b;
	ports[pn + 1].to = a;
	ports[pn + 1].cfg = *ba;
	if (uet_link_sim_node_add_port(&sim->nodes[a], pn) ||
	    uet_link_sim_node_add_port(&sim->nodes[b], pn + 1))
		return -ENOMEM;
	sim->nports += 2;
	sim->routes_valid = false;
	return pn;
}

int uet_link_sim_port_set(struct uet_link_sim *sim, int port,
			  const struct uet_link_sim_port_cfg *cfg)
{
	if (!sim || port < 0 || (unsigned int)port >= sim->nports ||
	    !uet_link_sim_cfg_ok(cfg))
		return -EINVAL;
	sim->ports[port].cfg = *cfg;
	return 0;
}

int uet_link_sim_port_get_stats(const struct uet_link_sim *sim, int port,
				struct uet_link_sim_port_stats *st)
{
	const struct uet_link_sim_port *p;

	if (!sim || !st || port < 0 || (unsigned int)port >= sim->nports)
		return -EINVAL;
	p = &sim->ports[port];
	*st = p->st;
	st->qbytes = uet_link_sim_backlog(p, sim->now);
	return 0;
}

void uet_link_sim_port_reset_stats(struct uet_link_sim *sim, int port)
{
	if (sim && port >= 0 && (unsigned int)port < sim->nports)
		memset(&sim->ports[port].st, 0, sizeof(sim->ports[port].st));
}

void uet_link_sim_port_reset_qmax(struct uet_link_sim *sim, int port)
{
	if (sim && port >= 0 && (unsigned int)port < sim->nports)
		sim->ports[port].st.qmax = 0;
}
