//! Cluster launch control, model-checked: each CTA's program is what the typed handles
//! (`smemdesc::clc`) issue, recorded; the model explores every interleaving of those programs
//! with the responses landing at any time, under the PTX ISA's semantics:
//!
//! * an mbarrier (PTX ISA, "mbarrier"): phase bit, pending arrivals (reset to the init count
//!   when a phase completes) and a tx-count that may go negative within a phase; the phase
//!   completes when both are 0; `try_wait.parity(p)` passes once the phase bit is not `p`;
//! * `try_cancel` (PTX ISA, `clusterlaunchcontrol.try_cancel`): the response is decided when it
//!   is issued (a cluster left to cancel, or none), lands later and completes 16 tx bytes on the
//!   barrier; the unicast form in the issuing CTA, the `.multicast::cluster::all` form in every
//!   CTA of the cluster at the same offsets, each CTA's landing an event of its own.
//!
//! The response barrier is the protocol edge: (a) no CTA decodes a response before it landed
//! in that CTA (the barrier's phase); (b) no request is issued while a response is in flight
//! or not yet decoded by some CTA (it would overwrite it); (c) no request after the CTA
//! observed "none left" (undefined behaviour, PTX ISA); (d) no deadlock, and no arrival on a
//! phase whose arrivals are all in. Broken programs (a decode before the wait, an issuer that
//! does not wait for its readers, a listener that does not expect, a request after "none
//! left") are each caught.

use smemdesc::clc::*;
use smemdesc::pipeline::PipelineOps;
use std::cell::{Cell, RefCell};
use std::collections::HashSet;

thread_local!(static LOG: RefCell<Vec<Step>> = const { RefCell::new(Vec::new()) });
thread_local!(static LEFT: Cell<u32> = const { Cell::new(0) });

const RESP: u32 = 0x100;
const FULL: u32 = 0x110;
const EMPTY: u32 = 0x118;

/// One instruction of a CTA's program, as the handles issue it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Step {
    /// `mbarrier.arrive.expect_tx` on the CTA's full barrier, 16 bytes.
    Expect,
    /// `try_cancel` (`cast`: the cluster-wide form).
    Request { cast: bool },
    /// `try_wait.parity` on the full (`empty: false`) or rank 0's empty barrier.
    Wait { empty: bool, parity: u8 },
    /// `query_cancel` of the CTA's response slot.
    Decode,
    /// `mbarrier.arrive.shared::cluster` on rank 0's empty barrier.
    ArriveEmpty,
}

struct Rec;
fn log(s: Step) {
    LOG.with(|l| l.borrow_mut().push(s));
}
impl PipelineOps for Rec {
    fn init(_: u32, _: u32) {}
    fn fence_init() {}
    fn sync_cta() {}
    fn sync_cluster() {}
    fn arrive_expect_tx(bar: u32, bytes: u32) {
        assert_eq!((bar, bytes), (FULL, 16));
        log(Step::Expect)
    }
    fn arrive(_: u32) {
        unreachable!()
    }
    fn arrive_cluster(bar: u32, cta: u32) {
        assert_eq!((bar, cta), (EMPTY, 0));
        log(Step::ArriveEmpty)
    }
    fn wait(bar: u32, parity: u32) -> bool {
        log(Step::Wait {
            empty: bar == EMPTY,
            parity: parity as u8,
        });
        true
    }
    fn map_cta(a: u32, _: u32) -> u32 {
        a
    }
    fn tma_load(_: u32, _: u64, _: u32, _: u32, _: u32) {}
    fn tma_load_multicast(_: u32, _: u64, _: u32, _: u32, _: u32, _: u16) {}
    fn tma_load_pair(_: u32, _: u64, _: u32, _: u32, _: u32) {}
}
impl ClcOps for Rec {
    fn try_cancel(resp: u32, bar: u32) {
        assert_eq!((resp, bar), (RESP, FULL));
        log(Step::Request { cast: false })
    }
    fn query(resp: u32) -> Option<[u32; 3]> {
        assert_eq!(resp, RESP);
        log(Step::Decode);
        LEFT.with(|l| {
            let n = l.get();
            l.set(n.saturating_sub(1));
            (n > 0).then_some([n, 0, 0])
        })
    }
}
impl ClcMulticastOps for Rec {
    fn try_cancel_multicast(resp: u32, bar: u32) {
        assert_eq!((resp, bar), (RESP, FULL));
        log(Step::Request { cast: true })
    }
}

fn record(left: u32, body: impl FnOnce()) -> Vec<Step> {
    LOG.with(|l| l.borrow_mut().clear());
    LEFT.with(|l| l.set(left));
    body();
    LOG.with(|l| l.borrow().clone())
}

/// A persistent CTA of a cluster of `ctas` on the cluster-wide scheduler, rank `rank`, with
/// `left` clusters to steal: the kernel's loop, as a user writes it.
fn cast_program(rank: u32, ctas: u32, left: u32) -> Vec<Step> {
    record(left, || {
        let c = ClcCluster::new(RESP, FULL, EMPTY, ctas).unwrap();
        c.init::<Rec>();
        c.init_sync::<Rec>();
        match c.role(rank) {
            ClcRole::Issuer(mut issuer) => loop {
                let r = issuer.request::<Rec>().wait::<Rec>().unwrap();
                match r.next::<Rec>() {
                    ClcCastNext::Canceled { then, .. } => {
                        issuer = then.wait_readers::<Rec>().unwrap()
                    }
                    ClcCastNext::Exhausted => break,
                }
            },
            ClcRole::Listener(mut l) => loop {
                let r = l.expect::<Rec>().wait::<Rec>().unwrap();
                match r.next::<Rec>() {
                    ClcCastNext::Canceled { then, .. } => l = then,
                    ClcCastNext::Exhausted => break,
                }
            },
        }
    })
}

/// A persistent CTA on its own scheduler (the unicast form).
fn unicast_program(left: u32) -> Vec<Step> {
    record(left, || {
        let mut s = ClcScheduler::new(RESP, FULL).unwrap();
        s.init::<Rec>();
        loop {
            let r = s.request::<Rec>().wait::<Rec>().unwrap();
            match r.next::<Rec>() {
                ClcNext::Canceled { scheduler, .. } => s = scheduler,
                ClcNext::Exhausted => break,
            }
        }
    })
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct Bar {
    phase: u8,
    pending: u32,
    tx: i32,
    init: u32,
}
impl Bar {
    fn new(init: u32) -> Bar {
        Bar {
            phase: 0,
            pending: init,
            tx: 0,
            init,
        }
    }
    fn settle(&mut self) {
        if self.pending == 0 && self.tx == 0 {
            self.phase ^= 1;
            self.pending = self.init;
        }
    }
    fn arrive(&mut self, tx: i32) -> Result<(), String> {
        if self.pending == 0 {
            return Err("an arrival on a phase whose arrivals are all in".into());
        }
        self.tx += tx;
        self.pending -= 1;
        self.settle();
        Ok(())
    }
}

/// A response slot: empty, landed (`Some(canceled)`) or decoded.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Slot {
    Decoded,
    Landed(bool),
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct State {
    pc: Vec<usize>,
    full: Vec<Bar>,
    empty: Bar,
    slot: Vec<Slot>,
    /// Responses in flight: (destination CTA, canceled).
    flight: Vec<(usize, bool)>,
    left: u32,
    saw_none: Vec<bool>,
}

/// Every interleaving of `progs` (one per CTA of one cluster) with `left` clusters to steal:
/// `Ok(states)`, or `Err` with the first violation.
fn explore(progs: &[Vec<Step>], left: u32) -> Result<usize, String> {
    let n = progs.len();
    let start = State {
        pc: vec![0; n],
        full: vec![Bar::new(1); n],
        empty: Bar::new(n as u32),
        slot: vec![Slot::Decoded; n],
        flight: Vec::new(),
        left,
        saw_none: vec![false; n],
    };
    let mut seen = HashSet::new();
    let mut todo = vec![start];
    while let Some(s) = todo.pop() {
        if !seen.insert(s.clone()) {
            continue;
        }
        let mut next = Vec::new();
        // A response lands.
        for f in 0..s.flight.len() {
            let mut t = s.clone();
            let (c, canceled) = t.flight.remove(f);
            if t.slot[c] != Slot::Decoded {
                return Err(format!(
                    "a response landed in CTA {c} over one it had not decoded"
                ));
            }
            t.slot[c] = Slot::Landed(canceled);
            t.full[c].tx -= 16;
            t.full[c].settle();
            next.push(t);
        }
        for (c, prog) in progs.iter().enumerate() {
            let Some(&step) = prog.get(s.pc[c]) else {
                continue;
            };
            let mut t = s.clone();
            t.pc[c] += 1;
            match step {
                Step::Expect => t.full[c].arrive(16)?,
                Step::Request { cast } => {
                    if s.saw_none[c] {
                        return Err(format!("CTA {c} requested after it observed none left"));
                    }
                    let dests: Vec<usize> = if cast { (0..n).collect() } else { vec![c] };
                    for &d in &dests {
                        if s.slot[d] != Slot::Decoded || s.flight.iter().any(|f| f.0 == d) {
                            return Err(format!(
                                "CTA {c} requested while CTA {d}'s response was pending or not decoded"
                            ));
                        }
                    }
                    let canceled = t.left > 0;
                    t.left = t.left.saturating_sub(1);
                    t.flight.extend(dests.iter().map(|&d| (d, canceled)));
                }
                Step::Wait { empty, parity } => {
                    let bar = if empty { &s.empty } else { &s.full[c] };
                    if bar.phase == parity {
                        continue; // not enabled
                    }
                }
                Step::Decode => match s.slot[c] {
                    Slot::Landed(canceled) => {
                        t.slot[c] = Slot::Decoded;
                        t.saw_none[c] |= !canceled;
                    }
                    Slot::Decoded => {
                        return Err(format!("CTA {c} decoded a response before it landed"))
                    }
                },
                Step::ArriveEmpty => t.empty.arrive(0)?,
            }
            next.push(t);
        }
        if next.is_empty() && (0..n).any(|c| s.pc[c] < progs[c].len()) {
            return Err(format!("deadlock at {:?}", s.pc));
        }
        todo.extend(next);
    }
    Ok(seen.len())
}

#[test]
fn the_cluster_wide_protocol_holds_in_every_interleaving() {
    use Step::*;
    // The recorded programs: what the handles issue, in order.
    let issuer = cast_program(0, 2, 1);
    assert_eq!(
        issuer,
        [
            Expect,
            Request { cast: true },
            Wait {
                empty: false,
                parity: 0
            },
            Decode,
            ArriveEmpty,
            Wait {
                empty: true,
                parity: 0
            },
            Expect,
            Request { cast: true },
            Wait {
                empty: false,
                parity: 1
            },
            Decode,
        ]
    );
    let listener = cast_program(1, 2, 1);
    assert_eq!(
        listener,
        [
            Expect,
            Wait {
                empty: false,
                parity: 0
            },
            Decode,
            ArriveEmpty,
            Expect,
            Wait {
                empty: false,
                parity: 1
            },
            Decode,
        ]
    );
    for (ctas, left) in [(1u32, 2u32), (2, 0), (2, 2), (3, 2), (4, 1)] {
        let progs: Vec<_> = (0..ctas).map(|r| cast_program(r, ctas, left)).collect();
        let states = explore(&progs, left).unwrap_or_else(|e| panic!("{ctas} CTAs, {left}: {e}"));
        assert!(states > 5, "{states}");
    }
}

#[test]
fn the_unicast_protocol_holds() {
    for left in 0..4 {
        let p = unicast_program(left);
        assert_eq!(
            p.iter().filter(|s| **s == Step::Decode).count() as u32,
            left + 1
        );
        explore(&[p], left).unwrap();
    }
}

#[test]
fn broken_cluster_protocols_are_caught() {
    use Step::*;
    let (ctas, left) = (3u32, 2u32);
    let good: Vec<_> = (0..ctas).map(|r| cast_program(r, ctas, left)).collect();
    let with = |rank: usize, f: &dyn Fn(&mut Vec<Step>)| {
        let mut p = good.clone();
        f(&mut p[rank]);
        explore(&p, left).unwrap_err()
    };
    // A listener that decodes before its wait.
    let e = with(1, &|p| {
        let w = p.iter().position(|s| matches!(s, Wait { .. })).unwrap();
        p.swap(w, w + 1);
    });
    assert!(e.contains("before it landed"), "{e}");
    // An issuer that asks again without waiting for its readers.
    let e = with(0, &|p| {
        p.retain(|s| {
            *s != Wait {
                empty: true,
                parity: 0,
            }
        })
    });
    assert!(e.contains("pending or not decoded"), "{e}");
    // A listener that does not expect the response: its barrier never completes.
    let e = with(2, &|p| {
        p.remove(0);
    });
    assert!(e.contains("deadlock"), "{e}");
    // A second issuer (a listener with the multicast request: two responses per slot).
    let e = with(1, &|p| p.insert(1, Request { cast: true }));
    assert!(e.contains("pending or not decoded"), "{e}");
    // A request after "none left".
    let e = with(0, &|p| p.extend([Expect, Request { cast: true }]));
    assert!(e.contains("after it observed none left"), "{e}");
    // The unicast form: a decode before the wait.
    let mut p = unicast_program(1);
    p.swap(2, 3);
    assert!(explore(&[p], 1).unwrap_err().contains("before it landed"));
}
