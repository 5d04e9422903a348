#!/usr/bin/env python3
"""The template kernel writes no `asm!` for an instruction the library ships (issue 43 item 0).

`smemdesc::ptx` issues the instructions the declarations describe: mbarriers, TMA loads, stores,
reduces and bulk groups, the fences, `mapa`, cluster barriers, `elect`, `setmaxnreg`, the special
registers, `trap`. A kernel crate that copies `examples/kernel/` starts from what it shows, so the
template's own `asm!` must hold none of them (its own is its dynamic shared-memory
symbol). Reads every `asm!`/`global_asm!` invocation of the crates given (default:
examples/kernel/src) and fails, naming file:line and the instruction, on any string literal in
one that holds a shipped mnemonic.

    python3 scripts/check_kernel_own_asm.py [DIR ...]
"""
import pathlib
import re
import sys

# What smemdesc::ptx ships (src/ptx/*.rs), as the text an asm! template would hold.
SHIPPED = [
    "mbarrier.",
    "cp.async.bulk",
    "cp.reduce.async.bulk",
    "fence.proxy.",
    "fence.mbarrier_init",
    "tensormap.replace",
    "prefetch.tensormap",
    "mapa.",
    "barrier.cluster",
    "barrier.sync",
    "bar.sync",
    "setmaxnreg",
    "elect.sync",
    "%tid.",
    "%ctaid.",
    "%nctaid.",
    "%cluster_ctarank",
    "%clock64",
    "trap;",
    # smemdesc::accum: the wgmma issue, fence, commit and wait.
    "wgmma.",
]

STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def invocations(text):
    """(offset, body) of each asm!( ... ) / global_asm!( ... ), parentheses balanced outside strings."""
    for m in re.finditer(r"\b(?:global_)?asm!\s*\(", text):
        i, depth, in_str = m.end(), 1, False
        while i < len(text) and depth:
            c = text[i]
            if in_str:
                if c == "\\":
                    i += 1
                elif c == '"':
                    in_str = False
            elif c == '"':
                in_str = True
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            i += 1
        yield m.start(), text[m.end() : i - 1]


def check(paths):
    bad = []
    for path in paths:
        text = path.read_text()
        for at, body in invocations(text):
            line = text.count("\n", 0, at) + 1
            for lit in STRING.findall(body):
                for mnemonic in SHIPPED:
                    if mnemonic in lit:
                        bad.append(f"{path}:{line}: `{mnemonic}` in the crate's own asm! (smemdesc::ptx ships it)")
    return bad


def main(argv):
    dirs = [pathlib.Path(d) for d in argv[1:]] or [pathlib.Path("examples/kernel/src")]
    files = sorted(f for d in dirs for f in d.rglob("*.rs"))
    if not files:
        print(f"check_kernel_own_asm: no .rs file under {', '.join(map(str, dirs))}")
        return 1
    bad = check(files)
    for b in bad:
        print(b)
    if bad:
        print(f"check_kernel_own_asm: {len(bad)} shipped instruction(s) written by hand: call smemdesc::ptx instead")
        return 1
    print(f"check_kernel_own_asm: {len(files)} files, no asm! for an instruction smemdesc::ptx ships")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
