//! The exhaustive search of `tests/pipeline_model.rs`: breadth first over exact states (so a
//! violation comes with a shortest trace), a violating step's target never expanded.

use super::protocol::{Kind, Model};
use super::semantics::{Err, Log, Step};

/// A violation, with the steps from the initial state that reach it.
pub(crate) struct Violation {
    pub(crate) kind: Kind,
    pub(crate) what: String,
    pub(crate) trace: Vec<String>,
}

/// One exploration: how many states, and the first (shortest) violation of each kind found.
pub(crate) struct Outcome {
    pub(crate) states: usize,
    pub(crate) violations: Vec<Violation>,
}

/// The visited states: fixed-width byte strings in one arena, and an open-addressing table of
/// their indices, each with the top 32 bits of its state's hash (the slot is the top bits of
/// those): a probe compares a state's bytes only when the hash bits match, and growing the table
/// reads no state.
struct Seen {
    width: usize,
    arena: Vec<u8>,
    /// `hash32 << 32 | index`, or [`EMPTY`].
    table: Vec<u64>,
    bits: u32,
    count: usize,
}

const EMPTY: u64 = u64::MAX;

/// The top 32 bits of a 64-bit hash of `s`: four independent multiply-rotate lanes over 8-byte
/// words (one lane was a chain of dependent multiplies), folded together.
fn hash32(s: &[u8]) -> u32 {
    const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    let mut h = [0u64, 1, 2, 3];
    let mut words = s.chunks(8).map(|c| {
        let mut w = [0u8; 8];
        w[..c.len()].copy_from_slice(c);
        u64::from_le_bytes(w)
    });
    'lanes: loop {
        for lane in &mut h {
            let Some(w) = words.next() else {
                break 'lanes;
            };
            *lane = (lane.rotate_left(5) ^ w).wrapping_mul(K);
        }
    }
    let h = h.iter().fold(s.len() as u64, |acc, &l| {
        (acc.rotate_left(23) ^ l).wrapping_mul(K)
    });
    (h >> 32) as u32
}

impl Seen {
    fn new(width: usize) -> Seen {
        Seen {
            width,
            arena: Vec::new(),
            table: vec![EMPTY; 1 << 10],
            bits: 10,
            count: 0,
        }
    }

    fn get(&self, i: usize) -> &[u8] {
        &self.arena[i * self.width..(i + 1) * self.width]
    }

    fn slot(&self, hash: u32) -> usize {
        (hash >> (32 - self.bits)) as usize
    }

    /// Adds `s`; false if it was there.
    fn insert(&mut self, s: &[u8]) -> bool {
        if 2 * (self.count + 1) > self.table.len() {
            assert!(self.bits < 32, "more states than a 32-bit hash can spread");
            self.bits += 1;
            let old = std::mem::replace(&mut self.table, vec![EMPTY; 1 << self.bits]);
            for e in old.into_iter().filter(|&e| e != EMPTY) {
                let mut at = self.slot((e >> 32) as u32);
                while self.table[at] != EMPTY {
                    at = (at + 1) & (self.table.len() - 1);
                }
                self.table[at] = e;
            }
        }
        let hash = hash32(s);
        let mut at = self.slot(hash);
        loop {
            let e = self.table[at];
            if e == EMPTY {
                self.table[at] = u64::from(hash) << 32 | self.count as u64;
                self.arena.extend_from_slice(s);
                self.count += 1;
                return true;
            }
            if (e >> 32) as u32 == hash && self.get(e as u32 as usize) == s {
                return false;
            }
            at = (at + 1) & (self.table.len() - 1);
        }
    }
}

impl Model {
    /// Explores every interleaving until a violation of a kind in `stop` is found (all of
    /// them if none is), recording the first violation of each kind.
    pub(crate) fn check(&self, max_states: usize, stop: &[Kind]) -> Outcome {
        let mut seen = Seen::new(self.len);
        seen.insert(&self.initial());
        let mut parents: Vec<(u32, Step)> = vec![(0, Step::ProdWait(0))];
        let mut violations: Vec<Violation> = Vec::new();
        let (mut steps, mut cur, mut next) = (Vec::new(), Vec::new(), Vec::new());
        let mut head = 0;
        while head < seen.count {
            assert!(seen.count <= max_states, "more than {max_states} states");
            cur.clear();
            cur.extend_from_slice(seen.get(head));
            self.enabled(&cur, &mut steps);
            let mut found = Vec::new();
            if steps.is_empty() {
                found.extend(self.terminal(&cur).map(|e| (None, e)));
            }
            for &st in &steps {
                match self.apply(&cur, st, &mut next, &mut Log(None)) {
                    Ok(()) => {
                        if seen.insert(&next) {
                            parents.push((head as u32, st));
                        }
                    }
                    Err(e) => found.push((Some(st), e)),
                }
            }
            for (st, e) in found {
                let kind = e.0;
                if violations.iter().all(|v| v.kind != kind) {
                    violations.push(self.trace(&parents, head, st, e));
                }
                if stop.contains(&kind) {
                    return Outcome {
                        states: seen.count,
                        violations,
                    };
                }
            }
            head += 1;
        }
        Outcome {
            states: seen.count,
            violations,
        }
    }

    /// The steps to state `at` (then `last`), rendered by replaying them, then the violation.
    fn trace(&self, parents: &[(u32, Step)], at: usize, last: Option<Step>, e: Err) -> Violation {
        let mut steps: Vec<Step> = last.into_iter().collect();
        let mut i = at;
        while i != 0 {
            steps.push(parents[i].1);
            i = parents[i].0 as usize;
        }
        steps.reverse();
        let mut log = Log(Some(Vec::new()));
        let (mut s, mut n) = (self.initial(), Vec::new());
        for &st in &steps {
            if self.apply(&s, st, &mut n, &mut log).is_err() {
                break;
            }
            std::mem::swap(&mut s, &mut n);
        }
        let mut lines = log.0.unwrap();
        lines.push(format!("{:?}: {}", e.0, e.1));
        let trace = lines
            .iter()
            .enumerate()
            .map(|(i, l)| format!("{:3}. {l}", i + 1))
            .collect();
        Violation {
            kind: e.0,
            what: e.1,
            trace,
        }
    }
}
