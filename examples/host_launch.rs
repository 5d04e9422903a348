//! Host side of a Hopper GEMM launch, driven by the same declarations the kernel uses: the
//! `cuTensorMapEncodeTiled` arguments for A and B, the dynamic shared-memory size, the grid, and
//! the mbarrier transaction bytes per stage. No GPU needed: the arguments are printed.
//!
//! Run: `cargo run --example host_launch`

use smemdesc::{smem_tile, Major, SmemTile, TensorMap, TensorMapArgs};

/// A operand: 128 (M) × 64 (K) bf16 per stage, row-major A (K contiguous).
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
            mma = m64n256k16, stages = 4)]
pub struct TileA;

/// B operand: 256 (N) × 64 (K) bf16 per stage, column-major B (K contiguous).
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K,
            mma = m64n256k16, stages = 4)]
pub struct TileB;

/// The checked arguments of `cuTensorMapEncodeTiled` for operand `T` of a dense global `rows × k`
/// matrix (`rows` = M or N): dims, strides, box, swizzle and data type from the core's
/// [`TensorMap`], every documented rule checked (the address is a placeholder here).
fn tensor_map<T: SmemTile>(rows: u64, k: u64) -> TensorMapArgs {
    TensorMap::for_tile_matrix(&T::PLAN, rows, k)
        .address(0)
        .try_args()
        .expect("a legal tensor map")
}

/// The TMA loads that fill one stage: `(smem byte offset, [coord0, coord1])` per box, for the tile
/// whose origin in the global matrix is `(mn0, k0)`.
fn stage_loads<T: SmemTile>(stage: u32, mn0: u32, k0: u32) -> Vec<(u32, [u32; 2])> {
    let major = T::PLAN.decl.major;
    T::TMA_BOX_OFFSETS
        .iter()
        .zip(T::TMA_BOX_COORDS)
        .map(|(off, [bm, bk])| {
            let (m, k) = (mn0 + bm, k0 + bk);
            let coords = match major {
                Major::K => [k, m],
                Major::Mn => [m, k],
            };
            (stage * T::STAGE_BYTES + off, coords)
        })
        .collect()
}

/// Kernel parameters a launch passes by value (what a `#[kernel]` fn would take).
#[derive(Debug)]
#[allow(dead_code)] // printed only
#[repr(C)]
struct GemmParams {
    m: u32,
    n: u32,
    k: u32,
    /// Byte offset of B in dynamic shared memory (A starts at 0).
    smem_b: u32,
    /// Base descriptors; the kernel adds ADVANCE_* per subtile and stage.
    desc_a: u64,
    desc_b: u64,
}

fn main() {
    let (m, n, k) = (4096u32, 4096u32, 4096u32);
    let (bm, bn, bk) = (TileA::TILE_MN, TileB::TILE_MN, TileA::TILE_K);
    assert_eq!(TileA::TILE_K, TileB::TILE_K);
    let smem_b = TileA::BYTES.next_multiple_of(TileB::ALIGN);
    let smem_bytes = smem_b + TileB::BYTES;

    println!(
        "GEMM {m} x {n} x {k} bf16, CTA tile {bm} x {bn} x {bk}, {} stages\n",
        TileA::STAGES
    );
    for (name, args) in [
        ("A", tensor_map::<TileA>(m as u64, k as u64)),
        ("B", tensor_map::<TileB>(n as u64, k as u64)),
    ] {
        let r = args.rank as usize;
        println!("cuTensorMapEncodeTiled(&tmap_{name},");
        println!(
            "    dataType        = {},  // {}",
            args.data_type.value(),
            args.data_type.name()
        );
        println!("    tensorRank      = {},", args.rank);
        println!("    globalAddress   = d_{name},");
        println!("    globalDim       = {:?},", &args.global_dim[..r]);
        println!("    globalStrides   = {:?},", &args.global_strides[..r - 1]);
        println!("    boxDim          = {:?},", &args.box_dim[..r]);
        println!("    elementStrides  = {:?},", &args.element_strides[..r]);
        println!(
            "    interleave      = {},  // {}",
            args.interleave.value(),
            args.interleave.name()
        );
        println!(
            "    swizzle         = {},  // {}",
            args.swizzle.value(),
            args.swizzle.name()
        );
        println!(
            "    l2Promotion     = {},  // {}",
            args.l2_promotion.value(),
            args.l2_promotion.name()
        );
        println!(
            "    oobFill         = {});  // {}",
            args.oob_fill.value(),
            args.oob_fill.name()
        );
        println!();
    }
    let params = GemmParams {
        m,
        n,
        k,
        smem_b,
        desc_a: TileA::DESC,
        desc_b: TileB::DESC,
    };
    println!("cuLaunchKernel(gemm,");
    println!("    grid            = [{}, {}, 1],", n / bn, m / bm);
    println!("    block           = [384, 1, 1],  // 1 producer + 2 consumer warpgroups");
    println!("    sharedMemBytes  = {smem_bytes},  // set CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES");
    println!("    params          = {{ m: {}, n: {}, k: {}, smem_b: {:#x}, desc_a: {:#x}, desc_b: {:#x} }});",
        params.m, params.n, params.k, params.smem_b, params.desc_a, params.desc_b);
    println!();
    println!(
        "mbarrier expect_tx per stage: {} B (A) + {} B (B) = {} B",
        TileA::STAGE_BYTES,
        TileB::STAGE_BYTES,
        TileA::STAGE_BYTES + TileB::STAGE_BYTES
    );
    println!("\nproducer, CTA (0, 0), k-block 1 into stage 1:");
    for (off, c) in stage_loads::<TileA>(1, 0, bk) {
        println!("  cp.async.bulk.tensor.2d  tmap_A  smem = {off:#x}          coords = {c:?}");
    }
    for (off, c) in stage_loads::<TileB>(1, 0, bk) {
        println!(
            "  cp.async.bulk.tensor.2d  tmap_B  smem = {:#x} (+{smem_b:#x})  coords = {c:?}",
            off
        );
    }
}
