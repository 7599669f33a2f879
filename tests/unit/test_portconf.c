/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/portconf.c: a port configuration against what a device accepts; mbuf chains. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lull_args.h"

/* A NIC's limits, for the per-port checks; it cannot send a chain of mbufs. */
static const struct lull_port_limits nic = {.name = "nic0",
	.max_rxq = 4,
	.max_txq = 8,
	.rxd_min = 64,
	.rxd_max = 4096,
	.rxd_align = 32,
	.txd_min = 64,
	.txd_max = 4096,
	.txd_align = 0}; /* 0 = no alignment */

/* The port configuration lull asks for. */
static int
check_port(
	const struct lull_config *cfg, const struct lull_port_limits *lim, char *err, size_t errlen)
{
	struct lull_port_conf pc;

	lull_config_port_conf(cfg, &pc);
	return lull_port_conf_check(&pc, lim, err, errlen);
}

static unsigned int
segs(const struct lull_config *cfg)
{
	struct lull_port_conf pc;

	lull_config_port_conf(cfg, &pc);
	return lull_port_conf_segs(&pc);
}

static void
test_check_port(void **state)
{
	static const struct {
		const char *args;
		const char *msg; /* NULL = accepted */
	} cases[] = {
		{"--rxq 4 --txq 8 --rxd 64 --txd 4096", NULL},
		{"--rxd 4096 --txd 65", NULL},
		{"--rxq 5", "--rxq: bad value '5' for nic0 (it has at most 4)"},
		{"--txq 9", "--txq: bad value '9' for nic0 (it has at most 8)"},
		{"--rxd 8192",
			"--rxd: bad value '8192' for nic0 (it accepts 64..4096, a multiple of 32)"},
		{"--rxd 100", "--rxd: bad value '100' for nic0"},
		{"--txd 32",
			"--txd: bad value '32' for nic0 (it accepts 64..4096, a multiple of 1)"},
		/* nic0 cannot send a chain: mbufs must hold a whole frame */
		{"--mbuf-size 1522", NULL},
		{"--mbuf-size 1521",
			"--mbuf-size 1521: port nic0 cannot send chains of mbufs; use --mbuf-size "
			"1522 or more"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lull_config cfg;
		char err[256] = "";
		int ret = parse(&cfg, cases[i].args, err, sizeof(err));

		assert_int_equal(ret, 0);
		if (cfg.n_txq == 0)
			cfg.n_txq = 1;
		ret = check_port(&cfg, &nic, err, sizeof(err));
		if (cases[i].msg == NULL ? ret != 0
					 : (ret != -EINVAL || !strstr(err, cases[i].msg)))
			fail_msg("args '%s': got %d '%s', want '%s'", cases[i].args, ret, err,
				cases[i].msg ? cases[i].msg : "accepted");
	}
}

/* Mbufs smaller than a frame: frames are chains, and the pool grows to match. */
static void
test_mbuf_size(void **state)
{
	struct lull_config big, small;
	struct lull_sys sys = sys_with(2, 2);
	struct lull_port_limits memif = nic; /* the same, able to send chains */
	char err[256];

	(void)state;
	memif.tx_multi_seg = true;
	assert_int_equal(parse(&big, "", err, sizeof(err)), 0);
	assert_int_equal(big.mbuf_size, LULL_MBUF_SIZE_DEFAULT);
	assert_int_equal(segs(&big), 1);
	assert_int_equal(parse(&small, "--mbuf-size 64", err, sizeof(err)), 0);
	assert_int_equal(segs(&small), 24); /* 1522 / 64, rounded up */
	assert_int_equal(lull_config_resolve(&big, &sys, err, sizeof(err)), 0);
	assert_int_equal(lull_config_resolve(&small, &sys, err, sizeof(err)), 0);
	assert_int_equal(small.n_mbufs, 24 * big.n_mbufs);
	assert_int_equal(check_port(&small, &memif, err, sizeof(err)), 0);
	assert_int_equal(parse(&small, "--mbuf-size 1522", err, sizeof(err)), 0);
	assert_int_equal(segs(&small), 1);
	assert_int_not_equal(parse(&small, "--mbuf-size 63", err, sizeof(err)), 0);
	assert_non_null(strstr(err, "--mbuf-size: bad value '63'"));
}

/* A ring's descriptors less those its driver may hold back from the device. */
static void
test_ring_usable(void **state)
{
	(void)state;
	assert_int_equal(lull_port_ring_usable(512, 32), 480);  /* ixgbe's default */
	assert_int_equal(lull_port_ring_usable(1024, 0), 1024); /* a driver that says none */
	assert_int_equal(lull_port_ring_usable(64, 32), 32);
	assert_int_equal(lull_port_ring_usable(64, 100), 32); /* never below half */
	assert_int_equal(lull_port_ring_usable(1, 1), 1);
	assert_int_equal(lull_port_ring_usable(0, 32), 0); /* no ring: none said */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_port),
		cmocka_unit_test(test_mbuf_size),
		cmocka_unit_test(test_ring_usable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
