/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lull's options: one table (lib/opt) from which getopt, --help, the describe
 * output (config-show) and the settable keys are generated. The sleep-policy
 * rows are lib/sleepopt's, shared with lull-sim.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "opt.h"
#include "options.h"

#include "consolidate.h"
#include "parse.h"

#define CFG(row, target) ((struct lull_config *)(target)) /* row: for the reader */
#define CCFG(target)     ((const struct lull_config *)(target))

static const char *
mode_name(unsigned int k)
{
	return lull_fwd_mode_name((enum lull_fwd_mode)k);
}

static int
parse_fwd_mode(const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	int k = 0, ret = lull_opt_pick_by(row, arg, mode_name, LULL_FWD_N_MODES, &k, err, errlen);

	if (ret == 0)
		CFG(row, target)->mode = (enum lull_fwd_mode)k;
	return ret;
}

static void
show_fwd_mode(const struct lull_opt *row, const void *target, char *buf, size_t len)
{
	(void)row;
	snprintf(buf, len, "%s", lull_fwd_mode_name(CCFG(target)->mode));
}

static const char *const ctl_modes[] = {"full", "read-only"};

static int
parse_ctl(const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	int k = 0, ret = lull_opt_pick(row, arg, ctl_modes, 2, &k, err, errlen);

	if (ret == 0)
		CFG(row, target)->ctl_read_only = k == 1;
	return ret;
}

static void
show_ctl(const struct lull_opt *row, const void *target, char *buf, size_t len)
{
	(void)row;
	snprintf(buf, len, "%s", ctl_modes[CCFG(target)->ctl_read_only]);
}

/* Calls item(cfg, text) for each comma-separated item; the item parser names the bad one. */
static int
for_each_item(const struct lull_opt *row, struct lull_config *cfg, const char *arg, char *err,
	size_t errlen, int (*item)(struct lull_config *, const char *, char *, size_t))
{
	const char *p = arg;

	for (;;) {
		char text[64];
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		int ret;

		if (len == 0 || len >= sizeof(text))
			return lull_opt_bad(
				row, arg, -EINVAL, "empty or too long item", err, errlen);
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

/* Append to a list being built in buf ("a,b,..."). */
static void list_add(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

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
		return lull_errf(err, errlen, -EINVAL,
			"--port-pairs: bad pair '%s' (expected PORT:PORT, ports 0..%d)", text,
			LULL_MAX_PORTS - 1);
	if (cfg->n_pairs == LULL_MAX_PORTS)
		return lull_errf(err, errlen, -E2BIG, "--port-pairs: too many pairs at '%s'", text);
	cfg->pairs[cfg->n_pairs].a = (uint16_t)a;
	cfg->pairs[cfg->n_pairs].b = (uint16_t)b;
	cfg->n_pairs++;
	return 0;
}

static int
parse_pairs(const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	CFG(row, target)->n_pairs = 0;
	return for_each_item(row, CFG(row, target), arg, err, errlen, pair_item);
}

/* The pairs in force (after resolve and port changes), each once. */
static void
show_pairs(const struct lull_opt *row, const void *target, char *buf, size_t len)
{
	const struct lull_config *cfg = CCFG(target);

	(void)row;
	for (unsigned int p = 0; p < cfg->n_ports; p++)
		if (cfg->dst_port[p] != LULL_PORT_NONE && cfg->dst_port[p] >= p)
			list_add(buf, len, "%u:%u", p, cfg->dst_port[p]);
}

static int
pin_item(struct lull_config *cfg, const char *text, char *err, size_t errlen)
{
	char port_text[16], queue_text[16];
	const char *rest = lull_split(text, ':', port_text, sizeof(port_text));
	const char *core_text = rest ? lull_split(rest, '@', queue_text, sizeof(queue_text)) : NULL;
	uint32_t port, queue, lcore = 0;

	if (core_text != NULL && strcmp(core_text, "auto") == 0)
		lcore = LULL_PIN_AUTO;
	if (core_text == NULL || lull_parse_u32(port_text, 0, LULL_MAX_PORTS - 1, &port) < 0 ||
		lull_parse_u32(queue_text, 0, LULL_MAX_QUEUES - 1, &queue) < 0 ||
		(lcore != LULL_PIN_AUTO &&
			lull_parse_u32(core_text, 0, LULL_MAX_LCORES - 1, &lcore) < 0))
		return lull_errf(err, errlen, -EINVAL,
			"--rxq-pmd: bad assignment '%s' (expected PORT:QUEUE@CORE, or "
			"PORT:QUEUE@auto to unpin)",
			text);
	for (unsigned int i = 0; i < cfg->n_pins; i++)
		if (cfg->pins[i].port == port && cfg->pins[i].queue == queue)
			return lull_errf(err, errlen, -EEXIST,
				"--rxq-pmd: queue %u:%u assigned twice at '%s'", port, queue, text);
	if (cfg->n_pins == LULL_MAX_PINS)
		return lull_errf(
			err, errlen, -E2BIG, "--rxq-pmd: too many assignments at '%s'", text);
	cfg->pins[cfg->n_pins++] = (struct lull_rxq_pin){
		.port = (uint16_t)port, .queue = (uint16_t)queue, .lcore = lcore};
	return 0;
}

static int
parse_pins(const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	CFG(row, target)->n_pins = 0;
	return for_each_item(row, CFG(row, target), arg, err, errlen, pin_item);
}

/* The pins as --rxq-pmd takes them, "none", or the first ones and a count
 * (a telemetry string holds 128 bytes; pmd-rxq-show has every queue). */
static void
show_pins(const struct lull_opt *row, const void *target, char *buf, size_t len)
{
	const struct lull_config *cfg = CCFG(target);
	unsigned int i = 0;

	(void)row;
	if (cfg->n_pins == 0) {
		snprintf(buf, len, "none");
		return;
	}
	for (; i < cfg->n_pins && strlen(buf) < 96; i++)
		list_add(buf, len, "%u:%u@%u", cfg->pins[i].port, cfg->pins[i].queue,
			cfg->pins[i].lcore);
	if (i < cfg->n_pins) {
		size_t used = strlen(buf);

		snprintf(buf + used, len - used, " and %u more", cfg->n_pins - i);
	}
}

static int
critical_item(struct lull_config *cfg, const char *text, char *err, size_t errlen)
{
	uint32_t port, queue;

	if (parse_colon_pair(text, LULL_MAX_PORTS - 1, LULL_MAX_QUEUES - 1, &port, &queue) < 0)
		return lull_errf(err, errlen, -EINVAL,
			"--rxq-critical: bad queue '%s' (expected PORT:QUEUE)", text);
	if (cfg->n_critical == LULL_MAX_PINS)
		return lull_errf(
			err, errlen, -E2BIG, "--rxq-critical: too many queues at '%s'", text);
	cfg->critical[cfg->n_critical++] =
		(struct lull_rxq_id){.port = (uint16_t)port, .queue = (uint16_t)queue};
	return 0;
}

static int
parse_critical(const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	CFG(row, target)->n_critical = 0;
	if (strcmp(arg, "none") == 0)
		return 0;
	return for_each_item(row, CFG(row, target), arg, err, errlen, critical_item);
}

static void
show_critical(const struct lull_opt *row, const void *target, char *buf, size_t len)
{
	const struct lull_config *cfg = CCFG(target);

	(void)row;
	for (unsigned int i = 0; i < cfg->n_critical; i++)
		list_add(buf, len, "%u:%u", cfg->critical[i].port, cfg->critical[i].queue);
}

static int
parse_eth_peer(const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	char port_text[16];
	const char *mac_text = lull_split(arg, ',', port_text, sizeof(port_text));
	uint32_t port;

	(void)row;
	(void)err;
	(void)errlen;
	if (mac_text == NULL || lull_parse_u32(port_text, 0, LULL_MAX_PORTS - 1, &port) < 0 ||
		lull_parse_mac(mac_text, CFG(row, target)->peer_mac[port]) < 0)
		return -EINVAL; /* the row's expect text */
	return 0;
}

static int
parse_cpu_list(const struct lull_opt *row, const char *arg, unsigned int max, unsigned int *out,
	unsigned int cap, unsigned int *n, const char *example, char *err, size_t errlen)
{
	int ret = lull_parse_uint_list(arg, max - 1, out, cap, n);

	if (ret < 0)
		return lull_errf(err, errlen, ret,
			"--%s: bad value '%s' (%s; expected a list like %s of %s 0..%u)", row->name,
			arg, lull_opt_why(ret), example, max == LULL_MAX_CPUS ? "CPUs" : "lcores",
			max - 1);
	return 0;
}

static int
parse_pmd_cores(const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	struct lull_config *cfg = CFG(row, target);

	return parse_cpu_list(row, arg, LULL_MAX_LCORES, cfg->pmd_lcores, LULL_MAX_PMDS,
		&cfg->n_pmds, "1,3-5", err, errlen);
}

/* "1,3,5" from n numbers */
static void
show_list(char *buf, size_t len, const unsigned int *v, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		list_add(buf, len, "%u", v[i]);
}

static void
show_pmd_cores(const struct lull_opt *row, const void *target, char *buf, size_t len)
{
	(void)row;
	show_list(buf, len, CCFG(target)->pmd_lcores, CCFG(target)->n_pmds);
}

static int
parse_control_cores(
	const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	struct lull_config *cfg = CFG(row, target);

	return parse_cpu_list(row, arg, LULL_MAX_CPUS, cfg->control_cpus, LULL_MAX_CPUS,
		&cfg->n_control_cpus, "0,2-3", err, errlen);
}

static void
show_control_cores(const struct lull_opt *row, const void *target, char *buf, size_t len)
{
	(void)row;
	show_list(buf, len, CCFG(target)->control_cpus, CCFG(target)->n_control_cpus);
}

static int
parse_priority(const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	struct lull_prio p = {LULL_PRIO_NONE, 0};
	bool negative = false;
	const char *num = NULL;
	uint32_t v = 0, max = 0;

	(void)row;
	(void)err;
	(void)errlen;
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
		return -EINVAL; /* the row's expect text */
	p.value = negative ? -(int)v : (int)v;
	CFG(row, target)->pmd_priority = p;
	return 0;
}

static void
show_priority(const struct lull_opt *row, const void *target, char *buf, size_t len)
{
	(void)row;
	lull_prio_format(&CCFG(target)->pmd_priority, buf, len);
}

static int
parse_resume_latency(
	const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	uint32_t v = 0;

	(void)row;
	(void)err;
	(void)errlen;
	if (strcmp(arg, "none") != 0 && lull_parse_u32(arg, 0, LULL_RESUME_LATENCY_MAX_US, &v) < 0)
		return -EINVAL;
	CFG(row, target)->pmd_resume_latency_us = strcmp(arg, "none") == 0 ? -1 : (int32_t)v;
	return 0;
}

static void
show_resume_latency(const struct lull_opt *row, const void *target, char *buf, size_t len)
{
	int32_t v = CCFG(target)->pmd_resume_latency_us;

	(void)row;
	if (v < 0)
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%d", (int)v);
}

/* The threshold in force: the option, or half the burst. */
static void
show_busy_threshold(const struct lull_opt *row, const void *target, char *buf, size_t len)
{
	const struct lull_config *cfg = CCFG(target);
	uint32_t half = cfg->burst / 2 ? cfg->burst / 2 : 1u;

	(void)row;
	snprintf(buf, len, "%u", cfg->sleep.busy_threshold ? cfg->sleep.busy_threshold : half);
}

#define T   struct lull_config
#define SET LULL_OPT_SETTABLE

/* The table: --help prints it in this order, describe and config-show too. */
static const struct lull_opt lull_opts[] = {
	LULL_OPT_SECTION_ROW("Threads"),
	LULL_OPT_TEXT_ROW(T, pmd_lcores, "pmd-cores", "LIST", "every EAL lcore but the main one",
		"lcores that run PMD threads, e.g. 1,3-5", NULL, LULL_OPT_DEF_PROSE,
		parse_pmd_cores, show_pmd_cores),
	LULL_OPT_TEXT_ROW(T, pins, "rxq-pmd", "LIST", "round-robin",
		"pin rx queues: PORT:QUEUE@CORE,... (the rest are spread round-robin; at run "
		"time PORT:QUEUE@auto unpins)",
		NULL, LULL_OPT_DEF_PROSE, parse_pins, show_pins),
	LULL_OPT_SECTION_ROW("Ports"),
	LULL_OPT_UINT_ROW(T, n_rxq, "rxq", "N", 1, LULL_MAX_QUEUES, "1", "rx queues per port", 0),
	LULL_OPT_UINT_ROW(T, n_txq, "txq", "N", 1, LULL_MAX_QUEUES,
		"the larger of --rxq and the PMD count",
		"tx queues per port (rx queue q sends on tx queue q)", LULL_OPT_DEF_PROSE),
	LULL_OPT_UINT_ROW(T, n_rxd, "rxd", "N", 16, 32768, "1024", "rx descriptors per queue", 0),
	LULL_OPT_UINT_ROW(T, n_txd, "txd", "N", 16, 32768, "1024", "tx descriptors per queue", 0),
	LULL_OPT_UINT_ROW(T, n_mbufs, "mbufs", "N", 1024, 16u << 20, "enough to fill every ring",
		"mbufs in the pool", LULL_OPT_DEF_PROSE),
	LULL_OPT_UINT_ROW(T, mbuf_size, "mbuf-size", "N", 64, 65000, "2048",
		"packet data bytes per mbuf; below 1522 a frame arrives as a chain of mbufs", 0),
	LULL_OPT_UINT_ROW(T, hotplug_ports, "hotplug-ports", "N", 0, LULL_MAX_PORTS, "2",
		"ports port-add may add at run time; sizes the mbuf pool", 0),
	LULL_OPT_TEXT_ROW(T, pairs, "port-pairs", "LIST", "0:1,2:3,...",
		"A:B,... forward A<->B; A:A reflects", NULL, LULL_OPT_DEF_PROSE, parse_pairs,
		show_pairs),
	LULL_OPT_UINT_ROW(T, link_wait_ms, "link-wait-ms", "MS", 0, 600000, "9000",
		"wait up to MS for links at start (forwarding already runs)", LULL_OPT_NO_SHOW),
	LULL_OPT_SECTION_ROW("Forwarding"),
	LULL_OPT_TEXT_ROW(T, mode, "fwd-mode", "MODE", "io",
		"io (as is), mac (src = port MAC, dst = peer), macswap", NULL, 0, parse_fwd_mode,
		show_fwd_mode),
	LULL_OPT_TEXT_ROW(T, peer_mac, "eth-peer", "P,MAC", "02:00:00:00:00:P",
		"dst MAC for tx port P in mac mode", "expected PORT,XX:XX:XX:XX:XX:XX",
		LULL_OPT_NO_SHOW | LULL_OPT_DEF_PROSE, parse_eth_peer, NULL),
	LULL_OPT_UINT_ROW(
		T, burst, "burst", "N", 1, LULL_MAX_BURST, "32", "rx burst and tx buffer size", 0),
	LULL_OPT_UINT_ROW(T, drain_us, "drain-us", "US", 1, 1000000, "100",
		"flush a tx buffer at least every US under load (an idle poll flushes at once)",
		SET),
	LULL_OPT_UINT_ROW(T, tx_retries, "tx-retries", "N", 0, 1000000, "0",
		"after a tx queue refuses, try N times more before dropping (a queue that "
		"takes packets is always tried again; 100 us at most a burst)",
		0),
	LULL_OPT_SECTION_ROW("Sleeping"),
	LULL_SLEEP_OPT_ROWS(T, sleep, show_busy_threshold),
	LULL_WAKE_OPT_ROWS(T, wk, SET),
	LULL_OPT_TEXT_ROW(T, critical, "rxq-critical", "LIST", "none",
		"latency-critical rx queues, PORT:QUEUE,...: the PMD polling one sleeps at most "
		"--critical-sleep-max-us",
		NULL, SET, parse_critical, show_critical),
	LULL_OPT_UINT_ROW(T, critical_sleep_max_us, "critical-sleep-max-us", "U", 0,
		LULL_SLEEPLIST_MAX_US, "0: busy polls", "that cap", SET | LULL_OPT_DEF_PROSE),
	LULL_OPT_SECTION_ROW("Sharing the core"),
	LULL_OPT_UINT_ROW(T, yield_hz, "yield-hz", "H", 0, 10000, "0: never; costs nothing then",
		"every PMD gives its CPU up H times a second, whatever the load, so kernel work on "
		"its core runs",
		SET | LULL_OPT_DEF_PROSE),
	LULL_OPT_UINT_ROW(T, yield_us, "yield-us", "D", 1, LULL_YIELD_MAX_SHARE_US, "10",
		"for D us each time", SET),
	LULL_OPT_TEXT_ROW(T, pmd_priority, "pmd-priority", "P", "none",
		"none, nice:N (-20..19) or fifo:N (1..99; needs --yield-hz: every policy "
		"busy-polls under load)",
		"expected none, nice:N with N in -20..19, or fifo:N with N in 1..99", SET,
		parse_priority, show_priority),
	LULL_OPT_TEXT_ROW(T, pmd_resume_latency_us, "pmd-resume-latency-us", "US", "none",
		"the PMD CPUs' PM QoS resume latency (cpuN/power/pm_qos_resume_latency_us): idle "
		"states slower to leave are not used; 0: only the shallowest; restored at exit",
		"expected none or an integer in 0..1000000", 0, parse_resume_latency,
		show_resume_latency),
	LULL_OPT_TEXT_ROW(T, control_cpus, "control-cores", "LIST", "where EAL put them",
		"CPUs for every non-PMD thread (main, telemetry, EAL interrupt thread), e.g. 0",
		NULL, LULL_OPT_DEF_PROSE, parse_control_cores, show_control_cores),
	LULL_OPT_SECTION_ROW("Fewer cores awake"),
	LULL_OPT_TEXT_ROW(T, consolidate, "consolidate", "M", "off",
		"on: gather rx queues on the fewest PMDs that carry the load and park the "
		"others (no CPU, no timer), spread them again as load grows",
		NULL, SET, lull_opt_parse_onoff, lull_opt_show_onoff),
	LULL_CONSOLIDATE_OPT_ROWS(T, pack_below_pct, unpack_above_pct, consolidate_dwell_ms, SET),
	LULL_OPT_SECTION_ROW("Output"),
	LULL_OPT_UINT_ROW(T, stats_period_s, "stats-period", "S", 0, 3600, "1",
		"print stats every S seconds, 0 = only at exit", SET),
	LULL_OPT_TEXT_ROW(T, ctl_read_only, "ctl", "MODE", "full",
		"full, or read-only: the telemetry socket takes the show commands only (no set, "
		"port-add, port-del, stats clear; docs/control.md)",
		NULL, 0, parse_ctl, show_ctl),
	LULL_OPT_FLAG_ROW(T, help, "help", 'h', "this text", 0),
	LULL_OPT_FLAG_ROW(T, version, "version", 'V', "the version, and DPDK's", 0),
	LULL_OPT_END_ROW,
};

#undef T
#undef SET

const struct lull_opt *
lull_config_opts(void)
{
	return lull_opts;
}
