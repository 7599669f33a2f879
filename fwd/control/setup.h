/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Bringing a forwarder up and down around its PMD threads: after EAL and the
 * options, resolve the topology, check and start the ports, create the mbuf
 * pool and the PMDs (not launched); at the end, free all of it. The same steps
 * for lull's main() and for the control plane's unit test (tests/unit/
 * test_control.c), which plays the PMDs' side itself.
 */
#ifndef LULL_SETUP_H
#define LULL_SETUP_H

#include <stddef.h>

#include "fwd.h"

/**
 * From fwd->cfg as parsed (EAL up): resolve it against what EAL found, then
 * check the ports, create the pool, start the ports and create the PMDs.
 * @return 0, or a negative errno with a message in err; what was set up is
 *   freed by lull_fwd_teardown() either way.
 */
int lull_fwd_setup(struct lull_fwd *fwd, char *err, size_t errlen);

/**
 * After the PMDs returned (fwd->n_launched == 0): mark fwd gone under the lock
 * (every control command from now on answers LULL_STOPPING), close the ports,
 * free the PMDs and the pool.
 * @return 0, or -EFAULT when mbufs were not all back in the pool.
 */
int lull_fwd_teardown(struct lull_fwd *fwd);

#endif /* LULL_SETUP_H */
