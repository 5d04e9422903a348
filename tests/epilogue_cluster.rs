//! The macros of issue 22 end to end: `#[smem_mma(cluster = ..)]`'s multicast constants,
//! `#[smem_epilogue_tile]`'s writer offsets and TMA store plan, and the C tile's place in
//! `#[smem_storage]`'s budget. Expected values by hand from the rules: a 2x1 cluster shares B
//! (256 rows) between the 2 CTAs along M, each issuing 128 rows at 128 · 128 B apart, both CTAs in
//! every mask; each barrier expects the whole A (16 KiB) and B (32 KiB) stage; a 64 x 64 bf16
//! C tile has 128-B rows, so the 128B swizzle fits, stmatrix.x4 lane 8q + r of warp w points at
//! row 16w + 8(q mod 2) + r, column 8(q / 2), its 16-B chunk XOR'd with (row mod 8).

use smemdesc::{smem_epilogue_tile, smem_storage, Mbarrier, SwizzleMode};

#[smemdesc::smem_mma(accum = f32, cluster = (2, 1))]
mod gemm {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, swizzle = 128B,
                mma = m64n256k16, stages = 4)]
    pub struct TileA;
    #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, swizzle = 128B,
                mma = m64n256k16, stages = 4)]
    pub struct TileB;
}

#[smem_epilogue_tile(dtype = bf16, tile = (64, 64), wgmma_n = 256, stages = 2, writer = stmatrix_x4,
                     reader = tma_store, tma_swizzle = 128B)]
pub struct CTile;

#[smem_storage(arch = sm90)]
pub struct Gemm {
    a: gemm::TileA,
    b: gemm::TileB,
    #[smem(epilogue)]
    c0: CTile,
    #[smem(epilogue)]
    c1: CTile,
    full: [Mbarrier; 4],
    empty: [Mbarrier; 4],
}

#[test]
fn cluster_constants_by_hand() {
    assert_eq!((gemm::CLUSTER.x(), gemm::CLUSTER.y()), (2, 1));
    let (a, b) = (gemm::A_MULTICAST, gemm::B_MULTICAST);
    assert_eq!((a.count(), b.count()), (1, 2));
    assert_eq!((a.cta_mask(0), a.cta_mask(1)), (0b01, 0b10));
    assert_eq!((b.cta_mask(0), b.cta_mask(1)), (0b11, 0b11));
    assert_eq!(b.slice_box_dim(), [64, 128]);
    assert_eq!((b.slice_offset(0, 0), b.slice_offset(1, 0)), (0, 128 * 128));
    assert_eq!(
        (b.slice_coord(0, 0), b.slice_coord(1, 0)),
        ((0, 0), (128, 0))
    );
    assert_eq!(gemm::EXPECT_TX, 128 * 64 * 2 + 256 * 64 * 2);
}

#[test]
fn epilogue_constants_by_hand() {
    assert_eq!(CTile::SWIZZLE, SwizzleMode::B128);
    assert_eq!(
        (CTile::STAGE_BYTES, CTile::BYTES, CTile::ALIGN),
        (8192, 16384, 1024)
    );
    assert_eq!((CTile::CHUNKS, CTile::INSTRUCTIONS), (4, 4));
    assert_eq!((CTile::TMA_BOX_DIM, CTile::TMA_BOXES), ([64, 64], 1));
    for w in 0..4 {
        for i in 0..4 {
            for lane in 0..32 {
                let q = lane / 8;
                let g = i * 4 + q;
                let row = 16 * w + 8 * (g % 2) + lane % 8;
                let chunk = (g / 2) ^ (row % 8); // column 8·(g/2) bf16 = 16-B chunk g/2
                assert_eq!(CTile::writer_offset(0, w, i, lane), row * 128 + chunk * 16);
            }
        }
    }
    // pair p of the fragment: d[2p], d[2p+1] = row half p mod 2 of 8-column block p / 2
    assert_eq!(CTile::pair(1, 2, 3), 16 + 8 + 3);
}

#[test]
fn storage_budget_holds_the_c_tiles() {
    // a: 65536 at 0; b: 131072 at 65536; c0, c1: 16384 each at 196608, 212992 (1024-aligned);
    // barriers 8 B each from 229376.
    assert_eq!((Gemm::C0_OFFSET, Gemm::C1_OFFSET), (196608, 212992));
    assert_eq!((Gemm::C0_BYTES, Gemm::C0_ALIGN), (16384, 1024));
    assert_eq!(Gemm::FULL_OFFSET, 229376);
    assert_eq!(Gemm::BYTES, 229376 + 64);
}
