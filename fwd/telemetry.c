/* SPDX-License-Identifier: BSD-3-Clause */
#include "telemetry.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_telemetry.h>

#include "control.h"
#include "telemetry_cmd.h"
#include "parse.h"
#include "stats.h"

/* The telemetry callbacks have no user argument: one forwarder per process.
 * Atomic: the main thread stores it before registering the commands, and
 * DPDK's callback lock, which orders that for the telemetry threads, is
 * invisible to ThreadSanitizer. */
struct lull_fwd *_Atomic lull_tel_fwd;

/* A refused command replies with one JSON string, the reason (a success is an
 * object or an array): a negative return would lose the message, and a dict
 * value would cut it at 127 characters. */
int
lull_tel_reply_error(struct rte_tel_data *d, const char *msg)
{
	rte_tel_data_string(d, msg);
	return 0;
}

static void
add_pct(struct rte_tel_data *d, const char *name, double pct)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%.1f", pct);
	rte_tel_data_add_dict_string(d, name, buf);
}

/* Counters since the last pmd-stats-clear. */
struct pmd_view {
	uint64_t stats[LULL_PMD_N_STATS];
	uint64_t rx, tx, tx_dropped;
	struct lull_hist burst_pkts, sleep_ns;
};

static uint64_t
minus(uint64_t v, uint64_t base)
{
	return v > base ? v - base : 0;
}

static void
pmd_view(const struct lull_fwd *fwd, unsigned int i, struct pmd_view *v)
{
	const struct lull_pmd *pmd = fwd->pmds[i];
	const struct lull_pmd_base *b = fwd->base[i];

	for (unsigned int s = 0; s < LULL_PMD_N_STATS; s++)
		v->stats[s] = minus(lull_counter_read(&pmd->stats[s]), b ? b->stats[s] : 0);
	v->rx = 0;
	for (unsigned int p = 0; p < LULL_MAX_PORTS; p++)
		for (unsigned int q = 0; q < LULL_MAX_QUEUES; q++)
			v->rx += minus(
				lull_counter_read(&pmd->rx_pkts[p][q]), b ? b->rx_pkts[p][q] : 0);
	v->tx = minus(lull_pmd_tx_total(pmd, false), b ? b->tx_sent : 0);
	v->tx_dropped = minus(lull_pmd_tx_total(pmd, true), b ? b->tx_dropped : 0);
	lull_pmd_burst_hist(pmd, &v->burst_pkts);
	lull_hist_snapshot(&v->sleep_ns, &pmd->sleep_ns);
	if (b != NULL) {
		lull_hist_sub(&v->burst_pkts, &b->burst_pkts);
		lull_hist_sub(&v->sleep_ns, &b->sleep_ns);
	}
}

static void
add_quantiles(struct rte_tel_data *d, const char *prefix, const struct lull_hist *h)
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

/* The PMDs a command is about: all, or the one on the lcore in params. */
static int
pmd_filter(const char *params, int *lcore, struct rte_tel_data *d)
{
	uint32_t v;

	*lcore = -1;
	if (params == NULL || *params == '\0')
		return 0;
	if (lull_parse_u32(params, 0, LULL_MAX_LCORES - 1, &v) < 0) {
		char msg[96];

		snprintf(msg, sizeof(msg), "bad PMD core '%.40s' (a number)", params);
		lull_tel_reply_error(d, msg);
		return -EINVAL;
	}
	*lcore = (int)v;
	return 0;
}

/* What a per-PMD command writes into its PMD's dict c; v holds the PMD's counters
 * since the last pmd-stats-clear. */
typedef void pmd_fill_fn(const struct lull_fwd *fwd, unsigned int i, const struct pmd_view *v,
	struct rte_tel_data *c);

/*
 * The per-PMD commands: a dict "pmd<lcore>" per PMD (or only the PMD on lcore
 * when lcore >= 0), each filled by fill, under the control lock.
 * @return how many PMDs were shown, -ENOMEM, or -ESHUTDOWN once lull is torn down.
 */
static int
for_each_pmd(struct rte_tel_data *d, int lcore, pmd_fill_fn *fill)
{
	struct lull_fwd *fwd = lull_tel_fwd;
	struct pmd_view *v = malloc(sizeof(*v));
	int found = 0;

	if (v == NULL)
		return -ENOMEM;
	rte_tel_data_start_dict(d);
	pthread_mutex_lock(&fwd->lock);
	if (fwd->gone) {
		pthread_mutex_unlock(&fwd->lock);
		free(v);
		return -ESHUTDOWN;
	}

	for (unsigned int i = 0; i < fwd->n_pmds; i++) {
		const struct lull_pmd *pmd = fwd->pmds[i];
		struct rte_tel_data *c;
		char key[16];

		if (lcore >= 0 && pmd->lcore != (unsigned int)lcore)
			continue;
		c = rte_tel_data_alloc();
		if (c == NULL)
			break;
		found++;
		pmd_view(fwd, i, v);
		rte_tel_data_start_dict(c);
		rte_tel_data_add_dict_u64(c, "lcore", pmd->lcore);
		/* of how many: a reply past DPDK's 16 KB loses PMDs, silently, and a
		 * client that counts fewer knows (lullctl then asks PMD by PMD) */
		rte_tel_data_add_dict_u64(c, "pmds", fwd->n_pmds);
		/* which change the reply describes, and one the PMD has not taken */
		rte_tel_data_add_dict_u64(c, "generation", lull_pmd_taken(pmd)->gen);
		if (lull_pmd_taken(pmd) != pmd->pending && pmd->pending != NULL)
			rte_tel_data_add_dict_u64(c, "pending_generation", pmd->pending->gen);
		fill(fwd, i, v, c);
		snprintf(key, sizeof(key), "pmd%u", pmd->lcore);
		rte_tel_data_add_dict_container(d, key, c, 0);
	}
	pthread_mutex_unlock(&fwd->lock);
	free(v);
	return found;
}

/* The reply to a failed for_each_pmd(). */
static int
reply_pmds_error(struct rte_tel_data *d, int ret)
{
	return lull_tel_reply_error(d, ret == -ESHUTDOWN ? LULL_STOPPING : "out of memory");
}

/* Take the control lock for a command that reads lull's state. @return false,
 * with the lock released and the error replied, once lull is torn down. */
bool
lull_tel_lock_live(struct lull_fwd *fwd, struct rte_tel_data *d)
{
	pthread_mutex_lock(&fwd->lock);
	if (!fwd->gone)
		return true;
	pthread_mutex_unlock(&fwd->lock);
	lull_tel_reply_error(d, LULL_STOPPING);
	return false;
}

static void
fill_perf(const struct lull_fwd *fwd, unsigned int i, const struct pmd_view *v,
	struct rte_tel_data *c)
{
	rte_tel_data_add_dict_u64(c, "tsc_hz", rte_get_tsc_hz());
	rte_tel_data_add_dict_u64(c, "duration_cycles",
		rte_rdtsc() - (fwd->base[i] ? fwd->base[i]->tsc : fwd->start_tsc));
	for (unsigned int s = 0; s < LULL_PMD_N_STATS; s++)
		rte_tel_data_add_dict_u64(c, lull_pmd_stat_name(s), v->stats[s]);
	rte_tel_data_add_dict_u64(c, "rx_packets", v->rx);
	rte_tel_data_add_dict_u64(c, "tx_packets", v->tx);
	rte_tel_data_add_dict_u64(c, "rx_queues", lull_pmd_taken(fwd->pmds[i])->n_rxqs);
	rte_tel_data_add_dict_u64(c, "parked", lull_pmd_taken(fwd->pmds[i])->n_rxqs == 0);
	rte_tel_data_add_dict_u64(c, "tx_dropped", v->tx_dropped);
	struct lull_pmd_derived dv;

	lull_pmd_derive(v->stats, v->rx, &dv);
	add_pct(c, "busy_pct", dv.busy_pct);
	add_pct(c, "sleep_pct", dv.sleep_pct);
	add_quantiles(c, "burst_pkts", &v->burst_pkts);
	add_quantiles(c, "sleep_ns", &v->sleep_ns);
}

/* A per-PMD command: every PMD, or the one on the lcore params names. */
static int
pmd_cmd(const char *params, struct rte_tel_data *d, pmd_fill_fn *fill)
{
	int lcore, found;

	if (pmd_filter(params, &lcore, d) < 0)
		return 0;
	found = for_each_pmd(d, lcore, fill);
	if (found < 0)
		return reply_pmds_error(d, found);
	if (lcore >= 0 && found == 0) {
		char msg[64];

		snprintf(msg, sizeof(msg), "no PMD on core %d", lcore);
		return lull_tel_reply_error(d, msg);
	}
	return 0;
}

static int
cmd_pmd_perf(const char *cmd, const char *params, struct rte_tel_data *d)
{
	(void)cmd;
	return pmd_cmd(params, d, fill_perf);
}

/* The settings in force (the block the PMD acknowledged) and sleep averages. */
static void
fill_sleep(const struct lull_fwd *fwd, unsigned int i, const struct pmd_view *v,
	struct rte_tel_data *c)
{
	const struct lull_pmd_params *prm = lull_pmd_taken(fwd->pmds[i]);
	struct lull_pmd_derived dv;

	lull_pmd_derive(v->stats, v->rx, &dv);

	rte_tel_data_add_dict_string(c, "policy", lull_policy_name(prm->policy.kind));
	rte_tel_data_add_dict_u64(c, "max_sleep_us", prm->policy.max_sleep_ns / 1000);
	rte_tel_data_add_dict_u64(c, "latency_budget_us", prm->policy.budget_ns / 1000);
	rte_tel_data_add_dict_string(c, "strict_budget", prm->policy.strict_budget ? "on" : "off");
	rte_tel_data_add_dict_u64(c, "step_us", prm->policy.step_ns / 1000);
	rte_tel_data_add_dict_u64(c, "busy_threshold", prm->policy.busy_threshold);
	rte_tel_data_add_dict_u64(c, "window", prm->policy.window);
	rte_tel_data_add_dict_u64(c, "linger_us", prm->policy.linger_ns / 1000);
	rte_tel_data_add_dict_string(c, "wake", lull_waiter_describe(&prm->waiter));
	rte_tel_data_add_dict_string(
		c, "wake_inject", lull_slowwake_name_of(&prm->waiter.inject.p));
	rte_tel_data_add_dict_u64(c, "timer_slack_ns", prm->timer_slack_ns);
	rte_tel_data_add_dict_u64(c, "intr_after_ms", prm->intr_after_ns / 1000000);
	rte_tel_data_add_dict_u64(c, "intr_wait_max_ms", (uint64_t)prm->waiter.intr_wait_max_ms);
	rte_tel_data_add_dict_u64(c, "drain_us", prm->drain_us);
	rte_tel_data_add_dict_u64(c, "yield_hz", prm->yield_hz);
	rte_tel_data_add_dict_u64(c, "yield_us", prm->yield_us);
	rte_tel_data_add_dict_u64(c, "rx_queues", prm->n_rxqs);
	rte_tel_data_add_dict_u64(c, "generation", prm->gen);
	{
		struct lull_burst_view bv;
		char num[32];

		lull_pmd_burst_view(prm, (double)dv.avg_oversleep_ns / 1e3, &bv);
		rte_tel_data_add_dict_u64(c, "rx_ring", bv.ring);
		rte_tel_data_add_dict_u64(c, "rx_ring_port", bv.ring_port);
		snprintf(num, sizeof(num), "%.3f", bv.line_mpps);
		rte_tel_data_add_dict_string(c, "line_mpps", num);
		rte_tel_data_add_dict_string(c, "line_rate", bv.line_assumed ? "assumed" : "link");
		snprintf(num, sizeof(num), "%.1f", bv.fill_us);
		rte_tel_data_add_dict_string(c, "ring_fill_us", num);
		rte_tel_data_add_dict_u64(c, "burst_tolerance", bv.tolerance);
		rte_tel_data_add_dict_u64(c, "burst_tolerance_asked", bv.asked);
		snprintf(num, sizeof(num), "%.1f", bv.cap_us);
		rte_tel_data_add_dict_string(c, "burst_cap_us", num);
		rte_tel_data_add_dict_u64(c, "ring_for_any_burst", bv.ring_for_any);
	}
	rte_tel_data_add_dict_u64(c, "sleeps", v->stats[LULL_PMD_SLEEPS]);
	rte_tel_data_add_dict_u64(c, "avg_sleep_ns", dv.avg_sleep_ns);
	rte_tel_data_add_dict_u64(c, "avg_oversleep_ns", dv.avg_oversleep_ns);
	rte_tel_data_add_dict_u64(c, "budget_misses", v->stats[LULL_PMD_BUDGET_MISSES]);
	rte_tel_data_add_dict_u64(
		c, "pkt_ns", (uint64_t)(dv.cycles_per_pkt * 1e9 / (double)rte_get_tsc_hz()));
	for (unsigned int k = 0; k < LULL_PMD_N_MODEL; k++) {
		uint64_t val = lull_counter_read(&fwd->pmds[i]->model[k]);

		if (k == LULL_MODEL_MODE)
			rte_tel_data_add_dict_string(c, lull_pmd_model_name(k),
				val == LULL_MODE_INTR   ? "interrupt"
				: val == LULL_MODE_POLL ? "poll"
							: "sleep");
		else
			rte_tel_data_add_dict_u64(c, lull_pmd_model_name(k), val);
	}
}

static int
cmd_pmd_sleep(const char *cmd, const char *params, struct rte_tel_data *d)
{
	(void)cmd;
	return pmd_cmd(params, d, fill_sleep);
}

/* Each rx queue's packets (rxq_PORT_QUEUE) and its PMD's busy share: a queue's
 * share of the packets is its share of the busy cycles for a forwarder that does
 * the same work per packet. */
static void
fill_rxq(const struct lull_fwd *fwd, unsigned int i, const struct pmd_view *v,
	struct rte_tel_data *c)
{
	const struct lull_pmd *pmd = fwd->pmds[i];
	const struct lull_pmd_params *prm = lull_pmd_taken(pmd);
	const struct lull_pmd_base *b = fwd->base[i];
	struct lull_pmd_derived dv;
	char key[40];

	lull_pmd_derive(v->stats, v->rx, &dv);
	add_pct(c, "busy_pct", dv.busy_pct);
	rte_tel_data_add_dict_u64(c, "tsc_hz", rte_get_tsc_hz());
	rte_tel_data_add_dict_u64(
		c, "duration_cycles", rte_rdtsc() - (b ? b->tsc : fwd->start_tsc));
	for (unsigned int q = 0; q < prm->n_rxqs && q < (RTE_TEL_MAX_DICT_ENTRIES - 8) / 2; q++) {
		const struct lull_rxq_conf *rc = &prm->rxqs[q];

		snprintf(key, sizeof(key), "rxq_%u_%u", rc->port, rc->queue);
		rte_tel_data_add_dict_u64(c, key,
			minus(lull_counter_read(&pmd->rx_pkts[rc->port][rc->queue]),
				b ? b->rx_pkts[rc->port][rc->queue] : 0));
		snprintf(key, sizeof(key), "cyc_%u_%u", rc->port, rc->queue);
		rte_tel_data_add_dict_u64(c, key,
			minus(lull_counter_read(&pmd->rx_cycles[rc->port][rc->queue]),
				b ? b->rx_cycles[rc->port][rc->queue] : 0));
	}
}

static int
cmd_pmd_rxq(const char *cmd, const char *params, struct rte_tel_data *d)
{
	(void)cmd;
	return pmd_cmd(params, d, fill_rxq);
}

/* The PMDs' lcores: a client whose reply of every PMD would pass DPDK's 16 KB
 * asks PMD by PMD (lullctl, the exporter). */
static int
cmd_pmds(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct lull_fwd *fwd = lull_tel_fwd;

	(void)cmd;
	(void)params;
	if (!lull_tel_lock_live(fwd, d))
		return 0;
	rte_tel_data_start_array(d, RTE_TEL_U64_VAL);
	for (unsigned int i = 0; i < fwd->n_pmds; i++)
		rte_tel_data_add_array_u64(d, fwd->pmds[i]->lcore);
	pthread_mutex_unlock(&fwd->lock);
	return 0;
}

static int
cmd_ports(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct lull_fwd *fwd = lull_tel_fwd;

	(void)cmd;
	(void)params;
	if (!lull_tel_lock_live(fwd, d))
		return 0;
	rte_tel_data_start_dict(d);
	for (unsigned int p = 0; p < fwd->n_ports; p++) {
		const struct lull_port *port = &fwd->ports[p];
		struct rte_tel_data *c;
		struct lull_port_counts pc;
		struct rte_eth_stats st;
		struct rte_eth_link link;
		char buf[RTE_ETH_LINK_MAX_STR_LEN + 32];

		if (!port->present || (c = rte_tel_data_alloc()) == NULL)
			continue;
		pc = lull_stats_port(fwd, port->id);
		if (rte_eth_stats_get(port->id, &st) != 0)
			memset(&st, 0, sizeof(st));
		rte_tel_data_start_dict(c);
		rte_tel_data_add_dict_u64(c, "id", port->id);
		rte_tel_data_add_dict_string(c, "name", port->name);
		if (fwd->cfg.dst_port[p] == LULL_PORT_NONE)
			rte_tel_data_add_dict_string(c, "peer", "none");
		else
			rte_tel_data_add_dict_string(
				c, "peer", fwd->ports[fwd->cfg.dst_port[p]].name);
		snprintf(
			buf, sizeof(buf), RTE_ETHER_ADDR_PRT_FMT, RTE_ETHER_ADDR_BYTES(&port->mac));
		rte_tel_data_add_dict_string(c, "mac", buf);
		if (rte_eth_link_get_nowait(port->id, &link) < 0)
			snprintf(buf, sizeof(buf), "unknown");
		else
			rte_eth_link_to_str(buf, sizeof(buf), &link);
		rte_tel_data_add_dict_string(c, "link", buf);
		rte_tel_data_add_dict_string(c, "rx_interrupts", port->rx_intr ? "yes" : "no");
		rte_tel_data_add_dict_u64(c, "rx_packets", pc.rx);
		rte_tel_data_add_dict_u64(c, "tx_packets", pc.tx);
		rte_tel_data_add_dict_u64(c, "tx_dropped", pc.tx_dropped + st.oerrors);
		rte_tel_data_add_dict_u64(c, "rx_missed", lull_port_rx_missed(port, &st));
		snprintf(buf, sizeof(buf), "port%u", port->id);
		rte_tel_data_add_dict_container(d, buf, c, 0);
	}
	pthread_mutex_unlock(&fwd->lock);
	return 0;
}

/* Telemetry names take [A-Za-z0-9_]: the option sleep-max-us is sleep_max_us here. */
static void
emit_config(void *ctx, const char *key, const char *value)
{
	char name[64];

	snprintf(name, sizeof(name), "%s", key);
	for (char *c = name; *c != '\0'; c++)
		if (*c == '-')
			*c = '_';
	rte_tel_data_add_dict_string(ctx, name, value);
}

static int
cmd_config(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct lull_fwd *fwd = lull_tel_fwd;

	(void)cmd;
	(void)params;
	if (!lull_tel_lock_live(fwd, d))
		return 0;
	rte_tel_data_start_dict(d);
	lull_config_describe(&fwd->cfg, emit_config, d);
	pthread_mutex_unlock(&fwd->lock);
	return 0;
}

static int
cmd_set(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char err[512] = "";
	char buf[512];
	char *key, *value;
	uint64_t gen;
	int ret;

	(void)cmd;
	if (params == NULL || strlen(params) >= sizeof(buf))
		return lull_tel_reply_error(d, "usage: /lull/set,KEY VALUE");
	strcpy(buf, params);
	if (lull_split_kv(buf, &key, &value) < 0)
		return lull_tel_reply_error(
			d, "usage: /lull/set,KEY VALUE (KEY: see /lull/settable)");
	ret = lull_control_set(lull_tel_fwd, key, value, err, sizeof(err));
	if (ret < 0)
		return lull_tel_reply_error(d, err);
	if (!lull_tel_lock_live(lull_tel_fwd, d)) /* the control plane writes gen under it */
		return 0;
	gen = lull_tel_fwd->gen;
	pthread_mutex_unlock(&lull_tel_fwd->lock);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "set", key);
	rte_tel_data_add_dict_string(d, "value", value);
	rte_tel_data_add_dict_u64(d, "generation", gen);
	return 0;
}

static int
cmd_settable(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char buf[512];
	char *tok, *save = NULL;

	(void)cmd;
	(void)params;
	snprintf(buf, sizeof(buf), "%s rxq-pmd", lull_config_settable());
	rte_tel_data_start_array(d, RTE_TEL_STRING_VAL);
	for (tok = strtok_r(buf, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save))
		rte_tel_data_add_array_string(d, tok);
	return 0;
}

static int
cmd_stats_clear(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char err[128] = "";
	unsigned int n;

	(void)cmd;
	(void)params;
	if (lull_control_stats_clear(lull_tel_fwd, err, sizeof(err)) < 0)
		return lull_tel_reply_error(d, err);
	if (!lull_tel_lock_live(lull_tel_fwd, d))
		return 0;
	n = lull_tel_fwd->n_pmds;
	pthread_mutex_unlock(&lull_tel_fwd->lock);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "cleared", n);
	return 0;
}

static int
cmd_port_add(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char err[512] = "";
	char buf[512];
	char *peer = NULL, *sp;
	uint16_t id;
	int ret;

	(void)cmd;
	if (params == NULL || *params == '\0' || strlen(params) >= sizeof(buf))
		return lull_tel_reply_error(d, "usage: /lull/port_add,DEVARGS [PEER|self]");
	strcpy(buf, params);
	sp = strrchr(buf, ' ');
	if (sp != NULL) {
		*sp = '\0';
		peer = sp + 1;
	}
	ret = lull_control_port_add(lull_tel_fwd, buf, peer, &id, err, sizeof(err));
	if (ret < 0 && ret != -ETIMEDOUT)
		return lull_tel_reply_error(d, err);
	if (!lull_tel_lock_live(lull_tel_fwd, d))
		return 0;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "port", id);
	rte_tel_data_add_dict_string(d, "name", lull_tel_fwd->ports[id].name);
	rte_tel_data_add_dict_string(d, "peer",
		lull_tel_fwd->cfg.dst_port[id] == LULL_PORT_NONE
			? "none (waits for a port-add naming it as peer)"
			: lull_tel_fwd->ports[lull_tel_fwd->cfg.dst_port[id]].name);
	pthread_mutex_unlock(&lull_tel_fwd->lock);
	if (ret == -ETIMEDOUT)
		rte_tel_data_add_dict_string(d, "warning", err);
	return 0;
}

static int
cmd_port_del(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char err[256] = "";

	(void)cmd;
	if (params == NULL || *params == '\0')
		return lull_tel_reply_error(d, "usage: /lull/port_del,NAME");
	if (lull_control_port_del(lull_tel_fwd, params, err, sizeof(err)) < 0)
		return lull_tel_reply_error(d, err);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "removed", params);
	return 0;
}

int
lull_telemetry_register(struct lull_fwd *fwd, char *err, size_t errlen)
{
	static const struct {
		const char *cmd;
		telemetry_cb fn;
		const char *help;
		bool writes; /**< left out with --ctl read-only */
	} cmds[] = {
		/* DPDK 22.11 takes help texts of under 64 characters */
		{"/lull/pmd_perf", cmd_pmd_perf, "PMD perf and sleep counters. Param: lcore",
			false},
		{"/lull/pmd_sleep", cmd_pmd_sleep, "PMD sleep settings in force. Param: lcore",
			false},
		{"/lull/pmd_rxq", cmd_pmd_rxq, "Rx queues per PMD, packet shares. Param: lcore",
			false},
		{"/lull/pmds", cmd_pmds, "The PMDs' lcores", false},
		{"/lull/ports", cmd_ports, "Ports: peer, link, counters", false},
		{"/lull/config", cmd_config, "Effective configuration", false},
		{"/lull/settable", cmd_settable, "Keys that /lull/set accepts", false},
		{"/lull/set", cmd_set, "Change a setting. Params: KEY VALUE", true},
		{"/lull/stats_clear", cmd_stats_clear, "Clear PMD stats", true},
		{"/lull/port_add", cmd_port_add, "Add a port. Params: DEVARGS [PEER|self]", true},
		{"/lull/port_del", cmd_port_del, "Remove a port. Params: NAME", true},
		{"/lull/balance", lull_tel_cmd_balance, "Rx queue moves, consolidation, loads",
			false},
		{"/lull/rxq_rebalance", lull_tel_cmd_rebalance, "Spread rx queues by cycles", true},
	};

	const char *dir = rte_eal_get_runtime_dir();
	struct stat st;

	/* Whoever can connect to the socket can change lull (docs/control.md): the
	 * directory that holds it must be writable by its owner only. */
	if (dir != NULL && stat(dir, &st) == 0 && (st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		return lull_errf(err, errlen, -EPERM,
			"the runtime directory %s is group- or world-writable (mode %03o): anyone "
			"who can write there could control lull through its telemetry socket; "
			"chmod go-w it, or give --file-prefix a fresh one",
			dir, (unsigned int)(st.st_mode & 0777));
	lull_tel_fwd = fwd;
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		int ret;

		if (fwd->cfg.ctl_read_only && cmds[i].writes)
			continue;
		ret = rte_telemetry_register_cmd(cmds[i].cmd, cmds[i].fn, cmds[i].help);

		if (ret < 0) {
			snprintf(err, errlen, "telemetry: cannot register %s: %s", cmds[i].cmd,
				strerror(-ret));
			return ret;
		}
	}
	return 0;
}
