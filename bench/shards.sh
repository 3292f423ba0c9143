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
command -v jq >/dev/null || { echo "bench: jq is missing" >&2; exit 1; }

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target skirmish-api skirmish-worker >/dev/null
tmp=$(mktemp -d /tmp/skirmish-bench-shards.XXXXXX)
chmod 755 "$tmp"
pg_port=$(scripts/services.sh free-port)
redis_port=$(scripts/services.sh free-port)
http_port=$(scripts/services.sh free-port)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  scripts/services.sh redis-stop "$tmp" >/dev/null 2>&1 || true
  scripts/services.sh pg-stop "$tmp" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
scripts/services.sh pg-start "$tmp" "$pg_port" >/dev/null
scripts/services.sh redis-start "$tmp" "$redis_port" >/dev/null
export SKIRMISH_DATABASE_URL="postgresql://postgres@127.0.0.1:$pg_port/skirmish"
export SKIRMISH_REDIS_URL="redis://127.0.0.1:$redis_port"
export SKIRMISH_HTTP_PORT=$http_port SKIRMISH_ENGINE_THREADS=1 SKIRMISH_DEVICE=$device
build/skirmish-api 2>"$tmp/api.log" &
pids+=($!)
url="http://127.0.0.1:$http_port"
for _ in $(seq 1 100); do curl -fsS "$url/readyz" >/dev/null 2>&1 && break; sleep 0.1; done

doc=$(jq -cn --argjson g "$games" '{kind: "battle", seed: 1, params: {games: $g,
  attacker: {commander: "Test Commander", deck: [{card: "Grunt", count: 5}]},
  defender: {commander: "Test Commander", deck: [{card: "Brute", count: 4}]}}}')

# run WORKERS SHARD_UNITS: prints "seconds counts" of one job on WORKERS fresh workers
run() {
  local n=$1 units=$2 wpids=() id t0 t1 job status
  for i in $(seq 1 "$n"); do
    SKIRMISH_SHARD_UNITS=$units SKIRMISH_WORKER_NAME="bench$i" \
      build/skirmish-worker 2>>"$tmp/worker$i.log" &
    wpids+=($!)
    pids+=($!)
  done
  sleep 1 # every worker reads the stream
  t0=$(date +%s.%N)
  id=$(curl -fsS -H 'Content-Type: application/json' -d "$doc" "$url/v1/jobs" | jq -r .id)
  while :; do
    job=$(curl -fsS "$url/v1/jobs/$id?wait=5")
    status=$(jq -r .status <<<"$job")
    case $status in succeeded | failed | canceled) break ;; esac
  done
  t1=$(date +%s.%N)
  kill "${wpids[@]}" 2>/dev/null || true
  wait "${wpids[@]}" 2>/dev/null || true
  [ "$status" = succeeded ] || { echo "bench: job $id $status" >&2; exit 1; }
  echo "$(echo "$t1 - $t0" | bc -l) $(curl -fsS "$url/v1/jobs/$id/result" |
    jq -c '[.games, .wins, .stalls, .losses, .turns.histogram]' | sha256sum | cut -c1-16)"
}

echo "machine: $(uname -srm), $(nproc) online cores, $(grep -m1 'model name' /proc/cpuinfo |
  cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"
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
