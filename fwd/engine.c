/* SPDX-License-Identifier: BSD-3-Clause */
#include "engine.h"

lull_engine_fn *
lull_engine_get(enum lull_fwd_mode mode)
{
	switch (mode) {
	case LULL_FWD_MAC:
		return lull_engine_mac;
	case LULL_FWD_MACSWAP:
		return lull_engine_macswap;
	case LULL_FWD_IO:
	default:
		return NULL;
	}
}
