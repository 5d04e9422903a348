//! The SMEM tiles of a real Hopper GEMM, declared once and printed in full.
//!
//! bf16 inputs, a 128 × 256 × 64 CTA tile (M × N × K), 4 pipeline stages filled by TMA, consumed
//! by `wgmma.mma_async.m64n256k16`: A is 128 × 64 (two M = 64 instructions), B is 256 × 64 (one
//! N = 256 instruction), both K-major. Every number below was computed and checked by the core
//! when this file was compiled; nothing here is derived by hand.
//!
//! Run: `cargo run --example gemm_tiles`

use smemdesc::{smem_tile, Arch, SmemDescriptor, SmemTile};

/// A operand: 128 (M) × 64 (K) bf16 per stage.
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
            swizzle = auto, mma = m64n256k16, stages = 4)]
pub struct TileA;

/// B operand: 256 (N) × 64 (K) bf16 per stage.
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K,
            swizzle = auto, mma = m64n256k16, stages = 4)]
pub struct TileB;

/// Where the tiles sit in the CTA's dynamic shared memory: A first, then B (both 1024-aligned).
const BASE_A: u32 = 0;
const BASE_B: u32 = BASE_A + TileA::BYTES;
const _: () = assert!(BASE_B % TileB::ALIGN == 0);
const TOTAL: u32 = BASE_B + TileB::BYTES;

fn print_tile<T: SmemTile>(name: &str, base: u32) {
    let p = T::PLAN;
    let t = &p.tile;
    let spec = t.spec();
    println!(
        "== {name}: {} operand {}, {} {} x {} (MN x K), {}-major ==",
        spec.arch.name(),
        p.decl.operand.name(),
        spec.dtype.name(),
        spec.tile_mn,
        spec.tile_k,
        spec.major.name()
    );
    println!(
        "  swizzle {:<14} atom {} B wide x {} rows, stacked {}",
        T::SWIZZLE.name(),
        T::SWIZZLE.atom_width(),
        T::SWIZZLE.atom_rows(),
        spec.order.name()
    );
    println!(
        "  storage        {} stages x {} B = {} B, align {} B, at SMEM offset {:#x}",
        T::STAGES,
        T::STAGE_BYTES,
        T::BYTES,
        T::ALIGN,
        base
    );
    println!(
        "  instruction    wgmma m{}n{}k{} -> {} x {} MMA subtiles per stage (MN x K)",
        T::MMA_M,
        T::MMA_N,
        T::MMA_K,
        T::MMAS_MN,
        T::MMAS_K
    );
    println!(
        "  base DESC      {}",
        SmemDescriptor::from_raw(Arch::Sm90, T::DESC)
    );
    println!(
        "                 LBO {} B, SBO {} B, layout type {}",
        T::LBO,
        T::SBO,
        T::LAYOUT_TYPE
    );
    println!();
    println!("  advance tables (added to the descriptor's start address, 16-byte units):");
    println!("    {:<14} {:>8} {:>10}", "table", "units", "bytes");
    for (i, a) in T::ADVANCE_MN.iter().enumerate() {
        println!(
            "    {:<14} {:>8} {:>10}",
            format!("ADVANCE_MN[{i}]"),
            a,
            *a as u32 * 16
        );
    }
    for (j, a) in T::ADVANCE_K.iter().enumerate() {
        println!(
            "    {:<14} {:>8} {:>10}",
            format!("ADVANCE_K[{j}]"),
            a,
            *a as u32 * 16
        );
    }
    println!(
        "    {:<14} {:>8} {:>10}",
        "ADVANCE_STAGE",
        T::ADVANCE_STAGE,
        T::ADVANCE_STAGE * 16
    );
    println!();
    println!("  descriptors (tile at {base:#x}):");
    println!(
        "    {:>5} {:>3} {:>3} {:>10} {:>20}",
        "stage", "mn", "k", "start", "desc"
    );
    for s in 0..T::STAGES {
        for i in 0..T::MMAS_MN {
            for k in 0..T::MMAS_K {
                let d = T::desc(base, i, k, s);
                let start = SmemDescriptor::from_raw(Arch::Sm90, d).start_address();
                println!("    {s:>5} {i:>3} {k:>3} {start:>#10x} {d:>#20x}");
            }
        }
    }
    println!();
    println!("  TMA (cuTensorMapEncodeTiled): boxDim = {:?} ([inner, rows] elements), {} box(es) of {} B per stage",
        T::TMA_BOX_DIM, T::TMA_BOXES, p.tma.box_bytes);
    println!(
        "    swizzle {} = {}, data type {} = {}",
        p.tma.swizzle.name(),
        T::TMA_SWIZZLE,
        p.tma.data_type.name(),
        T::TMA_DATA_TYPE
    );
    println!(
        "    {:>4} {:>12} {:>10} {:>10}",
        "box", "smem offset", "mn0", "k0"
    );
    for (b, (off, c)) in T::TMA_BOX_OFFSETS.iter().zip(T::TMA_BOX_COORDS).enumerate() {
        println!("    {b:>4} {off:>#12x} {:>10} {:>10}", c[0], c[1]);
    }
    println!();
}

fn main() {
    println!("Hopper bf16 GEMM, CTA tile 128 x 256 x 64, 4 stages, wgmma m64n256k16\n");
    print_tile::<TileA>("A", BASE_A);
    print_tile::<TileB>("B", BASE_B);
    println!(
        "shared memory: A {} B + B {} B = {} B of {} B per CTA",
        TileA::BYTES,
        TileB::BYTES,
        TOTAL,
        Arch::Sm90.max_smem_per_cta()
    );
    // The inner loop of the kernel: per k-block, one wgmma per (M subtile, K subtile).
    println!("\nkernel inner loop, stage 0, k-step 1:");
    for i in 0..TileA::MMAS_MN {
        println!(
            "  wgmma m64n256k16  a_desc = {:#x}  b_desc = {:#x}",
            TileA::desc(BASE_A, i, 1, 0),
            TileB::desc(BASE_B, 0, 1, 0)
        );
    }
}
