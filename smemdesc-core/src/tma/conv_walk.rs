//! The implicit-GEMM A plan as a kernel's producer walks it at run time.
//!
//! [`ImplicitGemmA::load`] checks its indices and divides in 64 bits: right for a host, too much
//! for a producer thread that issues a load per K-step. [`Im2colWalk`] is the same plan reduced
//! to 32-bit words, checked once on the host ([`ImplicitGemmA::walk`]) and passed to the kernel
//! by value; its methods are a few integer instructions each (no panic path: a division by a
//! zero the checked constructor cannot produce yields 0). A test compares every load it gives
//! with [`ImplicitGemmA::load`].
//!
//! ```
//! use smemdesc_core::tma::{Conv2d, ImplicitGemmA};
//! use smemdesc_core::TensorMapDataType;
//! let conv = Conv2d::new(8, 56, 56, 64, 64, 3, 3).pad(1, 1);
//! let plan = ImplicitGemmA::new(conv, TensorMapDataType::Bfloat16, 128, 64).unwrap();
//! let walk = plan.walk().unwrap();
//! let (mb, kk) = (1, 4); // M-block 1, the centre tap
//! let l = walk.load(walk.origin(mb, 0), 0, &walk.step(kk));
//! assert_eq!(l, plan.load(mb as u64, kk, 0).unwrap());
//! ```

use crate::tma::conv::{Im2colLoad, ImplicitGemmA, KStep};
use crate::tma::conv_error::ConvError;

/// An [`ImplicitGemmA`] plan for a kernel: 32-bit words, `#[repr(C)]`, `Copy`, checked by
/// [`ImplicitGemmA::walk`].
///
/// ```
/// use smemdesc_core::tma::{Conv2d, ImplicitGemmA};
/// let plan = ImplicitGemmA::new(Conv2d::new(2, 7, 7, 32, 8, 1, 1), smemdesc_core::TensorMapDataType::Float16, 64, 32).unwrap();
/// let w = plan.walk().unwrap();
/// assert_eq!((w.m_blocks, w.k_steps, w.pq, w.q), (2, 1, 49, 7));
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Im2colWalk {
    /// Tile rows (output pixels per M-block).
    pub bm: u32,
    /// Pixels per load.
    pub pixels: u32,
    /// Bytes per pixel row of a load (`BK` × element bytes).
    pub row_bytes: u32,
    /// Output pixels per image, `P·Q`.
    pub pq: u32,
    /// Output columns `Q`.
    pub q: u32,
    /// Strides `(h, w)`.
    pub stride: [u32; 2],
    /// Paddings `(h, w)`.
    pub pad: [u32; 2],
    /// Dilations `(h, w)`.
    pub dilation: [u32; 2],
    /// Input channels `C`.
    pub c: u32,
    /// Filter columns `S`.
    pub s: u32,
    /// Channels per load `BK`.
    pub bk: u32,
    /// Channel blocks per tap, `C / BK`.
    pub c_blocks: u32,
    /// K-steps per tile, `R·S·C / BK`.
    pub k_steps: u32,
    /// M-blocks, `⌈N·P·Q / BM⌉`.
    pub m_blocks: u32,
}

impl ImplicitGemmA {
    /// The plan as 32-bit words for a kernel, or [`ConvError::Rows`] when `M`, the K extent or
    /// an input coordinate would not fit them.
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ConvError, ImplicitGemmA};
    /// let big = Conv2d::new(1 << 14, 1024, 1024, 64, 64, 1, 1);
    /// let plan = ImplicitGemmA::new(big, smemdesc_core::TensorMapDataType::Bfloat16, 128, 64).unwrap();
    /// assert_eq!(plan.walk().unwrap_err(), ConvError::Rows { m: 1 << 34 });
    /// ```
    pub const fn walk(&self) -> Result<Im2colWalk, ConvError> {
        let c = &self.conv;
        let rows = self.m_blocks() * self.bm as u64;
        let eb = self.data_type.box_bits() / 8;
        if rows > u32::MAX as u64
            || self.gemm_k() > u32::MAX as u64
            || (c.h as u64) * (c.stride.0 as u64) > i32::MAX as u64
            || (c.w as u64) * (c.stride.1 as u64) > i32::MAX as u64
        {
            return Err(ConvError::Rows { m: self.gemm_m() });
        }
        Ok(Im2colWalk {
            bm: self.bm,
            pixels: self.pixels,
            row_bytes: self.bk * eb,
            pq: self.out.0 * self.out.1,
            q: self.out.1,
            stride: [c.stride.0, c.stride.1],
            pad: [c.pad.0, c.pad.1],
            dilation: [c.dilation.0, c.dilation.1],
            c: c.c,
            s: c.s,
            bk: self.bk,
            c_blocks: c.c / self.bk,
            k_steps: self.k_steps(),
            m_blocks: rows as u32 / self.bm,
        })
    }
}

/// `a / b`, 0 when `b` is 0 (no panic path).
#[inline(always)]
const fn div(a: u32, b: u32) -> u32 {
    match a.checked_div(b) {
        Some(v) => v,
        None => 0,
    }
}

impl Im2colWalk {
    /// Loads per K-step.
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ImplicitGemmA};
    /// let plan = ImplicitGemmA::new(Conv2d::new(1, 8, 8, 16, 8, 1, 1), smemdesc_core::TensorMapDataType::Float16, 64, 16).unwrap();
    /// assert_eq!(plan.pixels_per_load(16).unwrap().walk().unwrap().loads_per_step(), 4);
    /// ```
    #[inline(always)]
    pub const fn loads_per_step(&self) -> u32 {
        div(self.bm, self.pixels)
    }

    /// Tensor coordinates `(0, w, h, n)` of the first pixel of load `j` of M-block `mb`: the
    /// input origin `(q·stride_w − pad_w, p·stride_h − pad_h, n)` of its output pixel.
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ImplicitGemmA};
    /// let conv = Conv2d::new(2, 9, 9, 16, 8, 3, 3).stride(2, 2).pad(1, 1); // P = Q = 5
    /// let w = ImplicitGemmA::new(conv, smemdesc_core::TensorMapDataType::Float16, 32, 16).unwrap().walk().unwrap();
    /// assert_eq!(w.origin(1, 0), [0, 2 * 2 - 1, 2 - 1, 1]); // pixel 32 = image 1, (p, q) = (1, 2)
    /// ```
    #[inline(always)]
    pub const fn origin(&self, mb: u32, j: u32) -> [i32; 4] {
        let m = mb
            .wrapping_mul(self.bm)
            .wrapping_add(j.wrapping_mul(self.pixels));
        let n = div(m, self.pq);
        let rest = m.wrapping_sub(n.wrapping_mul(self.pq));
        let p = div(rest, self.q);
        let q = rest.wrapping_sub(p.wrapping_mul(self.q));
        [
            0,
            q.wrapping_mul(self.stride[1]).wrapping_sub(self.pad[1]) as i32,
            p.wrapping_mul(self.stride[0]).wrapping_sub(self.pad[0]) as i32,
            n as i32,
        ]
    }

    /// K-step `kk`: its filter tap `(r, s)`, first channel and first GEMM column.
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ImplicitGemmA};
    /// let a = ImplicitGemmA::new(Conv2d::new(1, 8, 8, 32, 8, 3, 3), smemdesc_core::TensorMapDataType::Float16, 64, 16).unwrap();
    /// assert_eq!(a.walk().unwrap().step(5), a.k_step(5).unwrap());
    /// ```
    #[inline(always)]
    pub const fn step(&self, kk: u32) -> KStep {
        let tap = div(kk, self.c_blocks);
        let c0 = kk
            .wrapping_sub(tap.wrapping_mul(self.c_blocks))
            .wrapping_mul(self.bk);
        let r = div(tap, self.s);
        KStep {
            r,
            s: tap.wrapping_sub(r.wrapping_mul(self.s)),
            c0,
            k0: kk.wrapping_mul(self.bk) as u64,
        }
    }

    /// Load `j` of K-step `step` from its [`origin`](Self::origin): the first channel, the
    /// tap's offsets `(s·dilation_w, r·dilation_h)` and where it lands in the tile.
    ///
    /// ```
    /// use smemdesc_core::tma::{Conv2d, ImplicitGemmA};
    /// let conv = Conv2d::new(1, 9, 9, 32, 8, 3, 3).dilation(2, 2);
    /// let w = ImplicitGemmA::new(conv, smemdesc_core::TensorMapDataType::Float16, 64, 16).unwrap().walk().unwrap();
    /// let l = w.load(w.origin(0, 0), 0, &w.step(9)); // tap 4 = (1, 1), channels 16..32
    /// assert_eq!((l.coords[0], l.offsets), (16, [2, 2]));
    /// ```
    #[inline(always)]
    pub const fn load(&self, origin: [i32; 4], j: u32, step: &KStep) -> Im2colLoad {
        let first_row = j.wrapping_mul(self.pixels);
        Im2colLoad {
            coords: [step.c0 as i32, origin[1], origin[2], origin[3]],
            offsets: [
                step.s.wrapping_mul(self.dilation[1]) as u16,
                step.r.wrapping_mul(self.dilation[0]) as u16,
            ],
            first_row,
            rows: self.pixels,
            byte_offset: first_row.wrapping_mul(self.row_bytes),
            bytes: self.pixels.wrapping_mul(self.row_bytes),
        }
    }
}
