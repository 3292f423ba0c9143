#!/usr/bin/env bash
# API benchmark with wrk: job submissions per second (POST /v1/jobs) and status reads per
# second (GET /v1/jobs/{id} of a queued job, read from PostgreSQL, and of a final job,
# served from the API's cache), with latency percentiles.
#   bench/api.sh                       starts a throw-away PostgreSQL, Redis and skirmish-api
#                                      (no workers: this measures the API) and benchmarks it
#   SKIRMISH_URL=http://host:port SK_BENCH_LIVE=1 bench/api.sh
#                                      benchmarks a running stack instead: this floods its
#                                      queue with tiny battle jobs (thousands a second for
#                                      SK_BENCH_SECONDS) that its workers will start running;
#                                      afterwards every job the benchmark made that has not
#                                      finished yet is canceled (all stay listed). Without SK_BENCH_LIVE=1
#                                      it says so and stops.
#   SK_BENCH_SECONDS (10), SK_BENCH_CONNS (64), SK_BENCH_THREADS (2)
#   SKIRMISH_KEY=sk_...                a live stack with keys on (make run prints an admin
#                                      key): sent with every request; that stack's rate
#                                      limit (SKIRMISH_RATE_PER_S) must allow the flood.
#                                      The throw-away stack listens on loopback, keys off.
# Prints wrk's reports; record figures in bench/RESULTS.md with the machine they ran on.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
secs=${SK_BENCH_SECONDS:-10}
conns=${SK_BENCH_CONNS:-64}
threads=${SK_BENCH_THREADS:-2}
command -v wrk >/dev/null || { echo "bench: wrk is missing (apt-get install wrk)" >&2; exit 1; }

url=${SKIRMISH_URL:-}
auth=()
[ -n "${SKIRMISH_KEY:-}" ] && auth=(-H "Authorization: Bearer $SKIRMISH_KEY")
ids=$(mktemp -d /tmp/skirmish-bench-ids.XXXXXX)
if [ -n "$url" ]; then
  if [ "${SK_BENCH_LIVE:-}" != 1 ]; then
    cat >&2 <<MSG
bench: SKIRMISH_URL=$url is a live stack. This benchmark floods its queue with tiny battle
jobs for ${secs} s (thousands a second; its workers start running them) and afterwards
cancels those not finished yet (all stay listed). Run it again with SK_BENCH_LIVE=1
to go ahead, or without SKIRMISH_URL to benchmark a throw-away stack.
MSG
    rm -rf "$ids"
    exit 2
  fi
  echo "== live stack $url: its queue gets the benchmark's jobs; they are canceled at the end"
  # Every job made here is recorded (wrk_submit.lua writes the ids) and canceled on exit,
  # whatever stopped the benchmark.
  cancel_jobs() {
    local n
    n=$(cat "$ids"/* 2>/dev/null | wc -l)
    echo "== canceling the $n jobs this benchmark made on $url"
    cat "$ids"/* 2>/dev/null |
      xargs -r -P 4 -I{} curl -s -o /dev/null "${auth[@]}" -X POST "$url/v1/jobs/{}:cancel" || true
    rm -rf "$ids"
  }
  trap cancel_jobs EXIT
else
  cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build build -j "$(nproc)" --target skirmish-api >/dev/null
  tmp=$(mktemp -d /tmp/skirmish-bench.XXXXXX)
  chmod 755 "$tmp"
  pg_port=$(scripts/services.sh free-port)
  redis_port=$(scripts/services.sh free-port)
  http_port=$(scripts/services.sh free-port)
  api_pid=""
  cleanup() {
    [ -n "$api_pid" ] && kill "$api_pid" 2>/dev/null && wait "$api_pid" 2>/dev/null
    scripts/services.sh redis-stop "$tmp" || true
    scripts/services.sh pg-stop "$tmp" || true
    rm -rf "$tmp" "$ids"
  }
  trap cleanup EXIT
  # Durable commits as in production (every 202 is on disk), with the group commit
  # settings of scripts/run.sh. Every wrk connection comes from 127.0.0.1: the per-address
  # connection cap (docs/security.md) is raised above SK_BENCH_CONNS.
  SK_PG_OPTS="${SK_PG_OPTS:-} -c commit_delay=200 -c commit_siblings=2" \
    scripts/services.sh pg-start "$tmp" "$pg_port"
  scripts/services.sh redis-start "$tmp" "$redis_port"
  SKIRMISH_DATABASE_URL="postgresql://postgres@127.0.0.1:$pg_port/skirmish" \
  SKIRMISH_REDIS_URL="redis://127.0.0.1:$redis_port" SKIRMISH_HTTP_PORT=$http_port \
    SKIRMISH_MAX_CONNECTIONS_PER_ADDR=$((conns + 16)) \
    build/skirmish-api 2>"$tmp/api.log" &
  api_pid=$!
  url="http://127.0.0.1:$http_port"
  for _ in $(seq 1 100); do curl -fsS "$url/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
fi

echo "== machine: $(nproc) cores, $(uname -sr); wrk -t$threads -c$conns -d${secs}s"
echo "== submissions: POST $url/v1/jobs"
SK_BENCH_IDS="$ids/ids" \
  wrk -t"$threads" -c"$conns" -d"${secs}s" --latency -s bench/wrk_submit.lua "$url/v1/jobs"

submit() {
  curl -fsS "${auth[@]}" -X POST "$url/v1/jobs" -H 'Content-Type: application/json' \
    -d '{"kind":"battle","seed":1,"params":{"games":1,"attacker":{"commander":"Test Commander","deck":[]},"defender":{"commander":"Test Commander","deck":[]}}}' |
    sed -n 's/.*"id" *: *"\([0-9a-f-]*\)".*/\1/p' | tee -a "$ids/ids.sh"
}
id=$(submit)
echo "== status reads of a queued job (PostgreSQL): GET $url/v1/jobs/$id"
wrk -t"$threads" -c"$conns" -d"${secs}s" --latency -s bench/wrk_status.lua "$url/v1/jobs/$id"

# A final job never changes, so the API serves it from memory (SKIRMISH_CACHE_ENTRIES).
id=$(submit)
curl -fsS "${auth[@]}" -X POST "$url/v1/jobs/$id:cancel" >/dev/null
echo "== status reads of a final job (cache): GET $url/v1/jobs/$id"
wrk -t"$threads" -c"$conns" -d"${secs}s" --latency -s bench/wrk_status.lua "$url/v1/jobs/$id"
