#!/usr/bin/env bash
# netns: workers on other hosts. Three network namespaces joined by veth pairs stand for
# three hosts: PostgreSQL, Redis and two skirmish-api processes on the first (the stores
# listen on its veth addresses), one skirmish-worker on each of the other two, reaching the
# stores over the links. Then:
#   partition  the link of the worker running a job is cut mid-job: the other worker takes
#              the job over after the lease, resumes it from its last chunk and stores its
#              result; when the link is back, the cut-off worker's late progress write is
#              refused (event=lease_lost), and the job has one result, the in-process one;
#   SIGSTOP    the worker running the next job is frozen past its lease: the job is taken
#              over, and the frozen worker's writes after SIGCONT are refused likewise;
#   two APIs   jobs are submitted through one API and read, waited on and canceled through
#              the other, behind the same stores.
# Needs root (ip netns, veth); exits 77 (skipped) without it.
#   test_netns.sh BIN_DIR     (BIN_DIR holds skirmish-api, skirmish-worker, skirmish)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$1
svc=$root/scripts/services.sh

if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null; then
  echo "netns: skipped: needs root and ip (iproute2) for network namespaces"
  exit 77
fi
tag=sk$$
srv=$tag-srv
w1=$tag-w1
w2=$tag-w2
if ! ip netns add "$srv" 2>/dev/null; then
  echo "netns: skipped: this host does not allow network namespaces"
  exit 77
fi
tmp=$(mktemp -d /tmp/skirmish-netns.XXXXXX)
chmod 755 "$tmp"
pids=()

cleanup() {
  local p
  for p in "${pids[@]}"; do kill -CONT "$p" 2>/dev/null || true; kill -KILL "$p" 2>/dev/null || true; done
  ip netns exec "$srv" "$svc" pg-stop "$tmp" >/dev/null 2>&1 || true
  [ -f "$tmp/redis.pid" ] && kill "$(cat "$tmp/redis.pid")" 2>/dev/null || true
  for n in "$srv" "$w1" "$w2"; do ip netns del "$n" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
  echo "netns: FAILED: $*" >&2
  for f in "$tmp"/*.log; do
    echo "--- $(basename "$f")" >&2
    grep -v 'event=request\|event=job_progress\|level=debug' "$f" | tail -n 15 >&2 || true
  done
  exit 1
}

# The hosts: srv holds 10.251.1.1 (link to w1) and 10.251.2.1 (link to w2).
ip netns add "$w1"
ip netns add "$w2"
for i in 1 2; do
  w=$tag-w$i
  ip link add "${tag}s$i" type veth peer name "${tag}w$i"
  ip link set "${tag}s$i" netns "$srv"
  ip link set "${tag}w$i" netns "$w"
  ip -n "$srv" addr add "10.251.$i.1/24" dev "${tag}s$i"
  ip -n "$srv" link set "${tag}s$i" up
  ip -n "$w" addr add "10.251.$i.2/24" dev "${tag}w$i"
  ip -n "$w" link set "${tag}w$i" up
  ip -n "$w" link set lo up
done
ip -n "$srv" link set lo up

# The stores on srv, reachable on its veth addresses (ports are the namespace's own).
SK_PG_OPTS="-c listen_addresses=0.0.0.0 -c fsync=off -c synchronous_commit=off" \
  ip netns exec "$srv" "$svc" pg-start "$tmp" 5432 >/dev/null
echo "host all all 10.251.0.0/16 trust" >>"$tmp/pg/data/pg_hba.conf"
ip netns exec "$srv" psql -qAt -h 127.0.0.1 -p 5432 -U postgres -d skirmish \
  -c "SELECT pg_reload_conf()" >/dev/null
mkdir -p "$tmp/redis"
ip netns exec "$srv" redis-server --bind 0.0.0.0 --port 6379 --dir "$tmp/redis" --daemonize yes \
  --pidfile "$tmp/redis.pid" --logfile "$tmp/redis.log" --save "" --appendonly no \
  --protected-mode no
for _ in $(seq 1 50); do [ -f "$tmp/redis.pid" ] && break; sleep 0.1; done

sql() { ip netns exec "$srv" psql -qAt -h 127.0.0.1 -p 5432 -U postgres -d skirmish -c "$1"; }

common=(SKIRMISH_LEASE_MS=3000 SKIRMISH_RECONCILE_MS=300 SKIRMISH_RECONCILE_AGE_MS=500
  SKIRMISH_BLOCK_MS=200 SKIRMISH_DEVICE=cpu SKIRMISH_ENGINE_THREADS=1 SKIRMISH_SHARD_UNITS=0
  SKIRMISH_CHUNK_MS=100 SKIRMISH_LOG_LEVEL=info)
for a in 1 2; do
  ip netns exec "$srv" env "${common[@]}" \
    SKIRMISH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/skirmish \
    SKIRMISH_REDIS_URL=redis://127.0.0.1:6379 SKIRMISH_HTTP_PORT=808$a \
    "$bin/skirmish-api" 2>"$tmp/api$a.log" &
  pids+=($!)
done
api() { # api N METHOD PATH [BODY]: curl on API N (run on srv)
  local n=$1 m=$2 p=$3
  shift 3
  ip netns exec "$srv" curl -fsS -m 70 -X "$m" -H 'Content-Type: application/json' \
    "http://127.0.0.1:808$n$p" "$@"
}
for a in 1 2; do
  for _ in $(seq 1 100); do api "$a" GET /readyz >/dev/null 2>&1 && break; sleep 0.1; done
  api "$a" GET /readyz >/dev/null || fail "API $a is not ready"
done
declare -A wpid
for i in 1 2; do
  ip netns exec "$tag-w$i" env "${common[@]}" SKIRMISH_WORKER_NAME="w$i" \
    SKIRMISH_DATABASE_URL="postgresql://postgres@10.251.$i.1:5432/skirmish" \
    SKIRMISH_REDIS_URL="redis://10.251.$i.1:6379" \
    "$bin/skirmish-worker" 2>"$tmp/w$i.log" &
  wpid[w$i]=$!
  pids+=($!)
done

# Jobs of about 6 s on one thread, so that the cut and the freeze come in their middle.
t0=$(date +%s%N)
"$bin/skirmish" run --device cpu --threads 1 --games 200000 "$root/examples/battle_reference_1.json" >/dev/null
ms=$((($(date +%s%N) - t0) / 1000000 + 1))
games=$((200000 * 6000 / ms))
doc() { jq -c --argjson g "$games" --argjson s "$1" '.params.games = $g | .seed = $s' \
  "$root/examples/battle_reference_1.json"; }

# wait_holder ID: the worker ("w1", "w2") running job ID once it has done a chunk
wait_holder() {
  local job
  for _ in $(seq 1 600); do
    job=$(api 2 GET "/v1/jobs/$1")
    if [ "$(jq -r '.status + " " + (.progress.done > 0 | tostring)' <<<"$job")" = "running true" ]; then
      jq -r '.workers[-1]' <<<"$job"
      return
    fi
    sleep 0.05
  done
  fail "job $1 did not start"
}
# check_one ID SEED: succeeded once, taken over (2 attempts), the in-process counts
check_one() {
  local id=$1 job want got
  # long polls on both APIs in turn (a change seen through either wakes them)
  for k in $(seq 1 400); do
    job=$(api $((k % 2 + 1)) GET "/v1/jobs/$id?wait=5")
    case $(jq -r .status <<<"$job") in succeeded | failed | canceled) break ;; esac
  done
  [ "$(jq -r .status <<<"$job")" = succeeded ] || fail "job $id: $(jq -c . <<<"$job")"
  [ "$(jq -r .attempts <<<"$job")" = 2 ] || fail "job $id was not taken over: $job"
  [ "$(sql "SELECT count(*) FROM jobs WHERE id = '$id' AND result IS NOT NULL")" = 1 ] ||
    fail "job $id has no single result"
  doc "$2" >"$tmp/doc.json"
  want=$("$bin/skirmish" run --device cpu "$tmp/doc.json" | jq -c '[.games, .wins, .stalls, .losses, .turns]')
  got=$(api 1 GET "/v1/jobs/$id/result" | jq -c '[.games, .wins, .stalls, .losses, .turns]')
  [ "$want" = "$got" ] || fail "job $id: counts $got, in-process $want"
}
# refused WORKER ID: the worker's late write for job ID was refused (lease lost)
refused() {
  for _ in $(seq 1 600); do
    grep -q "event=lease_lost job_id=$2" "$tmp/$1.log" && return
    sleep 0.1
  done
  fail "$1 never saw its lease on $2 lost"
}

# 1. Partition: cut the holder's link mid-job.
id1=$(api 1 POST /v1/jobs -d "$(doc 11)" | jq -r .id)
h=$(wait_holder "$id1")
n=${h#w}
ip -n "$srv" link set "${tag}s$n" down
echo "netns: cut $h off mid-job $id1 ($games games)"
check_one "$id1" 11
[ "$(sql "SELECT attempt_workers[1] || ' ' || attempt_workers[2] FROM jobs WHERE id = '$id1'")" != "$h $h" ] ||
  fail "job $id1 was not taken over by the other worker"
[ "$(sql "SELECT resumed_from > 0 FROM jobs WHERE id = '$id1'")" = t ] ||
  fail "job $id1 was not resumed from the cut-off worker's last chunk"
ip -n "$srv" link set "${tag}s$n" up
refused "$h" "$id1"
kill -0 "${wpid[$h]}" || fail "$h died"
echo "netns: partition: taken over, resumed, $h's late write refused"

# 2. SIGSTOP past the lease.
id2=$(api 2 POST /v1/jobs -d "$(doc 12)" | jq -r .id)
h=$(wait_holder "$id2")
kill -STOP "${wpid[$h]}"
echo "netns: froze $h mid-job $id2"
check_one "$id2" 12
kill -CONT "${wpid[$h]}"
refused "$h" "$id2"
echo "netns: SIGSTOP: taken over, $h's writes after SIGCONT refused"

# 3. Two APIs: submitted through one, canceled through the other, seen by both.
id3=$(api 1 POST /v1/jobs -d "$(doc 13)" | jq -r .id)
wait_holder "$id3" >/dev/null
[ "$(api 2 POST "/v1/jobs/$id3:cancel" | jq -r .cancel_requested)" = true ] || fail "cancel via API 2"
for _ in $(seq 1 100); do
  [ "$(api 1 GET "/v1/jobs/$id3?wait=5" | jq -r .status)" = canceled ] && break
done
[ "$(api 1 GET "/v1/jobs/$id3" | jq -r .status)" = canceled ] || fail "job $id3 not canceled"
[ "$(api 2 GET /v1/jobs | jq '.items | length')" = 3 ] || fail "API 2 does not list the 3 jobs"
echo "netns: passed"
