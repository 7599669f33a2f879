# shellcheck shell=bash
# bench/inside's OVS part (sourced after harness.sh and ovs.sh): Debian's
# ovs-vswitchd-dpdk, one PMD on CPU 1, a bridge of two memif ports, lull-gen on
# CPU 0 (memif clients). One run of a configuration:
#   lull     OVS with pmd-maxsleep=0 and lull preloaded (LULL_OPTS)
#   ovs250   OVS's own load-based sleeping, pmd-maxsleep=250, no lull
#   ovs50    the same at 50 us
# measures the idle PMD's CPU, then for each of OVS_LOADS lull-gen's p50/p99
# (one way through OVS), packets lost and the PMD's CPU during the load.
#
#   ovs0     OVS busy polling (pmd-maxsleep=0, no lull): the latency floor
# On net_tap (ovs_run CFG RUN tap: two taps bridged to veths in namespaces A
# and B, h_tap_namespaces; OVS asks two rx queues per tap), the loads are
# pings from A to B across OVS (OVS_TAP_LOADS: ping every 1 and 10 ms):
# round-trip p50/p99 and pings lost.
#
#   ovs_run CFG RUN [memif|tap]   prints "idle CPU" then "LOAD CPU P50 P99 LOST"
#                     lines (tap: LOADs and idle prefixed tap-), or one "x REASON" line
OVS_LOADS=${OVS_LOADS:-rate:1k rate:10k rate:100k burst:1000/100ms}
OVS_TAP_LOADS=${OVS_TAP_LOADS:-ping:0.001 ping:0.01}

# pmd_pct TID SECS: the PMD thread's CPU over SECS, % of a core
pmd_pct() {
	local a b
	a=$(h_thread_ticks "$OVS_PID" "$1")
	sleep "$2"
	b=$(h_thread_ticks "$OVS_PID" "$1")
	echo "scale=1; ($b - $a) * 100 / ($2 * $(getconf CLK_TCK))" | bc
}

# ovs_load TID RUN LOAD: one lull-gen run of LOAD for SECS; the PMD's CPU is
# taken over its last SECS - 1.5 s (from lull-gen's first progress line)
ovs_load() {
	local tid=$1 run=$2 load=$3 g="$H_DIR/g$2" pct gpid
	"$LULL_GEN" -l 0 -m 256 "${H_EAL[@]}" --file-prefix="$H_ID-g$run" \
		--vdev "$(h_memif 0 client "a$run")" --vdev "$(h_memif 1 client "b$run")" \
		-- --rxq 2 --profile "idle:1s,$load:${SECS}s" --json "$g.json" >"$g.log" 2>&1 &
	gpid=$!
	for _ in $(seq 100); do
		grep -qs "^\[phase 2/2" "$g.log" && break
		sleep 0.1
	done
	pct=$(pmd_pct "$tid" "$(echo "$SECS - 1.5" | bc)")
	wait "$gpid" || { echo "x lull-gen failed: $(tail -n 1 "$g.log")"; return; }
	python3 - "$g.json" "$load" "$pct" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["phases"][1]
print(sys.argv[2], sys.argv[3], f"{p['lat_us']['p50']:.1f}", f"{p['lat_us']['p99']:.1f}", p["lost"])
PY
}

# ovs_ping TID LOAD: LOAD = ping:INTERVAL for SECS from namespace A to B; the
# PMD's CPU over the middle of it, the round trips' p50/p99, pings lost
ovs_ping() {
	local tid=$1 load=$2 iv=${2#ping:} out="$H_DIR/ping.txt" pct ppid n
	n=$(echo "$SECS / $iv" | bc)
	ip netns exec "$NS_A" ping -n -i "$iv" -c "$n" -W 1 198.18.0.2 >"$out" 2>&1 &
	ppid=$!
	sleep 0.5
	pct=$(pmd_pct "$tid" "$(echo "$SECS - 1" | bc)")
	wait "$ppid" || true
	python3 - "$out" "tap-$load" "$pct" "$n" <<'PY'
import re, statistics, sys
rtt = sorted(float(m) for m in re.findall(r"time=([0-9.]+) ms", open(sys.argv[1]).read()))
if not rtt:
    print("x no ping answered")
    sys.exit()
q = statistics.quantiles([r * 1000 for r in rtt], n=100) if len(rtt) > 1 else [rtt[0] * 1000] * 99
print(sys.argv[2], sys.argv[3], f"{q[49]:.1f}", f"{q[98]:.1f}", int(sys.argv[4]) - len(rtt))
PY
}

ovs_run() {
	local cfg=$1 run=$2 dev=${3:-memif} pre="" tid kv=() load a b more="" pfx=""
	case $cfg in
	lull) pre=$PRELOAD kv=(pmd-maxsleep=0) ;;
	ovs*) kv=("pmd-maxsleep=${cfg#ovs}") ;;
	esac
	if [ "$dev" = tap ]; then
		a="net_tap0,iface=$TAP_A" b="net_tap1,iface=$TAP_B" more=options:n_rxq=2 pfx=tap-
	else
		a=$(h_memif 0 server "a$run") b=$(h_memif 1 server "b$run")
	fi
	LULL_OPTS=${LULL_OPTS:-} ovs_start "ovs$run" "$pre" "${kv[@]}" 2>/dev/null ||
		{ echo "x ovs-vswitchd did not start"; return; }
	if ! ovs_bridge "$a" "$b" "$more" 2>/dev/null || ! tid=$(ovs_pmd_tid); then
		echo "x no bridge or no PMD"
		ovs_stop || true
		return
	fi
	[ "$dev" != tap ] || h_tap_join
	sleep 1
	echo "${pfx}idle $(pmd_pct "$tid" "$SECS")"
	if [ "$dev" = tap ]; then
		for load in $OVS_TAP_LOADS; do ovs_ping "$tid" "$load"; done
	else
		for load in $OVS_LOADS; do ovs_load "$tid" "$run" "$load"; done
	fi
	ovs_stop || true
}

# ovs_summary FILE: FILE holds "CFG ROUND LOAD CPU [P50 P99 LOST]" lines; the
# medians per cell and the share of (load, OVS setting) cells where OVS+lull
# is no worse than OVS's own sleeping: CPU at most OVS's + 1 point or 5 %,
# p99 at most 10 % over OVS's, loss at most OVS's (idle: CPU alone).
ovs_summary() {
	python3 - "$1" <<'PY'
import collections, statistics, sys
vals = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    cfg, load, nums = f[0], f[2], [float(x) for x in f[3:]]
    vals[cfg, load].append(nums)
loads = list(dict.fromkeys(k[1] for k in vals))
med = {k: [statistics.median(c) for c in zip(*v)] for k, v in vals.items()}
def rng(k, i):
    c = [v[i] for v in vals[k]]
    return f"{min(c):g}-{max(c):g}"
print(f"{'load':<20} {'config':<7} {'CPU %':>16} {'p50 us':>8} {'p99 us':>18} {'lost':>14}")
for load in loads:
    for cfg in ("lull", "ovs250", "ovs50", "ovs0"):
        k = (cfg, load)
        if k not in med:
            continue
        m = med[k]
        line = f"{load:<20} {cfg:<7} {m[0]:6.1f} ({rng(k, 0):>8})"
        if len(m) > 1:
            line += f" {m[1]:8.1f} {m[2]:7.1f} ({rng(k, 2):>9}) {m[3]:5.0f} ({rng(k, 3):>7})"
        print(line)
good = cells = 0
for load in loads:
    for o in ("ovs250", "ovs50"):
        if (o, load) not in med or ("lull", load) not in med:
            continue
        l, v = med["lull", load], med[o, load]
        ok = l[0] <= max(v[0] + 1, v[0] * 1.05)
        why = [] if ok else [f"CPU {l[0]:.1f} > {v[0]:.1f}"]
        if len(l) > 1:
            if l[2] > v[2] * 1.1:
                ok, why = False, why + [f"p99 {l[2]:.0f} > {v[2]:.0f} us"]
            if l[3] > v[3]:
                ok, why = False, why + [f"lost {l[3]:.0f} > {v[3]:.0f}"]
        cells += 1
        good += ok
        if not ok:
            print(f"cell {load} vs {o}: OVS+lull worse: {', '.join(why)}")
print(f"OVS cells where OVS+lull is no worse than OVS's own sleeping: {good}/{cells}")
print(f"OVS_SHARE={good / cells if cells else float('nan'):.3f}")
PY
}
