//! tcgen05 instruction descriptors: every row of `idesc.tsv` and `idesc_block_scaled.tsv` (CuTe
//! `UMMA::make_instr_desc` / `make_instr_desc_block_scaled`) through the core, plus an independent
//! bit-packing model written from the PTX ISA "Instruction descriptor" tables, and
//! decode(encode(x)) == x over a generated grid.

use crate::common::{self, read_tsv};
use smemdesc::core::{
    AccumType, ElementType, Idesc, IdescError, InstrDesc, Major, MmaKind, ScaleFormat,
};
use std::collections::HashMap;

type Row = HashMap<String, String>;

fn ty(s: &str) -> ElementType {
    ElementType::from_name(s).unwrap_or_else(|| panic!("type {s:?}"))
}

fn major(s: &str) -> Major {
    Major::from_name(s).unwrap_or_else(|| panic!("major {s:?}"))
}

fn num(r: &Row, k: &str) -> u32 {
    common::num(r, k)
}

fn hex32(r: &Row) -> u32 {
    u32::from_str_radix(r["idesc"].trim_start_matches("0x"), 16).expect("idesc hex")
}

/// The PTX ISA tables, transcribed independently of the core: (bit offset, value) pairs, dense
/// kinds (Table "tf32, f16, f8f6f4, i8") — format codes spelled out here again.
#[allow(clippy::too_many_arguments)] // one argument per column of the PTX table
fn model_dense(
    kind: &str,
    a: &str,
    b: &str,
    c: &str,
    m: u32,
    n: u32,
    am: &str,
    bm: &str,
    na: u32,
    nb: u32,
    sat: u32,
) -> u32 {
    let code = |t: &str| -> u32 {
        match (kind, t) {
            ("f16", "f16") => 0,
            ("f16", "bf16") => 1,
            ("tf32", "tf32") => 2,
            ("f8f6f4", "e4m3") => 0,
            ("f8f6f4", "e5m2") => 1,
            ("f8f6f4", "e2m3") => 3,
            ("f8f6f4", "e3m2") => 4,
            ("f8f6f4", "e2m1") => 5,
            ("i8", "u8") => 0,
            ("i8", "s8") => 1,
            other => panic!("no PTX code for {other:?}"),
        }
    };
    let d = match c {
        "f16" => 0,
        "f32" => 1,
        "s32" => 2,
        _ => panic!("c {c}"),
    };
    (sat << 3)
        | (d << 4)
        | (code(a) << 7)
        | (code(b) << 10)
        | (na << 13)
        | (nb << 14)
        | (u32::from(am == "MN") << 15)
        | (u32::from(bm == "MN") << 16)
        | ((n / 8) << 17)
        | ((m / 16) << 24)
}

/// PTX tables for `.kind::mxf8f6f4` and `.kind::mxf4`/`mxf4nvf4`: M>>7 at bit 27.
#[allow(clippy::too_many_arguments)]
fn model_block_scaled(
    kind: &str,
    a: &str,
    b: &str,
    sf: &str,
    m: u32,
    n: u32,
    am: &str,
    bm: &str,
) -> u32 {
    let code = |t: &str| -> u32 {
        match (kind, t) {
            ("mxf4" | "mxf4nvf4", "e2m1") => 1,
            ("mxf8f6f4", "e4m3") => 0,
            ("mxf8f6f4", "e5m2") => 1,
            ("mxf8f6f4", "e2m3") => 3,
            ("mxf8f6f4", "e3m2") => 4,
            ("mxf8f6f4", "e2m1") => 5,
            other => panic!("no PTX code for {other:?}"),
        }
    };
    let s = u32::from(sf == "ue8m0");
    (code(a) << 7)
        | (code(b) << 10)
        | (u32::from(am == "MN") << 15)
        | (u32::from(bm == "MN") << 16)
        | ((n / 8) << 17)
        | (s << 23)
        | ((m / 128) << 27)
}

/// A field of the core's field table, read from `raw`.
fn field(kind: MmaKind, name: &str, raw: u32) -> u32 {
    smemdesc::core::idesc_fields(kind)
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no field {name}"))
        .get(raw)
}

fn dense_desc(r: &Row) -> InstrDesc {
    let kind = MmaKind::from_name(&r["kind"]).expect("kind");
    let c = AccumType::from_name(&r["c_dtype"]).expect("c");
    InstrDesc::new(
        kind,
        ty(&r["a_dtype"]),
        ty(&r["b_dtype"]),
        c,
        num(r, "M"),
        num(r, "N"),
    )
    .majors(major(&r["a_major"]), major(&r["b_major"]))
    .negate(num(r, "a_neg") == 1, num(r, "b_neg") == 1)
    .saturate(num(r, "saturate") == 1)
}

#[test]
fn dense_rows_match_cute_and_the_ptx_model() {
    let rows = read_tsv("idesc.tsv");
    assert_eq!(
        rows.len(),
        1979,
        "idesc.tsv row count (README: 1979 rows here)"
    );
    let mut kinds = HashMap::new();
    for r in &rows {
        let want = hex32(r);
        let d = dense_desc(r);
        let got = d
            .encode()
            .unwrap_or_else(|e| panic!("row {}: {e}", r["id"]));
        assert_eq!(got.raw(), want, "row {} core", r["id"]);
        let model = model_dense(
            &r["kind"],
            &r["a_dtype"],
            &r["b_dtype"],
            &r["c_dtype"],
            num(r, "M"),
            num(r, "N"),
            &r["a_major"],
            &r["b_major"],
            num(r, "a_neg"),
            num(r, "b_neg"),
            num(r, "saturate"),
        );
        assert_eq!(model, want, "row {} PTX model", r["id"]);
        assert_eq!(got.runtime64(), u64::from(want) << 32);
        assert_eq!(
            field(d.kind, "n", want),
            num(r, "N") >> 3,
            "row {} n field",
            r["id"]
        );
        assert_eq!(
            field(d.kind, "m", want),
            num(r, "M") >> 4,
            "row {} m field",
            r["id"]
        );
        assert_eq!(
            Idesc::new(want, d.kind).decode().unwrap(),
            d,
            "row {} decode",
            r["id"]
        );
        *kinds.entry(r["kind"].clone()).or_insert(0) += 1;
    }
    assert_eq!(kinds.len(), 4, "all four dense kinds present: {kinds:?}");
}

#[test]
fn block_scaled_rows_match_cute_and_the_ptx_model() {
    let rows = read_tsv("idesc_block_scaled.tsv");
    assert_eq!(
        rows.len(),
        581,
        "idesc_block_scaled.tsv row count (README: 581 rows here)"
    );
    let mut kinds = HashMap::new();
    for r in &rows {
        let want = hex32(r);
        let kind = MmaKind::from_name(&r["kind"]).expect("kind");
        let sf = ScaleFormat::from_name(&r["sf_dtype"]).expect("sf");
        let d = InstrDesc::new(
            kind,
            ty(&r["a_dtype"]),
            ty(&r["b_dtype"]),
            AccumType::F32,
            num(r, "M"),
            num(r, "N"),
        )
        .majors(major(&r["a_major"]), major(&r["b_major"]))
        .scale_format(sf);
        let got = d
            .encode()
            .unwrap_or_else(|e| panic!("row {}: {e}", r["id"]));
        assert_eq!(got.raw(), want, "row {} core", r["id"]);
        let model = model_block_scaled(
            &r["kind"],
            &r["a_dtype"],
            &r["b_dtype"],
            &r["sf_dtype"],
            num(r, "M"),
            num(r, "N"),
            &r["a_major"],
            &r["b_major"],
        );
        assert_eq!(model, want, "row {} PTX model", r["id"]);
        assert_eq!(
            field(kind, "m", want),
            num(r, "M") >> 7,
            "row {} m field",
            r["id"]
        );
        // CUTLASS's reading (M>>4 at bits 24-28) agrees for every legal M.
        assert_eq!(
            (want >> 24) & 0x1f,
            num(r, "M") >> 4,
            "row {} CUTLASS M field",
            r["id"]
        );
        assert_eq!(
            Idesc::new(want, kind).decode().unwrap(),
            d,
            "row {} decode",
            r["id"]
        );
        *kinds.entry(r["kind"].clone()).or_insert(0) += 1;
    }
    assert_eq!(
        kinds.len(),
        3,
        "all three block-scaled kinds present: {kinds:?}"
    );
}

/// decode(encode(x)) == x over every kind × type pair × accumulator × M × N × majors × flags
/// the core accepts, and the independent model agrees on every dense one.
#[test]
fn round_trip_grid() {
    let kinds = MmaKind::ALL;
    let accums = [AccumType::F16, AccumType::F32, AccumType::S32];
    let majors = [Major::K, Major::Mn];
    let (mut legal, mut illegal) = (0u32, 0u32);
    for kind in kinds {
        for a in ElementType::ALL {
            for b in ElementType::ALL {
                for c in accums {
                    for m in [32, 64, 128, 192, 256] {
                        for n in (0..=264).step_by(8) {
                            for (am, bm) in majors
                                .iter()
                                .flat_map(|x| majors.iter().map(move |y| (*x, *y)))
                            {
                                for flags in 0..4u32 {
                                    let d = InstrDesc::new(kind, a, b, c, m, n)
                                        .majors(am, bm)
                                        .negate(flags & 1 == 1, false)
                                        .saturate(flags & 2 == 2);
                                    match d.encode() {
                                        Ok(i) => {
                                            legal += 1;
                                            assert_eq!(i.decode().unwrap(), d, "{d}");
                                            if !smemdesc::core::is_block_scaled(kind) {
                                                let model = model_dense(
                                                    kind.name(),
                                                    a.name(),
                                                    b.name(),
                                                    c.name(),
                                                    m,
                                                    n,
                                                    am.name(),
                                                    bm.name(),
                                                    flags & 1,
                                                    0,
                                                    flags >> 1,
                                                );
                                                assert_eq!(model, i.raw(), "{d}");
                                            }
                                        }
                                        Err(_) => illegal += 1,
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    println!("round trip: {legal} legal, {illegal} refused");
    assert!(
        legal > 20_000 && illegal > legal,
        "{legal} legal / {illegal} illegal"
    );
}

/// PTX "Matrix Shape": cta_group::2 N steps by 16 except kind::i8 (32); cta_group::1 M 64/128
/// (block-scaled 128). Expected sets are spelled out from the table, not from the core.
#[test]
fn cta_group_2_n_rules_follow_ptx() {
    let bf16 = |n| {
        InstrDesc::new(
            MmaKind::F16,
            ElementType::BF16,
            ElementType::BF16,
            AccumType::F32,
            256,
            n,
        )
    };
    let legal: Vec<u32> = (8..=256)
        .step_by(8)
        .filter(|&n| bf16(n).validate().is_ok())
        .collect();
    assert_eq!(legal, (16..=256).step_by(16).collect::<Vec<u32>>());
    let i8 = |n| {
        InstrDesc::new(
            MmaKind::I8,
            ElementType::S8,
            ElementType::S8,
            AccumType::S32,
            256,
            n,
        )
    };
    let legal: Vec<u32> = (8..=256)
        .step_by(8)
        .filter(|&n| i8(n).validate().is_ok())
        .collect();
    assert_eq!(legal, (32..=256).step_by(32).collect::<Vec<u32>>());
    let i8_1 = |n| {
        InstrDesc::new(
            MmaKind::I8,
            ElementType::S8,
            ElementType::S8,
            AccumType::S32,
            128,
            n,
        )
    };
    let legal: Vec<u32> = (8..=256)
        .step_by(8)
        .filter(|&n| i8_1(n).validate().is_ok())
        .collect();
    let mut want = vec![8, 16, 24, 32];
    want.extend((48..=256).step_by(16));
    assert_eq!(legal, want);
    // M = 128 with cta_group::2 (each CTA holds 64 rows) is legal; M = 64 is not.
    assert!(bf16(16).m == 256);
    let m128 = InstrDesc::new(
        MmaKind::F16,
        ElementType::F16,
        ElementType::F16,
        AccumType::F32,
        128,
        48,
    )
    .cta_group(2);
    assert!(m128.validate().is_ok());
    let m64 = InstrDesc::new(
        MmaKind::F16,
        ElementType::F16,
        ElementType::F16,
        AccumType::F32,
        64,
        48,
    )
    .cta_group(2);
    assert!(matches!(
        m64.validate(),
        Err(IdescError::IllegalM { m: 64, .. })
    ));
}

#[test]
fn legality_rules_have_their_own_errors() {
    use ElementType::*;
    let d = |k, a, b, c, m, n| InstrDesc::new(k, a, b, c, m, n);
    assert!(matches!(
        d(MmaKind::I8, S8, S8, AccumType::S32, 128, 64)
            .negate(false, true)
            .validate(),
        Err(IdescError::NegateNotForKind { .. })
    ));
    assert!(matches!(
        d(MmaKind::F16, F16, F16, AccumType::F32, 128, 64)
            .saturate(true)
            .validate(),
        Err(IdescError::SaturateNotForKind { .. })
    ));
    assert!(matches!(
        d(MmaKind::F8f6f4, E4M3, E2M3, AccumType::F32, 128, 64)
            .majors(Major::K, Major::Mn)
            .validate(),
        Err(IdescError::MnMajorNotAllowed { .. })
    ));
    assert!(matches!(
        d(MmaKind::Mxf4, E2M1, E2M1, AccumType::F32, 128, 64)
            .scale_format(ScaleFormat::Ue4m3)
            .validate(),
        Err(IdescError::ScaleFormatNotForKind { .. })
    ));
    assert!(matches!(
        d(MmaKind::F16, F16, BF16, AccumType::F32, 128, 64).validate(),
        Err(IdescError::TypesDiffer { .. })
    ));
    assert!(matches!(
        d(MmaKind::F16, BF16, BF16, AccumType::F16, 128, 64).validate(),
        Err(IdescError::AccumNotForKind { .. })
    ));
    assert!(matches!(
        d(MmaKind::Mxf4, E2M1, E2M1, AccumType::F32, 128, 64)
            .k96(true)
            .validate(),
        Err(IdescError::K96NotAllowed { .. })
    ));
    // An 8-bit MN-major B restricts N to multiples of 16 (cta_group::1).
    assert!(matches!(
        d(MmaKind::F8f6f4, E4M3, E4M3, AccumType::F32, 128, 24)
            .majors(Major::K, Major::Mn)
            .validate(),
        Err(IdescError::IllegalN { .. })
    ));
    // Run-time ids: ue4m3 (scale_vec::4X) takes id 0 only; sparse selector only on sparse dense.
    let nv = d(MmaKind::Mxf4nvf4, E2M1, E2M1, AccumType::F32, 128, 64)
        .scale_format(ScaleFormat::Ue4m3)
        .expect_valid();
    assert!(matches!(
        nv.try_with_sf_tmem(0x8000_0000, 0),
        Err(IdescError::SfIdIllegal { id: 2, .. })
    ));
    let dense = d(MmaKind::F16, F16, F16, AccumType::F32, 128, 64).expect_valid();
    assert!(matches!(
        dense.try_with_sparse_id(1),
        Err(IdescError::SparseIdIllegal { .. })
    ));
    // Decoding refuses reserved bits (dense bit 23) and unknown codes (f8f6f4 code 2).
    assert!(matches!(
        Idesc::new(1 << 23, MmaKind::F16).decode(),
        Err(IdescError::ReservedBits { .. })
    ));
    assert!(matches!(
        Idesc::new(2 << 7, MmaKind::F8f6f4).decode(),
        Err(IdescError::UnknownFormat { .. })
    ));
}

/// The reserved bits of each table, spelled out from the PTX ISA text.
#[test]
fn reserved_bits_follow_the_ptx_tables() {
    let reserved = |k: MmaKind| {
        smemdesc::core::idesc_fields(k)
            .iter()
            .filter(|f| f.reserved)
            .fold(0u32, |m, f| m | f.mask())
    };
    let bit = |b: u32| 1u32 << b;
    let dense = bit(6) | bit(23) | bit(29);
    for k in [MmaKind::F16, MmaKind::Tf32, MmaKind::F8f6f4, MmaKind::I8] {
        assert_eq!(reserved(k), dense, "{k:?}");
    }
    let mx = 0b11 | bit(3) | bit(6) | (0b111 << 24);
    assert_eq!(reserved(MmaKind::Mxf8f6f4), mx | bit(31));
    assert_eq!(reserved(MmaKind::Mxf4), mx | bit(12));
    assert_eq!(reserved(MmaKind::Mxf4nvf4), mx | bit(12));
    // Decoding refuses each reserved bit alone.
    for k in [MmaKind::F16, MmaKind::Mxf8f6f4, MmaKind::Mxf4] {
        for b in 0..32 {
            if reserved(k) & bit(b) != 0 {
                assert!(
                    matches!(
                        Idesc::new(bit(b), k).decode(),
                        Err(IdescError::ReservedBits { .. })
                    ),
                    "{k:?} bit {b}"
                );
            }
        }
    }
}
