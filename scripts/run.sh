#!/usr/bin/env bash
# `make run`: installs what is missing, builds, starts PostgreSQL and Redis on loopback
# with their data under var/ (kept between runs), applies the migrations, starts
# skirmish-api and one skirmish-worker per core, makes a development admin key, prints the
# URL, the key and a curl example, and
# supervises them: an API or worker that exits (a crash, kill -9, the OOM killer) is
# logged and started again with backoff (1 s, doubling to 30 s; back to 1 s after a
# minute of running) while the others keep serving. Only Ctrl-C or SIGTERM to this script
# stops the stack, cleanly, with status 0. Logs go to var/log/ (run.log: the supervisor).
#   SKIRMISH_HTTP_PORT (8080), SKIRMISH_HTTP_ADDR (127.0.0.1)   where the API listens
#   SK_PG_PORT (5433), SK_REDIS_PORT (6380)                     the local servers' ports
#   SK_WORKERS (one per core)                                   worker processes
#   SK_RUN_BIN (empty)         run the programs of this build folder as they are, without
#                              installing or building anything (the test run_supervise)
#   SK_RUN_VAR (var)           the data and log folder
#   SKIRMISH_CARDS_UPDATE (0)  1: download or refresh the game's card files into the catalog
#                              store $SK_RUN_VAR/cards at start (`skirmish cards update`)
#                              and serve them (SKIRMISH_CARDS_DIR)
# Any other SKIRMISH_* setting of the README's configuration table is passed through.
# `scripts/run.sh --example` only prints the example job it would print (for the settings
# in the environment) and exits: the test example_jobs submits what it prints.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# The example job printed once the stack is up, with curl, for the catalog the API and the
# workers load: with SKIRMISH_CARDS_DIR the game's cards (decks as players write them,
# docs/cards.md), else the built-in ones (data/cards.json; a SKIRMISH_CARDS_FILE has cards
# of its own, which the example cannot know). $1 is the API's URL, $2 the curl options that
# send the key (empty with keys off).
print_example() {
  local url=$1 auth=$2
  if [ -n "${SKIRMISH_CARDS_DIR:-}" ]; then
    cat <<MSG

Submit a battle job of the game's cards (SKIRMISH_CARDS_DIR; more jobs in examples/tu/),
then read its status and result:

  curl -s -X POST $url/v1/jobs$auth -H 'Content-Type: application/json' -d '{
    "kind": "battle", "seed": 42,
    "params": {"games": 1000,
      "attacker": "Octane-1, Bazooka Marine#3, Rally Infantry#3, Barrage Tank#2, Grunt#2",
      "defender": {"deck": "Malika-1, Dread Panzer#2, Trap Setter, Invasion Blockade, Combat Specialist#3", "play": "ordered"}}}'
MSG
  else
    local note="the built-in cards (data/cards.json)"
    [ -z "${SKIRMISH_CARDS_FILE:-}" ] ||
      note="the built-in cards (with SKIRMISH_CARDS_FILE, name its cards instead)"
    cat <<MSG

Submit a battle job of $note, then read its status and result:

  curl -s -X POST $url/v1/jobs$auth -H 'Content-Type: application/json' -d '{
    "kind": "battle", "seed": 42,
    "params": {"games": 1000,
      "attacker": {"commander": "Barracus", "deck": [{"card": "Chainslicer", "count": 5}, {"card": "Anvil", "count": 3}]},
      "defender": {"commander": "Iron Warden", "deck": [{"card": "Iron Maiden", "count": 4}, {"card": "Bloodfang", "count": 4}]}}}'
MSG
  fi
  cat <<MSG
  curl -s$auth $url/v1/jobs/JOB_ID
  curl -s$auth $url/v1/jobs/JOB_ID/result

MSG
}

if [ "${1:-}" = --example ]; then
  auth=""
  [ "${SKIRMISH_AUTH:-on}" = off ] || auth=" -H \"Authorization: Bearer \$SKIRMISH_KEY\""
  print_example "http://${SKIRMISH_HTTP_ADDR:-127.0.0.1}:${SKIRMISH_HTTP_PORT:-8080}" "$auth"
  exit 0
fi

# On a terminal, run the stack as a job of its own (job control): the terminal then sends
# Ctrl-C to that job only, not to make, which would otherwise die of the signal and make
# `make run` end with status 130 as if it had crashed. The job stops everything and exits 0.
if [ -t 0 ] && [ -z "${SK_RUN_JOB:-}" ]; then
  set -m
  rc=0
  SK_RUN_JOB=1 "$0" "$@" || rc=$?
  exit $rc
fi
var=${SK_RUN_VAR:-$root/var}

if [ -n "${SK_RUN_BIN:-}" ]; then
  bin=$SK_RUN_BIN
else
  bin=$root/build
  scripts/deps.sh
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  # skirmish too: the README's command-line section runs build/skirmish
  cmake --build build -j "$(nproc)" --target skirmish-api skirmish-worker skirmish
fi

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

# The game's cards (docs/cards.md, "Getting and refreshing the game's cards"): refreshed
# into a store under var/ on request, before the API and the workers load them at start.
# A failed update leaves the store's previous catalog current: with one, go on with it.
if [ "${SKIRMISH_CARDS_UPDATE:-0}" = 1 ]; then
  if [ -n "${SKIRMISH_CARDS_FILE:-}" ]; then
    echo "run: SKIRMISH_CARDS_UPDATE=1 serves the game's card files; unset SKIRMISH_CARDS_FILE" >&2
    exit 1
  fi
  if [ -n "${SKIRMISH_CARDS_DIR:-}" ] && [ "$SKIRMISH_CARDS_DIR" != "$var/cards" ]; then
    echo "run: SKIRMISH_CARDS_UPDATE=1: serving $var/cards, not SKIRMISH_CARDS_DIR=$SKIRMISH_CARDS_DIR" >&2
  fi
  if ! "$bin/skirmish" cards update --dir "$var/cards"; then
    if [ -e "$var/cards/current" ]; then
      echo "run: the cards update failed (above); going on with the catalog $var/cards had" >&2
    else
      echo "run: the cards update failed (above) and $var/cards has no catalog yet; fix it and" \
           "run again, or start without SKIRMISH_CARDS_UPDATE (the built-in cards)" >&2
      exit 1
    fi
  fi
  export SKIRMISH_CARDS_DIR=$var/cards
elif [ -z "${SKIRMISH_CARDS_DIR:-}${SKIRMISH_CARDS_FILE:-}${SKIRMISH_CONFIG_FILE:-}" ]; then
  echo "run: the built-in cards only; for the game's: SKIRMISH_CARDS_UPDATE=1 make run" \
       "(or build/skirmish cards update --dir var/cards, then SKIRMISH_CARDS_DIR=\$PWD/var/cards)" >&2
fi
# The supervised processes: index 0 the API, then the workers. Per process its pid, when
# it started, and after it exited when it starts again and the delay after the next exit.
names=(api)
for i in $(seq 1 "$workers"); do names+=("worker-$i"); done
pids=()
started=()
restart_at=()
delay=()
restarts=()
stopping=0

# One supervisor event: a key=value line in var/log/run.log (the programs' log format) and
# a sentence on the terminal.
log_event() {
  local level=$1 text=$2
  shift 2
  printf 'ts=%s level=%s prog=run %s\n' "$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)" "$level" "$*" \
    >>"$var/log/run.log"
  echo "run: $text" >&2
}

start_proc() {
  local i=$1
  if [ "$i" -eq 0 ]; then
    "$bin/skirmish-api" 2>>"$var/log/api.log" &
  else
    "$bin/skirmish-worker" 2>>"$var/log/${names[$i]}.log" &
  fi
  pids[i]=$!
  started[i]=$SECONDS
  restart_at[i]=0
}

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
# The trap runs before the supervision loop below can see them gone, so a requested stop
# ends through stop_all with status 0: nothing is restarted and nothing reported as exited.
trap 'exit 0' INT TERM

# Group commit: with many submissions in flight, one WAL flush serves several commits.
SK_PG_OPTS="${SK_PG_OPTS:-} -c commit_delay=200 -c commit_siblings=2" \
  scripts/services.sh pg-start "$var" "$pg_port"
scripts/services.sh redis-start "$var" "$redis_port"
"$bin/skirmish-api" migrate 2>>"$var/log/api.log"

# Keys are on (docs/security.md): a fresh development admin key each run, printed below;
# the previous runs' ones are revoked. SKIRMISH_AUTH=off make run serves without keys.
export SKIRMISH_AUTH=${SKIRMISH_AUTH:-on}
key=""
if [ "$SKIRMISH_AUTH" != off ]; then
  for old in $("$bin/skirmish-api" keys list 2>>"$var/log/api.log" |
               awk '$5 == "-" && $6 == "make-run" {print $1}'); do
    "$bin/skirmish-api" keys revoke "$old" 2>>"$var/log/api.log"
  done
  key=$("$bin/skirmish-api" keys create --tenant dev --admin --name make-run \
          2>>"$var/log/api.log")
fi

for i in "${!names[@]}"; do
  start_proc "$i"
  delay[i]=1
  restarts[i]=0
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
Logs: $var/log/api.log, $var/log/worker-*.log, $var/log/run.log (restarts)      Stop: Ctrl-C
MSG
if [ -n "$key" ]; then
  cat <<MSG
Development admin key (valid until the next make run; docs/security.md):
  export SKIRMISH_KEY=$key
MSG
fi
print_example "$url" "$auth"

# Supervise until Ctrl-C or SIGTERM: a process that exited is reported once, with its
# status, and started again after its delay (1 s, doubled at each exit up to 30 s, back to
# 1 s once it ran a minute), as a process supervisor would. `wait` returns at once when a
# trapped signal arrives, so a stop starts immediately.
while :; do
  sleep 1 &
  wait $! || true
  for i in "${!names[@]}"; do
    p=${pids[$i]}
    if [ "${restart_at[$i]}" -eq 0 ]; then
      kill -0 "$p" 2>/dev/null && continue
      rc=0
      wait "$p" || rc=$?
      up=$((SECONDS - started[i]))
      [ "$up" -ge 60 ] && delay[i]=1
      if [ "$rc" -gt 128 ]; then
        sig=$(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128)))
        how="was killed by SIG$sig"
        kv="signal=$sig"
      else
        how="exited with status $rc"
        kv="status=$rc"
      fi
      log_event warn "${names[$i]} (pid $p) $how after ${up} s; starting it again in ${delay[$i]} s (see $var/log/${names[$i]}.log)" \
        "event=process_exited name=${names[$i]} pid=$p $kv uptime_s=$up restart_in_s=${delay[$i]}"
      restart_at[i]=$((SECONDS + delay[i]))
      delay[i]=$((delay[i] * 2 > 30 ? 30 : delay[i] * 2))
    elif [ "$SECONDS" -ge "${restart_at[$i]}" ]; then
      start_proc "$i"
      restarts[i]=$((restarts[i] + 1))
      log_event info "${names[$i]} started again (pid ${pids[$i]}, restart ${restarts[$i]})" \
        "event=process_restarted name=${names[$i]} pid=${pids[$i]} restarts=${restarts[$i]}"
    fi
  done
done
