/* SPDX-License-Identifier: BSD-3-Clause */
/* fwd/config/topology.c: resolve against the system, rx-queue assignment, port add and delete. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lull_args.h"

static void
test_resolve_bad(void **state)
{
	static const struct {
		const char *args;
		unsigned int n_ports, n_lcores;
		const char *msg;
	} cases[] = {
		{"", 0, 2, "no ports"},
		{"", 3, 2, "odd number of ports (3)"},
		{"", 2, 1, "no PMD core"},
		{"--pmd-cores 5", 2, 2, "--pmd-cores: lcore 5 is not an EAL lcore"},
		{"--pmd-cores 0", 2, 2, "--pmd-cores: lcore 0 is the EAL main lcore"},
		{"--port-pairs 0:2", 2, 2, "pair 0:2 names a port that does not exist"},
		{"--port-pairs 0:1,1:1", 2, 2, "port 1 is in more than one pair"},
		{"--port-pairs 0:1", 3, 2, "port 2 is in no pair"},
		{"--rxq 2 --txq 1", 2, 3,
			"--txq: bad value '1' (rx queue q of a port sends on tx queue q"},
		{"--rxq-pmd 2:0@1", 2, 2, "--rxq-pmd: 2:0@1: port 2 does not exist"},
		{"--rxq-pmd 0:1@1", 2, 2, "--rxq-pmd: 0:1@1: queue 1 does not exist"},
		{"--rxq-pmd 0:0@0", 2, 2, "--rxq-pmd: 0:0@0: lcore 0 is not a PMD core"},
		{"--rxq-critical 0:3", 2, 2, "--rxq-critical: queue 0:3 does not exist"},
		{"--rxq-critical 4:0", 2, 2, "--rxq-critical: queue 4:0 does not exist"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lull_config cfg;
		struct lull_sys sys = sys_with(cases[i].n_ports, cases[i].n_lcores);
		char err[256] = "";
		int ret = parse(&cfg, cases[i].args, err, sizeof(err));

		assert_int_equal(ret, 0);
		ret = lull_config_resolve(&cfg, &sys, err, sizeof(err));
		if (ret >= 0 || strstr(err, cases[i].msg) == NULL)
			fail_msg("args '%s' with %u ports, %u lcores: got %d '%s', want '%s'",
				cases[i].args, cases[i].n_ports, cases[i].n_lcores, ret, err,
				cases[i].msg);
	}
}

static void
test_resolve_defaults(void **state)
{
	struct lull_config cfg;
	struct lull_sys sys = sys_with(4, 3);
	char err[256];

	(void)state;
	assert_int_equal(parse(&cfg, "--rxq 2", err, sizeof(err)), 0);
	assert_int_equal(lull_config_resolve(&cfg, &sys, err, sizeof(err)), 0);
	assert_int_equal(cfg.n_pmds, 2); /* lcores 1 and 2; 0 is main */
	assert_int_equal(cfg.pmd_lcores[0], 1);
	assert_int_equal(cfg.n_txq, 2); /* --rxq 2, 2 PMDs */
	assert_int_equal(cfg.dst_port[0], 1);
	assert_int_equal(cfg.dst_port[1], 0);
	assert_int_equal(cfg.dst_port[3], 2);
	/* round robin, queue-major: 0:0 1:0 2:0 3:0 0:1 ... */
	assert_int_equal(cfg.rxq_pmd[0][0], 0);
	assert_int_equal(cfg.rxq_pmd[1][0], 1);
	assert_int_equal(cfg.rxq_pmd[2][0], 0);
	assert_int_equal(cfg.rxq_pmd[0][1], 0);
	assert_int_equal(cfg.rxq_pmd[1][1], 1);
	assert_true(cfg.n_mbufs >= 4 * (2 * 1024 + 2 * 1024));
}

static void
test_resolve_pins_and_self_pair(void **state)
{
	struct lull_config cfg;
	struct lull_sys sys = sys_with(3, 3);
	char err[256];

	(void)state;
	assert_int_equal(
		parse(&cfg, "--port-pairs 0:1,2:2 --rxq-pmd 2:0@2,0:0@2", err, sizeof(err)), 0);
	assert_int_equal(lull_config_resolve(&cfg, &sys, err, sizeof(err)), 0);
	assert_int_equal(cfg.dst_port[2], 2);
	assert_int_equal(cfg.rxq_pmd[2][0], 1); /* lcore 2 is PMD index 1 */
	assert_int_equal(cfg.rxq_pmd[0][0], 1);
	assert_int_equal(cfg.rxq_pmd[1][0], 0); /* the only unpinned queue: first PMD */
	/* @auto is no pin (issue 28 item 9): dropped, the queue round-robin */
	assert_int_equal(
		parse(&cfg, "--port-pairs 0:1,2:2 --rxq-pmd 0:0@auto,1:0@2", err, sizeof(err)), 0);
	assert_int_equal(cfg.n_pins, 2);
	assert_int_equal(lull_config_resolve(&cfg, &sys, err, sizeof(err)), 0);
	assert_int_equal(cfg.n_pins, 1);
	assert_int_equal(cfg.pins[0].port, 1);
	assert_int_equal(cfg.rxq_pmd[1][0], 1);
	assert_int_equal(cfg.rxq_pmd[0][0], 0);
	/* port-del takes the port's pins with it */
	lull_config_port_del(&cfg, 1);
	assert_int_equal(cfg.n_pins, 0);
}

static void
test_critical_queue_caps_its_pmd(void **state)
{
	struct lull_config cfg;
	struct lull_sys sys = sys_with(2, 3); /* PMDs on lcores 1 and 2 */
	struct lull_policy_params p;
	char err[256];

	(void)state;
	assert_int_equal(
		parse(&cfg, "--rxq-critical 1:0 --critical-sleep-max-us 20", err, sizeof(err)), 0);
	assert_int_equal(lull_config_resolve(&cfg, &sys, err, sizeof(err)), 0);
	assert_int_equal(cfg.rxq_pmd[1][0], 1); /* port 1's queue is on the second PMD */
	lull_config_policy(&cfg, 2, &p);
	assert_int_equal(p.max_sleep_ns, 20000);
	lull_config_policy(&cfg, 1, &p);
	assert_int_equal(p.max_sleep_ns, 250000);
	/* default critical maximum 0: that PMD busy-polls */
	assert_int_equal(parse(&cfg, "--rxq-critical 0:0", err, sizeof(err)), 0);
	assert_int_equal(lull_config_resolve(&cfg, &sys, err, sizeof(err)), 0);
	lull_config_policy(&cfg, 1, &p);
	assert_int_equal(p.kind, LULL_POLICY_OFF);
	lull_config_policy(&cfg, 2, &p);
	assert_int_equal(p.kind, LULL_POLICY_RATE);
}

static void
test_port_add_del(void **state)
{
	struct lull_sys sys = sys_with(2, 3); /* ports 0,1; PMDs on lcores 1, 2 */
	struct lull_config cfg, before;
	char err[256];

	(void)state;
	lull_config_defaults(&cfg);
	assert_int_equal(
		lull_config_parse(&cfg, 1, (char *[]){(char *)"lull", NULL}, err, sizeof(err)), 0);
	cfg.n_rxq = 2;
	assert_int_equal(lull_config_resolve(&cfg, &sys, err, sizeof(err)), 0);
	/* port 2 waits, port 3 pairs with it: both forwarded, queues on the least loaded PMDs */
	assert_int_equal(lull_config_port_add(&cfg, 2, LULL_PORT_NONE, err, sizeof(err)), 0);
	assert_int_equal(cfg.dst_port[2], LULL_PORT_NONE);
	assert_int_equal(lull_config_port_add(&cfg, 3, 2, err, sizeof(err)), 0);
	assert_int_equal(cfg.dst_port[2], 3);
	assert_int_equal(cfg.dst_port[3], 2);
	assert_int_equal(cfg.n_ports, 4);
	unsigned int load[2] = {0, 0};
	for (unsigned int p = 0; p < 4; p++)
		for (unsigned int q = 0; q < 2; q++)
			load[cfg.rxq_pmd[p][q]]++;
	assert_int_equal(load[0], 4);
	assert_int_equal(load[1], 4);
	/* a peer that is already forwarded is refused, and nothing changes */
	before = cfg;
	assert_int_equal(lull_config_port_add(&cfg, 4, 0, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "peer port 0"));
	assert_memory_equal(&cfg, &before, sizeof(cfg));
	/* deleting 3 leaves 2 waiting; a critical mark on 3 goes with it */
	cfg.critical[cfg.n_critical++] = (struct lull_rxq_id){.port = 3, .queue = 0};
	lull_config_port_del(&cfg, 3);
	assert_int_equal(cfg.dst_port[3], LULL_PORT_NONE);
	assert_int_equal(cfg.dst_port[2], LULL_PORT_NONE);
	assert_int_equal(cfg.n_critical, 0);
	assert_int_equal(cfg.dst_port[0], 1);
	/* a port may reflect to itself */
	assert_int_equal(lull_config_port_add(&cfg, 3, 3, err, sizeof(err)), 0);
	assert_int_equal(cfg.dst_port[3], 3);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve_bad),
		cmocka_unit_test(test_resolve_defaults),
		cmocka_unit_test(test_resolve_pins_and_self_pair),
		cmocka_unit_test(test_critical_queue_caps_its_pmd),
		cmocka_unit_test(test_port_add_del),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
