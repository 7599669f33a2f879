/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The engine attached to another program's rx queues (lull_nap_attach.h):
 * an ethdev rx callback per queue feeds the engine of whichever thread polls
 * it. A thread's round is the polls between two polls of the same queue; a
 * round in which every queue came back empty, followed by an empty poll, is
 * an idle iteration, and the engine may wait there, before the callback
 * returns (nothing was received, so nothing waits for tx).
 */
#include "lull_nap_attach.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "attach_priv.h"
#include "sleepopt.h"
#include "wakeopt.h"

/* Everything lull_nap_attach_options() sets: the rows of lull's own table. */
struct attach_opts {
	struct lull_sleep_opts sleep;
	struct lull_wake_opts wk;
};

static const struct lull_opt attach_rows[] = {
	LULL_SLEEP_OPT_ROWS(struct attach_opts, sleep, NULL),
	LULL_WAKE_OPT_ROWS(struct attach_opts, wk, 0),
	LULL_OPT_END_ROW,
};

/* One rx queue lull is attached to: the callback's user parameter (static,
 * as ethdev never frees a removed callback's memory before the app may). */
struct attach_rxq {
	const struct rte_eth_rxtx_callback *cb;
	uint16_t ring; /**< its descriptors */
};

static pthread_mutex_t attach_lock = PTHREAD_MUTEX_INITIALIZER;
static struct attach_opts opts;
static bool opts_set;
static struct attach_rxq rxqs[RTE_MAX_ETHPORTS][LULL_NAP_ATTACH_MAX_QUEUES];
static uint32_t min_ring = UINT32_MAX; /**< the smallest ring attached */
static uint64_t wait_cap_ns;           /**< the host's bound on any one wait, 0: none */

struct lull_nap_thr *lull_nap_thrs[LULL_NAP_ATTACH_MAX_THREADS];
unsigned int lull_nap_n_thrs;
uint64_t lull_nap_attach_gen = 1; /**< bumped when what a thread loads changes */
static __thread struct lull_nap_thr *self;

static void
no_flush(void *ctx)
{
	(void)ctx; /* the host sends what it received before it polls again */
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
	if (ret == 0 && o.wk.wake == LULL_WAKE_MONITOR) {
		ret = -ENOTSUP;
		snprintf(err, errlen,
			"--wake: bad value 'monitor' (attached to another program's queues, lull "
			"cannot tell which descriptors to watch; use auto, nanosleep, pause or "
			"tpause)");
	}
	if (ret == 0) {
		/* a backend this CPU lacks (tpause) is refused here, by name, not
		 * found at a thread's first poll */
		struct lull_waiter probe;

		ret = lull_waiter_init(&probe, o.wk.wake, o.wk.intr_wait_max_ms, err, errlen);
	}
	if (ret < 0)
		return ret;
	pthread_mutex_lock(&attach_lock);
	opts = o;
	opts_set = true;
	__atomic_add_fetch(&lull_nap_attach_gen, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&attach_lock);
	return 0;
}

void
lull_nap_attach_usage(FILE *f)
{
	fprintf(f, "LULL_OPTS: lull's options for the threads polling attached rx queues\n"
		   "(\"--NAME VALUE ...\"; --NAME=VALUE too):\n\n");
	lull_opt_usage(attach_rows, f);
}

/* A thread's engine, made at its first poll of an attached queue. */
static struct lull_nap_thr *
thr_new(void)
{
	const struct lull_nap_host host = {.poll = NULL, .flush = no_flush};
	struct lull_nap_thr *t = calloc(1, sizeof(*t));
	unsigned int i;

	if (t == NULL)
		return NULL;
	pthread_mutex_lock(&attach_lock);
	i = lull_nap_n_thrs;
	if (i == LULL_NAP_ATTACH_MAX_THREADS) {
		pthread_mutex_unlock(&attach_lock);
		free(t);
		return NULL;
	}
	lull_nap_init(&t->nap, &host);
	t->index = i;
	t->tid = (uint64_t)pthread_self();
	t->start_tsc = rte_rdtsc();
	lull_nap_thread_start(&t->nap);
	__atomic_store_n(&lull_nap_thrs[i], t, __ATOMIC_RELEASE);
	__atomic_store_n(&lull_nap_n_thrs, i + 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&attach_lock);
	return t;
}

/* Take the options in force for a thread whose bursts hold up to burst packets. */
static void
thr_load(struct lull_nap_thr *t, uint16_t burst)
{
	static const struct lull_wait_queue none = {0, 0};
	struct lull_nap_conf conf;
	unsigned int bad;
	char err[256];
	int cpu = sched_getcpu();

	pthread_mutex_lock(&attach_lock);
	t->gen = __atomic_load_n(&lull_nap_attach_gen, __ATOMIC_ACQUIRE);
	if (!opts_set)
		lull_opt_fill_defaults(attach_rows, &opts, sizeof(opts), "lull attach");
	opts_set = true;
	memset(&conf, 0, sizeof(conf));
	lull_sleep_opts_params(&opts.sleep, cpu < 0 ? 0 : (unsigned int)cpu, burst,
		min_ring == UINT32_MAX ? 512 : min_ring, &conf.policy);
	if (wait_cap_ns != 0 && conf.policy.max_sleep_ns > wait_cap_ns)
		conf.policy.max_sleep_ns = wait_cap_ns;
	if (lull_policy_check(&conf.policy) < 0 ||
		lull_waiter_init(
			&t->waiter, opts.wk.wake, opts.wk.intr_wait_max_ms, err, sizeof(err)) < 0)
		conf.policy.kind = LULL_POLICY_OFF; /* both checked when the options were set */
	lull_waiter_inject(&t->waiter, &opts.wk.inject, (uint64_t)t->index + 1);
	conf.timer_slack_ns = opts.wk.timer_slack_ns; /* opts may change once unlocked */
	pthread_mutex_unlock(&attach_lock);
	conf.waiter = &t->waiter;
	conf.ctl_fd = -1;
	conf.fresh = t->burst != burst || !t->loaded;
	/* timed waits only: rx interrupts need the host's ports configured for them */
	lull_nap_load(&t->nap, &conf, &none, 0, &bad);
	t->burst = burst;
	t->loaded = true;
	t->cpu = cpu;
}

void
lull_nap_attach_wait_cap(uint64_t max_ns)
{
	pthread_mutex_lock(&attach_lock);
	wait_cap_ns = max_ns;
	__atomic_add_fetch(&lull_nap_attach_gen, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&attach_lock);
}

bool
lull_nap_attach_thread_polls(void)
{
	return self != NULL;
}

/* This thread polled source key (port << 16 | queue, or another source's key)
 * and got n of at most max_pkts packets. */
void
lull_nap_attach_polled(uint32_t key, uint16_t n, uint16_t max_pkts)
{
	struct lull_nap_thr *t = self;

	if (__builtin_expect(t == NULL, 0)) {
		t = self = thr_new();
		if (t == NULL)
			return; /* past the thread table or out of memory: this thread polls */
		thr_load(t, max_pkts);
	}
	for (unsigned int i = 0; i < t->n_round; i++) {
		uint64_t now_tsc;

		if (t->round[i] != key)
			continue;
		/* this queue again: the round is over */
		now_tsc = rte_rdtsc();
		lull_nap_account(&t->nap, t->round_rx, now_tsc);
		if (t->round_rx == 0 && n == 0)
			lull_nap_idle(&t->nap, 0, now_tsc);
		if (++t->rounds % LULL_NAP_HOUSEKEEPING_ITERS == 0) {
			lull_nap_housekeeping(&t->nap);
			if (__atomic_load_n(&lull_nap_attach_gen, __ATOMIC_RELAXED) != t->gen)
				thr_load(t, max_pkts);
		}
		t->n_round = 0;
		t->round_rx = 0;
		break;
	}
	if (t->n_round < LULL_NAP_ATTACH_MAX_QUEUES)
		t->round[t->n_round++] = key;
	t->round_rx += n;
	if (n > 0)
		lull_nap_rx(&t->nap, n, max_pkts);
}

static uint16_t
on_rx(uint16_t port, uint16_t queue, struct rte_mbuf *pkts[], uint16_t n, uint16_t max_pkts,
	void *user)
{
	(void)pkts;
	(void)user;
	lull_nap_attach_polled((uint32_t)port << 16 | queue, n, max_pkts);
	return n;
}

int
lull_nap_rxq_enable(uint16_t port, uint16_t queue, char *err, size_t errlen)
{
	struct rte_eth_rxq_info info;
	struct attach_rxq *q;
	int ret = 0;

	if (!rte_eth_dev_is_valid_port(port) || queue >= LULL_NAP_ATTACH_MAX_QUEUES) {
		snprintf(err, errlen, "port %u queue %u: no such port, or queue past %d", port,
			queue, LULL_NAP_ATTACH_MAX_QUEUES);
		return -EINVAL;
	}
	pthread_mutex_lock(&attach_lock);
	q = &rxqs[port][queue];
	if (q->cb == NULL) {
		q->ring = rte_eth_rx_queue_info_get(port, queue, &info) == 0 ? info.nb_desc : 0;
		q->cb = rte_eth_add_rx_callback(port, queue, on_rx, q);
		if (q->cb == NULL) {
			ret = -rte_errno;
			snprintf(err, errlen, "port %u queue %u: cannot add an rx callback: %s",
				port, queue, rte_strerror(rte_errno));
		} else if (q->ring != 0 && q->ring < min_ring) {
			min_ring = q->ring;
			__atomic_add_fetch(&lull_nap_attach_gen, 1, __ATOMIC_RELEASE);
		}
	}
	pthread_mutex_unlock(&attach_lock);
	return ret;
}

int
lull_nap_rxq_disable(uint16_t port, uint16_t queue)
{
	struct attach_rxq *q;
	int ret = 0;

	if (port >= RTE_MAX_ETHPORTS || queue >= LULL_NAP_ATTACH_MAX_QUEUES)
		return -EINVAL;
	pthread_mutex_lock(&attach_lock);
	q = &rxqs[port][queue];
	if (q->cb != NULL) {
		/* ethdev unlinks it; a thread inside it finishes (its memory stays) */
		ret = rte_eth_remove_rx_callback(port, queue, q->cb);
		q->cb = NULL;
	}
	pthread_mutex_unlock(&attach_lock);
	return ret;
}

int
lull_nap_port_enable(uint16_t port, char *err, size_t errlen)
{
	struct rte_eth_dev_info info;
	int ret = rte_eth_dev_info_get(port, &info);

	if (ret < 0) {
		snprintf(err, errlen, "port %u: cannot read device info: %s", port, strerror(-ret));
		return ret;
	}
	for (uint16_t q = 0; q < info.nb_rx_queues && ret == 0; q++)
		ret = lull_nap_rxq_enable(port, q, err, errlen);
	return ret;
}

void
lull_nap_port_disable(uint16_t port)
{
	for (uint16_t q = 0; q < LULL_NAP_ATTACH_MAX_QUEUES; q++)
		lull_nap_rxq_disable(port, q);
}
