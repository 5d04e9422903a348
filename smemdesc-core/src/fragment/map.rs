//! Fragment maps: which lane and register element hold which (row, column) of an `mma.sync`
//! operand, and the inverse. The closed forms below restate the PTX ISA figures "Matrix fragments
//! for mma.m16n8k4/k8/k16/k32/k64" (section "Matrix Fragments for `mma.m16n8k*`"): with
//! `groupID = lane >> 2` and `threadID_in_group = lane % 4`, element `i` of a lane sits in 32-bit
//! register `j = i / p` (`p` elements per register), and
//!
//! * A (16 × K, row-major): `row = groupID + 8·(j & 1)`, `col = p·threadID_in_group + i % p + 4p·(j >> 1)`;
//! * B (K × 8, column-major): `row = p·threadID_in_group + i % p + 4p·j`, `col = groupID`;
//! * C/D (16 × 8): `row = groupID + 8·(i >> 1)`, `col = 2·threadID_in_group + (i & 1)`.
//!
//! Every 32-bit register of A and B is therefore one 8-row × 16-byte core matrix: what one
//! `ldmatrix` matrix delivers.

use super::MmaSync;

/// Which matrix of `D = A·B + C` a fragment belongs to.
///
/// ```
/// use smemdesc_core::fragment::FragOperand;
/// assert_eq!(FragOperand::from_name("d"), Some(FragOperand::C));
/// assert_eq!(FragOperand::B.name(), "B");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FragOperand {
    /// A, `M × K`.
    A,
    /// B, `K × N`.
    B,
    /// C and D, `M × N` (the same fragment).
    C,
}

impl FragOperand {
    /// `A`, `B` or `C` (C stands for C/D).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::FragOperand::C.name(), "C");
    /// ```
    #[inline]
    pub const fn name(self) -> &'static str {
        match self {
            FragOperand::A => "A",
            FragOperand::B => "B",
            FragOperand::C => "C",
        }
    }

    /// Parses `A`, `B`, `C` or `D` (either case).
    ///
    /// ```
    /// assert!(smemdesc_core::fragment::FragOperand::from_name("E").is_none());
    /// ```
    pub fn from_name(name: &str) -> Option<FragOperand> {
        match name {
            "A" | "a" => Some(FragOperand::A),
            "B" | "b" => Some(FragOperand::B),
            "C" | "c" | "D" | "d" => Some(FragOperand::C),
            _ => None,
        }
    }

    /// The register-name letter of the ISA figures (`a`, `b`, `c`).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::FragOperand::A.letter(), 'a');
    /// ```
    #[inline]
    pub const fn letter(self) -> char {
        match self {
            FragOperand::A => 'a',
            FragOperand::B => 'b',
            FragOperand::C => 'c',
        }
    }
}

impl MmaSync {
    /// `(rows, cols)` of an operand: A `16 × K`, B `K × 8`, C/D `16 × 8`.
    ///
    /// ```
    /// use smemdesc_core::ElementType;
    /// use smemdesc_core::fragment::*;
    /// let m = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::F16).unwrap();
    /// assert_eq!(m.dims(FragOperand::B), (16, 8));
    /// ```
    #[inline]
    pub const fn dims(&self, op: FragOperand) -> (u32, u32) {
        let k = self.shape.k();
        match op {
            FragOperand::A => (16, k),
            FragOperand::B => (k, 8),
            FragOperand::C => (16, 8),
        }
    }

    /// Elements each lane holds of an operand (`a0 … a{n-1}`): `rows·cols / 32`.
    ///
    /// ```
    /// use smemdesc_core::ElementType;
    /// use smemdesc_core::fragment::*;
    /// let m = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::BF16).unwrap();
    /// assert_eq!((m.elems(FragOperand::A), m.elems(FragOperand::B), m.elems(FragOperand::C)), (8, 4, 4));
    /// ```
    #[inline]
    pub const fn elems(&self, op: FragOperand) -> u32 {
        let (r, c) = self.dims(op);
        r * c / 32
    }

    /// 32-bit registers per lane for A or B (`elems / per_reg`); C/D: 4 (one per f32/s32 value;
    /// an f16 accumulator packs them into 2).
    ///
    /// ```
    /// use smemdesc_core::ElementType;
    /// use smemdesc_core::fragment::*;
    /// let m = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K32, ElementType::S8).unwrap();
    /// assert_eq!((m.regs(FragOperand::A), m.regs(FragOperand::B)), (4, 2));
    /// ```
    #[inline]
    pub const fn regs(&self, op: FragOperand) -> u32 {
        match op {
            FragOperand::C => 4,
            _ => self.elems(op) / self.per_reg(),
        }
    }

    /// Element `elem` (the ISA's `a{elem}`, `b{elem}`, `c{elem}`) of lane `lane`: its
    /// `(row, col)` in the operand matrix, or `None` if `lane ≥ 32` or `elem ≥ elems(op)`.
    ///
    /// ```
    /// use smemdesc_core::ElementType;
    /// use smemdesc_core::fragment::*;
    /// let m = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::BF16).unwrap();
    /// // PTX figure: lane 5 (groupID 1, threadID_in_group 1) holds a6 at row 9, col 10.
    /// assert_eq!(m.coord(FragOperand::A, 5, 6), Some((9, 10)));
    /// ```
    #[inline]
    pub const fn coord(&self, op: FragOperand, lane: u32, elem: u32) -> Option<(u32, u32)> {
        if lane >= 32 || elem >= self.elems(op) {
            return None;
        }
        let g = lane >> 2;
        let t = lane & 3;
        Some(match op {
            FragOperand::C => (g + 8 * (elem >> 1), 2 * t + (elem & 1)),
            FragOperand::A => {
                let p = self.per_reg();
                let j = elem / p;
                (g + 8 * (j & 1), p * t + elem % p + 4 * p * (j >> 1))
            }
            FragOperand::B => {
                let p = self.per_reg();
                let j = elem / p;
                (p * t + elem % p + 4 * p * j, g)
            }
        })
    }

    /// The inverse of [`MmaSync::coord`]: `(lane, elem)` holding `(row, col)`, or `None` outside
    /// the operand.
    ///
    /// ```
    /// use smemdesc_core::ElementType;
    /// use smemdesc_core::fragment::*;
    /// let m = MmaSync::new(SyncArch::Sm80, SyncShape::M16N8K16, ElementType::BF16).unwrap();
    /// assert_eq!(m.locate(FragOperand::A, 9, 10), Some((5, 6)));
    /// assert_eq!(m.locate(FragOperand::C, 16, 0), None);
    /// ```
    #[inline]
    pub const fn locate(&self, op: FragOperand, row: u32, col: u32) -> Option<(u32, u32)> {
        let (rows, cols) = self.dims(op);
        if row >= rows || col >= cols {
            return None;
        }
        Some(match op {
            FragOperand::C => ((row & 7) * 4 + col / 2, (row >> 3) * 2 + (col & 1)),
            FragOperand::A => {
                let p = self.per_reg();
                let j = (row >> 3) + 2 * (col / (4 * p));
                let t = (col % (4 * p)) / p;
                ((row & 7) * 4 + t, j * p + col % p)
            }
            FragOperand::B => {
                let p = self.per_reg();
                let j = row / (4 * p);
                let t = (row % (4 * p)) / p;
                (col * 4 + t, j * p + row % p)
            }
        })
    }
}

/// The Hopper `wgmma.mma_async.m64nNk*` accumulator fragment (D, and C): 128 threads of a
/// warpgroup, `N / 2` elements each. PTX ISA, "Register Fragments and Shared Memory Matrix
/// Layouts" → "Matrix fragments for `wgmma .m64nNk*`" (accumulator D): for thread `T`, element
/// `d_i`: `row = 16·(T / 32) + groupID + 8·((i >> 1) & 1)`,
/// `col = 8·(i >> 2) + 2·threadID_in_group + (i & 1)` (groupID and threadID_in_group of
/// `T % 32`). The same for every K and input type; f16 accumulators pack two elements per
/// register in the same order.
///
/// ```
/// use smemdesc_core::fragment::WgmmaAccum;
/// let d = WgmmaAccum::new(256).unwrap();
/// assert_eq!(d.elems(), 128);
/// assert_eq!(d.coord(37, 6), Some((25, 10)));
/// assert_eq!(d.locate(25, 10), Some((37, 6)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WgmmaAccum {
    n: u32,
}

impl WgmmaAccum {
    /// The widest accumulator, `m64n256k*` (128 elements per thread).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::WgmmaAccum::MAX.n(), 256);
    /// ```
    pub const MAX: WgmmaAccum = WgmmaAccum { n: 256 };

    /// The accumulator of an `m64nNk*` instruction; `N` must be a multiple of 8 in `8..=256`
    /// (the largest set any wgmma type allows; each type's own N list is checked by
    /// [`check_mma_shape`](crate::check_mma_shape)).
    ///
    /// ```
    /// assert!(smemdesc_core::fragment::WgmmaAccum::new(12).is_none());
    /// ```
    #[inline]
    pub const fn new(n: u32) -> Option<WgmmaAccum> {
        if n == 0 || n > 256 || n % 8 != 0 {
            None
        } else {
            Some(WgmmaAccum { n })
        }
    }

    /// `N`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::WgmmaAccum::new(64).unwrap().n(), 64);
    /// ```
    #[inline]
    pub const fn n(&self) -> u32 {
        self.n
    }

    /// Elements per thread: `N / 2`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::WgmmaAccum::new(8).unwrap().elems(), 4);
    /// ```
    #[inline]
    pub const fn elems(&self) -> u32 {
        self.n / 2
    }

    /// Element `elem` of thread `thread` (0..128): its `(row, col)` in the 64 × N accumulator.
    /// For constant indices (or a kernel's own unrolled loop): in a run-time loop over `elem`
    /// the accumulator is indexed at run time and stays in local memory; the facade's
    /// `smemdesc::accum::WgmmaAcc` has the whole-fragment operations (masks, row reductions).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::WgmmaAccum::new(8).unwrap().coord(0, 3), Some((8, 1)));
    /// ```
    #[inline]
    pub const fn coord(&self, thread: u32, elem: u32) -> Option<(u32, u32)> {
        if thread >= 128 || elem >= self.elems() {
            return None;
        }
        let lane = thread & 31;
        Some((
            16 * (thread >> 5) + (lane >> 2) + 8 * ((elem >> 1) & 1),
            8 * (elem >> 2) + 2 * (lane & 3) + (elem & 1),
        ))
    }

    /// The inverse of [`WgmmaAccum::coord`].
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::WgmmaAccum::new(8).unwrap().locate(8, 1), Some((0, 3)));
    /// ```
    #[inline]
    pub const fn locate(&self, row: u32, col: u32) -> Option<(u32, u32)> {
        if row >= 64 || col >= self.n {
            return None;
        }
        let warp = row >> 4;
        let r = row & 15;
        let lane = (r & 7) * 4 + (col & 7) / 2;
        Some((32 * warp + lane, 4 * (col >> 3) + 2 * (r >> 3) + (col & 1)))
    }
}
