// Member names whose generated items collide (`a_ptr` is both a member and `a`'s pointer fn).
use smemdesc::smem_storage;

#[smem_storage(arch = sm90)]
pub struct Storage {
    a: [u8; 16],
    a_ptr: u32,
}

fn main() {}
