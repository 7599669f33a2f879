/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * The /lull/ telemetry commands: every show and set, readable with
 * dpdk-telemetry.py and any DPDK telemetry client (lullctl formats them).
 * Commands run on DPDK's telemetry threads and take fwd->lock.
 */
#ifndef LULL_TELEMETRY_H
#define LULL_TELEMETRY_H

#include <stddef.h>

#include "fwd.h"

/** Register the commands for fwd. @return 0 or a negative errno with a message. */
int lull_telemetry_register(struct lull_fwd *fwd, char *err, size_t errlen);

#endif /* LULL_TELEMETRY_H */
