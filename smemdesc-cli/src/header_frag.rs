//! For `smemdesc header --from` ([`crate::header_src`]): `#[smem_fragment_tile(...)]` (an
//! `mma.sync` operand tile read with `ldmatrix`, the core's [`LdmatrixTile`]) read with the
//! macro's keys and spellings and checked as the macro checks it ([`MmaSync::with_kind`],
//! [`LdmatrixTile::new`], the `conflict_free` and TMA-writer checks), and its numbers as header
//! items: the macro's constants plus the per-lane `ldmatrix` (and writer) byte offsets.

use super::header::{item, scalar, Item, Val};
use super::header_epi::parse_swizzle;
use super::header_keyed::Keyed;
use super::header_loc::Src;
use crate::CliError;
use smemdesc_core::fragment::{
    FragError, FragOperand, LdmatrixTile, MmaSync, ScaleType, ScaleVec, SyncArch, SyncKind,
    SyncShape, TileError, Writer,
};
use smemdesc_core::{ElementType, Major, FRAG_KEYS};

/// A checked fragment tile: the core's tile, its operand, matrices per instruction, writer.
pub(crate) struct FragSrc {
    tile: LdmatrixTile,
    mma: MmaSync,
    op: FragOperand,
    major: Major,
    mn: u32,
    k: u32,
    num: u32,
    writer: Option<Writer>,
}

/// `#[smem_fragment_tile(...)]` on struct `name`, checked as the macro checks it.
pub(crate) fn fragment_decl(
    src: &Src,
    attr: &syn::Attribute,
    name: &syn::Ident,
) -> Result<FragSrc, CliError> {
    let k = Keyed::new(src, attr, name, "smem_fragment_tile", FRAG_KEYS)?;
    let arch = k.need("arch", SyncArch::from_name)?;
    let shape = k.need("mma", SyncShape::from_name)?;
    let dtype = k.need("dtype", ElementType::from_name)?;
    let kind = k.word("kind", SyncKind::from_name)?;
    let op = k.need("operand", |s| match s {
        "A" => Some(FragOperand::A),
        "B" => Some(FragOperand::B),
        "C" | "D" => Some(FragOperand::C),
        _ => None,
    })?;
    let major = k.word("major", Major::from_name)?.unwrap_or(Major::K);
    let (mn, kk) = k.need_pair("tile")?;
    let reader = k.word("reader", smemdesc_grammar::words::fragment_reader)?;
    let writer = k.word("writer", smemdesc_grammar::words::fragment_writer)?;
    let swizzle = k.word("swizzle", parse_swizzle)?.flatten();
    let cf = k.word("conflict_free", |s| match s {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    })?;
    let kind = kind.unwrap_or(SyncKind::Plain);
    let scale = match (
        k.word("scale_vec", ScaleVec::from_name)?,
        k.word("stype", ScaleType::from_name)?,
    ) {
        (Some(v), Some(t)) => Some((v, t)),
        (None, None) => None,
        (Some(_), None) => {
            return Err(k.error(
                &["scale_vec"],
                "scale_vec needs its scale type: stype = ue8m0 | ue4m3",
            ))
        }
        (None, Some(_)) => {
            return Err(k.error(
                &["stype"],
                "stype needs its scale vector: scale_vec = 1X | 2X | 4X",
            ))
        }
    };
    let mma = MmaSync::with_kind(arch, shape, kind, dtype, dtype, scale).map_err(|e| {
        let keys: &[&str] = match e {
            FragError::IllegalArch { .. } => &["arch"],
            FragError::IllegalScale { .. } => &["scale_vec", "kind"],
            FragError::IllegalType { .. } => &["dtype"],
        };
        k.error(keys, e)
    })?;
    let is_d = matches!(op, FragOperand::C);
    if let Some((_, stm)) = reader {
        if stm != is_d {
            return Err(k.error(
                &["reader"],
                if is_d {
                    "operand D (results) is written with stmatrix: reader = stmatrix_x1 | stmatrix_x2 | stmatrix_x4"
                } else {
                    "A and B are read with ldmatrix: reader = ldmatrix_x1 | ldmatrix_x2 | ldmatrix_x4"
                },
            ));
        }
    }
    let num = reader.map_or(4, |r| r.0);
    let tile = LdmatrixTile::new(mma, op, major, mn, kk, swizzle, num).map_err(|e| {
        let keys: &[&str] = match e {
            TileError::TransNeeds16Bit { .. } => &["major"],
            TileError::MatrixCount { .. } => &["reader"],
            TileError::Swizzle { .. } => &["swizzle"],
            _ => &["tile"],
        };
        k.error(keys, e)
    })?;
    if cf == Some(true) {
        let checked = tile
            .check_reader()
            .and(writer.map_or(Ok(()), |w| tile.check_writer(w)));
        if let Err(e) = checked {
            let l = tile.layout();
            return Err(k.error(
                &["conflict_free"],
                format!(
                    "conflict_free: {e} (layout: {} rows x {} B, swizzle {})",
                    l.rows,
                    l.row_bytes,
                    l.swizzle.name()
                ),
            ));
        }
    }
    // As the macro: a TMA writer must be able to write the layout (a swizzle mode's, as is).
    if let Some(Writer::Tma) = writer {
        tile.check_writer(Writer::Tma)
            .map_err(|e| k.error(&["writer"], e))?;
    }
    Ok(FragSrc {
        tile,
        mma,
        op,
        major,
        mn,
        k: kk,
        num,
        writer,
    })
}

/// The items of a fragment tile: sizes, layout, the `ldmatrix` (`stmatrix`) mnemonic and every
/// lane's byte offset per instruction, and the writer's offsets when a writer is declared.
pub(crate) fn fragment_items(d: &FragSrc) -> (String, Vec<Item>) {
    let t = &d.tile;
    let l = t.layout();
    let instrs = t.instructions();
    let is_d = matches!(d.op, FragOperand::C);
    let mnemonic = format!(
        "{}.sync.aligned.m8n8.x{}{}.shared.b16",
        if is_d { "stmatrix" } else { "ldmatrix" },
        d.num,
        if t.trans() { ".trans" } else { "" }
    );
    let offsets = (0..instrs)
        .flat_map(|i| (0..32).map(move |lane| u64::from(t.address(i, lane))))
        .collect();
    let mut items = vec![
        item("MMA", "char", Val::Str(format!("mma.sync.aligned.{}", d.mma.shape.name())), format!("the instruction shape ({})", d.mma.arch.name())),
        item("OPERAND", "char", Val::Str(if is_d { "D" } else { d.op.name() }.to_owned()), "the operand the tile holds"),
        scalar("MAJOR_MN", "unsigned int", u64::from(d.major == Major::Mn), "0: K-major, 1: MN-major (read with .trans)"),
        scalar("TILE_MN", "unsigned int", d.mn.into(), "tile extent along M (A, D) or N (B), elements"),
        scalar("TILE_K", "unsigned int", d.k.into(), "tile extent along K (N for D), elements"),
        scalar("BYTES", "unsigned int", l.bytes().into(), "bytes of the tile"),
        scalar("ROWS", "unsigned int", l.rows.into(), "stored rows"),
        scalar("ROW_BYTES", "unsigned int", l.row_bytes.into(), "bytes per stored row (the pitch)"),
        item("SWIZZLE", "char", Val::Str(l.swizzle.name().to_owned()), "the swizzle (chosen or given)"),
        scalar("MATRICES", "unsigned int", d.num.into(), "8x8 matrices per instruction (.x1, .x2, .x4)"),
        scalar("INSTRUCTIONS", "unsigned int", instrs.into(), "ldmatrix (stmatrix) instructions for the whole tile (k-step major)"),
        scalar("KSTEPS", "unsigned int", t.ksteps().into(), "k-steps of the tile"),
        item("LDMATRIX", "char", Val::Str(mnemonic.clone()), "the ldmatrix mnemonic (stmatrix for a D tile)"),
        scalar("READER_CONFLICT_FREE", "unsigned int", u64::from(t.check_reader().is_ok()), "1: every ldmatrix (stmatrix) of the tile is conflict-free per the bank model"),
        item("LDMATRIX_OFFSETS", "unsigned int", Val::Array(offsets, vec![instrs as usize, 32], false), "byte offset from the 1024-B-aligned tile base that lane [lane] passes to instruction [instr]"),
    ];
    if let Some(w) = d.writer {
        let issues = t.writer_issues(w).unwrap_or(0);
        items.push(item(
            "WRITER",
            "char",
            Val::Str(w.name().to_owned()),
            "the writer",
        ));
        items.push(scalar(
            "WRITER_ISSUES",
            "unsigned int",
            issues.into(),
            "warp issues the writer needs for the tile (0 for TMA)",
        ));
        if issues > 0 {
            let offs = (0..issues)
                .flat_map(|i| (0..32).map(move |lane| u64::from(t.writer_address(w, i, lane))))
                .collect();
            items.push(item(
                "WRITER_OFFSETS",
                "unsigned int",
                Val::Array(offs, vec![issues as usize, 32], false),
                "byte offset lane [lane] writes in writer issue [issue] (the tile in row order)",
            ));
        }
    }
    let summary = format!(
        "ldmatrix operand tile: {} {} of mma.sync.{} ({}), {}x{} {}-major, {} rows x {} B, swizzle {}; {instrs} x {mnemonic}",
        if is_d { "D" } else { d.op.name() },
        d.mma.a.name(),
        d.mma.shape.name(),
        d.mma.arch.name(),
        d.mn,
        d.k,
        if d.major == Major::K { "K" } else { "MN" },
        l.rows,
        l.row_bytes,
        l.swizzle.name()
    );
    (summary, items)
}
