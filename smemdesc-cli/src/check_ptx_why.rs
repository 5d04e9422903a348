//! Why a function has local memory (issue 43, item 3): the two patterns a kernel's accumulator
//! falls into, each named with its fix.
//!
//! * **A zeroing loop**: a loop (a branch back to an earlier label) whose body stores literal
//!   zeros to `.local`: `let mut acc = [0f32; 128];` in the kernel (rustc zeroes an f32 array with
//!   a loop of stores, which keeps the array in memory; the project's measured fact, issue 43).
//! * **An accumulator in memory**: the depot's size is the register accumulator of a `wgmma` of
//!   the same function (`m64nNk*`: `N / 2` f32 or s32 registers, `N / 4` for f16, 4 bytes each;
//!   PTX ISA, "Matrix fragments for wgmma.mma_async.m64nNk*"), or holds one: the accumulator
//!   was indexed at run time (an index function such as `WgmmaAccum::coord` or `ChainedMma::source`
//!   in a loop of 32 or 64 trips, which LLVM does not unroll).
//!
//! Both read only the function's body; every count is checked (a hostile module reads as no
//! pattern, never a panic).

use super::check_ptx_parse::Function;

/// What the depot of one function is, beyond "local memory".
#[derive(Debug, Default, PartialEq, Eq)]
pub struct DepotWhy {
    /// The line of the first zero store of a zeroing loop.
    pub zeroing_loop: Option<usize>,
    /// The `wgmma` accumulator the depot equals or holds, e.g. `m64n256 f32 (512 bytes)`.
    pub accumulator: Option<String>,
    /// Whether the depot's size is exactly that accumulator's (or a sum of the function's
    /// accumulators).
    pub exact: bool,
}

/// The fix of a zeroing loop.
pub const ZEROING_FIX: &str = "a zeroing loop is an array zeroed in the kernel (`[0f32; N]`: rustc writes a loop of stores, and the array stays in memory): zero the accumulator with `smemdesc::accum::WgmmaAcc::<N>::zero()` (a constant) or `core::mem::zeroed()`";

/// The fix of an accumulator in local memory.
pub const ACCUMULATOR_FIX: &str = "a wgmma accumulator in local memory: keep it in a `smemdesc::accum::WgmmaAcc<N>` and use its whole-fragment operations (mask_causal/mask_where, row_max/row_sum, scale_rows, pack + for_each_kstep, for_each_group) instead of index functions (`WgmmaAccum::coord`, `row_elem`, `ChainedMma::source`, `pair`) in run-time loops: LLVM unrolls loops of 8 trips, not of 32 or 64, and a run-time index keeps the array in memory (issue 43)";

/// The accumulator bytes of a `wgmma.mma_async` instruction's text, with its name.
fn accumulator(instr: &str) -> Option<(u64, String)> {
    let rest = instr.strip_prefix("wgmma.mma_async.")?;
    let shape = rest.split('.').find(|p| p.starts_with("m64n"))?;
    let n: u64 = shape
        .strip_prefix("m64n")?
        .split('k')
        .next()?
        .parse()
        .ok()?;
    if n == 0 || n > 256 || n % 8 != 0 {
        return None;
    }
    let dtype = rest
        .split('.')
        .skip_while(|p| !p.starts_with("m64n"))
        .nth(1)?;
    let regs = match dtype {
        "f32" | "s32" => n / 2,
        "f16" => n / 4,
        _ => return None,
    };
    let bytes = regs.checked_mul(4)?;
    Some((bytes, format!("m64n{n} {dtype} ({bytes} bytes)")))
}

/// Whether `operands` (the text after the address of a `st.local`) are literal zeros only.
fn zero_value(value: &str) -> bool {
    let v = value.trim().trim_end_matches(';').trim();
    let v = v.trim_start_matches('{').trim_end_matches('}');
    let mut any = false;
    for w in v.split(',') {
        let w = w.trim();
        if !(w == "0" || w == "0f00000000" || w == "0d0000000000000000") {
            return false;
        }
        any = true;
    }
    any
}

/// The depot patterns of `f`, whose local memory is `size` bytes.
pub fn why(f: &Function, size: Option<u64>) -> DepotWhy {
    let mut out = DepotWhy::default();
    // Labels (`$L__BB0_4:`) by body index; a branch back to an earlier one closes a loop.
    let mut labels: Vec<(&str, usize)> = Vec::new();
    let mut accs: Vec<(u64, String)> = Vec::new();
    for (i, (_, text)) in f.body.iter().enumerate() {
        let t = text.trim();
        if let Some(l) = t.strip_suffix(':') {
            labels.push((l, i));
            continue;
        }
        let instr = t.trim_start_matches(['@', '!']);
        let instr = if t.starts_with('@') {
            instr
                .split_once(char::is_whitespace)
                .map_or("", |(_, r)| r.trim_start())
        } else {
            instr
        };
        if instr.starts_with("wgmma.mma_async") {
            if let Some(a) = accumulator(instr.split_whitespace().next().unwrap_or("")) {
                if !accs.contains(&a) {
                    accs.push(a);
                }
            }
        }
        if out.zeroing_loop.is_none() && instr.starts_with("bra") {
            let target = instr
                .split_whitespace()
                .nth(1)
                .unwrap_or("")
                .trim_end_matches(';');
            if let Some(&(_, start)) = labels.iter().find(|(l, _)| *l == target) {
                out.zeroing_loop = f.body.get(start..i).and_then(|lines| {
                    lines.iter().find_map(|(line, s)| {
                        let s = s.trim();
                        let rest = s.strip_prefix("st.local")?;
                        let value = rest.split_once("],").map(|(_, v)| v)?;
                        zero_value(value).then_some(*line)
                    })
                });
            }
        }
    }
    if let Some(size) = size {
        accs.sort();
        let sums = accs.iter().flat_map(|a| {
            accs.iter()
                .filter_map(move |b| a.0.checked_add(b.0))
                .chain(core::iter::once(a.0))
        });
        let exact = sums.into_iter().any(|s| s == size);
        if let Some(a) = accs.iter().rev().find(|a| a.0 <= size) {
            out.accumulator = Some(a.1.clone());
            out.exact = exact;
        }
    }
    out
}
