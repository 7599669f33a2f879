/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * The PMD as the control plane sees it (fwd/control/pmd_ctl.c): its parameter
 * blocks, their publication and the one wait for an acknowledgement, its
 * creation and end, and its counters read from the control threads. The
 * thread itself is fwd/datapath/pmd.h.
 */
#ifndef LULL_PMD_CTL_H
#define LULL_PMD_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "nap_view.h"
#include "pmd.h"
#include "port.h"

/**
 * The block a show describes (control plane, under the control lock): the
 * newest one the PMD took - a pending one once acknowledged, before the next
 * publish promotes it - else ctl_params.
 */
static inline const struct lull_pmd_params *
lull_pmd_taken(const struct lull_pmd *pmd)
{
	const struct lull_pmd_params *p = pmd->pending;

	if (p != NULL && atomic_load_explicit(&pmd->ack, memory_order_acquire) >= p->gen)
		return p;
	return pmd->ctl_params;
}

/**
 * Build the params block of PMD index from cfg and what the ports are (their
 * MACs, rx interrupts, rx ring sizes and line rates: ports[id], by port id).
 * gen is the generation to stamp on it.
 *
 * @return the block (rte_free it), or NULL with a message in err and *ret set.
 */
struct lull_pmd_params *lull_pmd_params_build(const struct lull_config *cfg, unsigned int index,
	uint64_t gen, const struct lull_port *ports, int *ret, char *err, size_t errlen);

/**
 * Allocate PMD number index of cfg, with params as its first block (owned by
 * the PMD from now on).
 *
 * @return the PMD, or NULL with a message in err (errno-style code in *ret).
 */
struct lull_pmd *lull_pmd_create(const struct lull_config *cfg, unsigned int index,
	struct lull_pmd_params *params, int *ret, char *err, size_t errlen);

/**
 * Allocate what the PMD needs for params (its tx buffers toward new ports)
 * before anything is published: a change that cannot get its memory changes
 * nothing. Control plane. @return 0 or -ENOMEM (what was allocated stays, unused).
 */
int lull_pmd_prepare(struct lull_pmd *pmd, const struct lull_pmd_params *params);

/**
 * Give the PMD a new params block (ownership passes). The tx buffers it needs
 * are allocated first. When running, wait up to timeout_ms for the PMD to
 * acknowledge; then the block it replaced is freed.
 *
 * @return 0, -ENOMEM (block freed, nothing changed) or -ETIMEDOUT (the block
 *   stays pending and takes effect when the PMD gets to it).
 */
int lull_pmd_publish(struct lull_pmd *pmd, struct lull_pmd_params *params, bool running,
	unsigned int timeout_ms);

/**
 * Wait up to timeout_ms for the PMD to acknowledge generation gen (or a later
 * one): the one wait for a PMD's acknowledgement, on the clock, in 100 us
 * naps. Control plane. @return whether it did.
 */
bool lull_pmd_wait_ack(const struct lull_pmd *pmd, uint64_t gen, unsigned int timeout_ms);

/** Free the tx buffer toward port (after a block without it was acknowledged). */
void lull_pmd_drop_txq(struct lull_pmd *pmd, uint16_t port);

/** Free a PMD that is not running. */
void lull_pmd_free(struct lull_pmd *pmd);

/** End the PMD's interrupt wait, if it is in one, so that it looks at its control
 * line now (a stop, a new block). Any thread; async-signal-safe (one write). */
void lull_pmd_kick(struct lull_pmd *pmd);

/** Ask a running PMD to stop (returns at once; wait with rte_eal_wait_lcore()). */
void lull_pmd_request_stop(struct lull_pmd *pmd);

/**
 * Packets per non-empty rx burst, full bursts included (they are counted apart
 * on the data plane: one store instead of a histogram update per burst under
 * load), into out. Control plane.
 */
void lull_pmd_burst_hist(const struct lull_pmd *pmd, struct lull_hist *out);

/** The burst view of a block, with lateness_us of wake lateness assumed. */
void lull_pmd_burst_view(
	const struct lull_pmd_params *prm, double lateness_us, struct lull_burst_view *v);

/** Sent (or dropped, if dropped) by this PMD on tx queue q of port. */
static inline uint64_t
lull_pmd_txq_count(const struct lull_pmd *pmd, uint16_t port, uint16_t q, bool dropped)
{
	const struct lull_txq *t = &pmd->txqs[port][q];

	return lull_counter_read(dropped ? &t->dropped : &t->sent);
}

/** Sum of sent (or dropped, if dropped) over this PMD's tx queues of port. */
uint64_t lull_pmd_port_tx(const struct lull_pmd *pmd, uint16_t port, bool dropped);

/** Sum of sent (or dropped, if dropped) over this PMD's tx queues. */
uint64_t lull_pmd_tx_total(const struct lull_pmd *pmd, bool dropped);

/** Packets this PMD received, from every rx queue or (port < UINT16_MAX) from one port. */
uint64_t lull_pmd_rx_total(const struct lull_pmd *pmd, uint16_t port);

#endif /* LULL_PMD_CTL_H */
