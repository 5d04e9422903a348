//! The actors of `tests/pipeline_model.rs`: a declared pipeline (`PipelineLayout`) as producers,
//! consumers and the transfers they issue, with every number taken from the layout; and the
//! deliberate mistakes (`Variant`) the checker must find.

use smemdesc_core::cluster::Cluster;
use smemdesc_core::pipeline::PipelineLayout;
use smemdesc_core::Operand;

/// The protocol as the declared API performs it, or with one deliberate mistake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Variant {
    /// Every number from the `PipelineLayout`.
    Correct,
    /// (i) The consumer arrives on the empty barriers right after its full wait, then reads.
    ReleaseBeforeRead,
    /// (ii) The consumer waits on `full` with `full_parity(i) ^ 1`.
    WrongFullParity,
    /// (iii) Empty barriers initialised with `empty_arrivals() + 1`.
    EmptyInitPlusOne,
    /// (iii) Consumer 0 of CTA 0 makes one arrival fewer on its own CTA's empty barrier.
    SkipOneArrive,
    /// (iv) `arrive.expect_tx` with `expect_tx(rank) + 1`.
    ExtraExpectTx,
    /// (v) `arrive.expect_tx` with `issued_bytes(rank)` (what the CTA issues itself).
    ExpectIssuedOnly,
    /// (vi) The producer never waits on its empty barrier.
    NoEmptyWait,
    /// Consumers release only their own CTA's stage (`release_mask` ignored).
    ReleaseOwnOnly,
    /// The producer waits on `empty` with `empty_parity(i) ^ 1`.
    WrongEmptyParity,
    /// Empty barriers initialised with `empty_arrivals() - 1` (several single-arrival consumers).
    EmptyInitMinusOne,
}

/// What went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// No step enabled and an actor unfinished.
    Deadlock,
    /// A transfer landed in a stage a consumer had not finished reading.
    Overwrite,
    /// A full wait succeeded before all bytes of the fill landed.
    ReadBeforeLand,
    /// An arrival on a barrier whose phase already had all its arrivals.
    OverArrival,
    /// All arrivals in and the tx-count below zero.
    TxUnderflow,
    /// Everyone finished, but a barrier is left mid-phase (pending arrivals or tx-count).
    Unbalanced,
}

impl Kind {
    pub(crate) const ALL: [Kind; 6] = [
        Kind::Deadlock,
        Kind::Overwrite,
        Kind::ReadBeforeLand,
        Kind::OverArrival,
        Kind::TxUnderflow,
        Kind::Unbalanced,
    ];
}

impl Variant {
    /// The broken variants.
    pub(crate) const BROKEN: [Variant; 10] = [
        Variant::ReleaseBeforeRead,
        Variant::WrongFullParity,
        Variant::EmptyInitPlusOne,
        Variant::SkipOneArrive,
        Variant::ExtraExpectTx,
        Variant::ExpectIssuedOnly,
        Variant::NoEmptyWait,
        Variant::ReleaseOwnOnly,
        Variant::WrongEmptyParity,
        Variant::EmptyInitMinusOne,
    ];

    /// The kinds of violation the mistake must produce (any one of them), from the mbarrier
    /// semantics: the search goes on until it finds one.
    pub(crate) fn expected(self) -> &'static [Kind] {
        match self {
            Variant::Correct => &Kind::ALL,
            Variant::ReleaseBeforeRead | Variant::NoEmptyWait | Variant::EmptyInitMinusOne => {
                &[Kind::Overwrite]
            }
            Variant::WrongFullParity => &[Kind::ReadBeforeLand],
            Variant::EmptyInitPlusOne
            | Variant::SkipOneArrive
            | Variant::ExtraExpectTx
            | Variant::ReleaseOwnOnly
            | Variant::WrongEmptyParity => &[Kind::Deadlock],
            // The phase completes on the own bytes (a read before the peers' land), or a
            // peer's slice lands after it and drives the next phase's tx-count below zero.
            Variant::ExpectIssuedOnly => &[Kind::ReadBeforeLand, Kind::TxUnderflow],
        }
    }

    /// Whether the mistake changes anything in this pipeline run for `iterations`.
    pub(crate) fn applies(self, p: &PipelineLayout, iterations: u32) -> bool {
        let pair = p.spec().cta_group == 2;
        let wraps = iterations > p.stages();
        match self {
            Variant::Correct => false,
            // A producer waits on an empty phase only once it wraps around the stages.
            Variant::EmptyInitPlusOne | Variant::SkipOneArrive | Variant::ReleaseOwnOnly => {
                wraps && (self != Variant::ReleaseOwnOnly || releases_peers(p))
            }
            Variant::NoEmptyWait => wraps && p.stages() > 1,
            Variant::ExpectIssuedOnly => {
                (0..p.ctas()).any(|r| (!pair || r == 0) && p.issued_bytes(r) != p.expect_tx(r))
            }
            // One consumer group still reading when the others' arrivals complete the phase.
            Variant::EmptyInitMinusOne => {
                wraps && p.empty_arrivals() >= 2 && p.spec().consumer_arrivals == 1
            }
            // A refill lands while the consumer reads after its release.
            Variant::ReleaseBeforeRead => wraps,
            Variant::WrongFullParity | Variant::ExtraExpectTx | Variant::WrongEmptyParity => true,
        }
    }
}

fn releases_peers(p: &PipelineLayout) -> bool {
    let pair = p.spec().cta_group == 2;
    (0..p.ctas()).any(|r| (!pair || r == 0) && p.release_mask(r) != 1 << r)
}

/// A TMA transfer one producer issues per iteration.
pub(crate) struct Xfer {
    pub(crate) load: &'static str,
    /// The CTA whose stage it lands in.
    pub(crate) data: usize,
    /// The CTA whose full barrier it completes tx on.
    pub(crate) bar: usize,
    pub(crate) bytes: u32,
}

pub(crate) struct Producer {
    pub(crate) rank: usize,
    pub(crate) waits: bool,
    pub(crate) parity_flip: u32,
    /// `arrive.expect_tx` bytes (`None`: the `cta_group::2` peer, which does not arrive).
    pub(crate) expect: Option<u32>,
    pub(crate) xfers: Vec<Xfer>,
}

pub(crate) struct Consumer {
    pub(crate) rank: usize,
    pub(crate) idx: usize,
    pub(crate) wait_cta: usize,
    pub(crate) reads: Vec<usize>,
    /// (CTA whose empty barrier it arrives on, arrivals per release).
    pub(crate) targets: Vec<(usize, u8)>,
    pub(crate) release_first: bool,
    pub(crate) parity_flip: u32,
    /// Offset of its bytes in the state: iteration, active, reading, one count per target.
    pub(crate) off: usize,
}

/// Transfers into one CTA with the same barrier and size are interchangeable: one counter of
/// landed ones per iteration.
pub(crate) struct Group {
    pub(crate) bar: usize,
    pub(crate) bytes: u32,
    /// How many of them each producer issues per iteration.
    pub(crate) per_producer: Vec<u8>,
}

/// The pipeline as actors. The state is a byte string: one byte per producer (`2 * iteration +
/// 1` once past its empty wait; `2 * N` when done), each consumer's bytes, 6 bytes per barrier
/// (phase bit, pending arrivals, tx-count as i32), and per iteration, CTA and group the count
/// of landed transfers.
pub(crate) struct Model {
    pub(crate) ctas: usize,
    pub(crate) stages: usize,
    pub(crate) n: usize,
    pub(crate) stage: Vec<usize>,
    pub(crate) full_parity: Vec<u32>,
    pub(crate) empty_parity: Vec<u32>,
    /// The last earlier iteration that used the same stage.
    pub(crate) prev_same: Vec<Option<usize>>,
    pub(crate) full_init: u8,
    pub(crate) empty_init: u8,
    pub(crate) prods: Vec<Producer>,
    pub(crate) cons: Vec<Consumer>,
    /// Per destination CTA.
    pub(crate) groups: Vec<Vec<Group>>,
    pub(crate) gmax: usize,
    /// The consumers that read each CTA's stages.
    pub(crate) readers: Vec<Vec<usize>>,
    /// Bytes that land in every CTA's stage per fill.
    pub(crate) total: u32,
    pub(crate) bar_off: usize,
    pub(crate) landed_off: usize,
    pub(crate) len: usize,
}

impl Model {
    /// The protocol of `p` over `iterations` iterations per actor, with `v`'s mistake.
    pub(crate) fn new(p: &PipelineLayout, iterations: u32, v: Variant) -> Model {
        let spec = p.spec();
        let pair = spec.cta_group == 2;
        let ctas = p.ctas() as usize;
        let stages = p.stages() as usize;
        let n = iterations as usize;
        assert!(n < 120 && ctas <= 8, "the state stores these in bytes");
        let cluster = Cluster::new(spec.cluster.0, spec.cluster.1).unwrap();
        let stage: Vec<usize> = (0..iterations).map(|i| p.stage(i) as usize).collect();
        let prev_same = (0..n)
            .map(|i| (0..i).rev().find(|&j| stage[j] == stage[i]))
            .collect();
        let mut prods = Vec::new();
        for r in 0..ctas {
            let mut xfers = Vec::new();
            let mut issued = 0;
            for l in spec.loads() {
                // A multicast load: one slice to every CTA sharing the operand (itself too).
                let sharers: Vec<usize> = match (l.multicast, l.operand) {
                    (true, Some(op)) => (0..ctas)
                        .filter(|&q| {
                            let (a, b) = (cluster.coords(r as u32), cluster.coords(q as u32));
                            match op {
                                Operand::A => a.0 == b.0,
                                Operand::B => a.1 == b.1,
                            }
                        })
                        .collect(),
                    _ => vec![r],
                };
                // Each sharer's equal share (what `issued_bytes` counts); if the tile does not
                // split evenly the slices fall short of it, and the search finds the hang.
                let bytes = l.stage_bytes / sharers.len() as u32;
                issued += bytes;
                for q in sharers {
                    let bar = if pair { 0 } else { q };
                    xfers.push(Xfer {
                        load: l.name,
                        data: q,
                        bar,
                        bytes,
                    });
                }
            }
            // What the model issues is the core's count of what this CTA issues.
            assert_eq!(issued, p.issued_bytes(r as u32), "issued_bytes({r})");
            let expect = (!pair || r == 0).then(|| match v {
                Variant::ExtraExpectTx => p.expect_tx(r as u32) + 1,
                Variant::ExpectIssuedOnly => p.issued_bytes(r as u32),
                _ => p.expect_tx(r as u32),
            });
            prods.push(Producer {
                rank: r,
                waits: v != Variant::NoEmptyWait,
                parity_flip: (v == Variant::WrongEmptyParity) as u32,
                expect,
                xfers,
            });
        }
        let mut groups: Vec<Vec<Group>> = (0..ctas).map(|_| Vec::new()).collect();
        for (pi, pr) in prods.iter().enumerate() {
            for x in &pr.xfers {
                let gs = &mut groups[x.data];
                let g = match gs.iter().position(|g| g.bar == x.bar && g.bytes == x.bytes) {
                    Some(g) => g,
                    None => {
                        gs.push(Group {
                            bar: x.bar,
                            bytes: x.bytes,
                            per_producer: vec![0; ctas],
                        });
                        gs.len() - 1
                    }
                };
                gs[g].per_producer[pi] += 1;
            }
        }
        let gmax = groups.iter().map(Vec::len).max().unwrap();
        // Consumers: `consumers` per CTA; under cta_group::2 the leader's MMA issuer only, which
        // waits on the leader's full barrier and reads both halves.
        let mut cons = Vec::new();
        let ca = u8::try_from(spec.consumer_arrivals).unwrap();
        let mut off = ctas;
        for r in 0..ctas {
            let (count, reads, wait_cta) = if pair {
                assert_eq!(
                    spec.consumers, 1,
                    "cta_group::2 has one consumer, the MMA issuer"
                );
                (usize::from(r == 0), (0..ctas).collect::<Vec<_>>(), 0)
            } else {
                (spec.consumers as usize, vec![r], r)
            };
            for idx in 0..count {
                let mask = match v {
                    Variant::ReleaseOwnOnly => 1 << r,
                    _ => p.release_mask(r as u32),
                };
                let targets: Vec<(usize, u8)> = (0..ctas)
                    .filter(|q| mask & (1 << q) != 0)
                    .map(|q| {
                        let skip = v == Variant::SkipOneArrive && r == 0 && idx == 0 && q == 0;
                        (q, ca - u8::from(skip))
                    })
                    .collect();
                let width = 3 + targets.len();
                cons.push(Consumer {
                    rank: r,
                    idx,
                    wait_cta,
                    reads: reads.clone(),
                    targets,
                    release_first: v == Variant::ReleaseBeforeRead,
                    parity_flip: (v == Variant::WrongFullParity) as u32,
                    off,
                });
                off += width;
            }
        }
        let readers = (0..ctas)
            .map(|c| {
                (0..cons.len())
                    .filter(|&k| cons[k].reads.contains(&c))
                    .collect()
            })
            .collect();
        let empty_init = match v {
            Variant::EmptyInitPlusOne => p.empty_arrivals() + 1,
            Variant::EmptyInitMinusOne => p.empty_arrivals() - 1,
            _ => p.empty_arrivals(),
        };
        let bar_off = off;
        let landed_off = bar_off + ctas * stages * 2 * 6;
        Model {
            ctas,
            stages,
            n,
            full_parity: (0..iterations).map(|i| p.full_parity(i)).collect(),
            empty_parity: (0..iterations).map(|i| p.empty_parity(i)).collect(),
            stage,
            prev_same,
            full_init: u8::try_from(p.full_arrivals()).unwrap(),
            empty_init: u8::try_from(empty_init).unwrap(),
            prods,
            cons,
            groups,
            gmax,
            readers,
            // Every load's whole stage tile lands in every CTA (its own half under cta_group::2).
            total: spec.loads().iter().map(|l| l.stage_bytes).sum(),
            bar_off,
            landed_off,
            len: landed_off + n * ctas * gmax,
        }
    }

    /// Every producer at iteration 0, every consumer waiting, every barrier at phase 0 with
    /// its init count pending and tx-count 0, nothing landed.
    pub(crate) fn initial(&self) -> Vec<u8> {
        let mut s = vec![0u8; self.len];
        for (p, pr) in self.prods.iter().enumerate() {
            s[p] = u8::from(!pr.waits);
        }
        for c in 0..self.ctas {
            for st in 0..self.stages {
                s[self.bar(c, st, false) + 1] = self.full_init;
                s[self.bar(c, st, true) + 1] = self.empty_init;
            }
        }
        s
    }

    /// Offset of a barrier's 6 bytes.
    pub(crate) fn bar(&self, cta: usize, stage: usize, empty: bool) -> usize {
        self.bar_off + ((cta * self.stages + stage) * 2 + usize::from(empty)) * 6
    }

    /// Offset of the count of landed transfers of group `g` of iteration `it` in CTA `c`.
    pub(crate) fn landed_at(&self, it: usize, c: usize, g: usize) -> usize {
        self.landed_off + (it * self.ctas + c) * self.gmax + g
    }
}
