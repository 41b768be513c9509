/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * util/uet_list.h: intrusive doubly linked list and singly linked FIFO.
 */
#include "config.h"

#include <stdlib.h>

#include "uet_list.h"
#include "uet_test.h"

struct item {
	int value;
	struct uet_dlist link;
	struct uet_squeue_entry qlink;
};

/* Check the list holds exactly the values in want, both directions. */
static void check_list(const struct uet_dlist *head, const int *want,
		       size_t n)
{
	const struct uet_dlist *pos;
	size_t i = 0;

	for (pos = head->next; pos != head; pos = pos->next) {
		ck_assert_uint_lt(i, n);
		ck_assert_int_eq(uet_dlist_entry(pos, struct item,
						 link)->value, want[i]);
		ck_assert_ptr_eq(pos->next->prev, pos);
		i++;
	}
	ck_assert_uint_eq(i, n);
	for (pos = head->prev; pos != head; pos = pos->prev) {
		ck_assert_uint_gt(i, 0);
		i--;
		ck_assert_int_eq(uet_dlist_entry(pos, struct item,
						 link)->value, want[i]);
	}
	ck_assert_uint_eq(i, 0);
	ck_assert_int_eq(uet_dlist_empty(head), n == 0);
}

START_TEST(test_container_of)
{
	struct item it = { .value = 42 };

	ck_assert_ptr_eq(uet_container_of(&it.link, struct item, link), &it);
	ck_assert_ptr_eq(uet_container_of(&it.qlink, struct item, qlink),
			 &it);
	ck_assert_ptr_eq(uet_container_of(&it.value, struct item, value), &it);
}
END_TEST

START_TEST(test_dlist_empty_init)
{
	struct uet_dlist head = UET_DLIST_INIT(head);
	struct uet_dlist head2;

	ck_assert(uet_dlist_empty(&head));
	ck_assert_ptr_null(uet_dlist_first(&head));
	ck_assert_ptr_null(uet_dlist_last(&head));
	ck_assert_ptr_null(uet_dlist_pop_head(&head));
	ck_assert_ptr_null(uet_dlist_first_entry(&head, struct item, link));
	ck_assert_ptr_null(uet_dlist_last_entry(&head, struct item, link));
	uet_dlist_init(&head2);
	ck_assert(uet_dlist_empty(&head2));
	ck_assert_ptr_eq(head2.next, &head2);
	ck_assert_ptr_eq(head2.prev, &head2);
}
END_TEST

START_TEST(test_dlist_insert_remove)
{
	struct item it[5];
	struct uet_dlist head;
	int i;

	uet_dlist_init(&head);
	for (i = 0; i < 5; i++) {
		it[i].value = i;
		uet_dlist_init(&it[i].link);
		ck_assert(!uet_dlist_linked(&it[i].link));
	}

	uet_dlist_insert_tail(&head, &it[2].link);
	uet_dlist_insert_head(&head, &it[1].link);
	uet_dlist_insert_tail(&head, &it[3].link);
	uet_dlist_insert_head(&head, &it[0].link);
	check_list(&head, (const int[]){ 0, 1, 2, 3 }, 4);
	ck_assert(uet_dlist_linked(&it[0].link));

	ck_assert_ptr_eq(uet_dlist_first(&head), &it[0].link);
	ck_assert_ptr_eq(uet_dlist_last(&head), &it[3].link);
	ck_assert_ptr_eq(uet_dlist_first_entry(&head, struct item, link),
			 &it[0]);
	ck_assert_ptr_eq(uet_dlist_last_entry(&head, struct item, link),
			 &it[3]);

	uet_dlist_insert_after(&it[1].link, &it[4].link);
	check_list(&head, (const int[]){ 0, 1, 4, 2, 3 }, 5);
	uet_dlist_remove(&it[4].link);
	ck_assert(!uet_dlist_linked(&it[4].link));
	uet_dlist_insert_before(&it[0].link, &it[4].link);
	check_list(&head, (const int[]){ 4, 0, 1, 2, 3 }, 5);

	/* Remove middle, head, tail. */
	uet_dlist_remove(&it[1].link);
	check_list(&head, (const int[]){ 4, 0, 2, 3 }, 4);
	uet_dlist_remove(&it[4].link);
	check_list(&head, (const int[]){ 0, 2, 3 }, 3);
	uet_dlist_remove(&it[3].link);
	check_list(&head, (const int[]){ 0, 2 }, 2);

	ck_assert_ptr_eq(uet_dlist_pop_head(&head), &it[0].link);
	ck_assert(!uet_dlist_linked(&it[0].link));
	check_list(&head, (const int[]){ 2 }, 1);
	ck_assert_ptr_eq(uet_dlist_first(&head), uet_dlist_last(&head));
	uet_dlist_remove(&it[2].link);
	check_list(&head, NULL, 0);
}
END_TEST

START_TEST(test_dlist_splice)
{
	struct item it[6];
	struct uet_dlist a, b;
	int i;

	for (i = 0; i < 6; i++)
		it[i].value = i;

	uet_dlist_init(&a);
	uet_dlist_init(&b);
	/* Empty source: no change. */
	uet_dlist_splice_tail(&a, &b);
	uet_dlist_splice_head(&a, &b);
	check_list(&a, NULL, 0);

	/* Into an empty destination. */
	uet_dlist_insert_tail(&b, &it[0].link);
	uet_dlist_insert_tail(&b, &it[1].link);
	uet_dlist_splice_tail(&a, &b);
	check_list(&a, (const int[]){ 0, 1 }, 2);
	check_list(&b, NULL, 0);

	uet_dlist_insert_tail(&b, &it[2].link);
	uet_dlist_insert_tail(&b, &it[3].link);
	uet_dlist_splice_tail(&a, &b);
	check_list(&a, (const int[]){ 0, 1, 2, 3 }, 4);
	check_list(&b, NULL, 0);

	uet_dlist_insert_tail(&b, &it[4].link);
	uet_dlist_insert_tail(&b, &it[5].link);
	uet_dlist_splice_head(&a, &b);
	check_list(&a, (const int[]){ 4, 5, 0, 1, 2, 3 }, 6);
	check_list(&b, NULL, 0);

	/* Single element, into the head of an empty list. */
	uet_dlist_remove(&it[3].link);
	uet_dlist_insert_tail(&b, &it[3].link);
	uet_dlist_splice_head(&a, &b);
	check_list(&a, (const int[]){ 3, 4, 5, 0, 1, 2 }, 6);
	uet_dlist_splice_tail(&b, &a);
	check_list(&b, (const int[]){ 3, 4, 5, 0, 1, 2 }, 6);
	check_list(&a, NULL, 0);
}
END_TEST

START_TEST(test_dlist_foreach)
{
	struct item it[8], *obj, *inner;
	struct uet_dlist head, *pos;
	int i, sum = 0, count = 0, pairs = 0;

	uet_dlist_init(&head);
	uet_dlist_foreach(&head, pos)
		count++;
	ck_assert_int_eq(count, 0);
	uet_dlist_foreach_entry(&head, obj, link)
		count++;
	ck_assert_int_eq(count, 0);

	for (i = 0; i < 8; i++) {
		it[i].value = i;
		uet_dlist_insert_tail(&head, &it[i].link);
	}
	i = 0;
	uet_dlist_foreach(&head, pos) {
		ck_assert_int_eq(uet_dlist_entry(pos, struct item,
						 link)->value, i);
		i++;
	}
	ck_assert_int_eq(i, 8);

	i = 0;
	uet_dlist_foreach_entry(&head, obj, link) {
		ck_assert_ptr_eq(obj, &it[i]);
		sum += obj->value;
		i++;
	}
	ck_assert_int_eq(sum, 28);

	/* Nested loops over the same list (hidden cursors do not clash). */
	uet_dlist_foreach_entry(&head, obj, link)
		uet_dlist_foreach_entry(&head, inner, link)
			pairs += obj->value < inner->value;
	ck_assert_int_eq(pairs, 28);
}
END_TEST

START_TEST(test_dlist_foreach_safe_remove)
{
	struct item it[10], *obj;
	struct uet_dlist head, *pos, *tmp;
	int i, visited = 0;

	uet_dlist_init(&head);
	for (i = 0; i < 10; i++) {
		it[i].value = i;
		uet_dlist_insert_tail(&head, &it[i].link);
	}

	/* Remove every odd element while walking links. */
	uet_dlist_foreach_safe(&head, pos, tmp) {
		visited++;
		if (uet_dlist_entry(pos, struct item, link)->value % 2)
			uet_dlist_remove(pos);
	}
	ck_assert_int_eq(visited, 10);
	check_list(&head, (const int[]){ 0, 2, 4, 6, 8 }, 5);

	/* Remove first, a middle one and the last while walking entries. */
	visited = 0;
	uet_dlist_foreach_entry_safe(&head, obj, link) {
		visited++;
		if (obj->value == 0 || obj->value == 4 || obj->value == 8)
			uet_dlist_remove(&obj->link);
	}
	ck_assert_int_eq(visited, 5);
	check_list(&head, (const int[]){ 2, 6 }, 2);

	/* Remove everything, freeing as we go. */
	for (i = 0; i < 3; i++) {
		obj = malloc(sizeof(*obj));
		ck_assert_ptr_nonnull(obj);
		obj->value = 100 + i;
		uet_dlist_insert_tail(&head, &obj->link);
	}
	visited = 0;
	uet_dlist_foreach_entry_safe(&head, obj, link) {
		visited++;
		uet_dlist_remove(&obj->link);
		if (obj->value >= 100)
			free(obj);
	}
	ck_assert_int_eq(visited, 5);
	check_list(&head, NULL, 0);
}
END_TEST

START_TEST(test_squeue_fifo)
{
	struct uet_squeue q = UET_SQUEUE_INIT;
	struct uet_squeue_entry *e;
	struct item it[6];
	int i, n;

	ck_assert(uet_squeue_empty(&q));
	ck_assert_ptr_null(uet_squeue_pop_head(&q));
	ck_assert_ptr_null(uet_squeue_peek(&q));

	for (i = 0; i < 6; i++)
		it[i].value = i;
	for (i = 0; i < 4; i++)
		uet_squeue_push_tail(&q, &it[i].qlink);
	ck_assert(!uet_squeue_empty(&q));
	ck_assert_ptr_eq(uet_squeue_peek(&q), &it[0].qlink);

	n = 0;
	uet_squeue_foreach(&q, e) {
		ck_assert_int_eq(uet_container_of(e, struct item,
						  qlink)->value, n);
		n++;
	}
	ck_assert_int_eq(n, 4);

	/* Interleave pops and pushes: FIFO order throughout. */
	ck_assert_ptr_eq(uet_squeue_pop_head(&q), &it[0].qlink);
	ck_assert_ptr_eq(uet_squeue_pop_head(&q), &it[1].qlink);
	uet_squeue_push_tail(&q, &it[4].qlink);
	ck_assert_ptr_eq(uet_squeue_pop_head(&q), &it[2].qlink);
	uet_squeue_push_head(&q, &it[5].qlink);
	ck_assert_ptr_eq(uet_squeue_pop_head(&q), &it[5].qlink);
	ck_assert_ptr_eq(uet_squeue_pop_head(&q), &it[3].qlink);
	ck_assert_ptr_eq(uet_squeue_pop_head(&q), &it[4].qlink);
	ck_assert(uet_squeue_empty(&q));
	ck_assert_ptr_null(q.tail);
	ck_assert_ptr_null(uet_squeue_pop_head(&q));

	/* Tail is right after draining: push works again. */
	uet_squeue_push_tail(&q, &it[1].qlink);
	uet_squeue_push_tail(&q, &it[2].qlink);
	ck_assert_ptr_eq(q.tail, &it[2].qlink);
	ck_assert_ptr_eq(uet_squeue_pop_head(&q), &it[1].qlink);
	ck_assert_ptr_eq(uet_squeue_pop_head(&q), &it[2].qlink);
	ck_assert(uet_squeue_empty(&q));

	/* push_head on an empty queue sets the tail too. */
	uet_squeue_init(&q);
	uet_squeue_push_head(&q, &it[0].qlink);
	uet_squeue_push_tail(&q, &it[1].qlink);
	ck_assert_ptr_eq(uet_squeue_pop_head(&q), &it[0].qlink);
	ck_assert_ptr_eq(uet_squeue_pop_head(&q), &it[1].qlink);
	ck_assert(uet_squeue_empty(&q));
}
END_TEST

/* Random operations against a reference array model. */
START_TEST(test_dlist_random_model)
{
	enum { N = 64, ROUNDS = 20000 };
	struct item it[N];
	int model[N], len = 0, i, j, k;
	struct uet_dlist head;

	uet_dlist_init(&head);
	for (i = 0; i < N; i++) {
		it[i].value = i;
		uet_dlist_init(&it[i].link);
	}
	for (k = 0; k < ROUNDS; k++) {
		i = (int)uet_test_rand_bits(6);
		if (uet_dlist_linked(&it[i].link)) {
			uet_dlist_remove(&it[i].link);
			for (j = 0; model[j] != i; j++)
				;
			for (; j < len - 1; j++)
				model[j] = model[j + 1];
			len--;
		} else if (uet_test_rand_bits(1)) {
			uet_dlist_insert_tail(&head, &it[i].link);
			model[len++] = i;
		} else {
			uet_dlist_insert_head(&head, &it[i].link);
			for (j = len; j > 0; j--)
				model[j] = model[j - 1];
			model[0] = i;
			len++;
		}
		if (k % 97 == 0)
			check_list(&head, model, (size_t)len);
	}
	check_list(&head, model, (size_t)len);
}
END_TEST

static Suite *util_list_suite(void)
{
	Suite *s = suite_create("util_list");
	TCase *tc = tcase_create("list");

	tcase_add_test(tc, test_container_of);
	tcase_add_test(tc, test_dlist_empty_init);
	tcase_add_test(tc, test_dlist_insert_remove);
	tcase_add_test(tc, test_dlist_splice);
	tcase_add_test(tc, test_dlist_foreach);
	tcase_add_test(tc, test_dlist_foreach_safe_remove);
	tcase_add_test(tc, test_squeue_fifo);
	tcase_add_test(tc, test_dlist_random_model);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(util_list_suite)
