/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * SIGINT/SIGTERM as a flag: the handler only stores to an atomic, the main
 * loop polls it. Shared by lull and lull-gen.
 */
#ifndef LULL_QUIT_H
#define LULL_QUIT_H

#include <stdatomic.h>
#include <stdbool.h>

/** Install the handlers for SIGINT and SIGTERM. */
void lull_quit_install(void);

/** True once a stop signal arrived. */
bool lull_quit_requested(void);

/** The flag itself, for loops that read it with their own ordering. */
const atomic_bool *lull_quit_flag(void);

/** Index of "--" in argv, or argc when there is none. */
int lull_argv_separator(int argc, char **argv);

#endif /* LULL_QUIT_H */
