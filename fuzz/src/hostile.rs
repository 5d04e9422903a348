//! The hostile-input targets of issue 42: `#[smem_pipeline]`'s arguments, the grouped tensor-map
//! declaration, the convolution plan, `smemdesc tensormap check`, `smemdesc check-ptx` and
//! `smemdesc header --from`. Each must never panic (overflow checks are on); the text targets
//! mutate seed files of the repository (PTX the CLI's tests read, Rust the header tests read).

use crate::gen::Rng;
use crate::{cli, pipeline};
use proc_macro2::TokenStream;
use smemdesc_core::tma::{Conv2d, GroupValues, GroupedMap, ImplicitGemmA};
use smemdesc_core::{Arch, TensorMap, TensorMapArg, TensorMapDataType as T, TensorMapSwizzle};
use std::str::FromStr;

/// The outcome label `what: Variant` for an error's `Debug` text (interned, so the driver's
/// outcome spread shows which refusals the generator reaches).
fn label(what: &str, debug: String) -> &'static str {
    use std::collections::HashMap;
    use std::sync::Mutex;
    static SEEN: Mutex<Option<HashMap<String, &'static str>>> = Mutex::new(None);
    let name: String = debug
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let key = format!("{what} {name}");
    let mut seen = SEEN.lock().unwrap_or_else(|p| p.into_inner());
    let map = seen.get_or_insert_with(HashMap::new);
    map.entry(key.clone())
        .or_insert_with(|| Box::leak(key.into_boxed_str()))
}

/// A `u32` drawn like [`Rng::number`]: small round values, edges, or anything.
fn num32(r: &mut Rng) -> u32 {
    match r.below(6) {
        0..=2 => *r.pick(&[0, 1, 2, 3, 4, 7, 8, 16, 32, 64, 127, 128, 129, 255, 256]),
        3 => r.below(300) as u32,
        4 => *r.pick(&[
            65535,
            65536,
            1 << 30,
            (1 << 31) - 1,
            1 << 31,
            u32::MAX,
            u32::MAX - 1,
        ]),
        _ => r.next() as u32 >> r.below(32),
    }
}

/// A `u64` drawn like [`num32`], wider.
fn num64(r: &mut Rng) -> u64 {
    match r.below(5) {
        0..=2 => u64::from(num32(r)),
        3 => *r.pick(&[
            1 << 32,
            (1 << 32) + 1,
            1 << 40,
            (1 << 40) - 16,
            u64::MAX,
            u64::MAX - 15,
        ]),
        _ => r.next() >> r.below(64),
    }
}

/// Junk for `#[smem_pipeline]` values (raw identifiers included: `full = r#full` panicked the
/// macro before issue 42).
const PIPE_JUNK: [&str; 14] = [
    "r#full",
    "r#empty",
    "1.5",
    "'c'",
    "-1",
    "::x",
    "=>",
    "()",
    "(,)",
    "true",
    "#",
    "a b",
    "\"\"",
    "(1, 2, 3)",
];

fn pipe_value(r: &mut Rng, key: &str) -> String {
    if r.chance(8) {
        return r.pick(&PIPE_JUNK).to_string();
    }
    let name = |r: &mut Rng| {
        r.pick(&["a", "b", "sfa", "sfb", "full", "empty", "x"])
            .to_string()
    };
    match key {
        "storage" => r.pick(&["S", "crate::S", "m::S", "S<T>"]).to_string(),
        "full" | "empty" => r
            .pick(&["full", "empty", "none", "bars", "m::full"])
            .to_string(),
        "loads" => {
            let n = r.below(4);
            let items: Vec<String> = (0..n)
                .map(|_| {
                    let scale = if r.chance(20) { "scale " } else { "" };
                    format!(
                        "{}: {scale}{}",
                        name(r),
                        r.pick(&["TileA", "TileB", "Sf", "m::T"])
                    )
                })
                .collect();
            format!("({})", items.join(", "))
        }
        "multicast" => {
            let items: Vec<String> = (0..r.below(4)).map(|_| name(r)).collect();
            format!("({})", items.join(", "))
        }
        "cluster" => format!("({}, {})", r.number(), r.number()),
        _ => r.number(),
    }
}

/// `#[smem_pipeline(...)]`: the macro's argument grammar (`smemdesc-grammar`'s `pipeline.rs`)
/// and expansion (smemdesc-macros' `pipeline.rs`, included from its source) on generated and mutated
/// arguments: an expansion or a spanned error with a message, never a panic.
pub fn pipeline_macro(r: &mut Rng) -> (String, Result<&'static str, String>) {
    let keys: Vec<&str> = smemdesc_grammar::pipeline::PIPELINE_KEYS
        .iter()
        .map(|(k, _)| *k)
        .collect();
    let mut chosen: Vec<&str> = vec!["storage", "loads", "consumers"];
    for k in &keys[3..] {
        if r.chance(25) {
            chosen.push(k);
        }
    }
    if r.chance(5) {
        chosen.remove(r.below(chosen.len() as u64) as usize);
    }
    if r.chance(4) {
        chosen.push(*r.pick(&keys));
    }
    let parts: Vec<String> = chosen
        .iter()
        .map(|k| {
            let k = if r.chance(1) { "stagez" } else { k };
            match r.below(100) {
                0 => k.to_string(),
                1 => format!("{k} ="),
                _ => format!("{k} = {}", pipe_value(r, k)),
            }
        })
        .collect();
    let text = parts.join(if r.chance(3) { " " } else { ", " });
    crate::note(&text);
    let Ok(attr) = TokenStream::from_str(&text) else {
        return (text, Ok("unlexable (skipped)"));
    };
    let item = if r.chance(5) {
        "struct P<T>(T);"
    } else {
        "pub struct P;"
    };
    let item = TokenStream::from_str(item).expect("item");
    let result = match pipeline::expand(attr, item) {
        Ok(ts) if ts.is_empty() => Err("an empty expansion".to_string()),
        Ok(_) => Ok("expanded"),
        Err(e) if e.to_compile_error().is_empty() => Err("an error without a message".into()),
        Err(_) => Ok("refused"),
    };
    (text, result)
}

const TYPES: [T; 6] = [
    T::Uint8,
    T::Float16,
    T::Bfloat16,
    T::Float32,
    T::Int64,
    T::Float64,
];

/// A tiled template of random rank with some dims and strides given, some open: mostly a legal
/// rank-2 or rank-3 matrix map, else anything.
fn template(r: &mut Rng) -> TensorMap {
    if r.chance(60) {
        let rank = 2 + r.below(2) as u32;
        let mut t = TensorMap::new(Arch::Sm90, T::Bfloat16, rank)
            .dim(0, *r.pick(&[64, 4096, 1 << 20]))
            .box_dim(0, 64)
            .box_dim(1, *r.pick(&[64, 128, 256]))
            .swizzle(TensorMapSwizzle::B128);
        if rank == 3 {
            t = t.box_dim(2, 1);
        }
        if r.chance(50) {
            t = t.stride(0, *r.pick(&[128, 8192, 1 << 21, 8]));
        }
        return t;
    }
    let rank = 1 + r.below(5) as u32;
    let arch = if r.chance(50) {
        Arch::Sm90
    } else {
        Arch::Sm100
    };
    let mut t = TensorMap::new(arch, *r.pick(&TYPES), rank);
    for i in 0..rank {
        if r.chance(40) {
            t = t.dim(i, num64(r));
        }
        if i + 1 < rank && r.chance(30) {
            t = t.stride(i, num64(r));
        }
        t = t.box_dim(i, *r.pick(&[1, 8, 16, 64, 128, 256, 257, 0]));
    }
    if r.chance(40) {
        t = t.swizzle(*r.pick(&[
            TensorMapSwizzle::B32,
            TensorMapSwizzle::B64,
            TensorMapSwizzle::B128,
        ]));
    }
    t
}

/// The grouped declaration: `GroupedMap::new` (the non-panicking form of `declare`) on random
/// templates and rewritten fields, then `check_group` with random per-group values.
pub fn grouped(r: &mut Rng) -> (String, Result<&'static str, String>) {
    let t = template(r);
    let mut fields = vec![TensorMapArg::GlobalAddress];
    if r.chance(10) {
        fields.clear();
    }
    for _ in 0..r.below(5) {
        let wide = r.chance(10);
        fields.push(match r.below(6) {
            0 => TensorMapArg::GlobalAddress,
            1 | 2 => TensorMapArg::GlobalDim(r.below(if wide { 7 } else { 3 }) as u32),
            3 | 4 => TensorMapArg::GlobalStrides(r.below(if wide { 6 } else { 2 }) as u32),
            _ => TensorMapArg::BoxDim(r.below(5) as u32),
        });
    }
    let mut g = GroupValues::new(if r.chance(70) {
        r.below(1 << 20) * 16
    } else {
        num64(r)
    });
    for i in 0..6 {
        if r.chance(60) {
            g = g.dim(
                i,
                if r.chance(60) {
                    64 * (1 + r.below(64))
                } else {
                    num64(r)
                },
            );
        }
        if r.chance(40) {
            g = g.stride(
                i,
                if r.chance(60) {
                    128 * (1 + r.below(64))
                } else {
                    num64(r)
                },
            );
        }
    }
    let input = format!("{t:?} rewriting {fields:?}, group {g:?}");
    crate::note(&input);
    let result = match GroupedMap::new(t, &fields) {
        Err(e) if e.to_string().is_empty() => Err("a declaration error without a message".into()),
        Err(e) => Ok(label("declaration refused:", format!("{e:?}"))),
        Ok(m) => match m.check_group(&g) {
            Ok(_) => Ok("group accepted"),
            Err(e) if e.to_string().is_empty() => Err("a group error without a message".into()),
            Err(e) => Ok(label("group refused:", format!("{e:?}"))),
        },
    };
    (input, result)
}

/// `Conv2d` (output, corners, FLOPs) and its implicit-GEMM A plan (`ImplicitGemmA::new`, every
/// count, a few loads, the im2col map and its check, the kernel walk) on random, often huge,
/// parameters.
pub fn conv(r: &mut Rng) -> (String, Result<&'static str, String>) {
    // Mostly a real layer's sizes, each value an edge 1 time in 12.
    let v = |r: &mut Rng, lo: u64, hi: u64| {
        if r.chance(8) {
            num32(r)
        } else {
            (lo + r.below(hi - lo + 1)) as u32
        }
    };
    let (n, h, w) = (v(r, 1, 8), v(r, 1, 96), v(r, 1, 96));
    let (ch, k) = (v(r, 1, 64).wrapping_mul(8), v(r, 1, 256));
    let (rr, ss) = (v(r, 1, 7), v(r, 1, 7));
    let c = Conv2d::new(n, h, w, ch, k, rr, ss)
        .stride(v(r, 1, 3), v(r, 1, 3))
        .pad(v(r, 0, 3), v(r, 0, 3))
        .dilation(v(r, 1, 3), v(r, 1, 3));
    let dt = *r.pick(&[T::Float16, T::Bfloat16, T::Float32, T::Uint8, T::Float64]);
    let bm = *r.pick(&[64, 128, 128, 256, 1024, 2048, 0]);
    let bk = *r.pick(&[8, 8, 16, 32, 64, 128, 256, 0]);
    let input = format!("{c:?} {dt:?} bm {bm} bk {bk}");
    crate::note(&input);
    let _ = (c.output(), c.corners(), c.flops());
    let result = match ImplicitGemmA::new(c, dt, bm, bk) {
        Err(e) if e.to_string().is_empty() => Err("an error without a message".into()),
        Err(e) => Ok(label("refused:", format!("{e:?}"))),
        Ok(a) => {
            let a = match a.pixels_per_load(*r.pick(&[1, 16, 32, 64, bm])) {
                Ok(p) => p,
                Err(_) => a,
            };
            let _ = (
                a.gemm_m(),
                a.gemm_k(),
                a.m_blocks(),
                a.k_steps(),
                a.tile_bytes(),
            );
            for _ in 0..4 {
                let mb = r.below(a.m_blocks().max(1) + 1);
                let kk = r.below(u64::from(a.k_steps()) + 1) as u32;
                let j = r.below(u64::from(a.loads_per_step()) + 1) as u32;
                if let Ok(l) = a.load(mb, kk, j) {
                    if u32::from(l.offsets[0]).max(u32::from(l.offsets[1])) > 255 {
                        return (input, Err(format!("offsets {:?} beyond 255", l.offsets)));
                    }
                }
            }
            for arch in [Arch::Sm90, Arch::Sm100] {
                let _ = a.map(arch).check();
            }
            if let Ok(w) = a.walk() {
                let _ = w.load(w.origin(0, 0), 0, &w.step(0));
            }
            Ok("planned")
        }
    };
    (input, result)
}

/// `n` comma-separated values drawn by `f`.
fn list(r: &mut Rng, n: u64, f: fn(&mut Rng) -> String) -> String {
    (0..n).map(|_| f(r)).collect::<Vec<_>>().join(",")
}

/// `smemdesc tensormap check` on generated rows (the judging core, `check_text`, both modes and
/// architectures): rows of consistent lengths for their rank with plausible or edge values, some
/// with one column replaced by junk, among comments.
pub fn tensormap(r: &mut Rng) -> (String, Result<&'static str, String>) {
    let im2col = r.chance(50);
    let mut text = String::new();
    for i in 0..1 + r.below(4) {
        if r.chance(5) {
            text.push_str("# comment\n");
        }
        let rank = if im2col {
            3 + r.below(3)
        } else {
            1 + r.below(5)
        };
        let pick = |r: &mut Rng, xs: &[&str]| r.pick(xs).to_string();
        let mut cols = vec![
            format!("r{i}"),
            pick(r, &["1", "7", "9", "10", "12", "13", "15", "16", "0", "3"]),
            rank.to_string(),
            pick(r, &["0", "0", "16", "8", "256"]),
            list(r, rank, |r| match r.below(4) {
                0 => r.number(),
                _ => r.pick(&["1", "8", "56", "64", "128", "4096"]).to_string(),
            }),
            list(r, rank - 1, |r| match r.below(4) {
                0 => r.number(),
                _ => r.pick(&["128", "7168", "401408", "16", "8192"]).to_string(),
            }),
        ];
        let corner = |r: &mut Rng| match r.below(5) {
            0 => format!("-{}", r.number()),
            1 => r.number(),
            _ => r.pick(&["-1", "0", "-128", "127", "-16", "15"]).to_string(),
        };
        if im2col {
            cols.push(list(r, rank - 2, corner));
            cols.push(list(r, rank - 2, corner));
            cols.push(pick(r, &["64", "128", "256", "8", "0", "257"]));
            cols.push(pick(r, &["128", "1024", "1025", "1", "0"]));
        } else {
            cols.push(list(r, rank, |r| {
                r.pick(&["64", "256", "8", "1", "0", "257"]).to_string()
            }));
        }
        cols.push(list(r, rank, |r| {
            r.pick(&["1", "1", "2", "8", "9", "0"]).to_string()
        }));
        for _ in 0..4 {
            cols.push(pick(r, &["0", "0", "1", "2", "3", "4", "8"]));
        }
        if r.chance(10) {
            let k = r.below(cols.len() as u64) as usize;
            cols[k] = pick(
                r,
                &[
                    "",
                    "x",
                    "-",
                    "1,,2",
                    "99999999999999999999999",
                    "-2147483649",
                ],
            );
        }
        if r.chance(3) {
            cols.pop();
        }
        text.push_str(&cols.join("\t"));
        text.push('\n');
    }
    let arch = if r.chance(50) {
        Arch::Sm90
    } else {
        Arch::Sm100
    };
    crate::note(&text);
    let result = match cli::tensormap::check_text(&text, im2col, arch) {
        Ok(s) if s.is_empty() => Err("rows judged without output".to_string()),
        Ok(_) => Ok("judged"),
        Err(e) if e.is_empty() => Err("refused without a message".to_string()),
        Err(e) => Ok(label(
            "refused:",
            e.split(':').next().unwrap_or("").replace(' ', "_"),
        )),
    };
    (text, result)
}

/// Pieces the text mutations insert.
const PTX_WORDS: [&str; 16] = [
    ".global",
    ".const",
    ".local",
    ".b8",
    ".u64",
    ".",
    ".func",
    ".extern",
    ".entry",
    "{",
    "}",
    ";",
    "=",
    "generic(",
    "0xFF(",
    "[4294967296]",
];
const RUST_WORDS: [&str; 16] = [
    "#[smem_storage(arch = sm90)]",
    "#[smem_tile(",
    "struct",
    "const",
    "[u8; ",
    "]",
    "{",
    "}",
    "(",
    ")",
    "=",
    ",",
    ";",
    "TmemSlot",
    "Mbarrier",
    "r#type",
];

/// `seed` with a few mutations: ranges deleted or duplicated, words or characters inserted,
/// numbers replaced by edge values, a truncation, lines swapped. Works on `char`s: always UTF-8.
fn mutate(r: &mut Rng, seed: &str, words: &[&str]) -> String {
    let mut s: Vec<char> = seed.chars().collect();
    for _ in 0..1 + r.below(5) {
        let len = s.len().max(1) as u64;
        let at = r.below(len) as usize;
        let at = at.min(s.len());
        match r.below(8) {
            0 => {
                let end = (at + 1 + r.below(40) as usize).min(s.len());
                s.drain(at..end);
            }
            1 | 2 => {
                let w = r.pick(words);
                s.splice(at..at, w.chars().chain([' ']));
            }
            3 => {
                let end = (at + r.below(80) as usize).min(s.len());
                let piece: Vec<char> = s[at..end].to_vec();
                s.splice(at..at, piece);
            }
            4 => {
                // The next run of digits becomes an edge value.
                if let Some(p) = s[at..].iter().position(|c| c.is_ascii_digit()) {
                    let b = at + p;
                    let e = b + s[b..].iter().take_while(|c| c.is_ascii_digit()).count();
                    let n = r.number();
                    s.splice(b..e, n.chars());
                }
            }
            5 => s.truncate(at),
            6 => {
                let c = *r.pick(&[
                    '{', '}', ';', '.', '=', '"', 'é', '\n', '#', '[', ']', '(', ')', '\'', '\0',
                ]);
                s.insert(at, c);
            }
            _ => {
                let text: String = s.iter().collect();
                let mut lines: Vec<&str> = text.lines().collect();
                if lines.len() > 1 {
                    let a = r.below(lines.len() as u64) as usize;
                    let b = r.below(lines.len() as u64) as usize;
                    lines.swap(a, b);
                }
                s = lines.join("\n").chars().collect();
            }
        }
    }
    s.into_iter().collect()
}

/// A file of this process under the system's temporary folder.
fn temp_path(name: &str) -> String {
    std::env::temp_dir()
        .join(format!("smemdesc-fuzz-{}-{name}", std::process::id()))
        .display()
        .to_string()
}

/// Runs the CLI on `argv` and judges it as the `cli` target does.
fn judge(argv: &[&str]) -> Result<&'static str, String> {
    let run = cli::execute(argv.iter().copied());
    match run.status {
        0 | 1 if run.stdout.is_empty() => Err("success without output".to_string()),
        0 | 1 => Ok("ran"),
        2 if run.stderr.is_empty() => Err("error without a message".to_string()),
        2 => Ok("refused with a message"),
        s => Err(format!("exit status {s}")),
    }
}

const PTX_SEEDS: [&str; 4] = [
    include_str!("../../smemdesc-cli/tests/data/panic.ptx"),
    include_str!("../../smemdesc-cli/tests/data/table.ptx"),
    include_str!("../../smemdesc-cli/tests/data/local.ptx"),
    include_str!("../../smemdesc-cli/tests/data/clean.ptx"),
];

/// `smemdesc check-ptx` on mutated PTX modules (the CLI tests' fixtures) and on random text.
pub fn check_ptx(r: &mut Rng) -> (String, Result<&'static str, String>) {
    let text = if r.chance(10) {
        (0..r.below(30))
            .map(|_| *r.pick(&PTX_WORDS))
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        let seed = *r.pick(&PTX_SEEDS);
        mutate(r, seed, &PTX_WORDS)
    };
    crate::note(&text);
    let path = temp_path("check.ptx");
    if let Err(e) = std::fs::write(&path, &text) {
        return (text, Err(format!("cannot write {path}: {e}")));
    }
    let json = r.chance(30);
    let mut argv = vec!["smemdesc", "check-ptx", path.as_str()];
    if json {
        argv.push("--json");
    }
    let result = judge(&argv);
    (text, result)
}

const RUST_SEEDS: [&str; 4] = [
    include_str!("../../tests/pipeline_api.rs"),
    include_str!("../../tests/header_fixture.rs"),
    include_str!("../../tests/tmem_storage.rs"),
    include_str!("../../tests/storage.rs"),
];

/// `smemdesc header --from` on mutated Rust sources (the header tests' fixtures and storages).
pub fn header_from(r: &mut Rng) -> (String, Result<&'static str, String>) {
    let seed = *r.pick(&RUST_SEEDS);
    let text = mutate(r, seed, &RUST_WORDS);
    crate::note(&text);
    let path = temp_path("header.rs");
    if let Err(e) = std::fs::write(&path, &text) {
        return (text, Err(format!("cannot write {path}: {e}")));
    }
    let result = judge(&["smemdesc", "header", "--from", &path]);
    (text, result)
}
