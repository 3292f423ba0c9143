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
#   SK_BENCH_DEVICE (cpu)         SKIRMISH_DEVICE of the workers (an OpenCL device plays the
#                                 calls of 4,096 games or more: units, evaluation chunks)
# Prints a table; record figures in bench/RESULTS.md with the machine they ran on.
set -euo pipefail
cd "$(dirname "$0")/.."
eval_games=${SK_BENCH_EVAL:-200000}
budget=${SK_BENCH_BUDGET:-100000}
counts=${SK_BENCH_WORKERS:-"1 2"}
unit_games=${SK_BENCH_UNIT_GAMES:-16384}
# shellcheck source=bench/stack.sh
. bench/stack.sh
export SKIRMISH_ENGINE_THREADS=1 SKIRMISH_DEVICE=${SK_BENCH_DEVICE:-cpu}
settle=1
if [ -n "${SK_BENCH_CARDS_DIR:-}" ]; then
  export SKIRMISH_CARDS_DIR=$SK_BENCH_CARDS_DIR
  settle=4 # a worker reads the game's cards before it reads the stream
fi
stack_start opt

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
  bench_run "$1" "$settle" "$doc" '[.best.deck, .best.score, .start.score, .moves, .candidates]' \
    SKIRMISH_OPT_UNIT_GAMES="$2"
}

machine_line
if [ -n "${SK_BENCH_CARDS_DIR:-}" ]; then
  echo "job: optimize, the game's cards (real-04-enfeeble's decks, surge, a pool of 10 cards), budget $budget games, eval_games $eval_games (x 2 decks), seed 4, one engine thread per worker"
else
  echo "job: optimize, built-in cards, budget $budget games, eval_games $eval_games (x 2 decks x 2 defender decks), seed 11, one engine thread per worker, SKIRMISH_DEVICE=$SKIRMISH_DEVICE"
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
