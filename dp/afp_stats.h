/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Drops in net_af_packet's kernel rings. DPDK 22.11's af_packet driver reports
 * no imissed: a frame the kernel could not put in a full ring is lost and
 * nothing says so. The driver's sockets are among the process's own
 * descriptors, bound to the port's interface; PACKET_STATISTICS on each gives
 * (and resets) the frames the kernel dropped there since the last read.
 * Control plane only (the reads reset the kernel's counters: one reader).
 */
#ifndef LULL_AFP_STATS_H
#define LULL_AFP_STATS_H

#include <stdint.h>

#define LULL_AFP_MAX_FDS 16 /**< the driver's sockets (one per queue pair) we follow */

struct lull_afp_stats {
	int fds[LULL_AFP_MAX_FDS];
	unsigned int n_fds;
	uint64_t drops; /**< since the port started */
};

/**
 * Find the af_packet sockets of port id (a started net_af_packet port;
 * anything else finds none).
 *
 * @return how many were found.
 */
unsigned int lull_afp_stats_attach(struct lull_afp_stats *s, uint16_t id);

/** Read and add up the kernel's drops since the last read. @return s->drops. */
uint64_t lull_afp_stats_read(struct lull_afp_stats *s);

#endif /* LULL_AFP_STATS_H */
