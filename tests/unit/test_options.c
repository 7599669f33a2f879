/* SPDX-License-Identifier: BSD-3-Clause */
/* fwd/config/options.c: lull's option table - parse, set at run time, describe, the checks across
 * options.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "defaults_walk.h"
#include "lull_args.h"
#include "options.h"

static void
test_parse_bad(void **state)
{
	static const struct {
		const char *args;
		int ret;
		const char *msg; /* must appear in the error */
	} cases[] = {
		{"--bogus", -EINVAL, "unknown option '--bogus'"},
		{"-x", -EINVAL, "unknown option '-x'"},
		{"--rxd", -EINVAL, "'--rxd' needs a value"},
		{"--rxd abc", -EINVAL, "--rxd: bad value 'abc'"},
		{"--rxd 8", -ERANGE, "--rxd: bad value '8' (out of range"},
		{"--rxd 70000", -ERANGE, "--rxd: bad value '70000'"},
		{"--txd -5", -EINVAL, "--txd: bad value '-5'"},
		{"--rxq 0", -ERANGE, "--rxq: bad value '0'"},
		{"--rxq 65", -ERANGE, "--rxq: bad value '65'"},
		{"--txq x1", -EINVAL, "--txq: bad value 'x1'"},
		{"--burst 0", -ERANGE, "--burst: bad value '0'"},
		{"--burst 513", -ERANGE, "--burst: bad value '513'"},
		{"--mbufs 10", -ERANGE, "--mbufs: bad value '10'"},
		{"--stats-period 1.5", -EINVAL, "--stats-period: bad value '1.5'"},
		{"--drain-us 0", -ERANGE, "--drain-us: bad value '0'"},
		{"--fwd-mode rxonly", -EINVAL, "--fwd-mode: bad value 'rxonly'"},
		{"--pmd-cores 1,x", -EINVAL, "--pmd-cores: bad value '1,x'"},
		{"--pmd-cores 3-1", -EINVAL, "--pmd-cores: bad value '3-1'"},
		{"--pmd-cores 1,1", -EEXIST, "--pmd-cores: bad value '1,1' (repeated item"},
		{"--pmd-cores 500", -ERANGE, "--pmd-cores: bad value '500' (out of range"},
		{"--pmd-cores 0-64", -E2BIG, "--pmd-cores: bad value '0-64' (too many items"},
		{"--port-pairs 0-1", -EINVAL, "--port-pairs: bad pair '0-1'"},
		{"--port-pairs 0:1,", -EINVAL, "--port-pairs: bad value '0:1,'"},
		{"--port-pairs 0:99", -EINVAL, "--port-pairs: bad pair '0:99'"},
		{"--rxq-pmd 0:0", -EINVAL, "--rxq-pmd: bad assignment '0:0'"},
		{"--rxq-pmd 0:0@x", -EINVAL, "--rxq-pmd: bad assignment '0:0@x'"},
		{"--rxq-pmd 0:0@1,0:0@2", -EEXIST, "queue 0:0 assigned twice at '0:0@2'"},
		{"--eth-peer 0,zz:00:00:00:00:00", -EINVAL,
			"--eth-peer: bad value '0,zz:00:00:00:00:00'"},
		{"--eth-peer 40,02:00:00:00:00:00", -EINVAL, "--eth-peer: bad value '40,"},
		{"stray", -EINVAL, "unexpected argument 'stray'"},
		{"--sleep-policy fast", -EINVAL,
			"--sleep-policy: bad value 'fast' (expected off, ovs, window or rate)"},
		{"--sleep-max-us 20000", -EINVAL, "--sleep-max-us: bad entry '20000'"},
		{"--sleep-max-us 250,3:x", -EINVAL, "--sleep-max-us: bad entry '3:x'"},
		{"--sleep-max-us 1:5,1:6", -EEXIST, "--sleep-max-us: bad entry '1:6'"},
		{"--latency-budget-us 20000", -ERANGE, "--latency-budget-us: bad value '20000'"},
		{"--sleep-step-us 0", -ERANGE, "--sleep-step-us: bad value '0'"},
		{"--sleep-window 2000", -ERANGE, "--sleep-window: bad value '2000'"},
		{"--busy-threshold 0", -ERANGE, "--busy-threshold: bad value '0'"},
		{"--wake umwait", -EINVAL,
			"--wake: bad value 'umwait' (expected auto, nanosleep, pause, tpause or "
			"monitor)"},
		{"--timer-slack-ns 0", -ERANGE, "--timer-slack-ns: bad value '0'"},
		{"--rxq-critical 0", -EINVAL, "--rxq-critical: bad queue '0'"},
		{"--rxq-critical 0:1,x:1", -EINVAL, "--rxq-critical: bad queue 'x:1'"},
		{"--critical-sleep-max-us 10001", -ERANGE,
			"--critical-sleep-max-us: bad value '10001'"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lull_config cfg;
		char err[256];
		int ret = parse(&cfg, cases[i].args, err, sizeof(err));

		if (ret != cases[i].ret || strstr(err, cases[i].msg) == NULL)
			fail_msg("args '%s': got %d '%s', want %d containing '%s'", cases[i].args,
				ret, err, cases[i].ret, cases[i].msg);
	}
}

static void
test_parse_good(void **state)
{
	struct lull_config cfg;
	char err[256];

	(void)state;
	assert_int_equal(parse(&cfg, "", err, sizeof(err)), 0);
	assert_int_equal(cfg.n_rxq, 1);
	assert_int_equal(cfg.burst, 32);
	assert_int_equal(cfg.mode, LULL_FWD_IO);
	assert_int_equal(cfg.n_pmds, 0);
	assert_false(cfg.help);

	assert_int_equal(
		parse(&cfg,
			"--pmd-cores 1,3-4 --rxq 2 --txq 4 --rxd 512 --txd 2048 --burst 64 "
			"--fwd-mode macswap --port-pairs 0:1,2:2 --rxq-pmd 0:1@3 "
			"--stats-period 0 --drain-us 50 --tx-retries 3 --eth-peer "
			"1,aa:bb:cc:dd:ee:ff",
			err, sizeof(err)),
		0);
	assert_int_equal(cfg.n_pmds, 3);
	assert_int_equal(cfg.pmd_lcores[2], 4);
	assert_int_equal(cfg.n_rxq, 2);
	assert_int_equal(cfg.n_txq, 4);
	assert_int_equal(cfg.n_rxd, 512);
	assert_int_equal(cfg.n_txd, 2048);
	assert_int_equal(cfg.burst, 64);
	assert_int_equal(cfg.mode, LULL_FWD_MACSWAP);
	assert_int_equal(cfg.n_pairs, 2);
	assert_int_equal(cfg.pairs[1].a, 2);
	assert_int_equal(cfg.pairs[1].b, 2);
	assert_int_equal(cfg.n_pins, 1);
	assert_int_equal(cfg.pins[0].queue, 1);
	assert_int_equal(cfg.pins[0].lcore, 3);
	assert_int_equal(cfg.stats_period_s, 0);
	assert_int_equal(cfg.drain_us, 50);
	assert_int_equal(cfg.tx_retries, 3);
	assert_int_equal(cfg.peer_mac[1][0], 0xaa);
	assert_int_equal(cfg.peer_mac[0][0], 0x02); /* default kept for other ports */

	assert_int_equal(parse(&cfg, "--help", err, sizeof(err)), 0);
	assert_true(cfg.help);
	assert_int_equal(parse(&cfg, "-h", err, sizeof(err)), 0);
	assert_true(cfg.help);
}

static void
test_sleep_params(void **state)
{
	struct lull_config cfg;
	struct lull_policy_params p;
	char err[256];

	(void)state;
	assert_int_equal(parse(&cfg,
				 "--sleep-policy ovs --sleep-max-us 50,3:0,5:100 "
				 "--sleep-step-us 2 --busy-threshold 8 --burst 64",
				 err, sizeof(err)),
		0);
	lull_config_policy(&cfg, 1, &p);
	assert_int_equal(p.kind, LULL_POLICY_OVS);
	assert_int_equal(p.max_sleep_ns, 50000);
	assert_int_equal(p.step_ns, 2000);
	assert_int_equal(p.busy_threshold, 8);
	lull_config_policy(&cfg, 5, &p);
	assert_int_equal(p.max_sleep_ns, 100000);
	lull_config_policy(&cfg, 3, &p); /* maximum 0: that PMD busy-polls */
	assert_int_equal(p.kind, LULL_POLICY_OFF);
	assert_int_equal(parse(&cfg, "", err, sizeof(err)), 0);
	lull_config_policy(&cfg, 1, &p);
	assert_int_equal(p.kind, LULL_POLICY_RATE); /* the default */
	assert_int_equal(p.max_sleep_ns, 250000);
	assert_int_equal(p.budget_ns, 250000);
	assert_int_equal(p.busy_threshold, 16); /* half the default burst */
	assert_int_equal(p.min_ring, 1024);
}

/* Run-time set: applies whole or not at all, errors name the key or value. */
static void
test_set(void **state)
{
	static const struct {
		const char *key, *value;
		int ret;
		const char *msg;
	} bad[] = {
		{"bogus", "1", -EINVAL, "bad key 'bogus'"},
		{"rxd", "512", -EINVAL, "bad key 'rxd'"}, /* not a run-time setting */
		{"sleep-max-us", "20000", -EINVAL, "bad entry '20000'"},
		{"sleep-max-us", "250,1:x", -EINVAL, "bad entry '1:x'"},
		{"sleep-policy", "fast", -EINVAL, "bad value 'fast'"},
		{"latency-budget-us", "", -EINVAL, "--latency-budget-us"},
		{"linger-us", "2000000", -ERANGE, "bad value '2000000'"},
		{"rxq-critical", "5:0", -EINVAL, "queue 5:0 does not exist"},
		{"wake", "umwait", -EINVAL, "bad value 'umwait'"},
	};
	struct lull_sys sys = sys_with(2, 2);
	struct lull_config cfg, before;
	char err[256];

	(void)state;
	lull_config_defaults(&cfg);
	assert_int_equal(lull_config_resolve(&cfg, &sys, err, sizeof(err)), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		before = cfg;
		err[0] = '\0';
		if (lull_config_set(&cfg, bad[i].key, bad[i].value, err, sizeof(err)) !=
				bad[i].ret ||
			strstr(err, bad[i].msg) == NULL)
			fail_msg("set %s '%s': got '%s', want %d '%s'", bad[i].key, bad[i].value,
				err, bad[i].ret, bad[i].msg);
		assert_memory_equal(&cfg, &before, sizeof(cfg)); /* nothing changed */
	}
	assert_int_equal(lull_config_set(&cfg, "sleep_max_us", "100,1:0", err, sizeof(err)), 0);
	assert_int_equal(lull_sleeplist_get(&cfg.sleep.max_us, 1, 7), 0);
	assert_int_equal(lull_sleeplist_get(&cfg.sleep.max_us, 2, 7), 100);
	assert_int_equal(lull_config_set(&cfg, "rxq-critical", "1:0", err, sizeof(err)), 0);
	assert_int_equal(cfg.n_critical, 1);
	assert_int_equal(lull_config_set(&cfg, "sleep-policy", "ovs", err, sizeof(err)), 0);
	assert_int_equal(cfg.sleep.policy, LULL_POLICY_OVS);
}

static void
emit(void *ctx, const char *key, const char *value)
{
	char *out = ctx;

	strcat(out, key);
	strcat(out, "=");
	strcat(out, value);
	strcat(out, ";");
}

static void
test_describe(void **state)
{
	struct lull_sys sys = sys_with(2, 2);
	struct lull_config cfg;
	char err[256], out[4096] = "";

	(void)state;
	lull_config_defaults(&cfg);
	assert_int_equal(lull_config_resolve(&cfg, &sys, err, sizeof(err)), 0);
	assert_int_equal(lull_config_set(&cfg, "sleep-max-us", "50,1:0", err, sizeof(err)), 0);
	lull_config_describe(&cfg, emit, out);
	assert_non_null(strstr(out, "sleep-max-us=50,1:0;"));
	assert_non_null(strstr(out, "port-pairs=0:1;"));
	assert_non_null(strstr(out, "sleep-policy=rate;"));
	assert_non_null(strstr(out, "busy-threshold=16;"));
}

/* Sharing the core: priority syntax, yield share, fifo only with the yield (every
 * policy busy-polls under load). */
static void
test_sharing(void **state)
{
	static const struct {
		const char *args;
		int ret;
		const char *msg;
	} cases[] = {
		{"--pmd-priority nice:-20", 0, NULL},
		{"--pmd-priority nice:19", 0, NULL},
		{"--pmd-priority fifo:1 --yield-hz 100", 0, NULL},
		{"--pmd-priority fifo:50", -EINVAL, "whatever its sleep policy; give --yield-hz"},
		{"--pmd-priority nice:-21", -EINVAL, "--pmd-priority: bad value 'nice:-21'"},
		{"--pmd-priority nice:20", -EINVAL, "bad value 'nice:20'"},
		{"--pmd-priority nice:-0", -EINVAL, "bad value 'nice:-0'"},
		{"--pmd-priority fifo:0", -EINVAL, "bad value 'fifo:0'"},
		{"--pmd-priority fifo:100", -EINVAL, "bad value 'fifo:100'"},
		{"--pmd-priority rt", -EINVAL, "bad value 'rt'"},
		{"--pmd-priority fifo:50 --sleep-policy off", -EINVAL,
			"--pmd-priority fifo:50: the PMD on lcore 1 busy-polls and would starve"},
		{"--pmd-priority fifo:50 --sleep-max-us 250,1:0", -EINVAL, "lcore 1 busy-polls"},
		{"--pmd-priority fifo:50 --sleep-policy off --yield-hz 1000", 0, NULL},
		{"--wake-priority 1", 0, NULL},
		{"--wake-priority 99 --pmd-priority nice:-20", 0, NULL},
		{"--wake-priority 100", -ERANGE, "--wake-priority: bad value '100'"},
		{"--wake-priority -1", -EINVAL, "--wake-priority: bad value '-1'"},
		{"--wake-priority 1 --pmd-priority fifo:2 --yield-hz 100", -EINVAL,
			"--wake-priority 1: the PMDs run at --pmd-priority fifo:2 already"},
		{"--yield-hz 1000 --yield-us 500", 0, NULL},
		{"--yield-hz 1000 --yield-us 501", -EINVAL, "--yield-us: bad value '501'"},
		{"--yield-hz 10001", -ERANGE, "--yield-hz: bad value '10001'"},
		{"--yield-us 0", -ERANGE, "--yield-us: bad value '0'"},
		{"--control-cores 0,2-3", 0, NULL},
		{"--control-cores 1024", -ERANGE, "--control-cores: bad value '1024'"},
		{"--control-cores x", -EINVAL, "--control-cores: bad value 'x'"},
	};
	struct lull_sys sys = sys_with(2, 2);
	struct lull_config cfg;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int ret = parse(&cfg, cases[i].args, err, sizeof(err));

		if (ret == 0)
			ret = lull_config_resolve(&cfg, &sys, err, sizeof(err));
		if (ret != cases[i].ret ||
			(cases[i].msg != NULL && strstr(err, cases[i].msg) == NULL))
			fail_msg("'%s': got %d '%s', want %d '%s'", cases[i].args, ret, err,
				cases[i].ret, cases[i].msg ? cases[i].msg : "");
	}
	/* at run time too: fifo is refused while a PMD busy-polls, whole */
	assert_int_equal(parse(&cfg, "--sleep-policy off", err, sizeof(err)), 0);
	assert_int_equal(lull_config_resolve(&cfg, &sys, err, sizeof(err)), 0);
	assert_int_equal(
		lull_config_set(&cfg, "pmd-priority", "fifo:10", err, sizeof(err)), -EINVAL);
	assert_int_equal(cfg.pmd_priority.kind, LULL_PRIO_NONE);
	assert_int_equal(lull_config_set(&cfg, "yield-hz", "100", err, sizeof(err)), 0);
	assert_int_equal(lull_config_set(&cfg, "pmd-priority", "fifo:10", err, sizeof(err)), 0);
	assert_int_equal(cfg.pmd_priority.kind, LULL_PRIO_FIFO);
	assert_int_equal(cfg.pmd_priority.value, 10);
	/* and then the yield cannot be turned off under fifo busy polling */
	assert_int_equal(lull_config_set(&cfg, "yield-hz", "0", err, sizeof(err)), -EINVAL);
	assert_int_equal(cfg.yield_hz, 100);
}

/* A busy threshold no burst reaches is refused, at start and at run time. */
static void
test_busy_threshold_within_burst(void **state)
{
	struct lull_config cfg;
	char err[256];

	(void)state;
	assert_int_equal(parse(&cfg, "--busy-threshold 33", err, sizeof(err)), 0);
	assert_int_equal(lull_config_check(&cfg, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--busy-threshold: bad value '33' (larger than --burst 32"));
	assert_int_equal(parse(&cfg, "--busy-threshold 33 --burst 64", err, sizeof(err)), 0);
	assert_int_equal(lull_config_check(&cfg, err, sizeof(err)), 0);
	assert_int_equal(parse(&cfg, "", err, sizeof(err)), 0);
	assert_int_equal(lull_config_set(&cfg, "busy-threshold", "32", err, sizeof(err)), 0);
	assert_int_equal(lull_config_set(&cfg, "busy-threshold", "64", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--busy-threshold: bad value '64'"));
	assert_int_equal(cfg.sleep.busy_threshold, 32); /* unchanged */
}

static int
lull_defaults_parse(void *cfg, int argc, char **argv, char *err, size_t errlen)
{
	lull_config_defaults(cfg);
	err[0] = '\0';
	return lull_config_parse(cfg, argc, argv, err, errlen);
}

/* Every default is written once, in its row (issue 29 item 4). */
static void
test_defaults_are_the_rows(void **state)
{
	static const char *const prose[] = {"pmd-cores", "rxq-pmd", "txq", "mbufs", "port-pairs",
		"eth-peer", "busy-threshold", "burst-tolerance", "critical-sleep-max-us",
		"yield-hz", "control-cores", NULL};

	(void)state;
	defaults_walk(
		"lull", lull_config_opts(), sizeof(struct lull_config), lull_defaults_parse, prose);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_sleep_params),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_sharing),
		cmocka_unit_test(test_busy_threshold_within_burst),
		cmocka_unit_test(test_defaults_are_the_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
