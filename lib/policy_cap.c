/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rate policy's cap (lib/policy.h, lull_policy_cap_ns()): the longest
 * sleep that keeps the latency budget for a share of the packets, from the
 * measured lateness, read once per read of the cost model and with
 * hysteresis. lib/policy_rate.c fits its sleeps under it.
 */
#include "policy_rate.h"

/*
 * The longest sleep (up to top_ns) whose wakes keep the budget B for all but
 * a share miss of the packets. A packet that comes while the PMD waits (light
 * traffic comes at any moment of a cycle: the sleep s, then the wake's
 * lateness L) waits the rest of the cycle: it misses the budget when it came
 * in the cycle's first s + L - B. Over many cycles the share of packets that
 * miss is E[max(0, s + L - B)] / (s + E[L]): a rare long stall costs what it
 * lasts, not a whole wake, and a sleep is not charged the p99 of its wake as
 * if every packet came as the sleep began. The left side is convex in s and
 * the right side linear: the sleeps that keep the share are an interval,
 * found from the top by a coarse scan, then halving.
 */
static bool
keeps(const struct lull_cost_excess *e, uint64_t budget_ns, uint64_t s_ns, double miss,
	double mean_ns)
{
	/* a tenth of the share kept back: the histogram knows a value within its bucket */
	return lull_cost_excess_ns(e, budget_ns - s_ns) <= 0.9 * miss * ((double)s_ns + mean_ns);
}

static uint64_t
budget_cap(const struct lull_policy *pol, double miss)
{
	uint64_t b_ns = pol->p.budget_ns, top_ns = min_u64(b_ns, pol->p.max_sleep_ns);
	uint64_t step_ns = top_ns / 32 + 1, ok_ns, bad_ns;
	struct lull_cost_excess e; /* read once: up to ~40 reads of the excess follow */
	double mean_ns;

	lull_cost_excess_load(&pol->cost, &e);
	mean_ns = lull_cost_excess_ns(&e, 0);

	if (keeps(&e, b_ns, top_ns, miss, mean_ns))
		return top_ns;
	for (bad_ns = top_ns;; bad_ns -= step_ns) {
		ok_ns = bad_ns > step_ns ? bad_ns - step_ns : 0;
		if (keeps(&e, b_ns, ok_ns, miss, mean_ns))
			break;
		if (ok_ns == 0)
			return 0;
	}
	while (bad_ns - ok_ns > 256) {
		uint64_t mid_ns = ok_ns + (bad_ns - ok_ns) / 2;

		if (keeps(&e, b_ns, mid_ns, miss, mean_ns))
			ok_ns = mid_ns;
		else
			bad_ns = mid_ns;
	}
	return ok_ns;
}

/*
 * The budget's cap at kept quantile k, from the lateness as last read: cached
 * per read of the cost model, and with hysteresis (a cap goes down at once,
 * the safe side, and up only once LULL_COST_DOWN_READS reads in a row gave
 * more), so that the sleep does not flip with a noisy tail.
 */
static uint64_t
cap_at(struct lull_policy *pol, unsigned int k)
{
	struct lull_policy_cap *cp = &pol->cap[k];
	uint64_t v_ns;

	if (!lull_policy_measured(pol))
		return min_u64(pol->p.budget_ns, pol->p.max_sleep_ns);
	if (cp->reads == pol->cost.late_reads && cp->budget_ns == pol->p.budget_ns &&
		cp->max_ns == pol->p.max_sleep_ns)
		return cp->cap_ns;
	v_ns = budget_cap(pol, 1.0 - lull_cost_keep_pct(k) / 100.0);
	if (cp->budget_ns != pol->p.budget_ns || cp->max_ns != pol->p.max_sleep_ns ||
		v_ns <= cp->cap_ns) {
		cp->cap_ns = v_ns;
		cp->ups = 0;
	} else if (cp->ups++ == 0 || v_ns < cp->up_ns) {
		cp->up_ns = v_ns;
	}
	if (cp->ups >= LULL_COST_DOWN_READS) {
		cp->cap_ns = cp->up_ns;
		cp->ups = 0;
	}
	cp->reads = pol->cost.late_reads;
	cp->budget_ns = pol->p.budget_ns;
	cp->max_ns = pol->p.max_sleep_ns;
	return cp->cap_ns;
}

uint64_t
lull_policy_cap_ns(struct lull_policy *pol, unsigned int k)
{
	return k < LULL_COST_KEEP_N ? cap_at(pol, k) : 0;
}
