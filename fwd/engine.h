/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Forwarding modes behind one small interface: a function that rewrites a
 * burst in place before it is buffered for tx. io needs no work, so its
 * function is NULL and the PMD loop skips the call.
 */
#ifndef LULL_ENGINE_H
#define LULL_ENGINE_H

#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#include "config.h"

/** What an engine knows about the queue a burst came from. */
struct lull_engine_ctx {
	struct rte_ether_addr tx_mac;   /**< MAC of the port the burst goes out of */
	struct rte_ether_addr peer_mac; /**< --eth-peer of that port */
};

typedef void lull_engine_fn(struct rte_mbuf **pkts, uint16_t n, const struct lull_engine_ctx *ctx);

lull_engine_fn lull_engine_mac;
lull_engine_fn lull_engine_macswap;

/** The function for a mode; NULL for io. */
lull_engine_fn *lull_engine_get(enum lull_fwd_mode mode);

#endif /* LULL_ENGINE_H */
