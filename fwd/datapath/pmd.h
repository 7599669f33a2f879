/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * The PMD thread: one per PMD core, polling a thread-local list of rx queues.
 *
 * Threads: the control plane (main thread) creates a PMD, launches it on its
 * lcore, reads its counters, asks it to stop and frees it after the lcore has
 * returned. The data plane (the PMD thread) owns everything else. Each field
 * says who writes (w) and who reads (r).
 */
#ifndef LULL_PMD_H
#define LULL_PMD_H

#include <assert.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_mempool.h>

#include "config.h"
#include "mode.h"
#include "lull_nap.h"

/**
 * Iterations between housekeeping ticks (stop/reload checks). An idle
 * iteration over a few queues takes ~0.1 us, so a tick comes every ~100 us
 * at most: the cost is one acquire load per 1024 polls, the price is that a
 * stop request waits up to one tick.
 */
#define LULL_HOUSEKEEPING_ITERS LULL_NAP_HOUSEKEEPING_ITERS

/** Tx toward one port from one PMD: a buffer and the PMD's own tx queue. */
struct lull_txq {
	struct rte_eth_dev_tx_buffer *buf; /**< ctl: w before publishing a block using it; dp: rw */
	uint16_t port;                     /**< ctl: w likewise; dp: r */
	uint16_t queue;                    /**< ctl: w likewise; dp: r */
	uint32_t retries;                  /**< ctl: w likewise; dp: r */
	lull_counter_t sent;               /**< dp: w; ctl: r */
	lull_counter_t dropped;            /**< dp: w; ctl: r (tx refused after retries, freed) */
};

/** One rx queue to poll and where its packets go. */
struct lull_rxq_conf {
	uint16_t port;
	uint16_t queue;
	uint16_t dst; /**< tx port */
	struct lull_mode_ctx ctx;
};

/**
 * Everything about a PMD that may change while it runs. Built by the control
 * plane, immutable once published (lull_pmd_publish), read by the PMD at its
 * housekeeping tick, freed by the control plane once the PMD acknowledged a
 * newer one.
 */
struct lull_pmd_params {
	uint64_t gen; /**< generation, > 0, grows with each block */
	struct lull_policy_params policy;
	struct lull_waiter waiter;
	uint64_t intr_after_ns;  /**< 0 = never (or a queue cannot interrupt) */
	uint32_t timer_slack_ns; /**< nanosleep backend */
	uint32_t wake_priority;  /**< SCHED_FIFO from a wait on; 0 = none */
	uint32_t drain_us;
	uint32_t yield_hz; /**< 0 = never */
	uint32_t yield_us;
	uint16_t ring_port; /**< the port of the smallest rx ring (burst tolerance) */
	bool line_assumed;  /**< a polled port reports no link speed: 10 GbE assumed */
	unsigned int n_rxqs;
	struct lull_rxq_conf rxqs[LULL_PMD_MAX_RXQS];
};

/** One polled rx queue: the PMD's thread-local copy of a struct lull_rxq_conf. */
struct lull_rxq {
	uint16_t port;
	uint16_t queue;
	struct lull_txq *tx;    /**< where its packets go */
	lull_counter_t *rx;     /**< its packet counter in the PMD's table */
	lull_counter_t *cycles; /**< its cycle counter in the PMD's table */
	struct lull_mode_ctx ctx;
};

struct lull_pmd {
	/* Hot state of the data plane: dp: rw, set from the params block at a reload. */
	alignas(RTE_CACHE_LINE_SIZE) unsigned int n_rxqs;
	unsigned int n_txqs;
	uint16_t burst;
	uint16_t direct_tx_min; /**< an rx burst this big skips an empty tx buffer */
	uint64_t drain_tsc;
	lull_mode_fn *mode;   /**< the forwarding mode; NULL in io mode */
	uint64_t flushed_tsc; /**< when the tx buffers were last flushed */
	uint32_t cyc_rng;     /**< which iterations are timed queue by queue (poll_all) */
	const struct lull_pmd_params *params; /**< the block in force */
	struct lull_rxq rxqs[LULL_PMD_MAX_RXQS];
	struct lull_txq *txq_list[LULL_PMD_MAX_RXQS]; /**< the txqs in use, for flushes */
	/** Indexed by tx port and queue. Rx queue q of a port sends on tx queue q of
	 * its peer, whichever PMD polls it: the tx queue moves with the rx queue, so
	 * a queue's packets leave in order across a move (the old PMD flushed them
	 * before it let the queue go). */
	struct lull_txq txqs[LULL_MAX_PORTS][LULL_MAX_QUEUES];

	/* Packets and cycles per rx queue, on their own lines. */
	/** Packets received per rx queue; dp: w; ctl: r, and resets a removed port's. */
	alignas(RTE_CACHE_LINE_SIZE) lull_counter_t rx_pkts[LULL_MAX_PORTS][LULL_MAX_QUEUES];
	/** Cycles spent on each rx queue's non-empty polls (rx, processing, its tx),
	 * timed from the end of the previous one (iterations with several busy
	 * queues: sampled, poll_all()): the queue's load, comparable across PMDs
	 * (pmd-rxq-show, consolidation); dp: w; ctl: r. */
	lull_counter_t rx_cycles[LULL_MAX_PORTS][LULL_MAX_QUEUES];

	/*
	 * Control, on their own line. stop: ctl stores true (release); dp loads it
	 * (acquire) at a housekeeping tick, drains, flushes and returns.
	 * next: ctl stores a new params block (release); dp loads it (acquire) at a
	 * housekeeping tick, applies it and stores its generation in ack (release).
	 */
	alignas(RTE_CACHE_LINE_SIZE) atomic_bool stop;
	_Atomic(const struct lull_pmd_params *) next;
	_Atomic uint64_t ack;
	_Atomic int tid; /**< dp: w (release) before its first ack; ctl: r for priority */
	/** ctl: true (release) before the launch; dp: false (release) as it returns.
	 * The hand-over EAL's launch and wait also order, made visible to
	 * ThreadSanitizer (EAL is not instrumented). */
	_Atomic bool launched;
	/* dp: w at a reload, before the ack (release); ctl: r after seeing the ack. */
	int intr_error;                        /**< 0, or why a queue's interrupt was refused */
	struct lull_wait_queue intr_error_rxq; /**< that queue */
	_Atomic bool intr_on;                  /**< interrupt waits possible with this block */
	/** An eventfd in the PMD's epoll set while it may wait for an interrupt: ctl
	 * writes it after a stop request or a new block, so that the wait ends at once
	 * (grout wakes its workers the same way). Created and closed by ctl. */
	int ctl_fd;

	/** The sleep engine (nap/lull_nap.h): its policy, waits and counters (dp: w;
	 * ctl: r, the counters, histograms and gauges on their own lines). */
	struct lull_nap nap;

	/* Control-plane only. */
	unsigned int lcore;
	unsigned int index;
	uint32_t tx_retries;
	const struct lull_pmd_params *ctl_params; /**< the newest block the PMD acknowledged */
	const struct lull_pmd_params *pending;    /**< published, not yet acknowledged */
};

static_assert(
	offsetof(struct lull_pmd, nap) >= offsetof(struct lull_pmd, stop) + RTE_CACHE_LINE_SIZE,
	"the control line (stop, next, ack) shares no cache line with the engine's counters");
static_assert(offsetof(struct lull_pmd, nap.stats) % RTE_CACHE_LINE_SIZE == 0,
	"the counters start a cache line");

/** Set up the PMD's sleep engine, its hooks the PMD's poll and flush (at create). */
void lull_pmd_nap_init(struct lull_pmd *pmd);

/**
 * tx_buffer error callback (arg: the struct lull_txq): retry a refused tx
 * --tx-retries times, then free what is left and count it as dropped. Data plane.
 */
void lull_pmd_txq_unsent(struct rte_mbuf **pkts, uint16_t n, void *arg);

/** lcore function (rte_eal_remote_launch): poll until asked to stop. */
int lull_pmd_run(void *arg);

#endif /* LULL_PMD_H */
