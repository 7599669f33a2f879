/* SPDX-License-Identifier: BSD-3-Clause */
/* The sleep engine outside lull: one thread polls port 0 and sleeps as the
 * engine says, for a second. cc example.c $(pkg-config --cflags --libs lullnap) */
#include <inttypes.h>
#include <stdio.h>

#include <lull_nap.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>

static struct lull_nap nap;

static uint32_t
poll_port(void *ctx)
{
	struct rte_mbuf *pkts[32];
	uint16_t n = rte_eth_rx_burst(0, 0, pkts, 32);

	(void)ctx;
	if (n > 0)
		lull_nap_rx(&nap, n, 32);
	rte_pktmbuf_free_bulk(pkts, n); /* a real host forwards them */
	return n;
}

static void
flush(void *ctx)
{
	(void)ctx; /* nothing buffered for tx */
}

int
main(int argc, char **argv)
{
	const struct lull_nap_host host = {.poll = poll_port, .flush = flush};
	const struct lull_wait_queue q = {.port = 0, .queue = 0};
	struct rte_eth_conf eth = {0};
	struct lull_nap_conf conf;
	struct lull_waiter waiter;
	struct rte_mempool *mp;
	unsigned int bad;
	char err[256];

	if (rte_eal_init(argc, argv) < 0)
		return 1;
	mp = rte_pktmbuf_pool_create("pool", 1023, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	if (mp == NULL || rte_eth_dev_configure(0, 1, 1, &eth) != 0 ||
		rte_eth_rx_queue_setup(0, 0, 512, 0, NULL, mp) != 0 ||
		rte_eth_tx_queue_setup(0, 0, 512, 0, NULL) != 0 || rte_eth_dev_start(0) != 0)
		return 1;
	lull_nap_init(&nap, &host);
	if (lull_nap_conf_defaults(&conf, &waiter, 32, 512, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	lull_nap_thread_start(&nap);
	lull_nap_load(&nap, &conf, &q, 1, &bad);
	for (uint64_t end_tsc = rte_rdtsc() + rte_get_tsc_hz(); rte_rdtsc() < end_tsc;) {
		uint32_t n = poll_port(NULL);
		uint64_t now_tsc = rte_rdtsc();

		lull_nap_account(&nap, n, now_tsc);
		lull_nap_idle(&nap, n, now_tsc);
	}
	lull_nap_thread_stop(&nap);
	printf("sleeps %" PRIu64 ", asleep %.1f %% of the second\n",
		lull_counter_read(&nap.stats[LULL_PMD_SLEEPS]),
		100.0 * (double)lull_counter_read(&nap.stats[LULL_PMD_SLEEP_TSC]) /
			(double)rte_get_tsc_hz());
	rte_eth_dev_stop(0);
	rte_eth_dev_close(0);
	rte_eal_cleanup();
	return 0;
}
