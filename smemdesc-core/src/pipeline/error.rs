//! Why a pipeline declaration would hang or corrupt a stage, with what would be legal.

use crate::base::text::ConstText;
use crate::cluster::ClusterError;
use crate::mma::Operand;
use crate::pipeline::key::PipelineKey;
use crate::pipeline::spec::{
    PipelineSpec, MAX_CTA_THREADS, MAX_LOADS, MAX_MBARRIER_COUNT, TMA_DST_ALIGN,
};

/// A pipeline declaration that would hang (a barrier phase that never completes) or let a stage
/// be overwritten or read at the wrong time. [`PipelineError::message`] words it with the
/// declaration's names and numbers.
///
/// ```
/// # use smemdesc_core::pipeline::*;
/// let s = PipelineSpec::new(smemdesc_core::Arch::Sm90, 2).load(PipelineLoad::bytes("ab", 49152, 4)).empty_arrivals(3);
/// let e = s.build().unwrap_err();
/// assert_eq!(e, PipelineError::EmptyArrivals { stated: 3, derived: 2, consumers: 2, per_consumer: 1, ctas: 1 });
/// assert!(e.message(&s).as_str().contains("empty barriers are initialised with 3 arrivals"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PipelineError {
    /// More than [`MAX_LOADS`] loads.
    TooManyLoads,
    /// A stage loads nothing.
    NoLoads,
    /// No consumer, or a consumer that never arrives.
    NoConsumers,
    /// Zero stages.
    NoStages,
    /// `cta_group` other than 1, or 2 off sm100.
    CtaGroup {
        /// The declared group.
        cta_group: u32,
    },
    /// An illegal cluster.
    Cluster(ClusterError),
    /// `cta_group::2` with more than one consumer group: the pair's one consumer is the leader's
    /// MMA issuer.
    PairConsumers {
        /// The declared consumer groups.
        consumers: u32,
    },
    /// `cta_group::2` together with a cluster (the pair is the cluster).
    PairWithCluster {
        /// x.
        x: u32,
        /// y.
        y: u32,
    },
    /// A load whose stages differ from the pipeline's.
    StagesMismatch {
        /// Index of the load.
        load: usize,
        /// Its stages.
        load_stages: u32,
        /// The pipeline's.
        stages: u32,
    },
    /// A load declared for another architecture.
    ArchMismatch {
        /// Index of the load.
        load: usize,
    },
    /// A multicast load in a 1-CTA cluster.
    MulticastWithoutCluster {
        /// Index of the load.
        load: usize,
    },
    /// A multicast load that is not an operand tile (scale factors are per CTA).
    MulticastNotOperand {
        /// Index of the load.
        load: usize,
    },
    /// A multicast load whose operand no other CTA of the cluster shares: its slices would land
    /// in CTAs that expect none of them.
    MulticastNotShared {
        /// Index of the load.
        load: usize,
        /// The operand.
        operand: Operand,
    },
    /// A multicast load whose stage bytes do not split into equal slices among the CTAs sharing
    /// it: the slices would land fewer bytes than every sharer's `expect_tx` counts (a hang).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// # use smemdesc_core::pipeline::*;
    /// let b = PipelineLoad { operand: Some(Operand::B), ..PipelineLoad::bytes("b", 32768, 2) };
    /// let s = PipelineSpec::new(Arch::Sm90, 1).cluster(3, 1).load(b.multicast());
    /// let e = s.build().unwrap_err();
    /// assert_eq!(e, PipelineError::MulticastUneven { load: 0, operand: Operand::B, sharers: 3 });
    /// assert!(e.message(&s).as_str().contains("3 slices of 10922 B land 32766 B"));
    /// // A tile that splits evenly is legal.
    /// let b = PipelineLoad { stage_bytes: 24576, ..b };
    /// assert!(PipelineSpec::new(Arch::Sm90, 1).cluster(3, 1).load(b.multicast()).build().is_ok());
    /// ```
    MulticastUneven {
        /// Index of the load.
        load: usize,
        /// The operand.
        operand: Operand,
        /// CTAs sharing it.
        sharers: u32,
    },
    /// More than one stage and no empty barriers: the producer would refill a stage the
    /// consumers still read.
    NoEmptyBarriers {
        /// The stages.
        stages: u32,
    },
    /// The stages do not fit in the arch's shared memory.
    OverBudget {
        /// Stages.
        stages: u32,
        /// Bytes per stage.
        stage_bytes: u32,
        /// The arch's limit per CTA.
        max: u32,
    },
    /// A stated `expect_tx` that is not the bytes that land in the stage.
    ExpectTx {
        /// Stated.
        stated: u32,
        /// The bytes that land per stage in each CTA.
        derived: u32,
        /// The bytes this CTA's producer issues itself (differs under multicast).
        issued: u32,
    },
    /// A stated full-barrier count other than the producer's arrivals.
    FullArrivals {
        /// Stated.
        stated: u32,
        /// Derived.
        derived: u32,
    },
    /// A stated empty-barrier count other than the consumers' arrivals.
    EmptyArrivals {
        /// Stated.
        stated: u32,
        /// Derived.
        derived: u32,
        /// Consumer groups per CTA.
        consumers: u32,
        /// Arrivals per consumer group.
        per_consumer: u32,
        /// CTAs whose consumers release one CTA's stages.
        ctas: u32,
    },
    /// Tensor Memory allocated by another CTA group than the one that relinquishes and
    /// deallocates it (or Tensor Memory off sm100).
    TmemGroup {
        /// The allocating group.
        alloc: u32,
        /// The pipeline's (the MMA's) group.
        cta_group: u32,
    },
    /// `consumer_arrivals` that do not divide `consumer_threads`: the arriving threads are
    /// every `threads / arrivals`-th of the group.
    ConsumerArrivals {
        /// Arrivals per group.
        arrivals: u32,
        /// Threads per group.
        threads: u32,
    },
    /// The consumer groups' threads do not fit a CTA ([`MAX_CTA_THREADS`]).
    TooManyThreads {
        /// Consumer groups.
        consumers: u32,
        /// Threads per group.
        threads: u32,
    },
    /// The empty barriers' init count (consumers × arrivals × releasing CTAs) is past
    /// `mbarrier.init`'s range ([`MAX_MBARRIER_COUNT`]).
    InitCount {
        /// Consumer groups per CTA.
        consumers: u32,
        /// Arrivals per group.
        per_consumer: u32,
        /// CTAs whose consumers release one CTA's stages.
        ctas: u32,
    },
    /// A tile declared for another CTA group than the pipeline's.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// # use smemdesc_core::pipeline::*;
    /// let a = TileDecl::new(Arch::Sm100, Operand::A, ElementType::BF16, Major::K, 128, 64).stages(2).build().unwrap();
    /// let s = PipelineSpec::new(Arch::Sm100, 1).cta_group(2).load(PipelineLoad::plan("a", &a));
    /// assert!(s.build().unwrap_err().message(&s).as_str().contains("tile declared for cta_group::1"));
    /// ```
    CtaGroupMismatch {
        /// Index of the load.
        load: usize,
        /// The tile's group.
        tile: u32,
        /// The pipeline's group.
        pipeline: u32,
    },
    /// A load whose storage member does not hold every stage at a TMA destination's alignment.
    MemberTooSmall {
        /// Index of the load.
        load: usize,
        /// The member's bytes.
        member_bytes: u32,
        /// The member's alignment.
        member_align: u32,
    },
}

const fn load_name(t: ConstText<1024>, spec: &PipelineSpec, i: usize) -> ConstText<1024> {
    t.str("load `").str(load_of(spec, i).name).str("`")
}

/// Load `i` of `spec` (a stand-in for an index past [`MAX_LOADS`]: an error value built by
/// hand words its message without a panic).
const fn load_of(spec: &PipelineSpec, i: usize) -> crate::pipeline::PipelineLoad {
    if i < MAX_LOADS {
        spec.loads[i]
    } else {
        crate::pipeline::PipelineLoad::bytes("?", 0, 0)
    }
}

impl PipelineError {
    /// The key the error is about and, for a load's error, the load.
    ///
    /// ```
    /// use smemdesc_core::pipeline::*;
    /// let e = PipelineError::MulticastWithoutCluster { load: 1 };
    /// assert_eq!(e.key(), (PipelineKey::Multicast, Some(1)));
    /// ```
    pub const fn key(&self) -> (PipelineKey, Option<usize>) {
        match *self {
            PipelineError::ExpectTx { .. } => (PipelineKey::ExpectTx, None),
            PipelineError::FullArrivals { .. } => (PipelineKey::FullArrivals, None),
            PipelineError::EmptyArrivals { .. } => (PipelineKey::EmptyArrivals, None),
            PipelineError::MulticastWithoutCluster { load }
            | PipelineError::MulticastNotOperand { load }
            | PipelineError::MulticastNotShared { load, .. }
            | PipelineError::MulticastUneven { load, .. } => (PipelineKey::Multicast, Some(load)),
            PipelineError::StagesMismatch { load, .. }
            | PipelineError::ArchMismatch { load }
            | PipelineError::CtaGroupMismatch { load, .. }
            | PipelineError::MemberTooSmall { load, .. } => (PipelineKey::LoadType, Some(load)),
            PipelineError::NoEmptyBarriers { .. } => (PipelineKey::Empty, None),
            PipelineError::OverBudget { .. } | PipelineError::NoStages => {
                (PipelineKey::Stages, None)
            }
            PipelineError::TmemGroup { .. } => (PipelineKey::Tmem, None),
            PipelineError::CtaGroup { .. } | PipelineError::PairWithCluster { .. } => {
                (PipelineKey::CtaGroup, None)
            }
            PipelineError::Cluster(_) => (PipelineKey::Cluster, None),
            PipelineError::NoConsumers
            | PipelineError::PairConsumers { .. }
            | PipelineError::InitCount { .. } => (PipelineKey::Consumers, None),
            PipelineError::TooManyThreads { threads, .. } => (
                if threads > MAX_CTA_THREADS {
                    PipelineKey::ConsumerThreads
                } else {
                    PipelineKey::Consumers
                },
                None,
            ),
            PipelineError::ConsumerArrivals { .. } => (PipelineKey::ConsumerArrivals, None),
            PipelineError::TooManyLoads | PipelineError::NoLoads => (PipelineKey::Loads, None),
        }
    }

    /// The error in words, with the declaration's names and what would be legal.
    ///
    /// ```
    /// # use smemdesc_core::pipeline::*;
    /// let s = PipelineSpec::new(smemdesc_core::Arch::Sm90, 1).load(PipelineLoad::bytes("x", 64, 4)).no_empty_barriers();
    /// assert!(s.build().unwrap_err().message(&s).as_str().contains("4 stages and no empty barriers"));
    /// ```
    pub const fn message(&self, spec: &PipelineSpec) -> ConstText<1024> {
        let t = ConstText::new().str("pipeline: ");
        match *self {
            PipelineError::TooManyLoads => t
                .str("more than ")
                .num(MAX_LOADS as u32)
                .str(" loads per stage; legal: at most ")
                .num(MAX_LOADS as u32),
            PipelineError::NoLoads => {
                t.str("a stage loads nothing; declare its tiles with `loads = (name: Tile, ..)`")
            }
            PipelineError::NoConsumers => t.str(
                "no consumer would release a stage; legal: consumers >= 1, consumer_threads >= 1, consumer_arrivals >= 1",
            ),
            PipelineError::NoStages => t.str("0 stages; legal: stages >= 1"),
            PipelineError::CtaGroup { cta_group } => t
                .str("cta_group = ")
                .num(cta_group)
                .str(" is not legal on ")
                .str(spec.arch.name())
                .str("; legal: 1, and 2 on sm100"),
            PipelineError::Cluster(_) => t
                .str("cluster (")
                .num(spec.cluster.0)
                .str(", ")
                .num(spec.cluster.1)
                .str(") is not a legal cluster; legal: 1 <= x, y and x * y <= 8"),
            PipelineError::PairConsumers { consumers } => t
                .str("consumers = ")
                .num(consumers)
                .str(" with cta_group = 2: the pair's one consumer is the leader's MMA issuer, whose tcgen05.commit releases both CTAs' stages; legal: consumers = 1"),
            PipelineError::PairWithCluster { x, y } => t
                .str("cta_group = 2 with cluster (")
                .num(x)
                .str(", ")
                .num(y)
                .str("): the pair is the cluster; legal: omit `cluster` (the pair's leader expects both halves)"),
            PipelineError::StagesMismatch {
                load,
                load_stages,
                stages,
            } => load_name(t, spec, load)
                .str(" has ")
                .num(load_stages)
                .str(" stages but the pipeline ")
                .num(stages)
                .str("; legal: every load declared with stages = ")
                .num(stages),
            PipelineError::ArchMismatch { load } => load_name(t, spec, load)
                .str(" is a tile for another architecture than the pipeline's ")
                .str(spec.arch.name()),
            PipelineError::MulticastWithoutCluster { load } => load_name(t, spec, load)
                .str(" is multicast without a cluster: no other CTA would expect its slices; legal: cluster = (x, y) with y > 1 to share A, x > 1 to share B, or no multicast"),
            PipelineError::MulticastNotOperand { load } => load_name(t, spec, load)
                .str(" is multicast but is not an operand tile; legal: multicast A or B tiles only (scale factors are per CTA)"),
            PipelineError::MulticastNotShared { load, operand } => {
                let t = load_name(t, spec, load)
                    .str(" multicasts operand ")
                    .str(match operand {
                        Operand::A => "A",
                        Operand::B => "B",
                    })
                    .str(" but cluster (")
                    .num(spec.cluster.0)
                    .str(", ")
                    .num(spec.cluster.1)
                    .str(") has no other CTA sharing it: its slices would land where no barrier expects them; legal: ");
                match operand {
                    Operand::A => t.str("y > 1 (CTAs along N share A)"),
                    Operand::B => t.str("x > 1 (CTAs along M share B)"),
                }
            }
            PipelineError::MulticastUneven {
                load,
                operand: _,
                sharers,
            } => {
                let bytes = load_of(spec, load).stage_bytes;
                let slice = match bytes.checked_div(sharers) {
                    Some(b) => b,
                    None => 0,
                };
                load_name(t, spec, load)
                    .str(" is multicast to ")
                    .num(sharers)
                    .str(" CTAs but its ")
                    .num(bytes)
                    .str(" B per stage do not split evenly: ")
                    .num(sharers)
                    .str(" slices of ")
                    .num(slice)
                    .str(" B land ")
                    .num(slice.saturating_mul(sharers))
                    .str(" B where each sharer's expect_tx counts ")
                    .num(bytes)
                    .str(" (a hang); legal: a tile whose bytes (and rows) divide by ")
                    .num(sharers)
                    .str(", or no multicast")
            }
            PipelineError::NoEmptyBarriers { stages } => t
                .str("")
                .num(stages)
                .str(" stages and no empty barriers: the producer would refill a stage its consumers still read; legal: empty barriers, or stages = 1"),
            PipelineError::OverBudget {
                stages,
                stage_bytes,
                max,
            } => t
                .num(stages)
                .str(" stages of ")
                .num(stage_bytes)
                .str(" B do not fit the ")
                .num(max)
                .str(" B of shared memory per CTA on ")
                .str(spec.arch.name())
                .str("; legal: at most ")
                .num(match max.checked_div(stage_bytes) {
                    Some(n) => n,
                    None => 0,
                })
                .str(" stages"),
            PipelineError::ExpectTx {
                stated,
                derived,
                issued,
            } => {
                let t = t
                    .str("expect_tx = ")
                    .num(stated)
                    .str(" B but ")
                    .num(derived)
                    .str(" B land in each stage");
                let t = if stated == issued && issued != derived {
                    t.str(" (")
                        .num(issued)
                        .str(" B is what this CTA issues; the multicast slices its peers issue land here too)")
                } else if stated > derived {
                    t.str(" (the phase would never complete: a hang)")
                } else {
                    t.str(" (the phase would complete before all bytes land: reads of stale data)")
                };
                t.str("; legal: expect_tx = ").num(derived)
            }
            PipelineError::FullArrivals { stated, derived } => t
                .str("full barriers are initialised with ")
                .num(stated)
                .str(" arrivals but ")
                .num(derived)
                .str(" arrive per phase (the producer's arrive.expect_tx); legal: ")
                .num(derived),
            PipelineError::EmptyArrivals {
                stated,
                derived,
                consumers,
                per_consumer,
                ctas,
            } => t
                .str("empty barriers are initialised with ")
                .num(stated)
                .str(" arrivals but ")
                .num(derived)
                .str(" arrive per phase (")
                .num(consumers)
                .str(" consumers x ")
                .num(per_consumer)
                .str(" arrivals x ")
                .num(ctas)
                .str(" CTAs releasing each stage); legal: ")
                .num(derived),
            PipelineError::TmemGroup { alloc, cta_group } => t
                .str("Tensor Memory allocated with cta_group::")
                .num(alloc)
                .str(" but relinquished and deallocated by the pipeline's cta_group::")
                .num(cta_group)
                .str(" (on ")
                .str(spec.arch.name())
                .str("); legal: tmem = ")
                .num(cta_group)
                .str(" on sm100"),
            PipelineError::ConsumerArrivals { arrivals, threads } => t
                .str("consumer_arrivals = ")
                .num(arrivals)
                .str(" does not divide consumer_threads = ")
                .num(threads)
                .str(" (the arriving threads are every (threads / arrivals)-th of a group: Full::release); legal: a divisor of ")
                .num(threads),
            PipelineError::TooManyThreads { consumers, threads } => {
                let t = t
                    .str("consumers = ")
                    .num(consumers)
                    .str(" x consumer_threads = ")
                    .num(threads)
                    .str(" is more than the ")
                    .num(MAX_CTA_THREADS)
                    .str(" threads of a CTA (CUDA C++ Programming Guide, Compute Capabilities: threads per block); legal: ");
                if threads > MAX_CTA_THREADS {
                    t.str("consumer_threads <= ").num(MAX_CTA_THREADS)
                } else {
                    t.str("consumers <= ").num(match MAX_CTA_THREADS.checked_div(threads) {
                        Some(n) => n,
                        None => 0,
                    })
                }
            }
            PipelineError::InitCount {
                consumers,
                per_consumer,
                ctas,
            } => t
                .str("the empty barriers' init count, consumers = ")
                .num(consumers)
                .str(" x consumer_arrivals = ")
                .num(per_consumer)
                .str(" x ")
                .num(ctas)
                .str(" CTAs releasing each stage, is past mbarrier.init's count range (PTX ISA, mbarrier.init: 1 ..= 2^20 - 1); legal: a product <= ")
                .num(MAX_MBARRIER_COUNT),
            PipelineError::CtaGroupMismatch {
                load,
                tile,
                pipeline,
            } => load_name(t, spec, load)
                .str(" is a tile declared for cta_group::")
                .num(tile)
                .str(" but the pipeline is cta_group = ")
                .num(pipeline)
                .str(": the full barrier would count another CTA's share of the bytes than the MMA reads (PTX ISA, tcgen05.mma .cta_group); legal: cta_group = ")
                .num(tile)
                .str(" on the pipeline, or tiles declared with cta_group = ")
                .num(pipeline),
            PipelineError::MemberTooSmall {
                load,
                member_bytes,
                member_align,
            } => {
                let l = load_of(spec, load);
                let bytes = match l.stage_bytes.checked_mul(l.stages) {
                    Some(b) => b,
                    None => u32::MAX,
                };
                load_name(t, spec, load)
                    .str(" lands ")
                    .num(l.stages)
                    .str(" stages of ")
                    .num(l.stage_bytes)
                    .str(" B in a storage member of ")
                    .num(member_bytes)
                    .str(" B aligned to ")
                    .num(member_align)
                    .str(" B: its TMA would write past the member or to a misaligned address (PTX ISA, cp.async.bulk.tensor: the shared-memory destination ")
                    .num(TMA_DST_ALIGN)
                    .str("-B aligned); legal: a member `[ScaleTile; 1]`, or of at least ")
                    .num(bytes)
                    .str(" B with #[smem(align = ")
                    .num(TMA_DST_ALIGN)
                    .str(")]")
            }
        }
    }
}

impl PipelineError {
    /// The message without its rule (`Display` adds the rule's id and source).
    pub(crate) fn fmt_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Without the declaration: names read as `?`.
        let spec = PipelineSpec::new(crate::Arch::Sm90, 1);
        let mut spec = spec;
        let mut i = 0;
        while i < MAX_LOADS {
            spec.loads[i].name = "?";
            i += 1;
        }
        f.write_str(self.message(&spec).as_str())
    }
}
