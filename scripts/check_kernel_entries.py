#!/usr/bin/env python3
"""Coverage gate of gpu/'s device code (issue 45 item 2(b)): every kernel entry of
gpu/rust-kernel/src is either recorded in a results file or launched by the kernels crate, so
gpu/ holds no unused experiment variant.

Entries are found in the Rust sources, no build needed: `extern "ptx-kernel" fn NAME` (with its
`#[export_name = "..."]` where given) and the entries that entry macros generate (a `macro_rules!`
whose body holds an `extern "ptx-kernel" fn`, named by its first identifier argument after the
rule's keywords, behind the macro's `concat!("prefix", stringify!(..))` export name where it has
one), including macros handed to a list macro (`for_each_class!(check_kernel)`: one entry per
`$m!(..)` line of the list). `--ptx FILE` compares that set with the `.entry` lines of a build
(`bash gpu/rust-kernel/build_ptx.sh` writes gpu/rust-kernel/out/kernels.ptx).

The other Rust device crates of gpu/ (OTHER below: the tmem skeleton, the cuda-oxide and
Rust-CUDA comparison kernels, `#[kernel] fn NAME` for those two toolchains) are compile-only or
toolchain comparisons: their record is gpu/results_toolchains.json, so each of their entries
must be there under a `module` in that crate's folder (or in a record or allowed, as above).
gpu/'s CUDA C++ (gpu/kernels, gpu/fragments) is the check program's and its tools' own, launched
from their host code, and is not gated.

An entry is covered when
  - its name (a whole identifier) is a string, or in a string, of a gpu/results*.json record,
    inventory sections aside (results_toolchains.json `entries` and results_attention.json
    `info`: they list every built entry's ptxas figures, so they would cover anything);
  - or it is a check class's kernel (`check_<class>`, `<class>` a `name` in results.json's or
    results_rust.json's `classes`), or a TMA reduction kernel (`reduce_<op>`, `<op>` a `kind`
    in results_tma_modes.json's `reduce`);
  - or the kernels crate (kernels/src) names it (it launches entries by name);
  - or ALLOW below names it with a reason (a negative control and the check that uses it, a
    harness probe and the record it feeds, an entry timed under a results key that is not its
    name, or an entry pending the issue-47 run). A reason with a `file:key` must point at a key
    that exists, and an allowed entry that no longer exists is a finding too.

Last line: `kernel entries: N covered, M not` (offenders listed above it). Exit 1 on any.

  python3 scripts/check_kernel_entries.py [--ptx gpu/rust-kernel/out/kernels.ptx] [--self-test]
"""
import glob
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "gpu", "rust-kernel", "src")
KERNELS_CRATE = os.path.join(ROOT, "kernels", "src")
INVENTORY = {("results_toolchains.json", "entries"), ("results_attention.json", "info")}
# Rust device crates of gpu/ besides rust-kernel: source folder -> the folder the toolchain
# record's `module` of their entries starts with.
OTHER = {
    os.path.join("gpu", "tmem-skeleton", "src"): "gpu/tmem-skeleton",
    os.path.join("gpu", "cuda-oxide", "kernel", "src"): "gpu/cuda-oxide",
    os.path.join("gpu", "rust-cuda", "kernels", "src"): "gpu/rust-cuda",
}

PENDING = "pending issue-47 run (gpu/issue47_pending_run.sh; the lead removes the losers)"
# name -> (reason, [file:key the reason relies on, checked to exist])
ALLOW = {
    # Issue 47: a GPU run deciding these is in flight.
    "gemm_conv_ov_rust": (PENDING + ": the overlapped convolution (its 2026-12-07 smoke timed out: gpu/conv_diag_run.sh)", []),
    "gemm_conv_ov2_rust": (PENDING + ": the overlapped convolution (its 2026-12-07 smoke timed out: gpu/conv_diag_run.sh)", []),
    "gemm_conv_ov_cl21_rust": (PENDING + ": the overlapped convolution (its 2026-12-07 smoke timed out: gpu/conv_diag_run.sh)", []),
    "gemm_conv_ov_n128_rust": (PENDING + ": the overlapped convolution (its 2026-12-07 smoke timed out: gpu/conv_diag_run.sh)", []),
    "pdl_step": (PENDING + ": the PDL pair; its chain is recorded in results_pdl.json rows",
                 ["results_pdl.json:rows"]),
    # Negative controls: the check that uses them.
    "gemm_conv_fprop_control_rust": (
        "negative control of the convolution check (gpu/src/bin/rust_kernels/conv.rs: the taps' "
        "offsets swapped must mismatch)", []),
    "attn_fwd_d128_rust": (
        "the good half of the negative control attn_fwd_d128_badpair_rust (variant 1 against "
        "variant 0, gpu/attention_same_process.py negative_control)",
        ["results_attention.json:negative_controls"]),
    # Harness probes: the record they feed.
    "im2col_probe": ("probe of the im2col walk (gpu/src/bin/rust_kernels/im2col_walk.rs)",
                     ["results_tma_modes.json:im2col_walk"]),
    "grouped_map_probe": ("probe of the grouped GEMM's per-group tensor maps "
                          "(gpu/src/bin/rust_kernels/grouped.rs)",
                          ["results_grouped.json:map_identity"]),
    # Timed in the same process under a key that is not the entry's name.
    "attn_fwd_d64_rust": ("variant 0, timed as `ours_serial` for d = 64",
                          ["results_attention.json:configs"]),
    "attn_fwd_d64_causal_rust": ("variant 0, timed as `ours_serial` for d = 64",
                                 ["results_attention.json:configs"]),
    "attn_fwd_d128_pf_rust": ("variant 6, timed as `ours_serial` for d = 128",
                              ["results_attention.json:configs"]),
    "attn_fwd_d128_causal_pf_rust": ("variant 6, timed as `ours_serial` for d = 128",
                                     ["results_attention.json:configs"]),
    "attn_fwd_d64_ov_rust": ("variant 2, timed as `ours_overlapped`",
                             ["results_attention.json:configs"]),
    "attn_fwd_d64_causal_ov_rust": ("variant 2, timed as `ours_overlapped`",
                                    ["results_attention.json:configs"]),
    "attn_fwd_d128_ov_rust": ("variant 2, timed as `ours_overlapped`",
                              ["results_attention.json:configs"]),
    "attn_fwd_d128_ov_cl2_rust": ("variant 14, timed as `ours_cluster2`",
                                  ["results_attention.json:configs"]),
}

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
# A string or char literal (skipped when matching brackets).
STRING = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])\'')


def strip_comments(text):
    """Drops `//` comments (the kernels' sources hold no `//` inside strings but URLs in docs,
    which are comments themselves) and `/* */` blocks."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def balanced(text, i):
    """The end (exclusive) of the bracketed group opening at text[i]."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = []
    j = i
    while j < len(text):
        c = text[j]
        lit = STRING.match(text, j) if c in "\"'" else None
        if lit:
            j = lit.end()
            continue
        j += 1
        if c in pairs:
            stack.append(pairs[c])
        elif stack and c == stack[-1]:
            stack.pop()
            if not stack:
                return j
    raise ValueError("unbalanced group")


def entries_of_sources(files):
    """{entry name: "file: how"} of every kernel entry in the given {path: text}."""
    macros, spans = {}, {}
    for path, text in files.items():
        for m in re.finditer(r"macro_rules!\s*(" + IDENT + r")\s*\{", text):
            end = balanced(text, m.end() - 1)
            macros[m.group(1)] = (path, text[m.end():end - 1])
            spans.setdefault(path, []).append((m.start(), end))
    found = {}

    def outside(path, pos):
        return all(not (a <= pos < b) for a, b in spans.get(path, []))

    # Direct entries.
    for path, text in files.items():
        for m in re.finditer(r'extern\s+"ptx-kernel"\s+fn\s+(' + IDENT + r")", text):
            if not outside(path, m.start()):
                continue
            before = text[max(0, m.start() - 300):m.start()]
            exp = re.findall(r'#\[export_name\s*=\s*"(' + IDENT + r')"\]', before)
            found[exp[-1] if exp else m.group(1)] = f"{os.path.basename(path)}: fn"
        # cuda-oxide's and Rust-CUDA's kernels: `#[kernel]` on a fn (other attributes between).
        pat = r"#\[kernel\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([a-z]+\))?\s+)?(?:unsafe\s+)?fn\s+("
        for m in re.finditer(pat + IDENT + r")", text):
            if outside(path, m.start()):
                found[m.group(1)] = f"{os.path.basename(path)}: #[kernel] fn"
    # Entry macros: name template and rule keywords.
    entry_macros = {}
    for name, (path, body) in macros.items():
        if not re.search(r'extern\s+"ptx-kernel"\s+fn', body):
            continue
        pre = re.search(r'concat!\(\s*"([^"]*)"\s*,\s*stringify!\(\s*\$', body)
        keywords = set(re.findall(r"\(\s*@?(" + IDENT + r")\s*,", body))
        entry_macros[name] = (pre.group(1) if pre else "", keywords)

    def first_arg(args, keywords):
        for tok in re.findall(r"@?" + IDENT, args):
            if tok.startswith("@") or tok in keywords:
                continue
            return tok
        return None

    def invocations(path, text, macro):
        for m in re.finditer(r"(?<![A-Za-z0-9_$])" + macro + r"!\s*([(\[{])", text):
            if outside(path, m.start()):
                yield m, text[m.end():balanced(text, m.end() - 1) - 1]

    for macro, (prefix, keywords) in entry_macros.items():
        for path, text in files.items():
            for _, args in invocations(path, text, macro):
                arg = first_arg(args, keywords)
                if arg:
                    found[prefix + arg] = f"{os.path.basename(path)}: {macro}!"
    # List macros handed an entry macro: `$m!(NAME, ..)` lines of the list's body.
    for lname, (_, lbody) in macros.items():
        if not re.search(r"\$(" + IDENT + r"):ident", lbody):
            continue
        lines = re.findall(r"\$" + IDENT + r"!\s*\(\s*(" + IDENT + r")", lbody)
        for path, text in files.items():
            for _, args in invocations(path, text, lname):
                arg = args.strip()
                if arg in entry_macros:
                    prefix = entry_macros[arg][0]
                    for n in lines:
                        found[prefix + n] = f"{os.path.basename(path)}: {lname}!({arg})"
    return found


def strings_of(obj, out, top):
    """Every identifier inside the strings (keys too) of a JSON value, under their top key."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.setdefault(top, set()).update(re.findall(IDENT, k))
            strings_of(v, out, top)
    elif isinstance(obj, list):
        for v in obj:
            strings_of(v, out, top)
    elif isinstance(obj, str):
        out.setdefault(top, set()).update(re.findall(IDENT, obj))


def recorded(results_dir):
    """(identifiers of the records, check classes, reduction kinds, {file: top-level keys})."""
    names, classes, kinds, keys = set(), set(), set(), {}
    for f in sorted(glob.glob(os.path.join(results_dir, "results*.json"))):
        base = os.path.basename(f)
        with open(f) as fh:
            doc = json.load(fh)
        keys[base] = set(doc) if isinstance(doc, dict) else set()
        if not isinstance(doc, dict):
            continue
        for top, v in doc.items():
            if (base, top) in INVENTORY:
                continue
            found = {}
            strings_of(v, found, top)
            names.update(found.get(top, set()))
        for c in doc.get("classes", []) if base in ("results.json", "results_rust.json") else []:
            if isinstance(c, dict) and isinstance(c.get("name"), str):
                classes.add(c["name"])
        if base == "results_tma_modes.json":
            for r in doc.get("reduce", []):
                if isinstance(r, dict) and isinstance(r.get("kind"), str):
                    kinds.add(r["kind"])
    return names, classes, kinds, keys


def toolchain_modules(results_dir):
    """{kernel: [module]} of results_toolchains.json's entries."""
    out = {}
    path = os.path.join(results_dir, "results_toolchains.json")
    if os.path.exists(path):
        with open(path) as fh:
            doc = json.load(fh)
        for e in doc.get("entries", []) if isinstance(doc, dict) else []:
            if isinstance(e, dict) and isinstance(e.get("kernel"), str):
                out.setdefault(e["kernel"], []).append(str(e.get("module", "")))
    return out


def judge_other(entries, folder, modules, rec, allow):
    """As `judge`, for a crate whose record is the toolchain comparison: an entry is covered by
    a results_toolchains.json entry whose `module` is in `folder` too."""
    tool = {n for n in entries if any(m.startswith(folder) for m in modules.get(n, []))}
    ok, bad, findings = judge({n: w for n, w in entries.items() if n not in tool}, rec, set(),
                              {n: r for n, r in allow.items() if n in entries})
    return sorted(ok + sorted(tool)), bad, findings


def crate_names(crate_dir):
    names = set()
    for f in glob.glob(os.path.join(crate_dir, "**", "*.rs"), recursive=True):
        with open(f) as fh:
            names.update(re.findall(IDENT, fh.read()))
    return names


def judge(entries, rec, crate, allow):
    """([covered], [(name, where) not covered], [findings about the allow-list])."""
    names, classes, kinds, keys = rec
    ok, bad, findings = [], [], []
    for name in sorted(entries):
        if name in names or name in crate:
            ok.append(name)
        elif name.startswith("check_") and name[len("check_"):] in classes:
            ok.append(name)
        elif name.startswith("reduce_") and name[len("reduce_"):] in kinds:
            ok.append(name)
        elif name in allow:
            reason, refs = allow[name]
            for ref in refs:
                f, k = ref.split(":")
                if k not in keys.get(f, set()):
                    findings.append(f"{name}: allowed for `{reason}` but {f} has no `{k}`")
            ok.append(name)
        else:
            bad.append((name, entries[name]))
    for name in sorted(set(allow) - set(entries)):
        findings.append(f"{name}: on the allow-list but no such entry (drop its line)")
    return ok, bad, findings


def read_sources(src_dir):
    files = {}
    for f in sorted(glob.glob(os.path.join(src_dir, "*.rs"))):
        with open(f) as fh:
            files[f] = strip_comments(fh.read())
    return files


def self_test():
    """The gate must find macro-made entries and must fail an unrecorded one."""
    src = {"a.rs": strip_comments(
        'macro_rules! e { (fast, $n:ident) => { e!($n); }; ($n:ident) => {\n'
        '  #[no_mangle] pub unsafe extern "ptx-kernel" fn $n() {} }; }\n'
        'macro_rules! p { ($o:ident) => {\n'
        '  #[export_name = concat!("reduce_", stringify!($o))]\n'
        '  pub unsafe extern "ptx-kernel" fn $o() {} }; }\n'
        'macro_rules! list { ($m:ident) => { $m!(one, 1); $m!(two, 2); }; }\n'
        'e!(fast, k_fast); e!(k_plain); p!(add);\n'
        'macro_rules! c { ($n:ident, $x:tt) => { #[export_name = concat!("check_", stringify!($n))]\n'
        '  pub unsafe extern "ptx-kernel" fn kernel() {} }; }\n'
        'list!(c);\n'
        '#[export_name = "d_renamed"] pub unsafe extern "ptx-kernel" fn d() {}\n'
        '// pub unsafe extern "ptx-kernel" fn commented() {}\n')}
    got = entries_of_sources(src)
    want = {"k_fast", "k_plain", "reduce_add", "check_one", "check_two", "d_renamed"}
    assert set(got) == want, f"self-test: entries {sorted(got)}, want {sorted(want)}"
    rec = ({"k_fast"}, {"one"}, {"add"}, {"r.json": {"x"}})
    _, bad, findings = judge(got, rec, {"d_renamed"}, {"check_two": ("why", ["r.json:x"]),
                                                       "gone": ("why", [])})
    assert [b for b, _ in bad] == ["k_plain"], f"self-test: offenders {bad}"
    assert len(findings) == 1 and findings[0].startswith("gone"), findings
    _, _, findings = judge(got, rec, {"d_renamed", "k_plain"}, {"check_two": ("why", ["r.json:y"])})
    assert len(findings) == 1 and "no `y`" in findings[0], findings
    other = entries_of_sources({"k.rs": strip_comments(
        '#[kernel]\npub unsafe fn oxide_a() {}\n#[kernel]\n#[allow(x)]\nfn oxide_b() {}\n'
        '// #[kernel] fn oxide_c() {}\n')})
    assert set(other) == {"oxide_a", "oxide_b"}, f"self-test: #[kernel] entries {sorted(other)}"
    mods = {"oxide_a": ["gpu/x (a build)"], "oxide_b": ["gpu/y/out.ptx"]}
    ok, bad, _ = judge_other(other, "gpu/x", mods, (set(), set(), set(), {}), {})
    assert ok == ["oxide_a"] and [b for b, _ in bad] == ["oxide_b"], (ok, bad)


def main(argv):
    self_test()
    if "--self-test" in argv:
        print("check_kernel_entries: self-test passed")
        return 0
    entries = entries_of_sources(read_sources(SRC))
    problems = 0
    if "--ptx" in argv:
        with open(argv[argv.index("--ptx") + 1]) as fh:
            built = set(re.findall(r"^\.visible \.entry (" + IDENT + r")", fh.read(), re.M))
        for n in sorted(built - set(entries)):
            print(f"in the PTX, not found in the sources: {n}")
            problems += 1
        for n in sorted(set(entries) - built):
            print(f"found in the sources, not in the PTX: {n}")
            problems += 1
        print(f"sources vs PTX: {len(entries)} entries parsed, {len(built)} built")
    rec = recorded(os.path.join(ROOT, "gpu"))
    everything = set(entries)
    ok, bad, findings = judge(entries, rec, crate_names(KERNELS_CRATE),
                              {n: r for n, r in ALLOW.items() if n in entries})
    modules = toolchain_modules(os.path.join(ROOT, "gpu"))
    for src, folder in OTHER.items():
        found = entries_of_sources(read_sources(os.path.join(ROOT, src)))
        everything.update(found)
        o_ok, o_bad, o_findings = judge_other(found, folder, modules, rec, ALLOW)
        ok += o_ok
        bad += [(n, f"{src}: {w}") for n, w in o_bad]
        findings += o_findings
    for name in sorted(set(ALLOW) - everything):
        findings.append(f"{name}: on the allow-list but no such entry (drop its line)")
    for name, where in bad:
        print(f"NOT COVERED {name} ({where}): in no gpu/results*.json record (an OTHER crate's: "
              "no results_toolchains.json entry of its module), not in kernels/src, not allowed "
              "in scripts/check_kernel_entries.py")
    for f in findings:
        print(f"ALLOW-LIST {f}")
    print(f"kernel entries: {len(ok)} covered, {len(bad)} not")
    return 1 if bad or findings or problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
