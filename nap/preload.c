/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lull in an unmodified DPDK program: LD_PRELOAD=lullnap-preload.so. The
 * program links DPDK's ethdev dynamically, so its calls of rte_eth_dev_start()
 * and rte_eth_dev_stop() come here first: lull attaches to every rx queue of a
 * port once it started and detaches before it stops (and before a close).
 * Options: LULL_OPTS, lull's own (lull_nap_attach_options()); a bad one ends
 * the program before it starts, with the message. LULL_OPTS=--help lists them.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>

#include "lull_nap_attach.h"

typedef int dev_fn(uint16_t port);

static dev_fn *
real(const char *name)
{
	dev_fn *fn = (dev_fn *)dlsym(RTLD_NEXT, name);

	if (fn == NULL) {
		fprintf(stderr, "lull: %s not found after the preload: %s\n", name, dlerror());
		abort(); /* the program cannot have called it without DPDK */
	}
	return fn;
}

__attribute__((constructor)) static void
preload_init(void)
{
	const char *opts = getenv("LULL_OPTS");
	char err[512];
	int ret;

	if (opts != NULL && strstr(opts, "--help") != NULL) {
		lull_nap_attach_usage(stdout);
		exit(EXIT_SUCCESS);
	}
	ret = lull_nap_attach_options(opts, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "lull: LULL_OPTS: %s\n", err);
		exit(EXIT_FAILURE);
	}
	if (lull_nap_attach_register_telemetry() < 0)
		fprintf(stderr, "lull: /lull/nap not registered in telemetry\n");
}

int
rte_eth_dev_start(uint16_t port)
{
	static dev_fn *start;
	char err[256];
	int ret;

	if (start == NULL)
		start = real("rte_eth_dev_start");
	ret = start(port);
	if (ret == 0 && lull_nap_port_enable(port, err, sizeof(err)) < 0)
		fprintf(stderr, "lull: not attached: %s (this port is polled as before)\n", err);
	return ret;
}

/* Detach lull from port, then call the real name (resolved once into *fn). */
static int
detach_then(const char *name, dev_fn **fn, uint16_t port)
{
	if (*fn == NULL)
		*fn = real(name);
	lull_nap_port_disable(port);
	return (*fn)(port);
}

int
rte_eth_dev_stop(uint16_t port)
{
	static dev_fn *stop;

	return detach_then("rte_eth_dev_stop", &stop, port);
}

int
rte_eth_dev_close(uint16_t port)
{
	static dev_fn *close_fn;

	return detach_then("rte_eth_dev_close", &close_fn, port);
}
