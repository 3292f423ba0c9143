# shellcheck shell=bash
# SPDX-License-Identifier: MIT
# Sourced by the service benchmarks (bench/shards.sh, bench/opt_spread.sh): builds
# skirmish-api and skirmish-worker (Release), starts a throw-away PostgreSQL, Redis and API on
# free loopback ports (stopped and removed on exit; SK_BENCH_KEEP=1 keeps the folder), and
# times one job on fresh workers with bench_run. The caller exports the API's and workers'
# settings (SKIRMISH_ENGINE_THREADS, ...) before stack_start.
set -euo pipefail
command -v jq >/dev/null || { echo "bench: jq is missing" >&2; exit 1; }

# stack_start NAME: the servers and the API; sets $tmp and $url.
stack_start() {
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j "$(nproc)" --target skirmish-api skirmish-worker >/dev/null
  tmp=$(mktemp -d "/tmp/skirmish-bench-$1.XXXXXX")
  chmod 755 "$tmp"
  local pg_port redis_port http_port
  pg_port=$(scripts/services.sh free-port)
  redis_port=$(scripts/services.sh free-port)
  http_port=$(scripts/services.sh free-port)
  pids=()
  trap stack_stop EXIT
  scripts/services.sh pg-start "$tmp" "$pg_port" >/dev/null
  scripts/services.sh redis-start "$tmp" "$redis_port" >/dev/null
  export SKIRMISH_DATABASE_URL="postgresql://postgres@127.0.0.1:$pg_port/skirmish"
  export SKIRMISH_REDIS_URL="redis://127.0.0.1:$redis_port"
  export SKIRMISH_HTTP_PORT=$http_port
  build/skirmish-api 2>"$tmp/api.log" &
  pids+=($!)
  url="http://127.0.0.1:$http_port"
  for _ in $(seq 1 100); do curl -fsS "$url/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
}

stack_stop() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  scripts/services.sh redis-stop "$tmp" >/dev/null 2>&1 || true
  scripts/services.sh pg-stop "$tmp" >/dev/null 2>&1 || true
  [ -n "${SK_BENCH_KEEP:-}" ] || rm -rf "$tmp"
}

# bench_run WORKERS SETTLE DOC DIGEST [NAME=VALUE...]: starts WORKERS fresh workers with the
# settings given, waits SETTLE seconds (every worker reads the stream), posts job DOC and
# prints "seconds digest": the time from the POST to its end, and the first 16 hex digits
# of the sha256 of its result through jq filter DIGEST. Stops the script if the job fails.
bench_run() {
  local n=$1 settle=$2 doc=$3 digest=$4 wpids=() id t0 t1 job status
  shift 4
  for i in $(seq 1 "$n"); do
    env "$@" SKIRMISH_WORKER_NAME="bench$i" build/skirmish-worker 2>>"$tmp/worker$i.log" &
    wpids+=($!)
    pids+=($!)
  done
  sleep "$settle"
  t0=$(date +%s.%N)
  id=$(curl -fsS -H 'Content-Type: application/json' -d "$doc" "$url/v1/jobs" | jq -r .id)
  while :; do
    job=$(curl -fsS "$url/v1/jobs/$id?wait=5")
    status=$(jq -r .status <<<"$job")
    case $status in succeeded | failed | canceled) break ;; esac
  done
  t1=$(date +%s.%N)
  kill "${wpids[@]}" 2>/dev/null || true
  wait "${wpids[@]}" 2>/dev/null || true
  [ "$status" = succeeded ] || { echo "bench: job $id $status" >&2; exit 1; }
  echo "$(echo "$t1 - $t0" | bc -l) $(curl -fsS "$url/v1/jobs/$id/result" | jq -c "$digest" |
    sha256sum | cut -c1-16)"
}

# machine_line: the machine, its load and the time, for the table's heading.
machine_line() {
  echo "machine: $(uname -srm), $(nproc) online cores, $(grep -m1 'model name' /proc/cpuinfo |
    cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"
}
