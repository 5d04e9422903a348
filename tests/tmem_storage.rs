//! `TmemSlot` as a `#[smem_storage]` member: the 4-byte word `tcgen05.alloc` writes the Tensor
//! Memory address to gets its own 4-aligned offset, apart from every tile.

use smemdesc::{smem_storage, smem_tile, Mbarrier, SmemTile, TmemSlot};

#[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2)]
pub struct TileA;

#[smem_storage(arch = sm100)]
pub struct Blackwell {
    flag: u8,
    tmem_addr: TmemSlot,
    a: TileA,
    full: [Mbarrier; 2],
}

#[test]
fn the_tmem_slot_is_a_4_byte_member_of_its_own() {
    // flag: 1 B at 0; tmem_addr: 4 B at 4 (the next multiple of 4); a: 2 x 16384 B at 1024 (its
    // 1024-B alignment); full: 16 B at 1024 + 32768 = 33792.
    assert_eq!(
        [
            Blackwell::FLAG_OFFSET,
            Blackwell::TMEM_ADDR_OFFSET,
            Blackwell::A_OFFSET,
            Blackwell::FULL_OFFSET
        ],
        [0, 4, 1024, 33792]
    );
    assert_eq!(<TileA as SmemTile>::PLAN.tile.stage_bytes(), 16384);
    let slot = Blackwell::TMEM_ADDR_OFFSET..Blackwell::TMEM_ADDR_OFFSET + 4;
    assert!(
        slot.end <= Blackwell::A_OFFSET,
        "the slot is not under the TMA tile"
    );
}

/// A Blackwell pairing declared with `#[smem_mma]` (bf16, M 128, N 256) ...
#[smemdesc::smem_mma(accum = f32)]
mod bw {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K)]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = bf16, tile = (256, 64), major = K)]
    pub struct TileB;
}

/// ... and a block-scaled one (mxf8f6f4, CTA pair, M 256, N 256).
#[smemdesc::smem_mma(accum = f32, sf = ue8m0)]
mod bw_mx {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = e4m3, kind = mxf8f6f4, tile = (128, 128),
                major = K, cta_group = 2, mma = (256, 256))]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = e2m1, kind = mxf8f6f4, tile = (128, 128),
                major = K, cta_group = 2)]
    pub struct TileB;
}

#[test]
fn plans_from_smem_mma_pairings() {
    use smemdesc::{MmaKind, Operand, ScaleDecl, ScaleTile, TmemPlan, TmemPlanDecl};
    // two 256-column f32 accumulator stages fill the SM's 512 columns: one CTA per SM
    const P: TmemPlan = TmemPlanDecl::new(&bw::MMA).stages(2).expect_valid();
    assert_eq!(
        (
            P.accum.cols(),
            P.cols_used,
            P.alloc_columns,
            P.ctas_per_sm()
        ),
        (256, 512, 512, 1)
    );
    assert!(TmemPlanDecl::new(&bw::MMA).stages(3).build().is_err());
    // CTA pair M = 256: each CTA 128 rows x N 256; SFA (128 rows, K 128: 4 factors) = 1 atom = 4
    // columns per stage, SFB (N 256 = 2 atoms) = 8 columns per stage, 2 stages each
    const SFA: ScaleTile = ScaleDecl::new(MmaKind::Mxf8f6f4, Operand::A, 128, 128)
        .stages(2)
        .cta_group(2)
        .expect_valid();
    const SFB: ScaleTile = ScaleDecl::new(MmaKind::Mxf8f6f4, Operand::B, 256, 128)
        .stages(2)
        .cta_group(2)
        .expect_valid();
    const Q: TmemPlan = TmemPlanDecl::new(&bw_mx::MMA)
        .scale(&SFA, &SFB)
        .expect_valid();
    assert_eq!(
        (Q.sfa_col, Q.sfb_col, Q.cols_used, Q.alloc_columns),
        (256, 264, 280, 512)
    );
    // K step 3 of a stage reads factor 3: column block 0, byte (scale-factor id) 3
    let (ta, tb) = Q.sf_taddr(0, 1, 3);
    assert_eq!(
        (ta & 0xffff, ta >> 30, tb & 0xffff, tb >> 30),
        (256 + 4, 3, 264 + 8, 3)
    );
    let d = Q.idesc(3).unwrap().raw();
    assert_eq!(((d >> 29) & 3, (d >> 4) & 3), (3, 3));
}
