#!/usr/bin/env bash
# --pmd-resume-latency-us (issue 17): where the kernel has per-CPU PM QoS (this
# machine: /sys/devices/system/cpu/cpu1/power/pm_qos_resume_latency_us), lull
# sets it on its PMD's CPU while it runs - N us, or "n/a" (strict) for 0 - and
# puts back what was there when it stops; where the file is absent (a sysfs
# tree without it, through LULL_SYSFS_ROOT) the option is refused by name and
# nothing starts. Issue 28 items 5 and 16: two PMD lcores on one CPU
# (--lcores 0@0,1@1,2@1: lcore 2 runs on CPU 1) set CPU 1 once and put back what
# was there before lull, not lull's own value; SIGHUP, SIGQUIT and SIGPIPE (its
# stdout a pipe whose reader is gone, as with `lull | tee` and Ctrl-C) stop lull
# through the same teardown as SIGTERM, which restores the file.
. "$(dirname "$0")/lib.sh"
LULLCTL=${LULLCTL:?set LULLCTL to the lullctl binary}
f=/sys/devices/system/cpu/cpu1/power/pm_qos_resume_latency_us
# a failed case may leave lull's value: put the machine's back at exit
if [ -w "$f" ]; then
	q_orig=$(cat "$f")
	trap 'h_cleanup; echo "$q_orig" >"$f" 2>/dev/null || true' EXIT
fi

# run NAME VALUE WANT [SIGNAL [LCORES]]: lull with --pmd-resume-latency-us VALUE
# (EAL cores LCORES, -l 0,1 unless given); the file says WANT while it runs and
# what it said before once SIGNAL (TERM unless given; PIPE: SIGTERM with stdout
# a pipe whose reader is gone) stopped it
run() {
	local name=$1 value=$2 want=$3 sig=${4:-TERM} lcores=${5:--l 0,1} before now
	local out="$T_DIR/$name.log" reader=""
	if [ "$sig" = PIPE ]; then
		out="$T_DIR/$name.fifo"
		mkfifo "$out"
		cat "$out" >"$T_DIR/$name.log" 2>&1 &
		reader=$!
		T_PIDS+=("$reader")
	fi
	# shellcheck disable=SC2086 # LCORES is two words
	"$LULL" $lcores -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-$name" \
		--vdev net_null0 --vdev net_null1 -- --stats-period 0 --link-wait-ms 0 \
		--sleep-policy rate --pmd-resume-latency-us "$value" >"$out" 2>&1 </dev/null &
	local pid=$!
	T_PIDS+=("$pid")
	lull_ready "$name" "$pid"
	now=$(cat "$f")
	[ "$now" = "$want" ] || die "$name: $f is '$now' while lull runs, want '$want'"
	"$LULLCTL" -f "$T_ID-$name" config-show | grep -qx "pmd_resume_latency_us: $value" ||
		die "$name: config-show does not show it"
	if [ -n "$reader" ]; then
		sleep 0.5 # the start-up lines reach the log
		kill "$reader"
		wait "$reader" 2>/dev/null || true
		sig=TERM
	fi
	kill -"$sig" "$pid"
	STOP_RC=0
	for _ in $(seq 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	wait "$pid" || STOP_RC=$?
	[ "$STOP_RC" = 0 ] || die "$name: lull exited with $STOP_RC after SIG$sig"
	# what lull found (its log), put back: not the test's own earlier read, as
	# something else on the machine may write the file meanwhile (seen here)
	before=$(sed -n "s/.*CPU 1 resume latency .* us (was \(.*\))$/\1/p" "$T_DIR/$name.log" | head -n 1)
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
	run shared 20 20 TERM "--lcores 0@0,1@1,2@1"
	# lcore 2 runs on CPU 1: CPU 0 is neither written nor called a PMD's, and
	# CPU 1 is saved once
	! grep -q "CPU 0 resume latency\|PMD CPU 0" "$T_DIR/shared.log" &&
		[ "$(grep -c "CPU 1 resume latency" "$T_DIR/shared.log")" = 1 ] ||
		die "shared: $(grep "resume latency\|PMD CPU" "$T_DIR/shared.log")"
	run hup 20 20 HUP
	run quit 20 20 QUIT
	run pipe 20 20 PIPE
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
