# shellcheck shell=bash
# Helpers for integration tests: unique names, background processes tracked by
# PID, namespaces, and cleanup of everything a test started, also on failure.
set -euo pipefail

LULL=${LULL:?set LULL to the lull binary}
# shellcheck source=../../scripts/lib/harness.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib/harness.sh"
h_init lt
T_ID=$H_ID   # unique per test run: prefixes, sockets, netns
T_DIR=$H_DIR
declare -n T_PIDS=H_PIDS T_NETNS=H_NETNS T_LINKS=H_LINKS # cleaned up at exit
EAL_COMMON=("${H_EAL[@]}")

log() { printf '[%s] %s\n' "$(basename "$0")" "$*"; }
die() {
	log "FAIL: $*"
	for f in "$T_DIR"/*.log; do
		[ -f "$f" ] && { echo "---- $f"; tail -n 40 "$f"; }
	done
	exit 1
}

# sorted "A B C": the numbers (integers or decimals) of a space-separated list,
# one a line, smallest first
sorted() { tr ' ' '\n' <<<"$1" | { grep . || true; } | sort -g; }
# median3 "A B C": the median of three (alternated rounds judged on their medians)
median3() {
	local m
	m=$(sorted "$1" | sed -n 2p)
	[ -n "$m" ] || die "median3: fewer than three values in '$1'"
	echo "$m"
}
# median_of "A B ...": the median of a list (the lower of the middle two)
median_of() {
	local m
	m=$(sorted "$1" | awk '{v[NR] = $1} END {if (NR) print v[int((NR + 1) / 2)]}')
	[ -n "$m" ] || die "median_of: no values"
	echo "$m"
}

# bg NAME CMD...: start CMD in the background, output to $T_DIR/NAME.log, input from
# $BG_STDIN (default /dev/null); sets BG_PID.
bg() {
	H_STDIN=${BG_STDIN:-/dev/null} h_bg "$@"
	BG_PID=$H_PID
}

# lull_ready NAME PID [SECONDS]: wait until lull (--file-prefix $T_ID-NAME) takes
# control commands (lullctl config-show answers); die if it exits first.
lull_ready() {
	h_ready "$T_ID-$1" "$2" "${3:-30}" || die "lull $1 not ready (lullctl config-show)"
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

# stall_watch_bg CPU: a thread on CPU that sleeps 1 ms at a time and keeps the
# longest gap between two of its wakes: how long every ordinary thread there
# was kept from the CPU (the host stopping the vCPU, or kernel work that did
# not yield). A PMD beside it delays its wakes too: beside testpmd with lull
# at 100 kpps, without a loss, the longest gap was 4-13 ms (nap_testpmd), so
# it tells apart stalls of tens of milliseconds and more. stall_watch_ms
# stops it and prints that gap in ms.
stall_watch_bg() {
	bg stallwatch taskset -c "$1" python3 -c '
import signal, sys, time
gap = 0.0
def done(*_):
    print(f"{gap * 1000:.1f}", flush=True)
    sys.exit(0)
signal.signal(signal.SIGTERM, done)
print("watching", flush=True)
t = time.monotonic()
while True:
    time.sleep(0.001)
    n = time.monotonic()
    gap = max(gap, n - t)
    t = n
'
	STALL_PID=$BG_PID
	wait_log stallwatch "^watching" 10
}
stall_watch_ms() {
	kill -TERM "$STALL_PID" 2>/dev/null || true
	wait "$STALL_PID" || true
	tail -n 1 "$T_DIR/stallwatch.log"
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

# gen_then_lull_stop GEN_NAME GEN_PID LULL_PID SECONDS: lull-gen (run with
# --linger-ms) reports, then lull stops, then lull-gen, seeing its links down,
# exits: neither side polls a memif ring its peer unmaps (DPDK 22.11's
# memif_disconnect unmaps the rings under a running rx burst: a busy lull
# crashed so when lull-gen closed first). Sets STOP_RC (lull's exit code) and
# GEN_RC (lull-gen's).
gen_then_lull_stop() {
	local gname=$1 gpid=$2 lpid=$3 secs=$4
	h_gen_lingers "$T_DIR/$gname.log" "$gpid" "$secs"
	stop_wait "$lpid" 20
	local lull_rc=$STOP_RC
	stop_wait "$gpid" 10 # lull-gen leaves by itself once lull is gone; SIGINT if not yet
	GEN_RC=$STOP_RC STOP_RC=$lull_rc
}

# tap_up IFACE...: the kernel side of net_tap ports up, quiet (no IPv6
# autoconfiguration traffic).
tap_up() {
	local i
	for i in "$@"; do
		sysctl -qw "net.ipv6.conf.$i.disable_ipv6=1" 2>/dev/null || true
		ip link set "$i" up
	done
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
	lull_ready "$name" "$BG_PID"
	"$LULLCTL" -f "$T_ID-$name" config-show | grep -qx "fwd_mode: $mode" ||
		die "lull $name is not in $mode mode"
}

# gen_bg NAME LCORE SOCK_A SOCK_B LULL-GEN-ARGS...: lull-gen in the background on
# LCORE, memif client of SOCK_A (its tx port) and SOCK_B (its rx port); output
# in $T_DIR/NAME.log; sets BG_PID. GEN_RSIZE=N: memif rings of 2^N slots (the
# client sets both directions' size).
gen_bg() {
	local name=$1 lcore=$2 sa=$3 sb=$4 ring=${GEN_RSIZE:+,rsize=$GEN_RSIZE}
	shift 4
	bg "$name" "${LULL_GEN:?set LULL_GEN to the lull-gen binary}" -l "$lcore" -m 256 \
		"${EAL_COMMON[@]}" --file-prefix="$T_ID-$name" \
		--vdev "$(memif_vdev 0 client "$sa")$ring" --vdev "$(memif_vdev 1 client "$sb")$ring" -- "$@"
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

# pmd_cpu_pct PID SECONDS [THREAD]: % of one CPU the PMD thread (lcore worker,
# or the thread named THREAD, e.g. rte-worker-2) of PID used over SECONDS
# (h_thread_cpu_ns: schedstat's ns), to a tenth of a % (compare with fcmp).
pmd_cpu_pct() {
	local pid=$1 secs=$2 name=${3:-*worker*} tid
	tid=$(h_thread_tid "$pid" "$name") || die "no thread $name in process $pid"
	h_thread_pct "$pid" "$tid" "$secs" 1 || die "thread $name of process $pid exited"
}

# thread_stat PID TID FIELD: field FIELD (numbered as in proc(5)) of the
# thread's /proc stat line, read past the command name (which may hold
# spaces). 41 is the scheduling policy (0 SCHED_OTHER, 1 SCHED_FIFO), 40 the
# real-time priority, 19 the nice value, 18 the kernel's priority.
thread_stat() {
	local line
	line=$(cat "/proc/$1/task/$2/stat") || return 1
	line=${line##*) }
	awk -v f="$3" '{print $(f - 2)}' <<<"$line"
}

# fcmp 'EXPR' NAME=VALUE...: true when the awk expression over the named
# decimal values holds, e.g. fcmp 'a * 2 < b' a=1.5 b=4
fcmp() {
	local expr=$1 v args=()
	shift
	for v in "$@"; do args+=(-v "$v"); done
	awk "${args[@]}" "BEGIN {exit !($expr)}"
}

# nap_preload: PRELOAD, what LD_PRELOAD takes to load lull into a host (the
# module of $LULL_PRELOAD). A sanitized build's module needs its runtime loaded
# first: testpmd and OVS have none (clang's ASan runtime carries UBSan's
# handlers too). (grep reads it all: with -q it may exit first, nm dies of
# SIGPIPE, pipefail says no.)
nap_preload() {
	PRELOAD=${LULL_PRELOAD:?set LULL_PRELOAD to lullnap-preload.so}
	if nm -D --undefined-only "$PRELOAD" | grep " __asan_" >/dev/null; then
		PRELOAD="$(clang -print-file-name=libclang_rt.asan-x86_64.so):$PRELOAD"
		export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
		log "sanitized module: LD_PRELOAD=$PRELOAD"
	fi
}

# testpmd_bg NAME PRELOAD EAL-ARGS...: testpmd in io mode on lcores 0 (main)
# and 1 (forwarding), started, fed commands through fd 9; TP_PID, TP_PREFIX
testpmd_bg() {
	local name=$1 pre=$2 fifo="$T_DIR/$1.cmd"
	shift 2
	mkfifo "$fifo"
	exec 9<>"$fifo"
	TP_PREFIX="$T_ID-$name"
	BG_STDIN=$fifo LD_PRELOAD=$pre bg "$name" stdbuf -oL "$TESTPMD" -l 0,1 -m 512 \
		"${EAL_COMMON[@]}" --file-prefix="$TP_PREFIX" "$@" \
		-- -i --nb-cores=1 --forward-mode=io --total-num-mbufs=16384
	TP_PID=$BG_PID
	echo "start" >&9
	wait_log "$name" "io packet forwarding - ports=2" 30
}

# testpmd_quit NAME: quit testpmd_bg's testpmd; it must exit 0 within 10 s
testpmd_quit() {
	echo "quit" >&9
	exec 9>&-
	for _ in $(seq 100); do kill -0 "$TP_PID" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$TP_PID" 2>/dev/null && die "testpmd $1 did not quit"
	wait "$TP_PID" || die "testpmd $1 exited with $?"
}

# hammer_bg SOCK TAG COMMAND...: a telemetry client (scripts/lib/tel_hammer.py)
# that fires the COMMANDs at SOCK until its process is gone (30 s at most),
# every reply valid JSON; output in $T_DIR/hTAG.out. hammers_ready waits until
# every client started is connected (a loaded machine starts python slowly:
# a client that came after the process was gone would test nothing);
# hammers_wait, that each exited 0.
HAMMERS=()
hammer_bg() {
	local sock=$1 tag=$2
	shift 2
	python3 "$H_ROOT/scripts/lib/tel_hammer.py" --ready "$T_DIR/h$tag.ready" "$sock" 30 "$@" \
		>"$T_DIR/h$tag.out" 2>&1 &
	HAMMERS+=("$!:$tag")
	T_PIDS+=($!)
}

hammers_ready() {
	local n h
	for _ in $(seq 100); do
		n=0
		for h in "${HAMMERS[@]}"; do [ ! -e "$T_DIR/h${h#*:}.ready" ] || n=$((n + 1)); done
		[ "$n" != "${#HAMMERS[@]}" ] || return 0
		sleep 0.1
	done
	die "the telemetry clients did not connect in 10 s"
}

hammers_wait() {
	local h
	for h in "${HAMMERS[@]}"; do
		wait "${h%%:*}" || die "client ${h#*:}: $(cat "$T_DIR/h${h#*:}.out")"
	done
	HAMMERS=()
}

# afp_flood PID NS IFACE N: stop PID (SIGSTOP), send N raw frames from NS into
# IFACE (a veth whose peer is PID's af_packet port), let PID run again
afp_flood() {
	kill -STOP "$1"
	ip netns exec "$2" python3 - "$3" "$4" <<'FLOOD'
import socket, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[1], 0))
frame = b"\x02\x00\x00\x00\x00\x02" + b"\x02\x00\x00\x00\x00\x01" + b"\x88\xb5" + bytes(50)
for _ in range(int(sys.argv[2])):
    s.send(frame)
FLOOD
	kill -CONT "$1"
}
