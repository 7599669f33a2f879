/* SPDX-License-Identifier: BSD-3-Clause */
#include "portconf.h"

#include <errno.h>
#include <stdio.h>

unsigned int
lull_port_conf_segs(const struct lull_port_conf *pc)
{
	return (LULL_FRAME_MAX_DEFAULT + pc->mbuf_size - 1u) / pc->mbuf_size;
}

static int
check_count(const char *opt, uint16_t n, uint16_t max, const char *dev, char *err, size_t errlen)
{
	if (n <= max)
		return 0;
	snprintf(err, errlen, "--%s: bad value '%u' for %s (it has at most %u)", opt, n, dev, max);
	return -EINVAL;
}

static int
check_desc(const char *opt, uint16_t n, uint16_t min, uint16_t max, uint16_t align, const char *dev,
	char *err, size_t errlen)
{
	if (align == 0)
		align = 1;
	if (n >= min && n <= max && n % align == 0)
		return 0;
	snprintf(err, errlen, "--%s: bad value '%u' for %s (it accepts %u..%u, a multiple of %u)",
		opt, n, dev, min, max, align);
	return -EINVAL;
}

int
lull_port_conf_check(const struct lull_port_conf *pc, const struct lull_port_limits *lim, char *err,
	size_t errlen)
{
	int ret = check_count("rxq", pc->n_rxq, lim->max_rxq, lim->name, err, errlen);

	if (ret == 0)
		ret = check_count("txq", pc->n_txq, lim->max_txq, lim->name, err, errlen);
	if (ret == 0)
		ret = check_desc("rxd", pc->n_rxd, lim->rxd_min, lim->rxd_max, lim->rxd_align,
			lim->name, err, errlen);
	if (ret == 0)
		ret = check_desc("txd", pc->n_txd, lim->txd_min, lim->txd_max, lim->txd_align,
			lim->name, err, errlen);
	/* A driver without rx scatter may still chain (memif does) or drop long frames:
	 * lull_port_start() says so. One that cannot send a chain would corrupt it. */
	if (ret == 0 && lull_port_conf_segs(pc) > 1 && !lim->tx_multi_seg) {
		snprintf(err, errlen,
			"--mbuf-size %u: port %s cannot send chains of mbufs; "
			"use --mbuf-size %u or more",
			pc->mbuf_size, lim->name, LULL_FRAME_MAX_DEFAULT);
		ret = -EINVAL;
	}
	return ret;
}

uint32_t
lull_port_ring_usable(uint32_t nb_desc, uint32_t rx_free_thresh)
{
	return nb_desc - (rx_free_thresh < nb_desc / 2 ? rx_free_thresh : nb_desc / 2);
}
