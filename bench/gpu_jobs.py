# SPDX-License-Identifier: MIT
"""The real-card matchups of tests/data/peer/real_cards.json as bench/gpu.sh's steps run
them: one job document a matchup (as bench/real_cards.mjs's ourJob writes it: seed 1, the
file's turn limit, the matchup's scoring and effects), one run of the skirmish CLI on a
device, and a failed run's one-line reason. The machine's python3 runs it; the GPU machine
has nothing else."""
import json
import subprocess

KEYS = ("games", "wins", "stalls", "losses", "points")


def load(path):
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


def job_of(ref, m, games, work):
    """Writes matchup m's job of `games` games to work/<name>.json; returns its path."""
    params = {"games": int(games), "mode": m["mode"], "turn_limit": ref["turn_limit"],
              "attacker": m["attacker"], "defender": m["defender"]}
    for k in ("scoring", "effects"):
        if k in m:
            params[k] = m[k]
    path = f"{work}/{m['name']}.json"
    with open(path, "w") as f:
        json.dump({"kind": "battle", "seed": 1, "params": params}, f)
    return path


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
