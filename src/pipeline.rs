//! The declared TMA → tensor-core pipeline at run time: typed handles that issue exactly the
//! barrier protocol [`macro@crate::smem_pipeline`] derived (the core's [`PipelineLayout`]), so
//! the byte count, the init counts and the wait parities cannot be written wrong.
//!
//! * [`PipeAt`] — the pipeline's barriers in a CTA (the storage base and the CTA's rank):
//!   [`init`](PipeAt::init) (one thread), [`init_sync`](PipeAt::init_sync) (every thread), then
//!   [`split`](PipeAt::split) (consumed) into the one producer and the one consumer set of the
//!   instance; an sm100 pair's ([`split_pair`](PipeAt::split_pair)) gives the peer CTA only a
//!   [`PeerProducer`], whose loads complete on the leader's barriers with the pair form.
//! * [`Producer`] — [`acquire`](Producer::acquire) waits for a free stage and arrives on its
//!   full barrier with the declared `expect_tx`; it returns a [`Fill`], whose type lists the
//!   stage's declared loads: each [`Fill::load`] issues one (its TMA boxes, or this CTA's
//!   multicast slices) and moves to the next, and only an empty list may be
//!   [`issued`](Fill::issued). A stage cannot be filled before its consumers released it.
//! * [`Consumer`] — [`wait`](Consumer::wait) waits on the right parity and returns a [`Full`]
//!   token; [`Full::release`] consumes it, so a stage is released once, on every CTA that
//!   multicast into it.
//!
//! The instructions come from [`PipelineOps`], implemented once by the kernel crate (`asm!`, or
//! cuda-oxide's intrinsics); its `wait` may give up (a watchdog), and then the handles return
//! `None`. Every number is an associated constant: the handles hold a base address, the CTA's
//! rank and an iteration counter, and compile to the instructions a hand-written kernel issues.
//!
//! ```
//! use smemdesc::pipeline::{PipeAt, PipelineOps};
//! use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};
//!
//! #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4)]
//! pub struct TileA;
//! #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 4)]
//! pub struct TileB;
//! #[smem_storage(arch = sm90)]
//! pub struct Storage { a: TileA, b: TileB, full: [Mbarrier; 4], empty: [Mbarrier; 4] }
//!
//! #[smem_pipeline(storage = Storage, loads = (a: TileA, b: TileB), consumers = 2)]
//! pub struct Pipe;
//! assert_eq!((Pipe::EXPECT_TX, Pipe::FULL_ARRIVALS, Pipe::EMPTY_ARRIVALS), (49152, 1, 2));
//!
//! // A recording backend (a kernel implements it with `asm!`).
//! # use std::cell::RefCell;
//! # thread_local!(static LOG: RefCell<Vec<String>> = RefCell::new(Vec::new()));
//! # fn log(s: String) { LOG.with(|l| l.borrow_mut().push(s)); }
//! struct Rec;
//! impl PipelineOps for Rec {
//!     fn init(bar: u32, count: u32) { log(format!("init {bar:#x} {count}")) }
//!     fn arrive_expect_tx(bar: u32, bytes: u32) { log(format!("expect {bar:#x} {bytes}")) }
//!     fn tma_load(dst: u32, _map: u64, c0: u32, c1: u32, bar: u32) { log(format!("load {dst:#x} ({c0}, {c1}) {bar:#x}")) }
//! #   fn fence_init() {} fn sync_cta() {} fn sync_cluster() {} fn arrive(_: u32) {}
//! #   fn arrive_cluster(_: u32, _: u32) {} fn wait(_: u32, _: u32) -> bool { true }
//! #   fn map_cta(a: u32, _: u32) -> u32 { a }
//! #   fn tma_load_multicast(_: u32, _: u64, _: u32, _: u32, _: u32, _: u16) {}
//! #   fn tma_load_pair(_: u32, _: u64, _: u32, _: u32, _: u32) {}
//! }
//! let (mut producer, _consumers) = PipeAt::<Pipe>::new(0, 0).split();
//! let fill = producer.acquire::<Rec>().unwrap();         // stage 0
//! let fill = fill.load::<Rec>(0, 64, 128);               // A at (k, m) = (64, 128)
//! assert_eq!(fill.load::<Rec>(0, 64, 256).issued(), 0);  // B; then nothing left to load
//! LOG.with(|l| assert_eq!(l.borrow()[..], [
//!     format!("expect {:#x} 49152", Storage::full_at(0, 0)),
//!     format!("load 0x0 (64, 128) {:#x}", Storage::full_at(0, 0)),
//!     format!("load {:#x} (64, 256) {:#x}", Storage::B_OFFSET, Storage::full_at(0, 0)),
//! ]));
//! ```

use crate::radix::reduce;
use crate::smem::TileAt;
use crate::{Major, SmemTile};

pub use smemdesc_core::pipeline::{
    InitStep, PipelineError, PipelineKey, PipelineLayout, PipelineLoad, PipelineSpec, MAX_LOADS,
};

mod decl;
mod handles;
mod producer;
#[doc(hidden)]
pub use decl::{__check, __check_barriers, __layout, __multicast};
pub use handles::{Consumer, Consumers, Full, PairRole, PipeAt};
pub use producer::{Fill, PeerProducer, Producer};

/// The instructions a pipeline issues, implemented once by the kernel crate. Addresses are
/// shared-window (`.shared::cta`) addresses unless named otherwise.
///
/// An implementation vouches that each method issues the PTX instruction its documentation
/// names; the handles then issue exactly the declared protocol. On nvptx64 the library ships
/// two, `smemdesc::ptx::Spin` (waits that never give up) and `smemdesc::ptx::Watchdog`
/// (bounded waits): a kernel written generically over the trait runs on either, and on a
/// recording backend in a host test.
///
/// ```
/// # use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};
/// use smemdesc::pipeline::{PipeAt, PipelineOps};
/// # use std::cell::Cell;
/// # thread_local!(static INITS: Cell<u32> = Cell::new(0));
/// # #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K, stages = 2)]
/// # pub struct A;
/// # #[smem_storage(arch = sm90)]
/// # pub struct S { a: A, full: [Mbarrier; 2], empty: [Mbarrier; 2] }
/// # #[smem_pipeline(storage = S, loads = (a: A), consumers = 1)]
/// # pub struct Pipe;
/// // The kernel's set-up, generic over the instructions.
/// fn set_up<O: PipelineOps>(base: u32, tid: u32) {
///     let pipe = PipeAt::<Pipe>::new(base, 0);
///     if tid == 0 {
///         pipe.init::<O>();
///     }
///     pipe.init_sync::<O>();
/// }
/// // In the kernel: the library's instructions.
/// #[cfg(target_arch = "nvptx64")]
/// fn kernel(base: u32) {
///     set_up::<smemdesc::ptx::Spin>(base, smemdesc::ptx::tid_x())
/// }
/// // On the host: a backend that counts the barriers initialised.
/// struct Count;
/// impl PipelineOps for Count {
///     fn init(_: u32, _: u32) { INITS.with(|n| n.set(n.get() + 1)) }
/// #   fn fence_init() {} fn sync_cta() {} fn sync_cluster() {}
/// #   fn arrive_expect_tx(_: u32, _: u32) {} fn arrive(_: u32) {} fn arrive_cluster(_: u32, _: u32) {}
/// #   fn wait(_: u32, _: u32) -> bool { true } fn map_cta(a: u32, _: u32) -> u32 { a }
/// #   fn tma_load(_: u32, _: u64, _: u32, _: u32, _: u32) {}
/// #   fn tma_load_multicast(_: u32, _: u64, _: u32, _: u32, _: u32, _: u16) {}
/// #   fn tma_load_pair(_: u32, _: u64, _: u32, _: u32, _: u32) {}
/// }
/// set_up::<Count>(0, 0);
/// assert_eq!(INITS.with(|n| n.get()), 4); // 2 full + 2 empty barriers
/// ```
pub trait PipelineOps {
    /// `mbarrier.init.shared::cta.b64 [bar], count`.
    fn init(bar: u32, count: u32);
    /// `fence.mbarrier_init.release.cluster`.
    fn fence_init();
    /// `bar.sync 0` (every thread of the CTA).
    fn sync_cta();
    /// `barrier.cluster.arrive.release` then `barrier.cluster.wait.acquire`.
    fn sync_cluster();
    /// `mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], bytes`.
    fn arrive_expect_tx(bar: u32, bytes: u32);
    /// `mbarrier.arrive.shared::cta.b64 _, [bar]`.
    fn arrive(bar: u32);
    /// `mapa` of `bar` into CTA `cta` of the cluster, then
    /// `mbarrier.arrive.shared::cluster.b64 _, [addr]` (the default `.release`, as CUTLASS's
    /// `ClusterBarrier::arrive(cta)`; `.release.cluster` costs two memory barriers per call,
    /// gpu/RESULTS.md issue 22).
    fn arrive_cluster(bar: u32, cta: u32);
    /// Waits until the phase of parity `parity` of `bar` completed
    /// (`mbarrier.try_wait.parity` in a loop); `false`: gave up (a watchdog fired).
    ///
    /// A wait that can give up costs speed around `wgmma`: each thread then has its own way out
    /// of the loop around the wait, ptxas keeps the stage in per-thread registers and may wait
    /// after every `wgmma` (C7518, "serialized due to … WG.DP in divergent path"): 10 % of a
    /// grouped GEMM on the H200 (`gpu/device-logs/2026-11-27-grouped-c7518`). An
    /// implementation that always returns `true` (a plain `try_wait` loop) lets the compiler
    /// drop the `None` arms; keep the watchdog for debugging builds.
    fn wait(bar: u32, parity: u32) -> bool;
    /// `mapa.shared::cluster.u32`: the `.shared::cluster` address of `addr` in CTA `cta`.
    fn map_cta(addr: u32, cta: u32) -> u32;
    /// `cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [dst],
    /// [map, {c0, c1}], [bar]` (`c0` innermost).
    fn tma_load(dst: u32, map: u64, c0: u32, c1: u32, bar: u32);
    /// The same with `.multicast::cluster` to the CTAs of `mask`.
    fn tma_load_multicast(dst: u32, map: u64, c0: u32, c1: u32, bar: u32, mask: u16);
    /// The load of an sm100 CTA pair (`cta_group = 2`), issued by both CTAs of the pair:
    /// `cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2
    /// [dst], [map, {c0, c1}], [bar]`, where `bar` is the `.shared::cluster` address of the
    /// leader's full barrier. Without `.cta_group::2` the barrier must be in the destination's
    /// own CTA (PTX ISA, `cp.async.bulk.tensor`), so the peer's bytes would never be counted.
    fn tma_load_pair(dst: u32, map: u64, c0: u32, c1: u32, bar: u32);
}

/// Whether a pipeline is one CTA's ([`Single`]) or an sm100 CTA pair's ([`Pair`],
/// `cta_group = 2`): [`PipeAt::split`] exists for the first, [`PipeAt::split_pair`] for the
/// second, so a pair's peer never holds the handles that wait on barriers only the leader's
/// loads complete.
pub trait CtaGroup: sealed::Sealed {
    /// 1 or 2.
    const CTAS: u32;
}
/// One CTA's pipeline (`cta_group = 1`, the default).
pub struct Single;
/// An sm100 CTA pair's pipeline (`cta_group = 2`).
pub struct Pair;
impl CtaGroup for Single {
    const CTAS: u32 = 1;
}
impl CtaGroup for Pair {
    const CTAS: u32 = 2;
}
/// How the kernel is launched: [`Independent`] or [`Dependent`].
pub trait LaunchKind: sealed::Sealed {
    /// Whether the launch is a programmatic dependent one.
    const DEPENDENT: bool;
}
/// An ordinary launch (the default): the handles are handed out at once.
pub struct Independent;
/// A programmatic dependent launch (`dependent = true`, `smemdesc::pdl`): the handles are handed
/// out with the proof that `griddepcontrol.wait` returned.
pub struct Dependent;
impl LaunchKind for Independent {
    const DEPENDENT: bool = false;
}
impl LaunchKind for Dependent {
    const DEPENDENT: bool = true;
}
mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Single {}
    impl Sealed for super::Pair {}
    impl Sealed for super::Independent {}
    impl Sealed for super::Dependent {}
}

/// What `#[smem_pipeline]` implements: the checked layout, the barriers' addresses and the
/// stage's loads as a type list (`(Load<0>, (Load<1>, ()))`).
///
/// ```
/// # use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier, pipeline::Pipeline};
/// # #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K, stages = 2)]
/// # pub struct A;
/// # #[smem_storage(arch = sm90)]
/// # pub struct S { a: A, full: [Mbarrier; 2], empty: [Mbarrier; 2] }
/// #[smem_pipeline(storage = S, loads = (a: A), consumers = 1)]
/// pub struct P;
/// assert_eq!(<P as Pipeline>::LAYOUT.stages(), 2);
/// assert_eq!(P::full(0x400, 1), S::full_at(0x400, 1));
/// ```
pub trait Pipeline: Sized {
    /// The checked protocol.
    const LAYOUT: PipelineLayout;
    /// Threads per consumer group (a consumer's `thread` is below it).
    const CONSUMER_THREADS: u32;
    /// The stage's loads, in declaration order.
    type Loads;
    /// [`Single`] or [`Pair`] (the declaration's `cta_group`).
    type Group: CtaGroup;
    /// [`Independent`], or [`Dependent`] for a programmatic dependent launch (`dependent =
    /// true`): its handles come only with the proof of `griddepcontrol.wait`
    /// ([`PipeAt::split_after`], an sm100 pair's [`PipeAt::split_pair_after`]), so no load of
    /// it reads the primary's output before the wait.
    type Launch: LaunchKind;
    /// `full[s]` of the storage at `base`.
    fn full(base: u32, s: u32) -> u32;
    /// `empty[s]` (`full[s]` for a pipeline without empty barriers; never used then).
    fn empty(base: u32, s: u32) -> u32;
}

/// Load `I` of a stage, a marker in [`Pipeline::Loads`].
pub struct Load<const I: usize>;

/// Load `I` of the pipeline, with the SMEM it lands in.
pub trait RawLoad<const I: usize>: Pipeline {
    /// Start of stage `s` of the load's storage member.
    fn stage_addr(base: u32, s: u32) -> u32;
    /// Bytes per stage.
    const STAGE_BYTES: u32;
}

/// Load `I` as an operand tile: its TMA boxes, or its multicast slices.
pub trait TileLoad<const I: usize>: RawLoad<I> {
    /// The tile.
    type Tile: SmemTile;
    /// The member at `base`.
    fn tile(base: u32) -> TileAt<Self::Tile>;
    /// Multicast to the CTAs that share it: its plan (`None`: every CTA loads its own).
    const MULTICAST: Option<crate::cluster::Multicast>;
}

/// `i % stages` and `(i / stages) & 1` for the constant stages of `P`.
#[inline(always)]
pub(crate) fn stage_parity<P: Pipeline>(i: u32) -> (u32, u32) {
    let s = reduce!(i, P::LAYOUT.stages());
    let q = if const { P::LAYOUT.stages().is_power_of_two() } {
        i >> const { P::LAYOUT.stages().trailing_zeros() }
    } else {
        i / const { crate::radix::__nonzero(P::LAYOUT.stages()) }
    };
    (s, q & 1)
}

/// Issues CTA `rank`'s part of load `I` of stage `stage` (tile coordinates `(k0, mn0)`).
#[inline(always)]
pub(crate) fn issue_tile<P: TileLoad<I>, O: PipelineOps, const I: usize>(
    base: u32,
    rank: u32,
    stage: u32,
    bar: u32,
    map: u64,
    k0: u32,
    mn0: u32,
) {
    let t = P::tile(base);
    let coords = |mn: u32, k: u32| match <P::Tile as SmemTile>::MAJOR {
        Major::K => (k0.wrapping_add(k), mn0.wrapping_add(mn)),
        Major::Mn => (mn0.wrapping_add(mn), k0.wrapping_add(k)),
    };
    match const { P::MULTICAST } {
        None => {
            let mut b = 0;
            while b < <P::Tile as SmemTile>::TMA_BOXES {
                let [mn, k] = <P::Tile as SmemTile>::tma_box_coord(b);
                let (c0, c1) = coords(mn, k);
                if const { P::LAYOUT.spec().cta_group == 2 } {
                    O::tma_load_pair(t.tma_dst(b, stage), map, c0, c1, bar);
                } else {
                    O::tma_load(t.tma_dst(b, stage), map, c0, c1, bar);
                }
                b += 1;
            }
        }
        Some(_) => {
            let m = const { multicast_consts::<P, I>() };
            // This CTA's place among the sharers and the CTAs it multicasts to: arithmetic on
            // the rank with the cluster's constant x.
            let x = const { multicast_consts::<P, I>().x };
            let (i, j) = (
                reduce!(rank, multicast_consts::<P, I>().x),
                rank / const { crate::radix::__nonzero(multicast_consts::<P, I>().x) },
            );
            let index = if m.a { j } else { i };
            let mask = if m.a {
                m.mask0 << i
            } else {
                m.mask0 << (j * x)
            };
            let step = index.wrapping_mul(m.slice_rows);
            let mut b = 0;
            while b < m.slices {
                let (bm, bk) = slice_box::<P, I>(b);
                let (mn, k) = if m.k_major {
                    (bm + step, bk)
                } else {
                    (bm, bk + step)
                };
                let off = TileAt::<P::Tile>::cell_offset(mn, k);
                let (c0, c1) = coords(mn, k);
                O::tma_load_multicast(
                    t.stage_addr(stage).wrapping_add(off),
                    map,
                    c0,
                    c1,
                    bar,
                    mask,
                );
                b += 1;
            }
        }
    }
}

/// Box `b`'s origin in the multicast plan (before the slice step).
#[inline(always)]
fn slice_box<P: TileLoad<I>, const I: usize>(b: u32) -> (u32, u32) {
    let r0: smemdesc_core::Radix = const {
        match P::MULTICAST {
            Some(m) => smemdesc_core::Radix::of(m.plan().box_coord_modes().0),
            // (never issued: the arm that reads it is for multicast loads)
            None => smemdesc_core::Radix::of(<P::Tile as SmemTile>::PLAN.tma.box_coord_modes().0),
        }
    };
    let r1: smemdesc_core::Radix = const {
        match P::MULTICAST {
            Some(m) => smemdesc_core::Radix::of(m.plan().box_coord_modes().1),
            None => smemdesc_core::Radix::of(<P::Tile as SmemTile>::PLAN.tma.box_coord_modes().1),
        }
    };
    (r0.eval(b), r1.eval(b))
}

/// The constants of a multicast load.
#[derive(Clone, Copy)]
struct McConsts {
    a: bool,
    x: u32,
    mask0: u16,
    slice_rows: u32,
    slices: u32,
    k_major: bool,
}

const fn multicast_consts<P: TileLoad<I>, const I: usize>() -> McConsts {
    let m = match P::MULTICAST {
        Some(m) => m,
        // (never issued: inline `const` blocks of the unicast arm's sibling are still evaluated)
        None => {
            return McConsts {
                a: false,
                x: 1,
                mask0: 1,
                slice_rows: 0,
                slices: 0,
                k_major: true,
            }
        }
    };
    McConsts {
        a: matches!(m.operand(), crate::Operand::A),
        x: P::LAYOUT.spec().cluster.0,
        mask0: m.cta_mask(0),
        slice_rows: m.slice_rows(),
        slices: m.slices(),
        k_major: matches!(<P::Tile as SmemTile>::MAJOR, Major::K),
    }
}
