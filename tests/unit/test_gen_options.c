/* SPDX-License-Identifier: BSD-3-Clause */
/* lull-gen's option parser: defaults, every option, and bad values named. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "config.h"
#include "defaults_walk.h"

static struct gen_config cfg;

static int
parse(const char *line, char *err, size_t errlen)
{
	static char buf[512]; /* outlives parse(): cfg keeps pointers into argv */
	char *argv[32];
	int argc = 0;

	argv[argc++] = (char *)"lull-gen";
	snprintf(buf, sizeof(buf), "%s", line);
	for (char *t = strtok(buf, " "); t != NULL && argc < 31; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	gen_config_defaults(&cfg);
	err[0] = '\0';
	return gen_config_parse(&cfg, argc, argv, err, errlen);
}

static void
test_good(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(parse("", err, sizeof(err)), 0);
	assert_int_equal(cfg.profile.n, 1);
	assert_int_equal(cfg.size, 64);
	assert_int_equal(cfg.tx_port, 0);   /* the row's default */
	assert_int_equal(cfg.linger_ms, 0); /* closes at once unless asked */
	assert_int_equal(parse("--profile idle:1s,max:2s --size 1514 --flows 100 --src-ip 10.1.2.3 "
			       "--dst-mac 0a:0b:0c:0d:0e:0f --tx-port 1 --rx-port 1 --burst 64 "
			       "--run-id 7 --json - --csv out.csv --drain-ms 0 --linger-ms 30000",
				 err, sizeof(err)),
		0);
	assert_int_equal(cfg.profile.n, 2);
	assert_int_equal(cfg.size, 1514);
	assert_int_equal(cfg.flows, 100);
	assert_int_equal(cfg.src_ip, 0x0a010203);
	assert_int_equal(cfg.dst_mac[5], 0x0f);
	assert_int_equal(cfg.tx_port, 1);
	assert_int_equal(cfg.rx_port, 1);
	assert_int_equal(cfg.burst, 64);
	assert_int_equal(cfg.run_id, 7);
	assert_string_equal(cfg.json_path, "-");
	assert_string_equal(cfg.csv_path, "out.csv");
	assert_int_equal(cfg.linger_ms, 30000);
}

static void
test_bad(void **state)
{
	static const struct {
		const char *args, *msg;
	} cases[] = {
		{"--size 63", "--size: bad value '63'"},
		{"--size 1515", "--size: bad value '1515'"},
		{"--flows 0", "--flows: bad value '0'"},
		{"--src-ip 300.1.1.1", "--src-ip: bad value '300.1.1.1'"},
		{"--dst-mac 01:02", "--dst-mac: bad value '01:02'"},
		{"--burst 257", "--burst: bad value '257'"},
		{"--run-id 0", "--run-id: bad value '0'"},
		{"--linger-ms -1", "--linger-ms: bad value '-1'"},
		{"--profile rate:1k", "bad phase 'rate:1k'"},
		{"--nope", "unknown option '--nope'"},
		{"--size", "'--size' needs a value"},
		{"extra", "unexpected argument 'extra'"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[256];
		int ret = parse(cases[i].args, err, sizeof(err));

		if (ret >= 0 || strstr(err, cases[i].msg) == NULL)
			fail_msg("'%s': got %d '%s', want '%s'", cases[i].args, ret, err,
				cases[i].msg);
	}
}

static int
gen_defaults_parse(void *c, int argc, char **argv, char *err, size_t errlen)
{
	gen_config_defaults(c);
	err[0] = '\0';
	return gen_config_parse(c, argc, argv, err, errlen);
}

/* Every default is written once, in its row (issue 29 item 4). */
static void
test_defaults_are_the_rows(void **state)
{
	static const char *const prose[] = {"src-mac", "rx-port", "run-id", NULL};

	(void)state;
	defaults_walk("lull-gen", gen_config_opts(), sizeof(struct gen_config), gen_defaults_parse,
		prose);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_defaults_are_the_rows),
	};

	return cmocka_run_group_tests_name("gen_config", tests, NULL, NULL);
}
