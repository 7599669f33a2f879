/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/pace.c: send deadlines of a profile. */
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

#include "pace.h"
#include "profile.h"

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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pace_rates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
