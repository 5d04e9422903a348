//! Programmatic dependent launch: a dependent kernel's body, generic over the instructions as a
//! kernel's is, issues `griddepcontrol.wait` before every read of its primary's output (the
//! PTX ISA's rule for `griddepcontrol.wait`), whatever it does in its prologue.

use smemdesc::pdl::{launch_dependents, GridDepOps, Prologue, Upstream};
use std::cell::RefCell;

thread_local!(static LOG: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) });
fn log(s: String) {
    LOG.with(|l| l.borrow_mut().push(s));
}

struct Rec;
impl GridDepOps for Rec {
    fn wait() {
        log("wait".into())
    }
    fn launch_dependents() {
        log("launch_dependents".into())
    }
}

/// A dependent kernel: a prologue of `setup` steps, then reads of `n` elements of `x`.
fn dependent<O: GridDepOps>(x: Upstream<f32>, setup: u32, n: u64) {
    let p = Prologue::start();
    for s in 0..setup {
        log(format!("setup {s}"));
    }
    let r = p.wait::<O>();
    for i in 0..n {
        log(format!("read {:#x}", x.element(&r, i)));
    }
}

#[test]
fn every_read_of_the_primarys_output_follows_the_wait() {
    for (setup, n) in [(0u32, 1u64), (3, 4), (1, 0)] {
        LOG.with(|l| l.borrow_mut().clear());
        dependent::<Rec>(Upstream::from_param(0x1000), setup, n);
        let ops = LOG.with(|l| l.borrow().clone());
        let w = ops
            .iter()
            .position(|o| o == "wait")
            .expect("the body waits");
        assert!(ops[..w].iter().all(|o| o.starts_with("setup")), "{ops:?}");
        // The reads: f32 elements 4 B apart, all after the wait.
        let reads: Vec<&String> = ops.iter().filter(|o| o.starts_with("read")).collect();
        assert_eq!(reads.len() as u64, n);
        for (i, r) in reads.iter().enumerate() {
            assert_eq!(**r, format!("read {:#x}", 0x1000 + 4 * i));
        }
        assert!(ops.iter().skip(w + 1).all(|o| o.starts_with("read")));
    }
    LOG.with(|l| l.borrow_mut().clear());
    launch_dependents::<Rec>();
    assert_eq!(LOG.with(|l| l.borrow().clone()), ["launch_dependents"]);
}

/// One step of a CTA's program in the dependency model.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Step {
    /// The primary's store of element `i`.
    Write(usize),
    /// `griddepcontrol.launch_dependents`.
    Trigger,
    /// Work that touches none of the primary's output (the dependent's prologue).
    Local,
    /// `griddepcontrol.wait`: enabled once every primary CTA exited (completed; its memory
    /// visible: PTX ISA, `griddepcontrol`).
    Wait,
    /// A broken wait that returns once the dependent was scheduled (every primary CTA
    /// triggered or exited), which is all `launch_dependents` promises.
    WaitForTrigger,
    /// The dependent's load of element `i` of the primary's output.
    Read(usize),
}

/// Every interleaving of `primary` (one program per CTA; a CTA exits after its last step) and
/// `dependent` (one program per CTA, scheduled once every primary CTA triggered or exited):
/// `Err` with the first read of an element not yet written, `Ok(states)` otherwise.
fn explore(primary: &[Vec<Step>], dependent: &[Vec<Step>]) -> Result<usize, String> {
    fn go(
        p: &[Vec<Step>],
        d: &[Vec<Step>],
        pc: &mut Vec<usize>,
        written: &mut Vec<bool>,
        seen: &mut std::collections::HashSet<(Vec<usize>, Vec<bool>)>,
    ) -> Result<(), String> {
        if !seen.insert((pc.clone(), written.clone())) {
            return Ok(());
        }
        let np = p.len();
        let exited = |pc: &[usize], c: usize| pc[c] == p[c].len();
        let all_exited = (0..np).all(|c| exited(pc, c));
        let scheduled = (0..np).all(|c| exited(pc, c) || p[c][..pc[c]].contains(&Step::Trigger));
        let mut moved = false;
        for c in 0..np + d.len() {
            let (prog, dep) = if c < np {
                (&p[c], false)
            } else {
                (&d[c - np], true)
            };
            if pc[c] == prog.len() || (dep && !scheduled) {
                continue;
            }
            let step = prog[pc[c]];
            let enabled = match step {
                Step::Wait => all_exited,
                Step::WaitForTrigger => scheduled,
                _ => true,
            };
            if !enabled {
                continue;
            }
            if let Step::Read(i) = step {
                if !written[i] {
                    return Err(format!("CTA {c} read element {i} before it was written"));
                }
            }
            moved = true;
            let was = written.clone();
            if let Step::Write(i) = step {
                written[i] = true;
            }
            pc[c] += 1;
            go(p, d, pc, written, seen)?;
            pc[c] -= 1;
            *written = was;
        }
        let done =
            (0..pc.len()).all(|c| pc[c] == if c < np { p[c].len() } else { d[c - np].len() });
        if !moved && !done {
            return Err("deadlock".into());
        }
        Ok(())
    }
    let n = primary
        .iter()
        .chain(dependent)
        .flatten()
        .filter_map(|s| match s {
            Step::Write(i) | Step::Read(i) => Some(i + 1),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let mut seen = std::collections::HashSet::new();
    let mut pc = vec![0; primary.len() + dependent.len()];
    go(primary, dependent, &mut pc, &mut vec![false; n], &mut seen)?;
    Ok(seen.len())
}

/// The dependent's program as the handles issue it: the recorded instructions of `dependent`.
fn recorded_dependent(setup: u32, n: u64) -> Vec<Step> {
    LOG.with(|l| l.borrow_mut().clear());
    dependent::<Rec>(Upstream::from_param(0), setup, n);
    LOG.with(|l| l.borrow().clone())
        .iter()
        .map(|o| match o.as_str() {
            "wait" => Step::Wait,
            o if o.starts_with("setup") => Step::Local,
            o => {
                Step::Read(usize::from_str_radix(o.trim_start_matches("read 0x"), 16).unwrap() / 4)
            }
        })
        .collect()
}

/// The dependency edge of a dependent launch, model-checked: with the handles' order (the
/// recorded dependent), no interleaving with primaries that trigger early, late or never reads
/// an element before it is written, and none deadlocks; a dependent that trusts the trigger
/// instead of waiting is caught.
#[test]
fn the_dependency_edge_holds_in_every_interleaving() {
    use Step::*;
    let primaries = [
        // trigger after the stores, before them, never
        vec![vec![Write(0), Trigger], vec![Write(1), Trigger]],
        vec![vec![Trigger, Write(0)], vec![Trigger, Write(1)]],
        vec![vec![Write(0)], vec![Write(1)]],
    ];
    let dep = recorded_dependent(2, 2);
    assert_eq!(dep, [Local, Local, Wait, Read(0), Read(1)]);
    for p in &primaries {
        let states = explore(p, &[dep.clone(), dep.clone()]).unwrap();
        assert!(states > 10, "{states}");
    }
    // The broken protocol: the dependent's "wait" returns on the trigger.
    let broken: Vec<Step> = dep
        .iter()
        .map(|s| if *s == Wait { WaitForTrigger } else { *s })
        .collect();
    assert!(explore(&primaries[0], std::slice::from_ref(&broken)).is_ok()); // triggers after its stores
    let e = explore(&primaries[1], &[broken]).unwrap_err(); // triggers before them
    assert!(e.contains("before it was written"), "{e}");
}

mod pair {
    use smemdesc::pipeline::{PairRole, PipeAt};
    use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier};

    #[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2, cta_group = 2)]
    pub struct TileA;
    #[smem_storage(arch = sm100)]
    pub struct Storage {
        a: TileA,
        full: [Mbarrier; 2],
        empty: [Mbarrier; 2],
    }
    #[smem_pipeline(storage = Storage, loads = (a: TileA), consumers = 1, cta_group = 2, dependent = true)]
    pub struct Pipe;

    /// One CTA of a dependent sm100 pair: a prologue, then its side's handles (only after its
    /// own wait), then its half of the primary's output: the leader the even elements, the peer
    /// the odd ones.
    pub fn side<O: super::GridDepOps>(x: super::Upstream<f32>, rank: u32, n: u64) {
        let p = super::Prologue::start();
        let pipe = PipeAt::<Pipe>::new(0, rank);
        super::log("setup".into());
        let r = p.wait::<O>();
        let half = match pipe.split_pair_after(&r) {
            PairRole::Leader(..) => 0,
            PairRole::Peer(..) => 1,
        };
        for i in 0..n {
            super::log(format!("read {:#x}", x.element(&r, 2 * i + half)));
        }
    }
}

/// The dependency edge of a dependent sm100 pair: both CTAs' programs, recorded from the
/// handles (`split_pair_after`), with primaries that trigger early, late or never: no load of
/// either half reads an element before the primary wrote it.
#[test]
fn a_dependent_pairs_two_sides_each_wait() {
    use Step::*;
    let program = |rank: u32| -> Vec<Step> {
        LOG.with(|l| l.borrow_mut().clear());
        pair::side::<Rec>(Upstream::from_param(0), rank, 2);
        LOG.with(|l| l.borrow().clone())
            .iter()
            .map(|o| match o.as_str() {
                "wait" => Wait,
                "setup" => Local,
                o => Read(usize::from_str_radix(o.trim_start_matches("read 0x"), 16).unwrap() / 4),
            })
            .collect()
    };
    let (leader, peer) = (program(0), program(1));
    assert_eq!(leader, [Local, Wait, Read(0), Read(2)]);
    assert_eq!(peer, [Local, Wait, Read(1), Read(3)]);
    let primaries = [
        vec![
            vec![Write(0), Write(1), Trigger],
            vec![Write(2), Write(3), Trigger],
        ],
        vec![
            vec![Trigger, Write(0), Write(1)],
            vec![Trigger, Write(2), Write(3)],
        ],
        vec![vec![Write(0), Write(1)], vec![Write(2), Write(3)]],
    ];
    for p in &primaries {
        let states = explore(p, &[leader.clone(), peer.clone()]).unwrap();
        assert!(states > 10, "{states}");
    }
    // A peer that loads its half before its wait (what `split_pair` would allow) is caught.
    let early_peer = vec![Local, Read(1), Wait, Read(3)];
    let e = explore(&primaries[1], &[leader, early_peer]).unwrap_err();
    assert!(e.contains("before it was written"), "{e}");
}
