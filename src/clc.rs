//! Cluster launch control (sm100): the dynamic persistent scheduler's protocol as types. A
//! running cluster asks to cancel a cluster that has not started yet
//! (`clusterlaunchcontrol.try_cancel`), which writes a 16-byte response to shared memory and
//! completes 16 transaction bytes on an mbarrier; the response is readable once that barrier's
//! phase completed, and says either "canceled: do the work of the cluster whose first CTA is
//! `(x, y, z)`" or "none left". After a CTA observed a failed response, another `try_cancel` is
//! undefined behaviour (PTX ISA, `clusterlaunchcontrol.try_cancel`).
//!
//! * [`ClcScheduler`] — the response slot and its barrier; [`request`](ClcScheduler::request)
//!   arrives with `expect_tx = 16` and issues `try_cancel`, consuming the scheduler;
//! * [`ClcPending`] — a request in flight: it has no way to read the response, only
//!   [`wait`](ClcPending::wait), which waits for the barrier's phase;
//! * [`ClcResponse`] — the landed response: [`next`](ClcResponse::next) decodes it into
//!   [`ClcNext::Canceled`] (the work's first CTA and the scheduler back, for the next request)
//!   or [`ClcNext::Exhausted`] (no scheduler: no request after a failed one).
//!
//! ```
//! use smemdesc::clc::*;
//! use smemdesc::pipeline::PipelineOps;
//! # use std::cell::{Cell, RefCell};
//! # thread_local!(static LOG: RefCell<Vec<String>> = RefCell::new(Vec::new()));
//! # thread_local!(static LEFT: Cell<u32> = Cell::new(2));
//! # fn log(s: String) { LOG.with(|l| l.borrow_mut().push(s)); }
//! struct Rec; // a kernel implements these with `asm!` (smemdesc::ptx::Spin does)
//! # impl PipelineOps for Rec {
//! #   fn init(b: u32, n: u32) { log(format!("init {b:#x} {n}")) } fn fence_init() {} fn sync_cta() {} fn sync_cluster() {}
//! #   fn arrive_expect_tx(b: u32, n: u32) { log(format!("expect {b:#x} {n}")) } fn arrive(_: u32) {} fn arrive_cluster(_: u32, _: u32) {}
//! #   fn wait(b: u32, p: u32) -> bool { log(format!("wait {b:#x} {p}")); true } fn map_cta(a: u32, _: u32) -> u32 { a }
//! #   fn tma_load(_: u32, _: u64, _: u32, _: u32, _: u32) {} fn tma_load_multicast(_: u32, _: u64, _: u32, _: u32, _: u32, _: u16) {}
//! #   fn tma_load_pair(_: u32, _: u64, _: u32, _: u32, _: u32) {}
//! # }
//! impl ClcOps for Rec {
//!     fn try_cancel(resp: u32, bar: u32) { log(format!("try_cancel {resp:#x} {bar:#x}")) }
//!     // A stand-in for the hardware: two clusters left to steal, then none.
//!     fn query(_resp: u32) -> Option<[u32; 3]> {
//!         LEFT.with(|l| { let n = l.get(); l.set(n.saturating_sub(1)); (n > 0).then(|| [n * 2, 0, 0]) })
//!     }
//! }
//! let sched = ClcScheduler::new(0x100, 0x110).unwrap(); // 16-B response, 8-B barrier
//! sched.init::<Rec>();
//! let mut next = sched;
//! let mut work = Vec::new();
//! loop {
//!     let Some(resp) = next.request::<Rec>().wait::<Rec>() else { break };
//!     match resp.next::<Rec>() {
//!         ClcNext::Canceled { first_cta, scheduler } => { work.push(first_cta[0]); next = scheduler; }
//!         ClcNext::Exhausted => break,
//!     }
//! }
//! assert_eq!(work, [4, 2]);
//! // Each request: expect 16 bytes, try_cancel, wait on the next phase's parity.
//! LOG.with(|l| assert_eq!(l.borrow()[1..4], ["expect 0x110 16", "try_cancel 0x100 0x110", "wait 0x110 0"]));
//! LOG.with(|l| assert_eq!(l.borrow()[6], "wait 0x110 1"));
//! ```

use crate::pipeline::PipelineOps;

mod broadcast;
pub use broadcast::{
    ClcCastNext, ClcCastPending, ClcCastResponse, ClcCluster, ClcDrain, ClcIssuer, ClcListener,
    ClcMulticastOps, ClcRole, MAX_CLUSTER_CTAS,
};

/// The two `clusterlaunchcontrol` instructions (sm100), implemented once by the kernel crate.
pub trait ClcOps {
    /// `clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128
    /// [resp], [bar];` — writes the 16-byte response at `resp` (16-B aligned) and completes 16
    /// transaction bytes on `bar`.
    fn try_cancel(resp: u32, bar: u32);
    /// Loads the response at `resp` and decodes it:
    /// `clusterlaunchcontrol.query_cancel.is_canceled.pred.b128` and
    /// `.get_first_ctaid.v4.b32.b128`: `Some(first CTA)` when a cluster was canceled.
    fn query(resp: u32) -> Option<[u32; 3]>;
}

/// A response slot or barrier at an address the instruction cannot take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClcError {
    /// The response is not 16-B aligned (PTX ISA: a naturally aligned 16-byte `.b128`).
    ResponseMisaligned {
        /// The address given.
        address: u32,
    },
    /// The barrier is not 8-B aligned (an mbarrier is an 8-byte object).
    BarrierMisaligned {
        /// The address given.
        address: u32,
    },
    /// A cluster-wide scheduler ([`ClcCluster`]) over no CTA or more than
    /// [`MAX_CLUSTER_CTAS`].
    ClusterSize {
        /// The CTAs given.
        ctas: u32,
    },
}

impl ClcError {
    /// The message without its rule (`Display` adds the rule's id and source).
    pub(crate) fn fmt_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            ClcError::ResponseMisaligned { address } => write!(
                f,
                "cluster launch control: the response at {address:#x} is not 16-B aligned (PTX ISA, clusterlaunchcontrol.try_cancel: a naturally aligned 16-byte .shared::cta location); legal: a multiple of 16"
            ),
            ClcError::BarrierMisaligned { address } => write!(
                f,
                "cluster launch control: the mbarrier at {address:#x} is not 8-B aligned (PTX ISA, mbarrier: an 8-byte object); legal: a multiple of 8"
            ),
            ClcError::ClusterSize { ctas } => write!(
                f,
                "cluster launch control: a cluster-wide scheduler over {ctas} CTAs (CUDA programming guide, thread block clusters: at most 16, non-portable); legal: 1 to 16"
            ),
        }
    }
}

impl core::error::Error for ClcError {}

/// The scheduler of one CTA: its response slot, its barrier and the barrier's phase. Not
/// `Copy`: each [`request`](Self::request) consumes it.
///
/// ```
/// # use smemdesc::clc::*;
/// assert!(ClcScheduler::new(0x100, 0x110).is_ok());
/// assert_eq!(ClcScheduler::new(0x108, 0x110).err(), Some(ClcError::ResponseMisaligned { address: 0x108 }));
/// ```
pub struct ClcScheduler {
    resp: u32,
    bar: u32,
    phase: u32,
}

impl ClcScheduler {
    /// The scheduler over the response at `resp` (16-B aligned) and the mbarrier at `bar`
    /// (8-B aligned), shared-window addresses, at the barrier's first phase.
    pub const fn new(resp: u32, bar: u32) -> Result<ClcScheduler, ClcError> {
        if resp % 16 != 0 {
            return Err(ClcError::ResponseMisaligned { address: resp });
        }
        if bar % 8 != 0 {
            return Err(ClcError::BarrierMisaligned { address: bar });
        }
        Ok(ClcScheduler {
            resp,
            bar,
            phase: 0,
        })
    }

    /// `mbarrier.init` of the barrier with count 1 (the requesting thread's arrival) and the
    /// init fence. One thread, before the CTA's barrier.
    #[inline(always)]
    pub fn init<O: PipelineOps>(&self) {
        O::init(self.bar, 1);
        O::fence_init();
    }

    /// Asks to cancel a cluster that has not started: arrives on the barrier with
    /// `expect_tx = 16` (the response's bytes), then `try_cancel`.
    #[inline(always)]
    pub fn request<O: PipelineOps + ClcOps>(self) -> ClcPending {
        O::arrive_expect_tx(self.bar, 16);
        O::try_cancel(self.resp, self.bar);
        ClcPending { s: self }
    }
}

/// A request in flight: its response may not have landed, so there is nothing to read.
#[must_use = "wait for the response before deciding the next tile"]
pub struct ClcPending {
    s: ClcScheduler,
}

impl ClcPending {
    /// Waits for the barrier's phase (the response's 16 bytes landed). `None`: the wait gave up.
    #[inline(always)]
    pub fn wait<O: PipelineOps>(self) -> Option<ClcResponse> {
        if !O::wait(self.s.bar, self.s.phase & 1) {
            return None;
        }
        Some(ClcResponse { s: self.s })
    }
}

/// A landed response.
pub struct ClcResponse {
    s: ClcScheduler,
}

/// What a response says.
pub enum ClcNext {
    /// A cluster was canceled: this CTA does its work, starting at `first_cta`, and may ask again.
    Canceled {
        /// The `%ctaid` of the canceled cluster's first CTA.
        first_cta: [u32; 3],
        /// The scheduler, at the barrier's next phase.
        scheduler: ClcScheduler,
    },
    /// No cluster was left to cancel: the persistent loop ends (asking again would be
    /// undefined behaviour, so there is no scheduler to ask with).
    Exhausted,
}

impl ClcResponse {
    /// Decodes the response.
    #[inline(always)]
    pub fn next<O: ClcOps>(self) -> ClcNext {
        match O::query(self.s.resp) {
            Some(first_cta) => ClcNext::Canceled {
                first_cta,
                scheduler: ClcScheduler {
                    resp: self.s.resp,
                    bar: self.s.bar,
                    phase: self.s.phase.wrapping_add(1),
                },
            },
            None => ClcNext::Exhausted,
        }
    }
}
