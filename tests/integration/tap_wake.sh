#!/usr/bin/env bash
# Rx-interrupt waits lose no wake-up (issue 20): UDP from namespace A to B
# through lull on two net_tap ports (each tap bridged to a veth), with the PMD
# waiting for rx interrupts after 1 ms idle and each interrupt wait bounded at
# 5 s, so that a lost wake-up would show as the next packet's gap (200 ms at 5
# pps, 20 ms at 50 pps) or seconds, not hidden by a 100 ms bound. 300 packets
# at 5 pps and 1000 at 50 pps: none takes 100 ms (bar one stall the sender
# shared: the machine's, see phase), at most 1 % take over 15 ms
# (this PVM host stalls a vCPU for 10-30 ms now and then, whatever forwards:
# a single 10 ms limit failed bf78747 as well), and lull's counters show that
# its waits ended by interrupts, not by the bound.
. "$(dirname "$0")/lib.sh"
LULLCTL=${LULLCTL:?set LULLCTL to the lullctl binary}
udp="$(dirname "$0")/../../scripts/lib/udp_latency.py"
LIMIT_US=100000 # any datagram: a lost wake-up at 5 pps takes 200 ms
SLOW_US=15000   # at most 1 % of them: one at 50 pps takes 20 ms

h_tap_namespaces
bg lull "$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-l" \
	--vdev "net_tap0,iface=$TAP_A" --vdev "net_tap1,iface=$TAP_B" \
	-- --stats-period 0 --link-wait-ms 2000 --intr-after-ms 1 --intr-wait-max-ms 5000
lull_pid=$BG_PID
lull_ready l "$lull_pid"
h_tap_join
sleep 1

# intr COUNTER: a PMD counter of lull (intr_waits, intr_wakes, intr_empty_wakes)
intr() {
	"$LULLCTL" -f "$T_ID-l" --json pmd-perf-show |
		python3 -c 'import json, sys; print(sum(p[sys.argv[1]] for p in json.load(sys.stdin).values()))' "$1"
}

# phase COUNT RATE: COUNT datagrams A -> B at RATE; all under LIMIT_US, no timeout
phase() {
	local n=$1 rate=$2 out="$T_DIR/lat-$1-$2.txt" w0 k0 w1 k1 e1 worst slow
	ip netns exec "$NS_B" python3 "$udp" recv 9000 "$n" 20 "$out" &
	local rpid=$!
	T_PIDS+=("$rpid")
	for _ in $(seq 50); do grep -qs ready "$out" && break; sleep 0.1; done
	w0=$(intr intr_waits) k0=$(intr intr_wakes)
	ip netns exec "$NS_A" python3 "$udp" send 198.18.0.2 9000 "$n" "$rate"
	wait "$rpid" || true
	w1=$(intr intr_waits) k1=$(intr intr_wakes) e1=$(intr intr_empty_wakes)
	log "$n at $rate pps: $(python3 "$udp" summary "$out" "$n"); interrupt waits $((w1 - w0)), woken $((k1 - k0)), timed out $((w1 - w0 - k1 + k0)); empty wakes so far $e1"
	[ "$(grep -c '^[0-9]' "$out")" = "$n" ] || die "$n at $rate pps: lost $((n - $(grep -c '^[0-9]' "$out")))"
	# over LIMIT_US: a lost wake-up, unless the sender stalled with it - the
	# next datagram left at least half that long after it, which a wake-up
	# lull lost cannot do to a process in another namespace: the machine
	# stopped (CI once saw 155 ms so, every interrupt wait woken); one a phase
	awk -v l="$LIMIT_US" '/^[0-9]/ {lat[$1] = $2; tx[$1] = $3}
		END {for (k in lat) if (lat[k] > l) {
			gap = ((k + 1) in tx) ? tx[k + 1] - tx[k] : 0
			print (gap >= lat[k] / 2 ? "shared" : "lost"), k, int(lat[k]), gap }}' "$out" >"$out.late"
	while read -r kind k lat gap; do
		log "$n at $rate pps: datagram $k took $lat us; the next left $gap us after it ($kind)"
	done <"$out.late"
	worst=$(awk '$1 == "lost" {if ($3 > m) m = $3} END {print m + 0}' "$out.late")
	[ "$worst" = 0 ] || die "$n at $rate pps: a datagram took $worst us (a lost wake-up)"
	[ "$(grep -c '^shared' "$out.late")" -le 1 ] ||
		die "$n at $rate pps: $(grep -c '^shared' "$out.late") machine stalls over $LIMIT_US us: too slow to judge"
	slow=$(awk -v l="$SLOW_US" '/^[0-9]/ && $2 > l {k++} END {print k + 0}' "$out")
	[ $((slow * 100)) -le "$n" ] || die "$n at $rate pps: $slow datagrams over $SLOW_US us (lost wake-ups)"
	[ $((w1 - w0 - k1 + k0)) -eq 0 ] || die "$n at $rate pps: $((w1 - w0 - k1 + k0)) interrupt waits ended by the bound"
	[ $((k1 - k0)) -ge $((n / 2)) ] || die "$n at $rate pps: only $((k1 - k0)) interrupt wakes for $n datagrams"
}

phase "${TAP_WAKE_SLOW:-300}" 5
phase "${TAP_WAKE_FAST:-1000}" 50
stop_wait "$lull_pid" 20
[ "$STOP_RC" = 0 ] || die "lull exited with $STOP_RC"
grep -q "mbufs: all [0-9]* back in the pool" "$T_DIR/lull.log" || die "mbuf leak"
log "PASS"
