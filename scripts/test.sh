#!/usr/bin/env bash
# The test runner, in two parts (README "Tests"):
#   scripts/test.sh          `make test`, the everyday loop: one RelWithDebInfo + ASan/UBSan
#                            build (build-asan/, ccache), clang-tidy on the C files changed
#                            since upstream, every CUnit suite as its own ctest test and the
#                            shell and Node.js checks of the C programs, side by side
#                            (`ctest -j`; a test that passed with exactly the inputs it has
#                            now is not run again), and the recorded API responses validated
#                            against the OpenAPI document.
#   scripts/test.sh --gate   the rest of the full gate that `make test-all` (CI) adds: the
#                            Release -O3 build (build/) with every test, the browser,
#                            TypeScript-client and README tests among them, the
#                            ThreadSanitizer build (build-tsan/, API and worker suites),
#                            clang-tidy on every file, the OpenAPI lint and its examples.
# Both install what is missing, start throw-away PostgreSQL and Redis on free loopback ports
# (always stopped again) and exit non-zero on any failure.
#   SK_TEST_ARGS="-L unit"   extra ctest arguments (e.g. -R test_engine.battle_rules); an -E
#                            of its own replaces the test cache's (ctest keeps the last -E):
#                            add SK_TEST_ALL=1 with it
#   SK_TEST_BUILDS="build"   the gate's builds (default: "build build-tsan")
#   SK_TEST_JOBS=N           tests run side by side (default: the number of cores + 1)
#   SK_TEST_NO_TIDY=1        skip clang-tidy
#   SK_TEST_ALL=1            make test runs every test, also those that passed before with
#                            the inputs they have now (scripts/test_skip.sh)
#   SK_TEST_SCALE=F          job sizes of the integration tests times F (default 1)
#   SK_TEST_ARTIFACTS=DIR    browser test screenshots in DIR/<build>/browser
#                            (default <build>/test-artifacts/browser)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

mode=quick
case "${1:-}" in
"") ;;
--gate) mode=gate ;;
*)
  echo "usage: scripts/test.sh [--gate]" >&2
  exit 2
  ;;
esac

scripts/deps.sh
# The everyday loop checks only the files that changed since they last passed
# (build-asan/format-passed); the gate checks every file.
if [ $mode = quick ]; then scripts/format-check.sh build-asan/format-passed; else scripts/format-check.sh; fi

# The Node.js tools of the tests (Redocly and ajv for the OpenAPI checks, playwright-core for
# the browser tests), exactly as the root package-lock.json pins them; skipped when
# node_modules/ already matches the lock file.
lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.sk-lock.sha256 2>/dev/null)" != "$lock_sum" ]; then
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_sum" > node_modules/.sk-lock.sha256
fi
# The TypeScript client's dist/ (built, not committed), which the gate's ts_client and
# deckbuilder browser tests import.
if [ $mode = gate ]; then npm run --silent build:client; fi

# The builds, all with -Werror and through ccache (its cache outlives build folders and
# clones: a fresh clone recompiles in seconds what this machine compiled before).
#   build-asan  RelWithDebInfo, ASan+UBSan: the everyday build
#   build       Release -O3: what users get and what warns most (e.g. -Wformat-truncation)
#   build-tsan  Debug, ThreadSanitizer: only the API and worker tests are built and run
if [ $mode = quick ]; then builds="build-asan"; else builds=${SK_TEST_BUILDS:-"build build-tsan"}; fi
jobs=$(nproc)
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache)
  # Paths relative to the checkout, and the build folder left out of the hash (debug info
  # then names the first checkout's folder), so that another clone hits the same entries.
  export CCACHE_BASEDIR=$root CCACHE_NOHASHDIR=true
fi

# Throw-away PostgreSQL and Redis, started in the background while the build runs (a few
# seconds of waiting for the servers otherwise added to every run) and always stopped again.
# Suites run side by side: each integration test makes its own database and Redis key
# prefix (tests/integration/it_support.c), so room for connections is what they share.
# A fresh cluster is copied from the build folder's (SK_PG_TEMPLATE), not made by initdb.
tmp=$(mktemp -d /tmp/skirmish-test.XXXXXX)
chmod 755 "$tmp"
pg_port=$(scripts/services.sh free-port)
redis_port=$(scripts/services.sh free-port)
while [ "$redis_port" = "$pg_port" ]; do redis_port=$(scripts/services.sh free-port); done
svc_pid=""
tidy_pid=""
cleanup() {
  # a server still starting is let finish, then stopped with the other
  if [ -n "$svc_pid" ]; then wait "$svc_pid" || true; fi
  if [ -n "$tidy_pid" ]; then wait "$tidy_pid" || true; fi
  scripts/services.sh redis-stop "$tmp" || true
  scripts/services.sh pg-stop "$tmp" || true
  if [ -z "${SK_KEEP_TMP:-}" ]; then rm -rf "$tmp"; fi
}
trap cleanup EXIT
{
  SK_PG_OPTS="-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
    SK_PG_TEMPLATE="$root/${builds%% *}/pg-template" scripts/services.sh pg-start "$tmp" "$pg_port" &&
    SK_REDIS_AOF=no scripts/services.sh redis-start "$tmp" "$redis_port"
} >"$tmp/services.log" 2>&1 &
svc_pid=$!

for b in $builds; do
  targets=()
  case $b in
  build-asan) extra=(-DSK_SANITIZE="address;undefined" -DCMAKE_BUILD_TYPE=RelWithDebInfo) ;;
  build-tsan)
    extra=(-DSK_SANITIZE=thread -DCMAKE_BUILD_TYPE=Debug)
    targets=(--target test_api test_worker)
    ;;
  *) extra=(-DCMAKE_BUILD_TYPE=Release) ;;
  esac
  # The compiler's thousands of progress lines go to a log; the output shows one line per
  # build, and the log's warnings and errors (its last 60 lines) when the build fails.
  echo "== build: $b (log: $b/build.log)"
  cmake -S . -B "$b" -DSK_WERROR=ON "${launcher[@]}" "${extra[@]}" >/dev/null
  if ! cmake --build "$b" -j "$jobs" "${targets[@]}" >"$b/build.log" 2>&1; then
    grep -E 'error|warning' "$b/build.log" | head -40 >&2 || true
    tail -n 60 "$b/build.log" >&2
    echo "make test: the $b build failed (log: $b/build.log)" >&2
    exit 1
  fi
done

# clang-tidy, zero findings: on every file in the gate, here; on the files changed since
# upstream in the everyday loop, in the background while the tests run (its output and
# verdict come after theirs).
if [ -z "${SK_TEST_NO_TIDY:-}" ]; then
  if [ $mode = quick ]; then
    scripts/tidy.sh build-asan --changed >"$tmp/tidy.log" 2>&1 &
    tidy_pid=$!
  else
    scripts/tidy.sh build
  fi
fi

# Wait for the servers started beside the build (their output is printed here).
if ! wait "$svc_pid"; then
  cat "$tmp/services.log" >&2
  echo "make test: PostgreSQL or Redis did not start (above)" >&2
  exit 1
fi
svc_pid=""
cat "$tmp/services.log"

# The integration tests read these to reach the servers and to stop/start them.
export SKIRMISH_TEST_DIR=$tmp
export SKIRMISH_TEST_PG_PORT=$pg_port
export SKIRMISH_TEST_REDIS_PORT=$redis_port
export SKIRMISH_DATABASE_URL="postgresql://postgres@127.0.0.1:$pg_port/skirmish"
export SKIRMISH_REDIS_URL="redis://127.0.0.1:$redis_port"
export SKIRMISH_SERVICES="$root/scripts/services.sh"
export SKIRMISH_TEST_SCALE=${SK_TEST_SCALE:-1}
export LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0"
# intercept_tls_get_addr=0: GCC 12's LeakSanitizer misreads some dynamic TLS blocks of
# threads in dlopen'ed libraries (PoCL's worker threads) and its exit-time tracer then dies
# with "Tracer caught signal 11" about once in eight test_engine runs; fixed upstream in
# later runtimes. Those TLS blocks only belong to the suppressed OpenCL/PoCL/LLVM code.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:intercept_tls_get_addr=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$root/tests/tsan.supp"

status=0
skipped=""
for b in $builds; do
  echo "== tests: $b =="
  export SKIRMISH_BIN_DIR="$root/$b"
  # OpenCL program binaries are kept with the build (29 s to compile the battle program on
  # PoCL, 0.45 s to load it): entries are keyed by the source, the options and the device,
  # so a changed kernel is compiled again and the old entry is never used.
  export SKIRMISH_CL_CACHE="$root/$b/cl-cache"
  # Screenshots and logs of the browser tests go to $SKIRMISH_TEST_ARTIFACTS/browser
  # (SK_TEST_ARTIFACTS=DIR puts them under DIR/<build>); old ones are removed first.
  if [ -n "${SK_TEST_ARTIFACTS:-}" ]; then
    export SKIRMISH_TEST_ARTIFACTS="$SK_TEST_ARTIFACTS/$b"
  else
    export SKIRMISH_TEST_ARTIFACTS="$root/$b/test-artifacts"
  fi
  rm -rf "$SKIRMISH_TEST_ARTIFACTS/browser"
  # Everyday: every test but those labelled `gate` (the browser, TypeScript-client and
  # README tests, `make run`'s supervision and the network namespaces: they check the
  # programs' behaviour from outside, which a one-line change to C code rarely moves, and
  # they take minutes). The Release build runs every test; the ThreadSanitizer build the
  # API and worker suites.
  sel=()
  case $b in
  build-asan) sel=(-LE gate) ;;
  build-tsan) sel=(-R '^test_(api|worker)([.]|$)') ;;
  esac
  # The everyday loop does not run again a test that passed with exactly the inputs it has
  # now (scripts/test_skip.sh: its programs byte for byte, the files the tests read);
  # SK_TEST_ALL=1 runs every one. The gate runs every test.
  skip_re=""
  junit=()
  if [ $mode = quick ]; then
    # shellcheck disable=SC2086
    skip_re=$(scripts/test_skip.sh plan "$b" "${sel[@]}" ${SK_TEST_ARGS:-})
    [ -z "$skip_re" ] || skipped=1
    junit=(--output-junit "$root/$b/test-junit.xml")
    rm -f "$root/$b/test-junit.xml"
  fi
  # shellcheck disable=SC2086
  if ! ctest --test-dir "$b" --output-on-failure -j "${SK_TEST_JOBS:-$((jobs + 1))}" \
       "${sel[@]}" ${skip_re:+-E "$skip_re"} "${junit[@]}" ${SK_TEST_ARGS:-}; then
    status=1
  fi
  if [ $mode = quick ] && [ -f "$root/$b/test-junit.xml" ]; then
    scripts/test_skip.sh record "$b" "$root/$b/test-junit.xml"
  fi
  if [ -d "$SKIRMISH_TEST_ARTIFACTS/browser" ]; then
    echo "browser test screenshots and logs: $SKIRMISH_TEST_ARTIFACTS/browser"
  fi
done
if [ -n "$tidy_pid" ]; then
  echo "== tidy =="
  tidy_ok=1
  wait "$tidy_pid" || tidy_ok=0
  tidy_pid=""
  cat "$tmp/tidy.log"
  if [ $tidy_ok = 0 ]; then
    echo "make test: clang-tidy has findings (above)" >&2
    status=1
  fi
fi
# The OpenAPI document: in the gate, lint (Redocly) and its examples (one for every request
# and response, each valid against its schema); in both, every response the integration
# tests recorded (responses-*.jsonl) validated against it. Each checker first proves it
# rejects bad input.
echo "== openapi =="
if [ $mode = gate ] &&
   ! { node_modules/.bin/redocly lint --config openapi/redocly.yaml openapi/openapi.json &&
       node tests/js/examples.mjs --self-test openapi/openapi.json &&
       node tests/js/examples.mjs openapi/openapi.json; }; then
  status=1
elif ! node tests/js/validate.mjs --self-test openapi/openapi.json; then
  status=1
else
  shopt -s nullglob
  recs=("$tmp"/responses-*.jsonl)
  shopt -u nullglob
  if [ ${#recs[@]} -eq 0 ]; then
    echo "openapi: no recorded responses (did the integration tests run?)"
    case "${SK_TEST_ARGS:-}${skipped}" in "") status=1 ;; esac
  elif ! node tests/js/validate.mjs openapi/openapi.json "${recs[@]}"; then
    status=1
  fi
fi
what="make test"
[ $mode = gate ] && what="make test-all (gate)"
if [ $status -eq 0 ]; then echo "$what: all passed"; else echo "$what: FAILED"; fi
exit $status
