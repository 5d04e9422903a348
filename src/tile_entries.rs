//! The computed entries of a tile's tables, for run-time indices: `ADVANCE_MN[i]`,
//! `ADVANCE_K[i]`, `TMA_BOX_COORDS[b]`, `TMA_BOX_OFFSETS[b]` evaluated from constants (the arrays
//! stay for constant indices: indexed at run time they are a table in memory).

use crate::radix::mode_eval;
use crate::smem::TileAt;
use crate::{Indexed, SmemTile};
use smemdesc_core::access::__cold::__fail_index;
use smemdesc_core::PlacementModel;

impl<T: SmemTile, M: PlacementModel> TileAt<T, M> {
    /// `ADVANCE_MN[i]` computed, not read from a table (a run-time `i` loads nothing); `i` must
    /// be below `MMAS_MN` (a panic otherwise: a compile error in `const`, a `trap` on nvptx64).
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, mma = m64n256k16)]
    /// struct T;
    /// const A1: u16 = TileAt::<T>::advance_mn(1);
    /// assert_eq!(A1, T::ADVANCE_MN[1]); // 64 rows of 128 B: 512 units
    /// ```
    #[inline(always)]
    #[track_caller]
    pub const fn advance_mn(i: u32) -> u16 {
        if i >= T::MMAS_MN {
            __fail_index(Indexed::SubtileMn, i, T::MMAS_MN);
        }
        mode_eval!(T::ACCESS.grid.mn, i) as u16
    }

    /// `ADVANCE_K[i]` computed (see [`advance_mn`](Self::advance_mn)); `i < MMAS_K`.
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]
    /// struct T;
    /// assert_eq!(TileAt::<T>::advance_k(3), T::ADVANCE_K[3]); // 3 x 32 B: 6 units
    /// ```
    #[inline(always)]
    #[track_caller]
    pub const fn advance_k(i: u32) -> u16 {
        if i >= T::MMAS_K {
            __fail_index(Indexed::SubtileK, i, T::MMAS_K);
        }
        mode_eval!(T::ACCESS.grid.k, i) as u16
    }

    /// `TMA_BOX_COORDS[b]` computed: box `b`'s origin `[mn0, k0]` in elements; `b < TMA_BOXES`.
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 128), major = K)]
    /// struct T;
    /// assert_eq!(TileAt::<T>::tma_box_coord(1), T::TMA_BOX_COORDS[1]); // [0, 64]
    /// ```
    #[inline(always)]
    #[track_caller]
    pub const fn tma_box_coord(b: u32) -> [u32; 2] {
        Self::check_box(b);
        Self::box_coord(b)
    }

    /// `TMA_BOX_OFFSETS[b]` computed: box `b`'s byte offset inside a stage; `b < TMA_BOXES`.
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 128), major = K)]
    /// struct T;
    /// assert_eq!(TileAt::<T>::tma_box_offset(1), T::TMA_BOX_OFFSETS[1]); // 8192
    /// ```
    #[inline(always)]
    #[track_caller]
    pub const fn tma_box_offset(b: u32) -> u32 {
        Self::check_box(b);
        Self::box_offset(b)
    }

    #[inline(always)]
    #[track_caller]
    const fn check_box(b: u32) {
        if b >= T::TMA_BOXES {
            __fail_index(Indexed::TmaBox, b, T::TMA_BOXES);
        }
    }

    #[inline(always)]
    const fn box_coord(b: u32) -> [u32; 2] {
        [
            mode_eval!(T::PLAN.tma.box_coord_modes().0, b),
            mode_eval!(T::PLAN.tma.box_coord_modes().1, b),
        ]
    }

    #[inline(always)]
    pub(crate) const fn box_offset(b: u32) -> u32 {
        let [mn, k] = Self::box_coord(b);
        Self::cell_offset(mn, k)
    }
}
