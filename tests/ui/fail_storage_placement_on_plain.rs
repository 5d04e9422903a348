// `placement` is for tile members; a bad `align` and an unknown arch are reported too.
use smemdesc::smem_storage;

#[smem_storage(arch = sm95)]
pub struct Storage {
    #[smem(placement = absolute)]
    full: [smemdesc::Mbarrier; 4],
    #[smem(align = 96)]
    epi: [u8; 4096],
}

fn main() {}
