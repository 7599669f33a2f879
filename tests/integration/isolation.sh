#!/usr/bin/env bash
# Sharing a PMD's core:
#  - --yield-hz: a busy-polling PMD yields at the configured frequency (the
#    stats count it, within 25 %);
#  - a SCHED_OTHER worker pinned to the PMD's CPU, doing a fixed amount of work,
#    does not finish within 4x its time alone next to a nice -20 busy-polling
#    PMD, and finishes within that time once the same PMD yields;
#  - --control-cores puts every non-PMD thread on the CPUs given;
#  - --pmd-priority is applied (nice -20) and changes at run time (fifo);
#  - --wake-priority raises the idle PMD to SCHED_FIFO, and a refusal (no
#    CAP_SYS_NICE) is said once while lull goes on.
. "$(dirname "$0")/lib.sh"
LULLCTL=${LULLCTL:?set LULLCTL to the lullctl binary}
PMD_CPU=1

# work: a fixed count in a shell loop, pinned to the PMD's CPU; prints ms taken
# or "timeout" after $1 ms
work() {
	local limit_ms=$1 t0 t1
	t0=$(date +%s%N)
	if timeout "$(echo "scale=3; $limit_ms / 1000" | bc)" \
		taskset -c "$PMD_CPU" bash -c 'for ((i = 0; i < 150000; i++)); do :; done'; then
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000000))
	else
		echo timeout
	fi
}

start_lull() {
	local name=$1
	shift
	bg "$name" "$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-$name" \
		--vdev "$(memif_vdev 0 server "$T_DIR/$name-a.sock")" \
		--vdev "$(memif_vdev 1 server "$T_DIR/$name-b.sock")" \
		-- --stats-period 0 --link-wait-ms 0 "$@"
	LULL_PID=$BG_PID
	lull_ready "$name" "$LULL_PID"
	sleep 0.5
}


stop_lull() {
	stop_wait "$LULL_PID" 20
	[ "$STOP_RC" = 0 ] || die "lull exited with $STOP_RC"
}

alone_ms=$(work 20000)
[ "$alone_ms" != timeout ] || die "the worker alone did not finish in 20 s"
limit_ms=$((alone_ms * 4 < 2000 ? 2000 : alone_ms * 4))
log "worker alone on CPU $PMD_CPU: $alone_ms ms; limit $limit_ms ms"

# 1. nice -20 busy polling starves it
start_lull busy --sleep-policy off --pmd-priority nice:-20 --control-cores 0
tid=$(h_worker_tid "$LULL_PID") || die "no PMD thread in lull"
[ "$(thread_stat "$LULL_PID" "$tid" 19)" = -20 ] || die "PMD thread is not at nice -20"
for t in /proc/"$LULL_PID"/task/*; do
	[ "${t##*/}" = "$tid" ] && continue
	cpus=$(taskset -pc "${t##*/}" 2>/dev/null) || continue # it exited meanwhile
	[ "${cpus##*: }" = 0 ] || die "control thread $(cat "$t/comm" 2>/dev/null) not on CPU 0: $cpus"
done
busy=$(work "$limit_ms")
stop_lull
log "next to a nice -20 busy-polling PMD: $busy"
[ "$busy" = timeout ] || die "the worker finished in $busy ms next to nice -20 busy polling (not starved?)"

# 2. the same PMD with a yield: the worker finishes; the yield rate is as configured
start_lull yield --sleep-policy off --pmd-priority nice:-20 --yield-hz 1000 --yield-us 500
yielded=$(work "$limit_ms")
log "next to the same PMD yielding 500 us 1000 times/s: $yielded"
[ "$yielded" != timeout ] || die "the worker did not finish within $limit_ms ms despite the yield"
"$LULLCTL" -f "$T_ID-yield" set yield-hz 200 >/dev/null || die "set yield-hz 200"
"$LULLCTL" -f "$T_ID-yield" set yield-us 10 >/dev/null || die "set yield-us 10"
"$LULLCTL" -f "$T_ID-yield" pmd-stats-clear >/dev/null
sleep 2
"$LULLCTL" -f "$T_ID-yield" --json pmd-perf-show | python3 -c '
import json, sys
p = json.load(sys.stdin)["pmd1"]
secs = p["duration_cycles"] / p["tsc_hz"]
rate = p["yields"] / secs
n = p["yields"]
print(f"{n} yields in {secs:.2f} s: {rate:.0f}/s")
assert 150 <= rate <= 250, f"yield rate {rate:.0f}/s, want 200 +- 25 %"' || die "yield rate"
# priority at run time: fifo is fine with the yield on
"$LULLCTL" -f "$T_ID-yield" set pmd-priority fifo:1 >/dev/null || die "set pmd-priority fifo:1"
tid=$(h_worker_tid "$LULL_PID") || die "no PMD thread in lull"
[ "$(thread_stat "$LULL_PID" "$tid" 41)" = 1 ] || die "PMD thread is not SCHED_FIFO"
rc=0
"$LULLCTL" -f "$T_ID-yield" set yield-hz 0 2>"$T_DIR/err" || rc=$?
[ "$rc" = 1 ] && grep -q "would starve" "$T_DIR/err" || die "yield off under fifo busy polling: rc $rc $(cat "$T_DIR/err")"
"$LULLCTL" -f "$T_ID-yield" set pmd-priority none >/dev/null || die "set pmd-priority none"
[ "$(thread_stat "$LULL_PID" "$tid" 41)" = 0 ] || die "PMD thread still SCHED_FIFO"
stop_lull
grep -q "yields [0-9]" "$T_DIR/yield.log" || die "no yield count in the final stats"

# --wake-priority: the idle PMD runs SCHED_FIFO from its waits; without
# CAP_SYS_NICE the kernel refuses, lull says so once and goes on at the
# thread's own priority
start_lull wake --wake-priority 3
tid=$(h_worker_tid "$LULL_PID") || die "no PMD thread in lull"
[ "$(thread_stat "$LULL_PID" "$tid" 41)" = 1 ] ||
	die "--wake-priority 3: the idle PMD is not SCHED_FIFO"
[ "$(thread_stat "$LULL_PID" "$tid" 18)" = -4 ] ||
	die "--wake-priority 3: the PMD's priority is not 3"
stop_lull
# shellcheck disable=SC2016 # expanded by capsh's shell
bg wake-np capsh --drop=cap_sys_nice -- -c 'exec "$0" "$@"' "$LULL" -l 0,1 -m 256 \
	"${EAL_COMMON[@]}" --file-prefix="$T_ID-wake-np" \
	--vdev "$(memif_vdev 0 server "$T_DIR/wake-np-a.sock")" \
	--vdev "$(memif_vdev 1 server "$T_DIR/wake-np-b.sock")" \
	-- --stats-period 0 --link-wait-ms 0 --wake-priority 3
LULL_PID=$BG_PID
lull_ready wake-np "$LULL_PID"
wait_log wake-np "lull: --wake-priority 3: thread [0-9]* may not run SCHED_FIFO" 10
tid=$(h_worker_tid "$LULL_PID") || die "no PMD thread in lull"
[ "$(thread_stat "$LULL_PID" "$tid" 41)" = 0 ] ||
	die "--wake-priority refused: the PMD runs policy $(thread_stat "$LULL_PID" "$tid" 41)"
stop_lull
[ "$(grep -c "may not run SCHED_FIFO" "$T_DIR/wake-np.log")" = 1 ] ||
	die "the refusal was not said once: $(grep -c "may not run SCHED_FIFO" "$T_DIR/wake-np.log")"
log "--wake-priority: idle PMD SCHED_FIFO 3; refused without CAP_SYS_NICE, said once"
log "PASS"
