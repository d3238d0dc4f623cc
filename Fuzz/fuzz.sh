#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer and AddressSanitizer, then runs each from its committed
# corpus. Usage:
#   Fuzz/fuzz.sh build                     # build every target
#   Fuzz/fuzz.sh run [SECONDS] [TARGET…]   # run each target (all by default) for SECONDS (60)
#   Fuzz/fuzz.sh runs N [TARGET…]          # run each target for N inputs
#   Fuzz/fuzz.sh minimize [TARGET…]        # merge what a run found back into the committed corpus
# A finding writes its input to Fuzz/.findings/TARGET/ and fails the run.
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi

all_targets=(fuzz-json-value fuzz-json-models fuzz-set-cookie fuzz-set-cookie-fields fuzz-retry-after fuzz-rate-limit fuzz-content-length fuzz-content-range fuzz-redirect
    fuzz-event-stream fuzz-link fuzz-cache-control fuzz-cache-freshness fuzz-cache-entry)
scratch=.build-fuzz
# Release code with its overflow checks kept (a trap is what the fuzzer looks for), no dead
# stripping (the linker would drop the coverage counters), internal symbols visible to the targets'
# `@testable import`, and every module instrumented.
# Leak reports from Foundation's own code are suppressed; every other leak is a finding.
export LSAN_OPTIONS="suppressions=$PWD/lsan.supp:print_suppressions=0"
# One `-sanitize=` flag with both, last on every command: SwiftPM's `--sanitize address --sanitize
# fuzzer` passes two flags, of which swiftc keeps only the last (in an order that varies from run
# to run). `--sanitize fuzzer` stays so that SwiftPM links the targets without a main of their own.
build_flags=(-c release --disable-dead-strip --scratch-path "$scratch" --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing)

build() {
    # SwiftPM does not look for new or removed source files in a path dependency (the library)
    # once it has planned a build: without its plan it plans again, and compiles only what changed.
    rm -f "$scratch/release.yaml" "$scratch/release/description.json"
    # gold warns once per AddressSanitizer helper symbol it cannot export, thousands per link.
    swift build "${build_flags[@]}" 2>&1 | { grep -v "Cannot export local symbol" || true; }
    # A target built without coverage or AddressSanitizer would run and find nothing: refuse it.
    local probe_binary probe
    probe_binary=$(binary fuzz-content-length)
    probe=$("$probe_binary" -runs=1 2>&1 || true)
    # `grep -c`, not `-q`: it reads to the end, so `nm` never dies of a closed pipe under pipefail.
    if [ "$(grep -c 'cov: ' <<<"$probe")" -eq 0 ] || [ "$(nm "$probe_binary" | grep -c '__asan_report')" -eq 0 ]; then
        echo "the fuzz targets were built without coverage or AddressSanitizer" >&2
        return 1
    fi
}

binary() {
    echo "$(swift build "${build_flags[@]}" --show-bin-path)/$1"
}

dictionary_for() {
    case "$1" in
        fuzz-json-*) echo "-dict=Dictionaries/json.dict" ;;
        *) echo "-dict=Dictionaries/fields.dict" ;;
    esac
}

run() {
    local target=$1; shift
    local work=".corpus-work/$target"
    mkdir -p "$work" ".findings/$target" "Corpus/$target"
    local log=".findings/$target.log"
    # New inputs go to the scratch folder; the committed corpus is read, never written. The
    # fuzzer's progress goes to a log; a finding prints its end and fails the run.
    if ! "$(binary "$target")" "$work" "Corpus/$target" "$(dictionary_for "$target")" \
        -artifact_prefix=".findings/$target/" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
        -max_len=4096 "$@" >"$log" 2>&1; then
        tail -n 60 "$log"
        echo "FINDING in $target: the input is in Fuzz/.findings/$target/" >&2
        return 1
    fi
    # The closing lines: inputs run, time, coverage (edges) and features.
    grep -E '^#[0-9]+\s+(DONE|INITED)|stat::(number_of_executed_units|average_exec_per_sec)' "$log" | sed 's/^/  /'
}

# Builds, then runs each target named after `--` (all of them when none is) with the flag before it.
run_each() {
    local label=$1 limit=$2
    shift 3
    local targets=("$@")
    [ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
    build
    for target in "${targets[@]}"; do
        echo "== $target: $label"
        run "$target" "$limit"
    done
}

command=${1:-run}
shift || true
case "$command" in
    build) build ;;
    run)
        seconds=${1:-60}
        shift || true
        run_each "$seconds s" -max_total_time="$seconds" -- "$@"
        ;;
    runs)
        count=$1
        shift
        run_each "$count inputs" -runs="$count" -- "$@"
        ;;
    minimize)
        mkdir -p .findings
        targets=("$@")
        [ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
        for target in "${targets[@]}"; do
            merged=$(mktemp -d)
            # Edges only (no hit counters): the fewest inputs that reach every edge reached, so the
            # committed corpus stays small.
            "$(binary "$target")" -merge=1 -use_counters=0 "$merged" "Corpus/$target" ".corpus-work/$target" \
                "$(dictionary_for "$target")" >".findings/$target.merge.log" 2>&1
            rm -rf "Corpus/$target"
            mv "$merged" "Corpus/$target"
        done
        ;;
    *) echo "usage: Fuzz/fuzz.sh build | run [SECONDS] [TARGET…] | runs N [TARGET…] | minimize [TARGET…]" >&2; exit 2 ;;
esac
