/* SPDX-License-Identifier: BSD-3-Clause */
#include "policy.h"
#include "policy_rate.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *const names[LULL_POLICY_N_KINDS] = {
	[LULL_POLICY_OFF] = "off",
	[LULL_POLICY_OVS] = "ovs",
	[LULL_POLICY_WINDOW] = "window",
	[LULL_POLICY_RATE] = "rate",
};

const char *
lull_policy_name(enum lull_policy_kind kind)
{
	return kind < LULL_POLICY_N_KINDS ? names[kind] : NULL;
}

int
lull_policy_parse(const char *name)
{
	for (int k = 0; k < LULL_POLICY_N_KINDS; k++)
		if (strcmp(name, names[k]) == 0)
			return k;
	return -EINVAL;
}

void
lull_policy_defaults(
	struct lull_policy_params *p, enum lull_policy_kind kind, uint32_t burst, uint32_t min_ring)
{
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->max_sleep_ns = 250000; /* OVS's pmd-maxsleep example value */
	p->step_ns = 1000;        /* OVS: +1 us per light iteration */
	p->busy_threshold = burst / 2 ? burst / 2 : 1;
	p->window = 64;
	p->budget_ns = 250000;
	p->linger_ns = 20000;
	p->batch = burst / 2 ? burst / 2 : 1;
	p->min_ring = min_ring;
	p->burst = burst ? burst : 1;
}

int
lull_policy_check(const struct lull_policy_params *p)
{
	if (p->kind >= LULL_POLICY_N_KINDS || p->max_sleep_ns > LULL_MAX_SLEEP_NS ||
		p->budget_ns > LULL_MAX_SLEEP_NS || p->step_ns == 0 || p->busy_threshold == 0 ||
		p->window == 0 || p->window > LULL_POLICY_MAX_WIN || p->batch == 0 ||
		p->min_ring == 0 || p->burst == 0)
		return -EINVAL;
	return 0;
}

void
lull_policy_init(struct lull_policy *pol, const struct lull_policy_params *p)
{
	memset(pol, 0, sizeof(*pol));
	pol->p = *p;
	pol->linger_score = LINGER_ONE; /* linger until shown useless */
	pol->tail_age_ns = LULL_COST_TAIL_AGE_NS;
	lull_cost_init(&pol->cost);
	pol->drained = true;
	/* the window a peak is judged over (decide_rate sets it from the measured
	 * lateness): a burst before the first decision is no peak of a
	 * nanosecond (lull-sim: 30 Mpps from 200 packets at once, which kept
	 * the PMD polling for seconds) */
	pol->peak_win_ns = min_u64(p->budget_ns, p->max_sleep_ns);
}

void
lull_policy_set_params(struct lull_policy *pol, const struct lull_policy_params *p)
{
	pol->p = *p;
	pol->poll_until_ns = 0;
}

/* OVS 3.1 pmd_thread_main(): the sleep that was reset by a busy queue is used as
 * is, then grows by one step for the next iteration, up to the maximum. */
static uint64_t
decide_ovs(struct lull_policy *pol, bool busy)
{
	uint64_t s;

	if (busy)
		pol->sleep_ns = 0;
	s = pol->sleep_ns;
	pol->sleep_ns = min_u64(pol->sleep_ns + pol->p.step_ns, pol->p.max_sleep_ns);
	return s;
}

/* Busy when the last W iterations together brought at least the threshold:
 * a sum, so the order of queues within an iteration does not matter. */
static uint64_t
decide_window(struct lull_policy *pol, uint64_t n)
{
	pol->win_sum -= pol->win_pkts[pol->win_pos];
	pol->win_pkts[pol->win_pos] = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
	pol->win_sum += pol->win_pkts[pol->win_pos];
	pol->win_pos = (pol->win_pos + 1) % pol->p.window;
	return decide_ovs(pol, pol->win_sum >= pol->p.busy_threshold);
}

uint64_t
lull_policy_decide(struct lull_policy *pol, uint64_t now_ns)
{
	uint64_t n = pol->iter_pkts;
	bool busy = pol->iter_busy, full = pol->iter_full;
	uint64_t s;

	pol->iter_pkts = 0;
	pol->iter_busy = false;
	pol->iter_full = false;
	if (!pol->started) {
		pol->started = true;
		pol->period_start_ns = now_ns;
		pol->last_decide_ns = now_ns;
		pol->last_pkt_ns = now_ns;
	}
	if (n > 0)
		pol->last_pkt_ns = now_ns;
	pol->mode = LULL_MODE_SLEEP;
	switch (pol->p.kind) {
	case LULL_POLICY_OVS:
		s = decide_ovs(pol, busy);
		break;
	case LULL_POLICY_WINDOW:
		s = decide_window(pol, n);
		break;
	case LULL_POLICY_RATE:
		s = lull_policy_decide_rate(pol, now_ns, n, busy, full);
		break;
	case LULL_POLICY_OFF:
	default:
		s = 0;
		break;
	}
	/* a busy PMD polls: no cap to read (every iteration of a saturated one) */
	if (s == 0) {
		pol->mode = LULL_MODE_POLL;
		return 0;
	}
	s = min_u64(s, pol->p.max_sleep_ns);
	/* Before the first wait is measured its lateness is unknown: the first capped
	 * sleep takes half the ring's fill time (then the measure takes over). */
	if (!lull_policy_measured(pol) && pol->p.burst_tol > pol->p.min_ring)
		s = min_u64(s, lull_policy_ring_fill_ns(&pol->p) / 2);
	else
		s = min_u64(s, lull_policy_burst_cap_ns(&pol->p, lull_policy_late_ns(pol)));
	if (s == 0) {
		pol->mode = LULL_MODE_POLL;
		return 0;
	}
	/* any kind: a long idle hands over to interrupts (--intr-after-ms) */
	if (pol->p.intr && pol->p.intr_after_ns > 0 &&
		lull_policy_idle_ns(pol, now_ns) >= pol->p.intr_after_ns)
		pol->mode = LULL_MODE_INTR;
	return s;
}

uint64_t
lull_policy_ring_fill_ns(const struct lull_policy_params *p)
{
	if (!(p->line_ppns > 0))
		return UINT64_MAX;
	return (uint64_t)((double)p->min_ring / p->line_ppns);
}

uint32_t
lull_policy_burst_tolerance(const struct lull_policy_params *p, uint64_t wait_ns)
{
	return wait_ns >= lull_policy_ring_fill_ns(p) ? p->min_ring : 0;
}

uint64_t
lull_policy_burst_cap_ns(const struct lull_policy_params *p, uint64_t lateness_ns)
{
	uint64_t fill_ns;

	if (p->burst_tol <= p->min_ring || !(p->line_ppns > 0))
		return UINT64_MAX;
	fill_ns = lull_policy_ring_fill_ns(p);
	/* wake before the ring is full: then a burst of any length fits */
	return fill_ns > lateness_ns + 1 ? fill_ns - lateness_ns - 1 : 0;
}

/* A timed wait late_ns late, queued_ns of it in the run queue (NA: not
 * measured): the rest is the sleep's. */
static void
charge(struct lull_policy *pol, uint64_t late_ns, uint64_t queued_ns, uint64_t actual_ns)
{
	bool past_p99 = late_ns > pol->cost.late_p99_ns;
	uint64_t asked_ns = actual_ns - late_ns;

	/* a stall: later than p99 and than the sleep asked, run queue included;
	 * a cluster it began is timed over it (rate_update) */
	pol->stalled = past_p99 && late_ns >= asked_ns;
	/* on time: no later than p99; a spell it began that filled a ring lost
	 * packets to its sleep, not its lateness (lull_policy_tail_harm) */
	pol->woke_on_time = !past_p99;
	if (queued_ns != LULL_POLICY_QUEUED_NA)
		late_ns = late_ns > queued_ns ? late_ns - queued_ns : 0;
	/* the distribution takes the whole lateness the sleep added: its tail is
	 * what it is for. Rate's wake past the p99 into traffic: at its spell's
	 * end, as long as its backlog shows (lull_policy_late_seen) */
	if (pol->p.kind == LULL_POLICY_RATE && past_p99 &&
		pol->rate_ppns * (double)late_ns >= LULL_POLICY_LATE_SEEN_PKTS) {
		pol->late_held = true;
		pol->late_held_sleep_ns = asked_ns;
		pol->late_held_ppns = pol->rate_ppns;
	} else {
		lull_cost_late(&pol->cost, late_ns);
	}
	lull_cost_waited(&pol->cost, actual_ns);
	pol->poll_until_ns = 0; /* the lateness it was judged with changed */
	pol->woke_late_ns = late_ns;
	pol->woke = true;
}

void
lull_policy_slept(
	struct lull_policy *pol, uint64_t requested_ns, uint64_t actual_ns, uint64_t queued_ns)
{
	uint64_t late_ns = actual_ns > requested_ns ? actual_ns - requested_ns : 0;

	if (queued_ns != LULL_POLICY_QUEUED_NA)
		lull_cost_queued(&pol->cost, queued_ns);
	charge(pol, late_ns, queued_ns, actual_ns);
}

void
lull_policy_slept_late(
	struct lull_policy *pol, uint64_t requested_ns, uint64_t actual_ns, uint64_t queued_ns)
{
	charge(pol, actual_ns > requested_ns ? actual_ns - requested_ns : 0, queued_ns, actual_ns);
}

int
lull_policy_kept_text(char *buf, size_t len, const struct lull_kept_view *v)
{
	/* the least budget whose sleep would fit: the lateness and one wait's CPU */
	double p99_us = (double)v->late_p99_ns / 1e3, p50_us = (double)v->late_p50_ns / 1e3;
	double cpu_us = (double)v->wait_cpu_ns / 1e3;
	uint64_t budget_us = v->budget_ns / 1000;
	char why[160];

	if (v->kept_pct >= 99)
		return snprintf(buf, len, "budget %" PRIu64 " us: kept at p99", budget_us);
	if (v->kept_pct == 0 && !v->strict)
		return snprintf(buf, len,
			"budget %" PRIu64 " us: out of reach here even at p50 (needs %.0f us: a "
			"wake %.1f us late at p50, %.1f us of CPU a wait); sleeping the budget, "
			"misses counted (--strict-budget on busy-polls instead)",
			budget_us, p50_us + cpu_us, p50_us, cpu_us);
	/* where the p99 wake fits, the rarer wakes beyond it are why (a host's
	 * stalls of milliseconds: what they delay is their length, over 1 % of
	 * the time) */
	if ((double)budget_us > p99_us + cpu_us)
		snprintf(why, sizeof(why),
			"a wake %.1f us late at p99 fits, but rarer stalls past the budget delay "
			"over 1 %% of packets",
			p99_us);
	else
		snprintf(why, sizeof(why),
			"needs %.0f us: a wake %.1f us late at p99, %.1f us of CPU a wait",
			p99_us + cpu_us, p99_us, cpu_us);
	if (v->kept_pct > 0)
		return snprintf(buf, len,
			"budget %" PRIu64 " us: p99 out of reach here (%s); keeping p%u (%.1f us "
			"late), misses counted",
			budget_us, why, v->kept_pct, (double)v->kept_late_ns / 1e3);
	return snprintf(buf, len,
		"budget %" PRIu64 " us: p99 out of reach here (%s); busy-polling while traffic "
		"flows (--strict-budget on)",
		budget_us, why);
}
