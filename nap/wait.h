/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * How a PMD waits, once its policy decided to: every wake backend behind one
 * call, lull_wait(), with the queues and the deadline. The policy is pure
 * (lib/policy) and decides how long and whether to wait for an interrupt;
 * this file only knows how to wait (DPDK's power library keeps its
 * queue_can_sleep() policy apart from clb_pause()/clb_umwait() the same way).
 *
 * Timed waits, one backend chosen per PMD from what the CPU offers:
 *  - nanosleep: gives the CPU back (the PMD sets its timer slack);
 *  - pause: spins with the pause instruction until the deadline (never sleeps,
 *    lowest wake latency, no CPU saved - for comparison and tiny waits);
 *  - tpause: rte_power_pause() (WAITPKG: the core rests in C0.1/C0.2 until the
 *    TSC deadline); auto uses it for waits shorter than LULL_TPAUSE_MAX_NS and
 *    nanosleep above, where giving the CPU back is worth the wake cost. The OS
 *    caps one TPAUSE at IA32_UMWAIT_CONTROL's limit (~100k TSC cycles): it is
 *    repeated until the deadline and each early return counted;
 *  - monitor: rte_power_monitor(_multi) on the next rx descriptor of every
 *    polled queue: wakes when a packet lands or at the deadline; a return with
 *    no packet before the deadline (the same cap) waits again, and counts.
 * Interrupt waits: arm the rx interrupt of every polled queue, look at the
 * queues once more (what came before arming is seen now), then epoll until an
 * interrupt, the control plane's eventfd (a stop, a new parameter block) or
 * the waiter's bound (--intr-wait-max-ms).
 *
 * Threads: lull_waiter_init() and lull_waiter_describe() run on the control
 * plane; attach, detach and lull_wait() on the PMD thread that owns the waiter.
 */
#ifndef LULL_WAIT_H
#define LULL_WAIT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_epoll.h>

#include "wake.h"
#include "quiesce.h"
#include "slowwake.h"

#define LULL_TPAUSE_MAX_NS 50000

/** Distinct signal handlers of the queue fds of one PMD (net_tap: one for all). */
#define LULL_WAIT_MAX_KICKS 4

/** An rx queue a PMD polls, as the waiter sees it. */
struct lull_wait_queue {
	uint16_t port;
	uint16_t queue;
	/** Its interrupt fd is readable exactly while packets wait (net_tap's):
	 * watched level-triggered, so that an interrupt wait returns at once while
	 * packets wait and needs no look of its own at that queue after arming.
	 * DPDK's own registration is edge-triggered. */
	bool level;
};

struct lull_waiter {
	enum lull_wake_kind kind; /**< resolved: never AUTO */
	bool tpause_short;        /**< auto on a WAITPKG CPU: tpause below LULL_TPAUSE_MAX_NS */
	int intr_wait_max_ms;     /**< longest single interrupt wait */
	uint64_t tsc_hz;
	/* Set by lull_waiter_attach() on the PMD thread. */
	unsigned int n_queues;
	struct lull_wait_queue queues[LULL_NAP_MAX_QUEUES];
	bool intr_ok; /**< every queue's interrupt is in this thread's epoll set */
	/** Per queue: its interrupt fd when that fd signals its owner on input (O_ASYNC, as
	 * net_tap's do for its rx trigger), else -1. */
	int async_fd[LULL_NAP_MAX_QUEUES];
	unsigned int n_async; /**< how many async_fd are not -1 */
	sigset_t async_sigs;  /**< the signals they send (SIGIO unless F_SETSIG) */
	/** Their handlers, which an interrupt wait runs itself (wait.c); n_kicks = 0 when
	 * one cannot be (the fds then signal this thread during the waits). */
	void (*kick[LULL_WAIT_MAX_KICKS])(int);
	int kick_sig[LULL_WAIT_MAX_KICKS];
	unsigned int n_kicks;
	/** The level-triggered registrations (lull_wait_queue.level); fd -1: DPDK's. */
	struct rte_epoll_event level_ev[LULL_NAP_MAX_QUEUES];
	int level_fd[LULL_NAP_MAX_QUEUES];
	int ctl_fd;                    /**< the control plane's eventfd, -1 = none */
	struct rte_epoll_event ctl_ev; /**< its registration (DPDK keeps a pointer) */
	uint64_t early_wakes;          /**< tpause/monitor returns before the deadline */
	/** --wake-inject: a slow machine's lateness and CPU added to every wait */
	bool inject_on;
	struct lull_slowwake inject;
	/** The polling thread's grace-period slot (lib/quiesce.h): even while a
	 * wait blocks in the kernel, where the thread reads no driver's memory */
	struct lull_quiesce_slot *qs;
};

enum lull_wait_mode {
	LULL_WAIT_TIMED, /**< until the deadline (monitor: or a packet) */
	LULL_WAIT_INTR,  /**< until an rx interrupt, at most intr_wait_max_ms */
};

/** How a wait ended. */
enum lull_wait_end {
	LULL_WAIT_DEADLINE, /**< the time asked for passed (or the backend returned) */
	LULL_WAIT_WOKEN,    /**< an rx interrupt */
	LULL_WAIT_TIMEOUT,  /**< an interrupt wait that reached intr_wait_max_ms */
	LULL_WAIT_RECHECK,  /**< an interrupt wait not taken: the queues had packets */
	LULL_WAIT_CONTROL,  /**< an interrupt wait ended by the control plane's eventfd */
};

struct lull_wait_req {
	enum lull_wait_mode mode;
	uint64_t ns;                    /**< timed: how long */
	uint32_t (*recheck)(void *ctx); /**< interrupt: poll the queues once after arming */
	void *ctx;
	bool recheck_peeks; /**< recheck takes nothing (lull_nap_host.peeks) */
};

/** Add p's slow wakes to every wait of w (all 0: nothing), drawn from seed. */
void lull_waiter_inject(struct lull_waiter *w, const struct lull_slowwake_params *p, uint64_t seed);

/**
 * Pick the backend: auto takes the best this CPU has; an explicit kind the CPU
 * lacks is refused with a message in err. Control plane.
 */
int lull_waiter_init(struct lull_waiter *w, enum lull_wake_kind kind, uint32_t intr_wait_max_ms,
	char *err, size_t errlen);

/**
 * On the PMD thread, at a (re)load: take the queues it polls and, with
 * want_intr, put their rx interrupts in this thread's epoll set, and ctl_fd
 * (an eventfd of the control plane, or -1) with them.
 *
 * @return 0, or the negative errno of the first queue that cannot interrupt
 *   (*bad is its index; interrupt waits are then off, timed waits work).
 */
int lull_waiter_attach(struct lull_waiter *w, const struct lull_wait_queue *q, unsigned int n,
	bool want_intr, int ctl_fd, unsigned int *bad);

/**
 * On a PMD thread, at its start: block every asynchronous signal, so that the
 * kernel gives a signal sent to the process to a control thread, never to a
 * polling one - net_tap's queue fds send one per packet (a real-time signal
 * in DPDK 22.11, queued, never merged). Interrupt waits take the queues'
 * signals for their length. Faults (SIGSEGV, SIGBUS, ...) stay unblocked.
 */
void lull_waiter_thread_init(void);

/** On the PMD thread: take the interrupts out of its epoll set. */
void lull_waiter_detach(struct lull_waiter *w);

/** Wait as req says. @return how it ended. */
enum lull_wait_end lull_wait(struct lull_waiter *w, const struct lull_wait_req *req);

/** What the waiter is, for logs: "nanosleep", "tpause (< 50 us) + nanosleep", "monitor", ... */
const char *lull_waiter_describe(const struct lull_waiter *w);

#endif /* LULL_WAIT_H */
