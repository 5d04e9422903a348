// The checks below read constants and derived traits on purpose (that they exist and hold).
#![allow(
    clippy::assertions_on_constants,
    clippy::eq_op,
    clippy::default_constructed_unit_structs
)]

// An ldmatrix-read A tile: the macro chooses the 128B swizzle, and the offsets it emits feed
// ldmatrix.x4 conflict-free; the cp.async writer is conflict-free too.
#[smemdesc::smem_fragment_tile(arch = sm80, mma = m16n8k16, dtype = bf16, operand = A,
    tile = (64, 64), reader = ldmatrix_x4, writer = cp_async, conflict_free = true)]
struct As;

#[smemdesc::smem_fragment_tile(arch = sm90, mma = m16n8k16, dtype = f16, operand = B,
    major = MN, tile = (64, 32), writer = tma, conflict_free = true)]
struct Bs;

// Results: 16-bit D fragments stored with stmatrix.x4 into a 64 x 32 tile (64-B rows).
#[smemdesc::smem_fragment_tile(arch = sm90, mma = m16n8k16, dtype = bf16, operand = D,
    tile = (64, 32), reader = stmatrix_x4, conflict_free = true)]
struct Ds;

// The user's own derives: the macro adds only those missing (no conflicting impls).
#[smemdesc::smem_fragment_tile(arch = sm90, mma = m16n8k16, dtype = e4m3, operand = A,
    tile = (16, 64), reader = ldmatrix_x2)]
#[derive(Debug, Clone, Copy, PartialEq)]
struct F8s;

// NVFP4 on sm120: mma.sync kind::mxf4nvf4 with 4 ue4m3 factors per row (scale_vec::4X); e2m1
// values packed two per byte, so one 64 x 128 A tile is 64 rows of 64 B.
#[smemdesc::smem_fragment_tile(arch = sm120, mma = m16n8k64, dtype = e2m1, kind = mxf4nvf4,
                               scale_vec = 4X, stype = ue4m3, operand = A, tile = (64, 128))]
struct Nvf4;

#[smemdesc::smem_epilogue_tile(dtype = bf16, tile = (64, 64), wgmma_n = 64)]
#[derive(Debug, Default)]
struct C;

const OFF: u32 = As::ldmatrix_offset(0, 9);

fn main() {
    assert_eq!(As::SWIZZLE, smemdesc::SwizzleMode::B128);
    assert_eq!((As::ROWS, As::ROW_BYTES, As::INSTRUCTIONS), (64, 128, 16));
    // lane 9: row 1 of matrix 1 (a2/a3: rows 8..15) = tile row 9; 128B swizzle: chunk 0 -> 9 % 8
    assert_eq!(OFF, 9 * 128 + 16);
    assert_eq!(As::dest(1, 0), (0, 1, 0)); // second x4: fragment 1 (rows 16..31)
    assert!(As::READER_CONFLICT_FREE);
    assert_eq!(As::WRITER_ISSUES, 16);
    assert_eq!(
        Bs::LDMATRIX,
        "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"
    );
    assert_eq!(Bs::WRITER_ISSUES, 0);
    assert_eq!(Ds::LDMATRIX, "stmatrix.sync.aligned.m8n8.x4.shared.b16");
    assert_eq!((Ds::ROWS, Ds::ROW_BYTES, Ds::INSTRUCTIONS), (64, 64, 8));
    assert_eq!(Ds::SWIZZLE, smemdesc::SwizzleMode::B64);
    assert!(Ds::READER_CONFLICT_FREE);
    // The tile's base alignment: the 128B swizzle's 1,024-B repeat, which the offsets assume.
    assert_eq!((As::ALIGN, Bs::ALIGN, Ds::ALIGN), (1024, 1024, 1024));
    // mma.sync m16n8k16 with e4m3: one 16 x 64 A tile is 4 k-steps of 2 registers.
    assert_eq!((F8s::KSTEPS, F8s::ROW_BYTES), (4, 64));
    assert_eq!(format!("{:?}", F8s), "F8s");
    assert_eq!(F8s, F8s);
    let _ = (C::default(), format!("{:?}", C), C::TMA_BOXES);
    use smemdesc::fragment::{ScaleType, ScaleVec};
    assert_eq!(
        Nvf4::TILE.mma().scale,
        Some((ScaleVec::X4, ScaleType::Ue4m3))
    );
    assert_eq!((Nvf4::ROWS, Nvf4::ROW_BYTES), (64, 64));
}
