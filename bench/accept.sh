#!/usr/bin/env bash
# Accept-path benchmark with wrk: GET /healthz (no store touched, so this measures the HTTP
# front: accepting, the request gate, libmicrohttpd, the router) with keep-alive
# connections and with a new connection per request (`Connection: close`).
#   bench/accept.sh [skirmish-api binary, default build/skirmish-api]
#   SK_BENCH_SECONDS (10), SK_BENCH_CONNS (64), SK_BENCH_THREADS (2), SK_BENCH_RUNS (1)
# Starts a throw-away PostgreSQL and Redis (the API needs them to start) and one API with
# its access log off; prints wrk's reports. Record figures in bench/RESULTS.md with the
# machine they ran on.
set -euo pipefail
cd "$(dirname "$0")/.."
api=${1:-build/skirmish-api}
secs=${SK_BENCH_SECONDS:-10}
conns=${SK_BENCH_CONNS:-64}
threads=${SK_BENCH_THREADS:-2}
runs=${SK_BENCH_RUNS:-1}
command -v wrk >/dev/null || { echo "bench: wrk is missing (apt-get install wrk)" >&2; exit 1; }
[ -x "$api" ] || { echo "bench: $api is not built" >&2; exit 1; }

tmp=$(mktemp -d /tmp/skirmish-accept.XXXXXX)
chmod 755 "$tmp"
pg_port=$(scripts/services.sh free-port)
redis_port=$(scripts/services.sh free-port)
http_port=$(scripts/services.sh free-port)
api_pid=""
cleanup() {
  [ -n "$api_pid" ] && kill "$api_pid" 2>/dev/null && wait "$api_pid" 2>/dev/null
  scripts/services.sh redis-stop "$tmp" || true
  scripts/services.sh pg-stop "$tmp" || true
  rm -rf "$tmp"
}
trap cleanup EXIT
scripts/services.sh pg-start "$tmp" "$pg_port" >/dev/null
scripts/services.sh redis-start "$tmp" "$redis_port" >/dev/null
# Every wrk connection comes from 127.0.0.1: the per-address cap is raised above them (a
# closed connection is counted out when the API closes its side, so the non-keep-alive
# run holds more than SK_BENCH_CONNS for a moment).
SKIRMISH_DATABASE_URL="postgresql://postgres@127.0.0.1:$pg_port/skirmish" \
  SKIRMISH_REDIS_URL="redis://127.0.0.1:$redis_port" SKIRMISH_HTTP_PORT=$http_port \
  SKIRMISH_MAX_CONNECTIONS_PER_ADDR=$((conns * 16)) SKIRMISH_ACCESS_LOG=0 \
  "$api" 2>"$tmp/api.log" &
api_pid=$!
url="http://127.0.0.1:$http_port"
for _ in $(seq 1 100); do curl -fsS "$url/readyz" >/dev/null 2>&1 && break; sleep 0.1; done

echo "== machine: $(nproc) cores, $(uname -sr), load $(cut -d' ' -f1-3 /proc/loadavg); $api"
for r in $(seq 1 "$runs"); do
  echo "== run $r: keep-alive, wrk -t$threads -c$conns -d${secs}s GET /healthz"
  wrk -t"$threads" -c"$conns" -d"${secs}s" --latency "$url/healthz"
  echo "== run $r: a connection per request (Connection: close)"
  wrk -t"$threads" -c"$conns" -d"${secs}s" --latency -H "Connection: close" "$url/healthz"
done
echo "== load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
