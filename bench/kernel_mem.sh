#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What a GPU compiler makes of the battle kernel, without a GPU: the exact device text of
# the build (build/kernels/kernels_src.c.battle.cl) compiled offline by LLVM's AMDGPU
# backend (clang-14, -mcpu=gfx90a: an AMD Instinct MI200 by default, MCPU to change it), for
# the general program and for the programs specialised for the reference matchup and the
# first 12 plain real-card matchups (docs/kernels.md, "A program per plan"). For each, the
# battle_count kernel's private segment a work-item (the scratch its state spills to; less
# the 16 KiB the compiler would reserve for calls to the OpenCL builtins, which -nogpulib
# leaves external: -amdgpu-assume-external-call-stack-size=0), its
# vector and scalar registers and their spills, from the code object's metadata, and the
# compile seconds. Occupancy follows from the registers: a gfx90a SIMD holds 512 vector
# registers a lane, so a kernel of more than 256 runs one wave a SIMD, of 128 or less four.
# A proxy for the NVIDIA driver (another compiler), measurable on any machine; the GPU's own
# figures come from bench/gpu.sh when a device is lent. Prints a markdown table.
#   bench/kernel_mem.sh [BUILD]     BUILD: a build folder (default build), with skirmish
# Needs clang-14 and llvm-readelf-14 (Debian's clang-14 and llvm-14 packages), the game's
# card files (SKIRMISH_CARDS_DIR, default ../shared/data/tu) and PoCL, which tells each
# matchup's program (a job of 5,000 games whose build logs its features).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
src=$build/kernels/kernels_src.c.battle.cl
mcpu=${MCPU:-gfx90a}
export SKIRMISH_CARDS_DIR=${SKIRMISH_CARDS_DIR:-$root/../shared/data/tu}

for tool in clang-14 llvm-readelf-14; do
    command -v "$tool" >/dev/null || { echo "kernel_mem.sh: $tool is missing" >&2; exit 1; }
done
[ -f "$src" ] || { echo "kernel_mem.sh: no $src: build first" >&2; exit 1; }
tmp=$(mktemp -d /tmp/skirmish-kmem.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# The features a job's plan gets (the -D options), from the log of its program's build
# into an empty binary cache on PoCL.
features_of() {
    SKIRMISH_CL_CACHE=$tmp/cache.$RANDOM SKIRMISH_LOG_LEVEL=info \
        "$build/skirmish" run --device portable --games 5000 "$1" 2>&1 >/dev/null |
        sed -n 's/.*event=opencl_build .*program=specialised features="\([^"]*\)".*/\1/p' | head -1 ||
        true
}

# One row: the program's name, then its -D options (none: the general program).
row() {
    local name=$1 features=$2 t0 t1 notes
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086 # the features are separate options
    clang-14 -x cl -cl-std=CL1.2 -D__OPENCL_VERSION__=120 -Xclang -finclude-default-header \
        -nogpulib -target amdgcn-amd-amdhsa -mcpu="$mcpu" -O3 -DBATTLE_TURN_MAX=200 \
        -mllvm -amdgpu-assume-external-call-stack-size=0 \
        $features -w -c "$src" -o "$tmp/k.o"
    t1=$(date +%s.%N)
    notes=$(llvm-readelf-14 --notes "$tmp/k.o")
    # The metadata lists each kernel's fields after its name: battle_count's block.
    echo "$notes" | awk -v name="$name" -v secs="$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" '
        /\.name:/ { k = $2 }
        k == "battle_count" && /\.private_segment_fixed_size:/ { p = $2 }
        k == "battle_count" && /\.vgpr_count:/ { v = $2 }
        k == "battle_count" && /\.sgpr_count:/ { s = $2 }
        k == "battle_count" && /\.vgpr_spill_count:/ { vs = $2 }
        k == "battle_count" && /\.sgpr_spill_count:/ { ss = $2 }
        END { printf "| %s | %d | %d | %d | %d | %d | %.1f |\n", name, p, v, s, vs, ss, secs }'
}

python3 -B "$root/bench/gpu_jobs.py" jobs 5000 >"$tmp/jobs.json"
python3 - "$tmp" <<'EOF'
import json, sys
tmp = sys.argv[1]
jobs = json.load(open(f"{tmp}/jobs.json"))
names = [n for n, d in jobs.items()
         if isinstance(d["params"]["attacker"], str) and isinstance(d["params"]["defender"], str)][:12]
for n in names:
    json.dump(jobs[n], open(f"{tmp}/{n}.json", "w"))
open(f"{tmp}/names", "w").write("\n".join(names) + "\n")
EOF
cp "$root/examples/tu/battle_reference_1.json" "$tmp/ref-1.json"

echo "battle_count as LLVM 14's AMDGPU backend compiles it for $mcpu (commit $(git -C "$root" rev-parse --short HEAD))"
echo
echo "| program | private segment (B) | VGPRs | SGPRs | VGPR spills | SGPR spills | compile (s) |"
echo "|---|---:|---:|---:|---:|---:|---:|"
row general ""
for name in ref-1 $(cat "$tmp/names"); do
    f=$(features_of "$tmp/$name.json")
    if [ -z "$f" ]; then
        echo "| $name | no features: the job did not build a program on PoCL | | | | | |"
        continue
    fi
    row "$name" "$f"
done
