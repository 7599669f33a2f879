/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * The forwarder's configuration: one struct, parsed and validated once.
 *
 * No DPDK include, so the parser is unit-tested (and fuzzable) on its own.
 *  - fwd/config/options.c: the option table (lib/opt): parse, set at run time,
 *    describe, --help; before EAL starts, so a bad option costs nothing;
 *  - fwd/config/topology.c (topology.h): checks against what EAL found (ports,
 *    lcores) and the defaults that depend on it (PMD cores, pairing, rx-queue
 *    assignment, mbuf count), and port add and delete;
 *  - fwd/config/config.c: defaults, names, the checks across options, and what one
 *    PMD's policy and one port's setup are, from the configuration.
 * Every error is one line naming the option and the bad value in err, and a
 * negative errno. Not thread-safe; called from the main (control) thread only.
 */
#ifndef LULL_CONFIG_H
#define LULL_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy.h"
#include "portconf.h"
#include "sleepopt.h"
#include "slowwake.h"
#include "wake.h"
#include "wakeopt.h"

#define LULL_MAX_PMDS     64  /**< PMD threads */
#define LULL_MAX_QUEUES   64  /**< rx or tx queues per port */
#define LULL_MAX_LCORES   128 /**< = RTE_MAX_LCORE of Debian's DPDK build */
#define LULL_MAX_BURST    512
#define LULL_MAX_PINS     256                 /**< explicit port:queue@core assignments */
#define LULL_PIN_AUTO     UINT32_MAX          /**< PORT:QUEUE@auto: the queue unpinned */
#define LULL_PMD_MAX_RXQS LULL_NAP_MAX_QUEUES /**< rx queues one PMD can poll */
#define LULL_PORT_NONE    UINT16_MAX /**< dst_port of a port not forwarded (no pair, removed) */
#define LULL_PMD_NONE     UINT16_MAX /**< rxq_pmd of a queue no PMD polls (mid-move) */

enum lull_fwd_mode {
	LULL_FWD_IO,      /**< forward as is */
	LULL_FWD_MAC,     /**< rewrite src = tx port MAC, dst = peer MAC */
	LULL_FWD_MACSWAP, /**< swap src and dst MAC */
	LULL_FWD_N_MODES,
};

#define LULL_MAX_CPUS              1024    /**< CPU ids for --control-cores (CPU_SETSIZE) */
#define LULL_YIELD_MAX_SHARE_US    500000  /**< yield at most half of every second */
#define LULL_RESUME_LATENCY_MAX_US 1000000 /**< --pmd-resume-latency-us */

/** Scheduling of PMD threads (--pmd-priority). */
enum lull_prio_kind {
	LULL_PRIO_NONE, /**< as EAL made them (SCHED_OTHER, nice of the process) */
	LULL_PRIO_NICE, /**< SCHED_OTHER with nice N, -20..19 */
	LULL_PRIO_FIFO, /**< SCHED_FIFO with priority N, 1..99 */
};

struct lull_prio {
	enum lull_prio_kind kind;
	int value;
};

/** Explicit rx-queue to PMD assignment, "port:queue@core". */
struct lull_rxq_pin {
	uint16_t port;
	uint16_t queue;
	unsigned int lcore;
};

struct lull_port_pair {
	uint16_t a;
	uint16_t b;
};

/** An rx queue: a port and one of its queues. */
struct lull_rxq_id {
	uint16_t port;
	uint16_t queue;
};

struct lull_config {
	/* PMD threads: EAL lcore ids; n_pmds == 0 until resolved = every worker lcore. */
	unsigned int pmd_lcores[LULL_MAX_PMDS];
	unsigned int n_pmds;

	uint16_t n_rxq;     /**< rx queues per port */
	uint16_t n_txq;     /**< tx queues per port; 0 = one per PMD */
	uint16_t n_rxd;     /**< rx descriptors per queue */
	uint16_t n_txd;     /**< tx descriptors per queue */
	uint16_t burst;     /**< rx burst and tx buffer size */
	uint32_t n_mbufs;   /**< mbuf pool size; 0 = computed by resolve */
	uint16_t mbuf_size; /**< packet data bytes per mbuf, headroom excluded */
	enum lull_fwd_mode mode;

	struct lull_port_pair pairs[LULL_MAX_PORTS];
	unsigned int n_pairs; /**< 0 = default 0<->1, 2<->3, ... */

	struct lull_rxq_pin pins[LULL_MAX_PINS];
	unsigned int n_pins;

	uint32_t stats_period_s; /**< 0 = print only at exit */
	bool ctl_read_only;      /**< --ctl read-only: telemetry registers the show commands only */
	uint32_t drain_us;       /**< longest a packet waits in a tx buffer under load */
	uint32_t tx_retries;     /**< extra tx_burst tries before unsent packets are dropped */
	uint32_t link_wait_ms;   /**< how long to wait for links at start */

	uint8_t peer_mac[LULL_MAX_PORTS][6]; /**< dst MAC per tx port in mac mode */

	/* Sleeping (lib/policy, nap/wait). */
	struct lull_sleep_opts sleep; /**< the options lull-sim shares (lib/sleepopt) */
	struct lull_wake_opts wk;     /**< how PMDs wait: the rows the engine's drop-in shares */
	struct lull_rxq_id critical[LULL_MAX_PINS]; /**< latency-critical rx queues */
	unsigned int n_critical;
	uint32_t critical_sleep_max_us; /**< cap of a PMD polling a critical queue */
	uint32_t hotplug_ports; /**< ports port-add may add at run time (mbufs sized for them) */

	/* Sharing the PMD's core (fwd/isolate). */
	uint32_t yield_hz;             /**< PMDs give up their CPU this often; 0 = never */
	uint32_t yield_us;             /**< for this long */
	struct lull_prio pmd_priority; /**< --pmd-priority */
	/** --pmd-resume-latency-us: the PMD CPUs' PM QoS resume latency; -1 = leave
	 * it, 0 = strict (only the shallowest idle state) */
	int32_t pmd_resume_latency_us;
	/* --consolidate: gather rx queues on the fewest PMDs that carry the load and
	 * park the rest (fwd/control/balance.c) */
	bool consolidate;
	uint32_t pack_below_pct;       /**< pack while every awake PMD stays under this */
	uint32_t unpack_above_pct;     /**< unpack when one passes this (> pack_below_pct) */
	uint32_t consolidate_dwell_ms; /**< at least this between two decisions */
	unsigned int control_cpus[LULL_MAX_CPUS]; /**< --control-cores: CPU ids */
	unsigned int n_control_cpus; /**< 0 = leave control threads where EAL put them */

	bool help;    /**< --help was given: print usage, start nothing */
	bool version; /**< --version (main() answers it before parsing) */

	/* Filled by lull_config_resolve(), changed by port add and delete. */
	unsigned int n_ports;              /**< port ids in use are below this */
	uint16_t dst_port[LULL_MAX_PORTS]; /**< where rx of a port goes, or LULL_PORT_NONE */
	uint16_t rxq_pmd[LULL_MAX_PORTS][LULL_MAX_QUEUES]; /**< PMD index polling a queue */
};

/** Fill cfg with the defaults. */
void lull_config_defaults(struct lull_config *cfg);

/**
 * Parse lull options (fwd/config/options.c). argv[0] is the program name; getopt
 * state is reset, so it may be called repeatedly.
 *
 * @return 0, or a negative errno with a one-line message in err.
 */
int lull_config_parse(struct lull_config *cfg, int argc, char **argv, char *err, size_t errlen);

/**
 * Change one run-time setting, as the option --key value would set it at start
 * ("sleep-max-us", "250,3:0"). Applies whole or not at all.
 *
 * @return 0, or a negative errno with a message naming the key or value in err;
 *   cfg is then unchanged.
 */
int lull_config_set(
	struct lull_config *cfg, const char *key, const char *value, char *err, size_t errlen);

/**
 * Parse one option (settable or not) into cfg as --name value would at start,
 * with its row of the option table and its messages, without getopt: safe on
 * any thread (set rxq-pmd parses its list on a telemetry thread). No check
 * across options.
 *
 * @return 0, or a negative errno with a message in err (cfg may be changed).
 */
int lull_config_parse_one(
	struct lull_config *cfg, const char *name, const char *value, char *err, size_t errlen);

/** Keys lull_config_set() accepts, space-separated (from the option table). */
const char *lull_config_settable(void);

/** Call emit(ctx, option, value) for every effective setting, in --help order. */
void lull_config_describe(const struct lull_config *cfg,
	void (*emit)(void *ctx, const char *key, const char *value), void *ctx);

/** Print the lull options and their defaults (from the option table). */
void lull_config_usage(const char *prog);

/**
 * The checks across options (the yield's share, fifo against busy polling,
 * latency-critical queues that exist), at start and after every set.
 *
 * @return 0, or -EINVAL with a message in err.
 */
int lull_config_check(const struct lull_config *cfg, char *err, size_t errlen);

/** Index of the PMD on lcore, or -1. */
int lull_config_pmd_index(const struct lull_config *cfg, unsigned int lcore);

/** Policy parameters of the PMD on lcore, from cfg (after resolve). */
void lull_config_policy(
	const struct lull_config *cfg, unsigned int lcore, struct lull_policy_params *p);

/** What every port is set up with. */
void lull_config_port_conf(const struct lull_config *cfg, struct lull_port_conf *pc);

/** "none", "nice:-20", "fifo:50" into buf. */
void lull_prio_format(const struct lull_prio *p, char *buf, size_t len);

/** Name of a forwarding mode ("io", "mac", "macswap"). */
const char *lull_fwd_mode_name(enum lull_fwd_mode mode);

#endif /* LULL_CONFIG_H */
