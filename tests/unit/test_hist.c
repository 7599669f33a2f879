/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/hist.c: log-linear histograms. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hist.h"

static struct lull_hist h1, h2; /* large: keep them off the stack */

static void
test_hist_exact_small(void **state)
{
	(void)state;
	lull_hist_init(&h1);
	assert_int_equal(lull_hist_quantile(&h1, 0.5), 0);
	for (uint64_t v = 1; v <= 100; v++)
		lull_hist_add(&h1, v);
	assert_int_equal(h1.count, 100);
	assert_int_equal(h1.min, 1);
	assert_int_equal(h1.max, 100);
	assert_true(fabs(lull_hist_mean(&h1) - 50.5) < 1e-9);
	assert_int_equal(lull_hist_quantile(&h1, 0.5), 50);
	assert_int_equal(lull_hist_quantile(&h1, 0.9), 90);
	assert_int_equal(lull_hist_quantile(&h1, 0.99), 99);
	assert_int_equal(lull_hist_quantile(&h1, 0.999), 100);
	assert_int_equal(lull_hist_quantile(&h1, 0.0), 1);
	assert_int_equal(lull_hist_quantile(&h1, 1.0), 100);
	assert_int_equal(lull_hist_quantile(&h1, 0.011), 2); /* rank ceil(1.1) = 2 */
}

/* What pmd-stats-clear relies on: a snapshot, and the values since it. */
static void
test_hist_snapshot_sub(void **state)
{
	static struct lull_hist base, now;

	(void)state;
	lull_hist_init(&h1);
	for (uint64_t v = 1000; v <= 2000; v++)
		lull_hist_add(&h1, v);
	lull_hist_snapshot(&base, &h1);
	assert_int_equal(base.count, 1001);
	assert_int_equal(base.max, 2000);
	for (uint64_t v = 10; v <= 19; v++)
		lull_hist_add(&h1, v);
	lull_hist_snapshot(&now, &h1);
	lull_hist_sub(&now, &base);
	assert_int_equal(now.count, 10);
	assert_int_equal(now.sum, 145);
	assert_int_equal(lull_hist_quantile(&now, 0.5), 14);
	assert_int_equal(now.min, 10);
	assert_true(now.max >= 19 && now.max < 20); /* the old max (2000) is gone */
	assert_int_equal(lull_hist_quantile(&now, 1.0), now.max);
	lull_hist_sub(&now, &now);
	assert_int_equal(now.count, 0);
	assert_int_equal(lull_hist_quantile(&now, 0.5), 0);
}

static void
test_hist_relative_error(void **state)
{
	(void)state;
	/* every value maps to a bucket whose middle is within 1/128 of it */
	for (uint64_t v = 1; v < (UINT64_C(1) << 40); v = v * 3 / 2 + 7) {
		lull_hist_init(&h1);
		lull_hist_add(&h1, v);
		lull_hist_add(&h1, v * 2 + 1000); /* so the quantile is not clamped to min = max */
		uint64_t q = lull_hist_quantile(&h1, 0.5);
		double err = fabs((double)q - (double)v) / (double)v;

		if (err > 1.0 / 128)
			fail_msg("value %llu read back as %llu", (unsigned long long)v,
				(unsigned long long)q);
	}
	assert_true(lull_hist_bucket(UINT64_MAX) < LULL_HIST_BUCKETS);
}

static void
test_hist_merge(void **state)
{
	(void)state;
	lull_hist_init(&h1);
	lull_hist_init(&h2);
	for (uint64_t v = 1; v <= 50; v++)
		lull_hist_add(&h1, v);
	for (uint64_t v = 51; v <= 100; v++)
		lull_hist_add(&h2, v);
	lull_hist_merge(&h1, &h2);
	assert_int_equal(h1.count, 100);
	assert_int_equal(h1.min, 1);
	assert_int_equal(h1.max, 100);
	assert_int_equal(lull_hist_quantile(&h1, 0.5), 50);
	assert_int_equal(lull_hist_quantile(&h1, 0.99), 99);
}

/* add_n(v, n) is n add(v): the views merge counted full bursts this way. */
static void
test_hist_add_n(void **state)
{
	(void)state;
	lull_hist_init(&h1);
	lull_hist_init(&h2);
	for (int i = 0; i < 1000; i++)
		lull_hist_add(&h1, 32);
	lull_hist_add(&h1, 7);
	lull_hist_add_n(&h2, 32, 1000);
	lull_hist_add(&h2, 7);
	lull_hist_add_n(&h2, 5, 0); /* nothing */
	assert_int_equal(h1.count, h2.count);
	assert_int_equal(h1.sum, h2.sum);
	assert_int_equal(h1.min, h2.min);
	assert_int_equal(h1.max, h2.max);
	assert_true(h1.sum_sq == h2.sum_sq);
	assert_memory_equal(h1.buckets, h2.buckets, sizeof(h1.buckets));
	assert_int_equal(lull_hist_quantile(&h2, 0.5), 32);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hist_exact_small),
		cmocka_unit_test(test_hist_snapshot_sub),
		cmocka_unit_test(test_hist_relative_error),
		cmocka_unit_test(test_hist_merge),
		cmocka_unit_test(test_hist_add_n),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
