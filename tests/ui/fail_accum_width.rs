// A wgmma accumulator of a width no m64nNk* instruction has (N = 12: not a multiple of 8) is
// refused in `cargo check`, on the type, with the rule (PTX ISA, wgmma.mma_async, Matrix Shape).
use smemdesc::accum::WgmmaAcc;

fn main() {
    let acc = WgmmaAcc::<12>::zero();
    let _ = acc;
}
