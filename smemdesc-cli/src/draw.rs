//! `smemdesc draw`: a picture of one stage of a tile, as SVG or terminal text.
//!
//! The picture is a grid of 16-byte chunks in logical coordinates: MN down, K across. K-major tiles
//! have one row per MN element and one column per 16 bytes of K; MN-major tiles one row per 16 bytes
//! of MN and one column per K element. Each chunk's SMEM address comes from the core
//! ([`TileLayout::byte_offset`], swizzle included); its colour is the swizzle atom it lies in
//! (atoms are stored in contiguous blocks of `atom_bytes`), its label the bank group
//! `(address / 16) % 8`, i.e. which 16-byte group of the 128-byte bank line it occupies.

use smemdesc_core::{Major, Placement, TileLayout, TilePlan};
use std::fmt::Write as _;

/// One stage of a tile as a grid of 16-byte chunks.
pub struct ChunkGrid<'a> {
    plan: &'a TilePlan,
    base: u32,
    placement: Placement,
    /// Elements per grid row step along MN (1 for K-major, 16 B worth for MN-major).
    mn_step: u32,
    /// Elements per grid column step along K (16 B worth for K-major, 1 for MN-major).
    k_step: u32,
    /// Grid rows.
    pub rows: u32,
    /// Grid columns.
    pub cols: u32,
}

/// A rectangle in grid cells: `(row, col, rows, cols)`.
pub type CellRect = (u32, u32, u32, u32);

impl<'a> ChunkGrid<'a> {
    /// The grid of `plan`'s tile placed at `base` under `placement`.
    pub fn new(plan: &'a TilePlan, base: u32, placement: Placement) -> ChunkGrid<'a> {
        let spec = plan.tile.spec();
        // Values per 16-byte chunk in the tile's SMEM form (32 for packed fp4).
        let t = spec.form.values_per_16_bytes(spec.dtype);
        let (mn_step, k_step) = match spec.major {
            Major::K => (1, t),
            Major::Mn => (t, 1),
        };
        ChunkGrid {
            plan,
            base,
            placement,
            mn_step,
            k_step,
            rows: spec.tile_mn / mn_step,
            cols: spec.tile_k / k_step,
        }
    }

    fn tile(&self) -> &TileLayout {
        &self.plan.tile
    }

    /// Unswizzled byte offset of the chunk at grid cell `(row, col)` in the tile (stage 0).
    fn offset(&self, row: u32, col: u32) -> u32 {
        let t = self.tile();
        t.layout().eval(row * self.mn_step, col * self.k_step) * t.spec().dtype.smem_bytes()
    }

    /// SMEM byte address of the chunk at grid cell `(row, col)` (stage 0), where the placement
    /// model's writer puts it.
    pub fn address(&self, row: u32, col: u32) -> u32 {
        self.placement
            .written_address(self.tile().swizzle_mode(), self.base, self.offset(row, col))
    }

    /// Bank group of a cell: which 16-byte group of the 128-byte bank line it occupies.
    pub fn bank_group(&self, row: u32, col: u32) -> u32 {
        (self.address(row, col) / 16) % 8
    }

    /// Index of the swizzle atom (in SMEM order) holding a cell.
    pub fn atom_index(&self, row: u32, col: u32) -> u32 {
        self.offset(row, col) / self.tile().swizzle_mode().atom_bytes()
    }

    /// Cell rectangle of an element range `mn0..mn0+mn_len × k0..k0+k_len`.
    pub fn rect(&self, mn0: u32, k0: u32, mn_len: u32, k_len: u32) -> CellRect {
        (
            mn0 / self.mn_step,
            k0 / self.k_step,
            mn_len.div_ceil(self.mn_step),
            k_len.div_ceil(self.k_step),
        )
    }

    /// Cell rectangles of every MMA subtile, `(i, j, rect)`.
    pub fn mma_rects(&self) -> Vec<(u32, u32, CellRect)> {
        let t = self.tile();
        let (mn, k) = (t.spec().mma_mn, t.mma_k());
        let mut v = Vec::new();
        for i in 0..t.mmas_mn() {
            for j in 0..t.mmas_k() {
                v.push((i, j, self.rect(i * mn, j * k, mn, k)));
            }
        }
        v
    }

    /// Cell rectangles of every TMA box of one stage, `(b, rect)`.
    pub fn tma_rects(&self) -> Vec<(u32, CellRect)> {
        let tma = &self.plan.tma;
        let major = self.tile().spec().major;
        (0..tma.boxes)
            .map(|b| {
                let (mn0, k0) = self.plan.box_coord(b);
                let (mn_len, k_len) = match major {
                    Major::K => (tma.box_rows, tma.box_inner),
                    Major::Mn => (tma.box_inner, tma.box_rows),
                };
                (b, self.rect(mn0, k0, mn_len, k_len))
            })
            .collect()
    }

    /// Grid cells spanned by one swizzle atom `(rows, cols)`.
    pub fn atom_cells(&self) -> (u32, u32) {
        let a = self.tile().atom();
        // The atom's K extent is in layout cells; a packed fp4 cell holds 2 values.
        let k_values = a.k_extent() * self.tile().spec().form.values_per_cell();
        (a.mn_extent() / self.mn_step, k_values / self.k_step)
    }
}

/// A light fill colour for atom `atom` as `#rrggbb` (golden-angle hue steps keep neighbouring
/// atoms distinct; hex rather than `hsl()` so every SVG renderer shows it).
fn atom_colour(atom: u32) -> String {
    let h = ((atom * 137) % 360) as f64 / 60.0;
    let (s, l) = (0.70, 0.82);
    let c = (1.0 - (2.0 * l - 1.0f64).abs()) * s;
    let x = c * (1.0 - (h % 2.0 - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let to = |v: f64| ((v + m) * 255.0).round() as u8;
    format!("#{:02x}{:02x}{:02x}", to(r), to(g), to(b))
}

fn title(plan: &TilePlan, base: u32) -> String {
    let s = plan.tile.spec();
    format!(
        "{} {} {} {}-major {}x{} swizzle {} {} | mma m{}n{}k{} | TMA {} boxes {}x{} | base {:#x}",
        s.arch.name(),
        plan.decl.operand.name(),
        s.dtype.name(),
        s.major.name(),
        s.tile_mn,
        s.tile_k,
        plan.tile.swizzle_mode().name(),
        s.order.name(),
        plan.mma.m,
        plan.mma.n,
        plan.mma.k,
        plan.tma.boxes,
        plan.tma.box_rows,
        plan.tma.box_inner,
        base
    )
}

/// The SVG picture of stage 0: chunks coloured by atom and labelled with their bank group, MMA
/// subtiles outlined (`<rect class="mma">`), TMA boxes marked (`<rect class="tma">`).
pub fn svg(plan: &TilePlan, base: u32, placement: Placement) -> String {
    let g = ChunkGrid::new(plan, base, placement);
    let (cw, ch) = (32u32, 11u32);
    let (left, top) = (48u32, 78u32);
    let width = (left + g.cols * cw + 20).max(720);
    let height = top + g.rows * ch + 20;
    let spec = plan.tile.spec();
    let (row_unit, col_unit) = match spec.major {
        Major::K => ("MN row", "16 B of K"),
        Major::Mn => ("16 B of MN", "K row"),
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="monospace">"#
    );
    let _ = writeln!(
        s,
        r#"<style>.chunk{{stroke:#fff;stroke-width:0.5}} .bank{{font-size:8px;text-anchor:middle;dominant-baseline:central;fill:#333}} .mma{{fill:none;stroke:#c00;stroke-width:2}} .tma{{fill:none;stroke:#06c;stroke-width:1.5;stroke-dasharray:5,3}} .atom{{fill:none;stroke:#666;stroke-width:0.8}} .axis{{font-size:10px;fill:#333}}</style>"#
    );
    let _ = writeln!(
        s,
        r#"<text class="axis" x="4" y="16" font-size="11">{}</text>"#,
        xml_escape(&title(plan, base))
    );
    let _ = writeln!(
        s,
        r#"<text class="axis" x="4" y="32">cells: {row_unit} (down) x {col_unit} (across); colour = swizzle atom;</text>"#
    );
    let _ = writeln!(
        s,
        r#"<text class="axis" x="4" y="46">number = bank group (addr/16)%8; red = MMA subtile; dashed blue = TMA box</text>"#
    );
    // Column headers (first K element of the column) and row headers.
    for c in 0..g.cols {
        if c % 4 == 0 {
            let _ = writeln!(
                s,
                r#"<text class="axis" x="{}" y="{}">{}</text>"#,
                left + c * cw + 2,
                top - 6,
                c * g.k_step
            );
        }
    }
    for r in 0..g.rows {
        if r % 8 == 0 {
            let _ = writeln!(
                s,
                r#"<text class="axis" x="4" y="{}">{}</text>"#,
                top + r * ch + 10,
                r * g.mn_step
            );
        }
    }
    let _ = writeln!(s, r#"<g id="chunks">"#);
    for r in 0..g.rows {
        for c in 0..g.cols {
            let (x, y) = (left + c * cw, top + r * ch);
            let _ = writeln!(
                s,
                r#"<rect class="chunk" x="{x}" y="{y}" width="{cw}" height="{ch}" fill="{}"/><text class="bank" x="{}" y="{}">{}</text>"#,
                atom_colour(g.atom_index(r, c)),
                x + cw / 2,
                y + ch / 2,
                g.bank_group(r, c)
            );
        }
    }
    let _ = writeln!(s, "</g>");
    // Atom outlines in logical coordinates (each atom is a contiguous block of SMEM).
    let (ar, ac) = g.atom_cells();
    let _ = writeln!(s, r#"<g id="atoms">"#);
    for r in (0..g.rows).step_by(ar.max(1) as usize) {
        for c in (0..g.cols).step_by(ac.max(1) as usize) {
            let _ = writeln!(
                s,
                r#"<rect class="atom" x="{}" y="{}" width="{}" height="{}"/>"#,
                left + c * cw,
                top + r * ch,
                ac * cw,
                ar * ch
            );
        }
    }
    let _ = writeln!(s, "</g>");
    let _ = writeln!(s, r#"<g id="mma">"#);
    for (i, j, (r, c, nr, nc)) in g.mma_rects() {
        let _ = writeln!(
            s,
            r#"<rect class="mma" x="{}" y="{}" width="{}" height="{}"><title>MMA subtile ({i}, {j}) start +{} B</title></rect>"#,
            left + c * cw,
            top + r * ch,
            nc * cw,
            nr * ch,
            plan.tile.subtile_offset_bytes(i, j)
        );
    }
    let _ = writeln!(s, "</g>");
    let _ = writeln!(s, r#"<g id="tma">"#);
    for (b, (r, c, nr, nc)) in g.tma_rects() {
        let _ = writeln!(
            s,
            r#"<rect class="tma" x="{}" y="{}" width="{}" height="{}"><title>TMA box {b} at +{} B</title></rect>"#,
            left + c * cw + 3,
            top + r * ch + 3,
            (nc * cw).saturating_sub(6),
            (nr * ch).saturating_sub(6),
            plan.box_offset(b)
        );
    }
    let _ = writeln!(s, "</g>");
    let _ = writeln!(s, "</svg>");
    s
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Terminal rendering of the first atoms (up to 2 x 2) of stage 0: each cell is the chunk's bank
/// group followed by a letter naming its swizzle atom.
pub fn ascii(plan: &TilePlan, base: u32, placement: Placement) -> String {
    let g = ChunkGrid::new(plan, base, placement);
    let (ar, ac) = g.atom_cells();
    let rows = g.rows.min(2 * ar);
    let cols = g.cols.min(2 * ac);
    let spec = plan.tile.spec();
    let mut s = String::new();
    let _ = writeln!(s, "{}", title(plan, base));
    let (row_unit, col_unit) = match spec.major {
        Major::K => ("MN row", "16 B chunk of K (first K element shown)"),
        Major::Mn => ("16 B chunk of MN (first MN element shown)", "K row"),
    };
    let _ = writeln!(
        s,
        "rows: {row_unit}; columns: {col_unit}; cell = bank group (addr/16)%8 + atom letter"
    );
    let _ = writeln!(
        s,
        "showing {rows} of {} rows x {cols} of {} columns (atom = {ar} x {ac} cells; use --svg FILE for the whole stage with MMA and TMA outlines)",
        g.rows, g.cols
    );
    let mut header = format!("{:>6} ", "");
    for c in 0..cols {
        if c > 0 && c % ac == 0 {
            header.push('|');
        }
        let _ = write!(header, "{:>4}", c * g.k_step);
    }
    let _ = writeln!(s, "{header}");
    for r in 0..rows {
        if r > 0 && r % ar == 0 {
            let _ = writeln!(s, "{:>6} {}", "", "-".repeat(header.len() - 7));
        }
        let mut line = format!("{:>6} ", r * g.mn_step);
        for c in 0..cols {
            if c > 0 && c % ac == 0 {
                line.push('|');
            }
            let letter = (b'a' + (g.atom_index(r, c) % 26) as u8) as char;
            let _ = write!(line, "  {}{}", g.bank_group(r, c), letter);
        }
        let _ = writeln!(s, "{line}");
    }
    s
}
