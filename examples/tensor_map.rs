//! A tensor map from a declaration and a global shape: the global dims are part of the
//! declaration (`global_dims`), so a wrong constant is a compile error on that token; the run-time
//! ones (`_`) are checked by `try_args` before anything reaches the driver. With the `cudarc`
//! feature, `smemdesc::cuda::encode` then calls `cuTensorMapEncodeTiled`.
//!
//! Run: `cargo run --example tensor_map`

use smemdesc::{
    smem_tile, Arch, GemmLaunch, SmemTile, TensorMap, TensorMapArg, TensorMapDataType,
    TensorMapError, TensorMapSwizzle,
};

/// A operand: K = 4096 is fixed, M is known at run time.
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
            mma = m64n256k16, stages = 4, global_dims = (4096, _))]
pub struct TileA;

/// B operand of the same GEMM, both global dims at run time.
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K,
            mma = m64n256k16, stages = 4, global_dims = (_, _))]
pub struct TileB;

fn main() -> Result<(), TensorMapError> {
    let (m, n, k) = (8192u64, 4096u64, 4096u64);
    let (ptr_a, ptr_b) = (0x7f00_0000_0000u64, 0x7f40_0000_0000u64); // from cuMemAlloc

    // Dims innermost first: K, then M (A) / N (B). Dense strides unless declared.
    let a = TileA::TENSOR_MAP.dim(1, m).address(ptr_a).try_args()?;
    let b = TileB::TENSOR_MAP
        .dim(0, k)
        .dim(1, n)
        .address(ptr_b)
        .try_args()?;
    for (name, t) in [("A", a), ("B", b)] {
        println!(
            "{name}: {} rank {} globalDim {:?} globalStrides {:?} boxDim {:?} {} {} ({} B per box)",
            t.data_type.name(),
            t.rank,
            &t.global_dim[..2],
            &t.global_strides[..1],
            &t.box_dim[..2],
            t.swizzle.name(),
            t.l2_promotion.name(),
            t.box_bytes()
        );
    }

    // A run-time value the driver would refuse is a typed error naming the argument.
    let e = TileA::TENSOR_MAP
        .dim(1, m)
        .address(ptr_a + 8)
        .try_args()
        .unwrap_err();
    assert_eq!(e.argument(), TensorMapArg::GlobalAddress);
    println!("misaligned A: {e}");
    // So is a map built by hand with a 256-B inner box under 128B swizzle.
    let e = TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2)
        .box_dim(0, 128)
        .box_dim(1, 64)
        .swizzle(TensorMapSwizzle::B128)
        .check()
        .unwrap_err();
    println!("wider box: {e}");

    // The launch the two declarations imply.
    let l = GemmLaunch::new(&TileA::PLAN, &TileB::PLAN, m as u32, n as u32).expect("tiles pair");
    println!(
        "launch: grid {:?}, cluster {:?}, sharedMemBytes {} (B at +{}), {} transaction bytes per stage",
        l.grid, l.cluster, l.shared_mem_bytes, l.smem_b, l.tx_bytes
    );
    Ok(())
}
