#!/usr/bin/env bash
# A refused rx-interrupt registration (issue 28 item 4): an LD_PRELOAD shim
# makes rte_eth_dev_rx_intr_ctl_q refuse one queue with -EPERM. lull on two
# net_tap ports with --intr-after-ms 10 (one PMD, both queues):
#  first: the first queue refused, nothing to roll back;
#  second: the second refused, the first rolled back.
# Each time lull keeps forwarding by sleeping, names the refused queue, and
# stops cleanly with every mbuf back.
. "$(dirname "$0")/lib.sh"
SHIM=${SHIM_INTR_REFUSE:?set SHIM_INTR_REFUSE to the intr_refuse shim}

for nth in 1 2; do
	ta="${T_ID}${nth}A" tb="${T_ID}${nth}B"
	bg "lull-$nth" env LD_PRELOAD="$SHIM" LULL_SHIM_REFUSE_NTH=$nth "$LULL" -l 0,1 -m 256 \
		"${EAL_COMMON[@]}" --file-prefix="$T_ID-$nth" \
		--vdev "net_tap0,iface=$ta" --vdev "net_tap1,iface=$tb" \
		-- --stats-period 0 --link-wait-ms 2000 --intr-after-ms 10
	pid=$BG_PID
	wait_log "lull-$nth" "port 1 \(net_tap1\)" 30
	want=$((nth - 1)) # the refused queue: port nth-1, queue 0
	wait_log "lull-$nth" "rx queue $want:0 has no interrupt \(Operation not permitted\): sleeping only" 10
	tap_up "$ta" "$tb"
	sleep 1
	kill -0 "$pid" 2>/dev/null || die "refusal $nth: lull died: $(tail -n 5 "$T_DIR/lull-$nth.log")"
	stop_wait "$pid" 20
	[ "$STOP_RC" = 0 ] || die "refusal $nth: lull exited with $STOP_RC"
	grep -q "mbufs: all [0-9]* back in the pool" "$T_DIR/lull-$nth.log" ||
		die "refusal $nth: mbuf leak"
	log "refusal of registration $nth: named queue $want:0, slept, stopped cleanly"
done
log "PASS"
