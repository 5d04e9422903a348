//! The numbers of a checked pipeline: init counts, `expect_tx` per CTA, the stage and parity of
//! iteration `i`, which CTAs a consumer releases, and the init order.

use crate::cluster::Cluster;
use crate::mma::Operand;
use crate::pipeline::error::PipelineError;
use crate::pipeline::spec::{PipelineSpec, MAX_CTA_THREADS, MAX_MBARRIER_COUNT, TMA_DST_ALIGN};

/// One step of a pipeline's initialisation, in order ([`PipelineLayout::init_steps`]).
///
/// ```
/// use smemdesc_core::pipeline::InitStep;
/// assert_ne!(InitStep::FenceInit, InitStep::ClusterSync);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InitStep {
    /// `mbarrier.init` of every stage's full barrier with this count (one thread).
    InitFull(u32),
    /// `mbarrier.init` of every stage's empty barrier with this count (one thread).
    InitEmpty(u32),
    /// `fence.mbarrier_init.release.cluster` (the inits visible to the async proxy and the
    /// cluster).
    FenceInit,
    /// A CTA-wide barrier (`bar.sync`): no thread waits on a barrier before it is initialised.
    CtaSync,
    /// `barrier.cluster.arrive.release` + `wait.acquire`: no peer arrives on or multicasts to a
    /// barrier before it is initialised.
    ClusterSync,
}

/// A checked pipeline ([`PipelineSpec::build`]).
///
/// ```
/// # use smemdesc_core::pipeline::*;
/// let p = PipelineSpec::new(smemdesc_core::Arch::Sm90, 2)
///     .load(PipelineLoad::bytes("ab", 49152, 4)).build().unwrap();
/// assert_eq!((p.stage(9), p.full_parity(9), p.empty_parity(9)), (1, 0, 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PipelineLayout {
    spec: PipelineSpec,
    stages: u32,
    stage_bytes: u32,
    cluster: Cluster,
    empty_arrivals: u32,
}

impl PipelineLayout {
    pub(crate) const fn new(spec: PipelineSpec) -> Result<PipelineLayout, PipelineError> {
        if spec.overflow {
            return Err(PipelineError::TooManyLoads);
        }
        if spec.n_loads == 0 {
            return Err(PipelineError::NoLoads);
        }
        if spec.consumers == 0 || spec.consumer_arrivals == 0 || spec.consumer_threads == 0 {
            return Err(PipelineError::NoConsumers);
        }
        if spec.consumer_threads % spec.consumer_arrivals != 0 {
            return Err(PipelineError::ConsumerArrivals {
                arrivals: spec.consumer_arrivals,
                threads: spec.consumer_threads,
            });
        }
        if spec.cta_group != 1 && spec.cta_group != 2
            || spec.cta_group == 2 && !spec.arch.has_tcgen05()
        {
            return Err(PipelineError::CtaGroup {
                cta_group: spec.cta_group,
            });
        }
        let cluster = match Cluster::new(spec.cluster.0, spec.cluster.1) {
            Ok(c) => c,
            Err(e) => return Err(PipelineError::Cluster(e)),
        };
        if spec.cta_group == 2 && spec.consumers != 1 {
            // The pair has one consumer: the leader's MMA issuer, whose commit releases both.
            return Err(PipelineError::PairConsumers {
                consumers: spec.consumers,
            });
        }
        if spec.cta_group == 2 && cluster.size() > 1 {
            return Err(PipelineError::PairWithCluster {
                x: spec.cluster.0,
                y: spec.cluster.1,
            });
        }
        let loads = spec.loads();
        let stages = if spec.stages == 0 {
            loads[0].stages
        } else {
            spec.stages
        };
        if stages == 0 {
            return Err(PipelineError::NoStages);
        }
        let mut stage_bytes = 0u32;
        let mut i = 0;
        while i < loads.len() {
            let l = loads[i];
            if l.stages != stages {
                return Err(PipelineError::StagesMismatch {
                    load: i,
                    load_stages: l.stages,
                    stages,
                });
            }
            if let Some(a) = l.arch {
                if a as u8 != spec.arch as u8 {
                    return Err(PipelineError::ArchMismatch { load: i });
                }
            }
            if let Some(g) = l.cta_group {
                if g != spec.cta_group {
                    return Err(PipelineError::CtaGroupMismatch {
                        load: i,
                        tile: g,
                        pipeline: spec.cta_group,
                    });
                }
            }
            if let Some((member_bytes, member_align)) = l.member {
                let fits = match l.stage_bytes.checked_mul(l.stages) {
                    Some(b) => b <= member_bytes,
                    None => false,
                };
                if !fits || member_align % TMA_DST_ALIGN != 0 {
                    return Err(PipelineError::MemberTooSmall {
                        load: i,
                        member_bytes,
                        member_align,
                    });
                }
            }
            if l.multicast {
                if cluster.size() == 1 {
                    return Err(PipelineError::MulticastWithoutCluster { load: i });
                }
                match l.operand {
                    None => return Err(PipelineError::MulticastNotOperand { load: i }),
                    Some(op) => {
                        if cluster.sharing(op) == 1 {
                            return Err(PipelineError::MulticastNotShared {
                                load: i,
                                operand: op,
                            });
                        }
                        if l.stage_bytes % cluster.sharing(op) != 0 {
                            return Err(PipelineError::MulticastUneven {
                                load: i,
                                operand: op,
                                sharers: cluster.sharing(op),
                            });
                        }
                    }
                }
            }
            stage_bytes = match stage_bytes.checked_add(l.stage_bytes) {
                Some(b) => b,
                None => u32::MAX,
            };
            i += 1;
        }
        if stages > 1 && !spec.empty_barriers {
            return Err(PipelineError::NoEmptyBarriers { stages });
        }
        let max = spec.arch.max_smem_per_cta();
        let total = match stage_bytes.checked_mul(stages) {
            Some(b) => b,
            None => u32::MAX,
        };
        if total > max {
            return Err(PipelineError::OverBudget {
                stages,
                stage_bytes,
                max,
            });
        }
        if let Some(g) = spec.tmem_alloc_group {
            if !spec.arch.has_tcgen05() || g != spec.cta_group {
                return Err(PipelineError::TmemGroup {
                    alloc: g,
                    cta_group: spec.cta_group,
                });
            }
        }
        let mut p = PipelineLayout {
            spec,
            stages,
            stage_bytes,
            cluster,
            empty_arrivals: 0,
        };
        // The init count in mbarrier.init's range (checked: a hostile count never wraps).
        p.empty_arrivals = if spec.cta_group == 2 {
            spec.consumer_arrivals
        } else {
            match spec.consumers.checked_mul(spec.consumer_arrivals) {
                Some(n) => match n.checked_mul(p.release_ctas(0)) {
                    Some(n) => n,
                    None => u32::MAX,
                },
                None => u32::MAX,
            }
        };
        if p.empty_arrivals > MAX_MBARRIER_COUNT {
            return Err(PipelineError::InitCount {
                consumers: spec.consumers,
                per_consumer: spec.consumer_arrivals,
                ctas: p.release_ctas(0),
            });
        }
        let threads = match spec.consumers.checked_mul(spec.consumer_threads) {
            Some(n) => n,
            None => u32::MAX,
        };
        if threads > MAX_CTA_THREADS {
            return Err(PipelineError::TooManyThreads {
                consumers: spec.consumers,
                threads: spec.consumer_threads,
            });
        }
        if let Some(s) = spec.stated_expect_tx {
            if s != p.expect_tx(0) {
                return Err(PipelineError::ExpectTx {
                    stated: s,
                    derived: p.expect_tx(0),
                    issued: p.issued_bytes(0),
                });
            }
        }
        if let Some(s) = spec.stated_full_arrivals {
            if s != p.full_arrivals() {
                return Err(PipelineError::FullArrivals {
                    stated: s,
                    derived: p.full_arrivals(),
                });
            }
        }
        if let Some(s) = spec.stated_empty_arrivals {
            if s != p.empty_arrivals() {
                return Err(PipelineError::EmptyArrivals {
                    stated: s,
                    derived: p.empty_arrivals(),
                    consumers: spec.consumers,
                    per_consumer: spec.consumer_arrivals,
                    ctas: p.release_ctas(0),
                });
            }
        }
        Ok(p)
    }

    /// The declaration.
    ///
    /// ```
    /// # use smemdesc_core::pipeline::*;
    /// let p = PipelineSpec::new(smemdesc_core::Arch::Sm90, 3).load(PipelineLoad::bytes("x", 64, 2)).build().unwrap();
    /// assert_eq!(p.spec().consumers, 3);
    /// ```
    pub const fn spec(&self) -> &PipelineSpec {
        &self.spec
    }

    /// Stages.
    ///
    /// ```
    /// # use smemdesc_core::pipeline::*;
    /// assert_eq!(PipelineSpec::new(smemdesc_core::Arch::Sm90, 1).load(PipelineLoad::bytes("x", 64, 3)).build().unwrap().stages(), 3);
    /// ```
    pub const fn stages(&self) -> u32 {
        self.stages
    }

    /// CTAs of the cluster (2 for a `cta_group::2` pair).
    ///
    /// ```
    /// # use smemdesc_core::pipeline::*;
    /// let s = PipelineSpec::new(smemdesc_core::Arch::Sm100, 1).load(PipelineLoad::bytes("x", 64, 2));
    /// assert_eq!((s.build().unwrap().ctas(), s.cta_group(2).build().unwrap().ctas()), (1, 2));
    /// ```
    pub const fn ctas(&self) -> u32 {
        if self.spec.cta_group == 2 {
            2
        } else {
            self.cluster.size()
        }
    }

    /// SMEM bytes one stage holds in each CTA (all loads).
    ///
    /// ```
    /// # use smemdesc_core::pipeline::*;
    /// let p = PipelineSpec::new(smemdesc_core::Arch::Sm90, 1).load(PipelineLoad::bytes("x", 64, 2))
    ///     .load(PipelineLoad::bytes("y", 32, 2)).build().unwrap();
    /// assert_eq!(p.stage_bytes(), 96);
    /// ```
    pub const fn stage_bytes(&self) -> u32 {
        self.stage_bytes
    }

    /// Bytes the full barrier of CTA `rank` expects per stage: every byte that lands in its
    /// stage (multicast slices issued by peers included); under `cta_group::2` the leader
    /// (rank 0) expects both CTAs' halves and the peer nothing.
    ///
    /// ```
    /// # use smemdesc_core::pipeline::*;
    /// let s = PipelineSpec::new(smemdesc_core::Arch::Sm100, 1).load(PipelineLoad::bytes("ab", 32768, 4)).cta_group(2);
    /// let p = s.build().unwrap();
    /// assert_eq!((p.expect_tx(0), p.expect_tx(1)), (65536, 0));
    /// ```
    pub const fn expect_tx(&self, rank: u32) -> u32 {
        if self.spec.cta_group == 2 {
            if rank == 0 {
                self.stage_bytes.saturating_mul(2)
            } else {
                0
            }
        } else {
            self.stage_bytes
        }
    }

    /// Bytes CTA `rank`'s producer issues per stage: a multicast load's share
    /// (`stage_bytes / sharers`), every other load whole.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// # use smemdesc_core::pipeline::*;
    /// let p = PipelineSpec::new(Arch::Sm90, 1).cluster(2, 1)
    ///     .load(PipelineLoad::bytes("a", 16384, 4))
    ///     .load(PipelineLoad { operand: Some(Operand::B), ..PipelineLoad::bytes("b", 32768, 4) }.multicast())
    ///     .build().unwrap();
    /// assert_eq!((p.issued_bytes(0), p.expect_tx(0)), (16384 + 16384, 16384 + 32768));
    /// ```
    pub const fn issued_bytes(&self, rank: u32) -> u32 {
        let _ = rank;
        let loads = self.spec.loads();
        let mut total = 0;
        let mut i = 0;
        while i < loads.len() {
            let l = loads[i];
            total = u32::saturating_add(
                total,
                match (l.multicast, l.operand) {
                    (true, Some(op)) => l.stage_bytes / self.cluster.sharing(op),
                    _ => l.stage_bytes,
                },
            );
            i += 1;
        }
        total
    }

    /// Init count of every full barrier: the one producer thread's `arrive.expect_tx`.
    ///
    /// ```
    /// # use smemdesc_core::pipeline::*;
    /// assert_eq!(PipelineSpec::new(smemdesc_core::Arch::Sm90, 2).load(PipelineLoad::bytes("x", 64, 2)).build().unwrap().full_arrivals(), 1);
    /// ```
    pub const fn full_arrivals(&self) -> u32 {
        1
    }

    /// Init count of every empty barrier: each consumer group's arrivals, from every CTA whose
    /// consumers read bytes this CTA's producer writes (itself and the CTAs it multicasts to);
    /// under `cta_group::2` the leader's one `tcgen05.commit` per stage.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// # use smemdesc_core::pipeline::*;
    /// let b = PipelineLoad { operand: Some(Operand::B), ..PipelineLoad::bytes("b", 32768, 4) };
    /// let p = PipelineSpec::new(Arch::Sm90, 2).cluster(2, 1).load(b.multicast()).build().unwrap();
    /// assert_eq!(p.empty_arrivals(), 2 * 2);
    /// let p = PipelineSpec::new(Arch::Sm90, 2).cluster(2, 1).load(b).build().unwrap();
    /// assert_eq!(p.empty_arrivals(), 2); // no multicast: each CTA's own consumers
    /// ```
    pub const fn empty_arrivals(&self) -> u32 {
        self.empty_arrivals
    }

    /// Whether CTAs `r` and `q` share a multicast load (so `r`'s consumers release `q`'s
    /// stages and the other way round); every CTA shares with itself.
    const fn shares(&self, r: u32, q: u32) -> bool {
        if r == q {
            return true;
        }
        let (ri, rj) = self.cluster.coords(r);
        let (qi, qj) = self.cluster.coords(q);
        let loads = self.spec.loads();
        let mut i = 0;
        while i < loads.len() {
            let l = loads[i];
            if l.multicast {
                match l.operand {
                    Some(Operand::A) if ri == qi => return true,
                    Some(Operand::B) if rj == qj => return true,
                    _ => {}
                }
            }
            i += 1;
        }
        false
    }

    /// The CTAs (a `ctaMask`: bit `q` = rank `q`) whose empty barriers a consumer of CTA `rank`
    /// arrives on when it releases a stage; under `cta_group::2` the leader's commit reaches
    /// both CTAs and the peer has no consumer.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// # use smemdesc_core::pipeline::*;
    /// let a = PipelineLoad { operand: Some(Operand::A), ..PipelineLoad::bytes("a", 16384, 4) };
    /// let p = PipelineSpec::new(Arch::Sm90, 2).cluster(1, 2).load(a.multicast()).build().unwrap();
    /// assert_eq!((p.release_mask(0), p.release_mask(1)), (0b11, 0b11));
    /// ```
    pub const fn release_mask(&self, rank: u32) -> u16 {
        if self.spec.cta_group == 2 {
            return if rank == 0 { 0b11 } else { 0 };
        }
        let mut m = 0u16;
        let mut q = 0;
        while q < self.cluster.size() {
            if self.shares(rank, q) {
                m |= 1 << q;
            }
            q += 1;
        }
        m
    }

    /// How many CTAs' consumers release CTA `rank`'s stages.
    ///
    /// ```
    /// # use smemdesc_core::pipeline::*;
    /// assert_eq!(PipelineSpec::new(smemdesc_core::Arch::Sm90, 1).load(PipelineLoad::bytes("x", 64, 2)).build().unwrap().release_ctas(0), 1);
    /// ```
    pub const fn release_ctas(&self, rank: u32) -> u32 {
        self.release_mask(rank).count_ones()
    }

    /// The stage iteration `i` uses.
    ///
    /// ```
    /// # use smemdesc_core::pipeline::*;
    /// let p = PipelineSpec::new(smemdesc_core::Arch::Sm90, 1).load(PipelineLoad::bytes("x", 64, 3)).build().unwrap();
    /// assert_eq!([p.stage(0), p.stage(2), p.stage(3), p.stage(7)], [0, 2, 0, 1]);
    /// ```
    pub const fn stage(&self, i: u32) -> u32 {
        i % self.stages
    }

    /// The parity a consumer waits for on `full[stage(i)]` at iteration `i`: the phase that
    /// completes on the `i / stages`-th fill of that stage (`mbarrier.try_wait.parity`).
    ///
    /// ```
    /// # use smemdesc_core::pipeline::*;
    /// let p = PipelineSpec::new(smemdesc_core::Arch::Sm90, 1).load(PipelineLoad::bytes("x", 64, 2)).build().unwrap();
    /// assert_eq!([p.full_parity(0), p.full_parity(1), p.full_parity(2), p.full_parity(5)], [0, 0, 1, 0]);
    /// ```
    pub const fn full_parity(&self, i: u32) -> u32 {
        (i / self.stages) & 1
    }

    /// The parity the producer waits for on `empty[stage(i)]` at iteration `i`: the previous
    /// phase's, so the first pass over the stages does not wait (a fresh barrier's "previous"
    /// phase, parity 1, counts as complete).
    ///
    /// ```
    /// # use smemdesc_core::pipeline::*;
    /// let p = PipelineSpec::new(smemdesc_core::Arch::Sm90, 1).load(PipelineLoad::bytes("x", 64, 2)).build().unwrap();
    /// assert_eq!([p.empty_parity(0), p.empty_parity(2)], [1, 0]);
    /// ```
    pub const fn empty_parity(&self, i: u32) -> u32 {
        self.full_parity(i) ^ 1
    }

    /// The initialisation, in order: the inits (one thread), the init fence, then a CTA barrier,
    /// and a cluster barrier when peers arrive on or write to this CTA's barriers.
    ///
    /// ```
    /// # use smemdesc_core::pipeline::*;
    /// let p = PipelineSpec::new(smemdesc_core::Arch::Sm90, 2).load(PipelineLoad::bytes("x", 64, 2)).build().unwrap();
    /// assert_eq!(p.init_steps(), [InitStep::InitFull(1), InitStep::InitEmpty(2), InitStep::FenceInit, InitStep::CtaSync, InitStep::CtaSync]);
    /// ```
    pub const fn init_steps(&self) -> [InitStep; 5] {
        [
            InitStep::InitFull(self.full_arrivals()),
            InitStep::InitEmpty(self.empty_arrivals()),
            InitStep::FenceInit,
            InitStep::CtaSync,
            if self.ctas() > 1 {
                InitStep::ClusterSync
            } else {
                InitStep::CtaSync
            },
        ]
    }

    /// Whether the init needs a cluster barrier (peers arrive on or write to this CTA's
    /// barriers).
    ///
    /// ```
    /// # use smemdesc_core::pipeline::*;
    /// let s = PipelineSpec::new(smemdesc_core::Arch::Sm90, 1).load(PipelineLoad::bytes("x", 64, 2));
    /// assert!(!s.build().unwrap().needs_cluster_sync());
    /// assert!(s.cluster(2, 1).build().unwrap().needs_cluster_sync());
    /// ```
    pub const fn needs_cluster_sync(&self) -> bool {
        self.ctas() > 1
    }
}
