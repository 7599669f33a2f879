#!/usr/bin/env bash
# lull between two memif ports, dpdk-testpmd as the traffic source and sink:
# after a drain, sent = received by lull = forwarded = received back, exactly,
# no drop, every mbuf back in lull's pool, exit code 0. Runs each fwd mode.
. "$(dirname "$0")/lib.sh"

run_mode() {
	local mode=$1 sa="$T_DIR/a-$mode.sock" sb="$T_DIR/b-$mode.sock" fifo="$T_DIR/cmd-$mode"
	local lull_pid tp_pid

	lull_memif_bg "lull-$mode" "$sa" "$sb" --fwd-mode "$mode" --stats-period 0
	lull_pid=$BG_PID

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

	# testpmd receives nothing while it sends its tx_first bursts, so one cycle
	# stays within the 1024-slot memif ring back to it: 30 bursts of 32 per port.
	echo "set fwd rxonly" >&9
	echo "set verbose 1" >&9
	for cycle in 1 2 3; do
		echo "start tx_first 30" >&9
		sleep 1 # drain: 1920 packets take well under a millisecond at memif speed
		echo "stop" >&9
		wait_log "testpmd-$mode" "Accumulated forward statistics" 20 "$cycle"
	done
	# Stop lull while testpmd is connected but idle: DPDK 22.11's net_memif can
	# crash a process that polls a port whose peer is disconnecting.
	stop_wait "$lull_pid" 20
	[ "$STOP_RC" = 0 ] || die "$mode: lull exited with $STOP_RC"
	echo "quit" >&9
	exec 9>&-
	for _ in $(seq 100); do kill -0 "$tp_pid" 2>/dev/null || break; sleep 0.1; done

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
	check_macs "$mode" "$recv"
}

# check_macs MODE RECEIVED: every frame testpmd received (verbose lines) has the
# MACs the mode promises. testpmd sends src = its port's MAC, dst = 02:00:00:00:00:0P.
check_macs() {
	local mode=$1 recv=$2 tp_macs lull_macs peer="02:00:00:00:00:0[01]" src dst ok
	tp_macs=$(awk '/^Port [01]: / {printf "%s%s", sep, $3; sep = "|"}' "$T_DIR/testpmd-$mode.log")
	lull_macs=$(sed -n 's/^lull: port [01] (net_memif[01]) \([0-9A-F:]*\):.*/\1/p' \
		"$T_DIR/lull-$mode.log" | paste -sd'|')
	case $mode in
	io) src="$tp_macs" dst="$peer" ;;
	mac) src="$lull_macs" dst="$peer" ;;
	macswap) src="$peer" dst="$tp_macs" ;;
	esac
	# (not anchored: the testpmd> prompt can land in front of a verbose line)
	ok=$(grep -Ec "src=($src) - dst=($dst) - " "$T_DIR/testpmd-$mode.log" || true)
	[ "$ok" = "$recv" ] ||
		die "$mode: $ok of $recv received frames have src ($src) and dst ($dst)"
}

for mode in io mac macswap; do
	run_mode "$mode"
done
log "PASS"
