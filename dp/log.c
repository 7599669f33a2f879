/* SPDX-License-Identifier: BSD-3-Clause */
#include "log.h"

RTE_LOG_REGISTER(lull_logtype, lull, INFO);

static const char *log_name = "lull";

const char *
lull_log_name(void)
{
	return log_name;
}

void
lull_log_set_name(const char *name)
{
	log_name = name;
}
