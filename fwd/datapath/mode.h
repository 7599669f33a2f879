/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Forwarding modes behind one small interface: a function that rewrites a
 * burst in place before it is buffered for tx. io needs no work, so its
 * function is NULL and the PMD loop skips the call.
 */
#ifndef LULL_MODE_H
#define LULL_MODE_H

#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#include "config.h"

/** What a forwarding mode knows about the queue a burst came from. */
struct lull_mode_ctx {
	struct rte_ether_addr tx_mac;   /**< MAC of the port the burst goes out of */
	struct rte_ether_addr peer_mac; /**< --eth-peer of that port */
};

typedef void lull_mode_fn(struct rte_mbuf **pkts, uint16_t n, const struct lull_mode_ctx *ctx);

lull_mode_fn lull_mode_mac;
lull_mode_fn lull_mode_macswap;

/** The function for a mode; NULL for io. */
lull_mode_fn *lull_mode_get(enum lull_fwd_mode mode);

#endif /* LULL_MODE_H */
