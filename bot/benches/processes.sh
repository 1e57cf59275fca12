#!/usr/bin/env bash
# The moves bench (benches/moves.rs) in one, two and three processes at once
# on one PostgreSQL database, beside one process on a SQLite file, in one run:
# the games, and the paced rate, are split between the processes, and each
# plays its own games (KODEX_BENCH_TAG). Prints, per setting, the moves per
# second of all processes together and the worst process's p50 and p99.
#
#   bot/benches/processes.sh [games] [plies] [rate]
#
# PostgreSQL: KODEX_BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/test);
# each setting gets a fresh schema in it. Needs psql.
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-600}
plies=${2:-20}
rate=${3:-400}
pg=${KODEX_BENCH_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}
cargo bench -p kodex-bot --bench moves --no-run 2>/dev/null
bench=$(ls -t target/release/deps/moves-* | grep -v '\.d$' | head -1)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Runs `count` bench processes at once on `url` ("sqlite" for a file of each
# process's own) and sums what they print.
setting() {
    local label=$1 count=$2 url=$3
    local pids=()
    for k in $(seq 1 "$count"); do
        local database=$url
        if [ "$url" = sqlite ]; then database="sqlite://$out/bench-$k.db"; fi
        KODEX_BENCH_DATABASE_URL=$database KODEX_BENCH_TAG="p$k-" \
            "$bench" $((games / count)) "$plies" $((rate / count)) 0 >"$out/$label-$k.txt" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid"; done
    for phase in saturated paced; do
        cat "$out/$label"-*.txt | grep "^$phase" | awk -v label="$label" -v phase="$phase" '
            {
                for (i = 1; i <= NF; i++) {
                    if ($(i + 1) == "moves" && $(i + 2) == "in") moves += $i
                    if ($i == "in" && $(i + 2) == "s") secs = (secs > $(i + 1) ? secs : $(i + 1))
                    if ($i == "p50") p50 = (p50 > $(i + 1) ? p50 : $(i + 1))
                    if ($i == "p99") p99 = (p99 > $(i + 1) ? p99 : $(i + 1))
                }
            }
            END { printf "%-22s %-9s %8.0f moves/s   p50 %8.2f ms   p99 %8.2f ms\n", label, phase, moves / secs, p50, p99 }'
    done
}

echo "moves bench: $games games, $plies plies, paced at $rate moves/s in all; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
setting "sqlite, 1 process" 1 sqlite
for count in 1 2 3; do
    schema="kodex_bench_$$_$count"
    psql -q "$pg" -c "CREATE SCHEMA $schema" >/dev/null
    setting "postgres, $count process$([ "$count" = 1 ] || echo es)" "$count" \
        "$pg?options=-c%20search_path%3D$schema"
    psql -q "$pg" -c "SET client_min_messages = warning; DROP SCHEMA $schema CASCADE" >/dev/null
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
