/* SPDX-License-Identifier: BSD-3-Clause */
/* Sleep policies and the per-PMD list syntax, table-driven. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
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
#include "sleeplist.h"

static struct lull_policy pol, pol2;

static void
init(struct lull_policy *p, enum lull_policy_kind kind)
{
	struct lull_policy_params prm;

	lull_policy_defaults(&prm, kind, 32, 1024);
	assert_int_equal(lull_policy_check(&prm), 0);
	lull_policy_init(p, &prm);
}

/* One iteration: the bursts of each queue, then the decision. */
static uint64_t
iterate(struct lull_policy *p, const uint32_t *bursts, unsigned int n, uint64_t now_ns)
{
	for (unsigned int i = 0; i < n; i++)
		lull_policy_observe(p, bursts[i]);
	return lull_policy_decide(p, now_ns);
}

static void
test_ovs_ramp_and_reset(void **state)
{
	/* Two queues per iteration. Expected sleeps follow OVS 3.1 pmd_thread_main(). */
	static const struct {
		uint32_t q[2];
		uint64_t sleep_ns;
	} trace[] = {
		{{0, 0}, 0}, /* starts at 0, then +1 us */
		{{0, 0}, 1000},
		{{5, 3}, 2000},   /* light: < 16 in every burst */
		{{15, 15}, 3000}, /* 30 packets, but no single burst reaches 16 */
		{{16, 0}, 0},     /* one busy queue resets */
		{{0, 0}, 1000},
		{{0, 40}, 0},
		{{1, 0}, 1000},
	};
	(void)state;
	init(&pol, LULL_POLICY_OVS);
	for (size_t i = 0; i < sizeof(trace) / sizeof(trace[0]); i++) {
		uint64_t s = iterate(&pol, trace[i].q, 2, i * 1000);

		if (s != trace[i].sleep_ns)
			fail_msg("iteration %zu: slept %llu, want %llu", i, (unsigned long long)s,
				(unsigned long long)trace[i].sleep_ns);
	}
	/* the ramp stops at the maximum (250 us) */
	for (int i = 0; i < 1000; i++)
		iterate(&pol, (uint32_t[]){0, 0}, 2, 0);
	assert_int_equal(iterate(&pol, (uint32_t[]){0, 0}, 2, 0), 250000);
}

/* A host attached to decides only after an empty round: after saturated
 * seconds, more packets than 32 bits hold (2^33 here). */
static void
test_rate_counts_past_32_bits(void **state)
{
	const uint64_t pkts = UINT64_C(1) << 33;

	(void)state;
	init(&pol, LULL_POLICY_RATE);
	lull_policy_decide(&pol, 0);
	for (uint64_t i = 0; i < pkts / 64; i++)
		lull_policy_observe(&pol, 64);
	assert_true(lull_policy_busy(&pol));
	assert_int_equal(lull_policy_decide(&pol, 60000000000ull), 0); /* busy: polls */
	assert_true(pol.spell_pkts == pkts);
	/* the first period's rate: half of 2^33 over 60 s (from 0) */
	assert_true(fabs(pol.rate_ppns - (double)pkts / 60e9 / 2) < 1e-6);
}

static void
test_window_order_independent(void **state)
{
	(void)state;
	srand(7);
	init(&pol, LULL_POLICY_WINDOW);
	init(&pol2, LULL_POLICY_WINDOW);
	for (int i = 0; i < 20000; i++) {
		uint32_t q[3] = {(uint32_t)(rand() % 3), (uint32_t)(rand() % 2),
			(uint32_t)(rand() % 100 < 2 ? 20 : 0)};
		uint32_t r[3] = {q[2], q[0], q[1]};
		uint64_t a = iterate(&pol, q, 3, (uint64_t)i * 1000);
		uint64_t b = iterate(&pol2, r, 3, (uint64_t)i * 1000);

		if (a != b)
			fail_msg("iteration %d: %llu vs %llu for permuted queues", i,
				(unsigned long long)a, (unsigned long long)b);
	}
}

static void
test_window_steady_light_rate(void **state)
{
	uint64_t last = 0;

	(void)state;
	init(&pol, LULL_POLICY_WINDOW);
	/* one packet every 8 iterations: 8 packets per 64-iteration window, under 16 */
	for (int i = 0; i < 2000; i++) {
		uint32_t n = i % 8 == 0;
		uint64_t s = iterate(&pol, &n, 1, 0);

		if (i > 300 && s != last)
			fail_msg("iteration %d: sleep moved from %llu to %llu at a steady rate", i,
				(unsigned long long)last, (unsigned long long)s);
		last = s;
	}
	assert_int_equal(last, 250000);
}

static void
test_rate_bounds_on_burst_trace(void **state)
{
	uint64_t now_ns = 0;
	unsigned int sleeps = 0;

	(void)state;
	init(&pol, LULL_POLICY_RATE);
	pol.p.budget_ns = 200000; /* below the maximum (250 us): the budget is what binds */
	/* idle, then a line-rate burst (14.88 Mpps) every 100 ms, then idle */
	for (int cycle = 0; cycle < 20; cycle++) {
		for (int i = 0; i < 31; i++) { /* 1000 packets in bursts of 32 */
			uint32_t n = 32;
			uint64_t s = iterate(&pol, &n, 1, now_ns);

			assert_int_equal(s, 0); /* busy: poll again */
			now_ns += 2150;         /* 32 packets at line rate */
		}
		while (now_ns < (uint64_t)(cycle + 1) * 100000000) {
			uint32_t n = 0;
			uint64_t s = iterate(&pol, &n, 1, now_ns);

			/* the budget, kept for 99 % of the packets with the lateness
			 * measured (cap_at: a packet waits the rest of the sleep and the
			 * wake's lateness) */
			assert_true(s <= pol.p.budget_ns);
			assert_int_equal(pol.kept, 0);
			assert_true(s <= lull_policy_cap_ns(&pol, 0));
			/* the ring: at the peak, half of 1024 in s; or a burst like the
			 * largest (992 packets) fits whole, and no wait sees two */
			if (pol.peak_ppns > 0 && (double)s * pol.peak_ppns > 512.0 + 1e-6) {
				assert_true(pol.clu_max_pkts < 1024);
				assert_true(s + lull_policy_late_ns(&pol) <= 1000000);
			}
			if (s > 0) {
				sleeps++;
				lull_policy_slept(&pol, s, s + 30000, 0); /* a backend 30 us late */
			}
			now_ns += s + 100;
		}
	}
	assert_true(sleeps > 100);
	/* lateness is learned: sleeps stay within budget - its 99th percentile */
	assert_true(pol.cost.late_mean_ns >= 29000 && pol.cost.late_mean_ns <= 30000);
	assert_true(pol.cost.late_p99_ns >= 30000 && pol.cost.late_p99_ns <= 36000);
	/* a backend late by more than the budget (a stall: 30 waits of 10 ms, more than
	 * 1 %) stops sleeping: polls and a probe every 10 ms; sleeping resumes once the
	 * probes show the backend is back (30 us late), within about 100 ms */
	for (int i = 0; i < 30; i++)
		lull_policy_slept(&pol, 1000, 10000000, 0);
	/* idle: a late wake harms no packet, so it sleeps the budget (no core burnt);
	 * here, the bursts' peak is recent and a 10 ms lateness would fill the ring:
	 * a probe instead */
	uint32_t zero = 0, one = 1;
	uint64_t stuck_ns = now_ns += 1000000, s, next_pkt_ns;
	int polls = 0, probes = 0;

	s = iterate(&pol, &zero, 1, now_ns);
	assert_true(s == pol.p.budget_ns || s == pol.p.step_ns);
	lull_policy_slept(&pol, s, s + 10000000, 0);
	/* with traffic (a packet every 100 us) it polls */
	next_pkt_ns = now_ns += 10250000;
	while ((s = iterate(&pol, now_ns >= next_pkt_ns ? &one : &zero, 1, now_ns)) <=
			pol.p.step_ns &&
		polls < 10000000) {
		if (now_ns >= next_pkt_ns)
			next_pkt_ns += 100000;
		if (s > 0) {
			probes++;
			lull_policy_slept(&pol, s, s + 30000, 0);
		}
		now_ns += s + 100;
		polls++;
	}
	if (probes < 2 || now_ns - stuck_ns > 200000000)
		fail_msg("sleeping resumed after %d polls, %d probes, %.1f ms", polls, probes,
			(double)(now_ns - stuck_ns) / 1e6);
	/* at most the budget: the stalls are still in the lateness measured, and
	 * light traffic sleeps the budget rather than poll (unfit) */
	assert_true(s <= pol.p.budget_ns);
}

/* Drives rate for total_ns: a request arrives every period_ns and, when
 * reply_ns > 0, its reply arrives reply_ns after the request was polled (and
 * forwarded). A poll costs 200 ns, a wait oversleeps by 30 us. Returns the
 * time spent polling with nothing to do in the second half (lingering);
 * *reply_delay_ns is the worst delay of a reply in that half. */
static uint64_t
run_trace(uint64_t period_ns, uint64_t reply_ns, uint64_t total_ns, uint64_t *reply_delay_ns)
{
	uint64_t now_ns = 0, req_ns = 0, rep_ns = UINT64_MAX, idle_poll_ns = 0;

	init(&pol, LULL_POLICY_RATE);
	*reply_delay_ns = 0;
	while (now_ns < total_ns) {
		bool late = now_ns > total_ns / 2;
		uint32_t got = 0;
		uint64_t s;

		while (req_ns <= now_ns) { /* a backlog comes in one burst */
			got++;
			req_ns += period_ns;
			if (reply_ns > 0)
				rep_ns = now_ns + reply_ns;
		}
		if (rep_ns <= now_ns) {
			got++;
			if (late && now_ns - rep_ns > *reply_delay_ns)
				*reply_delay_ns = now_ns - rep_ns;
			rep_ns = UINT64_MAX;
		}
		s = iterate(&pol, &got, 1, now_ns);
		if (s > 0) {
			lull_policy_slept(&pol, s, s + 30000, 0);
			now_ns += s + 30000;
		} else {
			if (got == 0 && late)
				idle_poll_ns += 200;
			now_ns += 200;
		}
	}
	return idle_poll_ns;
}

static void
test_rate_linger_adapts(void **state)
{
	const uint64_t total_ns = 400000000;
	uint64_t delay_ns, wasted_ns;

	(void)state;
	/* one-way 10 kpps: lingering never sees a packet follow, so it stops (but for
	 * probes, 1 in 16 of 20 us each: 1.25 % of the time) */
	wasted_ns = run_trace(100000, 0, total_ns, &delay_ns);
	if (wasted_ns * 100 > total_ns / 2 * 3)
		fail_msg("one-way 10 kpps: %.1f %% of the time lingering",
			100.0 * (double)wasted_ns / (double)(total_ns / 2));
	/* a request every 1 ms, its reply 8 us after it was forwarded: the linger
	 * catches every reply within a poll */
	run_trace(1000000, 8000, total_ns, &delay_ns);
	if (delay_ns > 200)
		fail_msg("a reply waited %" PRIu64 " ns", delay_ns);
}

/* A wake's lateness on a slow machine (a PVM guest's timed waits: p50 ~76 us,
 * p99 ~225 us): 50 us plus an exponential tail of mean 38 us. */
static uint64_t
slow_late_ns(uint64_t *rng)
{
	double u;

	*rng ^= *rng << 13;
	*rng ^= *rng >> 7;
	*rng ^= *rng << 17;
	u = ((double)(*rng >> 11) + 1.0) / 9007199254740993.0;
	return 50000 + (uint64_t)(-log(u) * 38000.0);
}

/* Paced arrivals at period_ns on a machine whose timed waits are late as
 * slow_late_ns() and cost 40 us of CPU each (the budget is the default 250
 * us): the share of the second half spent polling, in %. */
static double
slow_wake_poll_pct(uint64_t period_ns, uint64_t total_ns)
{
	uint64_t now_ns = 0, next_ns = 0, poll_ns = 0, rng = 0x9E3779B97F4A7C15ULL;

	init(&pol, LULL_POLICY_RATE);
	while (now_ns < total_ns) {
		uint32_t got = 0;
		uint64_t s;

		for (; next_ns <= now_ns; next_ns += period_ns)
			got++;
		s = iterate(&pol, &got, 1, now_ns);
		if (s > 0) {
			uint64_t act_ns = s + slow_late_ns(&rng);

			lull_policy_slept(&pol, s, act_ns, 0);
			lull_policy_wait_cpu(&pol, false, 40000);
			now_ns += act_ns;
		} else {
			if (now_ns > total_ns / 2)
				poll_ns += 1000;
			now_ns += 1000; /* a poll through the kernel (net_tap): ~1 us */
		}
	}
	return 100.0 * (double)poll_ns / (double)(total_ns / 2);
}

static void
test_rate_no_cliff_on_slow_wakes(void **state)
{
	static const uint64_t periods_ns[] = {1000000, 100000, 33333};

	(void)state;
	/* At 1, 10 and 30 kpps a busy-polling PMD is far below 50 % busy: where the
	 * p99 of the lateness leaves no sleep within the budget, rate keeps a
	 * lower quantile and sleeps; it must not fall into busy polling. */
	for (unsigned int i = 0; i < sizeof(periods_ns) / sizeof(periods_ns[0]); i++) {
		double pct = slow_wake_poll_pct(periods_ns[i], 2000000000);

		if (pct > 20)
			fail_msg("%.0f kpps with slow wakes: %.1f %% of the time polling",
				1e6 / (double)periods_ns[i], pct);
	}
}

static void
test_random_traces_in_range(void **state)
{
	(void)state;
	srand(11);
	for (int kind = 0; kind < LULL_POLICY_N_KINDS; kind++) {
		uint64_t now_ns = 0;

		init(&pol, (enum lull_policy_kind)kind);
		for (int i = 0; i < 50000; i++) {
			uint32_t q[2] = {(uint32_t)(rand() % 40), (uint32_t)(rand() % 3)};
			uint64_t s = iterate(&pol, q, rand() % 3, now_ns);

			if (s > pol.p.max_sleep_ns || (kind == LULL_POLICY_OFF && s != 0))
				fail_msg("%s: sleep %llu out of [0, %llu]", lull_policy_name(kind),
					(unsigned long long)s,
					(unsigned long long)pol.p.max_sleep_ns);
			if (s)
				lull_policy_slept(&pol, s, s + (uint64_t)(rand() % 50000), 0);
			now_ns += s + (uint64_t)(rand() % 5000);
		}
	}
}

/* The burst tolerance: a ring of 1024 at 10 GbE line rate (14.88 Mpps) fills in
 * 68.8 us; a burst longer than the ring fits only if the PMD wakes before that. */
static void
test_burst_tolerance_cap(void **state)
{
	struct lull_policy_params p;

	(void)state;
	lull_policy_defaults(&p, LULL_POLICY_RATE, 32, 1024);
	assert_true(lull_policy_ring_fill_ns(&p) == UINT64_MAX); /* line rate unknown */
	assert_true(lull_policy_burst_cap_ns(&p, 0) == UINT64_MAX);
	p.line_ppns = 10e9 / (84 * 8) / 1e9;
	assert_int_equal(lull_policy_ring_fill_ns(&p) / 100, 688);       /* 68.8 us */
	assert_int_equal(lull_policy_burst_tolerance(&p, 250000), 1024); /* sleeps past it */
	assert_int_equal(lull_policy_burst_tolerance(&p, 50000), 0);     /* wakes first: any */
	/* asked no more than the ring holds: nothing to cap */
	p.burst_tol = 1024;
	assert_true(lull_policy_burst_cap_ns(&p, 20000) == UINT64_MAX);
	/* asked more: sleep + lateness < fill */
	p.burst_tol = 4096;
	assert_int_equal(lull_policy_burst_cap_ns(&p, 20000) / 100, 488);
	assert_int_equal(lull_policy_burst_cap_ns(&p, 100000), 0); /* later than the fill: poll */
	/* a longer ring or a slower line leaves more room */
	p.min_ring = 4096;
	p.burst_tol = 8192;
	assert_int_equal(lull_policy_burst_cap_ns(&p, 20000) / 1000, 255);
}

/* Whatever the trace and the lateness, a policy asked for a tolerance above the
 * ring never sleeps so long that, with the lateness it measured, the ring
 * could fill first. */
static void
test_burst_tolerance_holds_on_traces(void **state)
{
	static const enum lull_policy_kind kinds[] = {
		LULL_POLICY_OVS, LULL_POLICY_WINDOW, LULL_POLICY_RATE};
	uint64_t seed = 12345;

	(void)state;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct lull_policy_params p;
		uint64_t now_ns = 1000000, fill_ns;
		unsigned int slept = 0;

		lull_policy_defaults(&p, kinds[k], 32, 1024);
		p.line_ppns = 10e9 / (84 * 8) / 1e9;
		p.burst_tol = 2048;
		fill_ns = lull_policy_ring_fill_ns(&p);
		lull_policy_init(&pol, &p);
		for (int i = 0; i < 200000; i++) {
			uint32_t burst[2];
			uint64_t s, late_ns;

			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			/* idle spells, sparse packets and full bursts */
			burst[0] = (seed >> 33) % 100 < 3 ? (uint32_t)((seed >> 40) % 33) : 0;
			burst[1] = (seed >> 20) % 1000 == 0 ? 32 : 0;
			s = iterate(&pol, burst, 2, now_ns);
			if (s != 0) {
				/* the measured lateness enters the next cap */
				assert_true(s + pol.cost.late_mean_ns < fill_ns);
				late_ns = 5000 + (seed >> 45) % 60000; /* 5-65 us late */
				lull_policy_slept(&pol, s, s + late_ns, 0);
				now_ns += s + late_ns;
				slept++;
			}
			now_ns += 200;
		}
		assert_true(slept > 0);
	}
}

/* What pmd-sleep-show and the log say when p99 is out of reach: the wake a
 * budget needs at p99 when that is why; the rarer stalls when that wake fits. */
static void
test_kept_text_says_why(void **state)
{
	struct lull_kept_view v = {
		.budget_ns = 250000,
		.kept_pct = 95,
		.late_p50_ns = 40000,
		.late_p99_ns = 300000,
		.kept_late_ns = 120000,
		.wait_cpu_ns = 20000,
	};
	char line[320];

	(void)state;
	lull_policy_kept_text(line, sizeof(line), &v);
	assert_non_null(strstr(line, "budget 250 us: p99 out of reach here (needs 320 us"));
	assert_non_null(strstr(line, "keeping p95 (120.0 us late)"));
	v.budget_ns = 4000000; /* the p99 wake fits: the tail is why */
	lull_policy_kept_text(line, sizeof(line), &v);
	assert_null(strstr(line, "needs"));
	assert_non_null(
		strstr(line, "budget 4000 us: p99 out of reach here (a wake 300.0 us late"));
	assert_non_null(strstr(line, "rarer stalls past the budget"));
	assert_non_null(strstr(line, "keeping p95"));
	v.kept_pct = 0;
	v.strict = true;
	lull_policy_kept_text(line, sizeof(line), &v);
	assert_non_null(strstr(line, "rarer stalls past the budget"));
	assert_non_null(strstr(line, "busy-polling while traffic flows"));
	v.kept_pct = 99;
	lull_policy_kept_text(line, sizeof(line), &v);
	assert_string_equal(line, "budget 4000 us: kept at p99");
}

static void
test_policy_names_and_checks(void **state)
{
	struct lull_policy_params p;

	(void)state;
	assert_int_equal(lull_policy_parse("rate"), LULL_POLICY_RATE);
	assert_int_equal(lull_policy_parse("ovs"), LULL_POLICY_OVS);
	assert_int_equal(lull_policy_parse("fast"), -EINVAL);
	assert_string_equal(lull_policy_name(LULL_POLICY_WINDOW), "window");
	lull_policy_defaults(&p, LULL_POLICY_RATE, 32, 512);
	p.max_sleep_ns = LULL_MAX_SLEEP_NS + 1;
	assert_int_equal(lull_policy_check(&p), -EINVAL);
	lull_policy_defaults(&p, LULL_POLICY_WINDOW, 32, 512);
	p.window = LULL_POLICY_MAX_WIN + 1;
	assert_int_equal(lull_policy_check(&p), -EINVAL);
}

static void
test_sleeplist(void **state)
{
	static const struct {
		const char *in;
		int ret;
		const char *quote; /* the bad entry, quoted */
	} cases[] = {
		{"250", 0, NULL},
		{"250,3:0,5:50", 0, NULL},
		{"3:0,250", 0, NULL},
		{"10000", 0, NULL},
		{"10001", -EINVAL, "'10001'"},
		{"250,300", -EINVAL, "'300'"},
		{"3:0,3:5", -EEXIST, "'3:5'"},
		{"3:x", -EINVAL, "'3:x'"},
		{"a:5", -EINVAL, "'a:5'"},
		{"250,", -EINVAL, "''"},
		{"", -EINVAL, "''"},
		{"-5", -EINVAL, "'-5'"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lull_sleeplist l;
		char err[256] = "";
		int ret = lull_sleeplist_parse(cases[i].in, &l, err, sizeof(err));

		if (ret != cases[i].ret || (cases[i].quote && !strstr(err, cases[i].quote)))
			fail_msg("'%s': got %d '%s'", cases[i].in, ret, err);
	}
	struct lull_sleeplist l;
	char err[64];

	assert_int_equal(lull_sleeplist_parse("250,3:0,5:50", &l, err, sizeof(err)), 0);
	assert_int_equal(lull_sleeplist_get(&l, 3, 7), 0);
	assert_int_equal(lull_sleeplist_get(&l, 5, 7), 50);
	assert_int_equal(lull_sleeplist_get(&l, 1, 7), 250);
	assert_int_equal(lull_sleeplist_parse("3:0", &l, err, sizeof(err)), 0);
	assert_int_equal(lull_sleeplist_get(&l, 1, 7), 7); /* no default: the fallback */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ovs_ramp_and_reset),
		cmocka_unit_test(test_rate_counts_past_32_bits),
		cmocka_unit_test(test_window_order_independent),
		cmocka_unit_test(test_window_steady_light_rate),
		cmocka_unit_test(test_rate_bounds_on_burst_trace),
		cmocka_unit_test(test_rate_linger_adapts),
		cmocka_unit_test(test_rate_no_cliff_on_slow_wakes),
		cmocka_unit_test(test_random_traces_in_range),
		cmocka_unit_test(test_burst_tolerance_cap),
		cmocka_unit_test(test_burst_tolerance_holds_on_traces),
		cmocka_unit_test(test_kept_text_says_why),
		cmocka_unit_test(test_policy_names_and_checks),
		cmocka_unit_test(test_sleeplist),
	};

	return cmocka_run_group_tests_name("policy", tests, NULL, NULL);
}
