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
