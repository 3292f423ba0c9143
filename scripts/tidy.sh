#!/usr/bin/env bash
# clang-tidy (the checks in .clang-tidy) against the compile commands of build dir $1
# (default build). Exits non-zero on any warning: the gate is zero warnings, with NOLINT
# comments saying why where a finding is wrong.
#   scripts/tidy.sh [BUILD]             every C file of the project (make test-all, CI)
#   scripts/tidy.sh BUILD --changed     only the C files changed since the last commit this
#                                       build's tidy passed on (BUILD/tidy-clean; else the
#                                       merge base with the branch's upstream, else with
#                                       origin/main or main, else HEAD),
#                                       committed or not, untracked ones too, and the C files
#                                       that include a changed header (make test)
set -euo pipefail
cd "$(dirname "$0")/.."
bdir=${1:-build}
scope=${2:-all}
dirs='^(common|engine|store|api|worker|cli|tools)/'
# The commit of the last run without findings: what was committed since is checked too.
mark=$bdir/tidy-clean
if [ "$scope" = --changed ]; then
  if [ -f "$mark" ] && git merge-base --is-ancestor "$(cat "$mark")" HEAD 2>/dev/null; then
    base=$(cat "$mark")
  else
    # A branch without upstream (a worktree's, say) is checked from where it left main.
    base=$(git merge-base HEAD '@{upstream}' 2>/dev/null || git merge-base HEAD origin/main 2>/dev/null ||
      git merge-base HEAD main 2>/dev/null || git rev-parse HEAD)
  fi
  mapfile -t changed < <({
    git diff --name-only "$base" -- '*.c' '*.h'
    git ls-files --others --exclude-standard -- '*.c' '*.h'
  } | grep -E "$dirs" | sort -u)
  files=()
  headers=()
  for f in "${changed[@]}"; do
    [ -f "$f" ] || continue # deleted
    case $f in
    *.c) files+=("$f") ;;
    *.h) headers+=("$(basename "$f")") ;;
    esac
  done
  # A header is checked through the files that include it (HeaderFilterRegex).
  for h in "${headers[@]}"; do
    mapfile -t -O "${#files[@]}" files < <(git ls-files '*.c' | grep -E "$dirs" |
      xargs grep -l "#include \"$h\"" || true)
  done
  mapfile -t files < <(printf '%s\n' "${files[@]}" | sed '/^$/d' | sort -u)
  if [ ${#files[@]} -eq 0 ]; then
    echo "tidy: no C file changed since ${base:0:12} (make test-all checks every file)"
    git rev-parse HEAD >"$mark"
    exit 0
  fi
elif [ "$scope" = all ]; then
  mapfile -t files < <(git ls-files '*.c' | grep -E "$dirs")
else
  echo "usage: scripts/tidy.sh [BUILD [--changed]]" >&2
  exit 2
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# one clang-tidy per core, a few files each; "N warnings generated" counts suppressed ones
printf '%s\n' "${files[@]}" |
  xargs -P "$(nproc)" -n 4 clang-tidy -p "$bdir" --quiet >"$out" 2>&1 || true
n=$(grep -c ': warning: \|: error: ' "$out" || true)
if [ "$n" -ne 0 ]; then
  grep -A3 ': warning: \|: error: ' "$out"
  echo "tidy: $n findings in ${#files[@]} files"
  exit 1
fi
git rev-parse HEAD >"$mark"
echo "tidy: ${#files[@]} files, no findings"
