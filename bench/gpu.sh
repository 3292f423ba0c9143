#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The GPU figures: games per second of the OpenCL backend on a GPU next to the CPU backend on
# every core of the same machine, the proof that both give the same results (same job, same
# seed), and the CPU-vs-OpenCL differential tests run on the GPU instead of PoCL.
#
# Two steps, because a GPU machine lent to a session (the device tool) starts bare and
# reaches nothing outside it:
#
#   bench/gpu.sh prepare [BUILD]      (here; BUILD defaults to build, a Release build)
#       bundles into .gpu/ (git-ignored): the binaries skirmish, cl_bench and test_engine,
#       the shared libraries they load other than the C library's own (packed, lib.tar.gz),
#       the game's card files (SKIRMISH_CARDS_DIR, default ../shared/data/tu; only carried,
#       never committed) and the real-card matchups of tests/data/peer/real_cards.json.
#   bench/gpu.sh run [GAMES]          (on the GPU machine, repository root, .gpu carried)
#       points the OpenCL ICD loader at the NVIDIA driver, lists the devices, checks the
#       device's random streams, runs cl_bench, builds the programs of the first 12 plain
#       real-card matchups (each plan's own, all at once: their build seconds), plays those
#       matchups (GAMES each, default 4,000,000) on the GPU and on the CPU backend (on the
#       GPU also with one game a work-item, SKIRMISH_CL_GAMES_PER_ITEM=1, against the
#       default's several), and runs
#       the differential suites on the GPU side by side (flexible play left out unless
#       SKIRMISH_CL_DIFF_SKIP_FLEX=0; SKIRMISH_GPU_DIFF_SECONDS bounds each, default 240).
#       The general program, whose build took six minutes on an H200's driver, only with
#       SKIRMISH_GPU_GENERAL=1 (cl_bench's rows, a column of the real cards, the suites'
#       small launches).
#       Prints markdown (also to $OUT/gpu.md when OUT is set) to paste into
#       bench/history/<date>.md (its figures into bench/RESULTS.md). Exits 1 when a step
#       fails or the two backends disagree on any count.
#   bench/gpu.sh sizes [GAMES]        (on the GPU machine, as run)
#       plays four of those real-card matchups (GAMES each, default 4,000,000) on the GPU
#       with work-groups of 32, 64, 128 and 256 work-items, each with the backend's games
#       per launch and with 4,194,304 (SKIRMISH_CL_WORK_GROUP, SKIRMISH_CL_GAMES_PER_LAUNCH),
#       then with 1, 4, 16 and 32 games a work-item (SKIRMISH_CL_GAMES_PER_ITEM), and
#       prints games/s against the defaults; exits 1 when two sizes give different
#       counts (a job's result must not depend on how its games are launched).
#   bench/gpu.sh expect [GAMES]       (here, after prepare)
#       plays every real-card matchup of real_cards.json but those with flexible play (GAMES
#       each, default 100,000) on the CPU backend and keeps the counts in .gpu/expected.json.
#   bench/gpu.sh all [GAMES]          (on the GPU machine, as run)
#       plays those matchups on the GPU and compares each one's counts with
#       .gpu/expected.json (same commit, same GAMES), or with the CPU backend run there
#       when that file does not fit; prints a row a matchup and exits 1 on any difference.
#       SKIRMISH_GPU_ONLY, a regular expression, keeps the matchups whose names it finds.
#
# The steps that play real-card matchups are bench/gpu_jobs.py's (the machine's python3):
# one job document a matchup, as bench/real_cards.mjs writes it.
#
# With the device tool: run(command="bash bench/gpu.sh run", carry=[".gpu"]).
# SKIRMISH_GPU_DEVICE names the device to test (SKIRMISH_DEVICE syntax; default "NVIDIA").
# To try the run step here, on PoCL: SKIRMISH_GPU_DEVICE=portable bench/gpu.sh run 20000
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bundle=$root/.gpu
step=${1:-}

die() {
    echo "gpu.sh: $*" >&2
    exit 1
}

prepare() {
    local build=$root/${1:-build}
    local cards=${SKIRMISH_CARDS_DIR:-$root/../shared/data/tu}
    local bins=("$build/skirmish" "$build/bench/cl_bench" "$build/tests/test_engine")
    for b in "${bins[@]}"; do
        [ -x "$b" ] || die "$b is missing: build first (cmake --preset release && cmake --build build)"
    done
    grep -q '^CMAKE_BUILD_TYPE:[A-Z]*=Release' "$build/CMakeCache.txt" ||
        echo "gpu.sh: warning: $build is not a Release build; its figures are not comparable" >&2
    [ -f "$cards/cards_section_1.xml" ] || die "no game card files in $cards (set SKIRMISH_CARDS_DIR)"
    rm -rf "$bundle"
    mkdir -p "$bundle/bin" "$bundle/lib" "$bundle/data"
    cp "${bins[@]}" "$bundle/bin/"
    # Every library the binaries load, except the C library's own parts, which the GPU
    # machine's system has (and which must match its dynamic loader).
    ldd "${bins[@]}" | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u |
        grep -Ev '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so' |
        while read -r lib; do cp -L "$lib" "$bundle/lib/"; done
    # Packed: libxml2's ICU data alone is 31 MB, and the device tool carries 64 MiB.
    tar -C "$bundle" -czf "$bundle/lib.tar.gz" lib
    rm -rf "$bundle/lib"
    cp "$cards"/*.xml "$cards"/*.txt "$bundle/data/" 2>/dev/null || true
    git -C "$root" rev-parse --short HEAD >"$bundle/commit"
    du -sh "$bundle" | awk '{print "gpu.sh: " $2 " holds " $1 " (the device tool carries 64 MiB at most)"}'
}

# Writes an ICD folder naming the NVIDIA OpenCL driver, when the system has none, and points
# the loader at it. The driver library comes with the kernel driver (often under
# /usr/local/nvidia); the CUDA image does not always register it in /etc/OpenCL/vendors.
nvidia_icd() {
    local lib
    if ls /etc/OpenCL/vendors/*nvidia* >/dev/null 2>&1; then
        return 0
    fi
    lib=$(ldconfig -p 2>/dev/null | awk '/libnvidia-opencl\.so\.1/ {print $NF; exit}')
    if [ -z "$lib" ]; then
        lib=$(find /usr/local/nvidia /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/local/cuda* \
            -name 'libnvidia-opencl.so*' 2>/dev/null | head -1 || true)
    fi
    if [ -z "$lib" ]; then
        echo "gpu.sh: no libnvidia-opencl.so found: the NVIDIA OpenCL driver is not on this machine" >&2
        return 0
    fi
    mkdir -p "$work/vendors"
    echo "$lib" >"$work/vendors/nvidia.icd"
    export OCL_ICD_VENDORS=$work/vendors
}

# The device's self-check, timed: it builds the program of the random streams' kernel alone
# (into SKIRMISH_CL_CACHE, here $work/cache); each job builds its plan's program there.
open_device() {
    local t0 t1 st=0
    t0=$(date +%s.%N)
    "$bundle/bin/skirmish" devices --check || st=1
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN {printf "devices --check, its build included: %.1f s\n", b - a}'
    return $st
}

# A step's heading ($1, the bundle's commit and the time) and a block with the GPUs, the
# line $2 when given, and the device's self-check; the self-check's status.
device_header() {
    local st=0
    echo "## $1, commit $(cat "$bundle/commit"), $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    echo '```'
    (nvidia-smi -L 2>/dev/null || echo "nvidia-smi: not available") | sed 's/ (UUID.*//'
    [ -z "${2:-}" ] || echo "$2"
    open_device || st=1
    echo '```'
    echo
    return $st
}

# The real-card matchups on both backends: one markdown row each, and "DIFFER" rows when
# the counts differ (bench/gpu_jobs.py).
real_cards() {
    local games=$1 device=$2
    python3 -B "$root/bench/gpu_jobs.py" real_cards "$bundle/bin/skirmish" "$games" "$device" "$work"
}

# The bundle's programs, libraries and card files for the steps on the GPU machine, and a
# throw-away folder ($work) for their jobs and the kernels' binary cache; with "cpu", for a
# step that runs the CPU backend alone (expect), without looking for the NVIDIA driver.
bundle_env() {
    [ -x "$bundle/bin/skirmish" ] || die "no bundle in $bundle: run 'bench/gpu.sh prepare' first, here"
    work=$(mktemp -d /tmp/skirmish-gpu.XXXXXX)
    tar -C "$work" -xzf "$bundle/lib.tar.gz"
    export LD_LIBRARY_PATH=$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export SKIRMISH_CARDS_DIR=$bundle/data SKIRMISH_CL_CACHE=$work/cache SKIRMISH_LOG_LEVEL=error
    mkdir -p "$work/cache"
    [ "${1:-}" = cpu ] || nvidia_icd
}

# Runs step function $2 with the rest as its arguments, its output also to $OUT/$1 when
# OUT is set (the device tool brings that folder back); its exit status.
with_out() {
    local name=$1 rc
    shift
    if [ -z "${OUT:-}" ]; then
        "$@"
        return
    fi
    set +e
    "$@" | tee "$OUT/$name"
    rc=${PIPESTATUS[0]}
    set -e
    return "$rc"
}

# Launch sizes on real cards: one markdown row per matchup and size.
sizes() {
    local games=${1:-4000000} device=${SKIRMISH_GPU_DEVICE:-NVIDIA} rc=0
    bundle_env
    device_header "GPU launch sizes" || rc=1
    python3 -B "$root/bench/gpu_jobs.py" sizes "$bundle/bin/skirmish" "$games" "$device" "$work" || rc=1
    rm -rf "$work"
    return $rc
}

# Every real-card matchup of tests/data/peer/real_cards.json (missions, raids, fortresses,
# scorings and battleground effects too) but those with flexible play, which run on the CPU
# backend whatever the device (battle_job.c), GAMES games each, seed 1. Mode "expect" plays
# them on the CPU backend and writes the counts to $bundle/expected.json; mode "all" plays
# them on $device and compares each with those counts when they are for the same number of
# games and the same commit (same job + same seed = same result on any device), or else
# with the CPU backend's run of the same job. One markdown row a matchup, flushed as it
# comes, so that a time bound still leaves the rows before it.
every_matchup() {
    local mode=$1 games=$2 device=$3
    python3 -B "$root/bench/gpu_jobs.py" every "$mode" "$bundle" "$games" "$device" "$work"
}

every_step() {
    local mode=$1 games=${2:-100000} device=${SKIRMISH_GPU_DEVICE:-NVIDIA} rc=0
    if [ "$mode" = expect ]; then bundle_env cpu; else bundle_env; fi
    if [ "$mode" = all ]; then
        device_header "Every real-card matchup on the device" || rc=1
    fi
    every_matchup "$mode" "$games" "$device" || rc=1
    rm -rf "$work"
    return $rc
}

run_all() {
    local games=${1:-4000000}
    local device=${SKIRMISH_GPU_DEVICE:-NVIDIA}
    local rc=0
    bundle_env
    device_header "GPU run" "cores: $(nproc); device asked for: $device" || rc=1
    echo "### cl_bench ($games games per row; reference matchups, built-in cards)"
    echo
    echo '```'
    CL_BENCH_GENERAL=${SKIRMISH_GPU_GENERAL:-0} "$bundle/bin/cl_bench" "$games" "$device" || rc=1
    echo '```'
    echo
    echo "### Real cards: the same jobs on both backends (seed 1)"
    echo
    real_cards "$games" "$device" || rc=1
    echo
    echo "### CPU-vs-OpenCL differential suite on the device"
    echo
    echo '```'
    # Flexible play is left out on the device: each flexible game runs on one work-item
    # there, and the suite's 2,000 of them did not finish in 200 s on an H200
    # (bench/history/2026-11-27.md). Streamed, under a time bound, so that a slow device
    # still shows which tests passed.
    # The set is six suites (test_battle_cl_diff.c), each under the bound, run side by side
    # (each builds its plans' programs: CPU-bound work of the driver, and the machine has
    # 16 cores), their outputs printed in order. The general program only with
    # SKIRMISH_GPU_GENERAL=1 (SKIRMISH_CL_DIFF_GENERAL).
    local suites=(battle_cl_diff battle_cl_diff_skills battle_cl_diff_scoring battle_cl_diff_flex
                  battle_cl_diff_flex_surge battle_cl_programs)
    for suite in "${suites[@]}"; do
        (SKIRMISH_CL_DIFF_DEVICE=$device SKIRMISH_CL_DIFF_SKIP_FLEX=${SKIRMISH_CL_DIFF_SKIP_FLEX-1} \
            SKIRMISH_CL_DIFF_GENERAL=${SKIRMISH_GPU_GENERAL:-0} \
            timeout "${SKIRMISH_GPU_DIFF_SECONDS:-240}" "$bundle/bin/test_engine" "$suite" \
            >"$work/$suite.out" 2>&1; echo $? >"$work/$suite.rc") &
    done
    wait
    for suite in "${suites[@]}"; do
        grep -v -e '^ *$' -e 'CUnit - A unit' -e 'cunit.sourceforge' "$work/$suite.out" || true
        if [ "$(cat "$work/$suite.rc")" != 0 ]; then
            echo "gpu.sh: the differential suite $suite failed or ran past its bound"
            rc=1
        fi
    done
    echo '```'
    rm -rf "$work"
    return $rc
}

case $step in
prepare)
    shift
    prepare "$@"
    ;;
run)
    shift
    with_out gpu.md run_all "$@"
    ;;
sizes)
    shift
    with_out sizes.md sizes "$@"
    ;;
expect)
    shift
    every_step expect "$@"
    ;;
all)
    shift
    with_out all.md every_step all "$@"
    ;;
*)
    sed -n '2,44p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
