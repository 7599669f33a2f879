/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * lull's option table (fwd/config/options.c: its rows and their parsers), for the
 * functions that parse, set, describe and print it (fwd/config/config_opts.c).
 */
#ifndef LULL_OPTIONS_H
#define LULL_OPTIONS_H

#include "opt.h"

/** The table, ended by its LULL_OPT_END row. */
const struct lull_opt *lull_config_opts(void);

#endif /* LULL_OPTIONS_H */
