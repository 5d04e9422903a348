#!/usr/bin/env python3
"""Group-level import graph of smemdesc-core.

A group is a top-level folder of smemdesc-core/src (base, layout, mma, tile, ...); lib.rs is the
root and belongs to no group. For every source file this reads the paths it names in code (not in
comments): `crate::<group>::...`, `use crate::{<group>::..., ...}` and `crate::<Name>` where lib.rs
re-exports `<Name>` from a group (`super::` stays inside a group). It prints one line per group with the groups it imports, then the cycles
between groups, and exits 1 if there is one (0 otherwise).

    python3 scripts/import_graph.py            # graph + cycle check
    python3 scripts/import_graph.py --files    # also the file-level edges that cross groups
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "smemdesc-core", "src")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(line.split("//", 1)[0] for line in text.splitlines())


def root_names(groups):
    """Names lib.rs re-exports from a group (`pub use tile::{TileSpec, ...}`): `crate::TileSpec`
    in a file is an import of that group."""
    with open(os.path.join(ROOT, "lib.rs"), encoding="utf-8") as f:
        code = strip_comments(f.read())
    names = {}
    for group, rest in re.findall(r"pub use ([a-z_][a-z0-9_]*)::([^;]*);", code):
        if group in groups:
            for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", rest):
                names.setdefault(name, group)
    return names


def referenced_groups(code, groups, roots):
    found = set(re.findall(r"\bcrate::([a-z_][a-z0-9_]*)", code))
    # use crate::{a::X, b::{Y, Z}}: the first segment of each top-level entry of the braces
    for inner in re.findall(r"\bcrate::\{([^;]*)\}", code):
        depth, entry = 0, ""
        for ch in inner + ",":
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            if ch == "," and depth == 0:
                head = entry.strip().split("::")[0]
                if head:
                    found.add(head)
                entry = ""
            else:
                entry += ch
    return {g if g in groups else roots[g] for g in found if g in groups or g in roots}


def main():
    show_files = "--files" in sys.argv[1:]
    groups = sorted(
        d for d in os.listdir(ROOT) if os.path.isdir(os.path.join(ROOT, d))
    )
    roots = root_names(groups)
    edges = {g: set() for g in groups}
    file_edges = []
    for g in groups:
        for dirpath, _, names in os.walk(os.path.join(ROOT, g)):
            for name in sorted(names):
                if not name.endswith(".rs"):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8") as f:
                    code = strip_comments(f.read())
                for h in referenced_groups(code, groups, roots):
                    if h != g:
                        edges[g].add(h)
                        file_edges.append((os.path.relpath(path, ROOT), h))
    for g in groups:
        print(f"{g:10} -> {', '.join(sorted(edges[g])) or '(nothing)'}")
    if show_files:
        for path, h in sorted(file_edges):
            print(f"  {path} -> {h}")
    # cycles: strongly connected components with more than one group (Tarjan)
    index, low, stack, on, sccs = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
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
                sccs.append(sorted(comp))

    for g in groups:
        if g not in index:
            visit(g)
    if sccs:
        for comp in sccs:
            print("cycle between groups: " + " <-> ".join(comp), file=sys.stderr)
        return 1
    print(f"no cycle between the {len(groups)} groups")
    return 0


if __name__ == "__main__":
    sys.exit(main())
