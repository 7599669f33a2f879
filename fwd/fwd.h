/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * The forwarder as a whole: configuration, mbuf pool, ports and PMDs.
 * Owned by the control plane (main thread); PMDs only see their own struct.
 */
#ifndef LULL_FWD_H
#define LULL_FWD_H

#include <stdint.h>

#include <rte_mempool.h>

#include "config.h"
#include "pmd.h"
#include "port.h"

struct lull_fwd {
	struct lull_config cfg;
	struct rte_mempool *pool;
	struct lull_port ports[LULL_MAX_PORTS];
	unsigned int n_ports; /**< ports set up (and to close) */
	struct lull_pmd *pmds[LULL_MAX_PMDS];
	unsigned int n_pmds;     /**< PMDs created (and to free) */
	unsigned int n_launched; /**< PMDs running on their lcore */
	uint64_t start_tsc;
};

#endif /* LULL_FWD_H */
