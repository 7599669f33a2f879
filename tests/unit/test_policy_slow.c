/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rate policy on a machine whose wakes are slow (lib/slowwake's slow-vm:
 * issue 27's KVM guest), fed by paced traffic: it must not fall into busy
 * polling where a busy poller would be far from busy, and at a steady load its
 * mode and sleep must not flip within a run or differ between runs.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy.h"
#include "slowwake.h"

#define RUN_NS     4000000000ull /* judged on the second half */
#define POLL_NS    1000          /* a poll through the kernel (net_tap, af_packet): ~1 us */
#define MAX_SLEEPS 200000

struct slow_run {
	double poll_pct;     /**< share of the second half spent polling */
	double cpu_pct;      /**< polls plus the waits' CPU, over the second half */
	uint64_t sleeps;     /**< timed waits in the second half */
	uint64_t off_median; /**< of them, asked more than 25 % away from their median */
	uint64_t kept_flips; /**< changes of the quantile kept, second half */
	uint64_t median_ns;  /**< median sleep asked */
};

static uint64_t sleeps_ns[MAX_SLEEPS];

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Packets every period_ns on the slow-vm machine, budget_us, seed for its draws. */
static void
slow_run(uint64_t period_ns, uint32_t budget_us, bool strict, uint64_t seed, struct slow_run *r)
{
	static struct lull_policy pol;
	struct lull_policy_params prm;
	struct lull_slowwake_params wp;
	struct lull_slowwake sw;
	uint64_t now_ns = 0, next_ns = period_ns / 3, busy_ns = 0, poll_ns = 0;
	unsigned int last_kept = 0;

	memset(r, 0, sizeof(*r));
	lull_policy_defaults(&prm, LULL_POLICY_RATE, 32, 1024);
	prm.budget_ns = (uint64_t)budget_us * 1000;
	prm.strict_budget = strict;
	assert_int_equal(lull_policy_check(&prm), 0);
	lull_policy_init(&pol, &prm);
	assert_int_equal(lull_slowwake_preset("slow-vm", &wp), 0);
	lull_slowwake_init(&sw, &wp, seed);
	while (now_ns < RUN_NS) {
		bool judged = now_ns >= RUN_NS / 2;
		uint32_t got = 0;
		uint64_t s;

		for (; next_ns <= now_ns; next_ns += period_ns)
			got++;
		lull_policy_observe(&pol, got);
		s = lull_policy_decide(&pol, now_ns);
		if (judged && pol.kept != last_kept)
			r->kept_flips++;
		last_kept = pol.kept;
		if (s > 0) {
			uint64_t late_ns, cpu_ns;

			lull_slowwake_draw(&sw, &late_ns, &cpu_ns);
			lull_policy_slept(&pol, s, s + late_ns, 0);
			lull_policy_wait_cpu(&pol, false, cpu_ns);
			now_ns += s + late_ns;
			if (judged) {
				busy_ns += cpu_ns;
				if (r->sleeps < MAX_SLEEPS)
					sleeps_ns[r->sleeps] = s;
				r->sleeps++;
			}
		} else {
			now_ns += POLL_NS;
			if (judged)
				poll_ns += POLL_NS;
		}
	}
	r->poll_pct = 100.0 * (double)poll_ns / (double)(RUN_NS / 2);
	r->cpu_pct = 100.0 * (double)(poll_ns + busy_ns) / (double)(RUN_NS / 2);
	if (r->sleeps > 0) {
		uint64_t n = r->sleeps < MAX_SLEEPS ? r->sleeps : MAX_SLEEPS;

		qsort(sleeps_ns, n, sizeof(sleeps_ns[0]), cmp_u64);
		r->median_ns = sleeps_ns[n / 2];
		for (uint64_t i = 0; i < n; i++)
			if (sleeps_ns[i] * 4 < r->median_ns * 3 ||
				sleeps_ns[i] * 4 > r->median_ns * 5)
				r->off_median++;
	}
}

static void
show(const char *what, uint64_t period_ns, uint32_t budget_us, const struct slow_run *r)
{
	print_message("%s: %.0f kpps, budget %u us: polling %.1f %%, CPU %.1f %%, %" PRIu64
		      " sleeps (median %.1f us, %" PRIu64 " off it), %" PRIu64 " kept flips\n",
		what, 1e6 / (double)period_ns, budget_us, r->poll_pct, r->cpu_pct, r->sleeps,
		(double)r->median_ns / 1e3, r->off_median, r->kept_flips);
}

static const uint64_t periods_ns[] = {1000000, 100000}; /* 1 and 10 kpps */

/* A budget below the median lateness keeps no quantile: rate still sleeps (as
 * long as the budget) unless the operator asked for a strict budget. */
static void
test_no_cliff_below_the_lateness(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(periods_ns) / sizeof(periods_ns[0]); i++) {
		struct slow_run r;

		slow_run(periods_ns[i], 50, false, 7, &r);
		show("budget below the lateness", periods_ns[i], 50, &r);
		if (r.poll_pct > 20)
			fail_msg("%.0f kpps, budget 50 us on slow-vm: %.1f %% polling",
				1e6 / (double)periods_ns[i], r.poll_pct);
	}
}

/* Asked for a strict budget, rate keeps it at p99 or polls: on this machine a
 * budget of 50 us polls light traffic, as the operator asked. */
static void
test_strict_budget_polls(void **state)
{
	struct slow_run r;

	(void)state;
	slow_run(periods_ns[0], 50, true, 7, &r);
	show("strict", periods_ns[0], 50, &r);
	assert_true(r.poll_pct > 90);
	/* strict, with a budget this machine keeps at p99 (its stalls included: 1
	 * wake in 2,000 late by 2-5 ms): it sleeps */
	slow_run(periods_ns[0], 500, true, 7, &r);
	show("strict", periods_ns[0], 500, &r);
	assert_true(r.poll_pct < 5);
}

/* At a steady load the sleep does not flip: nearly every sleep is within 25 %
 * of the median, and the quantile kept changes rarely. */
static void
test_steady_within_a_run(void **state)
{
	static const uint32_t budgets_us[] = {250, 150, 100};

	(void)state;
	for (size_t b = 0; b < sizeof(budgets_us) / sizeof(budgets_us[0]); b++)
		for (size_t i = 0; i < sizeof(periods_ns) / sizeof(periods_ns[0]); i++) {
			struct slow_run r;

			slow_run(periods_ns[i], budgets_us[b], false, 11, &r);
			show("steady", periods_ns[i], budgets_us[b], &r);
			if (r.poll_pct > 20 || r.off_median * 10 > r.sleeps || r.kept_flips > 20)
				fail_msg("%.0f kpps, budget %u us on slow-vm: %.1f %% polling, "
					 "%" PRIu64 " of %" PRIu64
					 " sleeps 25 %% off the median, %" PRIu64
					 " changes of the quantile kept",
					1e6 / (double)periods_ns[i], budgets_us[b], r.poll_pct,
					r.off_median, r.sleeps, r.kept_flips);
		}
}

/* The same settings in ten runs (ten seeds of the machine's noise): CPU within
 * 20 % of each other, and never polling. */
static void
test_same_settings_same_behaviour(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(periods_ns) / sizeof(periods_ns[0]); i++) {
		double lo = 1e9, hi = 0;

		for (uint64_t seed = 1; seed <= 10; seed++) {
			struct slow_run r;

			slow_run(periods_ns[i], 250, false, seed * 7919, &r);
			if (r.cpu_pct < lo)
				lo = r.cpu_pct;
			if (r.cpu_pct > hi)
				hi = r.cpu_pct;
			if (r.poll_pct > 20)
				fail_msg("%.0f kpps, seed %" PRIu64 ": %.1f %% polling",
					1e6 / (double)periods_ns[i], seed, r.poll_pct);
		}
		print_message("ten runs at %.0f kpps: CPU %.1f-%.1f %%\n",
			1e6 / (double)periods_ns[i], lo, hi);
		if (hi > 1.2 * lo)
			fail_msg("%.0f kpps: CPU from %.1f to %.1f %% over ten runs",
				1e6 / (double)periods_ns[i], lo, hi);
	}
}

/* Where the queues interrupt, a PMD may never take a timed wait, so the CPU of
 * an interrupt wait stands in for a timed one's. One first sample inflated by
 * a host stall (400 us, before any clipping) left no sleep that fits, and with
 * nothing measured the PMD polled 1 kpps for good (seen on net_tap after an
 * overloaded run). It must re-measure instead. */
static void
test_no_lock_on_one_interrupt_sample(void **state)
{
	static struct lull_policy pol;
	struct lull_policy_params prm;
	uint64_t now_ns = 0, next_ns = 300000, poll_ns = 0, waits = 0;

	(void)state;
	lull_policy_defaults(&prm, LULL_POLICY_RATE, 32, 1024);
	prm.intr = true;
	lull_policy_init(&pol, &prm);
	lull_policy_wait_cpu(&pol, true, 400000);
	while (now_ns < 2000000000ull) {
		uint32_t got = 0;
		uint64_t s;

		for (; next_ns <= now_ns; next_ns += 1000000)
			got++;
		lull_policy_observe(&pol, got);
		s = lull_policy_decide(&pol, now_ns);
		if (s == 0) {
			poll_ns += 1000;
			now_ns += 1000;
			continue;
		}
		if (lull_policy_mode(&pol) == LULL_MODE_INTR) { /* woken by the next packet */
			now_ns = (next_ns > now_ns ? next_ns : now_ns) + 30000;
			if (++waits % 16 == 0)
				lull_policy_wait_cpu(&pol, true, 15000);
		} else {
			lull_policy_slept(&pol, s, s + 40000, 0);
			if (++waits % 16 == 0)
				lull_policy_wait_cpu(&pol, false, 25000);
			now_ns += s + 40000;
		}
	}
	if (poll_ns * 5 > now_ns)
		fail_msg("1 kpps after one inflated interrupt sample: %.1f %% polling",
			100.0 * (double)poll_ns / (double)now_ns);
}

/* A shared core (two PMDs on one CPU, as bench/consolidate runs them): 1 wake
 * in 4 waits 100-400 us in the run queue while the other thread has the CPU.
 * A polling thread would have waited as long, so that delay is not the sleep's
 * (issue 27 item 2): reported as the run-queue delay, it must leave the sleep
 * as it is without the other thread. Returns the median sleep of the second
 * half; *kept: the quantile kept at the end. */
static uint64_t
shared_run(bool other_thread, unsigned int *kept)
{
	static struct lull_policy pol;
	struct lull_policy_params prm;
	uint64_t now_ns = 0, next_ns = 300000, rng = 88172645463325252ull, n = 0;

	lull_policy_defaults(&prm, LULL_POLICY_RATE, 32, 1024);
	lull_policy_init(&pol, &prm);
	while (now_ns < RUN_NS) {
		uint32_t got = 0;
		uint64_t s, own_ns, queued_ns = 0;

		for (; next_ns <= now_ns; next_ns += 1000000) /* 1 kpps */
			got++;
		lull_policy_observe(&pol, got);
		s = lull_policy_decide(&pol, now_ns);
		if (s == 0) {
			now_ns += POLL_NS;
			continue;
		}
		rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
		own_ns = 20000 + rng % 20000;
		if (other_thread && rng % 4 == 0)
			queued_ns = 100000 + (rng >> 8) % 300000;
		lull_policy_slept(&pol, s, s + own_ns + queued_ns, queued_ns);
		lull_policy_wait_cpu(&pol, false, 25000);
		now_ns += s + own_ns + queued_ns;
		if (now_ns >= RUN_NS / 2 && n < MAX_SLEEPS)
			sleeps_ns[n++] = s;
	}
	*kept = lull_policy_kept_pct(&pol);
	if (n == 0)
		return 0;
	qsort(sleeps_ns, n, sizeof(sleeps_ns[0]), cmp_u64);
	return sleeps_ns[n / 2];
}

static void
test_run_queue_delay_is_not_the_sleeps(void **state)
{
	unsigned int kept_alone, kept_shared;
	uint64_t alone_ns = shared_run(false, &kept_alone);
	uint64_t shared_ns = shared_run(true, &kept_shared);

	(void)state;
	print_message("1 kpps, budget 250 us: median sleep %.1f us alone (p%u kept), %.1f us "
		      "beside a thread that queues 1 wake in 4 (p%u kept)\n",
		(double)alone_ns / 1e3, kept_alone, (double)shared_ns / 1e3, kept_shared);
	assert_true(alone_ns > 0);
	if (kept_shared != kept_alone || shared_ns * 10 < alone_ns * 9)
		fail_msg("the run-queue delay was charged to the sleep: median %.1f us (p%u) "
			 "against %.1f us (p%u) alone",
			(double)shared_ns / 1e3, kept_shared, (double)alone_ns / 1e3, kept_alone);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_cliff_below_the_lateness),
		cmocka_unit_test(test_strict_budget_polls),
		cmocka_unit_test(test_steady_within_a_run),
		cmocka_unit_test(test_same_settings_same_behaviour),
		cmocka_unit_test(test_no_lock_on_one_interrupt_sample),
		cmocka_unit_test(test_run_queue_delay_is_not_the_sleeps),
	};

	return cmocka_run_group_tests_name("policy on a slow machine", tests, NULL, NULL);
}
