/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/lib/noop_fp.c: the other way into a DPDK program's rx path, measured
 * against noop_cb.c. Loaded with LD_PRELOAD, it wraps rte_eth_dev_start()
 * and, once a port has started, replaces the port's rx burst function in
 * ethdev's fast-path table (rte_eth_fp_ops[], which the inline
 * rte_eth_rx_burst() calls through) with its own: it finds the queue's entry
 * by its queue data pointer (the only thing the driver's call passes), calls
 * the driver's function, and counts. No rx callback, so no dispatch through
 * rte_eth_call_rx_callbacks(); but a lookup and a second indirect call, and a
 * table that is ethdev's internal state (rte_ethdev_core.h: "@internal"),
 * reset by every stop and written again by every start.
 *
 *   cc -O2 -fPIC -shared noop_fp.c -o noop_fp.so $(pkg-config --cflags --libs libdpdk)
 *   LULL_PRELOAD=$PWD/noop_fp.so SETUPS=null bench/inside 5 3
 *
 * (the "lull" rows of that run are this library; docs/benchmarks.md "The
 * fast-path table instead of a callback" has the figures).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

#include <rte_ethdev.h>

#define SLOTS 64 /* a power of two; rx queues of every port together */

struct slot {
	void *qd;
	eth_rx_burst_t real;
	uint64_t pkts;
};
static struct slot slots[SLOTS];

static inline unsigned int
slot_of(const void *qd)
{
	unsigned int h = ((uintptr_t)qd >> 6) & (SLOTS - 1);

	while (slots[h].qd != qd && slots[h].qd != NULL)
		h = (h + 1) & (SLOTS - 1);
	return h;
}

static uint16_t
rx_wrapped(void *qd, struct rte_mbuf **pkts, uint16_t n)
{
	struct slot *s = &slots[slot_of(qd)];
	uint16_t got = s->real(qd, pkts, n);

	s->pkts += got;
	return got;
}

int
rte_eth_dev_start(uint16_t port)
{
	static int (*real)(uint16_t);
	static unsigned int used;
	struct rte_eth_dev_info info;
	struct rte_eth_fp_ops *fp;
	int rc;

	if (real == NULL)
		real = (int (*)(uint16_t))dlsym(RTLD_NEXT, "rte_eth_dev_start");
	if (real == NULL) {
		fprintf(stderr, "noop_fp: no rte_eth_dev_start to wrap: %s\n", dlerror());
		return -ENOSYS;
	}
	rc = real(port);
	if (rc != 0 || rte_eth_dev_info_get(port, &info) != 0)
		return rc;
	fp = &rte_eth_fp_ops[port];
	if (used + info.nb_rx_queues >= SLOTS) { /* a start again counts its queues twice */
		fprintf(stderr, "noop_fp: port %u: more than %d rx queues\n", port, SLOTS - 1);
		return rc; /* not wrapped */
	}
	for (uint16_t q = 0; q < info.nb_rx_queues; q++) {
		unsigned int h = slot_of(fp->rxq.data[q]);

		if (slots[h].qd == NULL)
			used++;
		slots[h].qd = fp->rxq.data[q];
		slots[h].real = fp->rx_pkt_burst;
	}
	fp->rx_pkt_burst = rx_wrapped;
	return rc;
}
