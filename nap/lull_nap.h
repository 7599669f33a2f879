/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * lull's sleep engine: everything a DPDK polling thread needs to spend CPU in
 * proportion to its traffic, and nothing about forwarding.
 *
 * A host (lull's PMD loop; later a testpmd or OVS-DPDK thread) keeps one
 * struct lull_nap per polling thread and calls, from that thread:
 *
 *   lull_nap_thread_start()            once, before its first poll
 *   lull_nap_load()                    with the queues it polls and the settings
 *                                      (again whenever they change)
 *   loop:
 *     for each rx burst of n > 0:      lull_nap_rx(nap, n)
 *     after polling every queue:       lull_nap_account(nap, n_rx, now_tsc)
 *                                      lull_nap_idle(nap, n_rx, now_tsc)
 *     every ~1000 iterations:          lull_nap_housekeeping(nap)
 *     with no queue to poll:           lull_nap_park(nap)
 *   lull_nap_thread_stop()             once, after its last poll
 *
 * lull_nap_idle() asks the policy (lib/policy: pure C, the code lull-sim and
 * the unit tests run) whether to wait, and waits as it says: a timed sleep
 * with the backend the CPU offers (nanosleep, tpause, monitor, pause) or an
 * rx-interrupt wait (nap/wait.h); it measures what the wait cost (lateness,
 * CPU, run-queue delay) for the policy's cost model and counts it. Before any
 * wait it calls the host's flush hook, so that no packet waits in a tx buffer
 * while the thread sleeps; an interrupt wait calls the host's poll hook once
 * after arming. With the policy off, lull_nap_idle() is one branch.
 *
 * Threads: the counters (stats, model, burst_pkts, sleep_ns) are written by
 * the polling thread alone and read by any thread (nap/counters.h,
 * lib/hist.h). Everything else belongs to the polling thread.
 *
 * Link with `pkg-config --cflags --libs lullnap`.
 */
#ifndef LULL_NAP_H
#define LULL_NAP_H

#include <stdalign.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "contract.h"
#include "counters.h"
#include "hist.h"
#include "policy.h"
#include "wait.h"

/** The engine's cache line size (x86 and most ARM: 64 bytes). */
#define LULL_NAP_CACHE_LINE 64

/** Iterations between housekeeping calls the engine assumes (lull's loop). */
#define LULL_NAP_HOUSEKEEPING_ITERS 1024

/* The counters and the model's gauges: one row each in lib/contract.h, which
 * also names them in telemetry and in lullctl's metrics. */
#define LULL_PMD_ENUM_(id, key, metric, unit, help) LULL_PMD_##id,
enum lull_pmd_stat {
	LULL_PMD_STATS(LULL_PMD_ENUM_) LULL_PMD_N_STATS,
};
#undef LULL_PMD_ENUM_

/** The cost model as the thread last saw it (lib/cost, lib/policy): gauges, not sums. */
#define LULL_MODEL_ENUM_(id, key, metric, unit, help) LULL_MODEL_##id,
enum lull_pmd_model {
	LULL_PMD_MODEL(LULL_MODEL_ENUM_) LULL_PMD_N_MODEL,
};
#undef LULL_MODEL_ENUM_

/** What the host does for the engine, on the polling thread. */
struct lull_nap_host {
	/** Poll every queue once and process what came; @return packets received.
	 * Called by an interrupt wait after arming (what came before is seen). */
	uint32_t (*poll)(void *ctx);
	/** poll only looks whether packets wait, and takes none (an engine attached
	 * to a host's queues): the waiter then makes them visible to the host's
	 * next poll only where poll saw some or an interrupt came, not after every
	 * arming (net_tap: a kick costs the host a read per queue at its next
	 * poll). */
	bool peeks;
	/** Send what the host's tx buffers hold: called before every wait. */
	void (*flush)(void *ctx);
	void *ctx;
};

/** --wake-priority: a PMD that polls this long without a wait gets its own
 * scheduling policy back (a time-sharing thread on its core waits at most
 * about this long for it after each of its waits). */
#define LULL_NAP_PRIO_HOLD_MS 1

/** The settings of a (re)load: built on any thread, read by lull_nap_load(). */
struct lull_nap_conf {
	struct lull_policy_params policy; /**< lib/policy */
	/** Its backend, from lull_waiter_init() (and lull_waiter_inject()). */
	const struct lull_waiter *waiter;
	uint64_t intr_after_ns;  /**< idle this long: wait for an rx interrupt; 0 = never */
	uint32_t timer_slack_ns; /**< the thread's timer slack with nanosleep */
	uint32_t yield_hz;       /**< housekeeping yields per second (0 = none) */
	uint32_t yield_us;       /**< and their length */
	uint32_t wake_priority;  /**< --wake-priority: SCHED_FIFO from a wait on; 0 = none */
	int ctl_fd;              /**< an eventfd that ends interrupt waits and parks, or -1 */
	/** Start the policy afresh (another policy, other queues); else it keeps
	 * what it learnt of the arrivals. Always at the first load. */
	bool fresh;
};

struct lull_nap {
	/* Hot state: the polling thread's. */
	alignas(LULL_NAP_CACHE_LINE) bool on; /**< the policy is not off */
	bool woken;   /**< the last wait ended by an rx interrupt: the next decision judges it */
	bool prio_up; /**< --wake-priority: the thread runs at SCHED_FIFO since a wait */
	uint32_t cpu_sample; /**< waits until the next whose CPU time is sampled */
	int schedstat_fd;    /**< /proc/thread-self/schedstat, -1 if none */
	int ctl_fd;          /**< see struct lull_nap_conf */
	double ns_per_tsc;
	uint64_t prev_tsc;       /**< when the last iteration (or wait) ended */
	uint64_t stall_tsc;      /**< the second longest round the model knows (stall_tail2_ns) */
	uint64_t stall_cap_tsc;  /**< longer rounds (a start, a park) are not stalls */
	uint64_t cpu_sample_tsc; /**< no wait's CPU time is sampled before this */
	uint64_t cpu_sample_min_tsc; /**< between two samples, at least */
	uint64_t rq_base_ns;         /**< the run-queue delay last read, or LULL_POLICY_QUEUED_NA */
	uint32_t rq_waits;           /**< waits since */
	uint64_t max_sleep_ns;       /**< the policy's longest timed wait */
	uint64_t budget_ns;          /**< a timed wait longer than this is a budget miss */
	uint64_t planned_ns;         /**< the last timed wait asked for */
	uint64_t intr_after_ns;      /**< 0 = never an interrupt wait */
	uint64_t yield_period_tsc;   /**< 0 = no yield: one compare per housekeeping call */
	uint64_t yield_ns;
	uint64_t next_yield_tsc;
	uint64_t last_wait_tsc; /**< when the last wait ended (--wake-priority's hold) */
	uint64_t prio_hold_tsc; /**< polling this long without a wait ends the FIFO stretch */
	int wake_prio;          /**< 0 = none, or refused */
	int prio_orig_policy;   /**< the thread's own policy, given back at each drop */
	bool prio_refused;      /**< the kernel said no (no CAP_SYS_NICE, no RT budget) */
	struct lull_nap_host host;
	struct lull_policy policy;
	struct lull_waiter waiter; /**< the conf's, with the queues attached */
	/** The thread's grace-period slot (lib/quiesce.h): its own qs_own unless the
	 * host gave it one that a driver's teardown waits on (lull_nap_set_quiesce) */
	struct lull_quiesce_slot *qs;
	struct lull_quiesce_slot qs_own;

	/* Counters: written by the polling thread, read by any. Own cache line. */
	alignas(LULL_NAP_CACHE_LINE) lull_counter_t stats[LULL_PMD_N_STATS];
	/* Histograms and gauges: likewise, on their own lines. */
	alignas(LULL_NAP_CACHE_LINE) struct lull_hist burst_pkts; /**< per non-full rx burst */
	struct lull_hist sleep_ns;              /**< actual duration of each wait */
	lull_counter_t model[LULL_PMD_N_MODEL]; /**< at each housekeeping call */
};

/** Zero nap and set its host hooks (any thread, after rte_eal_init(), before the
 * polling thread runs). */
void lull_nap_init(struct lull_nap *nap, const struct lull_nap_host *host);

/**
 * conf with lull's defaults (the rate policy, its 250 us latency budget, the
 * best wake backend this CPU has, in *waiter; no rx interrupts, no yield, no
 * control eventfd) for a thread whose rx bursts hold up to burst packets and
 * whose smallest rx ring has min_ring descriptors. A host changes what it
 * needs before lull_nap_load().
 *
 * @return 0, or a negative errno with a message in err.
 */
int lull_nap_conf_defaults(struct lull_nap_conf *conf, struct lull_waiter *waiter, uint32_t burst,
	uint32_t min_ring, char *err, size_t errlen);

/**
 * Give the thread a grace-period slot that lull_quiesce_wait() watches (any
 * thread, before the polling thread runs): its waits, park and yields then
 * mark it outside any driver call, and the host calls lull_quiesce_pass()
 * once an iteration. NULL: its own slot, which nobody watches.
 */
void lull_nap_set_quiesce(struct lull_nap *nap, struct lull_quiesce_slot *qs);

/**
 * On the polling thread, before its first poll: block asynchronous signals
 * (lull_waiter_thread_init()) and open what the cost model reads.
 */
void lull_nap_thread_start(struct lull_nap *nap);

/** On the polling thread, after its last poll: release what start and load took. */
void lull_nap_thread_stop(struct lull_nap *nap);

/**
 * On the polling thread: take the queues it polls and conf's settings. The
 * host flushed its tx buffers before. Interrupt waits are armed when
 * conf->intr_after_ns != 0 and every queue can interrupt.
 *
 * @return 0, or the negative errno of the first queue that cannot interrupt
 *   (*bad is its index; interrupt waits are then off, timed waits work).
 */
int lull_nap_load(struct lull_nap *nap, const struct lull_nap_conf *conf,
	const struct lull_wait_queue *q, unsigned int n, unsigned int *bad);

/** Whether this load's interrupt waits are possible (every queue can interrupt). */
static inline bool
lull_nap_intr_ok(const struct lull_nap *nap)
{
	return nap->waiter.intr_ok;
}

/** bursts full rx bursts of burst packets each, at once (a host that counts
 * them before telling). Inline, no syscall. */
static inline void
lull_nap_rx_full(struct lull_nap *nap, uint32_t bursts, uint16_t burst)
{
	lull_counter_add(&nap->stats[LULL_PMD_FULL_BURSTS], bursts);
	if (nap->on)
		lull_policy_observe(&nap->policy, bursts * burst);
}

/** A non-empty rx burst of n packets (burst: the most one can hold). Inline, no syscall. */
static inline void
lull_nap_rx(struct lull_nap *nap, uint16_t n, uint16_t burst)
{
	if (__builtin_expect(n == burst, 1)) {
		lull_nap_rx_full(nap, 1, burst);
		return;
	}
	lull_hist_add(&nap->burst_pkts, n);
	if (nap->on)
		lull_policy_observe(&nap->policy, n);
}

/**
 * --wake-priority: give the thread its own scheduling policy back now if a
 * wait raised it (lull_nap_account() does after LULL_NAP_PRIO_HOLD_MS of
 * polling without one; a host that stops running the engine on a thread
 * calls it: a FIFO thread that polls without sleeping starves its core).
 * The polling thread only.
 */
void lull_nap_prio_drop(struct lull_nap *nap);

/** Report a polling round past the second longest the cost model keeps (its
 * stall_tail2_ns, which it halves with its lateness tail): follow it. */
static inline void
lull_nap_stall_follow(struct lull_nap *nap)
{
	nap->stall_tsc = (uint64_t)((double)nap->policy.cost.stall_tail2_ns / nap->ns_per_tsc);
}

/** The iteration that ended at now_tsc (its polls brought n_rx packets): busy or idle. */
static inline void
lull_nap_account(struct lull_nap *nap, uint32_t n_rx, uint64_t now_tsc)
{
	uint64_t cycles_tsc = now_tsc - nap->prev_tsc;

	nap->prev_tsc = now_tsc;
	/* a round of polling as long as a late wake: polling would lose there too
	 * (the model keeps the two longest; a round past the second is news) */
	if (__builtin_expect(cycles_tsc > nap->stall_tsc, 0) && cycles_tsc < nap->stall_cap_tsc) {
		lull_cost_stall(
			&nap->policy.cost, (uint64_t)((double)cycles_tsc * nap->ns_per_tsc));
		lull_nap_stall_follow(nap);
	}
	lull_counter_add(&nap->stats[LULL_PMD_ITERATIONS], 1);
	/* --wake-priority: polling for a while without a wait ends the FIFO stretch */
	if (__builtin_expect(nap->prio_up, 0) && now_tsc - nap->last_wait_tsc > nap->prio_hold_tsc)
		lull_nap_prio_drop(nap);
	if (n_rx > 0) {
		lull_counter_add(&nap->stats[LULL_PMD_BUSY_ITERATIONS], 1);
		lull_counter_add(&nap->stats[LULL_PMD_BUSY_TSC], cycles_tsc);
	} else {
		lull_counter_add(&nap->stats[LULL_PMD_IDLE_TSC], cycles_tsc);
	}
}

/**
 * Iterations whose time was not read one by one, all busy (every poll a full
 * burst: the host attached to reads its clock every few of them), ending at
 * now_tsc: counted, and their cycles charged to busy. Not a stall: a span of
 * several rounds is not one round of polling as long as a late wake.
 */
static inline void
lull_nap_account_span(struct lull_nap *nap, uint32_t iters, uint64_t now_tsc)
{
	lull_counter_add(&nap->stats[LULL_PMD_ITERATIONS], iters);
	lull_counter_add(&nap->stats[LULL_PMD_BUSY_ITERATIONS], iters);
	lull_counter_add(&nap->stats[LULL_PMD_BUSY_TSC], now_tsc - nap->prev_tsc);
	nap->prev_tsc = now_tsc;
}

/** lull_nap_idle()'s work when the policy is on. */
bool lull_nap_decide_and_wait(struct lull_nap *nap, uint32_t n_rx, uint64_t now_tsc);

/**
 * After an iteration (n_rx packets, ended at now_tsc): wait if the policy
 * says so, the way it says. @return whether it waited (then nap->prev_tsc is
 * when the wait ended, and the host may look at its control flags at once).
 */
static inline bool
lull_nap_idle(struct lull_nap *nap, uint32_t n_rx, uint64_t now_tsc)
{
	return nap->on && lull_nap_decide_and_wait(nap, n_rx, now_tsc);
}

/**
 * Every ~LULL_NAP_HOUSEKEEPING_ITERS iterations: publish the cost model's
 * gauges, and give the CPU up if a housekeeping yield is due (tx flushed
 * first). @return whether it yielded (then nap->prev_tsc is when it ended).
 */
bool lull_nap_housekeeping(struct lull_nap *nap);

/**
 * No queue to poll: wait for the control eventfd alone (a new load, a stop),
 * without a timer; without an eventfd, 100 ms. Counted as a park.
 */
void lull_nap_park(struct lull_nap *nap);

/**
 * Packets per non-empty rx burst, full bursts (of burst packets) included:
 * they are counted apart on the polling thread (one store instead of a
 * histogram update per burst under load). Any thread.
 */
void lull_nap_burst_hist(const struct lull_nap *nap, uint16_t burst, struct lull_hist *out);

#endif /* LULL_NAP_H */
