#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Shard scaling: the wall time of one big battle job (POST to succeeded) run by 1, 2, ...
# workers, each with one engine thread, on a throw-away PostgreSQL, Redis and skirmish-api.
# The job is split into shards of SKIRMISH_SHARD_UNITS games that the workers run at once;
# a first run with splitting off (one worker) is the baseline. Every run's counts must be
# the same (same seed): the script stops if one differs.
#   SK_BENCH_GAMES (100000000)     games of the job
#   SK_BENCH_WORKERS ("1 2")       worker counts to run, one run each
#   SK_BENCH_SHARD_UNITS (10000000) shard size
#   SK_BENCH_DEVICE (cpu)          SKIRMISH_DEVICE of the workers
# Prints a table; record figures in bench/RESULTS.md with the machine they ran on.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${SK_BENCH_GAMES:-100000000}
counts=${SK_BENCH_WORKERS:-"1 2"}
shard_units=${SK_BENCH_SHARD_UNITS:-10000000}
device=${SK_BENCH_DEVICE:-cpu}
# shellcheck source=bench/stack.sh
. bench/stack.sh
export SKIRMISH_ENGINE_THREADS=1 SKIRMISH_DEVICE=$device
stack_start shards

doc=$(jq -cn --argjson g "$games" '{kind: "battle", seed: 1, params: {games: $g,
  attacker: {commander: "Test Commander", deck: [{card: "Grunt", count: 5}]},
  defender: {commander: "Test Commander", deck: [{card: "Brute", count: 4}]}}}')

# run WORKERS SHARD_UNITS: prints "seconds counts" of one job on WORKERS fresh workers
run() {
  bench_run "$1" 1 "$doc" '[.games, .wins, .stalls, .losses, .turns.histogram]' \
    SKIRMISH_SHARD_UNITS="$2"
}

machine_line
echo "job: $games games (Test Commander decks, seed 1), SKIRMISH_DEVICE=$device, one engine thread per worker"
echo
echo "| workers | shards | wall time | games/s | speed-up | counts (sha256 of games, wins, stalls, losses, histogram) |"
echo "|---|---|---|---|---|---|"
read -r base base_sum < <(run 1 0)
printf '| 1 | off | %.1f s | %.2fM | 1.00 | `%s` |\n' "$base" "$(echo "$games / $base / 1000000" | bc -l)" "$base_sum"
nshards=$(((games + shard_units - 1) / shard_units))
for n in $counts; do
  read -r secs sum < <(run "$n" "$shard_units")
  [ "$sum" = "$base_sum" ] || { echo "bench: $n workers: counts $sum differ from $base_sum" >&2; exit 1; }
  printf '| %d | %d | %.1f s | %.2fM | %.2f | `%s` |\n' "$n" "$nshards" "$secs" \
    "$(echo "$games / $secs / 1000000" | bc -l)" "$(echo "$base / $secs" | bc -l)" "$sum"
done
