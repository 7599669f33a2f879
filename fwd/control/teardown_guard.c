/* SPDX-License-Identifier: BSD-3-Clause */
#include "teardown_guard.h"

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <string.h>

#include <rte_interrupts.h>

#include "log.h"
#include "quiesce.h"

typedef int unregister_fn(const struct rte_intr_handle *, rte_intr_callback_fn, void *);

static _Atomic(unregister_fn *) real_unregister;

void
lull_teardown_guard_init(void)
{
	int ret = lull_quiesce_init();

	if (ret < 0)
		LULL_LOG(INFO,
			"membarrier: %s; a driver's teardown waits a little longer for the PMDs",
			strerror(-ret));
}

void
lull_teardown_guard_report(void)
{
	struct lull_quiesce_stats st;

	lull_quiesce_stats(&st);
	if (st.periods > 0)
		LULL_LOG(INFO,
			"driver teardowns that waited for the PMDs: %" PRIu64
			" (longest %.1f us, %" PRIu64 " gave up after %u ms)",
			st.periods, (double)st.longest_ns / 1000.0, st.timeouts,
			LULL_TEARDOWN_GUARD_MAX_MS);
}

/* The drivers EAL loads call this one (lull's executable exports it, meson.build);
 * the work is EAL's, then the grace period, before the driver frees anything. */
int
rte_intr_callback_unregister(
	const struct rte_intr_handle *intr_handle, rte_intr_callback_fn cb, void *cb_arg)
{
	unregister_fn *real = atomic_load(&real_unregister);
	int ret;

	if (real == NULL) {
		real = (unregister_fn *)dlsym(RTLD_NEXT, "rte_intr_callback_unregister");
		if (real == NULL)
			return -ENOSYS;
		atomic_store(&real_unregister, real);
	}
	ret = real(intr_handle, cb, cb_arg);
	if (lull_quiesce_wait((uint64_t)LULL_TEARDOWN_GUARD_MAX_MS * 1000000) < 0)
		LULL_LOG(WARNING,
			"a driver's teardown went on after %u ms with a PMD still polling "
			"(a preempted PMD may read what the driver frees)",
			LULL_TEARDOWN_GUARD_MAX_MS);
	return ret;
}
