/* SPDX-License-Identifier: BSD-3-Clause */
#include "portline.h"

#include <stdio.h>
#include <string.h>

#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_ethdev.h>

/* net_memif's ring: 2^rsize slots (devargs "rsize=N", default 10). The memif
 * client's rsize sets the rings of a connection: as a server, lull reads its
 * own and assumes the peer gives the same (docs/tuning.md says so). */
static uint32_t
memif_ring(const struct rte_eth_dev_info *info)
{
	const struct rte_devargs *da;
	const char *args, *r;
	unsigned int log2 = 10;

	if (info->device == NULL)
		return 1u << log2;
	da = rte_dev_devargs(info->device);
	if (da == NULL)
		return 1u << log2;
	args = da->args;
	r = args != NULL ? strstr(args, "rsize=") : NULL;
	if (r != NULL && sscanf(r + 6, "%u", &log2) == 1 && log2 >= 1 && log2 <= 14)
		return 1u << log2;
	return 1u << 10;
}

void
lull_port_line_get(uint16_t port, uint16_t queue, struct lull_port_line *pl)
{
	struct rte_eth_rxq_info qinfo;
	struct rte_eth_dev_info info;
	struct rte_eth_link link;
	bool is_memif = rte_eth_dev_info_get(port, &info) == 0 && info.driver_name != NULL &&
			strcmp(info.driver_name, "net_memif") == 0;

	if (is_memif)
		pl->rx_ring = memif_ring(&info);
	else if (rte_eth_rx_queue_info_get(port, queue, &qinfo) == 0)
		pl->rx_ring = qinfo.nb_desc;
	else
		pl->rx_ring = 0;
	/* net_memif reports a constant 100 Gbps; its real rate is its peer's copy
	 * speed (lull-gen peaks at ~15 Mpps on the machines measured): 10 GbE */
	pl->line_assumed = is_memif || rte_eth_link_get_nowait(port, &link) != 0 ||
			   link.link_speed == RTE_ETH_SPEED_NUM_NONE ||
			   link.link_speed == RTE_ETH_SPEED_NUM_UNKNOWN;
	pl->line_pps = (pl->line_assumed ? 10000.0 : (double)link.link_speed) * 1e6 / (84 * 8);
}
