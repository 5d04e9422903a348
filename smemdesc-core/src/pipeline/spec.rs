//! The declaration of a TMA → tensor-core pipeline: what one stage loads, who produces and who
//! consumes, the cluster and the CTA group. [`PipelineSpec::build`] derives every number of the
//! barrier protocol ([`PipelineLayout`]) or says which declaration would hang.

use crate::base::arch::Arch;
use crate::mma::Operand;
use crate::pipeline::error::PipelineError;
use crate::pipeline::layout::PipelineLayout;
use crate::smem::Mbarrier;
use crate::tile::decl::TilePlan;
use crate::tile::spec::TileLayout;

/// Most loads one stage may declare.
pub const MAX_LOADS: usize = 8;

/// Most threads a CTA may have (CUDA C++ Programming Guide, "Compute Capabilities": maximum
/// number of threads per block, 1024 on every architecture): the consumer groups' threads
/// together may not exceed it.
///
/// ```
/// assert_eq!(smemdesc_core::pipeline::MAX_CTA_THREADS, 1024);
/// ```
pub const MAX_CTA_THREADS: u32 = 1024;

/// Largest `mbarrier.init` count (PTX ISA, "mbarrier.init": `count` in `1 ..= 2^20 - 1`; the
/// expected arrival count of "Contents of the mbarrier object").
///
/// ```
/// assert_eq!(smemdesc_core::pipeline::MAX_MBARRIER_COUNT, (1 << 20) - 1);
/// ```
pub const MAX_MBARRIER_COUNT: u32 = (1 << 20) - 1;

/// Alignment of a TMA destination in shared memory, bytes (PTX ISA `cp.async.bulk.tensor`: the
/// shared-memory address 128-byte aligned; measured on an H100: a destination at +0x10 fails the
/// launch with "misaligned address").
///
/// ```
/// assert_eq!(smemdesc_core::pipeline::TMA_DST_ALIGN, 128);
/// ```
pub const TMA_DST_ALIGN: u32 = 128;

/// The type of a storage member that holds a pipeline's barriers: `[Mbarrier; N]` and nothing
/// else (mbarriers are 8-byte objects at 8-byte aligned addresses: PTX ISA, "Size and alignment
/// of mbarrier object"). `#[smem_pipeline]` requires its `full` and `empty` members to be of
/// such a type; their length is checked against the stages.
///
/// ```
/// use smemdesc_core::{pipeline::MbarrierArray, Mbarrier};
/// assert_eq!(<[Mbarrier; 4] as MbarrierArray>::LEN, 4);
/// ```
#[diagnostic::on_unimplemented(
    message = "pipeline: a barrier member (`full`, `empty`) is `{Self}`, not an array of mbarriers; legal: `[Mbarrier; STAGES]` (mbarriers are 8-byte objects at 8-byte aligned addresses: PTX ISA, \"Size and alignment of mbarrier object\")",
    label = "this barrier member is `{Self}`",
    note = "declare the storage member as `name: [Mbarrier; STAGES]`"
)]
pub trait MbarrierArray: sealed::Sealed {
    /// Mbarriers in the array.
    const LEN: u32;
}

mod sealed {
    pub trait Sealed {}
    impl<const N: usize> Sealed for [super::Mbarrier; N] {}
}

impl<const N: usize> MbarrierArray for [Mbarrier; N] {
    const LEN: u32 = if N > u32::MAX as usize {
        u32::MAX
    } else {
        N as u32
    };
}

/// One tile a stage loads with TMA: its bytes per stage and stages, and for operand tiles the
/// operand (which CTAs of a cluster may share it).
///
/// ```
/// # use smemdesc_core::*;
/// # use smemdesc_core::pipeline::PipelineLoad;
/// let a = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).stages(4).build().unwrap();
/// let l = PipelineLoad::tile("a", Operand::A, a);
/// assert_eq!((l.stage_bytes, l.stages, l.multicast), (16384, 4, false));
/// assert!(l.multicast().multicast);
/// assert_eq!(PipelineLoad::bytes("sfa", 512, 4).operand, None);
/// // A tile's plan carries its CTA group, which must be the pipeline's.
/// let p = TileDecl::new(Arch::Sm100, Operand::A, ElementType::BF16, Major::K, 128, 64).cta_group(2).stages(4).build().unwrap();
/// assert_eq!(PipelineLoad::plan("a", &p).cta_group, Some(2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PipelineLoad {
    /// Name (the declaration's key), for messages.
    pub name: &'static str,
    /// Bytes one stage of this tile holds in each CTA (each CTA's half under `cta_group::2`).
    pub stage_bytes: u32,
    /// Stages of the tile's storage.
    pub stages: u32,
    /// The operand of an MMA tile (`None`: scale factors or other bytes, never multicast).
    pub operand: Option<Operand>,
    /// The architecture of the tile (`None`: any).
    pub arch: Option<Arch>,
    /// Loaded once per cluster row/column and multicast to the CTAs sharing it.
    pub multicast: bool,
    /// The CTA group the tile was declared for (`None`: not checked), which must be the
    /// pipeline's: a `cta_group::2` tile holds each CTA's half of the pair's operand.
    pub cta_group: Option<u32>,
    /// The storage member the load lands in, `(bytes, alignment)` (`None`: not checked; a tile
    /// load lands in a member of the tile's own type): it must hold every stage at a TMA
    /// destination's alignment ([`TMA_DST_ALIGN`]).
    pub member: Option<(u32, u32)>,
}

impl PipelineLoad {
    /// An operand tile (`#[smem_tile]`'s layout), its CTA group unchecked: a declaration's tile
    /// is [`plan`](Self::plan), which carries it.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// # use smemdesc_core::pipeline::PipelineLoad;
    /// let b = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 256, 64).stages(4).build().unwrap();
    /// assert_eq!(PipelineLoad::tile("b", Operand::B, b).stage_bytes, 32768);
    /// ```
    pub const fn tile(name: &'static str, operand: Operand, t: TileLayout) -> PipelineLoad {
        PipelineLoad {
            name,
            stage_bytes: t.stage_bytes(),
            stages: t.spec().stages,
            operand: Some(operand),
            arch: Some(t.spec().arch),
            multicast: false,
            cta_group: None,
            member: None,
        }
    }

    /// An operand tile from its plan (`#[smem_tile]`'s `PLAN`): the layout, the operand and
    /// the CTA group it was declared for, which [`PipelineSpec::build`] checks against the
    /// pipeline's.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// # use smemdesc_core::pipeline::*;
    /// let a = TileDecl::new(Arch::Sm100, Operand::A, ElementType::BF16, Major::K, 128, 64).cta_group(2).stages(4).build().unwrap();
    /// let s = PipelineSpec::new(Arch::Sm100, 1).load(PipelineLoad::plan("a", &a));
    /// assert_eq!(s.build(), Err(PipelineError::CtaGroupMismatch { load: 0, tile: 2, pipeline: 1 }));
    /// assert!(s.cta_group(2).build().is_ok());
    /// ```
    pub const fn plan(name: &'static str, plan: &TilePlan) -> PipelineLoad {
        let mut l = PipelineLoad::tile(name, plan.decl.operand, plan.tile);
        l.cta_group = Some(plan.decl.cta_group);
        l
    }

    /// Plain bytes per stage (a scale-factor tile, `#[smem_scale_tile]`'s `STAGE_BYTES`).
    ///
    /// ```
    /// let l = smemdesc_core::pipeline::PipelineLoad::bytes("sfa", 512, 2);
    /// assert_eq!((l.stage_bytes, l.stages), (512, 2));
    /// ```
    pub const fn bytes(name: &'static str, stage_bytes: u32, stages: u32) -> PipelineLoad {
        PipelineLoad {
            name,
            stage_bytes,
            stages,
            operand: None,
            arch: None,
            multicast: false,
            cta_group: None,
            member: None,
        }
    }

    /// The same load into a storage member of `bytes` at alignment `align` (its `_BYTES` and
    /// `_ALIGN`): [`PipelineSpec::build`] refuses a member that does not hold every stage
    /// (`stage_bytes * stages`) or is not aligned for TMA ([`TMA_DST_ALIGN`]).
    ///
    /// ```
    /// # use smemdesc_core::pipeline::*;
    /// let s = PipelineSpec::new(smemdesc_core::Arch::Sm100, 1);
    /// assert!(s.load(PipelineLoad::bytes("sfa", 2048, 4).into_member(8192, 128)).build().is_ok());
    /// assert!(matches!(
    ///     s.load(PipelineLoad::bytes("sfa", 2048, 4).into_member(16, 1)).build(),
    ///     Err(PipelineError::MemberTooSmall { load: 0, member_bytes: 16, member_align: 1 })
    /// ));
    /// ```
    pub const fn into_member(mut self, bytes: u32, align: u32) -> PipelineLoad {
        self.member = Some((bytes, align));
        self
    }

    /// The same load, multicast to the CTAs of the cluster that share it.
    ///
    /// ```
    /// assert!(smemdesc_core::pipeline::PipelineLoad::bytes("x", 16, 1).multicast().multicast);
    /// ```
    pub const fn multicast(mut self) -> PipelineLoad {
        self.multicast = true;
        self
    }
}

/// A pipeline declaration: the loads of one stage, the consumers, the cluster, the CTA group,
/// and optionally the numbers a hand-written kernel states (checked against the derived ones).
///
/// ```
/// # use smemdesc_core::*;
/// # use smemdesc_core::pipeline::*;
/// let a = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).stages(4).build().unwrap();
/// let b = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 256, 64).stages(4).build().unwrap();
/// let p = PipelineSpec::new(Arch::Sm90, 2)
///     .load(PipelineLoad::tile("a", Operand::A, a))
///     .load(PipelineLoad::tile("b", Operand::B, b).multicast())
///     .cluster(2, 1)
///     .build()
///     .unwrap();
/// // Each CTA's full barrier expects all of A and B (B arrives half from each CTA); each CTA's
/// // empty barrier counts both consumers of both CTAs.
/// assert_eq!((p.stages(), p.expect_tx(0), p.full_arrivals(), p.empty_arrivals()), (4, 49152, 1, 4));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PipelineSpec {
    /// Target architecture.
    pub arch: Arch,
    /// Consumer groups per CTA (warpgroups; under `cta_group::2` the MMA issuer: 1).
    pub consumers: u32,
    /// Arrivals per consumer group per release (1: one elected thread arrives).
    pub consumer_arrivals: u32,
    /// Threads per consumer group (a warpgroup: 128).
    pub consumer_threads: u32,
    /// Stages (`0`: the loads' stages).
    pub stages: u32,
    /// Cluster extents `(x, y)` (CTAs along M, along N).
    pub cluster: (u32, u32),
    /// CTA group of the MMA (sm100: 1 or 2).
    pub cta_group: u32,
    /// Whether the stages have empty barriers.
    pub empty_barriers: bool,
    /// The loads of one stage (`n_loads` used).
    pub loads: [PipelineLoad; MAX_LOADS],
    /// Number of loads.
    pub n_loads: usize,
    /// A stated `expect_tx` per stage, checked.
    pub stated_expect_tx: Option<u32>,
    /// A stated full-barrier init count, checked.
    pub stated_full_arrivals: Option<u32>,
    /// A stated empty-barrier init count, checked.
    pub stated_empty_arrivals: Option<u32>,
    /// The CTA group the pipeline's Tensor Memory is allocated with (sm100), checked against
    /// the group that relinquishes and deallocates it (`cta_group`).
    pub tmem_alloc_group: Option<u32>,
    /// Loads past [`MAX_LOADS`] were declared.
    pub overflow: bool,
}

impl PipelineSpec {
    /// A pipeline of `consumers` consumer groups of 128 threads, one arrival each, no loads
    /// yet, no cluster, `cta_group::1`, with empty barriers.
    ///
    /// ```
    /// let s = smemdesc_core::pipeline::PipelineSpec::new(smemdesc_core::Arch::Sm90, 2);
    /// assert_eq!((s.consumers, s.consumer_arrivals, s.consumer_threads, s.cluster, s.n_loads), (2, 1, 128, (1, 1), 0));
    /// ```
    pub const fn new(arch: Arch, consumers: u32) -> PipelineSpec {
        PipelineSpec {
            arch,
            consumers,
            consumer_arrivals: 1,
            consumer_threads: 128,
            stages: 0,
            cluster: (1, 1),
            cta_group: 1,
            empty_barriers: true,
            loads: [PipelineLoad::bytes("", 0, 0); MAX_LOADS],
            n_loads: 0,
            stated_expect_tx: None,
            stated_full_arrivals: None,
            stated_empty_arrivals: None,
            tmem_alloc_group: None,
            overflow: false,
        }
    }

    /// Adds a load to every stage.
    ///
    /// ```
    /// # use smemdesc_core::pipeline::*;
    /// let s = PipelineSpec::new(smemdesc_core::Arch::Sm90, 1).load(PipelineLoad::bytes("x", 128, 2));
    /// assert_eq!(s.n_loads, 1);
    /// ```
    pub const fn load(mut self, l: PipelineLoad) -> PipelineSpec {
        if self.n_loads == MAX_LOADS {
            self.overflow = true;
        } else {
            self.loads[self.n_loads] = l;
            self.n_loads += 1;
        }
        self
    }

    /// Stages (default: the loads').
    ///
    /// ```
    /// assert_eq!(smemdesc_core::pipeline::PipelineSpec::new(smemdesc_core::Arch::Sm90, 1).stages(3).stages, 3);
    /// ```
    pub const fn stages(mut self, n: u32) -> PipelineSpec {
        self.stages = n;
        self
    }

    /// The cluster `(x, y)`: `x` CTAs along M (they share B), `y` along N (they share A).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::pipeline::PipelineSpec::new(smemdesc_core::Arch::Sm90, 1).cluster(1, 2).cluster, (1, 2));
    /// ```
    pub const fn cluster(mut self, x: u32, y: u32) -> PipelineSpec {
        self.cluster = (x, y);
        self
    }

    /// The MMA's CTA group (sm100 `cta_group::2`: the pair's leader expects both halves, its MMA
    /// issuer is the only consumer and releases both CTAs' stages).
    ///
    /// ```
    /// # use smemdesc_core::pipeline::*;
    /// assert_eq!(PipelineSpec::new(smemdesc_core::Arch::Sm100, 1).cta_group(2).cta_group, 2);
    /// // One consumer: the leader's MMA issuer.
    /// let two = PipelineSpec::new(smemdesc_core::Arch::Sm100, 2).cta_group(2).load(PipelineLoad::bytes("ab", 64, 2));
    /// assert_eq!(two.build(), Err(PipelineError::PairConsumers { consumers: 2 }));
    /// ```
    pub const fn cta_group(mut self, n: u32) -> PipelineSpec {
        self.cta_group = n;
        self
    }

    /// Arrivals per consumer group per release (default 1: one elected thread).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::pipeline::PipelineSpec::new(smemdesc_core::Arch::Sm90, 1).consumer_arrivals(128).consumer_arrivals, 128);
    /// ```
    pub const fn consumer_arrivals(mut self, n: u32) -> PipelineSpec {
        self.consumer_arrivals = n;
        self
    }

    /// Threads per consumer group (default 128: a warpgroup). The groups' threads together fit
    /// a CTA ([`MAX_CTA_THREADS`]) and `consumer_arrivals` divides them.
    ///
    /// ```
    /// # use smemdesc_core::pipeline::*;
    /// let s = PipelineSpec::new(smemdesc_core::Arch::Sm90, 2).load(PipelineLoad::bytes("x", 64, 2));
    /// assert!(s.consumer_threads(512).build().is_ok());
    /// assert_eq!(s.consumer_threads(1024).build(), Err(PipelineError::TooManyThreads { consumers: 2, threads: 1024 }));
    /// ```
    pub const fn consumer_threads(mut self, n: u32) -> PipelineSpec {
        self.consumer_threads = n;
        self
    }

    /// No empty barriers (legal for one stage only: the consumer then syncs with the producer
    /// some other way).
    ///
    /// ```
    /// assert!(!smemdesc_core::pipeline::PipelineSpec::new(smemdesc_core::Arch::Sm90, 1).no_empty_barriers().empty_barriers);
    /// ```
    pub const fn no_empty_barriers(mut self) -> PipelineSpec {
        self.empty_barriers = false;
        self
    }

    /// States the `expect_tx` of a stage, to be checked against the loads.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::pipeline::PipelineSpec::new(smemdesc_core::Arch::Sm90, 1).expect_tx(64).stated_expect_tx, Some(64));
    /// ```
    pub const fn expect_tx(mut self, bytes: u32) -> PipelineSpec {
        self.stated_expect_tx = Some(bytes);
        self
    }

    /// States the full barriers' init count, to be checked.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::pipeline::PipelineSpec::new(smemdesc_core::Arch::Sm90, 1).full_arrivals(1).stated_full_arrivals, Some(1));
    /// ```
    pub const fn full_arrivals(mut self, n: u32) -> PipelineSpec {
        self.stated_full_arrivals = Some(n);
        self
    }

    /// States the empty barriers' init count, to be checked.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::pipeline::PipelineSpec::new(smemdesc_core::Arch::Sm90, 2).empty_arrivals(2).stated_empty_arrivals, Some(2));
    /// ```
    pub const fn empty_arrivals(mut self, n: u32) -> PipelineSpec {
        self.stated_empty_arrivals = Some(n);
        self
    }

    /// The CTA group that allocates the pipeline's Tensor Memory (sm100); it must be the group
    /// that relinquishes and deallocates it, the MMA's.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::pipeline::PipelineSpec::new(smemdesc_core::Arch::Sm100, 1).tmem(1).tmem_alloc_group, Some(1));
    /// ```
    pub const fn tmem(mut self, alloc_cta_group: u32) -> PipelineSpec {
        self.tmem_alloc_group = Some(alloc_cta_group);
        self
    }

    /// Derives the protocol, or the first declaration that would hang or corrupt a stage.
    ///
    /// ```
    /// # use smemdesc_core::pipeline::*;
    /// let s = PipelineSpec::new(smemdesc_core::Arch::Sm90, 1).load(PipelineLoad::bytes("x", 4096, 4));
    /// assert_eq!(s.build().unwrap().expect_tx(0), 4096);
    /// assert!(matches!(s.expect_tx(5120).build(), Err(PipelineError::ExpectTx { stated: 5120, derived: 4096, .. })));
    /// ```
    pub const fn build(&self) -> Result<PipelineLayout, PipelineError> {
        PipelineLayout::new(*self)
    }

    /// The `[Mbarrier; N]` length of a storage member from its `_ptr` accessor (what
    /// `#[smem_pipeline]` checks its `full` and `empty` members with): a member of any other
    /// type is a compile error ([`MbarrierArray`]).
    ///
    /// ```
    /// # use smemdesc_core::{pipeline::PipelineSpec, Mbarrier};
    /// fn full_ptr(base: *mut u8) -> *mut [Mbarrier; 4] { base.cast() }
    /// assert_eq!(PipelineSpec::__barrier_member(full_ptr), 4);
    /// ```
    #[doc(hidden)]
    pub const fn __barrier_member<T: MbarrierArray>(member: fn(*mut u8) -> *mut T) -> u32 {
        let _ = member;
        T::LEN
    }

    /// The loads as a slice.
    ///
    /// ```
    /// # use smemdesc_core::pipeline::*;
    /// assert!(PipelineSpec::new(smemdesc_core::Arch::Sm90, 1).loads().is_empty());
    /// ```
    pub const fn loads(&self) -> &[PipelineLoad] {
        self.loads.split_at(self.n_loads).0
    }
}
