#!/usr/bin/env bash
# A latency budget this machine cannot keep (2 us, below any wake's lateness):
# at 1 kpps rate still sleeps (the budget itself, misses counted) instead of
# busy polling, says so once in the log and in pmd-sleep-show; with
# --strict-budget on (set at run time) it busy-polls, as asked, and says that;
# off again, it sleeps again. Nothing is lost either way.
. "$(dirname "$0")/lib.sh"
LULLCTL=${LULLCTL:?set LULLCTL to the lullctl binary}

sa="$T_DIR/a.sock" sb="$T_DIR/b.sock"
lull_memif_bg lull "$sa" "$sb" --stats-period 0 --latency-budget-us 2 --linger-us 0
lull_pid=$BG_PID
ctl() { "$LULLCTL" -f "$T_ID-lull" "$@"; }
sleeps() {
	ctl --json pmd-perf-show | python3 -c \
		'import json,sys; print(sum(p["sleeps"] for p in json.load(sys.stdin).values()))'
}
# sleeps_per_s SECONDS: timed waits per second over SECONDS
sleeps_per_s() {
	local a b
	a=$(sleeps)
	sleep "$1"
	b=$(sleeps)
	echo $(((b - a) / $1))
}

gen_bg gen 0 "$sa" "$sb" --profile rate:1k:16s --json "$T_DIR/gen.json"
gen_pid=$BG_PID
sleep 3
loose=$(sleeps_per_s 3)
show=$(ctl pmd-sleep-show)
grep -q "out of reach here even at p50" <<<"$show" ||
	die "pmd-sleep-show does not say the budget is out of reach: $show"
ctl set strict-budget on >/dev/null || die "set strict-budget on refused"
sleep 2
strict=$(sleeps_per_s 3)
show_strict=$(ctl pmd-sleep-show)
ctl set strict-budget off >/dev/null || die "set strict-budget off refused"
sleep 2
again=$(sleeps_per_s 3)
log "sleeps/s at 1 kpps: $loose, strict $strict, loose again $again"
grep -q "busy-polling while traffic flows (--strict-budget on)" <<<"$show_strict" ||
	die "strict: pmd-sleep-show does not say it polls: $show_strict"
# a sleep of the budget is a wake about every 100 us here; strict polls but for
# one probe per 10 ms
[ "$loose" -gt 1000 ] || die "budget out of reach: $loose sleeps/s, it polls"
[ "$again" -gt 1000 ] || die "strict off again: $again sleeps/s"
[ $((strict * 5)) -lt "$loose" ] || die "strict budget: $strict sleeps/s against $loose"
ctl set strict-budget maybe >"$T_DIR/bad.out" 2>&1 && die "strict-budget maybe accepted"
grep -q "expected off or on" "$T_DIR/bad.out" || die "bad strict-budget: $(cat "$T_DIR/bad.out")"

wait "$gen_pid" || die "lull-gen failed: $(tail -n 5 "$T_DIR/gen.log")"
stop_wait "$lull_pid" 20
[ "$STOP_RC" = 0 ] || die "lull exited with $STOP_RC"
n=$(grep -c "budget 2 us: out of reach here even at p50" "$T_DIR/lull.log" || true)
[ "$n" -ge 1 ] && [ "$n" -le 2 ] || die "the out-of-reach line logged $n times (once per change)"
grep -q "budget 2 us: p99 out of reach here.*busy-polling" "$T_DIR/lull.log" ||
	die "strict: not logged"
python3 - "$T_DIR/gen.json" <<'PY' || die "lull-gen results"
import json, sys
p = json.load(open(sys.argv[1]))["phases"][0]
assert p["sent"] > 10000 and p["received"] == p["sent"] and p["lost"] == 0, p
print(f"gen: {p['sent']} sent = received")
PY
log "PASS"
