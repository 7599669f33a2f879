/* SPDX-License-Identifier: BSD-3-Clause */
#include "sleeplist.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"

static int
entry(struct lull_sleeplist *l, const char *text)
{
	char core_text[16];
	const char *value = lull_split(text, ':', core_text, sizeof(core_text));
	uint32_t core, us;

	if (value == NULL) { /* a bare value: the default */
		if (l->has_default || lull_parse_u32(text, 0, LULL_SLEEPLIST_MAX_US, &us) < 0)
			return -EINVAL;
		l->default_us = us;
		l->has_default = true;
		return 0;
	}
	if (lull_parse_u32(core_text, 0, 1023, &core) < 0 ||
		lull_parse_u32(value, 0, LULL_SLEEPLIST_MAX_US, &us) < 0 ||
		l->n == LULL_SLEEPLIST_MAX)
		return -EINVAL;
	for (unsigned int i = 0; i < l->n; i++)
		if (l->entries[i].core == core)
			return -EEXIST;
	l->entries[l->n].core = core;
	l->entries[l->n].us = us;
	l->n++;
	return 0;
}

int
lull_sleeplist_parse(const char *s, struct lull_sleeplist *l, char *err, size_t errlen)
{
	struct lull_sleeplist tmp = {0};
	const char *p = s;

	for (;;) {
		char text[32];
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		int ret = -EINVAL;

		if (len > 0 && len < sizeof(text)) {
			memcpy(text, p, len);
			text[len] = '\0';
			ret = entry(&tmp, text);
		} else {
			snprintf(text, sizeof(text), "%.*s", (int)(len < 24 ? len : 24), p);
		}
		if (ret < 0) {
			snprintf(err, errlen,
				"bad entry '%s' in '%s' (expected US or CORE:US, US in 0..%d, one "
				"default, each core once)",
				text, s, LULL_SLEEPLIST_MAX_US);
			return ret;
		}
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	*l = tmp;
	return 0;
}

uint32_t
lull_sleeplist_get(const struct lull_sleeplist *l, unsigned int core, uint32_t fallback_us)
{
	for (unsigned int i = 0; i < l->n; i++)
		if (l->entries[i].core == core)
			return l->entries[i].us;
	return l->has_default ? l->default_us : fallback_us;
}
