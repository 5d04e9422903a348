//! The scale vector size of a block-scaled pair, against the PTX ISA table "Valid combinations
//! of scale_vectorsize with types and MMA-Kind": mxf8f6f4 and mxf4 read UE8M0 per 32 values;
//! mxf4nvf4 reads UE8M0 per 32 (`.scale_vec::2X`) or 16 (`.scale_vec::4X`), UE4M3 per 16.

use smemdesc::core::{
    AccumType, Arch, ElementType, IdescError, Major, MmaKind, MmaPair, Operand, PairOptions,
    ScaleFormat, TileDecl,
};

/// E2M1 x E2M1 mxf4nvf4 with UE8M0 factors, one per 16 values: inferred from the scale tiles.
#[smemdesc::smem_mma(accum = f32, sf = ue8m0)]
mod nvf4_ue8m0_16 {
    use smemdesc::{smem_scale_tile, smem_tile};
    #[smem_tile(arch = sm100, operand = A, dtype = e2m1, kind = mxf4nvf4, tile = (128, 256),
                major = K)]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = e2m1, kind = mxf4nvf4, tile = (256, 256),
                major = K)]
    pub struct TileB;
    #[smem_scale_tile(kind = mxf4nvf4, operand = A, tile = (128, 256), sf = ue8m0, vec = 16)]
    pub struct SfA;
    #[smem_scale_tile(kind = mxf4nvf4, operand = B, tile = (256, 256), sf = ue8m0, vec = 16)]
    pub struct SfB;
}

/// The same, with `vec = 16` on the pair.
#[smemdesc::smem_mma(accum = f32, sf = ue8m0, vec = 16)]
mod nvf4_explicit {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = e2m1, kind = mxf4nvf4, tile = (128, 256),
                major = K)]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = e2m1, kind = mxf4nvf4, tile = (256, 256),
                major = K)]
    pub struct TileB;
}

#[test]
fn mxf4nvf4_reads_ue8m0_per_16_values() {
    // PTX: `.block16` is an alias of `.scale_vec::4X`; the descriptor has UE8M0 (bit 23 = 1),
    // E2M1 = 1 for A and B, N>>3 = 32, M>>7 = 1.
    let idesc = (1 << 7) | (1 << 10) | (32 << 17) | (1 << 23) | (1 << 27);
    for (m, i) in [
        (nvf4_ue8m0_16::MNEMONIC, nvf4_ue8m0_16::IDESC),
        (nvf4_explicit::MNEMONIC, nvf4_explicit::IDESC),
    ] {
        assert_eq!(
            m,
            "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X"
        );
        assert_eq!(i, idesc);
    }
    assert_eq!(
        nvf4_ue8m0_16::MMA.scale_vec(),
        Some((ScaleFormat::Ue8m0, 16))
    );
    // PTX "Scale Factor A ID" (and B) for scale_vec::4X/block16, K = 64/128: the id must be 0,
    // whatever the factor type; the descriptor alone (ue8m0) would allow 0 or 2.
    assert!(nvf4_ue8m0_16::try_idesc_with_sf_tmem(0x100, 0x200).is_ok());
    for (a, b) in [(2u32 << 30, 0), (0, 2u32 << 30), (1u32 << 30, 0)] {
        assert!(
            matches!(
                nvf4_explicit::try_idesc_with_sf_tmem(a, b),
                Err(IdescError::SfIdIllegal { .. })
            ),
            "{a:#x} {b:#x}"
        );
    }
}

#[test]
fn scale_vec_follows_the_ptx_table() {
    let t = |kind, op| {
        TileDecl::new(Arch::Sm100, op, ElementType::E2M1, Major::K, 128, 256)
            .kind(kind)
            .build()
            .unwrap()
    };
    let pair = |kind, sf: ScaleFormat, vec| {
        let o = PairOptions::new(AccumType::F32)
            .scale_format(sf)
            .scale_vec(vec);
        MmaPair::pair(&t(kind, Operand::A), &t(kind, Operand::B), o)
    };
    use ScaleFormat::{Ue4m3, Ue8m0};
    let legal = [
        (MmaKind::Mxf4nvf4, Ue8m0, 16),
        (MmaKind::Mxf4nvf4, Ue8m0, 32),
        (MmaKind::Mxf4nvf4, Ue4m3, 16),
        (MmaKind::Mxf4, Ue8m0, 32),
    ];
    for (kind, sf, vec) in legal {
        let p = pair(kind, sf, vec).unwrap();
        assert_eq!(p.scale_vec(), Some((sf, vec)), "{kind:?} {sf:?} {vec}");
    }
    for (kind, sf, vec) in [(MmaKind::Mxf4nvf4, Ue4m3, 32), (MmaKind::Mxf4, Ue8m0, 16)] {
        assert!(
            matches!(
                pair(kind, sf, vec),
                Err(IdescError::ScaleVecNotForKind { .. })
            ),
            "{kind:?} {sf:?} {vec}"
        );
    }
}
