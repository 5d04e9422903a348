//! For `smemdesc header --from` ([`crate::header_src`]): `#[smem_epilogue_tile(...)]` (the C/D
//! tile a `wgmma` accumulator is staged in, the core's [`EpilogueTile`]) read by the macro's
//! grammar (`smemdesc_grammar::epilogue`, which builds it with the core), and its numbers as
//! header items: the ones the macro emits as constants plus the
//! TMA store's boxes and tensor-map codes.

use super::header::{item, scalar, Item, Val};
use super::header_args::{refusal, tokens};
use super::header_loc::Src;
use crate::CliError;
use smemdesc_core::epilogue::{CMajor, EpiWriter, EpilogueTile};
use smemdesc_core::Arch;

/// The key spelling of a writer (as declared).
fn writer_name(w: EpiWriter) -> String {
    match w {
        EpiWriter::Stmatrix { num, trans } => {
            format!("stmatrix_x{num}{}", if trans { "_trans" } else { "" })
        }
        EpiWriter::StShared { bytes } => format!("st_shared_{bytes}"),
    }
}

/// `#[smem_epilogue_tile(...)]`: the tile the core builds, refused as the macro refuses it.
pub(crate) fn epilogue_decl(src: &Src, attr: &syn::Attribute) -> Result<EpilogueTile, CliError> {
    use syn::spanned::Spanned;
    smemdesc_grammar::epilogue::parse(tokens(src, attr)?, attr.span()).map_err(|e| refusal(src, &e))
}

/// The items of an epilogue tile: sizes, the writer and reader, the TMA store's box and map codes.
pub(crate) fn epilogue_items(t: &EpilogueTile) -> Result<(String, Vec<Item>), CliError> {
    let s = t.spec();
    let l = t.layout();
    let [bi, br] = t.tma_box_dim();
    let boxes = t.tma_boxes();
    // The data type and swizzle codes do not depend on the global extents (one tile's here).
    let map = t.tensor_map(Arch::Sm90, s.m.into(), s.n.into());
    let arr = |v: Vec<u64>, dims: Vec<usize>| Val::Array(v, dims, false);
    // One warpgroup per 64 rows of the tile (EpilogueSpec: M a multiple of 64).
    let wgs = s.m / 64;
    let writer_offsets: Vec<u64> = (0..wgs)
        .flat_map(|wg| {
            (0..4).flat_map(move |w| {
                (0..t.instructions())
                    .flat_map(move |i| (0..32).map(move |l| t.writer_offset(wg, w, i, l).into()))
            })
        })
        .collect();
    let reader = s.reader.name();
    let items = vec![
        scalar("M", "unsigned int", s.m.into(), "tile rows (M), elements"),
        scalar("N", "unsigned int", s.n.into(), "tile columns (N), elements"),
        scalar("WGMMA_N", "unsigned int", s.wgmma_n.into(), "the accumulator's N (m64nNk*)"),
        scalar("MAJOR_M", "unsigned int", u64::from(s.major == CMajor::M), "0: N contiguous (row-major C), 1: M contiguous"),
        scalar("ELEM_BYTES", "unsigned int", (s.dtype.bits() / 8).into(), format!("bytes per {} element", s.dtype.name())),
        scalar("STAGES", "unsigned int", s.stages.into(), "stages (buffers)"),
        scalar("STAGE_BYTES", "unsigned int", t.stage_bytes().into(), "bytes of one stage"),
        scalar("BYTES", "unsigned int", (s.stages * t.stage_bytes()).into(), "bytes of all stages (its #[smem_storage] footprint)"),
        scalar("ALIGN", "unsigned int", t.align().into(), "alignment of the tile's base, bytes"),
        scalar("ROWS", "unsigned int", l.rows.into(), "stored rows per stage"),
        scalar("ROW_BYTES", "unsigned int", l.row_bytes.into(), "bytes per stored row"),
        item("SWIZZLE", "char", Val::Str(t.swizzle().name().to_owned()), "the tile's swizzle (picked or given; the TMA store map's)"),
        item("WRITER", "char", Val::Str(writer_name(s.writer)), "the warp instruction that writes the accumulator"),
        scalar("INSTRUCTIONS", "unsigned int", t.instructions().into(), "writer instructions per warp per chunk"),
        scalar("CHUNKS", "unsigned int", t.chunks().into(), "chunks of the accumulator per tile (WGMMA_N / N)"),
        item(
            "WRITER_OFFSETS",
            "unsigned int",
            arr(writer_offsets, vec![wgs as usize, 4, t.instructions() as usize, 32]),
            "byte offset from the stage base that lane [lane] of warp [warp] of warpgroup [wg] passes to writer instruction [instr]",
        ),
        item("READER", "char", Val::Str(reader.to_owned()), "who reads the tile back out"),
        item("TMA_BOX_DIM", "unsigned int", arr(vec![bi.into(), br.into()], vec![2]), "the TMA store's boxDim {inner, rows}"),
        scalar("TMA_BOXES", "unsigned int", boxes.into(), "TMA store boxes per stage"),
        item("TMA_BOX_OFFSETS", "unsigned int", arr((0..boxes).map(|b| t.tma_box(b).0.into()).collect(), vec![boxes as usize]), "byte offset of each box from the stage base"),
        item(
            "TMA_BOX_COORDS",
            "unsigned int",
            arr((0..boxes).flat_map(|b| { let (_, (i, r)) = t.tma_box(b); [i.into(), r.into()] }).collect(), vec![boxes as usize, 2]),
            "tile coordinates {inner0, row0} of each box (add the tile's origin in the map's order)",
        ),
        scalar("TMAP_DATA_TYPE", "unsigned int", map.data_type.value().into(), format!("cuTensorMapEncodeTiled tensorDataType: {}", map.data_type.name())),
        scalar("TMAP_SWIZZLE", "unsigned int", map.swizzle.value().into(), map.swizzle.name()),
    ];
    let summary = format!(
        "C/D tile {}x{} {} ({}-major) of an m64n{} accumulator, {} stage(s) of {} B, swizzle {}, writer {} x {}, reader {reader}",
        s.m,
        s.n,
        s.dtype.name(),
        s.major.name(),
        s.wgmma_n,
        s.stages,
        t.stage_bytes(),
        t.swizzle().name(),
        t.instructions(),
        writer_name(s.writer),
    );
    Ok((summary, items))
}
