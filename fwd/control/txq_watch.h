/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * A tx queue with no ring behind it: a memif peer that took fewer rx queues
 * than lull's --rxq (and sends on more tx queues than it reads) leaves the
 * queues past its count refusing every packet (DPDK 22.11's memif does not
 * say how many rings it agreed to). Watched from each link-up: a tx queue
 * of a port that has refused LULL_TXQ_WATCH_MIN packets and sent none (its
 * PMDs' counts summed: the queue moves with its rx queue) is named in one
 * warning and counted in the port's tx_queues_refusing until it sends or
 * the link goes down; its packets count as tx-dropped, as every refused
 * packet does.
 */
#ifndef LULL_TXQ_WATCH_H
#define LULL_TXQ_WATCH_H

#include <stdint.h>

#define LULL_TXQ_WATCH_MIN 32u /**< refused packets, none sent, before the warning */

struct lull_fwd;

enum lull_txq_watch_state {
	LULL_TXQ_IDLE = 0, /**< link down, port absent, or not seen yet */
	LULL_TXQ_WATCHING, /**< link up: has it sent anything? */
	LULL_TXQ_SENDS,    /**< it sent: nothing more to watch until the next link-up */
	LULL_TXQ_REFUSING, /**< refused every packet since link-up (warned) */
};

/** One tx queue of one port: its counters (over every PMD) at link-up. */
struct lull_txq_watch {
	uint8_t state; /**< enum lull_txq_watch_state */
	uint64_t sent0, dropped0;
};

/**
 * On the main loop's tick, fwd->lock held. was_up[port]: the link as the
 * tick's link check last saw it (1 up, 0 down, -1 port absent or unknown).
 */
void lull_txq_watch_tick_locked(struct lull_fwd *fwd, const int8_t *was_up);

/** Tx queues of port that refuse every packet (fwd->lock held). */
unsigned int lull_txq_watch_refusing(const struct lull_fwd *fwd, uint16_t port);

#endif /* LULL_TXQ_WATCH_H */
