/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Process-level helpers shared by lull and lull-gen: SIGINT/SIGTERM/SIGHUP/SIGQUIT as a flag
 * (the handler only stores to an atomic, the main loop polls it), the "--"
 * split of argv, and the EAL start. Main thread only.
 */
#ifndef LULL_APP_H
#define LULL_APP_H

#include <stddef.h>

#include <stdatomic.h>
#include <stdbool.h>

/** Install the handlers for SIGINT, SIGTERM, SIGHUP and SIGQUIT; ignore SIGPIPE. */
void lull_quit_install(void);

/** True once a stop signal arrived. */
bool lull_quit_requested(void);

/** The flag itself, for loops that read it with their own ordering. */
const atomic_bool *lull_quit_flag(void);

/**
 * `NAME --version` or `NAME -- --version` (EAL is not started for it): print
 * "NAME VERSION (DPDK x.y.z)" and return true.
 */
bool lull_version_asked(int argc, char **argv, const char *name);

/** Index of "--" in argv, or argc when there is none. */
int lull_argv_separator(int argc, char **argv);

/**
 * Start EAL on argv[0..n_eal) with usage (printed after EAL's own --help).
 *
 * @return 0, or a negative errno with a message in err.
 */
int lull_eal_start(
	int n_eal, char **argv, void (*usage)(const char *prog), char *err, size_t errlen);

#endif /* LULL_APP_H */
