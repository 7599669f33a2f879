/* SPDX-License-Identifier: BSD-3-Clause */
#include "quit.h"

#include <signal.h>
#include <string.h>

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
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
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

int
lull_argv_separator(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0)
			return i;
	return argc;
}
