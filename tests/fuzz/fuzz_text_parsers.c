/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: the text parsers of lib/ - OVS-style sleep lists
 * ("250,3:0,5:50"), lull-gen traffic profiles ("rate:10k:5s,burst:..."),
 * and lull-gen's command line. The first byte picks the parser. No crash, no
 * sanitizer report, every refusal with a message, every accepted value in range.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "profile.h"
#include "sleeplist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct lull_profile prof;
	static struct lull_sleeplist sl;
	static struct gen_config gcfg;
	char err[512] = "";
	char *text;
	int ret = 0;

	if (size < 1)
		return 0;
	text = malloc(size);
	if (text == NULL)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	switch (data[0] % 3) {
	case 0:
		ret = lull_sleeplist_parse(text, &sl, err, sizeof(err));
		if (ret == 0)
			for (unsigned int i = 0; i < sl.n; i++)
				if (sl.entries[i].us > LULL_SLEEPLIST_MAX_US)
					abort();
		break;
	case 1:
		ret = lull_profile_parse(text, &prof, err, sizeof(err));
		if (ret == 0 && (prof.n == 0 || prof.n > LULL_MAX_PHASES))
			abort();
		break;
	default: {
		char *argv[33] = {(char *)"lull-gen"};
		char *save = NULL;
		int argc = 1;

		for (char *tok = strtok_r(text, " \t\n", &save); tok != NULL && argc < 32;
			tok = strtok_r(NULL, " \t\n", &save))
			argv[argc++] = tok;
		argv[argc] = NULL;
		gen_config_defaults(&gcfg);
		ret = gen_config_parse(&gcfg, argc, argv, err, sizeof(err));
		break;
	}
	}
	if (ret < 0 && err[0] == '\0')
		abort();
	free(text);
	return 0;
}
