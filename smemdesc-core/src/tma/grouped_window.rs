//! The out-of-bounds fetch window of a grouped map (issue 46, item 3): TMA fetches, and clips
//! stores to, the box's part inside `globalDim` (cuTensorMapEncodeTiled: `globalDim` bounds the
//! tensor; elements outside it are not read and are filled). A rewrite that moves the map to a
//! group's own buffer (`globalAddress`) but leaves an open dim at the template's extent keeps
//! the template's window there: a group smaller than the template is read (and written) past
//! its end. The declaration says how it handles each open dim: rewritten, or kept by
//! declaration ([`GroupedMap::new_keep_oob_fetch_window`]: every group has the template's
//! extent); otherwise [`GroupedMapError::WindowKept`] refuses it.
//!
//! CUTLASS 4.8.1 made its `tensormap_replace` shrink-safe with a `keep_oob_fetch_window`
//! opt-out (issue 46); its code is not in the stored CUTLASS snapshot (v4.7), so this rule is
//! derived from the driver's documented meaning of `globalDim`, not from CUTLASS.

use crate::tma::grouped::{GroupedMap, GroupedMapError};
use crate::tma::tensor_map::TensorMap;
use crate::tma::tensor_map_error::TensorMapArg;

impl GroupedMap {
    /// [`new`](Self::new) for a rewrite that keeps the template's extent of the open dims
    /// `keep` (not rewritten) while it moves the address (the opt-out of
    /// [`GroupedMapError::WindowKept`]): the caller promises that every group has the
    /// template's extent in those dims (K or N of a grouped GEMM, given by the host), so the
    /// template's out-of-bounds fetch window is the group's there. A listed dim that is
    /// rewritten, constant or beyond the rank is [`GroupedMapError::KeptNotOpen`].
    ///
    /// ```
    /// use smemdesc_core::*;
    /// use smemdesc_core::tma::*;
    /// let t = TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2).dim(0, 4096).box_dim(0, 64).box_dim(1, 128);
    /// // Rows open in the template, the address rewritten, the rows not: the window is kept.
    /// assert_eq!(GroupedMap::new(t, &[TensorMapArg::GlobalAddress]).unwrap_err(),
    ///            GroupedMapError::WindowKept { dim: 1 });
    /// // Every group has the template's rows (declared):
    /// let kept = GroupedMap::new_keep_oob_fetch_window(t, &[TensorMapArg::GlobalAddress], &[1]).unwrap();
    /// assert!(kept.keeps_oob_fetch_window(1));
    /// // Only an open dim the rewrite leaves alone can be kept:
    /// assert_eq!(GroupedMap::new_keep_oob_fetch_window(t, &[TensorMapArg::GlobalAddress], &[0]).unwrap_err(),
    ///            GroupedMapError::KeptNotOpen { dim: 0 });
    /// ```
    pub const fn new_keep_oob_fetch_window(
        template: TensorMap,
        fields: &[TensorMapArg],
        keep: &[u32],
    ) -> Result<GroupedMap, GroupedMapError> {
        GroupedMap::build(template, fields, keep)
    }

    /// Whether the declaration keeps the template's extent (and out-of-bounds fetch window) of
    /// `globalDim[dim]` ([`new_keep_oob_fetch_window`](Self::new_keep_oob_fetch_window)).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// # use smemdesc_core::tma::*;
    /// let t = TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2).dim(0, 64).box_dim(0, 64).box_dim(1, 64);
    /// let g = GroupedMap::new(t, &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)]).unwrap();
    /// assert!(!g.keeps_oob_fetch_window(0) && !g.keeps_oob_fetch_window(1));
    /// ```
    pub const fn keeps_oob_fetch_window(&self, dim: u32) -> bool {
        dim < 8 && self.keeps_window & (1 << dim) != 0
    }

    /// The first dim whose template extent a group keeps although its address moves: open in
    /// the template (the host encodes it per launch, often for the largest group) and not
    /// rewritten nor declared kept, while `globalAddress` is. `None` when the address is not
    /// rewritten (every group shares the template's base and window) or every open dim is
    /// rewritten or kept.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// # use smemdesc_core::tma::*;
    /// let t = TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2).box_dim(0, 64).box_dim(1, 64);
    /// let g = GroupedMap::new(t, &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(0), TensorMapArg::GlobalDim(1)]).unwrap();
    /// assert_eq!(g.kept_window_dim(), None);
    /// let k = GroupedMap::new_keep_oob_fetch_window(t, &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)], &[0]).unwrap();
    /// assert_eq!(k.kept_window_dim(), None);
    /// ```
    pub const fn kept_window_dim(&self) -> Option<u32> {
        if !self.rewrites(TensorMapArg::GlobalAddress) {
            return None;
        }
        let mut d = 0;
        while d < self.template.rank && d < 5 {
            if self.template.global_dim[d as usize].is_none()
                && !self.rewrites(TensorMapArg::GlobalDim(d))
                && !self.keeps_oob_fetch_window(d)
            {
                return Some(d);
            }
            d += 1;
        }
        None
    }

    /// [`new_keep_oob_fetch_window`](Self::new_keep_oob_fetch_window), or a compile-time panic
    /// naming the reason.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// use smemdesc_core::tma::*;
    /// // C of a grouped GEMM: N (dim 0) is the host's and every group's; the rows are rewritten.
    /// const G: GroupedMap = GroupedMap::declare_keep_oob_fetch_window(
    ///     TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2).box_dim(0, 64).box_dim(1, 64),
    ///     &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)], &[0]);
    /// assert!(G.keeps_oob_fetch_window(0));
    /// ```
    pub const fn declare_keep_oob_fetch_window(
        template: TensorMap,
        fields: &[TensorMapArg],
        keep: &[u32],
    ) -> GroupedMap {
        match GroupedMap::new_keep_oob_fetch_window(template, fields, keep) {
            Ok(g) => g,
            Err(GroupedMapError::KeptNotOpen { .. }) => panic!(
                "grouped map: keep_oob_fetch_window names a dim that is rewritten, constant in the template or beyond its rank; legal: the open dims the rewrite leaves at the template's extent"
            ),
            Err(_) => GroupedMap::declare(template, fields),
        }
    }
}
