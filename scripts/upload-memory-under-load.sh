#!/usr/bin/env bash
# How much a 1 GiB upload raises the client's peak memory, run after run, beside the load
# scripts/test-under-load.sh makes (scripts/load.sh: CPU workers, a few GiB of memory kept, a
# bounded disk writer). Each run is one `courier-demo upload` process against `courier-demo serve` in its own
# process; the script prints one line per run and transport and body, then the largest rise of each.
#
#   scripts/upload-memory-under-load.sh [runs] [bound-mib]
#
# Needs a debug build (`swift build`); runs 20 times by default.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:-20}
bound=${2:-16}
demo=$(swift build --show-bin-path)/courier-demo
[ -x "$demo" ] || { echo "upload-memory-under-load: build first (swift build)" >&2; exit 2; }

source scripts/load.sh
start_load upload-memory-under-load
scratch=$load_scratch

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$demo" serve --port "$port" >"$scratch/server.log" 2>&1 &
background+=("$!")
for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.1
done

# A gigabyte file for every upload of the run.
head -c $((1 << 30)) /dev/urandom >"$scratch/big.mp4"

declare -A worst
failures=0
for run in $(seq "$runs"); do
    for transport in urlsession asynchttpclient; do
        for body in file form; do
            path=$([ "$body" = form ] && echo forms || echo files)
            out=$("$demo" upload --base-url "http://127.0.0.1:$port" --file "$scratch/big.mp4" \
                --path "$path" --transport "$transport" --body "$body")
            before=$(sed -n 's/^peak-mib-before //p' <<<"$out")
            after=$(sed -n 's/^peak-mib-after //p' <<<"$out")
            rise=$(awk -v a="$after" -v b="$before" 'BEGIN { printf "%.1f", a - b }')
            echo "run $run $transport $body: +$rise MiB (peak $before -> $after)"
            key="$transport $body"
            if [ -z "${worst[$key]:-}" ] || awk -v r="$rise" -v w="${worst[$key]}" 'BEGIN { exit !(r > w) }'; then
                worst[$key]=$rise
            fi
            if awk -v r="$rise" -v b="$bound" 'BEGIN { exit !(r > b) }'; then failures=$((failures + 1)); fi
        done
    done
done
for key in "${!worst[@]}"; do echo "largest rise, $key: +${worst[$key]} MiB"; done
echo "$failures of $((runs * 4)) uploads above $bound MiB"
