/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The attached engine's options: lull's own rows parsed from LULL_OPTS
 * (lull_nap_attach_options), changed one at a time at run time
 * (lull_nap_attach_set, /lull/set), described and listed for telemetry.
 * Threads take them at their next load (attach.c).
 */
#include "lull_nap_attach.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attach_priv.h"

static const struct lull_opt attach_rows[] = {
	LULL_SLEEP_OPT_ROWS(struct attach_opts, sleep, NULL),
	/* every row is settable: a thread takes new options at its next load */
	LULL_WAKE_OPT_ROWS(struct attach_opts, wk, LULL_OPT_SETTABLE),
	LULL_OPT_UINT_ROW(struct attach_opts, rx_desc, "rx-desc", "N", 32, 65536, "512",
		"descriptors of an rx ring whose driver does not report them "
		"(rte_eth_rx_queue_info_get), and of a vhost queue; memif's is 2^rsize "
		"from its devargs; the smallest ring a thread polls bounds its sleeps",
		LULL_OPT_SETTABLE),
	LULL_OPT_END_ROW,
};

static struct attach_opts opts;
static bool opts_set;

/* What the options parser cannot see: a wake this host cannot have. */
static int
opts_check(const struct attach_opts *o, char *err, size_t errlen)
{
	struct lull_waiter probe;

	if (o->wk.wake == LULL_WAKE_MONITOR) {
		snprintf(err, errlen,
			"--wake: bad value 'monitor' (attached to another program's queues, lull "
			"cannot tell which descriptors to watch; use auto, nanosleep, pause or "
			"tpause)");
		return -ENOTSUP;
	}
	/* a backend this CPU lacks (tpause) is refused here, by name, not found
	 * at a thread's first poll */
	return lull_waiter_init(&probe, o->wk.wake, o->wk.intr_wait_max_ms, err, errlen);
}

int
lull_nap_attach_options(const char *text, char *err, size_t errlen)
{
	struct attach_opts o;
	char *copy = strdup(text != NULL ? text : ""), *save = NULL, *tok;
	int ret = 0;

	if (copy == NULL)
		return -ENOMEM;
	lull_opt_fill_defaults(attach_rows, &o, sizeof(o), "lull attach");
	for (tok = strtok_r(copy, " \t\n", &save); tok != NULL && ret == 0;
		tok = strtok_r(NULL, " \t\n", &save)) {
		char *name = tok + 2, *value = strchr(name, '=');

		if (strncmp(tok, "--", 2) != 0 || *name == '\0') {
			ret = -EINVAL;
			snprintf(err, errlen,
				"'%s' is not an option (--NAME VALUE or --NAME=VALUE)", tok);
			break;
		}
		if (value != NULL)
			*value++ = '\0';
		if (lull_opt_find(attach_rows, name) == NULL) {
			ret = -EINVAL;
			snprintf(err, errlen,
				"unknown option '--%s' (lull's sleep and wake options are taken: "
				"--sleep-policy, --latency-budget-us, --wake, ...)",
				name);
			break;
		}
		if (value == NULL)
			value = strtok_r(NULL, " \t\n", &save);
		if (value == NULL) {
			ret = -EINVAL;
			snprintf(err, errlen, "--%s needs a value", name);
			break;
		}
		ret = lull_opt_set(attach_rows, &o, name, value, false, err, errlen);
	}
	free(copy);
	if (ret == 0)
		ret = opts_check(&o, err, errlen);
	if (ret < 0)
		return ret;
	pthread_mutex_lock(&attach_lock);
	opts = o;
	opts_set = true;
	__atomic_add_fetch(&lull_nap_attach_gen, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&attach_lock);
	return 0;
}

/* The options in force (lull's defaults until set). Under attach_lock. */
struct attach_opts *
opts_locked(void)
{
	if (!opts_set)
		lull_opt_fill_defaults(attach_rows, &opts, sizeof(opts), "lull attach");
	opts_set = true;
	return &opts;
}

int
lull_nap_attach_set(const char *key, const char *value, char *err, size_t errlen)
{
	struct attach_opts o;
	int ret;

	if (key == NULL || value == NULL) {
		snprintf(err, errlen, "set takes KEY VALUE");
		return -EINVAL;
	}
	pthread_mutex_lock(&attach_lock);
	o = *opts_locked();
	ret = lull_opt_set(attach_rows, &o, key, value, true, err, errlen);
	if (ret == 0)
		ret = opts_check(&o, err, errlen);
	if (ret == 0) {
		opts = o;
		__atomic_add_fetch(&lull_nap_attach_gen, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&attach_lock);
	return ret;
}

void
lull_nap_attach_describe(void (*emit)(void *ctx, const char *key, const char *value), void *ctx)
{
	pthread_mutex_lock(&attach_lock);
	lull_opt_describe(attach_rows, opts_locked(), emit, ctx);
	pthread_mutex_unlock(&attach_lock);
}

const char *
lull_nap_attach_settable(char *buf, size_t len)
{
	return lull_opt_settable(attach_rows, buf, len);
}

void
lull_nap_attach_usage(FILE *f)
{
	fprintf(f, "LULL_OPTS: lull's options for the threads polling attached rx queues\n"
		   "(\"--NAME VALUE ...\"; --NAME=VALUE too):\n\n");
	lull_opt_usage(attach_rows, f);
}

bool
lull_nap_attach_wants_intr(void)
{
	bool on;

	pthread_mutex_lock(&attach_lock);
	on = opts_locked()->wk.intr_after_ms != 0;
	pthread_mutex_unlock(&attach_lock);
	return on;
}
