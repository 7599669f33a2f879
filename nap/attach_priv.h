/* SPDX-License-Identifier: BSD-3-Clause */
/* The attached engine's threads, shared by attach.c and attach_tel.c. */
#ifndef LULL_NAP_ATTACH_PRIV_H
#define LULL_NAP_ATTACH_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include <pthread.h>

#include "lull_nap_attach.h"
#include "sleepopt.h"
#include "wait.h"
#include "wakeopt.h"

/* Everything lull_nap_attach_options() sets: the rows of lull's own table. */
struct attach_opts {
	struct lull_sleep_opts sleep;
	struct lull_wake_opts wk;
	uint32_t rx_desc; /**< an rx ring whose driver does not say how long it is */
};

/* One rx queue lull is attached to: the callback's user parameter (static,
 * as ethdev never frees a removed callback's memory before the app may). */
struct attach_rxq {
	const struct rte_eth_rxtx_callback *cb;
	uint64_t pkts;      /**< received since attached: written by the thread polling it */
	unsigned int owner; /**< 1 + the index of the thread that last received from it */
	uint32_t ring;      /**< its descriptors, 0: the driver does not say */
	double line_ppns;   /**< its port's line rate, 64-byte packets per ns */
	bool line_assumed;
} __attribute__((aligned(64))); /* threads polling neighbours share no line */

/** Guards the options, the attached queues and every thread's shown settings. */
extern pthread_mutex_t attach_lock;

/** The options in force (lull's defaults until set). Under attach_lock. */
struct attach_opts *opts_locked(void);

/** What the views show of a thread's settings: written under the attach lock
 * at each load, read under it (attach.c: lull_nap_attach_shown()). */
struct lull_nap_thr_shown {
	struct lull_policy_params policy;
	const char *wake, *wake_inject; /**< static names */
	uint64_t timer_slack_ns;
	uint32_t wake_priority;
	uint64_t intr_after_ns;
	int intr_wait_max_ms;
	uint32_t keys[LULL_NAP_ATTACH_MAX_QUEUES]; /**< the sources it loaded with */
	unsigned int n_keys;
	unsigned int n_intr; /**< of them, waited on for interrupts */
	uint64_t gen;
	uint16_t ring_port; /**< whose ring is the smallest, UINT16_MAX: --rx-desc */
	bool line_assumed;  /**< a line without a speed taken as 10 GbE */
};

/** Saturated rounds (every poll full) at most between two reads of the clock.
 * What runs there evicts the host's lines: once in 32 rounds it cost testpmd
 * ~1 % on null ports, where the 256 rounds between take ~140 us (teardown's
 * grace period waits up to LULL_TEARDOWN_MAX_MS for a pass). */
#define LULL_NAP_ATTACH_UNREAD_ROUNDS 255

/** One polling thread's engine and its round. */
struct lull_nap_thr {
	struct lull_nap nap;
	struct lull_waiter waiter;
	uint32_t round[LULL_NAP_ATTACH_MAX_QUEUES]; /**< port << 16 | queue, this round */
	unsigned int n_round;
	uint64_t loaded_sig;   /**< the set of sources it last loaded with (order-free) */
	unsigned int n_loaded; /**< and their number */
	/** The sources loaded with, where they are all rx queues that interrupt and
	 * that a look tells whether packets wait (peek): its interrupt waits. */
	struct lull_wait_queue wq[LULL_NAP_ATTACH_MAX_QUEUES];
	unsigned int n_wq;
	/** Of them, those whose driver counts waiting packets (rx_queue_count);
	 * the others' fds are readable while packets wait (net_tap: level). */
	struct lull_wait_queue peek_cq[LULL_NAP_ATTACH_MAX_QUEUES];
	unsigned int n_cq;
	uint32_t round_rx; /**< packets this round */
	uint32_t unread;   /**< saturated rounds since the clock was last read */
	/** A saturated stretch (every poll full, in the order of the round that
	 * began it): its length in polls, and how many are left; 0: none. */
	uint32_t sat_polls, sat_left;
	uint64_t rounds;
	uint64_t gen;       /**< lull_nap_attach_gen when it last loaded */
	int os_tid;         /**< its kernel thread id (gettid) */
	uint64_t start_tsc; /**< when it first polled */
	unsigned int index;
	int cpu; /**< where it ran at its last load */
	uint16_t burst;
	bool loaded;
	bool cpu_said; /**< whether its CPU's isolation was logged */
	struct lull_nap_thr_shown shown;
};

/** Threads with an engine: entries below lull_nap_n_thrs are set, never freed. */
extern struct lull_nap_thr *lull_nap_thrs[LULL_NAP_ATTACH_MAX_THREADS];
extern unsigned int lull_nap_n_thrs;
extern uint64_t lull_nap_attach_gen;

/** A thread's engine, made at its first poll of an attached source (called
 * with no lock held), or NULL with errno (ENOSPC: the thread table is full). */
struct lull_nap_thr *lull_nap_thr_new(void);

/** Load t with the options in force, for bursts of up to burst packets and
 * the n sources in keys (NULL, 0: before its first round). */
void lull_nap_thr_load(
	struct lull_nap_thr *t, uint16_t burst, const uint32_t *keys, unsigned int n);

/** A set of sources' signature, whatever their order. */
uint64_t lull_nap_round_sig(const uint32_t *keys, unsigned int n);

struct rte_mbuf;
/** The rx callback of every attached queue (attach_poll.c); user: its struct
 * attach_rxq. @return n. */
uint16_t lull_nap_attach_on_rx(uint16_t port, uint16_t queue, struct rte_mbuf *pkts[], uint16_t n,
	uint16_t max_pkts, void *user);

/** A copy of t's settings as last loaded. */
void lull_nap_attach_shown(const struct lull_nap_thr *t, struct lull_nap_thr_shown *out);

/** Packets received on attached rx queue (port, queue) since it was attached
 * (0 if never), and in owner (if not NULL) the index of the thread that last
 * received from it, or -1. */
uint64_t lull_nap_attach_rxq_pkts(uint16_t port, uint16_t queue, int *owner);

/** Whether port was configured with rx interrupts (lull_nap_port_intr()). */
bool lull_nap_attach_port_intr(uint16_t port);

/** After port started (lull_nap_port_enable()): follow its af_packet
 * sockets' ring drops, if it has any (nap/attach_afp.c). */
void lull_nap_attach_afp_start(uint16_t port);

/** Before port stops or closes: read its sockets' last drops, and no more. */
void lull_nap_attach_afp_stop(uint16_t port);

struct rte_eth_stats;
/** What port lost on receive, st (its ethdev stats) and its af_packet
 * rings' drops read now: the rx_missed of /lull/ports. */
uint64_t lull_nap_attach_rx_missed(uint16_t port, const struct rte_eth_stats *st);

/** Call emit(ctx, name, value) for every option in force (/lull/config). */
void lull_nap_attach_describe(
	void (*emit)(void *ctx, const char *key, const char *value), void *ctx);

/** The options lull_nap_attach_set() takes, space-separated, into buf. @return buf. */
const char *lull_nap_attach_settable(char *buf, size_t len);

#endif /* LULL_NAP_ATTACH_PRIV_H */
