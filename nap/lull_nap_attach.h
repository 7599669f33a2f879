/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * lull's sleep engine attached to any DPDK application's rx queues, in the
 * spirit of rte_power_pmd_mgmt_queue_enable(): an ethdev rx callback on each
 * queue feeds the engine (lull_nap.h) of whichever thread polls it - state is
 * per polling thread, not per lcore id, so a queue may move between threads
 * (OVS rebalances). A thread decides only after a round in which every queue
 * it polls came back empty, and then waits as lull's policy says: timed
 * waits, and rx-interrupt waits where every queue it polls has them
 * (lull_nap_port_intr()).
 *
 * The callback returns every packet the driver gave: attaching loses none.
 * The policy sees only what the callbacks see: a thread that also polls
 * something else (a vhost queue, a ring) must report each such poll with
 * lull_nap_attach_polled(), or not be attached (the preload library reports
 * rte_vhost_dequeue_burst() itself).
 *
 * Control path (any thread but a polling one):
 *   lull_nap_attach_options()   lull's options, from one string (LULL_OPTS)
 *   lull_nap_port_enable()      after rte_eth_dev_start()
 *   lull_nap_port_disable()     before rte_eth_dev_stop()
 *
 * Without a rebuild, the preload library does all three around the host's
 * own ethdev calls: LD_PRELOAD=.../lull/lullnap-preload.so (docs/inside.md).
 * lull_nap_attach_register_telemetry() adds /lull/nap to the host's DPDK
 * telemetry socket.
 */
#ifndef LULL_NAP_ATTACH_H
#define LULL_NAP_ATTACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "lull_nap.h"

/** Rx queues per port lull attaches to. */
#define LULL_NAP_ATTACH_MAX_QUEUES 64
/** Polling threads with an engine (a thread past them polls as before, and
 * says so once on stderr). */
#define LULL_NAP_ATTACH_MAX_THREADS 128

/**
 * Set the options of every attached thread from one string of lull's own
 * options ("--sleep-policy rate --latency-budget-us 250", --NAME=VALUE too):
 * the sleep rows lull and lull-sim share and the wake rows. Threads take them
 * after their next wait, or within 1024 rounds if they do not wait. Unset:
 * lull's defaults.
 *
 * @return 0, or a negative errno with one line in err naming the bad option or value.
 */
int lull_nap_attach_options(const char *opts, char *err, size_t errlen);

/**
 * Change one option of every attached thread at run time, as --key value in
 * lull_nap_attach_options() would (lullctl set KEY VALUE, through telemetry's
 * /lull/set): the others keep their values. Threads take it after their next
 * wait, or within 1024 rounds if they do not wait; a per-core list
 * (--sleep-max-us 250,3:0) names the CPU a thread runs on.
 *
 * @return 0, or a negative errno with one line in err naming the bad key or value.
 */
int lull_nap_attach_set(const char *key, const char *value, char *err, size_t errlen);

/** Print the options lull_nap_attach_options() takes, with their defaults. */
void lull_nap_attach_usage(FILE *f);

/** Attach to rx queue (port, queue) of a configured port. @return 0 or a negative errno. */
int lull_nap_rxq_enable(uint16_t port, uint16_t queue, char *err, size_t errlen);

/** Detach from (port, queue); nothing if not attached. @return 0 or a negative errno. */
int lull_nap_rxq_disable(uint16_t port, uint16_t queue);

/** Attach to every rx queue of port; on net_af_packet, also count the drops
 * of its kernel rings (rx_missed in /lull/ports; DPDK 22.11 counts none).
 * @return 0 or a negative errno with a message. */
int lull_nap_port_enable(uint16_t port, char *err, size_t errlen);

/** Detach from every rx queue of port (before it stops or closes). */
void lull_nap_port_disable(uint16_t port);

/** The key of a source no ethdev callback sees (a vhost device's queue, a
 * ring): id < 32768, queue < 65536; never one of an ethdev queue. */
#define LULL_NAP_SOURCE(id, queue) (UINT32_C(1) << 31 | (uint32_t)(id) << 16 | (uint16_t)(queue))

/**
 * Tell the engine of the calling thread that it polled source key (from
 * LULL_NAP_SOURCE()) and got n of at most max_pkts packets: the source
 * joins the thread's round like an attached rx queue, and the engine may
 * wait here, before this returns, when the round came back empty.
 */
void lull_nap_attach_polled(uint32_t key, uint16_t n, uint16_t max_pkts);

/** Bound every wait of every attached thread at max_ns (0: the options'
 * own bound): a host that must hear from its polling threads that often
 * (OVS quiesces its RCU every 10 ms) says so here. */
void lull_nap_attach_wait_cap(uint64_t max_ns);

/** Say whether port was configured with rx interrupts (intr_conf.rxq): a
 * thread whose every source is such a queue, and one whose waiting packets
 * can be seen without taking them (rte_eth_rx_queue_count(), or net_tap's
 * queue fd), waits for interrupts when idle (--intr-after-ms). */
void lull_nap_port_intr(uint16_t port, bool on);

/** Whether the options ask for interrupt waits (--intr-after-ms not 0): a
 * host should then configure its ports with intr_conf.rxq = 1 where they can. */
bool lull_nap_attach_wants_intr(void);

/** Whether the calling thread has polled an attached source (has an engine). */
bool lull_nap_attach_thread_polls(void);

/** Register /lull/nap (every attached thread's counters) in DPDK telemetry. */
int lull_nap_attach_register_telemetry(void);

/** Around the host's rte_eth_dev_close(): lull's telemetry reads no port's
 * data meanwhile (ethdev frees a closing port's MAC table under a reader:
 * testpmd quitting while port-show asked, a SEGV in rte_eth_macaddr_get). */
void lull_nap_tel_ports_hold(void);
void lull_nap_tel_ports_release(void);

#endif /* LULL_NAP_ATTACH_H */
