#!/usr/bin/env bash
# Runs `swift test` (with any arguments given, e.g. `--skip-build --filter RandomCancellationTests`)
# beside a load like a compiler's (scripts/load.sh): CPU workers, a few GiB of memory kept and a
# bounded disk writer. The load stops when the tests end, however they end. Timing-sensitive
# suites must pass under it: they assert outcomes and order, never speed.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi

source scripts/load.sh
start_load test-under-load

swift test "$@"
