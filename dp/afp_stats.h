/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Drops in net_af_packet's kernel rings. DPDK 22.11's af_packet driver reports
 * no imissed: a frame the kernel could not put in a full ring is lost and
 * nothing says so. The driver's sockets are among the process's own
 * descriptors, bound to the port's interface; PACKET_STATISTICS on each gives
 * (and resets) the frames the kernel dropped there since the last read.
 * Control plane only (the reads reset the kernel's counters: one reader, or
 * the caller's lock). lull's ports (dp/port.c) and the engine attached to
 * another program's ports (nap/attach_afp.c) read them the same way.
 */
#ifndef LULL_AFP_STATS_H
#define LULL_AFP_STATS_H

#include <stdint.h>

#define LULL_AFP_MAX_FDS 16 /**< the driver's sockets (one per queue pair) we follow */

struct lull_afp_stats {
	int fds[LULL_AFP_MAX_FDS];
	unsigned int n_fds;
	uint64_t drops; /**< since the port first started (zero the struct before) */
};

struct rte_eth_stats;

/**
 * Find the af_packet sockets of port id (a started net_af_packet port;
 * anything else finds none). Drops from before the start are not counted;
 * s->drops goes on from where the port's last stop left it.
 *
 * @return how many were found.
 */
unsigned int lull_afp_stats_attach(struct lull_afp_stats *s, uint16_t id);

/** Read and add up the kernel's drops since the last read. @return s->drops. */
uint64_t lull_afp_stats_read(struct lull_afp_stats *s);

/** Before the port stops (the driver closes its sockets): read its last
 * drops, and no more. */
void lull_afp_stats_forget(struct lull_afp_stats *s);

/** What a port lost on receive: its driver's imissed and rx_nombuf, and the
 * drops of its af_packet rings (s NULL: none followed). */
uint64_t lull_rx_missed(const struct rte_eth_stats *st, const struct lull_afp_stats *s);

#endif /* LULL_AFP_STATS_H */
