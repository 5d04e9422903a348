//! The rules behind every number and feature flag of
//! [`ARCH_LIMITS`](crate::base::ARCH_LIMITS): each [`Fact`](crate::base::Fact) of the table names
//! one of these by id, and the checks that read the number cite it in their errors.
//!
//! Read 2026-12-06: CCCL commit 571f2fc3 (2026-08-22), CUTLASS 4.7.0 (commit 7107b055,
//! 2026-08-20), the PTX ISA 9.x and the CUDA C++ Programming Guide.

use super::source::Topic::{Cluster as C, Mma as M, Scale as Sc, Storage as St};
use super::source::{cccl, cutlass, guide, model, ptx, rule, KNOWN, SM100, SM90};
use super::Rule;
use crate::base::Arch as A;

const TRAITS: &str = "libcudacxx/include/cuda/__device/arch_traits.h";
const TC05_MMA: &str = "libcudacxx/include/cuda/__ptx/instructions/generated/tcgen05_mma.h";
const LIMITS: &str = "smemdesc-core/src/base/arch_limits.rs";
const CLUSTERS: &str = "Thread Block Clusters";

/// The architectures whose CTA may opt into 227 KiB.
const SMEM_227K_ARCHES: super::Arches = SM90
    .with(A::Sm100)
    .with(A::Sm100f)
    .with(A::Sm103)
    .with(A::Sm110);

pub(super) const SMEM_227K: Rule = rule(
    "smem.per-cta-227k",
    St,
    SMEM_227K_ARCHES,
    cccl(TRAITS),
    "A CTA of sm90, sm100, sm100f, sm103 or sm110 may opt into at most 232,448 B (227 KiB: 228 KiB less 1 KiB reserved) of shared memory (arch_traits max_shared_memory_per_block_optin; CUTLASS arch.h sm100_smem_capacity_bytes and Sm103::kSharedMemoryCapacityBytes; the Programming Guide's Technical Specifications, compute capability 9.0 and 10.0: 227 KB).",
);
pub(super) const SMEM_99K: Rule = rule(
    "smem.per-cta-99k",
    St,
    super::source::SM120,
    cccl(TRAITS),
    "A CTA of sm120 or sm121 may opt into at most 101,376 B (99 KiB: 100 KiB less 1 KiB reserved) of shared memory (arch_traits<sm_120>, arch_traits<sm_121> = arch_traits<sm_120>; CUTLASS arch.h sm120_smem_capacity_bytes; the Programming Guide, compute capability 12.0: 99 KB).",
);
pub(super) const WGMMA: Rule = rule(
    "mma.wgmma-sm90a",
    M,
    KNOWN,
    ptx("8.0", "wgmma.mma_async"),
    "wgmma.mma_async exists on sm_90a only (its Target ISA notes): no other architecture has it.",
);
pub(super) const TCGEN05: Rule = rule(
    "mma.tcgen05-targets",
    M,
    KNOWN,
    cccl(TC05_MMA),
    "tcgen05.mma exists on sm_100a/f, sm_103a/f and sm_110a/f only (every generated tcgen05.mma variant's targets): sm90, sm120 and sm121 have none, nor its Tensor Memory.",
);
pub(super) const I8: Rule = rule(
    "mma.kind-i8-arch",
    M,
    SM100,
    cutlass("include/cute/arch/config.hpp"),
    "tcgen05.mma kind::i8 exists on sm100a and sm110a only (CUTE_ARCH_TCGEN05_S8_MMA_ENABLED), not on the family target sm100f or on sm103.",
);
pub(super) const SCALE_VEC: Rule = rule(
    "scale.scale-vec-spelling",
    Sc,
    SM100,
    cccl(TC05_MMA),
    "The .block_scale.scale_vec::NX spelling (PTX ISA 8.6) targets sm_100a, sm_103a and sm_110a only, not the family target sm_100f.",
);
pub(super) const BLOCK_N: Rule = rule(
    "scale.block-n-spelling",
    Sc,
    SM100,
    cccl(TC05_MMA),
    "The .block_scale.block16/.block32 spelling (PTX ISA 8.8) targets every tcgen05 arch: sm_100a/f, sm_103a/f and sm_110a/f.",
);
pub(super) const CL_PORTABLE: Rule = rule(
    "cluster.portable-8",
    C,
    KNOWN,
    guide(CLUSTERS),
    "A portable cluster has at most 8 CTAs, on every architecture with clusters (compute capability 9.0 and later).",
);
pub(super) const CL_NP_SM90: Rule = rule(
    "cluster.non-portable-16-sm90",
    C,
    SM90,
    guide(CLUSTERS),
    "On sm90 (H100) a cluster may have up to 16 CTAs with cudaFuncAttributeNonPortableClusterSizeAllowed.",
);
pub(super) const CL_NP_NONE: Rule = rule(
    "cluster.non-portable-unsourced",
    C,
    super::source::SM100.with(A::Sm120).with(A::Sm121),
    model(LIMITS),
    "No public source gives a non-portable cluster size for sm100, sm100f, sm103, sm110, sm120 or sm121 (the CUDA Programming Guide's 16 is the H100's), so a cluster over the portable 8 CTAs is refused there; cudaOccupancyMaxPotentialClusterSize gives the device's at run time.",
);

/// The 227 KiB and 99 KiB limits, as patterns of the errors that carry the limit.
pub(super) const BYTES_227K: u32 = A::Sm90.max_smem_per_cta();
pub(super) const BYTES_99K: u32 = A::Sm120.max_smem_per_cta();

pub(super) const LIST: &[Rule] = &[
    SMEM_227K,
    SMEM_99K,
    WGMMA,
    TCGEN05,
    I8,
    SCALE_VEC,
    BLOCK_N,
    CL_PORTABLE,
    CL_NP_SM90,
    CL_NP_NONE,
];
