/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The attached engine in the host's telemetry socket: /lull/nap (every
 * thread's settings, counters and cost model), and lull's own commands in
 * lull's own format (lib/contract.h), so that lullctl -f PREFIX reads and
 * sets a host as it does lull: pmd-perf-show, pmd-sleep-show, pmd-rxq-show,
 * pmd-stats-clear, port-show, config-show, settable, set, and the exporter.
 * A thread's "lcore" there is its index in /lull/nap (two threads may share a
 * CPU, and OVS's move between CPUs). Port counters are ethdev's own, since
 * the port started: pmd-stats-clear clears the threads' and the queues'.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_telemetry.h>

#include "attach_priv.h"
#include "contract.h"
#include "nap_view.h"
#include "parse.h"
#include "slowwake.h"

/* pmd-stats-clear: what each thread and queue had counted then. */
struct thr_base {
	uint64_t stats[LULL_PMD_N_STATS];
	struct lull_hist bursts, sleep_ns;
	uint64_t tsc;
};

static pthread_mutex_t tel_lock = PTHREAD_MUTEX_INITIALIZER; /* the bases */
/* the host's ports: tel_ports reads them, the host's close frees them */
static pthread_mutex_t ports_lock = PTHREAD_MUTEX_INITIALIZER;
static struct thr_base *bases[LULL_NAP_ATTACH_MAX_THREADS];
static uint64_t rxq_base[RTE_MAX_ETHPORTS][LULL_NAP_ATTACH_MAX_QUEUES];

void
lull_nap_tel_ports_hold(void)
{
	pthread_mutex_lock(&ports_lock);
}

void
lull_nap_tel_ports_release(void)
{
	pthread_mutex_unlock(&ports_lock);
}

/* A thread's counters since the last pmd-stats-clear. */
struct thr_view {
	uint64_t stats[LULL_PMD_N_STATS];
	struct lull_hist bursts, sleep_ns;
	uint64_t duration_tsc;
};

static const struct lull_nap_thr *
thr(unsigned int i)
{
	return __atomic_load_n(&lull_nap_thrs[i], __ATOMIC_ACQUIRE);
}

static unsigned int
n_thrs(void)
{
	return __atomic_load_n(&lull_nap_n_thrs, __ATOMIC_ACQUIRE);
}

static uint64_t
since(uint64_t now, uint64_t base)
{
	return now >= base ? now - base : 0;
}

/* What thread i counted: since the last clear (base != NULL) or ever. */
static void
read_thr(const struct lull_nap_thr *t, struct thr_base *now)
{
	for (unsigned int s = 0; s < LULL_PMD_N_STATS; s++)
		now->stats[s] = lull_counter_read(&t->nap.stats[s]);
	lull_nap_burst_hist(&t->nap, t->burst, &now->bursts);
	lull_hist_snapshot(&now->sleep_ns, &t->nap.sleep_ns);
	now->tsc = rte_rdtsc();
}

static void
view_thr(const struct lull_nap_thr *t, unsigned int i, struct thr_view *v)
{
	struct thr_base now;

	read_thr(t, &now);
	pthread_mutex_lock(&tel_lock);
	const struct thr_base *b = bases[i];

	v->duration_tsc = now.tsc - (b != NULL ? b->tsc : t->start_tsc);
	for (unsigned int s = 0; s < LULL_PMD_N_STATS; s++)
		v->stats[s] = since(now.stats[s], b != NULL ? b->stats[s] : 0);
	v->bursts = now.bursts;
	v->sleep_ns = now.sleep_ns;
	if (b != NULL) {
		lull_hist_sub(&v->bursts, &b->bursts);
		lull_hist_sub(&v->sleep_ns, &b->sleep_ns);
	}
	pthread_mutex_unlock(&tel_lock);
}

static uint64_t
rxq_pkts(uint16_t port, uint16_t queue, int *owner)
{
	uint64_t base;

	pthread_mutex_lock(&tel_lock);
	base = rxq_base[port][queue];
	pthread_mutex_unlock(&tel_lock);
	return since(lull_nap_attach_rxq_pkts(port, queue, owner), base);
}

static void
fill_nap(struct rte_tel_data *c, const struct lull_nap_thr *t)
{
	struct lull_nap_thr_shown sh;

	lull_nap_attach_shown(t, &sh);
	rte_tel_data_add_dict_string(c, "policy", lull_policy_name(sh.policy.kind));
	rte_tel_data_add_dict_string(c, "wake", sh.wake != NULL ? sh.wake : "none");
	rte_tel_data_add_dict_int(c, "cpu", t->cpu);
	rte_tel_data_add_dict_u64(c, "burst", t->burst);
	rte_tel_data_add_dict_u64(c, "latency_budget_us", sh.policy.budget_ns / 1000);
	rte_tel_data_add_dict_u64(c, "sources", sh.n_keys);
	rte_tel_data_add_dict_u64(c, "interrupt_sources", sh.n_intr);
	for (unsigned int s = 0; s < LULL_PMD_N_STATS; s++)
		rte_tel_data_add_dict_u64(
			c, lull_pmd_stat_name(s), lull_counter_read(&t->nap.stats[s]));
	for (unsigned int k = 0; k < LULL_PMD_N_MODEL; k++)
		rte_tel_data_add_dict_u64(
			c, lull_pmd_model_name(k), lull_counter_read(&t->nap.model[k]));
}

/* What a per-thread command writes into thread i's dict c. */
typedef void fill_fn(struct rte_tel_data *c, const struct lull_nap_thr *t, unsigned int i);

static void
fill_perf(struct rte_tel_data *c, const struct lull_nap_thr *t, unsigned int i)
{
	struct lull_nap_thr_shown sh;
	struct thr_view v;

	lull_nap_attach_shown(t, &sh);
	view_thr(t, i, &v);
	/* every packet came in an rx burst the callback saw; tx is the host's */
	lull_nap_tel_perf(c, v.stats, v.bursts.sum, 0, v.duration_tsc, &v.bursts, &v.sleep_ns);
	rte_tel_data_add_dict_u64(c, "rx_queues", sh.n_keys);
	rte_tel_data_add_dict_u64(c, "parked", sh.n_keys == 0);
}

static void
fill_sleep(struct rte_tel_data *c, const struct lull_nap_thr *t, unsigned int i)
{
	struct lull_nap_thr_shown sh;
	struct thr_view v;

	lull_nap_attach_shown(t, &sh);
	view_thr(t, i, &v);
	const struct lull_nap_settings s = {
		.policy = &sh.policy,
		.wake = sh.wake != NULL ? sh.wake : "none",
		.wake_inject = sh.wake_inject != NULL ? sh.wake_inject : "off",
		.timer_slack_ns = sh.timer_slack_ns,
		.intr_after_ns = sh.intr_after_ns,
		.intr_wait_max_ms = sh.intr_wait_max_ms,
		.wake_priority = sh.wake_priority,
		.rx_queues = sh.n_keys,
		.generation = sh.gen,
		.ring_port = sh.ring_port,
		.line_assumed = sh.line_assumed,
		.tid = t->os_tid,
	};

	lull_nap_tel_sleep(c, &s, v.stats, v.bursts.sum, &t->nap);
	rte_tel_data_add_dict_u64(c, "interrupt_sources", sh.n_intr);
}

/* The thread's share of busy cycles and the packets of each ethdev queue it
 * polls and last received from (rxq_PORT_QUEUE: a queue counts once, under
 * its latest poller); the cycles per queue (cyc_) are lull's own loop's. */
static void
fill_rxq(struct rte_tel_data *c, const struct lull_nap_thr *t, unsigned int i)
{
	struct lull_nap_thr_shown sh;
	struct lull_pmd_derived dv;
	struct thr_view v;

	lull_nap_attach_shown(t, &sh);
	view_thr(t, i, &v);
	lull_pmd_derive(v.stats, v.bursts.sum, &dv);
	lull_nap_tel_pct(c, "busy_pct", dv.busy_pct);
	rte_tel_data_add_dict_u64(c, "tsc_hz", rte_get_tsc_hz());
	rte_tel_data_add_dict_u64(c, "duration_cycles", v.duration_tsc);
	rte_tel_data_add_dict_u64(c, "sources", sh.n_keys);
	for (unsigned int k = 0; k < sh.n_keys && k < RTE_TEL_MAX_DICT_ENTRIES - 8; k++) {
		uint16_t port = (uint16_t)(sh.keys[k] >> 16), queue = (uint16_t)sh.keys[k];
		char key[40];
		uint64_t pkts;
		int owner;

		if (sh.keys[k] >> 31) /* a vhost queue or another source: no ethdev id */
			continue;
		pkts = rxq_pkts(port, queue, &owner);
		if (owner >= 0 && owner != (int)i)
			continue; /* another thread took it over */
		snprintf(key, sizeof(key), "rxq_%u_%u", port, queue);
		rte_tel_data_add_dict_u64(c, key, pkts);
	}
}

/* A dict "pmd<i>" per thread (only thread `only` when >= 0), each with its
 * "lcore" (the index) and of how many, filled by fill. */
static int
per_thread(struct rte_tel_data *d, const char *params, fill_fn *fill)
{
	unsigned int n = n_thrs();
	long only = -1;

	if (params != NULL && *params != '\0') {
		uint32_t v;

		if (lull_parse_u32(params, 0, LULL_NAP_ATTACH_MAX_THREADS - 1, &v) < 0) {
			char msg[96];

			snprintf(msg, sizeof(msg), "bad thread '%.40s' (a number, 0-%d)", params,
				LULL_NAP_ATTACH_MAX_THREADS - 1);
			return rte_tel_data_string(d, msg);
		}
		only = v;
		if (only >= (long)n) {
			char msg[64];

			snprintf(msg, sizeof(msg), "no polling thread %ld (%u attached)", only, n);
			return rte_tel_data_string(d, msg);
		}
	}
	rte_tel_data_start_dict(d);
	for (unsigned int i = 0; i < n; i++) {
		struct rte_tel_data *c;
		char name[24];

		if (only >= 0 && i != (unsigned long)only)
			continue;
		c = rte_tel_data_alloc();
		if (c == NULL)
			return -1;
		rte_tel_data_start_dict(c);
		rte_tel_data_add_dict_u64(c, "lcore", i);
		rte_tel_data_add_dict_u64(c, "pmds", n);
		rte_tel_data_add_dict_u64(c, "generation", thr(i)->gen);
		fill(c, thr(i), i);
		snprintf(name, sizeof(name), "pmd%u", i);
		rte_tel_data_add_dict_container(d, name, c, 0);
	}
	return 0;
}

static int
tel_nap(const char *cmd, const char *params, struct rte_tel_data *d)
{
	unsigned int n = n_thrs();

	(void)cmd;
	(void)params;
	rte_tel_data_start_dict(d);
	for (unsigned int i = 0; i < n; i++) {
		struct rte_tel_data *c = rte_tel_data_alloc();
		char name[24];

		if (c == NULL)
			return -1;
		rte_tel_data_start_dict(c);
		fill_nap(c, thr(i));
		snprintf(name, sizeof(name), "thread%u", i);
		rte_tel_data_add_dict_container(d, name, c, 0);
	}
	rte_tel_data_add_dict_u64(d, "threads", n);
	rte_tel_data_add_dict_u64(d, "tsc_hz", rte_get_tsc_hz());
	return 0;
}

static int
tel_pmds(const char *cmd, const char *params, struct rte_tel_data *d)
{
	(void)cmd;
	(void)params;
	rte_tel_data_start_array(d, RTE_TEL_U64_VAL);
	for (unsigned int i = 0, n = n_thrs(); i < n; i++)
		rte_tel_data_add_array_u64(d, i);
	return 0;
}

static int
tel_pmd_perf(const char *cmd, const char *params, struct rte_tel_data *d)
{
	(void)cmd;
	return per_thread(d, params, fill_perf);
}

static int
tel_pmd_sleep(const char *cmd, const char *params, struct rte_tel_data *d)
{
	(void)cmd;
	return per_thread(d, params, fill_sleep);
}

static int
tel_pmd_rxq(const char *cmd, const char *params, struct rte_tel_data *d)
{
	(void)cmd;
	return per_thread(d, params, fill_rxq);
}

static int
tel_stats_clear(const char *cmd, const char *params, struct rte_tel_data *d)
{
	unsigned int n = n_thrs();

	(void)cmd;
	(void)params;
	for (unsigned int i = 0; i < n; i++) {
		struct thr_base now;
		bool ok;

		read_thr(thr(i), &now);
		pthread_mutex_lock(&tel_lock);
		if (bases[i] == NULL)
			bases[i] = malloc(sizeof(*bases[i]));
		ok = bases[i] != NULL;
		if (ok)
			*bases[i] = now;
		pthread_mutex_unlock(&tel_lock);
		if (!ok)
			return rte_tel_data_string(d, "out of memory");
	}
	pthread_mutex_lock(&tel_lock);
	for (uint16_t p = 0; p < RTE_MAX_ETHPORTS; p++)
		for (uint16_t q = 0; q < LULL_NAP_ATTACH_MAX_QUEUES; q++)
			rxq_base[p][q] = lull_nap_attach_rxq_pkts(p, q, NULL);
	pthread_mutex_unlock(&tel_lock);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "cleared", n);
	return 0;
}

/* The host's ports, as /lull/ports shows lull's: ethdev's counters. */
static int
tel_ports(const char *cmd, const char *params, struct rte_tel_data *d)
{
	uint16_t port;
	int ret = 0;

	(void)cmd;
	(void)params;
	rte_tel_data_start_dict(d);
	pthread_mutex_lock(&ports_lock);
	RTE_ETH_FOREACH_DEV(port)
	{
		struct rte_tel_data *c = rte_tel_data_alloc();
		char name[RTE_ETH_NAME_MAX_LEN], buf[RTE_ETH_LINK_MAX_STR_LEN + 32];
		struct rte_ether_addr mac;
		struct rte_eth_stats st;
		struct rte_eth_link link;

		if (c == NULL) {
			ret = -1;
			break;
		}
		if (rte_eth_dev_get_name_by_port(port, name) != 0)
			snprintf(name, sizeof(name), "port%u", port);
		if (rte_eth_stats_get(port, &st) != 0)
			memset(&st, 0, sizeof(st));
		rte_tel_data_start_dict(c);
		rte_tel_data_add_dict_u64(c, "id", port);
		rte_tel_data_add_dict_string(c, "name", name);
		rte_tel_data_add_dict_string(c, "peer", "(host)"); /* the host forwards */
		if (rte_eth_macaddr_get(port, &mac) != 0)
			memset(&mac, 0, sizeof(mac));
		snprintf(buf, sizeof(buf), RTE_ETHER_ADDR_PRT_FMT, RTE_ETHER_ADDR_BYTES(&mac));
		rte_tel_data_add_dict_string(c, "mac", buf);
		if (rte_eth_link_get_nowait(port, &link) < 0)
			snprintf(buf, sizeof(buf), "unknown");
		else
			rte_eth_link_to_str(buf, sizeof(buf), &link);
		rte_tel_data_add_dict_string(c, "link", buf);
		rte_tel_data_add_dict_string(
			c, "rx_interrupts", lull_nap_attach_port_intr(port) ? "yes" : "no");
		rte_tel_data_add_dict_u64(c, "rx_packets", st.ipackets);
		rte_tel_data_add_dict_u64(c, "tx_packets", st.opackets);
		rte_tel_data_add_dict_u64(c, "tx_dropped", st.oerrors);
		rte_tel_data_add_dict_u64(c, "rx_missed", lull_nap_attach_rx_missed(port, &st));
		snprintf(buf, sizeof(buf), "port%u", port);
		rte_tel_data_add_dict_container(d, buf, c, 0);
	}
	pthread_mutex_unlock(&ports_lock);
	return ret;
}

static int
tel_config(const char *cmd, const char *params, struct rte_tel_data *d)
{
	(void)cmd;
	(void)params;
	rte_tel_data_start_dict(d);
	lull_nap_attach_describe(lull_nap_tel_config_emit, d);
	return 0;
}

static int
tel_settable(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char buf[512];

	(void)cmd;
	(void)params;
	lull_nap_attach_settable(buf, sizeof(buf));
	lull_nap_tel_words(d, buf);
	return 0;
}

static int
tel_set(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char err[256] = "", buf[512];
	char *key, *value;

	(void)cmd;
	if (params == NULL || strlen(params) >= sizeof(buf))
		return rte_tel_data_string(d, "usage: /lull/set,KEY VALUE");
	strcpy(buf, params);
	if (lull_split_kv(buf, &key, &value) < 0)
		return rte_tel_data_string(
			d, "usage: /lull/set,KEY VALUE (KEY: see /lull/settable)");
	if (lull_nap_attach_set(key, value, err, sizeof(err)) < 0)
		return rte_tel_data_string(d, err);
	lull_nap_tel_set_reply(
		d, key, value, __atomic_load_n(&lull_nap_attach_gen, __ATOMIC_ACQUIRE));
	return 0;
}

int
lull_nap_attach_register_telemetry(void)
{
	static const struct {
		enum lull_cmd id;
		telemetry_cb fn;
	} cmds[] = {
		{LULL_CMD_PMD_PERF, tel_pmd_perf},
		{LULL_CMD_PMD_SLEEP, tel_pmd_sleep},
		{LULL_CMD_STATS_CLEAR, tel_stats_clear},
		{LULL_CMD_PMD_RXQ, tel_pmd_rxq},
		{LULL_CMD_PMDS, tel_pmds},
		{LULL_CMD_PORTS, tel_ports},
		{LULL_CMD_CONFIG, tel_config},
		{LULL_CMD_SETTABLE, tel_settable},
		{LULL_CMD_SET, tel_set},
	};
	int ret = rte_telemetry_register_cmd(
		"/lull/nap", tel_nap, "lull attached: every polling thread's counters");

	/* lull's own commands, with lull's help: "PMD" is a polling thread here */
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]) && ret == 0; i++)
		ret = rte_telemetry_register_cmd(
			lull_cmds[cmds[i].id].path, cmds[i].fn, lull_cmds[cmds[i].id].help);
	return ret;
}
