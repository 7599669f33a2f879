/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * lull's figures in the Prometheus text exposition format (0.0.4, what
 * `promtool check metrics` checks and every Prometheus scrapes): per PMD
 * (label pmd="CORE"), per port (port="NAME") and per rx queue, counters as
 * _total, the configuration in force as lull_config_info, and lull_up.
 */
#ifndef LULLCTL_METRICS_H
#define LULLCTL_METRICS_H

#include <stdio.h>

/** The Content-Type of what lullctl_metrics_write() prints. */
#define LULLCTL_METRICS_TYPE "text/plain; version=0.0.4; charset=utf-8"

/**
 * Ask the lull at the telemetry socket path for every figure and print them.
 * A lull that cannot be reached (not running, stopping) is `lull_up 0` and
 * nothing else; err says why.
 *
 * @return 0 when lull answered, else a negative errno (the text is still
 *   complete and valid).
 */
int lullctl_metrics_write(FILE *out, const char *path, char *err, size_t errlen);

#endif /* LULLCTL_METRICS_H */
