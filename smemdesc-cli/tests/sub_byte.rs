//! Sub-byte SMEM forms through the CLI (issue 14): the padded fp4 TMA type, packed mxf4 tiles
//! with K = 64 and K = 96.

use crate::common::run;

fn tile_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec![
        "tile", "--arch", "sm100", "--dtype", "e2m1", "--major", "K", "--json",
    ];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = run(&all);
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).unwrap()
}

#[test]
fn padded_fp4_reports_16u4_align16b() {
    // The command: the dense kind reads e2m1 in the padded form.
    let v = tile_json(&["--tile", "128x128"]);
    assert_eq!(v["smem_form"], "padded");
    assert_eq!(
        v["tma"]["data_type"],
        "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B"
    );
    assert_eq!(v["tma"]["data_type_value"], 14);
    assert_eq!(v["tma"]["box_dim"][0], 128);
    assert_eq!(v["mma"][2], 32);
}

#[test]
fn packed_mxf4_k64_and_k96_are_accepted() {
    let v = tile_json(&["--tile", "128x256", "--kind", "mxf4"]);
    assert_eq!(v["smem_form"], "packed");
    assert_eq!(
        v["tma"]["data_type"],
        "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B"
    );
    assert_eq!(v["mma"][2], 64);
    // 256 values of K are 128 bytes: one 128B atom row per M row
    assert_eq!(v["tma"]["box_dim"], serde_json::json!([256, 128]));
    assert_eq!(v["stage_bytes"], 128 * 128);
    let v = tile_json(&[
        "--tile",
        "128x192",
        "--kind",
        "mxf4nvf4",
        "--cta-group",
        "2",
        "--mma",
        "m256n256k96",
    ]);
    assert_eq!(v["mma"][2], 96);
    assert_eq!(v["swizzle"], "none");
    assert_eq!(v["mmas"][1], 2);
}

#[test]
fn kind_help_lists_only_accepted_kinds() {
    // Issue 11: `--kind` help listed kinds that were then refused. Every listed kind is accepted
    // with a dtype it takes.
    for (kind, dtype) in [
        ("f16", "bf16"),
        ("tf32", "tf32"),
        ("f8f6f4", "e4m3"),
        ("i8", "s8"),
        ("mxf8f6f4", "e4m3"),
        ("mxf4", "e2m1"),
        ("mxf4nvf4", "e2m1"),
    ] {
        let (code, _, stderr) = run(&[
            "tile", "--arch", "sm100", "--dtype", dtype, "--tile", "128x128", "--major", "K",
            "--kind", kind,
        ]);
        assert_eq!(code, 0, "--kind {kind}: {stderr}");
    }
    let (_, help, _) = run(&["tile", "--help"]);
    assert!(
        help.contains("f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4, mxf4nvf4"),
        "{help}"
    );
}

#[test]
fn draw_packed_fp4_steps_32_values_per_chunk() {
    // A 16-byte chunk holds 32 packed fp4 values; a 128B atom row is 8 chunks (256 values).
    let (code, out, err) = run(&[
        "draw", "--arch", "sm100", "--dtype", "e2m1", "--kind", "mxf4", "--tile", "128x512",
        "--major", "K",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("atom = 8 x 8 cells"), "{out}");
    assert!(out.contains("0  32  64  96 128 160 192 224| 256"), "{out}");
}
