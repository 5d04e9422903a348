// sm107 (Rubin): no public source gives its shared memory per CTA (CUTLASS 4.7.0 and CCCL's
// arch_traits.h have no sm107 entry), so a storage for it (here 330 KiB, over the 328 KB some
// reports give) is refused with that reason, not checked against a guessed limit.
use smemdesc::smem_storage;

#[smem_storage(arch = sm107)]
pub struct Storage {
    flag: u32,
    data: [u8; 337920],
}

fn main() {}
