/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * The wire contract of a PMD's counters, written once for lull and lullctl:
 * each row is X(ID, key, metric, unit, help) - the datapath's enum entry
 * (LULL_PMD_<ID>, LULL_MODEL_<ID>), the key in telemetry and lullctl's JSON,
 * the Prometheus family (without lull_; NULL: not exported), the unit the
 * exporter converts from, and the family's help. lull generates its enums
 * and telemetry keys from the rows, lullctl its families and the keys it
 * reads (LULL_KEY_<ID>), so a renamed counter fails to compile instead of
 * going missing at run time. Pure C, no DPDK.
 */
#ifndef LULL_CONTRACT_H
#define LULL_CONTRACT_H

#include <stdbool.h>
#include <stddef.h>

/** What a value counts, for the exporter (Prometheus wants seconds). */
enum lull_unit {
	LULL_UNIT_COUNT,  /**< a count or a rate: as is */
	LULL_UNIT_CYCLES, /**< TSC cycles: seconds with the PMD's tsc_hz */
	LULL_UNIT_NS,     /**< nanoseconds: seconds */
	LULL_UNIT_US,     /**< microseconds (a setting): seconds */
};

/** A PMD's counters (sums since start; pmd-stats-clear takes a baseline). */
#define LULL_PMD_STATS(X)                                                                          \
	X(ITERATIONS, "iterations", "pmd_iterations_total", COUNT, "Loop iterations.")             \
	X(BUSY_ITERATIONS, "busy_iterations", "pmd_busy_iterations_total", COUNT,                  \
		"Iterations that received a packet.")                                              \
	X(BUSY_TSC, "busy_cycles", "pmd_busy_seconds_total", CYCLES,                               \
		"Time in iterations that received packets (processing and tx).")                   \
	X(IDLE_TSC, "idle_cycles", "pmd_idle_seconds_total", CYCLES,                               \
		"Time in polls that found nothing.")                                               \
	X(SLEEP_TSC, "sleep_cycles", "pmd_wait_seconds_total", CYCLES,                             \
		"Time in waits the policy chose (timed sleeps, interrupt waits, yields).")         \
	X(SLEEPS, "sleeps", "pmd_waits_total", COUNT, "Waits of every kind.")                      \
	X(SLEEP_REQ_NS, "sleep_requested_ns", "pmd_wait_requested_seconds_total", NS,              \
		"Sum of the waits the policy asked for.")                                          \
	X(SLEEP_ACT_NS, "sleep_actual_ns", "pmd_wait_actual_seconds_total", NS,                    \
		"Sum of the waits as they took.")                                                  \
	X(MAX_SLEEP_HITS, "max_sleep_hits", "pmd_max_sleep_hits_total", COUNT,                     \
		"Waits of the PMD's maximum.")                                                     \
	X(BUSY_HITS, "busy_threshold_hits", "pmd_busy_threshold_hits_total", COUNT,                \
		"Iterations in which a burst reached the busy threshold.")                         \
	X(INTR_WAITS, "intr_waits", "pmd_intr_waits_total", COUNT, "Waits for an rx interrupt.")   \
	X(INTR_WAKES, "intr_wakes", "pmd_intr_wakes_total", COUNT,                                 \
		"Interrupt waits ended by an interrupt.")                                          \
	X(INTR_EMPTY, "intr_empty_wakes", "pmd_intr_empty_wakes_total", COUNT,                     \
		"Interrupt wakes whose next poll found nothing.")                                  \
	X(YIELDS, "yields", "pmd_yields_total", COUNT, "Housekeeping yields (--yield-hz).")        \
	X(YIELD_TSC, "yield_cycles", "pmd_yield_seconds_total", CYCLES,                            \
		"Of the wait time, in housekeeping yields.")                                       \
	X(FULL_BURSTS, "full_bursts", "pmd_full_bursts_total", COUNT, "Rx bursts that came full.") \
	X(INTR_TSC, "intr_cycles", "pmd_intr_wait_seconds_total", CYCLES,                          \
		"Of the wait time, in rx-interrupt waits.")                                        \
	X(BUDGET_MISSES, "budget_misses", "pmd_budget_misses_total", COUNT,                        \
		"Timed waits longer than the latency budget (ovs, window: their maximum).")        \
	X(EARLY_WAKES, "early_wakes", "pmd_early_wakes_total", COUNT,                              \
		"tpause/monitor returns before their deadline.")                                   \
	X(CTL_WAKES, "control_wakes", "pmd_control_wakes_total", COUNT,                            \
		"Interrupt waits ended by the control plane.")                                     \
	X(PARKED_TSC, "parked_cycles", "pmd_parked_seconds_total", CYCLES,                         \
		"Time parked by consolidation (no rx queue, no timer).")                           \
	X(PARKS, "parks", "pmd_parks_total", COUNT, "Times the PMD was parked.")                   \
	X(PRIO_RAISES, "wake_priority_raises", "pmd_wake_priority_raises_total", COUNT,            \
		"Times the PMD went to SCHED_FIFO for its waits (--wake-priority).")               \
	X(PRIO_DROPS, "wake_priority_drops", "pmd_wake_priority_drops_total", COUNT,               \
		"Times it went back after polling without a wait (--wake-priority).")

/** The cost model as the PMD last saw it: gauges. */
#define LULL_PMD_MODEL(X)                                                                          \
	X(LATE_P50_NS, "late_p50_ns", "pmd_wake_lateness_p50_seconds", NS,                         \
		"Timed waits' lateness (the sleep's own), recent median.")                         \
	X(LATE_P99_NS, "late_p99_ns", "pmd_wake_lateness_p99_seconds", NS,                         \
		"Timed waits' lateness (the sleep's own), recent 99th percentile.")                \
	X(LATE_MEAN_NS, "late_mean_ns", NULL, NS, NULL)                                            \
	X(TIMED_CPU_NS, "timed_wait_cpu_ns", "pmd_timed_wait_cpu_seconds", NS,                     \
		"CPU time of one timed wait (0: not measured).")                                   \
	X(INTR_CPU_NS, "intr_wait_cpu_ns", "pmd_intr_wait_cpu_seconds", NS,                        \
		"CPU time of one interrupt wait (0: not measured).")                               \
	X(CPU_SAMPLES, "cpu_samples", NULL, COUNT, NULL)                                           \
	X(RATE_PPS, "rate_pps", "pmd_arrival_rate_pps", COUNT,                                     \
		"Arrival rate the policy estimates.")                                              \
	X(PEAK_PPS, "peak_pps", NULL, COUNT, NULL)                                                 \
	X(SLEEP_NS, "planned_sleep_ns", "pmd_planned_sleep_seconds", NS,                           \
		"The last timed sleep planned.")                                                   \
	X(INTR_BELOW_PPS, "intr_below_pps", NULL, COUNT, NULL)                                     \
	X(MODE, "mode", NULL, COUNT, NULL)                                                         \
	X(KEPT_PCT, "kept_pct", "pmd_kept_lateness_percentile", COUNT,                             \
		"Lateness percentile rate's sleeps keep within the budget (99; lower where the "   \
		"p99 is out of reach).")                                                           \
	X(KEPT_LATE_NS, "kept_late_ns", NULL, NS, NULL)                                            \
	X(QUEUED_NS, "queued_ns", "pmd_wake_queued_seconds", NS,                                   \
		"Run-queue delay of a timed wait, smoothed (another thread had the CPU; not "      \
		"charged to the budget).")                                                         \
	X(QUEUED_WAITS, "queued_waits", NULL, COUNT, NULL)                                         \
	X(TAIL_LATE_NS, "tail_late_ns", NULL, NS, NULL)                                            \
	X(TAIL_STALL_NS, "tail_stall_ns", NULL, NS, NULL)                                          \
	X(TAIL_CAP_NS, "tail_cap_ns", NULL, NS, NULL)                                              \
	X(TAIL_HOLD_NS, "tail_hold_ns", NULL, NS, NULL)                                            \
	X(HARM_PEAK_PPS, "harm_peak_pps", NULL, COUNT, NULL)                                       \
	X(LATE_UNSEEN, "late_unseen", NULL, COUNT, NULL)

/** The keys, as constants: LULL_KEY_<ID> (lullctl reads replies by them). */
#define LULL_CONTRACT_KEY_(id, key, metric, unit, help) static const char LULL_KEY_##id[] = key;
LULL_PMD_STATS(LULL_CONTRACT_KEY_)
LULL_PMD_MODEL(LULL_CONTRACT_KEY_)
#undef LULL_CONTRACT_KEY_

/**
 * The telemetry commands and the lullctl commands that send them:
 * X(ID, path, help in DPDK's list (under 64 characters: DPDK 22.11 refuses
 * longer), writes (left out with --ctl read-only), per_pmd (asked PMD by
 * PMD: a reply of many passes DPDK's 16 KB), lullctl name (NULL: none), its
 * arguments as usage shows them, their least and most count, its help).
 */
#define LULL_COMMANDS(X)                                                                           \
	X(PMD_PERF, "/lull/pmd_perf", "PMD perf and sleep counters. Param: lcore", false, true,    \
		"pmd-perf-show", "[-pmd CORE]", 0, 2,                                              \
		"per-PMD iterations, cycles, packets, sleeps, histograms")                         \
	X(PMD_SLEEP, "/lull/pmd_sleep", "PMD sleep settings in force. Param: lcore", false, true,  \
		"pmd-sleep-show", "", 0, 0, "per-PMD sleep settings in force and sleep averages")  \
	X(STATS_CLEAR, "/lull/stats_clear", "Clear PMD stats", true, false, "pmd-stats-clear", "", \
		0, 0, "count pmd-perf-show and pmd-rxq-show from now")                             \
	X(PMD_RXQ, "/lull/pmd_rxq", "Rx queues per PMD, packet shares. Param: lcore", false, true, \
		"pmd-rxq-show", "", 0, 0, "rx queues per PMD and each one's share of packets")     \
	X(PMDS, "/lull/pmds", "The PMDs' lcores", false, false, NULL, "", 0, 0, NULL)              \
	X(PORTS, "/lull/ports", "Ports: peer, link, counters", false, false, "port-show", "", 0,   \
		0, "ports, peers, links, counters")                                                \
	X(CONFIG, "/lull/config", "Effective configuration", false, false, "config-show", "", 0,   \
		0, "the effective configuration")                                                  \
	X(SETTABLE, "/lull/settable", "Keys that /lull/set accepts", false, false, "settable", "", \
		0, 0, "the keys 'set' accepts")                                                    \
	X(SET, "/lull/set", "Change a setting. Params: KEY VALUE", true, false, "set",             \
		"KEY VALUE", 2, 2,                                                                 \
		"change a setting on the running lull, e.g. set sleep-max-us 250,3:0 (OVS "        \
		"pmd-sleep-max syntax)")                                                           \
	X(PORT_ADD, "/lull/port_add", "Add a port. Params: DEVARGS [PEER|self]", true, false,      \
		"port-add", "DEVARGS [PEER]", 1, 2,                                                \
		"probe and start a port; forward it with PEER (a port added without a peer) or "   \
		"'self'; without PEER it waits for a later port-add naming it")                    \
	X(PORT_DEL, "/lull/port_del", "Remove a port. Params: NAME", true, false, "port-del",      \
		"NAME", 1, 1, "stop forwarding a port and detach it")                              \
	X(RXQ_REBALANCE, "/lull/rxq_rebalance", "Spread rx queues by cycles", true, false,         \
		"pmd-rxq-rebalance", "", 0, 0,                                                     \
		"spread the unpinned rx queues over every PMD by their measured cycles (set "      \
		"rxq-pmd P:Q@CORE moves and pins one)")                                            \
	X(BALANCE, "/lull/balance", "Rx queue moves, consolidation, loads", false, false,          \
		"balance-show", "", 0, 0, "rx queue moves, consolidation decisions, PMD loads")

#define LULL_CMD_ENUM_(id, ...) LULL_CMD_##id,
enum lull_cmd { LULL_COMMANDS(LULL_CMD_ENUM_) LULL_N_CMDS };
#undef LULL_CMD_ENUM_

struct lull_cmd_info {
	const char *path;
	const char *help;
	bool writes;
	bool per_pmd;
	const char *ctl_name;
	const char *ctl_args;
	int ctl_min, ctl_max;
	const char *ctl_help;
};

#define LULL_CMD_INFO_(id, path, help, writes, per_pmd, name, args, min, max, ctl_help)            \
	[LULL_CMD_##id] = {path, help, writes, per_pmd, name, args, min, max, ctl_help},
/** Indexed by enum lull_cmd. */
static const struct lull_cmd_info lull_cmds[LULL_N_CMDS] = {LULL_COMMANDS(LULL_CMD_INFO_)};
#undef LULL_CMD_INFO_

#endif /* LULL_CONTRACT_H */
