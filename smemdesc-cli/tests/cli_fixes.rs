//! Issue 28, item 7: `decode` without `--arch` reads bit 46 (the sm100 descriptor's version
//! field, bits 46-48 = 0b001 in the PTX ISA's tcgen05 shared-memory descriptor; reserved 0 in
//! the sm90 wgmma descriptor); `decode --idesc` of a value no kind reads as legal exits non-zero;
//! `0x+1` is not hex; `tmem` refuses what tcgen05.mma refuses (kind/accumulator pairs, kind::i8
//! N) and warns past 255 registers per thread.

use crate::common::*;

#[test]
fn decode_without_arch_reads_bit_46() {
    // CuTe's golden sm90 descriptor (K-major 128B bf16): bit 46 clear.
    let (code, out, err) = run(&["decode", "0x4000004000010000"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("sm90 descriptor"), "{out}");
    assert!(out.contains("--arch not given: read as sm90"), "{out}");
    // Start address 0x400 >> 4, LBO 16 B, version bit 46 set: sm100.
    let (code, out, err) = run(&["decode", "0x0000400000010040"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("sm100 descriptor"), "{out}");
    assert!(out.contains("--arch not given: read as sm100"), "{out}");
    // --arch still decides when given (and no inference note).
    let (code, out, _) = run(&["decode", "0x0000400000010040", "--arch", "sm90"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("sm90 descriptor") && !out.contains("--arch not given"),
        "{out}"
    );
}

#[test]
fn signs_are_not_hex_or_decimal_digits() {
    for args in [
        &["decode", "0x+1", "--arch", "sm90"][..],
        &["decode", "+1", "--decimal", "--arch", "sm90"],
        &["decode", "--idesc", "0x+1"],
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{args:?} accepted: {out}");
        assert!(err.contains("malformed number"), "{err}");
    }
}

#[test]
fn idesc_that_no_kind_reads_as_legal_exits_1() {
    // M = 0 is no tcgen05 shape (PTX: M 64 or 128 for cta_group::1): every kind's reading has a
    // problem. The report is still printed.
    let (code, out, _) = run(&["decode", "--idesc", "0x0"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("not a legal descriptor of any kind"), "{out}");
    // The golden idesc.tsv's 0x040c0000 (kind::f16 and kind::f8f6f4) is legal: 0.
    let (code, _, err) = run(&["decode", "--idesc", "0x040c0000"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn tmem_refuses_what_tcgen05_mma_refuses() {
    // PTX tcgen05.mma: kind::i8 accumulates in s32 only; kind::f16 in f16 or f32.
    let base = ["tmem", "--m", "128", "--load", "32x32b.x16"];
    for (extra, want) in [
        (
            &["--n", "256", "--kind", "i8"][..],
            "accumulator f32 is not legal for kind::i8",
        ),
        (
            &["--n", "256", "--kind", "f16", "--accum", "s32"],
            "accumulator s32 is not legal for kind::f16",
        ),
        // kind::i8, cta_group::1: N is 8, 16, 24, 32 or a multiple of 16 from 48.
        (&["--n", "40", "--kind", "i8", "--accum", "s32"], "n = 40"),
    ] {
        let args = [&base[..], extra].concat();
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?} accepted: {out}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    let (code, _, err) =
        run(&[&base[..], &["--n", "48", "--kind", "i8", "--accum", "s32"]].concat());
    assert_eq!(code, 0, "{err}");
}

#[test]
fn tmem_warns_past_255_registers_per_thread() {
    // f32, N = 256: one stage is 256 columns, one 32-bit register each per thread.
    let (code, _, err) = run(&["tmem", "--m", "128", "--n", "256", "--load", "32x32b.x16"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning: one accumulator stage is 256 registers per thread"),
        "{err}"
    );
    let (code, _, err) = run(&["tmem", "--m", "128", "--n", "128", "--load", "32x32b.x16"]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("warning"), "{err}");
}

/// `banks` in tile mode for a 64x64 bf16 A tile of mma.sync m16n8k16, plus `extra`.
fn banks(extra: &[&str]) -> (i32, String, String) {
    let base = [
        "banks",
        "--arch",
        "sm90",
        "--mma",
        "m16n8k16",
        "--dtype",
        "bf16",
        "--operand",
        "A",
        "--tile",
        "64x64",
    ];
    run(&[&base[..], extra].concat())
}

#[test]
fn banks_pad_is_16_byte_rows_without_a_swizzle() {
    // ldmatrix: each lane's row address must be 16-B aligned (PTX ISA, ldmatrix); an 8-B pad
    // misaligns every other row.
    let (code, out, err) = banks(&["--pad", "8"]);
    assert_eq!(code, 2, "accepted: {out}");
    assert!(err.contains("not a multiple of 16"), "{err}");
    // A pad replaces the swizzle: both at once is refused, not read as the pad alone.
    let (code, out, err) = banks(&["--swizzle", "128B", "--pad", "16"]);
    assert_eq!(code, 2, "accepted: {out}");
    assert!(
        err.contains("does not combine with --swizzle 128B"),
        "{err}"
    );
    let (code, _, err) = banks(&["--swizzle", "none", "--pad", "16"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = banks(&["--pad", "16"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn fragment_wgmma_k_follows_the_dtype() {
    // PTX wgmma: K = 16 for f16/bf16, 8 for tf32, 32 for 8-bit types (32 bytes of K).
    let d = ["fragment", "--arch", "sm90", "--operand", "D"];
    for (mma, dtype, ok) in [
        ("m64n256k16", "bf16", true),
        ("m64n256k99", "bf16", false),
        ("m64n256k16", "e4m3", false),
        ("m64n256k32", "e4m3", true),
        ("m64n128k8", "tf32", true),
    ] {
        let (code, out, err) = run(&[&d[..], &["--mma", mma, "--dtype", dtype]].concat());
        assert_eq!(code == 0, ok, "{mma} {dtype}: {out}{err}");
    }
    // Without --dtype: K must be a wgmma K of some type.
    let (code, _, err) = run(&[&d[..], &["--mma", "m64n256k16"]].concat());
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&[&d[..], &["--mma", "m64n256k99"]].concat());
    assert_eq!(code, 2);
    assert!(err.contains("K = 99 is no wgmma K"), "{err}");
}

#[test]
fn dtype_in_any_case_and_mma_as_the_macros_write_it() {
    let tile = [
        "tile",
        "--arch",
        "sm90",
        "--operand",
        "A",
        "--tile",
        "128x64",
        "--major",
        "K",
        "--json",
    ];
    let json = |extra: &[&str]| {
        let (code, out, err) = run(&[&tile[..], extra].concat());
        assert_eq!(code, 0, "{extra:?}: {err}");
        out
    };
    let lower = json(&["--dtype", "bf16", "--mma", "m64n256k16"]);
    assert_eq!(json(&["--dtype", "BF16", "--mma", "m64n256k16"]), lower);
    // (M, N): K is 32 bytes of bf16 = 16, the macro's implied K.
    assert_eq!(json(&["--dtype", "bf16", "--mma", "(64, 256)"]), lower);
    assert_eq!(json(&["--dtype", "bf16", "--mma", "64,256"]), lower);
    let (code, _, err) = run(&[
        "fragment",
        "--arch",
        "sm80",
        "--mma",
        "m16n8k16",
        "--dtype",
        "F16",
        "--operand",
        "A",
    ]);
    assert_eq!(code, 0, "{err}");
}
