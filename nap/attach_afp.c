/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The kernel ring drops of another program's net_af_packet ports: DPDK
 * 22.11's driver counts none, so inside OVS or testpmd a frame lost in the
 * socket's ring was lost without a trace. The engine finds the driver's
 * sockets when it attaches to a started port (dp/afp_stats.c, as lull does
 * for its own ports) and reads PACKET_STATISTICS when telemetry asks, before
 * the port stops (the driver closes them then) and not after.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_ethdev.h>

#include "afp_stats.h"
#include "attach_priv.h"

/* The reads reset the kernel's counters and telemetry serves each client from
 * its own thread: one lock for all. Allocated at a port's first start with
 * sockets (most hosts have none). */
static pthread_mutex_t afp_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lull_afp_stats *afp[RTE_MAX_ETHPORTS];

void
lull_nap_attach_afp_start(uint16_t port)
{
	struct lull_afp_stats probe = {0}, *s;
	unsigned int n;

	if (port >= RTE_MAX_ETHPORTS)
		return;
	pthread_mutex_lock(&afp_lock);
	s = afp[port] != NULL ? afp[port] : &probe;
	n = lull_afp_stats_attach(s, port);
	if (n > 0 && s == &probe) {
		s = afp[port] = malloc(sizeof(*s));
		if (s != NULL)
			*s = probe;
	}
	pthread_mutex_unlock(&afp_lock);
	if (n > 0 && s != NULL)
		fprintf(stderr,
			"lull: port %u: kernel ring drops read from %u af_packet socket(s)\n", port,
			n);
	else if (n > 0)
		fprintf(stderr,
			"lull: port %u: its af_packet ring drops are not counted: out of memory\n",
			port);
}

void
lull_nap_attach_afp_stop(uint16_t port)
{
	if (port >= RTE_MAX_ETHPORTS)
		return;
	pthread_mutex_lock(&afp_lock);
	if (afp[port] != NULL)
		lull_afp_stats_forget(afp[port]);
	pthread_mutex_unlock(&afp_lock);
}

uint64_t
lull_nap_attach_rx_missed(uint16_t port, const struct rte_eth_stats *st)
{
	uint64_t missed;

	if (port >= RTE_MAX_ETHPORTS)
		return lull_rx_missed(st, NULL);
	pthread_mutex_lock(&afp_lock);
	if (afp[port] != NULL)
		lull_afp_stats_read(afp[port]);
	missed = lull_rx_missed(st, afp[port]);
	pthread_mutex_unlock(&afp_lock);
	return missed;
}
