/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * The generator loop: one thread sends each phase of the profile against
 * absolute deadlines and matches what comes back. Single-threaded: every
 * field is written and read by the thread running gen_run().
 */
#ifndef LULL_GEN_GEN_H
#define LULL_GEN_GEN_H

#include <stdatomic.h>
#include <stdint.h>

#include <rte_mempool.h>

#include "config.h"
#include "hist.h"
#include "pkt.h"
#include "seqwin.h"

struct lull_quiesce_slot;

struct gen_phase_stats {
	uint64_t tx;         /**< packets the port accepted */
	uint64_t tx_refused; /**< packets the port refused (freed, not sent) */
	uint64_t tx_nombuf;  /**< packets not built: lull-gen's own pool was empty */
	uint64_t skipped;    /**< dropped from the schedule by the catch-up bound */
	uint64_t rx;         /**< first arrivals of this phase's packets */
	uint64_t dup;
	uint64_t reordered; /**< first arrivals after a newer packet */
	uint64_t bad_cksum;
	uint64_t start_tsc;
	uint64_t end_tsc;
	struct lull_hist rtt_ns;  /**< round-trip time of every first arrival */
	struct lull_hist late_ns; /**< how late each send started after its deadline */
};

struct gen {
	const struct gen_config *cfg;
	struct rte_mempool *pool;
	uint16_t tx_port;
	uint16_t rx_port;
	uint16_t run_id;
	/** The tx port's refusals are the device under test's: its peer end is that
	 * device's rx ring (net_memif, net_ring), so a refused packet is a lost one. */
	bool refused_is_loss;
	uint64_t tsc_hz;
	double ns_per_tsc;
	const atomic_bool *quit; /**< set by the signal handler: stop early */
	struct gen_tmpl tmpl;
	uint64_t seq;
	uint16_t txq_next;              /**< tx queue of the next burst */
	uint64_t foreign;               /**< frames that are not ours (other traffic, other runs) */
	uint64_t too_old;               /**< ours but older than the sequence window */
	uint64_t rx_queue[GEN_MAX_RXQ]; /**< frames each rx queue of the rx port gave */
	unsigned int n_done; /**< phases run (fewer than the profile when stopped early) */
	/** this thread's grace-period slot while it polls (lib/quiesce.h): a
	 * driver's teardown (its peer left) waits for the burst it is in */
	struct lull_quiesce_slot *qs;
	struct lull_seqwin seqwin;
	struct gen_phase_stats phases[LULL_MAX_PHASES];
};

/** Run every phase, then wait drain_ms for late packets. */
void gen_run(struct gen *g);

#endif /* LULL_GEN_GEN_H */
