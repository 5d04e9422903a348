//! The GEMM's tiles, declared once: the host program uses these `#[smem_tile]` items (tensor
//! maps, shared-memory size), and `gemm.cu` gets every layout number from `smemdesc header --from`
//! this very file (`gemm_plan::GemmPlan::header`). Nothing but the declarations lives here.

use smemdesc::smem_tile;

/// The GEMM's A tile: 128 x 64 bf16, K-major, 128B swizzle, 4 stages (a `#[smem_tile]` declaration:
/// every number the GEMM kernel uses for A comes from its constants).
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, swizzle = 128B,
            order = mn_first, mma = m64n256k16, stages = 4)]
pub struct GemmTileA;

/// The GEMM's B tile: 256 x 64 bf16, K-major, 128B swizzle, 4 stages.
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, swizzle = 128B,
            order = mn_first, mma = m64n256k16, stages = 4)]
pub struct GemmTileB;

/// The B tile again, with smemdesc's TMA plan asked for boxes of half the rows (BN / 2 x 64): the
/// cluster variant's two CTAs each load one half and multicast it to both.
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, swizzle = 128B,
            order = mn_first, mma = m64n256k16, stages = 4, tma_box = (128, 64))]
pub struct GemmTileBHalf;
