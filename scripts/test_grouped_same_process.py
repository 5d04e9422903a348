#!/usr/bin/env python3
"""Tests of gpu/grouped_same_process.py's FP8 driver (--fp8) without torch or a GPU.

A small fake torch (pure-Python tensors of 1 to 3 dimensions: just what the driver uses) stands
in for torch, and a fake library for the Rust program: it calls the driver's callback through
ctypes as `--grouped-fp8` does (each path once to warm up, then rounds) and writes a results file
the driver merges into. Checked: a refused form is recorded with its exception text and the next
form is timed; a wrong result is counted by the driver's check; a path that fails everywhere
leaves the other path's timings; a missing results file still gives a results file.

Run: python3 scripts/test_grouped_same_process.py
"""
import ctypes
import importlib.util
import json
import os
import random
import sys
import tempfile
import types

sys.dont_write_bytecode = True  # no __pycache__ beside the driver
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class T:
    """A dense tensor: flat values, shape, dtype name."""

    def __init__(self, vals, shape, dtype="float32"):
        self.v, self.shape, self.dtype = list(vals), tuple(shape), dtype

    def _rows(self):
        n = len(self.v) // self.shape[0] if self.shape[0] else 0
        return n

    def __getitem__(self, i):
        r = self._rows()
        if isinstance(i, slice):
            a, b, _ = i.indices(self.shape[0])
            return T(self.v[a * r : b * r], (max(b - a, 0),) + self.shape[1:], self.dtype)
        return T(self.v[i * r : (i + 1) * r], self.shape[1:], self.dtype)

    def __setitem__(self, i, x):
        r = self._rows()
        a, b, _ = i.indices(self.shape[0])
        self.v[a * r : b * r] = x.v

    def to(self, dtype):
        return T(self.v, self.shape, dtype)

    def float(self):
        return self.to("float32")

    def t(self):
        m, n = self.shape
        return T([self.v[i * n + j] for j in range(n) for i in range(m)], (n, m), self.dtype)

    T = property(t)

    def transpose(self, a, b):
        assert (a, b) == (-2, -1) and len(self.shape) == 3
        parts = [self[g].t() for g in range(self.shape[0])]
        return T([x for p in parts for x in p.v], (self.shape[0],) + parts[0].shape, self.dtype)

    def __matmul__(self, o):
        (m, k), (k2, n) = self.shape, o.shape
        assert k == k2
        return T([sum(self.v[i * k + kk] * o.v[kk * n + j] for kk in range(k)) for i in range(m) for j in range(n)],
                 (m, n))

    def __ne__(self, o):
        return T([int(x != y) for x, y in zip(self.v, o.v)], self.shape)

    def sum(self):
        return T([sum(self.v)], ())

    def item(self):
        return self.v[0]


def cat_rows(ts, n):
    return T([x for t in ts for x in t.v], (sum(t.shape[0] for t in ts), n), "bfloat16")


class Event:
    def __init__(self, enable_timing=False):
        pass

    def record(self):
        pass

    def synchronize(self):
        pass

    def elapsed_time(self, other):
        return 2.0


def fake_torch(grouped_mm, scaled_mm):
    tm = types.SimpleNamespace(__version__="fake", float8_e4m3fn="e4m3", float32="float32",
                               int32="int32", bfloat16="bfloat16")
    rng = random.Random(5)
    tm.randint = lambda lo, hi, shape, device=None, dtype=None: T(
        [rng.randrange(lo, hi) for _ in range(eval("*".join(map(str, shape)) or "1"))], shape, dtype)
    tm.tensor = lambda v, device=None, dtype=None: T(v, (len(v),), dtype)
    tm.ones = lambda *shape, device=None, dtype=None: T([1.0] * (eval("*".join(map(str, shape))) if shape and shape != ((),) else 1),
                                                        shape if shape != ((),) else (), dtype)
    tm.zeros = lambda *shape, device=None, dtype=None: T([0] * eval("*".join(map(str, shape))), shape, dtype)
    tm.cuda = types.SimpleNamespace(Event=Event, synchronize=lambda: None, empty_cache=lambda: None)
    tm.nn = types.SimpleNamespace(functional=types.SimpleNamespace())
    if grouped_mm is not None:
        tm._scaled_grouped_mm = grouped_mm
    tm._scaled_mm = scaled_mm
    return tm


def grouped_mm_refusing_fast(wrong_group=None):
    """Refuses fast accumulation (as a kernel without it would); optionally wrong in one group."""

    def f(a, bt, sa, sb, offs=None, out_dtype=None, use_fast_accum=False):
        if use_fast_accum:
            raise RuntimeError("use_fast_accum is not supported here")
        outs, s = [], 0
        for g, e in enumerate(offs.v):
            o = a[s:e] @ bt[g]
            if g == wrong_group and o.v:
                o.v[0] += 1
            outs.append(o)
            s = e
        return cat_rows(outs, bt.shape[2])

    return f


def scaled_mm_multiple_of_16(a, bt, scale_a=None, scale_b=None, out_dtype=None, use_fast_accum=False):
    if a.shape[0] % 16:
        raise RuntimeError(f"mat1 rows {a.shape[0]} not divisible by 16")
    return (a @ bt).to("bfloat16")


def load_driver(tm):
    sys.modules["torch"] = tm
    spec = importlib.util.spec_from_file_location("gsp", os.path.join(ROOT, "gpu", "grouped_same_process.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class FakeLib:
    """The Rust program's FP8 entry, as far as the driver sees it."""

    def __init__(self, shapes, write=True):
        self.shapes, self.write, self.calls = shapes, write, []

    def entry(self, argc, argv, cb):
        args = [argv[i].decode() for i in range(argc)]
        out = args[args.index("--out") + 1]
        paths = args[args.index("--torch-paths") + 1].split(",") if "--torch-paths" in args else []
        timer = ctypes.cast(cb, self.mod.TIMER8) if cb else None
        rows = []
        for ms, n, k in self.shapes:
            arr = (ctypes.c_uint32 * len(ms))(*ms)
            tp = {}
            for p, name in enumerate(paths):
                warm = timer(p, arr, len(ms), n, k, 3)
                times = [timer(p, arr, len(ms), n, k, 10) for _ in range(3)] if warm > 0 else []
                self.calls.append((name, warm, times))
                tp[name] = {"median_tflops": 1.0 if times else None,
                            "error": None if warm > 0 else "the Python driver's path failed"}
            rows.append({"m": ms, "n": n, "k": k, "torch_paths": tp, "torch_best_path": paths[0] if paths else None})
        if self.write:
            with open(os.path.join(out, "grouped_fp8_results.json"), "w") as fh:
                json.dump({"shapes": rows}, fh)
        return 0

    @property
    def smemdesc_rust_kernels_main_fp8(self):
        lib = self

        class F:
            argtypes = restype = None

            def __call__(self, argc, argv, cb):
                return lib.entry(argc, argv, cb)

        return F()


def run(tm, shapes, write=True):
    mod = load_driver(tm)
    lib = FakeLib(shapes, write)
    lib.mod = mod
    with tempfile.TemporaryDirectory() as d:
        rc = mod.main_fp8(lib, "kernels.ptx", d, 3, tm=tm)
        with open(os.path.join(d, "grouped_fp8_results.json")) as fh:
            return rc, json.load(fh), lib


def main():
    shapes = [([3, 0, 17, 16], 16, 32)]
    # 1. Fast accumulation refused: the second form runs; the loop pads the unaligned groups.
    rc, res, lib = run(fake_torch(grouped_mm_refusing_fast(), scaled_mm_multiple_of_16), shapes)
    assert rc == 0
    p = res["shapes"][0]["torch_paths"]
    g = p["scaled_grouped_mm"]
    assert g["ran"] == "torch._scaled_grouped_mm(rowwise float32 scales of 1.0, use_fast_accum=False)", g
    assert g["mismatches_vs_fp32"] == 0, g
    assert any("use_fast_accum is not supported here" in e for e in g["torch_errors"]), g
    lp = p["scaled_mm_loop"]
    assert lp["mismatches_vs_fp32"] == 0, lp
    assert "1 groups exact rows, use_fast_accum=True" in lp["ran"], lp["ran"]
    assert "2 groups rows padded to a multiple of 16, use_fast_accum=True" in lp["ran"], lp["ran"]
    assert lp["ran"].endswith("(padded: groups [0, 2])"), lp["ran"]
    assert all(w == 2.0 / 3 and t == [0.2] * 3 for _, w, t in lib.calls), lib.calls  # 2 ms / iters
    assert res["torch"] == "fake" and res["baselines_in_same_process"] is True
    assert res["shapes"][0]["torch_best_ran"] == g["ran"]
    # 2. A wrong element in group 2 is counted.
    _, res, _ = run(fake_torch(grouped_mm_refusing_fast(wrong_group=2), scaled_mm_multiple_of_16), shapes)
    assert res["shapes"][0]["torch_paths"]["scaled_grouped_mm"]["mismatches_vs_fp32"] == 1
    # 3. No grouped FP8 function at all: that path fails with the reason, the loop still runs.
    _, res, lib = run(fake_torch(None, scaled_mm_multiple_of_16), shapes)
    p = res["shapes"][0]["torch_paths"]
    assert p["scaled_grouped_mm"]["ran"] is None
    assert "torch has no _scaled_grouped_mm" in " ".join(p["scaled_grouped_mm"]["torch_errors"])
    assert [c[0] for c in lib.calls if c[1] > 0] == ["scaled_mm_loop"], lib.calls
    assert p["scaled_mm_loop"]["mismatches_vs_fp32"] == 0
    # 4. The program wrote nothing: the driver still leaves a results file saying so.
    rc, res, _ = run(fake_torch(grouped_mm_refusing_fast(), scaled_mm_multiple_of_16), shapes, write=False)
    assert res["error"].startswith("no results from the program"), res
    print("test_grouped_same_process: 4 cases passed")


if __name__ == "__main__":
    main()
