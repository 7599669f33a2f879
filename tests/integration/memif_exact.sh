#!/usr/bin/env bash
# lull between two memif ports, dpdk-testpmd as the traffic source and sink:
# after a drain, sent = received by lull = forwarded = received back, exactly,
# no drop, every mbuf back in lull's pool, exit code 0. Runs each fwd mode.
. "$(dirname "$0")/lib.sh"

run_mode() {
	local mode=$1 sa="$T_DIR/a-$mode.sock" sb="$T_DIR/b-$mode.sock" fifo="$T_DIR/cmd-$mode"
	local lull_pid tp_pid

	bg "lull-$mode" "$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-l-$mode" \
		--vdev "$(memif_vdev 0 server "$sa")" --vdev "$(memif_vdev 1 server "$sb")" \
		-- --fwd-mode "$mode" --stats-period 0 --link-wait-ms 30000
	lull_pid=$BG_PID
	wait_log "lull-$mode" "forwarding in $mode mode" 30

	mkfifo "$fifo"
	exec 9<>"$fifo" # read-write: opening it does not block, and testpmd's stdin stays open
	BG_STDIN=$fifo bg "testpmd-$mode" stdbuf -oL "$TESTPMD" -l 1,0 --main-lcore 1 -m 512 "${EAL_COMMON[@]}" \
		--file-prefix="$T_ID-t-$mode" \
		--vdev "$(memif_vdev 0 client "$sa")" --vdev "$(memif_vdev 1 client "$sb")" \
		-- -i --nb-cores=1 --total-num-mbufs=16384
	tp_pid=$BG_PID
	# lull prints the link states once both are up (or after --link-wait-ms).
	wait_log "lull-$mode" "port 1 \(net_memif1\).*Link up" 40
	grep -q "port 0 (net_memif0).*Link up" "$T_DIR/lull-$mode.log" || die "port 0 link down"

	echo "set fwd rxonly" >&9
	echo "start tx_first 50" >&9
	sleep 3 # drain: 3200 packets take well under a millisecond at memif speed
	echo "stop" >&9
	wait_log "testpmd-$mode" "Accumulated forward statistics" 20
	echo "quit" >&9
	exec 9>&-
	for _ in $(seq 100); do kill -0 "$tp_pid" 2>/dev/null || break; sleep 0.1; done

	stop_wait "$lull_pid" 20
	[ "$STOP_RC" = 0 ] || die "$mode: lull exited with $STOP_RC"

	local sent recv lrx ltx ldrop lmiss
	sent=$(testpmd_total "$T_DIR/testpmd-$mode.log" TX)
	recv=$(testpmd_total "$T_DIR/testpmd-$mode.log" RX)
	lrx=$(lull_total "$T_DIR/lull-$mode.log" 5)
	ltx=$(lull_total "$T_DIR/lull-$mode.log" 6)
	lmiss=$(lull_total "$T_DIR/lull-$mode.log" 7)
	ldrop=$(lull_total "$T_DIR/lull-$mode.log" 8)
	log "$mode: testpmd sent $sent, lull rx $lrx tx $ltx missed $lmiss dropped $ldrop, testpmd received $recv"
	[ -n "$sent" ] && [ "$sent" -gt 0 ] || die "$mode: testpmd sent nothing"
	[ "$sent" = "$lrx" ] || die "$mode: sent $sent != lull rx $lrx"
	[ "$lrx" = "$ltx" ] || die "$mode: lull rx $lrx != lull tx $ltx"
	[ "$ltx" = "$recv" ] || die "$mode: lull tx $ltx != received back $recv"
	[ "$ldrop" = 0 ] && [ "$lmiss" = 0 ] || die "$mode: drops or misses"
	grep -q "mbufs: all [0-9]* back in the pool" "$T_DIR/lull-$mode.log" || die "$mode: mbuf leak"
}

for mode in io mac macswap; do
	run_mode "$mode"
done
log "PASS"
