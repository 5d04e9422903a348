//! The PTX instructions the declarations describe, for nvptx64 kernels (this module exists only
//! when the crate is built for `nvptx64-nvidia-cuda`, with nightly's `asm_experimental_arch`;
//! the host build is unchanged): the [`PipelineOps`](crate::pipeline::PipelineOps) and
//! [`TensorMapOps`](crate::grouped::TensorMapOps) a declared pipeline and a grouped map issue
//! ([`Spin`], [`Watchdog`]), and the instructions around them: TMA loads (tiled, multicast,
//! the sm100 pair form, im2col), stores and reduces, bulk groups, mbarriers, fences, `mapa`,
//! cluster barriers, `elect`, `setmaxnreg` and the special registers a kernel reads.
//!
//! A kernel that goes through the declarations' handles names no instruction itself:
//!
//! ```ignore
//! // nvptx64 kernel code (the module does not exist on the host).
//! use smemdesc::pipeline::PipeAt;
//! use smemdesc::ptx::{self, Spin};
//! let pipe = PipeAt::<Pipe>::new(base, 0);
//! if ptx::tid_x() == 0 {
//!     pipe.init::<Spin>();
//! }
//! pipe.init_sync::<Spin>();
//! let (mut producer, consumers) = pipe.split();
//! ```
//!
//! Shared-memory operands are shared-window addresses (`u32`, `.shared::cta`, what
//! `#[smem_storage]`'s accessors return) unless named `.shared::cluster`; a tensor map is the
//! generic address (`u64`) of its 128 bytes in global memory
//! ([`TensorMapMem`](crate::grouped::TensorMapMem)). The functions with no precondition are
//! safe; those whose operand must be a live barrier, a tile the caller owns or a valid map, or
//! that every thread of a warp or warpgroup must execute together, are `unsafe fn` and say what
//! the caller promises. The ops types' methods are safe because the traits' are: their callers
//! are the handles, which pass only the declared barriers, stages and slots. The traits take
//! plain addresses, so a direct call (`Spin::init(addr, n)`) bypasses that guarantee; call the
//! handles, or this module's `unsafe fn`s with their promises kept.
//!
//! Why a module of the facade and not a crate of its own: the traits it implements are the
//! facade's, a kernel already depends on the facade (one dependency, one version), and the
//! `cfg` keeps it out of the stable host build, where the crate still forbids `unsafe` code.

mod fence;
mod matrix;
mod mbarrier;
mod ops;
mod predicated;
mod sreg;
mod tma;

pub use fence::*;
pub use matrix::*;
pub use mbarrier::*;
pub use ops::{Spin, Watchdog, WATCHDOG_CYCLES};
pub use predicated::*;
pub use sreg::*;
pub use tma::*;
