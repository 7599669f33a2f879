/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target: lull-gen's receive-side check of a frame (is it ours, is
 * its checksum right), on whatever bytes a port may deliver: runts, lies in
 * the IP or UDP length, garbage. The frame sits in a buffer of exactly its
 * size, so that ASan sees any read past it. No EAL: an mbuf header is enough.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "pkt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rte_mbuf m;
	struct gen_stamp st;
	uint8_t *frame;

	if (size == 0 || size > UINT16_MAX)
		return 0;
	frame = malloc(size);
	if (frame == NULL)
		return 0;
	memcpy(frame, data, size);
	memset(&m, 0, sizeof(m));
	m.buf_addr = frame;
	m.buf_len = (uint16_t)size;
	m.data_off = 0;
	m.data_len = (uint16_t)size;
	m.pkt_len = (uint32_t)size;
	m.nb_segs = 1;
	/* as lull-gen's rx loop: only a frame that is ours gets its checksum checked */
	memset(&st, 0, sizeof(st));
	if (!gen_pkt_parse(&m, 0, &st))
		(void)gen_pkt_parse(&m, st.run_id, &st);
	if (gen_pkt_parse(&m, st.run_id, &st))
		(void)gen_pkt_cksum_ok(&m);
	free(frame);
	return 0;
}
