/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/profile.c: lull-gen's traffic profiles. */
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

#include "profile.h"

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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile_good),
		cmocka_unit_test(test_profile_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
