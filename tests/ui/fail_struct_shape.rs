use smemdesc::smem_tile;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)]
#[repr(C)]
struct Fields {
    data: [u8; 16],
}

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)]
enum NotAStruct {}

fn main() {}
