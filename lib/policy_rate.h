/* SPDX-License-Identifier: BSD-3-Clause */
/* The rate policy behind lull_policy_decide() (lib/policy_rate.c). Internal. */
#ifndef LULL_POLICY_RATE_H
#define LULL_POLICY_RATE_H

#include <stdbool.h>
#include <stdint.h>

#include "policy.h"

/* Linger is kept while at least a quarter of lingers, and twice as many as
 * chance would, end with a packet (a reply that follows a request); otherwise
 * one linger in LINGER_PROBE re-measures. */
#define LINGER_ONE   256u
#define LINGER_KEEP  (LINGER_ONE / 4)
#define LINGER_PROBE 16u

static inline uint64_t
min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static inline uint64_t
max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* No linger: none asked, or traffic dense enough to expect a packet in one. */
static inline bool
linger_off(const struct lull_policy *pol)
{
	return pol->p.linger_ns == 0 || pol->rate_ppns * (double)pol->p.linger_ns >= 1.0;
}

/* pkts over the time from since_ns to now_ns, packets per ns; 0 without time. */
static inline double
per_ns(uint64_t pkts, uint64_t since_ns, uint64_t now_ns)
{
	return now_ns > since_ns ? (double)pkts / (double)(now_ns - since_ns) : 0;
}

/** rate: keep polling after a packet of sparse traffic (lib/policy_linger.c):
 * true while this iteration of n packets should. */
bool lull_policy_linger(struct lull_policy *pol, uint64_t now_ns, uint64_t n);

/** The tail rule (lib/policy_tail.c): the rule keeps the PMD polling at
 * now_ns (its hold ages the tail by time). */
void lull_policy_tail_polled(struct lull_policy *pol, uint64_t now_ns);

/** A wake past the p99 whose lateness at the arrival rate brings fewer
 * packets than this is believed at once; one that brings more, when its spell
 * ends (lull_policy_late_seen). */
#define LULL_POLICY_LATE_SEEN_PKTS 64.0

/** The spell a wake past the p99 began ended: its lateness (held by
 * lull_policy_slept) enters the cost model as its backlog shows it. */
void lull_policy_late_seen(struct lull_policy *pol);

/** The tail rule: a wake late_ns late lost packets (its spell filled a ring),
 * seen at now_ns; on_time: no later than the p99. */
void lull_policy_tail_harm(
	struct lull_policy *pol, uint64_t late_ns, bool on_time, uint64_t now_ns);

/** rate's decision for an iteration of n packets (busy, full: its bursts):
 * the sleep in ns, 0 to poll; sets pol->mode. */
uint64_t lull_policy_decide_rate(
	struct lull_policy *pol, uint64_t now_ns, uint64_t n, bool busy, bool full);

#endif /* LULL_POLICY_RATE_H */
