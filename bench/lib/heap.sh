# shellcheck shell=bash
# dpdk_heap PREFIX: "BYTES,ALLOCATIONS" in use in heap 0 of the DPDK process
# whose --file-prefix is PREFIX (telemetry /eal/heap_info, through lullctl,
# which talks to any DPDK process's telemetry socket). Needs LULLCTL.
dpdk_heap() {
	"${LULLCTL:?}" -f "$1" --json raw /eal/heap_info,0 | python3 -c '
import json, sys
d = json.load(sys.stdin)
d = d.get("/eal/heap_info", d)
print(d["Alloc_size"], d["Alloc_count"], sep=",")'
}
