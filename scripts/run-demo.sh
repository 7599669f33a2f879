#!/usr/bin/env bash
# make run: lull between two memif ports, with dpdk-testpmd (flowgen: makes
# 64-byte UDP packets and takes back what lull forwards) as the traffic source
# on the other core. Prints lull's live stats; stops after DURATION seconds
# (default 20; 0 = until Ctrl-C) and cleans up everything it started.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
LULL=${LULL:-$here/build/fwd/lull}
TESTPMD=${TESTPMD:-dpdk-testpmd}
DURATION=${DURATION:-20}

dir=$(mktemp -d /tmp/lull-demo.XXXXXX)
id="demo$$"
pids=()
cleanup() {
	trap - EXIT INT TERM
	for p in "${pids[@]}"; do kill -INT "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do
		for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$p" 2>/dev/null || true
	done
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'echo; echo "demo: interrupted, cleaning up"; exit 130' INT TERM

eal=(--no-huge --no-pci --log-level=lib.eal:error)
memif() { echo "net_memif$1,role=$2,socket=$dir/$1.sock,socket-abstract=no"; }

echo "demo: lull (PMD on lcore 1) <-memif-> dpdk-testpmd flowgen (lcore 0)"
"$LULL" -l 0,1 -m 512 "${eal[@]}" --file-prefix="$id-lull" \
	--vdev "$(memif 0 server)" --vdev "$(memif 1 server)" -- --stats-period 2 </dev/null &
lull_pid=$!
pids+=("$lull_pid")
sleep 1
"$TESTPMD" -l 1,0 --main-lcore 1 -m 512 "${eal[@]}" --file-prefix="$id-gen" \
	--vdev "$(memif 0 client)" --vdev "$(memif 1 client)" \
	-- --forward-mode=flowgen --nb-cores=1 --total-num-mbufs=32768 --txpkts=64 \
	--auto-start --stats-period 3600 </dev/null >"$dir/testpmd.log" 2>&1 &
pids+=("$!")
if [ "$DURATION" -gt 0 ]; then
	echo "demo: running for $DURATION s (DURATION=0 runs until Ctrl-C)"
	sleep "$DURATION"
else
	wait "$lull_pid"
fi
# lull first: DPDK 22.11's net_memif can crash the side that still polls while
# its peer disconnects, and lull's final stats are the point of the demo.
kill -INT "$lull_pid" 2>/dev/null || true
wait "$lull_pid" || true
