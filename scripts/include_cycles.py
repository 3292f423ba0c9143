#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The include check of the build: include_cycles.py ROOT [STAMP]

Reads every .c and .h under ROOT's source folders (api, cli, common, engine, kernels,
queue, store, tools, worker) and fails when modules or folders depend on each other in a circle.
A module is a file's name without its extension (battle_plan.c and battle_plan.h are one
module); module A depends on module B when a file of A includes B's header ("b.h"), and
folder X on folder Y when a module of X depends on a module of Y. Either graph having a
cycle is an error that names the cycle: a newcomer must be able to read the tree bottom up
(docs/engine.md, "The tree"). A module's private header (x_int.h) is part of it; a library's include/ folder
(its public header) is a folder of its own, below the library's rooms.
With STAMP, writes it when the check passes (the build's custom command)."""
import os
import re
import sys

FOLDERS = ("api", "cli", "common", "engine", "kernels", "queue", "store", "tools", "worker")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def module_of(name):
    """queue_int.h is module queue's private header: part of the module, as X.h is."""
    mod = name.rsplit(".", 1)[0]
    return mod[:-4] if mod.endswith("_int") else mod


def scan(root):
    files = {}  # path -> (module, folder, [included header names])
    for top in FOLDERS:
        for d, _, names in os.walk(os.path.join(root, top)):
            for n in names:
                if n.endswith((".c", ".h")):
                    p = os.path.join(d, n)
                    with open(p, encoding="utf-8", errors="replace") as f:
                        incs = [os.path.basename(i) for i in INCLUDE.findall(f.read())]
                    files[p] = (module_of(n), os.path.relpath(d, root), incs)
    return files


def cycles(edges):
    """Strongly connected components of more than one node (Tarjan), each sorted."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def path_in(edges, comp):
    """One circle through a component: from its first node back to it."""
    start, seen, trail = comp[0], set(), []

    def walk(v):
        trail.append(v)
        for w in sorted(edges.get(v, ())):
            if w == start and len(trail) > 1:
                return True
            if w in comp and w not in seen:
                seen.add(w)
                if walk(w):
                    return True
        trail.pop()
        return False

    walk(start)
    return trail + [start]


def main():
    root = sys.argv[1]
    files = scan(root)
    header_of = {}  # header name -> module, folder
    for p, (mod, folder, _) in files.items():
        if p.endswith(".h"):
            header_of[os.path.basename(p)] = (mod, folder)
    mods, dirs = {}, {}
    why = {}  # (folder a, folder b) -> an include that makes a depend on b
    for p, (mod, folder, incs) in files.items():
        mods.setdefault(mod, set())
        dirs.setdefault(folder, set())
        for h in incs:
            if h not in header_of:
                continue  # a generated or system-like header: not a module of the tree
            m2, f2 = header_of[h]
            if m2 != mod:
                mods[mod].add(m2)
            if f2 != folder:
                dirs[folder].add(f2)
                why.setdefault((folder, f2), "%s includes %s" % (os.path.relpath(p, root), h))
    bad = False
    for comp in cycles(mods):
        bad = True
        print("include cycle between modules %s: %s" % (", ".join(comp), " -> ".join(path_in(mods, comp))),
              file=sys.stderr)
    for comp in cycles(dirs):
        bad = True
        circle = path_in(dirs, comp)
        print("include cycle between folders: " + " -> ".join(circle), file=sys.stderr)
        for a, b in zip(circle, circle[1:]):
            print("  %s -> %s: %s" % (a, b, why[(a, b)]), file=sys.stderr)
    if bad:
        print("include_cycles.py: make the dependency go one way (docs/engine.md, \"The tree\")",
              file=sys.stderr)
        return 1
    if len(sys.argv) > 2:
        with open(sys.argv[2], "w") as f:
            f.write("%d modules, %d folders, no cycle\n" % (len(mods), len(dirs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
