//! The three fuzz targets. Each draws one input, checks it, and returns a description of the input
//! with the verdict; a panic is caught (and counted) by the driver.

use crate::gen::Rng;
use crate::{cli, emit};
use smemdesc_grammar::tile as args;
use proc_macro2::{Span, TokenStream};
use smemdesc_core::{Arch, SmemDescriptor};
use std::str::FromStr;

const KEYS: [&str; 12] = [
    "arch",
    "operand",
    "dtype",
    "tile",
    "major",
    "swizzle",
    "order",
    "mma",
    "kind",
    "stages",
    "tma_box",
    "cta_group",
];

/// Junk that still lexes: other literal kinds, paths, punctuation, groups.
const JUNK: [&str; 16] = [
    "1.5", "'c'", "b\"x\"", "-1", "::x", "=>", "[1, 2]", "{}", "()", "(,)", "true", "r#type", "#",
    "a b", "\"\"", "1e3",
];

fn pair(r: &mut Rng) -> String {
    match r.below(6) {
        0 => format!("({})", r.number()),
        1 => format!("({}, {}, {})", r.number(), r.number(), r.number()),
        2 => r.number(),
        _ => format!("({}, {})", r.number(), r.number()),
    }
}

/// A legal-looking value for `key` (each on its own may still be refused in combination).
fn legal(r: &mut Rng, key: &str) -> String {
    let e = |r: &mut Rng| {
        r.pick(&["16", "32", "64", "64", "128", "128", "256"])
            .to_string()
    };
    let s: &&str = match key {
        "arch" => r.pick(&["sm90", "sm100"]),
        "operand" => r.pick(&["A", "B"]),
        "dtype" => r.pick(&[
            "f16", "bf16", "bf16", "tf32", "f32", "e4m3", "e5m2", "s8", "u8",
        ]),
        "tile" => return format!("({}, {})", e(r), e(r)),
        "tma_box" => return format!("({}, {})", r.pick(&["8", "16", "64", "128"]), e(r)),
        "major" => r.pick(&["K", "K", "MN"]),
        "swizzle" => r.pick(&["auto", "none", "32B", "64B", "128B", "128B_base32B"]),
        "order" => r.pick(&["mn_first", "k_first"]),
        "mma" => r.pick(&[
            "m64n256k16",
            "m64n128k16",
            "m64n64k8",
            "m128n256k16",
            "m64n128k32",
            "(64, 64)",
        ]),
        "kind" => r.pick(&["f16", "tf32", "f8f6f4", "i8", "mxf8f6f4"]),
        "stages" => r.pick(&["1", "2", "3", "4"]),
        _ => r.pick(&["1", "2"]),
    };
    s.to_string()
}

/// A value for `key`: mostly a legal-looking one, else words of a wider pool, other numbers or
/// junk.
fn value(r: &mut Rng, key: &str) -> String {
    if r.chance(88) {
        return legal(r, key);
    }
    if r.chance(20) {
        return r.pick(&JUNK).to_string();
    }
    let word = |r: &mut Rng, pool: &[&str]| r.pick(pool).to_string();
    match key {
        "arch" => word(r, &["sm90", "sm100", "sm80", "\"sm90\"", "90"]),
        "operand" => word(r, &["A", "B", "C", "a", "\"B\""]),
        "dtype" => word(
            r,
            &[
                "f16", "bf16", "tf32", "f32", "e4m3", "e5m2", "s8", "u8", "e2m3", "e3m2", "e2m1",
                "bf17", "f64", "\"bf16\"",
            ],
        ),
        "tile" | "tma_box" => pair(r),
        "major" => word(r, &["K", "MN", "X", "k", "mn"]),
        "swizzle" => word(
            r,
            &[
                "auto",
                "none",
                "32B",
                "64B",
                "128B",
                "128B_base32B",
                "256B",
                "\"128B\"",
                "128",
            ],
        ),
        "order" => word(r, &["mn_first", "k_first", "first"]),
        "mma" => match r.below(3) {
            0 => format!("m{}n{}k{}", r.number(), r.number(), r.number()),
            1 => word(r, &["m64n256k16", "m64n8k8", "m128n256k32", "m64"]),
            _ => pair(r),
        },
        "kind" => word(
            r,
            &[
                "f16", "tf32", "f8f6f4", "i8", "mxf8f6f4", "mxf4", "mxf4nvf4", "f32",
            ],
        ),
        _ => r.number(),
    }
}

/// A declaration's argument tokens: the five required keys most of the time, some optional ones,
/// with mutations (a key dropped, repeated or misspelled, `=` or the value missing, commas).
fn declaration(r: &mut Rng) -> String {
    let mut keys: Vec<&str> = KEYS[..5].to_vec();
    for k in &KEYS[5..] {
        if r.chance(35) {
            keys.push(k);
        }
    }
    if r.chance(5) {
        keys.remove(r.below(keys.len() as u64) as usize);
    }
    if r.chance(4) {
        let k = *r.pick(&KEYS);
        keys.push(k);
    }
    let mut parts = Vec::new();
    for k in keys {
        let key = if r.chance(1) {
            r.pick(&["swizle", "tiles", "foo", "Arch"]).to_string()
        } else {
            k.to_string()
        };
        let part = match r.below(150) {
            0 => key,
            1 => format!("{key} ="),
            2 => format!("{key} {}", value(r, k)),
            3 => format!("= {}", value(r, k)),
            _ => format!("{key} = {}", value(r, k)),
        };
        parts.push(part);
    }
    let sep = if r.chance(5) { " " } else { ", " };
    let mut s = parts.join(sep);
    if r.chance(10) {
        s.push(',');
    }
    if r.chance(3) {
        s.insert_str(0, ", ");
    }
    s
}

/// The macro's argument parser on a token stream, then what the macro does with the result: the
/// core's build, the error's span and message, or the emitted items.
pub fn macro_args(r: &mut Rng) -> (String, Result<&'static str, String>) {
    let text = declaration(r);
    let ts = match TokenStream::from_str(&text) {
        Ok(ts) => ts,
        Err(e) => return (text, Err(format!("generator made unlexable input: {e}"))),
    };
    let site = Span::call_site();
    let result = match args::parse(ts, site) {
        Err(e) => {
            if e.to_compile_error().is_empty() {
                Err("an argument error without a message".to_string())
            } else {
                Ok("argument error")
            }
        }
        Ok(decl) => match args::core_decl(&decl).build() {
            Err(e) => {
                let msg = args::core_error(&decl, &e, site).to_string();
                if msg.is_empty() {
                    Err(format!("empty message for {e:?}"))
                } else {
                    Ok("core error")
                }
            }
            Ok(plan) => {
                let item: syn::DeriveInput = syn::parse_str("pub struct Tile;").unwrap();
                let _ = emit::decl_expr(&decl);
                match emit::tile_struct(&decl, &plan, &item, site) {
                    Ok(ts) if ts.to_string().contains("struct Tile") => Ok("tile emitted"),
                    Ok(_) => Err("emitted items lack the struct".to_string()),
                    // A table too large for the emitted `u16` advances is a spanned error: fine.
                    Err(_) => Ok("emit error"),
                }
            }
        },
    };
    (text, result)
}

/// `SmemDescriptor::decode` against its contract.
pub fn descriptor(r: &mut Rng) -> (String, Result<&'static str, String>) {
    let raw = r.descriptor();
    let arch = if r.chance(50) {
        Arch::Sm90
    } else {
        Arch::Sm100
    };
    let input = format!("{} {raw:#018x}", arch.name());
    let any = SmemDescriptor::from_raw(arch, raw);
    // Every accessor is total on any bits.
    let _ = (
        any.start_address(),
        any.lbo(),
        any.sbo(),
        any.base_offset(),
        any.version(),
        any.layout(),
        any.row_phase(),
        any.fields(),
    );
    let result = match SmemDescriptor::decode(arch, raw) {
        Ok(d) => match d.fields().map(|f| SmemDescriptor::encode(arch, f)) {
            Ok(Ok(back)) if back.raw() == raw => Ok("decoded, round trip"),
            Ok(Ok(back)) => Err(format!("re-encodes to {:#018x}", back.raw())),
            Ok(Err(e)) | Err(e) => Err(format!("decoded, but does not re-encode: {e}")),
        },
        Err(_) if any.reserved_bits() != 0 || any.layout().is_none() => Ok("refused"),
        Err(e) => Err(format!("refused without reserved bits or bad layout: {e}")),
    };
    (input, result)
}

/// One flag of `tile` / `draw` with a value: mostly a legal-looking one, else a near miss or junk.
fn tile_flag(r: &mut Rng) -> Vec<String> {
    let (flag, good, bad): (&str, &[&str], &[&str]) = match r.below(13) {
        0 => ("--arch", &["sm90", "sm100"], &["sm80", ""]),
        1 => ("--operand", &["A", "B"], &["C"]),
        2 => (
            "--dtype",
            &["bf16", "f16", "tf32", "f32", "e4m3", "s8"],
            &["e2m1", "x"],
        ),
        3 => (
            "--tile",
            &["128x64", "64x64", "256x64", "64x128", "16x32"],
            &["0x0", "128", "x64", "9999999999x1"],
        ),
        4 => ("--major", &["K", "K", "MN"], &["Q"]),
        5 => (
            "--swizzle",
            &["auto", "none", "32B", "64B", "128B", "128B_base32B"],
            &["7B"],
        ),
        6 => ("--order", &["mn_first", "k_first"], &["z"]),
        7 => (
            "--mma",
            &["m64n256k16", "m64n64k8", "m128n256k32", "m64n128k16"],
            &["m0n0k0", "q"],
        ),
        8 => (
            "--kind",
            &["f16", "tf32", "f8f6f4", "i8", "mxf8f6f4"],
            &["mxf4", "bad"],
        ),
        9 => ("--stages", &["1", "2", "4"], &["0", "99999", "-1"]),
        10 => (
            "--tma-box",
            &["128x64", "8x64", "64x32"],
            &["0x0", "300x64"],
        ),
        11 => ("--cta-group", &["1", "2"], &["3"]),
        _ => (
            "--base",
            &["0", "0x400", "0x2000"],
            &["0x40", "0x3ff80", "0xffffffff", "0x1_0000"],
        ),
    };
    let mut v = vec![flag.to_string()];
    if !r.chance(2) {
        v.push(match r.below(100) {
            0..=84 => r.pick(good).to_string(),
            85..=94 => r.pick(bad).to_string(),
            _ => r.number(),
        });
    }
    v
}

/// The `smemdesc` command line on a generated argument vector (never `--svg`: no files written).
pub fn cli(r: &mut Rng) -> (String, Result<&'static str, String>) {
    let mut argv = vec!["smemdesc".to_string()];
    let sub = *r.pick(&[
        "decode",
        "tile",
        "tile",
        "draw",
        "fragment",
        "banks",
        "help",
        "--version",
        "bogus",
        "",
    ]);
    if !sub.is_empty() {
        argv.push(sub.to_string());
    }
    match sub {
        "decode" => {
            for _ in 0..r.below(3) + 1 {
                argv.push(if r.chance(80) {
                    format!("{:#x}", r.descriptor())
                } else {
                    r.number()
                });
            }
            if !r.chance(5) {
                argv.push("--arch".to_string());
                argv.push(r.pick(&["sm90", "sm100", "sm70"]).to_string());
            }
        }
        "fragment" | "banks" => fragment_flags(r, sub, &mut argv),
        _ => {
            // Mostly the required flags, then extras (repeats included).
            for f in ["--arch", "--dtype", "--tile", "--major"] {
                if r.chance(95) {
                    argv.push(f.to_string());
                    let mut one = tile_flag(r);
                    while one[0] != f {
                        one = tile_flag(r);
                    }
                    argv.extend(one.into_iter().skip(1));
                }
            }
            for _ in 0..r.below(3) {
                argv.extend(tile_flag(r));
            }
        }
    }
    if r.chance(30) {
        argv.push("--json".to_string());
    }
    if r.chance(2) {
        argv.push(r.pick(&["--help", "-h", "--", "-x"]).to_string());
    }
    let input = argv.join(" ");
    let run = cli::execute(&argv);
    let result = match run.status {
        0 | 1 if run.stdout.is_empty() => Err("success without output".to_string()),
        0 | 1 => Ok("ran"),
        _ if run.stderr.is_empty() => Err("error without a message".to_string()),
        _ => Ok("refused with a message"),
    };
    (input, result)
}

/// Flags of `smemdesc fragment` / `smemdesc banks`: mostly legal names, some wrong ones, random
/// numbers for the extents, offsets and counts.
fn fragment_flags(r: &mut Rng, sub: &str, argv: &mut Vec<String>) {
    let push = |argv: &mut Vec<String>, f: &str, v: String| {
        argv.push(f.to_string());
        argv.push(v);
    };
    if sub == "banks" && r.chance(25) {
        let acc = *r.pick(&[
            "lds.32",
            "lds.64",
            "lds.128",
            "cp.async",
            "ldmatrix.x1",
            "ldmatrix.x4",
            "stmatrix.x2",
            "ldmatrix.x3",
        ]);
        push(argv, "--access", acc.to_string());
        let n = if r.chance(80) { 32 } else { r.below(40) };
        let addrs: Vec<String> = (0..n)
            .map(|_| {
                if r.chance(70) {
                    (r.below(4096) * 4).to_string()
                } else {
                    r.number()
                }
            })
            .collect();
        push(argv, "--addrs", addrs.join(","));
        return;
    }
    if r.chance(95) {
        let a = *r.pick(&[
            "sm80", "sm86", "sm89", "sm90", "sm120", "sm_120a", "sm75", "sm100",
        ]);
        push(argv, "--arch", a.to_string());
    }
    if r.chance(95) {
        let m = *r.pick(&[
            "m16n8k4",
            "m16n8k8",
            "m16n8k16",
            "m16n8k32",
            "m16n8k64",
            "m64n256k16",
            "m64n64k8",
            "m64n8k32",
            "m64n7k16",
            "m64nk",
            "m8n8k4",
        ]);
        push(argv, "--mma", m.to_string());
    }
    if r.chance(90) {
        let d = *r.pick(&[
            "f16", "bf16", "tf32", "s8", "u8", "e4m3", "e5m2", "e3m2", "e2m3", "e2m1", "f64",
        ]);
        push(argv, "--dtype", d.to_string());
    }
    if r.chance(30) {
        let k = *r.pick(&[
            "plain",
            "f8f6f4",
            "mxf8f6f4",
            "mxf4",
            "mxf4nvf4",
            "kind::mxf4",
            "i8",
        ]);
        push(argv, "--kind", k.to_string());
    }
    if r.chance(90) {
        let o = *r.pick(&["A", "B", "C", "D", "a", "E"]);
        push(argv, "--operand", o.to_string());
    }
    if sub == "fragment" {
        if r.chance(10) {
            push(
                argv,
                "--scale-vec",
                r.pick(&["1X", "2X", "4X", "3X"]).to_string(),
            );
            push(
                argv,
                "--stype",
                r.pick(&["ue8m0", "ue4m3", "e8"]).to_string(),
            );
        }
        if r.chance(20) {
            argv.push("--regs".to_string());
        }
        if r.chance(15) {
            let m = *r.pick(&["m64n128k16", "m64n24k16", "m64n64k32", "m64n0k16", "m64n"]);
            push(argv, "--chain", m.to_string());
            if r.chance(50) {
                push(
                    argv,
                    "--chain-dtype",
                    r.pick(&["bf16", "e4m3", "s8", "e2m1"]).to_string(),
                );
            }
            if r.chance(50) {
                push(
                    argv,
                    "--accum",
                    r.pick(&["f32", "f16", "s32", "f64"]).to_string(),
                );
            }
        }
        return;
    }
    let dim = |r: &mut Rng| {
        if r.chance(80) {
            (8 * (r.below(32) + 1)).to_string()
        } else {
            r.number()
        }
    };
    let tile = format!("{}x{}", dim(r), dim(r));
    if r.chance(90) {
        push(argv, "--tile", tile);
    }
    for _ in 0..r.below(4) {
        match r.below(6) {
            0 => push(argv, "--major", r.pick(&["K", "MN", "mn", "X"]).to_string()),
            1 => push(
                argv,
                "--swizzle",
                r.pick(&["auto", "none", "32B", "64B", "128B", "128B_base32B"])
                    .to_string(),
            ),
            2 => push(
                argv,
                "--pad",
                if r.chance(70) {
                    (16 * r.below(5)).to_string()
                } else {
                    r.number()
                },
            ),
            3 => push(
                argv,
                "--ldmatrix",
                r.pick(&["1", "2", "4", "3", "0"]).to_string(),
            ),
            4 => push(
                argv,
                "--instr",
                if r.chance(70) {
                    r.below(20).to_string()
                } else {
                    r.number()
                },
            ),
            _ => push(
                argv,
                "--writer",
                r.pick(&[
                    "cp.async",
                    "st.shared.4",
                    "st.shared.8",
                    "st.shared.16",
                    "tma",
                ])
                .to_string(),
            ),
        }
    }
}
