#!/usr/bin/env bash
# The real binary given bad input: one line from lull naming the option and
# the bad value, a non-zero exit, nothing left running.
. "$(dirname "$0")/lib.sh"

n=0
# expect_error MESSAGE EAL-ARGS... [-- LULL-ARGS...]
expect_error() {
	local msg=$1 prefix="$T_ID-$n" rc=0
	shift
	n=$((n + 1))
	timeout 60 "$LULL" -l 0,1 -m 128 "${EAL_COMMON[@]}" --file-prefix="$prefix" "$@" \
		>"$T_DIR/out.log" 2>"$T_DIR/err.log" || rc=$?
	[ "$rc" -ne 0 ] || die "exit 0 for: $*"
	[ "$rc" -ne 124 ] || die "hung for: $*"
	[ "$rc" -lt 128 ] || die "crashed (exit $rc) for: $*"
	[ "$(grep -c '^lull: error: ' "$T_DIR/err.log")" = 1 ] ||
		die "want exactly one 'lull: error:' line for: $*; got: $(cat "$T_DIR/err.log")"
	grep -qF -- "$msg" "$T_DIR/err.log" ||
		die "want '$msg' for: $*; got: $(grep '^lull: error: ' "$T_DIR/err.log")"
	! pgrep -f -- "--file-prefix=$prefix" >/dev/null || die "a process is left running for: $*"
	log "ok: $(grep '^lull: error: ' "$T_DIR/err.log")"
}

nulls=(--vdev net_null0 --vdev net_null1)
expect_error "unknown option '--bogus'" "${nulls[@]}" -- --bogus
expect_error "--rxd: bad value 'abc'" "${nulls[@]}" -- --rxd abc
expect_error "--burst: bad value '0'" "${nulls[@]}" -- --burst 0
expect_error "--fwd-mode: bad value 'fast'" "${nulls[@]}" -- --fwd-mode fast
expect_error "--pmd-cores: bad value '1-x'" "${nulls[@]}" -- --pmd-cores 1-x
expect_error "--pmd-cores: lcore 5 is not an EAL lcore" "${nulls[@]}" -- --pmd-cores 5
expect_error "--pmd-cores: lcore 0 is the EAL main lcore" "${nulls[@]}" -- --pmd-cores 0
expect_error "--port-pairs: pair 0:5 names a port that does not exist" "${nulls[@]}" -- --port-pairs 0:5
expect_error "odd number of ports (3)" "${nulls[@]}" --vdev net_null2
expect_error "no ports"
expect_error "--rxq: bad value '17' for net_ring0 (it has at most 16)" \
	--vdev net_ring0 --vdev net_ring1 -- --rxq 17
expect_error "EAL: cannot initialise" --bogus-eal-option
expect_error "--sleep-max-us: bad entry '3:20000'" "${nulls[@]}" -- --sleep-max-us 250,3:20000
expect_error "--pmd-priority: bad value 'nice:-30'" "${nulls[@]}" -- --pmd-priority nice:-30
expect_error "--pmd-priority fifo:50: the PMD on lcore 1 busy-polls and would starve" \
	"${nulls[@]}" -- --pmd-priority fifo:50 --sleep-policy off
expect_error "--yield-us: bad value '600'" "${nulls[@]}" -- --yield-hz 1000 --yield-us 600
expect_error "--control-cores: bad value '1000' (this machine has CPUs 0.." \
	"${nulls[@]}" -- --control-cores 1000
# a wake backend the CPU lacks is refused by name (only where the CPU lacks it)
if ! grep -qw waitpkg /proc/cpuinfo; then
	expect_error "--wake: bad value 'tpause' (this CPU has no WAITPKG" "${nulls[@]}" -- --wake tpause
fi
log "PASS"
