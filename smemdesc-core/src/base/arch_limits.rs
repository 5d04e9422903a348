//! Every per-architecture number and feature flag smemdesc checks, in one table, each with the
//! public document it comes from.
//!
//! The table is [`ARCH_LIMITS`] (one [`ArchLimits`] row per [`Arch`]); every accessor of
//! [`Arch`] that answers a limit (`max_smem_per_cta`, `tmem_columns`, `has_tcgen05`, …) reads it.
//! A fact no public source gives is [`Fact::NoPublicSource`], and what depends on it is refused
//! with a message saying so ([`ArchGap`]), never guessed.
//!
//! Sources (read 2026-12-06):
//! * **CCCL** `libcudacxx/include/cuda/__device/arch_traits.h` (NVIDIA/cccl, commit 571f2fc3,
//!   2026-08-22), <https://github.com/NVIDIA/cccl/blob/main/libcudacxx/include/cuda/__device/arch_traits.h>:
//!   `max_shared_memory_per_block_optin` per `arch_id` (the CUDA C++ Programming Guide's
//!   "Technical Specifications per Compute Capability" numbers, as code).
//! * **CCCL** `libcudacxx/include/cuda/__ptx/instructions/generated/tcgen05_mma.h` (same commit):
//!   the PTX targets of every `tcgen05.mma` variant (generated from the PTX ISA).
//! * **CUTLASS** 4.7.0 (NVIDIA/cutlass commit 7107b055, 2026-08-20) `include/cutlass/arch/arch.h`
//!   (`sm100_smem_capacity_bytes`, `sm120_smem_capacity_bytes`, `Sm103::kSharedMemoryCapacityBytes`),
//!   `include/cute/arch/config.hpp` (which `CUTE_ARCH_TCGEN05_*` features each `SM1xxA/F` target
//!   enables) and `include/cute/arch/tmem_allocator_sm100.hpp` (`Sm100TmemCapacityColumns`).
//! * **PTX ISA** 9.x, "Tensor Memory" (9.7.16.1): "On architecture sm_100a/sm_100f, the 5th
//!   generation TensorCore's Tensor Memory has a two-dimensional structure of 512 columns and 128
//!   rows per CTA"; `wgmma.mma_async` "Target ISA notes": requires `sm_90a`.
//! * **CUDA C++ Programming Guide**, "Thread Block Clusters": 8 CTAs is the portable cluster size;
//!   H100 (sm90) allows 16 with `cudaFuncAttributeNonPortableClusterSizeAllowed`.
//!
//! sm107: CUTLASS 4.7.0 and CCCL's `arch_traits.h` have no sm107 entry (CCCL's `nv/target` knows
//! the name only); cuBLASDx's performance guide says "1070 is Rubin SM107, which uses the SM 1030
//! instruction set: TMA and floating-point UTCMMA, no integer tcgen05", but names no shared-memory
//! size or Tensor Memory width. Those are [`Fact::NoPublicSource`] here, so sm107 is refused.
//!
//! ```
//! use smemdesc_core::{Arch, base::{ArchLimits, Fact}};
//! let row: &ArchLimits = Arch::Sm120.limits();
//! assert_eq!(row.smem_per_cta, Fact::Value(101_376, row.smem_per_cta.source()));
//! assert!(matches!(Arch::Sm107.limits().smem_per_cta, Fact::NoPublicSource));
//! ```

use crate::base::arch::Arch;

/// One fact of the table: a number (or, for a feature, 1 = has it, 0 = has not) with its
/// source, or no public source.
///
/// ```
/// use smemdesc_core::base::Fact;
/// assert_eq!(Fact::Value(512, "x").value(), Some(512));
/// assert_eq!(Fact::NoPublicSource.value(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fact {
    /// The value and the document (title, version, section or file) that gives it.
    Value(u32, &'static str),
    /// No public source gives it: whatever depends on it is refused.
    NoPublicSource,
}

impl Fact {
    /// The value, `None` when no public source gives it.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::base::Fact::Value(8, "s").value(), Some(8));
    /// ```
    pub const fn value(self) -> Option<u32> {
        match self {
            Fact::Value(v, _) => Some(v),
            Fact::NoPublicSource => None,
        }
    }

    /// The source's text (`"no public source"` for [`Fact::NoPublicSource`]).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::base::Fact::NoPublicSource.source(), "no public source");
    /// ```
    pub const fn source(self) -> &'static str {
        match self {
            Fact::Value(_, s) => s,
            Fact::NoPublicSource => "no public source",
        }
    }

    /// A feature flag's value: `Some(true)` for a value other than 0.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::base::Fact::Value(0, "s").flag(), Some(false));
    /// ```
    pub const fn flag(self) -> Option<bool> {
        match self {
            Fact::Value(v, _) => Some(v != 0),
            Fact::NoPublicSource => None,
        }
    }
}

/// One architecture's limits and features, each a [`Fact`] with its source.
///
/// ```
/// let r = smemdesc_core::Arch::Sm103.limits();
/// assert_eq!((r.ptx_target, r.tmem_columns.value()), ("sm_103a", Some(512)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ArchLimits {
    /// The architecture the row describes.
    pub arch: Arch,
    /// The PTX `.target` its code is built for.
    pub ptx_target: &'static str,
    /// Largest dynamic shared memory one CTA may opt into, in bytes.
    pub smem_per_cta: Fact,
    /// Tensor Memory columns per CTA (0: no Tensor Memory).
    pub tmem_columns: Fact,
    /// `wgmma.mma_async` exists (1) or not (0).
    pub wgmma: Fact,
    /// `tcgen05.mma` exists (1) or not (0).
    pub tcgen05: Fact,
    /// `tcgen05.mma .kind::i8` exists (1) or not (0).
    pub tcgen05_i8: Fact,
    /// The `.block_scale.scale_vec::NX` spelling of block-scaled `tcgen05.mma` is legal (1) or
    /// only `.block16`/`.block32` are (0).
    pub scale_vec_spelling: Fact,
    /// The `.block_scale.block16`/`.block32` spelling (PTX ISA 8.8) is legal (1) or not (0).
    pub block_n_spelling: Fact,
    /// Most CTAs of a portable cluster.
    pub cluster_portable: Fact,
    /// Most CTAs of a cluster with the non-portable opt-in.
    pub cluster_non_portable: Fact,
}

const SMEM_227K_SM90: &str =
    "CCCL arch_traits.h arch_traits<sm_90>: max_shared_memory_per_block_optin = \
     228 KiB - 1 KiB reserved = 232448 B (CUDA C++ Programming Guide, Technical Specifications, \
     compute capability 9.0: 227 KB)";
const SMEM_227K_SM100: &str =
    "CUTLASS 4.7.0 include/cutlass/arch/arch.h sm100_smem_capacity_bytes = 232448; \
     CCCL arch_traits.h arch_traits<sm_100> (compute capability 10.0: 227 KB)";
const SMEM_227K_SM103: &str = "CUTLASS 4.7.0 include/cutlass/arch/arch.h Sm103::kSharedMemoryCapacityBytes = \
     sm100_smem_capacity_bytes (232448); CCCL arch_traits.h arch_traits<sm_103> = arch_traits<sm_100>";
const SMEM_227K_SM110: &str =
    "CCCL arch_traits.h arch_traits<sm_110>: arch_traits<sm_100> with its \
     max_shared_memory_per_block_optin (232448 B) unchanged";
const SMEM_99K_SM120: &str = "CUTLASS 4.7.0 include/cutlass/arch/arch.h sm120_smem_capacity_bytes = 101376; \
     CCCL arch_traits.h arch_traits<sm_120>: 100 KiB - 1 KiB reserved (compute capability 12.0: 99 KB)";
const SMEM_99K_SM121: &str =
    "CCCL arch_traits.h arch_traits<sm_121> = arch_traits<sm_120> (101376 B)";
const TMEM_512: &str =
    "PTX ISA 9.x, Tensor Memory (9.7.16.1): 512 columns x 128 lanes per CTA on sm_100a/sm_100f; \
     CUTLASS 4.7.0 include/cute/arch/tmem_allocator_sm100.hpp Sm100TmemCapacityColumns = 512";
const TMEM_512_SM103: &str = "CUTLASS 4.7.0 include/cute/arch/config.hpp enables CUTE_ARCH_TCGEN05_TMEM_ENABLED \
     for SM103A/SM103F, whose allocator (tmem_allocator_sm100.hpp) has Sm100TmemCapacityColumns = 512; \
     sm_103 is in the sm_100f family of PTX ISA 9.x Tensor Memory (512 columns)";
const TMEM_512_SM110: &str =
    "CUTLASS 4.7.0 include/cute/arch/config.hpp enables CUTE_ARCH_TCGEN05_TMEM_ENABLED \
     for SM110A/SM110F (tmem_allocator_sm100.hpp: Sm100TmemCapacityColumns = 512)";
const NO_TMEM_SM90: &str = "PTX ISA 9.x, Tensor Memory: a tcgen05 (sm_100a and later) resource; \
     sm_90a has none";
const NO_TMEM_SM120: &str = "CUTLASS 4.7.0 include/cute/arch/config.hpp: SM120A/SM121A enable no \
     CUTE_ARCH_TCGEN05_* feature (their MMA is CUTE_ARCH_MMA_SM120, warp-level mma.sync)";
const WGMMA_SM90A: &str = "PTX ISA 9.x, wgmma.mma_async Target ISA notes: requires sm_90a";
const NO_WGMMA: &str = "PTX ISA 9.x, wgmma.mma_async Target ISA notes: sm_90a only (arch-specific)";
const TCGEN05_TARGETS: &str =
    "CCCL generated/tcgen05_mma.h: tcgen05.mma targets SM_100a, SM_100f, \
     SM_103a, SM_103f, SM_110a, SM_110f";
const NO_TCGEN05: &str = "CCCL generated/tcgen05_mma.h: no tcgen05.mma variant targets this arch";
const I8_YES: &str =
    "CUTLASS 4.7.0 include/cute/arch/config.hpp: CUTE_ARCH_TCGEN05_S8_MMA_ENABLED for \
     SM100A, SM101A/SM110A";
const I8_NO: &str =
    "CUTLASS 4.7.0 include/cute/arch/config.hpp: CUTE_ARCH_TCGEN05_S8_MMA_ENABLED is not \
     defined for SM100F, SM103A or SM103F (kind::i8 is arch-specific to sm_100a/sm_110a)";
const SCALE_VEC_YES: &str =
    "CCCL generated/tcgen05_mma.h: .block_scale.scale_vec::NX variants: PTX ISA 86, \
     SM_100a, SM_103a, SM_110a";
const SCALE_VEC_NO: &str =
    "CCCL generated/tcgen05_mma.h: .block_scale.scale_vec::NX variants target \
     SM_100a, SM_103a, SM_110a only (not the family target sm_100f)";
const BLOCK_N_YES: &str =
    "CCCL generated/tcgen05_mma.h: .block_scale.block16/.block32 variants: PTX ISA 88, \
     SM_100a, SM_100f, SM_103a, SM_103f, SM_110a, SM_110f";
const CLUSTER_8: &str =
    "CUDA C++ Programming Guide, Thread Block Clusters: 8 thread blocks is the \
     portable maximum cluster size";
const CLUSTER_16_SM90: &str =
    "CUDA C++ Programming Guide, Thread Block Clusters: H100 supports 16 with \
     cudaFuncAttributeNonPortableClusterSizeAllowed";
const CLUSTER_16_SM100: &str = "no per-arch public number for compute capability 10.x; smemdesc keeps \
     sm90's 16 (CUDA C++ Programming Guide, Thread Block Clusters) as it did before this table, and \
     the run-time cudaOccupancyMaxPotentialClusterSize is authoritative";

const fn f(v: u32, s: &'static str) -> Fact {
    Fact::Value(v, s)
}

const NONE: Fact = Fact::NoPublicSource;

/// The table: one row per [`Arch`], in [`Arch::EVERY`] order.
///
/// ```
/// use smemdesc_core::{Arch, base::ARCH_LIMITS};
/// for (row, arch) in ARCH_LIMITS.iter().zip(Arch::EVERY) {
///     assert_eq!(row.arch, arch);
/// }
/// ```
pub const ARCH_LIMITS: [ArchLimits; 8] = [
    ArchLimits {
        arch: Arch::Sm90,
        ptx_target: "sm_90a",
        smem_per_cta: f(232_448, SMEM_227K_SM90),
        tmem_columns: f(0, NO_TMEM_SM90),
        wgmma: f(1, WGMMA_SM90A),
        tcgen05: f(0, NO_TCGEN05),
        tcgen05_i8: f(0, NO_TCGEN05),
        scale_vec_spelling: f(0, NO_TCGEN05),
        block_n_spelling: f(0, NO_TCGEN05),
        cluster_portable: f(8, CLUSTER_8),
        cluster_non_portable: f(16, CLUSTER_16_SM90),
    },
    ArchLimits {
        arch: Arch::Sm100,
        ptx_target: "sm_100a",
        smem_per_cta: f(232_448, SMEM_227K_SM100),
        tmem_columns: f(512, TMEM_512),
        wgmma: f(0, NO_WGMMA),
        tcgen05: f(1, TCGEN05_TARGETS),
        tcgen05_i8: f(1, I8_YES),
        scale_vec_spelling: f(1, SCALE_VEC_YES),
        block_n_spelling: f(1, BLOCK_N_YES),
        cluster_portable: f(8, CLUSTER_8),
        cluster_non_portable: f(16, CLUSTER_16_SM100),
    },
    ArchLimits {
        arch: Arch::Sm100f,
        ptx_target: "sm_100f",
        smem_per_cta: f(232_448, SMEM_227K_SM100),
        tmem_columns: f(512, TMEM_512),
        wgmma: f(0, NO_WGMMA),
        tcgen05: f(1, TCGEN05_TARGETS),
        tcgen05_i8: f(0, I8_NO),
        scale_vec_spelling: f(0, SCALE_VEC_NO),
        block_n_spelling: f(1, BLOCK_N_YES),
        cluster_portable: f(8, CLUSTER_8),
        cluster_non_portable: f(16, CLUSTER_16_SM100),
    },
    ArchLimits {
        arch: Arch::Sm103,
        ptx_target: "sm_103a",
        smem_per_cta: f(232_448, SMEM_227K_SM103),
        tmem_columns: f(512, TMEM_512_SM103),
        wgmma: f(0, NO_WGMMA),
        tcgen05: f(1, TCGEN05_TARGETS),
        tcgen05_i8: f(0, I8_NO),
        scale_vec_spelling: f(1, SCALE_VEC_YES),
        block_n_spelling: f(1, BLOCK_N_YES),
        cluster_portable: f(8, CLUSTER_8),
        cluster_non_portable: f(16, CLUSTER_16_SM100),
    },
    ArchLimits {
        arch: Arch::Sm107,
        ptx_target: "sm_107a",
        smem_per_cta: NONE,
        tmem_columns: NONE,
        wgmma: NONE,
        tcgen05: NONE,
        tcgen05_i8: NONE,
        scale_vec_spelling: NONE,
        block_n_spelling: NONE,
        cluster_portable: NONE,
        cluster_non_portable: NONE,
    },
    ArchLimits {
        arch: Arch::Sm110,
        ptx_target: "sm_110a",
        smem_per_cta: f(232_448, SMEM_227K_SM110),
        tmem_columns: f(512, TMEM_512_SM110),
        wgmma: f(0, NO_WGMMA),
        tcgen05: f(1, TCGEN05_TARGETS),
        tcgen05_i8: f(1, I8_YES),
        scale_vec_spelling: f(1, SCALE_VEC_YES),
        block_n_spelling: f(1, BLOCK_N_YES),
        cluster_portable: f(8, CLUSTER_8),
        cluster_non_portable: NONE,
    },
    ArchLimits {
        arch: Arch::Sm120,
        ptx_target: "sm_120a",
        smem_per_cta: f(101_376, SMEM_99K_SM120),
        tmem_columns: f(0, NO_TMEM_SM120),
        wgmma: f(0, NO_WGMMA),
        tcgen05: f(0, NO_TCGEN05),
        tcgen05_i8: f(0, NO_TCGEN05),
        scale_vec_spelling: f(0, NO_TCGEN05),
        block_n_spelling: f(0, NO_TCGEN05),
        cluster_portable: f(8, CLUSTER_8),
        cluster_non_portable: NONE,
    },
    ArchLimits {
        arch: Arch::Sm121,
        ptx_target: "sm_121a",
        smem_per_cta: f(101_376, SMEM_99K_SM121),
        tmem_columns: f(0, NO_TMEM_SM120),
        wgmma: f(0, NO_WGMMA),
        tcgen05: f(0, NO_TCGEN05),
        tcgen05_i8: f(0, NO_TCGEN05),
        scale_vec_spelling: f(0, NO_TCGEN05),
        block_n_spelling: f(0, NO_TCGEN05),
        cluster_portable: f(8, CLUSTER_8),
        cluster_non_portable: NONE,
    },
];

/// Why an architecture (or one use of it) is refused.
///
/// ```
/// use smemdesc_core::{Arch, base::ArchGap};
/// assert_eq!(Arch::Sm107.gap(), Some(ArchGap::NoPublicLimits));
/// assert!(ArchGap::NoPublicLimits.message().contains("no public source"));
/// assert_eq!(Arch::Sm103.gap(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArchGap {
    /// No public source gives the arch's shared-memory size or Tensor Memory width (sm107).
    NoPublicLimits,
    /// The arch has neither `wgmma` nor `tcgen05`: no SMEM matrix descriptor (sm120, sm121).
    NoSmemDescriptor,
}

impl ArchGap {
    /// The refusal's text.
    ///
    /// ```
    /// assert!(smemdesc_core::base::ArchGap::NoSmemDescriptor.message().contains("mma.sync"));
    /// ```
    pub const fn message(self) -> &'static str {
        match self {
            ArchGap::NoPublicLimits => {
                "no public source gives this architecture's limits (shared memory per CTA, Tensor \
                 Memory columns): CUTLASS 4.7.0 and CCCL arch_traits.h have no sm107 entry, so \
                 smemdesc refuses it rather than guess"
            }
            ArchGap::NoSmemDescriptor => {
                "consumer Blackwell (sm120/sm121) has no wgmma and no tcgen05, so no SMEM matrix \
                 descriptor or Tensor Memory (CUTLASS 4.7.0 cute/arch/config.hpp; CCCL \
                 tcgen05_mma.h): its tensor cores are the warp-level mma.sync class \
                 (#[smem_fragment] with arch = sm120)"
            }
        }
    }
}
