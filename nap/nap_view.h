/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * A polling thread's counters as the views show them, for every host of the
 * engine (lull's telemetry and stats table, and the engine attached to other
 * programs): the counters' names, derived figures, and the telemetry dicts.
 */
#ifndef LULL_NAP_VIEW_H
#define LULL_NAP_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_telemetry.h>

#include "hist.h"
#include "lull_nap.h"

/**
 * What a thread's counters mean, derived once for the stats table and telemetry:
 * shares of its cycles, cycles per packet, mean wait and mean oversleep.
 */
struct lull_pmd_derived {
	uint64_t used_tsc;         /**< busy + idle + waiting */
	double busy_pct;           /**< cycles in iterations that received packets */
	double sleep_pct;          /**< cycles waiting */
	double cycles_per_pkt;     /**< busy cycles per received packet */
	uint64_t avg_sleep_ns;     /**< mean timed wait, as it took */
	uint64_t avg_oversleep_ns; /**< mean of (as it took - as asked) */
};

/** The telemetry name of counter stat (enum lull_pmd_stat): "iterations", ... */
const char *lull_pmd_stat_name(unsigned int stat);

/** The telemetry name of cost-model gauge k (enum lull_pmd_model): "late_p99_ns", ... */
const char *lull_pmd_model_name(unsigned int k);

/** Derive from counters stats (indexed by enum lull_pmd_stat) and rx packets. */
void lull_pmd_derive(const uint64_t *stats, uint64_t rx, struct lull_pmd_derived *d);

/** A percentage as telemetry shows it: a string with one decimal. */
void lull_nap_tel_pct(struct rte_tel_data *d, const char *name, double pct);

/** PREFIX_p50, _p90, _p99 and _max of h. */
void lull_nap_tel_quantiles(struct rte_tel_data *d, const char *prefix, const struct lull_hist *h);

/** The counters /lull/pmd_perf shows, into dict c: time base, every counter,
 * packets, busy and sleep shares, bursts and sleeps by quantile. */
void lull_nap_tel_perf(struct rte_tel_data *c, const uint64_t *stats, uint64_t rx, uint64_t tx,
	uint64_t duration_tsc, const struct lull_hist *burst_pkts,
	const struct lull_hist *sleep_ns);

/** An emit callback of lull_opt_describe() into telemetry dict ctx: the
 * option's name with '-' as '_' (telemetry names take [A-Za-z0-9_]). */
void lull_nap_tel_config_emit(void *ctx, const char *key, const char *value);

/** The reply of /lull/set: the key, its value and the generation that holds it. */
void lull_nap_tel_set_reply(
	struct rte_tel_data *d, const char *key, const char *value, uint64_t gen);

/** An array of the space-separated words of words (changed) into d (/lull/settable). */
void lull_nap_tel_words(struct rte_tel_data *d, char *words);

/** What a thread's policy promises about line-rate bursts (the views and the start-up log). */
struct lull_burst_view {
	uint32_t ring;         /**< the smallest polled rx ring, descriptors */
	uint16_t ring_port;    /**< whose */
	double line_mpps;      /**< line rate in 64-byte frames, Mpps */
	bool line_assumed;     /**< no link speed: 10 GbE assumed */
	double fill_us;        /**< the ring fills in this at line rate */
	uint32_t tolerance;    /**< largest burst that fits if it comes as the PMD falls
				    asleep for its maximum (lateness_us included); 0 = any */
	uint32_t asked;        /**< --burst-tolerance */
	double cap_us;         /**< sleeps capped here for it; < 0 = no cap */
	uint32_t ring_for_any; /**< a ring this large (power of two) absorbs any burst */
};

/** The burst view of policy p whose smallest ring is ring_port's, with
 * lateness_us of wake lateness assumed. */
void lull_nap_burst_view(const struct lull_policy_params *p, uint16_t ring_port, bool line_assumed,
	double lateness_us, struct lull_burst_view *v);

/** A thread's settings in force, as /lull/pmd_sleep shows them (lull's PMDs
 * and the threads of the engine attached to another program alike). */
struct lull_nap_settings {
	const struct lull_policy_params *policy;
	const char *wake;        /**< lull_waiter_describe() */
	const char *wake_inject; /**< lull_slowwake_name_of() */
	uint64_t timer_slack_ns;
	uint64_t intr_after_ns;
	int intr_wait_max_ms;
	uint32_t drain_us;
	uint32_t yield_hz, yield_us;
	uint32_t wake_priority; /**< --wake-priority, 0 = none */
	unsigned int rx_queues; /**< sources polled */
	uint64_t generation;
	uint16_t ring_port; /**< whose ring is the smallest */
	bool line_assumed;  /**< no link speed: 10 GbE assumed */
	int tid;            /**< its kernel thread id, 0 if not known */
};

/** /lull/pmd_sleep's dict for one thread into c: settings s, the sleeps of
 * counters stats (since the last clear) with rx packets, and nap's cost model. */
void lull_nap_tel_sleep(struct rte_tel_data *c, const struct lull_nap_settings *s,
	const uint64_t *stats, uint64_t rx, const struct lull_nap *nap);

#endif /* LULL_NAP_VIEW_H */
