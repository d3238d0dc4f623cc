#!/usr/bin/env bash
# Runs `swift test` (with any arguments given, e.g. `--skip-build --filter RandomCancellationTests`)
# while one CPU-bound process per core runs at normal priority, as on a laptop compiling something
# else or a shared CI runner; the load stops when the tests end, however they end.
# Timing-sensitive suites must pass under it: they assert outcomes and order, never speed.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi

cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
load=()
stop_load() {
    for pid in "${load[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait "${load[@]}" 2>/dev/null || true
}
trap stop_load EXIT INT TERM

for _ in $(seq "$cores"); do
    # A busy loop in the shell itself: no tool to install, one core each.
    ( while :; do :; done ) &
    load+=("$!")
done
echo "test-under-load: ${#load[@]} CPU-bound processes on $cores cores"

swift test "$@"
