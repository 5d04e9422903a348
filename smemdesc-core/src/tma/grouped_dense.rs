//! The dense strides a grouped declaration rewrites (issue 42, item 4).
//!
//! A template with dense strides (`TensorMap::dense_strides`, the default) leaves its strides
//! open and has them computed from the dims: `globalStrides[0] = ceil(globalDim[0] × bits / 8)`,
//! `globalStrides[i] = globalStrides[i - 1] × globalDim[i]`. A stride computed that way from a
//! dim (or a stride) the kernel rewrites differs from group to group, and `tensormap.replace`
//! writes only what it is given: left out, the device keeps the stride of the group the host
//! encoded (rank 3 `[K, M, batch]` with M rewritten: every batch at the wrong pitch). So the
//! declaration lists such a stride itself ([`dense_rewrites`]), and the value written for a group
//! is the one the group's dims give ([`GroupedMap::rewrite_values`]): the same function gives
//! what [`GroupedMap::check_group`] validates and what `MapSlot::rewrite` writes.

use crate::tma::grouped::{same, GroupValues, GroupedMap, GroupedMapError, MAX_REWRITES};
use crate::tma::tensor_map::TensorMap;
use crate::tma::tensor_map_error::TensorMapArg;

/// Whether `f` is among the first `n` of `fields`.
const fn listed(fields: &[Option<TensorMapArg>; MAX_REWRITES], n: usize, f: TensorMapArg) -> bool {
    let mut i = 0;
    while i < n && i < MAX_REWRITES {
        if let Some(x) = fields[i] {
            if same(x, f) {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// The declaration's fields (the `n` listed ones, then every dense stride that depends on one of
/// them) and the mask of those dense strides, or the first dense stride that depends on a
/// rewritten field and on a dim the template leaves open without the declaration rewriting it
/// (the kernel could not compute it).
pub(super) const fn dense_rewrites(
    t: &TensorMap,
    mut fields: [Option<TensorMapArg>; MAX_REWRITES],
    mut n: usize,
) -> Result<([Option<TensorMapArg>; MAX_REWRITES], u8), GroupedMapError> {
    let mut dense = 0u8;
    if !t.dense_strides {
        return Ok((fields, 0));
    }
    // Of the stride below the current one: whether its value differs between groups, and the
    // lowest open, not rewritten dim it depends on.
    let mut varies = false;
    let mut open: Option<u32> = None;
    let mut i: u32 = 0;
    while i < 4 && i + 1 < t.rank {
        let stride = TensorMapArg::GlobalStrides(i);
        if listed(&fields, n, stride) {
            (varies, open) = (true, None);
        } else if t.global_strides[i as usize].is_some() {
            (varies, open) = (false, None);
        } else {
            // Dense: dim i, and (above dim 0) the stride below.
            if i == 0 {
                (varies, open) = (false, None);
            }
            let rewritten = listed(&fields, n, TensorMapArg::GlobalDim(i));
            varies = varies || rewritten;
            if !rewritten && t.global_dim[i as usize].is_none() && open.is_none() {
                open = Some(i);
            }
            if varies {
                if let Some(dim) = open {
                    return Err(GroupedMapError::DenseStrideUnknown { stride: i, dim });
                }
                // At most globalAddress, `rank` dims and `rank - 1` strides, all distinct: the
                // array always has room.
                if n < MAX_REWRITES {
                    fields[n] = Some(stride);
                    n += 1;
                }
                dense |= 1 << i;
            }
        }
        i += 1;
    }
    Ok((fields, dense))
}

/// The dense stride `i` from the stride below it and dim `i`, as `TensorMap::stride_value`
/// computes it (`u64::MAX` on overflow, refused as ≥ 2^40); `None` when an input is unknown.
const fn dense_stride(
    t: &TensorMap,
    i: usize,
    below: Option<u64>,
    dim: Option<u64>,
) -> Option<u64> {
    let Some(d) = dim else {
        return None;
    };
    let v = if i == 0 {
        match d.checked_mul(t.data_type.global_bits() as u64) {
            Some(bits) => Some(bits.div_ceil(8)),
            None => None,
        }
    } else {
        match below {
            Some(s) => s.checked_mul(d),
            None => return None,
        }
    };
    match v {
        Some(v) => Some(v),
        None => Some(u64::MAX),
    }
}

impl GroupedMap {
    /// Whether `globalStrides[i]` is a dense stride of the template that depends on a rewritten
    /// dim (or stride), and so is rewritten with the value the group's own dims give. The
    /// declaration lists it ([`rewrites`](Self::rewrites) is true for it).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// use smemdesc_core::tma::*;
    /// // [K, M, batch] bf16, K = 4096 constant, M rewritten per group: stride 0 (K × 2 B) stays,
    /// // stride 1 (K × M × 2 B, one batch) is rewritten.
    /// const G: GroupedMap = GroupedMap::declare(
    ///     TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 3)
    ///         .dim(0, 4096).dim(2, 8).box_dim(0, 64).box_dim(1, 128),
    ///     &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)]);
    /// assert!(!G.dense_rewrite(0) && G.dense_rewrite(1));
    /// assert!(G.rewrites(TensorMapArg::GlobalStrides(1)));
    /// ```
    #[inline]
    pub const fn dense_rewrite(&self, i: u32) -> bool {
        i < 4 && self.dense & (1 << i) != 0
    }

    /// The values a rewrite of group `g` writes (`MapSlot::rewrite` in the facade) and
    /// [`group_map`](Self::group_map) and [`check_group`](Self::check_group) read: `g`, with every
    /// [dense rewritten stride](Self::dense_rewrite) set to the value the group's dims give
    /// (`ceil(globalDim[0] × bits / 8)`, then × `globalDim[i]`, the constant or listed strides
    /// taken as they are). The entries of fields not rewritten are `g`'s, and ignored.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// use smemdesc_core::tma::*;
    /// let g = GroupedMap::new(
    ///     TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 3)
    ///         .dim(0, 4096).dim(2, 8).box_dim(0, 64).box_dim(1, 128),
    ///     &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)]).unwrap();
    /// let v = g.rewrite_values(&GroupValues::new(0x10000).dim(1, 300));
    /// assert_eq!(v.strides[1], 4096 * 2 * 300); // one batch of this group's 300 rows
    /// assert_eq!(g.check_group(&GroupValues::new(0x10000).dim(1, 300)).unwrap().global_strides[1], v.strides[1]);
    /// ```
    #[inline]
    pub const fn rewrite_values(&self, g: &GroupValues) -> GroupValues {
        let mut v = *g;
        if self.dense == 0 {
            return v;
        }
        let t = &self.template;
        let mut below: Option<u64> = None;
        let mut i = 0usize;
        while i < 4 && i + 1 < t.rank as usize {
            let dim = match t.global_dim[i] {
                Some(d) => Some(d),
                None if self.rewrites(TensorMapArg::GlobalDim(i as u32)) => Some(g.dims[i]),
                None => None,
            };
            let derived = self.dense & (1 << i) != 0;
            let s = match t.global_strides[i] {
                Some(s) => Some(s),
                None if !derived && self.rewrites(TensorMapArg::GlobalStrides(i as u32)) => {
                    Some(g.strides[i])
                }
                None => dense_stride(t, i, below, dim),
            };
            if derived {
                // Never None: the declaration refuses a dense rewrite with an unknown input.
                v.strides[i] = match s {
                    Some(s) => s,
                    None => u64::MAX,
                };
            }
            below = s;
            i += 1;
        }
        v
    }
}

/// The compile-time message of [`GroupedMapError::DenseStrideUnknown`], naming the stride and
/// the dim.
pub(super) const fn dense_stride_unknown(stride: u32, dim: u32) -> &'static str {
    macro_rules! msg {
        ($s:literal, $d:literal) => {
            concat!(
                "grouped map: globalStrides[", $s, "] is dense and depends on a rewritten field, so the rewrite writes it, ",
                "but it also depends on globalDim[", $d, "], which the template leaves open and the declaration does not rewrite: ",
                "the kernel cannot compute it (the device would keep the host's stride of another group); ",
                "legal: set globalDim[", $d, "] in the template, list it as rewritten, or list globalStrides[", $s, "] as rewritten"
            )
        };
    }
    match (stride, dim) {
        (0, _) => msg!("0", "0"),
        (1, 0) => msg!("1", "0"),
        (1, _) => msg!("1", "1"),
        (2, 0) => msg!("2", "0"),
        (2, 1) => msg!("2", "1"),
        (2, _) => msg!("2", "2"),
        (3, 0) => msg!("3", "0"),
        (3, 1) => msg!("3", "1"),
        (3, 2) => msg!("3", "2"),
        _ => msg!("3", "3"),
    }
}
