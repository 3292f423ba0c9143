#!/usr/bin/env bash
# `make run`: installs what is missing, builds, starts PostgreSQL and Redis on loopback
# with their data under var/ (kept between runs), applies the migrations, starts
# skirmish-api and one skirmish-worker per core, makes a development admin key, prints the
# URL, the key and a curl example, and
# stops everything cleanly on Ctrl-C. Logs go to var/log/.
#   SKIRMISH_HTTP_PORT (8080), SKIRMISH_HTTP_ADDR (127.0.0.1)   where the API listens
#   SK_PG_PORT (5433), SK_REDIS_PORT (6380)                     the local servers' ports
#   SK_WORKERS (one per core)                                   worker processes
# Any other SKIRMISH_* setting of the README's configuration table is passed through.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# On a terminal, run the stack as a job of its own (job control): the terminal then sends
# Ctrl-C to that job only, not to make, which would otherwise die of the signal and make
# `make run` end with status 130 as if it had crashed. The job stops everything and exits 0.
if [ -t 0 ] && [ -z "${SK_RUN_JOB:-}" ]; then
  set -m
  rc=0
  SK_RUN_JOB=1 "$0" "$@" || rc=$?
  exit $rc
fi
var=$root/var

scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)" --target skirmish-api skirmish-worker

pg_port=${SK_PG_PORT:-5433}
redis_port=${SK_REDIS_PORT:-6380}
export SKIRMISH_HTTP_ADDR=${SKIRMISH_HTTP_ADDR:-127.0.0.1}
export SKIRMISH_HTTP_PORT=${SKIRMISH_HTTP_PORT:-8080}
export SKIRMISH_DATABASE_URL=${SKIRMISH_DATABASE_URL:-postgresql://postgres@127.0.0.1:$pg_port/skirmish}
export SKIRMISH_REDIS_URL=${SKIRMISH_REDIS_URL:-redis://127.0.0.1:$redis_port}
workers=${SK_WORKERS:-$(nproc)}

if (exec 3<>"/dev/tcp/$SKIRMISH_HTTP_ADDR/$SKIRMISH_HTTP_PORT") 2>/dev/null; then
  echo "run: $SKIRMISH_HTTP_ADDR:$SKIRMISH_HTTP_PORT is already in use (another make run?);" \
       "set SKIRMISH_HTTP_PORT to use another port" >&2
  exit 1
fi

mkdir -p "$var/log"
chmod 755 "$var"
pids=()
stopping=0
stop_all() {
  [ $stopping -eq 1 ] && return
  stopping=1
  trap '' INT TERM
  echo
  echo "run: stopping (workers finish their current chunk and give their job back)"
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  scripts/services.sh redis-stop "$var" || true
  scripts/services.sh pg-stop "$var" || true
  echo "run: stopped; data kept in $var"
}
trap stop_all EXIT
# Ctrl-C reaches the API and workers too (same process group) and they exit on their own.
# The trap runs before the wait loop below can see them gone, so a requested stop ends
# through stop_all with status 0, never as "process exited".
trap 'exit 0' INT TERM

# Group commit: with many submissions in flight, one WAL flush serves several commits.
SK_PG_OPTS="${SK_PG_OPTS:-} -c commit_delay=200 -c commit_siblings=2" \
  scripts/services.sh pg-start "$var" "$pg_port"
scripts/services.sh redis-start "$var" "$redis_port"
build/skirmish-api migrate 2>>"$var/log/api.log"

# Keys are on (docs/security.md): a fresh development admin key each run, printed below;
# the previous runs' ones are revoked. SKIRMISH_AUTH=off make run serves without keys.
export SKIRMISH_AUTH=${SKIRMISH_AUTH:-on}
key=""
if [ "$SKIRMISH_AUTH" != off ]; then
  for old in $(build/skirmish-api keys list 2>>"$var/log/api.log" |
               awk '$5 == "-" && $6 == "make-run" {print $1}'); do
    build/skirmish-api keys revoke "$old" 2>>"$var/log/api.log"
  done
  key=$(build/skirmish-api keys create --tenant dev --admin --name make-run 2>>"$var/log/api.log")
fi

build/skirmish-api 2>>"$var/log/api.log" &
pids+=($!)
for i in $(seq 1 "$workers"); do
  build/skirmish-worker 2>>"$var/log/worker-$i.log" &
  pids+=($!)
done

url="http://$SKIRMISH_HTTP_ADDR:$SKIRMISH_HTTP_PORT"
for _ in $(seq 1 100); do
  curl -fsS "$url/readyz" >/dev/null 2>&1 && break
  if ! kill -0 "${pids[0]}" 2>/dev/null; then
    echo "run: skirmish-api did not start; see $var/log/api.log" >&2
    tail -n 20 "$var/log/api.log" >&2
    exit 1
  fi
  sleep 0.1
done

auth=""
dash="$url/"
if [ -n "$key" ]; then
  auth=" -H \"Authorization: Bearer \$SKIRMISH_KEY\""
  dash="$url/#key=$key"
fi
cat <<MSG

Skirmish is running: API $url ($workers workers; PostgreSQL :$pg_port, Redis :$redis_port)
Dashboard: $dash
Logs: $var/log/api.log, $var/log/worker-*.log      Stop: Ctrl-C
MSG
if [ -n "$key" ]; then
  cat <<MSG
Development admin key (valid until the next make run; docs/security.md):
  export SKIRMISH_KEY=$key
MSG
fi
cat <<MSG

Submit a battle job, then read its status and result:

  curl -s -X POST $url/v1/jobs$auth -H 'Content-Type: application/json' -d '{
    "kind": "battle", "seed": 42,
    "params": {"games": 1000,
      "attacker": {"commander": "Barracus", "deck": [{"card": "Chainslicer", "count": 5}, {"card": "Anvil", "count": 3}]},
      "defender": {"commander": "Iron Warden", "deck": [{"card": "Iron Maiden", "count": 4}, {"card": "Bloodfang", "count": 4}]}}}'
  curl -s$auth $url/v1/jobs/JOB_ID
  curl -s$auth $url/v1/jobs/JOB_ID/result

MSG

# Wait until Ctrl-C, or until a process exits on its own (then stop the rest).
# `wait` returns at once when a trapped signal arrives, so the stop starts immediately.
# The API and the workers exit 0 only when asked to stop (SIGINT, SIGTERM from outside).
while :; do
  sleep 1 &
  wait $! || true
  for p in "${pids[@]}"; do
    if ! kill -0 "$p" 2>/dev/null; then
      rc=0
      wait "$p" || rc=$?
      if [ $rc -eq 0 ]; then
        echo "run: process $p was stopped by a signal; stopping the rest"
        exit 0
      fi
      echo "run: process $p exited with status $rc; see $var/log/" >&2
      exit 1
    fi
  done
done
