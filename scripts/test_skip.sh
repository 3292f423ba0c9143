#!/usr/bin/env bash
# The everyday loop's test cache (scripts/test.sh; make test): a test that passed with
# exactly the inputs it has now is not run again.
#   scripts/test_skip.sh plan BUILD [CTEST SELECTION...]   prints a ctest -E regex of the
#       selected tests whose inputs are those of their last pass ("" when none), and a line
#       saying how many on stderr
#   scripts/test_skip.sh record BUILD JUNIT                 records the inputs of every test
#       that passed in the ctest JUnit file JUNIT, forgets those that failed
# A test's inputs are conservative: the programs it runs, byte for byte (its CUnit program;
# for the integration suites the three programs as well, test_cli's the `skirmish` program;
# for every other test the programs its ctest command names, e.g. `cli` only `skirmish`, the
# three when it names the build folder or none), every
# file the tests, examples, scripts, catalogs, documents and the OpenAPI document hold
# (tracked or not, content hashed), the game's card files next to the checkout (names, sizes
# and times), and the knobs SK_TEST_SCALE. A change to any C file of a program changes the
# program, so the tests of a program left alone by a change are the ones skipped: a change to
# api/ runs the API and integration suites, not test_engine's. SK_TEST_ALL=1 runs every test
# (CI's clean clone has no cache anyway).
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=${1:-}
b=${2:-}
[ -n "$cmd" ] && [ -n "$b" ] || {
  echo "usage: scripts/test_skip.sh plan|record BUILD ..." >&2
  exit 2
}
shift 2
store=$b/test-passed

# The inputs every test shares, as one hash.
common_hash() {
  {
    git ls-files -co --exclude-standard -- tests examples data openapi scripts dashboard \
      clients/typescript/src migrations kernels docs README.md package-lock.json |
      sort | xargs -d '\n' -r sha256sum
    if [ -d ../shared/data/tu ]; then
      find ../shared/data/tu -type f -printf '%p %s %T@\n' | sort
    fi
    echo "scale=${SKIRMISH_TEST_SCALE:-1}"
  } | sha256sum | cut -c1-64
}

prog_hash() { sha256sum "$1" 2>/dev/null | cut -c1-64 || echo missing; }

# The programs of the tests that are not CUnit suites: those their ctest command names as
# files of the build folder; the three programs when it names the build folder itself (the
# test finds them there) or nothing of it (node tests find them through SKIRMISH_BIN_DIR).
declare -A cmd_progs
command_programs() {
  local abs name args a progs
  abs=$(cd "$b" && pwd)
  while IFS=$'\t' read -r name args; do
    progs=""
    for a in $args; do
      case $a in
      "$abs") progs="$progs skirmish-api skirmish-worker skirmish" ;;
      "$abs"/*) progs="$progs ${a#"$abs"/}" ;;
      esac
    done
    cmd_progs[$name]=${progs:-tests/test_engine skirmish-api skirmish-worker skirmish}
  done < <(ctest --test-dir "$b" --show-only=json-v1 |
    jq -r '.tests[] | select(.name | test("^test_") | not) | [.name, (.command | join(" "))] | @tsv')
}

# The fingerprint of test $1 into `fp`: the common hash ($common) and its programs' hashes
# (cached in `ph`), as text. Neither printed nor hashed again: called as $(fingerprint), it
# ran in a subshell whose `ph` was lost, so every test hashed its programs again
# (test_engine's 41 MB for each of its 45 suites), and each test's final sha256sum cost
# forks, which are slow on the test VM: 20-23 s of every make test there, now 1-2 s.
declare -A ph
fp=""
fingerprint() {
  local t=$1 progs=() p out=$common
  case $t in
  test_integration.*) progs=(tests/test_integration skirmish-api skirmish-worker skirmish) ;;
  test_cli.*) progs=(tests/test_cli skirmish) ;; # runs `skirmish cards update`
  test_*.*) progs=("tests/${t%%.*}") ;;
  *) read -r -a progs <<<"${cmd_progs[$t]:-tests/test_engine skirmish-api skirmish-worker skirmish}" ;;
  esac
  for p in "${progs[@]}"; do
    [ -n "${ph[$p]:-}" ] || ph[$p]=$(prog_hash "$b/$p")
    out="$out ${ph[$p]}"
  done
  fp=$out
}

case $cmd in
plan)
  if [ -n "${SK_TEST_ALL:-}" ] || [ ! -d "$store" ]; then
    echo ""
    exit 0
  fi
  common=$(common_hash)
  command_programs
  skip=()
  n=0
  while read -r t; do
    n=$((n + 1))
    [ -f "$store/$t" ] || continue
    read -r prev <"$store/$t" || prev=""
    fingerprint "$t"
    if [ "$prev" = "$fp" ]; then
      skip+=("$t")
    fi
  done < <(ctest --test-dir "$b" -N "$@" | sed -n 's/^ *Test *#[0-9]*: *//p')
  if [ ${#skip[@]} -eq 0 ]; then
    echo ""
    exit 0
  fi
  echo "test cache: ${#skip[@]} of $n tests passed before with these inputs and are not run" \
    "again (SK_TEST_ALL=1 runs them)" >&2
  printf '%s\n' "${skip[@]}" | sed 's/[.]/[.]/g; s/^/^/; s/$/$/' | paste -sd '|'
  ;;
record)
  junit=${1:?JUnit file}
  mkdir -p "$store"
  common=$(common_hash)
  command_programs
  { grep -o '<testcase name="[^"]*" classname="[^"]*" time="[^"]*" status="[^"]*"' "$junit" ||
    true; } |
    sed 's/^<testcase name="\([^"]*\)".* status="\([^"]*\)"$/\1 \2/' |
    while read -r t st; do
      case $t in */* | .*) continue ;; esac # names become file names
      if [ "$st" = run ]; then
        fingerprint "$t"
        echo "$fp" >"$store/$t"
      else
        rm -f "$store/$t"
      fi
    done
  ;;
*)
  echo "usage: scripts/test_skip.sh plan|record BUILD ..." >&2
  exit 2
  ;;
esac
