/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Intrusive lists.
 *
 *   struct uet_dlist     circular doubly linked list; the same type is the
 *                        head and the link embedded in each element.
 *   struct uet_squeue    singly linked FIFO queue (head + tail pointers)
 *                        of struct uet_squeue_entry links.
 *
 * Nothing here allocates.  An element is on at most one list per
 * embedded link.  None of this is thread safe: the owner's lock covers
 * the list.  uet_container_of() is ours; libfabric's container_of is
 * deprecated in 2.x and must not be used.
 */
#ifndef UET_LIST_H
#define UET_LIST_H

#include <stdbool.h>
#include <stddef.h>

/* Pointer to the structure of type `type` whose member `member` is at ptr. */
#define uet_container_of(ptr, type, member)				\
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

#define UET_CAT_(a, b)	a##b
#define UET_CAT(a, b)	UET_CAT_(a, b)
/* A fresh identifier per expansion, for hidden loop cursors. */
#define UET_UNIQ(name)	UET_CAT(name, __COUNTER__)

/* ---- doubly linked list ---- */

struct uet_dlist {
	struct uet_dlist *next;
	struct uet_dlist *prev;
};

/* Static initialiser: struct uet_dlist head = UET_DLIST_INIT(head); */
#define UET_DLIST_INIT(name)	{ &(name), &(name) }

static inline void uet_dlist_init(struct uet_dlist *head)
{
	head->next = head;
	head->prev = head;
}

static inline bool uet_dlist_empty(const struct uet_dlist *head)
{
	return head->next == head;
}

/*
 * True when an element link is on some list.  Valid only for links that
 * were uet_dlist_init()ed or removed with uet_dlist_remove().
 */
static inline bool uet_dlist_linked(const struct uet_dlist *e)
{
	return e->next != e;
}

/* Insert e between two adjacent links. */
static inline void uet_dlist_insert_between_(struct uet_dlist *e,
					     struct uet_dlist *prev,
					     struct uet_dlist *next)
{
	e->prev = prev;
	e->next = next;
	prev->next = e;
	next->prev = e;
}

/* Insert e immediately after pos (pos may be the head or an element). */
static inline void uet_dlist_insert_after(struct uet_dlist *pos,
					  struct uet_dlist *e)
{
	uet_dlist_insert_between_(e, pos, pos->next);
}

/* Insert e immediately before pos. */
static inline void uet_dlist_insert_before(struct uet_dlist *pos,
					   struct uet_dlist *e)
{
	uet_dlist_insert_between_(e, pos->prev, pos);
}

static inline void uet_dlist_insert_head(struct uet_dlist *head,
					 struct uet_dlist *e)
{
	uet_dlist_insert_after(head, e);
}

static inline void uet_dlist_insert_tail(struct uet_dlist *head,
					 struct uet_dlist *e)
{
	uet_dlist_insert_before(head, e);
}

/* Unlink e and leave it self-linked (so uet_dlist_linked() is false). */
static inline void uet_dlist_remove(struct uet_dlist *e)
{
	e->prev->next = e->next;
	e->next->prev = e->prev;
	uet_dlist_init(e);
}

/* First / last link, or NULL when the list is empty. */
static inline struct uet_dlist *uet_dlist_first(const struct uet_dlist *head)
{
	return uet_dlist_empty(head) ? NULL : head->next;
}

static inline struct uet_dlist *uet_dlist_last(const struct uet_dlist *head)
{
	return uet_dlist_empty(head) ? NULL : head->prev;
}

/* Remove and return the first link, or NULL when empty. */
static inline struct uet_dlist *uet_dlist_pop_head(struct uet_dlist *head)
{
	struct uet_dlist *e = uet_dlist_first(head);

	if (e)
		uet_dlist_remove(e);
	return e;
}

/* Move every element of src to the tail of dst (order kept); src ends empty. */
static inline void uet_dlist_splice_tail(struct uet_dlist *dst,
					 struct uet_dlist *src)
{
	if (uet_dlist_empty(src))
		return;
	src->next->prev = dst->prev;
	dst->prev->next = src->next;
	src->prev->next = dst;
	dst->prev = src->prev;
	uet_dlist_init(src);
}

/* Move every element of src to the head of dst (order kept); src ends empty. */
static inline void uet_dlist_splice_head(struct uet_dlist *dst,
					 struct uet_dlist *src)
{
	if (uet_dlist_empty(src))
		return;
	src->prev->next = dst->next;
	dst->next->prev = src->prev;
	src->next->prev = dst;
	dst->next = src->next;
	uet_dlist_init(src);
}

#define uet_dlist_entry(ptr, type, member)				\
	uet_container_of(ptr, type, member)

/* First / last element as `type *`, or NULL when empty. */
#define uet_dlist_first_entry(head, type, member)			\
	(uet_dlist_empty(head) ? (type *)NULL :				\
	 uet_container_of((head)->next, type, member))

#define uet_dlist_last_entry(head, type, member)			\
	(uet_dlist_empty(head) ? (type *)NULL :				\
	 uet_container_of((head)->prev, type, member))

/* Iterate links; the body must not remove pos. */
#define uet_dlist_foreach(head, pos)					\
	for ((pos) = (head)->next; (pos) != (head); (pos) = (pos)->next)

/* Iterate links; the body may remove (or free) pos.  tmp is scratch. */
#define uet_dlist_foreach_safe(head, pos, tmp)				\
	for ((pos) = (head)->next, (tmp) = (pos)->next;			\
	     (pos) != (head);						\
	     (pos) = (tmp), (tmp) = (pos)->next)

/*
 * Iterate elements: obj is a `type *` variable set to each element whose
 * link `member` is on the list.  The cursor is hidden, so nested loops
 * are fine.  The body must not remove obj.
 */
#define uet_dlist_foreach_entry(head, obj, member)			\
	uet_dlist_foreach_entry_(head, obj, member, UET_UNIQ(uet_dl_n_))
#define uet_dlist_foreach_entry_(head, obj, member, n)			\
	for (struct uet_dlist *n = (head)->next;			\
	     n != (head) &&						\
	     ((obj) = uet_container_of(n, __typeof__(*(obj)), member), 1); \
	     n = n->next)

/* As uet_dlist_foreach_entry, but the body may remove (or free) obj. */
#define uet_dlist_foreach_entry_safe(head, obj, member)			\
	uet_dlist_foreach_entry_safe_(head, obj, member,		\
				      UET_UNIQ(uet_dl_n_), UET_UNIQ(uet_dl_t_))
#define uet_dlist_foreach_entry_safe_(head, obj, member, n, t)		\
	for (struct uet_dlist *n = (head)->next, *t = n->next;		\
	     n != (head) &&						\
	     ((obj) = uet_container_of(n, __typeof__(*(obj)), member), 1); \
	     n = t, t = n->next)

/* ---- singly linked FIFO queue ---- */

struct uet_squeue_entry {
	struct uet_squeue_entry *next;
};

struct uet_squeue {
	struct uet_squeue_entry *head;
	struct uet_squeue_entry *tail;
};

#define UET_SQUEUE_INIT	{ NULL, NULL }

static inline void uet_squeue_init(struct uet_squeue *q)
{
	q->head = NULL;
	q->tail = NULL;
}

static inline bool uet_squeue_empty(const struct uet_squeue *q)
{
	return q->head == NULL;
}

static inline void uet_squeue_push_tail(struct uet_squeue *q,
					struct uet_squeue_entry *e)
{
	e->next = NULL;
	if (q->tail)
		q->tail->next = e;
	else
		q->head = e;
	q->tail = e;
}

/* Put e back at the front (e.g. a request that must be retried first). */
static inline void uet_squeue_push_head(struct uet_squeue *q,
					struct uet_squeue_entry *e)
{
	e->next = q->head;
	q->head = e;
	if (!q->tail)
		q->tail = e;
}

/* Oldest entry without removing it, or NULL. */
static inline struct uet_squeue_entry *
uet_squeue_peek(const struct uet_squeue *q)
{
	return q->head;
}

/* Remove and return the oldest entry, or NULL when empty. */
static inline struct uet_squeue_entry *uet_squeue_pop_head(struct uet_squeue *q)
{
	struct uet_squeue_entry *e = q->head;

	if (!e)
		return NULL;
	q->head = e->next;
	if (!q->head)
		q->tail = NULL;
	e->next = NULL;
	return e;
}

/* Iterate entries in FIFO order; the body must not modify the queue. */
#define uet_squeue_foreach(q, pos)					\
	for ((pos) = (q)->head; (pos); (pos) = (pos)->next)

#endif /* UET_LIST_H */
