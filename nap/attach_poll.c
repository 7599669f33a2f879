/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The attached engine's per-poll path (lull_nap_attach.h): the rx callback
 * and lull_nap_attach_polled() put each poll into its thread's round, count
 * it, and at the round's end account for it and let the engine decide. A
 * saturated thread takes a shorter path: its full polls are only counted, in
 * stretches of whole rounds accounted for at their end. Everything a poll
 * calls is in this file, inline or called last (docs/inside.md: what the
 * callback costs).
 */
#include "lull_nap_attach.h"

#include <errno.h>
#include <stdio.h>

#include <rte_cycles.h>
#include <rte_eal.h>

#include "attach_priv.h"
#include "quiesce.h"

/* initial-exec: the library is loaded at start (LD_PRELOAD, or linked), so its
 * TLS is static and reading it is one load; the default model of a shared
 * object calls __tls_get_addr on every read: 3 % of testpmd's forwarding lcore
 * on null ports. */
static __thread struct lull_nap_thr *self __attribute__((tls_model("initial-exec")));
/* this thread could have no engine: it polls without lull, and tries no more */
static __thread bool no_engine __attribute__((tls_model("initial-exec")));

bool
lull_nap_attach_thread_polls(void)
{
	return self != NULL;
}

/* Count q's n packets (q NULL: a source no rx callback sees). */
static inline __attribute__((always_inline)) void
q_pkts(struct attach_rxq *q, uint16_t n)
{
	if (q != NULL) /* one thread polls a queue at a time; telemetry reads it */
		__atomic_store_n(&q->pkts, __atomic_load_n(&q->pkts, __ATOMIC_RELAXED) + n,
			__ATOMIC_RELAXED);
}

/* n > 0 packets of at most max_pkts: the engine's and q's counts (q NULL: a
 * source no rx callback sees) */
static inline __attribute__((always_inline)) void
counted(struct lull_nap_thr *t, struct attach_rxq *q, uint16_t n, uint16_t max_pkts)
{
	lull_nap_rx(&t->nap, n, max_pkts);
	q_pkts(q, n);
	if (q != NULL) {
		if (__builtin_expect(
			    __atomic_load_n(&q->owner, __ATOMIC_RELAXED) != t->index + 1, 0))
			__atomic_store_n(&q->owner, t->index + 1, __ATOMIC_RELAXED);
	}
}

/* A burst short of max_pkts: its size goes into a histogram, a call. @return n. */
static __attribute__((noinline)) uint16_t
counted_short(struct lull_nap_thr *t, struct attach_rxq *q, uint16_t n, uint16_t max_pkts)
{
	counted(t, q, n, max_pkts);
	return n;
}

/* The poll's packets join the thread's round and the counts. Whatever it
 * calls it calls last, so that a full burst's path saves no register.
 * @return n. */
static inline __attribute__((always_inline)) uint16_t
joined(struct lull_nap_thr *t, struct attach_rxq *q, uint32_t key, uint16_t n, uint16_t max_pkts)
{
	if (t->n_round < LULL_NAP_ATTACH_MAX_QUEUES)
		t->round[t->n_round++] = key;
	t->round_rx += n;
	if (n == 0)
		return 0;
	if (n != max_pkts)
		return counted_short(t, q, n, max_pkts);
	counted(t, q, n, max_pkts);
	return n;
}

/* The round is over (the thread polls a source of it again, key, which
 * brought n): account for it, decide after an empty one, and start the next
 * round with this poll. Out of line and called last, so that the per-burst
 * path saves no register. @return n. */
static __attribute__((noinline)) uint16_t
round_over(
	struct lull_nap_thr *t, struct attach_rxq *q, uint32_t key, uint16_t n, uint16_t max_pkts)
{
	uint64_t now_tsc;

	/* the driver calls of the rounds before are over (lib/quiesce.h); a
	 * saturated thread comes here every LULL_NAP_ATTACH_UNREAD_ROUNDS rounds,
	 * which is soon enough for a teardown and costs its rounds nothing */
	lull_quiesce_pass(t->nap.qs);
	/* other sources than last loaded (a queue moved here or away): load with
	 * them, for their interrupts (as many: here; the same number of others:
	 * at housekeeping) */
	if (t->n_round != t->n_loaded)
		lull_nap_thr_load(t, max_pkts, t->round, t->n_round);
	now_tsc = rte_rdtsc();
	if (t->unread > 0) {
		lull_nap_account_span(&t->nap, t->unread, now_tsc);
		t->unread = 0;
		t->nap.woken = false; /* they brought packets */
	}
	lull_nap_account(&t->nap, t->round_rx, now_tsc);
	/* the engine judges a wake by the next decision's packets; here it
	 * decides only after empty rounds: a wake that brought some was good */
	if (t->round_rx > 0)
		t->nap.woken = false;
	/* a change (lullctl set) is taken after the wait it may concern: an
	 * idle thread counts 1024 rounds in seconds, not microseconds */
	if (t->round_rx == 0 && n == 0) {
		lull_nap_idle(&t->nap, 0, now_tsc);
		if (__atomic_load_n(&lull_nap_attach_gen, __ATOMIC_RELAXED) != t->gen)
			lull_nap_thr_load(t, max_pkts, t->round, t->n_round);
	}
	if (++t->rounds % LULL_NAP_HOUSEKEEPING_ITERS == 0) {
		lull_nap_housekeeping(&t->nap);
		if (__atomic_load_n(&lull_nap_attach_gen, __ATOMIC_RELAXED) != t->gen ||
			lull_nap_round_sig(t->round, t->n_round) != t->loaded_sig)
			lull_nap_thr_load(t, max_pkts, t->round, t->n_round);
	}
	t->n_round = 0;
	t->round_rx = 0;
	return joined(t, q, key, n, max_pkts);
}

/* This thread's first poll of a source lull sees: its engine, and the poll
 * joins its first round. Without one (past the thread table, or out of
 * memory) this thread polls, says so once, and tries no more. @return n. */
static __attribute__((noinline, cold)) uint16_t
first_poll(struct attach_rxq *q, uint32_t key, uint16_t n, uint16_t max_pkts)
{
	struct lull_nap_thr *t;

	if (no_engine)
		return n;
	t = self = lull_nap_thr_new();
	if (t == NULL) {
		no_engine = true;
		if (errno == ENOSPC)
			fprintf(stderr,
				"lull: thread %d polls without lull: more than %d threads poll "
				"what lull is attached to\n",
				rte_sys_gettid(), LULL_NAP_ATTACH_MAX_THREADS);
		else
			fprintf(stderr, "lull: thread %d polls without lull: out of memory\n",
				rte_sys_gettid());
		return n;
	}
	lull_nap_thr_load(t, max_pkts, NULL, 0);
	return joined(t, q, key, n, max_pkts);
}

/* A saturated round just ended at a full poll of its first source: begin a
 * stretch of whole rounds in which a full poll is only counted, as long as no
 * round end in it would have read the clock (every
 * LULL_NAP_ATTACH_UNREAD_ROUNDS, and at housekeeping). @return whether it
 * began (this poll is its first). */
static inline __attribute__((always_inline)) bool
stretch_begin(struct lull_nap_thr *t)
{
	uint32_t ends = LULL_NAP_ATTACH_UNREAD_ROUNDS - t->unread;
	uint32_t to_hk = LULL_NAP_HOUSEKEEPING_ITERS - 1 -
			 (uint32_t)(t->rounds % LULL_NAP_HOUSEKEEPING_ITERS);

	if (to_hk < ends)
		ends = to_hk;
	if (ends == 0) /* n_loaded > 0: the round just ended had n_loaded polls */
		return false;
	t->sat_polls = (ends + 1) * t->n_loaded;
	t->sat_left = t->sat_polls - 1;
	return true;
}

/* The stretch is over (used up, or a poll was not full): account for its full
 * polls as the rounds they made, each as many polls as the round that began
 * it, in the same order (a change of order or of sources costs a round
 * boundary in the wrong place; the next round seen whole corrects it). What
 * is left of its last round is the round in progress. */
static __attribute__((noinline)) void
stretch_end(struct lull_nap_thr *t, uint16_t max_pkts)
{
	uint32_t polls = t->sat_polls - t->sat_left, ends = (polls - 1) / t->n_loaded;

	lull_nap_rx_full(&t->nap, polls, max_pkts);
	t->unread += ends;
	t->rounds += ends;
	t->n_round = polls - ends * t->n_loaded; /* round[] still holds their keys */
	t->round_rx = t->n_round * max_pkts;
	t->sat_polls = 0;
	t->sat_left = 0;
}

/* polled()'s path for every poll but a full one in a saturated stretch.
 * @return n. */
static __attribute__((noinline)) uint16_t
polled_round(struct attach_rxq *q, uint32_t key, uint16_t n, uint16_t max_pkts)
{
	struct lull_nap_thr *t = self;

	if (__builtin_expect(t == NULL, 0))
		return first_poll(q, key, n, max_pkts);
	if (t->sat_polls != 0)
		stretch_end(t, max_pkts);
	for (unsigned int i = 0; i < t->n_round; i++) {
		if (t->round[i] != key)
			continue;
		/* this source again: the round is over. Every poll of it full: a
		 * saturated thread decides nothing, and reading the clock was a third
		 * of the callback's cost on null ports; it is read once in
		 * LULL_NAP_ATTACH_UNREAD_ROUNDS + 1 such rounds, and at housekeeping */
		if (t->round_rx == 0 || t->round_rx != (uint32_t)t->n_round * max_pkts ||
			t->unread >= LULL_NAP_ATTACH_UNREAD_ROUNDS ||
			(t->rounds + 1) % LULL_NAP_HOUSEKEEPING_ITERS == 0 ||
			t->n_round != t->n_loaded)
			return round_over(t, q, key, n, max_pkts);
		t->unread++;
		t->rounds++;
		t->n_round = 0;
		t->round_rx = 0;
		/* the round began with this source, and this poll is full too */
		if (i == 0 && n == max_pkts && stretch_begin(t)) {
			q_pkts(q, n);
			return n;
		}
		break;
	}
	return joined(t, q, key, n, max_pkts);
}

/* This thread polled source key (port << 16 | queue, or another source's key:
 * q NULL) and got n of at most max_pkts packets. Inline in the rx callback: a
 * call through the library's exported name would go through the PLT every
 * burst. In a saturated stretch a full poll is only counted, before any
 * register is saved; anything else is a call, made last. @return n. */
static inline __attribute__((always_inline)) uint16_t
polled(struct attach_rxq *q, uint32_t key, uint16_t n, uint16_t max_pkts)
{
	struct lull_nap_thr *t = self;

	if (__builtin_expect(t != NULL && t->sat_left != 0 && n == max_pkts, 1)) {
		t->sat_left--;
		q_pkts(q, n);
		return n;
	}
	return polled_round(q, key, n, max_pkts);
}

uint16_t
lull_nap_attach_on_rx(uint16_t port, uint16_t queue, struct rte_mbuf *pkts[], uint16_t n,
	uint16_t max_pkts, void *user)
{
	(void)pkts;
	return polled(user, (uint32_t)port << 16 | queue, n, max_pkts);
}

void
lull_nap_attach_polled(uint32_t key, uint16_t n, uint16_t max_pkts)
{
	polled(NULL, key, n, max_pkts);
}
