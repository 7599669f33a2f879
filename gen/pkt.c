/* SPDX-License-Identifier: BSD-3-Clause */
#include "pkt.h"

#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_memcpy.h>
#include <rte_udp.h>

static inline struct rte_ipv4_hdr *
ip_of(uint8_t *frame)
{
	return (struct rte_ipv4_hdr *)(frame + sizeof(struct rte_ether_hdr));
}

static inline struct rte_udp_hdr *
udp_of(uint8_t *frame)
{
	return (struct rte_udp_hdr *)(frame + sizeof(struct rte_ether_hdr) +
				      sizeof(struct rte_ipv4_hdr));
}

void
gen_tmpl_init(struct gen_tmpl *t, const struct gen_config *cfg, uint16_t run_id,
	const struct rte_ether_addr *port_mac)
{
	static const uint8_t zero_mac[6];
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)t->bytes;
	struct rte_ipv4_hdr *ip = ip_of(t->bytes);
	struct rte_udp_hdr *udp = udp_of(t->bytes);
	struct gen_stamp st = {.magic = rte_cpu_to_be_16(GEN_MAGIC), .run_id = run_id};
	uint16_t ip_len = (uint16_t)(cfg->size - sizeof(*eth));
	uint16_t udp_len = (uint16_t)(ip_len - sizeof(*ip));

	memset(t, 0, sizeof(*t));
	t->len = cfg->size;
	t->udp_src_base = cfg->udp_src_base;
	t->flows = cfg->flows;
	memcpy(eth->dst_addr.addr_bytes, cfg->dst_mac, 6);
	if (memcmp(cfg->src_mac, zero_mac, 6) != 0)
		memcpy(eth->src_addr.addr_bytes, cfg->src_mac, 6);
	else
		rte_ether_addr_copy(port_mac, &eth->src_addr);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);

	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(ip_len);
	ip->fragment_offset = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(cfg->src_ip);
	ip->dst_addr = rte_cpu_to_be_32(cfg->dst_ip);
	ip->hdr_checksum = rte_ipv4_cksum(ip);

	udp->src_port = 0; /* per packet, added to the sum then */
	udp->dst_port = rte_cpu_to_be_16(cfg->udp_dst);
	udp->dgram_len = rte_cpu_to_be_16(udp_len);
	udp->dgram_cksum = 0;
	memcpy(t->bytes + GEN_STAMP_OFF, &st, sizeof(st));
	/* The rest of the payload is a byte pattern, so frames are not all zero. */
	for (uint16_t i = GEN_STAMP_OFF + sizeof(st); i < t->len; i++)
		t->bytes[i] = (uint8_t)i;
	t->udp_sum = rte_ipv4_phdr_cksum(ip, 0) + rte_raw_cksum(udp, udp_len);
}

void
gen_pkt_fill(const struct gen_tmpl *t, struct rte_mbuf *m, uint16_t phase, uint64_t seq)
{
	uint8_t *frame = rte_pktmbuf_mtod(m, uint8_t *);
	struct gen_stamp *st = (struct gen_stamp *)(frame + GEN_STAMP_OFF);

	rte_memcpy(frame, t->bytes, t->len);
	m->data_len = t->len;
	m->pkt_len = t->len;
	udp_of(frame)->src_port = rte_cpu_to_be_16((uint16_t)(t->udp_src_base + seq % t->flows));
	st->phase = phase;
	st->seq = seq;
}

void
gen_pkt_stamp(const struct gen_tmpl *t, struct rte_mbuf *m, uint64_t tsc)
{
	uint8_t *frame = rte_pktmbuf_mtod(m, uint8_t *);
	struct rte_udp_hdr *udp = udp_of(frame);
	struct gen_stamp *st = (struct gen_stamp *)(frame + GEN_STAMP_OFF);
	uint32_t sum = t->udp_sum;
	uint16_t cksum;

	st->tsc = tsc;
	/* The template summed these fields as zero: add what they hold now. */
	sum += rte_raw_cksum(&udp->src_port, sizeof(udp->src_port));
	sum += rte_raw_cksum(&st->phase, sizeof(st->phase) + sizeof(st->seq) + sizeof(st->tsc));
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	cksum = (uint16_t)~sum;
	udp->dgram_cksum = cksum == 0 ? 0xffff : cksum;
}

bool
gen_pkt_parse(const struct rte_mbuf *m, uint16_t run_id, struct gen_stamp *st)
{
	const uint8_t *frame = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct rte_ether_hdr *eth = (const struct rte_ether_hdr *)frame;
	const struct rte_ipv4_hdr *ip = ip_of((uint8_t *)(uintptr_t)frame);

	if (rte_pktmbuf_data_len(m) < GEN_MIN_SIZE ||
		eth->ether_type != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) ||
		ip->next_proto_id != IPPROTO_UDP || ip->version_ihl != RTE_IPV4_VHL_DEF)
		return false;
	memcpy(st, frame + GEN_STAMP_OFF, sizeof(*st));
	return st->magic == rte_cpu_to_be_16(GEN_MAGIC) && st->run_id == run_id;
}

bool
gen_pkt_cksum_ok(const struct rte_mbuf *m)
{
	uint8_t *frame = rte_pktmbuf_mtod(m, uint8_t *);
	const struct rte_ipv4_hdr *ip = ip_of(frame);
	const struct rte_udp_hdr *udp = udp_of(frame);
	uint16_t ip_len = rte_be_to_cpu_16(ip->total_length);

	/* The checksums cover what the headers claim: a frame whose IP or UDP length
	 * lies about what it holds is bad, and is not read past its end (found by
	 * tests/fuzz/fuzz_gen_rx.c). */
	if (ip_len < sizeof(*ip) + sizeof(*udp) ||
		(uint32_t)RTE_ETHER_HDR_LEN + ip_len > rte_pktmbuf_data_len(m) ||
		rte_be_to_cpu_16(udp->dgram_len) != ip_len - sizeof(*ip))
		return false;
	return rte_ipv4_cksum(ip) == 0 && rte_ipv4_udptcp_cksum_verify(ip, udp) == 0;
}
