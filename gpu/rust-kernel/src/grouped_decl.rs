//! The grouped GEMM's rewritten map (issue 30), shared by the kernels (`grouped.rs`) and the
//! host (`gpu/src/bin/rust_kernels/grouped.rs`, which includes this file): C's TMA store map,
//! from the epilogue tile, with its global address and row count rewritten per group; the box,
//! swizzle and element type stay the tile's. Its columns (N) and row stride are the launch's,
//! encoded by the host into the template every slot starts from.

use crate::epi_tiles::CTile;
use smemdesc::grouped::{GroupedMap, GroupedMapDecl};
use smemdesc::{Arch, TensorMap, TensorMapArg};

/// C's map without the launch's values: the epilogue tile's, every dim open.
pub const fn c_template() -> TensorMap {
    let mut t = CTile::EPILOGUE.tensor_map(Arch::Sm90, 1, 1);
    t.global_dim[0] = None;
    t.global_dim[1] = None;
    t
}

/// The fields rewritten per group: the group's first row of C, and its rows.
pub const C_REWRITES: [TensorMapArg; 2] = [TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)];

/// C of the grouped GEMM.
pub struct MapC;
impl GroupedMapDecl for MapC {
    // N (dim 0) is the launch's and every group's (the host's encode gives it): its window is
    // kept by declaration; the rows are rewritten, so a small group's window is its own.
    const MAP: GroupedMap =
        GroupedMap::declare_keep_oob_fetch_window(c_template(), &C_REWRITES, &[0]);
}
