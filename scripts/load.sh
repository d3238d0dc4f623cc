#!/usr/bin/env bash
# Sourced, not run: `start_load` starts a load like a compiler's beside what the sourcing script
# runs (stress-ng with one CPU worker per core, a memory worker that keeps a quarter of the
# memory, between 1 and 4 GiB, and a disk writer bounded to 256 MiB in a temporary folder). The
# load, and every process added to `background`, stop when that script ends, however it ends.
# Not stress-ng's --io: its sync() stalls the whole machine, which no compiler does.
# Without stress-ng (scripts/interop-setup.sh installs it) the load is one shell busy loop per
# core, CPU only.

background=()
load_scratch=$(mktemp -d "${TMPDIR:-/tmp}/courier-load.XXXXXX")
stop_background() {
    for pid in "${background[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait "${background[@]}" 2>/dev/null || true
    rm -rf "$load_scratch"
}
trap stop_background EXIT INT TERM

# Starts the load; prints what it is, prefixed with $1.
start_load() {
    local cores memory_kib memory_mib
    cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
    # A quarter of the memory, between 1 and 4 GiB: what a large Swift compile holds.
    memory_kib=$(awk '/MemTotal/ { print $2 }' /proc/meminfo 2>/dev/null || echo 8388608)
    memory_mib=$(( memory_kib / 1024 / 4 ))
    if [ "$memory_mib" -gt 4096 ]; then memory_mib=4096; fi
    if [ "$memory_mib" -lt 1024 ]; then memory_mib=1024; fi
    if command -v stress-ng >/dev/null 2>&1; then
        # A bound against a load that outlives the script (it is killed on exit too).
        stress-ng --cpu "$cores" --vm 1 --vm-bytes "${memory_mib}M" --vm-keep \
            --hdd 1 --hdd-bytes 256M --temp-path "$load_scratch" \
            --timeout 120m --quiet &
        background+=("$!")
        echo "$1: stress-ng with $cores CPU workers, ${memory_mib} MiB of memory and a 256 MiB disk writer"
    else
        echo "$1: stress-ng is not installed (scripts/interop-setup.sh installs it): CPU load only, from shell loops" >&2
        for _ in $(seq "$cores"); do
            # A busy loop in the shell itself: no tool to install, one core each.
            ( while :; do :; done ) &
            background+=("$!")
        done
        echo "$1: ${#background[@]} CPU-bound processes on $cores cores"
    fi
}
