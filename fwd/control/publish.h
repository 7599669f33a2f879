/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Publication: a configuration becomes every PMD's parameter block, handed
 * over with the one wait for each PMD's acknowledgement (lull_pmd_publish()).
 * The layer under every change - set and ports (control.c), placement
 * (balance.c) - which call it under fwd->lock and never each other.
 */
#ifndef LULL_PUBLISH_H
#define LULL_PUBLISH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fwd.h"

/** How long a change waits for every PMD to take it. */
#define LULL_CTL_ACK_TIMEOUT_MS 2000

/**
 * Build every PMD's params block from cfg and hand them over; on success cfg
 * becomes fwd->cfg and the effective per-PMD values are logged (why: a word
 * for the log line, "set sleep-max-us").
 *
 * @return 0 or a negative errno with a message in err. On -ETIMEDOUT the
 *   change is committed and the slow PMD takes it at its next tick.
 */
int lull_publish_locked(struct lull_fwd *fwd, const struct lull_config *cfg, const char *why,
	char *err, size_t errlen);

/**
 * Whether cfg could be applied now: every PMD's block builds (no PMD past
 * LULL_PMD_MAX_RXQS queues) and its tx buffers exist (they are kept). Nothing
 * is published.
 *
 * @return 0 or a negative errno with a message in err.
 */
int lull_publish_check_locked(
	struct lull_fwd *fwd, const struct lull_config *cfg, char *err, size_t errlen);

/**
 * After the PMDs were launched: wait until each runs, give them their
 * --pmd-priority and place the control threads (--control-cores).
 */
int lull_publish_pin_threads(struct lull_fwd *fwd, char *err, size_t errlen);

/** Log a PMD's effective values (its acknowledged block): "lull: WHY: PMD ..." */
void lull_publish_log_pmd(const struct lull_fwd *fwd, unsigned int i, const char *why);

/** A change of the configuration: edits draft, a copy of fwd->cfg, and
 * publishes it (or returns an error and nothing changes); under fwd->lock. */
typedef int lull_change_fn(
	struct lull_fwd *fwd, struct lull_config *draft, const void *arg, char *err, size_t errlen);

/**
 * The one change transaction of set, ports and placement: take fwd->lock,
 * refuse while lull is starting or stopping (-EAGAIN), call fn on a copy of
 * fwd->cfg (on the heap: a telemetry thread's stack is small), free the copy.
 * what names the change for "out of memory".
 *
 * @return what fn returned, -EAGAIN or -ENOMEM, with a message in err.
 */
int lull_publish_change(struct lull_fwd *fwd, const char *what, lull_change_fn *fn, const void *arg,
	char *err, size_t errlen);

/** A heap copy of fwd->cfg to edit under fwd->lock (free() it); NULL without memory. */
struct lull_config *lull_publish_draft_locked(const struct lull_fwd *fwd);

/** Every running PMD acknowledged a block of generation gen or newer. */
bool lull_publish_all_took(const struct lull_fwd *fwd, uint64_t gen);

#endif /* LULL_PUBLISH_H */
