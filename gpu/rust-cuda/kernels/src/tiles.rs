// The declarations, once: the kernel (`lib.rs`) and the host-side tests of the build package
// (`../src/lib.rs`) include this file.

use smemdesc::{LoadShape, TmemLoad, TmemLoadMap, TmemPlan, TmemPlanDecl, smem_mma};

/// One `tcgen05.mma.cta_group::1.kind::f16` (M = 128, N = 128, K = 16, bf16 x bf16 -> f32):
/// A and B 128 x 64 bf16, K-major, 128-byte swizzle, two pipeline stages each.
#[smem_mma(accum = f32)]
pub mod gemm {
    use smemdesc::smem_tile;
    /// Operand A: M = 128 x K = 64 bf16 (one 128-byte swizzle atom row per M row).
    #[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K,
                swizzle = 128B, stages = 2)]
    pub struct TileA;
    /// Operand B: N = 128 x K = 64 bf16 (B^T row-major).
    #[smem_tile(arch = sm100, operand = B, dtype = bf16, tile = (128, 64), major = K,
                swizzle = 128B, stages = 2)]
    pub struct TileB;
}

/// The Tensor Memory plan: two accumulator stages (2 x 128 f32 columns).
pub const PLAN: TmemPlan = TmemPlanDecl::new(&gemm::MMA).stages(2).expect_valid();
/// The epilogue's load: `tcgen05.ld.32x32b.x32`, 32 registers a load.
pub const MAP: TmemLoadMap = PLAN
    .accum
    .expect_load_map(TmemLoad::expect_new(LoadShape::S32x32b, 32));
