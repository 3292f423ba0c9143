#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Same results, bit for bit, from two builds of the CLI: the check a change that must not
# change behaviour records (issue 45: the engine split). Runs every example job document
# (examples/*.json on the built-in cards; examples/tu/*.json on the game's files when
# $SKIRMISH_CARDS_DIR or ../shared/data/tu has them) and every matchup of the differential
# set (tests/data/peer/real_cards.json, through bench/gpu_jobs.py's job documents) with both
# programs and compares the whole result, less what measures the machine (elapsed_ms,
# games_per_second, and the OpenCL device's name and launch sizes).
#
#   bench/same_results.sh OLD_SKIRMISH NEW_SKIRMISH [GAMES] [DEVICE]
#
# GAMES (default 20000) sets the differential set's games a matchup; DEVICE is the CLI's
# --device (default cpu; "0" or a name for the OpenCL backend). Prints a markdown table and
# the counts; exits 1 when any result differs (the two results are kept under $TMPDIR).
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,15p' "$0" >&2; exit 2; }
old=$1 new=$2 games=${3:-20000} device=${4:-cpu}
root=$(cd "$(dirname "$0")/.." && pwd)
tu=${SKIRMISH_CARDS_DIR:-$root/../shared/data/tu}
work=$(mktemp -d)
keep=0
trap '[ $keep -eq 1 ] || rm -rf "$work"' EXIT

# What depends on the machine, not on the job and its seed (`threads`: the idle cores a run
# found, SKIRMISH_ENGINE_THREADS 0 in the README).
machine='del(.elapsed_ms, .games_per_second, .platform, .device, .work_group, .games_per_launch, .games_per_item, .private_mem_bytes, .local_mem_bytes, .threads)'

same=0 differ=0
# check NAME DOC [CARDS_DIR]: runs DOC with both programs, prints a row.
check() {
  local name=$1 doc=$2 cards=${3:-} a b
  a=$(SKIRMISH_CARDS_DIR=$cards "$old" run --device "$device" "$doc" 2>/dev/null | jq -S "$machine") || a="(failed)"
  b=$(SKIRMISH_CARDS_DIR=$cards "$new" run --device "$device" "$doc" 2>/dev/null | jq -S "$machine") || b="(failed)"
  if [ "$a" = "$b" ] && [ "$a" != "(failed)" ]; then
    same=$((same + 1))
    printf '| %s | %s | same |\n' "$name" "$(jq -c '[.games // .kind, .wins, .stalls, .losses]' <<<"$a")"
  else
    differ=$((differ + 1)) keep=1
    printf '%s\n' "$a" >"$work/$name.old.json"
    printf '%s\n' "$b" >"$work/$name.new.json"
    printf '| %s | | **differs** (%s) |\n' "$name" "$work/$name.{old,new}.json"
  fi
}

echo "| job | [games, wins, stalls, losses] | old vs new |"
echo "|---|---|---|"
for f in "$root"/examples/*.json; do
  check "examples/$(basename "$f" .json)" "$f" ""
done
if [ -f "$tu/cards_section_1.xml" ]; then
  for f in "$root"/examples/tu/*.json; do
    check "examples/tu/$(basename "$f" .json)" "$f" "$tu"
  done
  python3 -B "$root/bench/gpu_jobs.py" jobs "$games" >"$work/jobs.json"
  for name in $(jq -r 'keys[]' "$work/jobs.json"); do
    jq ".[\"$name\"]" "$work/jobs.json" >"$work/doc.json"
    check "$name" "$work/doc.json" "$tu"
  done
else
  echo "(no game files at $tu: the real-card examples and the differential set were not run)"
fi
echo
echo "$same same, $differ different (device $device, $games games a differential matchup)"
[ "$differ" -eq 0 ]
