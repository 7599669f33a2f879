/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/consolidate: the assignment and the pack/unpack rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "consolidate.h"

#define MS 1000000ull

static const struct lull_cons_params prm = {
	.pack_below = 0.5,
	.unpack_above = 0.7,
	.calm_windows = 3,
	.dwell_ns = 5000 * MS,
};

/* n queues, queue i on pmd[i] with load[i]. */
static void
queues(struct lull_cons_queue *qs, unsigned int n, const uint16_t *pmd, const double *load)
{
	for (unsigned int i = 0; i < n; i++)
		qs[i] = (struct lull_cons_queue){.id = i, .pmd = pmd[i], .load = load[i]};
}

/* The PMD of the queue with this id. */
static uint16_t
pmd_of(const struct lull_cons_queue *qs, unsigned int n, uint32_t id)
{
	for (unsigned int i = 0; i < n; i++)
		if (qs[i].id == id)
			return qs[i].pmd;
	fail_msg("no queue %u", id);
	return LULL_CONS_NONE_PMD;
}

/* PMD loads as the queues in qs add up. */
static void
pmd_loads(const struct lull_cons_queue *qs, unsigned int n, struct lull_cons_pmd *pmds,
	unsigned int n_pmds)
{
	memset(pmds, 0, sizeof(*pmds) * n_pmds);
	for (unsigned int i = 0; i < n; i++)
		if (qs[i].pmd < n_pmds)
			pmds[qs[i].pmd].load += qs[i].load;
}

static void
test_assign_largest_first(void **state)
{
	struct lull_cons_queue qs[5];
	const uint16_t pmd[] = {0, 0, 0, 0, 0};
	const double load[] = {0.1, 0.4, 0.3, 0.2, 0.05};
	bool to[2] = {true, true};
	double got[2] = {0};

	(void)state;
	queues(qs, 5, pmd, load);
	assert_true(lull_cons_assign(qs, 5, 2, NULL, to, got, 1.0, 0));
	/* 0.4 -> 0, 0.3 -> 1, 0.2 -> 1, 0.1 -> 0, 0.05 -> 0 or 1 (0.5 vs 0.5: the first) */
	assert_int_equal(pmd_of(qs, 5, 1), 0);
	assert_int_equal(pmd_of(qs, 5, 2), 1);
	assert_int_equal(pmd_of(qs, 5, 3), 1);
	assert_int_equal(pmd_of(qs, 5, 0), 0);
	assert_true(got[0] + got[1] > 1.049 && got[0] + got[1] < 1.051);
	/* over a cap: refused */
	memset(got, 0, sizeof(got));
	queues(qs, 5, pmd, load);
	assert_false(lull_cons_assign(qs, 5, 2, NULL, to, got, 0.45, 0));
}

static void
test_assign_keeps_pinned(void **state)
{
	struct lull_cons_queue qs[3];
	const uint16_t pmd[] = {1, 1, 1};
	const double load[] = {0.5, 0.1, 0.1};
	bool to[2] = {true, true};
	double got[2] = {0};

	(void)state;
	queues(qs, 3, pmd, load);
	qs[0].pinned = true;
	assert_true(lull_cons_assign(qs, 3, 2, NULL, to, got, 1.0, 0));
	assert_int_equal(pmd_of(qs, 3, 0), 1); /* pinned: stays, and weighs on PMD 1 */
	assert_int_equal(pmd_of(qs, 3, 1), 0);
	assert_int_equal(pmd_of(qs, 3, 2), 0);
}

/* Two PMDs at 10 % each: no pack before calm_windows calm windows, then PMD 1
 * (the lighter) parks; nothing within the dwell time after. */
static void
test_pack_after_calm_windows(void **state)
{
	struct lull_cons_state st;
	struct lull_cons_queue qs[4];
	struct lull_cons_pmd pmds[2];
	struct lull_cons_decision d;
	const uint16_t pmd[] = {0, 0, 1, 1};
	const double load[] = {0.06, 0.06, 0.04, 0.04};
	uint64_t t = 0;

	(void)state;
	lull_cons_init(&st);
	queues(qs, 4, pmd, load);
	pmd_loads(qs, 4, pmds, 2);
	for (int w = 0; w < 2; w++) {
		t += 1000 * MS;
		assert_int_equal(
			lull_cons_decide(&st, &prm, pmds, 2, qs, 4, t, &d), LULL_CONS_STAY);
	}
	t += 1000 * MS;
	assert_int_equal(lull_cons_decide(&st, &prm, pmds, 2, qs, 4, t, &d), LULL_CONS_PACK);
	assert_int_equal(d.pmd, 1);
	assert_int_equal(d.moved, 2);
	assert_int_equal(d.awake, 2);
	for (uint32_t i = 0; i < 4; i++)
		assert_int_equal(pmd_of(qs, 4, i), 0);
	lull_cons_moved(&st, t);
	/* now the load jumps: within the dwell time nothing moves */
	pmds[0].load = 0.95;
	pmds[1].load = 0;
	assert_int_equal(
		lull_cons_decide(&st, &prm, pmds, 2, qs, 4, t + 4999 * MS, &d), LULL_CONS_STAY);
	/* after it: unpack at once, the parked PMD 1 wakes */
	assert_int_equal(
		lull_cons_decide(&st, &prm, pmds, 2, qs, 4, t + 5000 * MS, &d), LULL_CONS_UNPACK);
	assert_int_equal(d.pmd, 0);
	assert_int_equal(d.other, 1);
	assert_int_equal(d.moved, 2);
}

/* A window over the pack line resets the calm count. */
/* Issue 28 item 1: a pack whose other PMD would poll more queues than one
 * PMD can is not made (lull's phase 2 would fail and leave them dark); the
 * assignment never puts more than max_queues on a PMD either. */
static void
test_pack_refused_over_queue_cap(void **state)
{
	struct lull_cons_params capped = prm;
	struct lull_cons_state st;
	struct lull_cons_queue qs[6];
	struct lull_cons_pmd pmds[2];
	struct lull_cons_decision d;
	const uint16_t pmd[] = {0, 0, 0, 1, 1, 1};
	const double load[] = {0.01, 0.01, 0.01, 0.01, 0.01, 0.01};
	bool to[2] = {true, true};
	double got[2] = {0};
	unsigned int nq[2];

	(void)state;
	capped.max_queues = 5;
	lull_cons_init(&st);
	queues(qs, 6, pmd, load);
	pmd_loads(qs, 6, pmds, 2);
	for (int w = 1; w <= 10; w++)
		assert_int_equal(lull_cons_decide(&st, &capped, pmds, 2, qs, 6, w * 1000 * MS, &d),
			LULL_CONS_STAY);
	assert_int_equal(lull_cons_count(qs, 6, 2, nq), 2);
	assert_int_equal(nq[0], 3);
	/* with room for all six, the same windows pack */
	capped.max_queues = 6;
	lull_cons_init(&st);
	for (int w = 1; w <= 3; w++)
		lull_cons_decide(&st, &capped, pmds, 2, qs, 6, w * 1000 * MS, &d);
	assert_int_equal(d.kind, LULL_CONS_PACK);
	/* the assignment: 6 queues on PMDs of 2 at most do not fit, of 3 they do */
	queues(qs, 6, pmd, load);
	to[1] = false;
	assert_false(lull_cons_assign(qs, 6, 2, NULL, to, got, 1.0, 5));
	to[1] = true;
	memset(got, 0, sizeof(got));
	queues(qs, 6, (const uint16_t[]){0, 0, 0, 0, 0, 0}, load);
	assert_true(lull_cons_assign(qs, 6, 2, NULL, to, got, 1.0, 3));
	lull_cons_count(qs, 6, 2, nq);
	assert_int_equal(nq[0], 3);
	assert_int_equal(nq[1], 3);
}

static void
test_calm_resets(void **state)
{
	struct lull_cons_state st;
	struct lull_cons_queue qs[2];
	struct lull_cons_pmd pmds[2] = {{.load = 0.1}, {.load = 0.1}};
	struct lull_cons_decision d;
	const uint16_t pmd[] = {0, 1};
	const double load[] = {0.1, 0.1};
	uint64_t t = 0;

	(void)state;
	lull_cons_init(&st);
	queues(qs, 2, pmd, load);
	for (int w = 0; w < 10; w++) {
		pmds[0].load = w % 3 == 2 ? 0.55 : 0.1; /* every third window over 50 % */
		t += 1000 * MS;
		assert_int_equal(
			lull_cons_decide(&st, &prm, pmds, 2, qs, 2, t, &d), LULL_CONS_STAY);
	}
}

/* Pack only if every PMD that takes queues stays under the pack line. */
static void
test_pack_refused_over_line(void **state)
{
	struct lull_cons_state st;
	struct lull_cons_queue qs[2];
	struct lull_cons_pmd pmds[2] = {{.load = 0.3}, {.load = 0.25}};
	struct lull_cons_decision d;
	const uint16_t pmd[] = {0, 1};
	const double load[] = {0.3, 0.25};

	(void)state;
	lull_cons_init(&st);
	queues(qs, 2, pmd, load);
	for (int w = 1; w <= 5; w++)
		assert_int_equal(lull_cons_decide(&st, &prm, pmds, 2, qs, 2, w * 1000 * MS, &d),
			LULL_CONS_STAY);
	assert_int_equal(pmd_of(qs, 2, 0), 0);
	assert_int_equal(pmd_of(qs, 2, 1), 1);
}

/* A pinned queue keeps its PMD awake: the least loaded PMD without one parks
 * instead, and with pins on every candidate nothing moves. */
static void
test_pinned_victim_stays(void **state)
{
	struct lull_cons_state st;
	struct lull_cons_queue qs[4];
	struct lull_cons_pmd pmds[3];
	struct lull_cons_decision d;
	const uint16_t pmd[] = {0, 1, 1, 2};
	const double load[] = {0.2, 0.01, 0.01, 0.05};
	int w = 1;

	(void)state;
	lull_cons_init(&st);
	queues(qs, 4, pmd, load);
	qs[1].pinned = true; /* PMD 1, the least loaded, holds a pinned queue */
	pmd_loads(qs, 4, pmds, 3);
	while (lull_cons_decide(&st, &prm, pmds, 3, qs, 4, w * 1000 * MS, &d) == LULL_CONS_STAY)
		assert_true(++w <= 3);
	assert_int_equal(d.kind, LULL_CONS_PACK);
	assert_int_equal(d.pmd, 2); /* not PMD 1 */
	assert_int_equal(pmd_of(qs, 4, 1), 1);
	assert_int_not_equal(pmd_of(qs, 4, 3), 2);
	/* now PMD 2 is parked; PMD 0 and 1 both hold a pinned queue: no pack */
	lull_cons_moved(&st, w * 1000 * MS);
	for (unsigned int i = 0; i < 4; i++)
		if (qs[i].id == 0)
			qs[i].pinned = true;
	pmd_loads(qs, 4, pmds, 3);
	for (int k = 1; k <= 10; k++)
		assert_int_equal(lull_cons_decide(&st, &prm, pmds, 3, qs, 4,
					 (uint64_t)(w + 5 + k) * 1000 * MS, &d),
			LULL_CONS_STAY);
}

/* Missing the budget while carrying more than the pack line unpacks; an idle
 * PMD's late wakes do not. One queue cannot be split. */
static void
test_unpack_on_misses(void **state)
{
	struct lull_cons_state st;
	struct lull_cons_queue qs[2];
	struct lull_cons_pmd pmds[2] = {{.load = 0.2, .missing = true}, {.load = 0}};
	struct lull_cons_decision d;
	const uint16_t pmd[] = {0, 0};
	const double load[] = {0.1, 0.1};

	(void)state;
	lull_cons_init(&st);
	queues(qs, 2, pmd, load);
	assert_int_equal(lull_cons_decide(&st, &prm, pmds, 2, qs, 2, MS, &d), LULL_CONS_STAY);
	pmds[0].load = 0.6;
	assert_int_equal(lull_cons_decide(&st, &prm, pmds, 2, qs, 2, 2 * MS, &d), LULL_CONS_UNPACK);
	assert_true(d.missing);
	assert_int_equal(d.moved, 1);
	/* a single hot queue: nothing to split */
	lull_cons_init(&st);
	qs[0].pmd = 0;
	qs[1].pmd = LULL_CONS_NONE_PMD; /* unpolled: left alone */
	pmds[0].load = 0.99;
	assert_int_equal(lull_cons_decide(&st, &prm, pmds, 2, qs, 2, MS, &d), LULL_CONS_STAY);
	assert_int_equal(qs[0].pmd == LULL_CONS_NONE_PMD ? qs[1].pmd : qs[0].pmd, 0);
}

/* Out of headroom with none parked: every queue anew, if that lowers the
 * highest load by LULL_CONS_SPREAD_GAIN; else nothing. */
static void
test_spread_when_none_parked(void **state)
{
	struct lull_cons_state st;
	struct lull_cons_queue qs[4];
	struct lull_cons_pmd pmds[3];
	struct lull_cons_decision d;
	const uint16_t pmd[] = {0, 0, 1, 2};
	const double load[] = {0.4, 0.35, 0.1, 0.1};

	(void)state;
	lull_cons_init(&st);
	queues(qs, 4, pmd, load);
	pmd_loads(qs, 4, pmds, 3);
	assert_int_equal(lull_cons_decide(&st, &prm, pmds, 3, qs, 4, MS, &d), LULL_CONS_SPREAD);
	assert_int_equal(d.pmd, 0);
	assert_true(d.after < 0.5);
	assert_int_equal(pmd_of(qs, 4, 0), 0); /* the largest stays where it was */
	assert_int_not_equal(pmd_of(qs, 4, 1), 0);
	assert_int_equal(d.moved, 1 + (pmd_of(qs, 4, 2) != 1) + (pmd_of(qs, 4, 3) != 2));
	pmd_loads(qs, 4, pmds, 3);
	for (unsigned int k = 0; k < 3; k++)
		assert_true(pmds[k].load < 0.5);
	/* every PMD as loaded: no spread helps */
	{
		const uint16_t even[] = {0, 0, 1, 2};
		const double heavy[] = {0.36, 0.36, 0.72, 0.72};

		lull_cons_init(&st);
		queues(qs, 4, even, heavy);
		pmd_loads(qs, 4, pmds, 3);
		assert_int_equal(
			lull_cons_decide(&st, &prm, pmds, 3, qs, 4, MS, &d), LULL_CONS_STAY);
	}
}

/* A load that swings between 40 % and 65 % of two PMDs never flaps: the
 * lines and the dwell hold every state for at least the dwell time, and a
 * pack never leaves a PMD over the pack line. */
static void
test_no_flapping(void **state)
{
	struct lull_cons_state st;
	struct lull_cons_queue qs[8];
	struct lull_cons_pmd pmds[4];
	struct lull_cons_decision d;
	uint64_t t = 0, last = 0;
	unsigned int moves = 0;

	(void)state;
	lull_cons_init(&st);
	for (unsigned int i = 0; i < 8; i++)
		qs[i] = (struct lull_cons_queue){.id = i, .pmd = (uint16_t)(i % 4)};
	for (int w = 0; w < 600; w++) {
		double total = w % 60 < 30 ? 0.8 : 1.3; /* cores of load, in 30 s spells */

		for (unsigned int i = 0; i < 8; i++)
			qs[i].load = total / 8;
		pmd_loads(qs, 8, pmds, 4);
		t += 1000 * MS;
		if (lull_cons_decide(&st, &prm, pmds, 4, qs, 8, t, &d) != LULL_CONS_STAY) {
			assert_true(!moves || t - last >= prm.dwell_ns);
			last = t;
			moves++;
			lull_cons_moved(&st, t);
			if (d.kind == LULL_CONS_PACK) {
				pmd_loads(qs, 8, pmds, 4);
				for (unsigned int k = 0; k < 4; k++)
					assert_true(pmds[k].load < prm.pack_below);
			}
		}
	}
	/* 20 swings: a few moves each at most, not one a window */
	assert_true(moves > 0);
	assert_true(moves <= 60);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_assign_largest_first),
		cmocka_unit_test(test_assign_keeps_pinned),
		cmocka_unit_test(test_pack_after_calm_windows),
		cmocka_unit_test(test_pack_refused_over_queue_cap),
		cmocka_unit_test(test_calm_resets),
		cmocka_unit_test(test_pack_refused_over_line),
		cmocka_unit_test(test_pinned_victim_stays),
		cmocka_unit_test(test_unpack_on_misses),
		cmocka_unit_test(test_spread_when_none_parked),
		cmocka_unit_test(test_no_flapping),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
