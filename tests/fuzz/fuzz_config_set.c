/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: the run-time control parser. An input is what a telemetry
 * client sends after "/lull/set," - split into KEY and VALUE, then applied to a
 * resolved configuration. Whatever the input: no crash, no sanitizer report,
 * and a refused set leaves the configuration byte for byte as it was.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "topology.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct lull_config base;

static void
setup(void)
{
	struct lull_sys sys = {.n_ports = 4, .main_lcore = 0};
	char err[256];

	sys.lcore_enabled[0] = sys.lcore_enabled[1] = sys.lcore_enabled[2] = true;
	lull_config_defaults(&base);
	if (lull_config_resolve(&base, &sys, err, sizeof(err)) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct lull_config cfg, before;
	static bool ready;
	char *text, *key, *value;
	char err[512];

	if (!ready) {
		setup();
		ready = true;
	}
	text = malloc(size + 1);
	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	cfg = base;
	if (lull_split_kv(text, &key, &value) == 0) {
		before = cfg;
		if (lull_config_set(&cfg, key, value, err, sizeof(err)) != 0) {
			if (memcmp(&cfg, &before, sizeof(cfg)) != 0)
				abort(); /* a refused set changed something */
			if (err[0] == '\0')
				abort(); /* refused without a message */
		}
	}
	free(text);
	return 0;
}
