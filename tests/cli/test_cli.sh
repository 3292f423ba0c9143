#!/usr/bin/env bash
# Runs the `skirmish` binary on the examples and on bad input and checks exit codes and
# output exactly. Usage: test_cli.sh SKIRMISH_BINARY SOURCE_DIR
set -u
bin=$1
src=$2
tmp=$(mktemp -d /tmp/skirmish-cli.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# expect CODE NAME -- ARGS...: runs the binary, keeps stdout/stderr in $tmp/out, $tmp/err.
expect() {
  local want=$1 name=$2
  shift 3
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" -ne "$want" ]; then
    fail "$name: exit $got, want $want"
    sed 's/^/  stderr: /' "$tmp/err" | head -5 >&2
  fi
}

# same FILE TEXT: FILE's content must be exactly TEXT (plus the final newline).
same() {
  if [ "$(cat "$1")" != "$2" ]; then
    fail "unexpected output in $(basename "$1"):"
    sed 's/^/  got: /' "$1" | head -10 >&2
    printf '%s\n' "$2" | sed 's/^/  want: /' >&2
  fi
}

# contains FILE TEXT: FILE must contain the fixed string TEXT.
contains() {
  grep -qF -- "$2" "$1" || fail "$(basename "$1") lacks '$2'"
}

# Help, version, usage errors.
expect 0 help -- --help
contains "$tmp/out" "usage: skirmish COMMAND [ARGS]"
contains "$tmp/out" "run [--games N] [--seed S] [--threads T] [--device D] [--summary] [--cost] FILE"
contains "$tmp/out" "devices [--check]"
contains "$tmp/out" "cards update [--base-url URL] [--dir DIR] [--offline] [--timeout S]"
expect 0 help-command -- help
contains "$tmp/out" "usage: skirmish COMMAND [ARGS]"
# One command's help: `help run`, `run --help`, `run -h` (even before a file), the same text.
expect 0 help-run -- help run
contains "$tmp/out" "usage: skirmish run [--games N] [--seed S] [--threads T] [--device D] [--summary] [--cost] FILE"
contains "$tmp/out" "--summary    print one line of win/stall/loss rates"
cp "$tmp/out" "$tmp/help-run"
expect 0 run-help -- run --help
same "$tmp/out" "$(cat "$tmp/help-run")"
expect 0 run-h -- run --games 5 -h "$src/examples/battle_reference_1.json"
same "$tmp/out" "$(cat "$tmp/help-run")"
expect 0 help-devices -- help devices
contains "$tmp/out" "usage: skirmish devices [--check]"
expect 2 help-unknown -- help frobnicate
contains "$tmp/err" "skirmish help: no command 'frobnicate'"
expect 0 version -- version
same "$tmp/out" "skirmish 0.1.0"
expect 2 no-arguments --
contains "$tmp/err" "usage: skirmish"
expect 2 unknown-command -- frobnicate
contains "$tmp/err" "skirmish: unknown command 'frobnicate'"
expect 2 run-without-file -- run
contains "$tmp/err" "skirmish run: FILE is required (- for stdin)"
expect 2 bad-games -- run --games 0 "$src/examples/battle_reference_1.json"
contains "$tmp/err" "skirmish run: --games must be 1..1000000000, not '0'"
expect 2 bad-option -- run --fast "$src/examples/battle_reference_1.json"
contains "$tmp/err" "skirmish run: unknown option '--fast'"
expect 2 two-files -- run a.json b.json
contains "$tmp/err" "skirmish run: only one FILE may be given"

# Input problems: missing file (1), bad JSON (2), invalid document: every error (2).
expect 1 missing-file -- run "$tmp/nope.json"
contains "$tmp/err" "unable to open $tmp/nope.json"
printf '{"kind": "battle",\n "params": {]}\n' >"$tmp/syntax.json"
expect 2 syntax-error -- run "$tmp/syntax.json"
same "$tmp/err" "$tmp/syntax.json:2:13: string or '}' expected near ']'"
expect 2 invalid-document -- run "$src/tests/cli/bad_job.json"
same "$tmp/err" "/params/games: 'games' must be between 1 and 1000000000, not 0
/params/attacker/deck/3/card: unknown card \"Chainslicr\"; did you mean \"Chainslicer\"?
/params/defender/commander: card \"Grunt\" is an assault card, not a commander"
same "$tmp/out" ""

# Runs: the summary line, overrides, stdin, determinism across thread counts.
ex=$src/examples/battle_reference_1.json
expect 0 summary -- run --games 2000 --threads 1 --summary "$ex"
grep -qE '^win [0-9]+\.[0-9]{2}% \([0-9]+/2000\) stall [0-9]+\.[0-9]{2}% \([0-9]+/2000\) loss [0-9]+\.[0-9]{2}% \([0-9]+/2000\)$' "$tmp/out" ||
  fail "summary line: $(cat "$tmp/out")"
cp "$tmp/out" "$tmp/summary1"
expect 0 summary-threads -- run --games=2000 --threads=3 --summary "$ex"
cmp -s "$tmp/out" "$tmp/summary1" || fail "summary differs between 1 and 3 threads"
# Without a GPU (PoCL is a CPU device) the CPU backend is the default and says nothing.
same "$tmp/err" ""
# --threads is the CPU backend's: on an OpenCL device it is ignored, and the user is told;
# with --device cpu it applies and nothing is said.
# (A job under 4,096 games stays on the CPU threads even then: a launch costs more.)
expect 0 summary-threads-cl -- run --games=5000 --threads=3 --device portable --summary "$ex"
contains "$tmp/err" "skirmish run: --threads 3 was ignored: the job ran on the OpenCL device"
cp "$tmp/out" "$tmp/summary-cl"
expect 0 summary-threads-cl-cpu -- run --games=5000 --threads=3 --device cpu --summary "$ex"
cmp -s "$tmp/out" "$tmp/summary-cl" || fail "summary differs between PoCL and the CPU backend"
expect 0 summary-small-cl -- run --games=2000 --threads=3 --device portable --summary "$ex"
cmp -s "$tmp/out" "$tmp/summary1" || fail "summary of a small job differs on a named device"
same "$tmp/err" ""
expect 0 summary-threads-cpu -- run --games=2000 --threads=3 --device cpu --summary "$ex"
cmp -s "$tmp/out" "$tmp/summary1" || fail "summary differs on 3 cpu threads"
same "$tmp/err" ""
# A battle with flexible play runs on CPU threads whatever the device: --threads applies.
sed '0,/"play": "random"/s//"play": "flexible"/' "$ex" >"$tmp/flex.json"
grep -q '"play": "flexible"' "$tmp/flex.json" || fail "flex.json: no flexible side"
expect 0 flexible-threads -- run --games 50 --threads 2 "$tmp/flex.json"
contains "$tmp/out" '"backend": "cpu"'
same "$tmp/err" ""
expect 0 stdin -- run --games 2000 --summary - <"$ex"
cmp -s "$tmp/out" "$tmp/summary1" || fail "summary differs when read from stdin"
# The CPU backend is the default without a GPU; naming it plays the same games.
expect 0 summary-cpu -- run --games 2000 --device cpu --summary "$ex"
cmp -s "$tmp/out" "$tmp/summary1" || fail "summary differs between the default and --device cpu"
SKIRMISH_DEVICE=cpu expect 0 summary-env-cpu -- run --games 2000 --summary "$ex"
cmp -s "$tmp/out" "$tmp/summary1" || fail "summary differs with SKIRMISH_DEVICE=cpu"
# --cost: the API's estimate (a sample of the first games, one CPU thread) and the run's CPU
expect 0 cost -- run --games 2000 --device cpu --threads 1 --cost "$ex"
jq -e '.cost.estimate_cpu_s > 0 and .cost.cpu_s > 0 and .cost.sampled >= 1 and
       .cost.sampled <= 2000 and .games == 2000' "$tmp/out" >/dev/null ||
  fail "cost: $(jq -c .cost "$tmp/out")"
expect 0 json-result -- run --games 300 --seed 99 "$ex"
contains "$tmp/out" '"games": 300,'
contains "$tmp/out" '"seed": 99,'
contains "$tmp/out" '"backend": "cpu",'
contains "$tmp/out" '"win_rate_ci95": ['
contains "$tmp/out" '"histogram": ['
# PoCL when named, by name or index: the same games, its platform in the result.
expect 0 json-result-cl -- run --games 5000 --seed 99 --device portable "$ex"
contains "$tmp/out" '"backend": "opencl",'
contains "$tmp/out" '"platform": "Portable Computing Language",'
jq -S 'del(.backend, .platform, .device, .work_group, .games_per_launch, .games_per_item, .private_mem_bytes, .local_mem_bytes, .program, .program_ms, .threads,
          .elapsed_ms, .games_per_second)' "$tmp/out" >"$tmp/cl.json"
expect 0 json-result-cpu -- run --games 5000 --seed 99 --device cpu "$ex"
contains "$tmp/out" '"backend": "cpu",'
jq -S 'del(.backend, .platform, .device, .work_group, .games_per_launch, .games_per_item, .private_mem_bytes, .local_mem_bytes, .program, .program_ms, .threads,
          .elapsed_ms, .games_per_second)' "$tmp/out" >"$tmp/cpu.json"
cmp -s "$tmp/cl.json" "$tmp/cpu.json" || fail "json-result: PoCL and the CPU backend differ"
SKIRMISH_DEVICE=0 expect 0 json-result-index -- run --games 5000 --seed 99 "$ex"
contains "$tmp/out" '"backend": "opencl",'
expect 1 unknown-device -- run --games 300 --device no-such-gpu "$ex"
same "$tmp/err" "skirmish: cannot start the job: device \"no-such-gpu\": no OpenCL device matches \"no-such-gpu\""
SKIRMISH_DEVICE=9 expect 1 unknown-device-env -- run --games 300 "$ex"
same "$tmp/err" "skirmish: cannot start the job: device \"9\": no OpenCL device with index 9 (found 1)"
# No OpenCL platform at all: the CPU backend, silently (a normal host, not a failure); a
# named device then fails.
mkdir "$tmp/no-icd"
OCL_ICD_VENDORS=$tmp/no-icd expect 0 no-platform -- run --games 300 --seed 99 "$ex"
contains "$tmp/out" '"backend": "cpu",'
same "$tmp/err" ""
OCL_ICD_VENDORS=$tmp/no-icd expect 1 no-platform-named -- run --games 300 --device 0 "$ex"
same "$tmp/err" "skirmish: cannot start the job: device \"0\": no OpenCL device found"

# Devices: the list, the device self-check, and what SKIRMISH_DEVICE selects.
expect 0 devices -- devices --check
grep -qE '^0: Portable Computing Language \| .+ \| not a gpu, [0-9]+ compute units' "$tmp/out" ||
  fail "devices: $(head -1 "$tmp/out")"
contains "$tmp/out" "   check: ok"
same <(tail -1 "$tmp/out") "jobs use: the cpu backend (no GPU among the 1 OpenCL device (name one to use it))"
SKIRMISH_DEVICE=portable expect 0 devices-named -- devices
grep -qE '^jobs use: 0 \(' "$tmp/out" || fail "devices-named: $(tail -1 "$tmp/out")"
# A build from source is logged before and after, with its time (a GPU driver's first build
# takes minutes: docs/kernels.md); from the program cache, nothing is logged.
SKIRMISH_CL_CACHE=$tmp/cl-cache expect 0 devices-build-logged -- devices --check
# The self-check builds the random streams' kernel alone (docs/kernels.md).
grep -qE 'level=info prog=skirmish event=opencl_build device=".+" program=self-check features="-DBATTLE_RNG_ONLY=1" cache="'"$tmp"'/cl-cache/[0-9a-f]{16}-[0-9a-f]{16}\.bin"$' "$tmp/err" ||
  fail "devices-build-logged: no opencl_build line: $(cat "$tmp/err")"
grep -qE 'level=info prog=skirmish event=opencl_built device=".+" program=self-check seconds=[0-9]+\.[0-9] cached=yes private_mem=[0-9]+$' "$tmp/err" ||
  fail "devices-build-logged: no opencl_built line: $(cat "$tmp/err")"
SKIRMISH_CL_CACHE=$tmp/cl-cache expect 0 devices-cached -- devices --check
[ ! -s "$tmp/err" ] || fail "devices-cached: a cached program logged: $(cat "$tmp/err")"
SKIRMISH_DEVICE=cpu expect 0 devices-cpu -- devices
contains "$tmp/out" "jobs use: the cpu backend (SKIRMISH_DEVICE=cpu)"
SKIRMISH_DEVICE=radeon expect 1 devices-unknown -- devices
contains "$tmp/out" 'jobs fail: SKIRMISH_DEVICE=radeon: no OpenCL device matches "radeon"'
OCL_ICD_VENDORS=$tmp/no-icd expect 0 devices-none -- devices
same "$tmp/out" "jobs use: the cpu backend (no OpenCL device found)"
expect 2 devices-bad-option -- devices --all
contains "$tmp/err" "skirmish devices: unknown option '--all'"

# Prebuild: the programs of job documents built into the program cache for a device, then
# loaded from it (docs/deploy.md); a file of a plan built above shares its build; a kind
# that builds nothing ahead and a deck that plays on the CPU say so.
SKIRMISH_CL_CACHE=$tmp/pre-cache expect 0 prebuild -- prebuild --device portable "$ex" "$ex" \
  "$src/examples/board_two_turns.json" "$tmp/flex.json"
grep -qE "^$ex: built in [0-9]+\.[0-9]{2} s, private [0-9]+ B, local [0-9]+ B: -DBATTLE_K_FX=0x[0-9a-f]{2}u .* -DBATTLE_K_LANES=[0-9]+$" "$tmp/out" ||
  fail "prebuild: $(head -1 "$tmp/out")"
contains "$tmp/out" "$ex: built above, private"
contains "$tmp/out" "board_two_turns.json: nothing to build ahead for a board job"
contains "$tmp/out" "flex.json: a deck plays on the CPU backend (flexible play): no program"
[ "$(ls "$tmp/pre-cache" | grep -c '\.bin$')" -eq 1 ] || fail "prebuild: cache holds $(ls "$tmp/pre-cache")"
SKIRMISH_CL_CACHE=$tmp/pre-cache expect 0 prebuild-cached -- prebuild --device=portable "$ex"
grep -qE "^$ex: loaded from the cache in [0-9]+\.[0-9]{2} s, private" "$tmp/out" ||
  fail "prebuild-cached: $(cat "$tmp/out")"
# Without a GPU the default is the CPU backend, which has no programs.
expect 1 prebuild-no-device -- prebuild "$ex"
contains "$tmp/err" "no OpenCL device: the CPU backend plays every job and needs no program"
expect 2 prebuild-cpu -- prebuild --device cpu "$ex"
contains "$tmp/err" "skirmish prebuild: the CPU backend needs no program: name an OpenCL device"
expect 2 prebuild-no-file -- prebuild --device portable
contains "$tmp/err" "skirmish prebuild: name at least one job document"
expect 2 prebuild-bad-option -- prebuild --all "$ex"
contains "$tmp/err" "skirmish prebuild: unknown option '--all'"
expect 2 prebuild-invalid -- prebuild --device portable "$src/tests/cli/bad_job.json"
contains "$tmp/err" "/params"
expect 1 prebuild-missing -- prebuild --device portable "$tmp/none.json"

# Other kinds go through the same path (board: tests/data/board/s1_moonwalk.json's job);
# --summary is for results with wins, stalls and losses, so a board job still prints its JSON
# result.
expect 0 board-job -- run --summary "$src/tests/cli/board_job.json"
contains "$tmp/out" '"state": {'
expect 2 board-games -- run --games 5 "$src/tests/cli/board_job.json"
same "$tmp/err" "skirmish run: --games applies to battle jobs only"

# Ctrl-C (SIGINT) stops a run after its current step and prints the result of the games
# played so far, marked partial, with exit status 130; --summary says "partial".
ex1="$src/examples/battle_reference_1.json"
# interrupt ARGS...: runs the binary in the background and sends SIGINT once it has used a
# second of CPU (well into its games: its set-up takes a quarter of that), not at a fixed
# time, which a loaded machine could spend still starting; $got is its exit status.
interrupt() {
  local pid cpu=0 waited=0 hz
  hz=$(getconf CLK_TCK)
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  while [ "$cpu" -lt "$hz" ] && [ "$waited" -lt 600 ] && kill -0 "$pid" 2>/dev/null; do
    sleep 0.1
    waited=$((waited + 1))
    cpu=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)
  done
  kill -INT "$pid" 2>/dev/null
  got=0
  wait "$pid" || got=$?
}
interrupt run --games 1000000000 "$ex1"
[ "$got" -eq 130 ] || fail "interrupted run: exit $got, want 130"
contains "$tmp/err" 'skirmish: interrupted: the result of the units done so far, marked "partial": true'
contains "$tmp/out" '"partial": true'
interrupt run --games 1000000000 --summary "$ex1"
[ "$got" -eq 130 ] || fail "interrupted summary run: exit $got, want 130"
contains "$tmp/out" "(partial: interrupted)"
# On a terminal (script(1) gives it one) the run shows its progress on stderr; the result on
# stdout is the same as without one.
if command -v script >/dev/null; then
  script -qec "'$bin' run --games 400000 --seed 3 --summary '$ex1' >'$tmp/tty-out'" \
    "$tmp/typescript" >/dev/null </dev/null || fail "run on a terminal failed"
  contains "$tmp/typescript" "games/s, about"
  "$bin" run --games 400000 --seed 3 --summary "$ex1" >"$tmp/out" 2>"$tmp/err"
  [ ! -s "$tmp/err" ] || fail "run without a terminal wrote to stderr: $(head -c 200 "$tmp/err")"
  contains "$tmp/tty-out" "$(cat "$tmp/out")"
fi

# Every example runs (battle examples cut to 200 games).
for f in "$src"/examples/*.json; do
  if grep -qE '"kind": *"battle"' "$f"; then
    expect 0 "example $(basename "$f")" -- run --games 200 "$f"
  else
    expect 0 "example $(basename "$f")" -- run "$f"
  fi
done

# Every example of the game's cards (examples/tu/) runs on them, when the snapshot is next to
# the checkout (../shared/data/tu; tests/js/example_jobs.test.mjs runs them through the API).
cards="$src/../shared/data/tu"
if [ -d "$cards" ]; then
  for f in "$src"/examples/tu/*.json; do
    if grep -qE '"kind": *"battle"' "$f"; then
      SKIRMISH_CARDS_DIR=$cards expect 0 "example tu/$(basename "$f")" -- run --games 200 "$f"
    else
      SKIRMISH_CARDS_DIR=$cards expect 0 "example tu/$(basename "$f")" -- run "$f"
    fi
  done
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures CLI check(s) failed" >&2
  exit 1
fi
echo "all CLI checks passed"
