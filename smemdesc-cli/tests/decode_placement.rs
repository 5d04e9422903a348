//! `decode` follows the H100 measurements of spec §7 (placement models) and lints LBO/SBO values
//! that no canonical layout of the PTX "Shared Memory Matrix Layout" table (spec §4) has.
//! Expected values are written from §7's table and §3/§4, not taken from smemdesc's output.

use crate::common::*;

/// sm90 descriptor: start address (bytes), LBO, SBO (bytes), base_offset, layout code (bits 62-63).
fn sm90(start: u64, lbo: u64, sbo: u64, bo: u64, layout: u64) -> String {
    let raw = (start >> 4) | (lbo >> 4) << 16 | (sbo >> 4) << 32 | bo << 49 | layout << 62;
    format!("{raw:#018x}")
}

fn decode_json(raw: &str, arch: &str) -> serde_json::Value {
    let (code, out, err) = run(&["decode", raw, "--arch", arch, "--json"]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

/// (reads absolute data, base_offsets for absolute data, reads relative data, base_offsets for relative data)
fn verdicts(v: &serde_json::Value) -> (bool, Vec<u64>, bool, Vec<u64>) {
    let p = v["placements"].as_array().unwrap();
    assert_eq!(p[0]["model"], "absolute");
    assert_eq!(p[1]["model"], "relative");
    let list = |x: &serde_json::Value| -> Vec<u64> {
        x["base_offsets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_u64().unwrap())
            .collect()
    };
    (
        p[0]["reads_correctly"].as_bool().unwrap(),
        list(&p[0]),
        p[1]["reads_correctly"].as_bool().unwrap(),
        list(&p[1]),
    )
}

fn warnings(v: &serde_json::Value) -> Vec<String> {
    v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_issue_example_is_right_for_tma_data() {
    // 128B K-major bf16 at 0x480 (1 x 128 B past a 1024-B boundary), base_offset 0: what TMA writes.
    let raw = "0x4000004000010048";
    assert_eq!(raw, sm90(0x480, 16, 1024, 0, 1));
    let (code, text, _) = run(&["decode", raw, "--arch", "sm90"]);
    assert_eq!(code, 0);
    assert!(text.contains("warnings: none"), "{text}");
    assert!(
        text.contains("right for bytes written on absolute addresses"),
        "{text}"
    );
    let v = decode_json(raw, "sm90");
    // §7 128B row: absolute data only with 0; relative data only with (P >> 7) & 7 = 1.
    assert_eq!(verdicts(&v), (true, vec![0], false, vec![1]));
    // The same tile with base_offset 1 is right only for relative data, and says so.
    let v = decode_json("0x4002004000010048", "sm90");
    assert_eq!(verdicts(&v), (false, vec![0], true, vec![1]));
    assert!(warnings(&v).is_empty());
    let notes = v["notes"].to_string();
    assert!(
        notes.contains("TMA-written (absolute) bytes would need base_offset 0"),
        "{notes}"
    );
}

#[test]
fn every_placement_of_the_table_in_spec_7() {
    // (layout code, swizzle rows of the repeat) for 32B/64B/128B, every P = 0x80 .. 0x380 past a
    // 1024-B boundary, every base_offset: §7's table decides which ones read each model's data.
    for (layout, name) in [(3u64, "32B"), (2, "64B"), (1, "128B")] {
        for p in (0x80u64..=0x380).step_by(0x80) {
            for bo in 0..8u64 {
                let row = p >> 7;
                let (abs_ok, rel_ok) = match name {
                    "128B" => (bo == 0, bo == row & 7),
                    "64B" => (bo == 0 || bo == 4, bo == row & 3 || bo == (row & 3) + 4),
                    _ => (bo % 2 == 0, bo % 2 == row & 1),
                };
                let raw = sm90(0x4000 + p, 16, 1024, bo, layout);
                let v = decode_json(&raw, "sm90");
                let (a, _, r, _) = verdicts(&v);
                assert_eq!((a, r), (abs_ok, rel_ok), "{name} P={p:#x} bo={bo}");
                let flagged = warnings(&v)
                    .iter()
                    .any(|w| w.contains("matches no placement"));
                assert_eq!(flagged, !abs_ok && !rel_ok, "{name} P={p:#x} bo={bo}");
            }
        }
    }
}

#[test]
fn lbo_sbo_that_no_canonical_layout_has_are_flagged() {
    // The fixed descriptor another project ships: 32B swizzle (code 3), LBO = SBO = 128 B. One
    // 32B atom is 8 rows x 32 B = 256 B, so SBO 128 B < one atom, and LBO 128 B is not whole atoms.
    let v = decode_json("0xc000000800080000", "sm90");
    let w = warnings(&v);
    assert!(
        w.iter()
            .any(|w| w.starts_with("SBO = 128 B is smaller than one atom")),
        "{w:?}"
    );
    assert!(
        w.iter()
            .any(|w| w.starts_with("LBO = 128 B is not a whole number of atoms")),
        "{w:?}"
    );
    // Canonical values: 32B K-major SBO 256 B (MN-first) or 512 B (two atoms, K-first), LBO 16.
    for sbo in [256, 512] {
        let v = decode_json(&sm90(0, 16, sbo, 0, 3), "sm90");
        assert!(warnings(&v).is_empty(), "{sbo}: {:?}", warnings(&v));
    }
    // 64B (atom 512 B): SBO 768 B is 1.5 atoms; 128B (atom 1024 B): MN-major LBO 1536 B.
    let w = warnings(&decode_json(&sm90(0, 16, 768, 0, 2), "sm90"));
    assert!(
        w.iter()
            .any(|w| w.starts_with("SBO = 768 B is not a whole number of atoms")),
        "{w:?}"
    );
    let w = warnings(&decode_json(&sm90(0, 1536, 1024, 0, 1), "sm90"));
    assert!(
        w.iter()
            .any(|w| w.starts_with("LBO = 1536 B is not a whole number")),
        "{w:?}"
    );
    // No swizzle: core matrices are 128 B; LBO 128 / SBO 256 are canonical, LBO 64 is not.
    assert!(warnings(&decode_json(&sm90(0, 128, 256, 0, 0), "sm90")).is_empty());
    let w = warnings(&decode_json(&sm90(0, 64, 256, 0, 0), "sm90"));
    assert!(
        w.iter()
            .any(|w| w.starts_with("LBO = 64 B is not a whole number of 128-B core matrices")),
        "{w:?}"
    );
}

#[test]
fn draw_follows_the_placement_model() {
    // 128B K-major bf16 at 0x80: the absolute writer (TMA) XORs chunk c of tile row r with the
    // absolute row (r + 1) & 7; the relative writer with r (spec §3, §7).
    for (placement, shift) in [("absolute", 1u32), ("relative", 0)] {
        let (code, out, err) = run(&[
            "draw",
            "--arch",
            "sm90",
            "--dtype",
            "bf16",
            "--tile",
            "64x64",
            "--major",
            "K",
            "--swizzle",
            "128B",
            "--base",
            "0x80",
            "--placement",
            placement,
        ]);
        assert_eq!(code, 0, "{err}");
        for r in 0..8u32 {
            let want: Vec<String> = (0..8u32)
                .map(|c| format!("{}a", c ^ ((r + shift) & 7)))
                .collect();
            let line = out
                .lines()
                .filter(|l| {
                    l.split_whitespace()
                        .nth(1)
                        .is_some_and(|t| t.ends_with('a'))
                })
                .find(|l| l.split_whitespace().next() == Some(&r.to_string()))
                .unwrap();
            let got: Vec<&str> = line.split_whitespace().skip(1).collect();
            assert_eq!(got, want, "{placement} row {r}");
        }
    }
}

#[test]
fn no_legal_layout_trips_the_canonical_lints() {
    // Every descriptor smemdesc derives for a legal tile (validated against CuTe's vectors and the
    // emulator) is canonical: decode must not warn about it.
    use smemdesc_core::*;
    for arch in [Arch::Sm90, Arch::Sm100] {
        let mut descs = Vec::new();
        for dtype in [ElementType::BF16, ElementType::TF32, ElementType::E4M3] {
            for major in [Major::K, Major::Mn] {
                for swizzle in SwizzleMode::ALL {
                    for order in [Order::MnFirst, Order::KFirst] {
                        for (mn, k_bytes) in [(64, 128), (128, 256), (256, 64), (128, 32)] {
                            let decl = TileDecl::new(
                                arch,
                                Operand::B,
                                dtype,
                                major,
                                mn,
                                k_bytes / dtype.smem_bytes(),
                            )
                            .swizzle(swizzle)
                            .order(order)
                            .stages(2);
                            let Ok(p) = decl.build() else { continue };
                            let t = p.tile;
                            for (i, j) in [(0, 0), (t.mmas_mn() - 1, t.mmas_k() - 1)] {
                                let d = t.try_desc(0x400, i, j, 1).unwrap();
                                descs.push(format!("{:#018x}", d.raw()));
                            }
                        }
                    }
                }
            }
        }
        assert!(descs.len() > 100, "{}", descs.len());
        let mut argv = vec!["decode", "--json", "--arch", arch.name()];
        argv.extend(descs.iter().map(String::as_str));
        let (code, out, err) = run(&argv);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        for (d, raw) in v.as_array().unwrap().iter().zip(&descs) {
            assert!(
                warnings(d).is_empty(),
                "{} {raw}: {:?}",
                arch.name(),
                warnings(d)
            );
        }
    }
}
