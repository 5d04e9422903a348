//! The cluster-wide form of cluster launch control (sm_100a, sm_110a):
//! `clusterlaunchcontrol.try_cancel…multicast::cluster::all` writes the 16-byte response to the
//! same `.shared::cta` offset in *every* CTA of the requesting cluster and completes 16
//! transaction bytes on each CTA's mbarrier at the same offset (PTX ISA,
//! `clusterlaunchcontrol.try_cancel`; CCCL's `clusterlaunchcontrol_try_cancel_multicast`: PTX ISA
//! 8.6, `SM_100a`, `SM_110a`). One CTA of the cluster asks, every CTA reads.
//!
//! The protocol, as types:
//! * [`ClcCluster`] — each CTA's response slot, its *full* barrier (count 1: the CTA's own
//!   `arrive.expect_tx(16)`) and the *empty* barrier of the cluster's rank 0 (count: the
//!   cluster's CTAs, each arriving once it decoded the response). [`role`](ClcCluster::role)
//!   gives rank 0 the [`ClcIssuer`] and every other rank a [`ClcListener`]: only the issuer has
//!   a `request`, so no cluster asks twice for one response slot;
//! * [`ClcIssuer::request`] (expect 16 on its own barrier, then the multicast `try_cancel`) and
//!   [`ClcListener::expect`] (expect 16 on its own barrier) give a [`ClcCastPending`], whose only
//!   way on is [`wait`](ClcCastPending::wait) for its own barrier's phase;
//! * [`ClcCastResponse::next`] decodes the landed response, then arrives on rank 0's empty
//!   barrier (the response is in registers: the slot may be overwritten). A canceled cluster gives
//!   the listener back, and the issuer a [`ClcDrain`], which has no `request`: the issuer asks
//!   again only after [`ClcDrain::wait_readers`] saw every CTA's arrival, so the next broadcast
//!   never overwrites a response some CTA has not read. "None left" ends every CTA's loop with no
//!   handle (and no remote arrival: rank 0 may exit as soon as it decoded it).
//!
//! ```
//! use smemdesc::clc::*;
//! use smemdesc::pipeline::PipelineOps;
//! # use std::cell::{Cell, RefCell};
//! # thread_local!(static LOG: RefCell<Vec<String>> = RefCell::new(Vec::new()));
//! # thread_local!(static LEFT: Cell<u32> = Cell::new(1));
//! # fn log(s: String) { LOG.with(|l| l.borrow_mut().push(s)); }
//! struct Rec; // a kernel implements these with `asm!` (smemdesc::ptx::Spin does)
//! # impl PipelineOps for Rec {
//! #   fn init(b: u32, n: u32) { log(format!("init {b:#x} {n}")) } fn fence_init() {} fn sync_cta() {} fn sync_cluster() {}
//! #   fn arrive_expect_tx(b: u32, n: u32) { log(format!("expect {b:#x} {n}")) } fn arrive(_: u32) {}
//! #   fn arrive_cluster(b: u32, c: u32) { log(format!("arrive {b:#x} cta {c}")) }
//! #   fn wait(b: u32, p: u32) -> bool { log(format!("wait {b:#x} {p}")); true } fn map_cta(a: u32, _: u32) -> u32 { a }
//! #   fn tma_load(_: u32, _: u64, _: u32, _: u32, _: u32) {} fn tma_load_multicast(_: u32, _: u64, _: u32, _: u32, _: u32, _: u16) {}
//! #   fn tma_load_pair(_: u32, _: u64, _: u32, _: u32, _: u32) {}
//! # }
//! impl ClcOps for Rec {
//!     fn try_cancel(_: u32, _: u32) { unreachable!("the cluster form asks with the multicast") }
//!     fn query(_resp: u32) -> Option<[u32; 3]> { // one cluster left to steal, then none
//!         LEFT.with(|l| { let n = l.get(); l.set(n.saturating_sub(1)); (n > 0).then(|| [8, 0, 0]) })
//!     }
//! }
//! impl ClcMulticastOps for Rec {
//!     fn try_cancel_multicast(resp: u32, bar: u32) { log(format!("try_cancel.multicast {resp:#x} {bar:#x}")) }
//! }
//! // A cluster of 2: response at 0x100, full barrier 0x110, empty barrier 0x118 in each CTA.
//! let cluster = ClcCluster::new(0x100, 0x110, 0x118, 2).unwrap();
//! cluster.init::<Rec>(); // one thread per CTA, then every thread: init_sync
//! let ClcRole::Issuer(issuer) = cluster.role(0) else { unreachable!() };
//! let resp = issuer.request::<Rec>().wait::<Rec>().unwrap();
//! let ClcCastNext::Canceled { first_cta, then: drain } = resp.next::<Rec>() else { unreachable!() };
//! assert_eq!(first_cta, [8, 0, 0]);
//! let issuer = drain.wait_readers::<Rec>().unwrap(); // every CTA decoded it
//! let last = issuer.request::<Rec>().wait::<Rec>().unwrap();
//! assert!(matches!(last.next::<Rec>(), ClcCastNext::Exhausted));
//! LOG.with(|l| assert_eq!(l.borrow()[..], [
//!     "init 0x110 1", "init 0x118 2",
//!     "expect 0x110 16", "try_cancel.multicast 0x100 0x110", "wait 0x110 0", "arrive 0x118 cta 0",
//!     "wait 0x118 0",
//!     "expect 0x110 16", "try_cancel.multicast 0x100 0x110", "wait 0x110 1",
//! ]));
//! ```

use super::{ClcError, ClcOps};
use crate::pipeline::PipelineOps;
use core::marker::PhantomData;

/// The multicast `try_cancel` (sm_100a / sm_110a), implemented once by the kernel crate.
pub trait ClcMulticastOps: ClcOps {
    /// `clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128
    /// [resp], [bar];` — writes the response at offset `resp` of every CTA of the cluster and
    /// completes 16 transaction bytes on the mbarrier at offset `bar` of each.
    fn try_cancel_multicast(resp: u32, bar: u32);
}

/// The largest cluster the broadcast declaration takes: 16 CTAs (the non-portable cluster size
/// of sm_90 and sm_100; 8 is the portable one: CUDA programming guide, "Thread block
/// clusters").
pub const MAX_CLUSTER_CTAS: u32 = 16;

/// The cluster-wide scheduler's slots in one CTA (the same offsets in every CTA of the
/// cluster: a `#[smem_storage]` layout gives that). Not `Copy`: [`role`](Self::role) consumes it.
///
/// ```
/// # use smemdesc::clc::*;
/// assert!(ClcCluster::new(0x100, 0x110, 0x118, 4).is_ok());
/// assert_eq!(ClcCluster::new(0x100, 0x110, 0x11c, 4).err(), Some(ClcError::BarrierMisaligned { address: 0x11c }));
/// assert_eq!(ClcCluster::new(0x100, 0x110, 0x118, 17).err(), Some(ClcError::ClusterSize { ctas: 17 }));
/// ```
pub struct ClcCluster {
    resp: u32,
    full: u32,
    empty: u32,
    ctas: u32,
}

impl ClcCluster {
    /// The slots: the response at `resp` (16-B aligned), this CTA's full barrier at `full` and
    /// the empty barrier at `empty` (8-B aligned; rank 0's counts), in a cluster of `ctas` CTAs
    /// (1 to [`MAX_CLUSTER_CTAS`]).
    pub const fn new(resp: u32, full: u32, empty: u32, ctas: u32) -> Result<ClcCluster, ClcError> {
        if resp % 16 != 0 {
            return Err(ClcError::ResponseMisaligned { address: resp });
        }
        if full % 8 != 0 {
            return Err(ClcError::BarrierMisaligned { address: full });
        }
        if empty % 8 != 0 {
            return Err(ClcError::BarrierMisaligned { address: empty });
        }
        if ctas == 0 || ctas > MAX_CLUSTER_CTAS {
            return Err(ClcError::ClusterSize { ctas });
        }
        Ok(ClcCluster {
            resp,
            full,
            empty,
            ctas,
        })
    }

    /// `mbarrier.init` of the full barrier (count 1) and the empty barrier (count: the
    /// cluster's CTAs), then the init fence. One thread of every CTA, before
    /// [`init_sync`](Self::init_sync).
    #[inline(always)]
    pub fn init<O: PipelineOps>(&self) {
        O::init(self.full, 1);
        O::init(self.empty, self.ctas);
        O::fence_init();
    }

    /// The cluster barrier after [`init`](Self::init): the broadcast completes tx on every
    /// CTA's barrier and the readers arrive on rank 0's, so each must be initialised first.
    /// Every thread of every CTA.
    #[inline(always)]
    pub fn init_sync<O: PipelineOps>(&self) {
        O::sync_cluster();
    }

    /// This CTA's side, by its `%cluster_ctarank`: rank 0 asks, every other rank listens.
    #[inline(always)]
    pub const fn role(self, rank: u32) -> ClcRole {
        let at = Cast { c: self, phase: 0 };
        if rank == 0 {
            ClcRole::Issuer(ClcIssuer { at })
        } else {
            ClcRole::Listener(ClcListener { at })
        }
    }
}

/// One CTA's side of the cluster-wide scheduler ([`ClcCluster::role`]).
pub enum ClcRole {
    /// Rank 0: it issues the multicast request.
    Issuer(ClcIssuer),
    /// Every other rank: it expects the broadcast response, never asks.
    Listener(ClcListener),
}

struct Cast {
    c: ClcCluster,
    phase: u32,
}

/// Rank 0's scheduler, at a phase whose response slots every CTA has read.
pub struct ClcIssuer {
    at: Cast,
}

/// A rank's scheduler that only receives the broadcast: it has no `request`.
pub struct ClcListener {
    at: Cast,
}

/// The issuer after a canceled response, before every CTA of the cluster decoded it: no
/// `request` until [`wait_readers`](Self::wait_readers).
#[must_use = "wait for every CTA's read before asking again"]
pub struct ClcDrain {
    at: Cast,
}

impl ClcIssuer {
    /// Expects the 16 response bytes on this CTA's barrier, then the multicast `try_cancel`.
    #[inline(always)]
    pub fn request<O: PipelineOps + ClcMulticastOps>(self) -> ClcCastPending<ClcIssuer> {
        O::arrive_expect_tx(self.at.c.full, 16);
        O::try_cancel_multicast(self.at.c.resp, self.at.c.full);
        ClcCastPending {
            at: self.at,
            side: PhantomData,
        }
    }
}

impl ClcListener {
    /// Expects the 16 response bytes of rank 0's next request on this CTA's barrier.
    #[inline(always)]
    pub fn expect<O: PipelineOps>(self) -> ClcCastPending<ClcListener> {
        O::arrive_expect_tx(self.at.c.full, 16);
        ClcCastPending {
            at: self.at,
            side: PhantomData,
        }
    }
}

impl ClcDrain {
    /// Waits for the empty barrier's phase: every CTA of the cluster decoded the response.
    /// `None`: the wait gave up.
    #[inline(always)]
    pub fn wait_readers<O: PipelineOps>(self) -> Option<ClcIssuer> {
        if !O::wait(self.at.c.empty, (self.at.phase.wrapping_sub(1)) & 1) {
            return None;
        }
        Some(ClcIssuer { at: self.at })
    }
}

/// A broadcast in flight for this CTA: nothing to read until its own barrier's phase.
#[must_use = "wait for the response before deciding the next tile"]
pub struct ClcCastPending<S> {
    at: Cast,
    side: PhantomData<S>,
}

impl<S> ClcCastPending<S> {
    /// Waits for this CTA's full barrier (the broadcast's 16 bytes landed here).
    #[inline(always)]
    pub fn wait<O: PipelineOps>(self) -> Option<ClcCastResponse<S>> {
        if !O::wait(self.at.c.full, self.at.phase & 1) {
            return None;
        }
        Some(ClcCastResponse {
            at: self.at,
            side: PhantomData,
        })
    }
}

/// The broadcast response, landed in this CTA.
pub struct ClcCastResponse<S> {
    at: Cast,
    side: PhantomData<S>,
}

/// What a broadcast response says; `T` is what a canceled one gives back: the issuer's
/// [`ClcDrain`], or the [`ClcListener`] at the next phase.
pub enum ClcCastNext<T> {
    /// A cluster was canceled: every CTA does its part of it, starting at `first_cta`.
    Canceled {
        /// The `%ctaid` of the canceled cluster's first CTA.
        first_cta: [u32; 3],
        /// The issuer's [`ClcDrain`], or the listener at the next phase.
        then: T,
    },
    /// None left: every CTA's loop ends, with no handle to ask or expect with.
    Exhausted,
}

impl<S> ClcCastResponse<S> {
    /// Decodes the response; after a canceled one, arrives on rank 0's empty barrier (the
    /// response is in registers from here on: the slot may be overwritten).
    #[inline(always)]
    fn decode<O: PipelineOps + ClcOps, T>(self, then: fn(Cast) -> T) -> ClcCastNext<T> {
        match O::query(self.at.c.resp) {
            Some(first_cta) => {
                O::arrive_cluster(self.at.c.empty, 0);
                ClcCastNext::Canceled {
                    first_cta,
                    then: then(Cast {
                        c: self.at.c,
                        phase: self.at.phase.wrapping_add(1),
                    }),
                }
            }
            None => ClcCastNext::Exhausted,
        }
    }
}

impl ClcCastResponse<ClcIssuer> {
    /// Decodes the response; a canceled one gives the [`ClcDrain`] (see the module's example).
    #[inline(always)]
    pub fn next<O: PipelineOps + ClcOps>(self) -> ClcCastNext<ClcDrain> {
        self.decode::<O, _>(|at| ClcDrain { at })
    }
}

impl ClcCastResponse<ClcListener> {
    /// Decodes the response; a canceled one gives the listener back, at the next phase.
    ///
    /// ```
    /// # use smemdesc::clc::*;
    /// # use smemdesc::pipeline::PipelineOps;
    /// # struct Nop;
    /// # impl PipelineOps for Nop {
    /// #   fn init(_: u32, _: u32) {} fn fence_init() {} fn sync_cta() {} fn sync_cluster() {}
    /// #   fn arrive_expect_tx(_: u32, _: u32) {} fn arrive(_: u32) {} fn arrive_cluster(_: u32, _: u32) {}
    /// #   fn wait(_: u32, _: u32) -> bool { true } fn map_cta(a: u32, _: u32) -> u32 { a }
    /// #   fn tma_load(_: u32, _: u64, _: u32, _: u32, _: u32) {} fn tma_load_multicast(_: u32, _: u64, _: u32, _: u32, _: u32, _: u16) {}
    /// #   fn tma_load_pair(_: u32, _: u64, _: u32, _: u32, _: u32) {}
    /// # }
    /// # impl ClcOps for Nop { fn try_cancel(_: u32, _: u32) {} fn query(_: u32) -> Option<[u32; 3]> { Some([2, 0, 0]) } }
    /// let ClcRole::Listener(l) = ClcCluster::new(0, 16, 24, 2).unwrap().role(1) else { unreachable!() };
    /// let ClcCastNext::Canceled { first_cta, then: _listener } = l.expect::<Nop>().wait::<Nop>().unwrap().next::<Nop>()
    /// else { unreachable!() };
    /// assert_eq!(first_cta, [2, 0, 0]);
    /// ```
    #[inline(always)]
    pub fn next<O: PipelineOps + ClcOps>(self) -> ClcCastNext<ClcListener> {
        self.decode::<O, _>(|at| ClcListener { at })
    }
}
