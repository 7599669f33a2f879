/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lull in an unmodified DPDK program: LD_PRELOAD=lullnap-preload.so. The
 * program links DPDK's ethdev dynamically, so its calls of rte_eth_dev_start()
 * and rte_eth_dev_stop() come here first: lull attaches to every rx queue of a
 * port once it started and detaches before it stops (and before a close).
 * rte_eth_dev_configure() comes here too: lull asks for rx interrupts where
 * the driver has them (the host's configuration as it was where it refuses).
 * Options: LULL_OPTS, lull's own (lull_nap_attach_options()); a bad one ends
 * the program before it starts, with the message. LULL_OPTS=--help lists them.
 *
 * What no ethdev callback sees, the preload sees here:
 *  - rte_vhost_dequeue_burst(), how OVS's PMD threads poll vhost-user ports:
 *    each call joins the thread's round as a source of its own;
 *  - inside ovs-vswitchd, every wait is bounded at OVS_WAIT_CAP_NS, below the
 *    10 ms in which OVS expects each PMD thread to quiesce its RCU;
 *  - nanosleep() on a thread lull already sleeps on: the host sleeps on its own
 *    too (OVS's other_config:pmd-maxsleep), said once;
 *  - rte_intr_callback_unregister() (nap/teardown.c, linked in whole): a
 *    driver that tears down memory the polling threads read (net_memif as its
 *    peer leaves) waits for each thread lull sleeps to end its round.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_ethdev.h>
#include <rte_vhost.h>

#include "lull_nap_attach.h"
#include "teardown.h"

/* Below OVS's 10 ms RCU quiesce interval (ovs-rcu: "blocked ... waiting for pmd"). */
#define OVS_WAIT_CAP_NS 9000000u

typedef int dev_fn(uint16_t port);

static void *
real_sym(const char *name)
{
	void *fn = dlsym(RTLD_NEXT, name);

	if (fn == NULL) {
		fprintf(stderr, "lull: %s not found after the preload: %s\n", name, dlerror());
		abort(); /* the program cannot have called it without the library */
	}
	return fn;
}

static dev_fn *
real(const char *name)
{
	return (dev_fn *)real_sym(name);
}

/* At exit: what the teardown guard did, when anything (teardown.h). */
__attribute__((destructor)) static void
preload_fini(void)
{
	char what[128];

	if (lull_teardown_describe(what, sizeof(what)))
		fprintf(stderr, "lull: driver teardowns that waited for the polling threads: %s\n",
			what);
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
	/* this module's rte_intr_callback_unregister comes before DPDK's: a
	 * driver's teardown waits for the threads lull sleeps (teardown.h) */
	(void)lull_teardown_init();
	if (lull_nap_attach_register_telemetry() < 0)
		fprintf(stderr, "lull: /lull/nap not registered in telemetry\n");
	if (strncmp(program_invocation_short_name, "ovs-vswitchd", 12) == 0) {
		lull_nap_attach_wait_cap(OVS_WAIT_CAP_NS);
		fprintf(stderr,
			"lull: inside %s: every wait of a PMD thread is bounded at %u us "
			"(OVS quiesces its RCU every 10 ms)\n",
			program_invocation_short_name, OVS_WAIT_CAP_NS / 1000);
	}
}

typedef int configure_fn(
	uint16_t port, uint16_t nb_rx, uint16_t nb_tx, const struct rte_eth_conf *conf);

/* Ask for rx interrupts where the driver has them (and lull's options want
 * them): the host's own configuration where it refuses. */
int
rte_eth_dev_configure(
	uint16_t port, uint16_t nb_rx_q, uint16_t nb_tx_q, const struct rte_eth_conf *dev_conf)
{
	static configure_fn *configure;
	int ret;

	if (configure == NULL)
		configure = (configure_fn *)real_sym("rte_eth_dev_configure");
	if (dev_conf != NULL && !dev_conf->intr_conf.rxq && lull_nap_attach_wants_intr()) {
		struct rte_eth_conf c = *dev_conf;

		c.intr_conf.rxq = 1;
		ret = configure(port, nb_rx_q, nb_tx_q, &c);
		if (ret == 0) {
			lull_nap_port_intr(port, true);
			return 0;
		}
	}
	ret = configure(port, nb_rx_q, nb_tx_q, dev_conf);
	lull_nap_port_intr(port, ret == 0 && dev_conf != NULL && dev_conf->intr_conf.rxq);
	return ret;
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

/* The close frees the port's data: not under lull's port-show (attach_tel.c) */
int
rte_eth_dev_close(uint16_t port)
{
	static dev_fn *close_fn;
	int ret;

	lull_nap_tel_ports_hold();
	ret = detach_then("rte_eth_dev_close", &close_fn, port);
	lull_nap_tel_ports_release();
	return ret;
}

typedef uint16_t vhost_deq_fn(
	int vid, uint16_t queue, struct rte_mempool *mp, struct rte_mbuf **pkts, uint16_t count);

uint16_t
rte_vhost_dequeue_burst(int vid, uint16_t queue_id, struct rte_mempool *mbuf_pool,
	struct rte_mbuf **pkts, uint16_t count)
{
	static vhost_deq_fn *deq;
	uint16_t n;

	if (deq == NULL)
		deq = (vhost_deq_fn *)real_sym("rte_vhost_dequeue_burst");
	n = deq(vid, queue_id, mbuf_pool, pkts, count);
	if (vid >= 0 && vid < 32768)
		lull_nap_attach_polled(LULL_NAP_SOURCE(vid, queue_id), n, count);
	return n;
}

typedef int nanosleep_fn(const struct timespec *req, struct timespec *rem);

int
nanosleep(const struct timespec *req, struct timespec *rem)
{
	static nanosleep_fn *sleep_fn;
	static int said;

	if (sleep_fn == NULL)
		sleep_fn = (nanosleep_fn *)real_sym("nanosleep");
	if (lull_nap_attach_thread_polls() && !__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
		fprintf(stderr,
			"lull: a thread lull sleeps on also sleeps on its own (nanosleep): both "
			"are on; in OVS, set other_config:pmd-maxsleep=0\n");
	return sleep_fn(req, rem);
}
