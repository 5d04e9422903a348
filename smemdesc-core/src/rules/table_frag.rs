//! Rules of register-fragment tiles (ldmatrix, stmatrix, st.shared) and epilogues.

use super::source::Topic::{Epilogue as E, Fragment as F};
use super::source::{model, ptx, rule, ALL, SM90};
use super::Rule;

const TILES: &str = "smemdesc-core/src/fragment/tile_types.rs";
const EPI: &str = "smemdesc-core/src/epilogue/spec.rs";

pub(super) const TRANS_16: Rule = rule(
    "frag.ldmatrix-trans-16bit",
    F,
    ALL,
    ptx("6.5", "ldmatrix"),
    "ldmatrix and stmatrix .trans move 16-bit elements only.",
);
pub(super) const WHOLE: Rule = rule(
    "frag.tile-whole-fragments",
    F,
    ALL,
    model(TILES),
    "A fragment tile's MN and K extents are whole fragments and k-steps.",
);
pub(super) const STMATRIX_ARCH: Rule = rule(
    "frag.stmatrix-sm90",
    F,
    ALL,
    ptx("7.8", "stmatrix"),
    "stmatrix needs sm_90 or higher.",
);
pub(super) const MATRIX_COUNT: Rule = rule(
    "frag.matrix-count",
    F,
    ALL,
    ptx("6.5", "ldmatrix"),
    "ldmatrix and stmatrix move .x1, .x2 or .x4 matrices, dividing the registers of one step; st.shared moves 4, 8 or 16 bytes.",
);
pub(super) const SWIZZLE_ROWS: Rule = rule(
    "frag.swizzle-rows",
    F,
    ALL,
    model(TILES),
    "A swizzled fragment tile's row bytes are a multiple of the swizzle width, and a TMA writer has a swizzle mode that fits.",
);
pub(super) const CONFLICT: Rule = rule(
    "frag.conflict-free",
    F,
    ALL,
    model("smemdesc-core/src/fragment/banks.rs"),
    "Every reader and writer access of a fragment tile is free of shared-memory bank conflicts.",
);
pub(super) const EPI_SHAPE: Rule = rule(
    "epi.shape",
    E,
    SM90,
    ptx("8.0", "wgmma: Matrix Shape"),
    "An epilogue's m is a multiple of 64, its n a multiple of 8 dividing the wgmma N, and its tile at most MAX_BYTES.",
);
pub(super) const EPI_STAGES: Rule = rule(
    "epi.stages",
    E,
    SM90,
    model(EPI),
    "An epilogue has at least one stage.",
);
pub(super) const STMATRIX_16: Rule = rule(
    "frag.stmatrix-16bit",
    F,
    SM90,
    ptx("7.8", "stmatrix"),
    "stmatrix on sm90 stores 16-bit elements only.",
);
pub(super) const WRITER_MAJOR: Rule = rule(
    "epi.writer-major",
    E,
    SM90,
    ptx("7.8", "stmatrix"),
    "stmatrix .trans writes column-major C; plain stmatrix and st.shared write row-major.",
);
pub(super) const ST_WIDTH: Rule = rule(
    "epi.st-width",
    E,
    SM90,
    model(EPI),
    "An st.shared writer stores the fragment pair's width (2 elements).",
);
pub(super) const EPI_SWIZZLE: Rule = rule(
    "epi.swizzle",
    E,
    SM90,
    model(EPI),
    "An epilogue tile's rows are whole swizzle widths, with a swizzle TMA has on sm90.",
);
pub(super) const MAP_SWIZZLE: Rule = rule(
    "epi.map-swizzle",
    E,
    SM90,
    model(EPI),
    "The TMA store's tensor-map swizzle is the tile's.",
);
pub(super) const LIST: &[Rule] = &[
    TRANS_16,
    WHOLE,
    STMATRIX_ARCH,
    MATRIX_COUNT,
    SWIZZLE_ROWS,
    CONFLICT,
    EPI_SHAPE,
    EPI_STAGES,
    STMATRIX_16,
    WRITER_MAJOR,
    ST_WIDTH,
    EPI_SWIZZLE,
    MAP_SWIZZLE,
];
