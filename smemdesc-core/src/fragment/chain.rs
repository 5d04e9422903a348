//! Chaining two `wgmma`: the f32 (or f16) accumulator of the first (`S = Q·Kᵀ`, `m64nNk*`)
//! becomes, converted to f16/bf16, the register A operand of the second (`O = P·V`,
//! `m64nN2k16` RS), one k16 step per 16 accumulator columns, without shared memory.
//!
//! Why it is a plain register reuse for 16-bit A: the accumulator element `d_e` of thread `T` sits
//! at `(16w + groupID + 8·((e >> 1) & 1), 8·(e >> 2) + 2·threadID_in_group + (e & 1))` and the
//! A element `a_i` at `(16w + groupID + 8·((i >> 1) & 1), 2·threadID_in_group + (i & 1) +
//! 8·(i >> 2))` (both PTX figures, see [`WgmmaAccum`] and [`WgmmaRegA`]); so column `16s + k` of
//! the accumulator, read as `a_i` of k-step `s`, is `d_{8s + i}` of the **same** thread.
//! A register `r` of k-step `s` packs `d_{8s+2r}` (low half, lower k) and `d_{8s+2r+1}` (high
//! half). For tf32 (k8) and the 8-bit types (k32) the A fragment's k-columns of a thread are
//! `t, t+4` resp. `4t … 4t+3, 16+4t …`, which other lanes' accumulators hold: not a register
//! reuse, refused here ([`ChainError::NotLaneLocal`]; [`WgmmaRegA::accum_source`] names the
//! lanes).

use super::{WgmmaAccum, WgmmaRegA};
use crate::base::arch::{Arch, Major};
use crate::base::dtype::ElementType;
use crate::base::error::Error;
use crate::base::kind::{AccumType, MmaKind};
use crate::mma::shape::{check_mma_shape, MmaShape};

/// Which instruction of a chained pair an error is about.
///
/// ```
/// assert_eq!(smemdesc_core::fragment::ChainSide::Second.name(), "second");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChainSide {
    /// The first `wgmma` (`S = Q·Kᵀ`), whose accumulator is converted.
    First,
    /// The second `wgmma` (`O = P·V`), A from registers.
    Second,
}

impl ChainSide {
    /// `first` or `second`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::ChainSide::First.name(), "first");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            ChainSide::First => "first",
            ChainSide::Second => "second",
        }
    }
}

/// Why a `wgmma` declaration or a chained pair is refused (plain data: integers and unit enums).
///
/// ```
/// use smemdesc_core::{AccumType, ElementType, MmaShape};
/// use smemdesc_core::fragment::{ChainError, WgmmaInstr};
/// let e = WgmmaInstr::new(MmaShape::new(64, 128, 16), ElementType::BF16, AccumType::F16);
/// assert!(matches!(e, Err(ChainError::AccumNotForType { .. })));
/// assert!(e.unwrap_err().to_string().contains("f32"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainError {
    /// The shape is no `wgmma` shape for the type (sm90: M = 64, K = 32 bytes, N per type).
    Shape {
        /// Which instruction.
        side: ChainSide,
        /// The shape check's error.
        error: Error,
    },
    /// The accumulator type is not one `wgmma` allows for the input type (f16 → f16/f32,
    /// bf16/tf32 → f32, e4m3/e5m2 → f16/f32, s8/u8 → s32).
    AccumNotForType {
        /// Which instruction.
        side: ChainSide,
        /// The input type.
        dtype: ElementType,
        /// The accumulator asked for.
        accum: AccumType,
    },
    /// The type has no `wgmma` form on sm90 (6- and 4-bit types).
    NoWgmmaForm {
        /// Which instruction.
        side: ChainSide,
        /// The type.
        dtype: ElementType,
    },
    /// The second's A type would need values from other lanes: its fragment's k-columns are not
    /// the ones each thread's accumulator holds (tf32 k8, and the 8-bit k32 types).
    NotLaneLocal {
        /// The second's A type.
        a: ElementType,
    },
    /// An s32 accumulator does not convert to a floating-point A (nor requantise to 8 bit here).
    AccumNotConvertible {
        /// The first's accumulator.
        accum: AccumType,
        /// The second's A type.
        a: ElementType,
    },
    /// The first's N is not a whole number of the second's k-steps.
    KStepsNotWhole {
        /// The first's N (the columns of the accumulator).
        n: u32,
        /// The second's K.
        k: u32,
    },
}

impl ChainError {
    /// A static text of the rule broken, for a compile-time panic (`const` cannot format the
    /// values; [`Display`](core::fmt::Display) has them).
    ///
    /// ```
    /// use smemdesc_core::ElementType;
    /// use smemdesc_core::fragment::ChainError;
    /// assert!(ChainError::NotLaneLocal { a: ElementType::E4M3 }.summary().contains("f16, bf16"));
    /// ```
    pub const fn summary(&self) -> &'static str {
        match self {
            ChainError::Shape { side: ChainSide::First, .. } => {
                "chained wgmma: the first (SS) instruction is not a wgmma shape for its type (sm90: M = 64, K = 32 bytes, N per type)"
            }
            ChainError::Shape { .. } => {
                "chained wgmma: the second (RS) instruction is not a wgmma shape for its type (sm90: M = 64, K = 32 bytes, N per type)"
            }
            ChainError::AccumNotForType { .. } => {
                "chained wgmma: an accumulator type wgmma does not have for the input; legal: f16 -> f16 or f32, bf16/tf32 -> f32, e4m3/e5m2 -> f16 or f32, s8/u8 -> s32"
            }
            ChainError::NoWgmmaForm { .. } => {
                "chained wgmma: a type with no wgmma form on sm90; legal: f16, bf16, tf32, e4m3, e5m2, s8, u8"
            }
            ChainError::NotLaneLocal { .. } => {
                "chained wgmma: the second's A fragment is not a register reuse of the first's accumulator (its k-columns sit in other lanes); legal A types for chaining: f16, bf16"
            }
            ChainError::AccumNotConvertible { .. } => {
                "chained wgmma: an s32 accumulator does not convert to a floating-point A operand; legal: an f32 or f16 accumulator into f16 or bf16"
            }
            ChainError::KStepsNotWhole { .. } => {
                "chained wgmma: the first's N is not a whole number of the second's k-steps; legal: N a multiple of the second's K"
            }
        }
    }
}

impl ChainError {
    /// The message without its rule (`Display` adds the rule's id and source).
    pub(crate) fn fmt_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            ChainError::Shape { side, error } => {
                write!(f, "the {} wgmma's shape: {error}", side.name())
            }
            ChainError::AccumNotForType { side, dtype, accum } => write!(
                f,
                "the {} wgmma: a {} input does not accumulate in {}; legal: f16 -> f16 or f32, bf16/tf32 -> f32, e4m3/e5m2 -> f16 or f32, s8/u8 -> s32",
                side.name(),
                dtype.name(),
                accum.name()
            ),
            ChainError::NoWgmmaForm { side, dtype } => write!(
                f,
                "the {} wgmma: {} has no wgmma form on sm90; legal: f16, bf16, tf32, e4m3, e5m2, s8, u8",
                side.name(),
                dtype.name()
            ),
            ChainError::NotLaneLocal { a } => write!(
                f,
                "the {} A fragment is not a register reuse of the accumulator: its k-columns sit in other lanes (needs shuffles, or a k-permutation matched by B's rows; not modelled); legal A types for chaining: f16, bf16",
                a.name()
            ),
            ChainError::AccumNotConvertible { accum, a } => write!(
                f,
                "an {} accumulator does not convert to a {} A operand; legal: an f32 or f16 accumulator into f16 or bf16",
                accum.name(),
                a.name()
            ),
            ChainError::KStepsNotWhole { n, k } => write!(
                f,
                "the first wgmma's N = {n} is not a whole number of the second's k{k} steps; legal: N a multiple of {k}"
            ),
        }
    }
}

/// One sm90 `wgmma` instruction: shape, input type (A and B), accumulator type.
///
/// ```
/// use smemdesc_core::{AccumType, ElementType, MmaShape};
/// use smemdesc_core::fragment::WgmmaInstr;
/// let s = WgmmaInstr::new(MmaShape::new(64, 128, 16), ElementType::BF16, AccumType::F32).unwrap();
/// assert_eq!(s.shape.n, 128);
/// assert!(WgmmaInstr::new(MmaShape::new(64, 128, 32), ElementType::BF16, AccumType::F32).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WgmmaInstr {
    /// `m64nNkK`.
    pub shape: MmaShape,
    /// A's and B's type.
    pub dtype: ElementType,
    /// The accumulator's type.
    pub accum: AccumType,
}

impl WgmmaInstr {
    /// Checks the shape (`check_mma_shape` for sm90, B K-major: the rule every type allows) and
    /// the accumulator type (PTX `wgmma.mma_async` syntax: `.dtype` per `.atype`).
    ///
    /// ```
    /// use smemdesc_core::{AccumType, ElementType, MmaShape};
    /// use smemdesc_core::fragment::WgmmaInstr;
    /// assert!(WgmmaInstr::new(MmaShape::new(64, 24, 32), ElementType::S8, AccumType::S32).is_ok());
    /// assert!(WgmmaInstr::new(MmaShape::new(64, 24, 32), ElementType::S8, AccumType::F32).is_err());
    /// ```
    pub const fn new(
        shape: MmaShape,
        dtype: ElementType,
        accum: AccumType,
    ) -> Result<WgmmaInstr, ChainError> {
        WgmmaInstr::checked(ChainSide::First, shape, dtype, accum)
    }

    const fn checked(
        side: ChainSide,
        shape: MmaShape,
        dtype: ElementType,
        accum: AccumType,
    ) -> Result<WgmmaInstr, ChainError> {
        if WgmmaRegA::new(dtype).is_none() {
            return Err(ChainError::NoWgmmaForm { side, dtype });
        }
        let ok = match dtype {
            ElementType::F16 | ElementType::E4M3 | ElementType::E5M2 => {
                matches!(accum, AccumType::F16 | AccumType::F32)
            }
            ElementType::S8 | ElementType::U8 => matches!(accum, AccumType::S32),
            _ => matches!(accum, AccumType::F32),
        };
        if !ok {
            return Err(ChainError::AccumNotForType { side, dtype, accum });
        }
        match check_mma_shape(Arch::Sm90, dtype, MmaKind::of(dtype), shape, 1, Major::K) {
            Ok(()) => Ok(WgmmaInstr {
                shape,
                dtype,
                accum,
            }),
            Err(error) => Err(ChainError::Shape { side, error }),
        }
    }

    /// The accumulator fragment (`64 × N`).
    ///
    /// ```
    /// use smemdesc_core::{AccumType, ElementType, MmaShape};
    /// use smemdesc_core::fragment::WgmmaInstr;
    /// let s = WgmmaInstr::new(MmaShape::new(64, 64, 16), ElementType::F16, AccumType::F32).unwrap();
    /// assert_eq!(s.accum_fragment().elems(), 32);
    /// ```
    pub const fn accum_fragment(&self) -> WgmmaAccum {
        match WgmmaAccum::new(self.shape.n) {
            Some(a) => a,
            // check_mma_shape admitted N: a multiple of 8 in 8..=256 on sm90.
            None => WgmmaAccum::MAX,
        }
    }
}

/// How accumulator values become an A register.
///
/// ```
/// use smemdesc_core::fragment::Conversion;
/// assert_eq!(Conversion::F32ToBf16x2.ptx(), Some("cvt.rn.bf16x2.f32"));
/// assert_eq!(Conversion::Reuse.ptx(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Conversion {
    /// f16 accumulator into f16 A: the accumulator's `.f16x2` register is the A register.
    Reuse,
    /// f32 pair → `.f16x2` (`cvt.rn.f16x2.f32 d, hi, lo`).
    F32ToF16x2,
    /// f32 pair → `.bf16x2` (`cvt.rn.bf16x2.f32 d, hi, lo`).
    F32ToBf16x2,
    /// f16 accumulator into bf16 A: unpack each half to f32, then `cvt.rn.bf16x2.f32`.
    F16ToBf16x2,
}

impl Conversion {
    /// The packing `cvt` of the conversion. PTX `cvt`: "the value converted from input a is
    /// stored in the upper half of d and the value converted from input b in the lower half",
    /// so the **higher**-k value is the first source operand.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::Conversion::F32ToF16x2.ptx(), Some("cvt.rn.f16x2.f32"));
    /// ```
    pub const fn ptx(self) -> Option<&'static str> {
        match self {
            Conversion::Reuse => None,
            Conversion::F32ToF16x2 => Some("cvt.rn.f16x2.f32"),
            Conversion::F32ToBf16x2 | Conversion::F16ToBf16x2 => Some("cvt.rn.bf16x2.f32"),
        }
    }
}

/// A checked chain `S = Q·Kᵀ` (first, any float accumulator) → `O = P·V` (second, A = P from
/// registers, f16/bf16 k16): which accumulator elements form which A register of which k-step.
///
/// ```
/// use smemdesc_core::{AccumType, ElementType, MmaShape};
/// use smemdesc_core::fragment::{ChainedMma, Conversion, WgmmaInstr};
/// const S: WgmmaInstr = match WgmmaInstr::new(MmaShape::new(64, 128, 16), ElementType::BF16, AccumType::F32) {
///     Ok(i) => i,
///     Err(_) => panic!(),
/// };
/// const O: WgmmaInstr = match WgmmaInstr::new(MmaShape::new(64, 64, 16), ElementType::BF16, AccumType::F32) {
///     Ok(i) => i,
///     Err(_) => panic!(),
/// };
/// const C: ChainedMma = match ChainedMma::new(S, O) {
///     Ok(c) => c,
///     Err(_) => panic!(),
/// };
/// assert_eq!(C.ksteps(), 8); // 128 columns of S = 8 k16 steps of P·V
/// assert_eq!(C.conversion(), Conversion::F32ToBf16x2);
/// // A register 3 of k-step 2: cvt.rn.bf16x2.f32 a3, d23, d22 (d22 is the low half)
/// assert_eq!(C.source(2, 3), Some([22, 23]));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChainedMma {
    first: WgmmaInstr,
    second: WgmmaInstr,
}

impl ChainedMma {
    /// Checks a declared pair: the first's accumulator is f32 or f16, the second's A type is f16
    /// or bf16 (tf32 and 8-bit A: [`ChainError::NotLaneLocal`]), the first's N a whole number of
    /// the second's k16 steps. Both must be legal `wgmma` instructions (see [`WgmmaInstr`]).
    ///
    /// ```
    /// use smemdesc_core::{AccumType, ElementType as T, MmaShape};
    /// use smemdesc_core::fragment::{ChainError, ChainedMma, WgmmaInstr};
    /// let s = WgmmaInstr::new(MmaShape::new(64, 128, 32), T::E4M3, AccumType::F32).unwrap();
    /// let fp8 = WgmmaInstr::new(MmaShape::new(64, 64, 32), T::E4M3, AccumType::F32).unwrap();
    /// assert_eq!(ChainedMma::new(s, fp8), Err(ChainError::NotLaneLocal { a: T::E4M3 }));
    /// let odd = WgmmaInstr::new(MmaShape::new(64, 24, 16), T::BF16, AccumType::F32).unwrap();
    /// let o = WgmmaInstr::new(MmaShape::new(64, 64, 16), T::BF16, AccumType::F32).unwrap();
    /// assert_eq!(ChainedMma::new(odd, o), Err(ChainError::KStepsNotWhole { n: 24, k: 16 }));
    /// ```
    pub const fn new(first: WgmmaInstr, second: WgmmaInstr) -> Result<ChainedMma, ChainError> {
        // Re-check both (the fields are public) and name the side.
        let first = tri!(WgmmaInstr::checked(
            ChainSide::First,
            first.shape,
            first.dtype,
            first.accum
        ));
        let second = tri!(WgmmaInstr::checked(
            ChainSide::Second,
            second.shape,
            second.dtype,
            second.accum
        ));
        if matches!(first.accum, AccumType::S32) {
            return Err(ChainError::AccumNotConvertible {
                accum: first.accum,
                a: second.dtype,
            });
        }
        if !matches!(second.dtype, ElementType::F16 | ElementType::BF16) {
            return Err(ChainError::NotLaneLocal { a: second.dtype });
        }
        if first.shape.n % second.shape.k != 0 {
            return Err(ChainError::KStepsNotWhole {
                n: first.shape.n,
                k: second.shape.k,
            });
        }
        Ok(ChainedMma { first, second })
    }

    /// The declared pair, checked where it is written: `S = Q·Kᵀ` (the first, both operands in
    /// shared memory) and `O = P·V` (the second, A from registers: the first's accumulator),
    /// each given as shape, input type and accumulator type. An illegal pair in a `const` is a
    /// compile error naming the rule ([`ChainError::summary`]); [`new`](Self::new) is the form
    /// with a typed error.
    ///
    /// ```
    /// use smemdesc_core::{AccumType, ElementType as T, MmaShape};
    /// use smemdesc_core::fragment::ChainedMma;
    /// // Attention, head dim 128: S = Q Kᵀ in 64 x 128 blocks, O += P V with P as bf16.
    /// const ATTN: ChainedMma = ChainedMma::declare(
    ///     (MmaShape::new(64, 128, 16), T::BF16, AccumType::F32),
    ///     (MmaShape::new(64, 128, 16), T::BF16, AccumType::F32),
    /// );
    /// assert_eq!(ATTN.ksteps(), 8);
    /// ```
    ///
    /// ```compile_fail
    /// use smemdesc_core::{AccumType, ElementType as T, MmaShape};
    /// use smemdesc_core::fragment::ChainedMma;
    /// const FP8: ChainedMma = ChainedMma::declare( // e4m3 A would need other lanes' values
    ///     (MmaShape::new(64, 128, 32), T::E4M3, AccumType::F32),
    ///     (MmaShape::new(64, 128, 32), T::E4M3, AccumType::F32),
    /// );
    /// ```
    pub const fn declare(
        first: (MmaShape, ElementType, AccumType),
        second: (MmaShape, ElementType, AccumType),
    ) -> ChainedMma {
        let pair = match (
            WgmmaInstr::checked(ChainSide::First, first.0, first.1, first.2),
            WgmmaInstr::checked(ChainSide::Second, second.0, second.1, second.2),
        ) {
            (Ok(a), Ok(b)) => ChainedMma::new(a, b),
            (Err(e), _) | (_, Err(e)) => Err(e),
        };
        match pair {
            Ok(c) => c,
            Err(e) => panic!("{}", e.summary()),
        }
    }

    /// The first instruction.
    ///
    /// ```
    /// # use smemdesc_core::{AccumType, ElementType, MmaShape};
    /// # use smemdesc_core::fragment::{ChainedMma, WgmmaInstr};
    /// let i = WgmmaInstr::new(MmaShape::new(64, 64, 16), ElementType::F16, AccumType::F16).unwrap();
    /// assert_eq!(ChainedMma::new(i, i).unwrap().first(), i);
    /// ```
    pub const fn first(&self) -> WgmmaInstr {
        self.first
    }

    /// The second instruction.
    ///
    /// ```
    /// # use smemdesc_core::{AccumType, ElementType, MmaShape};
    /// # use smemdesc_core::fragment::{ChainedMma, WgmmaInstr};
    /// let i = WgmmaInstr::new(MmaShape::new(64, 64, 16), ElementType::F16, AccumType::F16).unwrap();
    /// assert_eq!(ChainedMma::new(i, i).unwrap().second().shape.k, 16);
    /// ```
    pub const fn second(&self) -> WgmmaInstr {
        self.second
    }

    /// How many second instructions consume one accumulator: `N / 16`.
    ///
    /// ```
    /// # use smemdesc_core::{AccumType, ElementType, MmaShape};
    /// # use smemdesc_core::fragment::{ChainedMma, WgmmaInstr};
    /// let s = WgmmaInstr::new(MmaShape::new(64, 176, 16), ElementType::F16, AccumType::F32).unwrap();
    /// let o = WgmmaInstr::new(MmaShape::new(64, 128, 16), ElementType::F16, AccumType::F32).unwrap();
    /// assert_eq!(ChainedMma::new(s, o).unwrap().ksteps(), 11);
    /// ```
    pub const fn ksteps(&self) -> u32 {
        self.first.shape.n / self.second.shape.k
    }

    /// The conversion of each pair of accumulator values into an A register.
    ///
    /// ```
    /// # use smemdesc_core::{AccumType, ElementType, MmaShape};
    /// # use smemdesc_core::fragment::{ChainedMma, Conversion, WgmmaInstr};
    /// let i = WgmmaInstr::new(MmaShape::new(64, 64, 16), ElementType::F16, AccumType::F16).unwrap();
    /// assert_eq!(ChainedMma::new(i, i).unwrap().conversion(), Conversion::Reuse);
    /// ```
    pub const fn conversion(&self) -> Conversion {
        match (self.first.accum, self.second.dtype) {
            (AccumType::F16, ElementType::F16) => Conversion::Reuse,
            (AccumType::F16, _) => Conversion::F16ToBf16x2,
            (_, ElementType::F16) => Conversion::F32ToF16x2,
            _ => Conversion::F32ToBf16x2,
        }
    }

    /// A register `reg` (0..4) of k-step `kstep`, in every thread: the two accumulator elements
    /// `[low half, high half]` of the **same** thread, `[8·kstep + 2·reg, 8·kstep + 2·reg + 1]`
    /// (an f16 accumulator register `d_r` holds elements `2r, 2r + 1`, so there A register `reg`
    /// is accumulator register `4·kstep + reg`). `None` outside.
    /// Constant indices only in a kernel (a run-time loop over the k-steps indexes S at run
    /// time): `smemdesc::accum::WgmmaAcc::pack` and `PackedAcc::for_each_kstep` pack whole k-steps.
    ///
    /// ```
    /// # use smemdesc_core::{AccumType, ElementType, MmaShape};
    /// # use smemdesc_core::fragment::{ChainedMma, WgmmaInstr};
    /// let i = WgmmaInstr::new(MmaShape::new(64, 32, 16), ElementType::BF16, AccumType::F32).unwrap();
    /// let c = ChainedMma::new(i, i).unwrap();
    /// assert_eq!(c.source(1, 0), Some([8, 9]));
    /// assert_eq!(c.source(2, 0), None); // N = 32: k-steps 0 and 1
    /// ```
    pub const fn source(&self, kstep: u32, reg: u32) -> Option<[u32; 2]> {
        if kstep >= self.ksteps() || reg >= super::WGMMA_A_REGS {
            return None;
        }
        let lo = 8 * kstep + 2 * reg;
        Some([lo, lo + 1])
    }

    /// The whole table of one k-step: `[[low, high]; 4]`, A register order.
    ///
    /// ```
    /// # use smemdesc_core::{AccumType, ElementType, MmaShape};
    /// # use smemdesc_core::fragment::{ChainedMma, WgmmaInstr};
    /// let i = WgmmaInstr::new(MmaShape::new(64, 32, 16), ElementType::BF16, AccumType::F32).unwrap();
    /// let t = ChainedMma::new(i, i).unwrap().kstep_table(0);
    /// assert_eq!(t, Some([[0, 1], [2, 3], [4, 5], [6, 7]]));
    /// ```
    pub const fn kstep_table(&self, kstep: u32) -> Option<[[u32; 2]; 4]> {
        let mut t = [[0u32; 2]; 4];
        let mut r = 0;
        while r < 4 {
            t[r as usize] = match self.source(kstep, r) {
                Some(s) => s,
                None => return None,
            };
            r += 1;
        }
        Some(t)
    }
}
