#!/usr/bin/env bash
# Rx-interrupt hand-over on net_tap: after --intr-after-ms without a packet the
# PMD waits for an interrupt instead of sleeping. Its CPU drops well below the
# sleeping-only run's, and a packet sent after a long idle is still forwarded
# (ARP from the kernel side of tap 0 appears on tap 1).
. "$(dirname "$0")/lib.sh"
command -v tcpdump >/dev/null || die "tcpdump is missing (make deps)"

SECS=3

declare -A cpu
for mode in sleep intr; do
	ta="${T_ID}${mode:0:1}A" tb="${T_ID}${mode:0:1}B"
	extra=(--intr-after-ms 0)
	[ "$mode" = intr ] && extra=(--intr-after-ms 10)
	bg "lull-$mode" "$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-$mode" \
		--vdev "net_tap0,iface=$ta" --vdev "net_tap1,iface=$tb" \
		-- --stats-period 0 --link-wait-ms 2000 "${extra[@]}"
	pid=$BG_PID
	wait_log "lull-$mode" "port 1 \(net_tap1\)" 30
	tap_up "$ta" "$tb"
	sleep 1
	cpu[$mode]=$(pmd_cpu_pct "$pid" "$SECS")
	log "$mode: idle PMD thread ${cpu[$mode]} % CPU"
	if [ "$mode" = intr ]; then
		ip addr add 198.18.9.1/24 dev "$ta"
		tcpdump -i "$tb" -n -c 2 arp >"$T_DIR/td.log" 2>&1 &
		td=$!
		T_PIDS+=("$td")
		sleep 1
		ping -c 3 -W 1 -I "$ta" 198.18.9.2 >/dev/null 2>&1 || true # no one answers: ARP only
		for _ in $(seq 30); do kill -0 "$td" 2>/dev/null || break; sleep 0.1; done
		grep -q "ARP, Request who-has 198.18.9.2" "$T_DIR/td.log" ||
			die "ARP sent into tap 0 after idle did not come out of tap 1: $(cat "$T_DIR/td.log")"
		log "intr: ARP sent after idle was forwarded tap0 -> tap1"
	fi
	stop_wait "$pid" 20
	[ "$STOP_RC" = 0 ] || die "$mode: lull exited with $STOP_RC"
	grep -q "mbufs: all [0-9]* back in the pool" "$T_DIR/lull-$mode.log" || die "$mode: mbuf leak"
done
grep -q "rx interrupts on; waits [1-9]" "$T_DIR/lull-intr.log" ||
	die "interrupt waits not reported: $(grep 'pmd 0' "$T_DIR/lull-intr.log")"
grep -E "pmd 0: rx interrupts" "$T_DIR/lull-intr.log" | sed 's/^/    /'
# Interrupt waits take the idle PMD to about nothing: at most 1 % of a CPU
# (3 clock ticks in 3 s) and at most half of what sleeping alone used, so a
# one-tick difference between two near-zero runs cannot pass for a saving.
fcmp 's >= 2' s="${cpu[sleep]}" || log "note: sleeping alone already used only ${cpu[sleep]} %"
fcmp 'i <= 1 && i * 2 <= s' i="${cpu[intr]}" s="${cpu[sleep]}" ||
	die "interrupt mode used ${cpu[intr]} % (sleeping only: ${cpu[sleep]} %)"
log "PASS"
