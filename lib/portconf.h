/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * What a tool asks of a port (queues, rings, mbuf size, rx interrupts), and
 * the check of that against what the device accepts. Pure C: dp/port.c applies
 * it with DPDK, the unit tests check it alone. lull and lull-gen each fill one
 * from their own options.
 */
#ifndef LULL_PORTCONF_H
#define LULL_PORTCONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Ports a tool handles (= RTE_MAX_ETHPORTS of Debian's DPDK build). */
#define LULL_MAX_PORTS 32

/** Data bytes per mbuf by default, as testpmd's --mbuf-size; headroom excluded. */
#define LULL_MBUF_SIZE_DEFAULT 2048
/** The largest frame a port at the default MTU receives: 1500 + Ethernet, VLAN, FCS. */
#define LULL_FRAME_MAX_DEFAULT 1522

struct lull_port_conf {
	uint16_t n_rxq, n_txq; /**< queues */
	uint16_t n_rxd, n_txd; /**< descriptors per queue */
	uint16_t mbuf_size;    /**< packet data bytes per mbuf, headroom excluded */
	bool rx_intr; /**< ask for rx-queue interrupts (a device that refuses runs without) */
	const char *log_name; /**< the tool, in messages ("lull", "lull-gen") */
};

/** What a device accepts (from rte_eth_dev_info), for lull_port_conf_check(). */
struct lull_port_limits {
	const char *name;
	uint16_t max_rxq, max_txq;
	uint16_t rxd_min, rxd_max, rxd_align;
	uint16_t txd_min, txd_max, txd_align;
	bool tx_multi_seg; /**< sends a chain of mbufs */
};

/**
 * Mbufs a frame of the default maximum size takes: 1 unless mbuf_size is
 * below LULL_FRAME_MAX_DEFAULT, when frames arrive as chains.
 */
unsigned int lull_port_conf_segs(const struct lull_port_conf *pc);

/**
 * Check queue counts, ring sizes and chains against what a device accepts.
 *
 * @return 0, or -EINVAL with a message naming the option, the value and the
 *   device's range in err.
 */
int lull_port_conf_check(const struct lull_port_conf *pc, const struct lull_port_limits *lim,
	char *err, size_t errlen);

/**
 * The packets an rx ring of nb_desc descriptors holds while its PMD is away:
 * a driver that hands used descriptors back to the device in batches of
 * rx_free_thresh (ixgbe, i40e, ice: 32 by default) may be holding up to that
 * many, which the device cannot fill. A threshold of half the ring or more is
 * taken as half (a sleep bounded by a ring of 0 would never be taken).
 */
uint32_t lull_port_ring_usable(uint32_t nb_desc, uint32_t rx_free_thresh);

#endif /* LULL_PORTCONF_H */
