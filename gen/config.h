/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * lull-gen options: one struct, parsed once before EAL starts. No DPDK include.
 */
#ifndef LULL_GEN_CONFIG_H
#define LULL_GEN_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opt.h"
#include "profile.h"

#define GEN_MIN_SIZE  64   /**< frame bytes without FCS: headers (42) + stamp (22) */
#define GEN_MAX_SIZE  1514 /**< a 1518-byte frame on the wire, with FCS */
#define GEN_MAX_BURST 256
#define GEN_MAX_RXQ   16 /**< --rxq */
#define GEN_NO_PORT   0xffff

struct gen_config {
	struct lull_profile profile;
	uint16_t size;      /**< frame length without FCS */
	uint32_t flows;     /**< distinct UDP source ports */
	uint8_t src_mac[6]; /**< all zero = the tx port's MAC */
	uint8_t dst_mac[6];
	uint32_t src_ip;       /**< host order */
	uint32_t dst_ip;       /**< host order */
	uint16_t udp_src_base; /**< first UDP source port; flow f uses base + f */
	uint16_t udp_dst;
	uint16_t tx_port;     /**< --tx-port, 0 by default */
	uint16_t rx_port;     /**< GEN_NO_PORT until resolved */
	uint16_t burst;       /**< most packets per tx_burst / rx_burst */
	uint16_t rxq;         /**< rx queues per port, all polled (a multi-queue forwarder's tx) */
	uint16_t txq;         /**< tx queues per port, bursts sent on each in turn */
	uint32_t max_lag_us;  /**< bounded catch-up of the pacer */
	uint32_t drain_ms;    /**< wait for late packets after the last phase */
	uint32_t linger_ms;   /**< after the report, wait this long for the peer to stop first */
	uint32_t progress_ms; /**< live progress period on stderr, 0 = off */
	uint32_t mbufs;
	uint16_t run_id;       /**< 0 = random */
	const char *json_path; /**< NULL = none, "-" = stdout */
	const char *csv_path;
	bool help;
	bool version; /**< --version (main() answers it before parsing) */
};

/** Fill cfg with the defaults: its option rows' (--help prints them). */
void gen_config_defaults(struct gen_config *cfg);

/** lull-gen's option table. */
const struct lull_opt *gen_config_opts(void);

/** @return 0, or a negative errno with a one-line message naming the option in err. */
int gen_config_parse(struct gen_config *cfg, int argc, char **argv, char *err, size_t errlen);

void gen_config_usage(const char *prog);

#endif /* LULL_GEN_CONFIG_H */
