/* SPDX-License-Identifier: BSD-3-Clause */
/* The cost model's lateness distribution and wait costs (lib/cost). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cost.h"

static void
test_quantiles_err_late(void **state)
{
	struct lull_cost c;

	(void)state;
	lull_cost_init(&c);
	assert_int_equal(lull_cost_late_quantile(&c, 0.99), 0);
	for (int i = 0; i < 1000; i++)
		lull_cost_late(&c, i < 985 ? 30000 : 500000);
	/* p50 within 30 us's bucket (read as if its samples were spread evenly) */
	assert_true(c.late_p50_ns >= 28672 && c.late_p50_ns <= 32768);
	/* 1.5 % at 500 us: the 99th percentile is in the tail, within its bucket */
	assert_true(c.late_p99_ns >= 458752 && c.late_p99_ns <= 524288);
	/* 0.5 %: it is not */
	lull_cost_init(&c);
	for (int i = 0; i < 1000; i++)
		lull_cost_late(&c, i % 200 == 0 ? 500000 : 30000);
	assert_true(c.late_p99_ns <= 36000);
	/* tiny and huge values land in the end buckets; the top one is beyond any
	 * budget (10 ms at most) */
	lull_cost_late(&c, 0);
	lull_cost_late(&c, UINT64_MAX / 2);
	assert_true(lull_cost_late_quantile(&c, 1.0) > 10000000);
}

static void
test_window_and_forget(void **state)
{
	struct lull_cost c;

	(void)state;
	lull_cost_init(&c);
	/* a past of 200 us lateness gives way to a present of 20 us */
	for (int i = 0; i < 3000; i++)
		lull_cost_late(&c, 200000);
	assert_true(c.late_total < LULL_COST_LATE_WINDOW);
	for (int i = 0; i < 20000; i++)
		lull_cost_late(&c, 20000);
	assert_true(c.late_p99_ns <= 24000);
	/* a tail appears at once (a sample beyond p99 reads the quantiles again) */
	for (int i = 0; i < 30; i++)
		lull_cost_late(&c, 5000000);
	assert_true(c.late_p99_ns >= 4194304);
	/* forgetting halves the past: the tail fades as new samples come */
	for (int k = 0; k < 8; k++) {
		lull_cost_forget(&c);
		lull_cost_late(&c, 20000);
	}
	assert_true(c.late_p99_ns <= 24000);
}

/* E[max(0, L - x)]: every sample in 30 us's bucket [28672, 32768) ns, spread
 * evenly: the mean is the bucket's middle, nothing is later than its top, and
 * at the middle the excess is a quarter of the half-bucket (512 ns). */
static void
test_late_excess(void **state)
{
	struct lull_cost c;

	(void)state;
	lull_cost_init(&c);
	assert_true(lull_cost_late_excess_ns(&c, 0) == 0); /* nothing measured */
	for (int i = 0; i < 100; i++)
		lull_cost_late(&c, 30000);
	assert_true(fabs(lull_cost_late_excess_ns(&c, 0) - 30720) < 1);
	assert_true(lull_cost_late_excess_ns(&c, 40000) == 0);
	assert_true(fabs(lull_cost_late_excess_ns(&c, 30720) - 512) < 1);
	/* one wake in 100 stalled 3 ms adds ~30 us to the excess beyond 1 ms */
	lull_cost_init(&c);
	for (int i = 0; i < 100; i++)
		lull_cost_late(&c, i == 50 ? 3000000 : 30000);
	double e = lull_cost_late_excess_ns(&c, 1000000);
	if (e < 18000 || e > 22000) /* (3 ms's bucket middle - 1 ms) / 100 */
		fail_msg("excess beyond 1 ms: %.0f ns", e);
}

/* The highest bucket holding two samples, kept as samples come and as the
 * window halves, is the one a scan finds: lateness spread log-uniformly over
 * 0.1 us - 20 ms, across several halvings and the tail window's end. */
static void
test_tail_bucket_kept(void **state)
{
	struct lull_cost c;
	uint64_t x = 88172645463325252ull; /* xorshift64 */

	(void)state;
	lull_cost_init(&c);
	for (unsigned int i = 0; i < 3 * LULL_COST_TAIL_WINDOW; i++) {
		unsigned int top2 = 0;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		lull_cost_late(&c, (uint64_t)(100.0 * pow(2e5, (double)(x % 100000) / 1e5)));
		if (i % 5000 == 0)
			lull_cost_forget(&c);
		for (unsigned int b = 0; b < LULL_COST_LATE_BUCKETS; b++)
			if (c.late[b] > 1)
				top2 = b + 1;
		if (c.late_top2 != top2)
			fail_msg("sample %u: kept top bucket %u, a scan finds %u", i, c.late_top2,
				top2);
	}
}

static void
test_wait_costs(void **state)
{
	struct lull_cost c;

	(void)state;
	lull_cost_init(&c);
	assert_int_equal(lull_cost_wait_ns(&c, LULL_COST_TIMED), 0);
	lull_cost_late(&c, 40000);
	/* nothing measured: the median lateness (its bucket edge) stands in */
	assert_true(lull_cost_wait_ns(&c, LULL_COST_INTR) >= 40000 &&
		    lull_cost_wait_ns(&c, LULL_COST_INTR) <= 48000);
	lull_cost_wait_cpu(&c, LULL_COST_TIMED, 25000);
	/* one kind measured: it stands in for the other */
	assert_int_equal(lull_cost_wait_ns(&c, LULL_COST_INTR), 25000);
	for (int i = 0; i < 100; i++)
		lull_cost_wait_cpu(&c, LULL_COST_INTR, 8000);
	assert_true(lull_cost_wait_ns(&c, LULL_COST_INTR) <= 8100);
	assert_int_equal(lull_cost_wait_ns(&c, LULL_COST_TIMED), 25000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quantiles_err_late),
		cmocka_unit_test(test_window_and_forget),
		cmocka_unit_test(test_late_excess),
		cmocka_unit_test(test_tail_bucket_kept),
		cmocka_unit_test(test_wait_costs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
