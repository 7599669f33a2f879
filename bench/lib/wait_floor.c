/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/lib/wait_floor.c: what an idle thread spends only to wake from a
 * bounded wait on this machine - epoll_wait() on an empty set with a timeout
 * of MS, for SECS, and nothing else. Its CPU is the floor under any PMD that
 * must wake every MS ms, whatever it does once awake (inside OVS lull's
 * interrupt waits are bounded at 9 ms: OVS's RCU quiesce interval).
 *
 *   wait_floor MS SECS   prints "CPU_PERCENT WAKES_PER_S" (the thread's CPU)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

static double
now_s(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	struct epoll_event ev;
	char *end_ms, *end_s;
	long ms, secs, wakes = 0;
	double t0_s, c0_s, t_s;
	int ep;

	if (argc != 3) {
		fprintf(stderr, "usage: wait_floor MS SECS\n");
		return 2;
	}
	ms = strtol(argv[1], &end_ms, 10);
	secs = strtol(argv[2], &end_s, 10);
	if (*end_ms != '\0' || ms < 1 || ms > 1000 || *end_s != '\0' || secs < 1 || secs > 3600) {
		fprintf(stderr, "wait_floor: bad MS '%s' (1-1000) or SECS '%s' (1-3600)\n", argv[1],
			argv[2]);
		return 2;
	}
	ep = epoll_create1(0);
	if (ep < 0) {
		fprintf(stderr, "wait_floor: epoll_create1: %s\n", strerror(errno));
		return 1;
	}
	t0_s = now_s(CLOCK_MONOTONIC);
	c0_s = now_s(CLOCK_THREAD_CPUTIME_ID);
	do {
		epoll_wait(ep, &ev, 1, (int)ms);
		wakes++;
		t_s = now_s(CLOCK_MONOTONIC) - t0_s;
	} while (t_s < (double)secs);
	printf("%.2f %.0f\n", (now_s(CLOCK_THREAD_CPUTIME_ID) - c0_s) / t_s * 100,
		(double)wakes / t_s);
	close(ep);
	return 0;
}
