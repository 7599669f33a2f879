#!/usr/bin/env bash
# Burst tolerance (issue 21) over memif, lull-gen sending line-rate bursts after
# 200 ms idle spells, 50 of them a case (10 s):
#  a. lull's defaults on a 1024-slot ring: the start-up warning names the ring
#     that would absorb any burst; bursts of half the ring: nothing refused, lost;
#  o. the same, bursts of twice the ring: many refused (what the others fix);
#  b. --burst-tolerance 4096 on the same ring: bursts of twice the ring;
#  c. lull's defaults on the ring the warning named: bursts of twice the default.
#  p. busy polling (--sleep-policy off) on the same ring, the same bursts: what
#     no sleep cap can save here (a slow or stalled vCPU forwards a 2048 burst
#     into a 1024 ring slower than lull-gen's memif sends it).
# c loses at most a quarter of what o loses, b at most half, or (when busy
# polling itself loses more: a slow machine, where b's cap is to poll) what p
# lost and two overflowed bursts: a power saver never loses what busy polling
# keeps. lull-gen's memif bursts come faster than the 10 GbE the cap assumes
# (memif reports no speed).
# Before issue 15, b lost nothing because its ring bound (a bug) kept the PMD
# polling 99.6 % of the time. "Refused" is lull-gen's tx into lull's full memif
# ring; lull-gen counts it as lost.
. "$(dirname "$0")/lib.sh"
LULL_GEN=${LULL_GEN:?set LULL_GEN to the lull-gen binary}

# The PMD runs at nice -20, as an operator runs it: what is judged is how its
# sleeps meet the ring, not how a CPU hog beside it (stress-ng --cpu 1 took a
# quarter of the bursts in every case at nice 0) takes its time slices.
# run CASE RSIZE BURST MAX_LOST LULL-ARGS...: lull (memif server, 2^RSIZE slots), then
# the bursts; fails when more than MAX_LOST were refused or lost; LOST = how many were
run() {
	local name=$1 rsize=$2 burst=$3 max_lost=$4
	shift 4
	bg "$name" "$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-$name" \
		--vdev "$(memif_vdev 0 server "$T_DIR/$name-a.sock"),rsize=$rsize" \
		--vdev "$(memif_vdev 1 server "$T_DIR/$name-b.sock"),rsize=$rsize" \
		-- --stats-period 0 --link-wait-ms 30000 --pmd-priority nice:-20 "$@"
	local pid=$BG_PID
	lull_ready "$name" "$pid"
	# the memif client's rsize sets the rings: the same on both sides
	bg "gen-$name" "$LULL_GEN" -l 0 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-g$name" \
		--vdev "$(memif_vdev 0 client "$T_DIR/$name-a.sock"),rsize=$rsize" \
		--vdev "$(memif_vdev 1 client "$T_DIR/$name-b.sock"),rsize=$rsize" \
		-- --profile "idle:1s,burst:$burst/200ms:10s" --progress-ms 0 --json "$T_DIR/$name.json" \
		--linger-ms 30000
	local gpid=$BG_PID
	gen_then_lull_stop "gen-$name" "$gpid" "$pid" 30
	[ "$STOP_RC" = 0 ] || die "$name: lull exited with $STOP_RC"
	[ "$GEN_RC" = 0 ] || die "$name: lull-gen failed: $(tail -n 5 "$T_DIR/gen-$name.log")"
	local limit=$max_lost
	[ -z "${LOSE_OK:-}" ] || limit=102400 # judged by the caller
	LOST=$(judge "$T_DIR/$name.json" "$name" "$limit") || die "$name: more than $max_lost refused or lost"
}

# judge JSON CASE MAX_LOST: prints the phase's lost; fails above MAX_LOST
judge() {
	python3 - "$@" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["phases"][1]
print(f"[burst_tol.sh] {sys.argv[2]}: offered {p['offered']}, sent {p['sent']}, refused {p['refused']}, lost {p['lost']}", file=sys.stderr)
# 50 bursts in 10 s; on a loaded machine lull-gen falls behind (36 seen)
burst = int(p["profile"].split(":")[1].split("/")[0])
assert p["offered"] % burst == 0 and 25 * burst <= p["offered"] <= 50 * burst, p
assert p["refused_is_loss"] and p["lost"] >= p["refused"], p
assert p["lost"] <= int(sys.argv[3]), p
print(p["lost"])
PY
}

run a 10 512 0
grep -E "overflows if it comes as the PMD falls asleep" "$T_DIR/a.log" >"$T_DIR/warn" ||
	die "no burst warning on a 1024-slot ring: $(grep -i burst "$T_DIR/a.log")"
log "warning: $(head -n 1 "$T_DIR/warn" | sed 's/^lull: //')"
rsize=$(grep -o "rsize=[0-9]*" "$T_DIR/warn" | head -n 1 | cut -d= -f2)
[ -n "$rsize" ] && [ "$rsize" -gt 10 ] || die "the warning names no larger memif rsize"

# o, p and b: alternated rounds, judged on the medians (b's loss is the race of
# lull-gen's burst against lull's forwarding into a ring half the burst's size:
# 1,024-8,032 seen in single runs against o's 4,384-6,432 on a quiet machine;
# on an Intel guest busy polling itself lost 3,072-36,224 a round)
o_all="" p_all="" b_all=""
rounds() {
	local round
	for round in "$@"; do
		run "o$round" 10 2048 102400
		o_all="$o_all $LOST"
		run "p$round" 10 2048 102400 --sleep-policy off
		p_all="$p_all $LOST"
		LOSE_OK=1 run "b$round" 10 2048 102400 --burst-tolerance 4096
		b_all="$b_all $LOST"
		grep -q "sleeps capped at" "$T_DIR/b$round.log" || die "no cap logged for --burst-tolerance 4096"
	done
}
# rate's ring bound (a spell going on bounds the sleeps by its own rate) already
# saves most of these bursts when the sender is slow (under ASan o lost 4,768);
# b and c are judged against what o lost, and at least two bursts' overflow
# (1,024 each) and the frames in flight: a host stall of milliseconds makes any
# forwarder overflow a 1,024-slot ring with a 2,048 burst (o lost only 1,120,
# b 1,056, b2 2,080 in one run: one and two such bursts), and no cap on the
# sleeps prevents that
floor=2112
# what busy polling lost in its worst round, and two overflowed bursts: the
# most a case may lose when the machine cannot forward a 2048 burst in time
# even polling (seen in CI: o 4,128, b 3,104 and b2 2,464 with b polling, its
# wake p99 229 us over the ring's 69 us; under ASan p lost 7,776-31,584 in
# three rounds and b, polling as well, 9,568-37,440: the same noise)
# and where busy polling's own rounds spread wider than that, its spread (under
# ASan on an Intel guest, p 9,664-17,184 and b's median 20,768 failed a margin of
# 2,112 alone)
judge_rounds() {
	o_lost=$(median_of "$o_all") p_lost=$(median_of "$p_all") b_lost=$(median_of "$b_all")
	local p_max p_min p_spread p_allow
	p_max=$(sorted "$p_all" | tail -n 1) p_min=$(sorted "$p_all" | head -n 1)
	p_spread=$((p_max - p_min))
	p_allow=$((p_max + (p_spread > floor ? p_spread : floor)))
	allow=$((o_lost / 4 > p_allow ? o_lost / 4 : p_allow))
	allow_b=$((o_lost / 2 > p_allow ? o_lost / 2 : p_allow))
	log "medians of $(wc -w <<<"$p_all") rounds, of 102400: uncapped $o_lost ($o_all), busy polling $p_lost ($p_all), --burst-tolerance 4096 $b_lost ($b_all); b may lose $allow_b, c $allow"
}
rounds 1 2 3
judge_rounds
# three rounds of busy polling can come out tight and low by chance where its
# rounds spread 3,072-36,224 (an Intel guest; a CI run failed this test after
# its third round, the cause cut off): then three more of each, judged on all
# six; a cap that lets b lose more than busy polling still fails
if [ "$b_lost" -gt "$allow_b" ]; then
	log "b over its margin in 3 rounds: 3 more of each"
	rounds 4 5 6
	judge_rounds
fi
[ "$b_lost" -le "$allow_b" ] || die "--burst-tolerance 4096 lost a median $b_lost, over $allow_b"

run c "$rsize" 2048 "$allow"
grep -q "absorbs a line-rate burst of any length" "$T_DIR/c.log" ||
	die "rsize=$rsize: still warned: $(grep -i burst "$T_DIR/c.log")"
log "PASS"
