//! Hostile and misleading command lines (issue 42, items 7 and 8): no panic (exit 0, 1 or 2, never
//! 101), and a refusal that names the rule and its source. Expected values come from the PTX ISA
//! and from the macro's own hand-worked numbers (`tests/tmem_storage.rs`), not from the tool.

use crate::common::run;

fn temp_file(name: &str, text: &str) -> String {
    let path = std::env::temp_dir().join(format!("smemdesc-hostile-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// Texts that once panicked check-ptx's reader (a type word `.` sliced past its end, more `}` than
/// `{` in a body, an array size overflowing u64), and odd ones around them.
#[test]
fn check_ptx_never_panics_on_malformed_text() {
    let texts = [
        ".global . x;\n",
        ".global .\n;",
        ".global .é x;\n",
        ".const .b8 t[4294967296][4294967296][4294967296];\n",
        ".visible .entry k()\n{\n}}\n}\n",
        ".global .align 8 .b8 loc[24] = {0xFFFFFFFFFFFFFFFF(generic(f)), 255, 255, 255, 255, 255, 255, 255, 127};\n.global .b8 f[1] = {65};\n",
        "{{{{\n",
        "}\n;\n=\n{\n",
        "/* open",
    ];
    for (i, text) in texts.iter().enumerate() {
        let path = temp_file(&format!("{i}.ptx"), text);
        let (code, out, err) = run(&["check-ptx", &path]);
        assert!(matches!(code, 0..=2), "{text:?}: exit {code}\n{out}{err}");
    }
}

/// PTX ISA, "Addresses as Operands": an address must be naturally aligned to the access size.
/// Lane addresses 1, 131, 261, ... are misaligned for every `lds.32`: refused as such, not
/// reported as bank conflicts.
#[test]
fn banks_refuses_misaligned_raw_addresses() {
    let addrs: Vec<String> = (0..32).map(|i| (1 + 130 * i).to_string()).collect();
    let (code, out, err) = run(&["banks", "--access", "lds.32", "--addrs", &addrs.join(",")]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("not 4-byte aligned"), "{err}");
    assert!(err.contains("Addresses as Operands"), "{err}");
    assert!(!out.contains("conflicts"), "{out}");
    // ldmatrix rows are 16 B: lane addresses 8 apart are misaligned for it.
    let addrs: Vec<String> = (0..32).map(|i| (8 * i).to_string()).collect();
    let (code, _, err) = run(&[
        "banks",
        "--access",
        "ldmatrix.x4",
        "--addrs",
        &addrs.join(","),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("16-byte aligned"), "{err}");
    // Aligned addresses still run the bank model.
    let addrs: Vec<String> = (0..32).map(|i| (4 * i).to_string()).collect();
    let (code, out, _) = run(&["banks", "--access", "lds.32", "--addrs", &addrs.join(",")]);
    assert_eq!(code, 0);
    assert!(out.contains("0 conflicts"), "{out}");
}

const TMEM: [&str; 6] = ["tmem", "--m", "128", "--n", "64", "--load=32x32b.x16"];

/// A dense kind has no scale factors (PTX ISA, tcgen05.mma): `--sf` and `--sf-stages` are refused
/// for it, as `idesc --sf` is.
#[test]
fn scale_factor_flags_are_refused_for_dense_kinds() {
    for extra in [["--sf", "ue8m0"], ["--sf-stages", "2"]] {
        let args: Vec<&str> = TMEM.iter().copied().chain(extra).collect();
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{extra:?}: {out}{err}");
        assert!(err.contains(extra[0]) && err.contains("kind::f16"), "{err}");
    }
    let (code, _, err) = run(&[
        "idesc",
        "--kind",
        "f16",
        "--a",
        "bf16",
        "--b",
        "bf16",
        "--c",
        "f32",
        "--m",
        "128",
        "--n",
        "64",
        "--a-major",
        "K",
        "--b-major",
        "K",
        "--sf",
        "ue4m3",
    ]);
    assert_eq!(code, 2, "{err}");
    // A block-scaled kind takes them.
    let args: Vec<&str> = TMEM
        .iter()
        .copied()
        .chain(["--kind", "mxf8f6f4", "--sf-stages", "2"])
        .collect();
    assert_eq!(run(&args).0, 0);
}

/// tcgen05.mma's dense shapes: N a multiple of 16 for M = 128 (cta_group::1), of 32 for M = 128
/// with cta_group::2. The refusal names M, the CTA group, the legal N and the PTX ISA.
#[test]
fn tmem_n_refusals_name_the_rule() {
    for (m, n, cg, step) in [("128", "8", "1", "16"), ("128", "48", "2", "32")] {
        let (code, _, err) = run(&[
            "tmem",
            "--m",
            m,
            "--n",
            n,
            "--cta-group",
            cg,
            "--load=32x32b.x16",
        ]);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains(&format!("M = {m} with cta_group::{cg}")),
            "{err}"
        );
        assert!(
            err.contains(&format!("a multiple of {step} from {step} to 256")),
            "{err}"
        );
        assert!(err.contains("PTX ISA"), "{err}");
    }
}

/// 4294967295 stages of 64 columns are 274877906880 columns: said exactly, not saturated to
/// u32::MAX. Tensor Memory has 512 columns, so 8 stages of 64 are the most.
#[test]
fn tmem_stage_counts_are_exact() {
    let args: Vec<&str> = TMEM
        .iter()
        .copied()
        .chain(["--stages", "4294967295"])
        .collect();
    let (code, _, err) = run(&args);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("274877906880 columns"), "{err}");
    assert!(!err.contains("4294967295 columns"), "{err}");
    assert!(err.contains("--stages 1..=8"), "{err}");
    let args: Vec<&str> = TMEM.iter().copied().chain(["--stages", "8"]).collect();
    assert_eq!(run(&args).0, 0);
}

/// `header --from` takes a `TmemSlot` member as `#[smem_storage]` does: the numbers are the
/// macro's (`tests/tmem_storage.rs`: flag at 0, the slot's 4 B at 4, the tile at 1024, the
/// barriers at 33792), and an sm90 storage is refused as the macro refuses it.
#[test]
fn header_from_takes_tmem_slot_members() {
    let src = "#[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2)]\n\
               pub struct TileA;\n\
               #[smem_storage(arch = sm100)]\n\
               pub struct Blackwell { flag: u8, tmem_addr: TmemSlot, a: TileA, full: [Mbarrier; 2] }\n";
    let path = temp_file("tmem.rs", src);
    let (code, out, err) = run(&["header", "--from", &path]);
    assert_eq!(code, 0, "{err}");
    for (name, value) in [
        ("FLAG_OFFSET", 0),
        ("TMEM_ADDR_OFFSET", 4),
        ("TMEM_ADDR_BYTES", 4),
        ("A_OFFSET", 1024),
        ("FULL_OFFSET", 33792),
    ] {
        assert!(
            out.contains(&format!("_BLACKWELL_{name} {value}u")),
            "{name}:\n{out}"
        );
    }
    let path = temp_file(
        "tmem90.rs",
        &src.replace(
            "sm100)]\npub struct Blackwell",
            "sm90)]\npub struct Blackwell",
        ),
    );
    let (code, _, err) = run(&["header", "--from", &path]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("Tensor Memory exists on the tcgen05 arches only"),
        "{err}"
    );
}
