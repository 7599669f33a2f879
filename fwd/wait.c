/* SPDX-License-Identifier: BSD-3-Clause */
#include "wait.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_cpuflags.h>
#include <rte_cycles.h>
#include <rte_pause.h>
#include <rte_power_intrinsics.h>

static struct rte_cpu_intrinsics
cpu_intrinsics(void)
{
	struct rte_cpu_intrinsics intr;

	memset(&intr, 0, sizeof(intr));
	rte_cpu_get_intrinsics_support(&intr);
	return intr;
}

int
lull_waiter_init(struct lull_waiter *w, enum lull_wake_kind kind, char *err, size_t errlen)
{
	memset(w, 0, sizeof(*w));
	w->tsc_hz = rte_get_tsc_hz();
	switch (kind) {
	case LULL_WAKE_AUTO:
		w->kind = LULL_WAKE_NANOSLEEP;
		w->tpause_short = cpu_intrinsics().power_pause;
		return 0;
	case LULL_WAKE_MONITOR:
		if (!(cpu_intrinsics().power_monitor && cpu_intrinsics().power_monitor_multi)) {
			snprintf(err, errlen,
				"--wake: bad value 'monitor' (this CPU has no monitor/mwait "
				"intrinsics for DPDK; use auto, nanosleep or pause)");
			return -ENOTSUP;
		}
		w->kind = kind;
		return 0;
	case LULL_WAKE_TPAUSE:
		if (!cpu_intrinsics().power_pause) {
			snprintf(err, errlen,
				"--wake: bad value 'tpause' (this CPU has no WAITPKG/TPAUSE; use "
				"auto, nanosleep or pause)");
			return -ENOTSUP;
		}
		/* fall through */
	case LULL_WAKE_NANOSLEEP:
	case LULL_WAKE_PAUSE:
		w->kind = kind;
		return 0;
	default:
		snprintf(err, errlen, "--wake: unknown backend %d", (int)kind);
		return -EINVAL;
	}
}

void
lull_waiter_wait(const struct lull_waiter *w, uint64_t ns)
{
	uint64_t deadline_tsc;

	if (w->kind == LULL_WAKE_NANOSLEEP && !(w->tpause_short && ns < LULL_TPAUSE_MAX_NS)) {
		struct timespec ts = {
			.tv_sec = (time_t)(ns / 1000000000), .tv_nsec = (long)(ns % 1000000000)};

		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		return;
	}
	deadline_tsc = rte_rdtsc() + ns * w->tsc_hz / 1000000000;
	if (w->kind == LULL_WAKE_PAUSE) {
		while (rte_rdtsc() < deadline_tsc)
			rte_pause();
		return;
	}
	rte_power_pause(deadline_tsc); /* tpause, or auto's short waits */
}

const char *
lull_waiter_describe(const struct lull_waiter *w)
{
	if (w->tpause_short)
		return "tpause (< 50 us) + nanosleep";
	return lull_wake_name(w->kind);
}
