/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * The forwarder as a whole: configuration, mbuf pool, ports and PMDs.
 * Owned by the control plane (main thread); PMDs only see their own struct.
 */
#ifndef LULL_FWD_H
#define LULL_FWD_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_mempool.h>

#include "budget_note.h"
#include "config.h"
#include "consolidate.h"
#include "pmd_ctl.h"
#include "port.h"
#include "txq_watch.h"

struct lull_pmd_base; /* fwd/control/stats.h: the since-clear baseline */

/** Live rx-queue moves and consolidation (fwd/control/balance.c): control plane only. */
struct lull_balance {
	/** A move whose first phase (the old PMDs let go) timed out: its final
	 * configuration, of which the tick applies only the move (the queues let go
	 * that still have no PMD, and the pins) to the configuration of the moment,
	 * once every PMD took generation move_gen. No other move starts meanwhile. */
	struct lull_config *move_to;
	uint64_t move_gen;
	/* the current measurement window: counters at its start */
	uint64_t win_tsc;
	uint64_t pmd_busy_tsc[LULL_MAX_PMDS];
	uint64_t pmd_misses[LULL_MAX_PMDS];
	uint64_t pmd_sleeps[LULL_MAX_PMDS];
	uint64_t q_cycles[LULL_MAX_PORTS][LULL_MAX_QUEUES];
	/* the last complete window: shares of a core (0..1) */
	bool measured;
	double pmd_load[LULL_MAX_PMDS];
	bool pmd_missing[LULL_MAX_PMDS]; /**< over 1 % of its timed waits missed the budget */
	double q_load[LULL_MAX_PORTS][LULL_MAX_QUEUES];
	struct lull_cons_state cons;             /**< consolidation's calm windows and last move */
	uint64_t moves, packs, unpacks, spreads; /**< queues moved; consolidation decisions */
	uint64_t last_move_us;                   /**< how long the last move took, both phases */
	char last_reason[160];
};

/**
 * Everything below is the control plane's: the main thread and the telemetry
 * threads, one at a time under lock. PMDs see only their own struct.
 */
struct lull_fwd {
	pthread_mutex_t lock;
	struct lull_config cfg;
	struct rte_mempool *pool;
	struct lull_port ports[LULL_MAX_PORTS]; /**< indexed by port id; see .present */
	unsigned int n_ports;                   /**< ids below this may be present */
	unsigned int max_ports;                 /**< ports the mbuf pool was sized for */
	struct lull_pmd *pmds[LULL_MAX_PMDS];
	unsigned int n_pmds;     /**< PMDs created (and to free) */
	unsigned int n_launched; /**< PMDs running on their lcore */
	bool accepting;          /**< control commands may change things (checked under lock) */
	/** Torn down or being torn down: PMDs, blocks and ports are (being) freed, and
	 * every command answers "lull is stopping" (set once, under lock, before). */
	bool gone;
	/** Per port: the generation whose acknowledgement by every PMD completes a
	 * port-del that timed out (0 = none); lull_control_tick_locked() finishes it. */
	uint64_t del_gen[LULL_MAX_PORTS];
	uint64_t gen; /**< generation of the newest params blocks */
	uint64_t start_tsc;
	struct lull_pmd_base *base[LULL_MAX_PMDS]; /**< NULL until stats were cleared */
	struct lull_balance bal;
	struct lull_budget_note budget_note[LULL_MAX_PMDS]; /**< lull_budget_note_tick_locked() */
	struct lull_txq_watch txq_watch[LULL_MAX_PORTS]
				       [LULL_MAX_PMDS]; /**< lull_txq_watch_tick_locked() */
};

#endif /* LULL_FWD_H */
