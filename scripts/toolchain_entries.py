#!/usr/bin/env python3
"""Writes one toolchain's entries of gpu/results_toolchains.json from a ptxas run (issue 44).

Every entry point of the given PTX modules is assembled alone with `ptxas -v` (the pinned ptxas:
$PTXAS, from `eval "$(bash scripts/ptxas_tools.sh)"`), the way scripts/ptxas_budget.py assembles
it (same module splitting, same arch choice: the entry's budget line in gpu/ptxas-budget.tsv, else
the module's `.target`, `retarget` modules as the budget gate does), and the toolchain's entries of
the JSON file are replaced by what ptxas reported; other toolchains' entries are kept as they are.

Usage:
  toolchain_entries.py [--json FILE] [--toolchain NAME] [--commit HASH] [SPEC...]

  --toolchain  the entries' `toolchain` (default `nvptx64`).
  --commit     their `toolchain_commit`; for nvptx64 the default is the hash in
               `rustc +nightly --version` (the nightly the project's PTX builds use).
  SPEC         PATH[:retarget][:skip=PREFIX] as in ptxas_budget.py; for nvptx64 the default is
               the module list of scripts/check_ptxas_budget.sh, less gpu/gather4's committed
               module (hand-written PTX, no Rust toolchain) and the modules not built (a note).

An entry: {"toolchain", "toolchain_commit", "module", "kernel", "arch", "registers",
"stack_bytes", "spill_bytes" (spill stores + spill loads), "warnings" (the C75xx codes ptxas
printed, sorted, then any warning line without a code)}. Exit 1 when a module does not assemble.

  eval "$(bash scripts/ptxas_tools.sh)"
  bash scripts/check_ptxas_budget.sh                 # builds nothing: run after the PTX builds
  python3 scripts/toolchain_entries.py               # the nvptx64 entries
  python3 scripts/toolchain_entries.py --toolchain Rust-CUDA \\
      --commit ebfe81ba0a4e113a3bfb1e4b050dcc2cc8d26f99 gpu/rust-cuda/target/smemdesc_sm100.ptx
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptxas_budget as pb  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def budget_modules():
    """The `modules=( ... )` list of scripts/check_ptxas_budget.sh."""
    with open(os.path.join(ROOT, "scripts", "check_ptxas_budget.sh"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^modules=\(\n(.*?)^\)", text, re.S | re.M)
    if not m:
        raise SystemExit("toolchain_entries: no modules=( ... ) list in scripts/check_ptxas_budget.sh")
    return [line.strip() for line in m.group(1).splitlines() if line.strip() and not line.strip().startswith("#")]


def nightly_commit():
    out = subprocess.run(["rustc", "+nightly", "--version"], stdout=subprocess.PIPE, text=True, check=True).stdout
    m = re.search(r"\(([0-9a-f]{7,40}) ", out)
    if not m:
        raise SystemExit(f"toolchain_entries: no commit hash in `rustc +nightly --version`: {out.strip()}")
    return m.group(1)


def entries_of(ptxas, spec, budget, work):
    path = spec["path"]
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        lines, entries = pb.split_module(f.read())
    target = pb.module_target(lines)
    if target is None:
        raise SystemExit(f"toolchain_entries: {path}: no .target line")
    out = []
    for i, (name, first, last) in enumerate(entries):
        if spec["skip"] and name.startswith(spec["skip"]):
            continue
        b = budget.get((path, name))
        if b:
            arch = b["arch"]
        elif spec["retarget"] and "tcgen05." in "\n".join(lines[first:last + 1]):
            arch = "sm_100a"
        else:
            arch = target
        text, keep = pb.entry_module(lines, entries, i, arch if spec["retarget"] else None)
        base = os.path.join(work, path.replace("/", "_") + "." + name)
        job = pb.assemble(ptxas, {"module": path, "entry": name, "arch": arch, "text": text,
                                  "keep": keep, "ptx": base + ".ptx", "cubin": base + ".cubin"})
        if "error" in job:
            raise SystemExit(f"toolchain_entries: {path} {name} ({arch}): {job['error']}")
        r = job["result"]
        out.append({"module": path, "kernel": name, "arch": arch, "registers": r["registers"],
                    "stack_bytes": r["stack"], "spill_bytes": r["spill_stores"] + r["spill_loads"],
                    "warnings": sorted(r["codes"]) + r["uncoded"]})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("specs", nargs="*", metavar="SPEC")
    ap.add_argument("--json", default=os.path.join(ROOT, "gpu", "results_toolchains.json"))
    ap.add_argument("--toolchain", default="nvptx64")
    ap.add_argument("--commit")
    a = ap.parse_args()
    ptxas = os.environ.get("PTXAS")
    if not ptxas:
        print("toolchain_entries: PTXAS is not set (eval \"$(bash scripts/ptxas_tools.sh)\")")
        return 2
    specs = a.specs
    if not specs:
        if a.toolchain != "nvptx64":
            print("toolchain_entries: name the PTX modules of a toolchain other than nvptx64")
            return 2
        specs = [s for s in budget_modules() if not s.startswith("gpu/gather4/")]
    commit = a.commit or (nightly_commit() if a.toolchain == "nvptx64" else None)
    if not commit:
        print("toolchain_entries: --commit is required for a toolchain other than nvptx64")
        return 2
    budget, _ = pb.read_budget(os.path.join(ROOT, "gpu", "ptxas-budget.tsv"))
    new = []
    with tempfile.TemporaryDirectory() as work:
        for s in specs:
            spec = pb.parse_spec(s)
            if not os.path.exists(os.path.join(ROOT, spec["path"])):
                print(f"note: {spec['path']}: not built, no entries")
                continue
            got = entries_of(ptxas, spec, budget, work)
            print(f"{spec['path']}: {len(got)} entries")
            new.extend(got)
    doc = {"entries": []}
    if os.path.exists(a.json):
        with open(a.json, encoding="utf-8") as f:
            doc = json.load(f)
    kept = [e for e in doc.get("entries", []) if e.get("toolchain") != a.toolchain]
    doc["entries"] = kept + [{"toolchain": a.toolchain, "toolchain_commit": commit, **e} for e in new]
    with open(a.json, "w", encoding="utf-8") as f:
        # one entry a line: a re-measurement's diff shows the entries that changed
        rest = {k: v for k, v in doc.items() if k != "entries"}
        f.write("{" + "".join(f"{json.dumps(k)}: {json.dumps(v)}, " for k, v in rest.items()) + '"entries": [\n')
        f.write(",\n".join(json.dumps(e) for e in doc["entries"]))
        f.write("\n]}\n")
    print(f"{a.json}: {len(new)} {a.toolchain} entries written, {len(kept)} of other toolchains kept")
    return 0


if __name__ == "__main__":
    sys.exit(main())
