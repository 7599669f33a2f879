/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Ethdev setup and teardown. Control plane only; not thread-safe.
 */
#ifndef LULL_PORT_H
#define LULL_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_mempool.h>

#include "afp_stats.h"
#include "portconf.h"

struct lull_port {
	uint16_t id;
	bool present; /**< set up (maybe half): to close */
	bool started;
	bool rx_intr; /**< configured with rx-queue interrupts */
	struct rte_ether_addr mac;
	char name[64];
	/* lull_port_measure(): what the burst tolerance needs */
	uint32_t rx_ring;  /**< descriptors of rx queue 0 (memif: its rsize) */
	double line_pps;   /**< line rate in 64-byte frames per s */
	bool line_assumed; /**< no link speed reported (or memif's constant): 10 GbE assumed */
	struct lull_afp_stats afp; /**< net_af_packet: its sockets' kernel drops */
};

/**
 * Check cfg's queue counts and ring sizes against what device id accepts.
 *
 * @return 0 or -EINVAL with a message naming the option in err.
 */
int lull_port_check(uint16_t id, const struct lull_port_conf *pc, char *err, size_t errlen);

/**
 * Configure port id with cfg's queues and rings, set up its queues and start
 * it. Call lull_port_check() first.
 *
 * @return 0 or a negative errno with a message in err.
 */
int lull_port_start(struct lull_port *port, uint16_t id, const struct lull_port_conf *pc,
	struct rte_mempool *pool, char *err, size_t errlen);

/**
 * Wait until every port's link is up or timeout_ms passed; print each
 * port's link state. Returns early when should_stop() returns true.
 *
 * @return the number of ports whose link is down.
 */
unsigned int lull_port_wait_links(const struct lull_port *ports, unsigned int n,
	uint32_t timeout_ms, bool (*should_stop)(void));

/**
 * Wait until every port's link is down (its peer stopped) or timeout_ms passed,
 * polling no queue meanwhile; returns early when should_stop() returns true.
 * A memif peer that still polls when this side closes can crash in DPDK 22.11
 * (memif_disconnect unmaps the rings under its rx burst): a program whose peer
 * outlives it waits here for the peer to stop first.
 *
 * @return the number of ports whose link is still up.
 */
unsigned int lull_port_wait_links_down(const struct lull_port *ports, unsigned int n,
	uint32_t timeout_ms, bool (*should_stop)(void));

/**
 * Frames the port lost for want of room, as rx_missed: the device's imissed
 * and rx_nombuf, and (net_af_packet) what the kernel dropped at its sockets
 * up to the last lull_port_poll_drops().
 */
uint64_t lull_port_rx_missed(const struct lull_port *port, const struct rte_eth_stats *st);

/** Add up what the kernel dropped at the port's af_packet sockets since the
 * last call (it resets the kernel's counters: the control plane's one reader). */
void lull_port_poll_drops(struct lull_port *port);

/** Stop (if started) and close the port. */
void lull_port_close(struct lull_port *port);

/**
 * Fill rx_ring and line_pps of a started port: its rx queue 0's descriptors
 * (lull_port_line_get: rte_eth_rx_queue_info_get, or net_memif's and
 * net_af_packet's devargs; else n_rxd as configured) and its link speed in
 * 64-byte frames (84 bytes on the wire) per second; a port without a speed,
 * and net_memif (which reports a constant 100 Gbps), is taken as 10 GbE.
 */
void lull_port_measure(struct lull_port *port, uint16_t n_rxd);

/** Stop the port and detach its device (port-del): its name may be probed again. */
void lull_port_remove(struct lull_port *port);

/** Detach a probed port that was never started (a failed check): its name can be
 * probed again. Falls back to a close where the device cannot be removed. */
void lull_port_detach(uint16_t id);

#endif /* LULL_PORT_H */
