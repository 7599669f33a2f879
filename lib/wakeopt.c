/* SPDX-License-Identifier: BSD-3-Clause */
#include "wakeopt.h"

#include <stdio.h>

static const char *
wake_name(unsigned int k)
{
	return lull_wake_name((enum lull_wake_kind)k);
}

int
lull_wake_opt_parse(
	const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	int k = 0, ret = lull_opt_pick_by(row, arg, wake_name, LULL_WAKE_N_KINDS, &k, err, errlen);

	if (ret == 0)
		*(enum lull_wake_kind *)((char *)target + row->offset) = (enum lull_wake_kind)k;
	return ret;
}

void
lull_wake_opt_show(const struct lull_opt *row, const void *target, char *buf, size_t len)
{
	snprintf(buf, len, "%s",
		lull_wake_name(*(const enum lull_wake_kind *)((const char *)target + row->offset)));
}
