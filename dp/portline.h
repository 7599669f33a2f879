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
#include <stdint.h>

struct lull_port_line {
	uint32_t rx_ring;  /**< descriptors; 0: the driver does not say */
	double line_pps;   /**< line rate in 64-byte frames (84 bytes on the wire) per s */
	bool line_assumed; /**< no link speed reported (or memif's constant): 10 GbE assumed */
};

/**
 * Read queue's ring (rte_eth_rx_queue_info_get; net_memif: 2^rsize from its
 * devargs, default 1024, as it does not answer) and port's link speed; a port
 * without a speed, and net_memif (which reports a constant 100 Gbps), is
 * taken as 10 GbE.
 */
void lull_port_line_get(uint16_t port, uint16_t queue, struct lull_port_line *pl);

#endif /* LULL_PORTLINE_H */
