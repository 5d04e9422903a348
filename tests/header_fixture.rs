//! The declarations that `smemdesc header --from` is tested on (`smemdesc-cli/tests/header_from.rs`
//! reads this file): the guide's GEMM tiles paired by `#[smem_mma]` (sm90 and sm100), the guide's
//! storage, and storages with placed tiles, nested arrays and `const` lengths. Compiled here with
//! the real macros, so the file is what a kernel crate would hold; the test below holds the macros
//! to the same hand-worked values that the header test holds the header to.

use smemdesc::{smem_mma, smem_storage, Mbarrier};

/// Bytes of the epilogue staging (two 64 x 64 bf16 buffers).
const EPI_BYTES: usize = 2 * 64 * 64 * 2;
/// Stages of the barrier pairs.
const STAGES: usize = 2;
/// f32 staging elements.
const C_ELEMS: usize = (EPI_BYTES / 16) >> 1;

/// The guide's GEMM tiles (`examples/host_launch.rs`), paired.
#[smem_mma(accum = f32)]
pub mod gemm {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
                mma = m64n256k16, stages = 4)]
    pub struct TileA;
    #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K,
                mma = m64n256k16, stages = 4)]
    pub struct TileB;
}

/// The guide's pairing example (docs/guide/instruction.md): A negated, B MN-major.
#[smemdesc::smem_mma(accum = f32, negate_a = true)]
pub mod hopper {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
                mma = m64n128k16, stages = 2)]
    pub struct TileA;
    #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (128, 64), major = MN, stages = 2)]
    pub struct TileB;
}

/// sm100: tcgen05 kind::f16, M = 128, N = 256, bf16 K-major, f32 accumulator.
#[smem_mma(accum = f32)]
pub mod blackwell {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, mma = (128, 256))]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = bf16, tile = (256, 64), major = K)]
    pub struct TileB;
}

/// The guide's storage.
#[smem_storage(arch = sm90)]
pub struct GemmStorage {
    a: gemm::TileA,
    b: gemm::TileB,
    full: [Mbarrier; 4],
    empty: [Mbarrier; 4],
    #[smem(align = 128)]
    epi: [u8; EPI_BYTES],
}

/// A TMA-written tile off its 1024-B repeat (absolute placement, 128-B aligned on sm90).
#[smem_storage(arch = sm90)]
pub struct Placed {
    flag: u32,
    #[smem(placement = absolute)]
    a: hopper::TileA,
    bars: [[Mbarrier; 2]; STAGES],
    c: [f32; C_ELEMS],
}

/// A relative-placed tile: its descriptors carry base_offset = (address >> 7) & 7.
#[smem_storage(arch = sm90)]
pub struct Relative {
    flag: u64,
    #[smem(placement = relative)]
    a: hopper::TileA,
}

#[test]
fn the_macros_agree_with_the_hand_worked_values() {
    // Offsets worked by hand from the alignment rules (docs/guide/storage.md).
    assert_eq!(
        [
            GemmStorage::A_OFFSET,
            GemmStorage::B_OFFSET,
            GemmStorage::FULL_OFFSET,
            GemmStorage::EMPTY_OFFSET,
            GemmStorage::EPI_OFFSET
        ],
        [0, 65536, 196608, 196640, 196736]
    );
    assert_eq!(
        (
            GemmStorage::BYTES,
            GemmStorage::ALIGN,
            GemmStorage::LAUNCH_BYTES
        ),
        (213120, 1024, 214128)
    );
    assert_eq!(
        [
            Placed::FLAG_OFFSET,
            Placed::A_OFFSET,
            Placed::BARS_OFFSET,
            Placed::C_OFFSET
        ],
        [0, 128, 32896, 32928]
    );
    // c: 512 f32 (C_ELEMS = (16384 / 16) >> 1) = 2048 B at 32928, 4-B aligned.
    assert_eq!(
        (Placed::BYTES, Placed::ALIGN, Placed::LAUNCH_BYTES),
        (34976, 128, 35088)
    );
    assert_eq!(
        (Relative::A_OFFSET, Relative::ALIGN, Relative::BYTES),
        (128, 1024, 32896)
    );
    assert_eq!(Placed::A_DESC, 0x4000_0040_0001_0008);
    assert_eq!(Relative::A_DESC, 0x4002_0040_0001_0008);
    assert_eq!(
        gemm::MNEMONIC,
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16"
    );
    assert_eq!(hopper::wgmma_imms!(), "-1, 1, 0, 1");
    assert_eq!(
        (blackwell::IDESC, blackwell::IDESC64),
        (0x0840_0490, 0x0840_0490 << 32)
    );
}
