#!/usr/bin/env bash
# `--help` of skirmish-api and skirmish-worker prints the usage and exits 0 without reading
# the configuration or reaching a server; an unknown argument is a usage error (exit 2); and
# every SKIRMISH_* variable the programs' sources name is in the configuration table
# (`skirmish-api config`, of which the README's table is a checked copy).
# Usage: test_help.sh SKIRMISH_API SKIRMISH_WORKER SOURCE_DIR
set -u
api=$1
worker=$2
src=$3
failures=0
# Nothing listens here: a program that tried to start would fail or hang, not print help.
export SKIRMISH_DATABASE_URL=postgresql://nobody@127.0.0.1:1/none
export SKIRMISH_REDIS_URL=redis://127.0.0.1:1

# check NAME WANT_STATUS WANT_STREAM TEXT -- COMMAND...
check() {
  local name=$1 want=$2 stream=$3 text=$4 out err got
  shift 5
  out=$(timeout 10 "$@" 2>/dev/null)
  got=$?
  err=$(timeout 10 "$@" 2>&1 >/dev/null)
  if [ "$got" -ne "$want" ]; then
    echo "FAIL: $name: exit $got, want $want" >&2
    failures=$((failures + 1))
  fi
  local seen=$out
  [ "$stream" = stderr ] && seen=$err
  if ! grep -qF -- "$text" <<<"$seen"; then
    echo "FAIL: $name: $stream lacks '$text'" >&2
    failures=$((failures + 1))
  fi
}

check api-help 0 stdout "usage: skirmish-api [migrate|config|routes|keys ...|--version|--help]" -- "$api" --help
check api-h 0 stdout "  routes    print the route table" -- "$api" -h
check api-unknown 2 stderr "usage: skirmish-api" -- "$api" --frobnicate
check api-extra 2 stderr "usage: skirmish-api" -- "$api" config extra
check worker-help 0 stdout "usage: skirmish-worker [--version|--help]" -- "$worker" --help
check worker-unknown 2 stderr "usage: skirmish-worker" -- "$worker" run

# One version number: the programs', the OpenAPI document's and the TypeScript client's.
version=$(sed -n 's/^project(skirmish VERSION \([0-9.]*\) .*/\1/p' "$src/CMakeLists.txt")
check api-version 0 stdout "skirmish-api $version" -- "$api" --version
check worker-version 0 stdout "skirmish-worker $version" -- "$worker" --version
for f in openapi/openapi.json clients/typescript/package.json; do
  if [ "$(grep -m1 -o '"version": "[^"]*"' "$src/$f")" != "\"version\": \"$version\"" ]; then
    echo "FAIL: $f: its first \"version\" is not the project's $version" >&2
    failures=$((failures + 1))
  fi
done

table=$("$api" config)
for name in $(grep -rhoE '"SKIRMISH_[A-Z0-9_]+"' "$src"/common "$src"/engine "$src"/store \
                "$src"/api "$src"/worker | tr -d '"' | sort -u); do
  if ! grep -qF -- "| \`$name\` |" <<<"$table"; then
    echo "FAIL: $name is read by the programs but not in the configuration table" >&2
    failures=$((failures + 1))
  fi
done

if [ $failures -ne 0 ]; then
  echo "test_help: $failures failure(s)" >&2
  exit 1
fi
echo "test_help: all passed"
