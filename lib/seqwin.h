/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Which sequence numbers arrived, over a sliding window of the last
 * LULL_SEQWIN_SIZE: tells a new packet in order from a reordered one, a
 * duplicate, or one too old to judge. Pure C; one writer.
 */
#ifndef LULL_SEQWIN_H
#define LULL_SEQWIN_H

#include <stdbool.h>
#include <stdint.h>

#define LULL_SEQWIN_SIZE (1u << 20)

enum lull_seq_verdict {
	LULL_SEQ_IN_ORDER,  /**< newer than every sequence seen */
	LULL_SEQ_REORDERED, /**< first arrival, but after a newer one */
	LULL_SEQ_DUP,       /**< arrived before */
	LULL_SEQ_TOO_OLD,   /**< older than the window: not judged */
};

struct lull_seqwin {
	uint64_t max_seq;
	bool any;
	uint64_t bits[LULL_SEQWIN_SIZE / 64];
};

void lull_seqwin_init(struct lull_seqwin *w);

/** Record seq and say what it was. */
enum lull_seq_verdict lull_seqwin_mark(struct lull_seqwin *w, uint64_t seq);

#endif /* LULL_SEQWIN_H */
