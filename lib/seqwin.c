/* SPDX-License-Identifier: BSD-3-Clause */
#include "seqwin.h"

#include <string.h>

#define WORD(s) (((s) % LULL_SEQWIN_SIZE) / 64)
#define BIT(s)  (UINT64_C(1) << ((s) % 64))

void
lull_seqwin_init(struct lull_seqwin *w)
{
	memset(w, 0, sizeof(*w));
}

enum lull_seq_verdict
lull_seqwin_mark(struct lull_seqwin *w, uint64_t seq)
{
	if (!w->any || seq > w->max_seq) {
		uint64_t from = w->any ? w->max_seq + 1 : seq;

		/* forget what the window slides over */
		if (seq - from >= LULL_SEQWIN_SIZE) {
			memset(w->bits, 0, sizeof(w->bits));
		} else {
			for (uint64_t s = from; s <= seq; s++)
				w->bits[WORD(s)] &= ~BIT(s);
		}
		w->bits[WORD(seq)] |= BIT(seq);
		w->max_seq = seq;
		w->any = true;
		return LULL_SEQ_IN_ORDER;
	}
	if (w->max_seq - seq >= LULL_SEQWIN_SIZE)
		return LULL_SEQ_TOO_OLD;
	if (w->bits[WORD(seq)] & BIT(seq))
		return LULL_SEQ_DUP;
	w->bits[WORD(seq)] |= BIT(seq);
	return LULL_SEQ_REORDERED;
}
