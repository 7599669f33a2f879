#!/usr/bin/env bash
# 100 kpps through two net_tap ports with lull's defaults (issue 26): UDP
# frames from namespace A to B (each tap bridged to a veth), sent and received
# by lull-udp on packet sockets, one PMD, --rxd/--txd 512. The same run
# measures --sleep-policy off first: a rate is valid only when the sender
# offered at least 99 % of the frames within 5.1 s and off lost under 0.1 % of
# them. A machine whose kernel cannot offer 100 kpps through its bridges and
# taps (a PVM guest here carries 50-70 kpps, and its host stalls of 10-20 ms
# overflow a tap's 1000-packet queue at random there, busy polling or not)
# is tested at the highest valid rate of TAP_100K_RATES instead (35 kpps
# here: a rate with room), and the log says so. That rate is run in three
# valid pairs, alternated, and judged on the medians. The test fails when the
# defaults lose more than off plus 0.1 % of the offered, or their one-way p50
# is over 3x off's and more than the latency budget (250 us) above it: where
# a rate leaves a busy poller far from busy (35 % at 50 kpps here), the
# defaults sleep by design and add up to their budget; where it keeps one
# busy (100 kpps on a faster machine), they poll and 3x off's holds. The
# signal bug this test was written for made the p50 15-26 ms.
. "$(dirname "$0")/lib.sh"
[ -x "$LULL_UDP" ] || die "no lull-udp binary at $LULL_UDP (set LULL_UDP)"
RATES=${TAP_100K_RATES:-100000 35000 25000}
SECS=${TAP_100K_SECS:-5}

h_tap_namespaces

# run NAME LULL-ARGS...: lull on the taps, N frames at RATE; sets R_SENT,
# R_SENT_MS, R_LOST (of those sent) and R_P50
run() {
	local name=$1 rx sx
	shift
	bg "$name" "$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-$name" \
		--vdev "net_tap0,iface=$TAP_A" --vdev "net_tap1,iface=$TAP_B" \
		-- --stats-period 0 --link-wait-ms 2000 --rxd 512 --txd 512 "$@"
	local pid=$BG_PID
	lull_ready "$name" "$pid"
	h_tap_join
	sleep 1
	h_udp_recv "$name-udp" "$N" 1000 20 ||
		log "$name: lull-udp recv not ready after 5 s; sending anyway"
	local rpid=$H_PID
	h_udp_send "rate:$RATE:${SECS}s" >"$T_DIR/$name.tx"
	wait "$rpid" || die "$name: lull-udp recv failed"
	stop_wait "$pid" 20
	[ "$STOP_RC" = 0 ] || die "lull $name exited with $STOP_RC"
	grep -q "mbufs: all [0-9]* back in the pool" "$T_DIR/$name.log" || die "$name: mbuf leak"
	rx=$(tail -1 "$T_DIR/$name-udp.rx") sx=$(cat "$T_DIR/$name.tx")
	log "$name: sender $sx"
	log "$name: receiver $rx"
	R_SENT=$(sed -n 's/.* sent=\([0-9]*\).*/\1/p' <<<"$sx")
	R_SENT_MS=$(sed -n 's/.*elapsed_ms=\([0-9.]*\).*/\1/p' <<<"$sx")
	R_LOST=$(($R_SENT - $(sed -n 's/^received=\([0-9]*\).*/\1/p' <<<"$rx")))
	R_P50=$(sed -n 's/.* p50_us=\([0-9.]*\).*/\1/p' <<<"$rx")
}

# valid: the sender offered 99 % of N within 5.1 s
offered_all() {
	fcmp 's >= n * 0.99 && ms <= 1000 * secs + 100' s="$R_SENT" n="$N" ms="$R_SENT_MS" secs="$SECS"
}

# A pair of rounds (off, then the defaults) is valid when the sender offered
# 99 % beside both and off lost under 0.1 %: the machine carried the rate
# then. A rate is judged on three valid pairs, taken in at most five tries;
# else the next rate is tried. On this VM the host stalls come and go: one CI
# run's pairs at 100 kpps were off/defaults 106/3,226, 2,738/28,093 and
# 968/24,623 lost of 500,000, and an hour later on the idle machine off alone
# lost 13.6k, 32.7k and 0.8k in three rounds.
# pair RATE: one pair; sets PAIR_OK, and on success P_OFF_LOST, P_OFF_P50,
# P_DEF_LOST, P_DEF_P50
pair() {
	local rate=$1
	PAIR_OK=""
	run "off-$rate-$try" --sleep-policy off
	if ! offered_all; then
		log "$rate pps, try $try: not valid: the sender sent $R_SENT of $N in $R_SENT_MS ms beside off"
		return
	fi
	if ! fcmp 'l < n * 0.001' l="$R_LOST" n="$R_SENT"; then
		log "$rate pps, try $try: not valid: --sleep-policy off lost $R_LOST of $R_SENT"
		return
	fi
	P_OFF_LOST=$R_LOST P_OFF_P50=$R_P50
	run "defaults-$rate-$try"
	if ! offered_all; then
		log "$rate pps, try $try: not valid: the sender sent $R_SENT of $N in $R_SENT_MS ms beside the defaults"
		return
	fi
	P_DEF_LOST=$R_LOST P_DEF_P50=$R_P50 PAIR_OK=1
}

judged=""
for RATE in $RATES; do
	N=$((RATE * SECS))
	off_losts="" def_losts="" off_p50s="" def_p50s="" valid=0
	for try in 1 2 3 4 5; do
		# the tries left, this one included, cannot make three valid pairs
		[ $((6 - try)) -ge $((3 - valid)) ] || { try=$((try - 1)) && break; }
		pair "$RATE"
		[ -n "$PAIR_OK" ] || continue
		valid=$((valid + 1))
		off_losts="$off_losts $P_OFF_LOST" def_losts="$def_losts $P_DEF_LOST"
		off_p50s="$off_p50s $P_OFF_P50" def_p50s="$def_p50s $P_DEF_P50"
		[ "$valid" -lt 3 ] || break
	done
	if [ "$valid" -ge 3 ]; then
		judged=1
		break
	fi
	log "$RATE pps: $valid valid pair(s) of 3 in $try tries; trying the next rate"
done
[ -n "$judged" ] || die "no valid rate in '$RATES': this machine cannot offer them, or busy polling loses them"
[ "$RATE" = "${RATES%% *}" ] || log "tested at $RATE pps, the highest valid rate here"
off_lost=$(median3 "$off_losts") def_lost=$(median3 "$def_losts")
off_p50=$(median3 "$off_p50s") def_p50=$(median3 "$def_p50s")
log "$RATE pps, 3 valid pairs, lost (median): defaults $def_lost ($def_losts), off $off_lost ($off_losts) of $N each; one-way p50 median: defaults $def_p50 us ($def_p50s), off $off_p50 us ($off_p50s)"
fcmp 'l <= o + n * 0.001' l="$def_lost" o="$off_lost" n="$N" ||
	die "the defaults lost $def_lost of $N (median of 3), off $off_lost (more than off + 0.1 %)"
fcmp 'p <= 3 * o || p <= o + 250' p="$def_p50" o="$off_p50" ||
	die "the defaults' median one-way p50 $def_p50 us is over 3x off's $off_p50 us and over off's + the 250 us budget"
log "PASS"
