#!/usr/bin/env python3
"""Checks the PTX of the Rust kernel crate (gpu/rust-kernel): the kernel-side smemdesc API
compiled to straight-line integer code.

Usage: check_kernel_ptx.py KERNELS.PTX. Asserts, and prints what it checked:
  - the module defines the 35 class-check kernels and the two GEMMs;
  - every class-check kernel issues its TMA loads (`cp.async.bulk.tensor`): a tile with more
    boxes than an unrolled loop covers once compiled to a bare `trap` (first H100 run);
  - no `call` instruction and no `.extern .func` (nothing of smemdesc, core or the panic
    machinery is left out of line: the PTX JIT could not resolve it anyway);
  - no `.global` or `.const` variable (no copy of a plan or of a table in memory) and no `.local`
    memory (nothing spilled, accumulators in registers);
  - in each GEMM's main loop, the descriptors of the 4 K subtiles are one per-stage register plus
    constants: `add`/`or` of DESC + ADVANCE_K[k] to one base register per operand;
  - the issue-22 kernels (`epi.rs`): `gemm_epi_rust`, `gemm_cl21_rust`, `gemm_cl12_rust` each have
    4 wgmma m64n256k16, 16 `stmatrix.x4` (4 chunks x 4 instructions of the declared C tile), TMA
    stores with bulk groups after a `fence.proxy.async`, and descriptors DESC + [0, 2, 4, 6] on
    one base; the cluster kernels multicast one operand (`.multicast::cluster`, one slice per
    stage) and release the peer's stage with the plain remote arrive (`mapa` +
    `mbarrier.arrive.shared::cluster`, never `.release.cluster`); `epi_store_only_rust` has the 16
    `stmatrix.x4` of one C tile.

Expected constants, from the PTX ISA "Matrix Descriptor Format" and the tiles (K-major, 128B
swizzle, both GEMMs and both operands): LBO 16 B -> 1 at bits 16-29, SBO 1024 B (8 rows x 128 B)
-> 64 at bits 32-45, layout type 1 (128B) at bits 62-63: DESC = 0x4000004000010000; one wgmma
reads 32 B of K, 2 units of 16 B, inside the 128-B swizzle row: ADVANCE_K = [0, 2, 4, 6].
"""
import re
import sys

DESC = 0x4000_0040_0001_0000
ADVANCE_K = [0, 2, 4, 6]


def fail(msg):
    print(f"PTX check FAILED: {msg}")
    sys.exit(1)


def main():
    ptx = open(sys.argv[1]).read()
    entries = re.findall(r"^\.visible \.entry (\w+)\(", ptx, re.M)
    checks = [e for e in entries if e.startswith("check_")]
    epi = ["gemm_epi_rust", "gemm_cl21_rust", "gemm_cl12_rust", "epi_store_only_rust"]
    if len(checks) != 35 or not {"gemm_bf16_rust", "gemm_fp8_rust", *epi} <= set(entries):
        fail(f"expected 35 check kernels, 2 GEMMs and the issue-22 kernels {epi}, found {entries}")
    print(f"PTX: {len(entries)} kernels ({len(checks)} class checks, gemm_bf16_rust, gemm_fp8_rust, {', '.join(epi)})")
    loads = {}
    for kernel in checks:
        start = ptx.index(f".visible .entry {kernel}(")
        body = ptx[start : ptx.index("\n}\n", start)]
        loads[kernel] = len(re.findall(r"^\s*cp\.async\.bulk\.tensor\.2d\b", body, re.M))
    empty = [k for k, n in loads.items() if n == 0]
    if empty:
        fail(f"{len(empty)} check kernel(s) issue no TMA load: {empty[:3]}")
    print(f"PTX: every check kernel issues TMA loads ({min(loads.values())} to {max(loads.values())} cp.async.bulk.tensor.2d)")
    calls = re.findall(r"^\s*call(?:\.uni)?\b.*$", ptx, re.M)
    externs = re.findall(r"^\.extern \.func.*$", ptx, re.M)
    if calls or externs:
        fail(f"{len(calls)} call(s), {len(externs)} extern function(s): {(calls + externs)[:3]}")
    print("PTX: no call instruction, no .extern .func")
    data = re.findall(r"^\s*(?:\.visible\s+|\.extern\s+|\.weak\s+)?\.(?:global|const)\s.*$", ptx, re.M)
    if data:
        fail(f".global/.const variables (a copy of a plan or table in memory): {data[:3]}")
    local = re.findall(r"^.*(?:\.local\b|__local_depot).*$", ptx, re.M)
    if local:
        fail(f"local memory used: {local[:3]}")
    print("PTX: no .global/.const variable, no .local memory")
    for kernel in ("gemm_bf16_rust", "gemm_fp8_rust"):
        start = ptx.index(f".visible .entry {kernel}(")
        body = ptx[start : ptx.index("\n}\n", start)]
        operands = re.findall(r"^(%rd\d+), (%rd\d+), p, 1, 1\b", body, re.M)
        if len(operands) != len(ADVANCE_K):
            fail(f"{kernel}: {len(operands)} wgmma, expected one per K subtile ({len(ADVANCE_K)})")
        for side, regs in (("A", [a for a, _ in operands]), ("B", [b for _, b in operands])):
            bases, steps = set(), []
            for reg in regs:
                m = re.search(rf"^\s*(?:add\.s64|or\.b64)\s+{re.escape(reg)}, (%rd\d+), (\d+);", body, re.M)
                if not m:
                    fail(f"{kernel}: descriptor {side} {reg} is not a register plus a constant")
                bases.add(m.group(1))
                steps.append(int(m.group(2)) - DESC)
            if len(bases) != 1 or steps != ADVANCE_K:
                fail(f"{kernel}: {side} descriptors from {bases} + DESC + {steps}, expected one base + {ADVANCE_K}")
        print(f"PTX {kernel}: 4 wgmma per stage; A and B descriptors = one per-stage register + DESC + {ADVANCE_K} (constants)")
    for kernel in epi:
        start = ptx.index(f".visible .entry {kernel}(")
        body = ptx[start : ptx.index("\n}\n", start)]
        count = lambda pat: len(re.findall(pat, body, re.M))
        n_st = count(r"^\s*stmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16\b")
        if n_st != 16:
            fail(f"{kernel}: {n_st} stmatrix.x4, expected 16 (4 chunks x 4 instructions)")
        if kernel == "epi_store_only_rust":
            print(f"PTX {kernel}: 16 stmatrix.x4")
            continue
        n_mma = count(r"^wgmma\.mma_async\.sync\.aligned\.m64n256k16\.f32\.bf16\.bf16")
        n_store = count(r"^\s*cp\.async\.bulk\.tensor\.2d\.global\.shared::cta\.bulk_group\b")
        n_fence = count(r"^\s*fence\.proxy\.async\.shared::cta;")
        n_commit = count(r"^\s*cp\.async\.bulk\.commit_group;")
        n_mc = count(r"\.multicast::cluster\b")
        n_remote = count(r"mapa\.shared::cluster\.u32 r, .*mbarrier\.arrive\.shared::cluster\.b64 _, \[r\];")
        n_rel = count(r"mbarrier\.arrive\.release\.cluster")
        cluster = kernel != "gemm_epi_rust"
        if n_mma != 4 or n_store < 4 or n_fence != 4 or n_commit != 4:
            fail(f"{kernel}: {n_mma} wgmma, {n_store} TMA stores, {n_fence} fence.proxy.async, {n_commit} commits; expected 4, >= 4, 4, 4")
        if (n_mc, n_remote > 0, n_rel) != ((1, True, 0) if cluster else (0, False, 0)):
            fail(f"{kernel}: {n_mc} multicast loads, {n_remote} plain remote arrives, {n_rel} release.cluster arrives")
        descs = [int(x) - DESC for x in re.findall(r"^\s*(?:add\.s64|or\.b64)\s+%rd\d+, %rd\d+, (\d+);", body, re.M)
                 if 0 <= int(x) - DESC < 64]
        if sorted(set(descs)) != ADVANCE_K:
            fail(f"{kernel}: descriptor constants DESC + {sorted(set(descs))}, expected {ADVANCE_K}")
        print(f"PTX {kernel}: 4 wgmma, 16 stmatrix.x4, {n_store} TMA stores in 4 bulk groups, descriptors DESC + {ADVANCE_K}"
              + (f", 1 multicast TMA load, {n_remote} plain remote arrives, no release.cluster" if cluster else ""))


if __name__ == "__main__":
    main()
