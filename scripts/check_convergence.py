#!/usr/bin/env python3
"""Refuses PTX where a warp-collective `.aligned` instruction runs under a lane-divergent branch.

Usage: check_convergence.py [--allow ENTRY=REASON ...] MODULE.ptx ...
       check_convergence.py --self-test

Why: `bar.sync`, `stmatrix`, `ldmatrix`, `wgmma`, `setmaxnreg`, `mma.sync` and the other
`.aligned` instructions must be executed by every thread of the warp at the same instruction
(PTX ISA, "barrier", ".aligned"). Rust's `asm!` is not `convergent` to LLVM, so after a branch on
the lane (`if t == 0 { bulk_wait }`) LLVM may copy the code that follows into both arms (tail
duplication): lane 0 then reaches the chunk's `bar.sync` at one instruction, lanes 1..31 at a
copy. ptxas says nothing; on the H100 every overlapped convolution of issue 47 hung on it.

How, per entry:
  1. the control-flow graph of the PTX (labels, `bra`, `ret`/`exit`);
  2. which registers vary across the lanes of a warp: `%tid.x` and `%laneid` and what is
     computed from them, except the warp-uniform parts (`tid >> k` and `tid / c` with `k` >= 5,
     `c` a multiple of 32, and `bfe` from bit 5 up), the results of per-lane instructions
     (`elect`, `shfl`, `atom`, `mbarrier.try_wait`, ...), and (sync dependence) every register
     written inside a lane-divergent region, to a fixed point;
  3. a lane-divergent branch is `@%p bra` on a lane-varying `%p`; its region is every block
     reachable from its two successors before their immediate post-dominator (where the lanes
     meet again); a block ending in `trap` is post-dominated by every block (a lane there
     aborts the grid and runs nothing more, as LLVM's `unreachable`), so a checked form's
     `else { trap() }` inside a one-thread role does not stretch the role's region to the exit;
  4. an `.aligned` instruction (or `bar.sync`/`bar.arrive`/`bar.red`, `.aligned` by definition)
     inside a region, or predicated on a lane-varying predicate, is reported with its line.
The analysis over-approximates (a register is lane-varying wherever any write of it is): a
report is a place to read, and an entry that is right by an argument the tool cannot see takes
`--allow ENTRY=REASON`.
"""
import re
import sys

ALIGNED_BARE = ("bar.sync", "bar.arrive", "bar.red", "barrier.sync.aligned")
PER_LANE = ("elect.sync", "shfl.", "atom.", "match.", "mbarrier.try_wait", "mbarrier.test_wait",
            "ld.volatile", "ld.relaxed", "ld.acquire")
WARP_UNIFORM_RESULT = ("vote.sync.ballot", "vote.sync.all", "vote.sync.any", "vote.sync.uni",
                       "redux.sync", "activemask")
SPECIAL = {
    "%tid.x": "T", "%laneid": "L", "%tid.y": "W", "%tid.z": "W", "%warpid": "W",
    "%clock": "W", "%clock64": "W", "%globaltimer": "W", "%lanemask_eq": "L",
    "%lanemask_lt": "L", "%lanemask_le": "L", "%lanemask_gt": "L", "%lanemask_ge": "L",
}
# U: the same in every lane of the CTA; W: the same in every lane of a warp; T: %tid.x or a
# lane-preserving function of it (its low 5 bits are the lane); L: varies across a warp's lanes.
ORDER = {"U": 0, "W": 1, "T": 2, "L": 3}
REG = re.compile(r"%[A-Za-z_][A-Za-z0-9_]*(?:\.[xyz])?")


def join(a, b):
    return a if ORDER[a] >= ORDER[b] else b


def entries(text):
    """(name, first line number, body lines) of every `.entry`."""
    lines = text.split("\n")
    out = []
    i = 0
    while i < len(lines):
        m = re.match(r"\s*(?:\.visible\s+)?\.entry\s+([A-Za-z0-9_$]+)", lines[i])
        if not m:
            i += 1
            continue
        name = m.group(1)
        while i < len(lines) and lines[i].strip() != "{":
            i += 1
        start = i + 1
        depth = 0
        j = i
        while j < len(lines):
            s = lines[j].strip()
            if s == "{":
                depth += 1
            elif s == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        out.append((name, start + 1, lines[start:j]))
        i = j + 1
    return out


def statements(body, first_line):
    """(line, label or None, statement) in order; inline-asm braces become separators."""
    out = []
    for k, raw in enumerate(body):
        line = first_line + k
        s = raw.split("//")[0].strip()
        if not s:
            continue
        m = re.match(r"^(\$?[A-Za-z0-9_$]+):\s*(.*)$", s)
        if m and not s.startswith("@"):
            out.append((line, m.group(1), None))
            s = m.group(2)
        for part in split_statements(s):
            if not part.startswith((".reg", ".shared", ".local", ".pragma")):
                out.append((line, None, part))
    return out


def split_statements(s):
    """The statements of a line: `;` ends one; a brace where a statement starts or ends is an
    inline-asm scope, any other (a vector operand, `{%r1, %r2}`) is part of the statement."""
    out = []
    cur = ""
    for ch in s:
        if ch in "{}" and not cur.strip():
            cur = ""
        elif ch == ";":
            if cur.strip():
                out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse_inst(stmt):
    """(guard register or None, opcode, operand strings)."""
    guard = None
    m = re.match(r"^@(!?)(%?[A-Za-z0-9_]+)\s+(.*)$", stmt)
    if m:
        guard = m.group(2) if m.group(2).startswith("%") else "local"
        stmt = m.group(3)
    parts = stmt.split(None, 1)
    op = parts[0]
    ops = []
    if len(parts) > 1:
        depth = 0
        cur = ""
        for ch in parts[1]:
            if ch in "[{":
                depth += 1
            elif ch in "]}":
                depth -= 1
            if ch == "," and depth == 0:
                ops.append(cur.strip())
                cur = ""
            else:
                cur += ch
        if cur.strip():
            ops.append(cur.strip())
    return guard, op, ops


def blocks_of(stmts):
    """Basic blocks: list of dicts with label, insts [(line, guard, op, ops)], succs."""
    blocks = [{"label": None, "insts": [], "succ": []}]
    for line, label, stmt in stmts:
        if label is not None:
            if blocks[-1]["insts"] or blocks[-1]["label"] is not None:
                blocks.append({"label": label, "insts": [], "succ": []})
            else:
                blocks[-1]["label"] = label
            continue
        g, op, ops = parse_inst(stmt)
        blocks[-1]["insts"].append((line, g, op, ops))
        if op.startswith("bra") or op in ("ret", "exit") or op.startswith("trap"):
            blocks.append({"label": None, "insts": [], "succ": []})
    blocks = [b for b in blocks if b["insts"] or b["label"] is not None]
    index = {b["label"]: i for i, b in enumerate(blocks) if b["label"]}
    exit_node = len(blocks)
    for i, b in enumerate(blocks):
        last = b["insts"][-1] if b["insts"] else None
        fall = i + 1 if i + 1 < len(blocks) else exit_node
        if last and last[2].startswith("bra"):
            target = index[last[3][0]]
            b["succ"] = [target] + ([fall] if last[1] else [])
        elif last and last[2] in ("ret", "exit"):
            b["succ"] = [exit_node] + ([fall] if last[1] else [])
        elif last and last[2].startswith("trap") and not last[1]:
            b["succ"] = [exit_node]
        else:
            b["succ"] = [fall]
    return blocks, exit_node


def traps(blocks):
    """The blocks that end in an unpredicated `trap`: a thread there aborts the grid, so it
    reaches nothing after them (LLVM's `unreachable`)."""
    return {i for i, b in enumerate(blocks)
            if b["insts"] and b["insts"][-1][2].startswith("trap") and not b["insts"][-1][1]}


def post_dominators(blocks, exit_node):
    """Immediate post-dominators. A trapping block is post-dominated by every block (its
    post-dominator set stays the full set): a lane that traps never runs another instruction,
    so it meets its warp nowhere and splits it nowhere, and a branch whose other side traps
    (`let Ok(d) = .. else { trap() }`) is not a lane-divergent region down to the exit."""
    n = exit_node + 1
    succ = [b["succ"] for b in blocks] + [[]]
    full = set(range(n))
    pdom = [set(full) for _ in range(n)]
    pdom[exit_node] = {exit_node}
    trapping = traps(blocks)
    changed = True
    while changed:
        changed = False
        for i in range(exit_node - 1, -1, -1):
            if i in trapping:
                continue
            ss = [pdom[s] for s in succ[i]]
            new = set.intersection(*ss) if ss else set()
            new = new | {i}
            if new != pdom[i]:
                pdom[i] = new
                changed = True
    ipdom = [None] * n
    for i in range(exit_node):
        if exit_node not in pdom[i]:
            continue  # every path from here traps: no post-dominator (the region: all it reaches)
        strict = pdom[i] - {i}
        # The immediate one: the strict post-dominator post-dominated by every other.
        for c in strict:
            if all(c == d or d in pdom[c] for d in strict):
                ipdom[i] = c
                break
    return ipdom


def dest_and_uses(op, ops):
    """The registers an instruction writes and reads."""
    if not ops:
        return [], []
    first = ops[0]
    writes_first = not (op.startswith("st.") or op.startswith("st ") or first.startswith("[")
                        or first == "_" or op.startswith("bar") or op.startswith("red.")
                        or op.startswith("cp.") or op.startswith("prefetch"))
    if op.startswith("mbarrier.arrive") and first == "_":
        writes_first = False
    dest = REG.findall(first) if writes_first else []
    uses = REG.findall(",".join(ops[1:] if writes_first else ops))
    if op.startswith("wgmma.mma_async") or op.startswith("mma."):
        uses += dest  # accumulators read and written
    return dest, uses


def kind_of(op, ops, uses, kind):
    srcs = [SPECIAL.get(u, kind.get(u, "U")) if u.startswith("%") else "U" for u in uses]
    if any(op.startswith(p) for p in PER_LANE):
        return "L"
    if any(op.startswith(p) for p in WARP_UNIFORM_RESULT):
        return "W"
    k = "U"
    for s in srcs:
        k = join(k, s)
    if k != "T":
        return k
    # A lane-preserving or warp-uniform function of %tid.x.
    imm = [o for o in ops[1:] if re.fullmatch(r"-?(0x[0-9a-fA-F]+|[0-9]+)", o)]
    val = int(imm[-1], 0) if imm else None
    base = op.split(".")[0]
    if base == "mov" or base == "cvt":
        return "T"
    if base == "shr" and val is not None and val >= 5:
        return "W"
    if base == "div" and val is not None and val % 32 == 0:
        return "W"
    if base == "bfe" and len(ops) >= 3 and re.fullmatch(r"[0-9]+", ops[2]) and int(ops[2]) >= 5:
        return "W"
    if base == "and" and val is not None and val >= 31 and (val + 1) & val == 0:
        return "T"
    if base == "rem" and val is not None and val % 32 == 0:
        return "T"
    # A threshold at a warp boundary (`tid > 255`, `tid < 128`) is the same in a warp's lanes.
    cmp = op.split(".")[1] if base == "setp" and "." in op else None
    if cmp and val is not None and ops[-1] == imm[-1]:
        if cmp in ("lt", "ge") and val % 32 == 0 or cmp in ("gt", "le") and (val + 1) % 32 == 0:
            return "W"
    return "L"


def aligned(op):
    return ".aligned" in op or any(op == a or op.startswith(a + ".") for a in ALIGNED_BARE)


def check_entry(name, first_line, body):
    blocks, exit_node = blocks_of(statements(body, first_line))
    ipdom = post_dominators(blocks, exit_node)
    kind = {}
    synced = set()  # registers lane-varying by sync dependence
    for _ in range(50):
        changed = False
        for b in blocks:
            for line, g, op, ops in b["insts"]:
                dest, uses = dest_and_uses(op, ops)
                k = kind_of(op, ops, uses, kind)
                if g and g != "local":
                    k = join(k, kind.get(g, "U"))
                for d in dest:
                    old = kind.get(d, "U")
                    new = join(old, "L" if d in synced else k)
                    if new != old:
                        kind[d] = new
                        changed = True
        # Sync dependence: a register written inside a lane-divergent region and read where
        # the lanes met again (from the region's post-dominator on) differs across the lanes.
        # A region whose paths all end (post-dominator: the exit) hands nothing on.
        for (_, bi), region in divergent_regions(blocks, ipdom, kind):
            stop = ipdom[bi]
            if stop is None or stop >= len(blocks):
                continue
            after = reachable(blocks, [stop])
            read = set()
            for x in after:
                for _, g, op, ops in blocks[x]["insts"]:
                    read.update(dest_and_uses(op, ops)[1])
                    if g:
                        read.add(g)
            copies = same_copies(blocks, bi, region)
            for x in region:
                for _, _, op, ops in blocks[x]["insts"]:
                    for d in dest_and_uses(op, ops)[0]:
                        if d in read and d not in synced and d not in copies:
                            synced.add(d)
                            changed = True
        if not changed:
            break
    problems = []
    for (line, _), region in divergent_regions(blocks, ipdom, kind):
        for bi in sorted(region):
            for l2, g, op, _ in blocks[bi]["insts"]:
                if aligned(op):
                    problems.append(f"{name}: line {l2}: `{op}` under the lane-divergent branch "
                                    f"of line {line}")
    for b in blocks:
        for line, g, op, _ in b["insts"]:
            if g and g != "local" and aligned(op) and kind.get(g, "U") in ("T", "L"):
                problems.append(f"{name}: line {line}: `{op}` predicated on lane-varying {g}")
    return sorted(set(problems), key=lambda p: int(p.split("line ")[1].split(":")[0]))


def same_copies(blocks, bi, region):
    """Registers every write of which, in the branch's block and its region, is the same
    `mov d, src` of a source the region does not write: the value at the join is `src` on
    every path (LLVM's copies into a loop's phi, written once per arm)."""
    srcs = {}
    written = set()
    for x in [bi] + sorted(region):
        for _, _, op, ops in blocks[x]["insts"]:
            dest, uses = dest_and_uses(op, ops)
            if x != bi:
                written.update(dest)
            for d in dest:
                key = tuple(ops[1:]) if op.startswith("mov") and len(dest) == 1 else None
                srcs.setdefault(d, set()).add(key)
    return {d for d, k in srcs.items()
            if len(k) == 1 and None not in k and not (set(REG.findall(" ".join(next(iter(k)))))
                                                      & written)}


def reachable(blocks, starts, stop=None):
    """The blocks reachable from `starts`, not passing through `stop` (nor the exit node)."""
    seen = set()
    todo = list(starts)
    while todo:
        x = todo.pop()
        if x in seen or x == stop or x >= len(blocks):
            continue
        seen.add(x)
        todo.extend(blocks[x]["succ"])
    return seen


def divergent_regions(blocks, ipdom, kind):
    out = []
    for bi, b in enumerate(blocks):
        if not b["insts"]:
            continue
        line, g, op, ops = b["insts"][-1]
        if not op.startswith("bra") or not g or g == "local":
            continue
        if kind.get(g, "U") not in ("T", "L"):
            continue
        out.append(((line, bi), reachable(blocks, b["succ"], ipdom[bi])))
    return out


def check_text(text, allow):
    problems = []
    count = 0
    for name, first, body in entries(text):
        count += 1
        found = check_entry(name, first, body)
        if name in allow:
            if not found:
                problems.append(f"{name}: allowed ({allow[name]}) but clean: drop its --allow")
            continue
        problems.extend(found)
    return count, problems


SELF_TEST_BAD = """
.visible .entry bad(
)
{
	mov.u32 	%r1, %tid.x;
	and.b32 	%r2, %r1, 127;
	setp.ne.s32 	%p1, %r2, 0;
	@%p1 bra 	$L__A;
	bra.uni 	$L__B;
$L__A:
	bar.sync 	1, 128;
	stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r3], {%r4, %r5, %r6, %r7};
	bra.uni 	$L__C;
$L__B:
	cp.async.bulk.wait_group.read 1;
	bar.sync 	1, 128;
	stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r3], {%r4, %r5, %r6, %r7};
$L__C:
	ret;
}
"""

SELF_TEST_GOOD = """
.visible .entry good(
)
{
	mov.u32 	%r1, %tid.x;
	and.b32 	%r2, %r1, 127;
	shr.u32 	%r8, %r1, 7;
	setp.eq.s32 	%p2, %r8, 0;
	@%p2 bra 	$L__P;
	setp.ne.s32 	%p1, %r2, 0;
	@%p1 bra 	$L__J;
	cp.async.bulk.wait_group.read 1;
$L__J:
	bar.sync 	1, 128;
	stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r3], {%r4, %r5, %r6, %r7};
	{ .reg .pred p; setp.ne.b32 p, %r2, 0; @p cp.async.bulk.commit_group; }
	ret;
$L__P:
	setmaxnreg.dec.sync.aligned.u32 40;
	ret;
}
"""

SELF_TEST_PRED = """
.visible .entry pred(
)
{
	mov.u32 	%r1, %laneid;
	setp.eq.s32 	%p1, %r1, 0;
	@%p1 bar.sync 	0;
	ret;
}
"""

# A role dispatch (thread 0 loads) whose arm has a checked accessor's `trap` path: the lanes
# meet again at the join, where the warp's barrier and stmatrix are; the trapping lane never
# reaches anything (the sm100 GEMM's `let Ok(..) = .. else { trap() }` in its one-thread roles).
SELF_TEST_TRAP = """
.visible .entry role(
	.param .u32 role_param_0
)
{
	ld.param.u32 	%r9, [role_param_0];
	mov.u32 	%r1, %tid.x;
	setp.ne.s32 	%p1, %r1, 0;
	@%p1 bra 	$L__J;
	setp.gt.u32 	%p2, %r9, 229279;
	@%p2 bra 	$L__T;
	mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r9], 16;
$L__J:
	bar.sync 	0;
	stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r3], {%r4, %r5, %r6, %r7};
	ret;
$L__T:
	trap;
	exit;
}
"""

# The same with the join's stmatrix copied into thread 0's arm: still refused (a trap path
# ends a lane, it does not make the other arm's copies the same instruction).
SELF_TEST_TRAP_DUP = SELF_TEST_TRAP.replace(
    "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r9], 16;\n",
    "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r9], 16;\n"
    "\tstmatrix.sync.aligned.m8n8.x4.shared.b16 [%r3], {%r4, %r5, %r6, %r7};\n\tret;\n")


def self_test():
    n, bad = check_text(SELF_TEST_BAD, {})
    assert n == 1 and len(bad) == 4, bad  # two bar.sync and two stmatrix, one per arm
    assert all("branch of line 8" in p for p in bad), bad
    n, good = check_text(SELF_TEST_GOOD, {})
    assert n == 1 and good == [], good
    n, pred = check_text(SELF_TEST_PRED, {})
    assert len(pred) == 1 and "predicated" in pred[0], pred
    n, trap = check_text(SELF_TEST_TRAP, {})
    assert n == 1 and trap == [], trap
    _, dup = check_text(SELF_TEST_TRAP_DUP, {})
    assert len(dup) == 3 and all("branch of line 9" in p for p in dup), dup  # the copy, the join
    _, allowed_clean = check_text(SELF_TEST_GOOD, {"good": "why"})
    assert len(allowed_clean) == 1 and "clean" in allowed_clean[0], allowed_clean
    print("check_convergence self-test: ok (the duplicated chunk refused, the predicated one "
          "and the warpgroup-uniform branch accepted, a lane-predicated bar.sync refused, a role's "
          "trap path no divergence, a copy beside it refused)")


def main(argv):
    if argv == ["--self-test"]:
        self_test()
        return 0
    allow = {}
    files = []
    it = iter(argv)
    for a in it:
        if a == "--allow":
            k, _, v = next(it).partition("=")
            allow[k] = v
        else:
            files.append(a)
    total = 0
    problems = []
    for f in files:
        n, p = check_text(open(f).read(), allow)
        total += n
        problems.extend(f"{f}: {x}" for x in p)
    for p in problems:
        print(p)
    print(f"check_convergence: {total} entries in {len(files)} modules, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
