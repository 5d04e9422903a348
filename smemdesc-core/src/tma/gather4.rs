//! `.tile::gather4` and `.tile::scatter4` (sm100): four rows of a rank-2 tensor in one TMA.
//!
//! PTX ISA, "`.tile::scatter4` and `.tile::gather4` modes": the modes "work only on 2D tensor
//! data"; the instruction takes one coordinate in dimension 0 (the column) and four in dimension 1
//! (the rows: `{col_idx, row_idx0, row_idx1, row_idx2, row_idx3}`); "the size of the bounding box
//! in the dimension 0 represents the length of the rows. The size of the bounding box in the
//! dimension 1 must be one"; "the interleave layout is not supported"; "all other constraints and
//! rules of the tile mode apply". `.tile::gather4` needs `sm_100a` (or the sm_100f family).
//!
//! So the map is a tiled map with `boxDim = {inner, 1}`, and the tile-mode rules that bind one
//! row: its bytes a multiple of 16, at most 256 elements, and with a swizzle at most the
//! swizzle's span (the row within one swizzle atom row). The four rows land one after the other
//! in shared memory (row `i` at `i × row bytes`) and the swizzle permutes each 16-byte chunk by
//! the shared-memory address, as for a tile box (CuTe's `Swizzle<B, 4, 3>`: address bits
//! `4 .. 4 + B` XOR bits `7 .. 7 + B`, B = 1, 2, 3 for 32B, 64B, 128B); the barrier of a gather4
//! expects the four rows' bytes.
//!
//! ```
//! use smemdesc_core::{Arch, TensorMapDataType, TensorMapSwizzle};
//! use smemdesc_core::tma::Gather4;
//! let g = Gather4::new(Arch::Sm100, TensorMapDataType::Bfloat16, 64, TensorMapSwizzle::B128)
//!     .unwrap();
//! assert_eq!(g.box_dim(), [64, 1]);
//! assert_eq!(g.expect_tx(), 4 * 128);
//! // row 1's 16-byte chunk 0 lands in chunk 1 of its 128-byte line under the 128B swizzle
//! assert_eq!(g.offset(0, 1, 0).unwrap(), 128 + 16);
//! ```

use crate::{Arch, TensorMapDataType, TensorMapSwizzle};

/// Rows per `.tile::gather4` / `.tile::scatter4`.
///
/// ```
/// assert_eq!(smemdesc_core::tma::GATHER4_ROWS, 4);
/// ```
pub const GATHER4_ROWS: u32 = 4;

/// Why a gather4 / scatter4 cannot be formed.
///
/// ```
/// use smemdesc_core::tma::Gather4Error;
/// assert!(Gather4Error::Arch.to_string().contains("sm_100a"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gather4Error {
    /// Not sm100 (`.tile::gather4` / `.tile::scatter4` need `sm_100a` or the sm_100f family).
    Arch,
    /// The map's rank is not 2.
    Rank {
        /// The rank asked for.
        rank: u32,
    },
    /// The box's dimension 1 is not 1.
    BoxRows {
        /// The extent asked for.
        rows: u32,
    },
    /// An interleaved map (not supported by the modes).
    Interleave,
    /// The element type is packed (sub-byte) or not a whole number of bytes.
    DataType {
        /// The type.
        data_type: TensorMapDataType,
    },
    /// The row is not 1..=256 elements, or its bytes not a multiple of 16.
    Inner {
        /// Elements per row.
        inner: u32,
        /// Bytes per row.
        bytes: u32,
    },
    /// The row's bytes exceed the swizzle's span.
    SwizzleSpan {
        /// Bytes per row.
        bytes: u32,
        /// The swizzle's span.
        span: u32,
    },
    /// A Blackwell 128B-atom swizzle (32-B / 64-B chunks): its placement is not modelled.
    Swizzle {
        /// The swizzle.
        swizzle: TensorMapSwizzle,
    },
    /// The shared-memory base is not aligned to the swizzle's repeat (128 B without swizzle).
    Base {
        /// The base.
        base: u32,
        /// The alignment it needs.
        align: u32,
    },
    /// A row index is not 0..4 or a byte past the row.
    Index {
        /// The row.
        row: u32,
        /// The byte.
        byte: u32,
    },
}

impl Gather4Error {
    /// The message without its rule (`Display` adds the rule's id and source).
    pub(crate) fn fmt_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Gather4Error::Arch => write!(f, ".tile::gather4 / .tile::scatter4 need sm_100a (or the sm_100f family); legal: arch = sm100"),
            Gather4Error::Rank { rank } => write!(f, "gather4/scatter4 maps are rank 2, not {rank}"),
            Gather4Error::BoxRows { rows } => write!(f, "a gather4/scatter4 box is one row: boxDim[1] = 1, not {rows}"),
            Gather4Error::Interleave => write!(f, "gather4/scatter4 do not support an interleaved map; legal: CU_TENSOR_MAP_INTERLEAVE_NONE"),
            Gather4Error::DataType { data_type } => write!(f, "gather4/scatter4 of {}: a row's elements must be whole bytes", data_type.name()),
            Gather4Error::Inner { inner, bytes } => write!(f, "a gather4 row of {inner} elements ({bytes} B): legal 1..=256 elements of a multiple of 16 B"),
            Gather4Error::SwizzleSpan { bytes, span } => write!(f, "a gather4 row of {bytes} B under a {span}-B swizzle: the row must fit one swizzle atom row (at most {span} B)"),
            Gather4Error::Swizzle { swizzle } => write!(f, "{}: the placement of gather4 rows under the 128B-atom swizzles is not modelled; legal: NONE, 32B, 64B, 128B", swizzle.name()),
            Gather4Error::Base { base, align } => write!(f, "shared-memory base {base} is not aligned to the swizzle's {align}-B repeat"),
            Gather4Error::Index { row, byte } => write!(f, "row {row}, byte {byte}: a gather4 has rows 0..4 of the row's bytes"),
        }
    }
}

/// A checked `.tile::gather4` / `.tile::scatter4` map: element type, row length, swizzle.
///
/// ```
/// use smemdesc_core::{Arch, TensorMapDataType, TensorMapSwizzle};
/// use smemdesc_core::tma::{Gather4, Gather4Error};
/// let e = Gather4::new(Arch::Sm100, TensorMapDataType::Float32, 64, TensorMapSwizzle::B128);
/// assert_eq!(e, Err(Gather4Error::SwizzleSpan { bytes: 256, span: 128 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gather4 {
    data_type: TensorMapDataType,
    inner: u32,
    swizzle: TensorMapSwizzle,
}

impl Gather4 {
    /// Checks a gather4 / scatter4 of rows of `inner` elements of `data_type` under `swizzle`.
    ///
    /// ```
    /// use smemdesc_core::{Arch, TensorMapDataType as T, TensorMapSwizzle as S};
    /// use smemdesc_core::tma::{Gather4, Gather4Error};
    /// assert_eq!(Gather4::new(Arch::Sm90, T::Float16, 64, S::B128), Err(Gather4Error::Arch));
    /// assert!(Gather4::new(Arch::Sm100, T::Uint8, 128, S::B128).is_ok());
    /// ```
    pub const fn new(
        arch: Arch,
        data_type: TensorMapDataType,
        inner: u32,
        swizzle: TensorMapSwizzle,
    ) -> Result<Gather4, Gather4Error> {
        // The sm100 TMA features (CUTLASS 4.7.0 cute/arch/config.hpp CUTE_ARCH_TMA_SM100_ENABLED)
        // come with tcgen05 on every target that enables them.
        if !arch.has_tcgen05() {
            return Err(Gather4Error::Arch);
        }
        let bits = data_type.box_bits();
        if data_type.is_packed() || bits % 8 != 0 {
            return Err(Gather4Error::DataType { data_type });
        }
        let bytes = inner.saturating_mul(bits / 8);
        if inner == 0 || inner > 256 || bytes % 16 != 0 {
            return Err(Gather4Error::Inner { inner, bytes });
        }
        match swizzle {
            TensorMapSwizzle::None => {}
            TensorMapSwizzle::B32 | TensorMapSwizzle::B64 | TensorMapSwizzle::B128 => {
                if bytes > swizzle.span() {
                    return Err(Gather4Error::SwizzleSpan {
                        bytes,
                        span: swizzle.span(),
                    });
                }
            }
            _ => return Err(Gather4Error::Swizzle { swizzle }),
        }
        Ok(Gather4 {
            data_type,
            inner,
            swizzle,
        })
    }

    /// Checks the rest of a map's arguments for the modes: rank 2, `boxDim[1]` = 1, no
    /// interleave.
    ///
    /// ```
    /// use smemdesc_core::tma::{Gather4, Gather4Error};
    /// assert_eq!(Gather4::check_map(2, 1, false), Ok(()));
    /// assert_eq!(Gather4::check_map(2, 4, false), Err(Gather4Error::BoxRows { rows: 4 }));
    /// assert_eq!(Gather4::check_map(3, 1, false), Err(Gather4Error::Rank { rank: 3 }));
    /// ```
    pub const fn check_map(
        rank: u32,
        box_rows: u32,
        interleaved: bool,
    ) -> Result<(), Gather4Error> {
        if rank != 2 {
            return Err(Gather4Error::Rank { rank });
        }
        if box_rows != 1 {
            return Err(Gather4Error::BoxRows { rows: box_rows });
        }
        if interleaved {
            return Err(Gather4Error::Interleave);
        }
        Ok(())
    }

    /// The map's `boxDim`: `{inner, 1}`.
    ///
    /// ```
    /// # use smemdesc_core::{Arch, TensorMapDataType as T, TensorMapSwizzle as S, tma::Gather4};
    /// assert_eq!(Gather4::new(Arch::Sm100, T::Float16, 32, S::B64).unwrap().box_dim(), [32, 1]);
    /// ```
    pub const fn box_dim(&self) -> [u32; 2] {
        [self.inner, 1]
    }

    /// Bytes of one row.
    ///
    /// ```
    /// # use smemdesc_core::{Arch, TensorMapDataType as T, TensorMapSwizzle as S, tma::Gather4};
    /// assert_eq!(Gather4::new(Arch::Sm100, T::Float16, 32, S::B64).unwrap().row_bytes(), 64);
    /// ```
    pub const fn row_bytes(&self) -> u32 {
        self.inner * (self.data_type.box_bits() / 8)
    }

    /// The bytes one gather4 delivers to its barrier (`expect_tx`): four rows.
    ///
    /// ```
    /// # use smemdesc_core::{Arch, TensorMapDataType as T, TensorMapSwizzle as S, tma::Gather4};
    /// assert_eq!(Gather4::new(Arch::Sm100, T::Float16, 32, S::B64).unwrap().expect_tx(), 256);
    /// ```
    pub const fn expect_tx(&self) -> u32 {
        GATHER4_ROWS * self.row_bytes()
    }

    /// The alignment the shared-memory base needs: the swizzle's repeat (8 × its span), 128 B
    /// without a swizzle.
    ///
    /// ```
    /// # use smemdesc_core::{Arch, TensorMapDataType as T, TensorMapSwizzle as S, tma::Gather4};
    /// assert_eq!(Gather4::new(Arch::Sm100, T::Float16, 64, S::B128).unwrap().base_align(), 1024);
    /// ```
    pub const fn base_align(&self) -> u32 {
        match self.swizzle {
            TensorMapSwizzle::None => 128,
            s => 8 * s.span(),
        }
    }

    /// The coordinates operand `{col, row0, row1, row2, row3}` of the instruction.
    ///
    /// ```
    /// # use smemdesc_core::{Arch, TensorMapDataType as T, TensorMapSwizzle as S, tma::Gather4};
    /// let g = Gather4::new(Arch::Sm100, T::Float16, 64, S::B128).unwrap();
    /// assert_eq!(g.coords(64, [7, 2, 9, 0]), [64, 7, 2, 9, 0]);
    /// ```
    pub const fn coords(&self, col: i32, rows: [i32; 4]) -> [i32; 5] {
        [col, rows[0], rows[1], rows[2], rows[3]]
    }

    /// The shared-memory byte offset (from a base aligned to [`base_align`](Self::base_align))
    /// where byte `byte` of gathered row `row` lands (or a scatter4 reads it from).
    ///
    /// ```
    /// # use smemdesc_core::{Arch, TensorMapDataType as T, TensorMapSwizzle as S, tma::Gather4};
    /// let g = Gather4::new(Arch::Sm100, T::Float16, 64, S::B128).unwrap();
    /// assert_eq!(g.offset(0, 3, 40).unwrap(), 3 * 128 + (2 ^ 3) * 16 + 8);
    /// assert!(g.offset(0, 4, 0).is_err());
    /// ```
    pub const fn offset(&self, base: u32, row: u32, byte: u32) -> Result<u32, Gather4Error> {
        let align = self.base_align();
        if base % align != 0 {
            return Err(Gather4Error::Base { base, align });
        }
        if row >= GATHER4_ROWS || byte >= self.row_bytes() {
            return Err(Gather4Error::Index { row, byte });
        }
        let linear = base + row * self.row_bytes() + byte;
        let b = match self.swizzle {
            TensorMapSwizzle::B32 => 1,
            TensorMapSwizzle::B64 => 2,
            TensorMapSwizzle::B128 => 3,
            _ => 0,
        };
        let mask = (1u32 << b) - 1;
        Ok(linear ^ (((linear >> 7) & mask) << 4))
    }

    /// The offsets of the four rows' first bytes.
    ///
    /// ```
    /// # use smemdesc_core::{Arch, TensorMapDataType as T, TensorMapSwizzle as S, tma::Gather4};
    /// let g = Gather4::new(Arch::Sm100, T::Float16, 32, S::None).unwrap();
    /// assert_eq!(g.row_offsets(0).unwrap(), [0, 64, 128, 192]);
    /// ```
    pub const fn row_offsets(&self, base: u32) -> Result<[u32; 4], Gather4Error> {
        let mut o = [0u32; 4];
        let mut r = 0;
        while r < GATHER4_ROWS {
            o[r as usize] = match self.offset(base, r, 0) {
                Ok(v) => v,
                Err(e) => return Err(e),
            };
            r += 1;
        }
        Ok(o)
    }

    /// The `.tile::gather4` load (`dst`, `map`, the 5 coordinates, `mbar`), PTX ISA 8.6 syntax.
    ///
    /// ```
    /// assert!(smemdesc_core::tma::Gather4::LOAD.contains(".tile::gather4.mbarrier::complete_tx::bytes"));
    /// ```
    pub const LOAD: &'static str =
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes";

    /// The `.tile::scatter4` store (`map`, the 5 coordinates, `src`), PTX ISA 8.6 syntax.
    ///
    /// ```
    /// assert!(smemdesc_core::tma::Gather4::STORE.ends_with(".tile::scatter4.bulk_group"));
    /// ```
    pub const STORE: &'static str =
        "cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group";
}
