/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * What bounds a sleep on a started port's rx queue: how many descriptors its
 * ring holds and how fast the line can fill it. lull's ports (dp/port.c) and
 * the engine attached to another program's queues (nap/attach.c) read them
 * the same way.
 */
#ifndef LULL_PORTLINE_H
#define LULL_PORTLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lull_port_line {
	uint32_t rx_ring;  /**< packets it holds; 0: the driver does not say */
	double line_pps;   /**< line rate in 64-byte frames (84 bytes on the wire) per s */
	bool line_assumed; /**< no link speed reported (or memif's constant): 10 GbE assumed */
};

/**
 * Read queue's ring (rte_eth_rx_queue_info_get: its descriptors less the
 * rx_free_thresh its driver may hold back, lull_port_ring_usable(); drivers
 * that do not answer it from their devargs: net_memif 2^rsize, default 1024;
 * net_af_packet its socket ring of framecnt frames, default 512) and port's
 * link speed; a port without a speed, and net_memif (which reports a constant
 * 100 Gbps), is taken as 10 GbE.
 */
void lull_port_line_get(uint16_t port, uint16_t queue, struct lull_port_line *pl);

/**
 * The value of "key=" in the devargs of port (net_af_packet0,iface=x,...),
 * whose driver must be driver, into val (cut to len).
 * @return 0, -ENODEV (another driver or no such port), -ENOENT (not given)
 */
int lull_port_devarg(uint16_t port, const char *driver, const char *key, char *val, size_t len);

#endif /* LULL_PORTLINE_H */
