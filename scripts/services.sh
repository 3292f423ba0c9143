#!/usr/bin/env bash
# Starts and stops the local PostgreSQL and Redis that Skirmish uses, under a data folder.
#   services.sh pg-start DIR PORT      initialise (once) and start PostgreSQL in DIR/pg
#   services.sh pg-stop DIR            stop it (fast shutdown)
#   services.sh redis-start DIR PORT   start Redis with its files in DIR/redis
#   services.sh redis-stop DIR         stop it
#   services.sh free-port              print a free TCP port on 127.0.0.1
# PostgreSQL refuses to run as root, so as root it runs as Debian's `postgres` user.
# SK_PG_TEMPLATE=DIR keeps a fresh cluster in DIR to copy instead of running initdb again.
# Both listen on 127.0.0.1 only. Databases: `skirmish`, superuser `postgres`, trust auth
# on loopback (a local development and test set-up, never exposed).
set -euo pipefail

PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)

as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# Gives the postgres user traverse (x) rights on every ancestor of $1 it cannot enter,
# e.g. a checkout under /root. Only execute permission is added, never read.
grant_traverse() {
  [ "$(id -u)" -eq 0 ] || return 0
  local d
  d=$(realpath "$1")
  while [ "$d" != "/" ]; do
    if ! runuser -u postgres -- test -x "$d" 2>/dev/null; then
      echo "services: granting o+x on $d so PostgreSQL (user postgres) can reach its data"
      chmod o+x "$d"
    fi
    d=$(dirname "$d")
  done
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

cmd=${1:-}
case "$cmd" in
free-port)
  # Below the kernel's ephemeral ports (32768-60999 on Linux): a port drawn from them could
  # be some process's outgoing connection by the time the server binds it (seen: Redis
  # refused to start, "Address already in use", while another test run connected away).
  for _ in $(seq 1 200); do
    p=$(( 20000 + RANDOM % 12768 ))
    if port_free "$p"; then echo "$p"; exit 0; fi
  done
  echo "services: no free port found" >&2; exit 1 ;;
pg-start)
  dir=$2; port=$3
  mkdir -p "$dir/pg"
  if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir/pg"; fi
  chmod 700 "$dir/pg"
  grant_traverse "$dir/pg"
  if [ ! -f "$dir/pg/data/PG_VERSION" ]; then
    # SK_PG_TEMPLATE=DIR: a copy of a fresh cluster is kept in DIR and copied instead of
    # running initdb again (4.5 s of each `make test` on the test VM, the copy 0.2 s); the
    # copy is made again when the server's version or these initdb options change.
    opts=(-U postgres --auth=trust -E UTF8 --locale=C.UTF-8)
    tpl=${SK_PG_TEMPLATE:-}
    key="$("$PGBIN/postgres" -V) ${opts[*]}"
    if [ -n "$tpl" ] && [ -f "$tpl/data/PG_VERSION" ] && [ "$(cat "$tpl/key" 2>/dev/null)" = "$key" ]; then
      cp -a "$tpl/data" "$dir/pg/data"
    else
      as_pg "$PGBIN/initdb" -D "$dir/pg/data" "${opts[@]}" \
        >"$dir/pg/initdb.log" 2>&1 || { cat "$dir/pg/initdb.log" >&2; exit 1; }
      if [ -n "$tpl" ]; then
        rm -rf "$tpl.new"
        mkdir -p "$tpl.new"
        cp -a "$dir/pg/data" "$tpl.new/data"
        echo "$key" >"$tpl.new/key"
        rm -rf "$tpl"
        mv "$tpl.new" "$tpl"
      fi
    fi
  fi
  if as_pg "$PGBIN/pg_ctl" -D "$dir/pg/data" status >/dev/null 2>&1; then
    echo "services: PostgreSQL already running in $dir/pg"; exit 0
  fi
  as_pg "$PGBIN/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir/pg -c max_connections=200 ${SK_PG_OPTS:-}" \
    start >/dev/null || { tail -n 20 "$dir/pg/server.log" >&2; exit 1; }
  if ! as_pg "$PGBIN/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -Atqc \
      "SELECT 1 FROM pg_database WHERE datname='skirmish'" | grep -q 1; then
    as_pg "$PGBIN/createdb" -h 127.0.0.1 -p "$port" -U postgres skirmish
  fi ;;
pg-stop)
  dir=$2
  if [ -f "$dir/pg/data/postmaster.pid" ]; then
    as_pg "$PGBIN/pg_ctl" -D "$dir/pg/data" -m fast -w stop >/dev/null 2>&1 || true
  fi ;;
redis-start)
  dir=$2; port=$3
  mkdir -p "$dir/redis"
  if [ -f "$dir/redis/redis.pid" ] && kill -0 "$(cat "$dir/redis/redis.pid")" 2>/dev/null; then
    echo "services: Redis already running in $dir/redis"; exit 0
  fi
  redis-server --bind 127.0.0.1 --port "$port" --dir "$dir/redis" --daemonize yes \
    --pidfile "$dir/redis/redis.pid" --logfile "$dir/redis/server.log" \
    --appendonly "${SK_REDIS_AOF:-yes}" --save "" --protected-mode yes
  for _ in $(seq 1 100); do
    redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG && exit 0
    sleep 0.1
  done
  echo "services: Redis did not start" >&2; tail -n 20 "$dir/redis/server.log" >&2; exit 1 ;;
redis-stop)
  dir=$2
  if [ -f "$dir/redis/redis.pid" ]; then
    pid=$(cat "$dir/redis/redis.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    rm -f "$dir/redis/redis.pid"
  fi ;;
*)
  sed -n '2,10p' "$0" >&2; exit 2 ;;
esac
