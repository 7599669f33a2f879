# shellcheck shell=bash
# Helpers for integration tests: unique names, background processes tracked by
# PID, namespaces, and cleanup of everything a test started, also on failure.
set -euo pipefail

LULL=${LULL:?set LULL to the lull binary}
TESTPMD=${TESTPMD:-dpdk-testpmd}
T_ID="lt$$"                       # unique per test run: prefixes, sockets, netns
T_DIR=$(mktemp -d "/tmp/lull-test-$T_ID.XXXXXX")
T_PIDS=()
T_NETNS=()
T_LINKS=()
# Quiet EAL; every DPDK process gets its own --file-prefix.
EAL_COMMON=(--no-huge --no-pci --log-level=lib.eal:error)

log() { printf '[%s] %s\n' "$(basename "$0")" "$*"; }
die() {
	log "FAIL: $*"
	for f in "$T_DIR"/*.log; do
		[ -f "$f" ] && { echo "---- $f"; tail -n 40 "$f"; }
	done
	exit 1
}

cleanup() {
	local pid
	for pid in "${T_PIDS[@]}"; do
		kill -TERM "$pid" 2>/dev/null || true
	done
	for pid in "${T_PIDS[@]}"; do
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$pid" 2>/dev/null || true
	done
	for l in "${T_LINKS[@]}"; do ip link del "$l" 2>/dev/null || true; done
	for ns in "${T_NETNS[@]}"; do ip netns del "$ns" 2>/dev/null || true; done
	[ -n "${KEEP:-}" ] || rm -rf "$T_DIR"
}
trap cleanup EXIT

# bg NAME CMD...: start CMD in the background, output to $T_DIR/NAME.log, input from
# $BG_STDIN (default /dev/null); sets BG_PID.
bg() {
	local name=$1
	shift
	"$@" <"${BG_STDIN:-/dev/null}" >"$T_DIR/$name.log" 2>&1 &
	BG_PID=$!
	T_PIDS+=("$BG_PID")
}

# wait_log NAME PATTERN SECONDS [COUNT]: wait until the log has COUNT (default 1)
# lines matching PATTERN.
wait_log() {
	local name=$1 pattern=$2 secs=$3 count=${4:-1}
	for _ in $(seq $((secs * 10))); do
		[ "$(grep -Ec -- "$pattern" "$T_DIR/$name.log" 2>/dev/null)" -ge "$count" ] && return 0
		sleep 0.1
	done
	die "fewer than $count '$pattern' in $name.log after ${secs}s"
}

# stop_wait PID SECONDS: SIGINT, then wait for exit; sets STOP_RC to its exit code.
stop_wait() {
	local pid=$1 secs=$2
	kill -INT "$pid" 2>/dev/null || true
	for _ in $(seq $((secs * 10))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$pid" 2>/dev/null && die "process $pid still running ${secs}s after SIGINT"
	STOP_RC=0
	wait "$pid" || STOP_RC=$?
}

# memif_vdev INDEX ROLE SOCKET: devargs of one memif port.
memif_vdev() {
	echo "net_memif$1,role=$2,socket=$3,socket-abstract=no"
}

# lull_memif_bg NAME SOCK_A SOCK_B [LULL-ARGS...]: lull in the background on
# lcores 0,1 (PMD on 1), memif server of SOCK_A (port 0) and SOCK_B (port 1),
# --file-prefix $T_ID-NAME, output in $T_DIR/NAME.log; returns once it forwards
# in the --fwd-mode of LULL-ARGS (default io). Sets BG_PID.
lull_memif_bg() {
	local name=$1 sa=$2 sb=$3 mode=io prev="" a
	shift 3
	for a in "$@"; do
		[ "$prev" = --fwd-mode ] && mode=$a
		prev=$a
	done
	bg "$name" "$LULL" -l 0,1 -m 512 "${EAL_COMMON[@]}" --file-prefix="$T_ID-$name" \
		--vdev "$(memif_vdev 0 server "$sa")" --vdev "$(memif_vdev 1 server "$sb")" \
		-- --link-wait-ms 30000 "$@"
	wait_log "$name" "forwarding in $mode mode" 30
}

# gen_bg NAME LCORE SOCK_A SOCK_B LULL-GEN-ARGS...: lull-gen in the background on
# LCORE, memif client of SOCK_A (its tx port) and SOCK_B (its rx port); output
# in $T_DIR/NAME.log; sets BG_PID.
gen_bg() {
	local name=$1 lcore=$2 sa=$3 sb=$4
	shift 4
	bg "$name" "${LULL_GEN:?set LULL_GEN to the lull-gen binary}" -l "$lcore" -m 256 \
		"${EAL_COMMON[@]}" --file-prefix="$T_ID-$name" \
		--vdev "$(memif_vdev 0 client "$sa")" --vdev "$(memif_vdev 1 client "$sb")" -- "$@"
}

# lull_total LOG COLUMN: sum a column of the port table in lull's final stats.
#   columns: 5 = rx-packets, 6 = tx-packets, 7 = rx-missed, 8 = tx-dropped
lull_total() {
	awk -v col="$2" '/^lull final stats/ {f = 1; next}
		f && /^ +port / {p = 1; next}
		f && p && /^ +pmd / {exit}
		f && p {s += $col} END {print s + 0}' "$1"
}

# testpmd_total LOG RX|TX: the accumulated forward statistics testpmd prints at
# each stop, summed over every start/stop cycle in the log.
testpmd_total() {
	awk -v key="$2-packets:" '/Accumulated forward statistics/ {f = 1; next}
		f && $1 == key {s += $2; f = 0} END {print s + 0}' "$1"
}

# pmd_cpu_pct PID SECONDS: % of one CPU the PMD thread (lcore worker) of PID used
# over SECONDS (utime + stime from /proc/PID/task/TID/stat).
pmd_cpu_pct() {
	local pid=$1 secs=$2 tid="" t a b
	for t in /proc/"$pid"/task/*; do
		case "$(cat "$t/comm")" in *worker*) tid=${t##*/} ;; esac
	done
	[ -n "$tid" ] || die "no PMD thread in process $pid"
	a=$(awk '{print $14 + $15}' "/proc/$pid/task/$tid/stat")
	sleep "$secs"
	b=$(awk '{print $14 + $15}' "/proc/$pid/task/$tid/stat")
	echo $(((b - a) * 100 / (secs * $(getconf CLK_TCK))))
}

# two_namespaces [MTU_A]: namespaces NS_A and NS_B, each with one end of a veth
# pair (VA0 in A, VB0 in B; 198.18.0.1 and .2/24); the other ends VA1 and VB1
# stay here for lull's af_packet ports. tx checksum offload off (UDP through
# af_packet needs it). MTU_A: the MTU of A's pair (default 1500). All are
# removed at exit.
two_namespaces() {
	local mtu=${1:-1500}
	NS_A="$T_ID-a" NS_B="$T_ID-b"
	# veth names must be unique in the root namespace and at most 15 characters
	VA0="${T_ID}a0" VA1="${T_ID}a1" VB0="${T_ID}b0" VB1="${T_ID}b1"
	ip netns add "$NS_A" && T_NETNS+=("$NS_A")
	ip netns add "$NS_B" && T_NETNS+=("$NS_B")
	ip link add "$VA0" type veth peer name "$VA1" && T_LINKS+=("$VA1")
	ip link add "$VB0" type veth peer name "$VB1" && T_LINKS+=("$VB1")
	ip link set "$VA0" netns "$NS_A"
	ip link set "$VB0" netns "$NS_B"
	ip -n "$NS_A" link set "$VA0" mtu "$mtu"
	ip link set "$VA1" mtu "$mtu"
	# 198.18.0.0/15 is reserved for benchmarking (RFC 2544) and lives only here
	ip -n "$NS_A" addr add 198.18.0.1/24 dev "$VA0"
	ip -n "$NS_B" addr add 198.18.0.2/24 dev "$VB0"
	for dev in "$VA1" "$VB1"; do
		ip link set "$dev" up
		ethtool -K "$dev" tx off >/dev/null 2>&1 || true
	done
	ip -n "$NS_A" link set "$VA0" up
	ip -n "$NS_B" link set "$VB0" up
	ip netns exec "$NS_A" ethtool -K "$VA0" tx off >/dev/null 2>&1 || true
	ip netns exec "$NS_B" ethtool -K "$VB0" tx off >/dev/null 2>&1 || true
}
