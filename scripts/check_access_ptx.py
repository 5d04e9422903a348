#!/usr/bin/env python3
"""Checks the PTX of scripts/ptx-check (issue 19): every run-time access form of smemdesc, called
with indices read from kernel parameters, compiles to code that needs nothing outside the module
and reads no memory.

Usage: check_access_ptx.py ACCESS.PTX. Asserts, and prints what it checked:
  - the module has a kernel `<path>_<form>__<tile>` for every path and form below and every tile,
    and the tiles include bf16 with each swizzle (none, 32B, 64B, 128B) x major (K, MN) x
    stacking order (mn_first, k_first);
  - no `call` and no `.extern .func` anywhere (a call to a function the module does not define
    is CUDA_ERROR_INVALID_PTX at load: ptxas "Unresolved extern function");
  - no `.global` or `.const` variable and no `ld.global` / `ld.const` (no advance table, plan or
    panic message in memory), no `.local` memory;
  - each kernel reads from its parameters the indices its form takes (they are run-time values);
  - the asserting forms (`desc`, `offset`, `byte_offset`; `PlacedTile::desc`) keep their failing path
    in the module, as a `trap`; the `try_*` and `*_wrapping` forms have none;
  - the per-lane and other run-time forms of `#[smem_epilogue_tile]`, `#[smem_fragment_tile]`,
    `#[smem_scale_tile]`, `#[smem_mma]` and `#[smem_storage]` (`lane_*` kernels) read their
    indices and are short straight-line code (the asserting `copy_desc`: a branch to its trap).
"""
import itertools
import re
import sys

# path -> {form: (parameters read, asserting)}; parameters: 1 smem_addr, 2 mn, 3 k, 4 stage.
DESC = (1, 2, 3, 4)
ELEM = (2, 3)
FORMS = {
    "inherent": {
        "desc": (DESC, True),
        "try_desc": (DESC, False),
        "desc_wrapping": (DESC, False),
        "offset": (ELEM, True),
        "try_offset": (ELEM, False),
        "offset_wrapping": (ELEM, False),
        "value_offset": (ELEM, False),
    },
    "trait": {
        "desc": (DESC, True),
        "try_desc": (DESC, False),
        "desc_wrapping": (DESC, False),
        "offset": (ELEM, True),
        "try_offset": (ELEM, False),
        "offset_wrapping": (ELEM, False),
    },
    "core": {
        "desc": (DESC, True),
        "try_desc": (DESC, False),
        "desc_wrapping": (DESC, False),
        "byte_offset": (ELEM, True),
        "try_offset": (ELEM, False),
        "offset_wrapping": (ELEM, False),
    },
    "storage": {
        "place_desc": (DESC, True),
        "desc": (DESC, True),
        "try_desc": (DESC, False),
        "desc_wrapping": (DESC, False),
        "stage_addr": ((1, 4), False),
        "address": (DESC, False),
        "try_address": (DESC, False),
        "tma_dst": ((1, 4), False),  # the box index folds away for a tile of one box per stage
    },
}
# The kernels of issue 19 as a user wrote them (scripts/ptx-check/src/user.rs): name -> trap.
USER = {
    "user_placed_desc": True,  # the deprecated smem::Placed alias
    "user_storage_desc": True,
    "user_desc_k": True,
    "user_desc_unchecked_k": False,
    "user_desc_masked": False,  # masked indices at a constant aligned address: the checks fold
}
# The per-lane and other run-time forms of the fragment, epilogue, scale-factor, block-scaled
# MMA, storage, cluster and Tensor Memory declarations (scripts/ptx-check/src/lanes.rs): kernel-name prefix ->
# (parameters that must be read, how many kernels at least, whether it asserts). Each is
# straight-line code of at most LANE_MAX_INSTRUCTIONS instructions besides the asserting
# forms' trap.
LANES = {
    "lane_epi_writer_offset_": ((1, 2, 3, 4), 4, False),
    "lane_epi_pair_": ((1, 2, 3), 4, False),
    "lane_epi_tma_box_": ((1,), 1, False),
    "lane_frag_ldmatrix_offset_": ((1, 2), 5, False),
    "lane_frag_dest_": ((1, 2), 5, False),
    "lane_frag_writer_offset_": ((1, 2), 5, False),
    "lane_mma_idesc_with_sf_tmem_": ((1, 2), 1, False),
    "lane_mma_try_idesc_with_sf_tmem_": ((1, 2), 1, False),
    "lane_scale_copy_desc_": ((1, 2, 3, 4), 1, True),
    "lane_scale_offset_": ((1, 2), 1, False),
    "lane_storage_aligned_base_": ((1,), 1, False),
    "lane_cluster_slice_": ((1, 2), 1, False),
    "lane_tmem_address_": ((1, 2), 1, False),
    "lane_tmem_element_": ((1, 2), 1, False),
}
LANE_MAX_INSTRUCTIONS = 40
REQUIRED_TILES = {
    f"bf16_{major}_{sw}_{order}"
    for major, sw, order in itertools.product(
        ("K", "MN"), ("none", "sw32", "sw64", "sw128"), ("mnfirst", "kfirst")
    )
}


def fail(msg):
    print(f"access PTX check FAILED: {msg}")
    sys.exit(1)


def main():
    ptx = open(sys.argv[1]).read()
    bodies = {}
    for m in re.finditer(r"^\.visible \.entry (\w+)\(", ptx, re.M):
        end = ptx.index("\n}\n", m.start())
        bodies[m.group(1)] = ptx[m.start() : end]

    tiles = sorted({name.split("__", 1)[1] for name in bodies if "__" in name})
    missing_tiles = REQUIRED_TILES - set(tiles)
    if missing_tiles:
        fail(f"no kernels for the tiles {sorted(missing_tiles)}")
    expected = {
        f"{path}_{form}__{tile}": spec
        for tile in tiles
        for path, forms in FORMS.items()
        for form, spec in forms.items()
    }
    lanes = {name: prefix for name in bodies for prefix in LANES if name.startswith(prefix)}
    for prefix, (_, least, _) in LANES.items():
        have = sum(1 for p in lanes.values() if p == prefix)
        if have < least:
            fail(f"{have} kernel(s) named {prefix}*, expected at least {least}")
    missing = sorted(set(expected) - set(bodies)) + sorted(set(USER) - set(bodies))
    if missing:
        fail(f"{len(missing)} kernel(s) missing: {missing[:5]}")
    print(
        f"access PTX: {len(bodies)} kernels = {len(tiles)} tiles x "
        f"{sum(len(f) for f in FORMS.values())} forms ({', '.join(f'{p} {len(f)}' for p, f in FORMS.items())}) "
        f"+ {len(USER)} user kernels + {len(lanes)} lane kernels; tiles: {', '.join(tiles)}"
    )

    calls = re.findall(r"^\s*call(?:\.uni)?\b.*$", ptx, re.M)
    externs = re.findall(r"^\.extern \.func.*$", ptx, re.M)
    if calls or externs:
        fail(f"{len(calls)} call(s), {len(externs)} extern function(s): {sorted(set(externs))[:3] or calls[:3]}")
    data = re.findall(r"^\s*(?:\.visible\s+|\.extern\s+|\.weak\s+)?\.(?:global|const)\s.*$", ptx, re.M)
    loads = re.findall(r"^\s*ld\.(?:global|const)\b.*$", ptx, re.M)
    if data or loads:
        fail(f"{len(data)} .global/.const variable(s), {len(loads)} ld.global/ld.const: {(data + loads)[:3]}")
    local = re.findall(r"^.*(?:\.local\b|__local_depot).*$", ptx, re.M)
    if local:
        fail(f"local memory used: {local[:3]}")
    print("access PTX: no call, no .extern .func, no .global/.const data, no ld.global/ld.const, no .local")

    counts = {}
    for name, body in bodies.items():
        if name in USER:
            params, asserting = (), USER[name]
        elif name in lanes:
            params, _, asserting = LANES[lanes[name]]
        else:
            params, asserting = expected[name]
        read = {int(i) for i in re.findall(rf"ld\.param\.b32\s+%r\d+, \[{name}_param_(\d)\]", body)}
        if not set(params) <= read:
            fail(f"{name} does not read parameter(s) {sorted(set(params) - read)}: folded to a constant?")
        traps = len(re.findall(r"^\s*trap;", body, re.M))
        if asserting and traps == 0:
            fail(f"{name}: an asserting form with run-time indices has no trap (no failing path)")
        if not asserting and traps:
            fail(f"{name}: a form that never panics has {traps} trap(s)")
        if name in lanes:
            n = len(re.findall(r"^\s+[a-z@]", body, re.M)) - body.count(".reg ")
            branches = re.search(r"^\s*(?:@!?%p\d+\s+)?bra\b", body, re.M)
            if n > LANE_MAX_INSTRUCTIONS or (branches and not asserting):
                fail(f"{name}: {n} instructions or a branch: not straight-line integer code")
            counts.setdefault(lanes[name].rstrip("_"), []).append(n)
        elif name not in USER:
            path_form = name.split("__", 1)[0]
            n = len(re.findall(r"^\s+[a-z@]", body, re.M)) - body.count(".reg ")
            counts.setdefault(path_form, []).append(n)
    print("access PTX: every kernel reads its run-time indices; asserting forms end in trap, the others have none")
    for path_form, ns in sorted(counts.items()):
        print(f"  {path_form:24} {min(ns):3} to {max(ns):3} instructions")


if __name__ == "__main__":
    main()
