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
hammer="$(dirname "$0")/../../scripts/lib/tel_hammer.py"

for r in $(seq "$ROUNDS"); do
	bg "lull$r" "$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-$r" \
		--vdev net_null0 --vdev net_null1 -- --stats-period 0 --link-wait-ms 0
	pid=$BG_PID
	lull_ready "$r" "$pid"
	sock=/var/run/dpdk/$T_ID-$r/dpdk_telemetry.v2
	hpids=()
	for set in "/lull/pmd_perf /lull/pmd_rxq" "/lull/ports /lull/pmd_sleep" \
		"/lull/config /lull/pmd_perf,1 /lull/stats_clear"; do
		# shellcheck disable=SC2086
		python3 "$hammer" --ready "$T_DIR/h$r-${#hpids[@]}.ready" "$sock" 30 $set \
			>"$T_DIR/h$r-${#hpids[@]}.out" 2>&1 &
		hpids+=($!)
		T_PIDS+=($!)
	done
	# every client is in (a loaded machine starts python slowly: a client that
	# came after lull was gone would test nothing), then a random moment
	for _ in $(seq 100); do
		[ "$(ls "$T_DIR"/h$r-*.ready 2>/dev/null | wc -l)" = 3 ] && break
		sleep 0.1
	done
	[ "$(ls "$T_DIR"/h$r-*.ready 2>/dev/null | wc -l)" = 3 ] || die "round $r: the clients did not connect in 10 s"
	sleep 0.$((RANDOM % 5 + 3))
	stop_wait "$pid" 20
	[ "$STOP_RC" = 0 ] || die "round $r: lull exited with $STOP_RC while monitored"
	for h in "${!hpids[@]}"; do
		wait "${hpids[$h]}" || die "round $r: client $h: $(cat "$T_DIR/h$r-$h.out")"
	done
	grep -q "mbufs: all [0-9]* back in the pool" "$T_DIR/lull$r.log" || die "round $r: mbuf leak"
	! grep -qE "AddressSanitizer|runtime error|LeakSanitizer" "$T_DIR/lull$r.log" ||
		die "round $r: sanitizer report"
	log "round $r: $(cat "$T_DIR"/h$r-*.out | tr '\n' ';')"
done
log "PASS"
