/* SPDX-License-Identifier: BSD-3-Clause */
#include "portline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_ethdev.h>

#include "portconf.h"

/* lull_port_devarg() of a port whose info was read. */
static int
devarg_of(const struct rte_eth_dev_info *info, const char *driver, const char *key, char *val,
	size_t len)
{
	const struct rte_devargs *da;
	size_t klen = strlen(key);
	const char *p;

	if (info->driver_name == NULL || strcmp(info->driver_name, driver) != 0 ||
		info->device == NULL)
		return -ENODEV;
	da = rte_dev_devargs(info->device);
	if (da == NULL || da->args == NULL)
		return -ENOENT;
	for (p = da->args; p != NULL; p = strchr(p, ',')) {
		if (*p == ',')
			p++;
		if (strncmp(p, key, klen) == 0 && p[klen] == '=') {
			snprintf(val, len, "%.*s", (int)strcspn(p + klen + 1, ","), p + klen + 1);
			return 0;
		}
	}
	return -ENOENT;
}

int
lull_port_devarg(uint16_t port, const char *driver, const char *key, char *val, size_t len)
{
	struct rte_eth_dev_info info;

	if (rte_eth_dev_info_get(port, &info) != 0)
		return -ENODEV;
	return devarg_of(&info, driver, key, val, len);
}

/* A whole number devarg of the port's driver from lo to hi, else dflt. */
static uint32_t
devarg_u32(const struct rte_eth_dev_info *info, const char *driver, const char *key, uint32_t lo,
	uint32_t hi, uint32_t dflt)
{
	char val[16], *end;
	unsigned long v;

	if (devarg_of(info, driver, key, val, sizeof(val)) != 0)
		return dflt;
	errno = 0;
	v = strtoul(val, &end, 10);
	return errno == 0 && end != val && *end == '\0' && v >= lo && v <= hi ? (uint32_t)v : dflt;
}

/* The ring of a driver that does not answer rte_eth_rx_queue_info_get (DPDK
 * 22.11), from its devargs; 0: not one of those. net_memif: 2^rsize slots
 * (default 10); the memif client's rsize sets the rings of a connection: as a
 * server, lull reads its own and assumes the peer gives the same
 * (docs/tuning.md says so). net_af_packet: the socket's rx ring of framecnt
 * frames (default 512), whatever --rxd or the host asked for: its rx queue
 * setup ignores the descriptor count. */
static uint32_t
devargs_ring(const struct rte_eth_dev_info *info, const char *driver)
{
	if (strcmp(driver, "net_memif") == 0)
		return 1u << devarg_u32(info, driver, "rsize", 1, 14, 10);
	if (strcmp(driver, "net_af_packet") == 0)
		return devarg_u32(info, driver, "framecnt", 1, 1u << 20, 512);
	return 0;
}

void
lull_port_line_get(uint16_t port, uint16_t queue, struct lull_port_line *pl)
{
	struct rte_eth_rxq_info qinfo;
	struct rte_eth_dev_info info;
	struct rte_eth_link link;
	const char *driver = rte_eth_dev_info_get(port, &info) == 0 && info.driver_name != NULL
				     ? info.driver_name
				     : "";
	bool is_memif = strcmp(driver, "net_memif") == 0;

	pl->rx_ring = devargs_ring(&info, driver);
	if (pl->rx_ring == 0 && rte_eth_rx_queue_info_get(port, queue, &qinfo) == 0)
		pl->rx_ring = lull_port_ring_usable(qinfo.nb_desc, qinfo.conf.rx_free_thresh);
	/* net_memif reports a constant 100 Gbps; its real rate is its peer's copy
	 * speed (lull-gen peaks at ~15 Mpps on the machines measured): 10 GbE */
	pl->line_assumed = is_memif || rte_eth_link_get_nowait(port, &link) != 0 ||
			   link.link_speed == RTE_ETH_SPEED_NUM_NONE ||
			   link.link_speed == RTE_ETH_SPEED_NUM_UNKNOWN;
	pl->line_pps = (pl->line_assumed ? 10000.0 : (double)link.link_speed) * 1e6 / (84 * 8);
}
