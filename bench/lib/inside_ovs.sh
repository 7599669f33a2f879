# shellcheck shell=bash
# bench/inside's OVS part (sourced after harness.sh and ovs.sh): Debian's
# ovs-vswitchd-dpdk, one PMD on CPU 1, a bridge of two DPDK ports, lull-gen on
# CPU 0. One run of a configuration:
#   lull      OVS with pmd-maxsleep=0 and lull preloaded (LULL_OPTS)
#   ovs250    OVS's own load-based sleeping, pmd-maxsleep=250, no lull
#   ovs50     the same at 50 us
#   ovs0      OVS busy polling (pmd-maxsleep=0, no lull): the latency floor
#   again250  ovs250 and ovs50 once more in the same round (OVS_AGAIN=1): the
#   again50   rule judged between two runs of one configuration, its floor here
#   match250  lull matched to ovs250 and ovs50: OVS's maximum sleep X as
#   match50   lull's sleep-max-us, and before each load lullctl sets
#             latency-budget-us to what ovsX's sleeping adds at p99 at that
#             load (ovs_match; medians over the rounds so far in OVS_RES;
#             idle: at the first load)
# measures the idle PMD's CPU, then for each load lull-gen's p50/p99 (one way
# through OVS), packets lost and the PMD's CPU during the load. Devices:
#   memif  two memif ports, lull-gen their client (OVS_MEMIF_LOADS)
#   afp    two net_af_packet ports on veths whose peers are in namespace NS_G,
#          lull-gen there on af_packet too (ovs_afp_links first; OVS_AFP_LOADS)
#   tap    two taps bridged to veths in namespaces A and B (h_tap_namespaces;
#          OVS asks two rx queues per tap); the loads are pings from A to B
#          across OVS (OVS_TAP_LOADS: every 1 and 10 ms): round-trip p50/p99
#
#   ovs_run CFG RUN [memif|afp|tap]   prints "idle CPU RQ WAKES" then "LOAD CPU
#                     P50 P99 LOST OFFERED RQ WAKES" lines (afp and tap: prefixed afp- and
#                     tap-), or one "x REASON" line; CFG floor: no OVS, the
#                     "idle" line of a thread that only waits 9 ms at a time
#                     (WAIT_FLOOR)
# RQ is the PMD's run-queue wait in ms per second (schedstat's second field):
# time it was woken, runnable, while another thread had CPU 1. A sleeping PMD
# gives its CPU away and must get it back; what that costs at p99 is measured
# in docs/benchmarks.md, "Where the milliseconds of p99 come from".
# OVS_LOADS for both; a device's own list where it carries different rates
# (near OVS's capacity: memif ~1.75 Mpps here, af_packet far less)
OVS_LOADS=${OVS_LOADS:-rate:1k rate:10k rate:100k burst:1000/100ms}
OVS_MEMIF_LOADS=${OVS_MEMIF_LOADS:-$OVS_LOADS}
OVS_AFP_LOADS=${OVS_AFP_LOADS:-$OVS_LOADS}
OVS_TAP_LOADS=${OVS_TAP_LOADS:-ping:0.001 ping:0.01}

# pmd_pct TID SECS: the PMD thread's CPU over SECS, % of a core, its
# run-queue wait over the same SECS, ms per second, and its wakes per second
# (voluntary context switches: a sleep or a blocking wait each)
pmd_pct() { h_thread_pct "$OVS_PID" "$1" "$2" 2 rq wakes; }

# ovs_afp_links: namespace NS_G holding one end of two veth pairs, whose other
# ends (OVS's af_packet ports) stay here: ${H_ID}af, ${H_ID}bf; tx checksum
# offload off (UDP through af_packet needs it). Removed at exit.
ovs_afp_links() {
	local v
	NS_G="$H_ID-og"
	ip netns add "$NS_G" && H_NETNS+=("$NS_G")
	for v in a b; do
		ip link add "${H_ID}${v}f" type veth peer name "${H_ID}${v}g" netns "$NS_G" &&
			H_LINKS+=("${H_ID}${v}f")
		sysctl -qw "net.ipv6.conf.${H_ID}${v}f.disable_ipv6=1" 2>/dev/null || true
		ip netns exec "$NS_G" sysctl -qw "net.ipv6.conf.${H_ID}${v}g.disable_ipv6=1" || true
		ip link set "${H_ID}${v}f" up
		ip -n "$NS_G" link set "${H_ID}${v}g" up
		ethtool -K "${H_ID}${v}f" tx off >/dev/null 2>&1 || true
		ip netns exec "$NS_G" ethtool -K "${H_ID}${v}g" tx off >/dev/null 2>&1 || true
	done
}

# ovs_why CPU NAME: at the end of a load of OVS with lull whose PMD took CPU %
# of a core, lull's pmd-sleep-show (JSON) into $H_DIR/NAME.sleep.json (KEEP=1 keeps
# it); from half a core up, on stderr, what the rules that poll hold: the
# tail rule's lateness, polling stall, sleep cap and hold, the harm's held
# peak, the late wakes the traffic did not see, the kept quantile (a round
# that polled where OVS slept says why)
ovs_why() {
	local f="$H_DIR/$2.sleep.json"
	"$LULLCTL" -j -f "$OVS_PREFIX" pmd-sleep-show >"$f" 2>/dev/null || return 0
	python3 - "$f" "$1" "$2" <<'PY' >&2
import json, sys
if float(sys.argv[2]) < 50:
    sys.exit()
def find(o, k):
    if isinstance(o, dict):
        if k in o:
            return o[k]
        o = list(o.values())
    if isinstance(o, list):
        for v in o:
            r = find(v, k)
            if r is not None:
                return r
    return None
d = json.load(open(sys.argv[1]))
us = lambda k: f"{find(d, k) / 1e3:.0f} us" if find(d, k) is not None else "n/a"
print(f"{sys.argv[3]}: lull polled ({sys.argv[2]} % of a core): tail rule late {us('tail_late_ns')},"
      f" polling stall {us('tail_stall_ns')}, cap {us('tail_cap_ns')}, hold {us('tail_hold_ns')};"
      f" harm peak {find(d, 'harm_peak_pps')} pps; late wakes the traffic did not see"
      f" {find(d, 'late_unseen')}; lateness p99 {us('late_p99_ns')}; kept p{find(d, 'kept_pct')};"
      f" rate {find(d, 'rate_pps')} pps, peak {find(d, 'peak_pps')} pps")
PY
}

# ovs_load TID RUN LOAD DEV: one lull-gen run of LOAD for SECS; the PMD's CPU
# is taken over its last SECS - 1.5 s (from lull-gen's first progress line)
ovs_load() {
	local tid=$1 run=$2 load=$3 dev=$4 g="$H_DIR/g$2" pct rq gpid wrap=() vd
	if [ "$dev" = afp ]; then
		wrap=(ip netns exec "$NS_G")
		vd=(--vdev "net_af_packet0,iface=${H_ID}ag" --vdev "net_af_packet1,iface=${H_ID}bg" --)
	else
		vd=(--vdev "$(h_memif 0 client "a$run")" --vdev "$(h_memif 1 client "b$run")" -- --rxq 2)
	fi
	"${wrap[@]}" "$LULL_GEN" -l 0 -m 256 "${H_EAL[@]}" --file-prefix="$H_ID-g$run" "${vd[@]}" \
		--profile "idle:1s,$load:${SECS}s" --json "$g.json" >"$g.log" 2>&1 &
	gpid=$!
	for _ in $(seq 100); do
		grep -qs "^\[phase 2/2" "$g.log" && break
		sleep 0.1
	done
	read -r pct rq wk < <(pmd_pct "$tid" "$(echo "$SECS - 1.5" | bc)")
	# while the load lasts (lull-gen sends ~1 s more): the rate, the bounds
	[ -z "${OVS_LULL:-}" ] || ovs_why "$pct" "$OVS_LULL-$run-$dev-${load//[:\/]/_}"
	wait "$gpid" || { echo "x lull-gen failed: $(tail -n 1 "$g.log")"; return; }
	python3 - "$g.json" "$([ "$dev" = afp ] && echo afp-)$load" "$pct" "$rq" "$wk" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["phases"][1]
print(sys.argv[2], sys.argv[3], f"{p['lat_us']['p50']:.1f}", f"{p['lat_us']['p99']:.1f}", p["lost"],
      p["offered"], sys.argv[4], sys.argv[5])
PY
}

# ovs_match CFG LOAD: the budget matchX takes at LOAD (a line name of OVS_RES):
# what ovsX's sleeping adds at p99 there - its one-way p99 over busy OVS's
# (ovs0), medians over the rounds so far; in whole us, up to 10000. Nothing
# when either has no figure. (Not ovsX's p99 itself, as bench/frontier
# matches lull's own loop: lull's budget is latency a sleep adds to what
# polling sees, and where the p99 is the host's stalls of milliseconds, busy
# OVS's too, a budget of that p99 would add them twice.) Not at least X: at
# 100 kpps OVS 250's ramp keeps its sleeps short and adds ~130 us at p99, and
# lull matched to it must keep that, not 250.
# The maximum sleep stays X, OVS's: where stalls of ms make ovsX's p99 (this
# VM's DAMON passes), a budget of ms let lull sleep ms where OVS sleeps X us,
# and its p99 then was the stalls plus those sleeps (7 ms against 4 ms at
# 1 kpps, commit 28b0e18).
# At least what ovsX adds at p50: where the host's stalls make busy OVS's p99
# as high as ovsX's or higher (this VM, bursts: 4768 against 8992 us in one
# round), the p99 difference was <= 0, the budget 1 us, and lull polled
# (match50 on bursts: 100 % in 2 of 3 rounds) where OVS 50's sleeps visibly add
# ~60 us at p50. What a sleep adds at p99 is no less than at p50.
# Nothing at both (busy OVS's p50 and p99 at or above ovsX's): what ovsX's
# sleeping adds is below this VM's noise, not zero, and the budget is X, the
# sleep OVS allowed itself. On af_packet bursts busy OVS's p50 was 290 us
# against OVS 50's 221 (2026-12-05): a budget of 1 us made match50 poll, at
# idle too (100.4 % against OVS 50's 18.9).
ovs_match() {
	python3 - "$OVS_RES" "${1#match}" "$2" <<'PY'
import statistics, sys
x, load = int(sys.argv[2]), sys.argv[3]
rows = [l.split() for l in open(sys.argv[1])]
def med(cfg, i):
    v = [float(f[i]) for f in rows if f[0] == cfg and f[2] == load and len(f) > 5]
    return statistics.median(v) if v else None
mine, busy = med(f"ovs{x}", 5), med("ovs0", 5)
if mine is not None and busy is not None:
    add = max(round(mine - busy), round(med(f"ovs{x}", 4) - med("ovs0", 4)))
    print(min(10000, add) if add > 0 else x)
PY
}

# ovs_budget_set B X: lullctl sets the budget to B us and the maximum sleep to
# X us
ovs_budget_set() {
	"$LULLCTL" -f "$OVS_PREFIX" set latency-budget-us "$1" >/dev/null &&
		"$LULLCTL" -f "$OVS_PREFIX" set sleep-max-us "$2" >/dev/null
}

# ovs_ping TID LOAD: LOAD = ping:INTERVAL for SECS from namespace A to B; the
# PMD's CPU over the middle of it, the round trips' p50/p99, pings lost
ovs_ping() {
	local tid=$1 load=$2 iv=${2#ping:} out="$H_DIR/ping.txt" pct rq wk ppid n
	n=$(echo "$SECS / $iv" | bc)
	ip netns exec "$NS_A" ping -n -i "$iv" -c "$n" -W 1 198.18.0.2 >"$out" 2>&1 &
	ppid=$!
	sleep 0.5
	read -r pct rq wk < <(pmd_pct "$tid" "$(echo "$SECS - 1" | bc)")
	wait "$ppid" || true
	python3 - "$out" "tap-$load" "$n" "$pct" "$rq" "$wk" <<'PY'
import re, statistics, sys
rtt = sorted(float(m) for m in re.findall(r"time=([0-9.]+) ms", open(sys.argv[1]).read()))
if not rtt:
    print("x no ping answered")
    sys.exit()
q = statistics.quantiles([r * 1000 for r in rtt], n=100) if len(rtt) > 1 else [rtt[0] * 1000] * 99
print(sys.argv[2], sys.argv[4], f"{q[49]:.1f}", f"{q[98]:.1f}", int(sys.argv[3]) - len(rtt),
      sys.argv[3], sys.argv[5], sys.argv[6])
PY
}

ovs_run() {
	local cfg=$1 run=$2 dev=${3:-memif} pre="" tid kv=() load a b more="" pfx="" budget=""
	local loads=$OVS_MEMIF_LOADS
	OVS_LULL=""
	case $cfg in
	lull | match*) pre=$PRELOAD kv=(pmd-maxsleep=0) OVS_LULL=$cfg ;;
	ovs*) kv=("pmd-maxsleep=${cfg#ovs}") ;;
	again*) kv=("pmd-maxsleep=${cfg#again}") ;;
	esac
	case $dev in
	tap) a="net_tap0,iface=$TAP_A" b="net_tap1,iface=$TAP_B" more=options:n_rxq=2 pfx=tap- ;;
	afp) a="net_af_packet0,iface=${H_ID}af" b="net_af_packet1,iface=${H_ID}bf" pfx=afp- loads=$OVS_AFP_LOADS ;;
	*) a=$(h_memif 0 server "a$run") b=$(h_memif 1 server "b$run") ;;
	esac
	if [ "$cfg" = floor ]; then
		echo "${pfx}idle $(taskset -c 1 "$WAIT_FLOOR" 9 "$SECS" | cut -d' ' -f1)"
		return
	fi
	# matchX: the budget at the first load, for the idle PMD too
	if [ "${cfg#match}" != "$cfg" ]; then
		budget=$(ovs_match "$cfg" "$pfx${loads%% *}")
		[ -n "$budget" ] || { echo "x no ovs${cfg#match} figure to match"; return; }
	fi
	LULL_OPTS=${LULL_OPTS:-} ovs_start "ovs$run" "$pre" "${kv[@]}" 2>/dev/null ||
		{ echo "x ovs-vswitchd did not start"; return; }
	if ! ovs_bridge "$a" "$b" "$more" 2>/dev/null || ! tid=$(ovs_pmd_tid); then
		echo "x no bridge or no PMD"
		ovs_stop || true
		return
	fi
	[ "$dev" != tap ] || h_tap_join
	if [ -n "$budget" ] && ! ovs_budget_set "$budget" "${cfg#match}"; then
		echo "x lullctl set failed"
		ovs_stop || true
		return
	fi
	sleep 1
	echo "${pfx}idle $(pmd_pct "$tid" "$SECS")"
	if [ "$dev" = tap ]; then
		for load in $OVS_TAP_LOADS; do ovs_ping "$tid" "$load"; done
	else
		for load in $loads; do
			if [ -n "$budget" ]; then
				budget=$(ovs_match "$cfg" "$pfx$load")
				[ -n "$budget" ] || { echo "x no ovs${cfg#match} figure at $pfx$load"; break; }
				ovs_budget_set "$budget" "${cfg#match}" || { echo "x lullctl set failed"; break; }
			fi
			ovs_load "$tid" "$run" "$load" "$dev"
		done
	fi
	ovs_stop || true
}

# ovs_summary FILE: FILE holds "CFG ROUND LOAD CPU [P50 P99 LOST OFFERED]"
# lines; the medians per cell, then the share of (load, OVS setting) cells
# where OVS+lull is no worse than OVS's own sleeping, by the no-cliff issue's
# rule (bench/lib/nocliff.py; loss within 0.01 % of what OVS was offered; idle:
# CPU alone).
# Judged twice: lull at its defaults, and at the matched budget (matchX
# against ovsX; where matchX has no figure, as on net_tap's interrupt waits,
# lull's defaults). Last line: OVS_SHARE=, the matched share.
ovs_summary() {
	python3 - "$1" "$(dirname "${BASH_SOURCE[0]}")" <<'PY'
import collections, statistics, sys
sys.path.insert(0, sys.argv[2])
import nocliff  # bench/lib/nocliff.py: the rule, as bench/frontier judges by it
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
cfgs = ("lull", "match250", "match50", "ovs250", "again250", "ovs50", "again50", "ovs0", "floor")
# columns: CPU, then (loads) P50 P99 LOST OFFERED; RQ and WAKES after the CPU
# of an idle line, after OFFERED of a load's (neither on the floor's line;
# WAKES not in a file of a run before they were measured)
BUSY = 5
def rq(m):
    i = BUSY if len(m) >= BUSY else 1
    out = f" {m[i]:7.2f}" if len(m) > i else f" {'-':>7}"
    return out + (f" {m[i + 1]:7.0f}" if len(m) > i + 1 else f" {'-':>7}")
print(f"{'load':<24} {'config':<8} {'CPU %':>16} {'p50 us':>8} {'p99 us':>18} {'lost':>14}"
      f" {'rq ms/s':>7} {'wakes/s':>7}")
for load in loads:
    for cfg in cfgs:
        k = (cfg, load)
        if k not in med:
            continue
        m = med[k]
        line = f"{load:<24} {cfg:<8} {m[0]:6.1f} ({rng(k, 0):>8})"
        if len(m) >= BUSY:
            line += f" {m[1]:8.1f} {m[2]:7.1f} ({rng(k, 2):>9}) {m[3]:5.0f} ({rng(k, 3):>7})"
        else:
            line += f" {'':>8} {'':>19} {'':>15}"
        print(line + rq(m))
def judge(mine, o, load):
    l, v = med[mine, load], med[o, load]
    busy = len(l) >= BUSY
    why = nocliff.worse(l[0], l[2] if busy else None, l[3] if busy else None, v[0],
                        v[2] if busy else None, v[3] if busy else None,
                        1e-4 * (v[4] if len(v) > 4 else 0))
    unit = {"CPU": (".1f", ""), "p99": (".0f", " us"), "lost": (".0f", "")}
    return [f"{w} {a:{unit[w][0]}} > {b:{unit[w][0]}}{unit[w][1]}" for w, a, b in why]
share = {}
for kind in ("defaults", "matched"):
    good = cells = 0
    for load in loads:
        for o in ("ovs250", "ovs50"):
            mine = "lull"
            if kind == "matched" and ("match" + o[3:], load) in med:
                mine = "match" + o[3:]
            if (o, load) not in med or (mine, load) not in med:
                continue
            why = judge(mine, o, load)
            cells += 1
            good += not why
            if why:
                print(f"cell {load} vs {o} ({mine}): OVS+lull worse: {', '.join(why)}")
    share[kind] = good / cells if cells else float("nan")
    print(f"OVS cells where OVS+lull at {kind} is no worse than OVS's own sleeping: {good}/{cells}")
# OVS's own sleeping against itself (OVS_AGAIN=1): both ways, as one
# configuration's two runs are alike; what share the rule gives a
# configuration that is the same as OVS's, on this host in these rounds
good = cells = 0
for load in loads:
    for o in ("ovs250", "ovs50"):
        a = "again" + o[3:]
        if (o, load) not in med or (a, load) not in med:
            continue
        for x, y in ((a, o), (o, a)):
            why = judge(x, y, load)
            cells += 1
            good += not why
            if why:
                print(f"self {load} {x} vs {y}: worse: {', '.join(why)}")
if cells:
    print(f"OVS cells where OVS's own sleeping is no worse than itself run again: {good}/{cells}")
    print(f"OVS_SHARE_AGAIN={good / cells:.3f}")
print(f"OVS_SHARE_DEFAULTS={share['defaults']:.3f}")
print(f"OVS_SHARE={share['matched']:.3f}")
PY
}
