// A dependent launch reads its primary's output only after `griddepcontrol.wait`: the address of
// an `Upstream` comes with the `Resolved` proof alone, which only `Prologue::wait` makes
// (issue 46, item 4). A read in the prologue does not compile.
use smemdesc::pdl::{Prologue, Resolved, Upstream};

fn main() {
    let x = Upstream::<f32>::from_param(0x7f00_0000_1000);
    let prologue = Prologue::start();
    let _early = x.addr(&Resolved::default());
    let _ = prologue;
}
