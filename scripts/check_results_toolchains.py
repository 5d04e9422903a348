#!/usr/bin/env python3
"""Checks gpu/results_toolchains.json (issue 44): it parses, and every entry has the keys and
types the issue asks for. Then the check's own test: deliberately bad documents must fail it.

  {"entries": [{"toolchain": str, "toolchain_commit": str, "kernel": str, "arch": "sm_..",
                "registers": int, "stack_bytes": int, "spill_bytes": int, "warnings": [str]}]}

Other keys (`module`, `note`) are allowed. Each toolchain's `toolchain_commit` is one value for
all its entries, and a (toolchain, kernel, arch) appears once (module-qualified where given).
Last line: `results_toolchains: N passed, M failed` (N entries, M findings).

  python3 scripts/check_results_toolchains.py [FILE]
"""
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEYS = {"toolchain": str, "toolchain_commit": str, "kernel": str, "arch": str,
        "registers": int, "stack_bytes": int, "spill_bytes": int, "warnings": list}
TOOLCHAINS = {"nvptx64", "cuda-oxide", "Rust-CUDA", "rust-gpu", "CUDA C++"}


def check(doc):
    """(entries checked, [findings])."""
    if not isinstance(doc, dict) or not isinstance(doc.get("entries"), list):
        return 0, ['the document is not {"entries": [...]}']
    bad, commits, seen = [], {}, set()
    for i, e in enumerate(doc["entries"]):
        where = f"entry {i}"
        if not isinstance(e, dict):
            bad.append(f"{where}: not an object")
            continue
        where += f" ({e.get('toolchain')} {e.get('kernel')})"
        for k, t in KEYS.items():
            if k not in e:
                bad.append(f"{where}: no `{k}`")
            elif not isinstance(e[k], t) or isinstance(e[k], bool):
                bad.append(f"{where}: `{k}` is {type(e[k]).__name__}, not {t.__name__}")
        if any(f.startswith(where) for f in bad):
            continue
        if e["toolchain"] not in TOOLCHAINS:
            bad.append(f"{where}: toolchain {e['toolchain']!r} (known: {', '.join(sorted(TOOLCHAINS))})")
        if not re.fullmatch(r"[0-9a-f]{7,40}", e["toolchain_commit"]):
            bad.append(f"{where}: toolchain_commit {e['toolchain_commit']!r} is not a commit hash")
        if not re.fullmatch(r"sm_\d+a?", e["arch"]):
            bad.append(f"{where}: arch {e['arch']!r} is not sm_NN[a]")
        for k in ("registers", "stack_bytes", "spill_bytes"):
            if e[k] < 0:
                bad.append(f"{where}: `{k}` {e[k]} < 0")
        if e["registers"] == 0:
            bad.append(f"{where}: 0 registers (ptxas reports at least one for an entry that ran)")
        if not all(isinstance(w, str) for w in e["warnings"]):
            bad.append(f"{where}: `warnings` holds a non-string")
        c = commits.setdefault(e["toolchain"], e["toolchain_commit"])
        if c != e["toolchain_commit"]:
            bad.append(f"{where}: toolchain_commit {e['toolchain_commit']} differs from its toolchain's {c}")
        key = (e["toolchain"], e.get("module"), e["kernel"], e["arch"])
        if key in seen:
            bad.append(f"{where}: listed twice")
        seen.add(key)
    return len(doc["entries"]), bad


def self_test():
    """Bad documents the check must refuse; returns the findings of a check that let one pass."""
    good = {"toolchain": "nvptx64", "toolchain_commit": "e50aa6fba", "kernel": "k", "arch": "sm_90a",
            "registers": 8, "stack_bytes": 0, "spill_bytes": 0, "warnings": []}
    cases = {
        "not an object": [],
        "no entries": {"entry": []},
        "missing key": {"entries": [{k: v for k, v in good.items() if k != "stack_bytes"}]},
        "string count": {"entries": [dict(good, registers="8")]},
        "bool count": {"entries": [dict(good, spill_bytes=False)]},
        "unknown toolchain": {"entries": [dict(good, toolchain="nvcc")]},
        "bad arch": {"entries": [dict(good, arch="90a")]},
        "two commits": {"entries": [good, dict(good, kernel="k2", toolchain_commit="0123456")]},
        "duplicate": {"entries": [good, dict(good)]},
        "warning not a string": {"entries": [dict(good, warnings=[7520])]},
    }
    missed = [name for name, doc in cases.items() if not check(doc)[1]]
    if check({"entries": [good]})[1]:
        missed.append("a good document failed")
    return missed


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "gpu", "results_toolchains.json")
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print(f"FAIL {path}: {e}")
        print("results_toolchains: 0 passed, 1 failed")
        return 1
    n, bad = check(doc)
    bad += [f"self-test: the check let a bad document pass: {m}" for m in self_test()]
    for b in bad:
        print(f"FAIL {path}: {b}")
    by = {}
    for e in doc.get("entries", []) if isinstance(doc, dict) else []:
        if isinstance(e, dict):
            by[e.get("toolchain")] = by.get(e.get("toolchain"), 0) + 1
    print(f"{path}: " + ", ".join(f"{k}: {v}" for k, v in sorted(by.items(), key=str)))
    failing = {b.split(" (")[0].split(":")[0] for b in bad if b.startswith("entry ")}
    print(f"results_toolchains: {n - len(failing)} passed, {len(bad)} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
