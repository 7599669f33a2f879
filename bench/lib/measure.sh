# shellcheck shell=bash
# Measuring one forwarder under one load, for bench/report and make run.
# Sourced; set LULL, LULL_GEN, LULLCTL, TESTPMD and OUT before m_init.
#
# The forwarder (lull or dpdk-testpmd io) runs on lcores 0,1 with its
# forwarding thread on CPU 1 and two ports; lull-gen, on lcore 0, offers the
# load and measures the trip through the forwarder. M_DEV picks the ports:
# memif (default: lull-gen is the memif client) or tap (the forwarder's two
# net_tap ports, whose rx queues interrupt, each bridged to a veth whose other
# end is in a namespace; lull-udp sends in one and receives in the other on
# packet sockets, with kernel timestamps: lull-gen on af_packet in front of the
# taps was slower than the forwarder). Over the middle of each load:
#  - the forwarding thread's CPU time (h_thread_cpu_ns: schedstat, in ns);
#  - CPU 1's idle-state residency (cpuidle: time in every state but POLL);
#  - package energy from RAPL (powercap) where the machine has it, else "n/a";
#  - lull only: sleeps/s and average oversleep (lullctl pmd-perf-show --json).

M_CPU=1
# shellcheck source=../../scripts/lib/harness.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib/harness.sh"

m_init() {
	# This script and what it starts (lull-gen, lullctl, date, python) stay off the
	# forwarder's CPU, as on a machine whose PMD cores are isolated: a task there
	# would preempt a busy-polling thread for whole time slices.
	taskset -cp 0 $$ >/dev/null
	h_init lm
	M_DIR=$H_DIR
	M_ID=$H_ID
	mkdir -p "$OUT/cdf"
	M_DEV=${M_DEV:-memif}
	[ "$M_DEV" != tap ] || h_tap_namespaces
	echo "step,config,load,offered_pps,cpu_pct,idle_res_pct,watts,sleeps_per_s,oversleep_us,sent,received,lost,min_us,avg_us,p50_us,p99_us,max_us,rx_pps,limit,p999_us,budget_miss_pct,share_poll,share_sleep,share_intr,device,pmd_mhz" >"$OUT/results.csv"
}

# m_fwd_vdevs RUN: the forwarder's two ports on M_DEV, into M_VDEVS
m_fwd_vdevs() {
	case $M_DEV in
	memif) M_VDEVS=(--vdev "$(m_memif 0 server "a$1")" --vdev "$(m_memif 1 server "b$1")") ;;
	tap) M_VDEVS=(--vdev "net_tap0,iface=${H_ID}t$1a" --vdev "net_tap1,iface=${H_ID}t$1b") ;;
	*) echo "bad M_DEV '$M_DEV' (memif or tap)" >&2; return 1 ;;
	esac
}

# m_gen_vdevs RUN: lull-gen's two ports facing the forwarder's, into M_VDEVS
m_gen_vdevs() {
	case $M_DEV in
	memif) M_VDEVS=(--vdev "$(m_memif 0 client "a$1")" --vdev "$(m_memif 1 client "b$1")") ;;
	tap) M_VDEVS=(--vdev "net_af_packet0,iface=${H_ID}t$1a" --vdev "net_af_packet1,iface=${H_ID}t$1b") ;;
	esac
}

# m_tap_up RUN: the forwarder's tap interfaces in their bridges, up and quiet
m_tap_up() {
	local t
	[ "$M_DEV" = tap ] || return 0
	TAP_A="${H_ID}t$1a" TAP_B="${H_ID}t$1b"
	for t in "$TAP_A" "$TAP_B"; do
		for _ in $(seq 50); do ip link show "$t" >/dev/null 2>&1 && break; sleep 0.1; done
	done
	h_tap_join
}

# RSIZE=N: memif rings of 2^N slots, both sides (the client's sets the rings)
m_memif() { h_memif "$@" "${RSIZE:+rsize=$RSIZE}"; }

# m_start_fwd RUN CONFIG: CONFIG = off | rate | POLICY:MAX (ovs:250, rate:50:
# maximum sleep and latency budget MAX us) | testpmd. Sets M_FWD_PID, M_FWD_PREFIX.
# On memif each load gets a forwarder of its own (m_run_load starts it again
# with CONFIG as RUNlSTEP): DPDK 22.11's net_memif can crash a process that
# polls a port whose peer leaves, so the forwarder stops first, while
# lull-gen (--linger-ms) keeps its ports open, and lull-gen leaves after it.
m_start_fwd() {
	M_FWD_BASE=$1 M_FWD_CFG=$2
	m_fwd_up "$1" "$2"
}

# m_fwd_up RUN CONFIG: start the forwarder (m_start_fwd)
m_fwd_up() {
	local run=$1 cfg=$2 args=()
	M_FWD_PREFIX="$H_ID-f$run"
	M_FWD_KIND=lull
	M_RUN=$run
	m_fwd_vdevs "$run" || return 1
	local vdevs=("${M_VDEVS[@]}")
	case $cfg in
	testpmd)
		M_FWD_KIND=testpmd
		h_dpdk "f$run" "$TESTPMD" -l 0,1 -m 512 "${vdevs[@]}" \
			-- --forward-mode=io --nb-cores=1 --total-num-mbufs=32768 --auto-start \
			--stats-period 3600
		M_FWD_PID=$H_PID
		# ready: its ports are started (a memif server refuses a client that
		# connects before, and DPDK's memif client does not try again)
		for _ in $(seq 100); do
			grep -qs "Checking link statuses" "$M_DIR/f$run.log" &&
				m_worker_tid >/dev/null 2>&1 && { m_tap_up "$run"; return 0; }
			sleep 0.1
		done
		;;
	*)
		case $cfg in
		off | rate) args=(--sleep-policy "$cfg") ;;
		*:*) args=(--sleep-policy "${cfg%%:*}" --sleep-max-us "${cfg#*:}" --latency-budget-us "${cfg#*:}") ;;
		*) echo "bad configuration '$cfg' (off, rate, POLICY:MAX_US or testpmd)" >&2; return 1 ;;
		esac
		# ready: lullctl config-show answers
		local extra=()
		read -r -a extra <<<"${LULL_EXTRA:-}" # more lull options for every lull cell
		h_lull "f$run" -l 0,1 -m 256 "${vdevs[@]}" -- "${args[@]}" "${extra[@]}" \
			--stats-period 0 --link-wait-ms 0 && { M_FWD_PID=$H_PID; m_tap_up "$run"; return 0; }
		M_FWD_PID=$H_PID
		;;
	esac
	echo "$cfg did not start:" >&2
	tail -n 20 "$M_DIR/f$run.log" >&2
	return 1
}

# The forwarder goes first, while lull-gen is not connected or lingers: DPDK
# 22.11's net_memif can crash a process that polls a port whose peer leaves.
m_stop_fwd() {
	[ -z "${M_FWD_PID:-}" ] || h_stop "$M_FWD_PID" 10 || true
	M_FWD_PID=""
}

m_worker_tid() { h_worker_tid "$M_FWD_PID"; }
m_cpu_ns() { h_thread_cpu_ns "$M_FWD_PID" "$1"; }
m_idle_us() { # time in idle states other than POLL on CPU M_CPU, us; empty without cpuidle
	local s t=0 n=0
	for s in /sys/devices/system/cpu/cpu$M_CPU/cpuidle/state*; do
		[ -r "$s/time" ] || continue
		[ "$(cat "$s/name")" = POLL ] && continue
		t=$((t + $(cat "$s/time")))
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] && echo "$t"
	return 0
}
m_khz() { # CPU M_CPU's current frequency in kHz (cpufreq); empty without cpufreq
	local f=/sys/devices/system/cpu/cpu$M_CPU/cpufreq/scaling_cur_freq
	[ -r "$f" ] && cat "$f"
	return 0
}
m_energy_uj() { # package energy, summed over RAPL domains; empty without RAPL
	local f t=0 n=0
	for f in /sys/class/powercap/intel-rapl:[0-9]*/energy_uj; do
		[ -r "$f" ] || continue
		t=$((t + $(cat "$f")))
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] && echo "$t"
	return 0
}

# m_udp_start PROFILE SECS: lull-udp's receiver in NS_B, then its sender in NS_A
# in the background (H_PID: the sender; the receiver's PID in M_UDP_RX)
m_udp_start() {
	local n
	# frames offered by a rate or burst phase (0: unknown, a Poisson one)
	n=$(python3 - "$1" <<'PY'
import re, sys
units = {"": 1, "k": 1e3, "M": 1e6}
tunits = {"s": 1e9, "ms": 1e6, "us": 1e3}
def t(x):
    m = re.fullmatch(r"([0-9.]+)(s|ms|us)", x)
    return float(m.group(1)) * tunits[m.group(2)]
k, *a = sys.argv[1].split(":")
if k == "rate":
    m = re.fullmatch(r"([0-9.]+)(k|M|)", a[0])
    print(int(float(m.group(1)) * units[m.group(2)] * t(a[1]) / 1e9))
elif k == "burst":
    n, p = a[0].split("/")
    print(int(int(n) * (t(a[1]) // t(p))))
else:
    print(0)
PY
)
	h_udp_recv "u$M_RUN" "$n" 500 $(($2 + 2)) || true
	M_UDP_RX=$H_PID
	h_bg "g$M_RUN" h_udp_send "$1"
	sleep 0.5
}

# m_udp_json PROFILE SECS: lull-udp's two result lines as lull-gen's JSON (one phase)
m_udp_json() {
	wait "$M_UDP_RX" || true
	python3 - "$M_DIR/g$M_RUN.log" "$M_DIR/u$M_RUN.rx" "$2" <<'PY'
import json, sys
def kv(path):
    line = [l for l in open(path) if "=" in l][-1]
    return {k: float(v) for k, v in (w.split("=") for w in line.split())}
tx, rx, secs = kv(sys.argv[1]), kv(sys.argv[2]), float(sys.argv[3])
lat = {k: rx[f"{k}_us"] for k in ("min", "avg", "p50", "p99", "max")}
lat["p99.9"] = rx["p999_us"]
print(json.dumps({"phases": [{"offered_pps": tx["offered"] / secs, "sent": int(tx["sent"]),
    "received": int(rx["received"]), "lost": int(tx["sent"] - rx["received"]),
    "rx_pps": rx["received"] / secs, "lat_us": lat}]}))
PY
}

# m_run_load STEP CONFIG LOAD SECS: one cell; appends a row to results.csv and the
# CDF to cdf/STEP-CONFIG.txt; prints a one-line summary. M_ON_START names a
# command run once the forwarder is up, before the load (bench/frontier: lullctl
# sets the matched budget). On memif the forwarder stops at the end (m_start_fwd).
m_run_load() {
	local step=$1 cfg=$2 load=$3 secs=$4 prof tid t0 t1 k0 k1 i0 i1 e0 e1 f0 f1 perf="" gpid
	prof="$load:${secs}s"
	[ "$load" = idle ] && prof="idle:${secs}s"
	# on memif the previous load's forwarder stopped before its lull-gen left
	[ -n "${M_FWD_PID:-}" ] || m_fwd_up "${M_FWD_BASE}l$step" "$M_FWD_CFG" || return 1
	${M_ON_START:+"$M_ON_START"} || return 1
	if [ "$M_DEV" = tap ]; then
		m_udp_start "$prof" "$secs"
		gpid=$H_PID
	else
		m_gen_vdevs "$M_RUN"
		h_dpdk "g$M_RUN" "$LULL_GEN" -l 0 -m 256 "${M_VDEVS[@]}" \
			-- --profile "$prof" --progress-ms 0 --drain-ms 300 --json "$M_DIR/g.json" \
			--linger-ms 20000
		gpid=$H_PID
		# lull-gen prints its run line once its ports are up
		for _ in $(seq 200); do grep -qs "^lull-gen: run" "$M_DIR/g$M_RUN.log" && break; sleep 0.05; done
		sleep 0.5
	fi
	tid=$(m_worker_tid)
	[ "$M_FWD_KIND" = lull ] && "$LULLCTL" -f "$M_FWD_PREFIX" pmd-stats-clear >/dev/null
	t0=$(date +%s%N) k0=$(m_cpu_ns "$tid") i0=$(m_idle_us) e0=$(m_energy_uj) f0=$(m_khz)
	sleep "$(echo "$secs - 1" | bc)"
	t1=$(date +%s%N) k1=$(m_cpu_ns "$tid") i1=$(m_idle_us) e1=$(m_energy_uj) f1=$(m_khz)
	[ "$M_FWD_KIND" = lull ] && perf=$("$LULLCTL" -f "$M_FWD_PREFIX" --json pmd-perf-show)
	if [ "$M_DEV" = memif ]; then
		# lull-gen has reported and lingers: the forwarder stops, then lull-gen
		# leaves, seeing its links down
		h_gen_lingers "$M_DIR/g$M_RUN.log" "$gpid" $((secs + 5))
		m_stop_fwd
	fi
	wait "$gpid" || { echo "the load generator failed:" >&2; tail -n 5 "$M_DIR/g$M_RUN.log" >&2; return 1; }
	[ "$M_DEV" != tap ] || m_udp_json "$prof" "$secs" >"$M_DIR/g.json"
	python3 - "$M_DIR/g.json" "$OUT" "$step" "$cfg" "$load" "$((t1 - t0))" "$((k1 - k0))" \
		"${i0:-}" "${i1:-}" "${e0:-}" "${e1:-}" "$perf" "$M_DEV" "${f0:-}" "${f1:-}" <<'PY'
import json, sys
g, out, step, cfg, load, dt_ns, cpu_ns, i0, i1, e0, e1, perf, dev, f0, f1 = sys.argv[1:]
p = json.load(open(g))["phases"][0]
l = p["lat_us"]
dt = int(dt_ns) / 1e9
cpu = int(cpu_ns) / 1e9 / dt * 100
# a figure the machine cannot give is n/a, never 0: no cpuidle, no RAPL
idle = f"{(int(i1) - int(i0)) / 1e6 / dt * 100:.1f}" if i0 and i1 else "n/a"
watts = f"{(int(e1) - int(e0)) / 1e6 / dt:.2f}" if e0 and e1 else "n/a"
sleeps, over = "n/a", "n/a"
# budget misses: timed waits longer than the budget (ovs: its maximum), % of them;
# shares of the PMD's time: polling (busy or not), timed sleeps, interrupt waits
miss = s_poll = s_sleep = s_intr = "n/a"
if perf:
    q = next(iter(json.loads(perf).values()))
    secs = q["duration_cycles"] / q["tsc_hz"]
    sleeps = f"{q['sleeps'] / secs:.0f}"
    if q["sleeps"]:  # no sleep: neither oversleep nor misses are a figure
        over = f"{max(0, q['sleep_actual_ns'] - q['sleep_requested_ns']) / q['sleeps'] / 1e3:.1f}"
        miss = f"{100 * q['budget_misses'] / q['sleeps']:.2f}"
    used = q["busy_cycles"] + q["idle_cycles"] + q["sleep_cycles"]
    if used:
        s_intr = q["intr_cycles"] / used
        s_sleep = (q["sleep_cycles"] - q["intr_cycles"]) / used
        s_poll, s_sleep, s_intr = (f"{100 * x:.1f}" for x in (1 - s_sleep - s_intr, s_sleep, s_intr))
row = [step, cfg, load, f"{p['offered_pps']:.0f}", f"{cpu:.1f}", idle, watts, sleeps, over,
       p["sent"], p["received"], p["lost"], f"{l['min']:.1f}", f"{l['avg']:.1f}", f"{l['p50']:.1f}",
       f"{l['p99']:.1f}", f"{l['max']:.1f}", f"{p['rx_pps']:.0f}"]
# At saturation (max), which side set the rate: the forwarder when it refused
# frames (its rx ring was full) or lost some, else the source (lull-gen's one
# core sent all it could and the forwarder kept up): then the cell measures
# lull-gen, not the forwarder. Other loads are offered at a set rate: "-".
limit = "-"
if load == "max":
    limit = "forwarder" if p.get("refused", 0) > 0 or p["lost"] > 0 else "source"
# the PMD CPU's frequency, the mean of a read at each end (cpufreq), else n/a
mhz = f"{(int(f0) + int(f1)) / 2000:.0f}" if f0 and f1 else "n/a"
row += [limit, f"{l.get('p99.9', l['p99']):.1f}", miss, s_poll, s_sleep, s_intr, dev, mhz]
with open(f"{out}/results.csv", "a") as f:
    f.write(",".join(str(x) for x in row) + "\n")
with open(f"{out}/cdf/{step}-{cfg.replace(':', '_')}.txt", "w") as f:
    for i, v in enumerate(p.get("lat_cdf_us", [])[:101]):
        f.write(f"{v} {i}\n")
print(f"  {cfg:>11} {load:>17}: CPU {cpu:5.1f} %, idle states {idle:>5} %, {watts} W, "
      f"p99 {l['p99']:8.1f} us, lost {p['lost']}" + (f", limited by the {limit}" if limit != "-" else ""))
PY
}
