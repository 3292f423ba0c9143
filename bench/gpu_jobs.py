# SPDX-License-Identifier: MIT
"""The one writer of the real-card matchups' job documents (tests/data/peer/real_cards.json:
seed 1, the file's turn limit, the matchup's scoring and effects), and bench/gpu.sh's steps
that play them with the skirmish CLI, in the machine's python3 (the GPU machine has nothing
else). bench/real_cards.mjs takes its documents from the `jobs` step, so a GPU figure and a
peer figure of one matchup are of the same job.

    python3 -B bench/gpu_jobs.py jobs GAMES
    python3 -B bench/gpu_jobs.py docs GAMES < MATCHUPS.json
    python3 -B bench/gpu_jobs.py real_cards SKIRMISH GAMES DEVICE WORK
    python3 -B bench/gpu_jobs.py sizes SKIRMISH GAMES DEVICE WORK
    python3 -B bench/gpu_jobs.py every expect|all BUNDLE GAMES DEVICE WORK
    python3 -B bench/gpu_jobs.py warps SKIRMISH GAMES WORK

`jobs` prints one JSON object, each matchup's name to its job document of GAMES games. `docs`
reads a JSON list of matchups in the file's format (bench/peer_fuzz.mjs's random ones) on
stdin and prints the list of their job documents, with the file's turn limit. `warps`
models what several games a work-item buy a GPU from the CPU backend's turn histograms
(docs/kernels.md, "Several games a work-item"). The others print markdown rows
(bench/gpu.sh says what each step is for) and exit 1 when two runs that must agree do
not."""
import json
import os
import re
import subprocess
import sys
import time

KEYS = ("games", "wins", "stalls", "losses", "points")
REAL_CARDS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                          "peer", "real_cards.json")


def load(path=REAL_CARDS):
    """The parsed file: {about, peer, turn_limit, matchups}."""
    with open(path) as f:
        return json.load(f)


def plain(m):
    """Whether both sides of matchup m are deck strings (no mission, raid or options)."""
    return isinstance(m["attacker"], str) and isinstance(m["defender"], str)


def flexible(m):
    """Whether a side of matchup m plays flexible (the CPU backend plays it on any device)."""
    return any(isinstance(s, dict) and s.get("play") == "flexible"
               for s in (m["attacker"], m["defender"]))


def doc_of(ref, m, games):
    """Matchup m's job document of `games` games."""
    params = {"games": int(games), "mode": m["mode"], "turn_limit": ref["turn_limit"],
              "attacker": m["attacker"], "defender": m["defender"]}
    for k in ("scoring", "effects"):
        if k in m:
            params[k] = m[k]
    return {"kind": "battle", "seed": 1, "params": params}


def job_of(ref, m, games, work):
    """Writes matchup m's job of `games` games to work/<name>.json; returns its path."""
    path = f"{work}/{m['name']}.json"
    with open(path, "w") as f:
        json.dump(doc_of(ref, m, games), f)
    return path


def jobs(games):
    """Prints every matchup's job document of `games` games, by name, as one JSON object."""
    ref = load()
    json.dump({m["name"]: doc_of(ref, m, games) for m in ref["matchups"]}, sys.stdout)
    print()
    return 0


def docs(games):
    """Prints the job documents of `games` games of the matchups listed on stdin (a JSON
    list in the file's format), in their order, as one JSON list."""
    ref = load()
    json.dump([doc_of(ref, m, games) for m in json.load(sys.stdin)], sys.stdout)
    print()
    return 0


def run(skirmish, job, device, env=None, timeout=None):
    """The result document of `skirmish run` on `device`, every core; raises
    subprocess.CalledProcessError (or TimeoutExpired) when it fails."""
    out = subprocess.run([skirmish, "run", "--device", device, "--threads", "0", job],
                         env=env, check=True, capture_output=True, text=True,
                         timeout=timeout).stdout
    return json.loads(out)


def same(a, b):
    """Whether two results have the same counts."""
    return all(a[k] == b[k] for k in KEYS)


def failed(e):
    """A run that failed: its exit status and the last line it wrote."""
    lines = (e.stderr or "").strip().splitlines()
    return f"exit {e.returncode}: {lines[-1] if lines else 'no message'}"


def rate(r):
    """Games per second of result r without its program's build or load (program_ms)."""
    secs = (r["elapsed_ms"] - r.get("program_ms", 0)) / 1000
    return r["games"] / secs if secs > 0 else float("nan")


def real_cards(skirmish, games, device, work):
    """The first 12 plain matchups on the CPU backend and on `device`, each on the program
    of its own plan (the device's default): first the 12 programs' builds, all at once into
    the empty binary cache (as many processes, each playing its matchup once, which also
    warms a driver's own compiling at the first launch), then each matchup on both
    backends, its program loaded from that cache; games/s leave out the program's load. A row each, "DIFFER" where the
    counts differ; beside the device's default, its games/s with one game a work-item
    (SKIRMISH_CL_GAMES_PER_ITEM=1: what several games a work-item buy); SKIRMISH_GPU_GENERAL=1
    adds the general program's games/s (its build takes minutes on a GPU driver:
    bench/RESULTS.md)."""
    from concurrent.futures import ThreadPoolExecutor
    ref = load()
    matchups = [m for m in ref["matchups"] if plain(m)][:12]
    general = os.environ.get("SKIRMISH_GPU_GENERAL", "0") == "1"

    def build(m):
        t0 = time.monotonic()
        r = run(skirmish, job_of(ref, m, games, f"{work}/b-"), device)
        return r.get("program_ms", 0) / 1000, time.monotonic() - t0

    os.makedirs(f"{work}/b-", exist_ok=True)
    t0 = time.monotonic()
    with ThreadPoolExecutor(max_workers=len(matchups)) as pool:
        built = list(pool.map(build, matchups))
    print(f"{len(matchups)} specialised programs built at once in {time.monotonic() - t0:.1f} s "
          f"(the slowest build {max(b[0] for b in built):.1f} s).\n")
    print("| matchup | games | CPU backend, all cores (games/s) | OpenCL, the plan's program (games/s) "
          "| GPU / CPU |" + (" general program (games/s) | own / general |" if general else "")
          + " one game a work-item (games/s) | default / one |"
          + " build s (12 at once) | cached load s | private B | local B | wins/stalls/losses (both) |")
    print("|---|---:|---:|---:|---:|" + ("---:|---:|" if general else "") + "---:|---:|---:|---:|---:|---:|---|",
          flush=True)
    bad = 0
    ratios = []
    singles = []
    for m, b in zip(matchups, built):
        job = job_of(ref, m, games, work)
        c, g = run(skirmish, job, "cpu"), run(skirmish, job, device)
        ok = same(c, g)
        extra = ""
        if general:
            G = run(skirmish, job, device, env=dict(os.environ, SKIRMISH_CL_SPECIALISE="0"))
            ok = ok and same(c, G)
            extra = f" {rate(G):,.0f} | {rate(g) / rate(G):.2f} |"
        one = run(skirmish, job, device, env=dict(os.environ, SKIRMISH_CL_GAMES_PER_ITEM="1"))
        ok = ok and same(c, one)
        singles.append(rate(g) / rate(one))
        extra += f" {rate(one):,.0f} | {rate(g) / rate(one):.2f} |"
        bad += not ok
        ratio = rate(g) / c["games_per_second"]
        ratios.append(ratio)
        counts = f"{g['wins']}/{g['stalls']}/{g['losses']}"
        if not ok:
            counts = f"DIFFER: cpu {c['wins']}/{c['stalls']}/{c['losses']}, gpu {counts}"
        print(f"| {m['name']} | {int(games):,} | {c['games_per_second']:,.0f} ({c['threads']} threads) "
              f"| {rate(g):,.0f} | {ratio:.2f} |{extra} {b[0]:.1f} | {g.get('program_ms', 0) / 1000:.2f} "
              f"| {g.get('private_mem_bytes', '')} | {g.get('local_mem_bytes', '')} | {counts} |",
              flush=True)
    prod = 1.0
    for r in ratios:
        prod *= r
    one = 1.0
    for r in singles:
        one *= r
    print(f"\nGeometric mean GPU / CPU: {prod ** (1 / len(ratios)):.2f}; the default games per "
          f"work-item against one: {one ** (1 / len(singles)):.2f}. "
          f"Counts identical on {len(matchups) - bad} of {len(matchups)} matchups.")
    return 1 if bad else 0


def sizes(skirmish, games, device, work):
    """Four matchups at each work-group size, with the backend's games per launch and with
    4,194,304, then at 1, 4, 16 and 32 games a work-item (the defaults otherwise): a row
    each; a size whose counts differ from the defaults' is a failure."""
    names = ("real-03-counter", "real-11-rally", "real-14-wall", "real-21-heal")
    ref = load()
    matchups = [m for m in ref["matchups"] if m["name"] in names]

    def sized(job, wg, per, item=0):
        # Each run bounded, so that one slow size still leaves the others' rows.
        env = dict(os.environ, SKIRMISH_CL_WORK_GROUP=str(wg),
                   SKIRMISH_CL_GAMES_PER_LAUNCH=str(per), SKIRMISH_CL_GAMES_PER_ITEM=str(item))
        t0 = time.monotonic()
        r = run(skirmish, job, device, env=env, timeout=60)
        r["wall"] = time.monotonic() - t0
        return r

    print("| matchup | work-group | games per launch | games per work-item | games/s "
          "| against the defaults | process (s) |")
    print("|---|---:|---:|---:|---:|---:|---:|", flush=True)
    bad = 0
    for m in matchups:
        job = job_of(ref, m, games, work)
        base = sized(job, 0, 0)
        tries = [(wg, per, 0) for wg in (32, 64, 128, 256) for per in (0, 4194304)]
        tries += [(64, 0, item) for item in (1, 4, 16, 32)]
        for wg, per, item in tries:
            r = base if (wg, per, item) == (64, 0, 0) else sized(job, wg, per, item)
            ok = same(r, base)
            bad += not ok
            note = "" if ok else " DIFFERENT COUNTS"
            print(f"| {m['name']} | {r['work_group']} | {r['games_per_launch']:,} "
                  f"| {r.get('games_per_item', '')} | {r['games_per_second']:,.0f} "
                  f"| {r['games_per_second'] / base['games_per_second']:.2f}{note} "
                  f"| {r['wall']:.1f} |", flush=True)
    return 1 if bad else 0


def every(mode, bundle, games, device, work):
    """Every matchup but those with flexible play (SKIRMISH_GPU_ONLY, a regular expression,
    keeps those whose names it finds). "expect": on the CPU backend, the counts to
    bundle/expected.json. "all": on `device`, each compared with those counts when they are
    for the same games and commit, or else with the CPU backend's run here; a row each,
    flushed as it comes, so that a time bound still leaves the rows before it."""
    games = int(games)
    ref = load()
    only = re.compile(os.environ.get("SKIRMISH_GPU_ONLY", ""))
    matchups = [m for m in ref["matchups"] if not flexible(m) and only.search(m["name"])]
    skirmish = f"{bundle}/bin/skirmish"
    with open(f"{bundle}/commit") as f:
        commit = f.read().strip()
    if mode == "expect":
        t0 = time.monotonic()
        counts = {}
        for m in matchups:
            try:
                c = run(skirmish, job_of(ref, m, games, work), "cpu")
            except subprocess.CalledProcessError as e:
                sys.exit(f"gpu.sh: {m['name']} on the CPU backend: {failed(e)}")
            counts[m["name"]] = {k: c[k] for k in KEYS}
        with open(f"{bundle}/expected.json", "w") as f:
            json.dump({"commit": commit, "games": games, "counts": counts}, f, indent=1)
        print(f"gpu.sh: {len(counts)} matchups, {games:,} games each, on the CPU backend in "
              f"{time.monotonic() - t0:.0f} s: {bundle}/expected.json")
        return 0
    expected = {}
    try:
        with open(f"{bundle}/expected.json") as f:
            e = json.load(f)
        if e["games"] == games and e["commit"] == commit:
            expected = e["counts"]
    except (OSError, ValueError, KeyError):
        pass
    source = "the CPU backend's counts from `gpu.sh expect`" if expected else "the CPU backend, here"
    print(f"{len(matchups)} of {len(ref['matchups'])} matchups (flexible play left out"
          f"{', SKIRMISH_GPU_ONLY=' + only.pattern if only.pattern else ''}), {games:,} games each, "
          f"compared with {source}.\n")
    print("| matchup | mode | on the device (games/s) | process (s) | wins/stalls/losses | same counts |")
    print("|---|---|---:|---:|---|---|", flush=True)
    bad = done = 0
    for m in matchups:
        job = job_of(ref, m, games, work)
        t0 = time.monotonic()
        try:
            g = run(skirmish, job, device)
            wall = time.monotonic() - t0
            c = expected.get(m["name"]) or run(skirmish, job, "cpu")
        except subprocess.CalledProcessError as e:
            bad += 1
            done += 1
            print(f"| {m['name']} | {m['mode']} | | | | NO: {failed(e)} |", flush=True)
            continue
        ok = same(c, g)
        bad += not ok
        done += 1
        counts = f"{g['wins']}/{g['stalls']}/{g['losses']}"
        verdict = "yes" if ok else f"NO: cpu {c['wins']}/{c['stalls']}/{c['losses']}/{c['points']}"
        print(f"| {m['name']} | {m['mode']} | {g['games_per_second']:,.0f} | {wall:.1f} | {counts} "
              f"| {verdict} |", flush=True)
    print(f"\nCounts identical on {done - bad} of {done} matchups.")
    return 1 if bad else 0


def warps(skirmish, games, work, lanes=32, draws=3000):
    """The model of docs/kernels.md, "Several games a work-item": for `run`'s 12 matchups,
    the share of a warp's time its lanes are busy when each plays K games one after another
    (K = 1, 4, 8, 16, 32), a game's cost its turns plus one (the start), `lanes` lanes drawn
    from the CPU backend's turn histogram of GAMES games (seed 1 of Python's generator, so
    the table is the same each time); then, over the matchups, the geometric mean of what K
    buys against one game a work-item. A model: it leaves out what divides a warp within a
    turn and the launch's tail."""
    import math
    import random
    ks = (1, 4, 8, 16, 32)
    ref = load()
    matchups = [m for m in ref["matchups"] if plain(m)][:12]
    rng = random.Random(1)
    print("| matchup | mean turns | " + " | ".join(f"busy, {k} a work-item" for k in ks) + " |")
    print("|---|---:|" + "---:|" * len(ks), flush=True)
    gains = [0.0] * len(ks)
    for m in matchups:
        r = run(skirmish, job_of(ref, m, games, work), "cpu")
        cost = [t + 1 for t, c in enumerate(r["turns"]["histogram"]) for _ in range(c)]
        busy = []
        for k in ks:
            total = longest = 0
            for _ in range(draws):
                lane = [sum(rng.choice(cost) for _ in range(k)) for _ in range(lanes)]
                total += sum(lane)
                longest += max(lane) * lanes
            busy.append(total / longest)
        for i in range(len(ks)):
            gains[i] += math.log(busy[i] / busy[0])
        print(f"| {m['name']} | {r['turns']['mean']:.1f} | "
              + " | ".join(f"{b:.0%}" for b in busy) + " |", flush=True)
    print("\nGeometric mean against one game a work-item: "
          + ", ".join(f"{k}: {math.exp(g / len(matchups)):.2f}x" for k, g in zip(ks, gains)) + ".")
    return 0


STEPS = {"jobs": (jobs, 1), "docs": (docs, 1), "real_cards": (real_cards, 4), "sizes": (sizes, 4),
         "every": (every, 5), "warps": (warps, 3)}

if __name__ == "__main__":
    step = STEPS.get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not step or len(sys.argv) != 2 + step[1]:
        sys.exit(__doc__)
    sys.exit(step[0](*sys.argv[2:]))
