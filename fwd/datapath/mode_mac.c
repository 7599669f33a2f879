/* SPDX-License-Identifier: BSD-3-Clause */
/* mac: the frame leaves with src = our tx port's MAC and dst = that port's peer. */
#include "mode.h"

void
lull_mode_mac(struct rte_mbuf **pkts, uint16_t n, const struct lull_mode_ctx *ctx)
{
	for (uint16_t i = 0; i < n; i++) {
		struct rte_ether_hdr *eth;

		/* A runt frame is forwarded untouched rather than written past its end. */
		if (rte_pktmbuf_data_len(pkts[i]) < sizeof(*eth))
			continue;
		eth = rte_pktmbuf_mtod(pkts[i], struct rte_ether_hdr *);
		rte_ether_addr_copy(&ctx->peer_mac, &eth->dst_addr);
		rte_ether_addr_copy(&ctx->tx_mac, &eth->src_addr);
	}
}
