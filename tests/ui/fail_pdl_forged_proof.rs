// The `Resolved` proof of a dependent launch has a private field: it cannot be built by hand,
// only returned by `Prologue::wait` (issue 46, item 4).
use smemdesc::pdl::{Resolved, Upstream};

fn main() {
    let x = Upstream::<f32>::from_param(0x7f00_0000_1000);
    let _forged = x.addr(&Resolved { _p: core::marker::PhantomData });
}
