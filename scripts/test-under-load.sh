#!/usr/bin/env bash
# Runs `swift test` (with any arguments given, e.g. `--skip-build --filter RandomCancellationTests`)
# beside a load like a compiler's: stress-ng with one CPU worker per core, a memory worker that
# keeps a few GiB in use, and a disk writer bounded to 256 MiB in a temporary folder. The load
# stops when the tests end, however they end. Timing-sensitive suites must pass under it: they
# assert outcomes and order, never speed.
# Not stress-ng's --io: its sync() stalls the whole machine, which no compiler does.
# Without stress-ng (scripts/interop-setup.sh installs it) the load is one shell busy loop per
# core, CPU only.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi

cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
# A quarter of the memory, between 1 and 4 GiB: what a large Swift compile holds.
memory_kib=$(awk '/MemTotal/ { print $2 }' /proc/meminfo 2>/dev/null || echo 8388608)
memory_mib=$(( memory_kib / 1024 / 4 ))
if [ "$memory_mib" -gt 4096 ]; then memory_mib=4096; fi
if [ "$memory_mib" -lt 1024 ]; then memory_mib=1024; fi
scratch=$(mktemp -d "${TMPDIR:-/tmp}/courier-load.XXXXXX")

load=()
stop_load() {
    for pid in "${load[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait "${load[@]}" 2>/dev/null || true
    rm -rf "$scratch"
}
trap stop_load EXIT INT TERM

if command -v stress-ng >/dev/null 2>&1; then
    # A bound against a load that outlives this script (it is killed on exit too).
    stress-ng --cpu "$cores" --vm 1 --vm-bytes "${memory_mib}M" --vm-keep \
        --hdd 1 --hdd-bytes 256M --temp-path "$scratch" \
        --timeout 60m --quiet &
    load+=("$!")
    echo "test-under-load: stress-ng with $cores CPU workers, ${memory_mib} MiB of memory and a 256 MiB disk writer"
else
    echo "test-under-load: stress-ng is not installed (scripts/interop-setup.sh installs it): CPU load only, from shell loops" >&2
    for _ in $(seq "$cores"); do
        # A busy loop in the shell itself: no tool to install, one core each.
        ( while :; do :; done ) &
        load+=("$!")
    done
    echo "test-under-load: ${#load[@]} CPU-bound processes on $cores cores"
fi

swift test "$@"
