//! The declaration of a TMA → tensor-core pipeline: what one stage loads, who produces and who
//! consumes, the cluster and the CTA group. [`PipelineSpec::build`] derives every number of the
//! barrier protocol ([`PipelineLayout`]) or says which declaration would hang.

use crate::base::arch::Arch;
use crate::mma::Operand;
use crate::pipeline::error::PipelineError;
use crate::pipeline::layout::PipelineLayout;
use crate::tile::spec::TileLayout;

/// Most loads one stage may declare.
pub const MAX_LOADS: usize = 8;

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
}

impl PipelineLoad {
    /// An operand tile (`#[smem_tile]`'s layout).
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
        }
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
        }
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
    /// A pipeline of `consumers` consumer groups, one arrival each, no loads yet, no cluster,
    /// `cta_group::1`, with empty barriers.
    ///
    /// ```
    /// let s = smemdesc_core::pipeline::PipelineSpec::new(smemdesc_core::Arch::Sm90, 2);
    /// assert_eq!((s.consumers, s.consumer_arrivals, s.cluster, s.n_loads), (2, 1, (1, 1), 0));
    /// ```
    pub const fn new(arch: Arch, consumers: u32) -> PipelineSpec {
        PipelineSpec {
            arch,
            consumers,
            consumer_arrivals: 1,
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
