/* SPDX-License-Identifier: BSD-3-Clause */
/* macswap: the frame goes back where it came from, src and dst MAC swapped. */
#include "mode.h"

void
lull_mode_macswap(struct rte_mbuf **pkts, uint16_t n, const struct lull_mode_ctx *ctx)
{
	(void)ctx;
	for (uint16_t i = 0; i < n; i++) {
		struct rte_ether_hdr *eth;
		struct rte_ether_addr tmp;

		if (rte_pktmbuf_data_len(pkts[i]) < sizeof(*eth))
			continue;
		eth = rte_pktmbuf_mtod(pkts[i], struct rte_ether_hdr *);
		rte_ether_addr_copy(&eth->src_addr, &tmp);
		rte_ether_addr_copy(&eth->dst_addr, &eth->src_addr);
		rte_ether_addr_copy(&tmp, &eth->dst_addr);
	}
}
