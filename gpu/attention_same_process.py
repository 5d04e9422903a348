#!/usr/bin/env python3
"""The attention measurement with every baseline in one process (issue 31).

Loads the `rust_kernels` program as a shared library (gpu/rust-kernels-lib/build.sh) into this
Python process; its `smemdesc_attn_*` entry points (gpu/src/bin/rust_kernels/attn.rs) load the
Rust PTX module and launch the attention kernel on torch's tensors, on the legacy default stream
of the primary context torch uses. For each configuration this script

* computes an f32 reference (bf16 inputs upcast, softmax in f32, in chunks of heads) and the
  reference log-sum-exp;
* measures the max / mean absolute error of our O and of every SDPA backend torch has here
  (cuDNN, flash, efficient via torch.nn.attention.sdpa_kernel) against it, and of our LSE;
* times ours and each backend in rounds, each round in a new (seeded) random order, each
  timing after an untimed run of the same implementation (CUDA events, median of the rounds),
  with
  FLOPs = 4·b·h·s²·d (halved when causal), as FlashAttention reports;

and runs the negative control (P's A registers paired wrongly) which must fail.

With `--before LIB2.so PTX2` a second build (the recorded commit's library and PTX; LIB2 must be
another file than LIB, so the process holds two copies of the library's state) is timed in the
same rounds as `before` (its variant 8), its O and LSE compared bit for bit with ours, and
`ours_again` (variant 8 a second time) is the noise control.

With `--fp8` it runs the FP8 forward instead (issue 47, `run_fp8`): e4m3 Q, K, V against the
f32 reference of the same quantised inputs, with its negative control, beside torch's FP8 SDPA
if it has one (else the exception) and bf16 cuDNN on the same (dequantised) inputs.

Usage: attention_same_process.py LIB.so KERNELS.ptx OUT_DIR [--smoke] [--rounds R] [--only N]
       [--before LIB2.so PTX2] [--fp8]
"""
import argparse
import ctypes
import json
import math
import os
import random
import statistics
import sys
import time

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

CONFIGS = [(b, h, s, d, c)
           for (b, h, s) in [(8, 16, 4096), (4, 16, 8192), (2, 16, 16384), (16, 32, 2048)]
           for d in (64, 128) for c in (False, True)]
SMOKE = [(1, 2, 256, 64, False), (1, 2, 256, 64, True), (1, 2, 384, 128, False),
         (1, 2, 384, 128, True), (2, 3, 1024, 128, True), (2, 3, 1024, 64, False),
         (4, 16, 1024, 128, True), (4, 16, 1024, 64, False),  # these two: more tiles than SMs
         (2, 3, 1024, 128, False),
         # 18 heads: variant 16's order over a group of 16 heads and one of 2, 144 tiles
         (2, 9, 1024, 128, True)]
EXPERIMENTS = False
BEFORE = None  # Ours of the recorded build (--before)
BACKENDS = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION,
            "efficient": SDPBackend.EFFICIENT_ATTENTION}


class Ours:
    def __init__(self, lib_path, ptx):
        torch.zeros(1, device="cuda")  # the primary context, current on this thread
        self.lib = ctypes.CDLL(lib_path)
        self.lib.smemdesc_attn_load.argtypes = [ctypes.c_char_p]
        self.lib.smemdesc_attn_fwd.argtypes = [ctypes.c_uint32] + [ctypes.c_uint64] * 5 + \
            [ctypes.c_uint32] * 5 + [ctypes.c_float]
        self.lib.smemdesc_attn_info.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
        self.lib.smemdesc_attn_info.restype = ctypes.c_size_t
        self.lib.smemdesc_attn_auto_variant.argtypes = [ctypes.c_uint32] * 3
        self.lib.smemdesc_attn_auto_variant.restype = ctypes.c_uint32
        t0 = time.time()
        if self.lib.smemdesc_attn_load(ptx.encode()) != 0:
            raise RuntimeError("smemdesc_attn_load failed")
        self.load_s = time.time() - t0

    def auto_variant(self, d, causal, s):
        """The variant the host's variant 8 launches for the shape."""
        return self.lib.smemdesc_attn_auto_variant(d, int(causal), s)

    def info(self):
        buf = ctypes.create_string_buffer(1 << 16)
        self.lib.smemdesc_attn_info(buf, len(buf))
        return json.loads(buf.value.decode())

    def __call__(self, q, k, v, causal, o=None, lse=None, variant=0):
        b, h, s, d = q.shape
        o = torch.empty_like(q) if o is None else o
        lse = torch.empty((b, h, s), device=q.device, dtype=torch.float32) if lse is None else lse
        rc = self.lib.smemdesc_attn_fwd(variant, q.data_ptr(), k.data_ptr(), v.data_ptr(),
                                        o.data_ptr(), lse.data_ptr(), b, h, s, d, int(causal),
                                        1.0 / math.sqrt(d))
        if rc != 0:
            raise RuntimeError(f"smemdesc_attn_fwd returned {rc}")
        return o, lse


def reference(q, k, v, causal):
    """f32 O and LSE (natural log), chunked over heads so S fits in memory."""
    b, h, s, d = q.shape
    qf, kf, vf = (x.reshape(b * h, s, d) for x in (q, k, v))
    out = torch.empty((b * h, s, d), device=q.device, dtype=torch.float32)
    lse = torch.empty((b * h, s), device=q.device, dtype=torch.float32)
    step = max(1, (1 << 29) // (s * s))  # at most 2 GiB of f32 S at a time
    mask = torch.ones(s, s, device=q.device, dtype=torch.bool).tril() if causal else None
    for i in range(0, b * h, step):
        sl = slice(i, min(b * h, i + step))
        sc = torch.matmul(qf[sl].float(), kf[sl].float().transpose(1, 2)) / math.sqrt(d)
        if causal:
            sc.masked_fill_(~mask, float("-inf"))
        lse[sl] = torch.logsumexp(sc, dim=-1)
        out[sl] = torch.matmul(torch.softmax(sc, dim=-1), vf[sl].float())
        del sc
    return out.reshape(b, h, s, d), lse.reshape(b, h, s)


def errors(x, ref):
    e = (x.float() - ref).abs()
    return float(e.max().item()), float(e.mean().item())


def sdpa(backend, causal):
    def f(q, k, v):
        with sdpa_kernel([backend]):
            return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    return f


def time_call(f, iters):
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0.record()
    for _ in range(iters):
        f()
    e1.record()
    e1.synchronize()
    return e0.elapsed_time(e1) / iters


def run_config(ours, cfg, rounds, timing=True):
    b, h, s, d, causal = cfg
    g = torch.Generator(device="cuda").manual_seed(1000 + s + d + int(causal))
    q, k, v = (torch.randn((b, h, s, d), device="cuda", dtype=torch.bfloat16, generator=g)
               for _ in range(3))
    ref, ref_lse = reference(q, k, v, causal)
    o = torch.empty_like(q)
    lse = torch.empty((b, h, s), device="cuda", dtype=torch.float32)
    # The recorded kernel: variant 8, the host's choice by shape (rust_kernels/attn.rs,
    # auto_variant, asked through smemdesc_attn_auto_variant): for d = 64 the serial kernel
    # without a producer warpgroup, two CTAs per SM (variant 10, attn_fwd_d64[_causal]_ns_rust);
    # for d = 128 the overlapped schedule (FlashAttention-3's intra-warpgroup overlap, K and V in
    # pipelines of their own): with the mask persistent, the query tiles heaviest first across
    # groups of 16 heads (variant 16, attn_fwd_d128_causal_p_lpt_rust, issue 47), without it
    # persistent in clusters of two query tiles that share K and V by TMA multicast (variant 15,
    # attn_fwd_d128_p_cl2_rust) where every head has an even number of query tiles, else one
    # tile per CTA (variant 2, attn_fwd_d128_ov_rust). The one-tile-per-CTA overlapped kernel
    # (variant 2) and the serial kernel (P packed before its P·V wgmma for d = 128, variant 6;
    # between them for d = 64, variant 0) are measured beside it; with --experiments the
    # persistent causal d = 128 kernel in the head-major order (variant 5) and, for d = 64,
    # variant 10 by name.
    serial_var = 6 if d == 128 else 0
    auto = ours.auto_variant(d, causal, s)
    c = "_causal" if causal else ""
    row = {"batch": b, "heads": h, "seqlen": s, "head_dim": d, "causal": causal,
           "kernel": {2: f"overlapped (variant 8 -> 2, attn_fwd_d{d}{c}_ov_rust)",
                      5: f"persistent overlapped (variant 8 -> 5, attn_fwd_d{d}{c}_p_rust)",
                      16: "overlapped, persistent, the query tiles heaviest first across groups "
                          f"of 16 heads (variant 8 -> 16, attn_fwd_d{d}{c}_p_lpt_rust)",
                      15: "overlapped, persistent, clusters of two query tiles sharing K and V "
                          f"by multicast (variant 8 -> 15, attn_fwd_d{d}_p_cl2_rust)",
                      10: "serial, no producer warpgroup, two CTAs per SM "
                          f"(variant 8 -> 10, attn_fwd_d{d}{c}_ns_rust)"}[auto]}
    variants = {"ours": 8, "ours_overlapped": 2, "ours_serial": serial_var}
    if d == 128 and not causal and (s // 128) % 2 == 0:
        # The clustered kernel with one tile per CTA.
        variants["ours_cluster2"] = 14
    if EXPERIMENTS:
        if d == 128 and causal:
            # Issue 47: the persistent kernel in the head-major order (5), beside the recorded
            # one (8 -> 16: the same with the query tiles heaviest first across groups of 16
            # heads).
            variants["ours_persistent"] = 5
        if d == 64:
            # No producer warpgroup, two CTAs per SM (variant 10).
            variants["ours_nonspec"] = 10
    impls = {}
    for name, var in variants.items():
        o.fill_(float("nan"))
        lse.fill_(float("nan"))
        ours(q, k, v, causal, o, lse, variant=var)
        torch.cuda.synchronize()
        mx, mean = errors(o, ref)
        lmx, lmean = errors(lse, ref_lse)
        nan = bool(torch.isnan(o).any().item() or torch.isnan(lse).any().item())
        if name == "ours":
            row.update({"max_abs_err": mx, "mean_abs_err": mean, "lse_max_abs_err": lmx,
                        "lse_mean_abs_err": lmean, "nan": nan})
        else:
            row[name] = {"max_abs_err": mx, "mean_abs_err": mean, "lse_max_abs_err": lmx, "nan": nan}
        impls[name] = (lambda var=var: ours(q, k, v, causal, o, lse, variant=var))
    if BEFORE is not None:
        o2, lse2 = torch.empty_like(o), torch.empty_like(lse)
        o2.fill_(float("nan"))
        BEFORE(q, k, v, causal, o2, lse2, variant=8)
        torch.cuda.synchronize()
        ours(q, k, v, causal, o, lse, variant=8)
        torch.cuda.synchronize()
        row["before"] = {"max_abs_err": errors(o2, ref)[0],
                         "o_bit_equal_to_ours": bool(torch.equal(o, o2)),
                         "lse_bit_equal_to_ours": bool(torch.equal(lse, lse2))}
        impls["before"] = (lambda: BEFORE(q, k, v, causal, o2, lse2, variant=8))
        impls["ours_again"] = (lambda: ours(q, k, v, causal, o, lse, variant=8))
    torch_err = {}
    for name, be in BACKENDS.items():
        f = sdpa(be, causal)
        try:
            x = f(q, k, v)
            torch.cuda.synchronize()
            torch_err[name] = errors(x, ref)
            impls[name] = (lambda f=f: f(q, k, v))
        except Exception as e:  # noqa: BLE001 - a backend that does not run here
            torch_err[name] = str(e)[:200]
    row["torch_errors"] = {n: (v if isinstance(v, str) else {"max_abs_err": v[0], "mean_abs_err": v[1]})
                           for n, v in torch_err.items()}
    del ref, ref_lse
    if timing:
        flops = 4 * b * h * s * s * d / (2 if causal else 1)
        ms = {n: [] for n in impls}
        for f in impls.values():  # warm up
            f()
        torch.cuda.synchronize()
        iters = {n: max(3, min(50, int(40.0 / max(time_call(f, 2), 1e-3)))) for n, f in impls.items()}
        # The GPU's clock follows its power draw: the same kernel timed right after the slowest
        # backend ran up to 12 % faster than right after itself
        # (gpu/device-logs/2026-11-27-attention-v11-order), and an untimed run of the same
        # implementation before each timing did not remove it: in a fixed cycle, `ours` (after
        # `efficient`) still came out up to 7 % faster than `ours_overlapped`, the same kernel
        # timed right after it (gpu/device-logs/2026-11-28-attention-v19). So each round times
        # the implementations in a new random order (seeded: the run is repeatable), each timing
        # after an untimed run of the same implementation as long as the timed one.
        names = list(impls)
        rng = random.Random(1000 + s + d + int(causal))
        for r in range(rounds):
            order = names[:]
            rng.shuffle(order)
            for n in order:
                time_call(impls[n], iters[n])
                ms[n].append(time_call(impls[n], iters[n]))
        tf = {n: flops / (statistics.median(v) * 1e-3) / 1e12 for n, v in ms.items()}
        row["median_ms"] = {n: statistics.median(v) for n, v in ms.items()}
        row["round_ms"] = ms
        row["median_tflops"] = tf
        row["ours_median_tflops"] = tf["ours"]
        best = max((n for n in tf if n in BACKENDS), key=lambda n: tf[n], default=None)
        row["torch_best_backend"] = best
        row["torch_best_median_tflops"] = tf.get(best)
        if best is not None and not isinstance(torch_err[best], str):
            row["torch_best_max_abs_err"], row["torch_best_mean_abs_err"] = torch_err[best]
        row["ours_vs_best"] = tf["ours"] / tf[best] if best else None
        if "before" in tf:
            row["new_vs_before"] = tf["ours"] / tf["before"]
            row["ours_vs_ours_again"] = tf["ours"] / tf["ours_again"]
    ok_err = [v[0] for v in torch_err.values() if not isinstance(v, str)]
    row["within_torch_max_err"] = bool(ok_err) and row["max_abs_err"] <= max(ok_err) * 1.0 + 1e-6
    return row


def negative_control(ours, variant=1):
    b, h, s, d = 2, 4, 1024, 128
    g = torch.Generator(device="cuda").manual_seed(7)
    q, k, v = (torch.randn((b, h, s, d), device="cuda", dtype=torch.bfloat16, generator=g)
               for _ in range(3))
    ref, _ = reference(q, k, v, False)
    good, _ = ours(q, k, v, False, variant=variant - 1)
    bad, _ = ours(q, k, v, False, variant=variant)
    torch.cuda.synchronize()
    gm, gmean = errors(good, ref)
    bm, bmean = errors(bad, ref)
    return {"name": "P's A registers 0<->1, 2<->3 swapped (accumulator rows g and g+8 exchanged "
                    "in the chained operand: a wrong accumulator->A pairing)",
            "kernel": {1: "attn_fwd_d128_badpair_rust", 3: "attn_fwd_d128_badpair_ov_rust",
                       7: "attn_fwd_d128_badpair_pf_rust"}[variant],
            "shape": [b, h, s, d],
            "declared_max_abs_err": gm, "declared_mean_abs_err": gmean,
            "control_max_abs_err": bm, "control_mean_abs_err": bmean,
            "fails": bool(bm > 100 * max(gm, 1e-3))}


FP8_CONFIGS = [(16, 32, 2048, 128, False), (16, 32, 2048, 128, True)]
FP8_SMOKE = [(1, 2, 384, 128, False), (2, 3, 1024, 128, True)]
# The stated tolerance of the FP8 forward against an f32 reference of the same e4m3 inputs: P
# is rounded to e4m3 (3 mantissa bits, relative error up to 2^-4, about 3.6 % rms) before P·V,
# so O's mean error is a few % of its mean magnitude (which is small, about 0.03, over 2048
# random keys), and a row with a few keys (the first rows under the mask) can be off by a few
# hundredths of |V|: max abs error <= 0.3, mean abs error <= 0.1 x mean |O_ref|. The negative
# control (keys unpermuted) must exceed 0.5 x mean |O_ref|.
FP8_MAX_ABS, FP8_MEAN_REL, FP8_CONTROL_REL = 0.3, 0.1, 0.5


def key_of(k):
    """attn_fp8_decl::key_of: the key an e4m3 A fragment holds at k position k of a k32 step."""
    h, q, i = k >> 4, (k >> 2) & 3, k & 3
    return 16 * h + 2 * q + (i & 1) + 8 * (i >> 1)


def vt_for_kernel(v8, permute=True):
    """V^T as the FP8 kernel reads it: [b*h*d, s] e4m3, keys contiguous, permuted within each 32
    (permute=False: the plain transpose, the negative control)."""
    b, h, s, d = v8.shape
    u = v8.view(torch.uint8).reshape(b * h, s // 32, 32, d)
    if permute:
        perm = torch.tensor([key_of(k) for k in range(32)], device=v8.device)
        u = u[:, :, perm, :]
    return u.reshape(b * h, s, d).transpose(1, 2).contiguous().view(torch.float8_e4m3fn)


def run_fp8(ours, cfg, rounds, timing=True):
    """The FP8 forward (variant 19) on e4m3 Q, K, V against the f32 reference of the same
    quantised inputs; cuDNN's FP8 SDPA tried (the exception recorded if torch has none), bf16
    cuDNN and our bf16 kernel on the dequantised inputs for context."""
    b, h, s, d, causal = cfg
    g = torch.Generator(device="cuda").manual_seed(2000 + s + d + int(causal))
    q, k, v = (torch.randn((b, h, s, d), device="cuda", dtype=torch.bfloat16, generator=g)
               for _ in range(3))
    q8, k8, v8 = (x.to(torch.float8_e4m3fn) for x in (q, k, v))
    qb, kb, vb = (x.to(torch.bfloat16) for x in (q8, k8, v8))  # exact: e4m3 is in bf16
    ref, ref_lse = reference(qb, kb, vb, causal)
    vt = vt_for_kernel(v8)
    o = torch.empty_like(qb)
    lse = torch.empty((b, h, s), device="cuda", dtype=torch.float32)
    row = {"batch": b, "heads": h, "seqlen": s, "head_dim": d, "causal": causal,
           "kernel": "attn_fp8_d128%s_rust (variant 19)" % ("_causal" if causal else ""),
           "inputs": "randn bf16 -> float8_e4m3fn (no scales); V^T [b*h*d, s] with keys "
                     "permuted within each 32 (key_of), written once per V, outside the timing",
           "reference": "f32 on the same e4m3 inputs",
           "tolerance": {"max_abs": FP8_MAX_ABS, "mean_abs_rel_to_mean_abs_ref": FP8_MEAN_REL}}
    ref_mean = float(ref.abs().mean().item())
    row["ref_mean_abs"] = ref_mean
    o.fill_(float("nan"))
    ours(q8, k8, vt, causal, o, lse, variant=19)
    torch.cuda.synchronize()
    mx, mean = errors(o, ref)
    lmx, _ = errors(lse, ref_lse)
    nan = bool(torch.isnan(o).any().item() or torch.isnan(lse).any().item())
    row.update({"max_abs_err": mx, "mean_abs_err": mean, "lse_max_abs_err": lmx, "nan": nan,
                "within_tolerance": (not nan) and mx <= FP8_MAX_ABS
                and mean <= FP8_MEAN_REL * ref_mean})
    # The negative control: V^T without the key permutation must fail the tolerance.
    o2 = torch.empty_like(o)
    ours(q8, k8, vt_for_kernel(v8, permute=False), causal, o2, lse.clone(), variant=19)
    torch.cuda.synchronize()
    cmx, cmean = errors(o2, ref)
    row["negative_control_unpermuted_vt"] = {"max_abs_err": cmx, "mean_abs_err": cmean,
                                             "fails": bool(cmean > FP8_CONTROL_REL * ref_mean)}
    del o2
    ob, lseb = torch.empty_like(qb), torch.empty_like(lse)
    impls = {"ours_fp8": (lambda: ours(q8, k8, vt, causal, o, lse, variant=19)),
             "ours_bf16": (lambda: ours(qb, kb, vb, causal, ob, lseb, variant=8))}
    tries = {}
    for name, be in [("cudnn_fp8", SDPBackend.CUDNN_ATTENTION), ("any_fp8", None)]:
        try:
            if be is None:
                f = (lambda: F.scaled_dot_product_attention(q8, k8, v8, is_causal=causal))
            else:
                f = (lambda be=be: sdpa(be, causal)(q8, k8, v8))
            x = f()
            torch.cuda.synchronize()
            tries[name] = {"ran": True, "dtype": str(x.dtype),
                           "max_abs_err": errors(x, ref)[0], "mean_abs_err": errors(x, ref)[1]}
            impls[name] = f
            break
        except Exception as e:  # noqa: BLE001 - record why torch has no FP8 SDPA here
            tries[name] = {"ran": False, "exception": f"{type(e).__name__}: {str(e)[:400]}"}
    row["torch_fp8_sdpa"] = tries
    fb = sdpa(SDPBackend.CUDNN_ATTENTION, causal)
    try:
        x = fb(qb, kb, vb)
        torch.cuda.synchronize()
        row["cudnn_bf16_errors"] = dict(zip(("max_abs_err", "mean_abs_err"), errors(x, ref)))
        impls["cudnn_bf16"] = (lambda: fb(qb, kb, vb))
    except Exception as e:  # noqa: BLE001
        row["cudnn_bf16_errors"] = str(e)[:200]
    del ref, ref_lse
    if timing:
        flops = 4 * b * h * s * s * d / (2 if causal else 1)
        for f in impls.values():
            f()
        torch.cuda.synchronize()
        iters = {n: max(3, min(50, int(40.0 / max(time_call(f, 2), 1e-3)))) for n, f in impls.items()}
        ms = {n: [] for n in impls}
        names = list(impls)
        rng = random.Random(2000 + s + d + int(causal))
        for _ in range(rounds):
            order = names[:]
            rng.shuffle(order)
            for n in order:
                time_call(impls[n], iters[n])
                ms[n].append(time_call(impls[n], iters[n]))
        tf = {n: flops / (statistics.median(v) * 1e-3) / 1e12 for n, v in ms.items()}
        row.update({"median_ms": {n: statistics.median(v) for n, v in ms.items()},
                    "round_ms": ms, "median_tflops": tf})
        for n in ("cudnn_bf16", "cudnn_fp8", "any_fp8", "ours_bf16"):
            if n in tf:
                row[f"ours_fp8_vs_{n}"] = tf["ours_fp8"] / tf[n]
    return row


def fp8_main(ours, out, rounds, smoke):
    rows = []
    for cfg in (FP8_SMOKE if smoke else FP8_CONFIGS):
        r = run_fp8(ours, cfg, rounds, timing=not smoke)
        print(json.dumps({k: r[k] for k in r if k != "round_ms"}), flush=True)
        rows.append(r)
        torch.cuda.empty_cache()
    res = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
           "cudnn": torch.backends.cudnn.version(), "fp8": rows,
           "ok": all(r["within_tolerance"] and r["negative_control_unpermuted_vt"]["fails"]
                     for r in rows)}
    json.dump(res, open(os.path.join(out, "attention_fp8%s.json" % ("_smoke" if smoke else "")),
                        "w"), indent=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lib")
    ap.add_argument("ptx")
    ap.add_argument("out")
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--only", type=str, default=None, help="comma-separated config indices")
    ap.add_argument("--experiments", action="store_true", help="also time the issue-47 variants")
    ap.add_argument("--fp8", action="store_true",
                    help="the FP8 forward (variant 19) instead, with --smoke its exactness only")
    ap.add_argument("--before", nargs=2, metavar=("LIB2", "PTX2"), default=None,
                    help="a second build timed beside ours (another file than LIB)")
    a = ap.parse_args()
    global EXPERIMENTS, BEFORE
    EXPERIMENTS = a.experiments or a.smoke
    os.makedirs(a.out, exist_ok=True)
    ours = Ours(a.lib, a.ptx)
    if a.before:
        if os.path.realpath(a.before[0]) == os.path.realpath(a.lib):
            sys.exit("--before: LIB2 must be another file than LIB (one library state each)")
        BEFORE = Ours(*a.before)
    info = ours.info()
    print(json.dumps(info["kernels"]), f"load {ours.load_s:.1f} s", flush=True)
    if a.fp8:
        return fp8_main(ours, a.out, a.rounds, a.smoke)
    if a.smoke:
        rows = []
        for cfg in SMOKE:
            r = run_config(ours, cfg, 1, timing=False)
            print(json.dumps(r), flush=True)
            rows.append(r)
        nc = [negative_control(ours, 7), negative_control(ours, 1), negative_control(ours, 3)]
        print(json.dumps(nc), flush=True)
        json.dump({"smoke": rows, "negative_controls": nc, "info": info},
                  open(os.path.join(a.out, "attention_smoke.json"), "w"), indent=1)
        return
    configs = CONFIGS if a.only is None else [CONFIGS[int(i)] for i in a.only.split(",")]
    rows = []
    res = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
           "cudnn": torch.backends.cudnn.version(), "baselines_in_same_process": True,
           "flops": "4*b*h*s^2*d, halved when causal", "reference": "f32 (bf16 inputs upcast)",
           "configs": rows, "info": info}
    path = os.path.join(a.out, "results_attention.json")
    for cfg in configs:
        r = run_config(ours, cfg, a.rounds)
        print(json.dumps({k: r[k] for k in ("batch", "heads", "seqlen", "head_dim", "causal",
                                            "max_abs_err", "lse_max_abs_err", "median_tflops",
                                            "ours_median_tflops", "torch_best_backend",
                                            "torch_best_median_tflops", "torch_best_max_abs_err",
                                            "before", "new_vs_before", "ours_vs_ours_again")
                          if k in r}), flush=True)
        rows.append(r)
        json.dump(res, open(path, "w"), indent=1)
        torch.cuda.empty_cache()
    res["negative_controls"] = [negative_control(ours, 7), negative_control(ours, 1),
                                negative_control(ours, 3)]
    json.dump(res, open(path, "w"), indent=1)
    print(json.dumps(res["negative_controls"]), flush=True)


if __name__ == "__main__":
    main()
