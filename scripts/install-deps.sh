#!/usr/bin/env bash
# Install every Debian package the build, the tests and the benchmarks need,
# only those missing. Idempotent; Debian 12, as root (or with sudo).
set -euo pipefail

packages=(
	build-essential pkg-config meson ninja-build clang libclang-rt-14-dev clang-format
	libdpdk-dev dpdk dpdk-dev # DPDK 22.11 libraries, drivers, dpdk-testpmd, dpdk-telemetry.py
	librte-net-memif23 librte-net-af-packet23 librte-net-tap23 librte-net-null23
	librte-net-ring23 librte-mempool-ring23 # the virtual devices, named: not all are Depends
	libcmocka-dev             # unit tests
	libjansson-dev            # lullctl: JSON of the telemetry socket
	libmicrohttpd-dev         # lullctl serve-metrics: the Prometheus exporter's HTTP
	prometheus                # promtool and a Prometheus server for tests/integration/metrics.sh
	help2man man-db groff-base # man pages from --help, rendered by man -l in the tests
	debhelper dpkg-dev fakeroot lintian # make deb
	iproute2 iputils-ping ethtool procps coreutils tcpdump # integration tests (netns, veth, ping, checksums)
	libcap2-bin # capsh: a lull without CAP_SYS_NICE (isolation.sh)
	gnuplot-nox python3 bc    # benchmarks and plots
	openvswitch-switch-dpdk   # ovs-vswitchd-dpdk: lull inside OVS (nap_ovs.sh, bench/inside)
)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "deps: all ${#packages[@]} packages present"
	exit 0
fi
echo "deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
