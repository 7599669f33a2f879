#!/usr/bin/env bash
# An idle lull (two memif ports, no traffic) with a sleep policy uses clearly
# less CPU than busy polling, and its sleep statistics count the sleeps.
# CPU is the PMD thread's own (pmd_cpu_pct: schedstat's ns),
# compared within one run: rate and ovs must each use under half of off's.
. "$(dirname "$0")/lib.sh"

SECS=3

declare -A cpu
for policy in off ovs rate; do
	bg "lull-$policy" "$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-$policy" \
		--vdev "$(memif_vdev 0 server "$T_DIR/a-$policy.sock")" \
		--vdev "$(memif_vdev 1 server "$T_DIR/b-$policy.sock")" \
		-- --sleep-policy "$policy" --stats-period 0 --link-wait-ms 0
	pid=$BG_PID
	lull_ready "$policy" "$pid"
	sleep 0.5
	cpu[$policy]=$(pmd_cpu_pct "$pid" "$SECS")
	stop_wait "$pid" 20
	[ "$STOP_RC" = 0 ] || die "$policy: lull exited with $STOP_RC"
	# final PMD row: ... sleeps (col 10)
	sleeps=$(awk '/^lull final stats/ {f = 1} f && /^ +pmd / {p = 1; next} f && p {print $10; exit}' \
		"$T_DIR/lull-$policy.log")
	log "$policy: PMD thread ${cpu[$policy]} % CPU, $sleeps sleeps"
	if [ "$policy" = off ]; then
		[ "$sleeps" = 0 ] || die "off: $sleeps sleeps"
	else
		[ "$sleeps" -gt 100 ] || die "$policy: only $sleeps sleeps while idle"
	fi
done
fcmp 'off >= 50' off="${cpu[off]}" || die "busy polling used only ${cpu[off]} % (is the PMD running?)"
for policy in ovs rate; do
	fcmp 'p * 2 < off' p="${cpu[$policy]}" off="${cpu[off]}" ||
		die "$policy used ${cpu[$policy]} %, not under half of busy polling's ${cpu[off]} %"
done
log "PASS"
