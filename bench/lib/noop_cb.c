/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/lib/noop_cb.c: the floor under any rx callback. Loaded with
 * LD_PRELOAD into a DPDK program, it wraps rte_eth_dev_start() and, once a
 * port has started, adds to each of its rx queues an rx callback that
 * returns what the burst brought and does nothing else. What a program loses
 * with it is the price of ethdev's callback dispatch alone (the call out of
 * the inline rte_eth_rx_burst(), rte_eth_call_rx_callbacks(), the call
 * through its pointer): what lull's callback, DPDK's power library's, or any
 * other pays before it does anything. bench/inside's null setup runs it
 * beside plain testpmd and testpmd with lull (a port started again gets one
 * more: testpmd's --auto-start starts each once).
 *
 *   cc -O2 -fPIC -shared noop_cb.c -o noop_cb.so $(pkg-config --cflags --libs libdpdk)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

#include <rte_ethdev.h>

static uint16_t
noop(uint16_t port, uint16_t queue, struct rte_mbuf *pkts[], uint16_t n, uint16_t max_pkts,
	void *user)
{
	(void)port;
	(void)queue;
	(void)pkts;
	(void)max_pkts;
	(void)user;
	return n;
}

int
rte_eth_dev_start(uint16_t port)
{
	static int (*real)(uint16_t);
	struct rte_eth_dev_info info;
	int rc;

	if (real == NULL)
		real = (int (*)(uint16_t))dlsym(RTLD_NEXT, "rte_eth_dev_start");
	if (real == NULL) {
		fprintf(stderr, "noop_cb: no rte_eth_dev_start to wrap: %s\n", dlerror());
		return -ENOSYS;
	}
	rc = real(port);
	if (rc != 0 || rte_eth_dev_info_get(port, &info) != 0)
		return rc;
	for (uint16_t q = 0; q < info.nb_rx_queues; q++)
		if (rte_eth_add_rx_callback(port, q, noop, NULL) == NULL)
			fprintf(stderr, "noop_cb: port %u queue %u: no rx callback: %s\n", port, q,
				rte_strerror(rte_errno));
	return rc;
}
