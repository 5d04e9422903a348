//! Tensor maps rewritten inside a kernel, one group at a time (`tensormap.replace.tile.*`): a
//! grouped (MoE) GEMM keeps one map per operand and replaces its global address, dims and strides
//! for each group. [`GroupedMap`] declares which fields a kernel rewrites; everything else (box,
//! swizzle, element type, interleave, element strides, rank, fill) stays the template's, which
//! comes from the tile and is never rewritten. The template's constant fields are checked when
//! the declaration is made (at compile time in a `const`), the rewritten ones per group with
//! [`GroupedMap::check_group`] — the same rules as the host encode ([`TensorMap::check`]).
//!
//! A dense stride (left open in a template with dense strides) that depends on a rewritten dim
//! or stride is rewritten too: the declaration adds it to its fields, and its value for a group
//! is the one the group's own dims give ([`GroupedMap::rewrite_values`], the one function both
//! the check and a device rewrite read). A device rewrite therefore never leaves the host's
//! stride of another group's dims in the map (`grouped_dense.rs`).

use crate::tma::grouped_dense::{dense_rewrites, dense_stride_unknown};
use crate::tma::tensor_map::{TensorMap, TensorMapArgs};
use crate::tma::tensor_map_error::{TensorMapArg, TensorMapError};

/// Most fields one [`GroupedMap`] rewrites: `globalAddress`, 5 dims and 4 strides.
pub const MAX_REWRITES: usize = 10;

/// Why a [`GroupedMap`] declaration is refused.
///
/// ```
/// use smemdesc_core::*;
/// use smemdesc_core::tma::{GroupedMap, GroupedMapError};
/// let t = TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2).dim(0, 4096).box_dim(0, 64).box_dim(1, 128);
/// let e = GroupedMap::new(t, &[TensorMapArg::Swizzle]).unwrap_err();
/// assert_eq!(e, GroupedMapError::FixedByTile { field: TensorMapArg::Swizzle });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupedMapError {
    /// The template's constant fields break a rule of `cuTensorMapEncodeTiled`.
    Template(TensorMapError),
    /// A field the tile fixes (box, swizzle, element type, interleave, element strides, rank,
    /// fill) is listed as rewritten.
    FixedByTile {
        /// The field.
        field: TensorMapArg,
    },
    /// A dim or stride the template declares constant is listed as rewritten.
    ConstantRewritten {
        /// The field.
        field: TensorMapArg,
        /// Its constant value.
        value: u64,
    },
    /// A field beyond the map's rank.
    BeyondRank {
        /// The field.
        field: TensorMapArg,
        /// The rank.
        rank: u32,
    },
    /// A field listed twice, or more than [`MAX_REWRITES`].
    Duplicate {
        /// The field.
        field: TensorMapArg,
    },
    /// A dense stride depends on a rewritten field, so the rewrite must write it, and also on a
    /// dim the template leaves open without the declaration rewriting it: the kernel cannot know
    /// the value (the host's encode would leave the stride of its own dims in every group's map).
    DenseStrideUnknown {
        /// `globalStrides[stride]`, the stride the rewrite would have to write.
        stride: u32,
        /// `globalDim[dim]`, the open dim it depends on.
        dim: u32,
    },
    /// The rewrite moves the map to each group's own buffer (`globalAddress`) but keeps the
    /// template's extent of a dim the template leaves open: a group smaller than the template
    /// keeps the template's out-of-bounds fetch window, and TMA reads (and stores write) past
    /// the group's buffer. Rewrite `globalDim[dim]`, or declare the window kept
    /// ([`GroupedMap::new_keep_oob_fetch_window`]: every group has the template's extent).
    WindowKept {
        /// `globalDim[dim]`, the open dim the rewrite leaves at the template's extent.
        dim: u32,
    },
    /// A dim declared kept ([`GroupedMap::new_keep_oob_fetch_window`]) that is not an open,
    /// unrewritten dim of the template.
    KeptNotOpen {
        /// The dim named.
        dim: u32,
    },
}

impl GroupedMapError {
    /// The message without its rule (`Display` adds the rule's id and source).
    pub(crate) fn fmt_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            GroupedMapError::Template(e) => write!(f, "the template map is illegal: {e}"),
            GroupedMapError::FixedByTile { field } => write!(
                f,
                "{} is fixed by the tile and never rewritten; legal rewrites: globalAddress, globalDim[i], globalStrides[i]",
                field_name(field)
            ),
            GroupedMapError::ConstantRewritten { field, value } => write!(
                f,
                "{} is declared constant ({value}) in the template but listed as rewritten; leave it open in the template or do not rewrite it",
                field_name(field)
            ),
            GroupedMapError::BeyondRank { field, rank } => write!(
                f,
                "{} is beyond the map's rank {rank}",
                field_name(field)
            ),
            GroupedMapError::Duplicate { field } => write!(
                f,
                "{} is listed twice (or more than {MAX_REWRITES} fields)",
                field_name(field)
            ),
            GroupedMapError::WindowKept { dim } => write!(
                f,
                "globalAddress is rewritten per group but globalDim[{dim}], open in the template, is not: a group smaller than the template keeps the template's out-of-bounds fetch window and TMA reads past the group's buffer (cuTensorMapEncodeTiled: globalDim bounds what is fetched); legal: list globalDim[{dim}] as rewritten, set it in the template, or declare the window kept (keep_oob_fetch_window: every group has the template's extent)"
            ),
            GroupedMapError::KeptNotOpen { dim } => write!(
                f,
                "globalDim[{dim}] is declared kept (keep_oob_fetch_window) but is rewritten, constant in the template or beyond its rank; legal: the open dims the rewrite leaves at the template's extent"
            ),
            GroupedMapError::DenseStrideUnknown { stride, dim } => write!(
                f,
                "globalStrides[{stride}] is dense in the template and depends on a rewritten field, so the rewrite writes it, but it also depends on globalDim[{dim}], which the template leaves open and the declaration does not rewrite: the kernel cannot compute it; legal: set globalDim[{dim}] in the template, list it as rewritten, or list globalStrides[{stride}] as rewritten (given per group)"
            ),
        }
    }
}

struct FieldName(TensorMapArg);
impl core::fmt::Display for FieldName {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.0.index() {
            Some(i) => write!(f, "{}[{i}]", self.0.name()),
            None => f.write_str(self.0.name()),
        }
    }
}
const fn field_name(a: TensorMapArg) -> FieldName {
    FieldName(a)
}

/// The run-time values of one group's rewritten fields (entries of fields not rewritten are
/// ignored).
///
/// ```
/// let v = smemdesc_core::tma::GroupValues::new(0x7f00_0000_0000).dim(1, 384);
/// assert_eq!((v.address, v.dims[1]), (0x7f00_0000_0000, 384));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GroupValues {
    /// `globalAddress`.
    pub address: u64,
    /// `globalDim`, innermost first.
    pub dims: [u64; 5],
    /// `globalStrides`, bytes (stride of dimension `i + 1`). A stride the declaration keeps
    /// dense ([`GroupedMap::dense_rewrite`]) is computed from the group's dims: leave it 0 or
    /// give that value ([`GroupedMap::check_group`] refuses another).
    pub strides: [u64; 4],
}

impl GroupValues {
    /// Values with `address`, every dim 1 and stride 0 until set.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::tma::GroupValues::new(0).dims, [1; 5]);
    /// ```
    pub const fn new(address: u64) -> GroupValues {
        GroupValues {
            address,
            dims: [1; 5],
            strides: [0; 4],
        }
    }

    /// Sets `globalDim[i]` (`i < 5`; larger indices are ignored).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::tma::GroupValues::new(0).dim(0, 7).dims[0], 7);
    /// ```
    pub const fn dim(mut self, i: usize, v: u64) -> GroupValues {
        if i < 5 {
            self.dims[i] = v;
        }
        self
    }

    /// Sets `globalStrides[i]`, bytes (`i < 4`; larger indices are ignored).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::tma::GroupValues::new(0).stride(0, 8192).strides[0], 8192);
    /// ```
    pub const fn stride(mut self, i: usize, v: u64) -> GroupValues {
        if i < 4 {
            self.strides[i] = v;
        }
        self
    }
}

/// A tensor map a kernel rewrites per group: the template (constant fields) and the fields
/// replaced for each group (`globalAddress`, `globalDim[i]`, `globalStrides[i]` only).
///
/// ```
/// use smemdesc_core::*;
/// use smemdesc_core::tma::*;
/// // B of a grouped GEMM: each expert's N x K bf16 matrix at its own address; K = 4096 constant,
/// // N per expert rewritten.
/// let b = GroupedMap::new(
///     TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2)
///         .dim(0, 4096).stride(0, 8192).box_dim(0, 64).box_dim(1, 256).swizzle(TensorMapSwizzle::B128),
///     &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)],
/// ).unwrap();
/// let g = GroupValues::new(0x7f00_0000_0000).dim(1, 512);
/// assert_eq!(b.check_group(&g).unwrap().global_dim[1], 512);
/// // An address that is not 16-B aligned is refused for that group.
/// assert!(b.check_group(&GroupValues::new(0x7f00_0000_0008).dim(1, 512)).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GroupedMap {
    pub(super) template: TensorMap,
    /// The listed fields, then the dense strides they make rewritten.
    pub(super) fields: [Option<TensorMapArg>; MAX_REWRITES],
    /// Bit `i`: `globalStrides[i]` is dense and rewritten with the group's dims' value.
    pub(super) dense: u8,
    /// Bit `d`: `globalDim[d]` keeps the template's extent and window by declaration
    /// ([`GroupedMap::new_keep_oob_fetch_window`]).
    pub(super) keeps_window: u8,
}

impl GroupedMap {
    /// Declares `template` with `fields` rewritten per group, or the first field or template
    /// rule that makes it illegal.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// use smemdesc_core::tma::*;
    /// let t = TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2).dim(0, 4096).box_dim(0, 64).box_dim(1, 128);
    /// // dim 0 is constant in the template:
    /// assert_eq!(GroupedMap::new(t, &[TensorMapArg::GlobalDim(0)]).unwrap_err(),
    ///            GroupedMapError::ConstantRewritten { field: TensorMapArg::GlobalDim(0), value: 4096 });
    /// assert!(GroupedMap::new(t, &[TensorMapArg::GlobalDim(1)]).is_ok());
    /// ```
    pub const fn new(
        template: TensorMap,
        fields: &[TensorMapArg],
    ) -> Result<GroupedMap, GroupedMapError> {
        GroupedMap::build(template, fields, &[])
    }

    pub(super) const fn build(
        template: TensorMap,
        fields: &[TensorMapArg],
        keep: &[u32],
    ) -> Result<GroupedMap, GroupedMapError> {
        let mut out = [None; MAX_REWRITES];
        let mut i = 0;
        while i < fields.len() {
            let f = fields[i];
            if i >= MAX_REWRITES {
                return Err(GroupedMapError::Duplicate { field: f });
            }
            let mut j = 0;
            while j < i {
                if same(fields[j], f) {
                    return Err(GroupedMapError::Duplicate { field: f });
                }
                j += 1;
            }
            match f {
                TensorMapArg::GlobalAddress => {
                    if let Some(v) = template.global_address {
                        return Err(GroupedMapError::ConstantRewritten { field: f, value: v });
                    }
                }
                TensorMapArg::GlobalDim(d) => {
                    if d >= template.rank || d >= 5 {
                        return Err(GroupedMapError::BeyondRank {
                            field: f,
                            rank: template.rank,
                        });
                    }
                    if let Some(v) = template.global_dim[d as usize] {
                        return Err(GroupedMapError::ConstantRewritten { field: f, value: v });
                    }
                }
                TensorMapArg::GlobalStrides(d) => {
                    if d >= 4 || d + 1 >= template.rank {
                        return Err(GroupedMapError::BeyondRank {
                            field: f,
                            rank: template.rank,
                        });
                    }
                    if let Some(v) = template.global_strides[d as usize] {
                        return Err(GroupedMapError::ConstantRewritten { field: f, value: v });
                    }
                }
                _ => return Err(GroupedMapError::FixedByTile { field: f }),
            }
            out[i] = Some(f);
            i += 1;
        }
        let (fields, dense) = tri!(dense_rewrites(&template, out, fields.len()));
        if let Err(e) = template.check() {
            return Err(GroupedMapError::Template(e));
        }
        let mut g = GroupedMap {
            template,
            fields,
            dense,
            keeps_window: 0,
        };
        let mut i = 0;
        while i < keep.len() {
            let d = keep[i];
            if d >= template.rank
                || d >= 5
                || template.global_dim[d as usize].is_some()
                || g.rewrites(TensorMapArg::GlobalDim(d))
            {
                return Err(GroupedMapError::KeptNotOpen { dim: d });
            }
            g.keeps_window |= 1 << d;
            i += 1;
        }
        if let Some(dim) = g.kept_window_dim() {
            return Err(GroupedMapError::WindowKept { dim });
        }
        Ok(g)
    }

    /// [`new`](Self::new), or a compile-time panic naming the reason (in a `const`: the build
    /// fails on the declaration).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// use smemdesc_core::tma::*;
    /// const G: GroupedMap = GroupedMap::declare(
    ///     TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2).dim(0, 64).box_dim(0, 64).box_dim(1, 64),
    ///     &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)]);
    /// assert!(G.rewrites(TensorMapArg::GlobalAddress));
    /// ```
    pub const fn declare(template: TensorMap, fields: &[TensorMapArg]) -> GroupedMap {
        match GroupedMap::new(template, fields) {
            Ok(g) => g,
            Err(GroupedMapError::Template(e)) => panic!("{}", e.summary()),
            Err(GroupedMapError::FixedByTile { .. }) => panic!(
                "grouped map: a field the tile fixes (box, swizzle, element type, interleave, element strides, rank, fill) is listed as rewritten; legal rewrites: globalAddress, globalDim[i], globalStrides[i]"
            ),
            Err(GroupedMapError::ConstantRewritten { .. }) => panic!(
                "grouped map: a field the template declares constant is listed as rewritten; leave it open in the template or do not rewrite it"
            ),
            Err(GroupedMapError::BeyondRank { .. }) => {
                panic!("grouped map: a rewritten field is beyond the map's rank")
            }
            Err(GroupedMapError::Duplicate { .. }) => {
                panic!("grouped map: a field is listed twice")
            }
            Err(GroupedMapError::DenseStrideUnknown { stride, dim }) => {
                panic!("{}", dense_stride_unknown(stride, dim))
            }
            Err(GroupedMapError::KeptNotOpen { .. }) => {
                panic!("grouped map: a dim declared kept is not an open, unrewritten dim")
            }
            Err(GroupedMapError::WindowKept { .. }) => panic!(
                "grouped map: globalAddress is rewritten per group but an open globalDim is not, so a group smaller than the template keeps the template's out-of-bounds fetch window (TMA reads past the group's buffer); list the dim as rewritten, set it in the template, or use declare_keep_oob_fetch_window (every group has the template's extent)"
            ),
        }
    }

    /// The template.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// # use smemdesc_core::tma::*;
    /// let t = TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2).box_dim(0, 64).box_dim(1, 64);
    /// assert_eq!(GroupedMap::new(t, &[]).unwrap().template().rank, 2);
    /// ```
    pub const fn template(&self) -> &TensorMap {
        &self.template
    }

    /// Whether `field` is rewritten per group.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// # use smemdesc_core::tma::*;
    /// let t = TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2).dim(0, 64).dim(1, 64).box_dim(0, 64).box_dim(1, 64);
    /// let g = GroupedMap::new(t, &[TensorMapArg::GlobalAddress]).unwrap();
    /// assert!(g.rewrites(TensorMapArg::GlobalAddress) && !g.rewrites(TensorMapArg::GlobalDim(1)));
    /// ```
    #[inline]
    pub const fn rewrites(&self, field: TensorMapArg) -> bool {
        let mut i = 0;
        while i < MAX_REWRITES {
            if let Some(f) = self.fields[i] {
                if same(f, field) {
                    return true;
                }
            }
            i += 1;
        }
        false
    }

    /// The map group `g` encodes: the template with the rewritten fields set from
    /// [`rewrite_values`](Self::rewrite_values)`(g)` (the other entries of `g` are ignored), so
    /// a dense stride that depends on a rewritten dim is the one the group's dims give.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// # use smemdesc_core::tma::*;
    /// let t = TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2).dim(0, 64).box_dim(0, 64).box_dim(1, 64);
    /// let g = GroupedMap::new(t, &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)]).unwrap();
    /// let m = g.group_map(&GroupValues::new(0x1000).dim(1, 99).dim(0, 5));
    /// assert_eq!((m.global_address, m.global_dim[0], m.global_dim[1]), (Some(0x1000), Some(64), Some(99)));
    /// ```
    pub const fn group_map(&self, g: &GroupValues) -> TensorMap {
        let v = self.rewrite_values(g);
        let mut m = self.template;
        let mut i = 0;
        while i < MAX_REWRITES {
            match self.fields[i] {
                Some(TensorMapArg::GlobalAddress) => m.global_address = Some(v.address),
                Some(TensorMapArg::GlobalDim(d)) => {
                    m.global_dim[d as usize] = Some(v.dims[d as usize])
                }
                Some(TensorMapArg::GlobalStrides(d)) => {
                    m.global_strides[d as usize] = Some(v.strides[d as usize])
                }
                _ => {}
            }
            i += 1;
        }
        m
    }

    /// The checked form: group `g`'s map ([`group_map`](Self::group_map), what a rewrite writes)
    /// under every rule of the host encode (address alignment, dims in `1..=2^32`, strides
    /// multiples of 16 B below 2^40 and covering the dim before, box vs dims), with its concrete
    /// arguments. Two rules of the device rewrite come first:
    ///
    /// - a rewritten dim must fit `tensormap.replace.tile.global_dim`'s `.b32` operand (PTX ISA,
    ///   `tensormap.replace`): 2^32, legal in a host encode, is
    ///   [`TensorMapError::RewrittenDimTooLarge`]; strides are written as `.b64` (and are below
    ///   2^40 by the encode's rule);
    /// - a stride the declaration keeps dense ([`dense_rewrite`](Self::dense_rewrite)) given in
    ///   `g` with another value than the group's dims give is
    ///   [`TensorMapError::DenseStrideMismatch`] (0 is "not given").
    ///
    /// A constant template stride that a rewritten dim outgrows is `StrideTooSmall` for that
    /// group.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// # use smemdesc_core::tma::*;
    /// let t = TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2).dim(0, 4096).box_dim(0, 64).box_dim(1, 128);
    /// let g = GroupedMap::new(t, &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1), TensorMapArg::GlobalStrides(0)]).unwrap();
    /// let ok = GroupValues::new(0x10000).dim(1, 3).stride(0, 8192);
    /// assert!(g.check_group(&ok).is_ok());
    /// // A stride that is not a multiple of 16 B:
    /// assert_eq!(g.check_group(&ok.stride(0, 8200)).unwrap_err().argument(), TensorMapArg::GlobalStrides(0));
    /// // An empty group (M = 0) cannot be encoded: skip it instead of rewriting.
    /// assert_eq!(g.check_group(&ok.dim(1, 0)).unwrap_err().argument(), TensorMapArg::GlobalDim(1));
    /// // 2^32 rows: a host encode takes it, the device's .b32 operand cannot.
    /// assert_eq!(g.check_group(&ok.dim(1, 1 << 32)).unwrap_err(),
    ///            TensorMapError::RewrittenDimTooLarge { index: 1, dim: 1 << 32 });
    /// ```
    pub const fn check_group(&self, g: &GroupValues) -> Result<TensorMapArgs, TensorMapError> {
        let mut i = 0;
        while i < MAX_REWRITES {
            if let Some(TensorMapArg::GlobalDim(d)) = self.fields[i] {
                let dim = g.dims[d as usize];
                if dim > u32::MAX as u64 {
                    return Err(TensorMapError::RewrittenDimTooLarge { index: d, dim });
                }
            }
            i += 1;
        }
        let args = tri!(self.group_map(g).try_args());
        let mut i = 0;
        while i < 4 {
            let (given, dense) = (g.strides[i], args.global_strides[i]);
            if self.dense & (1 << i) != 0 && given != 0 && given != dense {
                return Err(TensorMapError::DenseStrideMismatch {
                    index: i as u32,
                    given,
                    dense,
                });
            }
            i += 1;
        }
        Ok(args)
    }
}

pub(super) const fn same(a: TensorMapArg, b: TensorMapArg) -> bool {
    match (a, b) {
        (TensorMapArg::GlobalDim(x), TensorMapArg::GlobalDim(y))
        | (TensorMapArg::GlobalStrides(x), TensorMapArg::GlobalStrides(y))
        | (TensorMapArg::BoxDim(x), TensorMapArg::BoxDim(y))
        | (TensorMapArg::ElementStrides(x), TensorMapArg::ElementStrides(y)) => x == y,
        _ => key(a) == key(b),
    }
}

/// A number per kind of field (the indexed kinds are compared above).
const fn key(a: TensorMapArg) -> u8 {
    match a {
        TensorMapArg::TensorDataType => 0,
        TensorMapArg::TensorRank => 1,
        TensorMapArg::GlobalAddress => 2,
        TensorMapArg::GlobalDim(_) => 3,
        TensorMapArg::GlobalStrides(_) => 4,
        TensorMapArg::BoxDim(_) => 5,
        TensorMapArg::Box => 6,
        TensorMapArg::ElementStrides(_) => 7,
        TensorMapArg::Interleave => 8,
        TensorMapArg::Swizzle => 9,
        TensorMapArg::OobFill => 10,
    }
}
