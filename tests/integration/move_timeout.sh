#!/usr/bin/env bash
# A move whose first phase times out (issue 28 items 3 and 12): the shim holds
# one rx-interrupt registration for 6 s once the test asks (a flag file), so
# the PMD taking the move's first block acknowledges it late. lull on two net_tap ports, two PMDs (lcores
# 1 and 2 on CPU 1), --intr-after-ms 10.
#  - set rxq-pmd 0:0@2 answers that the move completes once the slow PMD
#    let go; another move meanwhile is refused ("try again"); pmd-rxq-show
#    says which generation it shows and which one waits (item 10);
#  - a set accepted while the move is pending stays in force after the move
#    completes (the late phase applies the move, not a copy of the old
#    configuration);
#  - the move completes: queue 0:0 on lcore 2, nothing pending, every queue
#    polled; lull stops cleanly.
. "$(dirname "$0")/lib.sh"
SHIM=${SHIM_INTR_REFUSE:?set SHIM_INTR_REFUSE to the intr_refuse shim}
LULLCTL=${LULLCTL:?set LULLCTL to the lullctl binary}
P="$T_ID-lull"
ctl() { "$LULLCTL" -f "$P" "$@"; }
# json_get CMD KEY: a figure of a show
json_get() { ctl --json "$1" | python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$2"; }
on_lcore2() { ctl --json pmd-rxq-show | python3 -c 'import json, sys; print("rxq_0_0" in json.load(sys.stdin)["pmd2"])'; }

bg lull env LD_PRELOAD="$SHIM" LULL_SHIM_DELAY_MS=6000 LULL_SHIM_DELAY_FILE="$T_DIR/stall" "$LULL" \
	--lcores 0@0,1@1,2@1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$P" \
	--vdev "net_tap0,iface=${T_ID}A" --vdev "net_tap1,iface=${T_ID}B" \
	-- --stats-period 0 --link-wait-ms 0 --intr-after-ms 10 --rxq 2
lull_pid=$BG_PID
lull_ready lull "$lull_pid" 60
[ "$(on_lcore2)" = False ] || die "queue 0:0 starts on lcore 2: nothing would move"

rc=0
touch "$T_DIR/stall" # the next registration: the move's first phase
ctl set rxq-pmd 0:0@2 >/dev/null 2>"$T_DIR/move.err" || rc=$?
[ "$rc" != 0 ] && grep -q "the move completes as soon as it does" "$T_DIR/move.err" ||
	die "the slow move: exit $rc, $(cat "$T_DIR/move.err")"
log "slow move: $(cat "$T_DIR/move.err")"
# item 10: a show says which generation it describes, and that a newer one waits
ctl --json pmd-rxq-show | python3 -c '
import json, sys
d = json.load(sys.stdin)
late = [p for p in d.values() if "pending_generation" in p]
assert late and all(p["pending_generation"] > p["generation"] for p in late), d
print(" ".join("lcore %d: generation %d, pending %d" % (p["lcore"], p["generation"], p["pending_generation"]) for p in late))
' >"$T_DIR/gen.txt" || die "pmd-rxq-show does not say a change is pending: $(ctl --json pmd-rxq-show | head -c 300)"
log "while it waits: $(cat "$T_DIR/gen.txt")"
rc=0
ctl set rxq-pmd 1:0@1 >/dev/null 2>"$T_DIR/move2.err" || rc=$?
[ "$rc" != 0 ] && grep -q "try again" "$T_DIR/move2.err" ||
	die "a move while one is pending: exit $rc, $(cat "$T_DIR/move2.err")"
log "refused meanwhile: $(cat "$T_DIR/move2.err")"

# a set, retried while the slow PMD holds up changes
ok=""
for _ in $(seq 60); do
	if ctl set sleep-max-us 123 >/dev/null 2>"$T_DIR/set.err"; then ok=1; break; fi
	grep -q "try again\|did not take the change" "$T_DIR/set.err" || die "set: $(cat "$T_DIR/set.err")"
	sleep 0.2
done
[ -n "$ok" ] || die "set sleep-max-us never taken: $(cat "$T_DIR/set.err")"
for _ in $(seq 300); do
	[ "$(on_lcore2)" = True ] && [ "$(json_get balance-show move_pending)" = 0 ] && break
	sleep 0.1
done
[ "$(on_lcore2)" = True ] || die "the move did not complete: $(ctl pmd-rxq-show)"
[ "$(json_get balance-show move_pending)" = 0 ] || die "a move still pending"
ctl --json pmd-rxq-show | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert all("generation" in p and "pending_generation" not in p for p in d.values()), d' ||
	die "after the move a show still says a change is pending"
ctl config-show | grep -qx "sleep_max_us: 123" ||
	die "the set taken meanwhile was undone: $(ctl config-show | grep sleep_max)"
q=$(ctl --json pmd-perf-show | python3 -c 'import json, sys; print(sum(p["rx_queues"] for p in json.load(sys.stdin).values()))')
[ "$q" = 4 ] || die "rx queues polled: $q of 4"
log "the move completed late; sleep-max-us 123 kept; all four queues polled"
grep "2/2, late\|taken over late" "$T_DIR/lull.log" | sed 's/^/    /' | head -n 3
stop_wait "$lull_pid" 30
[ "$STOP_RC" = 0 ] || die "lull exited with $STOP_RC"
log "PASS"
