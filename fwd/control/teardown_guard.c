/* SPDX-License-Identifier: BSD-3-Clause */
#include "teardown_guard.h"

#include <string.h>

#include "log.h"
#include "teardown.h"

void
lull_teardown_guard_init(void)
{
	int ret = lull_teardown_init();

	if (ret < 0)
		LULL_LOG(INFO,
			"membarrier: %s; a driver's teardown waits a little longer for the PMDs",
			strerror(-ret));
}

void
lull_teardown_guard_report(void)
{
	char what[128];

	if (lull_teardown_describe(what, sizeof(what)))
		LULL_LOG(INFO, "driver teardowns that waited for the PMDs: %s", what);
}
