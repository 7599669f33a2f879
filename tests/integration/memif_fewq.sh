#!/usr/bin/env bash
# A memif peer with fewer rx queues than lull's --rxq that sends on as many
# tx queues (issue 28 item 14): lull's tx queue past the peer's count has no
# ring behind it and loses all it is given. lull names the queue and the
# cause in its log, counts the queue in port-show (tx_queues_refusing) and
# /metrics, and counts the packets as tx-dropped. A peer with enough queues,
# on the same socket afterwards: no warning, the count back at 0, nothing
# lost. (A peer with as many tx as rx queues loses nothing: rx queue q of a
# port sends on tx queue q of its peer.)
. "$(dirname "$0")/lib.sh"
LULL_GEN=${LULL_GEN:?set LULL_GEN to the lull-gen binary}
LULLCTL=${LULLCTL:?set LULLCTL to the lullctl binary}
P="$T_ID-lull"
ctl() { "$LULLCTL" -f "$P" "$@"; }
refusing() {
	ctl --json port-show | python3 -c '
import json, sys
print(json.load(sys.stdin)[sys.argv[1]]["tx_queues_refusing"])' "port$1"
}

# two PMDs (lcores 1 and 2), two rx queues a port
bg lull "$LULL" --lcores 0@0,1@1,2@1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$P" \
	--vdev "$(memif_vdev 0 server "$T_DIR/s0.sock")" \
	--vdev "$(memif_vdev 1 server "$T_DIR/s1.sock")" \
	-- --stats-period 0 --link-wait-ms 30000 --rxq 2
lull_pid=$BG_PID
lull_ready lull "$lull_pid"

# a peer that sends on two tx queues and reads one rx queue: what lull's rx
# queue 0:1 takes, tx queue 1 of port 1 loses
gen_bg gen1 0 "$T_DIR/s0.sock" "$T_DIR/s1.sock" --txq 2 --rxq 1 \
	--profile rate:5k:3s --progress-ms 0 --drain-ms 300 --json "$T_DIR/g1.json"
gpid=$BG_PID
wait_log lull "port 1 \\(net_memif1\\): tx queue 1 refused" 20 ||
	die "no word of the refusing tx queue: $(grep -i 'tx queue' "$T_DIR/lull.log" | head -n 3)"
log "$(grep -m 1 "tx queue 1 refused" "$T_DIR/lull.log" | sed 's/^lull: //')"
[ "$(refusing 1)" = 1 ] || die "port-show: port 1 tx_queues_refusing $(refusing 1), not 1"
[ "$(refusing 0)" = 0 ] || die "port-show: port 0 tx_queues_refusing $(refusing 0), not 0"
ctl port-show | grep -q "^port 1: 1 tx queue(s) refuse every packet" ||
	die "port-show: $(ctl port-show)"
ctl metrics | grep -q '^lull_port_tx_queues_refusing{[^}]*port="net_memif1"[^}]*} 1$' ||
	die "metrics: $(ctl metrics | grep tx_queues_refusing)"
wait "$gpid" || die "lull-gen failed: $(tail -n 3 "$T_DIR/gen1.log")"
dropped=$(ctl --json port-show | python3 -c 'import json, sys; print(json.load(sys.stdin)["port1"]["tx_dropped"])')
sent=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["phases"][0]["sent"])' "$T_DIR/g1.json")
[ "$dropped" -gt 0 ] && [ "$dropped" -le "$sent" ] || die "tx_dropped $dropped of $sent sent"
log "one rx queue at the peer: $dropped of $sent packets dropped on tx queue 1, counted"
[ "$dropped" -lt "$sent" ] || die "tx queue 0 sent nothing either"

# the peer back with two rx queues: the queue sends again, no new warning
wait_log lull "link down" 20 2 || die "the links did not go down"
n_warn=$(grep -c "tx queue [0-9]* refused" "$T_DIR/lull.log")
gen_bg gen2 0 "$T_DIR/s0.sock" "$T_DIR/s1.sock" --txq 2 --rxq 2 \
	--profile rate:5k:3s --progress-ms 0 --drain-ms 300 --json "$T_DIR/g2.json"
gpid=$BG_PID
wait "$gpid" || die "lull-gen failed: $(tail -n 3 "$T_DIR/gen2.log")"
python3 - "$T_DIR/g2.json" <<'PY' || die "loss with a peer of two rx queues"
import json, sys
p = json.load(open(sys.argv[1]))["phases"][0]
assert p["sent"] > 0 and p["received"] == p["sent"], p
PY
[ "$(grep -c "tx queue [0-9]* refused" "$T_DIR/lull.log")" = "$n_warn" ] || die "a warning with enough queues"
[ "$(refusing 1)" = 0 ] || die "port 1 tx_queues_refusing $(refusing 1) after the peer came back"
log "two rx queues at the peer: nothing lost, no warning, tx_queues_refusing 0"

stop_wait "$lull_pid" 20
[ "$STOP_RC" = 0 ] || die "lull exited with $STOP_RC"
grep -q "mbufs: all [0-9]* back in the pool" "$T_DIR/lull.log" || die "mbuf leak"
log "PASS"
