/* SPDX-License-Identifier: BSD-3-Clause */
#include "wake.h"

#include <stddef.h>

static const char *const wake_names[LULL_WAKE_N_KINDS] = {
	[LULL_WAKE_AUTO] = "auto",
	[LULL_WAKE_NANOSLEEP] = "nanosleep",
	[LULL_WAKE_PAUSE] = "pause",
	[LULL_WAKE_TPAUSE] = "tpause",
	[LULL_WAKE_MONITOR] = "monitor",
};

const char *
lull_wake_name(enum lull_wake_kind kind)
{
	return kind < LULL_WAKE_N_KINDS ? wake_names[kind] : NULL;
}
