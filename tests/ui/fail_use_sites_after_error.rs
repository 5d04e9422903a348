// A failed `#[smem_tile]` still declares the type and its items, so the declaration's error is
// the only one: no E0599 ("no associated item named `DESC`") at the use sites.
use smemdesc::{smem_tile, SmemTile};

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 0)]
pub struct CoreError;

#[smem_tile(arch = sm90, operand = A, dtype = bf17, tile = (128, 64), major = K)]
pub struct ArgError;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)]
pub struct Fields {
    data: [u8; 16],
}

fn uses<T: SmemTile>() -> u32 {
    T::BYTES
}

fn main() {
    let _ = CoreError::DESC;
    let _ = CoreError::desc(0, 0, 0, 0);
    let _ = <CoreError as SmemTile>::TMA_BOX_DIM;
    let _ = uses::<CoreError>();
    static A: ArgError = ArgError::ZERO;
    let _ = (ArgError::SBO, A.as_ptr(), ArgError::offset(0, 0));
    let _ = uses::<ArgError>() + Fields::BYTES;
    let _ = Fields::new();
}
