//! The PTX this kernel writes itself: the address of its dynamic shared-memory symbol and the
//! `wgmma` instructions. Everything the declarations describe (mbarriers, TMA, the tensor-map
//! fence, the special registers, the pipeline's `PipelineOps`) is `smemdesc::ptx`'s.

use core::arch::asm;

/// Shared-window address of `smem_dyn`, the module's dynamic shared memory (declared in
/// `lib.rs`). CUDA guarantees 16-byte alignment; the storage rounds it up to its own.
#[inline(always)]
pub fn smem_dyn() -> u32 {
    let r: u32;
    // SAFETY: takes the address of a symbol.
    unsafe { asm!("mov.u32 {0}, smem_dyn;", out(reg32) r, options(pure, nomem, nostack)) };
    r
}

/// `wgmma.fence`: orders register accesses to the accumulators before the next wgmma.
#[inline(always)]
pub unsafe fn wgmma_fence() {
    asm!("wgmma.fence.sync.aligned;", options(nostack));
}

/// `wgmma.commit_group`.
#[inline(always)]
pub unsafe fn wgmma_commit_group() {
    asm!("wgmma.commit_group.sync.aligned;", options(nostack));
}

/// `wgmma.wait_group 0`: every committed wgmma of this warpgroup has completed.
#[inline(always)]
pub unsafe fn wgmma_wait_all() {
    asm!("wgmma.wait_group.sync.aligned 0;", options(nostack));
}

/// `d = A * B + (scale_d != 0 ? d : 0)` for one m64n128k16 bf16 step, f32 accumulators:
/// `desc_a` and `desc_b` are the shared-memory matrix descriptors of the two operands (both
/// K-major: transpose immediates 0). The 64 accumulators of a thread are the m64n128 fragment
/// (PTX ISA, "Matrix fragments for wgmma .m64nNk16": element `4 j + 2 h + e` is row
/// `16 warp + lane / 4 + 8 h`, column `8 j + 2 (lane % 4) + e`).
///
/// # Safety
/// Executed by all 128 threads of a warpgroup (`.sync.aligned`) after `wgmma_fence`, with both
/// operands resident in shared memory; `d` is read again only after `wgmma_wait_all`.
#[inline(always)]
pub unsafe fn wgmma_m64n128k16_bf16(d: &mut [f32; 64], desc_a: u64, desc_b: u64, scale_d: u32) {
    asm!(
        "{{ .reg .pred p; setp.ne.b32 p, {66}, 0;",
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16",
        "{{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {9}, {10}, {11}, {12}, {13}, {14}, {15}, {16}, {17}, {18}, {19}, {20}, {21}, {22}, {23}, {24}, {25}, {26}, {27}, {28}, {29}, {30}, {31}, {32}, {33}, {34}, {35}, {36}, {37}, {38}, {39}, {40}, {41}, {42}, {43}, {44}, {45}, {46}, {47}, {48}, {49}, {50}, {51}, {52}, {53}, {54}, {55}, {56}, {57}, {58}, {59}, {60}, {61}, {62}, {63}}},",
        "{64}, {65}, p, 1, 1, 0, 0; }}",
            inout(reg32) d[0],
            inout(reg32) d[1],
            inout(reg32) d[2],
            inout(reg32) d[3],
            inout(reg32) d[4],
            inout(reg32) d[5],
            inout(reg32) d[6],
            inout(reg32) d[7],
            inout(reg32) d[8],
            inout(reg32) d[9],
            inout(reg32) d[10],
            inout(reg32) d[11],
            inout(reg32) d[12],
            inout(reg32) d[13],
            inout(reg32) d[14],
            inout(reg32) d[15],
            inout(reg32) d[16],
            inout(reg32) d[17],
            inout(reg32) d[18],
            inout(reg32) d[19],
            inout(reg32) d[20],
            inout(reg32) d[21],
            inout(reg32) d[22],
            inout(reg32) d[23],
            inout(reg32) d[24],
            inout(reg32) d[25],
            inout(reg32) d[26],
            inout(reg32) d[27],
            inout(reg32) d[28],
            inout(reg32) d[29],
            inout(reg32) d[30],
            inout(reg32) d[31],
            inout(reg32) d[32],
            inout(reg32) d[33],
            inout(reg32) d[34],
            inout(reg32) d[35],
            inout(reg32) d[36],
            inout(reg32) d[37],
            inout(reg32) d[38],
            inout(reg32) d[39],
            inout(reg32) d[40],
            inout(reg32) d[41],
            inout(reg32) d[42],
            inout(reg32) d[43],
            inout(reg32) d[44],
            inout(reg32) d[45],
            inout(reg32) d[46],
            inout(reg32) d[47],
            inout(reg32) d[48],
            inout(reg32) d[49],
            inout(reg32) d[50],
            inout(reg32) d[51],
            inout(reg32) d[52],
            inout(reg32) d[53],
            inout(reg32) d[54],
            inout(reg32) d[55],
            inout(reg32) d[56],
            inout(reg32) d[57],
            inout(reg32) d[58],
            inout(reg32) d[59],
            inout(reg32) d[60],
            inout(reg32) d[61],
            inout(reg32) d[62],
            inout(reg32) d[63],
        in(reg64) desc_a,
        in(reg64) desc_b,
        in(reg32) scale_d,
        options(nostack),
    );
}
