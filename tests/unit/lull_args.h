/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers of the unit tests of lull's configuration: a command line into a config. */
#ifndef LULL_TEST_ARGS_H
#define LULL_TEST_ARGS_H

#include <stdio.h>
#include <string.h>

#include "config.h"
#include "topology.h"

#define MAX_ARGS 40

/* Split a space-separated command line into argv (argv[0] = "lull"). */
static inline int
make_argv(const char *line, char *buf, size_t buflen, char **argv)
{
	int argc = 0;

	argv[argc++] = (char *)"lull";
	snprintf(buf, buflen, "%s", line);
	for (char *tok = strtok(buf, " "); tok != NULL && argc < MAX_ARGS; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	return argc;
}

/* Defaults, then the options of line. */
static inline int
parse(struct lull_config *cfg, const char *line, char *err, size_t errlen)
{
	char buf[1024];
	char *argv[MAX_ARGS + 1];
	int argc = make_argv(line, buf, sizeof(buf), argv);

	lull_config_defaults(cfg);
	err[0] = '\0';
	return lull_config_parse(cfg, argc, argv, err, errlen);
}

/* A system with n_ports ports and lcores 0..n_lcores-1 (0 the main one). */
static inline struct lull_sys
sys_with(unsigned int n_ports, unsigned int n_lcores)
{
	struct lull_sys sys = {.n_ports = n_ports, .main_lcore = 0};

	for (unsigned int l = 0; l < n_lcores; l++)
		sys.lcore_enabled[l] = true;
	return sys;
}

#endif /* LULL_TEST_ARGS_H */
