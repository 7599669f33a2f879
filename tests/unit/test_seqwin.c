/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/seqwin.c: the sequence window (loss, duplicates, reordering). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "seqwin.h"

static void
test_seqwin(void **state)
{
	static struct lull_seqwin w;

	(void)state;
	lull_seqwin_init(&w);
	assert_int_equal(lull_seqwin_mark(&w, 5), LULL_SEQ_IN_ORDER);
	assert_int_equal(lull_seqwin_mark(&w, 7), LULL_SEQ_IN_ORDER);
	assert_int_equal(lull_seqwin_mark(&w, 6), LULL_SEQ_REORDERED);
	assert_int_equal(lull_seqwin_mark(&w, 6), LULL_SEQ_DUP);
	assert_int_equal(lull_seqwin_mark(&w, 7), LULL_SEQ_DUP);
	assert_int_equal(lull_seqwin_mark(&w, 5 + LULL_SEQWIN_SIZE + 10), LULL_SEQ_IN_ORDER);
	assert_int_equal(lull_seqwin_mark(&w, 5), LULL_SEQ_TOO_OLD);
	/* after the slide, an old slot reused by a new number is not a duplicate */
	assert_int_equal(lull_seqwin_mark(&w, 7 + LULL_SEQWIN_SIZE), LULL_SEQ_REORDERED);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seqwin),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
