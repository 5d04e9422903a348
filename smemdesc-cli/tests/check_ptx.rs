//! `smemdesc check-ptx` on PTX modules that nightly rustc wrote for nvptx64 (`tests/data/*.ptx`,
//! from the sources next to them, `*.rs.txt`; `build.sh.txt` and `Cargo.toml.txt` say how), and
//! on small hand-written modules in the older forms LLVM also writes.
//!
//! The expected values come from the fixture sources (the line and column where the indexing and
//! the division are written, the table's and the array's element counts), not from the tool.

use crate::common::run;
use std::path::PathBuf;

fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
        .display()
        .to_string()
}

/// The 1-based (line, column) of the first occurrence of `needle` in a fixture source.
fn position(source: &str, needle: &str) -> (usize, usize) {
    let text = std::fs::read_to_string(data(source)).unwrap();
    text.lines()
        .enumerate()
        .find_map(|(i, l)| l.find(needle).map(|c| (i + 1, c + 1)))
        .unwrap_or_else(|| panic!("{needle} not in {source}"))
}

/// A hand-written module under the system's temporary folder.
fn temp_ptx(name: &str, text: &str) -> String {
    let path =
        std::env::temp_dir().join(format!("smemdesc-check-ptx-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn panics_exit_1_with_their_source_locations() {
    // The fixture's crate is built from src/panic.rs (Cargo.toml.txt: `path`).
    let (index_line, index_col) = position("panic.rs.txt", "s[i]");
    let (div_line, div_col) = position("panic.rs.txt", "v / d");
    let (code, out, err) = run(&["check-ptx", &data("panic.ptx")]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains(&format!(
            "core::panicking::panic_bounds_check: panic at src/panic.rs:{index_line}:{index_col}"
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "panic_const_div_by_zero: panic at src/panic.rs:{div_line}:{div_col}"
        )),
        "{out}"
    );
    assert!(
        out.contains("fix: make the index/divisor provably in range"),
        "{out}"
    );
    assert!(
        out.lines()
            .last()
            .unwrap()
            .ends_with("panic.ptx: 2 problems (2 extern calls, 0 .global tables, 0 local depots)"),
        "{out}"
    );
}

#[test]
fn panic_json_is_one_object() {
    let (index_line, _) = position("panic.rs.txt", "s[i]");
    let (code, out, _) = run(&["check-ptx", "--json", &data("panic.ptx")]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["kernels"], serde_json::json!(["index_div"]));
    assert_eq!(v["clean"], false);
    let calls = v["calls"].as_array().unwrap();
    assert_eq!(calls.len(), 2);
    assert!(calls
        .iter()
        .all(|c| c["panic"] == true && c["function"] == "index_div"));
    let loc = calls[0]["location"].as_str().unwrap();
    assert!(
        loc.starts_with(&format!("src/panic.rs:{index_line}:")),
        "{loc}"
    );
    let names: Vec<&str> = v["extern_funcs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["demangled"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"core::panicking::panic_bounds_check"),
        "{names:?}"
    );
    // The Location structs and the file name are the panics' data, not tables.
    assert_eq!(v["tables"], serde_json::json!([]));
}

#[test]
fn a_static_table_exits_1_with_its_name_and_size() {
    // `static TABLE: [u32; 8]` in table.rs.txt: 8 x 4 bytes, read by the kernel table_lookup.
    let (code, out, err) = run(&["check-ptx", &data("table.ptx")]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("ptxfix::TABLE (.global, 32 bytes), used by table_lookup"),
        "{out}"
    );
    assert!(
        out.lines()
            .last()
            .unwrap()
            .ends_with("1 problem (0 extern calls, 1 .global table, 0 local depots)"),
        "{out}"
    );
}

#[test]
fn a_local_array_exits_1_with_its_depot() {
    // `[0u32; 16]` indexed at run time in local.rs.txt: 64 bytes of local memory in local_array.
    let (code, out, _) = run(&["check-ptx", "--json", &data("local.ptx")]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let depots = v["local_depots"].as_array().unwrap();
    assert_eq!(depots.len(), 1);
    assert_eq!(depots[0]["size"], 64);
    assert_eq!(depots[0]["function"], "local_array");
    assert_eq!(depots[0]["kernel"], true);
}

#[test]
fn a_clean_module_exits_0() {
    let (code, out, err) = run(&["check-ptx", &data("clean.ptx")]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.lines()
            .last()
            .unwrap()
            .ends_with("clean.ptx: clean (1 kernel)"),
        "{out}"
    );
}

#[test]
fn usage_and_io_errors_exit_2() {
    let (code, _, err) = run(&["check-ptx", &data("no-such-file.ptx")]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"), "{err}");
    let (code, _, _) = run(&["check-ptx"]);
    assert_eq!(code, 2);
}

/// A legacy-mangled panic whose `Location` is written a byte at a time (`0xFF(generic(..))`), the
/// form older LLVM wrote, pointing into smemdesc-core's layout algebra; a `.const` table and an
/// extern function nobody calls.
#[test]
fn legacy_names_byte_locations_and_smemdesc_sources() {
    let file = "/home/u/smemdesc-core/src/layout/algebra.rs";
    let file_bytes: Vec<String> = file.bytes().map(|b| b.to_string()).collect();
    // Location { file: (pointer, 43), line: 300 = 0x12c, col: 9 }.
    let mut loc: Vec<String> = (0..8)
        .map(|k| format!("0x{:X}(generic(str_file))", 0xFFu64 << (8 * k)))
        .collect();
    loc.extend(
        [
            "43", "0", "0", "0", "0", "0", "0", "0", "44", "1", "0", "0", "9", "0", "0", "0",
        ]
        .map(String::from),
    );
    assert_eq!(file.len(), 43);
    let ptx = format!(
        ".version 7.0\n.target sm_80\n.address_size 64\n\n\
         .extern .func _ZN4core9panicking18panic_bounds_check17h0123456789abcdefE\n(\n\t.param .b64 p0,\n\t.param .b64 p1,\n\t.param .b64 p2\n)\n;\n\
         .extern .func _ZN4core6option13unwrap_failed17hfedcba9876543210E\n(\n\t.param .b64 q0\n)\n;\n\
         .global .align 1 .b8 str_file[{}] = {{{}}};\n\
         .global .align 8 .b8 loc_alg[24] = {{{}}};\n\
         .const .align 4 .b32 lut[2][4] = {{{{1, 2, 3, 4}}, {{5, 6, 7, 8}}}};\n\n\
         .visible .entry k(\n\t.param .u64 k_param_0\n)\n{{\n\
         \t.reg .b64 %rd<9>;\n\
         \tmov.u64 %rd1, lut;\n\
         \tld.const.u32 %rd2, [%rd1];\n\
         \tmov.u64 %rd7, loc_alg;\n\
         \tcvta.global.u64 %rd8, %rd7;\n\
         \t{{ // callseq 0, 0\n\t.param .b64 param0;\n\t.param .b64 param1;\n\t.param .b64 param2;\n\
         \tst.param.b64 [param0], %rd2;\n\tst.param.b64 [param1], %rd2;\n\tst.param.b64 [param2], %rd8;\n\
         \tcall.uni _ZN4core9panicking18panic_bounds_check17h0123456789abcdefE, (param0, param1, param2);\n\
         \t}} // callseq 0\n\
         \tret;\n}}\n",
        file.len(),
        file_bytes.join(", "),
        loc.join(", "),
    );
    let path = temp_ptx("legacy.ptx", &ptx);
    let (code, out, err) = run(&["check-ptx", &path]);
    std::fs::remove_file(&path).ok();
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains(&format!(
            "k, line 37: call core::panicking::panic_bounds_check: panic at {file}:300:9"
        )),
        "{out}"
    );
    assert!(
        out.contains("from smemdesc: Layout::eval / Mode::eval"),
        "{out}"
    );
    assert!(
        out.contains("(smemdesc-core/src/layout/algebra.rs)"),
        "{out}"
    );
    assert!(
        out.contains("fix: use the tile's type-level accessors"),
        "{out}"
    );
    assert!(out.contains("core::option::unwrap_failed (_ZN4core6option13unwrap_failed17hfedcba9876543210E), 0 calls"), "{out}");
    // 2 x 4 u32s.
    assert!(out.contains("lut (.const, 32 bytes), used by k"), "{out}");
    assert!(
        out.lines().last().unwrap().ends_with(
            "3 problems (1 extern call, 1 .global table, 0 local depots, 1 uncalled .extern .func declaration)"
        ),
        "{out}"
    );
}

/// A call into smemdesc that was not inlined (the v0 symbol examples/kernel/README.md quotes from
/// ptxas): named as smemdesc's, with its fix.
#[test]
fn a_smemdesc_function_not_inlined() {
    let name = "_RNvNtCsadUgzJ1XLeX_13smemdesc_core6access4fail";
    let ptx = format!(
        ".version 8.0\n.target sm_90a\n.address_size 64\n\
         .extern .func {name}\n(\n\t.param .b64 a\n)\n.noreturn;\n\
         .visible .entry k2()\n{{\n\t{{\n\t.param .b64 param0;\n\tcall.uni {name}, (param0);\n\t}}\n\tret;\n}}\n"
    );
    let path = temp_ptx("not-inlined.ptx", &ptx);
    let (code, out, err) = run(&["check-ptx", &path]);
    std::fs::remove_file(&path).ok();
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("k2, line 13: call smemdesc_core::access::fail\n"),
        "{out}"
    );
    assert!(
        out.contains("from smemdesc: smemdesc_core::access::fail, not inlined"),
        "{out}"
    );
    assert!(
        out.contains("fix: everything a kernel reaches in smemdesc must inline"),
        "{out}"
    );
}

/// A kernel's body with a local depot of `depot` bytes, one `wgmma` of `shape` (`m64n256k32`,
/// f32 accumulator), and, with `zero_loop`, a loop storing literal zeros to local memory (what
/// `let mut acc = [0f32; 128];` compiles to, issue 43).
fn depot_kernel(name: &str, depot: u32, wgmma: &str, zero_loop: bool) -> String {
    let zeros = if zero_loop {
        "$L__BB0_4:\n\tst.local.b32 \t[%rd3], 0;\n\tst.local.v2.b32 \t[%rd3+4], {0f00000000, 0f00000000};\n\tadd.s64 \t%rd3, %rd3, 12;\n\tsetp.ne.s64 \t%p4, %rd3, %rd9;\n\t@%p4 bra \t$L__BB0_5;\n\tbra.uni \t$L__BB0_4;\n$L__BB0_5:\n"
    } else {
        "\tst.local.b32 \t[%rd3], %r1;\n"
    };
    format!(
        ".version 8.0\n.target sm_90a\n.address_size 64\n\n.visible .entry {name}(\n\t.param .u64 {name}_param_0\n)\n{{\n\t.local .align 4 .b8 \t__local_depot0[{depot}];\n\t.reg .b64 \t%SPL;\n\tmov.b64 \t%SPL, __local_depot0;\n{zeros}\t{wgmma}\n\tret;\n\n}}\n"
    )
}

const WGMMA_N256: &str =
    "wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3 {%f1, %f2}, %rd1, %rd2, p, 1, 1;";
const WGMMA_N128: &str =
    "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {%f1, %f2}, %rd1, %rd2, p, 1, 1, 0, 0;";

#[test]
fn a_zeroing_loop_and_an_accumulator_sized_depot_are_named_with_their_fix() {
    // m64n256 f32: N / 2 = 128 registers of 4 bytes (PTX ISA, wgmma accumulator fragments).
    let path = temp_ptx("acc256.ptx", &depot_kernel("acc256", 512, WGMMA_N256, true));
    let (code, out, err) = run(&["check-ptx", &path]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("why: a zeroing loop: the loop storing zeros from line 13"),
        "{out}"
    );
    assert!(
        out.contains("why: the size of the function's wgmma accumulator m64n256 f32 (512 bytes)"),
        "{out}"
    );
    assert!(out.contains("WgmmaAcc::<N>::zero()"), "{out}");
    assert!(
        out.contains("LLVM unrolls loops of 8 trips, not of 32 or 64"),
        "{out}"
    );
    // The generic advice is not given for a depot both patterns explain.
    assert!(!out.contains("keep the values in scalars"), "{out}");
}

#[test]
fn a_depot_holding_an_accumulator_is_named_without_a_zeroing_loop() {
    // 536 = S and O of m64n128 (256 bytes each) + 24: holds at least one accumulator.
    let path = temp_ptx(
        "acc128.ptx",
        &depot_kernel("acc128", 536, WGMMA_N128, false),
    );
    let (code, out, _) = run(&["check-ptx", &path]);
    assert_eq!(code, 1);
    assert!(
        out.contains(
            "why: holds at least the function's wgmma accumulator m64n128 f32 (256 bytes)"
        ),
        "{out}"
    );
    assert!(!out.contains("zeroing loop"), "{out}");
    // Exactly two of them: "the size of".
    let path = temp_ptx(
        "acc128x2.ptx",
        &depot_kernel("acc128x2", 512, WGMMA_N128, false),
    );
    let (_, out, _) = run(&["check-ptx", &path]);
    assert!(
        out.contains("why: the size of the function's wgmma accumulator m64n128 f32"),
        "{out}"
    );
    let (_, json, _) = run(&["check-ptx", "--json", &path]);
    assert!(json.contains("\"accumulator_exact\": true"), "{json}");
}
