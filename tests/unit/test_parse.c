/* SPDX-License-Identifier: BSD-3-Clause */
/* Table-driven tests of lib/parse: boundaries and every kind of bad input. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "parse.h"

static void
test_u64(void **state)
{
	static const struct {
		const char *in;
		uint64_t min, max;
		int ret;
		uint64_t out;
	} cases[] = {
		{"0", 0, 10, 0, 0},
		{"10", 0, 10, 0, 10},
		{"11", 0, 10, -ERANGE, 0},
		{"0x10", 0, 100, -EINVAL, 0}, /* decimal only */
		{"032", 0, 100, 0, 32},
		{"08", 0, 100, 0, 8},
		{"5", 6, 10, -ERANGE, 0},
		{"18446744073709551615", 0, UINT64_MAX, 0, UINT64_MAX},
		{"18446744073709551616", 0, UINT64_MAX, -ERANGE, 0},
		{"", 0, 10, -EINVAL, 0},
		{"-1", 0, 10, -EINVAL, 0},
		{"+1", 0, 10, -EINVAL, 0},
		{" 1", 0, 10, -EINVAL, 0},
		{"1 ", 0, 10, -EINVAL, 0},
		{"1x", 0, 10, -EINVAL, 0},
		{"abc", 0, 10, -EINVAL, 0},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t out = 12345;
		int ret = lull_parse_u64(cases[i].in, cases[i].min, cases[i].max, &out);

		assert_int_equal(ret, cases[i].ret);
		assert_int_equal(out, ret == 0 ? cases[i].out : 12345);
	}
	assert_int_equal(lull_parse_u64(NULL, 0, 1, &(uint64_t){0}), -EINVAL);
}

static void
test_uint_list(void **state)
{
	static const struct {
		const char *in;
		int ret;
		unsigned int n;
		unsigned int v[8];
	} cases[] = {
		{"1", 0, 1, {1}},
		{"1,3-5,8", 0, 5, {1, 3, 4, 5, 8}},
		{"7-7", 0, 1, {7}},
		{"0-3,9", 0, 5, {0, 1, 2, 3}}, /* only first 4 checked below plus count */
		{"5-3", -EINVAL, 0, {0}},
		{"1,,2", -EINVAL, 0, {0}},
		{"1,", -EINVAL, 0, {0}},
		{",1", -EINVAL, 0, {0}},
		{"a", -EINVAL, 0, {0}},
		{"1-", -EINVAL, 0, {0}},
		{"-1", -EINVAL, 0, {0}},
		{"1,1", -EEXIST, 0, {0}},
		{"1-3,2", -EEXIST, 0, {0}},
		{"100", -ERANGE, 0, {0}},
		{"0-8", -E2BIG, 0, {0}},
		{"", -EINVAL, 0, {0}},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned int out[8], n = 99;
		int ret = lull_parse_uint_list(cases[i].in, 99, out, 8, &n);

		assert_int_equal(ret, cases[i].ret);
		if (ret != 0) {
			assert_int_equal(n, 99); /* output count untouched on error */
			continue;
		}
		assert_int_equal(n, cases[i].n);
		for (unsigned int k = 0; k < n && k < 4; k++)
			assert_int_equal(out[k], cases[i].v[k]);
	}
}

static void
test_mac(void **state)
{
	uint8_t mac[6] = {0};
	static const uint8_t want[6] = {0x02, 0xab, 0xCD, 0x00, 0x10, 0xff};

	(void)state;
	assert_int_equal(lull_parse_mac("02:ab:CD:00:10:ff", mac), 0);
	assert_memory_equal(mac, want, 6);
	assert_int_equal(lull_parse_mac("02:ab:cd:00:10", mac), -EINVAL);
	assert_int_equal(lull_parse_mac("02:ab:cd:00:10:fg", mac), -EINVAL);
	assert_int_equal(lull_parse_mac("02-ab-cd-00-10-ff", mac), -EINVAL);
	assert_int_equal(lull_parse_mac("02:ab:cd:00:10:ff:", mac), -EINVAL);
	assert_memory_equal(mac, want, 6); /* untouched on error */
}

static void
test_split(void **state)
{
	char head[4];

	(void)state;
	assert_string_equal(lull_split("1:2", ':', head, sizeof(head)), "2");
	assert_string_equal(head, "1");
	assert_null(lull_split("12", ':', head, sizeof(head)));
	assert_null(lull_split("1234:2", ':', head, sizeof(head))); /* head too short */
	assert_string_equal(lull_split(":2", ':', head, sizeof(head)), "2");
	assert_string_equal(head, "");
}

static void
test_split_kv(void **state)
{
	static const struct {
		const char *in, *key, *value; /* key NULL: refused */
	} cases[] = {
		{"sleep-max-us 250,3:0", "sleep-max-us", "250,3:0"},
		{"  linger-us=20  ", "linger-us", "20"},
		{"wake\tpause\n", "wake", "pause"},
		{"key  =  value with blanks", "key", "value with blanks"},
		{"key", NULL, NULL},
		{"key ", NULL, NULL},
		{"=value", NULL, NULL},
		{"", NULL, NULL},
		{"   ", NULL, NULL},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[64];
		char *key, *value;
		int ret;

		snprintf(buf, sizeof(buf), "%s", cases[i].in);
		ret = lull_split_kv(buf, &key, &value);
		if (cases[i].key == NULL) {
			if (ret != -EINVAL)
				fail_msg("'%s' accepted", cases[i].in);
			continue;
		}
		if (ret != 0 || strcmp(key, cases[i].key) != 0 ||
			strcmp(value, cases[i].value) != 0)
			fail_msg("'%s': %d '%s' '%s'", cases[i].in, ret, ret ? "" : key,
				ret ? "" : value);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_kv),
		cmocka_unit_test(test_u64),
		cmocka_unit_test(test_uint_list),
		cmocka_unit_test(test_mac),
		cmocka_unit_test(test_split),
	};

	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
