//! Writes the numbers of smemdesc's register-fragment path for the H100 check in
//! `gpu/fragments/`: `fragments_gen.h` (per class: the `ldmatrix` row offsets and destination
//! registers of A and B, the cp.async writer offsets, the C/D fragment map; per bank pattern:
//! lane addresses), `fragments_pred.json` (the bank model's predictions per pattern) and
//! `sm120_*.ptx` (one block-scaled / f8f6f4 `mma.sync` per file, mnemonic from the core).
//!
//! `cargo run --example fragment_header -- gpu/fragments`

use smemdesc::fragment::*;
use smemdesc::{ElementType as T, Major, SwizzleMode};
use std::fmt::Write as _;

struct Class {
    name: &'static str,
    kind: u32, // kernel's MMA selector
    shape: SyncShape,
    dt: T,
    a: (Major, u32, u32, u32), // major, M, K, x
    b: (Major, u32, u32),      // major, N, x
    w: Writer,                 // who fills A and B
    d: (Major, u32),           // the f16 result tile (stmatrix): major, x
}

/// A `__device__` table (CUDA allows no reference to a constexpr array in device code) in
/// `pre`, and an accessor `name(i, lane)` in the struct `s`.
fn table2(pre: &mut String, s: &mut String, owner: &str, name: &str, rows: &[[u32; 32]]) {
    let _ = writeln!(
        pre,
        "__device__ const unsigned {owner}_{name}[{}][32] = {{",
        rows.len()
    );
    for r in rows {
        let v: Vec<String> = r.iter().map(u32::to_string).collect();
        let _ = writeln!(pre, "  {{{}}},", v.join(","));
    }
    pre.push_str("};\n");
    let _ = writeln!(
        s,
        "  static __device__ __forceinline__ unsigned {}(int i, int lane) {{ return {owner}_{name}[i][lane]; }}",
        name.to_lowercase()
    );
}

fn tile_items(
    pre: &mut String,
    s: &mut String,
    owner: &str,
    p: &str,
    t: &LdmatrixTile,
    x: u32,
    w: Option<Writer>,
) {
    let l = t.layout();
    let n = t.instructions();
    let _ = writeln!(
        s,
        "  static constexpr int {p}_INSTRS = {n}, {p}_X = {x}, {p}_TRANS = {}, {p}_BYTES = {}, {p}_ROWS = {}, {p}_ROW_BYTES = {}; // swizzle {}",
        t.trans() as u32,
        l.bytes(),
        l.rows,
        l.row_bytes,
        l.swizzle.name()
    );
    let rows: Vec<[u32; 32]> = (0..n).map(|i| t.addresses(i)).collect();
    table2(pre, s, owner, &format!("{p}_ADDR"), &rows);
    let _ = write!(
        s,
        "  static constexpr int {}_dest(int i, int d, int w) {{ constexpr unsigned char t[{n}][4][3] = {{",
        p.to_lowercase()
    );
    for i in 0..n {
        s.push('{');
        for d in 0..4 {
            let (k, f, r) = if d < x { t.dest(i, d) } else { (0, 0, 0) };
            let _ = write!(s, "{{{k},{f},{r}}},");
        }
        s.push_str("},");
    }
    s.push_str("}; return t[i][d][w]; }\n");
    let Some(w) = w else { return };
    let issues = t.writer_issues(w).unwrap();
    let rows: Vec<[u32; 32]> = (0..issues)
        .map(|i| std::array::from_fn(|lane| t.writer_address(w, i, lane as u32)))
        .collect();
    let _ = writeln!(
        s,
        "  static constexpr int {p}_WISSUES = {issues}, {p}_WBYTES = {}, {p}_WCPASYNC = {};",
        w.bytes(),
        matches!(w, Writer::CpAsync16) as u32
    );
    table2(pre, s, owner, &format!("{p}_WOFF"), &rows);
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "gpu/fragments".to_string());
    let classes = [
        Class {
            name: "bf16_k16_AK_BK",
            kind: 0,
            shape: SyncShape::M16N8K16,
            dt: T::BF16,
            a: (Major::K, 64, 64, 4),
            b: (Major::K, 32, 4),
            w: Writer::CpAsync16,
            d: (Major::K, 4),
        },
        Class {
            name: "f16_k16_AMN_BMN",
            kind: 1,
            shape: SyncShape::M16N8K16,
            dt: T::F16,
            a: (Major::Mn, 64, 32, 4),
            b: (Major::Mn, 32, 4),
            w: Writer::CpAsync16,
            d: (Major::Mn, 4),
        },
        Class {
            name: "f16_k16_AK_BMN_x2",
            kind: 1,
            shape: SyncShape::M16N8K16,
            dt: T::F16,
            a: (Major::K, 32, 32, 2),
            b: (Major::Mn, 16, 2),
            w: Writer::StShared { bytes: 16 },
            d: (Major::K, 2),
        },
        Class {
            name: "s8_k32_AK_BK",
            kind: 2,
            shape: SyncShape::M16N8K32,
            dt: T::S8,
            a: (Major::K, 32, 128, 4),
            b: (Major::K, 16, 4),
            w: Writer::StShared { bytes: 4 },
            d: (Major::K, 4),
        },
        Class {
            name: "e4m3_k32_AK_BK",
            kind: 3,
            shape: SyncShape::M16N8K32,
            dt: T::E4M3,
            a: (Major::K, 32, 64, 4),
            b: (Major::K, 16, 4),
            w: Writer::StShared { bytes: 8 },
            d: (Major::Mn, 4),
        },
        Class {
            name: "tf32_k8_AK_BK",
            kind: 4,
            shape: SyncShape::M16N8K8,
            dt: T::TF32,
            a: (Major::K, 32, 32, 4),
            b: (Major::K, 16, 4),
            w: Writer::CpAsync16,
            d: (Major::K, 1),
        },
        Class {
            name: "f16_k8_AK_BK_x1",
            kind: 5,
            shape: SyncShape::M16N8K8,
            dt: T::F16,
            a: (Major::K, 16, 32, 2),
            b: (Major::K, 8, 1),
            w: Writer::CpAsync16,
            d: (Major::K, 2),
        },
        Class {
            name: "bf16_k16_AMN_BK",
            kind: 0,
            shape: SyncShape::M16N8K16,
            dt: T::BF16,
            a: (Major::Mn, 32, 64, 4),
            b: (Major::K, 32, 4),
            w: Writer::StShared { bytes: 16 },
            d: (Major::Mn, 2),
        },
        Class {
            name: "u8_k16_AK_BK_x2",
            kind: 6,
            shape: SyncShape::M16N8K16,
            dt: T::U8,
            a: (Major::K, 32, 32, 2),
            b: (Major::K, 16, 2),
            w: Writer::CpAsync16,
            d: (Major::K, 4),
        },
        Class {
            name: "e5m2_k32_AK_BK",
            kind: 7,
            shape: SyncShape::M16N8K32,
            dt: T::E5M2,
            a: (Major::K, 16, 64, 4),
            b: (Major::K, 16, 4),
            w: Writer::CpAsync16,
            d: (Major::K, 4),
        },
    ];
    let mut h = String::from("// Generated by `cargo run --example fragment_header` from smemdesc's core; do not edit.\n#pragma once\n\n");
    let mut names = vec![];
    for c in &classes {
        let m = MmaSync::new(SyncArch::Sm90, c.shape, c.dt).unwrap();
        let (am, mm, kk, ax) = c.a;
        let (bm, nn, bx) = c.b;
        let ta = LdmatrixTile::new(m, FragOperand::A, am, mm, kk, None, ax).unwrap();
        let tb = LdmatrixTile::new(m, FragOperand::B, bm, nn, kk, None, bx).unwrap();
        ta.check_reader().unwrap();
        tb.check_reader().unwrap();
        let mut body = String::new();
        let _ = writeln!(body, "struct {} {{", c.name);
        let _ = writeln!(
            body,
            "  static constexpr int KIND = {}, M = {mm}, N = {nn}, K = {kk}, MMA_K = {}, EB = {}, KSTEPS = {}, FA = {}, RA = {}, FB = {}, RB = {}, A_KMAJOR = {}, B_KMAJOR = {};",
            c.kind,
            c.shape.k(),
            m.reg_bits() / 8,
            ta.ksteps(),
            mm / 16,
            m.regs(FragOperand::A),
            nn / 8,
            m.regs(FragOperand::B),
            matches!(am, Major::K) as u32,
            matches!(bm, Major::K) as u32,
        );
        tile_items(&mut h, &mut body, c.name, "A", &ta, ax, Some(c.w));
        tile_items(&mut h, &mut body, c.name, "B", &tb, bx, Some(c.w));
        ta.check_writer(c.w).unwrap();
        tb.check_writer(c.w).unwrap();
        // the f16 result tile, written with stmatrix
        let (dm, dx) = c.d;
        let td = LdmatrixTile::new(m, FragOperand::C, dm, mm, nn, None, dx).unwrap();
        td.check_reader().unwrap();
        tile_items(&mut h, &mut body, c.name, "D", &td, dx, None);
        let offs: Vec<String> = (0..mm * nn)
            .map(|i| {
                let (r, col) = (i / nn, i % nn);
                let o = match dm {
                    Major::K => td.layout().offset(r, 2 * col),
                    Major::Mn => td.layout().offset(col, 2 * r),
                };
                o.to_string()
            })
            .collect();
        let _ = writeln!(
            h,
            "__device__ const unsigned {}_D_OFF[{}] = {{{}}};",
            c.name,
            mm * nn,
            offs.join(",")
        );
        let _ = writeln!(
            body,
            "  static __device__ __forceinline__ unsigned d_off(int i) {{ return {}_D_OFF[i]; }}",
            c.name
        );
        let mut cr = String::new();
        let mut cc = String::new();
        for lane in 0..32 {
            let v: Vec<(u32, u32)> = (0..4)
                .map(|e| m.coord(FragOperand::C, lane, e).unwrap())
                .collect();
            let _ = write!(cr, "{{{},{},{},{}}},", v[0].0, v[1].0, v[2].0, v[3].0);
            let _ = write!(cc, "{{{},{},{},{}}},", v[0].1, v[1].1, v[2].1, v[3].1);
        }
        let _ = writeln!(
            h,
            "__device__ const unsigned char {}_C_ROW[32][4] = {{{cr}}};",
            c.name
        );
        let _ = writeln!(
            h,
            "__device__ const unsigned char {}_C_COL[32][4] = {{{cc}}};",
            c.name
        );
        let _ = writeln!(body, "  static __device__ __forceinline__ int c_row(int lane, int e) {{ return {}_C_ROW[lane][e]; }}", c.name);
        let _ = writeln!(body, "  static __device__ __forceinline__ int c_col(int lane, int e) {{ return {}_C_COL[lane][e]; }}", c.name);
        body.push_str("};\n\n");
        h.push_str(&body);
        names.push(c.name);
    }
    let _ = writeln!(
        h,
        "#define FRAG_CLASSES(X) {}",
        names
            .iter()
            .map(|n| format!("X({n})"))
            .collect::<Vec<_>>()
            .join(" ")
    );

    // Bank patterns: (name, access, address rows, store)
    let m = MmaSync::new(SyncArch::Sm90, SyncShape::M16N8K16, T::BF16).unwrap();
    let chosen = LdmatrixTile::new(m, FragOperand::A, Major::K, 64, 64, None, 4).unwrap();
    let plain = LdmatrixTile::new(
        m,
        FragOperand::A,
        Major::K,
        64,
        64,
        Some(SwizzleMode::None),
        4,
    )
    .unwrap();
    let padded = plain.padded(16);
    let bt = LdmatrixTile::new(m, FragOperand::B, Major::Mn, 32, 32, None, 4).unwrap();
    let bt_plain = LdmatrixTile::new(
        m,
        FragOperand::B,
        Major::Mn,
        32,
        32,
        Some(SwizzleMode::None),
        4,
    )
    .unwrap();
    let rows_of = |t: &LdmatrixTile| -> Vec<[u32; 32]> {
        (0..t.instructions()).map(|i| t.addresses(i)).collect()
    };
    let writer_rows = |t: &LdmatrixTile, w: Writer| -> Vec<[u32; 32]> {
        (0..t.writer_issues(w).unwrap())
            .map(|i| std::array::from_fn(|l| t.writer_address(w, i, l as u32)))
            .collect()
    };
    let dt = LdmatrixTile::new(m, FragOperand::C, Major::K, 64, 32, None, 4).unwrap();
    let dt_plain = LdmatrixTile::new(
        m,
        FragOperand::C,
        Major::K,
        64,
        64,
        Some(SwizzleMode::None),
        4,
    )
    .unwrap();
    let dtt = LdmatrixTile::new(m, FragOperand::C, Major::Mn, 64, 32, None, 4).unwrap();
    let x4 = WarpAccess::Matrix {
        num: 4,
        store: false,
    };
    let s4 = WarpAccess::Matrix {
        num: 4,
        store: true,
    };
    let patterns: Vec<(&str, &str, WarpAccess, Vec<[u32; 32]>)> = vec![
        (
            "ldsm_x4_A_bf16_64x64_sw128",
            "ldmatrix.x4 (chosen 128B swizzle)",
            x4,
            rows_of(&chosen),
        ),
        (
            "ldsm_x4_A_bf16_64x64_none",
            "ldmatrix.x4 (unswizzled 128-B rows, control)",
            x4,
            rows_of(&plain),
        ),
        (
            "ldsm_x4_A_bf16_64x64_pad16",
            "ldmatrix.x4 (unswizzled, rows padded 16 B)",
            x4,
            rows_of(&padded),
        ),
        (
            "ldsm_x4_trans_B_bf16_32x32_chosen",
            "ldmatrix.x4.trans (chosen swizzle)",
            x4,
            rows_of(&bt),
        ),
        (
            "ldsm_x4_trans_B_bf16_32x32_none",
            "ldmatrix.x4.trans (unswizzled 64-B rows, control)",
            x4,
            rows_of(&bt_plain),
        ),
        (
            "stsm_x4_bf16_64x64_sw128",
            "stmatrix.x4 (chosen 128B swizzle)",
            s4,
            rows_of(&chosen),
        ),
        (
            "stsm_x4_bf16_64x64_none",
            "stmatrix.x4 (unswizzled 128-B rows, control)",
            s4,
            rows_of(&plain),
        ),
        (
            "stsm_x4_D_f16_64x32_chosen",
            "stmatrix.x4 of C/D fragments (chosen 64B swizzle)",
            s4,
            rows_of(&dt),
        ),
        (
            "stsm_x4_D_f16_64x64_none",
            "stmatrix.x4 of C/D fragments (unswizzled 128-B rows, control)",
            s4,
            rows_of(&dt_plain),
        ),
        (
            "stsm_x4_trans_D_f16_64x32_chosen",
            "stmatrix.x4.trans of C/D fragments, column-major (chosen swizzle)",
            s4,
            rows_of(&dtt),
        ),
        (
            "sts128_writer_A_sw128",
            "st.shared.v4 writer (row order, 128B swizzle)",
            WarpAccess::Vector { bytes: 16 },
            writer_rows(&chosen, Writer::StShared { bytes: 16 }),
        ),
        (
            "sts32_writer_A_sw128",
            "st.shared.b32 writer (row order, 128B swizzle)",
            WarpAccess::Vector { bytes: 4 },
            writer_rows(&chosen, Writer::StShared { bytes: 4 }),
        ),
        (
            "lds64_stride16",
            "ld.shared.v2.b32, lane l at 16 l (raw)",
            WarpAccess::Vector { bytes: 8 },
            vec![std::array::from_fn(|l| 16 * l as u32)],
        ),
        (
            "lds32_column_128B",
            "ld.shared.b32, lane l at 128 l (raw, control)",
            WarpAccess::Vector { bytes: 4 },
            vec![std::array::from_fn(|l| 128 * l as u32)],
        ),
        (
            "lds128_stride32",
            "ld.shared.v4.b32, lane l at 32 l (raw)",
            WarpAccess::Vector { bytes: 16 },
            vec![std::array::from_fn(|l| 32 * l as u32)],
        ),
    ];
    let mut json = String::from("{\"banks\": [\n");
    h.push_str("\n// Bank patterns: KIND 0 ldmatrix.x4, 1 ldmatrix.x4.trans, 2 stmatrix.x4, 3 st.v4, 4 st.b32, 5 ld.v2, 6 ld.b32, 7 ld.v4, 8 stmatrix.x4.trans\n");
    let mut pnames = vec![];
    for (i, (name, what, acc, rows)) in patterns.iter().enumerate() {
        let (mut wf, mut cf) = (0, 0);
        for r in rows {
            let rep = bank_report(*acc, r);
            wf += rep.wavefronts;
            cf += rep.conflicts();
        }
        let kind = match (*acc, name.contains("trans")) {
            (WarpAccess::Matrix { store: false, .. }, false) => 0,
            (WarpAccess::Matrix { store: false, .. }, true) => 1,
            (WarpAccess::Matrix { store: true, .. }, false) => 2,
            (WarpAccess::Matrix { store: true, .. }, true) => 8,
            (WarpAccess::Vector { bytes: 16 }, _) if name.starts_with("sts") => 3,
            (WarpAccess::Vector { bytes: 4 }, _) if name.starts_with("sts") => 4,
            (WarpAccess::Vector { bytes: 8 }, _) => 5,
            (WarpAccess::Vector { bytes: 4 }, _) => 6,
            _ => 7,
        };
        let mut body = format!(
            "struct P_{name} {{\n  static constexpr int KIND = {kind}, N = {};\n",
            rows.len()
        );
        table2(&mut h, &mut body, &format!("P_{name}"), "ADDR", rows);
        body.push_str("};\n");
        h.push_str(&body);
        pnames.push(format!("X(P_{name})"));
        let _ = write!(
            json,
            "{}  {{\"name\": \"{name}\", \"access\": \"{what}\", \"instructions\": {}, \"predicted_conflicts\": {cf}, \"predicted_wavefronts\": {wf}}}",
            if i > 0 { ",\n" } else { "" },
            rows.len()
        );
    }
    json.push_str("\n]}\n");
    let _ = writeln!(h, "#define BANK_PATTERNS(X) {}", pnames.join(" "));
    std::fs::write(format!("{dir}/fragments_gen.h"), h).unwrap();
    std::fs::write(format!("{dir}/fragments_pred.json"), json).unwrap();

    // sm120: one mma.sync per file, each form's mnemonic from the core.
    let sm120 = [
        (
            "mxf8f6f4_1x_e4m3",
            SyncShape::M16N8K32,
            SyncKind::Mxf8f6f4,
            T::E4M3,
            T::E4M3,
            None,
            "e4m3",
            "e4m3",
        ),
        (
            "mxf8f6f4_1x_e2m1_e3m2",
            SyncShape::M16N8K32,
            SyncKind::Mxf8f6f4,
            T::E2M1,
            T::E3M2,
            None,
            "e2m1",
            "e3m2",
        ),
        (
            "mxf4_2x",
            SyncShape::M16N8K64,
            SyncKind::Mxf4,
            T::E2M1,
            T::E2M1,
            None,
            "e2m1",
            "e2m1",
        ),
        (
            "mxf4nvf4_2x_ue8m0",
            SyncShape::M16N8K64,
            SyncKind::Mxf4Nvf4,
            T::E2M1,
            T::E2M1,
            Some((ScaleVec::X2, ScaleType::Ue8m0)),
            "e2m1",
            "e2m1",
        ),
        (
            "mxf4nvf4_4x_ue4m3",
            SyncShape::M16N8K64,
            SyncKind::Mxf4Nvf4,
            T::E2M1,
            T::E2M1,
            Some((ScaleVec::X4, ScaleType::Ue4m3)),
            "e2m1",
            "e2m1",
        ),
        (
            "f8f6f4_e2m3_e5m2",
            SyncShape::M16N8K32,
            SyncKind::F8f6f4,
            T::E2M3,
            T::E5M2,
            None,
            "e2m3",
            "e5m2",
        ),
    ];
    for (name, shape, kind, a, b, sv, an, bn) in sm120 {
        let m = MmaSync::with_kind(SyncArch::Sm120, shape, kind, a, b, sv).unwrap();
        let mut buf = [0u8; 96];
        let mn = m.mnemonic(&mut buf).to_string();
        let (ra, rb) = (m.regs(FragOperand::A), m.regs(FragOperand::B));
        let regs = |p: &str, n: u32| {
            (0..n)
                .map(|i| format!("%{p}{i}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let tail = match m.scale {
            Some((_, st)) => format!(".{}", st.name()),
            None => String::new(),
        };
        let scale_ops = if m.scale.is_some() {
            ", {%sf0}, {%bid, %tid}, {%sf1}, {%bid, %tid}"
        } else {
            ""
        };
        let ptx = format!(
            ".version 8.7\n.target sm_120a\n.address_size 64\n\n.visible .entry {name}(.param .u64 out)\n{{\n  .reg .b32 %a<{ra}>, %b<{rb}>, %sf<2>;\n  .reg .f32 %c<4>, %d<4>;\n  .reg .b16 %bid, %tid;\n  .reg .u64 %p;\n{}{}  mov.b32 %sf0, 127;\n  mov.b32 %sf1, 127;\n  mov.b16 %bid, 0;\n  mov.b16 %tid, 0;\n{}  {mn}.f32.{an}.{bn}.f32{tail} {{{}}}, {{{}}}, {{{}}}, {{{}}}{scale_ops};\n  ld.param.u64 %p, [out];\n  st.global.v4.f32 [%p], {{%d0, %d1, %d2, %d3}};\n  ret;\n}}\n",
            (0..ra).map(|i| format!("  mov.b32 %a{i}, 0x38383838;\n")).collect::<String>(),
            (0..rb).map(|i| format!("  mov.b32 %b{i}, 0x38383838;\n")).collect::<String>(),
            (0..4).map(|i| format!("  mov.f32 %c{i}, 0f00000000;\n")).collect::<String>(),
            regs("d", 4),
            regs("a", ra),
            regs("b", rb),
            regs("c", 4),
        );
        std::fs::write(format!("{dir}/sm120_{name}.ptx"), ptx).unwrap();
    }
    eprintln!("wrote {dir}/fragments_gen.h, fragments_pred.json, sm120_*.ptx");
}
