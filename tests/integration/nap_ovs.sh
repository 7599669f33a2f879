#!/usr/bin/env bash
# lull inside Debian's own OVS-DPDK (ovs-vswitchd-dpdk), unmodified:
# LD_PRELOAD=lullnap-preload.so, OVS's own sleeping off (pmd-maxsleep=0).
# The test starts its own ovsdb-server and ovs-vswitchd (run directory in the
# test's, no hugepages), a userspace bridge with two memif ports, flows 1<->2,
# and two PMD threads (CPUs 0 and 1), then:
#  1. idle: each PMD uses under half the CPU of plain OVS's busy PMD (measured
#     in the same run); lull says it bounded every wait below OVS's RCU
#     quiesce interval; `lullctl pmd-perf-show` reads lull's counters from
#     OVS's telemetry socket;
#  2. lull-gen at 10 kpps through OVS while p1's rx queue moves from one PMD
#     thread to the other (pmd-rxq-affinity) and back (pmd-rxq-rebalance):
#     nothing lost, and both threads slept;
#  3. a port stop/configure/start (n_rxq_desc) re-attaches: traffic after it
#     (steady and bursts) loses nothing, and the mempool's in-use count is
#     where it was before;
#  4. OVS's own sleeping turned on beside lull: lull says both are on;
#  5. `ovs-appctl exit` ends ovs-vswitchd cleanly, with no warning from OVS
#     that a PMD did not quiesce;
#  6. vhost-user: what OVS dequeues from a vhost port (lull-gen's virtio-user)
#     counts in the PMD thread's rounds; nothing lost;
#  7. on two net_tap ports (ping from one namespace to another across OVS):
#     lull configures the taps' rx interrupts itself, the idle PMD uses under
#     5 % of a core, and lull's counters show the interrupt waits and wakes;
#     a `lullctl set` is taken by the idle PMD after its next wait.
. "$(dirname "$0")/lib.sh"
# shellcheck source=../../scripts/lib/ovs.sh
. "$(dirname "$0")/../../scripts/lib/ovs.sh"
nap_preload
[ -x "$OVS_VSWITCHD" ] || die "$OVS_VSWITCHD not found (Debian package openvswitch-switch-dpdk)"

# gen NAME PROFILE: lull-gen through the bridge (lcore 0, memif clients; three rx
# queues: OVS sends on a tx queue per thread, two PMDs and main); result in $T_DIR/NAME.json
gen() {
	"$LULL_GEN" -l 0 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-$1" \
		--vdev "$(h_memif 0 client a)" --vdev "$(h_memif 1 client b)" \
		-- --rxq 3 --profile "$2" --json "$T_DIR/$1.json" >"$T_DIR/$1.log" 2>&1
}

# lossless NAME: every phase of lull-gen's run NAME got back all it sent
lossless() {
	python3 - "$T_DIR/$1.json" <<'PY'
import json, sys
for p in json.load(open(sys.argv[1]))["phases"]:
    if p["sent"] == 0:
        continue
    assert p["received"] == p["sent"] and p["lost"] == 0, f"{p['profile']}: {p}"
    print(f"{p['profile']}: {p['sent']} sent = received, p50/p99 "
          f"{p['lat_us']['p50']:.0f}/{p['lat_us']['p99']:.0f} us")
PY
}

in_use() {
	ovs_appctl netdev-dpdk/get-mempool-info p1 | sed -n 's/.*in use (\([0-9]*\)).*/\1/p'
}

# the PMD core (0 or 1) polling p1, from pmd-rxq-show
p1_core() {
	ovs_appctl dpif-netdev/pmd-rxq-show |
		awk '/^pmd thread/ {c = $NF; sub(":", "", c)} /port: p1 / {print c}'
}

# OVS's netdev datapath makes tap devices (br0, ovs-netdev) that outlive it
# unless it exits with --cleanup (ovs_stop): none may be left behind
dp_taps() { ip -o link show | grep -c -E ": (br0|ovs-netdev)[:@]" || true; }
had_taps=$(dp_taps)

# 1. plain OVS's busy PMD, for the idle comparison
ovs_start plain "" || die "plain ovs-vswitchd did not start"
ovs_bridge "$(h_memif 0 server pa)" "$(h_memif 1 server pb)" || die "plain bridge"
sleep 1
plain=$(pmd_cpu_pct "$OVS_PID" 3 "pmd*")
ovs_stop || die "plain ovs-vswitchd did not exit on ovs-appctl exit"

ovs_start lull "$PRELOAD" pmd-cpu-mask=0x3 pmd-maxsleep=0 || die "ovs-vswitchd with lull did not start"
grep -q "lull: inside ovs-vswitchd.*bounded at 9000 us" "$T_DIR/lull.log" ||
	die "no word from lull on OVS's RCU bound: $(cat "$T_DIR/lull.log")"
ovs_bridge "$(h_memif 0 server a)" "$(h_memif 1 server b)" || die "bridge with lull"
sleep 1
declare -a idle=()
for t in $(h_thread_tids "$OVS_PID" "pmd*"); do
	idle+=("$(cat "/proc/$OVS_PID/task/$t/comm")")
done
[ "${#idle[@]}" -eq 2 ] || die "want two PMD threads, have: ${idle[*]}"
for name in "${idle[@]}"; do
	pct=$(pmd_cpu_pct "$OVS_PID" 3 "$name")
	log "idle PMD $name: $pct % with lull, plain OVS's busy PMD $plain %"
	fcmp 'p >= 50 && l < p / 2' p="$plain" l="$pct" ||
		die "idle PMD $name: lull $pct % is not under half of plain OVS's $plain %"
done
"$LULLCTL" -f "$OVS_PREFIX" pmd-perf-show >"$T_DIR/perf.txt" ||
	die "lullctl pmd-perf-show against OVS: $(cat "$T_DIR/perf.txt")"
[ "$(grep -Ec "^ +Sleeps: +[1-9]" "$T_DIR/perf.txt")" -eq 2 ] ||
	die "pmd-perf-show against OVS: not two threads with sleeps: $(cat "$T_DIR/perf.txt")"
# where the kernel runs each PMD (OVS pins it): pmd-sleep-show names its CPU,
# and the log said once that it is shared, where no isolated list keeps it
"$LULLCTL" -f "$OVS_PREFIX" pmd-sleep-show >"$T_DIR/sleep.txt" ||
	die "lullctl pmd-sleep-show against OVS: $(cat "$T_DIR/sleep.txt")"
for t in $(h_thread_tids "$OVS_PID" "pmd*"); do
	c=$(awk '/^Cpus_allowed_list:/ {print $2}' "/proc/$OVS_PID/task/$t/status")
	grep -q "^  cpu $c (may run on $c): " "$T_DIR/sleep.txt" ||
		die "pmd-sleep-show against OVS: no PMD on CPU $c: $(grep '^  cpu' "$T_DIR/sleep.txt")"
	n=$(grep -c "lull: thread $t may run on CPU $c, which" "$T_DIR/lull.log" || true)
	if h_cpu_isolated "$c"; then want=0; else want=1; fi
	[ "$n" = "$want" ] || die "PMD $t on CPU $c: the log said it is shared $n times, want $want"
done
log "PMD CPUs: $(grep '^  cpu' "$T_DIR/sleep.txt" | cut -d';' -f1 | tr -s ' ' | tr '\n' ';')"

# 2. 10 kpps while p1 moves to the other PMD thread and back
before=$(in_use)
[ -n "$before" ] || die "no mempool in-use count: $(ovs_appctl netdev-dpdk/get-mempool-info p1 | tail -3)"
from=$(p1_core)
gen move "idle:500ms,rate:10k:6s" &
gpid=$!
sleep 2
ovs_vsctl set Interface p1 "other_config:pmd-rxq-affinity=0:$((1 - from))"
sleep 1.5
to=$(p1_core)
ovs_vsctl remove Interface p1 other_config pmd-rxq-affinity
ovs_appctl dpif-netdev/pmd-rxq-rebalance >/dev/null
wait "$gpid" || die "lull-gen (moves) failed: $(tail -n 5 "$T_DIR/move.log")"
[ "$to" = $((1 - from)) ] || die "p1 did not move from PMD core $from (now $to)"
log "p1 moved from PMD core $from to $to, then rebalanced, at 10 kpps:"
lossless move || die "packets lost while p1 moved between PMD threads"

# 3. a port stop/configure/start, then traffic again
n=$(grep -c "Port 0:\|Port 1:" "$OVS_DIR/vswitchd.log")
ovs_vsctl set Interface p1 options:n_rxq_desc=1024
for _ in $(seq 100); do
	[ "$(grep -c "Port 0:\|Port 1:" "$OVS_DIR/vswitchd.log")" -gt "$n" ] && break
	sleep 0.1
done
[ "$(grep -c "Port 0:\|Port 1:" "$OVS_DIR/vswitchd.log")" -gt "$n" ] ||
	die "p1 was not reconfigured"
sleep 1
gen after "idle:300ms,rate:10k:2s,idle:300ms,burst:500/50ms:1s" ||
	die "lull-gen (after the restart) failed: $(tail -n 5 "$T_DIR/after.log")"
log "after p1's stop/configure/start:"
lossless after || die "packets lost after p1's restart"
sleep 0.5
after=$(in_use)
log "mempool in use: $before before, $after after"
[ "$after" = "$before" ] || die "mempool in use $before before, $after after"
"$LULLCTL" -f "$OVS_PREFIX" --json raw /lull/nap >"$T_DIR/nap.json" || die "/lull/nap after traffic"
python3 - "$T_DIR/nap.json" <<'PY' || die "/lull/nap: $(cat "$T_DIR/nap.json")"
import json, sys
d = json.load(open(sys.argv[1]))
ts = [d[f"thread{i}"] for i in range(d["threads"])]
moved = [t for t in ts if t["busy_iterations"] > 0 and t["sleeps"] > 0]
# p1 was polled by both threads in turn: both forwarded and both slept
assert len(moved) == 2, ts
for t in moved:
    print(f"PMD on CPU {t['cpu']}: {t['sleeps']} sleeps, {t['busy_iterations']} busy rounds")
PY

# 4. OVS's own sleeping beside lull's
ovs_vsctl set Open_vSwitch . other_config:pmd-maxsleep=250
wait_log lull "lull: a thread lull sleeps on also sleeps on its own" 10
ovs_vsctl set Open_vSwitch . other_config:pmd-maxsleep=0

# 5. clean exit
ovs_stop || die "ovs-vswitchd with lull did not exit on ovs-appctl exit"
[ "$H_RC" -eq 0 ] || die "ovs-vswitchd exited with $H_RC"
! grep -q "waiting for pmd.* to quiesce" "$OVS_DIR/vswitchd.log" ||
	die "OVS: $(grep "waiting for pmd.* to quiesce" "$OVS_DIR/vswitchd.log" | head -n 2)"
# each lull-gen that left took its memif connection with it: OVS's memif
# teardowns waited for the PMD threads' rounds, none in vain (nap/teardown.h)
tg=$(grep -o "driver teardowns that waited for the polling threads: .*" "$T_DIR/lull.log") ||
	die "no driver teardown in OVS waited for the PMD threads: $(tail -n 3 "$T_DIR/lull.log")"
echo "$tg" | grep -q ", 0 gave up" || die "in OVS, a teardown gave up waiting: $tg"
log "$tg"

# 6. vhost-user: lull-gen's virtio-user port sends to OVS's vhost port, which
# OVS's PMD polls with rte_vhost_dequeue_burst (no rx callback sees it), and
# receives on memif. The thread's rounds must count those packets.
ovs_start vhost "$PRELOAD" pmd-maxsleep=0 || die "ovs-vswitchd with lull (vhost) did not start"
ovs_vsctl add-br br0 -- set bridge br0 datapath_type=netdev \
	-- add-port br0 p1 -- set Interface p1 type=dpdk \
	"options:dpdk-devargs=$(h_memif 0 server va)" ofport_request=1 \
	-- add-port br0 p2 -- set Interface p2 type=dpdkvhostuserclient \
	"options:vhost-server-path=$T_DIR/vh.sock" ofport_request=2 || die "vhost bridge"
ovs_ofctl add-flow br0 in_port=1,actions=output:2 && ovs_ofctl add-flow br0 in_port=2,actions=output:1 ||
	die "vhost flows"
"$LULL_GEN" -l 0 -m 512 "${EAL_COMMON[@]}" --file-prefix="$T_ID-vg" \
	--vdev "$(h_memif 0 client va)" --vdev "net_virtio_user0,path=$T_DIR/vh.sock,server=1,queues=2" \
	-- --rxq 2 --tx-port 1 --rx-port 0 --profile "idle:2s,rate:10k:2s,idle:300ms,burst:500/50ms:1s" \
	--json "$T_DIR/vhost.json" >"$T_DIR/vhost.log" 2>&1 ||
	die "lull-gen over vhost-user failed: $(tail -n 5 "$T_DIR/vhost.log")"
log "virtio-user -> OVS vhost -> memif, lull attached:"
lossless vhost || die "packets lost over vhost-user"
"$LULLCTL" -f "$OVS_PREFIX" --json raw /lull/nap >"$T_DIR/nap-vh.json" || die "/lull/nap (vhost)"
python3 - "$T_DIR/nap-vh.json" <<'PY' || die "/lull/nap (vhost): $(cat "$T_DIR/nap-vh.json")"
import json, sys
d = json.load(open(sys.argv[1]))
t = max((d[f"thread{i}"] for i in range(d["threads"])), key=lambda t: t["iterations"])
# the ethdev queue (memif p1) received nothing: only the vhost source had packets
assert t["busy_iterations"] > 0 and t["sleeps"] > 0, t
print(f"PMD polling vhost: {t['busy_iterations']} busy rounds, {t['sleeps']} sleeps")
PY
ovs_stop || die "ovs-vswitchd with lull (vhost) did not exit on ovs-appctl exit"

# 7. net_tap: lull asks for rx interrupts at configure time and waits for
# them; ping from namespace A to B crosses OVS (tap - bridge - veth)
h_tap_namespaces
ovs_start tap "$PRELOAD" pmd-maxsleep=0 || die "ovs-vswitchd with lull (tap) did not start"
# net_tap wants as many rx queues as OVS has tx queues (PMD + main)
ovs_bridge "net_tap0,iface=$TAP_A" "net_tap1,iface=$TAP_B" options:n_rxq=2 ||
	die "bridge of two net_tap ports"
h_tap_join
sleep 1.5
pct=$(pmd_cpu_pct "$OVS_PID" 3 "pmd*")
log "idle PMD on net_tap with lull: $pct % (plain OVS's busy PMD: $plain %)"
fcmp 'l < 5' l="$pct" || die "idle PMD on net_tap: $pct %, not under 5 %"
ip netns exec "$NS_A" ping -c 20 -i 0.05 -W 1 198.18.0.2 >"$T_DIR/ping.txt" ||
	die "ping across OVS with lull: $(tail -n 3 "$T_DIR/ping.txt")"
log "$(grep -E "transmitted|rtt" "$T_DIR/ping.txt" | tr '\n' ' ')"
# a wake-up lost (a packet the wait did not see) waits for the 9 ms bound
rtt=$(median_of "$(sed -n 's/.* time=\([0-9.]*\) ms/\1/p' "$T_DIR/ping.txt" | tr '\n' ' ')")
fcmp 'r < 4.5' r="$rtt" || die "ping across OVS with lull on net_tap: median RTT $rtt ms (lost wake-ups?)"
"$LULLCTL" -f "$OVS_PREFIX" --json raw /lull/nap >"$T_DIR/nap-tap.json" || die "/lull/nap (tap)"
python3 - "$T_DIR/nap-tap.json" <<'PY' || die "/lull/nap (tap): $(cat "$T_DIR/nap-tap.json")"
import json, sys
d = json.load(open(sys.argv[1]))
t = max((d[f"thread{i}"] for i in range(d["threads"])), key=lambda t: t["iterations"])
# 20 echoes cross the PMD, each reply soon after: woken by the taps' interrupts
assert t["intr_waits"] > 0 and t["intr_wakes"] >= 10, t
print(f"PMD on net_tap: {t['intr_waits']} interrupt waits, {t['intr_wakes']} woken by a packet, "
      f"{t['sleeps']} timed sleeps")
PY
# an idle PMD takes a set after its next wait (it waits 9 ms: 1024 rounds
# would be 9 s)
"$LULLCTL" -f "$OVS_PREFIX" set latency-budget-us 120 >/dev/null || die "set against OVS (tap)"
for _ in $(seq 30); do
	"$LULLCTL" -f "$OVS_PREFIX" pmd-sleep-show | grep -q "latency budget 120 us" && break
	sleep 0.1
done
"$LULLCTL" -f "$OVS_PREFIX" pmd-sleep-show | grep -q "latency budget 120 us" ||
	die "the idle PMD did not take the set within 3 s: $("$LULLCTL" -f "$OVS_PREFIX" pmd-sleep-show)"
ovs_stop || die "ovs-vswitchd with lull (tap) did not exit on ovs-appctl exit"
[ "$H_RC" -eq 0 ] || die "ovs-vswitchd (tap) exited with $H_RC"
[ "$(dp_taps)" -le "$had_taps" ] ||
	die "OVS left its datapath's taps behind: $(ip -br link show | grep -E "^(br0|ovs-netdev) ")"
log "PASS"
