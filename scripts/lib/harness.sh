# shellcheck shell=bash
# The process harness: the one way tests/integration and bench/ start lull,
# lull-gen and dpdk-testpmd, pin them, wait until they are ready and clean up.
# Sourced. Every process gets its own --file-prefix (H_ID-NAME) and log
# ($H_DIR/NAME.log) and is stopped by PID; namespaces and links made through
# the harness are removed at exit, also on failure.
#
#   h_init TAG                  H_ID, H_DIR; cleanup at exit
#   h_bg NAME CMD...            a background process; H_PID
#   h_dpdk NAME BIN EAL... -- ARGS...   a DPDK process with its own prefix; H_PID
#                               (H_WRAP="taskset -c 0 stdbuf -oL" runs it through those)
#   h_lull NAME EAL... -- ARGS...       lull, then h_ready; H_PID, H_PREFIX
#   h_ready PREFIX PID SECS     wait until lullctl config-show answers (as
#                               grout's smoke tests wait on the control socket)
#   h_stop PID SECS [SIG]       stop one process (SIGINT); H_RC = its exit code
#   h_memif INDEX ROLE NAME [ARGS]      memif devargs, socket in H_DIR
#   h_two_namespaces [MTU]      two netns joined through veth ends left here
#   h_hugepages N               reserve N 2-MB hugepages for the DPDK processes started
#                               after it (root); returned at exit. 1 if not possible
#   h_thread_tids PID PATTERN   every thread of PID whose name matches, one a line
#   h_thread_tid PID PATTERN    the first of them
#   h_worker_tid PID            the DPDK worker (PMD) thread of PID
#   h_thread_cpu_ns PID TID     its CPU time in ns (schedstat; else utime + stime)
#   h_threads_cpu_ns PID PATTERN  the sum over the threads that match, 0 if none
#   h_thread_pct PID TID SECS DECIMALS  its CPU over the next SECS, % of a core
#   h_opackets PREFIX           packets ports 0 and 1 of that process sent (/ethdev/stats)
#   h_udp_recv NAME COUNT IDLE_MS TIMEOUT_S   lull-udp's receiver in NS_B, once ready; H_PID
#   h_udp_send PROFILE          lull-udp's sender in NS_A; prints its result line
#   h_gen_lingers LOG PID SECS  wait until lull-gen (PID, --linger-ms) says in LOG that
#                               it has reported and lingers, or has exited; at most SECS
#   h_machine_notes             one line per fact of this machine that moves what
#                               the benches measure (DAMON reclaim running)
# LULL, LULL_GEN, LULLCTL, LULL_UDP, TESTPMD name the binaries (defaults: build/).

H_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LULL=${LULL:-$H_ROOT/build/fwd/lull}
LULL_GEN=${LULL_GEN:-$H_ROOT/build/gen/lull-gen}
LULLCTL=${LULLCTL:-$H_ROOT/build/ctl/lullctl}
LULL_UDP=${LULL_UDP:-$H_ROOT/build/gen/lull-udp}
TESTPMD=${TESTPMD:-dpdk-testpmd}
# Quiet EAL, no hugepages, no PCI: virtual devices only.
H_EAL=(--no-huge --no-pci --log-level=lib.eal:error)
H_PIDS=()
H_NETNS=()
H_LINKS=()

h_init() {
	H_ID="${1:-h}$$"
	H_DIR=$(mktemp -d "/tmp/lull-$H_ID.XXXXXX")
	trap h_cleanup EXIT
	trap 'exit 130' INT TERM
}

h_cleanup() {
	local pid l ns
	for pid in "${H_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
	for pid in "${H_PIDS[@]}"; do
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$pid" 2>/dev/null || true
	done
	for l in "${H_LINKS[@]}"; do ip link del "$l" 2>/dev/null || true; done
	for ns in "${H_NETNS[@]}"; do ip netns del "$ns" 2>/dev/null || true; done
	[ -n "${KEEP:-}" ] || rm -rf "$H_DIR"
	[ -z "${H_HUGE_PREV:-}" ] || echo "$H_HUGE_PREV" >/proc/sys/vm/nr_hugepages 2>/dev/null || true
	[ -z "${H_HUGE_MOUNT:-}" ] || umount "$H_HUGE_MOUNT" 2>/dev/null || true
}

h_hugepages() {
	local want=$1 sys=/proc/sys/vm/nr_hugepages free total
	[ -w "$sys" ] || return 1
	if ! grep -qs " hugetlbfs " /proc/mounts; then
		mkdir -p /dev/hugepages && mount -t hugetlbfs nodev /dev/hugepages 2>/dev/null || return 1
		H_HUGE_MOUNT=/dev/hugepages
	fi
	total=$(cat "$sys")
	free=$(awk '/^HugePages_Free/ {print $2}' /proc/meminfo)
	if [ "${free:-0}" -lt "$want" ]; then
		H_HUGE_PREV=$total
		echo $((total + want - free)) >"$sys" 2>/dev/null || return 1
		free=$(awk '/^HugePages_Free/ {print $2}' /proc/meminfo)
		[ "${free:-0}" -ge "$want" ] || return 1
	fi
	# EAL takes hugepages now; unlinked at once, so they are freed however it exits
	H_EAL=(--no-pci --huge-unlink --log-level=lib.eal:error)
}

h_bg() {
	local name=$1
	shift
	"$@" <"${H_STDIN:-/dev/null}" >"$H_DIR/$name.log" 2>&1 &
	H_PID=$!
	H_PIDS+=("$H_PID")
}

h_dpdk() {
	local name=$1 bin=$2
	shift 2
	local eal=() args=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do eal+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	args=("$@")
	H_PREFIX="$H_ID-$name"
	local wrap=()
	read -r -a wrap <<<"${H_WRAP:-}"
	h_bg "$name" "${wrap[@]}" "$bin" "${H_EAL[@]}" --file-prefix="$H_PREFIX" "${eal[@]}" -- "${args[@]}"
}

h_ready() {
	local prefix=$1 pid=$2 secs=$3
	for _ in $(seq $((secs * 10))); do
		"$LULLCTL" -f "$prefix" config-show >/dev/null 2>&1 && return 0
		kill -0 "$pid" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

h_lull() {
	local name=$1
	shift
	h_dpdk "$name" "$LULL" "$@"
	h_ready "$H_PREFIX" "$H_PID" "${H_READY_SECS:-60}"
}

h_stop() {
	local pid=$1 secs=$2 sig=${3:-INT}
	kill -"$sig" "$pid" 2>/dev/null || true
	for _ in $(seq $((secs * 10))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$pid" 2>/dev/null && { kill -KILL "$pid" 2>/dev/null || true; H_RC=137; return 1; }
	H_RC=0
	wait "$pid" 2>/dev/null || H_RC=$?
	return 0
}

h_memif() {
	echo "net_memif$1,role=$2,socket=$H_DIR/$3.sock,socket-abstract=no${4:+,$4}"
}

# h_thread_tids PID PATTERN: every thread of PID whose name matches the shell
# PATTERN, one a line; fails if none. A thread that exits meanwhile (DPDK's
# telemetry runs a thread per client connection) is skipped, not an error.
h_thread_tids() {
	local t c found=1
	for t in /proc/"$1"/task/*; do
		c=$(cat "$t/comm" 2>/dev/null) || continue
		# shellcheck disable=SC2254 # a pattern
		case $c in $2) echo "${t##*/}" && found=0 ;; esac
	done
	return $found
}

# h_thread_tid PID PATTERN: the first of them
h_thread_tid() {
	local tids
	tids=$(h_thread_tids "$1" "$2") || return 1
	echo "${tids%%$'\n'*}"
}

h_worker_tid() {
	h_thread_tid "$1" "*worker*"
}

# h_thread_cpu_ns PID TID: the thread's CPU time in ns. From schedstat (ns): utime +
# stime come in clock ticks, 10 ms, and over 3 s that is 0.33 % of a core - as
# much as an idle PMD's whole CPU. Without schedstat (CONFIG_SCHED_INFO), ticks.
# Fails, printing nothing, when the thread is gone.
h_thread_cpu_ns() {
	local ns
	if read -r ns _ <"/proc/$1/task/$2/schedstat" 2>/dev/null; then
		echo "$ns"
	elif [ -r "/proc/$1/task/$2/stat" ]; then
		awk -v hz="$(getconf CLK_TCK)" '{printf "%.0f\n", ($14 + $15) * 1e9 / hz}' \
			"/proc/$1/task/$2/stat"
	else
		return 1
	fi
}

# h_threads_cpu_ns PID PATTERN: the CPU time in ns of every thread of PID whose
# name matches, summed (a thread gone meanwhile counts 0; none at all: 0)
h_threads_cpu_ns() {
	local t ns s=0
	for t in $(h_thread_tids "$1" "$2"); do
		ns=$(h_thread_cpu_ns "$1" "$t") && s=$((s + ns))
	done
	echo "$s"
}

# h_thread_rq_ns PID TID: how long the thread has waited in a run queue, ns
# (schedstat's second field; fails without schedstat)
h_thread_rq_ns() {
	local _ q
	read -r _ q _ <"/proc/$1/task/$2/schedstat" 2>/dev/null && echo "$q"
}

# h_thread_vcs PID TID: the thread's voluntary context switches so far (each
# sleep and each blocking wait is one: its wakes)
h_thread_vcs() {
	awk '/^voluntary_ctxt_switches/ {print $2; f = 1} END {exit !f}' \
		"/proc/$1/task/$2/status" 2>/dev/null
}

# h_thread_pct PID TID SECS DECIMALS [rq] [wakes]: the thread's CPU over the
# next SECS (decimals allowed), as a % of one core, to DECIMALS places; with
# rq, then its run-queue wait over the same SECS, ms per second; with wakes,
# then its wakes per second (h_thread_vcs)
h_thread_pct() {
	local a b qa=0 qb=0 va=0 vb=0 rq="" wk=""
	case " ${*:5} " in *" rq "*) rq=1 ;; esac
	case " ${*:5} " in *" wakes "*) wk=1 ;; esac
	a=$(h_thread_cpu_ns "$1" "$2") || return 1
	[ -z "$rq" ] || qa=$(h_thread_rq_ns "$1" "$2") || return 1
	[ -z "$wk" ] || va=$(h_thread_vcs "$1" "$2") || return 1
	sleep "$3"
	b=$(h_thread_cpu_ns "$1" "$2") || return 1
	[ -z "$rq" ] || qb=$(h_thread_rq_ns "$1" "$2") || return 1
	[ -z "$wk" ] || vb=$(h_thread_vcs "$1" "$2") || return 1
	awk -v d=$((b - a)) -v q=$((qb - qa)) -v v=$((vb - va)) -v s="$3" -v p="$4" \
		-v rq="$rq" -v wk="$wk" 'BEGIN {
		printf "%.*f", p, d * 100 / (s * 1e9)
		if (rq) printf " %.2f", q / (s * 1e6)
		if (wk) printf " %.0f", v / s
		printf "\n"
	}'
}

h_opackets() {
	local p v s=0
	for p in 0 1; do
		v=$("$LULLCTL" -f "$1" --json raw "/ethdev/stats,$p" |
			python3 -c 'import json, sys; print(json.load(sys.stdin)["opackets"])')
		s=$((s + v))
	done
	echo "$s"
}

# h_two_namespaces [MTU_A]: namespaces NS_A and NS_B, each with one end of a veth
# pair (VA0 in A, VB0 in B; 198.18.0.1 and .2/24); the other ends VA1 and VB1
# stay here for lull's af_packet ports. tx checksum offload off (UDP through
# af_packet needs it). MTU_A: the MTU of A's pair (default 1500). All are
# removed at exit.
h_two_namespaces() {
	local mtu=${1:-1500}
	NS_A="$H_ID-a" NS_B="$H_ID-b"
	# veth names must be unique in the root namespace and at most 15 characters
	VA0="${H_ID}a0" VA1="${H_ID}a1" VB0="${H_ID}b0" VB1="${H_ID}b1"
	ip netns add "$NS_A" && H_NETNS+=("$NS_A")
	ip netns add "$NS_B" && H_NETNS+=("$NS_B")
	ip link add "$VA0" type veth peer name "$VA1" && H_LINKS+=("$VA1")
	ip link add "$VB0" type veth peer name "$VB1" && H_LINKS+=("$VB1")
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

# h_tap_namespaces: namespaces NS_A and NS_B (198.18.0.1 and .2/24 on VA0 and VB0,
# static ARP both ways), whose veth peers here sit in bridges BR_A and BR_B; lull's
# net_tap ports are to be named TAP_A and TAP_B, and h_tap_join puts them in the
# bridges once lull made them. UDP from A to B then crosses lull: A -> veth ->
# BR_A -> TAP_A -> lull -> TAP_B -> BR_B -> veth -> B. Removed at exit.
h_tap_namespaces() {
	NS_A="$H_ID-ta" NS_B="$H_ID-tb"
	VA0="${H_ID}va0" VA1="${H_ID}va1" VB0="${H_ID}vb0" VB1="${H_ID}vb1"
	BR_A="${H_ID}bra" BR_B="${H_ID}brb" TAP_A="${H_ID}ta" TAP_B="${H_ID}tb"
	ip netns add "$NS_A" && H_NETNS+=("$NS_A")
	ip netns add "$NS_B" && H_NETNS+=("$NS_B")
	ip link add "$VA0" type veth peer name "$VA1" && H_LINKS+=("$VA1")
	ip link add "$VB0" type veth peer name "$VB1" && H_LINKS+=("$VB1")
	ip link add "$BR_A" type bridge && H_LINKS+=("$BR_A")
	ip link add "$BR_B" type bridge && H_LINKS+=("$BR_B")
	ip link set "$VA0" netns "$NS_A"
	ip link set "$VB0" netns "$NS_B"
	ip -n "$NS_A" addr add 198.18.0.1/24 dev "$VA0"
	ip -n "$NS_B" addr add 198.18.0.2/24 dev "$VB0"
	for l in "$BR_A" "$BR_B" "$VA1" "$VB1"; do
		sysctl -qw "net.ipv6.conf.$l.disable_ipv6=1" 2>/dev/null || true
	done
	ip link set "$VA1" master "$BR_A"
	ip link set "$VB1" master "$BR_B"
	for l in "$BR_A" "$BR_B" "$VA1" "$VB1"; do ip link set "$l" up; done
	ip netns exec "$NS_A" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	ip netns exec "$NS_B" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	ip -n "$NS_A" link set "$VA0" up
	ip -n "$NS_B" link set "$VB0" up
	ip netns exec "$NS_A" ethtool -K "$VA0" tx off >/dev/null 2>&1 || true
	ip netns exec "$NS_B" ethtool -K "$VB0" tx off >/dev/null 2>&1 || true
	ip -n "$NS_A" neigh replace 198.18.0.2 dev "$VA0" nud permanent \
		lladdr "$(ip -n "$NS_B" -br link show "$VB0" | awk '{print $3}')"
	ip -n "$NS_B" neigh replace 198.18.0.1 dev "$VB0" nud permanent \
		lladdr "$(ip -n "$NS_A" -br link show "$VA0" | awk '{print $3}')"
}

# h_tap_join: TAP_A and TAP_B (made by lull) into their bridges, up, quiet.
h_tap_join() {
	local t
	for t in "$TAP_A" "$TAP_B"; do
		sysctl -qw "net.ipv6.conf.$t.disable_ipv6=1" 2>/dev/null || true
	done
	ip link set "$TAP_A" master "$BR_A"
	ip link set "$TAP_B" master "$BR_B"
	ip link set "$TAP_A" up
	ip link set "$TAP_B" up
}

# h_udp_recv NAME COUNT IDLE_MS TIMEOUT_S: lull-udp's receiver on VB0 in NS_B
# (h_tap_namespaces), in the background; returns once it says ready (5 s at
# most; 1 if it did not). H_PID. Its stdout, whose last line is the result,
# goes to $H_DIR/NAME.rx, apart from its stderr (NAME.log).
h_udp_recv() {
	local name=$1
	ip netns exec "$NS_B" "$LULL_UDP" recv --dev "$VB0" --count "$2" --idle-ms "$3" \
		--timeout-s "$4" </dev/null >"$H_DIR/$name.rx" 2>"$H_DIR/$name.log" &
	H_PID=$!
	H_PIDS+=("$H_PID")
	for _ in $(seq 50); do
		grep -qs ready "$H_DIR/$name.rx" && return 0
		kill -0 "$H_PID" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# h_udp_send PROFILE: lull-udp's sender on VA0 in NS_A, lull-gen's profile
# syntax (rate:100k:5s); prints its result line (sent=, offered=, elapsed_ms=).
h_udp_send() {
	ip netns exec "$NS_A" "$LULL_UDP" send --dev "$VA0" --profile "$1"
}

# h_gen_lingers LOG PID SECS: lull-gen has reported and keeps its memif ports
# open until the peer stops (--linger-ms), or it has exited: the peer may stop
# now without polling a ring lull-gen unmaps (DPDK 22.11's memif race)
h_gen_lingers() {
	local i
	for ((i = 0; i < $3 * 20; i++)); do
		grep -qs "lingering until the peer stops" "$1" && return 0
		kill -0 "$2" 2>/dev/null || return 0
		sleep 0.05
	done
	return 0
}

# h_machine_notes: what on this machine moves a sleeping PMD's latency tail.
# DAMON (kdamond threads: proactive reclaim, as a VM's host may run) samples
# memory every few hundred ms; on the VM lull is developed on, a PMD whose CPU
# idles meets stalls of up to ~10 ms after those passes and a busy PMD does
# not: OVS 250's one-way p99 at 1 kpps was 0.6-3.9 ms with it, 0.34-0.54 ms
# with it paused (docs/benchmarks.md). And whether the kernel keeps the PMDs'
# CPU (1) for them: isolcpus= or an isolated cpuset partition, as
# lib/sched_view.c reads it; where it does not, other threads that moved there
# while a PMD slept preempt it near capacity (docs/tuning.md).
h_machine_notes() {
	local n
	n=$(pgrep -c '^kdamond' 2>/dev/null) || n=0
	[ "$n" -eq 0 ] ||
		echo "machine: DAMON runs ($n kdamond thread(s)): the p99 of every sleeping configuration includes the stalls its passes cause here (docs/benchmarks.md)"
	h_cpu_isolated 1 ||
		echo "machine: CPU 1 (the PMD's) is not isolated (isolcpus=, an isolated cpuset): other threads may run there, which near capacity costs a PMD that slept more than a busy one (docs/tuning.md)"
	return 0
}

# h_cpu_isolated CPUS: whether every CPU of CPUS (one, or a list such as
# "1-3,5") is in /sys/devices/system/cpu/isolated or
# /sys/fs/cgroup/cpuset.cpus.isolated, as lib/sched_view.c judges "kept"
h_cpu_isolated() {
	local list item c
	list="$(cat /sys/devices/system/cpu/isolated 2>/dev/null),$(cat /sys/fs/cgroup/cpuset.cpus.isolated 2>/dev/null)"
	[ -n "$1" ] || return 1
	for item in ${1//,/ }; do
		for ((c = ${item%-*}; c <= ${item#*-}; c++)); do
			h_cpu_in_list "$c" "$list" || return 1
		done
	done
	return 0
}

# h_cpu_in_list CPU LIST: whether CPU is in LIST ("1-3,5", items may be empty)
h_cpu_in_list() {
	local item lo hi
	for item in ${2//,/ }; do
		lo=${item%-*} hi=${item#*-}
		[ "$1" -ge "$lo" ] && [ "$1" -le "$hi" ] && return 0
	done
	return 1
}
