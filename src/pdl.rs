//! Programmatic dependent launch (PDL, sm_90+): a kernel launched with the
//! programmatic-stream-serialization attribute may start while the kernel before it in the
//! stream (its *primary*) still runs, so its prologue (barrier init, tensor-map prefetch,
//! shared-memory setup) overlaps the primary's tail. What it must not do is read the primary's
//! output before `griddepcontrol.wait`, which returns once every prerequisite grid completed and
//! its memory is visible (PTX ISA, `griddepcontrol`). A read before it races: no error, the
//! wrong bytes.
//!
//! The ordering as types:
//! * [`Upstream<T>`] — a pointer (or a tensor map) into the primary's output. It is
//!   `#[repr(transparent)]` over the `u64` address, so it *is* the kernel parameter: the raw
//!   address never reaches the kernel's code. Its address comes only with a [`Resolved`] proof.
//! * [`Prologue`] — the dependent kernel before the wait; [`Prologue::wait`] issues
//!   `griddepcontrol.wait` and returns the [`Resolved`] proof, which no other function makes.
//! * [`launch_dependents`] — the primary's `griddepcontrol.launch_dependents`: from here on the
//!   dependent grid may be scheduled (an optimisation: correctness rests on the wait alone).
//!
//! Read an `Upstream` with a coherent load (`ld.global`, `ld.relaxed.gpu`, TMA), never
//! `ld.global.nc`: the non-coherent path requires the data to stay unwritten for the kernel's
//! whole life (PTX ISA, `ld.global.nc`), and a dependent's input is written by its primary
//! while the dependent already runs.
//!
//! The host sets the launch attribute with `smemdesc::cuda::launch_dependent` (the `cudarc`
//! feature).
//!
//! ```
//! use smemdesc::pdl::{GridDepOps, Prologue, Upstream};
//! # use std::cell::RefCell;
//! # thread_local!(static LOG: RefCell<Vec<&'static str>> = RefCell::new(Vec::new()));
//! struct Rec; // a kernel implements these with `asm!`
//! impl GridDepOps for Rec {
//!     fn wait() { LOG.with(|l| l.borrow_mut().push("griddepcontrol.wait")) }
//!     fn launch_dependents() { LOG.with(|l| l.borrow_mut().push("griddepcontrol.launch_dependents")) }
//! }
//! // The dependent kernel's parameter: the primary's output, as a typed handle.
//! let x = Upstream::<f32>::from_param(0x7f00_0000_1000);
//! let prologue = Prologue::start();
//! // ... init barriers, prefetch maps: nothing of the primary's output is readable yet ...
//! let done = prologue.wait::<Rec>();
//! assert_eq!(x.addr(&done), 0x7f00_0000_1000); // only now
//! LOG.with(|l| assert_eq!(l.borrow()[..], ["griddepcontrol.wait"]));
//! ```

use core::marker::PhantomData;

/// The two `griddepcontrol` instructions, implemented once by the kernel crate.
pub trait GridDepOps {
    /// `griddepcontrol.wait;` — every prerequisite grid completed, its memory visible.
    fn wait();
    /// `griddepcontrol.launch_dependents;` — the dependent grid may be scheduled.
    fn launch_dependents();
}

/// A dependent kernel before its `griddepcontrol.wait`.
///
/// ```
/// let p = smemdesc::pdl::Prologue::start();
/// # let _ = p;
/// ```
#[must_use = "a dependent kernel waits before it reads its primary's output"]
pub struct Prologue {
    _p: (),
}

impl Prologue {
    /// The kernel's start (any number of these may exist: each [`wait`](Self::wait) waits).
    #[inline(always)]
    pub const fn start() -> Prologue {
        Prologue { _p: () }
    }

    /// `griddepcontrol.wait`, then the proof that the primary's output may be read.
    #[inline(always)]
    pub fn wait<O: GridDepOps>(self) -> Resolved {
        O::wait();
        Resolved { _p: PhantomData }
    }
}

/// Proof that `griddepcontrol.wait` returned in this thread: every prerequisite grid completed
/// and its memory operations are visible. Made only by [`Prologue::wait`]; neither `Clone` nor
/// `Default`, and its field is private.
///
/// ```
/// # use smemdesc::pdl::*;
/// # struct Nop;
/// # impl GridDepOps for Nop { fn wait() {} fn launch_dependents() {} }
/// let r: Resolved = Prologue::start().wait::<Nop>();
/// # let _ = r;
/// ```
pub struct Resolved {
    // (not `Send`: the proof is of this thread's wait)
    _p: PhantomData<*const ()>,
}

/// Data of `T` that a prerequisite grid (the primary) writes: its global address, readable
/// only with a [`Resolved`] proof. `#[repr(transparent)]` over `u64`, so a kernel takes it as
/// its parameter directly (`extern "ptx-kernel" fn dependent(x: Upstream<f32>, ...)`), and the
/// host passes the device pointer as for a `u64`.
///
/// ```
/// use smemdesc::pdl::Upstream;
/// assert_eq!(core::mem::size_of::<Upstream<f32>>(), 8);
/// let x = Upstream::<f32>::from_param(0x1000);
/// # let _ = x;
/// ```
#[repr(transparent)]
pub struct Upstream<T> {
    addr: u64,
    t: PhantomData<fn() -> T>,
}

impl<T> Upstream<T> {
    /// The handle of a kernel parameter (host code and tests; a kernel declares its parameter
    /// as `Upstream<T>` and never sees the raw address).
    #[inline(always)]
    pub const fn from_param(addr: u64) -> Upstream<T> {
        Upstream {
            addr,
            t: PhantomData,
        }
    }

    /// The address, once the primary's writes are visible.
    #[inline(always)]
    pub const fn addr(&self, _after: &Resolved) -> u64 {
        self.addr
    }

    /// The address of element `i` (`i · size_of::<T>()` bytes on, wrapping like the pointer
    /// arithmetic it replaces), once the primary's writes are visible.
    ///
    /// ```
    /// # use smemdesc::pdl::*;
    /// # struct Nop;
    /// # impl GridDepOps for Nop { fn wait() {} fn launch_dependents() {} }
    /// let x = Upstream::<f32>::from_param(0x1000);
    /// let r = Prologue::start().wait::<Nop>();
    /// assert_eq!(x.element(&r, 3), 0x100c);
    /// ```
    #[inline(always)]
    pub const fn element(&self, _after: &Resolved, i: u64) -> u64 {
        self.addr
            .wrapping_add(i.wrapping_mul(core::mem::size_of::<T>() as u64))
    }
}

/// A tensor map over a prerequisite grid's output (TMA reads of it race like loads before the
/// wait): [`Upstream`] of the 128-B map.
pub type UpstreamMap = Upstream<crate::grouped::TensorMapMem>;

/// The primary's `griddepcontrol.launch_dependents`: the dependent grid may be scheduled once
/// every CTA of this grid issued it or exited. It orders nothing for the dependent's reads
/// (those wait for the whole grid).
///
/// ```
/// # use smemdesc::pdl::*;
/// # struct Nop;
/// # impl GridDepOps for Nop { fn wait() {} fn launch_dependents() {} }
/// launch_dependents::<Nop>();
/// ```
#[inline(always)]
pub fn launch_dependents<O: GridDepOps>() {
    O::launch_dependents();
}
