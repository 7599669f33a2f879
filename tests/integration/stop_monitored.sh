#!/usr/bin/env bash
# Stopping lull while it is monitored (issue 16, item 1): lull forwards at full
# load between two net_null ports while three clients fire every read-only
# telemetry command at it (over DPDK's telemetry socket, as fast as replies
# come), and it gets SIGINT. Each round: lull exits 0, with every mbuf back;
# every reply was valid JSON (a show, or "lull is stopping"); no sanitizer
# report (this test also runs in the ASan/UBSan build). Before the fix lull
# read freed PMDs and crashed 10 times out of 10.
. "$(dirname "$0")/lib.sh"
ROUNDS=${STOP_MON_ROUNDS:-10}

for r in $(seq "$ROUNDS"); do
	bg "lull$r" "$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-$r" \
		--vdev net_null0 --vdev net_null1 -- --stats-period 0 --link-wait-ms 0
	pid=$BG_PID
	lull_ready "$r" "$pid"
	sock=/var/run/dpdk/$T_ID-$r/dpdk_telemetry.v2
	hammer_bg "$sock" "$r-0" /lull/pmd_perf /lull/pmd_rxq
	hammer_bg "$sock" "$r-1" /lull/ports /lull/pmd_sleep
	hammer_bg "$sock" "$r-2" /lull/config /lull/pmd_perf,1 /lull/stats_clear
	# every client is in, then a random moment
	hammers_ready
	sleep 0.$((RANDOM % 5 + 3))
	stop_wait "$pid" 20
	[ "$STOP_RC" = 0 ] || die "round $r: lull exited with $STOP_RC while monitored"
	hammers_wait
	grep -q "mbufs: all [0-9]* back in the pool" "$T_DIR/lull$r.log" || die "round $r: mbuf leak"
	! grep -qE "AddressSanitizer|runtime error|LeakSanitizer" "$T_DIR/lull$r.log" ||
		die "round $r: sanitizer report"
	log "round $r: $(cat "$T_DIR"/h$r-*.out | tr '\n' ';')"
done
log "PASS"
