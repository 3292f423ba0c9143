#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/include_cycles.py, the build's include check, on small trees made here: it passes
# a tree that reads bottom up, and fails (naming the circle) on a module cycle, a cycle
# through a private x_int.h, and a cycle between folders; and it passes the repository.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
check="python3 $root/scripts/include_cycles.py"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fails=0
expect() { # expect pass|fail TREE [WORDS]: runs the check on TREE
  local want=$1 tree=$2 words=${3:-} out rc=0
  out=$($check "$tree" 2>&1) || rc=$?
  if { [ "$want" = pass ] && [ $rc -ne 0 ]; } || { [ "$want" = fail ] && [ $rc -eq 0 ]; } ||
     { [ -n "$words" ] && [[ $out != *"$words"* ]]; }; then
    echo "FAIL: $tree: wanted $want${words:+ with '$words'}, got rc $rc: $out"
    fails=$((fails + 1))
  else
    echo "ok: $(basename "$tree") $want"
  fi
}
mk() { mkdir -p "$(dirname "$1")"; printf '%s\n' "${@:2}" >"$1"; }

# Bottom up: c -> b -> a, in two folders.
mk "$t/ok/common/a.h" '#pragma once'
mk "$t/ok/common/a.c" '#include "a.h"'
mk "$t/ok/engine/b.h" '#include "a.h"'
mk "$t/ok/engine/b.c" '#include "b.h"'
mk "$t/ok/worker/c.c" '#include "b.h"' '#include "a.h"'
expect pass "$t/ok"

# b.c includes c.h, c.c includes b.h: a module cycle.
cp -r "$t/ok" "$t/mod"
mk "$t/mod/engine/c.h" '#pragma once'
mk "$t/mod/engine/c.c" '#include "c.h"' '#include "b.h"'
mk "$t/mod/engine/b.c" '#include "b.h"' '#include "c.h"'
expect fail "$t/mod" "modules b, c"

# Through a private header: b_int.h is module b's, and a.c includes it.
cp -r "$t/ok" "$t/int"
mk "$t/int/engine/b_int.h" '#include "b.h"'
mk "$t/int/common/a.c" '#include "a.h"' '#include "b_int.h"'
expect fail "$t/int" "modules a, b"

# No module cycle, but folders: common/d.c includes engine's e.h, engine/b.h includes a.h.
cp -r "$t/ok" "$t/dir"
mk "$t/dir/engine/e.h" '#pragma once'
mk "$t/dir/common/d.c" '#include "e.h"'
expect fail "$t/dir" "common/d.c includes e.h"

expect pass "$root"
[ $fails -eq 0 ] || exit 1
echo "include check: all cases passed"
