//! Rules of SMEM tiles and their matrix descriptors (the core [`Error`](crate::Error)).

use super::source::Topic::{Descriptor as D, Mma as M, Scale as Sc, Storage as St, Tma as T};
use super::source::{cutlass, guide, model, ptx, rule, ALL, SM100, SM90};
use super::Rule;

const DECL: &str = "smemdesc-core/src/tile/decl.rs";
const WG_LAYOUT: &str = "wgmma: Shared Memory Matrix Layout";
const WG_DESC: &str = "wgmma: Matrix Descriptor Format";
const TC_DESC: &str = "tcgen05: Shared Memory Descriptor";
const TC_COMBOS: &str = "tcgen05: Valid Combinations of Type-Size, Major-ness and Swizzling";
const TC_SHAPE: &str = "tcgen05: Matrix Shape";

pub(super) const STAGES: Rule = rule(
    "tile.stages",
    D,
    ALL,
    model(DECL),
    "A tile has at least one pipeline stage.",
);
pub(super) const EXTENT: Rule = rule(
    "tile.extent-positive",
    D,
    ALL,
    model(DECL),
    "Every tile extent is positive.",
);
pub(super) const CHUNK: Rule = rule(
    "tile.contiguous-16b",
    D,
    ALL,
    ptx("8.0", WG_LAYOUT),
    "The contiguous extent is a whole number of 16-byte chunks (a core matrix is 8 rows of 16 B).",
);
pub(super) const WHOLE_ATOMS: Rule = rule(
    "swizzle.whole-atoms",
    D,
    ALL,
    ptx("8.0", WG_LAYOUT),
    "Each tile extent is a whole number of swizzle atoms (8 rows by the swizzle's width).",
);
pub(super) const WHOLE_MMAS: Rule = rule(
    "tile.whole-mmas",
    D,
    ALL,
    model(DECL),
    "Each tile extent is a whole number of MMA subtiles (one descriptor each).",
);
pub(super) const MN_ATOM: Rule = rule("swizzle.mn-major-atom", D, ALL, ptx("8.0", WG_LAYOUT),
    "An MN-major MMA subtile is at least one swizzle atom wide along MN (no canonical layout is narrower).");
pub(super) const SWIZZLE_ARCH: Rule = rule(
    "swizzle.on-arch",
    D,
    ALL,
    ptx("8.6", TC_DESC),
    "The 32-byte-atom 128B modes exist on sm100 only; sm90 has none, 32B, 64B and 128B.",
);
pub(super) const BASE32B: Rule = rule(
    "swizzle.base32b-tf32",
    D,
    SM100,
    ptx("8.6", TC_COMBOS),
    "128B_base32B is for MN-major tf32 only, and MN-major tf32 on sm100 uses it.",
);
pub(super) const MN_MAJOR_SM90: Rule = rule(
    "mma.mn-major-sm90",
    M,
    SM90,
    ptx("8.0", "wgmma.mma_async"),
    "sm90 transposes (MN-major) f16 and bf16 operands only.",
);
pub(super) const MN_MAJOR_SM100: Rule = rule("mma.mn-major-sm100", M, SM100,
    cutlass("include/cute/arch/mma_sm100_umma.hpp"),
    "sm100 transposes 16- and 8-bit types and tf32, never fp6/fp4 nor the mxf4 kinds (CUTLASS's rule, stricter than PTX).");
pub(super) const FIELD_14BIT: Rule = rule(
    "desc.field-14bit",
    D,
    ALL,
    ptx("8.0", WG_DESC),
    "LBO, SBO and the start address are 14-bit fields in 16-byte units: each is below 256 KiB.",
);
pub(super) const FIELD_16B: Rule = rule(
    "desc.field-16b",
    D,
    ALL,
    ptx("8.0", WG_DESC),
    "Descriptor byte values are multiples of 16 (the fields drop the low 4 bits).",
);
pub(super) const SMEM_BUDGET: Rule = rule(
    "smem.per-cta",
    St,
    ALL,
    guide("Technical Specifications per Compute Capability"),
    "All stages of a tile fit the shared memory one CTA may opt into: 227 KiB (232,448 B) on sm90 and sm100 (the other arches' numbers and their sources: smemdesc_core::base::ARCH_LIMITS).",
);
pub(super) const ARCH_NO_LIMITS: Rule = rule(
    "arch.no-public-limits",
    D,
    ALL,
    model("smemdesc-core/src/base/arch_limits.rs"),
    "An architecture whose limits no public source gives (sm107) is refused, not guessed.",
);
pub(super) const ARCH_NO_DESC: Rule = rule(
    "arch.no-smem-descriptor",
    D,
    ALL,
    cutlass("include/cute/arch/config.hpp"),
    "sm120/sm121 have neither wgmma nor tcgen05, so no SMEM matrix descriptor: their tiles are register fragments.",
);
pub(super) const BASE_ALIGN: Rule = rule("desc.base-aligned", D, ALL, ptx("8.0", WG_DESC),
    "A tile starts aligned to its swizzle pattern's repeat (1024 B for 128B, 512 B for 64B, 256 B for 32B).");
pub(super) const INDEX: Rule = rule(
    "tile.index",
    D,
    ALL,
    model(DECL),
    "A subtile, stage or element index is below its count.",
);
pub(super) const CANONICAL: Rule = rule(
    "desc.canonical",
    D,
    ALL,
    ptx("8.6", "tcgen05: Canonical Layouts"),
    "Every MMA subtile is one of the canonical layouts a descriptor can describe.",
);
pub(super) const DIVISIBLE: Rule = rule(
    "layout.divisible",
    D,
    ALL,
    model("smemdesc-core/src/layout/algebra.rs"),
    "A layout extent divides evenly where the layout algebra splits it.",
);
pub(super) const CAPACITY: Rule = rule(
    "layout.capacity",
    D,
    ALL,
    model("smemdesc-core/src/layout/algebra.rs"),
    "A layout has at most MAX_SUBMODES (4) sub-modes per mode.",
);
pub(super) const LAYOUT_CODE: Rule = rule(
    "desc.layout-code",
    D,
    ALL,
    ptx("8.6", TC_DESC),
    "A descriptor's layout-type (swizzle) code is one the architecture defines.",
);
pub(super) const RESERVED: Rule = rule(
    "desc.reserved-bits",
    D,
    ALL,
    ptx("8.0", WG_DESC),
    "A descriptor's reserved bits are zero and its fixed bits hold their fixed value.",
);
pub(super) const ELEMENT: Rule = rule(
    "tile.element-supported",
    D,
    ALL,
    model(DECL),
    "The element type has an SMEM layout smemdesc models.",
);
pub(super) const DTYPE_ARCH: Rule = rule(
    "mma.dtype-on-arch",
    M,
    ALL,
    ptx("8.6", TC_SHAPE),
    "The element type has an MMA on the architecture (fp6 and fp4 have none on sm90).",
);
pub(super) const KIND_ARCH: Rule = rule("mma.kind-on-arch", M, ALL, ptx("8.6", TC_SHAPE),
    "The MMA kind exists on the architecture (sm90 has f16, tf32, f8f6f4 inputs of 8/16/32 bits and i8 only).");
pub(super) const DTYPE_KIND: Rule = rule(
    "mma.dtype-of-kind",
    M,
    ALL,
    ptx("8.6", TC_SHAPE),
    "The element type is an input type of the MMA kind.",
);
pub(super) const CTA_GROUP: Rule = rule(
    "mma.cta-group",
    M,
    ALL,
    ptx("8.6", "tcgen05: CTA pair"),
    "cta_group is 1, or 2 on an architecture with CTA pairs (sm100).",
);
pub(super) const K_32B: Rule = rule(
    "mma.k-32-bytes",
    M,
    ALL,
    ptx("8.0", "wgmma: Matrix Shape"),
    "An instruction's K is 32 bytes of the element type.",
);
pub(super) const MMA_M: Rule = rule("mma.shape-m", M, ALL, ptx("8.6", TC_SHAPE),
    "M is 64 on sm90; on sm100 64 or 128 with cta_group 1 (block-scaled: 128) and 128 or 256 with cta_group 2.");
pub(super) const MMA_N: Rule = rule("mma.shape-n", M, ALL, ptx("8.6", TC_SHAPE),
    "N is legal for the architecture, kind, CTA group and B's major-ness (sm90: multiples of 8 up to 256; sm100: multiples of 16, i8 and 8-bit MN-major B stricter).");
pub(super) const BOX_WIDTH: Rule = rule(
    "tma.box-atom-width",
    T,
    ALL,
    ptx("8.0", WG_LAYOUT),
    "A tile's TMA box is exactly one swizzle atom wide (its inner extent is the swizzle span).",
);
pub(super) const BOX_ROWS: Rule = rule("tma.box-rows-atoms", T, ALL, model("smemdesc-core/src/tile/tma_plan.rs"),
    "A tile's TMA box rows are whole atoms that divide the tile and are contiguous in shared memory.");
pub(super) const FORM: Rule = rule("tile.form-of-element", D, SM100, ptx("8.6", "tcgen05: Packing formats"),
    "The element type can take the SMEM form (padded fp6/fp4 or packed fp4; never a padded 16-bit type).");
pub(super) const MMA_K: Rule = rule("mma.shape-k", M, ALL, ptx("8.6", TC_SHAPE),
    "The instruction's K is one the kind and SMEM form have (K = 96 for packed fp4 with cta_group 2 only).");
pub(super) const K_BLOCK: Rule = rule("desc.k-block-in-atom", D, SM100, ptx("8.6", TC_DESC),
    "A 48-byte K block (K = 96 packed fp4) needs swizzle none: with a swizzle it would cross an atom.");
pub(super) const PADDED_BOX: Rule = rule(
    "tma.padded-box-128",
    T,
    SM100,
    super::table_tma::DRV_TILED,
    "A 16U4_ALIGN16B or 16U6_ALIGN16B TMA box is exactly 128 elements wide.",
);
pub(super) const SCALE_FORMAT: Rule = rule("scale.format", Sc, SM100, ptx("8.6", "tcgen05: Block Scaling"),
    "A block-scaled kind takes its own factor types and vector sizes (mxf8f6f4: ue8m0 x32; mxf4: ue8m0 x32; mxf4nvf4: ue8m0 x16/x32, ue4m3 x16).");
pub(super) const SCALE_ATOMS: Rule = rule(
    "scale.whole-atoms",
    Sc,
    SM100,
    ptx("8.6", "tcgen05: Block Scaling"),
    "A scale-factor tile is whole 512-byte atoms (128 rows of A or B, 4 factors along K).",
);
pub(super) const BASE_HIGH: Rule = rule(
    "desc.base-in-range",
    D,
    ALL,
    ptx("8.0", WG_DESC),
    "Every subtile of every stage starts below 256 KiB, the 14-bit start address's range.",
);

pub(super) const LIST: &[Rule] = &[
    ARCH_NO_LIMITS,
    ARCH_NO_DESC,
    STAGES,
    EXTENT,
    CHUNK,
    WHOLE_ATOMS,
    WHOLE_MMAS,
    MN_ATOM,
    SWIZZLE_ARCH,
    BASE32B,
    MN_MAJOR_SM90,
    MN_MAJOR_SM100,
    FIELD_14BIT,
    FIELD_16B,
    SMEM_BUDGET,
    BASE_ALIGN,
    INDEX,
    CANONICAL,
    DIVISIBLE,
    CAPACITY,
    LAYOUT_CODE,
    RESERVED,
    ELEMENT,
    DTYPE_ARCH,
    KIND_ARCH,
    DTYPE_KIND,
    CTA_GROUP,
    K_32B,
    MMA_M,
    MMA_N,
    BOX_WIDTH,
    BOX_ROWS,
    FORM,
    MMA_K,
    K_BLOCK,
    PADDED_BOX,
    SCALE_FORMAT,
    SCALE_ATOMS,
    BASE_HIGH,
];
