//! `smemdesc tensormap check --im2col FILE` and `--tiled FILE`: rows whose verdicts come from the
//! CUDA driver API documentation of `cuTensorMapEncodeIm2col` / `cuTensorMapEncodeTiled` (the
//! rule each row breaks is quoted beside it) and the H100 measurements of
//! `shared/notes/tensor-maps.md`, never from the program's own output.

use crate::common::*;

/// Writes `rows` (tab-separated, `\t` given as `|` for legibility) to a temporary file and runs
/// `smemdesc tensormap check <mode> FILE <extra...>`: (status, stdout, stderr).
fn check(mode: &str, rows: &[&str], extra: &[&str]) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!("smemdesc-tensormap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!(
        "{}-{}.tsv",
        mode.trim_start_matches('-'),
        rows.len()
    ));
    let text: String = rows.iter().map(|r| r.replace('|', "\t") + "\n").collect();
    std::fs::write(&path, text).unwrap();
    let mut args = vec!["tensormap", "check", mode, path.to_str().unwrap()];
    args.extend_from_slice(extra);
    run(&args)
}

/// The verdicts of `out` as (id, "ok" | "refused", reason).
fn verdicts(out: &str) -> Vec<(String, String, String)> {
    out.lines()
        .map(|l| {
            let mut f = l.splitn(3, '\t');
            let id = f.next().unwrap().to_string();
            let v = f.next().unwrap_or("").to_string();
            (id, v, f.next().unwrap_or("").to_string())
        })
        .collect()
}

/// Each (row, expected verdict, a word the reason must contain).
fn expect(mode: &str, cases: &[(&str, &str, &str)], extra: &[&str]) {
    let rows: Vec<&str> = cases.iter().map(|c| c.0).collect();
    let (code, out, err) = check(mode, &rows, extra);
    assert_eq!(code, 0, "{err}");
    let got = verdicts(&out);
    assert_eq!(got.len(), cases.len(), "{out}");
    for ((row, want, word), (id, v, reason)) in cases.iter().zip(&got) {
        assert_eq!(row.split('|').next().unwrap(), id);
        assert_eq!(v, want, "{id}: {reason}");
        assert!(
            reason.contains(word),
            "{id}: reason {reason:?} must contain {word:?}"
        );
        assert!(!reason.contains('\t'));
    }
}

// im2col columns: id dtype rank addr_off dims strides lower upper channels pixels element_strides
// interleave swizzle l2 oob. A legal NHWC bf16 (dtype 9) map: C 64, W 56, H 56, N 8 dense
// (strides 128, 128 x 56, 128 x 56 x 56), 3x3 filter padding 1, 64 channels x 128 pixels, 128B
// swizzle (3).

#[test]
fn im2col_rows_by_documented_rule() {
    expect(
        "--im2col",
        &[
            ("legal|9|4|0|64,56,56,8|128,7168,401408|-1,-1|-1,-1|64|128|1,1,1,1|0|3|2|0", "ok", ""),
            // "tensorRank ... must be 3, 4, or 5."
            ("rank2|0|2|0|16,64|16|-|-|16|32|1,1|0|0|0|0", "refused", "tensorRank = 2"),
            ("rank3|0|3|0|16,64,2|16,1024|5|5|16|32|1,1,1|0|0|0|0", "ok", ""),
            // "globalAddress ... must be 16 byte aligned"
            ("addr8|0|3|8|16,64,2|16,1024|0|0|16|32|1,1,1|0|0|0|0", "refused", "globalAddress"),
            // "When tensorRank is 4, two signed offsets each within range [-128, 127]"
            ("lo-129|9|4|0|64,56,56,8|128,7168,401408|-129,-1|-1,-1|64|128|1,1,1,1|0|3|2|0", "refused", "pixelBoxLowerCorner[0]"),
            ("up127|9|4|0|64,256,256,8|128,32768,8388608|-128,-128|127,127|64|128|1,1,1,1|0|3|2|0", "ok", ""),
            ("up128|9|4|0|64,256,256,8|128,32768,8388608|-1,-1|-1,128|64|128|1,1,1,1|0|3|2|0", "refused", "pixelBoxUpperCorner[1]"),
            // "When tensorRank is 3, one signed offset within range [-32768, 32767]"
            ("r3lo|0|3|0|16,65536,1|16,1048576|-32768|0|16|32|1,1,1|0|0|0|0", "ok", ""),
            ("r3hi|0|3|0|16,65536,1|16,1048576|0|32768|16|32|1,1,1|0|0|0|0", "refused", "-32768 to 32767"),
            // "When tensorRank is 5, three offsets each within range [-16, 15]"
            ("r5|0|5|0|16,8,8,8,2|16,128,1024,8192|-16,0,0|15,0,0|16|32|1,1,1,1,1|0|0|0|0", "ok", ""),
            ("r5d|0|5|0|16,8,8,8,2|16,128,1024,8192|0,0,-17|0,0,0|16|32|1,1,1,1,1|0|0|0|0", "refused", "pixelBoxLowerCorner[2]"),
            // "The bounding box ... must have non-zero area": W = 64, lower 0, upper -64: empty
            ("empty|0|3|0|16,64,2|16,1024|0|-64|16|32|1,1,1|0|0|0|0", "refused", "empty bounding box"),
            // Measured (driver 13.0, set 1): with interleave, corner i bounds globalDim[i] (r1837,
            // r1145: rows of the set, with the driver's verdicts); globalDim + upper is a 32-bit
            // signed sum ("wrap": that rule on a map with correct strides, which set 1 lacked)
            ("r1837|9|3|32|240,1,28|512,544|1|0|120|64|1,1,3|2|1|0|1", "ok", ""),
            ("r1145|8|3|0|104,224,224|832,186368|-1|-224|26|128|2,8,3|2|1|0|0", "refused", "globalDim[0] = 104"),
            ("wrap|0|3|0|16,2147483648,1|16,34359738368|0|0|16|32|1,1,1|0|0|0|0", "refused", "wraps to -2147483648"),
            ("wrap2|0|3|0|16,2147483648,1|16,34359738368|0|-1|16|32|1,1,1|0|0|0|0", "ok", ""),
            // "channelsPerPixel ... must be less than or equal to 256"
            ("ch257|0|3|0|512,64,2|512,32768|0|0|257|32|1,1,1|0|0|0|0", "refused", "channelsPerPixel = 257"),
            ("ch256|0|3|0|512,64,2|512,32768|0|0|256|32|1,1,1|0|0|0|0", "ok", ""),
            // "the bounding box inner dimension (channelsPerPixel multiplied by element size) must be
            // less than or equal to the swizzle size": 128 bf16 = 256 B > 128 B
            ("sw|9|4|0|128,56,56,8|256,14336,802816|-1,-1|-1,-1|128|128|1,1,1,1|0|3|2|0", "refused", "spans 128 B"),
            ("sw32|9|4|0|128,56,56,8|256,14336,802816|-1,-1|-1,-1|16|128|1,1,1,1|0|1|2|0", "ok", ""),
            // "pixelsPerColumn ... must be less than or equal to 1024"
            ("px1024|0|3|0|16,64,2|16,1024|0|0|16|1024|1,1,1|0|0|0|0", "ok", ""),
            ("px1025|0|3|0|16,64,2|16,1024|0|0|16|1025|1,1,1|0|0|0|0", "refused", "pixelsPerColumn = 1025"),
            // "elementStrides ... must be non-zero and less than or equal to 8"
            ("es9|0|3|0|16,64,2|16,1024|0|0|16|32|1,9,1|0|0|0|0", "refused", "elementStrides[1]"),
            // "When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, swizzle must be CU_TENSOR_MAP_SWIZZLE_32B."
            ("il32|0|3|0|32,64,2|32,2048|0|0|32|32|1,1,1|2|0|0|0", "refused", "SWIZZLE_32B only"),
            // "NAN_REQUEST_ZERO_FMA can only be used when tensorDataType represents a floating-point data type"
            ("nanu8|0|3|0|16,64,2|16,1024|0|0|16|32|1,1,1|0|0|0|1", "refused", "oobFill"),
            ("nanf32|7|3|0|16,64,2|64,4096|0|0|16|32|1,1,1|0|0|0|1", "ok", ""),
            // a code outside its enumeration: CUtensorMapDataType has 16 values (0..=15)
            ("dt16|16|3|0|16,64,2|16,1024|0|0|16|32|1,1,1|0|0|0|0", "refused", "legal: 0 to 15"),
            ("sw7|0|3|0|16,64,2|16,1024|0|0|16|32|1,1,1|0|7|0|0", "refused", "CUtensorMapSwizzle"),
            // measured: 128B_ATOM swizzles never accepted on sm90
            ("atom|0|3|0|16,64,2|16,1024|0|0|16|32|1,1,1|0|4|0|0", "refused", "sm90"),
        ],
        &[],
    );
}

/// `--arch sm100`: the Blackwell-only options pass (measured on sm90: never accepted).
#[test]
fn im2col_arch() {
    let row = "atom|9|3|0|64,64,2|128,8192|0|0|64|32|1,1,1|0|4|0|0";
    expect("--im2col", &[(row, "refused", "sm90")], &["--arch", "sm90"]);
    expect("--im2col", &[(row, "ok", "")], &["--arch", "sm100"]);
    // default: sm90
    expect("--im2col", &[(row, "refused", "sm90")], &[]);
}

// tiled columns: id dtype rank addr_off dims strides box element_strides interleave swizzle l2 oob

#[test]
fn tiled_rows_by_documented_rule() {
    expect(
        "--tiled",
        &[
            // a bf16 4096 x 4096 matrix, 64 x 128 boxes, 128B swizzle
            ("legal|9|2|0|4096,4096|8192|64,128|1,1|0|3|3|0", "ok", ""),
            // "tensorRank must be non-zero and less than or equal to ... 5"
            ("rank0|9|0|0|-|-|-|-|0|0|3|0", "refused", "tensorRank = 0"),
            ("rank1|0|1|0|64|-|16|1|0|0|3|0", "ok", ""),
            // "boxDim array ... must be non-zero and less than or equal to 256"
            (
                "box257|0|2|0|1024,64|1024|16,257|1,1|0|0|3|0",
                "refused",
                "boxDim[1]",
            ),
            // "When interleave is CU_TENSOR_MAP_INTERLEAVE_NONE, { boxDim[0] * elementSizeInBytes(
            // tensorDataType ) } must be a multiple of 16 bytes."
            (
                "inner|9|2|0|64,64|128|12,8|1,1|0|0|3|0",
                "refused",
                "multiple of 16 B",
            ),
            // "CU_TENSOR_MAP_SWIZZLE_128B requires the bounding box inner dimension to be <= 128"
            (
                "sw|9|2|0|4096,4096|8192|128,64|1,1|0|3|3|0",
                "refused",
                "at most 128 B",
            ),
            // "globalStrides array ... must be a multiple of 16"
            (
                "stride|9|2|0|100,8|200|8,8|1,1|0|0|3|0",
                "refused",
                "globalStrides[0]",
            ),
            // measured: the box holds at most 233,472 B (256 x 256 x 4 B = 262,144)
            (
                "bytes|7|2|0|256,256|1024|256,256|1,1|0|0|3|0",
                "refused",
                "233472",
            ),
        ],
        &[],
    );
}

/// Unreadable rows stop the command with exit status 2, naming the line.
#[test]
fn unreadable_rows() {
    let (code, _, err) = check("--im2col", &["# header", "a|0|3|0|16,64|16"], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("line 2") && err.contains("15"), "{err}");
    let (code, _, err) = check(
        "--im2col",
        &["b|0|3|0|16,64|16,1024|0|0|16|32|1,1,1|0|0|0|0"],
        &[],
    );
    assert_eq!(code, 2);
    assert!(err.contains("dims has 2 entries; rank 3 needs 3"), "{err}");
    let (code, _, err) = check("--tiled", &["c|0|2|0|16,x|16|16,1|1,1|0|0|0|0"], &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("dims") && err.contains("malformed number"),
        "{err}"
    );
    let (code, _, err) = run(&["tensormap", "check"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&["tensormap", "check", "--im2col", "/nonexistent.tsv"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"), "{err}");
}

/// `-` reads standard input; the header line (`id` first) and comments are skipped.
#[test]
fn stdin_and_header() {
    let text = "id\tdtype\trank\taddr_off\tdims\tstrides\tbox\telement_strides\tinterleave\tswizzle\tl2\toob\n# note\n\nx\t0\t1\t0\t64\t-\t16\t1\t0\t0\t3\t0\n";
    let out = output_with_stdin(
        smemdesc().args(["tensormap", "check", "--tiled", "-"]),
        text,
    );
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "x\tok\n");
}

/// The guide's example (docs/guide/cli.md) is real output, run from the repository root as it
/// is written.
#[test]
fn guide_example_is_real() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let guide = std::fs::read_to_string(root.join("docs/guide/cli.md")).unwrap();
    let cmd = "$ smemdesc tensormap check --im2col smemdesc-cli/tests/data/im2col.tsv; echo \"exit $?\"\n";
    let block = guide
        .split(cmd)
        .nth(1)
        .expect("the guide shows the example");
    let documented = block.split("```").next().unwrap();
    let out = smemdesc()
        .args([
            "tensormap",
            "check",
            "--im2col",
            "smemdesc-cli/tests/data/im2col.tsv",
        ])
        .current_dir(&root)
        .output()
        .unwrap();
    let got = format!(
        "{}exit {}\n",
        String::from_utf8_lossy(&out.stdout),
        out.status.code().unwrap()
    );
    assert_eq!(got, documented);
    // the fixture's verdicts, by the documented rules: legal; rank-4 corner -129 < -128; 128 bf16
    // channels = 256 B > the 128B swizzle span; 1025 > 1024 pixels; W 56 + -56 - 0 = 0 (empty box)
    let v: Vec<&str> = documented
        .lines()
        .map(|l| l.split('\t').nth(1).unwrap_or(""))
        .collect();
    assert_eq!(v, ["ok", "refused", "refused", "refused", "refused", ""]);
}

/// `--oob-base-128kb`: the Blackwell 128 KiB out-of-bounds window (TensorRT-LLM #18133: with
/// OOB_ADDR_GEN_MODE_BASE_128kB the buffer must start 128 KiB-aligned and own 128 KiB from
/// its base). The row's buffer is its tensor's span from 0x7f0000000000 + addr_off.
#[test]
fn tiled_rows_linted_for_the_128k_window() {
    let rows = [
        // 4096 x 4096 bf16 (32 MiB) at the 128 KiB-aligned base: clean
        "big|9|2|0|4096,4096|8192|64,128|1,1|0|3|3|0",
        // the same at a 512-B offset (a caching pool's slice): misaligned
        "slice|9|2|512|4096,4096|8192|64,128|1,1|0|3|3|0",
        // 8 rows of 4096 bf16 = 64 KiB: legal for the encode, but no headroom
        "decode8|9|2|0|4096,8|8192|64,8|1,1|0|3|3|0",
        // 16 rows = 128 KiB exactly: enough
        "decode16|9|2|0|4096,16|8192|64,16|1,1|0|3|3|0",
        // refused by the encode's own rule: no lint
        "stride|9|2|0|100,8|200|8,8|1,1|0|0|3|0",
    ];
    let (code, out, err) = check("--tiled", &rows, &["--arch", "sm100", "--oob-base-128kb"]);
    assert_eq!(code, 0, "{err}");
    let got = verdicts(&out);
    assert_eq!(got[0], ("big".into(), "ok".into(), String::new()));
    assert_eq!(
        (got[1].1.as_str(), got[1].2.contains("not 128 KiB-aligned")),
        ("ok", true),
        "{out}"
    );
    assert!(got[2].2.contains("owns 65536 B"), "{out}");
    assert_eq!(got[3], ("decode16".into(), "ok".into(), String::new()));
    assert_eq!(got[4].1, "refused");
    // Without the flag the same rows carry no lint.
    let (_, plain, _) = check("--tiled", &rows, &["--arch", "sm100"]);
    assert!(!plain.contains("lint:"), "{plain}");
    // It lints tiled maps only.
    let (code, _, err) = check("--im2col", &[], &["--oob-base-128kb"]);
    assert_eq!(code, 2, "{err}");
}

/// `decode --tensor-map ROW` runs `tensormap check`'s rules and lints on one row, each message
/// with its rule id: the rows of the driver documentation and of TensorRT-LLM #18133 above get
/// the same verdicts and lints from both commands.
#[test]
fn decode_runs_the_same_rules_and_lints() {
    let rows = [
        "big|9|2|0|4096,4096|8192|64,128|1,1|0|3|3|0",
        "slice|9|2|512|4096,4096|8192|64,128|1,1|0|3|3|0",
        "decode8|9|2|0|4096,8|8192|64,8|1,1|0|3|3|0",
        // "CU_TENSOR_MAP_SWIZZLE_128B requires the bounding box inner dimension to be <= 128"
        "sw|9|2|0|4096,4096|8192|128,64|1,1|0|3|3|0",
        "stride|9|2|0|100,8|200|8,8|1,1|0|0|3|0",
    ];
    let (_, table, _) = check("--tiled", &rows, &["--arch", "sm100", "--oob-base-128kb"]);
    for (row, (id, verdict, reason)) in rows.iter().zip(verdicts(&table)) {
        let spaced = row.replace('|', " ");
        let (code, out, err) = run(&[
            "decode",
            "--tensor-map",
            &spaced,
            "--arch",
            "sm100",
            "--oob-base-128kb",
        ]);
        assert!(out.starts_with(&format!("tensor map `{id}`")), "{out}{err}");
        assert!(out.contains("  boxDim          = ["), "{out}");
        if verdict == "refused" {
            assert_eq!(code, 1, "{id}");
            assert!(
                out.contains(&format!("verdict: refused: {reason}")),
                "{out}"
            );
            assert!(reason.contains("[rule "), "{reason}");
        } else {
            assert_eq!(code, 0, "{id}: {err}");
            assert!(out.contains("verdict: ok"), "{out}");
            match reason.strip_prefix("lint: ") {
                Some(lint) => {
                    assert!(out.contains(lint), "{out}");
                    assert!(lint.contains("[rule tma.oob-128kb-"), "{lint}");
                }
                None => assert!(
                    out.contains("lint (OOB_ADDR_GEN_MODE_BASE_128kB): holds"),
                    "{out}"
                ),
            }
        }
    }
    let sw = run(&["decode", "--tensor-map", &rows[3].replace('|', "\t")]).1;
    assert!(sw.contains("[rule tma.box-inner-swizzle; "), "{sw}");
    // The guide's example (docs/guide/cli.md; its quoted row keeps it out of readme.rs) is real.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let guide = std::fs::read_to_string(root.join("docs/guide/cli.md")).unwrap();
    let block = guide
        .split("$ smemdesc decode --tensor-map \"")
        .nth(1)
        .expect("the guide's decode --tensor-map example");
    let (row, rest) = block.split_once('"').unwrap();
    let (flags, shown) = rest.split_once('\n').unwrap();
    let mut argv = vec!["decode", "--tensor-map", row];
    argv.extend(flags.split_whitespace());
    let (code, out, _) = run(&argv);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        shown.split("```").next().unwrap(),
        "the guide's example is stale"
    );
    // An unreadable row is a usage error naming the fields.
    let (code, _, err) = run(&["decode", "--tensor-map", "m 9 2"]);
    assert_eq!(code, 2);
    assert!(err.contains("fields: id dtype rank"), "{err}");
}
