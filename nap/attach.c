/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The engine attached to another program's rx queues (lull_nap_attach.h):
 * an ethdev rx callback per queue feeds the engine of whichever thread polls
 * it. A thread's round is the polls between two polls of the same queue; a
 * round in which every queue came back empty, followed by an empty poll, is
 * an idle iteration, and the engine may wait there, before the callback
 * returns (nothing was received, so nothing waits for tx). Here: the queues
 * attached, the threads' engines and what they load; the per-poll path is
 * attach_poll.c.
 */
#include "lull_nap_attach.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>

#include "attach_priv.h"
#include "portline.h"
#include "sched_view.h"
#include "sleepopt.h"
#include "wakeopt.h"

pthread_mutex_t attach_lock = PTHREAD_MUTEX_INITIALIZER;
static struct attach_rxq rxqs[RTE_MAX_ETHPORTS][LULL_NAP_ATTACH_MAX_QUEUES];
#define LINE_10G_PPNS (10e9 / (84 * 8) / 1e9) /* a line without a speed: 10 GbE */
static uint64_t wait_cap_ns;                  /**< the host's bound on any one wait, 0: none */
static bool intr_port[RTE_MAX_ETHPORTS];      /**< configured with rx interrupts */

struct lull_nap_thr *lull_nap_thrs[LULL_NAP_ATTACH_MAX_THREADS];
unsigned int lull_nap_n_thrs;
uint64_t lull_nap_attach_gen = 1; /**< bumped when what a thread loads changes */

static void
no_flush(void *ctx)
{
	(void)ctx; /* the host sends what it received before it polls again */
}

/* A set of sources' signature: a sum of hashes, so order does not matter. */
uint64_t
lull_nap_round_sig(const uint32_t *keys, unsigned int n)
{
	uint64_t sig = 0;

	for (unsigned int i = 0; i < n; i++)
		sig += ((uint64_t)keys[i] + 1) * UINT64_C(0x9E3779B97F4A7C15);
	return sig;
}

/*
 * An interrupt wait's look at the queues once armed (a packet that came before
 * arming raised no interrupt): whether packets wait, without taking them - the
 * host takes them at its next poll. Only queues whose packets can be seen so
 * wait for interrupts (peek_of). A net_tap queue's fd is readable while packets
 * wait: the waiter watches it level-triggered (lull_wait_queue.level), so the
 * wait itself returns at once then, and no look of ours is needed - the
 * syscall it would cost was a fifth of an idle OVS PMD's CPU on a VM.
 */
static uint32_t
peek(void *ctx)
{
	struct lull_nap_thr *t = ctx;

	for (unsigned int i = 0; i < t->n_cq; i++)
		if (rte_eth_rx_queue_count(t->peek_cq[i].port, t->peek_cq[i].queue) > 0)
			return 1;
	return 0;
}

/* How peek() sees whether packets wait on a queue: -1 where the driver counts
 * them (rx_queue_count), net_tap's queue fd (readable while packets wait: the
 * wait sees them), or -2: it cannot, and the thread polling it takes timed
 * waits only. */
static int
peek_of(uint16_t port, uint16_t queue)
{
	struct rte_eth_dev_info info;
	int fd;

	if (rte_eth_rx_queue_count(port, queue) >= 0)
		return -1;
	if (rte_eth_dev_info_get(port, &info) == 0 && info.driver_name != NULL &&
		strcmp(info.driver_name, "net_tap") == 0) {
		fd = rte_eth_dev_rx_intr_ctl_q_get_fd(port, queue);
		if (fd >= 0)
			return fd;
	}
	return -2;
}

void
lull_nap_port_intr(uint16_t port, bool on)
{
	if (port >= RTE_MAX_ETHPORTS)
		return;
	pthread_mutex_lock(&attach_lock);
	intr_port[port] = on;
	__atomic_add_fetch(&lull_nap_attach_gen, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&attach_lock);
}

/* A thread's engine, made at its first poll of an attached queue. */
struct lull_nap_thr *
lull_nap_thr_new(void)
{
	struct lull_nap_thr *t = calloc(1, sizeof(*t));
	struct lull_nap_host host = {.poll = peek, .peeks = true, .flush = no_flush};
	unsigned int i;

	if (t == NULL)
		return NULL;
	host.ctx = t;
	pthread_mutex_lock(&attach_lock);
	i = lull_nap_n_thrs;
	if (i == LULL_NAP_ATTACH_MAX_THREADS) {
		pthread_mutex_unlock(&attach_lock);
		free(t);
		errno = ENOSPC;
		return NULL;
	}
	lull_nap_init(&t->nap, &host);
	/* a driver's teardown waits for its round to end (teardown.h) */
	lull_nap_set_quiesce(&t->nap, lull_quiesce_claim());
	t->index = i;
	t->os_tid = rte_sys_gettid();
	t->start_tsc = rte_rdtsc();
	lull_nap_thread_start(&t->nap);
	lull_quiesce_release_at_exit(t->nap.qs); /* a host thread may end */
	__atomic_store_n(&lull_nap_thrs[i], t, __ATOMIC_RELEASE);
	__atomic_store_n(&lull_nap_n_thrs, i + 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&attach_lock);
	return t;
}

/* Which of the n sources in keys a thread waits on for interrupts: all of
 * them, where each is an rx queue configured with interrupts whose packets
 * peek() sees; else none (timed waits only). Under attach_lock. */
static void
thr_intr_queues(struct lull_nap_thr *t, const uint32_t *keys, unsigned int n)
{
	t->n_wq = 0;
	t->n_cq = 0;
	if (opts_locked()->wk.intr_after_ms == 0)
		return;
	for (unsigned int i = 0; i < n; i++) {
		uint16_t port = (uint16_t)(keys[i] >> 16), queue = (uint16_t)keys[i];
		int fd = keys[i] >> 31 || !intr_port[port] ? -2 : peek_of(port, queue);

		if (fd == -2) {
			t->n_wq = 0;
			t->n_cq = 0;
			return;
		}
		t->wq[i] = (struct lull_wait_queue){.port = port, .queue = queue, .level = fd >= 0};
		t->n_wq = i + 1;
		if (fd < 0)
			t->peek_cq[t->n_cq++] = t->wq[i];
	}
}

/* What bounds a thread's sleeps: the shortest ring it polls and the fastest line. */
struct ring_line {
	uint32_t ring;
	uint16_t port; /**< whose ring; UINT16_MAX: --rx-desc (a driver that does not say) */
	double line_ppns;
	bool assumed; /**< a line without a speed taken as 10 GbE */
};

/* One more source q (NULL: not an ethdev queue) of port into rl. */
static void
ring_line_add(struct ring_line *rl, bool *first, const struct attach_rxq *q, uint16_t port)
{
	uint32_t ring = q != NULL && q->ring != 0 ? q->ring : opts_locked()->rx_desc;
	double line = q != NULL && q->line_ppns > 0 ? q->line_ppns : LINE_10G_PPNS;

	if (*first || ring < rl->ring) {
		rl->ring = ring;
		rl->port = q != NULL && q->ring != 0 ? port : UINT16_MAX;
	}
	*first = false;
	if (line > rl->line_ppns)
		rl->line_ppns = line;
	rl->assumed = rl->assumed || q == NULL || q->line_ppns <= 0 || q->line_assumed;
}

/* The ring and line of the n sources in keys, or before a thread's first round
 * (n = 0) of every queue attached. A source that is not an ethdev queue (vhost),
 * and a ring its driver does not report, counts as --rx-desc at 10 GbE. Under
 * attach_lock. */
static void
thr_ring_line(const uint32_t *keys, unsigned int n, struct ring_line *rl)
{
	*rl = (struct ring_line){.ring = opts_locked()->rx_desc, .port = UINT16_MAX};
	bool first = true;

	for (unsigned int p = 0; n == 0 && p < RTE_MAX_ETHPORTS; p++)
		for (unsigned int q = 0; q < LULL_NAP_ATTACH_MAX_QUEUES; q++)
			if (rxqs[p][q].cb != NULL)
				ring_line_add(rl, &first, &rxqs[p][q], (uint16_t)p);
	for (unsigned int i = 0; i < n; i++)
		ring_line_add(rl, &first,
			keys[i] >> 31 ? NULL : &rxqs[keys[i] >> 16][(uint16_t)keys[i]],
			(uint16_t)(keys[i] >> 16));
	if (rl->line_ppns == 0) {
		rl->line_ppns = LINE_10G_PPNS;
		rl->assumed = true;
	}
}

/* Take the options in force for a thread whose bursts hold up to burst
 * packets and that polls the n sources in keys. */
void
lull_nap_thr_load(struct lull_nap_thr *t, uint16_t burst, const uint32_t *keys, unsigned int n)
{
	struct lull_nap_conf conf;
	struct ring_line rl;
	unsigned int bad;
	uint32_t intr_max_ms;
	char err[256];
	int cpu = sched_getcpu();

	t->loaded_sig = lull_nap_round_sig(keys, n);
	t->n_loaded = n;
	pthread_mutex_lock(&attach_lock);
	t->gen = __atomic_load_n(&lull_nap_attach_gen, __ATOMIC_ACQUIRE);
	opts_locked(); /* the defaults, before any option was set */
	memset(&conf, 0, sizeof(conf));
	thr_intr_queues(t, keys, n);
	intr_max_ms = opts_locked()->wk.intr_wait_max_ms;
	if (wait_cap_ns != 0 && (uint64_t)intr_max_ms * 1000000 > wait_cap_ns)
		intr_max_ms = (uint32_t)(wait_cap_ns / 1000000) + (wait_cap_ns < 1000000);
	conf.intr_after_ns = t->n_wq != 0 ? (uint64_t)opts_locked()->wk.intr_after_ms * 1000000 : 0;
	thr_ring_line(keys, n, &rl);
	lull_sleep_opts_params(&opts_locked()->sleep, cpu < 0 ? 0 : (unsigned int)cpu, burst,
		rl.ring, &conf.policy);
	conf.policy.line_ppns = rl.line_ppns;
	if (wait_cap_ns != 0 && conf.policy.max_sleep_ns > wait_cap_ns)
		conf.policy.max_sleep_ns = wait_cap_ns;
	if (lull_policy_check(&conf.policy) < 0 ||
		lull_waiter_init(
			&t->waiter, opts_locked()->wk.wake, intr_max_ms, err, sizeof(err)) < 0)
		conf.policy.kind = LULL_POLICY_OFF; /* both checked when the options were set */
	lull_waiter_inject(&t->waiter, &opts_locked()->wk.inject, (uint64_t)t->index + 1);
	conf.timer_slack_ns = opts_locked()->wk.timer_slack_ns; /* opts may change once unlocked */
	conf.wake_priority = opts_locked()->wk.wake_priority;
	t->shown = (struct lull_nap_thr_shown){
		.policy = conf.policy,
		.wake = lull_waiter_describe(&t->waiter),
		.wake_inject = lull_slowwake_name_of(&opts_locked()->wk.inject),
		.timer_slack_ns = conf.timer_slack_ns,
		.wake_priority = conf.wake_priority,
		.intr_after_ns = conf.intr_after_ns,
		.intr_wait_max_ms = (int)intr_max_ms,
		.n_keys = n,
		.n_intr = t->n_wq,
		.gen = t->gen,
		.ring_port = rl.port,
		.line_assumed = rl.assumed,
	};
	if (n > 0)
		memcpy(t->shown.keys, keys, n * sizeof(keys[0]));
	pthread_mutex_unlock(&attach_lock);
	conf.waiter = &t->waiter;
	conf.ctl_fd = -1;
	conf.fresh = t->burst != burst || !t->loaded;
	if (!t->cpu_said && conf.policy.kind != LULL_POLICY_OFF) {
		char line[320]; /* once, at the first load it may sleep with */

		t->cpu_said = true;
		if (lull_sched_shared_line(t->os_tid, line, sizeof(line)))
			fprintf(stderr, "lull: %s\n", line);
	}
	/* a queue that cannot interrupt after all: timed waits (intr_ok false) */
	lull_nap_load(&t->nap, &conf, t->wq, t->n_wq, &bad);
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

void
lull_nap_attach_shown(const struct lull_nap_thr *t, struct lull_nap_thr_shown *out)
{
	pthread_mutex_lock(&attach_lock);
	*out = t->shown;
	pthread_mutex_unlock(&attach_lock);
}

uint64_t
lull_nap_attach_rxq_pkts(uint16_t port, uint16_t queue, int *owner)
{
	if (port >= RTE_MAX_ETHPORTS || queue >= LULL_NAP_ATTACH_MAX_QUEUES) {
		if (owner != NULL)
			*owner = -1;
		return 0;
	}
	if (owner != NULL)
		*owner = (int)__atomic_load_n(&rxqs[port][queue].owner, __ATOMIC_RELAXED) - 1;
	return __atomic_load_n(&rxqs[port][queue].pkts, __ATOMIC_RELAXED);
}

bool
lull_nap_attach_port_intr(uint16_t port)
{
	bool on;

	if (port >= RTE_MAX_ETHPORTS)
		return false;
	pthread_mutex_lock(&attach_lock);
	on = intr_port[port];
	pthread_mutex_unlock(&attach_lock);
	return on;
}

int
lull_nap_rxq_enable(uint16_t port, uint16_t queue, char *err, size_t errlen)
{
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
		struct lull_port_line pl;

		lull_port_line_get(port, queue, &pl);
		q->ring = pl.rx_ring;
		q->line_ppns = pl.line_pps / 1e9;
		q->line_assumed = pl.line_assumed;
		q->cb = rte_eth_add_rx_callback(port, queue, lull_nap_attach_on_rx, q);
		if (q->cb == NULL) {
			ret = -rte_errno;
			snprintf(err, errlen, "port %u queue %u: cannot add an rx callback: %s",
				port, queue, rte_strerror(rte_errno));
		}
		/* a thread polling it takes its ring at its next load */
		__atomic_add_fetch(&lull_nap_attach_gen, 1, __ATOMIC_RELEASE);
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
	lull_nap_attach_afp_start(port); /* attached or not, its drops are seen */
	return ret;
}

void
lull_nap_port_disable(uint16_t port)
{
	lull_nap_attach_afp_stop(port);
	for (uint16_t q = 0; q < LULL_NAP_ATTACH_MAX_QUEUES; q++)
		lull_nap_rxq_disable(port, q);
}
