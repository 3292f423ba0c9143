#!/usr/bin/env bash
# Fails when a tracked C source or header differs from what clang-format (the repo's
# .clang-format) would make of it. `make format` rewrites them in place.
#   scripts/format-check.sh              every file
#   scripts/format-check.sh CACHE        only the files whose content is not among those that
#                                        passed before (CACHE lists them, keyed by the
#                                        .clang-format and the clang-format version); make
#                                        test's loop, where one changed file is the rule
set -euo pipefail
cd "$(dirname "$0")/.."
cache=${1:-}
mapfile -t files < <(git ls-files '*.c' '*.h' 2>/dev/null || find . -name '*.[ch]' -not -path './build*')
todo=("${files[@]}")
if [ -n "$cache" ]; then
  key="key $(clang-format --version | sha256sum | cut -c1-16) $(sha256sum .clang-format | cut -c1-16)"
  mapfile -t sums < <(printf '%s\n' "${files[@]}" | xargs -d '\n' -r sha256sum)
  todo=()
  if [ "$(head -n 1 "$cache" 2>/dev/null)" = "$key" ]; then
    declare -A passed=()
    while read -r line; do passed[$line]=1; done < <(tail -n +2 "$cache")
    for l in "${sums[@]}"; do
      [ -n "${passed[$l]:-}" ] || todo+=("${l#*  }")
    done
  else
    todo=("${files[@]}")
  fi
fi
if [ ${#todo[@]} -gt 0 ] && ! out=$(clang-format --dry-run --Werror "${todo[@]}" 2>&1); then
  printf '%s\n' "$out" | grep -E '^[^ ].*error:' | cut -d: -f1 | sort -u | sed 's/^/format-check: not formatted: /' >&2
  echo "format-check: run 'make format'" >&2
  exit 1
fi
if [ -n "$cache" ]; then
  mkdir -p "$(dirname "$cache")"
  { echo "$key"; printf '%s\n' "${sums[@]}"; } >"$cache.tmp"
  mv "$cache.tmp" "$cache"
fi
if [ -n "$cache" ]; then
  echo "format-check: ${#files[@]} files formatted (${#todo[@]} checked: the others passed before as they are)"
else
  echo "format-check: ${#files[@]} files formatted"
fi
