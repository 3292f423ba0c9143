#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the benchmarks if needed and runs every one of them, printing their tables.
# Usage: bench/run.sh [build dir, default build]
# Benchmarks print measurements only; they never fail on timings (see bench/RESULTS.md).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
case $build in
/*) ;;
*) build=$root/$build ;;
esac

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
names=()
for src in "$root"/bench/*.c; do
  names+=("$(basename "$src" .c)")
done
cmake --build "$build" -j2 --target "${names[@]}"

echo "machine: $(uname -srm), $(nproc) online cores, $(date -u +%Y-%m-%dT%H:%MZ)"
# cards_bench loads a folder of the game's files: $SKIRMISH_CARDS_DIR, else the snapshot
# next to the repository (never copied into it).
cards_dir=${SKIRMISH_CARDS_DIR:-$root/../shared/data/tu}
for name in "${names[@]}"; do
  echo
  echo "## $name"
  if [ "$name" = cards_bench ]; then
    if [ -d "$cards_dir" ]; then "$build/bench/$name" "$cards_dir"; else echo "skipped: no $cards_dir"; fi
    continue
  fi
  "$build/bench/$name"
done
