/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Topology: which PMDs run, which ports forward to which, which PMD polls
 * which rx queue - resolved once against what EAL found, then changed by port
 * add and delete. Pure (no DPDK include), unit-tested with struct lull_sys.
 * Not thread-safe: the control plane calls it under its lock.
 */
#ifndef LULL_TOPOLOGY_H
#define LULL_TOPOLOGY_H

#include "config.h"

/** What EAL found, for lull_config_resolve(). */
struct lull_sys {
	unsigned int n_ports;
	unsigned int main_lcore;
	bool lcore_enabled[LULL_MAX_LCORES];
};

/**
 * The PMD index an --rxq-pmd pin names: its port and queue exist and its
 * lcore is a PMD's. @return the index, or -EINVAL with a message naming the pin.
 */
int lull_config_pin_pmd(
	const struct lull_config *cfg, const struct lull_rxq_pin *pin, char *err, size_t errlen);

/**
 * Check cfg against the system and fill the derived fields (PMD cores,
 * pairing, rx-queue assignment, tx queues, mbuf count).
 *
 * @return 0, or a negative errno with a one-line message in err.
 */
int lull_config_resolve(
	struct lull_config *cfg, const struct lull_sys *sys, char *err, size_t errlen);

/**
 * A port was added at run time with id: forward it to peer (LULL_PORT_NONE: not
 * yet, id: to itself), and give its rx queues to the PMDs polling the fewest.
 *
 * @return 0, or a negative errno with a message in err; cfg is then unchanged.
 */
int lull_config_port_add(
	struct lull_config *cfg, uint16_t id, uint16_t peer, char *err, size_t errlen);

/** Port id is being removed: it and its peer stop being forwarded. */
void lull_config_port_del(struct lull_config *cfg, uint16_t id);

#endif /* LULL_TOPOLOGY_H */
