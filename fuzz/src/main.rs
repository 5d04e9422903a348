//! Deterministic structured fuzzers for smemdesc (the "fuzzing as a habit" of issue 11).
//!
//! `cargo run --release -- [TARGET|all] [N] [SEED]` (or `scripts/fuzz.sh`) runs each target on N
//! generated inputs (default 100 000) and prints the count and the result; the exit status is 1
//! if any input failed. Targets:
//!
//! * `macro-args`: the `#[smem_tile]` / `smem_plan!` argument parser (the `smemdesc-grammar`
//!   crate's `tile.rs`, and smemdesc-macros' `emit.rs`, included from its source) fed
//!   `proc_macro2` token streams: grammar-built
//!   declarations with mutations, then the core's build, the error mapping and the emitted items.
//!   It must never panic (the core included: overflow checks are on).
//! * `descriptor`: `SmemDescriptor::decode` of raw 64-bit values (random, bit-flipped encodings):
//!   never a panic; whatever decodes re-encodes to the same bits; whatever is refused has reserved
//!   bits or an unknown layout code.
//! * `cli`: the `smemdesc` command line (smemdesc-cli's sources, included) parsing and running
//!   generated argument vectors: never a panic, and a success prints something.
//! * `pipeline-args`: `#[smem_pipeline]`'s argument grammar and expansion (smemdesc-macros'
//!   `pipeline.rs`, included, over the `smemdesc-grammar` crate) on generated, mutated arguments.
//! * `grouped`: `GroupedMap::new` (what `declare` checks) and `check_group` on random templates,
//!   rewritten fields and per-group values.
//! * `conv`: `Conv2d` and `ImplicitGemmA` (counts, loads, the im2col map, the kernel walk) on
//!   random, often huge, parameters.
//! * `tensormap`: `smemdesc tensormap check`'s row judge on generated rows.
//! * `check-ptx`: `smemdesc check-ptx` on mutated PTX modules (the CLI tests' fixtures) and junk.
//! * `header-from`: `smemdesc header --from` on mutated Rust sources (the header tests' files).
//!
//! The generator is a fixed PRNG (SplitMix64), so a run is reproducible from its seed; a failure
//! prints the input that caused it.

#[allow(dead_code, missing_docs, unused_imports)]
#[path = "../../smemdesc-cli/src/lib.rs"]
mod cli;
#[allow(dead_code)]
#[path = "../../smemdesc-macros/src/emit.rs"]
mod emit;
mod gen;
#[allow(dead_code)]
#[path = "../../smemdesc-macros/src/global.rs"]
mod global;
mod hostile;
#[path = "../../smemdesc-macros/src/pipeline.rs"]
mod pipeline;
#[allow(dead_code)]
#[path = "../../smemdesc-macros/src/scale.rs"]
mod scale;
mod targets;

// The CLI's modules name these as `crate::…`.
use cli::{parse_num, CliError};

use std::panic::{catch_unwind, AssertUnwindSafe};

/// One target: a name and a function that checks one input drawn from the generator, returning
/// a description of the input and `Err` with what went wrong.
type Target = (
    &'static str,
    fn(&mut gen::Rng) -> (String, Result<&'static str, String>),
);

const TARGETS: [Target; 9] = [
    ("macro-args", targets::macro_args),
    ("descriptor", targets::descriptor),
    ("cli", targets::cli),
    ("pipeline-args", hostile::pipeline_macro),
    ("grouped", hostile::grouped),
    ("conv", hostile::conv),
    ("tensormap", hostile::tensormap),
    ("check-ptx", hostile::check_ptx),
    ("header-from", hostile::header_from),
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let which = args.first().map(String::as_str).unwrap_or("all");
    let n: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0x5eed);
    let chosen: Vec<&Target> = TARGETS
        .iter()
        .filter(|(name, _)| which == "all" || which == *name)
        .collect();
    if chosen.is_empty() {
        let names: Vec<&str> = TARGETS.iter().map(|(n, _)| *n).collect();
        eprintln!(
            "unknown target `{which}`; targets: {}, all",
            names.join(", ")
        );
        std::process::exit(2);
    }
    // A panic is reported by the loop below, with its input; keep the default hook quiet.
    std::panic::set_hook(Box::new(|_| {}));
    let mut failed = false;
    for (name, f) in chosen {
        let mut rng = gen::Rng::new(seed ^ fxhash(name));
        let t0 = std::time::Instant::now();
        let mut failures = 0u64;
        let mut outcomes: Vec<(&'static str, u64)> = Vec::new();
        for i in 0..n {
            let mut input = String::new();
            note("");
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                let (desc, r) = f(&mut rng);
                input = desc;
                r
            }));
            let problem = match outcome {
                Ok(Ok(what)) => {
                    match outcomes.iter_mut().find(|(w, _)| *w == what) {
                        Some((_, c)) => *c += 1,
                        None => outcomes.push((what, 1)),
                    }
                    None
                }
                Ok(Err(e)) => Some(e),
                Err(p) => Some(format!(
                    "panic: {}",
                    p.downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default()
                )),
            };
            if input.is_empty() {
                input = NOTED.with(|n| n.borrow().clone());
            }
            if let Some(p) = problem {
                failures += 1;
                if failures <= 5 {
                    println!("{name}: input #{i} failed: {p}\n    input: {input}");
                }
            }
        }
        let spread: Vec<String> = outcomes.iter().map(|(w, c)| format!("{w} {c}")).collect();
        println!(
            "{name}: {n} inputs, {failures} failures ({:.1} s, seed {seed:#x}; {}) -> {}",
            t0.elapsed().as_secs_f64(),
            spread.join(", "),
            if failures == 0 { "PASS" } else { "FAIL" }
        );
        failed |= failures > 0;
    }
    std::process::exit(i32::from(failed));
}

thread_local! {
    /// The input the running target noted before its risky calls ([`note`]): what the driver
    /// prints when the target panics before returning its description.
    static NOTED: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Notes `input` as the current input (shown if the target panics).
pub fn note(input: &str) {
    NOTED.with(|n| {
        let mut n = n.borrow_mut();
        n.clear();
        n.push_str(input);
    });
}

/// A small stable hash of the target name, so each target has its own stream for a seed.
fn fxhash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}
