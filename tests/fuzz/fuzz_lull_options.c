/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: lull's command line (the options after "--"). The input is
 * split at blanks into argv; parse, then resolve against a fixed system of 4
 * ports and 3 lcores. No crash, no sanitizer report, and every refusal comes
 * with a message.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "topology.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 64

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct lull_config cfg;
	struct lull_sys sys = {.n_ports = 4, .main_lcore = 0};
	char *argv[MAX_ARGS + 1];
	char *text = malloc(size + 1), *save = NULL;
	char err[512];
	int argc = 0, ret;

	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	argv[argc++] = (char *)"lull";
	for (char *tok = strtok_r(text, " \t\n", &save); tok != NULL && argc < MAX_ARGS;
		tok = strtok_r(NULL, " \t\n", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	sys.lcore_enabled[0] = sys.lcore_enabled[1] = sys.lcore_enabled[2] = true;
	lull_config_defaults(&cfg);
	err[0] = '\0';
	ret = lull_config_parse(&cfg, argc, argv, err, sizeof(err));
	if (ret == 0 && !cfg.help)
		ret = lull_config_resolve(&cfg, &sys, err, sizeof(err));
	if (ret < 0 && err[0] == '\0')
		abort(); /* refused without a message */
	free(text);
	return 0;
}
