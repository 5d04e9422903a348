//! `#[smem_mma]` over sub-byte and block-scaled `#[smem_tile]`s, end to end: padded fp4/fp6
//! (`kind::f8f6f4`, `mxf8f6f4`), packed fp4 (`mxf4`, `mxf4nvf4`) with K = 64 and with K = 96.
//!
//! Expected descriptors come from two independent places, never from smemdesc's output: the CuTe
//! golden row of the same configuration (`tests/data/golden/idesc*.tsv`, looked up by its
//! fields), and the bits written out by hand from the PTX ISA tables (tcgen05 "Instruction
//! descriptor": Table 42 for the dense kinds, 43 for `mxf8f6f4`, 44 for `mxf4`/`mxf4nvf4`). CuTe
//! never sets the K = 96 bit, so for K = 96 the golden row of the same M, N and scale type is
//! or-ed with bit 31 ("K Dimension: Dense K=96 = 1", Table 44).

use crate::common::read_tsv;
use smemdesc::SmemTile;

/// fp6 x fp6 (padded, `kind::f8f6f4`), f16 accumulator, B negated.
#[smemdesc::smem_mma(accum = f16, negate_b = true)]
mod fp6 {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = e2m3, tile = (128, 128), major = K)]
    pub struct A;
    #[smem_tile(arch = sm100, operand = B, dtype = e3m2, tile = (256, 128), major = K)]
    pub struct B;
}

/// fp4 x fp4 (padded, `kind::f8f6f4`), N = 48.
#[smemdesc::smem_mma(accum = f32)]
mod fp4 {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = e2m1, tile = (128, 128), major = K)]
    pub struct A;
    #[smem_tile(arch = sm100, operand = B, dtype = e2m1, tile = (48, 128), major = K)]
    pub struct B;
}

/// fp8 x fp4 (`kind::f8f6f4` mixes widths: A whole bytes, B padded).
#[smemdesc::smem_mma(accum = f32)]
mod fp8_fp4 {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = e4m3, tile = (128, 128), major = K)]
    pub struct A;
    #[smem_tile(arch = sm100, operand = B, dtype = e2m1, tile = (128, 128), major = K,
                kind = f8f6f4)]
    pub struct B;
}

/// Block-scaled fp4 x fp6 (`kind::mxf8f6f4`, padded), CTA pair: M 256, N 128.
#[smemdesc::smem_mma(accum = f32)]
mod mx_fp4_fp6 {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = e2m1, kind = mxf8f6f4, tile = (128, 128),
                major = K, cta_group = 2)]
    pub struct A;
    #[smem_tile(arch = sm100, operand = B, dtype = e2m3, kind = mxf8f6f4, tile = (64, 128),
                major = K, cta_group = 2)]
    pub struct B;
}

/// Packed fp4 (`kind::mxf4`), K = 64, M 128, N 256.
#[smemdesc::smem_mma(accum = f32, sf = ue8m0)]
mod mxf4_k64 {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = e2m1, kind = mxf4, tile = (128, 256),
                major = K)]
    pub struct A;
    #[smem_tile(arch = sm100, operand = B, dtype = e2m1, kind = mxf4, tile = (256, 256),
                major = K)]
    pub struct B;
}

/// Packed fp4 with ue4m3 factors (`kind::mxf4nvf4`, `.scale_vec::4X`), CTA pair, K = 64.
#[smemdesc::smem_mma(accum = f32, sf = ue4m3)]
mod nvf4_k64 {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = e2m1, kind = mxf4nvf4, tile = (128, 256),
                major = K, cta_group = 2)]
    pub struct A;
    #[smem_tile(arch = sm100, operand = B, dtype = e2m1, kind = mxf4nvf4, tile = (128, 256),
                major = K, cta_group = 2)]
    pub struct B;
}

/// K = 96 (`kind::mxf4nvf4`, ue8m0 = `.block32`): the CTA-pair shape 256x256x96.
#[smemdesc::smem_mma(accum = f32, sf = ue8m0)]
mod nvf4_k96 {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = e2m1, kind = mxf4nvf4, tile = (128, 192),
                major = K, cta_group = 2, mma = m256n256k96)]
    pub struct A;
    #[smem_tile(arch = sm100, operand = B, dtype = e2m1, kind = mxf4nvf4, tile = (128, 192),
                major = K, cta_group = 2, mma = m256n256k96)]
    pub struct B;
}

/// K = 96 (`kind::mxf4`), N = 64: each CTA holds 32 rows of B.
#[smemdesc::smem_mma(accum = f32)]
mod mxf4_k96 {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = e2m1, kind = mxf4, tile = (128, 192),
                major = K, cta_group = 2, mma = (256, 64, 96))]
    pub struct A;
    #[smem_tile(arch = sm100, operand = B, dtype = e2m1, kind = mxf4, tile = (32, 192),
                major = K, cta_group = 2, mma = (256, 64, 96))]
    pub struct B;
}

/// The `idesc` of the one golden row whose fields are all `want` (`(column, value)`).
fn golden(file: &str, want: &[(&str, &str)]) -> u32 {
    let rows: Vec<_> = read_tsv(file)
        .into_iter()
        .filter(|r| want.iter().all(|(k, v)| r[*k] == *v))
        .collect();
    assert_eq!(rows.len(), 1, "{file}: rows matching {want:?}");
    u32::from_str_radix(rows[0]["idesc"].trim_start_matches("0x"), 16).unwrap()
}

/// A dense row (`idesc.tsv`): K-major A and B, no saturate.
fn dense(a: &str, b: &str, c: &str, m: &str, n: &str, neg: (&str, &str)) -> u32 {
    golden(
        "idesc.tsv",
        &[
            ("kind", "f8f6f4"),
            ("a_dtype", a),
            ("b_dtype", b),
            ("c_dtype", c),
            ("M", m),
            ("N", n),
            ("a_major", "K"),
            ("b_major", "K"),
            ("a_neg", neg.0),
            ("b_neg", neg.1),
            ("saturate", "0"),
        ],
    )
}

/// A block-scaled row (`idesc_block_scaled.tsv`): K-major A and B.
fn scaled(kind: &str, a: &str, b: &str, sf: &str, m: &str, n: &str) -> u32 {
    golden(
        "idesc_block_scaled.tsv",
        &[
            ("kind", kind),
            ("a_dtype", a),
            ("b_dtype", b),
            ("sf_dtype", sf),
            ("M", m),
            ("N", n),
            ("a_major", "K"),
            ("b_major", "K"),
        ],
    )
}

#[test]
fn padded_f8f6f4_pairs() {
    // Table 42: D f16 = 0 (bits 4-5), A e2m3 = 3 (7-9), B e3m2 = 4 (10-12), negate B (14),
    // N>>3 (17-22), M>>4 (24-28).
    let ptx = (3 << 7) | (4 << 10) | (1 << 14) | ((256 >> 3) << 17) | ((128 >> 4) << 24);
    assert_eq!(fp6::IDESC, ptx);
    assert_eq!(
        fp6::IDESC,
        dense("e2m3", "e3m2", "f16", "128", "256", ("0", "1"))
    );
    // D f32 = 1, A = B = e2m1 = 5, N 48
    let ptx = (1 << 4) | (5 << 7) | (5 << 10) | ((48 >> 3) << 17) | ((128 >> 4) << 24);
    assert_eq!(fp4::IDESC, ptx);
    assert_eq!(
        fp4::IDESC,
        dense("e2m1", "e2m1", "f32", "128", "48", ("0", "0"))
    );
    // A e4m3 = 0, B e2m1 = 5, N 128
    let ptx = (1 << 4) | (5 << 10) | ((128 >> 3) << 17) | ((128 >> 4) << 24);
    assert_eq!(fp8_fp4::IDESC, ptx);
    assert_eq!(
        fp8_fp4::IDESC,
        dense("e4m3", "e2m1", "f32", "128", "128", ("0", "0"))
    );
    for (mnemonic, k, cg) in [
        (fp6::MNEMONIC, fp6::MMA_K, fp6::CTA_GROUP),
        (fp4::MNEMONIC, fp4::MMA_K, fp4::CTA_GROUP),
        (fp8_fp4::MNEMONIC, fp8_fp4::MMA_K, fp8_fp4::CTA_GROUP),
    ] {
        assert_eq!(
            (mnemonic, k, cg),
            ("tcgen05.mma.cta_group::1.kind::f8f6f4", 32, 1)
        );
    }
    // The tiles are the padded SMEM form: TMA 16U6_ALIGN16B = 15 / 16U4_ALIGN16B = 14 (cuda.h),
    // box 128 values wide; the fp8 tile moves as UINT8 = 0.
    assert_eq!((fp6::A::TMA_DATA_TYPE, fp6::B::TMA_DATA_TYPE), (15, 15));
    assert_eq!(
        (fp4::A::TMA_DATA_TYPE, fp4::B::TMA_BOX_DIM),
        (14, [128, 48])
    );
    assert_eq!(
        (fp8_fp4::A::TMA_DATA_TYPE, fp8_fp4::B::TMA_DATA_TYPE),
        (0, 14)
    );
}

#[test]
fn block_scaled_pairs() {
    // Table 43: A e2m1 = 5, B e2m3 = 3, N>>3 = 16, UE8M0 = 1 (bit 23), M>>7 = 2 (bits 27-28).
    let ptx = (5 << 7) | (3 << 10) | (16 << 17) | (1 << 23) | (2 << 27);
    assert_eq!(mx_fp4_fp6::IDESC, ptx);
    assert_eq!(
        mx_fp4_fp6::IDESC,
        scaled("mxf8f6f4", "e2m1", "e2m3", "ue8m0", "256", "128")
    );
    assert_eq!(
        mx_fp4_fp6::MNEMONIC,
        "tcgen05.mma.cta_group::2.kind::mxf8f6f4.block_scale.scale_vec::1X"
    );
    assert_eq!(mx_fp4_fp6::MMA_K, 32);
    // Table 44: packed E2M1 = 1 for A (7-9) and B (10-11), N>>3 = 32, UE8M0, M>>7 = 1.
    let ptx = (1 << 7) | (1 << 10) | (32 << 17) | (1 << 23) | (1 << 27);
    assert_eq!(mxf4_k64::IDESC, ptx);
    assert_eq!(
        mxf4_k64::IDESC,
        scaled("mxf4", "e2m1", "e2m1", "ue8m0", "128", "256")
    );
    assert_eq!(
        mxf4_k64::MNEMONIC,
        "tcgen05.mma.cta_group::1.kind::mxf4.block_scale.scale_vec::2X"
    );
    // UE4M3 = 0 at bit 23, M>>7 = 2
    let ptx = (1 << 7) | (1 << 10) | (32 << 17) | (2 << 27);
    assert_eq!(nvf4_k64::IDESC, ptx);
    assert_eq!(
        nvf4_k64::IDESC,
        scaled("mxf4nvf4", "e2m1", "e2m1", "ue4m3", "256", "256")
    );
    assert_eq!(
        nvf4_k64::MNEMONIC,
        "tcgen05.mma.cta_group::2.kind::mxf4nvf4.block_scale.scale_vec::4X"
    );
    assert_eq!((mxf4_k64::MMA_K, nvf4_k64::MMA_K), (64, 64));
    // packed form: 16U4_ALIGN8B = 13, two values per byte
    assert_eq!(
        (mxf4_k64::A::TMA_DATA_TYPE, mxf4_k64::A::STAGE_BYTES),
        (13, 128 * 128)
    );
    // scale-factor ids from TMEM addresses: mxf4 (2X) takes ids 0 or 2; ue4m3 (4X) only 0
    assert_eq!(
        mxf4_k64::try_idesc_with_sf_tmem(0x8000_0000, 0),
        Ok(u64::from(mxf4_k64::IDESC | (2 << 29)) << 32)
    );
    assert!(mxf4_k64::try_idesc_with_sf_tmem(0x4000_0000, 0).is_err());
    assert!(nvf4_k64::try_idesc_with_sf_tmem(0, 0x8000_0000).is_err());
}

#[test]
fn k96_pairs_set_the_k_bit() {
    // Table 44 bit 31 (K Dimension: dense K = 96) over the golden K = 64 row of the same shape.
    let ptx = (1 << 7) | (1 << 10) | (32 << 17) | (1 << 23) | (2 << 27) | (1 << 31);
    assert_eq!(nvf4_k96::IDESC, ptx);
    let row = scaled("mxf4nvf4", "e2m1", "e2m1", "ue8m0", "256", "256");
    assert_eq!(nvf4_k96::IDESC, row | (1 << 31));
    let row = scaled("mxf4", "e2m1", "e2m1", "ue8m0", "256", "64");
    assert_eq!(mxf4_k96::IDESC, row | (1 << 31));
    assert_eq!(
        mxf4_k96::IDESC,
        (1 << 7) | (1 << 10) | (8 << 17) | (1 << 23) | (2 << 27) | (1 << 31)
    );
    // `.scale_vec::NX` is defined for K = 64/128 only; K = 96 takes the block-size form.
    assert_eq!(
        nvf4_k96::MNEMONIC,
        "tcgen05.mma.cta_group::2.kind::mxf4nvf4.block_scale.block32"
    );
    assert_eq!(
        mxf4_k96::mnemonic!(),
        "tcgen05.mma.cta_group::2.kind::mxf4.block_scale.block32"
    );
    assert_eq!(
        (
            nvf4_k96::MMA_M,
            nvf4_k96::MMA_N,
            nvf4_k96::MMA_K,
            nvf4_k96::CTA_GROUP
        ),
        (256, 256, 96, 2)
    );
    // The tiles: unswizzled, 48 bytes of K per instruction, two instructions along K = 192.
    assert_eq!(
        (
            nvf4_k96::A::LAYOUT_TYPE,
            nvf4_k96::A::MMA_K,
            nvf4_k96::A::MMAS_K
        ),
        (0, 96, 2)
    );
    assert!(nvf4_k96::INSTR.k96 && nvf4_k96::INSTR.k() == 96);
    // block32 with K = 96: scale-factor ids 0-3 ("Scale Factor A ID", block32 K=96 figures)
    assert_eq!(
        nvf4_k96::try_idesc_with_sf_tmem(0x4000_0000, 0xC000_0000),
        Ok(u64::from(nvf4_k96::IDESC | (1 << 29) | (3 << 4)) << 32)
    );
}

/// A pair's scale-factor tiles through the core: each rule of `MmaPair::check_scale_tile`.
#[test]
fn scale_tiles_belong_to_their_operand() {
    use smemdesc::core::*;
    let t = |kind, op, mn, k, cg| {
        TileDecl::new(Arch::Sm100, op, ElementType::E2M1, Major::K, mn, k)
            .kind(kind)
            .cta_group(cg)
            .build()
            .unwrap()
    };
    let sf = |kind, op, mn, k| ScaleDecl::new(kind, op, mn, k);
    let o = PairOptions::new(AccumType::F32);
    // mxf8f6f4 (padded fp4): ue8m0, one factor per 32 values (.scale_vec::1X)
    let (a, b) = (
        t(MmaKind::Mxf8f6f4, Operand::A, 128, 128, 1),
        t(MmaKind::Mxf8f6f4, Operand::B, 64, 128, 1),
    );
    let p = MmaPair::pair(&a, &b, o).unwrap();
    let sfb = sf(MmaKind::Mxf8f6f4, Operand::B, 64, 128).build().unwrap();
    assert_eq!(p.check_scale_tile(&b, &sfb), Ok(()));
    // another kind's factors
    let nv = sf(MmaKind::Mxf4nvf4, Operand::B, 64, 128).build().unwrap();
    assert!(matches!(
        p.check_scale_tile(&b, &nv),
        Err(IdescError::ScaleTileFor {
            pair: MmaKind::Mxf8f6f4,
            ..
        })
    ));
    // copied with tcgen05.cp.cta_group::2 for a cta_group::1 MMA
    let cg2 = sf(MmaKind::Mxf8f6f4, Operand::B, 64, 128)
        .cta_group(2)
        .build()
        .unwrap();
    assert_eq!(
        p.check_scale_tile(&b, &cg2),
        Err(IdescError::ScaleTileCtaGroup {
            operand: Operand::B,
            sf: 2,
            pair: 1
        })
    );
    // M of A's factors
    let sfa = sf(MmaKind::Mxf8f6f4, Operand::A, 256, 128).build().unwrap();
    assert_eq!(
        p.check_scale_tile(&a, &sfa),
        Err(IdescError::ScaleTileExtent {
            operand: Operand::A,
            dim: 'M',
            sf: 256,
            tile: 128
        })
    );
    // mxf4nvf4 with ue8m0: the pair's mnemonic is .scale_vec::2X (block32); a ue8m0 tile of one
    // factor per 16 (legal for .scale_vec::4X) is not what this instruction reads
    let (a4, b4) = (
        t(MmaKind::Mxf4nvf4, Operand::A, 128, 256, 1),
        t(MmaKind::Mxf4nvf4, Operand::B, 128, 256, 1),
    );
    let p4 = MmaPair::pair(&a4, &b4, o.scale_format(ScaleFormat::Ue8m0)).unwrap();
    let v16 = sf(MmaKind::Mxf4nvf4, Operand::A, 128, 256)
        .format(ScaleFormat::Ue8m0)
        .vec(16)
        .build()
        .unwrap();
    assert!(matches!(
        p4.check_scale_tile(&a4, &v16),
        Err(IdescError::ScaleTileFormat {
            vec: 16,
            pair_vec: 32,
            ..
        })
    ));
    // K = 96: three factors per row per instruction are not modeled
    let k96 = |op| {
        TileDecl::new(Arch::Sm100, op, ElementType::E2M1, Major::K, 128, 384)
            .kind(MmaKind::Mxf4)
            .cta_group(2)
            .mma(MmaShape::new(256, 256, 96))
            .build()
            .unwrap()
    };
    let (a96, b96) = (k96(Operand::A), k96(Operand::B));
    let p96 = MmaPair::pair(&a96, &b96, o).unwrap();
    let s96 = sf(MmaKind::Mxf4, Operand::A, 128, 384)
        .cta_group(2)
        .build()
        .unwrap();
    assert_eq!(
        p96.check_scale_tile(&a96, &s96),
        Err(IdescError::ScaleTileK96 {
            operand: Operand::A
        })
    );
    for e in [
        IdescError::ScaleTileK96 {
            operand: Operand::A,
        },
        IdescError::ScaleTileCtaGroup {
            operand: Operand::B,
            sf: 2,
            pair: 1,
        },
    ] {
        assert_eq!(e.argument(), "sf_tile");
        assert!(!e.summary().is_empty() && e.to_string().contains("scale"));
    }
}
