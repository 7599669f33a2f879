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
#include "publish.h"

/** What every command answers once lull is being torn down (fwd->gone). */
#define LULL_STOPPING "lull is stopping"

/** `set KEY VALUE`: one run-time setting (see lull_config_settable()); placement
 * (rxq-pmd) is lull_balance_move(), which the API calls itself. */
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

/** `pmd-stats-clear`: the show commands count from now on. */
int lull_control_stats_clear(struct lull_fwd *fwd, char *err, size_t errlen);

/** Main loop tick, under the lock: finish what waited for the PMDs (a port-del
 * that timed out, once every PMD took the block without the port). */
void lull_control_tick_locked(struct lull_fwd *fwd);

#endif /* LULL_CONTROL_H */
