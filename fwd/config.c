/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

static const char *const mode_names[LULL_FWD_N_MODES] = {
	[LULL_FWD_IO] = "io",
	[LULL_FWD_MAC] = "mac",
	[LULL_FWD_MACSWAP] = "macswap",
};

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

const char *
lull_fwd_mode_name(enum lull_fwd_mode mode)
{
	return mode < LULL_FWD_N_MODES ? mode_names[mode] : "?";
}

void
lull_config_defaults(struct lull_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->n_rxq = 1;
	cfg->n_rxd = 1024;
	cfg->n_txd = 1024;
	cfg->burst = 32;
	cfg->mbuf_size = LULL_MBUF_SIZE_DEFAULT;
	cfg->mode = LULL_FWD_IO;
	cfg->stats_period_s = 1;
	cfg->drain_us = 100;
	cfg->tx_retries = 0;
	cfg->link_wait_ms = 9000;
	cfg->sleep_policy = LULL_POLICY_RATE;
	cfg->latency_budget_us = 250;
	cfg->sleep_step_us = 1;
	cfg->sleep_window = 64;
	cfg->linger_us = 20;
	cfg->wake = LULL_WAKE_AUTO;
	cfg->timer_slack_ns = 1;
	cfg->intr_after_ms = 200; /* where every polled queue can interrupt */
	cfg->hotplug_ports = 2;
	cfg->yield_us = 10;
	/* Like testpmd: the peer of port P is 02:00:00:00:00:P. */
	for (unsigned int p = 0; p < LULL_MAX_PORTS; p++) {
		cfg->peer_mac[p][0] = 0x02;
		cfg->peer_mac[p][5] = (uint8_t)p;
	}
}

static int
fail(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return ret;
}

static const char *
expect_text(int ret)
{
	switch (ret) {
	case -ERANGE:
		return "out of range";
	case -E2BIG:
		return "too many items";
	case -EEXIST:
		return "repeated item";
	default:
		return "malformed";
	}
}

enum opt_id {
	OPT_HELP = 'h',
	OPT_PMD_CORES = 256,
	OPT_RXQ,
	OPT_TXQ,
	OPT_RXD,
	OPT_TXD,
	OPT_BURST,
	OPT_MBUFS,
	OPT_MBUF_SIZE,
	OPT_FWD_MODE,
	OPT_PORT_PAIRS,
	OPT_RXQ_PMD,
	OPT_STATS_PERIOD,
	OPT_DRAIN_US,
	OPT_TX_RETRIES,
	OPT_LINK_WAIT_MS,
	OPT_ETH_PEER,
	OPT_SLEEP_POLICY,
	OPT_SLEEP_MAX,
	OPT_BUDGET,
	OPT_SLEEP_STEP,
	OPT_BUSY_THRESHOLD,
	OPT_SLEEP_WINDOW,
	OPT_LINGER,
	OPT_WAKE,
	OPT_TIMER_SLACK,
	OPT_RXQ_CRITICAL,
	OPT_CRITICAL_MAX,
	OPT_INTR_AFTER,
	OPT_HOTPLUG_PORTS,
	OPT_YIELD_HZ,
	OPT_YIELD_US,
	OPT_PMD_PRIORITY,
	OPT_CONTROL_CORES,
};

static const struct option long_opts[] = {
	{"burst", required_argument, NULL, OPT_BURST},
	{"critical-sleep-max-us", required_argument, NULL, OPT_CRITICAL_MAX},
	{"busy-threshold", required_argument, NULL, OPT_BUSY_THRESHOLD},
	{"control-cores", required_argument, NULL, OPT_CONTROL_CORES},
	{"drain-us", required_argument, NULL, OPT_DRAIN_US},
	{"eth-peer", required_argument, NULL, OPT_ETH_PEER},
	{"fwd-mode", required_argument, NULL, OPT_FWD_MODE},
	{"help", no_argument, NULL, OPT_HELP},
	{"hotplug-ports", required_argument, NULL, OPT_HOTPLUG_PORTS},
	{"intr-after-ms", required_argument, NULL, OPT_INTR_AFTER},
	{"latency-budget-us", required_argument, NULL, OPT_BUDGET},
	{"linger-us", required_argument, NULL, OPT_LINGER},
	{"link-wait-ms", required_argument, NULL, OPT_LINK_WAIT_MS},
	{"mbufs", required_argument, NULL, OPT_MBUFS},
	{"mbuf-size", required_argument, NULL, OPT_MBUF_SIZE},
	{"pmd-cores", required_argument, NULL, OPT_PMD_CORES},
	{"pmd-priority", required_argument, NULL, OPT_PMD_PRIORITY},
	{"port-pairs", required_argument, NULL, OPT_PORT_PAIRS},
	{"rxd", required_argument, NULL, OPT_RXD},
	{"rxq", required_argument, NULL, OPT_RXQ},
	{"rxq-critical", required_argument, NULL, OPT_RXQ_CRITICAL},
	{"rxq-pmd", required_argument, NULL, OPT_RXQ_PMD},
	{"sleep-max-us", required_argument, NULL, OPT_SLEEP_MAX},
	{"sleep-policy", required_argument, NULL, OPT_SLEEP_POLICY},
	{"sleep-step-us", required_argument, NULL, OPT_SLEEP_STEP},
	{"sleep-window", required_argument, NULL, OPT_SLEEP_WINDOW},
	{"stats-period", required_argument, NULL, OPT_STATS_PERIOD},
	{"timer-slack-ns", required_argument, NULL, OPT_TIMER_SLACK},
	{"tx-retries", required_argument, NULL, OPT_TX_RETRIES},
	{"wake", required_argument, NULL, OPT_WAKE},
	{"txd", required_argument, NULL, OPT_TXD},
	{"txq", required_argument, NULL, OPT_TXQ},
	{"yield-hz", required_argument, NULL, OPT_YIELD_HZ},
	{"yield-us", required_argument, NULL, OPT_YIELD_US},
	{NULL, 0, NULL, 0},
};

/** Bounds of the plain numeric options, one row each. */
struct num_opt {
	int id;
	uint32_t min;
	uint32_t max;
	size_t offset;
	size_t size;
};

#define NUM_OPT(id, min, max, field)                                                               \
	{                                                                                          \
		id, min, max, offsetof(struct lull_config, field),                                 \
			sizeof(((struct lull_config *)0)->field)                                   \
	}

static const struct num_opt num_opts[] = {
	NUM_OPT(OPT_RXQ, 1, LULL_MAX_QUEUES, n_rxq),
	NUM_OPT(OPT_TXQ, 1, LULL_MAX_QUEUES, n_txq),
	NUM_OPT(OPT_RXD, 16, 32768, n_rxd),
	NUM_OPT(OPT_TXD, 16, 32768, n_txd),
	NUM_OPT(OPT_BURST, 1, LULL_MAX_BURST, burst),
	NUM_OPT(OPT_MBUFS, 1024, 16u << 20, n_mbufs),
	NUM_OPT(OPT_MBUF_SIZE, 64, 65000, mbuf_size),
	NUM_OPT(OPT_STATS_PERIOD, 0, 3600, stats_period_s),
	NUM_OPT(OPT_DRAIN_US, 1, 1000000, drain_us),
	NUM_OPT(OPT_TX_RETRIES, 0, 1000000, tx_retries),
	NUM_OPT(OPT_LINK_WAIT_MS, 0, 600000, link_wait_ms),
	NUM_OPT(OPT_BUDGET, 0, LULL_MAX_SLEEP_NS / 1000, latency_budget_us),
	NUM_OPT(OPT_SLEEP_STEP, 1, 1000, sleep_step_us),
	NUM_OPT(OPT_BUSY_THRESHOLD, 1, LULL_MAX_BURST, busy_threshold),
	NUM_OPT(OPT_SLEEP_WINDOW, 1, LULL_POLICY_MAX_WIN, sleep_window),
	NUM_OPT(OPT_LINGER, 0, 1000000, linger_us),
	NUM_OPT(OPT_TIMER_SLACK, 1, 1000000, timer_slack_ns),
	NUM_OPT(OPT_CRITICAL_MAX, 0, LULL_SLEEPLIST_MAX_US, critical_sleep_max_us),
	NUM_OPT(OPT_INTR_AFTER, 0, 3600000, intr_after_ms),
	NUM_OPT(OPT_HOTPLUG_PORTS, 0, LULL_MAX_PORTS, hotplug_ports),
	NUM_OPT(OPT_YIELD_HZ, 0, 10000, yield_hz),
	NUM_OPT(OPT_YIELD_US, 1, LULL_YIELD_MAX_SHARE_US, yield_us),
};

static const char *
opt_name(int id)
{
	for (const struct option *o = long_opts; o->name != NULL; o++)
		if (o->val == id)
			return o->name;
	return "?";
}

static int
parse_num_opt(
	struct lull_config *cfg, const struct num_opt *o, const char *arg, char *err, size_t errlen)
{
	uint32_t v;
	int ret = lull_parse_u32(arg, o->min, o->max, &v);

	if (ret < 0)
		return fail(err, errlen, ret,
			"--%s: bad value '%s' (%s; expected an integer in %u..%u)", opt_name(o->id),
			arg, expect_text(ret), o->min, o->max);
	if (o->size == sizeof(uint16_t)) {
		uint16_t v16 = (uint16_t)v;

		memcpy((char *)cfg + o->offset, &v16, sizeof(v16));
	} else {
		memcpy((char *)cfg + o->offset, &v, sizeof(v));
	}
	return 0;
}

static int
parse_named(const char *opt, const char *arg, const char *const *names, int n, int *out, char *err,
	size_t errlen)
{
	char expected[128] = "";

	for (int k = 0; k < n; k++) {
		if (strcmp(arg, names[k]) == 0) {
			*out = k;
			return 0;
		}
		snprintf(expected + strlen(expected), sizeof(expected) - strlen(expected), "%s%s",
			k ? (k == n - 1 ? " or " : ", ") : "", names[k]);
	}
	return fail(err, errlen, -EINVAL, "--%s: bad value '%s' (expected %s)", opt, arg, expected);
}

static int
parse_fwd_mode(struct lull_config *cfg, const char *arg, char *err, size_t errlen)
{
	int k = 0,
	    ret = parse_named("fwd-mode", arg, mode_names, LULL_FWD_N_MODES, &k, err, errlen);

	if (ret == 0)
		cfg->mode = (enum lull_fwd_mode)k;
	return ret;
}

/* Calls item(cfg, text) for each comma-separated item; the item parser names the bad one. */
static int
for_each_item(struct lull_config *cfg, const char *opt, const char *arg, char *err, size_t errlen,
	int (*item)(struct lull_config *, const char *, char *, size_t))
{
	const char *p = arg;

	for (;;) {
		char text[64];
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		int ret;

		if (len == 0 || len >= sizeof(text))
			return fail(err, errlen, -EINVAL,
				"--%s: bad value '%s' (empty or too long item)", opt, arg);
		memcpy(text, p, len);
		text[len] = '\0';
		ret = item(cfg, text, err, errlen);
		if (ret < 0)
			return ret;
		if (comma == NULL)
			return 0;
		p = comma + 1;
	}
}

/* "A:B" with A <= max_a and B <= max_b. */
static int
parse_colon_pair(const char *text, uint32_t max_a, uint32_t max_b, uint32_t *a, uint32_t *b)
{
	char a_text[16];
	const char *b_text = lull_split(text, ':', a_text, sizeof(a_text));

	if (b_text == NULL || lull_parse_u32(a_text, 0, max_a, a) < 0 ||
		lull_parse_u32(b_text, 0, max_b, b) < 0)
		return -EINVAL;
	return 0;
}

static int
pair_item(struct lull_config *cfg, const char *text, char *err, size_t errlen)
{
	uint32_t a, b;

	if (parse_colon_pair(text, LULL_MAX_PORTS - 1, LULL_MAX_PORTS - 1, &a, &b) < 0)
		return fail(err, errlen, -EINVAL,
			"--port-pairs: bad pair '%s' (expected PORT:PORT, ports 0..%d)", text,
			LULL_MAX_PORTS - 1);
	if (cfg->n_pairs == LULL_MAX_PORTS)
		return fail(err, errlen, -E2BIG, "--port-pairs: too many pairs at '%s'", text);
	cfg->pairs[cfg->n_pairs].a = (uint16_t)a;
	cfg->pairs[cfg->n_pairs].b = (uint16_t)b;
	cfg->n_pairs++;
	return 0;
}

static int
pin_item(struct lull_config *cfg, const char *text, char *err, size_t errlen)
{
	char port_text[16], queue_text[16];
	const char *rest = lull_split(text, ':', port_text, sizeof(port_text));
	const char *core_text = rest ? lull_split(rest, '@', queue_text, sizeof(queue_text)) : NULL;
	uint32_t port, queue, lcore;

	if (core_text == NULL || lull_parse_u32(port_text, 0, LULL_MAX_PORTS - 1, &port) < 0 ||
		lull_parse_u32(queue_text, 0, LULL_MAX_QUEUES - 1, &queue) < 0 ||
		lull_parse_u32(core_text, 0, LULL_MAX_LCORES - 1, &lcore) < 0)
		return fail(err, errlen, -EINVAL,
			"--rxq-pmd: bad assignment '%s' (expected PORT:QUEUE@CORE)", text);
	for (unsigned int i = 0; i < cfg->n_pins; i++)
		if (cfg->pins[i].port == port && cfg->pins[i].queue == queue)
			return fail(err, errlen, -EEXIST,
				"--rxq-pmd: queue %u:%u assigned twice at '%s'", port, queue, text);
	if (cfg->n_pins == LULL_MAX_PINS)
		return fail(err, errlen, -E2BIG, "--rxq-pmd: too many assignments at '%s'", text);
	cfg->pins[cfg->n_pins++] = (struct lull_rxq_pin){
		.port = (uint16_t)port, .queue = (uint16_t)queue, .lcore = lcore};
	return 0;
}

static int
parse_sleep_policy(struct lull_config *cfg, const char *arg, char *err, size_t errlen)
{
	const char *policies[LULL_POLICY_N_KINDS];
	int k = 0, ret;

	for (int i = 0; i < LULL_POLICY_N_KINDS; i++)
		policies[i] = lull_policy_name((enum lull_policy_kind)i);
	ret = parse_named("sleep-policy", arg, policies, LULL_POLICY_N_KINDS, &k, err, errlen);
	if (ret == 0)
		cfg->sleep_policy = (enum lull_policy_kind)k;
	return ret;
}

static int
parse_wake(struct lull_config *cfg, const char *arg, char *err, size_t errlen)
{
	int k = 0, ret = parse_named("wake", arg, wake_names, LULL_WAKE_N_KINDS, &k, err, errlen);

	if (ret == 0)
		cfg->wake = (enum lull_wake_kind)k;
	return ret;
}

static int
parse_sleep_max(struct lull_config *cfg, const char *arg, char *err, size_t errlen)
{
	char why[384];
	int ret = lull_sleeplist_parse(arg, &cfg->sleep_max, why, sizeof(why));

	if (ret < 0)
		return fail(err, errlen, ret, "--sleep-max-us: %s", why);
	return 0;
}

static int
critical_item(struct lull_config *cfg, const char *text, char *err, size_t errlen)
{
	uint32_t port, queue;

	if (parse_colon_pair(text, LULL_MAX_PORTS - 1, LULL_MAX_QUEUES - 1, &port, &queue) < 0)
		return fail(err, errlen, -EINVAL,
			"--rxq-critical: bad queue '%s' (expected PORT:QUEUE)", text);
	if (cfg->n_critical == LULL_MAX_PINS)
		return fail(err, errlen, -E2BIG, "--rxq-critical: too many queues at '%s'", text);
	cfg->critical[cfg->n_critical++] =
		(struct lull_port_pair){.a = (uint16_t)port, .b = (uint16_t)queue};
	return 0;
}

static int
parse_eth_peer(struct lull_config *cfg, const char *arg, char *err, size_t errlen)
{
	char port_text[16];
	const char *mac_text = lull_split(arg, ',', port_text, sizeof(port_text));
	uint32_t port;

	if (mac_text == NULL || lull_parse_u32(port_text, 0, LULL_MAX_PORTS - 1, &port) < 0 ||
		lull_parse_mac(mac_text, cfg->peer_mac[port]) < 0)
		return fail(err, errlen, -EINVAL,
			"--eth-peer: bad value '%s' (expected PORT,XX:XX:XX:XX:XX:XX)", arg);
	return 0;
}

static int
parse_control_cores(struct lull_config *cfg, const char *arg, char *err, size_t errlen)
{
	int ret = lull_parse_uint_list(
		arg, LULL_MAX_CPUS - 1, cfg->control_cpus, LULL_MAX_CPUS, &cfg->n_control_cpus);

	if (ret < 0)
		return fail(err, errlen, ret,
			"--control-cores: bad value '%s' (%s; expected a list like 0,2-3 of CPUs "
			"0..%d)",
			arg, expect_text(ret), LULL_MAX_CPUS - 1);
	return 0;
}

static int
parse_priority(struct lull_config *cfg, const char *arg, char *err, size_t errlen)
{
	struct lull_prio p = {LULL_PRIO_NONE, 0};
	bool negative = false;
	const char *num = NULL;
	uint32_t v = 0, max = 0;

	if (strncmp(arg, "nice:", 5) == 0) {
		p.kind = LULL_PRIO_NICE;
		num = arg + 5;
		negative = *num == '-';
		num += negative;
		max = negative ? 20 : 19;
	} else if (strncmp(arg, "fifo:", 5) == 0) {
		p.kind = LULL_PRIO_FIFO;
		num = arg + 5;
		max = 99;
	} else if (strcmp(arg, "none") != 0) {
		num = "";
	}
	if (num != NULL && (lull_parse_u32(num, p.kind == LULL_PRIO_FIFO, max, &v) < 0 ||
				   (negative && v == 0)))
		return fail(err, errlen, -EINVAL,
			"--pmd-priority: bad value '%s' (expected none, nice:N with N in -20..19, "
			"or fifo:N with N in 1..99)",
			arg);
	p.value = negative ? -(int)v : (int)v;
	cfg->pmd_priority = p;
	return 0;
}

void
lull_prio_format(const struct lull_prio *p, char *buf, size_t len)
{
	if (p->kind == LULL_PRIO_NICE)
		snprintf(buf, len, "nice:%d", p->value);
	else if (p->kind == LULL_PRIO_FIFO)
		snprintf(buf, len, "fifo:%d", p->value);
	else
		snprintf(buf, len, "none");
}

static int
parse_pmd_cores(struct lull_config *cfg, const char *arg, char *err, size_t errlen)
{
	int ret = lull_parse_uint_list(
		arg, LULL_MAX_LCORES - 1, cfg->pmd_lcores, LULL_MAX_PMDS, &cfg->n_pmds);

	if (ret < 0)
		return fail(err, errlen, ret,
			"--pmd-cores: bad value '%s' (%s; expected a list like 1,3-5 of lcores "
			"0..%d)",
			arg, expect_text(ret), LULL_MAX_LCORES - 1);
	return 0;
}

int
lull_config_parse(struct lull_config *cfg, int argc, char **argv, char *err, size_t errlen)
{
	int opt, ret = 0;

	optind = 0; /* 0, not 1: glibc then fully resets getopt, so parsing can run again */
	opterr = 0; /* we print our own one-line errors */
	while (ret == 0 && (opt = getopt_long(argc, argv, ":h", long_opts, NULL)) != -1) {
		const struct num_opt *num = NULL;

		for (size_t i = 0; i < sizeof(num_opts) / sizeof(num_opts[0]); i++)
			if (num_opts[i].id == opt)
				num = &num_opts[i];
		if (num != NULL) {
			ret = parse_num_opt(cfg, num, optarg, err, errlen);
			continue;
		}
		switch (opt) {
		case OPT_HELP:
			cfg->help = true;
			break;
		case OPT_PMD_CORES:
			ret = parse_pmd_cores(cfg, optarg, err, errlen);
			break;
		case OPT_CONTROL_CORES:
			ret = parse_control_cores(cfg, optarg, err, errlen);
			break;
		case OPT_PMD_PRIORITY:
			ret = parse_priority(cfg, optarg, err, errlen);
			break;
		case OPT_FWD_MODE:
			ret = parse_fwd_mode(cfg, optarg, err, errlen);
			break;
		case OPT_PORT_PAIRS:
			cfg->n_pairs = 0;
			ret = for_each_item(cfg, "port-pairs", optarg, err, errlen, pair_item);
			break;
		case OPT_RXQ_PMD:
			cfg->n_pins = 0;
			ret = for_each_item(cfg, "rxq-pmd", optarg, err, errlen, pin_item);
			break;
		case OPT_ETH_PEER:
			ret = parse_eth_peer(cfg, optarg, err, errlen);
			break;
		case OPT_SLEEP_POLICY:
			ret = parse_sleep_policy(cfg, optarg, err, errlen);
			break;
		case OPT_SLEEP_MAX:
			ret = parse_sleep_max(cfg, optarg, err, errlen);
			break;
		case OPT_WAKE:
			ret = parse_wake(cfg, optarg, err, errlen);
			break;
		case OPT_RXQ_CRITICAL:
			cfg->n_critical = 0;
			ret = for_each_item(
				cfg, "rxq-critical", optarg, err, errlen, critical_item);
			break;
		default: /* ':' missing value, '?' unknown option */
			ret = lull_getopt_error(opt, argv, err, errlen);
			break;
		}
	}
	if (ret == 0 && optind < argc)
		ret = fail(err, errlen, -EINVAL, "unexpected argument '%s' (see --help)",
			argv[optind]);
	return ret;
}

static int
pmd_index(const struct lull_config *cfg, unsigned int lcore)
{
	for (unsigned int i = 0; i < cfg->n_pmds; i++)
		if (cfg->pmd_lcores[i] == lcore)
			return (int)i;
	return -1;
}

static int
resolve_pmds(struct lull_config *cfg, const struct lull_sys *sys, char *err, size_t errlen)
{
	if (cfg->n_pmds == 0) {
		for (unsigned int l = 0; l < LULL_MAX_LCORES && cfg->n_pmds < LULL_MAX_PMDS; l++)
			if (sys->lcore_enabled[l] && l != sys->main_lcore)
				cfg->pmd_lcores[cfg->n_pmds++] = l;
		if (cfg->n_pmds == 0)
			return fail(err, errlen, -EINVAL,
				"no PMD core: give EAL at least two lcores (e.g. -l 0,1; the first "
				"is the main lcore)");
		return 0;
	}
	for (unsigned int i = 0; i < cfg->n_pmds; i++) {
		unsigned int l = cfg->pmd_lcores[i];

		if (l == sys->main_lcore)
			return fail(err, errlen, -EINVAL,
				"--pmd-cores: lcore %u is the EAL main lcore, which runs the "
				"control plane",
				l);
		if (!sys->lcore_enabled[l])
			return fail(err, errlen, -EINVAL,
				"--pmd-cores: lcore %u is not an EAL lcore (add it to EAL's -l "
				"list)",
				l);
	}
	return 0;
}

static int
resolve_pairs(struct lull_config *cfg, const struct lull_sys *sys, char *err, size_t errlen)
{
	bool seen[LULL_MAX_PORTS] = {false};

	if (cfg->n_pairs == 0) {
		if (sys->n_ports % 2 != 0)
			return fail(err, errlen, -EINVAL,
				"odd number of ports (%u) for the default pairing 0<->1, 2<->3, "
				"...: add a port or give --port-pairs (a port may pair with "
				"itself, e.g. 2:2)",
				sys->n_ports);
		for (unsigned int p = 0; p < sys->n_ports; p += 2)
			cfg->pairs[cfg->n_pairs++] =
				(struct lull_port_pair){.a = (uint16_t)p, .b = (uint16_t)(p + 1)};
	}
	for (unsigned int i = 0; i < cfg->n_pairs; i++) {
		uint16_t a = cfg->pairs[i].a, b = cfg->pairs[i].b;

		if (a >= sys->n_ports || b >= sys->n_ports)
			return fail(err, errlen, -EINVAL,
				"--port-pairs: pair %u:%u names a port that does not exist (%u "
				"ports)",
				a, b, sys->n_ports);
		if (seen[a] || (a != b && seen[b]))
			return fail(err, errlen, -EINVAL,
				"--port-pairs: port %u is in more than one pair", seen[a] ? a : b);
		seen[a] = seen[b] = true;
		cfg->dst_port[a] = b;
		cfg->dst_port[b] = a;
	}
	for (unsigned int p = 0; p < sys->n_ports; p++)
		if (!seen[p])
			return fail(err, errlen, -EINVAL,
				"--port-pairs: port %u is in no pair (every port is forwarded)", p);
	return 0;
}

static int
resolve_rxqs(struct lull_config *cfg, char *err, size_t errlen)
{
	bool pinned[LULL_MAX_PORTS][LULL_MAX_QUEUES] = {{false}};
	unsigned int next = 0;

	for (unsigned int i = 0; i < cfg->n_pins; i++) {
		const struct lull_rxq_pin *pin = &cfg->pins[i];
		int pmd = pmd_index(cfg, pin->lcore);

		if (pin->port >= cfg->n_ports)
			return fail(err, errlen, -EINVAL,
				"--rxq-pmd: %u:%u@%u: port %u does not exist (%u ports)", pin->port,
				pin->queue, pin->lcore, pin->port, cfg->n_ports);
		if (pin->queue >= cfg->n_rxq)
			return fail(err, errlen, -EINVAL,
				"--rxq-pmd: %u:%u@%u: queue %u does not exist (--rxq %u)",
				pin->port, pin->queue, pin->lcore, pin->queue, cfg->n_rxq);
		if (pmd < 0)
			return fail(err, errlen, -EINVAL,
				"--rxq-pmd: %u:%u@%u: lcore %u is not a PMD core", pin->port,
				pin->queue, pin->lcore, pin->lcore);
		cfg->rxq_pmd[pin->port][pin->queue] = (uint16_t)pmd;
		pinned[pin->port][pin->queue] = true;
	}
	/* Round-robin the rest, queue-major so that one port's queues spread over PMDs. */
	for (unsigned int q = 0; q < cfg->n_rxq; q++)
		for (unsigned int p = 0; p < cfg->n_ports; p++)
			if (!pinned[p][q])
				cfg->rxq_pmd[p][q] = (uint16_t)(next++ % cfg->n_pmds);
	for (unsigned int pmd = 0; pmd < cfg->n_pmds; pmd++) {
		unsigned int n = 0;

		for (unsigned int p = 0; p < cfg->n_ports; p++)
			for (unsigned int q = 0; q < cfg->n_rxq; q++)
				n += cfg->rxq_pmd[p][q] == pmd;
		if (n > LULL_PMD_MAX_RXQS)
			return fail(err, errlen, -E2BIG,
				"PMD on lcore %u would poll %u rx queues (max %d)",
				cfg->pmd_lcores[pmd], n, LULL_PMD_MAX_RXQS);
	}
	return 0;
}

/*
 * A SCHED_FIFO thread that never blocks keeps every SCHED_OTHER thread off its
 * core (but for RT throttling's share): fifo needs sleeping or the yield on
 * every PMD. And the yield may take at most half of each second.
 */
static int
check_sharing(const struct lull_config *cfg, char *err, size_t errlen)
{
	if (cfg->yield_hz != 0 && (uint64_t)cfg->yield_hz * cfg->yield_us > LULL_YIELD_MAX_SHARE_US)
		return fail(err, errlen, -EINVAL,
			"--yield-us: bad value '%u' (%u us %u times a second is more than half "
			"of the PMD's core)",
			cfg->yield_us, cfg->yield_us, cfg->yield_hz);
	if (cfg->pmd_priority.kind != LULL_PRIO_FIFO || cfg->yield_hz != 0)
		return 0;
	for (unsigned int i = 0; i < cfg->n_pmds; i++) {
		struct lull_policy_params p;

		lull_config_policy(cfg, cfg->pmd_lcores[i], &p);
		if (p.kind == LULL_POLICY_OFF)
			return fail(err, errlen, -EINVAL,
				"--pmd-priority fifo:%d: the PMD on lcore %u busy-polls and would "
				"starve every other thread on its core; turn sleeping on or give "
				"--yield-hz",
				cfg->pmd_priority.value, cfg->pmd_lcores[i]);
	}
	return 0;
}

static int
check_critical(const struct lull_config *cfg, char *err, size_t errlen)
{
	for (unsigned int i = 0; i < cfg->n_critical; i++)
		if (cfg->critical[i].a >= cfg->n_ports || cfg->critical[i].b >= cfg->n_rxq)
			return fail(err, errlen, -EINVAL,
				"--rxq-critical: queue %u:%u does not exist (%u ports, --rxq %u)",
				cfg->critical[i].a, cfg->critical[i].b, cfg->n_ports, cfg->n_rxq);
	return 0;
}

unsigned int
lull_config_segs_per_frame(const struct lull_config *cfg)
{
	return (LULL_FRAME_MAX_DEFAULT + cfg->mbuf_size - 1u) / cfg->mbuf_size;
}

int
lull_config_resolve(struct lull_config *cfg, const struct lull_sys *sys, char *err, size_t errlen)
{
	int ret;

	if (sys->n_ports == 0)
		return fail(err, errlen, -ENODEV,
			"no ports: give EAL a device, e.g. --vdev net_memif0 or a PCI address "
			"(-a)");
	if (sys->n_ports > LULL_MAX_PORTS)
		return fail(err, errlen, -E2BIG, "%u ports, at most %d are supported", sys->n_ports,
			LULL_MAX_PORTS);
	cfg->n_ports = sys->n_ports;
	ret = resolve_pmds(cfg, sys, err, errlen);
	if (ret == 0)
		ret = resolve_pairs(cfg, sys, err, errlen);
	if (ret < 0)
		return ret;
	if (cfg->n_txq == 0)
		cfg->n_txq = (uint16_t)cfg->n_pmds;
	if (cfg->n_txq < cfg->n_pmds)
		return fail(err, errlen, -EINVAL,
			"--txq: bad value '%u' (each of the %u PMDs needs its own tx queue per "
			"port)",
			cfg->n_txq, cfg->n_pmds);
	ret = resolve_rxqs(cfg, err, errlen);
	if (ret < 0)
		return ret;
	ret = check_critical(cfg, err, errlen);
	if (ret == 0)
		ret = check_sharing(cfg, err, errlen);
	if (ret < 0)
		return ret;
	if (cfg->n_mbufs == 0) {
		/* Every rx and tx ring full (ports of now and those port-add may add), every
		 * tx buffer full, one burst in flight per PMD, per-lcore mempool caches (256
		 * each), plus slack. */
		uint64_t n = (uint64_t)(cfg->n_ports + cfg->hotplug_ports) *
			     (cfg->n_rxq * cfg->n_rxd + cfg->n_txq * cfg->n_txd);

		n += (uint64_t)cfg->n_pmds * (cfg->n_ports + cfg->hotplug_ports + 1u) * cfg->burst;
		n += (uint64_t)(cfg->n_pmds + 1) * 256 + 4096;
		/* Mbufs smaller than a frame: a full-size frame is a chain of segments. */
		n *= lull_config_segs_per_frame(cfg);
		cfg->n_mbufs = n > (16u << 20) ? 16u << 20 : (uint32_t)n;
	}
	return 0;
}

void
lull_config_policy(const struct lull_config *cfg, unsigned int lcore, struct lull_policy_params *p)
{
	lull_policy_defaults(p, cfg->sleep_policy, cfg->burst, cfg->n_rxd);
	p->max_sleep_ns =
		(uint64_t)lull_sleeplist_get(&cfg->sleep_max, lcore, LULL_DEFAULT_SLEEP_MAX_US) *
		1000;
	p->step_ns = (uint64_t)cfg->sleep_step_us * 1000;
	if (cfg->busy_threshold != 0)
		p->busy_threshold = cfg->busy_threshold;
	p->window = cfg->sleep_window;
	p->budget_ns = (uint64_t)cfg->latency_budget_us * 1000;
	p->linger_ns = (uint64_t)cfg->linger_us * 1000;
	/* A PMD that polls a latency-critical queue sleeps at most the critical maximum. */
	for (unsigned int i = 0; i < cfg->n_critical; i++) {
		int pmd = pmd_index(cfg, lcore);

		if (pmd >= 0 && cfg->rxq_pmd[cfg->critical[i].a][cfg->critical[i].b] == pmd &&
			p->max_sleep_ns > (uint64_t)cfg->critical_sleep_max_us * 1000)
			p->max_sleep_ns = (uint64_t)cfg->critical_sleep_max_us * 1000;
	}
	if (p->max_sleep_ns == 0) /* a PMD whose maximum is 0 busy-polls, as in OVS */
		p->kind = LULL_POLICY_OFF;
}

static int
check_count(const char *opt, uint16_t n, uint16_t max, const char *dev, char *err, size_t errlen)
{
	if (n > max)
		return fail(err, errlen, -EINVAL, "--%s: bad value '%u' for %s (it has at most %u)",
			opt, n, dev, max);
	return 0;
}

static int
check_desc(const char *opt, uint16_t n, uint16_t min, uint16_t max, uint16_t align, const char *dev,
	char *err, size_t errlen)
{
	if (align == 0)
		align = 1;
	if (n < min || n > max || n % align != 0)
		return fail(err, errlen, -EINVAL,
			"--%s: bad value '%u' for %s (it accepts %u..%u, a multiple of %u)", opt, n,
			dev, min, max, align);
	return 0;
}

int
lull_config_check_port(
	const struct lull_config *cfg, const struct lull_port_limits *lim, char *err, size_t errlen)
{
	int ret = check_count("rxq", cfg->n_rxq, lim->max_rxq, lim->name, err, errlen);

	if (ret == 0)
		ret = check_count("txq", cfg->n_txq, lim->max_txq, lim->name, err, errlen);
	if (ret == 0)
		ret = check_desc("rxd", cfg->n_rxd, lim->rxd_min, lim->rxd_max, lim->rxd_align,
			lim->name, err, errlen);
	if (ret == 0)
		ret = check_desc("txd", cfg->n_txd, lim->txd_min, lim->txd_max, lim->txd_align,
			lim->name, err, errlen);
	/* A driver without rx scatter may still chain (memif does) or drop long frames:
	 * lull_port_start() says so. One that cannot send a chain would corrupt it. */
	if (ret == 0 && lull_config_segs_per_frame(cfg) > 1 && !lim->tx_multi_seg) {
		snprintf(err, errlen,
			"--mbuf-size %u: port %s cannot send chains of mbufs; "
			"use --mbuf-size %u or more",
			cfg->mbuf_size, lim->name, LULL_FRAME_MAX_DEFAULT);
		ret = -EINVAL;
	}
	return ret;
}

/* What may change on a running forwarder: PMDs pick these up at a housekeeping tick. */
static const char *const settable[] = {"sleep-policy", "sleep-max-us", "latency-budget-us",
	"sleep-step-us", "busy-threshold", "sleep-window", "linger-us", "wake", "timer-slack-ns",
	"intr-after-ms", "rxq-critical", "critical-sleep-max-us", "drain-us", "stats-period",
	"yield-hz", "yield-us", "pmd-priority"};

const char *
lull_config_settable(void)
{
	return "sleep-policy sleep-max-us latency-budget-us sleep-step-us busy-threshold "
	       "sleep-window linger-us wake timer-slack-ns intr-after-ms rxq-critical "
	       "critical-sleep-max-us drain-us stats-period yield-hz yield-us pmd-priority";
}

int
lull_config_set(
	struct lull_config *cfg, const char *key, const char *value, char *err, size_t errlen)
{
	struct lull_config *tmp;
	char opt[64];
	char *argv[4];
	bool known = false;
	int ret;

	/* sleep_max_us (telemetry's spelling) is sleep-max-us */
	ret = snprintf(opt, sizeof(opt), "--%s", key);
	for (char *c = opt; *c != '\0'; c++)
		if (*c == '_')
			*c = '-';
	for (size_t i = 0; ret < (int)sizeof(opt) && i < sizeof(settable) / sizeof(settable[0]);
		i++)
		known = known || strcmp(opt + 2, settable[i]) == 0;
	if (!known)
		return fail(err, errlen, -EINVAL,
			"set: bad key '%.40s' (the settable list has the keys)", key);
	tmp = malloc(sizeof(*tmp));
	if (tmp == NULL)
		return fail(err, errlen, -ENOMEM, "set: out of memory");
	*tmp = *cfg;
	argv[0] = (char *)"set";
	argv[1] = opt;
	argv[2] = (char *)value;
	argv[3] = NULL;
	ret = lull_config_parse(tmp, 3, argv, err, errlen);
	if (ret == 0)
		ret = check_critical(tmp, err, errlen);
	if (ret == 0)
		ret = check_sharing(tmp, err, errlen);
	if (ret == 0)
		*cfg = *tmp;
	free(tmp);
	return ret;
}

int
lull_config_port_add(struct lull_config *cfg, uint16_t id, uint16_t peer, char *err, size_t errlen)
{
	unsigned int load[LULL_MAX_PMDS] = {0};

	if (id >= LULL_MAX_PORTS)
		return fail(err, errlen, -E2BIG, "port-add: port id %u: at most %d ports", id,
			LULL_MAX_PORTS);
	if (peer != LULL_PORT_NONE && peer != id &&
		(peer >= cfg->n_ports || cfg->dst_port[peer] != LULL_PORT_NONE))
		return fail(err, errlen, -EINVAL,
			"port-add: peer port %u is not a port waiting for a pair", peer);
	for (unsigned int p = 0; p < cfg->n_ports; p++)
		for (unsigned int q = 0; q < cfg->n_rxq; q++)
			if (p != id && cfg->dst_port[p] != LULL_PORT_NONE)
				load[cfg->rxq_pmd[p][q]]++;
	for (unsigned int p = cfg->n_ports; p < id; p++)
		cfg->dst_port[p] = LULL_PORT_NONE; /* ids skipped: no port */
	if (id >= cfg->n_ports)
		cfg->n_ports = id + 1u;
	for (unsigned int q = 0; q < cfg->n_rxq; q++) {
		unsigned int best = 0;

		for (unsigned int pmd = 1; pmd < cfg->n_pmds; pmd++)
			if (load[pmd] < load[best])
				best = pmd;
		cfg->rxq_pmd[id][q] = (uint16_t)best;
		load[best]++;
	}
	cfg->dst_port[id] = peer;
	if (peer != LULL_PORT_NONE)
		cfg->dst_port[peer] = id;
	return 0;
}

void
lull_config_port_del(struct lull_config *cfg, uint16_t id)
{
	if (id >= cfg->n_ports)
		return;
	if (cfg->dst_port[id] != LULL_PORT_NONE && cfg->dst_port[id] != id)
		cfg->dst_port[cfg->dst_port[id]] = LULL_PORT_NONE; /* the peer waits for a pair */
	cfg->dst_port[id] = LULL_PORT_NONE;
	/* a latency-critical mark goes with its port */
	for (unsigned int i = 0; i < cfg->n_critical;)
		if (cfg->critical[i].a == id)
			cfg->critical[i] = cfg->critical[--cfg->n_critical];
		else
			i++;
}

static void
emit_u32(void (*emit)(void *, const char *, const char *), void *ctx, const char *key, uint32_t v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u", v);
	emit(ctx, key, buf);
}

/* Append to a list being built in buf ("a,b,..."). */
static void
list_add(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	if (used > 0)
		buf[used++] = ',';
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

void
lull_config_describe(const struct lull_config *cfg,
	void (*emit)(void *ctx, const char *key, const char *value), void *ctx)
{
	char buf[1024];
	const struct lull_sleeplist *sl = &cfg->sleep_max;

	buf[0] = '\0';
	for (unsigned int i = 0; i < cfg->n_pmds; i++)
		list_add(buf, sizeof(buf), "%u", cfg->pmd_lcores[i]);
	emit(ctx, "pmd-cores", buf);
	emit_u32(emit, ctx, "rxq", cfg->n_rxq);
	emit_u32(emit, ctx, "txq", cfg->n_txq);
	emit_u32(emit, ctx, "rxd", cfg->n_rxd);
	emit_u32(emit, ctx, "txd", cfg->n_txd);
	emit_u32(emit, ctx, "mbufs", cfg->n_mbufs);
	emit_u32(emit, ctx, "mbuf-size", cfg->mbuf_size);
	emit_u32(emit, ctx, "hotplug-ports", cfg->hotplug_ports);
	buf[0] = '\0';
	for (unsigned int p = 0; p < cfg->n_ports; p++)
		if (cfg->dst_port[p] != LULL_PORT_NONE && cfg->dst_port[p] >= p)
			list_add(buf, sizeof(buf), "%u:%u", p, cfg->dst_port[p]);
	emit(ctx, "port-pairs", buf);
	emit(ctx, "fwd-mode", lull_fwd_mode_name(cfg->mode));
	emit_u32(emit, ctx, "burst", cfg->burst);
	emit_u32(emit, ctx, "drain-us", cfg->drain_us);
	emit_u32(emit, ctx, "tx-retries", cfg->tx_retries);
	emit(ctx, "sleep-policy", lull_policy_name(cfg->sleep_policy));
	buf[0] = '\0';
	list_add(buf, sizeof(buf), "%u",
		sl->has_default ? sl->default_us : LULL_DEFAULT_SLEEP_MAX_US);
	for (unsigned int i = 0; i < sl->n; i++)
		list_add(buf, sizeof(buf), "%u:%u", sl->entries[i].core, sl->entries[i].us);
	emit(ctx, "sleep-max-us", buf);
	emit_u32(emit, ctx, "latency-budget-us", cfg->latency_budget_us);
	emit_u32(emit, ctx, "sleep-step-us", cfg->sleep_step_us);
	emit_u32(emit, ctx, "busy-threshold",
		cfg->busy_threshold ? cfg->busy_threshold : (cfg->burst / 2 ? cfg->burst / 2 : 1u));
	emit_u32(emit, ctx, "sleep-window", cfg->sleep_window);
	emit_u32(emit, ctx, "linger-us", cfg->linger_us);
	emit(ctx, "wake", lull_wake_name(cfg->wake));
	emit_u32(emit, ctx, "timer-slack-ns", cfg->timer_slack_ns);
	emit_u32(emit, ctx, "intr-after-ms", cfg->intr_after_ms);
	buf[0] = '\0';
	for (unsigned int i = 0; i < cfg->n_critical; i++)
		list_add(buf, sizeof(buf), "%u:%u", cfg->critical[i].a, cfg->critical[i].b);
	emit(ctx, "rxq-critical", buf);
	emit_u32(emit, ctx, "critical-sleep-max-us", cfg->critical_sleep_max_us);
	emit_u32(emit, ctx, "yield-hz", cfg->yield_hz);
	emit_u32(emit, ctx, "yield-us", cfg->yield_us);
	lull_prio_format(&cfg->pmd_priority, buf, sizeof(buf));
	emit(ctx, "pmd-priority", buf);
	buf[0] = '\0';
	for (unsigned int i = 0; i < cfg->n_control_cpus; i++)
		list_add(buf, sizeof(buf), "%u", cfg->control_cpus[i]);
	emit(ctx, "control-cores", buf);
	emit_u32(emit, ctx, "stats-period", cfg->stats_period_s);
}

void
lull_config_usage(const char *prog)
{
	printf("Usage: %s [EAL options] -- [lull options]\n"
	       "\n"
	       "Poll-mode forwarder: every port EAL probes is polled and forwarded to its pair.\n"
	       "\n"
	       "Threads:\n"
	       "  --pmd-cores LIST      lcores that run PMD threads, e.g. 1,3-5 (default: every "
	       "EAL\n"
	       "                        lcore but the main one)\n"
	       "  --rxq-pmd LIST        pin rx queues: PORT:QUEUE@CORE,... (the rest round-robin)\n"
	       "Ports:\n"
	       "  --rxq N               rx queues per port (default 1)\n"
	       "  --txq N               tx queues per port (default: one per PMD)\n"
	       "  --rxd N               rx descriptors per queue (default 1024)\n"
	       "  --txd N               tx descriptors per queue (default 1024)\n"
	       "  --mbufs N             mbufs in the pool (default: enough to fill every ring)\n"
	       "  --mbuf-size N         packet data bytes per mbuf, 64..65000 (default 2048);\n"
	       "                        below 1522 a frame arrives as a chain of mbufs\n"
	       "  --port-pairs LIST     A:B,... forward A<->B; A:A reflects (default 0:1,2:3,...)\n"
	       "  --link-wait-ms MS     wait up to MS for links at start (default 9000)\n"
	       "  --hotplug-ports N     ports port-add may add at run time; sizes the mbuf pool\n"
	       "                        (default 2)\n"
	       "Forwarding:\n"
	       "  --fwd-mode MODE       io (as is), mac (src = port MAC, dst = peer), macswap\n"
	       "                        (default io)\n"
	       "  --eth-peer P,MAC      dst MAC for tx port P in mac mode (default "
	       "02:00:00:00:00:P)\n"
	       "  --burst N             rx burst and tx buffer size, 1..%d (default 32)\n"
	       "  --drain-us US         flush a tx buffer at least every US under load (default "
	       "100;\n"
	       "                        an idle poll flushes at once)\n"
	       "  --tx-retries N        retry a refused tx N times before dropping (default 0)\n"
	       "Sleeping:\n"
	       "  --sleep-policy P      off (busy polling), ovs (OVS 3.1: +step per light "
	       "iteration,\n"
	       "                        reset when a burst reaches the busy threshold), window "
	       "(the same\n"
	       "                        judged over the last W iterations), rate (default: from "
	       "the\n"
	       "                        arrival rate, within the latency budget and the rx ring)\n"
	       "  --sleep-max-us LIST   maximum sleep per PMD, OVS pmd-sleep-max syntax: "
	       "250,3:0,5:50 =\n"
	       "                        250 us, 0 on core 3 (busy polls), 50 on core 5 (default "
	       "250,\n"
	       "                        at most 10000)\n"
	       "  --latency-budget-us U rate: latency a sleep may add, oversleep included (default "
	       "250)\n"
	       "  --sleep-step-us U     ovs/window ramp step; rate: shortest sleep worth taking "
	       "(default 1)\n"
	       "  --busy-threshold N    packets in one burst that mean busy (default burst/2)\n"
	       "  --sleep-window W      window: iterations of history (default 64)\n"
	       "  --linger-us U         rate: keep polling this long after a packet, while that\n"
	       "                        catches follow-ups (replies) (default 20)\n"
	       "  --wake W              auto, nanosleep, pause (spin), tpause (WAITPKG) or "
	       "monitor\n"
	       "                        (MONITORX/UMWAIT on the rx descriptors) (default auto)\n"
	       "  --intr-after-ms MS    hand an idle PMD over to rx interrupts after MS idle, "
	       "where\n"
	       "                        every polled queue has them; 0 = never (default 200)\n"
	       "  --timer-slack-ns N    PMD threads' timer slack (default 1)\n"
	       "  --rxq-critical LIST   latency-critical rx queues, PORT:QUEUE,...: the PMD "
	       "polling\n"
	       "                        one sleeps at most --critical-sleep-max-us\n"
	       "  --critical-sleep-max-us U  that cap (default 0: busy polls)\n"
	       "Sharing the core:\n"
	       "  --yield-hz H          every PMD gives its CPU up H times a second, whatever the\n"
	       "                        load, so kernel work on its core runs (default 0: never;\n"
	       "                        costs nothing then)\n"
	       "  --yield-us D          for D us each time (default 10)\n"
	       "  --pmd-priority P      none, nice:N (-20..19) or fifo:N (1..99; needs sleeping\n"
	       "                        or --yield-hz on every PMD) (default none)\n"
	       "  --control-cores LIST  CPUs for every non-PMD thread (main, telemetry, EAL\n"
	       "                        interrupt thread), e.g. 0 (default: where EAL put them)\n"
	       "Output:\n"
	       "  --stats-period S      print stats every S seconds, 0 = only at exit (default 1)\n"
	       "  -h, --help            this text\n"
	       "\n"
	       "Example (two memif ports, PMD on lcore 1):\n"
	       "  %s -l 0,1 --no-huge -m 512 --no-pci --file-prefix=lull \\\n"
	       "     --vdev net_memif0,role=server,socket=/tmp/a.sock,socket-abstract=no \\\n"
	       "     --vdev net_memif1,role=server,socket=/tmp/b.sock,socket-abstract=no -- "
	       "--fwd-mode io\n",
		prog, LULL_MAX_BURST, prog);
}
