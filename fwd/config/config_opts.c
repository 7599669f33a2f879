/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The configuration through lull's option table (fwd/config/options.c): the command
 * line, one option, run-time set, config-show and --help.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "config.h"
#include "opt.h"
#include "options.h"
#include "parse.h"

int
lull_config_parse(struct lull_config *cfg, int argc, char **argv, char *err, size_t errlen)
{
	return lull_opt_parse(lull_config_opts(), cfg, argc, argv, err, errlen);
}

static char settable_keys[512];

static void
settable_init(void)
{
	lull_opt_settable(lull_config_opts(), settable_keys, sizeof(settable_keys));
}

int
lull_config_parse_one(
	struct lull_config *cfg, const char *name, const char *value, char *err, size_t errlen)
{
	return lull_opt_set(lull_config_opts(), cfg, name, value, false, err, errlen);
}

const char *
lull_config_settable(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	/* telemetry threads ask concurrently: written once, before any reads it */
	pthread_once(&once, settable_init);
	return settable_keys;
}

int
lull_config_set(
	struct lull_config *cfg, const char *key, const char *value, char *err, size_t errlen)
{
	struct lull_config *tmp = malloc(sizeof(*tmp));
	int ret;

	if (tmp == NULL)
		return lull_errf(err, errlen, -ENOMEM, "set: out of memory");
	*tmp = *cfg;
	ret = lull_opt_set(lull_config_opts(), tmp, key, value, true, err, errlen);
	if (ret == 0)
		ret = lull_config_check(tmp, err, errlen);
	if (ret == 0)
		*cfg = *tmp;
	free(tmp);
	return ret;
}

void
lull_config_describe(const struct lull_config *cfg,
	void (*emit)(void *ctx, const char *key, const char *value), void *ctx)
{
	lull_opt_describe(lull_config_opts(), cfg, emit, ctx);
}

void
lull_config_usage(const char *prog)
{
	printf("Usage: %s [EAL options] -- [lull options]\n"
	       "\n"
	       "Poll-mode forwarder: every port EAL probes is polled and forwarded to its pair.\n"
	       "Options marked [settable] also change at run time (lullctl set KEY VALUE).\n"
	       "\n",
		prog);
	lull_opt_usage(lull_config_opts(), stdout);
	printf("\nExample (two memif ports, PMD on lcore 1):\n"
	       "  %s -l 0,1 --no-huge -m 512 --no-pci --file-prefix=lull \\\n"
	       "     --vdev net_memif0,role=server,socket=/tmp/a.sock,socket-abstract=no \\\n"
	       "     --vdev net_memif1,role=server,socket=/tmp/b.sock,socket-abstract=no \\\n"
	       "     -- --fwd-mode io\n",
		prog);
}
