#!/usr/bin/env bash
# run_supervise: `make run` supervises its processes. Under `make run` (with this build's
# programs, on free ports, data in a throw-away folder): a worker killed with SIGKILL in
# the middle of a job is reported and started again while the API keeps answering (probed
# every 50 ms: not one failure) and the job still succeeds (taken over after its lease, the
# dead attempt's error recorded); a killed API is started again and answers; SIGTERM to
# the run script stops everything with status 0, without an "exited" report, leaving no
# process and no server behind.
#   test_run_supervise.sh BIN_DIR     (BIN_DIR holds skirmish-api, skirmish-worker, skirmish)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$1
svc=$root/scripts/services.sh
tmp=$(mktemp -d /tmp/skirmish-run.XXXXXX)
chmod 755 "$tmp"
# Free ports below Linux's ephemeral range (32768 and up), which outgoing connections of
# other processes may take between this check and the bind.
port() {
  local p
  for _ in $(seq 1 100); do
    p=$("$svc" free-port)
    if [ "$p" -lt 32768 ] && [ "$p" != "${http:-}" ] && [ "$p" != "${pg:-}" ]; then
      echo "$p"
      return
    fi
  done
  echo "run_supervise: no free port" >&2
  exit 1
}
http=$(port)
pg=$(port)
redis=$(port)
[ -n "$http" ] && [ -n "$pg" ] && [ -n "$redis" ] || exit 1
api=http://127.0.0.1:$http
make_pid=
probe_pid=

# The pids of the processes whose parent is $1 and whose name (or script) is $2 (from
# /proc: procps may not be installed).
child_pids() {
  local parent=$1 name=$2 f stat comm fields
  for f in /proc/[0-9]*; do
    read -r stat 2>/dev/null <"$f/stat" || continue
    comm=${stat#*(}
    comm=${comm%%)*}
    read -ra fields <<<"${stat##*) }" # state ppid pgrp session ...
    [ "${fields[1]}" = "$parent" ] || continue
    # a script runs as its interpreter ("bash"): its name is in the command line
    if [ "$comm" = "$name" ] || tr '\0' ' ' <"$f/cmdline" 2>/dev/null | grep -q "/$name "; then
      echo "${f#/proc/}"
    fi
  done
}
# Processes still in the session make run was started in.
session_left() {
  local f stat fields
  for f in /proc/[0-9]*; do
    read -r stat 2>/dev/null <"$f/stat" || continue
    read -ra fields <<<"${stat##*) }"
    [ "${fields[3]}" = "$make_pid" ] && echo "${stat%%)*})"
  done
  return 0
}

cleanup() {
  if [ -n "$probe_pid" ]; then kill "$probe_pid" 2>/dev/null || true; fi
  if [ -n "$make_pid" ] && kill -0 "$make_pid" 2>/dev/null; then
    kill -TERM -- "-$make_pid" 2>/dev/null || true
    sleep 2
    kill -KILL -- "-$make_pid" 2>/dev/null || true
  fi
  "$svc" redis-stop "$tmp/var" >/dev/null 2>&1 || true
  "$svc" pg-stop "$tmp/var" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
  echo "run_supervise: FAILED: $*" >&2
  echo "--- make run output" >&2
  tail -n 40 "$tmp/run.out" >&2 || true
  echo "--- var/log/run.log" >&2
  tail -n 20 "$tmp/var/log/run.log" >&2 || true
  exit 1
}

json() { node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const j=JSON.parse(s);console.log($1)})"; }

# A job of about 12 s on one CPU thread, so the kill comes in its middle: the workers play
# it on the OpenCL device, every core, three or more times faster than that.
games=6000000
if [ -x "$bin/skirmish" ]; then
  t0=$(date +%s%N)
  "$bin/skirmish" run --device cpu --threads 1 --games 100000 "$root/examples/battle_reference_1.json" >/dev/null
  ms=$(( ($(date +%s%N) - t0) / 1000000 + 1 ))
  games=$(( 100000 * 12000 / ms ))
  [ "$games" -lt 50000 ] && games=50000
fi

# make run, in a session of its own (no terminal: SIGTERM is how it is stopped here).
env -u SKIRMISH_DATABASE_URL -u SKIRMISH_REDIS_URL -u SKIRMISH_QUEUE_PREFIX \
  -u SKIRMISH_CONFIG_FILE -u MAKEFLAGS -u MFLAGS \
  SK_RUN_BIN="$bin" SK_RUN_VAR="$tmp/var" SK_WORKERS=2 SK_PG_PORT="$pg" SK_REDIS_PORT="$redis" \
  SKIRMISH_HTTP_PORT="$http" SKIRMISH_LEASE_MS=2000 SKIRMISH_RECONCILE_MS=300 \
  SKIRMISH_CHUNK_UNITS=5000 SKIRMISH_DEVICE=cpu SKIRMISH_ENGINE_THREADS=1 \
  setsid make -s -C "$root" run >"$tmp/run.out" 2>&1 </dev/null &
make_pid=$!
for _ in $(seq 1 600); do
  grep -q 'Skirmish is running' "$tmp/run.out" 2>/dev/null && break
  kill -0 "$make_pid" 2>/dev/null || fail "make run ended before the stack was up"
  sleep 0.1
done
grep -q 'Skirmish is running' "$tmp/run.out" || fail "the stack did not come up in 60 s"
# make run turns keys on and prints a development admin key with the dashboard's URL
for _ in $(seq 1 50); do grep -q 'export SKIRMISH_KEY=' "$tmp/run.out" && break; sleep 0.1; done
key=$(sed -n 's/^ *export SKIRMISH_KEY=//p' "$tmp/run.out")
[ -n "$key" ] || fail "make run printed no key"
grep -qF "/#key=$key" "$tmp/run.out" || fail "make run printed no dashboard URL with the key"
auth="Authorization: Bearer $key"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$api/v1/jobs")" = 401 ] || fail "no key: not a 401"
run_pid=$(child_pids "$make_pid" run.sh)
[ -n "$run_pid" ] || fail "no run.sh under make"

# The API is probed every 50 ms from now until the worker is back and the job is done.
(
  while :; do
    if curl -fsS -m 2 -o /dev/null "$api/healthz"; then echo ok; else echo "failed at $(date +%T.%N)"; fi
    sleep 0.05
  done
) >"$tmp/probe.log" 2>&1 &
probe_pid=$!

doc=$(node -e "const d=require('$root/examples/battle_reference_1.json'); d.params.games=$games; console.log(JSON.stringify(d))")
id=$(curl -fsS -H "$auth" -X POST "$api/v1/jobs" -H 'Content-Type: application/json' -d "$doc" | json j.id)
worker=
for _ in $(seq 1 300); do
  job=$(curl -fsS -H "$auth" "$api/v1/jobs/$id")
  if [ "$(echo "$job" | json 'j.status+" "+(j.progress.done>0)')" = "running true" ]; then
    worker=$(echo "$job" | json 'j.workers[j.workers.length-1]')
    break
  fi
  sleep 0.05
done
[ -n "$worker" ] || fail "job $id did not start"
victim=${worker##*:} # the worker's consumer name is host:pid
kill -0 "$victim" 2>/dev/null || fail "worker $worker is not a process here"
kill -KILL "$victim"
echo "run_supervise: killed worker pid $victim (games $games, job $id)"

status=
for _ in $(seq 1 1200); do
  status=$(curl -fsS -H "$auth" "$api/v1/jobs/$id" | json j.status)
  case $status in succeeded | failed | canceled) break ;; esac
  sleep 0.1
done
[ "$status" = succeeded ] || fail "job $id ended $status"
job=$(curl -fsS -H "$auth" "$api/v1/jobs/$id")
[ "$(echo "$job" | json 'j.errors[0]')" = "the worker running it stopped (lease expired)" ] ||
  fail "the killed attempt's error: $job"
[ "$(echo "$job" | json "j.workers[0]")" = "$worker" ] || fail "first worker: $job"
for _ in $(seq 1 50); do
  grep -q 'event=process_restarted name=worker' "$tmp/var/log/run.log" 2>/dev/null && break
  sleep 0.1
done
grep -q "event=process_exited name=worker-[0-9]* pid=$victim signal=KILL" "$tmp/var/log/run.log" ||
  fail "the supervisor did not log the killed worker"
grep -q "was killed by SIGKILL" "$tmp/run.out" || fail "no report of the kill on the terminal"
new=$(grep 'event=process_restarted name=worker' "$tmp/var/log/run.log" | tail -n 1 | sed 's/.* pid=\([0-9]*\).*/\1/')
kill -0 "$new" 2>/dev/null || fail "the restarted worker ($new) is not running"
kill "$probe_pid"
wait "$probe_pid" 2>/dev/null || true
probe_pid=
probes=$(grep -c '^ok$' "$tmp/probe.log" || true)
failures=$(grep -c '^failed' "$tmp/probe.log" || true)
echo "run_supervise: job succeeded after the kill; API probed $probes times, $failures failures"
[ "$failures" -eq 0 ] || fail "the API stopped answering: $(grep '^failed' "$tmp/probe.log" | head -n 3)"
[ "$probes" -ge 20 ] || fail "too few probes ($probes)"

# A killed API is started again (a second later) and answers.
api_pid=$(child_pids "$run_pid" skirmish-api)
[ -n "$api_pid" ] || fail "no skirmish-api under run.sh"
kill -KILL "$api_pid"
up=0
for _ in $(seq 1 150); do
  if curl -fsS -m 1 -o /dev/null "$api/healthz" 2>/dev/null && [ "$(child_pids "$run_pid" skirmish-api)" != "$api_pid" ]; then
    up=1
    break
  fi
  sleep 0.1
done
[ "$up" -eq 1 ] || fail "the API was not started again"
grep -q "event=process_exited name=api pid=$api_pid signal=KILL" "$tmp/var/log/run.log" ||
  fail "the supervisor did not log the killed API"

# SIGTERM to the run script: everything stops, status 0, no "exited" report after it.
kill -TERM "$run_pid"
rc=0
wait "$make_pid" || rc=$?
[ "$rc" -eq 0 ] || fail "make run ended with status $rc"
sed -n '/run: stopping/,$p' "$tmp/run.out" | grep -q 'exited\|killed' && fail "an exit was reported during the stop"
grep -q 'run: stopped' "$tmp/run.out" || fail "no stop message"
left=$(session_left)
[ -z "$left" ] || fail "processes left: $left"
(exec 3<>"/dev/tcp/127.0.0.1/$pg") 2>/dev/null && fail "PostgreSQL still listens"
(exec 3<>"/dev/tcp/127.0.0.1/$redis") 2>/dev/null && fail "Redis still listens"
make_pid=
echo "run_supervise: ok"
