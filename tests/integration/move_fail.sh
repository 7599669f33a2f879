#!/usr/bin/env bash
# Moves that cannot complete (issue 28 item 1): 6 net_null ports x 64 rx queues
# on two PMDs (lcores 1 and 2, both on CPU 1), --consolidate on, idle. A pack
# would put all 384 queues on one PMD, past the 256 one PMD polls: it must not
# happen, and no queue may be left without a PMD. An operator's move past the
# cap (set rxq-pmd) is refused by name with nothing changed, and
# pmd-rxq-rebalance keeps every queue polled. Four clients moving queues at
# once are each served as if alone (issue 28 item 6).
. "$(dirname "$0")/lib.sh"
LULLCTL=${LULLCTL:?set LULLCTL to the lullctl binary}
P="$T_ID-lull"
ctl() { "$LULLCTL" -f "$P" "$@"; }
# queues: rx queues per PMD, as pmd-perf-show says
queues() {
	ctl --json pmd-perf-show | python3 -c '
import json, sys
print(" ".join(str(p["rx_queues"]) for p in json.load(sys.stdin).values()))'
}
# all_polled WHAT: every one of the 384 queues has a PMD
all_polled() {
	local q
	q=$(queues)
	[ "$(echo "$q" | tr ' ' '+' | bc)" = 384 ] || die "$1: rx queues per PMD $q, not 384 in all"
	log "$1: rx queues per PMD $q"
}

vdevs=()
for i in 0 1 2 3 4 5; do vdevs+=(--vdev "net_null$i,no-rx=1"); done # idle
bg lull "$LULL" --lcores 0@0,1@1,2@1 -m 1024 "${EAL_COMMON[@]}" --file-prefix="$P" "${vdevs[@]}" \
	-- --stats-period 0 --link-wait-ms 0 --rxq 64 --rxd 64 --txd 64 --consolidate on --consolidate-dwell-ms 1000
lull_pid=$BG_PID
lull_ready lull "$lull_pid" 60
all_polled start
# idle: a pack is due after three calm 1 s windows; give it 8 s
sleep 8
all_polled "idle 8 s"
! grep -q "rx queue(s) moved" "$T_DIR/lull.log" || die "a move happened: $(grep moved "$T_DIR/lull.log")"

# an operator's move past the cap: refused, nothing changed
before=$(queues)
# 70 queues of lcore 2's to lcore 1, which polls 192 already
pins=$(ctl --json pmd-rxq-show | python3 -c '
import json, sys
d = json.load(sys.stdin)
qs = [k[4:].replace("_", ":") for k in d["pmd2"] if k.startswith("rxq_")]
print(",".join(q + "@1" for q in qs[:70]))')
rc=0
ctl set rxq-pmd "${pins%,}" >/dev/null 2>"$T_DIR/set.err" || rc=$?
[ "$rc" = 1 ] && grep -q "256" "$T_DIR/set.err" || die "move past the cap: exit $rc, $(cat "$T_DIR/set.err")"
log "refused: $(cat "$T_DIR/set.err")"
[ "$(queues)" = "$before" ] || die "the refused move changed rx queues per PMD: $before -> $(queues)"
all_polled "after the refused move"

ctl pmd-rxq-rebalance >/dev/null || die "pmd-rxq-rebalance failed"
all_polled "after pmd-rxq-rebalance"

# concurrent moves (issue 28 item 6): four clients at once, each moving its own
# queues back and forth; every move is taken or refused for a reason it names
# ("try again"), none misparsed by another's parse
for w in 1 2 3 4; do
	(
		for i in $(seq 25); do
			to=$((1 + (i + w) % 2))
			out=$(ctl set rxq-pmd "$w:$i@$to,$w:$((i + 30))@$to" 2>&1) ||
				case "$out" in *"try again"*) ;; *) echo "worker $w move $i: $out" ;; esac
		done
	) >"$T_DIR/mover$w.out" 2>&1 &
	movers+=($!)
done
wait "${movers[@]}"
cat "$T_DIR"/mover*.out >"$T_DIR/movers"
[ ! -s "$T_DIR/movers" ] || die "concurrent moves: $(head -n 5 "$T_DIR/movers")"
all_polled "after 100 concurrent moves"
kill -0 "$lull_pid" 2>/dev/null || die "lull died"
stop_wait "$lull_pid" 30
[ "$STOP_RC" = 0 ] || die "lull exited with $STOP_RC"
log "PASS"
