//! The checked forms' errors as data in a kernel (issue 28 item 5): every `Err` a kernel can get
//! from the checked run-time forms (a tile's `try_desc`, `try_offset`, `TileAt`'s `try_desc`,
//! `try_address` and `place`, a scale tile's `copy_desc`, Tensor Memory's `try_address` and
//! `try_reg_element`) is written by value to global memory. The error types must be plain data
//! (integers and field-less enums: no `&'static str`, whose pointer and bytes would land in the
//! module as `.global` string data that `smemdesc check-ptx` refuses, and no `bool`, which
//! cuda-oxide's enum lowering refuses), so the module stays table-free with these stores in it.

use smemdesc::prelude::*;
use smemdesc::{AccumType, ScaleDecl, ScaleTile, TmemAccum, TmemError, TmemLoad, TmemLoadMap};

/// A: 128 x 64 bf16, K-major, 2 stages (two MMA subtiles along M).
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, swizzle = 128B,
            mma = m64n64k16, stages = 2)]
pub struct TileE;

const SCALE: ScaleTile = match ScaleDecl::new(MmaKind::Mxf4, Operand::A, 256, 256)
    .stages(2)
    .build()
{
    Ok(s) => s,
    Err(_) => panic!("a legal scale tile"),
};
const ACCUM: TmemAccum = TmemAccum::expect_new(128, 64, 1, AccumType::F32);
const MAP: TmemLoadMap =
    ACCUM.expect_load_map(TmemLoad::expect_new(smemdesc::LoadShape::S32x32b, 16));

/// Writes `r`'s error, if any, to `out[slot]` (the whole value: every field the host reads back).
#[inline(always)]
unsafe fn put<T, E: Copy>(out: *mut E, slot: usize, r: Result<T, E>) {
    if let Err(e) = r {
        out.add(slot).write(e);
    }
}

/// Every checked form with run-time arguments, its error stored as a value.
///
/// # Safety
/// `err` points to 6 `smemdesc::Error` values and `tmem_err` to 2 `TmemError` values, both
/// aligned for their types (the host allocates them with the types' sizes).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn whole_error_data(
    err: *mut u8,
    tmem_err: *mut u8,
    addr: u32,
    i: u32,
    j: u32,
    stage: u32,
) {
    let e = err.cast::<Error>();
    let t = TileAt::<TileE>::new_unvalidated(addr);
    put(e, 0, t.try_desc(i, j, stage));
    put(e, 1, t.try_address(i, j, stage));
    put(e, 2, TileAt::<TileE>::place(addr));
    put(e, 3, TileE::try_offset(i, j));
    put(e, 4, TileE::try_desc(addr, i, j, stage));
    put(e, 5, SCALE.copy_desc(addr, i, j, stage));
    let te = tmem_err.cast::<TmemError>();
    put(te, 0, ACCUM.try_address(i, j));
    put(te, 1, MAP.try_reg_element(i, j));
}
