# shellcheck shell=bash
# Debian's own OVS-DPDK (package openvswitch-switch-dpdk), started by the
# harness (harness.sh, sourced first) in a run directory of its own, with no
# hugepages, and stopped by PID at exit like every other process there.
#
#   ovs_start NAME PRELOAD [KEY=VALUE...]   ovsdb-server + ovs-vswitchd-dpdk; the
#                  other_config KEY=VALUEs are set before it starts (pmd-cpu-mask
#                  0x2, lcore mask 0x1, 1 GB of 4-KB pages through dpdk-extra, EAL's
#                  --file-prefix OVS_PREFIX); PRELOAD ("" for none) is LD_PRELOADed;
#                  returns once DPDK is initialized. OVS_PID, OVS_PREFIX, OVS_DIR
#   ovs_bridge DEVARGS-1 DEVARGS-2 [COLUMNS]   bridge br0 (userspace datapath),
#                  ports p1 and p2 (OpenFlow ports 1 and 2) on those DPDK devices,
#                  with COLUMNS on both ("options:n_rxq=2": net_tap wants as many
#                  rx queues as OVS has tx queues), flows 1<->2; returns once the
#                  PMD polls both
#   ovs_vsctl / ovs_appctl / ovs_ofctl ARGS...   the tools, against this OVS
#   ovs_pmd_tid    the PMD thread of OVS_PID (OVS names it pmd-c01/id:N)
#   ovs_stop       `ovs-appctl exit --cleanup` (SIGTERM after 10 s; the
#                  datapath goes with it: no br0 or ovs-netdev tap is left
#                  behind), then the database;
#                  1 if vswitchd had to be killed; H_RC its exit code
# OVS_VSWITCHD names the binary (default: Debian's DPDK build).
OVS_VSWITCHD=${OVS_VSWITCHD:-/usr/lib/openvswitch-switch-dpdk/ovs-vswitchd-dpdk}
OVS_SCHEMA=${OVS_SCHEMA:-/usr/share/openvswitch/vswitch.ovsschema}

# env(1) execs the program: a process started through it keeps its PID
ovs_env() {
	env OVS_RUNDIR="$OVS_DIR" OVS_DBDIR="$OVS_DIR" OVS_LOGDIR="$OVS_DIR" \
		OVS_SYSCONFDIR="$OVS_DIR" "$@"
}
ovs_env_argv() {
	OVS_ENV=(env OVS_RUNDIR="$OVS_DIR" OVS_DBDIR="$OVS_DIR" OVS_LOGDIR="$OVS_DIR"
		OVS_SYSCONFDIR="$OVS_DIR")
}
ovs_vsctl() { ovs_env ovs-vsctl --db="unix:$OVS_DIR/db.sock" --timeout=30 "$@"; }
ovs_appctl() { ovs_env ovs-appctl --timeout=30 -t "$OVS_DIR/vswitchd.ctl" "$@"; }
ovs_ofctl() { ovs_env ovs-ofctl --timeout=30 "$@"; }

ovs_start() {
	local name=$1 pre=$2 kv b
	shift 2
	for b in "$OVS_VSWITCHD" ovsdb-server ovsdb-tool ovs-vsctl ovs-appctl ovs-ofctl; do
		command -v "$b" >/dev/null || {
			echo "ovs_start: $b not found (Debian packages openvswitch-switch-dpdk)" >&2
			return 1
		}
	done
	OVS_DIR="$H_DIR/ovs-$name"
	OVS_PREFIX="$H_ID-$name"
	mkdir -p "$OVS_DIR"
	ovs_env_argv
	ovsdb-tool create "$OVS_DIR/conf.db" "$OVS_SCHEMA" || return 1
	h_bg "$name-db" "${OVS_ENV[@]}" ovsdb-server "$OVS_DIR/conf.db" --remote="punix:$OVS_DIR/db.sock" \
		--unixctl="$OVS_DIR/db.ctl" --log-file="$OVS_DIR/db.log" -vconsole:off
	for _ in $(seq 100); do [ -S "$OVS_DIR/db.sock" ] && break; sleep 0.1; done
	ovs_vsctl --no-wait init || return 1
	# 4-KB pages always (hugepages the harness reserved are the DPDK
	# programs' beside it); --legacy-mem: OVS adds --in-memory otherwise,
	# which --no-huge refuses
	local -A oc=([dpdk-init]=true [dpdk-lcore-mask]=0x1 [pmd-cpu-mask]=0x2
		[dpdk-extra]="--no-huge --no-pci --log-level=lib.eal:error --legacy-mem -m 1024 --file-prefix=$OVS_PREFIX")
	for kv in "$@"; do oc[${kv%%=*}]=${kv#*=}; done
	local args=()
	for kv in "${!oc[@]}"; do args+=("other_config:$kv=${oc[$kv]}"); done
	ovs_vsctl --no-wait set Open_vSwitch . "${args[@]}" || return 1
	# --mlockall as Debian's ovs-ctl starts it (its 4-KB DPDK memory stays
	# out of reach of a reclaim such as this VM's DAMON pageout scheme)
	LD_PRELOAD=$pre h_bg "$name" "${OVS_ENV[@]}" "$OVS_VSWITCHD" "unix:$OVS_DIR/db.sock" \
		--unixctl="$OVS_DIR/vswitchd.ctl" --log-file="$OVS_DIR/vswitchd.log" -vconsole:off \
		--pidfile="$OVS_DIR/vswitchd.pid" --mlockall
	OVS_PID=$H_PID
	for _ in $(seq 300); do
		[ "$(ovs_vsctl get Open_vSwitch . dpdk_initialized 2>/dev/null)" = true ] && return 0
		kill -0 "$OVS_PID" 2>/dev/null || break
		sleep 0.1
	done
	echo "ovs_start: DPDK not initialized in ovs-vswitchd: $(tail -n 5 "$H_DIR/$name.log" "$OVS_DIR/vswitchd.log")" >&2
	return 1
}

ovs_bridge() {
	local more=()
	[ -z "${3:-}" ] || read -r -a more <<<"$3"
	ovs_vsctl add-br br0 -- set bridge br0 datapath_type=netdev \
		-- add-port br0 p1 -- set Interface p1 type=dpdk "options:dpdk-devargs=$1" \
		ofport_request=1 "${more[@]}" \
		-- add-port br0 p2 -- set Interface p2 type=dpdk "options:dpdk-devargs=$2" \
		ofport_request=2 "${more[@]}" ||
		return 1
	ovs_ofctl del-flows br0 &&
		ovs_ofctl add-flow br0 in_port=1,actions=output:2 &&
		ovs_ofctl add-flow br0 in_port=2,actions=output:1 || return 1
	for _ in $(seq 100); do
		[ "$(ovs_appctl dpif-netdev/pmd-rxq-show 2>/dev/null | grep -c "port: p[12] ")" -ge 2 ] &&
			return 0
		sleep 0.1
	done
	echo "ovs_bridge: the PMD does not poll p1 and p2: $(ovs_appctl dpif-netdev/pmd-rxq-show 2>&1)" >&2
	return 1
}

ovs_pmd_tid() {
	h_thread_tid "$OVS_PID" "pmd*"
}

ovs_stop() {
	local rc=0
	ovs_appctl exit --cleanup >/dev/null 2>&1 || true
	for _ in $(seq 100); do kill -0 "$OVS_PID" 2>/dev/null || break; sleep 0.1; done
	h_stop "$OVS_PID" 10 TERM || rc=1
	ovs_env ovs-appctl -t "$OVS_DIR/db.ctl" exit >/dev/null 2>&1 || true
	return $rc
}
