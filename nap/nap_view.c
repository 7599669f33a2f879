/* SPDX-License-Identifier: BSD-3-Clause */
#include "nap_view.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "sched_view.h"

/* The names of the counters and gauges in telemetry and lullctl's JSON. */
#define LULL_NAME_(id, key, metric, unit, help) key,
static const char *const stat_names[LULL_PMD_N_STATS] = {LULL_PMD_STATS(LULL_NAME_)};
static const char *const model_names[LULL_PMD_N_MODEL] = {LULL_PMD_MODEL(LULL_NAME_)};
#undef LULL_NAME_

const char *
lull_pmd_stat_name(unsigned int stat)
{
	return stat < LULL_PMD_N_STATS && stat_names[stat] != NULL ? stat_names[stat] : "unknown";
}

const char *
lull_pmd_model_name(unsigned int k)
{
	return k < LULL_PMD_N_MODEL && model_names[k] != NULL ? model_names[k] : "unknown";
}

void
lull_pmd_derive(const uint64_t *stats, uint64_t rx, struct lull_pmd_derived *d)
{
	uint64_t busy_tsc = stats[LULL_PMD_BUSY_TSC], sleep_tsc = stats[LULL_PMD_SLEEP_TSC];
	uint64_t sleeps = stats[LULL_PMD_SLEEPS];
	uint64_t req_ns = stats[LULL_PMD_SLEEP_REQ_NS], act_ns = stats[LULL_PMD_SLEEP_ACT_NS];

	d->used_tsc = busy_tsc + stats[LULL_PMD_IDLE_TSC] + sleep_tsc;
	d->busy_pct = d->used_tsc ? 100.0 * (double)busy_tsc / (double)d->used_tsc : 0.0;
	d->sleep_pct = d->used_tsc ? 100.0 * (double)sleep_tsc / (double)d->used_tsc : 0.0;
	d->cycles_per_pkt = rx ? (double)busy_tsc / (double)rx : 0.0;
	d->avg_sleep_ns = sleeps ? act_ns / sleeps : 0;
	d->avg_oversleep_ns = sleeps && act_ns > req_ns ? (act_ns - req_ns) / sleeps : 0;
}

void
lull_nap_tel_pct(struct rte_tel_data *d, const char *name, double pct)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%.1f", pct);
	rte_tel_data_add_dict_string(d, name, buf);
}

void
lull_nap_tel_quantiles(struct rte_tel_data *d, const char *prefix, const struct lull_hist *h)
{
	static const struct {
		const char *name;
		double q;
	} qs[] = {{"p50", 0.5}, {"p90", 0.9}, {"p99", 0.99}, {"max", 1.0}};
	char name[48];

	for (size_t k = 0; k < sizeof(qs) / sizeof(qs[0]); k++) {
		snprintf(name, sizeof(name), "%s_%s", prefix, qs[k].name);
		rte_tel_data_add_dict_u64(d, name, lull_hist_quantile(h, qs[k].q));
	}
}

void
lull_nap_tel_perf(struct rte_tel_data *c, const uint64_t *stats, uint64_t rx, uint64_t tx,
	uint64_t duration_tsc, const struct lull_hist *burst_pkts, const struct lull_hist *sleep_ns)
{
	struct lull_pmd_derived dv;

	rte_tel_data_add_dict_u64(c, "tsc_hz", rte_get_tsc_hz());
	rte_tel_data_add_dict_u64(c, "duration_cycles", duration_tsc);
	for (unsigned int s = 0; s < LULL_PMD_N_STATS; s++)
		rte_tel_data_add_dict_u64(c, lull_pmd_stat_name(s), stats[s]);
	rte_tel_data_add_dict_u64(c, "rx_packets", rx);
	rte_tel_data_add_dict_u64(c, "tx_packets", tx);
	lull_pmd_derive(stats, rx, &dv);
	lull_nap_tel_pct(c, "busy_pct", dv.busy_pct);
	lull_nap_tel_pct(c, "sleep_pct", dv.sleep_pct);
	lull_nap_tel_quantiles(c, "burst_pkts", burst_pkts);
	lull_nap_tel_quantiles(c, "sleep_ns", sleep_ns);
}

void
lull_nap_burst_view(const struct lull_policy_params *p, uint16_t ring_port, bool line_assumed,
	double lateness_us, struct lull_burst_view *v)
{
	uint64_t late_ns = (uint64_t)(lateness_us * 1000);
	uint64_t cap_ns = lull_policy_burst_cap_ns(p, late_ns);
	double need = p->line_ppns * ((double)p->max_sleep_ns + (double)late_ns);

	v->ring = p->min_ring;
	v->ring_port = ring_port;
	v->line_mpps = p->line_ppns * 1e3;
	v->line_assumed = line_assumed;
	v->fill_us = (double)lull_policy_ring_fill_ns(p) / 1e3;
	v->tolerance =
		p->kind == LULL_POLICY_OFF
			? 0
			: lull_policy_burst_tolerance(p,
				  (cap_ns < p->max_sleep_ns ? cap_ns : p->max_sleep_ns) + late_ns);
	v->asked = p->burst_tol;
	v->cap_us = cap_ns == UINT64_MAX ? -1.0 : (double)cap_ns / 1e3;
	v->ring_for_any = 1;
	while (v->ring_for_any < need + 1 && v->ring_for_any < (1u << 30))
		v->ring_for_any <<= 1;
}

/* A double as telemetry shows it: a string with one or three decimals. */
static void
tel_num(struct rte_tel_data *c, const char *name, const char *fmt, double v)
{
	char num[32];

	snprintf(num, sizeof(num), fmt, v);
	rte_tel_data_add_dict_string(c, name, num);
}

/* How the kernel treats thread tid (lib/sched_view.h): its CPUs, whether they
 * are kept for it, and the run-queue wait and preemptions other threads cost it
 * since it started (totals: a rate is the reader's, as for any counter). */
static void
tel_sched(struct rte_tel_data *c, int tid)
{
	struct lull_sched_view sv;

	if (tid <= 0 || lull_sched_view("", getpid(), tid, &sv) < 0) {
		rte_tel_data_add_dict_string(
			c, "cpu_kept", lull_cpu_kept_name(LULL_CPU_KEPT_UNKNOWN));
		return;
	}
	rte_tel_data_add_dict_string(c, "cpus", sv.cpus);
	rte_tel_data_add_dict_int(c, "cpu", sv.cpu);
	rte_tel_data_add_dict_string(c, "cpu_kept", lull_cpu_kept_name(sv.kept));
	if (sv.have_wait)
		rte_tel_data_add_dict_u64(c, "runq_wait_us_total", sv.runq_wait_ns / 1000);
	rte_tel_data_add_dict_u64(c, "preemptions_total", sv.preemptions);
}

void
lull_nap_tel_sleep(struct rte_tel_data *c, const struct lull_nap_settings *s, const uint64_t *stats,
	uint64_t rx, const struct lull_nap *nap)
{
	const struct lull_policy_params *p = s->policy;
	struct lull_pmd_derived dv;
	struct lull_burst_view bv;

	lull_pmd_derive(stats, rx, &dv);
	rte_tel_data_add_dict_string(c, "policy", lull_policy_name(p->kind));
	rte_tel_data_add_dict_u64(c, "max_sleep_us", p->max_sleep_ns / 1000);
	rte_tel_data_add_dict_u64(c, "latency_budget_us", p->budget_ns / 1000);
	rte_tel_data_add_dict_string(c, "strict_budget", p->strict_budget ? "on" : "off");
	rte_tel_data_add_dict_u64(c, "step_us", p->step_ns / 1000);
	rte_tel_data_add_dict_u64(c, "busy_threshold", p->busy_threshold);
	rte_tel_data_add_dict_u64(c, "window", p->window);
	rte_tel_data_add_dict_u64(c, "linger_us", p->linger_ns / 1000);
	rte_tel_data_add_dict_string(c, "wake", s->wake);
	rte_tel_data_add_dict_string(c, "wake_inject", s->wake_inject);
	rte_tel_data_add_dict_u64(c, "timer_slack_ns", s->timer_slack_ns);
	rte_tel_data_add_dict_u64(c, "intr_after_ms", s->intr_after_ns / 1000000);
	rte_tel_data_add_dict_u64(c, "intr_wait_max_ms", (uint64_t)s->intr_wait_max_ms);
	rte_tel_data_add_dict_u64(c, "drain_us", s->drain_us);
	rte_tel_data_add_dict_u64(c, "yield_hz", s->yield_hz);
	rte_tel_data_add_dict_u64(c, "yield_us", s->yield_us);
	rte_tel_data_add_dict_u64(c, "wake_priority", s->wake_priority);
	rte_tel_data_add_dict_u64(c, "rx_queues", s->rx_queues);
	rte_tel_data_add_dict_u64(c, "generation", s->generation);
	tel_sched(c, s->tid);
	lull_nap_burst_view(
		p, s->ring_port, s->line_assumed, (double)dv.avg_oversleep_ns / 1e3, &bv);
	rte_tel_data_add_dict_u64(c, "rx_ring", bv.ring);
	rte_tel_data_add_dict_u64(c, "rx_ring_port", bv.ring_port);
	tel_num(c, "line_mpps", "%.3f", bv.line_mpps);
	rte_tel_data_add_dict_string(c, "line_rate", bv.line_assumed ? "assumed" : "link");
	tel_num(c, "ring_fill_us", "%.1f", bv.fill_us);
	rte_tel_data_add_dict_u64(c, "burst_tolerance", bv.tolerance);
	rte_tel_data_add_dict_u64(c, "burst_tolerance_asked", bv.asked);
	tel_num(c, "burst_cap_us", "%.1f", bv.cap_us);
	rte_tel_data_add_dict_u64(c, "ring_for_any_burst", bv.ring_for_any);
	rte_tel_data_add_dict_u64(c, "sleeps", stats[LULL_PMD_SLEEPS]);
	rte_tel_data_add_dict_u64(c, "avg_sleep_ns", dv.avg_sleep_ns);
	rte_tel_data_add_dict_u64(c, "avg_oversleep_ns", dv.avg_oversleep_ns);
	rte_tel_data_add_dict_u64(c, "budget_misses", stats[LULL_PMD_BUDGET_MISSES]);
	rte_tel_data_add_dict_u64(
		c, "pkt_ns", (uint64_t)(dv.cycles_per_pkt * 1e9 / (double)rte_get_tsc_hz()));
	for (unsigned int k = 0; k < LULL_PMD_N_MODEL; k++) {
		uint64_t val = lull_counter_read(&nap->model[k]);

		if (k == LULL_MODEL_MODE)
			rte_tel_data_add_dict_string(c, lull_pmd_model_name(k),
				val == LULL_MODE_INTR   ? "interrupt"
				: val == LULL_MODE_POLL ? "poll"
							: "sleep");
		else
			rte_tel_data_add_dict_u64(c, lull_pmd_model_name(k), val);
	}
}

void
lull_nap_tel_config_emit(void *ctx, const char *key, const char *value)
{
	char name[64];

	snprintf(name, sizeof(name), "%s", key);
	for (char *c = name; *c != '\0'; c++)
		if (*c == '-')
			*c = '_';
	rte_tel_data_add_dict_string(ctx, name, value);
}

void
lull_nap_tel_set_reply(struct rte_tel_data *d, const char *key, const char *value, uint64_t gen)
{
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "set", key);
	rte_tel_data_add_dict_string(d, "value", value);
	rte_tel_data_add_dict_u64(d, "generation", gen);
}

void
lull_nap_tel_words(struct rte_tel_data *d, char *words)
{
	char *tok, *save = NULL;

	rte_tel_data_start_array(d, RTE_TEL_STRING_VAL);
	for (tok = strtok_r(words, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save))
		rte_tel_data_add_array_string(d, tok);
}
