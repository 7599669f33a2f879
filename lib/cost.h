/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * A PMD's cost model, measured while it runs: how late its timed waits wake
 * (a decaying distribution, so that the policy can keep its budget at the
 * 99th percentile and not only on the mean), what one wait costs in CPU, by
 * kind of wait (timed, rx interrupt). (What a packet costs is the PMD's busy
 * cycles per packet, a counter the stats derive.) Pure C, no
 * DPDK, no clock: the PMD (and lull-sim) feed it numbers.
 *
 * The lateness distribution is a log histogram, four buckets per power of two
 * from 256 ns to 16 ms (a bucket is known to within 19 %; a quantile is read
 * within its bucket as if the bucket's samples were spread evenly, so that it
 * moves smoothly with the machine, not by a quarter of an octave at a time).
 * Counts halve every LULL_COST_LATE_WINDOW samples: the estimate follows a
 * machine whose load changes, and one preemption of milliseconds weighs as
 * one sample - a tail, not the usual lateness.
 */
#ifndef LULL_COST_H
#define LULL_COST_H

#include <stdbool.h>
#include <stdint.h>

#define LULL_COST_LATE_BUCKETS 64
#define LULL_COST_LATE_WINDOW  2048u /**< samples between two halvings */
#define LULL_COST_DOWN_READS   4u    /**< reads below a quantile before it goes down */
/** Samples between two halvings of the worst lateness (lull_cost_late_tail_ns). */
#define LULL_COST_TAIL_WINDOW (16u * LULL_COST_LATE_WINDOW)
/** The same window by time, for a PMD the tail rule keeps polling (it takes no
 * sample): ~LULL_COST_TAIL_WINDOW waits of an idle PMD on a VM (4,000 a second). */
#define LULL_COST_TAIL_AGE_NS 8000000000ull

/** The quantiles of the lateness the rate policy may keep, best first: p99,
 * and when no sleep keeps that one, p95, p90, p75, p50 (lull_cost_keep_pct). */
#define LULL_COST_KEEP_N 5

enum lull_cost_wait {
	LULL_COST_TIMED, /**< a timed wait of the PMD's backend */
	LULL_COST_INTR,  /**< a wait for an rx interrupt */
	LULL_COST_N_WAITS,
};

struct lull_cost {
	uint32_t late[LULL_COST_LATE_BUCKETS]; /**< timed waits by lateness bucket */
	uint32_t late_total;
	/** 1 + the highest bucket of late holding two samples or more; 0: none
	 * (kept as samples come and halve: read at every decision) */
	uint32_t late_top2;
	uint32_t late_since; /**< samples since the quantiles were read */
	uint64_t late_p50_ns;
	uint64_t late_p99_ns;
	uint64_t late_keep_ns[LULL_COST_KEEP_N]; /**< at lull_cost_keep_pct(0..), p99 first */
	/** Hysteresis of each quantile: a read above the value is taken at once (the
	 * safe side), reads below only once LULL_COST_DOWN_READS in a row were (the
	 * highest of them), so that a quantile on a bucket's edge does not flip the
	 * sleep from one read to the next. */
	uint64_t late_down_ns[LULL_COST_KEEP_N];
	uint8_t late_downs[LULL_COST_KEEP_N];
	uint64_t late_mean_ns; /**< smoothed mean (1/8 EWMA) of the lateness charged */
	/** The worst lateness seen, halved every LULL_COST_TAIL_WINDOW samples: a
	 * tail of 1 wake in 2,000 stays known (the histogram's halvings drop a
	 * bucket of one); a PMD that polls because of it takes no sample, and
	 * its window ends by time instead (lull_cost_tail_age). */
	uint64_t late_tail_ns;
	/** The second worst, halved with it: the tail rule believes a lateness
	 * seen twice (one far from all others is a host's hiccup until another
	 * confirms it: issue 27's "checked, not believed"). */
	uint64_t late_tail2_ns;
	uint32_t tail_since;
	/** The longest round of polling seen (no wait in it: the host's own work,
	 * a preemption, a stall of the host), halved with late_tail_ns: where
	 * polling stalls as long as the worst wake is late, polling would lose
	 * what sleeping loses, and the tail rule does not make the PMD poll. */
	uint64_t stall_tail_ns;
	/** The second longest, halved with it: the tail rule believes a polling
	 * stall seen twice, as it believes a late wake (a sleeping vCPU is stalled
	 * far more often than a running one: on issue 30's Intel guest, 60 s of
	 * 100 kpps on af_packet, busy OVS lost packets in one round of three,
	 * and OVS with lull, whose rule had yielded to one polling stall, in all). */
	uint64_t stall_tail2_ns;
	/** The part of a late wake spent in the run queue (another thread had the
	 * CPU: a polling thread would have waited too), smoothed over the waits
	 * where it was measured; not in the histogram. */
	uint64_t queued_mean_ns;
	uint64_t queued_n;     /**< timed waits whose run-queue delay was measured */
	uint64_t late_n;       /**< timed waits measured */
	uint32_t late_reads;   /**< how many times the quantiles were read (a generation) */
	uint64_t wait_mean_ns; /**< timed waits as they took, smoothed (a port that wakes the
				    PMD on a packet - net_tap's signal - cuts them short) */
	/** CPU per wait, smoothed over sampled waits; 0 until the first sample. */
	uint64_t wait_cpu_ns[LULL_COST_N_WAITS];
	uint64_t cpu_samples[LULL_COST_N_WAITS];
};

void lull_cost_init(struct lull_cost *c);

/** A timed wait that woke late_ns after its deadline (what sleeping added). */
void lull_cost_late(struct lull_cost *c, uint64_t late_ns);

/** A timed wait spent queued_ns in the run queue (measured). */
static inline void
lull_cost_queued(struct lull_cost *c, uint64_t queued_ns)
{
	c->queued_mean_ns = c->queued_n ? (7 * c->queued_mean_ns + queued_ns) / 8 : queued_ns;
	c->queued_n++;
}

/**
 * The run-queue delay of a wait read only after it: the thread's delay in all
 * (schedstat) went from base_ns, read waits waits ago (this one included), to
 * now_ns, and each wait before this one is taken to have spent the smoothed
 * mean. What is left is this wait's (or a stall of the rounds between: a
 * preemption of a polling thread too). @return it, 0 if none is left.
 */
static inline uint64_t
lull_cost_queued_since(const struct lull_cost *c, uint64_t base_ns, uint64_t now_ns, uint32_t waits)
{
	uint64_t others_ns = c->queued_mean_ns * (waits > 0 ? waits - 1 : 0);

	if (now_ns < base_ns || now_ns - base_ns <= others_ns)
		return 0;
	return now_ns - base_ns - others_ns;
}

/** A timed wait took actual_ns (early or late). */
static inline void
lull_cost_waited(struct lull_cost *c, uint64_t actual_ns)
{
	c->wait_mean_ns = c->wait_mean_ns ? (7 * c->wait_mean_ns + actual_ns) / 8 : actual_ns;
}

/** Halve the lateness counts: the past weighs less (a policy stuck by a tail calls it). */
void lull_cost_forget(struct lull_cost *c);

/** A sampled wait of kind w that took cpu_ns of the thread's CPU time. */
void lull_cost_wait_cpu(struct lull_cost *c, enum lull_cost_wait w, uint64_t cpu_ns);

/** The lateness at quantile q (0..1) of the recent timed waits, from the histogram. */
uint64_t lull_cost_late_quantile(const struct lull_cost *c, double q);

/** A wake late_ns late did harm (its packets filled a ring): the tail rule
 * believes it without another to confirm it (lull_cost_late_tail_ns). */
static inline void
lull_cost_tail_confirm(struct lull_cost *c, uint64_t late_ns)
{
	if (late_ns > c->late_tail2_ns)
		c->late_tail2_ns = late_ns;
}

/** The tail's window ends without its samples: the worst lateness, the longest
 * polling stall and the histogram halve (lull_cost_forget), as after
 * LULL_COST_TAIL_WINDOW waits. For a PMD the tail rule keeps polling, every
 * LULL_COST_TAIL_AGE_NS (longer while wakes lose packets again: the policy's
 * tail_age_ns): else one wake that lost packets would keep it polling as long
 * as the traffic lasts, wherever polling itself never stalls. */
void lull_cost_tail_age(struct lull_cost *c);

/** A round of polling (no wait in it) took round_ns (lull_cost::stall_tail_ns,
 * stall_tail2_ns). */
void lull_cost_stall(struct lull_cost *c, uint64_t round_ns);

/** The worst recent lateness seen twice (late_tail2_ns, or the top edge of
 * the highest bucket holding two samples if higher): a tail the p99 does not
 * see, once another wake confirmed it; 0 without. */
uint64_t lull_cost_late_tail_ns(const struct lull_cost *c);

/**
 * E[max(0, L - x_ns)] over the recent timed waits' lateness L: how much later
 * than x_ns a wake comes, on average, counting those that do not as 0 (each
 * bucket's samples spread evenly over it). With x_ns = 0: the mean lateness.
 */
double lull_cost_late_excess_ns(const struct lull_cost *c, uint64_t x_ns);

/** The histogram's non-empty buckets, read once for many reads of the excess
 * at different x (lull_cost_excess_ns): the same sums, term for term, without
 * a pass over the empty buckets each time. */
struct lull_cost_excess {
	unsigned int n;
	double total;
	struct {
		double count, lo_ns, hi_ns;
	} b[LULL_COST_LATE_BUCKETS];
};

/** Read c's lateness histogram into e. */
void lull_cost_excess_load(const struct lull_cost *c, struct lull_cost_excess *e);

/** lull_cost_late_excess_ns() of the histogram e was loaded from: the same value. */
double lull_cost_excess_ns(const struct lull_cost_excess *e, uint64_t x_ns);

/** The percentile late_keep_ns[k] holds: 99, 95, 90, 75, 50. */
unsigned int lull_cost_keep_pct(unsigned int k);

/** Whether a timed wait's CPU has been measured. */
static inline bool
lull_cost_known(const struct lull_cost *c, enum lull_cost_wait w)
{
	return c->cpu_samples[w] > 0;
}

/**
 * CPU of one wait of kind w: measured, else the other kind's, else the median
 * lateness (a wake that makes the PMD wait also keeps a core busy about as
 * long on the machines measured), else 0.
 */
uint64_t lull_cost_wait_ns(const struct lull_cost *c, enum lull_cost_wait w);

#endif /* LULL_COST_H */
