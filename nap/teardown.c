/* SPDX-License-Identifier: BSD-3-Clause */
#include "teardown.h"

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>

#include <rte_interrupts.h>

#include "quiesce.h"

typedef int unregister_fn(const struct rte_intr_handle *, rte_intr_callback_fn, void *);

static _Atomic(unregister_fn *) real_unregister;

int
lull_teardown_init(void)
{
	return lull_quiesce_init();
}

bool
lull_teardown_describe(char *buf, size_t len)
{
	struct lull_quiesce_stats st;

	lull_quiesce_stats(&st);
	if (st.periods == 0)
		return false;
	snprintf(buf, len, "%" PRIu64 " (longest %.1f us, %" PRIu64 " gave up after %u ms)",
		st.periods, (double)st.longest_ns / 1000.0, st.timeouts, LULL_TEARDOWN_MAX_MS);
	return true;
}

/* The drivers EAL loads call this one: EAL's work, then the grace period,
 * before the driver frees what the polling threads may still read. */
int
rte_intr_callback_unregister(
	const struct rte_intr_handle *intr_handle, rte_intr_callback_fn cb, void *cb_arg)
{
	unregister_fn *real = atomic_load(&real_unregister);
	int ret;

	if (real == NULL) {
		real = (unregister_fn *)dlsym(RTLD_NEXT, "rte_intr_callback_unregister");
		if (real == NULL)
			return -ENOSYS; /* no EAL after this object: nothing was registered */
		atomic_store(&real_unregister, real);
	}
	ret = real(intr_handle, cb, cb_arg);
	if (lull_quiesce_wait((uint64_t)LULL_TEARDOWN_MAX_MS * 1000000) < 0)
		fprintf(stderr,
			"lull: a driver's teardown went on after %u ms with a polling thread "
			"still inside its poll (one preempted there may read what the driver "
			"frees)\n",
			LULL_TEARDOWN_MAX_MS);
	return ret;
}
