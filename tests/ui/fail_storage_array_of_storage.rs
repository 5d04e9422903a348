// A storage is a unit struct whose bytes are constants: an array of it would count 0 bytes
// (`Outer::LAUNCH_BYTES` was 8 for 100,000 B of `Inner`). Refused, naming the member.
use smemdesc::smem_storage;

#[smem_storage(arch = sm100)]
pub struct Inner {
    x: [u8; 100000],
}

#[smem_storage(arch = sm100)]
pub struct Outer {
    inner: [Inner; 1],
    y: [u8; 8],
}

fn main() {
    let _ = Outer::LAUNCH_BYTES;
}
