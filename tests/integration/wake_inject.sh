#!/usr/bin/env bash
# --wake-inject slow-vm makes any machine's wakes as slow as issue 27's KVM
# guest: the PMD's own cost model must measure at least what is added (30 us
# of lateness, 42 us of CPU a wait), pmd-sleep-show says it is injected, it can
# be switched off at run time, and a bad value is refused by name.
. "$(dirname "$0")/lib.sh"
LULLCTL=${LULLCTL:?set LULLCTL to the lullctl binary}

rc=0
"$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-bad" --vdev net_null0 \
	--vdev net_null1 -- --wake-inject slow-ish >/dev/null 2>"$T_DIR/bad.err" || rc=$?
[ "$rc" -ne 0 ] || die "--wake-inject slow-ish accepted"
grep -q "wake-inject: bad value 'slow-ish' (expected off or slow-vm)" "$T_DIR/bad.err" ||
	die "bad --wake-inject: $(cat "$T_DIR/bad.err")"

sa="$T_DIR/a.sock" sb="$T_DIR/b.sock"
lull_memif_bg lull "$sa" "$sb" --stats-period 0 --wake-inject slow-vm
lull_pid=$BG_PID
ctl() { "$LULLCTL" -f "$T_ID-lull" "$@"; }
model() {
	ctl --json pmd-sleep-show | python3 -c '
import json, sys
p = next(iter(json.load(sys.stdin).values()))
print(p["late_p50_ns"], p["timed_wait_cpu_ns"], p["wake_inject"])'
}
# a peer that sends nothing: links up (set is refused before), the PMD idle
gen_bg gen 0 "$sa" "$sb" --profile idle:12s
gen_pid=$BG_PID
sleep 4 # idle: a few thousand waits
read -r p50 cpu inj <<<"$(model)"
log "injected: lateness p50 $p50 ns, CPU a wait $cpu ns ($inj)"
[ "$inj" = slow-vm ] || die "pmd-sleep-show: wake_inject $inj"
ctl pmd-sleep-show | grep -q "injected slow wakes: slow-vm" || die "pmd-sleep-show text"
[ "$p50" -ge 30000 ] || die "lateness p50 $p50 ns with 30 us + exp(23 us) injected"
[ "$cpu" -ge 40000 ] || die "CPU a wait $cpu ns with 42 us injected"
out=$(ctl set wake-inject off 2>&1) || die "set wake-inject off: $out"
sleep 3
read -r p50 cpu inj <<<"$(model)"
log "off again: lateness p50 $p50 ns, CPU a wait $cpu ns ($inj)"
[ "$inj" = off ] || die "set wake-inject off: still $inj"
wait "$gen_pid" || die "lull-gen failed: $(tail -n 5 "$T_DIR/gen.log")"
stop_wait "$lull_pid" 20
[ "$STOP_RC" = 0 ] || die "lull exited with $STOP_RC"
log "PASS"
