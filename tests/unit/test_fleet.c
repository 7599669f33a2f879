/* SPDX-License-Identifier: BSD-3-Clause */
/* lull-sim's fleet model (sim/fleet.c): N PMDs over a day with lib/consolidate. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "config.h"
#include "fleet.h"

static struct sim_options o;

/* Parse lull-sim's own options into o (a short day: 10 minutes). */
static void
parse(int argc, char **argv)
{
	char err[256] = "";

	if (sim_options_parse(&o, argc, argv, err, sizeof(err)) < 0)
		fail_msg("options: %s", err);
	assert_true(o.fleet.n_pmds > 0);
}

static void
run(bool consolidate, enum lull_policy_kind kind, struct sim_fleet_result *r)
{
	struct sim_fleet_config c = o.fleet;

	c.consolidate = consolidate;
	c.base.policy.kind = kind;
	assert_int_equal(sim_fleet_run(&c, r), 0);
}

/* Busy polling costs every PMD all day, whatever the load. */
static void
test_busy_polling_costs_every_core(void **state)
{
	char *argv[] = {"lull-sim", "--preset", "bare-metal", "--line-gbps", "10", "--pmds", "4",
		"--day-length", "600s"};
	struct sim_fleet_result r;

	(void)state;
	parse(9, argv);
	run(false, LULL_POLICY_OFF, &r);
	assert_true(fabs(r.cpu_core_s - 4 * 600) < 0.01 * 4 * 600);
	assert_int_equal(r.packs + r.unpacks + r.spreads, 0);
	assert_int_equal(r.min_awake, 4);
}

/* A light day (10 GbE, half the line at the peak: a fifth of one core): the
 * queues gather on one PMD, which costs less than four sleeping ones, and
 * nothing is lost; the same seed gives the same day. */
static void
test_light_day_packs(void **state)
{
	char *argv[] = {"lull-sim", "--preset", "bare-metal", "--line-gbps", "10", "--pmds", "4",
		"--day-length", "600s", "--sleep-policy", "rate", "--latency-budget-us", "250"};
	struct sim_fleet_result with, without, again;

	(void)state;
	parse(13, argv);
	run(false, LULL_POLICY_RATE, &without);
	run(true, LULL_POLICY_RATE, &with);
	run(true, LULL_POLICY_RATE, &again);
	print_message("light day: %.0f core-s with, %.0f without; %llu packs, p99 %.1f us\n",
		with.cpu_core_s, without.cpu_core_s, (unsigned long long)with.packs,
		with.p99_ns / 1e3);
	assert_int_equal(with.min_awake, 1);
	assert_true(with.packs >= 3);
	assert_true(with.cpu_core_s < 0.8 * without.cpu_core_s);
	assert_int_equal(with.dropped_move + with.dropped_over, 0);
	assert_true(with.p99_ns <= 250000);
	assert_true(with.cpu_core_s == again.cpu_core_s && with.moves == again.moves);
}

/* A heavy day (the peak at 60 % of the four PMDs' capacity): packed at night,
 * woken as the load grows; no PMD goes over its capacity. */
static void
test_heavy_day_unpacks(void **state)
{
	char *argv[] = {"lull-sim", "--preset", "bare-metal", "--pmds", "4", "--day-length", "600s",
		"--day-peak-pct", "60", "--day-trough-pct", "5", "--sleep-policy", "rate"};
	struct sim_fleet_result r;

	(void)state;
	parse(13, argv);
	run(true, LULL_POLICY_RATE, &r);
	print_message("heavy day: %llu packs, %llu unpacks, %llu spreads, awake %.2f, max load "
		      "%.0f %%\n",
		(unsigned long long)r.packs, (unsigned long long)r.unpacks,
		(unsigned long long)r.spreads, r.awake_pmd_s / 600, 100 * r.max_pmd_load);
	assert_true(r.packs >= 1);
	assert_true(r.unpacks >= 1);
	assert_true(r.min_awake < 4);
	assert_int_equal(r.dropped_over, 0);
}

/* Bad fleet options are refused by name. */
static void
test_fleet_options(void **state)
{
	char *too_many[] = {"lull-sim", "--pmds", "20", "--rxqs-per-pmd", "4"};
	char *order[] = {
		"lull-sim", "--pmds", "2", "--pack-below-pct", "80", "--unpack-above-pct", "70"};
	char *day[] = {"lull-sim", "--pmds", "2", "--day-length", "2d"};
	char err[256] = "";

	(void)state;
	assert_int_equal(sim_options_parse(&o, 5, too_many, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "more than 64 rx queues"));
	assert_int_equal(sim_options_parse(&o, 7, order, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--pack-below-pct 80"));
	assert_true(sim_options_parse(&o, 5, day, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "day-length"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_busy_polling_costs_every_core),
		cmocka_unit_test(test_light_day_packs),
		cmocka_unit_test(test_heavy_day_unpacks),
		cmocka_unit_test(test_fleet_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
