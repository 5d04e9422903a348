//! An exhaustive interleaving check of the pipeline protocol the core declares
//! (`smemdesc_core::pipeline`): every number the actors use comes from a `PipelineLayout`; the
//! properties come from the PTX ISA's mbarrier semantics, not from the core.
//!
//! What is modelled:
//!
//! * mbarriers (PTX ISA, "mbarrier"): a phase bit (0 at init), a pending-arrival count (reset to
//!   the init count when a phase starts) and a tx-count (0 at a phase start; it may go negative
//!   within a phase). `arrive` decrements pending; `arrive.expect_tx(b)` adds `b` to the
//!   tx-count, then arrives; `complete_tx(b)` (a TMA transfer landing) subtracts `b`. The phase
//!   completes when pending and tx-count are both 0: the bit flips, pending resets.
//!   `try_wait.parity(p)` succeeds iff the phase bit is not `p` (so parity 1 passes at once on a
//!   fresh barrier). An arrival on a phase whose arrivals are all in, and a negative tx-count
//!   once all arrivals are in, are errors.
//! * per CTA one producer doing N iterations: wait `empty[stage(i)]` with `empty_parity(i)`;
//!   `arrive.expect_tx(full[stage(i)], expect_tx(rank))` (under `cta_group::2` the leader only);
//!   issue the stage's loads. A plain load is one transfer into the CTA's own stage; a multicast
//!   load of operand A (B) is one slice of `stage_bytes / sharers` per destination: every CTA
//!   with the same cluster `i` (`j`), itself included, each landing in that CTA's stage and
//!   completing tx on that CTA's full barrier. Under `cta_group::2` each CTA loads its own half
//!   into its own SMEM, every transfer completes tx on the leader's full barrier, and each CTA's
//!   producer waits on its own empty barrier. The model derives the slices from the cluster
//!   (`Cluster::coords`) and asserts that what one CTA issues is the core's `issued_bytes`.
//! * per CTA `consumers` consumers doing N iterations (under `cta_group::2` only the leader's
//!   MMA issuer, which waits on the leader's full barrier and reads both CTAs' halves): wait
//!   `full[stage(i)]` with `full_parity(i)`; read; release: `consumer_arrivals` arrivals on
//!   `empty[stage(i)]` of every CTA in `release_mask(rank)`, in any order (any order of the
//!   arriving threads, and more).
//! * every issued transfer is an independent event that lands at any later time.
//! * init counts: `full_arrivals()`, `empty_arrivals()`; stage and parities: `stage(i)`,
//!   `full_parity(i)`, `empty_parity(i)`.
//!
//! Properties, checked on every interleaving (breadth first over exact states, so a violation
//! comes with a shortest trace): (a) no deadlock: a state with nothing enabled has every actor
//! done (and then every barrier at a phase start: pending = init, tx-count 0); (b) no overwrite:
//! a transfer of iteration `i` landing in a CTA's stage finds every consumer that reads that
//! CTA done reading the previous iteration that used the stage (it has started its release);
//! (c) no read before landing: when a consumer's full wait succeeds, all bytes of its iteration
//! (every load's whole tile) have landed in every CTA it reads; (d) no barrier error (above).
//!
//! Reductions, each losing no behaviour that matters to (a)-(d): issuing the loads is merged
//! into the producer's arrive step (issuing only makes transfers landable; nothing reads it);
//! the end of a consumer's read window is merged into its first release arrival (ending it
//! later can only make (b) fire sooner); transfers of one iteration into one CTA with the same
//! barrier and size are counted, not told apart (they are interchangeable). The state space is
//! otherwise exact (no hashing-only visited set).
//!
//! Not modelled: the asynchrony of wgmma / tcgen05.mma (abstracted as the read window, from the
//! full wait to the first release arrival: `wgmma.wait_group` / `tcgen05.commit` come before
//! the release); the init sequence and fences (barriers start initialised); memory ordering
//! beyond the barriers (arrive-release / wait-acquire taken as given); the multicast slices'
//! offsets (only their byte counts); the SMEM budget; the epilogue and TMEM. Loads use real
//! tile sizes (A 16 KiB, B 32 KiB, scale factors 512 B): bytes only matter as counts.
//!
//! Iterations: one-CTA pipelines run `2 * stages + 1` iterations (every stage's barriers
//! through two phases, stage 0's through three, so the parity wraps back); clusters and pairs
//! fewer where the product of the CTAs' state spaces would not fit a few seconds (the numbers
//! are in `configs`; stage 0's barriers always go through two phases).
//!
//! The six largest configurations (190 000 to 820 000 states each, 59 % of the correct
//! protocols' states) are explored only when `SMEMDESC_FULL_GRID` is set, as `.ci/run` does (the
//! flag of `grid.rs`'s full walk); a plain `cargo test` explores the other 47, which still cover
//! every cluster shape, multicast form, the sm100 pair and every broken variant.
//!
//! Each broken variant (`protocol::Variant`) is run on every configuration it applies to and
//! must be found with the expected kind of violation; `summary` prints the counts and
//! `broken_protocols_are_found` a shortest trace per variant (run with `--nocapture`).

#[path = "pipeline_model/protocol.rs"]
mod protocol;
#[path = "pipeline_model/search.rs"]
mod search;
#[path = "pipeline_model/semantics.rs"]
mod semantics;

use protocol::{Kind, Model, Variant};
use smemdesc_core::pipeline::{PipelineError, PipelineLayout, PipelineLoad, PipelineSpec};
use smemdesc_core::{Arch, Operand};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// States one exploration may visit (a guard; the largest configuration needs far fewer).
const MAX_STATES: usize = 3_000_000;

struct Config {
    name: String,
    layout: PipelineLayout,
    iterations: u32,
}

/// Configurations only CI explores (`SMEMDESC_FULL_GRID`): the six largest, each of a class a
/// smaller configuration of the plain run also covers (the counts are `summary`'s states).
const CI_ONLY: [&str; 6] = [
    "1x2 multicast A stages 3 consumers 1",   // 816 148 states
    "sm100 cta_group 2 stages 4 x1 arrivals", // 512 296
    "2x1 multicast B stages 3 consumers 1",   // 386 436
    "1x2 multicast A stages 2 consumers 2",   // 352 524
    "2x1 stages 3 consumers 1",               // 322 624
    "2x1 multicast B stages 2 consumers 2",   // 197 092
];

/// Whether the CI-only configurations are explored (`.ci/run` sets `SMEMDESC_FULL_GRID`).
fn full() -> bool {
    std::env::var_os("SMEMDESC_FULL_GRID").is_some()
}

fn tile(name: &'static str, op: Operand, bytes: u32, stages: u32) -> PipelineLoad {
    PipelineLoad {
        operand: Some(op),
        ..PipelineLoad::bytes(name, bytes, stages)
    }
}

fn configs() -> Vec<Config> {
    let mut v = Vec::new();
    let full = full();
    let mut skipped = 0;
    let mut add = |name: String, spec: PipelineSpec, iterations: u32| {
        if !full && CI_ONLY.contains(&name.as_str()) {
            skipped += 1;
            return;
        }
        let layout = spec
            .build()
            .unwrap_or_else(|e| panic!("{name}: {}", e.message(&spec).as_str()));
        v.push(Config {
            name,
            layout,
            iterations,
        });
    };
    let ab = |spec: PipelineSpec, s: u32, mc_a: bool, mc_b: bool| {
        let a = tile("a", Operand::A, 16384, s);
        let b = tile("b", Operand::B, 32768, s);
        spec.load(if mc_a { a.multicast() } else { a })
            .load(if mc_b { b.multicast() } else { b })
    };
    let sm90 = |c: u32| PipelineSpec::new(Arch::Sm90, c);
    // One CTA: every stage's barriers through at least two phases, stage 0's through three.
    for s in 1..=4 {
        for c in 1..=3 {
            add(
                format!("1x1 stages {s} consumers {c}"),
                ab(sm90(c), s, false, false),
                2 * s + 1,
            );
        }
    }
    for s in 1..=4 {
        for c in 1..=2 {
            let spec = ab(sm90(c), s, false, false).consumer_arrivals(2);
            add(
                format!("1x1 stages {s} consumers {c} x2 arrivals"),
                spec,
                2 * s + 1,
            );
        }
    }
    for s in 1..=2 {
        for c in 1..=2 {
            let spec = ab(sm90(c), s, false, false).load(PipelineLoad::bytes("sfa", 512, s));
            add(
                format!("1x1 stages {s} consumers {c} + sfa"),
                spec,
                2 * s + 1,
            );
        }
    }
    // Two CTAs: the state space is about the product of the CTAs'; fewer iterations where it
    // would not fit the time budget (stage 0's barriers still go through two phases).
    // (stages, consumers, iterations along x, along y): A's two groups of slices make 1x2
    // larger than 2x1.
    let pairs = [
        (1, 1, 3, 3),
        (1, 2, 3, 3),
        (1, 3, 2, 2),
        (2, 1, 5, 5),
        (2, 2, 4, 4),
        (3, 1, 6, 4),
    ];
    for (s, c, nx, ny) in pairs {
        let spec = ab(sm90(c).cluster(2, 1), s, false, false);
        add(format!("2x1 stages {s} consumers {c}"), spec, nx);
        let spec = ab(sm90(c).cluster(2, 1), s, false, true);
        add(
            format!("2x1 multicast B stages {s} consumers {c}"),
            spec,
            nx,
        );
        let spec = ab(sm90(c).cluster(1, 2), s, true, false);
        add(
            format!("1x2 multicast A stages {s} consumers {c}"),
            spec,
            ny,
        );
    }
    let spec = ab(sm90(1).cluster(2, 1), 2, false, true).load(PipelineLoad::bytes("sfa", 512, 2));
    add("2x1 multicast B stages 2 consumers 1 + sfa".into(), spec, 5);
    let spec = ab(sm90(2).cluster(1, 2), 1, true, false).consumer_arrivals(2);
    add(
        "1x2 multicast A stages 1 consumers 2 x2 arrivals".into(),
        spec,
        3,
    );
    // Three CTAs share B: slices of a third (a 192-row B tile); two stages would be millions
    // of states.
    let spec = sm90(1).cluster(3, 1).load(tile("a", Operand::A, 16384, 1));
    let spec = spec.load(tile("b", Operand::B, 24576, 1).multicast());
    add("3x1 multicast B stages 1 consumers 1".into(), spec, 3);
    // The sm100 pair: (stages, iterations, arrivals per release); four stages with two
    // arrivals would double the test's time.
    let pairs = [
        (1, 3, 1),
        (1, 3, 2),
        (2, 5, 1),
        (2, 5, 2),
        (3, 7, 1),
        (3, 7, 2),
        (4, 5, 1),
    ];
    for (s, n, ca) in pairs {
        let spec = ab(
            PipelineSpec::new(Arch::Sm100, 1).cta_group(2),
            s,
            false,
            false,
        );
        let name = format!("sm100 cta_group 2 stages {s} x{ca} arrivals");
        add(name, spec.consumer_arrivals(ca), n);
    }
    let spec = ab(sm90(1).cluster(2, 2), 1, true, true);
    add("2x2 multicast A+B stages 1 consumers 1".into(), spec, 2);
    // Each CI-only name is a configuration (a renamed one would be explored by no run).
    assert!(
        full || skipped == CI_ONLY.len(),
        "{skipped} CI-only configurations skipped"
    );
    v
}

struct Found {
    variant: Variant,
    config: String,
    kind: Kind,
    trace: Vec<String>,
    /// Other kinds met on the way.
    also: Vec<Kind>,
}

#[derive(Default)]
struct Results {
    /// Correct configurations with no violation: (index, name, iterations, states).
    proved: Vec<(usize, String, u32, usize)>,
    /// Correct configurations with a violation (its trace).
    failed: Vec<String>,
    /// Broken variants found with an expected kind.
    found: Vec<Found>,
    /// Broken variants whose expected kind was not found: (variant, why).
    missed: Vec<(Variant, String)>,
}

/// Explores configuration `i` with `v` and files the outcome.
fn run(cfgs: &[Config], i: usize, v: Variant, out: &Mutex<Results>) {
    let c = &cfgs[i];
    let o = Model::new(&c.layout, c.iterations, v).check(MAX_STATES, v.expected());
    let kinds: Vec<Kind> = o.violations.iter().map(|f| f.kind).collect();
    let met: Vec<String> = o
        .violations
        .iter()
        .map(|f| format!("{:?} ({})", f.kind, f.what))
        .collect();
    let hit = o
        .violations
        .into_iter()
        .find(|f| v.expected().contains(&f.kind));
    let mut r = out.lock().unwrap();
    match (v, hit) {
        (Variant::Correct, None) => r.proved.push((i, c.name.clone(), c.iterations, o.states)),
        (Variant::Correct, Some(e)) => {
            r.failed
                .push(format!("{}:\n{}", c.name, e.trace.join("\n")))
        }
        (v, Some(e)) => {
            let also = kinds.into_iter().filter(|&k| k != e.kind).collect();
            let (config, kind, trace) = (c.name.clone(), e.kind, e.trace);
            r.found.push(Found {
                variant: v,
                config,
                kind,
                trace,
                also,
            });
        }
        (v, None) => {
            let why = format!(
                "{v:?} on {}: found [{}] in {} states, expected one of {:?}",
                c.name,
                met.join("; "),
                o.states,
                v.expected()
            );
            r.missed.push((v, why));
        }
    }
}

/// Runs every configuration, correct and with every broken variant that applies (once per test
/// binary, spread over the cores, the largest configurations first).
fn results() -> &'static Results {
    static R: OnceLock<Results> = OnceLock::new();
    R.get_or_init(|| {
        let cfgs = configs();
        let mut jobs = Vec::new();
        for (i, c) in cfgs.iter().enumerate().rev() {
            jobs.push((i, Variant::Correct));
            for v in Variant::BROKEN {
                if v.applies(&c.layout, c.iterations) {
                    jobs.push((i, v));
                }
            }
        }
        let next = AtomicUsize::new(0);
        let out = Mutex::new(Results::default());
        let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
        std::thread::scope(|sc| {
            for _ in 0..workers {
                sc.spawn(|| {
                    while let Some(&(i, v)) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
                        run(&cfgs, i, v, &out);
                    }
                });
            }
        });
        let mut r = out.into_inner().unwrap();
        r.proved.sort();
        r
    })
}

/// (configurations proved, broken protocols found, broken runs found): the numbers `summary`
/// prints. A broken protocol counts as found when it is found on every configuration it
/// applies to; a run is one broken protocol on one configuration.
fn model_counts() -> (usize, usize, usize) {
    let r = results();
    let found = Variant::BROKEN
        .iter()
        .filter(|&&v| r.found.iter().any(|f| f.variant == v) && !r.missed.iter().any(|m| m.0 == v))
        .count();
    (r.proved.len(), found, r.found.len())
}

#[test]
fn correct_protocols_are_proved() {
    let r = results();
    assert!(
        r.failed.is_empty(),
        "the declared protocol fails:\n{}",
        r.failed.join("\n\n")
    );
    // 53 configurations, 47 without the CI-only ones.
    let least = if full() { 53 } else { 47 };
    assert!(r.proved.len() >= least, "{} configurations", r.proved.len());
}

#[test]
fn broken_protocols_are_found() {
    let r = results();
    let missed: Vec<&str> = r.missed.iter().map(|m| m.1.as_str()).collect();
    assert!(
        missed.is_empty(),
        "broken protocols missed:\n{}",
        missed.join("\n")
    );
    assert_eq!(model_counts().1, Variant::BROKEN.len());
    for v in Variant::BROKEN {
        let found: Vec<&Found> = r.found.iter().filter(|f| f.variant == v).collect();
        assert!(
            found.len() >= 2,
            "{v:?} found on {} configurations",
            found.len()
        );
        let shortest = found.iter().min_by_key(|f| f.trace.len()).unwrap();
        let mut also: Vec<Kind> = Vec::new();
        for k in found.iter().flat_map(|f| f.also.iter().copied()) {
            if !also.contains(&k) {
                also.push(k);
            }
        }
        let (kind, n, on) = (shortest.kind, found.len(), &shortest.config);
        let trace = shortest.trace.join("\n");
        // One print per variant, so parallel tests do not split a trace.
        println!("{v:?}: {kind:?} found on {n} configurations (also met: {also:?}); shortest, on {on}:\n{trace}\n");
    }
}

#[test]
fn summary() {
    let r = results();
    for (_, name, n, states) in &r.proved {
        println!("  {name}: {n} iterations, {states} states");
    }
    if !full() {
        println!(
            "  (the {} largest configurations are explored by CI only: set SMEMDESC_FULL_GRID=1)",
            CI_ONLY.len()
        );
    }
    let (proved, found, runs) = model_counts();
    println!("pipeline model: {proved} configurations proved, {found} broken protocols found");
    println!("  ({runs} runs of a broken protocol on a configuration it applies to, each found)");
}

/// Before the core refused it, this model found the hang of a multicast tile that does not
/// split evenly (cluster 3x1, B of 32768 B: three slices of 10922 B land 32766 B; every full
/// barrier keeps a tx-count of 2 and every consumer waits forever). The core now says so.
#[test]
fn uneven_multicast_is_refused() {
    let a = tile("a", Operand::A, 16384, 1);
    let b = tile("b", Operand::B, 32768, 1);
    let cases = [
        (
            PipelineSpec::new(Arch::Sm90, 1)
                .cluster(3, 1)
                .load(a)
                .load(b.multicast()),
            1,
            Operand::B,
            3,
        ),
        (
            PipelineSpec::new(Arch::Sm90, 1)
                .cluster(1, 3)
                .load(a.multicast())
                .load(b),
            0,
            Operand::A,
            3,
        ),
    ];
    for (spec, load, operand, sharers) in cases {
        let e = spec.build().unwrap_err();
        assert_eq!(
            e,
            PipelineError::MulticastUneven {
                load,
                operand,
                sharers
            }
        );
    }
}
