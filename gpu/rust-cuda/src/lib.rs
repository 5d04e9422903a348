//! The build package of smemdesc's Rust-CUDA example: its build script compiles `kernels/` to
//! PTX for `compute_100a` ([`PTX`]); its tests check the declarations the kernel uses against the
//! PTX ISA and that the module carries both kernels.
//!
//! ```
//! assert!(smemdesc_rust_cuda::PTX.contains(".entry smemdesc_sm100_checked"));
//! ```

include!("../kernels/src/tiles.rs");

/// The PTX module `cuda_builder` wrote (the build script also copies it to
/// `target/smemdesc_sm100.ptx` for `ptxas`).
pub const PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/smemdesc_sm100.ptx"));

#[cfg(test)]
mod tests {
    use super::*;

    /// PTX ISA, "Instruction descriptor" of `.kind::f16`: D format f32 = 1 at bits 4-5, A and B
    /// format bf16 = 1 at bits 7-9 and 10-12, N >> 3 at bits 17-22, M >> 4 at bits 24-28.
    #[test]
    fn idesc_is_the_isa_table() {
        let want = (1 << 4) | (1 << 7) | (1 << 10) | ((128 >> 3) << 17) | ((128 >> 4) << 24);
        assert_eq!(gemm::IDESC, want);
        assert_eq!(gemm::IDESC64, (want as u64) << 32);
        assert_eq!(gemm::MNEMONIC, "tcgen05.mma.cta_group::1.kind::f16");
    }

    /// Two f32 accumulators of N = 128 columns each: 256 columns, a power of two >= 32 as
    /// `tcgen05.alloc` requires; stage 1 starts at column 128.
    #[test]
    fn tmem_plan() {
        assert_eq!(PLAN.alloc_columns, 256);
        assert_eq!(PLAN.accum_column(1), 128);
        assert_eq!(MAP.loads(), 4);
    }

    /// The module is PTX for sm_100a with both kernels as entries.
    #[test]
    fn ptx_module() {
        assert!(
            PTX.contains(".target sm_100a"),
            "{}",
            &PTX[..PTX.len().min(400)]
        );
        assert!(PTX.contains(".entry smemdesc_sm100_checked"));
        assert!(PTX.contains(".entry smemdesc_sm100_mma"));
        // the four K steps of stage 0, unrolled, with the instruction descriptor as an immediate
        assert_eq!(PTX.matches(gemm::MNEMONIC).count(), 4);
        assert!(PTX.contains(&gemm::IDESC.to_string()));
    }
}
