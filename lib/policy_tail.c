/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rate policy's tail rule (lib/policy.h, lull_policy_tail_cap_ns()): the
 * worst recent wake, as late again, must not overflow a ring where a polling
 * thread loses nothing; a wake that did is believed, and kept while it does
 * again. lib/policy_rate.c caps its sleeps with it.
 */
#include "policy_rate.h"

/*
 * The arrival rate the tail rule judges a ring at: the smoothed rate, unless
 * a quicker sign says that traffic came on - the last period's rate, the
 * period's so far or the spell's going on, once a few batches came in it - at
 * more than half again as much: the smoothed rate takes milliseconds to
 * follow traffic that comes on at once, and a ring lasts one at 1 Mpps
 * (lull-sim, on/off 1 Mpps for 5 ms in 50 on issue 27's VM: a ring lost where
 * a wake late by the known tail fell in an on-phase's first milliseconds).
 * Steady traffic's noise stays below the margin and does not shorten its
 * sleeps.
 */
static double
tail_rate(const struct lull_policy *pol)
{
	uint64_t enough = 4 * (uint64_t)pol->p.batch, now_ns = pol->last_decide_ns;
	double quick = pol->sample_ppns, r;

	if (pol->period_pkts >= enough &&
		(r = per_ns(pol->period_pkts, pol->period_start_ns, now_ns)) > quick)
		quick = r;
	if (pol->spell_pkts >= enough &&
		(r = per_ns(pol->spell_pkts, pol->spell_start_ns, now_ns)) > quick)
		quick = r;
	return quick > 1.5 * pol->rate_ppns ? quick : pol->rate_ppns;
}

/*
 * The longest sleep (UINT64_MAX: no bound) after which the whole ring holds
 * what comes at the arrival rate in it and the worst recent wake's lateness,
 * seen twice: a tail the p99 does not see (a VM wakes a halted vCPU
 * milliseconds late now and then) overflows a ring at a rate where a polling
 * thread loses nothing; there the PMD sleeps less, or polls. One wake far from
 * all others is not believed until another confirms it, or until it did harm
 * (the spell it began filled a ring: rate_update): polling for good on one
 * harmless hiccup is the cliff this rule must not be. Idle or light traffic is
 * far from it (1024 descriptors at 10 kpps: 100 ms). Where polling itself
 * stalls as long as the ring lasts (the host stops the vCPU whatever it does,
 * or the host program's own work between polls takes that long), polling
 * would lose too: the PMD sleeps, as OVS does there.
 * Where polling is seen stalling, twice, at least half as long as the worst
 * wake is late, that wake was the host's stall, which a polling thread suffers too,
 * not the sleep's: the sleep must then only not turn the longest stall
 * polling survived into a loss (that stall and the sleep's p99 lateness).
 * Else a PMD that polled because of two late wakes polled for as long as the
 * traffic lasted: inside OVS on this VM, 100 kpps into 1024 descriptors
 * (10 ms) after two wakes ~10.8 ms late polled at 97-99 % of a core where OVS
 * 250 slept at 24 %, while its polling rounds stalled 8.6 ms. One polling
 * stall alone is not believed, as one late wake is not: the host stalls a
 * halted vCPU far more often than a running one (issue 30's Intel guest, 60 s
 * at 100 kpps on af_packet: busy OVS lost packets in one round of three, OVS
 * with lull in all six, its rule yielding to a polling stall seen once).
 */
uint64_t
lull_policy_tail_cap_ns(const struct lull_policy *pol)
{
	double rate_ppns = tail_rate(pol);
	double fill_ns = rate_ppns > 0 ? (double)pol->p.min_ring / rate_ppns : 0;
	uint64_t late_ns = lull_cost_late_tail_ns(&pol->cost);
	uint64_t stall_ns = pol->cost.stall_tail2_ns;
	double cap_ns;

	if (stall_ns >= late_ns / 2)
		late_ns = min_u64(late_ns, stall_ns + pol->cost.late_p99_ns);
	cap_ns = fill_ns - (double)late_ns;

	if (!(rate_ppns > 0) || (double)stall_ns >= fill_ns || cap_ns >= (double)LULL_MAX_SLEEP_NS)
		return UINT64_MAX;
	return cap_ns > 0 ? (uint64_t)cap_ns : 0;
}

/*
 * The tail rule keeps the PMD polling: it takes no timed wait, so the tail's
 * window, counted in waits, would not end while the traffic lasts (one wake 8
 * ms late that lost packets at 100 kpps into 512 descriptors: polling for
 * good, where polling itself never stalls). It ends by time instead, and a
 * wake that late again is believed again at once if it loses packets. The
 * time is the harm's hold (lull_policy_tail_harm).
 */
void
lull_policy_tail_polled(struct lull_policy *pol, uint64_t now_ns)
{
	if (pol->tail_poll_ns == 0) {
		pol->tail_poll_ns = now_ns | 1;
	} else if (now_ns - pol->tail_poll_ns >= pol->tail_age_ns) {
		lull_cost_tail_age(&pol->cost);
		pol->tail_poll_ns = now_ns | 1;
	}
}

/*
 * A wake past the p99 came into traffic, and its lateness waited for its
 * spell to end (lib/policy.c, charge). Its spell found what the sleep asked
 * brings at the rate before it (half at least), but less than a quarter of
 * what the lateness brings: the traffic ran until the wake was due and then
 * stood still with the PMD - the host froze the whole VM, the sender on its
 * other vCPU too - and the lateness cost the ring nothing. It is believed as
 * long as the packets found account for at that rate (no less than the p99):
 * the tail rule is about what a wake as late does to a ring. Traffic that
 * stopped (an on/off load's off-phase) brings less than the sleep's share,
 * and its wake is believed whole (lull-sim's on/off loads into 512 lost a
 * third more, 16 seeds, without that test). Inside OVS on
 * issue 30's Intel guest, with lull-gen on the same VM, OVS with lull polled
 * 100 kpps at 90-99 % of a core in 2 of 3 ten-second rounds where OVS 250
 * slept at 26 % and nothing was lost, and in one run the PMD slept 9.4 ms
 * late while no packet waited over 6.2 ms: such wakes may have been why (the
 * rounds kept no counters; late_unseen counts them now). A host that stops
 * only the PMD's vCPU, or traffic from outside the machine, leaves the
 * backlog, and the wake is believed whole.
 */
void
lull_policy_late_seen(struct lull_policy *pol)
{
	uint64_t late_ns = pol->woke_late_ns;
	double found = (double)pol->spell_pkts, rate = pol->late_held_ppns;

	if (!pol->late_held)
		return;
	pol->late_held = false;
	if (found * 4 < rate * (double)late_ns &&
		found * 2 >= rate * (double)pol->late_held_sleep_ns) {
		uint64_t shown_ns = (uint64_t)(found / rate);

		late_ns = max_u64(shown_ns, pol->cost.late_p99_ns);
		pol->late_unseen++;
	}
	lull_cost_late(&pol->cost, late_ns);
}

/*
 * A wake lost packets: its spell filled a ring. The tail rule believes its
 * lateness at once (lull_cost_tail_confirm).
 *
 * A wake on time (no later than the p99) lost them by its sleep, not its
 * lateness: a cluster larger than the ring (1100 packets at line rate every
 * 100 ms into 1024) is remembered only while its size decays no lower than
 * the ring, ~70 ms, and the next sleep at a cluster's onset lost it again
 * (lull-sim, this VM's model, 20 s: 634 lost at 98.9 % of a core, where busy
 * polling loses none). Then, for the hold, the ring is judged at the peak
 * the spell saw at least, and no cluster counts as fitting
 * (lull_policy_harm_peak). A later wake is the tail's: the peak of its
 * backlog, drained at the PMD's own speed, is not kept (a host stall at 100
 * kpps would hold Mpps and poll for the hold; where the p99 itself is that
 * late, the peak rule polls at 100 kpps anyway).
 *
 * The hold is of polling (lull_policy_tail_polled); it doubles each time a
 * wake loses packets again within TAIL_AGAIN holds of the last, up to
 * LULL_POLICY_TAIL_AGE_MAX_NS; a harm after longer starts again at
 * LULL_COST_TAIL_AGE_NS. One hiccup costs 8 s of polling, as before; stalls
 * that recur at this load are believed longer. With a fixed 8 s the PMD slept
 * again after each hold and lost a ring at the next stall: lull-sim, 1 Mpps
 * into 1024 on this VM's model (a wake 1.5 ms late in 2,000), lost 2,350 in
 * 30 s where busy polling loses none.
 */
#define TAIL_AGAIN 4u

void
lull_policy_tail_harm(struct lull_policy *pol, uint64_t late_ns, bool on_time, uint64_t now_ns)
{
	double held_ppns = lull_policy_harm_peak(pol, now_ns);

	lull_cost_tail_confirm(&pol->cost, late_ns);
	if (pol->harm_ns != 0 && now_ns - pol->harm_ns < TAIL_AGAIN * pol->tail_age_ns)
		pol->tail_age_ns = min_u64(2 * pol->tail_age_ns, LULL_POLICY_TAIL_AGE_MAX_NS);
	else
		pol->tail_age_ns = LULL_COST_TAIL_AGE_NS;
	pol->harm_ns = now_ns | 1;
	if (on_time)
		pol->harm_ppns = held_ppns > pol->peak_ppns ? held_ppns : pol->peak_ppns;
	else
		pol->harm_ppns = held_ppns;
}
