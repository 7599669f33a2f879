/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rate policy (lib/policy.h): the arrival rate and its peak, the
 * sleep that keeps the latency budget (fit under lib/policy_cap.c's cap,
 * unfit), the ring's bounds, the hold, and the mode of the next wait.
 * lib/policy.c dispatches to it.
 */
#include "policy_rate.h"

#include <stdio.h>
#include <string.h>

/* rate: the arrival rate is re-estimated every period; the peak decays by
 * elapsed time, to 1/e in PEAK_TAU_NS. */
#define RATE_PERIOD_NS 1000000u
#define PEAK_TAU_NS    1000000000u

/* A timed wait's CPU should be at most 1/WAKE_SHARE of the time between two
 * polls: where a wake costs 25 us (this VM) sleeps are >= 6x that minus the
 * lateness; where it costs 1.5 us (tpause, bare metal) short sleeps are fine.
 * Where a budget allows less, rate keeps it for fewer packets (not strict). */
#define WAKE_SHARE 6u

/* A backend whose 99th percentile lateness alone exceeds the budget: poll, and
 * take one short wait per LATE_PROBE_NS to see whether it got better. */
#define LATE_PROBE_NS 10000000u

/* The least silence between two clusters of packets (cluster_gap_ns). */
#define CLUSTER_GAP_MIN_NS 1000000u

/* Fewer packets than this expected in one wait: traffic is idle. */
#define IDLE_EXPECT 0.01

/*
 * The silence that separates two clusters of packets: a window no longer than
 * it holds packets of one cluster at most. Twice the longest sleep the budget
 * and the maximum allow, and at least 1 ms: a burst's own gaps and a sleep's
 * lateness stay inside a cluster; steady traffic makes one cluster that grows
 * past any ring (at 10 kpps a gap of 1 ms comes once in 22,000).
 */
static inline uint64_t
cluster_gap_ns(const struct lull_policy *pol)
{
	return max_u64(2 * min_u64(pol->p.budget_ns, pol->p.max_sleep_ns), CLUSTER_GAP_MIN_NS);
}

/* A recent maximum (the peak, the largest cluster) elapsed ns later: by time,
 * not per decision (after a 100 ms interrupt wait, 100 ms of decay). */
static inline double
decayed(double v, uint64_t elapsed)
{
	return elapsed >= PEAK_TAU_NS ? 0 : v - v * (double)elapsed / PEAK_TAU_NS;
}

/*
 * The largest recent cluster, as a burst: what of it one wait as long as the
 * gap between clusters would see, at its mean rate. Steady traffic is one
 * cluster that outgrows any ring, but comes no faster than its rate: counted
 * whole, 3 s of 100 kpps (300,000 packets, decaying 1/e a second) kept the
 * cluster bound off for 6 s after it ended, and bursts of 1000 into 1024 that
 * came next were slept through at half the ring's time at their rate (inside
 * OVS on memif: 19-31 % of a core, 11-15 % without the steady traffic first).
 * Compared by a product: the division only where the largest grows. gap_u_ns:
 * cluster_gap_ns(), as rate_update read it.
 */
static void
clu_size(struct lull_policy *pol, uint64_t now_ns, uint64_t gap_u_ns)
{
	double pkts = (double)pol->clu_pkts, gap_ns = (double)gap_u_ns;
	double span_ns = (double)(now_ns - pol->clu_start_ns);

	if (span_ns <= gap_ns) {
		if (pkts > pol->clu_max_pkts)
			pol->clu_max_pkts = pkts;
	} else if (pkts * gap_ns > pol->clu_max_pkts * span_ns) {
		pol->clu_max_pkts = pkts * gap_ns / span_ns;
	}
}

static void
rate_update(struct lull_policy *pol, uint64_t now_ns, uint64_t n, bool busy, bool full)
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
	/* the spell a wake began is over: if it filled a ring, the wake lost
	 * packets, by its lateness or its sleep, and the tail rule believes the
	 * lateness at once (a hiccup that did no harm waits for another to
	 * confirm it) and the peak of a wake on time (lib/policy_tail.c) */
	if (pol->drained && pol->woke) {
		lull_policy_late_seen(pol);
		if (pol->spell_pkts >= pol->p.min_ring)
			lull_policy_tail_harm(pol, pol->woke_late_ns, pol->woke_on_time, now_ns);
		pol->woke_late_ns = 0;
		pol->woke = false;
	}
	/* clusters: a new one after a silence of cluster_gap_ns() (no packet
	 * from the decision that last saw some to the one before this) */
	if (n > 0) {
		uint64_t gap_ns = cluster_gap_ns(pol);

		if (pol->last_decide_ns - pol->clu_last_ns >= gap_ns) {
			pol->clu_pkts = 0;
			/* from the wake, or over the wait where it was a stall: the PMD
			 * drains a stall's backlog at its own speed (inside OVS at 100
			 * kpps on af_packet's 512 frames, a wake ~5 ms late read as 2.5
			 * Mpps; a peak that high polls for up to PEAK_TAU_NS where OVS
			 * sleeps). lull-sim, on/off 1 Mpps, 5 ms in 50, into 512 on the
			 * slow VM, 24 seeds: 47 % of a core instead of 56; 32,286 lost
			 * instead of 18,361 (OVS: 99,930), on-phases that came on during
			 * a stall, which the inflated peak had polled through the next
			 * second's off-phases for. */
			pol->clu_start_ns = pol->stalled ? pol->last_decide_ns : now_ns;
		}
		pol->clu_pkts += n;
		pol->clu_last_ns = now_ns;
		clu_size(pol, now_ns, gap_ns);
		/* A cluster the ring does not hold is no micro-burst: the peak is its
		 * own rate, over no window (from its first packets seen, the wake's
		 * backlog included: the safe side). Over the window, bursts of 1100
		 * at line rate into 1024 read as ~5 Mpps, the sleeps let the ring
		 * fill, and every burst lost some where polling loses none
		 * (lull-sim, maximum 250 us: 533 in 2 s). Steady traffic: its rate. */
		if (pol->clu_pkts >= pol->p.min_ring && now_ns > pol->clu_start_ns &&
			(double)pol->clu_pkts >
				pol->peak_ppns * (double)(now_ns - pol->clu_start_ns))
			pol->peak_ppns =
				(double)pol->clu_pkts / (double)(now_ns - pol->clu_start_ns);
	}
	if (busy && now_ns > pol->spell_start_ns) {
		/* Over at least the sleep the bound is for: a micro-burst of 64 packets
		 * at line rate is 64 packets per sleep, not line rate for a whole sleep
		 * (the spell's own rate bounds the sleeps while it lasts: spell_rate).
		 * Compared by a product: a saturated PMD comes here every iteration,
		 * and the division is paid only when the peak rises. */
		uint64_t span_ns = now_ns - pol->spell_start_ns;
		double per_ns = (double)(span_ns > pol->peak_win_ns ? span_ns : pol->peak_win_ns);

		if ((double)pol->spell_pkts > pol->peak_ppns * per_ns)
			pol->peak_ppns = (double)pol->spell_pkts / per_ns;
	}
	pol->last_decide_ns = now_ns;
	pol->stalled = false;
	pol->period_pkts += n;
	elapsed = now_ns - pol->period_start_ns;
	if (elapsed >= RATE_PERIOD_NS) {
		double sample = (double)pol->period_pkts / (double)elapsed;

		pol->rate_ppns = (pol->rate_ppns + sample) / 2;
		pol->sample_ppns = sample;
		pol->peak_ppns = decayed(pol->peak_ppns, elapsed);
		pol->clu_max_pkts = decayed(pol->clu_max_pkts, elapsed);
		if (sample > pol->peak_ppns)
			pol->peak_ppns = sample;
		pol->period_start_ns = now_ns;
		pol->period_pkts = 0;
	}
}

/* The arrival rate of the spell going on (packets this iteration: n > 0), else
 * 0; after rate_update(). Read only where the PMD may sleep, not per busy
 * iteration. */
static double
spell_rate(const struct lull_policy *pol, uint64_t now_ns, uint64_t n)
{
	return n > 0 ? per_ns(pol->spell_pkts, pol->spell_start_ns, now_ns) : 0;
}

double
lull_policy_intr_below_pps(const struct lull_policy *pol, uint64_t sleep_ns)
{
	double ct = (double)lull_cost_wait_ns(&pol->cost, LULL_COST_TIMED);
	double ci = (double)lull_cost_wait_ns(&pol->cost, LULL_COST_INTR);
	double cycle_ns = (double)(sleep_ns + pol->cost.late_p50_ns);

	/* timed waits that end early (the port wakes the PMD on a packet) cost per
	 * wait as they really come */
	if (pol->cost.wait_mean_ns > 0 && (double)pol->cost.wait_mean_ns < cycle_ns)
		cycle_ns = (double)pol->cost.wait_mean_ns;

	/* An interrupt wake's latency is a scheduler wake-up, as late as a timed
	 * wait's usually is: it must fit in the budget. */
	if (!pol->p.intr || pol->cost.late_p50_ns > pol->p.budget_ns || cycle_ns <= 0)
		return 0;
	/* Per unit of time, timed sleeps cost ct / cycle, interrupts rate x ci (a wake
	 * per packet, at low rates): they break even at ct / (ci x cycle). Unmeasured
	 * costs count as equal. Enter below half of it, leave above it. */
	return (ct > 0 && ci > 0 ? ct / ci : 1.0) / cycle_ns * 1e9 / 2;
}

/* The mode for the next wait, with hysteresis: interrupts below half the
 * break-even rate, timed sleeps again above it (VPP's adaptive mode uses
 * 10/5 vectors per frame; here the break-even comes from the measured costs). */
static enum lull_policy_mode
rate_mode(struct lull_policy *pol, uint64_t sleep_ns)
{
	double below_pps = lull_policy_intr_below_pps(pol, sleep_ns);
	double rate_pps = pol->rate_ppns * 1e9;

	if (below_pps <= 0)
		pol->intr_mode = false;
	else if (pol->intr_mode && rate_pps > 2 * below_pps)
		pol->intr_mode = false;
	else if (!pol->intr_mode && rate_pps < below_pps)
		pol->intr_mode = true;
	return pol->intr_mode ? LULL_MODE_INTR : LULL_MODE_SLEEP;
}

/* The shortest sleep whose wake costs at most 1/WAKE_SHARE of the cycle. */
static uint64_t
floor_of(const struct lull_policy *pol)
{
	uint64_t cost_ns = lull_cost_wait_ns(&pol->cost, LULL_COST_TIMED);

	return WAKE_SHARE * cost_ns > pol->cost.late_p50_ns
		       ? WAKE_SHARE * cost_ns - pol->cost.late_p50_ns
		       : 0;
}

/* The sleep that keeps the budget where it allows cap_ns (lull_policy_cap_ns): as long as
 * that, the maximum and the ring allow, at least long enough for a useful
 * batch and for the wait's CPU to stay a small share of the cycle.
 * 0 when none fits; when climbing back to a better quantile, also when it
 * would be within half a wait's CPU of not fitting (hysteresis: a wait's CPU
 * and a quantile are noisy, and the sleep must not flip with them). */
static uint64_t
fit(const struct lull_policy *pol, uint64_t cap_ns, uint64_t ring_ns, bool climb)
{
	uint64_t cap = min_u64(min_u64(cap_ns, pol->p.max_sleep_ns), ring_ns);
	uint64_t want, cost_ns = lull_cost_wait_ns(&pol->cost, LULL_COST_TIMED),
		       floor_ns = floor_of(pol);

	/* in double: a rate near zero would overflow an integer */
	want = pol->rate_ppns > 0 && (double)pol->p.batch / pol->rate_ppns < (double)cap
		       ? (uint64_t)((double)pol->p.batch / pol->rate_ppns)
		       : cap;
	want = min_u64(want > floor_ns ? want : floor_ns, cap);
	if (climb && cap * 2 <= cost_ns * 3)
		return 0;
	return want < pol->p.step_ns || want <= cost_ns ? 0 : want;
}

/* The longest sleep after which half the ring holds what comes at top_ppns
 * in the sleep and a wake late_ns late; UINT64_MAX when no bound (in double:
 * a rate near zero gives more than an integer holds). */
static uint64_t
ring_bound(const struct lull_policy *pol, double top_ppns, uint64_t late_ns)
{
	double r_ns = (double)pol->p.min_ring / 2 / top_ppns - (double)late_ns;

	return r_ns >= (double)LULL_MAX_SLEEP_NS ? UINT64_MAX : r_ns > 0 ? (uint64_t)r_ns : 0;
}

/*
 * The longest sleep that a burst like the largest recent one leaves room for
 * (0: none). The ring bound above assumes that the peak rate lasts the whole
 * sleep; bursts that end (1000 packets at line rate every 100 ms) are bounded
 * by their size instead: where clusters are separated by more than a sleep
 * and its lateness (cluster_gap_ns), a wait sees at most one, and a cluster
 * that fit the ring whole fits again, however fast it comes. The peak rule
 * kept half the ring free at the burst's rate for the next second and polled
 * between bursts where OVS sleeps (lull-sim, max sleep 50 us: 100 % against
 * OVS's 30). One that did not fit (it filled the ring, and what overflowed was
 * not seen) ends this bound until it decays, and while the hold of a wake
 * that lost packets lasts (lull_policy_tail_harm); the peak rule is left.
 */
static uint64_t
cluster_bound(const struct lull_policy *pol, uint64_t late_ns)
{
	double most = pol->clu_max_pkts > (double)pol->clu_pkts ? pol->clu_max_pkts
								: (double)pol->clu_pkts;
	uint64_t gap_ns = cluster_gap_ns(pol);

	if (lull_policy_harm_peak(pol, pol->last_decide_ns) > 0)
		return 0;
	return most < (double)pol->p.min_ring && gap_ns > late_ns ? gap_ns - late_ns : 0;
}

/* The peak the ring is judged at: the recent one, or a harmful one held
 * (lull_policy_harm_peak). decide_rate reads it after rate_update(). */
static double
peak_ppns(const struct lull_policy *pol)
{
	double held = lull_policy_harm_peak(pol, pol->last_decide_ns);

	return held > pol->peak_ppns ? held : pol->peak_ppns;
}

/* The longest sleep the ring leaves room for, at top_ppns and a wake late_ns
 * late: the peak's bound, or the cluster's where that is longer. */
static uint64_t
ring_room(const struct lull_policy *pol, double top_ppns, uint64_t late_ns)
{
	return max_u64(ring_bound(pol, top_ppns, late_ns), cluster_bound(pol, late_ns));
}

/* A wait's CPU, at least a step: a ring bound below it leaves no sleep worth one. */
static uint64_t
wait_cost_ns(const struct lull_policy *pol)
{
	return max_u64(lull_cost_wait_ns(&pol->cost, LULL_COST_TIMED), pol->p.step_ns);
}

/*
 * No sleep keeps even half the packets within the budget (or the ring leaves
 * none). Idle (no packet expected in a wait), a late wake harms nobody while
 * polling would take a core - often from a machine that is late because it is
 * busy: sleep the budget. Light traffic, unless the operator asked for a
 * strict budget, sleeps the budget too: its misses are counted, but a power
 * saver that busy-polls 1 kpps because the machine is slow fails at what it
 * is for. Traffic the ring bounds below the budget polls. Else (strict) poll;
 * where the wake is the reason, now and then the past weighs half and a probe
 * re-measures, so that a passing hiccup (a host stall: a few waits of ms, one
 * wait's CPU inflated by a preemption) stops sleeping for tens of ms, not for
 * good; a backend that stays late keeps its tail, the probes confirm it.
 * Probes are not for a full ring.
 */
static uint64_t
unfit(struct lull_policy *pol, uint64_t now_ns, uint64_t late_ns, uint64_t ring_ns,
	uint64_t ring_p50_ns)
{
	uint64_t s = min_u64(pol->p.budget_ns, pol->p.max_sleep_ns);
	bool idle = pol->rate_ppns * (double)(pol->p.budget_ns + late_ns) < IDLE_EXPECT;
	unsigned int last = pol->p.strict_budget ? 0 : LULL_COST_KEEP_N - 1;
	/* the wake (its lateness, or a wait's CPU) rather than the ring; nothing
	 * measured yet (a PMD that only took interrupt waits, whose CPU stands in
	 * for a timed wait's) counts as the wake: a timed wait will measure it.
	 * The ring counts too when only the lateness its bound subtracts keeps the
	 * sleep out: a polling PMD takes no timed wait, and one wake that was late
	 * (or a tail of a few samples) would otherwise bound it for good while
	 * bursts keep the peak up (lull-sim: 1000-packet bursts every 100 ms
	 * polled at 99.8 % after one 1.5 ms wake in the first 32) */
	bool measured = lull_policy_measured(pol);
	uint64_t cost_ns = wait_cost_ns(pol);
	bool wake_why = !measured ||
			fit(pol, lull_policy_cap_ns(pol, last), UINT64_MAX, false) == 0 ||
			(ring_ns <= cost_ns && ring_p50_ns > cost_ns);

	/* the budget, not the ring, is why nothing fits: say so (kept); a climb
	 * out of none needs fit's margin (it refuses whatever the plain fit does) */
	pol->kept = measured && fit(pol, lull_policy_cap_ns(pol, last), UINT64_MAX,
					pol->kept == LULL_POLICY_KEPT_NONE) == 0
			    ? LULL_POLICY_KEPT_NONE
			    : 0;
	/* idle, the ring may cut the sleep; traffic that the ring bounds polls */
	if (idle)
		s = min_u64(s, ring_ns);
	if (s >= pol->p.step_ns && s <= ring_ns && (idle || !pol->p.strict_budget)) {
		pol->mode = rate_mode(pol, s);
		return s;
	}
	/* the time first: the fit is only worth a try once in LATE_PROBE_NS */
	if (now_ns - pol->probe_ns < LATE_PROBE_NS || !wake_why)
		return 0;
	pol->probe_ns = now_ns;
	lull_cost_forget(&pol->cost);
	return pol->p.step_ns;
}

/*
 * After a decision to poll: where the ring at the peak rate leaves no sleep,
 * nothing can change that answer before the rate period ends. The peak and
 * the largest cluster only grow within it, the rate the idle and linger tests
 * read is the period's, the lateness moves only with a wait (lull_policy_slept
 * clears the hold) and the parameters with a load (lull_policy_set_params).
 * Only unfit()'s probe comes by time: the hold ends when one is due, unless
 * none can be (the ring, even at the peak alone, keeps the lateness out).
 * Until then decide_rate() answers after rate_update() alone: near the PMD's
 * capacity half its rounds are empty and each decides, and the full decision
 * took 2.3 % of an OVS PMD carrying 1.75 Mpps on memif (perf).
 */
static void
hold(struct lull_policy *pol, uint64_t now_ns, uint64_t late_ns)
{
	uint64_t end_ns = pol->period_start_ns + RATE_PERIOD_NS, probe_ns;
	double peak = peak_ppns(pol);

	if (ring_room(pol, peak, late_ns) >= pol->p.step_ns || !linger_off(pol))
		return;
	probe_ns = pol->probe_ns + LATE_PROBE_NS;
	if (probe_ns > now_ns)
		end_ns = min_u64(end_ns, probe_ns);
	else if (ring_room(pol, peak, pol->cost.late_p50_ns) > wait_cost_ns(pol))
		return;
	pol->poll_until_ns = end_ns;
}

/*
 * Spend the budget to save CPU: sleep as long as keeps the budget for 99 %
 * of the packets (lull_policy_cap_ns), the maximum and the ring allow (fit). Where no
 * sleep does (a machine whose wakes are slow: a VM's tail near the budget),
 * keep the highest share that one does - 95, 90, 75, 50 % - rather than poll:
 * the misses are counted and the kept quantile is shown (kept); back up the
 * ladder only with a margin (fit's climb). Below half, see unfit. Where the
 * queues interrupt, the model may prefer a wake per packet (lull_policy_mode).
 */
static uint64_t
decide_rate(struct lull_policy *pol, uint64_t now_ns, uint64_t n, bool busy, bool full,
	uint64_t *cap_ns)
{
	uint64_t late_ns, ring_ns = UINT64_MAX, ring_p50_ns = UINT64_MAX, want = 0, floor_ns;
	double spell_ppns, peak;
	unsigned int k;

	rate_update(pol, now_ns, n, busy, full);
	if (busy)
		return 0;
	if (now_ns < pol->poll_until_ns) {
		pol->held++;
		return 0;
	}
	/* no sleep fits the ring's tail rule at this rate: poll, without the fit
	 * (a PMD near 1 Mpps decides after every empty round, and the fit's
	 * quantile reads made those rounds slow enough to lose packets) */
	*cap_ns = lull_policy_tail_cap_ns(pol);
	if (*cap_ns <= pol->p.step_ns) {
		lull_policy_tail_polled(pol, now_ns);
		return 0;
	}
	pol->tail_poll_ns = 0;
	late_ns = lull_policy_late_ns(pol);
	spell_ppns = spell_rate(pol, now_ns, n);
	if (lull_policy_linger(pol, now_ns, n))
		return 0;
	/* the sleep a peak is judged over: what the budget leaves after the
	 * lateness, but not less than a quarter of the budget (a p99 at the budget,
	 * one late wake in a few samples, left a window of nothing, and 200 packets
	 * that came together a peak of 15 Mpps: the ring's bound then polled) */
	pol->peak_win_ns =
		min_u64(max_u64(pol->p.budget_ns > late_ns ? pol->p.budget_ns - late_ns : 0,
				pol->p.budget_ns / 4),
			pol->p.max_sleep_ns);
	/* the ring: at the peak rate (or the rate of a spell going on: a burst that
	 * may last), half of it fills in the sleep and its lateness */
	peak = peak_ppns(pol);
	if (peak > 0 || spell_ppns > 0) {
		double top = peak > spell_ppns ? peak : spell_ppns;

		ring_ns = ring_room(pol, top, late_ns);
		ring_p50_ns = ring_room(pol, top, pol->cost.late_p50_ns);
	}
	floor_ns = floor_of(pol);
	for (k = 0; k < LULL_COST_KEEP_N && want == 0; k++) {
		if (k > 0 && (pol->p.strict_budget || !lull_policy_measured(pol)))
			break;
		want = fit(pol, lull_policy_cap_ns(pol, k), ring_ns, k < pol->kept);
		/* a share whose sleep would spend over 1/WAKE_SHARE of the time waking:
		 * a lower share, if one lets the PMD sleep longer (not strict); back
		 * up only a tenth clear of that floor */
		if (want != 0 && !pol->p.strict_budget &&
			want < floor_ns + (k < pol->kept ? floor_ns / 10 : 0) &&
			k + 1 < LULL_COST_KEEP_N && lull_policy_cap_ns(pol, k + 1) > want)
			want = 0;
	}
	if (want != 0)
		pol->kept = k - 1;
	if (want == 0) {
		want = unfit(pol, now_ns, late_ns, ring_ns, ring_p50_ns);
		if (want == 0)
			hold(pol, now_ns, late_ns);
		return want;
	}
	pol->mode = rate_mode(pol, want);
	return want;
}

uint64_t
lull_policy_decide_rate(struct lull_policy *pol, uint64_t now_ns, uint64_t n, bool busy, bool full)
{
	uint64_t cap_ns = UINT64_MAX, s = decide_rate(pol, now_ns, n, busy, full, &cap_ns);

	/* whatever chose it (a fit, the budget, a probe): a wake as late as the
	 * worst recent one must not overflow the ring (decide_rate read its
	 * bound). A shorter sleep that keeps it, if one is worth its wait's CPU;
	 * else poll */
	if (s == 0 || s < cap_ns)
		return s;
	return cap_ns > lull_cost_wait_ns(&pol->cost, LULL_COST_TIMED) ? cap_ns - 1 : 0;
}
