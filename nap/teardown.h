/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * A driver's teardown waits for the polling threads (lib/quiesce.h).
 *
 * DPDK 22.11's net_memif, when its peer leaves, clears the flag its rx and tx
 * bursts check and then unmaps its rings, from the EAL interrupt thread: a
 * polling thread preempted between its look at the flag and its ring reads
 * faults (SIGSEGV in eth_memif_rx; lull died so in CI). Between the two,
 * memif_disconnect() unregisters its control channel's interrupt callback.
 * This object defines rte_intr_callback_unregister(): EAL's, through
 * dlsym(RTLD_NEXT), then a grace period of every thread that holds a slot,
 * before the driver goes on to free anything. A program gets it by linking
 * this object and exporting the name to the drivers EAL loads: lull's
 * executable (-Wl,--export-dynamic-symbol) and the preload module (its
 * exports come before DPDK's). Not in liblullnap.so: a program that links
 * the engine keeps DPDK's own.
 */
#ifndef LULL_NAP_TEARDOWN_H
#define LULL_NAP_TEARDOWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Longest grace period a teardown waits for before it goes on (and warns). */
#define LULL_TEARDOWN_MAX_MS 50

/**
 * Before the polling threads start: make grace periods cheap (membarrier),
 * and link this object in (a program that calls nothing of it has EAL's
 * rte_intr_callback_unregister only).
 * @return 0, or a negative errno: grace periods then take a little longer.
 */
int lull_teardown_init(void);

/**
 * How many teardowns waited so far, the longest wait and how many gave up, as
 * "N (longest X us, T gave up after 50 ms)" in buf.
 * @return false (buf untouched) when none waited.
 */
bool lull_teardown_describe(char *buf, size_t len);

#endif
