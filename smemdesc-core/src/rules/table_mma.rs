//! Rules of MMA instructions, their instruction descriptors, the pairing of A with B, scale-factor tiles and chained register fragments.

use super::source::Topic::{Fragment as F, Mma as M, Scale as Sc};
use super::source::{model, ptx, rule, ALL, SM100, SM90};
use super::Rule;

const TC_IDESC: &str = "tcgen05: Instruction descriptor";
const TC_SCALE: &str = "tcgen05: Block Scaling";
const PAIR: &str = "smemdesc-core/src/pairing/pair.rs";
const SCALE: &str = "smemdesc-core/src/scale/tile.rs";
const CHAIN: &str = "smemdesc-core/src/fragment/chain.rs";
const FRAGS: &str = "Warp Level Matrix Multiply-Accumulate Instructions: Matrix Fragments";

pub(super) const F16_SAME: Rule = rule(
    "mma.f16-same-types",
    M,
    SM100,
    ptx("8.6", TC_IDESC),
    "kind::f16 takes A and B of the same type (f16 with f16, bf16 with bf16).",
);
pub(super) const ACCUM_KIND: Rule = rule(
    "mma.accum-of-kind",
    M,
    SM100,
    ptx("8.6", TC_IDESC),
    "The accumulator (D) type is one the kind allows for its input type.",
);
pub(super) const NEGATE: Rule = rule(
    "idesc.negate",
    M,
    SM100,
    ptx("8.6", "tcgen05: Transpose and Negate operations"),
    "kind::i8 has no negate bits: A and B are not negated.",
);
pub(super) const SATURATE: Rule = rule(
    "idesc.saturate",
    M,
    SM100,
    ptx("8.6", TC_IDESC),
    "Saturate exists for kind::i8 only.",
);
pub(super) const SF_ID: Rule = rule(
    "idesc.scale-factor-id",
    Sc,
    SM100,
    ptx("8.6", TC_SCALE),
    "A scale-factor id is one of the TMEM byte positions the kind and scale format allow.",
);
pub(super) const SPARSE_ID: Rule = rule(
    "idesc.sparsity-selector",
    M,
    SM100,
    ptx("8.6", "tcgen05: Sparse Matrices"),
    "A sparsity selector is 0 on a dense MMA, 0 for kind::i8 and kind::f8f6f4, reserved for block-scaled kinds, and at most 3.",
);
pub(super) const WS: Rule = rule(
    "idesc.ws-not-modeled",
    M,
    SM100,
    model("smemdesc-core/src/mma/idesc.rs"),
    "smemdesc models non-.ws tcgen05.mma only: the .ws B-reuse shift bits are zero.",
);
pub(super) const IDESC_RESERVED: Rule = rule(
    "idesc.reserved-bits",
    M,
    SM100,
    ptx("8.6", TC_IDESC),
    "An instruction descriptor's reserved bits are zero.",
);
pub(super) const IDESC_FORMAT: Rule = rule(
    "idesc.format-code",
    M,
    SM100,
    ptx("8.6", TC_IDESC),
    "An A or B format code names a type of the kind.",
);
pub(super) const IDESC_ACCUM: Rule = rule(
    "idesc.accum-code",
    M,
    SM100,
    ptx("8.6", TC_IDESC),
    "The D-type code is F16 (0), F32 (1) or S32 (2).",
);
pub(super) const SAME_ARCH: Rule = rule(
    "pair.same-arch",
    M,
    ALL,
    model(PAIR),
    "The A and B tiles of one MMA are declared for the same architecture.",
);
pub(super) const SAME_KIND: Rule = rule(
    "pair.same-kind",
    M,
    ALL,
    model(PAIR),
    "The A and B tiles of one MMA are declared for the same MMA kind.",
);
pub(super) const SAME_CTA_GROUP: Rule = rule(
    "pair.same-cta-group",
    M,
    SM100,
    ptx("8.6", "tcgen05.mma"),
    "Every tcgen05 instruction of a kernel, and every tile of one MMA, uses one cta_group.",
);
pub(super) const SAME_SHAPE: Rule = rule(
    "pair.same-shape",
    M,
    ALL,
    model(PAIR),
    "The A and B tiles of one MMA agree on the instruction's M, N and K.",
);
pub(super) const ROLE: Rule = rule(
    "pair.operand-role",
    M,
    ALL,
    model(PAIR),
    "A tile given as A is declared operand = A, and one given as B operand = B.",
);
pub(super) const ACCUM_SM90: Rule = rule(
    "mma.accum-sm90",
    M,
    SM90,
    ptx("8.0", "wgmma.mma_async"),
    "A wgmma accumulator type is legal for the inputs: f16 to f16 or f32, bf16 and tf32 to f32, e4m3 and e5m2 to f16 or f32, s8 and u8 to s32.",
);
pub(super) const NOT_SM90: Rule = rule(
    "mma.sm100-only-settings",
    M,
    SM90,
    ptx("8.0", "wgmma.mma_async"),
    "wgmma has no scale factors, cta_group or other tcgen05-only settings.",
);
pub(super) const SCALE_FOR: Rule = rule(
    "scale.tile-for-operand",
    Sc,
    SM100,
    model(SCALE),
    "A scale-factor tile is declared for the operand and kind of the tile it is paired with.",
);
pub(super) const SCALE_TILE_FORMAT: Rule = rule(
    "scale.tile-format",
    Sc,
    SM100,
    model(SCALE),
    "A scale-factor tile's factor type and vector size are the instruction's.",
);
pub(super) const SCALE_EXTENT: Rule = rule(
    "scale.tile-extent",
    Sc,
    SM100,
    model(SCALE),
    "A scale-factor tile covers the same (MN, K) extent as its operand tile.",
);
pub(super) const SCALE_K96: Rule = rule(
    "scale.k96-not-modeled",
    Sc,
    SM100,
    model(SCALE),
    "Scale factors of a K = 96 instruction (3 or 6 per row) are not modeled: the scale tile steps whole TMEM words of 4 factors.",
);
pub(super) const LANE_LOCAL: Rule = rule(
    "frag.chain-lane-local",
    F,
    SM90,
    ptx("8.0", "wgmma: Register Fragments and Shared Memory Matrix Layouts"),
    "A chained wgmma's A fragment takes, in each thread, the columns that thread's accumulator holds (not tf32 k8 nor the 8-bit k32 types).",
);
pub(super) const CHAIN_CONVERT: Rule = rule(
    "frag.chain-convert",
    F,
    SM90,
    model(CHAIN),
    "An accumulator chained into A converts to A's type (s32 does not convert to a floating-point A here).",
);
pub(super) const CHAIN_K: Rule = rule(
    "frag.chain-k-steps",
    F,
    SM90,
    model(CHAIN),
    "The first MMA's N is a whole number of the second's k-steps.",
);
pub(super) const FRAG_TYPES: Rule = rule(
    "frag.type-pair",
    F,
    ALL,
    ptx("6.4", FRAGS),
    "The type pair is legal for the fragment's shape and kind.",
);
pub(super) const FRAG_ARCH: Rule = rule(
    "frag.form-on-arch",
    F,
    ALL,
    ptx("6.4", FRAGS),
    "The fragment form exists on the architecture.",
);
pub(super) const FRAG_SCALE: Rule = rule(
    "frag.block-scale",
    F,
    ALL,
    ptx(
        "8.7",
        "Warp Level Matrix Multiply-Accumulate Instructions: Block Scaling",
    ),
    "The scale vector size and scale type are legal for the kind.",
);
pub(super) const LIST: &[Rule] = &[
    F16_SAME,
    ACCUM_KIND,
    NEGATE,
    SATURATE,
    SF_ID,
    SPARSE_ID,
    WS,
    IDESC_RESERVED,
    IDESC_FORMAT,
    IDESC_ACCUM,
    SAME_ARCH,
    SAME_KIND,
    SAME_CTA_GROUP,
    SAME_SHAPE,
    ROLE,
    ACCUM_SM90,
    NOT_SM90,
    SCALE_FOR,
    SCALE_TILE_FORMAT,
    SCALE_EXTENT,
    SCALE_K96,
    LANE_LOCAL,
    CHAIN_CONVERT,
    CHAIN_K,
    FRAG_TYPES,
    FRAG_ARCH,
    FRAG_SCALE,
];
