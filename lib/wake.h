/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * The wake backends' names and the size of one polling thread's queue list:
 * shared by the sleep engine (nap/) and the option parsers, which stay
 * DPDK-free.
 */
#ifndef LULL_WAKE_H
#define LULL_WAKE_H

/** Rx queues one polling thread can poll (and wait on). */
#define LULL_NAP_MAX_QUEUES 256

/** Longest single wait for an rx interrupt by default: a stop or a change is seen within it. */
#define LULL_NAP_INTR_WAIT_MAX_MS 100
/** A polling thread's timer slack by default (nanosleep waits): 1 ns, none to speak of. */
#define LULL_NAP_TIMER_SLACK_NS 1
/** A default as the option rows print it. */
#define LULL_NAP_STR(x)  LULL_NAP_STR_(x)
#define LULL_NAP_STR_(x) #x

/** How a polling thread waits (nap/wait.c). */
enum lull_wake_kind {
	LULL_WAKE_AUTO,
	LULL_WAKE_NANOSLEEP,
	LULL_WAKE_PAUSE,
	LULL_WAKE_TPAUSE,
	LULL_WAKE_MONITOR,
	LULL_WAKE_N_KINDS,
};

/** "auto", "nanosleep", ...; NULL for a kind out of range. */
const char *lull_wake_name(enum lull_wake_kind kind);

#endif /* LULL_WAKE_H */
