/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Logging through rte_log with lull's own log type "lull" (dp/log.c), so that
 * EAL's --log-level lull:debug (or lull:warning) works and every line goes
 * where EAL's go. Each line starts with the tool's name ("lull: ...",
 * "lull-gen: ..."). Never from a PMD thread: the data plane counts, the
 * control plane logs.
 */
#ifndef LULL_LOG_H
#define LULL_LOG_H

#include <rte_log.h>

/** The "lull" log type, registered at load time (level info). */
extern int lull_logtype;

/** The prefix of every line: the tool's name (lull_log_set_name). */
const char *lull_log_name(void);

/** Set the tool's name ("lull-gen") before the first line. */
void lull_log_set_name(const char *name);

#define LULL_LOG(level, fmt, ...)                                                                  \
	rte_log(RTE_LOG_##level, lull_logtype, "%s: " fmt "\n", lull_log_name(), ##__VA_ARGS__)

#endif /* LULL_LOG_H */
