/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Sleep policies: given what each rx burst returned and the time, how long a
 * PMD should wait before its next poll. Pure and deterministic (no DPDK, no
 * clock, no syscall): the datapath, the unit tests and a simulator run the
 * same code.
 *
 * Per iteration the PMD calls lull_policy_observe() after each rx burst,
 * lull_policy_decide() once at the end, and lull_policy_slept() after a wait.
 * Not thread-safe: one PMD owns one struct lull_policy.
 */
#ifndef LULL_POLICY_H
#define LULL_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cost.h"

#define LULL_MAX_SLEEP_NS     10000000u        /**< 10 ms: longest sleep any policy may ask for */
#define LULL_POLICY_MAX_WIN   1024             /**< longest history of the window policy */
#define LULL_POLICY_KEPT_NONE LULL_COST_KEEP_N /**< rate keeps no quantile of its budget */
/** rate: the longest the tail rule keeps a wake that lost packets while it
 * polls (16 x LULL_COST_TAIL_AGE_NS: 128 s) */
#define LULL_POLICY_TAIL_AGE_MAX_NS (16 * LULL_COST_TAIL_AGE_NS)

enum lull_policy_kind {
	LULL_POLICY_OFF,    /**< busy polling */
	LULL_POLICY_OVS,    /**< OVS 3.1+: +step per light iteration up to max, reset when busy */
	LULL_POLICY_WINDOW, /**< like ovs, but judged on the mean of the last W iterations */
	LULL_POLICY_RATE,   /**< from the arrival rate, within a latency budget and the ring */
	LULL_POLICY_N_KINDS,
};

struct lull_policy_params {
	enum lull_policy_kind kind;
	uint64_t max_sleep_ns;   /**< cap of every sleep, <= LULL_MAX_SLEEP_NS */
	uint64_t step_ns;        /**< ovs/window ramp; rate: first sleep of an idle spell */
	uint32_t busy_threshold; /**< packets in one rx burst that mean "busy" */
	uint32_t window;         /**< window: iterations of history, 1..LULL_POLICY_MAX_WIN */
	uint64_t budget_ns;      /**< rate: added latency the operator accepts */
	uint64_t linger_ns;      /**< rate: keep polling this long after the last packet */
	uint32_t batch;          /**< rate: packets worth waiting for (a useful batch) */
	uint32_t min_ring;       /**< rate: smallest polled rx ring, in descriptors */
	uint32_t burst;          /**< rx burst size: a burst this full may leave a backlog */
	/** Burst tolerance: a line-rate burst of this many packets that arrives as a sleep
	 * starts must fit in the smallest ring. Above min_ring it caps every sleep at the
	 * ring's fill time minus the measured lateness; 0 (or <= min_ring) caps nothing. */
	uint32_t burst_tol;
	double line_ppns; /**< worst-case arrival rate (line rate, 64-byte frames), packets/ns */
	/** Every polled queue can interrupt and interrupt waits are allowed: rate picks
	 * them by its cost model; any kind hands over after intr_after_ns of idle. */
	bool intr;
	uint64_t intr_after_ns; /**< upper bound of the idle before an interrupt wait */
	/** rate: keep the budget at p99 or poll (the operator's choice); else where the
	 * machine's wakes leave no sleep within it, rate keeps a lower quantile, and
	 * below even the median sleeps the budget itself: it never busy-polls light traffic */
	bool strict_budget;
};

/** rate: the longest sleep that keeps the budget at one kept quantile (policy.c: cap_at). */
struct lull_policy_cap {
	uint64_t cap_ns;
	uint64_t up_ns;     /**< hysteresis: the least of the reads above cap_ns */
	uint32_t ups;       /**< reads in a row above cap_ns */
	uint32_t reads;     /**< the cost model's late_reads it was computed for */
	uint64_t budget_ns; /**< and the budget */
	uint64_t max_ns;    /**< and the maximum sleep */
};

/** How the PMD waits, as the last lull_policy_decide() chose. */
enum lull_policy_mode {
	LULL_MODE_POLL,  /**< no wait: poll again */
	LULL_MODE_SLEEP, /**< a timed wait of the length decide returned */
	LULL_MODE_INTR,  /**< wait for an rx interrupt (decide's length: if none can be armed) */
};

struct lull_policy {
	struct lull_policy_params p;
	uint64_t sleep_ns;  /**< ovs, window: current ramp */
	uint64_t iter_pkts; /**< packets this iteration (a host attached to decides after
			     *   saturated seconds: more than 32 bits) */
	bool iter_busy;     /**< a burst reached the busy threshold this iteration */
	bool iter_full;     /**< a burst was full this iteration: the ring may hold more */
	/* window */
	uint32_t win_pkts[LULL_POLICY_MAX_WIN];
	uint32_t win_pos;
	uint64_t win_sum;
	/* rate */
	uint64_t last_pkt_ns; /**< when packets were last seen */
	uint64_t last_decide_ns;
	uint64_t period_start_ns;
	uint64_t period_pkts;
	double rate_ppns;           /**< estimated arrival rate, packets per ns */
	double sample_ppns;         /**< rate: the last period's rate, unsmoothed */
	double peak_ppns;           /**< highest recent rate (of a busy burst), decays slowly */
	struct lull_cost cost;      /**< measured wait costs and lateness (lib/cost) */
	enum lull_policy_mode mode; /**< of the last decision */
	bool intr_mode;             /**< rate: the model prefers interrupt waits (hysteresis) */
	/** rate: the lateness quantile its last sleep kept (lull_cost_keep_pct(kept)): 0 = p99;
	 * more when no sleep keeps the budget at p99 on this machine; LULL_POLICY_KEPT_NONE
	 * when none does and it sleeps the budget */
	unsigned int kept;
	struct lull_policy_cap cap[LULL_COST_KEEP_N]; /**< rate: per kept quantile */
	uint64_t peak_win_ns;    /**< rate: the sleep the ring bound is judged over */
	uint64_t probe_ns;       /**< rate: last lateness probe, when it cannot keep its budget */
	uint64_t spell_start_ns; /**< when the rings were last known empty */
	uint64_t spell_pkts;     /**< packets since then */
	bool drained;            /**< the last iteration emptied every ring */
	uint64_t woke_late_ns;   /**< rate: the last wake's lateness, until its spell ends */
	bool woke;               /**< rate: a timed wake began the spell going on */
	bool woke_on_time;       /**< rate: and no later than the p99 */
	/** rate: that wake was past the p99, and its lateness (woke_late_ns) is
	 * held until its spell ends (lull_policy_late_seen); the sleep it was late
	 * for, and the arrival rate when it came */
	bool late_held;
	uint64_t late_held_sleep_ns;
	double late_held_ppns;
	/** rate: wakes past the p99 whose lateness the traffic did not see (it
	 * stood still with the PMD), believed as their backlog showed (a count) */
	uint64_t late_unseen;
	uint32_t linger_score; /**< share of lingers a packet ended, in 1/256 (EWMA) */
	uint32_t linger_skips; /**< packets since the last linger, for probing */
	bool lingering;        /**< polling after a packet, waiting to see if another follows */
	/* rate: clusters, packets whose gaps are shorter than cluster_gap_ns() */
	uint64_t clu_pkts;     /**< packets of the cluster going on */
	uint64_t clu_start_ns; /**< when its first packets were seen */
	uint64_t clu_last_ns;  /**< when its packets were last seen */
	bool stalled;          /**< the last wait was a stall: past p99, twice as long as asked */
	double clu_max_pkts;   /**< the largest recent cluster, decays as the peak */
	/** rate: since when the tail rule keeps the PMD polling, 0 while it does not */
	uint64_t tail_poll_ns;
	/** rate: how long that polling keeps the tail before it ages
	 * (LULL_COST_TAIL_AGE_NS; longer where wakes lose packets again) */
	uint64_t tail_age_ns;
	uint64_t harm_ns; /**< rate: when a wake last lost packets (0: never) */
	/** rate: the peak then; the least peak the ring is judged at while the
	 * harm's hold lasts (lull_policy_harm_peak) */
	double harm_ppns;
	/** rate: until then a decision can only be to poll (decide_rate's hold), 0 none */
	uint64_t poll_until_ns;
	uint64_t held; /**< rate: decisions the hold answered (a count, for tests) */
	bool started;
};

/** Default parameters for a kind, for a PMD whose rx burst is burst and ring min_ring. */
void lull_policy_defaults(struct lull_policy_params *p, enum lull_policy_kind kind, uint32_t burst,
	uint32_t min_ring);

/** @return 0, or -EINVAL when a parameter is out of range. */
int lull_policy_check(const struct lull_policy_params *p);

void lull_policy_init(struct lull_policy *pol, const struct lull_policy_params *p);

/** After each rx burst: n packets. */
static inline void
lull_policy_observe(struct lull_policy *pol, uint32_t n)
{
	pol->iter_pkts += n;
	if (n >= pol->p.busy_threshold)
		pol->iter_busy = true;
	if (n >= pol->p.burst)
		pol->iter_full = true;
}

/** Whether a burst of this iteration reached the busy threshold (before decide). */
static inline bool
lull_policy_busy(const struct lull_policy *pol)
{
	return pol->iter_busy;
}

/** At the end of an iteration: nanoseconds to wait before the next poll (0 = poll now). */
uint64_t lull_policy_decide(struct lull_policy *pol, uint64_t now_ns);

/** How the PMD should wait after the last decision. */
static inline enum lull_policy_mode
lull_policy_mode(const struct lull_policy *pol)
{
	return pol->mode;
}

/**
 * rate with interrupts: the arrival rate (packets per second) below which the
 * model prefers an interrupt per packet to timed sleeps of sleep_ns; it goes
 * back to timed sleeps above twice that. 0 when it never does.
 */
double lull_policy_intr_below_pps(const struct lull_policy *pol, uint64_t sleep_ns);

/** Whether a timed wait was measured: the cost model's lateness is an estimate. */
static inline bool
lull_policy_measured(const struct lull_policy *pol)
{
	return pol->cost.late_n > 0;
}

/** The percentile of the lateness rate's sleeps keep the budget at: 99, 95, ..., 0 for none. */
static inline unsigned int
lull_policy_kept_pct(const struct lull_policy *pol)
{
	return lull_cost_keep_pct(pol->kept);
}

/** The lateness at that percentile (for none: the median, which it misses). */
static inline uint64_t
lull_policy_kept_late_ns(const struct lull_policy *pol)
{
	return pol->cost
		.late_keep_ns[pol->kept < LULL_POLICY_KEPT_NONE ? pol->kept : LULL_COST_KEEP_N - 1];
}

/**
 * rate: the longest sleep that keeps the budget for lull_cost_keep_pct(k) % of
 * the packets, given the lateness measured (a packet waits the rest of the
 * sleep and the wake's lateness; 0 when none does).
 */
uint64_t lull_policy_cap_ns(struct lull_policy *pol, unsigned int k);

/** rate: the peak a wake on time that lost packets saw (its sleep let a ring
 * overflow), while the harm's hold lasts at now_ns; else 0
 * (lib/policy_tail.c, lull_policy_tail_harm). */
static inline double
lull_policy_harm_peak(const struct lull_policy *pol, uint64_t now_ns)
{
	return pol->harm_ns != 0 && now_ns - pol->harm_ns < pol->tail_age_ns ? pol->harm_ppns : 0;
}

/**
 * rate's tail rule: the longest sleep after which a wake as late as the worst
 * recent one (seen twice) leaves the ring room for what comes at the arrival
 * rate meanwhile; UINT64_MAX when it bounds nothing (no traffic, or polling
 * itself stalls as long as the ring lasts), 0 or below a step: poll.
 */
uint64_t lull_policy_tail_cap_ns(const struct lull_policy *pol);

/** What rate's budget is kept at, as the PMD published it (lull's log and lullctl). */
struct lull_kept_view {
	uint64_t budget_ns;
	unsigned int kept_pct; /**< lull_policy_kept_pct(): 99 ... 50, 0 for none */
	uint64_t late_p50_ns, late_p99_ns;
	uint64_t kept_late_ns; /**< lull_policy_kept_late_ns() */
	uint64_t wait_cpu_ns;  /**< CPU of a timed wait, 0 when not measured */
	bool strict;           /**< --strict-budget on: none kept means busy polling */
};

/**
 * One line that says what this machine lets the budget keep ("budget 250 us:
 * p99 out of reach here (needs 320 us); keeping p95 ..."), into buf.
 * @return the length snprintf() gives.
 */
int lull_policy_kept_text(char *buf, size_t len, const struct lull_kept_view *v);

/** New parameters for a policy that keeps what it measured (a load that is
 * not fresh: lullctl set). */
void lull_policy_set_params(struct lull_policy *pol, const struct lull_policy_params *p);

/** The lateness the rate policy plans with: the recent 99th percentile (0 before a wait). */
static inline uint64_t
lull_policy_late_ns(const struct lull_policy *pol)
{
	return lull_policy_measured(pol) ? pol->cost.late_p99_ns : 0;
}

/**
 * A timed wait longer than this misses the latency budget: rate's budget; ovs
 * and window have none but their maximum.
 */
static inline uint64_t
lull_policy_budget_ns(const struct lull_policy_params *p)
{
	return p->kind == LULL_POLICY_RATE ? p->budget_ns : p->max_sleep_ns;
}

/** A sampled wait took cpu_ns of the thread's CPU (intr: an rx interrupt wait). */
static inline void
lull_policy_wait_cpu(struct lull_policy *pol, bool intr, uint64_t cpu_ns)
{
	lull_cost_wait_cpu(&pol->cost, intr ? LULL_COST_INTR : LULL_COST_TIMED, cpu_ns);
}

/** How long no packet came, as of the last decision at now_ns (every kind). */
static inline uint64_t
lull_policy_idle_ns(const struct lull_policy *pol, uint64_t now_ns)
{
	return pol->started && now_ns > pol->last_pkt_ns ? now_ns - pol->last_pkt_ns : 0;
}

/**
 * How long the smallest ring takes to fill at line rate, ns (UINT64_MAX when the
 * line rate is unknown).
 */
uint64_t lull_policy_ring_fill_ns(const struct lull_policy_params *p);

/**
 * The largest line-rate burst that fits when it arrives as a wait of wait_ns
 * (lateness included) starts: the smallest ring, if the ring fills before the
 * PMD wakes; else 0, meaning any burst (the PMD wakes and drains first).
 */
uint32_t lull_policy_burst_tolerance(const struct lull_policy_params *p, uint64_t wait_ns);

/**
 * The longest sleep that keeps the burst tolerance asked for (p->burst_tol) with
 * lateness_ns of wake lateness: UINT64_MAX when nothing needs capping.
 */
uint64_t lull_policy_burst_cap_ns(const struct lull_policy_params *p, uint64_t lateness_ns);

/**
 * After a timed wait: what was asked and what it took. queued_ns: how long the
 * thread waited in its CPU's run queue meanwhile (the run_delay of
 * /proc/thread-self/schedstat), LULL_POLICY_QUEUED_NA when not measured. A
 * thread that polled instead would have waited as long for the CPU - another
 * thread had it - so that part is not the sleep's: the budget is charged with
 * the rest.
 */
#define LULL_POLICY_QUEUED_NA UINT64_MAX
void lull_policy_slept(
	struct lull_policy *pol, uint64_t requested_ns, uint64_t actual_ns, uint64_t queued_ns);

/**
 * Likewise, for a wait whose run-queue delay was read only after it, because
 * it was late (lull_cost_queued_since): queued_ns is not charged either, but
 * as only late waits are read so, it stays out of the smoothed run-queue
 * delay of a wait.
 */
void lull_policy_slept_late(
	struct lull_policy *pol, uint64_t requested_ns, uint64_t actual_ns, uint64_t queued_ns);

/** "off", "ovs", "window", "rate"; NULL for an unknown kind. */
const char *lull_policy_name(enum lull_policy_kind kind);

/** @return the kind, or -EINVAL for an unknown name. */
int lull_policy_parse(const char *name);

#endif /* LULL_POLICY_H */
