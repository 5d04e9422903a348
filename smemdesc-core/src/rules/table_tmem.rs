//! Rules of Tensor Memory: accumulator placement, tcgen05.ld shapes, allocations.

use super::source::Topic::Tmem as T;
use super::source::{model, ptx, rule, SM100};
use super::Rule;

const DP: &str = "tcgen05: Data path layout organization";
const LD: &str = "tcgen05.ld: Data movement shape";
const PLAN: &str = "smemdesc-core/src/tmem/plan.rs";

pub(super) const DATAPATH_M: Rule = rule(
    "tmem.datapath-m",
    T,
    SM100,
    ptx("8.6", DP),
    "An accumulator's M has a data-path layout: 64 or 128 with cta_group 1, 128 or 256 with cta_group 2.",
);
pub(super) const ACCUM: Rule = rule(
    "tmem.accum-f32-s32",
    T,
    SM100,
    model(PLAN),
    "The accumulator is f32 or s32 (the placement of f16 in Tensor Memory is not modeled).",
);
pub(super) const LD_NUM: Rule = rule(
    "tmem.ld-num",
    T,
    SM100,
    ptx("8.6", LD),
    "A tcgen05.ld .num is a power of two the shape allows, at most 128 registers.",
);
pub(super) const LD_TEXT: Rule = rule(
    "tmem.ld-shape-text",
    T,
    SM100,
    ptx("8.6", LD),
    "A load shape is written like 32x32b.x16 or 16x32bx2.x1, optionally with .pack::16b.",
);
pub(super) const LD_LANES: Rule = rule(
    "tmem.ld-lanes",
    T,
    SM100,
    ptx("8.6", DP),
    "A 32-lane load shape needs an accumulator on all 32 lanes of each subpartition (not M = 64 with cta_group 1).",
);
pub(super) const LD_COLUMNS: Rule = rule(
    "tmem.ld-columns",
    T,
    SM100,
    model(PLAN),
    "A load's column span divides the accumulator's columns.",
);
pub(super) const LD_PACK: Rule = rule(
    "tmem.ld-pack-16b",
    T,
    SM100,
    ptx("8.6", "tcgen05.ld"),
    ".pack::16b packs 16-bit data only.",
);
pub(super) const INDEX: Rule = rule(
    "tmem.index",
    T,
    SM100,
    model(PLAN),
    "A TMEM index (stage, lane, column, register) is below its count.",
);
pub(super) const ELEMENT: Rule = rule(
    "tmem.element",
    T,
    SM100,
    ptx("8.6", DP),
    "A TMEM lane and column asked for an element hold one of the accumulator.",
);
pub(super) const COLUMNS: Rule = rule(
    "tmem.columns-512",
    T,
    SM100,
    ptx("8.6", "tcgen05: Tensor Memory"),
    "A CTA's Tensor Memory plan fits the 512 columns of an SM.",
);
pub(super) const ALLOC_POW2: Rule = rule(
    "tmem.alloc-pow2",
    T,
    SM100,
    ptx("8.6", "tcgen05.alloc"),
    "A Tensor Memory allocation is a power of two from 32 to 512 columns.",
);
pub(super) const ALLOC_HOLDS: Rule = rule(
    "tmem.alloc-holds-regions",
    T,
    SM100,
    model(PLAN),
    "An explicit allocation holds every region of the plan.",
);
pub(super) const SM100_ONLY: Rule = rule(
    "tmem.sm100-only",
    T,
    SM100,
    ptx("8.6", "tcgen05.mma"),
    "Tensor Memory plans are for sm100 tcgen05.mma pairings only.",
);
pub(super) const STAGES: Rule = rule(
    "tmem.stages",
    T,
    SM100,
    model(PLAN),
    "A TMEM plan has at least one accumulator stage.",
);
pub(super) const SCALE_TILES: Rule = rule(
    "tmem.scale-tiles",
    T,
    SM100,
    model(PLAN),
    "A block-scaled kind has both scale-factor tiles of its pairing, a dense kind none.",
);
pub(super) const SCALE_ID: Rule = rule(
    "tmem.scale-id-columns",
    T,
    SM100,
    ptx("8.6", "tcgen05: Block Scaling"),
    "An instruction descriptor's scale-factor id selects the columns the factors were copied to.",
);
pub(super) const ALLOC_GROUP: Rule = rule(
    "tmem.alloc-cta-group",
    T,
    SM100,
    ptx("8.6", "tcgen05.alloc"),
    "Tensor Memory is allocated, relinquished and deallocated by one CTA group.",
);
pub(super) const LIST: &[Rule] = &[
    DATAPATH_M,
    ACCUM,
    LD_NUM,
    LD_TEXT,
    LD_LANES,
    LD_COLUMNS,
    LD_PACK,
    INDEX,
    ELEMENT,
    COLUMNS,
    ALLOC_POW2,
    ALLOC_HOLDS,
    SM100_ONLY,
    STAGES,
    SCALE_TILES,
    SCALE_ID,
    ALLOC_GROUP,
];
