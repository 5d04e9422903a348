//! Every per-architecture number and feature flag smemdesc checks, in one table, each with the
//! public document it comes from.
//!
//! The table is [`ARCH_LIMITS`] (one [`ArchLimits`] row per [`Arch`]); each fact names the rule
//! of the rule table (`smemdesc_core::rules`, `smemdesc rules`) that states it with its source,
//! and the checks that read the number cite that rule in their errors. Every accessor of
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
//! assert_eq!(row.smem_per_cta, Fact::Value(101_376, "smem.per-cta-99k"));
//! assert!(matches!(Arch::Sm107.limits().smem_per_cta, Fact::NoPublicSource));
//! ```

use crate::base::arch::Arch;

/// One fact of the table: a number (or, for a feature, 1 = has it, 0 = has not) with the id of
/// the rule that states it and its source (`smemdesc_core::rules::find`), or no public source.
///
/// ```
/// use smemdesc_core::base::Fact;
/// assert_eq!(Fact::Value(512, "tmem.columns-512").value(), Some(512));
/// assert_eq!(Fact::NoPublicSource.value(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fact {
    /// The value and the id of the rule whose source gives it (`smemdesc rules`).
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

    /// The id of the rule that states the fact, with its source (`None`: no public source).
    ///
    /// ```
    /// use smemdesc_core::{Arch, rules::find};
    /// let id = Arch::Sm90.limits().smem_per_cta.rule_id().unwrap();
    /// assert_eq!(find(id).unwrap().id, "smem.per-cta-227k");
    /// assert_eq!(smemdesc_core::base::Fact::NoPublicSource.rule_id(), None);
    /// ```
    pub const fn rule_id(self) -> Option<&'static str> {
        match self {
            Fact::Value(_, s) => Some(s),
            Fact::NoPublicSource => None,
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

/// One architecture's limits and features, each a [`Fact`] with its rule.
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

// The id of the rule (`smemdesc_core::rules`, `smemdesc rules`) that states each fact, with its
// source: the rule table is where the sources live (the comments above say where each was read).
const SMEM_227K: &str = "smem.per-cta-227k";
const SMEM_99K: &str = "smem.per-cta-99k";
const TMEM_512: &str = "tmem.columns-512";
const NO_TMEM: &str = "tmem.sm100-only";
const WGMMA: &str = "mma.wgmma-sm90a";
const TCGEN05: &str = "mma.tcgen05-targets";
const I8: &str = "mma.kind-i8-arch";
const SCALE_VEC: &str = "scale.scale-vec-spelling";
const BLOCK_N: &str = "scale.block-n-spelling";
const CLUSTER_8: &str = "cluster.portable-8";
const CLUSTER_16_SM90: &str = "cluster.non-portable-16-sm90";

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
        smem_per_cta: f(232_448, SMEM_227K),
        tmem_columns: f(0, NO_TMEM),
        wgmma: f(1, WGMMA),
        tcgen05: f(0, TCGEN05),
        tcgen05_i8: f(0, TCGEN05),
        scale_vec_spelling: f(0, TCGEN05),
        block_n_spelling: f(0, TCGEN05),
        cluster_portable: f(8, CLUSTER_8),
        cluster_non_portable: f(16, CLUSTER_16_SM90),
    },
    ArchLimits {
        arch: Arch::Sm100,
        ptx_target: "sm_100a",
        smem_per_cta: f(232_448, SMEM_227K),
        tmem_columns: f(512, TMEM_512),
        wgmma: f(0, WGMMA),
        tcgen05: f(1, TCGEN05),
        tcgen05_i8: f(1, I8),
        scale_vec_spelling: f(1, SCALE_VEC),
        block_n_spelling: f(1, BLOCK_N),
        cluster_portable: f(8, CLUSTER_8),
        cluster_non_portable: NONE,
    },
    ArchLimits {
        arch: Arch::Sm100f,
        ptx_target: "sm_100f",
        smem_per_cta: f(232_448, SMEM_227K),
        tmem_columns: f(512, TMEM_512),
        wgmma: f(0, WGMMA),
        tcgen05: f(1, TCGEN05),
        tcgen05_i8: f(0, I8),
        scale_vec_spelling: f(0, SCALE_VEC),
        block_n_spelling: f(1, BLOCK_N),
        cluster_portable: f(8, CLUSTER_8),
        cluster_non_portable: NONE,
    },
    ArchLimits {
        arch: Arch::Sm103,
        ptx_target: "sm_103a",
        smem_per_cta: f(232_448, SMEM_227K),
        tmem_columns: f(512, TMEM_512),
        wgmma: f(0, WGMMA),
        tcgen05: f(1, TCGEN05),
        tcgen05_i8: f(0, I8),
        scale_vec_spelling: f(1, SCALE_VEC),
        block_n_spelling: f(1, BLOCK_N),
        cluster_portable: f(8, CLUSTER_8),
        cluster_non_portable: NONE,
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
        smem_per_cta: f(232_448, SMEM_227K),
        tmem_columns: f(512, TMEM_512),
        wgmma: f(0, WGMMA),
        tcgen05: f(1, TCGEN05),
        tcgen05_i8: f(1, I8),
        scale_vec_spelling: f(1, SCALE_VEC),
        block_n_spelling: f(1, BLOCK_N),
        cluster_portable: f(8, CLUSTER_8),
        cluster_non_portable: NONE,
    },
    ArchLimits {
        arch: Arch::Sm120,
        ptx_target: "sm_120a",
        smem_per_cta: f(101_376, SMEM_99K),
        tmem_columns: f(0, NO_TMEM),
        wgmma: f(0, WGMMA),
        tcgen05: f(0, TCGEN05),
        tcgen05_i8: f(0, TCGEN05),
        scale_vec_spelling: f(0, TCGEN05),
        block_n_spelling: f(0, TCGEN05),
        cluster_portable: f(8, CLUSTER_8),
        cluster_non_portable: NONE,
    },
    ArchLimits {
        arch: Arch::Sm121,
        ptx_target: "sm_121a",
        smem_per_cta: f(101_376, SMEM_99K),
        tmem_columns: f(0, NO_TMEM),
        wgmma: f(0, WGMMA),
        tcgen05: f(0, TCGEN05),
        tcgen05_i8: f(0, TCGEN05),
        scale_vec_spelling: f(0, TCGEN05),
        block_n_spelling: f(0, TCGEN05),
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
