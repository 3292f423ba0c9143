#!/usr/bin/env bash
# Installs the Debian packages Skirmish needs to build, test and run, skipping what is
# already there. Needs root (or sudo) only when something is missing.
set -euo pipefail

# python3: bench/gpu_jobs.py, the writer of the real-card matchups' job documents for
# bench/gpu.sh and the peer scripts (bench/real_cards.mjs). libcurl4-openssl-dev: the
# downloads of `skirmish cards update` (cli/cli_cards.c).
PKGS=(build-essential cmake pkg-config git curl jq clang-format clang-tidy ccache ca-certificates procps iproute2
      libmicrohttpd-dev libjansson-dev libpq-dev libhiredis-dev libssl-dev libcunit1-dev libxml2-dev
      libcurl4-openssl-dev
      ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo
      postgresql redis-server wrk nodejs chromium python3)
# npm lints the OpenAPI document and validates API responses in the test run. Debian's
# nodejs comes without npm; a NodeSource nodejs (which bundles npm) conflicts with
# Debian's npm package, so it is asked for only when no npm is found.
command -v npm >/dev/null 2>&1 || PKGS+=(npm)
# Extra packages for optional parts (browser tests, linting) can be named in SK_EXTRA_PKGS.
read -r -a EXTRA <<<"${SK_EXTRA_PKGS:-}"
PKGS+=("${EXTRA[@]}")

# One dpkg-query for every package (one a package took 2.5 s of each `make test` on the
# test VM): the names of those installed, then the ones not among them.
declare -A have=()
while read -r name status; do
  [ "$status" = "install ok installed" ] && have[$name]=1
done < <(dpkg-query -W -f='${Package} ${Status}\n' "${PKGS[@]}" 2>/dev/null || true)
missing=()
for p in "${PKGS[@]}"; do
  [ -n "$p" ] || continue
  [ -n "${have[$p]:-}" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO=sudo; else
    echo "deps: missing packages: ${missing[*]}; run as root or install them" >&2; exit 1
  fi
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Debian's postgresql package creates and starts a cluster of its own; we never use it,
# so keep the package's service from starting (policy-rc.d) while installing.
pol=/usr/sbin/policy-rc.d
made_pol=0
if [ ! -e "$pol" ] && [ -z "$SUDO" ]; then
  printf '#!/bin/sh\nexit 101\n' > "$pol"; chmod +x "$pol"; made_pol=1
fi
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
[ $made_pol -eq 1 ] && rm -f "$pol"
exit 0
