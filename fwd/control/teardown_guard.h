/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * lull's side of nap/teardown.h: a driver's teardown (net_memif's, as its
 * peer leaves) waits for the PMDs to leave their polls before it unmaps what
 * they read. The executable exports rte_intr_callback_unregister to the
 * drivers EAL loads (fwd/meson.build). Control plane only.
 */
#ifndef LULL_TEARDOWN_GUARD_H
#define LULL_TEARDOWN_GUARD_H

/** Before the PMDs start: make grace periods cheap (membarrier); logs why not. */
void lull_teardown_guard_init(void);

/** At exit, when any: how many teardowns waited, the longest wait, timeouts. */
void lull_teardown_guard_report(void);

#endif
