//! The rust-gpu pattern (guide chapter `toolchains`, "rust-gpu"): a shader crate cannot call the
//! layout functions at run time (they need the `Int64` and `Int8` capabilities and stay an
//! interpreter), so it takes smemdesc's numbers as `u32`/`u64` values in `const` items, evaluated
//! by rustc before any SPIR-V exists, and indexes `u32` tables at run time. These tests build such
//! items the way a shader crate declares them and check them against the PTX ISA's definitions
//! (the 128-byte swizzle as an XOR of address bits, the matrix-descriptor fields), not against
//! smemdesc's own run-time functions.

use smemdesc::{smem_tile, SmemTile};

/// A Hopper operand tile: 64 x 64 bf16, K-major, 128-byte swizzle (one 128-byte row per M row).
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K, swizzle = 128B)]
struct TileA;

/// 16-byte chunks per 128-byte row.
const CHUNKS: u32 = 8;

// What the shader crate's `shared.rs` would hold: plain words, no smemdesc type in sight.
/// The descriptor's low and high words (what a push constant or a specialization constant carries).
const DESC_LO: u32 = TileA::DESC as u32;
const DESC_HI: u32 = (TileA::DESC >> 32) as u32;
/// Bytes of the tile's one stage.
const STAGE_BYTES: u32 = TileA::STAGE_BYTES;
/// Byte offset of chunk `c` of row `r` (entry `r * CHUNKS + c`): the table a shader indexes with
/// run-time `u32` indices instead of calling the layout.
const CHUNK_OFFSETS: [u32; (64 * CHUNKS) as usize] = {
    let mut t = [0u32; (64 * CHUNKS) as usize];
    let mut i = 0;
    while i < t.len() {
        let (r, c) = (i as u32 / CHUNKS, i as u32 % CHUNKS);
        // chunk c holds elements k = 8c .. 8c + 7 (bf16: 2 bytes each)
        t[i] = TileA::offset(r, c * 8);
        i += 1;
    }
    t
};

/// The shader side: `u32` arithmetic and one table read, nothing wider (no `Int64`, no `Int8`).
fn shader_offset(r: u32, k: u32) -> u32 {
    CHUNK_OFFSETS[(r * CHUNKS + k / 8) as usize] + (k % 8) * 2
}

/// PTX ISA, "Shared memory matrix layout", 128-byte swizzle: within each 1024-byte atom the
/// 16-byte chunk index (address bits 4-6) is XORed with the row within the atom (bits 7-9).
fn isa_sw128(r: u32, k: u32) -> u32 {
    let linear = r * 128 + k * 2;
    linear ^ (((linear >> 7) & 7) << 4)
}

#[test]
fn offset_table_is_the_isa_swizzle() {
    for r in 0..64 {
        for k in 0..64 {
            assert_eq!(shader_offset(r, k), isa_sw128(r, k), "element ({r}, {k})");
        }
    }
    assert_eq!(STAGE_BYTES, 64 * 128);
}

/// PTX ISA, wgmma "Matrix Descriptor Format": the start address in 16-byte units in bits 0-13,
/// the stride byte offset in 16-byte units in bits 32-45 (1024 bytes between 8-row groups for the
/// 128-byte swizzle), the swizzle mode in bits 62-63 (1 = 128-byte). The tile's own descriptor is
/// for address 0.
#[test]
fn descriptor_words_are_the_isa_fields() {
    assert_eq!(DESC_LO & 0x3fff, 0, "start address of a tile at 0");
    assert_eq!(DESC_HI & 0x3fff, 1024 >> 4, "stride byte offset");
    assert_eq!(DESC_HI >> 30, 1, "128-byte swizzle");
    // A shader moves the start address as the kernel does: (address >> 4) added to the low word.
    let at = |addr: u32| DESC_LO + (addr >> 4);
    assert_eq!(
        at(0x400) as u64 | (DESC_HI as u64) << 32,
        TileA::desc(0x400, 0, 0, 0)
    );
}

/// The instruction descriptor of a Blackwell MMA as one `u32`: PTX ISA "Instruction descriptor"
/// of `.kind::f16` (D f32 at bits 4-5, A/B bf16 at 7-9 / 10-12, N >> 3 at 17-22, M >> 4 at 24-28).
#[test]
fn sm100_instruction_descriptor_is_a_u32() {
    #[smemdesc::smem_mma(accum = f32)]
    mod gemm {
        use smemdesc::smem_tile;
        #[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K)]
        pub struct TileA;
        #[smem_tile(arch = sm100, operand = B, dtype = bf16, tile = (128, 64), major = K)]
        pub struct TileB;
    }
    const IDESC: u32 = gemm::IDESC;
    assert_eq!(
        IDESC,
        (1 << 4) | (1 << 7) | (1 << 10) | ((128 >> 3) << 17) | ((128 >> 4) << 24)
    );
}
