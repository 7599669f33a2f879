/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * lull-gen's packets: Ethernet/IPv4/UDP with a 22-byte stamp as payload
 * (magic, run id, phase, sequence, tx TSC). The UDP checksum is computed
 * once for a template and updated per packet for the fields that change.
 */
#ifndef LULL_GEN_PKT_H
#define LULL_GEN_PKT_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#include "config.h"

#define GEN_MAGIC 0x4c55 /* "LU" */

struct gen_stamp {
	uint16_t magic; /* network order */
	uint16_t run_id;
	uint16_t phase;
	uint64_t seq;
	uint64_t tsc;
} __rte_packed;

#define GEN_HDR_LEN                                                                                \
	(sizeof(struct rte_ether_hdr) + sizeof(struct rte_ipv4_hdr) + sizeof(struct rte_udp_hdr))
#define GEN_STAMP_OFF GEN_HDR_LEN

struct gen_tmpl {
	uint8_t bytes[GEN_MAX_SIZE];
	uint16_t len;
	uint16_t udp_src_base;
	uint32_t flows;
	uint32_t udp_sum; /**< raw one's-complement sum of the template's UDP segment + pseudo
			     header */
};

/** Build the template for frames from src_mac (cfg's src MAC when set). */
void gen_tmpl_init(struct gen_tmpl *t, const struct gen_config *cfg, uint16_t run_id,
	const struct rte_ether_addr *port_mac);

/** Copy the template into m and write flow, phase and sequence (not yet the TSC). */
void gen_pkt_fill(const struct gen_tmpl *t, struct rte_mbuf *m, uint16_t phase, uint64_t seq);

/** Write the tx TSC and the final UDP checksum. */
void gen_pkt_stamp(const struct gen_tmpl *t, struct rte_mbuf *m, uint64_t tsc);

/** Read the stamp of one of our frames; false for a foreign frame. */
bool gen_pkt_parse(const struct rte_mbuf *m, uint16_t run_id, struct gen_stamp *st);

/** True when the IPv4 header and UDP checksums are valid. */
bool gen_pkt_cksum_ok(const struct rte_mbuf *m);

#endif /* LULL_GEN_PKT_H */
