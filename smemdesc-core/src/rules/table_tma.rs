//! Rules of tensor maps and TMA copies, grouped (rewritten) maps, gather4 and im2col convolution.

use super::source::Topic::{Conv as C, Grouped as G, Tma as T};
use super::source::{driver, measured, model, ptx, report, rule, Source, ALL, SM100};
use super::Rule;

/// `cuTensorMapEncodeTiled`'s documentation.
pub(super) const DRV_TILED: Source = driver("cuTensorMapEncodeTiled");
const DRV_IM2COL: Source = driver("cuTensorMapEncodeIm2col");
const MAP: &str = "smemdesc-core/src/tma/tensor_map.rs";
const G4: &str = "cp.async.bulk.tensor: .tile::gather4";
const GROUPED: &str = "smemdesc-core/src/tma/grouped.rs";
const CONV: &str = "smemdesc-core/src/tma/conv.rs";

pub(super) const RANK: Rule = rule("tma.rank", T, ALL, DRV_TILED, "tensorRank is 1 to 5.");
pub(super) const TILE_RANK: Rule = rule(
    "tma.tile-rank",
    T,
    ALL,
    model(MAP),
    "A tile's tensor map has rank 2 at least (its box is two-dimensional).",
);
pub(super) const INTERLEAVE_RANK: Rule = rule(
    "tma.interleave-rank",
    T,
    ALL,
    DRV_TILED,
    "An interleaved layout has rank 3 at least.",
);
pub(super) const ADDRESS: Rule = rule(
    "tma.global-address",
    T,
    ALL,
    DRV_TILED,
    "globalAddress is 16-byte aligned (32 with interleave 32B).",
);
pub(super) const DIM: Rule = rule(
    "tma.global-dim",
    T,
    ALL,
    DRV_TILED,
    "Each globalDim[i] is 1 to 2^32.",
);
pub(super) const PACKED_DIM0: Rule = rule(
    "tma.packed-dim0",
    T,
    SM100,
    DRV_TILED,
    "globalDim[0] of a packed type is a multiple of 128 (ALIGN16B) or 2 (ALIGN8B).",
);
pub(super) const STRIDE_MULTIPLE: Rule = rule(
    "tma.stride-multiple",
    T,
    ALL,
    DRV_TILED,
    "Each globalStrides[i] is a multiple of 16 (32 with interleave 32B or an ALIGN16B type).",
);
pub(super) const STRIDE_MAX: Rule = rule(
    "tma.stride-max",
    T,
    ALL,
    DRV_TILED,
    "Each globalStrides[i] is below 2^40.",
);
pub(super) const STRIDE_COVERS: Rule = rule(
    "tma.stride-covers-dim",
    T,
    ALL,
    DRV_TILED,
    "Each globalStrides[i] covers the dimension below it (its extent times its stride).",
);
pub(super) const BOX_DIM: Rule = rule(
    "tma.box-dim",
    T,
    ALL,
    DRV_TILED,
    "Each boxDim[i] is 1 to 256.",
);
pub(super) const BOX_INNER_16B: Rule = rule(
    "tma.box-inner-16b",
    T,
    ALL,
    DRV_TILED,
    "boxDim[0] times the element size is a multiple of 16 bytes (documented for interleave none, measured for 16B and 32B).",
);
pub(super) const BOX_INNER_SWIZZLE: Rule = rule(
    "tma.box-inner-swizzle",
    T,
    ALL,
    DRV_TILED,
    "With interleave none, boxDim[0] times the element size is at most the swizzle span.",
);
pub(super) const BOX_BYTES: Rule = rule(
    "tma.box-bytes",
    T,
    ALL,
    measured("shared/notes/tensor-maps.md", "2026-11-23"),
    "A box holds at most 233,472 bytes (the product of floor(boxDim[i] / elementStrides[i]) times the element size).",
);
pub(super) const ELEMENT_STRIDE: Rule = rule(
    "tma.element-stride",
    T,
    ALL,
    DRV_TILED,
    "Each elementStrides[i] is 1 to 8.",
);
pub(super) const INTERLEAVE_SWIZZLE: Rule = rule(
    "tma.interleave-swizzle",
    T,
    ALL,
    DRV_TILED,
    "Interleave 32B takes swizzle 32B only.",
);
pub(super) const PACKED_INTERLEAVE: Rule = rule(
    "tma.packed-interleave",
    T,
    SM100,
    DRV_TILED,
    "16U6_ALIGN16B takes no interleave.",
);
pub(super) const PACKED_SWIZZLE: Rule = rule(
    "tma.packed-swizzle",
    T,
    SM100,
    DRV_TILED,
    "A packed type takes only the swizzles its form supports.",
);
pub(super) const OOB_FILL: Rule = rule(
    "tma.oob-fill-float",
    T,
    ALL,
    DRV_TILED,
    "The NaN-request-zero-FMA out-of-bounds fill is for floating-point types only.",
);
pub(super) const DTYPE_ARCH: Rule = rule(
    "tma.dtype-on-arch",
    T,
    ALL,
    DRV_TILED,
    "The packed sub-byte data types exist on sm100, not sm90.",
);
pub(super) const SWIZZLE_ARCH: Rule = rule(
    "tma.swizzle-on-arch",
    T,
    ALL,
    DRV_TILED,
    "The 128B_ATOM swizzle modes exist on sm100, not sm90.",
);
pub(super) const MATCHES_TILE: Rule = rule(
    "tma.matches-tile",
    T,
    ALL,
    model(MAP),
    "A tile's tensor map has the box, swizzle, element type and strides the tile's TMA plan fixes.",
);
pub(super) const RESOLVED: Rule = rule(
    "tma.resolved",
    T,
    ALL,
    model(MAP),
    "Every value left to run time is supplied before the map is encoded.",
);
pub(super) const MAP_INDEX: Rule = rule(
    "tma.index",
    T,
    ALL,
    model(MAP),
    "An array index of a tensor map is below the maximum rank 5.",
);
pub(super) const REWRITTEN_DIM: Rule = rule(
    "grouped.rewritten-dim-b32",
    G,
    ALL,
    ptx("8.3", "tensormap.replace"),
    "A globalDim a kernel rewrites is below 2^32: tensormap.replace.tile.global_dim takes a .b32.",
);
pub(super) const DENSE_STRIDE: Rule = rule(
    "grouped.dense-stride",
    G,
    ALL,
    model(GROUPED),
    "A stride a grouped map keeps dense is the one its dims give.",
);
pub(super) const FIXED_BY_TILE: Rule = rule(
    "grouped.fixed-by-tile",
    G,
    ALL,
    model(GROUPED),
    "A grouped map rewrites no field the tile fixes (box, swizzle, element type, interleave, element strides, rank, fill).",
);
pub(super) const CONSTANT: Rule = rule(
    "grouped.constant",
    G,
    ALL,
    model(GROUPED),
    "A grouped map rewrites no dim or stride its template declares constant.",
);
pub(super) const BEYOND_RANK: Rule = rule(
    "grouped.beyond-rank",
    G,
    ALL,
    model(GROUPED),
    "A rewritten field is within the map's rank.",
);
pub(super) const DUPLICATE: Rule = rule(
    "grouped.duplicate",
    G,
    ALL,
    model(GROUPED),
    "A field is rewritten once, and at most MAX_REWRITES fields are.",
);
pub(super) const DENSE_KNOWN: Rule = rule(
    "grouped.dense-stride-known",
    G,
    ALL,
    model(GROUPED),
    "A dense stride the rewrite writes depends only on fields the kernel knows (rewritten or constant).",
);
pub(super) const WINDOW_KEPT: Rule = rule(
    "grouped.oob-window-shrink",
    G,
    ALL,
    DRV_TILED,
    "A grouped map that rewrites globalAddress also rewrites every globalDim its template leaves open, or declares that dim's out-of-bounds fetch window kept (every group has the template's extent there): globalDim bounds what TMA fetches.",
);
pub(super) const KEPT_OPEN: Rule = rule(
    "grouped.kept-window-open-dim",
    G,
    ALL,
    model(GROUPED),
    "A dim declared keep_oob_fetch_window is an open, unrewritten dim of the template.",
);
pub(super) const OOB_128K_ALIGN: Rule = rule(
    "tma.oob-128kb-aligned",
    T,
    SM100,
    report("TensorRT-LLM #18133"),
    "A buffer behind a map in OOB_ADDR_GEN_MODE_BASE_128kB is 128 KiB-aligned.",
);
pub(super) const OOB_128K_HEADROOM: Rule = rule(
    "tma.oob-128kb-headroom",
    T,
    SM100,
    report("TensorRT-LLM #18133"),
    "A buffer behind a map in OOB_ADDR_GEN_MODE_BASE_128kB owns at least 128 KiB from its base.",
);
pub(super) const OOB_128K_KNOWN: Rule = rule(
    "tma.oob-128kb-address-known",
    T,
    SM100,
    model("smemdesc-core/src/tma/oob_window.rs"),
    "The 128 KiB window is checked on a known globalAddress (an open one is checked on the buffer the host gives).",
);
pub(super) const G4_ARCH: Rule = rule(
    "tma.gather4-arch",
    T,
    ALL,
    ptx("8.6", G4),
    ".tile::gather4 and .tile::scatter4 need sm_100a (or the sm_100f family).",
);
pub(super) const G4_RANK: Rule = rule(
    "tma.gather4-rank",
    T,
    SM100,
    ptx("8.6", G4),
    "A gather4 or scatter4 map has rank 2.",
);
pub(super) const G4_BOX: Rule = rule(
    "tma.gather4-box",
    T,
    SM100,
    ptx("8.6", G4),
    "A gather4 or scatter4 box has one row (boxDim[1] = 1).",
);
pub(super) const G4_INTERLEAVE: Rule = rule(
    "tma.gather4-interleave",
    T,
    SM100,
    ptx("8.6", G4),
    "A gather4 or scatter4 map is not interleaved.",
);
pub(super) const G4_DTYPE: Rule = rule(
    "tma.gather4-dtype",
    T,
    SM100,
    model("smemdesc-core/src/tma/gather4.rs"),
    "A gather4 row is of whole-byte elements (no packed sub-byte type is modelled).",
);
pub(super) const G4_INNER: Rule = rule(
    "tma.gather4-inner",
    T,
    SM100,
    DRV_TILED,
    "A gather4 row is 1 to 256 elements and a multiple of 16 bytes.",
);
pub(super) const G4_SWIZZLE: Rule = rule(
    "tma.gather4-atom-swizzle",
    T,
    SM100,
    model("smemdesc-core/src/tma/gather4.rs"),
    "A gather4 map takes no 128B_ATOM swizzle (their placement is not modelled).",
);
pub(super) const SMEM_ALIGN: Rule = rule(
    "tma.smem-aligned",
    T,
    ALL,
    ptx("8.0", "cp.async.bulk.tensor"),
    "A TMA shared-memory destination is 128-byte aligned, and aligned to its swizzle's repeat.",
);
pub(super) const G4_INDEX: Rule = rule(
    "tma.gather4-index",
    T,
    SM100,
    model("smemdesc-core/src/tma/gather4.rs"),
    "A gather4 row index is 0 to 3 and a byte index is within the row.",
);
pub(super) const REDUCE_TYPE: Rule = rule(
    "tma.reduce-type",
    T,
    ALL,
    ptx("8.0", "cp.reduce.async.bulk.tensor"),
    "A TMA reduce's .redOp is one the element type allows.",
);
pub(super) const C_RANK: Rule = rule(
    "conv.rank",
    C,
    ALL,
    DRV_IM2COL,
    "An im2col map has rank 3, 4 or 5.",
);
pub(super) const C_CORNER: Rule = rule(
    "conv.corner",
    C,
    ALL,
    DRV_IM2COL,
    "A pixel-box corner offset is within the range its rank allows (rank 4: -128 to 127).",
);
pub(super) const C_BOX: Rule = rule(
    "conv.bounding-box",
    C,
    ALL,
    DRV_IM2COL,
    "The bounding box is not empty along any spatial dimension.",
);
pub(super) const C_CHANNELS: Rule = rule(
    "conv.channels",
    C,
    ALL,
    DRV_IM2COL,
    "channelsPerPixel is 1 to 256.",
);
pub(super) const C_PACKED: Rule = rule(
    "conv.packed-channels",
    C,
    SM100,
    DRV_IM2COL,
    "channelsPerPixel of an ALIGN16B type is 128.",
);
pub(super) const C_PIXELS: Rule = rule(
    "conv.pixels",
    C,
    ALL,
    DRV_IM2COL,
    "pixelsPerColumn is 1 to 1024.",
);
pub(super) const C_INDEX: Rule = rule(
    "conv.index",
    C,
    ALL,
    model(CONV),
    "A corner, M-block, K-step or load index is within the map or plan.",
);
pub(super) const C_POSITIVE: Rule = rule(
    "conv.positive",
    C,
    ALL,
    model(CONV),
    "Every convolution size, stride and dilation is at least 1.",
);
pub(super) const C_OUTPUT: Rule = rule(
    "conv.output",
    C,
    ALL,
    model(CONV),
    "The padded input is at least the dilated filter (the output is not empty).",
);
pub(super) const C_COORD: Rule = rule(
    "conv.coordinates-32bit",
    C,
    ALL,
    ptx("8.0", "Tensors"),
    "Tensor coordinates are signed 32-bit: W and H plus their padding below 2^31, N below 2^30.",
);
pub(super) const C_DTYPE: Rule = rule(
    "conv.dtype",
    C,
    ALL,
    model(CONV),
    "An implicit-GEMM tile is of a whole-byte type (packed sub-byte types are not modelled).",
);
pub(super) const C_WHOLE: Rule = rule(
    "conv.channels-whole",
    C,
    ALL,
    model(CONV),
    "C is a multiple of the channels per load (BK).",
);
pub(super) const C_WALK: Rule = rule(
    "conv.walk-32bit",
    C,
    ALL,
    model(CONV),
    "M, the K extent and every input coordinate fit a kernel walk's 32-bit words.",
);
pub(super) const C_OFFSET: Rule = rule(
    "conv.im2col-offset",
    C,
    ALL,
    ptx("8.0", "Tensors: im2col mode, Bounding Box"),
    "The last filter tap's im2col offset, dilation times (taps - 1), is 0 to 255 for a rank-4 cp.async.bulk.tensor.",
);
pub(super) const C_OVERFLOW: Rule = rule(
    "conv.overflow",
    C,
    ALL,
    model(CONV),
    "Every count fits its integer type (P, Q and the K-steps u32; M and the FLOPs u64).",
);
pub(super) const C_FILLS: Rule = rule(
    "conv.fills-tile",
    C,
    ALL,
    model("smemdesc-core/src/tma/conv_tile.rs"),
    "The im2col loads fill the declared operand tile exactly (type, rows, channels, boxes, swizzle).",
);
pub(super) const LIST: &[Rule] = &[
    RANK,
    TILE_RANK,
    INTERLEAVE_RANK,
    ADDRESS,
    DIM,
    PACKED_DIM0,
    STRIDE_MULTIPLE,
    STRIDE_MAX,
    STRIDE_COVERS,
    BOX_DIM,
    BOX_INNER_16B,
    BOX_INNER_SWIZZLE,
    BOX_BYTES,
    ELEMENT_STRIDE,
    INTERLEAVE_SWIZZLE,
    PACKED_INTERLEAVE,
    PACKED_SWIZZLE,
    OOB_FILL,
    DTYPE_ARCH,
    SWIZZLE_ARCH,
    MATCHES_TILE,
    RESOLVED,
    MAP_INDEX,
    REWRITTEN_DIM,
    DENSE_STRIDE,
    FIXED_BY_TILE,
    CONSTANT,
    BEYOND_RANK,
    DUPLICATE,
    DENSE_KNOWN,
    WINDOW_KEPT,
    KEPT_OPEN,
    OOB_128K_ALIGN,
    OOB_128K_HEADROOM,
    OOB_128K_KNOWN,
    G4_ARCH,
    G4_RANK,
    G4_BOX,
    G4_INTERLEAVE,
    G4_DTYPE,
    G4_INNER,
    G4_SWIZZLE,
    SMEM_ALIGN,
    G4_INDEX,
    REDUCE_TYPE,
    C_RANK,
    C_CORNER,
    C_BOX,
    C_CHANNELS,
    C_PACKED,
    C_PIXELS,
    C_INDEX,
    C_POSITIVE,
    C_OUTPUT,
    C_COORD,
    C_DTYPE,
    C_WHOLE,
    C_WALK,
    C_OFFSET,
    C_OVERFLOW,
    C_FILLS,
];
