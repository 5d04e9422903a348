//! The steps of `tests/pipeline_model.rs`'s actors over the state byte string: which are
//! enabled, what each does (mbarrier semantics), and the property checks made on the way.

use super::protocol::{Kind, Model};

/// One atomic step of one actor (or one transfer landing).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Step {
    /// Producer `p`'s `try_wait.parity` on its empty barrier succeeds.
    ProdWait(u8),
    /// Producer `p`'s `arrive.expect_tx` (not for the `cta_group::2` peer) and the issue of its
    /// transfers (issuing only makes them landable, so it is merged into the step).
    ProdIssue(u8),
    /// Consumer `k`'s `try_wait.parity` on its full barrier succeeds; it starts reading.
    ConsWait(u8),
    /// Consumer `k` arrives on the empty barrier of its target `t`.
    ConsArrive(u8, u8),
    /// Consumer `k` finishes reading (only after its release: the broken order, or a consumer
    /// left with no arrival to make).
    ConsEndRead(u8),
    /// One transfer of (iteration, destination CTA, group) lands.
    Land(u8, u8, u8),
}

pub(crate) type Err = (Kind, String);

/// The rendered trace lines, when rendering (the search passes `Log(None)`).
pub(crate) struct Log(pub(crate) Option<Vec<String>>);

impl Log {
    fn line(&mut self, l: impl FnOnce() -> String) {
        if let Some(v) = &mut self.0 {
            v.push(l());
        }
    }

    fn note(&mut self, l: impl FnOnce() -> String) {
        if let Some(Some(last)) = self.0.as_mut().map(|v| v.last_mut()) {
            last.push_str(" => ");
            last.push_str(&l());
        }
    }
}

fn tx(s: &[u8], off: usize) -> i32 {
    i32::from_le_bytes(s[off + 2..off + 6].try_into().unwrap())
}

impl Model {
    fn init_of(&self, off: usize) -> u8 {
        if (off - self.bar_off) / 6 % 2 == 1 {
            self.empty_init
        } else {
            self.full_init
        }
    }

    fn bar_name(&self, off: usize) -> String {
        let i = (off - self.bar_off) / 6;
        let kind = if i % 2 == 1 { "empty" } else { "full" };
        format!("cta{} {kind}[{}]", i / 2 / self.stages, i / 2 % self.stages)
    }

    fn consumer_name(&self, k: usize) -> String {
        format!("cta{} consumer{}", self.cons[k].rank, self.cons[k].idx)
    }

    /// `arrive` (`arrivals == 1`, after adding `add` to the tx-count: `expect_tx`) or
    /// `complete_tx(-add)` (`arrivals == 0`). The phase completes when pending arrivals and
    /// tx-count are both 0: the phase bit flips, pending resets to the init count.
    fn update(
        &self,
        s: &mut [u8],
        off: usize,
        arrivals: u8,
        add: i32,
        log: &mut Log,
    ) -> Result<(), Err> {
        let name = || self.bar_name(off);
        let t = tx(s, off) + add;
        if arrivals > 0 && s[off + 1] == 0 {
            let init = self.init_of(off);
            let e = format!("arrival on {} beyond its count: all {init} arrivals of the phase are in (tx-count {t})", name());
            return Err((Kind::OverArrival, e));
        }
        let pending = s[off + 1] - arrivals;
        if pending == 0 && t < 0 {
            let e = format!(
                "{}: all arrivals in and tx-count {t}: {} B more completed than the phase expects",
                name(),
                -t
            );
            return Err((Kind::TxUnderflow, e));
        }
        if pending == 0 && t == 0 {
            s[off] ^= 1;
            s[off + 1] = self.init_of(off);
            s[off + 2..off + 6].copy_from_slice(&0i32.to_le_bytes());
            let bit = s[off];
            log.note(|| format!("{} phase completes (phase bit now {bit})", name()));
        } else {
            s[off + 1] = pending;
            s[off + 2..off + 6].copy_from_slice(&t.to_le_bytes());
        }
        Ok(())
    }

    fn prod_it(&self, s: &[u8], p: usize) -> usize {
        s[p] as usize / 2
    }

    fn landed_bytes(&self, s: &[u8], it: usize, c: usize) -> u32 {
        let gs = &self.groups[c];
        (0..gs.len())
            .map(|g| s[self.landed_at(it, c, g)] as u32 * gs[g].bytes)
            .sum()
    }

    /// The steps enabled in `s`.
    pub(crate) fn enabled(&self, s: &[u8], out: &mut Vec<Step>) {
        out.clear();
        let mut top = 0;
        for (p, pr) in self.prods.iter().enumerate() {
            let it = self.prod_it(s, p);
            top = top.max(it);
            if it == self.n {
                continue;
            }
            if s[p] % 2 == 1 {
                out.push(Step::ProdIssue(p as u8));
            } else {
                let b = self.bar(pr.rank, self.stage[it], true);
                if s[b] as u32 != self.empty_parity[it] ^ pr.parity_flip {
                    out.push(Step::ProdWait(p as u8));
                }
            }
        }
        for (k, c) in self.cons.iter().enumerate() {
            let o = c.off;
            let it = s[o] as usize;
            if it == self.n {
                continue;
            }
            if s[o + 1] == 0 {
                let b = self.bar(c.wait_cta, self.stage[it], false);
                if s[b] as u32 != self.full_parity[it] ^ c.parity_flip {
                    out.push(Step::ConsWait(k as u8));
                }
                continue;
            }
            let mut all = true;
            for (t, &(_, need)) in c.targets.iter().enumerate() {
                if s[o + 3 + t] < need {
                    out.push(Step::ConsArrive(k as u8, t as u8));
                    all = false;
                }
            }
            if all && s[o + 2] == 1 {
                out.push(Step::ConsEndRead(k as u8));
            }
        }
        // Transfers of iteration `it` are issued once a producer is past it.
        for it in 0..top {
            for c in 0..self.ctas {
                for (g, gr) in self.groups[c].iter().enumerate() {
                    let issued: u32 = (0..self.prods.len())
                        .filter(|&p| self.prod_it(s, p) > it)
                        .map(|p| gr.per_producer[p] as u32)
                        .sum();
                    if issued > s[self.landed_at(it, c, g)] as u32 {
                        out.push(Step::Land(it as u8, c as u8, g as u8));
                    }
                }
            }
        }
    }

    /// Consumer `k` moves to its next iteration once it has read and made all its arrivals.
    fn consumer_settle(&self, s: &mut [u8], k: usize) {
        let c = &self.cons[k];
        let o = c.off;
        let all = c
            .targets
            .iter()
            .enumerate()
            .all(|(t, &(_, need))| s[o + 3 + t] == need);
        if all && s[o + 2] == 0 {
            s[o] += 1;
            s[o + 1..o + 3 + c.targets.len()].fill(0);
        }
    }

    /// Takes `step` from `s` into `out`, or returns the violation it commits.
    pub(crate) fn apply(
        &self,
        s: &[u8],
        step: Step,
        out: &mut Vec<u8>,
        log: &mut Log,
    ) -> Result<(), Err> {
        out.clear();
        out.extend_from_slice(s);
        let n = out;
        match step {
            Step::ProdWait(p) => {
                let (p, pr) = (p as usize, &self.prods[p as usize]);
                let it = self.prod_it(s, p);
                let par = self.empty_parity[it] ^ pr.parity_flip;
                let (r, st) = (pr.rank, self.stage[it]);
                log.line(|| format!("cta{r} producer it{it}: try_wait.parity(cta{r} empty[{st}], {par}) succeeds"));
                n[p] += 1;
            }
            Step::ProdIssue(p) => {
                let (p, pr) = (p as usize, &self.prods[p as usize]);
                let it = self.prod_it(s, p);
                let (r, st) = (pr.rank, self.stage[it]);
                let issues = || {
                    let v: Vec<String> = pr
                        .xfers
                        .iter()
                        .map(|x| {
                            format!(
                                "{} {} B -> cta{} (tx on cta{} full)",
                                x.load, x.bytes, x.data, x.bar
                            )
                        })
                        .collect();
                    v.join(", ")
                };
                match pr.expect {
                    Some(e) => {
                        log.line(|| format!("cta{r} producer it{it}: arrive.expect_tx(cta{r} full[{st}], {e}); issues {}", issues()));
                        self.update(n, self.bar(r, st, false), 1, e as i32, log)?;
                    }
                    None => log.line(|| format!("cta{r} producer it{it}: issues {}", issues())),
                }
                n[p] = if it + 1 == self.n {
                    2 * self.n as u8
                } else {
                    2 * (it + 1) as u8 + u8::from(!pr.waits)
                };
            }
            Step::ConsWait(k) => {
                let (k, c) = (k as usize, &self.cons[k as usize]);
                let it = s[c.off] as usize;
                let st = self.stage[it];
                let par = self.full_parity[it] ^ c.parity_flip;
                let w = c.wait_cta;
                log.line(|| format!("{} it{it}: try_wait.parity(cta{w} full[{st}], {par}) succeeds; reads stage[{st}]", self.consumer_name(k)));
                for &d in &c.reads {
                    let got = self.landed_bytes(s, it, d);
                    if got != self.total {
                        let e = format!("{} it{it} reads cta{d} stage[{st}] with {got} of the {} B of it{it} landed", self.consumer_name(k), self.total);
                        return Err((Kind::ReadBeforeLand, e));
                    }
                }
                n[c.off + 1] = 1;
                n[c.off + 2] = 1;
            }
            Step::ConsArrive(k, t) => {
                let (k, c) = (k as usize, &self.cons[k as usize]);
                let it = s[c.off] as usize;
                let st = self.stage[it];
                let q = c.targets[t as usize].0;
                let done = !c.release_first && s[c.off + 2] == 1;
                let done = if done {
                    " (its reads of the stage are done)"
                } else {
                    ""
                };
                log.line(|| {
                    format!(
                        "{} it{it}: arrive(cta{q} empty[{st}]){done}",
                        self.consumer_name(k)
                    )
                });
                self.update(n, self.bar(q, st, true), 1, 0, log)?;
                n[c.off + 3 + t as usize] += 1;
                if !c.release_first {
                    n[c.off + 2] = 0;
                }
                self.consumer_settle(n, k);
            }
            Step::ConsEndRead(k) => {
                let (k, c) = (k as usize, &self.cons[k as usize]);
                let it = s[c.off] as usize;
                let st = self.stage[it];
                log.line(|| {
                    format!(
                        "{} it{it}: reads of stage[{st}] done",
                        self.consumer_name(k)
                    )
                });
                n[c.off + 2] = 0;
                self.consumer_settle(n, k);
            }
            Step::Land(it, d, g) => {
                let (it, d, g) = (it as usize, d as usize, g as usize);
                let gr = &self.groups[d][g];
                let (st, b, bytes) = (self.stage[it], gr.bar, gr.bytes);
                log.line(|| format!("it{it}'s transfer of {bytes} B lands in cta{d} stage[{st}]: complete_tx(cta{b} full[{st}], {bytes})"));
                // Every consumer reading this CTA must be done with the stage's previous fill.
                if let Some(prev) = self.prev_same[it] {
                    for &k in &self.readers[d] {
                        let o = self.cons[k].off;
                        let finished = s[o] as usize + usize::from(s[o + 1] == 1 && s[o + 2] == 0);
                        if prev >= finished {
                            let e = format!("it{it}'s bytes land in cta{d} stage[{st}] before {} has finished reading it{prev} there", self.consumer_name(k));
                            return Err((Kind::Overwrite, e));
                        }
                    }
                }
                n[self.landed_at(it, d, g)] += 1;
                self.update(n, self.bar(b, st, false), 0, -(bytes as i32), log)?;
            }
        }
        Ok(())
    }

    /// Why a state with no enabled step is wrong, if it is.
    pub(crate) fn terminal(&self, s: &[u8]) -> Option<Err> {
        let wait = |b: usize, par: u32| {
            let (name, bit, pending, t) = (self.bar_name(b), s[b], s[b + 1], tx(s, b));
            format!("try_wait.parity({name}, {par}) (phase bit {bit}, {pending} arrivals pending, tx-count {t})")
        };
        let mut stuck = Vec::new();
        for (p, pr) in self.prods.iter().enumerate() {
            let it = self.prod_it(s, p);
            if it < self.n {
                let b = self.bar(pr.rank, self.stage[it], true);
                let par = self.empty_parity[it] ^ pr.parity_flip;
                stuck.push(format!(
                    "cta{} producer it{it} blocked in {}",
                    pr.rank,
                    wait(b, par)
                ));
            }
        }
        for (k, c) in self.cons.iter().enumerate() {
            let it = s[c.off] as usize;
            if it < self.n {
                let b = self.bar(c.wait_cta, self.stage[it], false);
                let par = self.full_parity[it] ^ c.parity_flip;
                stuck.push(format!(
                    "{} it{it} blocked in {}",
                    self.consumer_name(k),
                    wait(b, par)
                ));
            }
        }
        if !stuck.is_empty() {
            return Some((Kind::Deadlock, stuck.join("; ")));
        }
        for i in 0..self.ctas * self.stages * 2 {
            let b = self.bar_off + 6 * i;
            if s[b + 1] != self.init_of(b) || tx(s, b) != 0 {
                let (name, pending, t) = (self.bar_name(b), s[b + 1], tx(s, b));
                let e = format!("every actor done but {name} is mid-phase: {pending} arrivals pending, tx-count {t}");
                return Some((Kind::Unbalanced, e));
            }
        }
        None
    }
}
