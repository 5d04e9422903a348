#!/usr/bin/env python3
"""Assembles PTX modules with `ptxas -v`, entry by entry, and holds each entry to its line in the
committed budget (gpu/ptxas-budget.tsv): registers, stack frame bytes, spill store and load bytes,
and the ptxas messages with a code (C7508, C7512, C7517-C7520, ...) it may print.

Usage: ptxas_budget.py [--budget FILE] [--update] [--allow-missing] [--work DIR] SPEC...

  SPEC       PATH[:OPTION]... a PTX module (path relative to the repository root, as the budget
             names it). OPTIONS: `retarget` (assemble each entry for its budget line's arch: the
             module's `.target` becomes that arch and its `.version` at least that arch's
             minimum, 8.4 for sm_90a, 8.6 for sm_100a; for a module that is one crate's output
             holding kernels of two architectures); `skip=PREFIX` (entries whose name starts with
             PREFIX are not assembled here: they are checked in another module).
  --budget   the budget file (default gpu/ptxas-budget.tsv).
  --update   write the budget from what ptxas reports now (reasons of existing lines kept; a new
             line that needs one gets `FIXME`, which the check refuses until a person writes it).
  --allow-missing  a module file that does not exist is skipped with a message (its build was
             skipped) instead of failing; its budget lines are not checked.

Needs $PTXAS (scripts/ptxas_tools.sh exports the pinned one); $NVDISASM, when set, writes the
SASS of an entry that gained a frame or a spill beside its cubin.

Each entry is assembled from a module of its own: the module's text without the other entries'
bodies (header, module-scope declarations and `.func`s kept) and `ptxas -e ENTRY`, so every message
belongs to one entry, also those that name no function (C7508 does not). Line numbers in messages
are mapped back to the original module.

A budget line: 9 tab-separated fields, `module entry arch registers stack spill_stores spill_loads
warnings why`; warnings `-` or comma-separated codes; `why` (free text) is required when the line
allows a warning, a frame or a spill. `#` starts a comment line.

Fails (exit 1), one line per finding, naming module, entry and field, when an entry
  - uses more registers than its budget (fewer: a note; the budget is an upper bound),
  - has a stack frame or spills other than its budget (more: a regression; fewer: a stale budget,
    lower it deliberately),
  - gets a coded message its line does not allow, or no longer gets one it allows (stale),
  - prints a warning without a code (no line can allow one),
  - is not in the budget, or a budget line names an entry the module no longer has,
  - does not assemble.
A malformed budget file exits 2. The last line is `ptxas_budget: N passed, M failed` (entries).
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys

# The lowest PTX ISA version a retargeted module gets, per arch: fence.proxy.tensormap (the
# Hopper kernels) needs 8.3, the mixed s8/u8 wgmma and the FP8 mma.sync (issue 43) 8.4, tcgen05
# (sm_100a) 8.6 (PTX ISA, "PTX ISA Version" notes of each).
ARCH_MIN_VERSION = {"sm_90a": (8, 4), "sm_100a": (8, 6)}
ENTRY_RE = re.compile(r"^(?:\.visible\s+|\.weak\s+)?\.entry\s+([A-Za-z_$%][\w$]*)\s*\(")
CODE_RE = re.compile(r"\((C\d{4})\)")
FIELDS = ["module", "entry", "arch", "registers", "stack", "spill_stores", "spill_loads", "warnings", "why"]
BUDGET_HEADER = "# " + "\t".join(FIELDS)


class BudgetError(Exception):
    pass


def parse_spec(text):
    path, *opts = text.split(":")
    spec = {"path": path, "retarget": False, "skip": None}
    for o in opts:
        if o == "retarget":
            spec["retarget"] = True
        elif o.startswith("skip=") and len(o) > 5:
            spec["skip"] = o[5:]
        else:
            raise BudgetError(f"module spec {text!r}: unknown option {o!r} (retarget, skip=PREFIX)")
    return spec


def split_module(text):
    """(lines, [(entry, first line, last line)]): each entry's definition from its `.entry` line
    to the `}` that closes its body (braces counted outside `//` comments)."""
    lines = text.split("\n")
    entries = []
    i = 0
    while i < len(lines):
        m = ENTRY_RE.match(lines[i])
        if not m:
            i += 1
            continue
        depth, opened, j = 0, False, i
        while j < len(lines):
            code = lines[j].split("//", 1)[0]
            depth += code.count("{") - code.count("}")
            opened = opened or "{" in code
            if opened and depth == 0:
                break
            j += 1
        if j == len(lines):
            raise BudgetError(f"entry {m.group(1)}: no closing brace")
        entries.append((m.group(1), i, j))
        i = j + 1
    return lines, entries


def module_target(lines):
    for line in lines:
        m = re.match(r"^\.target\s+(\w+)", line)
        if m:
            return m.group(1)
    return None


def entry_module(lines, entries, index, arch=None):
    """The text of a module holding entry `index` alone, and the original (0-based) line of each
    of its lines. With `arch`: `.target` set to it and `.version` raised to its minimum."""
    keep = []
    name, first, last = entries[index]
    pos = 0
    for k, (_, a, b) in enumerate(entries):
        keep.extend(range(pos, a))
        if k == index:
            keep.extend(range(a, b + 1))
        pos = b + 1
    keep.extend(range(pos, len(lines)))
    out = []
    for n in keep:
        line = lines[n]
        if arch is not None:
            if re.match(r"^\.target\s", line):
                line = f".target {arch}"
            m = re.match(r"^\.version\s+(\d+)\.(\d+)\s*$", line)
            if m and (int(m.group(1)), int(m.group(2))) < ARCH_MIN_VERSION.get(arch, (0, 0)):
                line = ".version %d.%d" % ARCH_MIN_VERSION[arch]
        out.append(line)
    return "\n".join(out), keep


def parse_ptxas(entry, output):
    """Registers, frame, spills and the messages of `ptxas -v` for one entry."""
    r = {"registers": None, "stack": None, "spill_stores": None, "spill_loads": None,
         "codes": {}, "uncoded": []}
    m = re.search(r"Function properties for " + re.escape(entry) + r"\n\s*(\d+) bytes stack frame, "
                  r"(\d+) bytes spill stores, (\d+) bytes spill loads", output)
    if m:
        r["stack"], r["spill_stores"], r["spill_loads"] = (int(g) for g in m.groups())
    m = re.search(r"Compiling entry function '" + re.escape(entry) + r"'.*?Used (\d+) registers", output, re.S)
    if m:
        r["registers"] = int(m.group(1))
    for line in output.splitlines():
        code = CODE_RE.search(line)
        if code:
            r["codes"].setdefault(code.group(1), []).append(line.strip())
        elif re.search(r"\bwarning\b", line, re.I):
            r["uncoded"].append(line.strip())
    return r


def read_budget(path):
    """{(module, entry): line dict}, header comment lines, in file order."""
    budget, header = {}, []
    if not os.path.exists(path):
        return budget, header
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip():
                continue
            if line.startswith("#"):
                if not budget:
                    header.append(line)
                continue
            fields = line.split("\t")
            if len(fields) != len(FIELDS):
                raise BudgetError(f"{path}:{n}: {len(fields)} tab-separated fields, expected "
                                  f"{len(FIELDS)} ({' '.join(FIELDS)})")
            b = dict(zip(FIELDS, fields))
            b["line"] = n
            for k in ("registers", "stack", "spill_stores", "spill_loads"):
                if not re.fullmatch(r"\d+", b[k]):
                    raise BudgetError(f"{path}:{n}: {k} {b[k]!r} is not a byte or register count")
                b[k] = int(b[k])
            if b["arch"] not in ARCH_MIN_VERSION:
                raise BudgetError(f"{path}:{n}: arch {b['arch']!r} (known: {', '.join(ARCH_MIN_VERSION)})")
            if b["warnings"] == "-":
                b["warnings"] = []
            else:
                codes = b["warnings"].split(",")
                if not all(re.fullmatch(r"C\d{4}", c) for c in codes) or len(set(codes)) != len(codes):
                    raise BudgetError(f"{path}:{n}: warnings {b['warnings']!r}: '-' or distinct "
                                      "comma-separated ptxas codes such as C7520")
                b["warnings"] = codes
            needs_why = b["warnings"] or b["stack"] or b["spill_stores"] or b["spill_loads"]
            why = b["why"].strip()
            if needs_why and (why in ("", "-") or why.upper().startswith("FIXME")):
                raise BudgetError(f"{path}:{n}: {b['entry']} allows "
                                  f"{describe(b)}: its `why` field must say why (it is {why!r})")
            key = (b["module"], b["entry"])
            if key in budget:
                raise BudgetError(f"{path}:{n}: {b['module']} {b['entry']} is budgeted twice "
                                  f"(also line {budget[key]['line']})")
            budget[key] = b
    return budget, header


def describe(b):
    parts = []
    if b["warnings"]:
        parts.append(",".join(b["warnings"]))
    if b["stack"]:
        parts.append(f"a {b['stack']}-byte frame")
    if b["spill_stores"] or b["spill_loads"]:
        parts.append(f"spills ({b['spill_stores']}/{b['spill_loads']} bytes)")
    return " and ".join(parts)


def budget_line(module, entry, arch, r, why):
    codes = ",".join(sorted(r["codes"])) or "-"
    return "\t".join([module, entry, arch, str(r["registers"]), str(r["stack"]),
                      str(r["spill_stores"]), str(r["spill_loads"]), codes, why])


def assemble(ptxas, job):
    """Runs ptxas on one entry's module; returns the job with `result` or `error`."""
    with open(job["ptx"], "w", encoding="utf-8") as f:
        f.write(job["text"])
    cmd = [ptxas, f"-arch={job['arch']}", "-v", "-e", job["entry"], job["ptx"], "-o", job["cubin"]]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    keep = job["keep"]

    def orig_line(m):
        n = int(m.group(1))
        return "line %d" % (keep[n - 1] + 1 if 0 < n <= len(keep) else n)

    out = re.sub(r"line (\d+)", orig_line, p.stdout.replace(job["ptx"], job["module"]))
    job["output"] = out
    if p.returncode != 0:
        errors = [l for l in out.splitlines() if "error" in l or "fatal" in l]
        job["error"] = "ptxas exit %d:\n    " % p.returncode + "\n    ".join(errors[:12])
        return job
    r = parse_ptxas(job["entry"], out)
    if None in (r["registers"], r["stack"]):
        job["error"] = "no resource summary in ptxas -v's output:\n    " + "\n    ".join(out.splitlines()[:12])
    job["result"] = r
    return job


def sass_note(job):
    """Where the SASS of a failing entry is (nvdisasm, when $NVDISASM is set), with its LDL/STL count."""
    dis = os.environ.get("NVDISASM")
    if not dis or not os.path.exists(job["cubin"]):
        return ""
    p = subprocess.run([dis, "-c", job["cubin"]], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if p.returncode != 0:
        return ""
    path = job["cubin"][: -len(".cubin")] + ".sass"
    with open(path, "w", encoding="utf-8") as f:
        f.write(p.stdout)
    n = len(re.findall(r"\b(?:LDL|STL)\b", p.stdout))
    return f" (SASS: {path}, {n} LDL/STL)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("specs", nargs="+", metavar="SPEC")
    ap.add_argument("--budget", default="gpu/ptxas-budget.tsv")
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--allow-missing", action="store_true")
    ap.add_argument("--work", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "ptxas-budget"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args()
    try:
        specs = [parse_spec(s) for s in a.specs]
        budget, header = read_budget(a.budget)
    except BudgetError as e:
        print(f"ptxas_budget: {e}")
        return 2
    ptxas = os.environ.get("PTXAS")
    if not ptxas:
        print("ptxas_budget: PTXAS is not set (eval \"$(bash scripts/ptxas_tools.sh)\")")
        return 2

    fails, notes, jobs, checked, module_entries = [], [], [], [], {}
    shutil.rmtree(a.work, ignore_errors=True)
    spec_paths = {s["path"] for s in specs}
    for key, b in budget.items():
        if b["module"] not in spec_paths:
            fails.append(f"{b['module']} {b['entry']}: budget line {b['line']} names a module that is "
                         "not assembled (scripts/check_ptxas_budget.sh lists the modules)")
    for s in specs:
        path = s["path"]
        if not os.path.exists(path):
            if a.allow_missing:
                notes.append(f"{path}: not built, skipped (its budget lines are not checked)")
                continue
            fails.append(f"{path}: the module is not there (was its build step run?)")
            continue
        checked.append(path)
        with open(path, encoding="utf-8") as f:
            lines, entries = split_module(f.read())
        target = module_target(lines)
        if target is None:
            fails.append(f"{path}: no .target line (not a PTX module?)")
            continue
        names = [e[0] for e in entries]
        module_entries[path] = [n for n in names if not (s["skip"] and n.startswith(s["skip"]))]
        for (mod, entry), b in budget.items():
            if mod == path and entry not in names:
                fails.append(f"{path} {entry}: budget line {b['line']} names an entry the module "
                             "does not define (removed or renamed? delete or rename the line)")
            elif mod == path and s["skip"] and entry.startswith(s["skip"]):
                fails.append(f"{path} {entry}: budget line {b['line']} names an entry that is "
                             f"checked elsewhere (skip={s['skip']}): delete the line")
        workdir = os.path.join(a.work, path.replace("/", "_"))
        os.makedirs(workdir, exist_ok=True)
        for i, (name, first, _) in enumerate(entries):
            if s["skip"] and name.startswith(s["skip"]):
                continue
            b = budget.get((path, name))
            if b:
                arch = b["arch"]
            elif s["retarget"] and "tcgen05." in "\n".join(lines[first:entries[i][2] + 1]):
                arch = "sm_100a"
            else:
                arch = target
            if b and not s["retarget"] and arch != target:
                fails.append(f"{path} {name}: budget arch {arch}, the module's .target is {target} "
                             "(only a `retarget` module is assembled for another arch)")
                continue
            text, keep = entry_module(lines, entries, i, arch if s["retarget"] else None)
            base = os.path.join(workdir, name)
            jobs.append({"module": path, "entry": name, "arch": arch, "text": text, "keep": keep,
                         "ptx": base + ".ptx", "cubin": base + ".cubin", "budget": b})

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        done = list(pool.map(lambda j: assemble(ptxas, j), jobs))

    passed = 0
    results = {}
    for j in done:
        where = f"{j['module']} {j['entry']} ({j['arch']})"
        if "error" in j:
            fails.append(f"{where}: does not assemble: {j['error']}")
            continue
        r, b = j["result"], j["budget"]
        results[(j["module"], j["entry"])] = (j["arch"], r)
        bad = []
        for line in r["uncoded"]:
            bad.append(f"ptxas warned without a code (no budget line can allow it; fix the cause): {line}")
        if b is None:
            fails.append(f"{where}: not in the budget; a new entry gets a line, e.g.\n    "
                         + budget_line(j["module"], j["entry"], j["arch"], r, "-" if not (
                             r["codes"] or r["stack"] or r["spill_stores"] or r["spill_loads"]) else "FIXME: why"))
            fails.extend(f"{where}: {x}" for x in bad)
            continue
        if r["registers"] > b["registers"]:
            bad.append(f"registers {r['registers']} > budget {b['registers']}")
        elif r["registers"] < b["registers"]:
            notes.append(f"{where}: registers {r['registers']} < budget {b['registers']} (the budget can come down)")
        sass = ""
        for field, label in (("stack", "stack frame"), ("spill_stores", "spill stores"), ("spill_loads", "spill loads")):
            if r[field] > b[field]:
                sass = sass or sass_note(j)
                bad.append(f"{label} {r[field]} bytes > budget {b[field]}{sass}")
            elif r[field] < b[field]:
                bad.append(f"{label} {r[field]} bytes < budget {b[field]}: a stale budget, lower it")
        for code, lines in sorted(r["codes"].items()):
            if code not in b["warnings"]:
                bad.append(f"ptxas {code} is not allowed by the budget ({len(lines)}x): {lines[0]}")
        for code in b["warnings"]:
            if code not in r["codes"]:
                bad.append(f"the budget allows {code} but ptxas no longer reports it: a stale budget, remove it")
        if bad:
            fails.extend(f"{where}: {x}" for x in bad)
        else:
            passed += 1

    for path in checked:
        n = len(module_entries[path])
        lines_here = [k for k in budget if k[0] == path]
        print(f"{path}: {n} entries assembled, {len(lines_here)} budget lines")
    for n in notes:
        print(f"note: {n}")

    if a.update:
        broken = [f for f in fails if ": does not assemble: " in f or ": the module is not there" in f]
        for f in broken:
            print(f"FAIL {f}")
        rc = write_budget(a.budget, header, budget, specs, checked, module_entries, results)
        return 1 if broken else rc

    for f in fails:
        print(f"FAIL {f}")
    if fails:
        print("ptxas budget: see CONTRIBUTING.md \"The ptxas budget\" (how to read a failure, how to "
              "update the budget: scripts/check_ptxas_budget.sh --update)")
    print(f"ptxas_budget: {passed} passed, {len(fails)} failed")
    return 1 if fails else 0


def write_budget(path, header, budget, specs, checked, module_entries, results):
    head = header or [BUDGET_HEADER]
    out = list(head)
    fixme = 0
    for s in specs:
        mod = s["path"]
        if mod not in checked:
            out.extend("\t".join(str(v) if not isinstance(v, list) else (",".join(v) or "-")
                                 for v in (b[k] for k in FIELDS))
                       for (m, _), b in budget.items() if m == mod)
            continue
        for entry in module_entries[mod]:
            if (mod, entry) not in results:
                continue
            arch, r = results[(mod, entry)]
            needs = r["codes"] or r["stack"] or r["spill_stores"] or r["spill_loads"]
            old = budget.get((mod, entry))
            why = "-"
            if needs:
                why = old["why"] if old and old["why"].strip() not in ("", "-") else "FIXME: why"
                fixme += why.startswith("FIXME")
            out.append(budget_line(mod, entry, arch, r, why))
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    print(f"ptxas_budget: wrote {path} ({len(out) - len(head)} lines)")
    if fixme:
        print(f"ptxas_budget: {fixme} line(s) say FIXME: write why each may have its frame, spill or "
              "warning (the check refuses FIXME)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
