/* SPDX-License-Identifier: BSD-3-Clause */
#include "app.h"
#include "memif_sock.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_version.h>
#include <rte_errno.h>

static atomic_bool lull_quit; /* written by the signal handler, read by the main loop */

static void
on_signal(int sig)
{
	(void)sig;
	atomic_store(&lull_quit, true); /* only this: the handler must stay async-signal-safe */
}

void
lull_quit_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* every signal that ends a terminal session or a service stops through the
	 * same teardown (PM QoS, PMD priorities and ports put back) */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	/* a closed stdout (`lull | tee`, then Ctrl-C) fails the write, not the process */
	signal(SIGPIPE, SIG_IGN);
}

bool
lull_quit_requested(void)
{
	return atomic_load(&lull_quit);
}

const atomic_bool *
lull_quit_flag(void)
{
	return &lull_quit;
}

bool
lull_version_asked(int argc, char **argv, const char *name)
{
	int sep = lull_argv_separator(argc, argv);

	if (!(argc > 1 && strcmp(argv[1], "--version") == 0) &&
		!(sep + 1 < argc && strcmp(argv[sep + 1], "--version") == 0))
		return false;
	printf("%s %s (%s)\n", name, LULL_VERSION, rte_version());
	return true;
}

int
lull_argv_separator(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0)
			return i;
	return argc;
}

int
lull_eal_start(int n_eal, char **argv, void (*usage)(const char *prog), char *err, size_t errlen)
{
	rte_set_application_usage_hook(usage);
	lull_memif_clear_stale_argv(n_eal, argv); /* before the vdevs are probed */
	if (rte_eal_init(n_eal, argv) < 0) {
		snprintf(err, errlen, "EAL: cannot initialise: %s", rte_strerror(rte_errno));
		return -rte_errno;
	}
	return 0;
}
