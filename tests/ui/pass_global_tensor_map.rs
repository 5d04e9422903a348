use smemdesc::{smem_tile, TensorMapArg, TensorMapError};

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
            mma = m64n256k16, stages = 4, global_dims = (4096, _))]
struct TileA;

#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K,
            global_dims = (_, _, 8), global_strides = (_, _))]
struct TileB;

fn main() {
    let m = TileA::TENSOR_MAP;
    assert_eq!((m.rank, m.box_dim[0], m.box_dim[1]), (2, 64, 128));
    assert_eq!(m.global_dim[1], None);
    let a = m.dim(1, 8192).address(0x1000).try_args().unwrap();
    assert_eq!((a.global_dim[1], a.global_strides[0]), (8192, 8192));
    // run-time values are checked at run time
    let e = m.dim(1, 0).address(0x1000).try_args().unwrap_err();
    assert_eq!(e, TensorMapError::DimOutOfRange { index: 1, dim: 0 });
    let e = TileB::TENSOR_MAP
        .dim(0, 4096)
        .dim(1, 4096)
        .address(0)
        .try_args()
        .unwrap_err();
    assert_eq!(
        e,
        TensorMapError::Unresolved {
            arg: TensorMapArg::GlobalStrides(0)
        }
    );
    let b = TileB::TENSOR_MAP
        .dim(0, 4096)
        .dim(1, 4096)
        .stride(0, 8192)
        .stride(1, 8192 * 4096)
        .address(0)
        .try_args()
        .unwrap();
    assert_eq!((b.rank, b.box_dim[2], b.global_dim[2]), (3, 1, 8));
}
