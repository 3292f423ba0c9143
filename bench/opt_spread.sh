#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Optimisation units across workers (docs/optimize.md, "Spread across workers"): the wall
# time of one optimize job (POST to succeeded) on 1, 2, ... workers of one engine thread,
# on a throw-away PostgreSQL, Redis and skirmish-api. A first run on one worker with
# spreading off (SKIRMISH_OPT_UNIT_GAMES=0) is the baseline. Every run must find the same
# deck with the same scores (same seed): the script stops if one differs.
#   SK_BENCH_EVAL (200000)        eval_games of the job (the final evaluation is what a
#                                 search of built-in cards spreads: 2 decks x 2 defenders)
#   SK_BENCH_BUDGET (100000)      budget.games of the search
#   SK_BENCH_WORKERS ("1 2")      worker counts to run with spreading on, one run each
#   SK_BENCH_UNIT_GAMES (16384)   SKIRMISH_OPT_UNIT_GAMES of those runs
#   SK_BENCH_CARDS_DIR            the game's card files (../shared/data/tu): the job is then
#                                 docs/optimize.md's search of the game's cards
# Prints a table; record figures in bench/RESULTS.md with the machine they ran on.
set -euo pipefail
cd "$(dirname "$0")/.."
eval_games=${SK_BENCH_EVAL:-200000}
budget=${SK_BENCH_BUDGET:-100000}
counts=${SK_BENCH_WORKERS:-"1 2"}
unit_games=${SK_BENCH_UNIT_GAMES:-16384}
command -v jq >/dev/null || { echo "bench: jq is missing" >&2; exit 1; }

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target skirmish-api skirmish-worker >/dev/null
tmp=$(mktemp -d /tmp/skirmish-bench-opt.XXXXXX)
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
  [ -n "${SK_BENCH_KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
scripts/services.sh pg-start "$tmp" "$pg_port" >/dev/null
scripts/services.sh redis-start "$tmp" "$redis_port" >/dev/null
export SKIRMISH_DATABASE_URL="postgresql://postgres@127.0.0.1:$pg_port/skirmish"
export SKIRMISH_REDIS_URL="redis://127.0.0.1:$redis_port"
export SKIRMISH_HTTP_PORT=$http_port SKIRMISH_ENGINE_THREADS=1
settle=1
if [ -n "${SK_BENCH_CARDS_DIR:-}" ]; then
  export SKIRMISH_CARDS_DIR=$SK_BENCH_CARDS_DIR
  settle=4 # a worker reads the game's cards before it reads the stream
fi
build/skirmish-api 2>"$tmp/api.log" &
pids+=($!)
url="http://127.0.0.1:$http_port"
for _ in $(seq 1 100); do curl -fsS "$url/readyz" >/dev/null 2>&1 && break; sleep 0.1; done

doc=$(jq -cn --argjson e "$eval_games" --argjson b "$budget" '{kind: "optimize", seed: 11,
  params: {attacker: "Test Commander, Grunt#3, Plated Grunt#3, Barricade#2",
    defender: [{deck: "Hex Mistress, Grunt#4", weight: 2},
               {deck: "Iron Warden, Grunt#6, Brute#2", weight: 1}],
    pool: [{card: "Chainslicer", count: 3}, {card: "Lead Dozer", count: 2},
           {card: "Bloodfang", count: 3}, {card: "Iron Warden"}],
    constraints: {deck_size: {min: 6, max: 10}, commander: "owned"},
    budget: {games: $b}, eval_games: $e}}')

if [ -n "${SK_BENCH_CARDS_DIR:-}" ]; then
  doc=$(jq -cn --argjson e "$eval_games" --argjson b "$budget" '{kind: "optimize", seed: 4,
    params: {mode: "surge",
      attacker: "Emrys, Razogoth'"'"'s Majesty, Rank Disperser, Cerebellum, Messiah, Boon of Devils, Tempest Citadel, Pariah, Carbine, Cloudborne Falcon, Aciviper",
      defender: "Prime Hexertia, Mystic Obelisk, Supernova, Darkpact Beast, Render, Nexusis, Stronghold Fortifier, Mark Hunter, Skyfinder, Gravedigger, Gornivicious",
      pool: [{card: "Hive Soldier", count: 2}, {card: "Gravedigger", count: 2},
             {card: "Sterling Eagle", count: 2}, {card: "Ardent Apostle"},
             {card: "Xeno Overlord"}, {card: "Launcher", count: 2}],
      budget: {games: $b}, eval_games: $e}}')
fi

# run WORKERS UNIT_GAMES: prints "seconds digest" of one job on WORKERS fresh workers
run() {
  local n=$1 units=$2 wpids=() id t0 t1 job status
  for i in $(seq 1 "$n"); do
    SKIRMISH_OPT_UNIT_GAMES=$units SKIRMISH_WORKER_NAME="bench$i" \
      build/skirmish-worker 2>>"$tmp/worker$i.log" &
    wpids+=($!)
    pids+=($!)
  done
  sleep "$settle" # every worker reads the stream
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
    jq -c '[.best.deck, .best.score, .start.score, .moves, .candidates]' | sha256sum | cut -c1-16)"
}

echo "machine: $(uname -srm), $(nproc) online cores, $(grep -m1 'model name' /proc/cpuinfo |
  cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"
if [ -n "${SK_BENCH_CARDS_DIR:-}" ]; then
  echo "job: optimize, the game's cards (real-04-enfeeble's decks, surge, a pool of 10 cards), budget $budget games, eval_games $eval_games (x 2 decks), seed 4, one engine thread per worker"
else
  echo "job: optimize, built-in cards, budget $budget games, eval_games $eval_games (x 2 decks x 2 defender decks), seed 11, one engine thread per worker"
fi
echo
echo "| workers | units of | wall time | speed-up | result (sha256 of deck, scores, moves, candidates) |"
echo "|---|---|---|---|---|"
read -r base base_sum < <(run 1 0)
printf '| 1 | off | %.2f s | 1.00 | `%s` |\n' "$base" "$base_sum"
for n in $counts; do
  read -r secs sum < <(run "$n" "$unit_games")
  [ "$sum" = "$base_sum" ] || { echo "bench: $n workers: result $sum differs from $base_sum" >&2; exit 1; }
  printf '| %d | %d games | %.2f s | %.2f | `%s` |\n' "$n" "$unit_games" "$secs" \
    "$(echo "$base / $secs" | bc -l)" "$sum"
done
