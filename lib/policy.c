/* SPDX-License-Identifier: BSD-3-Clause */
#include "policy.h"

#include <errno.h>
#include <string.h>

/* rate: the arrival rate is re-estimated every period; the peak halves in ~0.7 s. */
#define RATE_PERIOD_NS 1000000u
#define PEAK_DECAY     1024u

/* Linger is kept while at least a quarter of lingers, and twice as many as
 * chance would, end with a packet (a reply that follows a request); otherwise
 * one linger in LINGER_PROBE re-measures. */
#define LINGER_ONE   256u
#define LINGER_KEEP  (LINGER_ONE / 4)
#define LINGER_PROBE 16u

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
	pol->drained = true;
}

static inline uint64_t
min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
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
decide_window(struct lull_policy *pol, uint32_t n)
{
	pol->win_sum -= pol->win_pkts[pol->win_pos];
	pol->win_pkts[pol->win_pos] = n;
	pol->win_sum += n;
	pol->win_pos = (pol->win_pos + 1) % pol->p.window;
	return decide_ovs(pol, pol->win_sum >= pol->p.busy_threshold);
}

static void
rate_update(struct lull_policy *pol, uint64_t now_ns, uint32_t n, bool busy, bool full)
{
	uint64_t elapsed;

	/* The arrival rate of a spell of traffic: packets since the rings were last
	 * empty, over the time since. Not a burst over the time since the previous
	 * poll: after a stall the PMD drains a backlog at its own speed, and that
	 * is not how fast packets came (lull-sim showed peaks inflated a thousand
	 * times by one preemption, and the PMD then barely slept for a second). */
	if (pol->drained) {
		pol->spell_start_ns = pol->last_decide_ns;
		pol->spell_pkts = 0;
	}
	pol->spell_pkts += n;
	pol->drained = !full;
	if (busy && now_ns > pol->spell_start_ns) {
		double inst = (double)pol->spell_pkts / (double)(now_ns - pol->spell_start_ns);

		if (inst > pol->peak_ppns)
			pol->peak_ppns = inst;
	}
	pol->last_decide_ns = now_ns;
	pol->period_pkts += n;
	elapsed = now_ns - pol->period_start_ns;
	if (elapsed >= RATE_PERIOD_NS) {
		double sample = (double)pol->period_pkts / (double)elapsed;

		pol->rate_ppns = (pol->rate_ppns + sample) / 2;
		pol->peak_ppns -= pol->peak_ppns / PEAK_DECAY;
		if (sample > pol->peak_ppns)
			pol->peak_ppns = sample;
		pol->period_start_ns = now_ns;
		pol->period_pkts = 0;
	}
}

static inline void
linger_score(struct lull_policy *pol, bool hit)
{
	pol->linger_score -= pol->linger_score / 8;
	if (hit)
		pol->linger_score += LINGER_ONE / 8;
	pol->lingering = false;
}

/* Sparse traffic (less than one packet expected per linger): a reply may
 * follow a packet at once (ping, TCP ACK, RPC), so keep polling a moment after
 * it. Whether that pays is measured: a linger a packet ends is a hit. Lingers
 * that rarely hit (one-way traffic, paced streams) stop, but for a probe. Denser
 * traffic is better served by sleeping for a batch. */
static bool
linger(struct lull_policy *pol, uint64_t now_ns, uint32_t n)
{
	if (pol->p.linger_ns == 0 || pol->rate_ppns * (double)pol->p.linger_ns >= 1.0) {
		pol->lingering = false;
		return false;
	}
	if (n > 0) {
		/* A linger catches a packet by chance too (Poisson: 1 - e^-x, x = rate x
		 * linger); it must do clearly better than chance to be worth its CPU. */
		double x = pol->rate_ppns * (double)pol->p.linger_ns;
		double keep = 2 * (x - x * x / 2) * LINGER_ONE;

		if (keep < LINGER_KEEP)
			keep = LINGER_KEEP;
		if (pol->lingering)
			linger_score(pol, true);
		if (pol->linger_score >= keep || ++pol->linger_skips >= LINGER_PROBE) {
			pol->linger_skips = 0;
			pol->lingering = true;
		}
		return pol->lingering;
	}
	if (!pol->lingering)
		return false;
	if (now_ns - pol->last_pkt_ns < pol->p.linger_ns)
		return true;
	linger_score(pol, false);
	return false;
}

/* Sleep about the time a useful batch takes to arrive, but never longer than
 * the budget minus the measured oversleep, the maximum, or the time the
 * smallest ring takes to fill half at the highest rate seen recently. */
static uint64_t
decide_rate(struct lull_policy *pol, uint64_t now_ns, uint32_t n, bool busy, bool full)
{
	uint64_t cap, want;

	rate_update(pol, now_ns, n, busy, full);
	if (busy)
		return 0;
	if (linger(pol, now_ns, n))
		return 0;
	cap = pol->p.budget_ns > pol->oversleep_ns ? pol->p.budget_ns - pol->oversleep_ns : 0;
	if (cap < pol->p.step_ns) {
		/* The backend oversleeps the whole budget: poll, and let the estimate
		 * age so that a passing hiccup does not stop sleeping for good. */
		pol->oversleep_ns -= pol->oversleep_ns / 256;
		return 0;
	}
	cap = min_u64(cap, pol->p.max_sleep_ns);
	if (pol->peak_ppns > 0 && (double)pol->p.min_ring / 2 / pol->peak_ppns < (double)cap)
		cap = (uint64_t)((double)pol->p.min_ring / 2 / pol->peak_ppns);
	/* in double: a rate near zero would overflow an integer */
	want = pol->rate_ppns > 0 && (double)pol->p.batch / pol->rate_ppns < (double)cap
		       ? (uint64_t)((double)pol->p.batch / pol->rate_ppns)
		       : cap;
	return want < pol->p.step_ns ? 0 : want; /* shorter than a step: not worth a wait */
}

uint64_t
lull_policy_decide(struct lull_policy *pol, uint64_t now_ns)
{
	uint32_t n = pol->iter_pkts;
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
	switch (pol->p.kind) {
	case LULL_POLICY_OVS:
		s = decide_ovs(pol, busy);
		break;
	case LULL_POLICY_WINDOW:
		s = decide_window(pol, n);
		break;
	case LULL_POLICY_RATE:
		s = decide_rate(pol, now_ns, n, busy, full);
		break;
	case LULL_POLICY_OFF:
	default:
		s = 0;
		break;
	}
	s = min_u64(s, pol->p.max_sleep_ns);
	/* Before the first wait is measured its lateness is unknown: the first capped
	 * sleep takes half the ring's fill time (then the measure takes over). */
	if (!pol->slept && pol->p.burst_tol > pol->p.min_ring)
		return min_u64(s, lull_policy_ring_fill_ns(&pol->p) / 2);
	return min_u64(s, lull_policy_burst_cap_ns(&pol->p, pol->oversleep_ns));
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

void
lull_policy_slept(struct lull_policy *pol, uint64_t requested_ns, uint64_t actual_ns)
{
	uint64_t over = actual_ns > requested_ns ? actual_ns - requested_ns : 0;

	/* One preemption of a few ms must not count as the backend's usual lateness. */
	if (pol->p.budget_ns > 0 && over > 2 * pol->p.budget_ns)
		over = 2 * pol->p.budget_ns;
	/* the first measure is the estimate; then a smoothed mean */
	pol->oversleep_ns = pol->slept ? (7 * pol->oversleep_ns + over) / 8 : over;
	pol->slept = true;
}
