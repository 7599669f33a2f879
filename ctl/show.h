/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Text views of the /lull/ telemetry replies, laid out like OVS's
 * dpif-netdev/pmd-perf-show, pmd-sleep-show and pmd-rxq-show.
 */
#ifndef LULLCTL_SHOW_H
#define LULLCTL_SHOW_H

#include <stdio.h>

#include <jansson.h>

void lullctl_show_pmd_perf(FILE *out, json_t *perf);
void lullctl_show_pmd_sleep(FILE *out, json_t *sleep);
/** rxq: /lull/pmd_rxq; ports: /lull/ports (for names and peers). */
void lullctl_show_pmd_rxq(FILE *out, json_t *rxq, json_t *ports);
void lullctl_show_ports(FILE *out, json_t *ports);
/** Any flat object as "key: value" lines. */
void lullctl_show_pairs(FILE *out, json_t *obj);

#endif /* LULLCTL_SHOW_H */
