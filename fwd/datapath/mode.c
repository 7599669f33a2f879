/* SPDX-License-Identifier: BSD-3-Clause */
#include "mode.h"

lull_mode_fn *
lull_mode_get(enum lull_fwd_mode mode)
{
	switch (mode) {
	case LULL_FWD_MAC:
		return lull_mode_mac;
	case LULL_FWD_MACSWAP:
		return lull_mode_macswap;
	case LULL_FWD_IO:
	default:
		return NULL;
	}
}
