#!/usr/bin/env python3
"""The grouped-GEMM measurement with every baseline in one process (issue 30).

Loads the `rust_kernels` program as a shared library (gpu/rust-kernels-lib/build.sh) into this
Python process and runs its `--grouped` mode; each round of its alternating timings calls back
here to time torch._grouped_mm on the same shape (bf16 A [sum M, K], B [G, N, K] used as B^T,
offsets = the groups' row ends), between our kernels, the cuBLASLt loop and the concatenated
cuBLASLt GEMM, all on the CUDA primary context torch and the library share. torch's own result
is checked once per shape against an fp32 product (integer data: exact).

With --fp8 it runs `--grouped-fp8` instead (issue 47, run 4: the FP8 grouped GEMM, e4m3 A
[sum M, K] and B [G, N, K], bf16 C) through the library's second entry point, and times torch's
FP8 grouped paths on the same shapes, each round in the program's seeded random order with ours
twice (the noise control) and the cuBLASLt FP8 loop (see FP8_PATHS below: which torch function
ran, and every exception a refused one raised, go into the results). Every baseline is tried on
its own: one that fails is recorded and the others still run. The results are
grouped_fp8_results.json (bf16: grouped_results.json).

Usage: grouped_same_process.py LIB.so KERNELS.ptx OUT_DIR [ROUNDS] [--fp8]
"""
import ctypes
import json
import os
import sys
import traceback

try:
    import torch
except Exception as e:  # noqa: BLE001 - the FP8 run still runs ours and cuBLASLt without torch
    torch = None
    TORCH_IMPORT_ERROR = f"{type(e).__name__}: {e}"
else:
    TORCH_IMPORT_ERROR = None

TIMER = ctypes.CFUNCTYPE(
    ctypes.c_double,
    ctypes.POINTER(ctypes.c_uint32),
    ctypes.c_uint32,
    ctypes.c_uint32,
    ctypes.c_uint32,
    ctypes.c_uint32,
)


def main():
    pos = [a for a in sys.argv[1:] if not a.startswith("--")]
    lib_path, ptx, out = pos[:3]
    rounds = pos[3] if len(pos) > 3 else "7"
    if "--fp8" in sys.argv[1:]:
        sys.exit(main_fp8(ctypes.CDLL(lib_path), ptx, out, rounds))
    torch.zeros(1, device="cuda")  # the primary context, current on this thread
    calls, checks = {}, {}

    def setup(ms, n, k):
        g, total = len(ms), sum(ms)
        a = torch.randint(-2, 3, (total, k), device="cuda").to(torch.bfloat16)
        b = torch.randint(-2, 3, (g, n, k), device="cuda").to(torch.bfloat16)
        ends = [sum(ms[: i + 1]) for i in range(g)]
        offs = torch.tensor(ends, device="cuda", dtype=torch.int32)
        f = lambda: torch._grouped_mm(a, b.transpose(-2, -1), offs=offs)
        got = f().float()
        ref = torch.cat([a[e - m : e].float() @ b[i].float().T for i, (m, e) in enumerate(zip(ms, ends))])
        checks[(ms, n, k)] = int((got != ref.to(torch.bfloat16).float()).sum().item())
        return f

    def timer(ms_ptr, g, n, k, iters):
        try:
            key = (tuple(ms_ptr[i] for i in range(g)), n, k)
            if key not in calls:
                calls[key] = setup(*key)
            f = calls[key]
            e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            e0.record()
            for _ in range(iters):
                f()
            e1.record()
            e1.synchronize()
            return e0.elapsed_time(e1) / iters
        except Exception as e:  # noqa: BLE001 - reported to the Rust side as a failure
            print(f"torch._grouped_mm: {e}"[:300], flush=True)
            return -1.0

    lib = ctypes.CDLL(lib_path)
    lib.smemdesc_rust_kernels_main.argtypes = [ctypes.c_uint32, ctypes.POINTER(ctypes.c_char_p), TIMER]
    lib.smemdesc_rust_kernels_main.restype = ctypes.c_int32
    args = ["--ptx", ptx, "--grouped", "--out", out, "--rounds", rounds]
    argv = (ctypes.c_char_p * len(args))(*[a.encode() for a in args])
    cb = TIMER(timer)
    rc = lib.smemdesc_rust_kernels_main(len(args), argv, cb)
    path = os.path.join(out, "grouped_results.json")
    res = json.load(open(path))
    res["torch"] = torch.__version__
    res["baselines_in_same_process"] = True
    for row in res.get("shapes", []):
        key = (tuple(row["m"]), row["n"], row["k"])
        row["torch_grouped_mm_mismatches_vs_fp32"] = checks.get(key)
    json.dump(res, open(path, "w"), indent=1)
    sys.exit(rc)


# ---------------------------------------------------------------------------------------------
# FP8 (--fp8): torch's FP8 grouped paths, named as the Rust side records them (--torch-paths).
# "scaled_grouped_mm": torch._scaled_grouped_mm, e4m3 A [sum M, K] row-major and B [G, N, K]
#   passed transposed ([G, K, N], column-major: what it demands), row-wise float32 scales of 1.0
#   (A: [sum M], B: [G, N]; sm90's grouped FP8 kernel takes row-wise scales), offs = the groups'
#   row ends (int32), bf16 out; fast accumulation first, then without, then
#   torch.nn.functional.scaled_grouped_mm with RowWise recipes, the first that runs is timed.
# "scaled_mm_loop": torch._scaled_mm per non-empty group (A's rows, B[g] transposed, scalar
#   scales of 1.0, bf16 out, fast accumulation), a group's rows padded to a multiple of 16 only
#   where the exact slice is refused.
FP8_PATHS = ["scaled_grouped_mm", "scaled_mm_loop"]

TIMER8 = ctypes.CFUNCTYPE(
    ctypes.c_double,
    ctypes.c_uint32,
    ctypes.POINTER(ctypes.c_uint32),
    ctypes.c_uint32,
    ctypes.c_uint32,
    ctypes.c_uint32,
    ctypes.c_uint32,
)


def err_text(e):
    return f"{type(e).__name__}: {e}"[:600]


class Fp8Shape:
    """One shape's torch tensors: e4m3 A and B with integers in [-2, 2], offsets."""

    def __init__(self, tm, ms, n, k):
        self.ms, self.n, self.k = list(ms), n, k
        g, total = len(ms), sum(ms)
        f8 = tm.float8_e4m3fn
        self.a = tm.randint(-2, 3, (total, k), device="cuda", dtype=tm.float32).to(f8)
        self.b = tm.randint(-2, 3, (g, n, k), device="cuda", dtype=tm.float32).to(f8)
        self.ends = [sum(ms[: i + 1]) for i in range(g)]
        self.offs = tm.tensor(self.ends, device="cuda", dtype=tm.int32)

    def mismatches(self, tm, outs):
        """outs: per non-empty group, its [m, N] result (bf16): elements unequal to the fp32
        product rounded to bf16 (integer data: the product is exact)."""
        bad = 0
        for i, (m, e) in enumerate(zip(self.ms, self.ends)):
            if m == 0:
                continue
            ref = (self.a[e - m : e].float() @ self.b[i].float().T).to(tm.bfloat16)
            got = outs[i][:m]
            bad += int((got != ref).sum().item())
        return bad


def build_scaled_grouped_mm(tm, sh, notes):
    """The timed callable, its per-group results for the check, and what ran."""
    total, g = sum(sh.ms), len(sh.ms)
    sa = tm.ones(total, device="cuda", dtype=tm.float32)
    sb = tm.ones(g, sh.n, device="cuda", dtype=tm.float32)
    bt = sh.b.transpose(-2, -1)
    tries = []
    if hasattr(tm, "_scaled_grouped_mm"):
        for fast in (True, False):
            tries.append((
                f"torch._scaled_grouped_mm(rowwise float32 scales of 1.0, use_fast_accum={fast})",
                lambda fast=fast: tm._scaled_grouped_mm(
                    sh.a, bt, sa, sb, offs=sh.offs, out_dtype=tm.bfloat16, use_fast_accum=fast),
            ))
    else:
        notes.append("torch has no _scaled_grouped_mm")
    fnf = getattr(getattr(tm.nn, "functional", None), "scaled_grouped_mm", None)
    st = getattr(getattr(tm.nn, "functional", None), "ScalingType", None)
    if fnf is not None and st is not None:
        tries.append((
            "torch.nn.functional.scaled_grouped_mm(RowWise recipes, scales of 1.0, use_fast_accum=True)",
            lambda: fnf(sh.a, bt, sa, st.RowWise, sb, st.RowWise, offs=sh.offs,
                        output_dtype=tm.bfloat16, use_fast_accum=True),
        ))
    for name, f in tries:
        try:
            out = f()
            tm.cuda.synchronize()
        except Exception as e:  # noqa: BLE001 - recorded, the next form is tried
            notes.append(f"{name} refused: {err_text(e)}")
            continue
        outs = [out[e - m : e] for m, e in zip(sh.ms, sh.ends)]
        return f, outs, name
    raise RuntimeError("no FP8 grouped form ran: " + " | ".join(notes))


def build_scaled_mm_loop(tm, sh, notes):
    one = tm.ones((), device="cuda", dtype=tm.float32)
    calls, forms = [], []
    for i, (m, e) in enumerate(zip(sh.ms, sh.ends)):
        if m == 0:
            continue
        bt = sh.b[i].t()
        a_exact = sh.a[e - m : e]
        cands = [("exact rows", a_exact)]
        pad = -m % 16
        if pad:
            ap = tm.zeros(m + pad, sh.k, device="cuda", dtype=tm.float32).to(sh.a.dtype)
            ap[:m] = a_exact
            cands.append(("rows padded to a multiple of 16", ap))
        done = None
        for fast in (True, False):
            for form, av in cands:
                f = (lambda av=av, bt=bt, fast=fast:
                     tm._scaled_mm(av, bt, scale_a=one, scale_b=one, out_dtype=tm.bfloat16,
                                   use_fast_accum=fast))
                try:
                    f()
                    tm.cuda.synchronize()
                except Exception as ex:  # noqa: BLE001 - recorded, the next form is tried
                    notes.append(f"group {i} (m={m}) {form}, use_fast_accum={fast}: {err_text(ex)}")
                    continue
                done = (i, f, f"{form}, use_fast_accum={fast}")
                break
            if done:
                break
        if done is None:
            raise RuntimeError(f"torch._scaled_mm refused group {i} (m={m}): " + " | ".join(notes[-4:]))
        calls.append(done)
        forms.append(done[2])

    def run():
        return [f() for _, f, _ in calls]

    def outs():
        r = {}
        for (i, f, _), o in zip(calls, run()):
            r[i] = o
        return r

    kinds = sorted(set(forms))
    name = "torch._scaled_mm per non-empty group (scalar float32 scales of 1.0, bf16 out): " + \
        "; ".join(f"{forms.count(x)} groups {x}" for x in kinds)
    padded = [i for i, _, form in calls if "padded" in form]
    if padded:
        name += f" (padded: groups {padded})"
    return run, outs(), name


FP8_BUILDERS = {"scaled_grouped_mm": build_scaled_grouped_mm, "scaled_mm_loop": build_scaled_mm_loop}


class Fp8Torch:
    """The callback's state: one shape's tensors at a time, each path built once per shape (and
    checked then), every failure's text kept by (shape, path)."""

    def __init__(self, tm):
        self.tm = tm
        self.key, self.sh, self.fns = None, None, {}
        self.detail, self.checks, self.errors = {}, {}, {}

    def fn(self, path, key):
        tm = self.tm
        if key != self.key:
            self.key, self.sh, self.fns = key, None, {}
            tm.cuda.empty_cache()
            self.sh = Fp8Shape(tm, *key)
        if path not in self.fns:
            self.fns[path] = None
            notes = []
            try:
                f, outs, what = FP8_BUILDERS[path](tm, self.sh, notes)
                self.detail[(key, path)] = what
                self.checks[(key, path)] = self.sh.mismatches(tm, outs)
                self.fns[path] = f
            finally:
                if notes:
                    self.errors.setdefault((key, path), []).extend(notes)
        return self.fns[path]

    def time(self, path_idx, ms_ptr, g, n, k, iters):
        key = (tuple(ms_ptr[i] for i in range(g)), n, k)
        path = FP8_PATHS[path_idx] if path_idx < len(FP8_PATHS) else f"path {path_idx}"
        try:
            f = self.fn(path, key)
            if f is None:
                return -1.0
            tm = self.tm
            e0, e1 = tm.cuda.Event(enable_timing=True), tm.cuda.Event(enable_timing=True)
            e0.record()
            for _ in range(iters):
                f()
            e1.record()
            e1.synchronize()
            return float(e0.elapsed_time(e1)) / iters
        except Exception as e:  # noqa: BLE001 - reported to the Rust side as a failure
            self.errors.setdefault((key, path), []).append(err_text(e))
            print(f"{path}: {err_text(e)}"[:300], flush=True)
            traceback.print_exc(limit=3)
            return -1.0


def merge_fp8(res, state, tm):
    """Adds the Python side's records to the program's grouped_fp8_results.json."""
    res["torch"] = getattr(tm, "__version__", None) if tm is not None else None
    res["torch_import_error"] = TORCH_IMPORT_ERROR
    res["baselines_in_same_process"] = True
    for row in res.get("shapes", []):
        key = (tuple(row.get("m", [])), row.get("n"), row.get("k"))
        paths = row.setdefault("torch_paths", {})
        for p in FP8_PATHS:
            r = paths.setdefault(p, {"median_tflops": None, "error": "not timed"})
            if state is not None:
                r["ran"] = state.detail.get((key, p))
                r["mismatches_vs_fp32"] = state.checks.get((key, p))
                r["torch_errors"] = state.errors.get((key, p), [])
        best = row.get("torch_best_path")
        row["torch_best_ran"] = paths.get(best, {}).get("ran") if best else None
    return res


def main_fp8(lib, ptx, out, rounds, tm=torch):
    state = None
    args = ["--ptx", ptx, "--grouped-fp8", "--out", out, "--rounds", str(rounds)]
    cb = None
    if tm is not None:
        try:
            tm.zeros(1, device="cuda")  # the primary context, current on this thread
            state = Fp8Torch(tm)
            args += ["--torch-paths", ",".join(FP8_PATHS)]
            cb = TIMER8(state.time)
        except Exception as e:  # noqa: BLE001 - ours and cuBLASLt still run
            print(f"torch unusable: {err_text(e)}", flush=True)
            state = None
    f = lib.smemdesc_rust_kernels_main_fp8
    f.argtypes = [ctypes.c_uint32, ctypes.POINTER(ctypes.c_char_p), ctypes.c_void_p]
    f.restype = ctypes.c_int32
    argv = (ctypes.c_char_p * len(args))(*[a.encode() for a in args])
    rc = f(len(args), argv, ctypes.cast(cb, ctypes.c_void_p) if cb is not None else None)
    path = os.path.join(out, "grouped_fp8_results.json")
    try:
        with open(path) as fh:
            res = json.load(fh)
    except Exception as e:  # noqa: BLE001 - keep what the Python side knows
        res = {"error": f"no results from the program: {err_text(e)}"}
    res = merge_fp8(res, state, tm)
    with open(path, "w") as fh:
        json.dump(res, fh, indent=1)
    return rc


if __name__ == "__main__":
    main()
