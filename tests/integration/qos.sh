#!/usr/bin/env bash
# --pmd-resume-latency-us (issue 17): where the kernel has per-CPU PM QoS (this
# machine: /sys/devices/system/cpu/cpu1/power/pm_qos_resume_latency_us), lull
# sets it on its PMD's CPU while it runs - N us, or "n/a" (strict) for 0 - and
# puts back what was there when it stops; where the file is absent (a sysfs
# tree without it, through LULL_SYSFS_ROOT) the option is refused by name and
# nothing starts.
. "$(dirname "$0")/lib.sh"
LULLCTL=${LULLCTL:?set LULLCTL to the lullctl binary}
f=/sys/devices/system/cpu/cpu1/power/pm_qos_resume_latency_us

# run NAME VALUE WANT: lull with --pmd-resume-latency-us VALUE; the file says WANT
# while it runs and what it said before once it stopped
run() {
	local name=$1 value=$2 want=$3 before now
	bg "$name" "$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-$name" \
		--vdev net_null0 --vdev net_null1 -- --stats-period 0 --link-wait-ms 0 \
		--sleep-policy rate --pmd-resume-latency-us "$value"
	local pid=$BG_PID
	lull_ready "$name" "$pid"
	now=$(cat "$f")
	[ "$now" = "$want" ] || die "$name: $f is '$now' while lull runs, want '$want'"
	"$LULLCTL" -f "$T_ID-$name" config-show | grep -qx "pmd_resume_latency_us: $value" ||
		die "$name: config-show does not show it"
	stop_wait "$pid" 20
	[ "$STOP_RC" = 0 ] || die "$name: lull exited with $STOP_RC"
	# what lull found (its log), put back: not the test's own earlier read, as
	# something else on the machine may write the file meanwhile (seen here)
	before=$(sed -n "s/.*CPU 1 resume latency .* us (was \(.*\))$/\1/p" "$T_DIR/$name.log")
	[ -n "$before" ] || die "$name: lull did not log what it found"
	[ "$(cat "$f")" = "$before" ] || die "$name: $f is '$(cat "$f")' after lull, was '$before'"
	log "$name: $f was '$before', '$now' while lull ran, '$before' again after"
}

if [ -w "$f" ]; then
	# without the option the file is left alone
	before=$(cat "$f")
	bg plain "$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-plain" \
		--vdev net_null0 --vdev net_null1 -- --stats-period 0 --link-wait-ms 0 --sleep-policy rate
	pid=$BG_PID
	lull_ready plain "$pid"
	[ "$(cat "$f")" = "$before" ] || die "no option, yet $f went from '$before' to '$(cat "$f")'"
	stop_wait "$pid" 20
	! grep -q "resume latency" "$T_DIR/plain.log" || die "no option, yet: $(grep "resume latency" "$T_DIR/plain.log")"
	log "plain: $f left at '$before'"
	run lat20 20 20
	run strict 0 n/a
else
	log "this machine has no writable $f: only the refusal is tested"
fi

mkdir -p "$T_DIR/sys/devices/system/cpu/cpu1"
rc=0
LULL_SYSFS_ROOT="$T_DIR/sys" "$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-none" \
	--vdev net_null0 --vdev net_null1 -- --stats-period 0 --link-wait-ms 0 \
	--pmd-resume-latency-us 20 >"$T_DIR/none.log" 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q "error: --pmd-resume-latency-us: CPU 1 of PMD lcore 1 has no .*pm_qos_resume_latency_us" \
	"$T_DIR/none.log" || die "absent file: exit $rc, $(tail -n 3 "$T_DIR/none.log")"
log "absent: $(grep error: "$T_DIR/none.log")"
log "PASS"
