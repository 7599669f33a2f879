/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * A driver's teardown waits for the PMDs (lib/quiesce.h). DPDK 22.11's
 * net_memif unmaps its rings from the EAL interrupt thread when its peer
 * leaves, right after it clears the flag its rx and tx bursts check: a PMD
 * preempted between that check and its ring reads faulted (SIGSEGV in
 * eth_memif_rx, seen in CI). Between the two, memif_disconnect() unregisters
 * its control channel's interrupt callback; lull's executable interposes
 * rte_intr_callback_unregister() (exported to the drivers EAL loads) and,
 * before it returns, waits for a grace period: every PMD has been outside its
 * poll since. Control plane only.
 */
#ifndef LULL_TEARDOWN_GUARD_H
#define LULL_TEARDOWN_GUARD_H

/** Longest grace period a teardown waits for before it goes on (and warns). */
#define LULL_TEARDOWN_GUARD_MAX_MS 50

/** Before the PMDs start: make grace periods cheap (membarrier); logs why not. */
void lull_teardown_guard_init(void);

/** At exit, when any: how many teardowns waited, the longest wait, timeouts. */
void lull_teardown_guard_report(void);

#endif
