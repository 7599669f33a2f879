/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * The sleep-policy options that lull and lull-sim share: one struct, one set
 * of option rows (names, bounds, defaults, help), and one conversion to the
 * parameters of lib/policy. lull-sim includes the same rows, so its policy
 * options are lull's, by name and default.
 */
#ifndef LULL_SLEEPOPT_H
#define LULL_SLEEPOPT_H

#include <stdbool.h>
#include <stdint.h>

#include "opt.h"
#include "policy.h"
#include "sleeplist.h"

#define LULL_DEFAULT_SLEEP_MAX_US 250

struct lull_sleep_opts {
	enum lull_policy_kind policy; /**< --sleep-policy */
	struct lull_sleeplist max_us; /**< --sleep-max-us: per-PMD maximum (OVS list syntax) */
	uint32_t budget_us;           /**< --latency-budget-us (rate) */
	uint32_t step_us;             /**< --sleep-step-us */
	uint32_t busy_threshold;      /**< --busy-threshold; 0 = half the burst */
	uint32_t window;              /**< --sleep-window (window) */
	uint32_t linger_us;           /**< --linger-us (rate) */
	uint32_t burst_tol;           /**< --burst-tolerance: packets; 0 = no guarantee */
	bool strict_budget;           /**< --strict-budget: keep the budget at p99 or poll */
};

/** The rows' defaults (a tool whose table holds the rows gets them from it). */
void lull_sleep_opts_defaults(struct lull_sleep_opts *s);

/**
 * Policy parameters for the PMD on core with rx burst burst and smallest ring
 * min_ring. A maximum of 0 means busy polling (policy off), as in OVS.
 */
void lull_sleep_opts_params(const struct lull_sleep_opts *s, unsigned int core, uint32_t burst,
	uint32_t min_ring, struct lull_policy_params *p);

lull_opt_parse_fn lull_sleep_opt_parse_policy;
lull_opt_show_fn lull_sleep_opt_show_policy;
lull_opt_parse_fn lull_sleep_opt_parse_max;
lull_opt_show_fn lull_sleep_opt_show_max;

/**
 * The shared rows, for a tool whose configuration type holds a struct
 * lull_sleep_opts member; busy_show shows the busy threshold in force (it
 * depends on the tool's burst), or NULL.
 */
#define LULL_SLEEP_OPT_ROWS(type, member, busy_show)                                               \
	LULL_OPT_TEXT_ROW(type, member.policy, "sleep-policy", "P", "rate",                        \
		"off (busy polling), ovs (OVS 3.1: +step per light iteration, reset when a burst " \
		"reaches the busy threshold), window (the same judged over the last W "            \
		"iterations), rate (from the arrival rate, within the latency budget and the rx "  \
		"ring)",                                                                           \
		NULL, LULL_OPT_SETTABLE, lull_sleep_opt_parse_policy, lull_sleep_opt_show_policy), \
		LULL_OPT_TEXT_ROW(type, member.max_us, "sleep-max-us", "LIST",                     \
			LULL_OPT_STR(LULL_DEFAULT_SLEEP_MAX_US),                                   \
			"maximum sleep per PMD, OVS pmd-sleep-max syntax: 250,3:0,5:50 = 250 us, " \
			"0 on core 3 (it busy-polls), 50 on core 5; at most 10000",                \
			NULL, LULL_OPT_SETTABLE, lull_sleep_opt_parse_max,                         \
			lull_sleep_opt_show_max),                                                  \
		LULL_OPT_UINT_ROW(type, member.budget_us, "latency-budget-us", "U", 0,             \
			LULL_MAX_SLEEP_NS / 1000, "250",                                           \
			"rate: latency a sleep may add, oversleep of the backend included",        \
			LULL_OPT_SETTABLE),                                                        \
		LULL_OPT_UINT_ROW(type, member.step_us, "sleep-step-us", "U", 1, 1000, "1",        \
			"ovs/window ramp step; rate: shortest sleep worth taking",                 \
			LULL_OPT_SETTABLE),                                                        \
		{.kind = LULL_OPT_UINT,                                                            \
			.name = "busy-threshold",                                                  \
			.meta = "N",                                                               \
			.offset = offsetof(type, member.busy_threshold),                           \
			.size = LULL_OPT_FIELD_SIZE(type, member.busy_threshold),                  \
			.min = 1,                                                                  \
			.max = 512,                                                                \
			.def = "burst/2",                                                          \
			.help = "packets in one rx burst that mean busy",                          \
			.flags = LULL_OPT_SETTABLE | LULL_OPT_DEF_PROSE,                           \
			.show = (busy_show)},                                                      \
		LULL_OPT_UINT_ROW(type, member.window, "sleep-window", "W", 1,                     \
			LULL_POLICY_MAX_WIN, "64", "window: iterations of history",                \
			LULL_OPT_SETTABLE),                                                        \
		LULL_OPT_UINT_ROW(type, member.linger_us, "linger-us", "U", 0, 1000000, "20",      \
			"rate: keep polling this long after a packet of sparse traffic, while "    \
			"that catches follow-ups (replies)",                                       \
			LULL_OPT_SETTABLE),                                                        \
		LULL_OPT_UINT_ROW(type, member.burst_tol, "burst-tolerance", "N", 0, 1u << 20,     \
			"0: none asked",                                                           \
			"a line-rate burst of N packets that arrives as a PMD falls asleep must "  \
			"fit: above the smallest rx ring, every sleep is capped at the ring's "    \
			"fill "                                                                    \
			"time at line rate minus the measured lateness (below it nothing needs "   \
			"capping)",                                                                \
			LULL_OPT_SETTABLE | LULL_OPT_DEF_PROSE),                                   \
		LULL_OPT_TEXT_ROW(type, member.strict_budget, "strict-budget", "M", "off",         \
			"rate: on keeps the budget at p99 or busy-polls; off: where this "         \
			"machine's wakes leave no sleep within it at p99, keep p95, p90, p75 or "  \
			"p50, and below the median lateness sleep the budget itself (misses "      \
			"counted): light traffic is never busy-polled",                            \
			NULL, LULL_OPT_SETTABLE, lull_opt_parse_onoff, lull_opt_show_onoff)

#endif /* LULL_SLEEPOPT_H */
