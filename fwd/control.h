/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Control-plane operations on a running forwarder: change settings, add and
 * remove ports, clear stats. Shared by the main thread (start-up) and the
 * telemetry commands. Each function takes fwd->lock itself unless named
 * _locked; each applies whole or returns an error naming the bad part and
 * leaves everything as it was.
 */
#ifndef LULL_CONTROL_H
#define LULL_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fwd.h"

/** How long a change waits for every PMD to take it. */
#define LULL_CTL_ACK_TIMEOUT_MS 2000

/** What every command answers once lull is being torn down (fwd->gone). */
#define LULL_STOPPING "lull is stopping"

/**
 * Build every PMD's params block from cfg and hand them over; on success cfg
 * becomes fwd->cfg and the effective per-PMD values are logged (why: a word
 * for the log line, "set sleep-max-us").
 *
 * @return 0 or a negative errno with a message in err. On -ETIMEDOUT the
 *   change is committed and the slow PMD takes it at its next tick.
 */
int lull_control_apply_locked(struct lull_fwd *fwd, const struct lull_config *cfg, const char *why,
	char *err, size_t errlen);

/**
 * Whether cfg could be applied now: every PMD's block builds (no PMD past
 * LULL_PMD_MAX_RXQS queues) and its tx buffers exist (they are kept). Nothing
 * is published.
 *
 * @return 0 or a negative errno with a message in err.
 */
int lull_control_check_locked(
	struct lull_fwd *fwd, const struct lull_config *cfg, char *err, size_t errlen);

/**
 * After the PMDs were launched: wait until each runs, give them their
 * --pmd-priority and place the control threads (--control-cores).
 */
int lull_control_pin_threads(struct lull_fwd *fwd, char *err, size_t errlen);

/** `set KEY VALUE`: one run-time setting (see lull_config_settable()). */
int lull_control_set(
	struct lull_fwd *fwd, const char *key, const char *value, char *err, size_t errlen);

/**
 * `port-add DEVARGS [PEER]`: probe a device, start it, and forward it with
 * PEER (the name of a port added earlier that waits for a pair, or "self");
 * without PEER it waits for a later port-add to name it. *id gets its port id.
 */
int lull_control_port_add(struct lull_fwd *fwd, const char *devargs, const char *peer, uint16_t *id,
	char *err, size_t errlen);

/** `port-del NAME`: stop polling it (every PMD acknowledges), then stop and detach it. */
int lull_control_port_del(struct lull_fwd *fwd, const char *name, char *err, size_t errlen);

/** Find a present port by name or decimal id; -ENODEV with a message if none. */
int lull_control_port_find(const struct lull_fwd *fwd, const char *name, char *err, size_t errlen);

/** Log a PMD's effective values (its acknowledged block): "lull: WHY: PMD ..." */
void lull_control_log_pmd(const struct lull_fwd *fwd, unsigned int i, const char *why);

/** `pmd-stats-clear`: the show commands count from now on. */
int lull_control_stats_clear(struct lull_fwd *fwd, char *err, size_t errlen);

/** Every running PMD acknowledged a block of generation gen or newer. */
bool lull_control_all_took(const struct lull_fwd *fwd, uint64_t gen);

/** Main loop tick, under the lock: finish what waited for the PMDs (a port-del
 * that timed out, once every PMD took the block without the port). */
void lull_control_tick_locked(struct lull_fwd *fwd);

#endif /* LULL_CONTROL_H */
