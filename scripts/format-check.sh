#!/usr/bin/env bash
# Fails when a tracked C source or header differs from what clang-format (the repo's
# .clang-format) would make of it. `make format` rewrites them in place.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.c' '*.h' 2>/dev/null || find . -name '*.[ch]' -not -path './build*')
if ! out=$(clang-format --dry-run --Werror "${files[@]}" 2>&1); then
  printf '%s\n' "$out" | grep -E '^[^ ].*error:' | cut -d: -f1 | sort -u | sed 's/^/format-check: not formatted: /' >&2
  echo "format-check: run 'make format'" >&2
  exit 1
fi
echo "format-check: ${#files[@]} files formatted"
