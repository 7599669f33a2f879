/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Where rx queues go, decided from measured loads: the assignment of queues
 * to PMDs (largest first, each to the least loaded PMD) that `pmd-rxq-rebalance`
 * uses, and consolidation: pack the queues onto the fewest PMDs that carry the
 * load with headroom, park the others, spread them again before a PMD runs
 * out of headroom. Pure C, no DPDK, no clock: lull (fwd/control/balance.c) and
 * lull-sim's fleet model (sim/fleet.c) feed it the same numbers, so the
 * simulated decisions are lull's own.
 *
 * Loads are shares of a core (0..1) over a measurement window: a PMD's busy
 * cycles, a queue's share of them. A PMD with no queue is parked.
 *
 * The rules:
 * - unpack at once when an awake PMD with more than one queue is past the
 *   unpack line, or misses its latency budget (> 1 % of its timed waits)
 *   while it carries more than the pack line: its queues are spread over it
 *   and one parked PMD;
 * - pack only when every awake PMD stayed under the pack line for
 *   calm_windows windows in a row: the queues of the least loaded PMD that
 *   holds no pinned queue (a pinned queue keeps its PMD awake) go to the
 *   others if none of them passes the pack line, and that PMD parks;
 * - a PMD out of headroom with none parked to wake: every queue is assigned
 *   anew over the PMDs (as pmd-rxq-rebalance does) if that lowers the highest
 *   load by LULL_CONS_SPREAD_GAIN at least - packs leave queues where they
 *   fit, not where they balance, and unpacks split one PMD's queues in two;
 * - nothing within dwell_ns of the last move (any move, an operator's too);
 * - no PMD takes more than max_queues queues: a pack that would is not made.
 * The gap between the lines is the hysteresis: a pack leaves every PMD under
 * the pack line, so the next unpack needs the load to grow by the gap.
 */
#ifndef LULL_CONSOLIDATE_H
#define LULL_CONSOLIDATE_H

#include <stdbool.h>
#include <stdint.h>

#include "opt.h"

#define LULL_CONS_MAX_PMDS     64
#define LULL_CONS_NONE_PMD     UINT16_MAX /**< a queue that no PMD polls */
#define LULL_CONS_SPREAD_GAIN  0.05       /**< a spread must lower the highest load this much */
#define LULL_CONS_CALM_WINDOWS 3          /**< lull's: calm windows in a row a pack needs */
#define LULL_CONS_MAX_QUEUES   256        /**< lull's: rx queues one PMD polls at most */

/** One rx queue. */
struct lull_cons_queue {
	uint32_t id;  /**< the caller's (lull: port * queues + queue) */
	uint16_t pmd; /**< the PMD index polling it; lull_cons_*() change it */
	uint16_t was; /**< lull_cons_decide(): the PMD before the decision */
	bool pinned;  /**< never moved (--rxq-pmd, --rxq-critical) */
	double load;  /**< share of a core, last window */
};

/** One PMD over the last window. */
struct lull_cons_pmd {
	double load;  /**< busy share of its core */
	bool missing; /**< over 1 % of its timed waits missed the latency budget */
};

struct lull_cons_params {
	double pack_below;         /**< pack while every awake PMD stays under (0..1) */
	double unpack_above;       /**< unpack when one passes (> pack_below) */
	unsigned int calm_windows; /**< calm windows in a row a pack needs */
	uint64_t dwell_ns;         /**< at least this between two moves */
	unsigned int max_queues;   /**< queues one PMD may take (0: no limit) */
};

struct lull_cons_state {
	unsigned int calm;     /**< windows in a row with every awake PMD under the pack line */
	bool moved;            /**< a move happened (last_move_ns is meaningful) */
	uint64_t last_move_ns; /**< the caller's clock */
};

enum lull_cons_kind {
	LULL_CONS_STAY,   /**< nothing to do */
	LULL_CONS_PACK,   /**< pmd parks: its queues went to the others */
	LULL_CONS_UNPACK, /**< pmd (hot) shares its queues with other (woken) */
	LULL_CONS_SPREAD, /**< pmd (hot) had none parked to share with: every queue anew */
};

struct lull_cons_decision {
	enum lull_cons_kind kind;
	unsigned int pmd;   /**< pack: the PMD that parks; unpack, spread: the hot one */
	unsigned int other; /**< unpack: the parked PMD that wakes */
	unsigned int awake; /**< awake PMDs before the decision */
	double load;        /**< pmd's load */
	double after;       /**< spread: the highest load it expects after */
	bool missing;       /**< unpack: the hot PMD misses its budget */
	unsigned int moved; /**< queues whose PMD changed */
};

void lull_cons_init(struct lull_cons_state *st);

/**
 * Assign the unpinned queues of the PMDs marked in from[] (every PMD when
 * NULL), largest load first, each to the PMD marked in to[] with the least
 * load so far. load[n_pmds] (zeroed by the caller) gathers what stays, then
 * what comes; no PMD takes more than max_queues queues in all (0: no limit).
 * Sorts qs by load. Queues with pmd >= n_pmds are left alone.
 * @return false when a queue would take a PMD past cap or every PMD in to[]
 *   holds max_queues (qs is then partly changed: the caller works on a
 *   copy), true otherwise.
 */
bool lull_cons_assign(struct lull_cons_queue *qs, unsigned int n, unsigned int n_pmds,
	const bool *from, const bool *to, double *load, double cap, unsigned int max_queues);

/**
 * One closed window: decide, and on a pack or unpack rewrite qs[].pmd (sorted
 * by load). The caller applies the move and then calls lull_cons_moved().
 * @return the kind of decision, also in *d.
 */
enum lull_cons_kind lull_cons_decide(struct lull_cons_state *st, const struct lull_cons_params *p,
	const struct lull_cons_pmd *pmds, unsigned int n_pmds, struct lull_cons_queue *qs,
	unsigned int n, uint64_t now_ns, struct lull_cons_decision *d);

/** A move was applied at now_ns (by consolidation or an operator). */
void lull_cons_moved(struct lull_cons_state *st, uint64_t now_ns);

/** Queues per PMD in qs, into nq[n_pmds]. @return the PMDs with at least one. */
unsigned int lull_cons_count(
	const struct lull_cons_queue *qs, unsigned int n, unsigned int n_pmds, unsigned int *nq);

/**
 * The consolidation lines as option rows, shared by lull and lull-sim (same
 * names, bounds, defaults and help), into the uint32_t fields pack, unpack
 * (percent) and dwell (ms) of type; flags: LULL_OPT_SETTABLE or 0.
 */
#define LULL_CONSOLIDATE_OPT_ROWS(type, pack, unpack, dwell, flags)                                \
	LULL_OPT_UINT_ROW(type, pack, "pack-below-pct", "P", 1, 99, "50",                          \
		"gather queues while every awake PMD stays under P % busy", flags),                \
		LULL_OPT_UINT_ROW(type, unpack, "unpack-above-pct", "P", 2, 100, "70",             \
			"spread them again when a PMD passes P % busy or misses its budget",       \
			flags),                                                                    \
		LULL_OPT_UINT_ROW(type, dwell, "consolidate-dwell-ms", "MS", 100, 600000, "5000",  \
			"at least MS between two consolidation moves", flags)

#endif /* LULL_CONSOLIDATE_H */
