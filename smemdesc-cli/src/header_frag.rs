//! For `smemdesc header --from` ([`crate::header_src`]): `#[smem_fragment_tile(...)]` (an
//! `mma.sync` operand tile read with `ldmatrix`, the core's `LdmatrixTile`) read and checked by
//! the macro's grammar (`smemdesc_grammar::fragment`), and its numbers as header items: the
//! macro's constants plus the per-lane `ldmatrix` (and writer) byte offsets.

use super::header::{item, scalar, Item, Val};
use super::header_args::{refusal, tokens};
use super::header_loc::Src;
use crate::CliError;
use smemdesc_core::fragment::FragOperand;
use smemdesc_core::Major;

/// A checked fragment tile: the grammar's declaration (the core's tile, its operand, matrices
/// per instruction, writer).
pub(crate) use smemdesc_grammar::fragment::FragDecl as FragSrc;

/// `#[smem_fragment_tile(...)]`, checked and refused as the macro checks and refuses it.
pub(crate) fn fragment_decl(src: &Src, attr: &syn::Attribute) -> Result<FragSrc, CliError> {
    use syn::spanned::Spanned;
    smemdesc_grammar::fragment::parse(tokens(src, attr)?, attr.span()).map_err(|e| refusal(src, &e))
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
