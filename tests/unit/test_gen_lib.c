/* SPDX-License-Identifier: BSD-3-Clause */
/* lull-gen's pure parts: histogram, profile parser, pacing, sequence window. */
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
#include "pace.h"
#include "profile.h"
#include "seqwin.h"

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

static void
test_profile_good(void **state)
{
	struct lull_profile p;
	char err[256];

	(void)state;
	assert_int_equal(lull_profile_parse("idle:5s,rate:10k:5s,rate:1M:500ms,burst:1000/100ms:5s,"
					    "poisson:2.5k:1s,onoff:1M:10ms/40ms:2s,max:250us",
				 &p, err, sizeof(err)),
		0);
	assert_int_equal(p.n, 7);
	assert_int_equal(p.phases[0].kind, LULL_PHASE_IDLE);
	assert_int_equal(p.phases[0].duration_ns, 5000000000ull);
	assert_true(p.phases[1].rate_pps == 10000);
	assert_int_equal(p.phases[2].duration_ns, 500000000ull);
	assert_int_equal(p.phases[3].burst_n, 1000);
	assert_int_equal(p.phases[3].period_ns, 100000000ull);
	assert_true(lull_phase_offered_pps(&p.phases[3]) == 10000);
	assert_true(p.phases[4].rate_pps == 2500);
	assert_int_equal(p.phases[5].on_ns, 10000000ull);
	assert_int_equal(p.phases[5].off_ns, 40000000ull);
	assert_true(lull_phase_offered_pps(&p.phases[5]) == 200000);
	assert_int_equal(p.phases[6].kind, LULL_PHASE_MAX);
	assert_int_equal(p.phases[6].duration_ns, 250000ull);
	assert_string_equal(p.phases[3].text, "burst:1000/100ms:5s");
}

static void
test_profile_bad(void **state)
{
	static const struct {
		const char *in;
		const char *token;
	} cases[] = {
		{"", "empty profile"},
		{"rate:10x:5s", "'rate:10x:5s'"},
		{"idle:5s,rate:10k", "'rate:10k'"},
		{"idle:5", "'idle:5'"},
		{"idle:5s,,max:1s", "''"},
		{"rate:0:1s", "'rate:0:1s'"},
		{"rate:-1:1s", "'rate:-1:1s'"},
		{"rate:2G:1s", "'rate:2G:1s'"},
		{"burst:0/1ms:1s", "'burst:0/1ms:1s'"},
		{"burst:10:1s", "'burst:10:1s'"},
		{"onoff:1k:5ms:1s", "'onoff:1k:5ms:1s'"},
		{"warp:1s", "'warp:1s'"},
		{"max:1s,", "''"},
		{"max:0s", "'max:0s'"},
		{"max:1.s", "'max:1.s'"},
		{"idle:5s:extra", "'idle:5s:extra'"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lull_profile p;
		char err[256] = "";

		if (lull_profile_parse(cases[i].in, &p, err, sizeof(err)) >= 0 ||
			strstr(err, cases[i].token) == NULL)
			fail_msg("'%s': got '%s', want it to quote %s", cases[i].in, err,
				cases[i].token);
	}
}

/* Drive a phase with a clock that advances step_ns per call; count departures. */
static uint64_t
run_pace(const char *text, uint64_t step_ns, uint64_t *skipped)
{
	struct lull_profile p;
	struct lull_pace pace;
	char err[256];
	uint64_t sent = 0;

	assert_int_equal(lull_profile_parse(text, &p, err, sizeof(err)), 0);
	lull_pace_start(&pace, &p.phases[0], 1000, 42, 1000000);
	for (uint64_t t = 1000; t < 1000 + p.phases[0].duration_ns; t += step_ns)
		sent += lull_pace_due(&pace, t, 64);
	*skipped = pace.skipped;
	return sent;
}

static void
test_pace_rates(void **state)
{
	uint64_t skipped;

	(void)state;
	/* exact counts: deadlines are absolute, whatever the polling step */
	assert_int_equal(run_pace("rate:10k:1s", 1000, &skipped), 10000);
	assert_int_equal(run_pace("rate:10k:1s", 37000, &skipped), 10000);
	assert_int_equal(run_pace("rate:1M:10ms", 500, &skipped), 10000);
	assert_int_equal(run_pace("burst:100/10ms:1s", 5000, &skipped), 10000);
	assert_int_equal(run_pace("onoff:100k:10ms/40ms:1s", 1000, &skipped), 20000);
	assert_int_equal(run_pace("idle:1s", 100000, &skipped), 0);
	/* Poisson: mean within 3 % over 100k arrivals */
	uint64_t n = run_pace("poisson:100k:1s", 1000, &skipped);
	assert_true(n > 97000 && n < 103000);
	/* a sender far too slow (64 per 10 ms at 1 Mpps) is bounded, not bursting */
	n = run_pace("rate:1M:100ms", 10000000, &skipped);
	assert_true(n <= 64 * 10);
	assert_true(skipped > 80000); /* ~9 calls x (10 ms - 1 ms of allowed lag) */
}

static void
test_seqwin(void **state)
{
	static struct lull_seqwin w;

	(void)state;
	lull_seqwin_init(&w);
	assert_int_equal(lull_seqwin_mark(&w, 5), LULL_SEQ_IN_ORDER);
	assert_int_equal(lull_seqwin_mark(&w, 7), LULL_SEQ_IN_ORDER);
	assert_int_equal(lull_seqwin_mark(&w, 6), LULL_SEQ_REORDERED);
	assert_int_equal(lull_seqwin_mark(&w, 6), LULL_SEQ_DUP);
	assert_int_equal(lull_seqwin_mark(&w, 7), LULL_SEQ_DUP);
	assert_int_equal(lull_seqwin_mark(&w, 5 + LULL_SEQWIN_SIZE + 10), LULL_SEQ_IN_ORDER);
	assert_int_equal(lull_seqwin_mark(&w, 5), LULL_SEQ_TOO_OLD);
	/* after the slide, an old slot reused by a new number is not a duplicate */
	assert_int_equal(lull_seqwin_mark(&w, 7 + LULL_SEQWIN_SIZE), LULL_SEQ_REORDERED);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hist_exact_small),
		cmocka_unit_test(test_hist_snapshot_sub),
		cmocka_unit_test(test_hist_relative_error),
		cmocka_unit_test(test_hist_merge),
		cmocka_unit_test(test_profile_good),
		cmocka_unit_test(test_profile_bad),
		cmocka_unit_test(test_pace_rates),
		cmocka_unit_test(test_seqwin),
	};

	return cmocka_run_group_tests_name("gen_lib", tests, NULL, NULL);
}
