//! wgmma wrappers: `d += A(desc_a) * B(desc_b)`, or `d = A * B` when `scale_d` is 0. Accumulators
//! are fp32, one register per element of the m64nN fragment (PTX ISA "Matrix fragments for
//! wgmma": N / 2 registers per thread).
//!
//! An `asm!` template is a literal and every accumulator register is one operand, so each
//! wrapper is written by the one macro `wgmma!` from its instruction and trailing immediates.

use core::arch::asm;

/// Writes one wrapper: `fn NAME(d: 32)` for m64n64 (one array of 32 accumulators),
/// `fn NAME(d0, d1)` for m64n128 or `fn NAME(d0, d1, d2, d3)` for m64n256 (accumulators as
/// separate arrays of 32: each stays an
/// independent alloca that LLVM's SROA splits into registers; one array of 128 stays in local
/// memory), then the instruction, the immediates after the predicate (`scale-a, scale-b` and, for
/// bf16, the two transpose immediates) and the doc suffix naming the transpose immediates.
macro_rules! wgmma {
    (fn $name:ident($($d:tt)*), $instr:literal, $imm:literal, $doc:literal) => {
        wgmma!(@ [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31] fn $name($($d)*), $instr, $imm, $doc);
    };
    (@ [$($i:literal)*] fn $name:ident(d: 32), $instr:literal, $imm:literal, $doc:literal) => {
        #[doc = concat!("`", $instr, "`", $doc, ".")]
        ///
        /// # Safety
        /// A whole warpgroup executes it (`.sync.aligned`), after `wgmma.fence`, with descriptors of
        /// operands resident in shared memory.
        #[inline(always)]
        pub unsafe fn $name(d: &mut [f32; 32], desc_a: u64, desc_b: u64, scale_d: u32) {
            asm!(
                "{{ .reg .pred p; setp.ne.b32 p, {34}, 0;",
                $instr,
                "{{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {9}, {10}, {11}, {12}, {13}, {14}, {15}, {16}, {17}, {18}, {19}, {20}, {21}, {22}, {23}, {24}, {25}, {26}, {27}, {28}, {29}, {30}, {31}}},",
                concat!("{32}, {33}, p, ", $imm, "; }}"),
                $(inout(reg32) d[$i],)*
                in(reg64) desc_a,
                in(reg64) desc_b,
                in(reg32) scale_d,
                options(nostack),
            );
        }
    };
    (@ [$($i:literal)*] fn $name:ident(d0, d1), $instr:literal, $imm:literal, $doc:literal) => {
        #[doc = concat!("`", $instr, "`", $doc, ".")]
        #[inline(always)]
        pub unsafe fn $name(
            d0: &mut [f32; 32],
            d1: &mut [f32; 32],
            desc_a: u64,
            desc_b: u64,
            scale_d: u32,
        ) {
            asm!(
                "{{ .reg .pred p; setp.ne.b32 p, {66}, 0;",
                $instr,
                "{{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {9}, {10}, {11}, {12}, {13}, {14}, {15}, {16}, {17}, {18}, {19}, {20}, {21}, {22}, {23}, {24}, {25}, {26}, {27}, {28}, {29}, {30}, {31}, {32}, {33}, {34}, {35}, {36}, {37}, {38}, {39}, {40}, {41}, {42}, {43}, {44}, {45}, {46}, {47}, {48}, {49}, {50}, {51}, {52}, {53}, {54}, {55}, {56}, {57}, {58}, {59}, {60}, {61}, {62}, {63}}},",
                concat!("{64}, {65}, p, ", $imm, "; }}"),
                $(inout(reg32) d0[$i],)*
                $(inout(reg32) d1[$i],)*
                in(reg64) desc_a,
                in(reg64) desc_b,
                in(reg32) scale_d,
                options(nostack),
            );
        }
    };
    (@ [$($i:literal)*] fn $name:ident(d0, d1, d2, d3), $instr:literal, $imm:literal, $doc:literal) => {
        #[doc = concat!("`", $instr, "`", $doc, ".")]
        ///
        /// # Safety
        /// A whole warpgroup executes it (`.sync.aligned`), after `wgmma.fence`, with descriptors of
        /// operands resident in shared memory.
        #[inline(always)]
        pub unsafe fn $name(
            d0: &mut [f32; 32],
            d1: &mut [f32; 32],
            d2: &mut [f32; 32],
            d3: &mut [f32; 32],
            desc_a: u64,
            desc_b: u64,
            scale_d: u32,
        ) {
            asm!(
                "{{ .reg .pred p; setp.ne.b32 p, {130}, 0;",
                $instr,
                "{{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {9}, {10}, {11}, {12}, {13}, {14}, {15}, {16}, {17}, {18}, {19}, {20}, {21}, {22}, {23}, {24}, {25}, {26}, {27}, {28}, {29}, {30}, {31}, {32}, {33}, {34}, {35}, {36}, {37}, {38}, {39}, {40}, {41}, {42}, {43}, {44}, {45}, {46}, {47}, {48}, {49}, {50}, {51}, {52}, {53}, {54}, {55}, {56}, {57}, {58}, {59}, {60}, {61}, {62}, {63}, {64}, {65}, {66}, {67}, {68}, {69}, {70}, {71}, {72}, {73}, {74}, {75}, {76}, {77}, {78}, {79}, {80}, {81}, {82}, {83}, {84}, {85}, {86}, {87}, {88}, {89}, {90}, {91}, {92}, {93}, {94}, {95}, {96}, {97}, {98}, {99}, {100}, {101}, {102}, {103}, {104}, {105}, {106}, {107}, {108}, {109}, {110}, {111}, {112}, {113}, {114}, {115}, {116}, {117}, {118}, {119}, {120}, {121}, {122}, {123}, {124}, {125}, {126}, {127}}},",
                concat!("{128}, {129}, p, ", $imm, "; }}"),
                $(inout(reg32) d0[$i],)*
                $(inout(reg32) d1[$i],)*
                $(inout(reg32) d2[$i],)*
                $(inout(reg32) d3[$i],)*
                in(reg64) desc_a,
                in(reg64) desc_b,
                in(reg32) scale_d,
                options(nostack),
            );
        }
    };
}

wgmma!(
    fn m64n128k16_bf16(d0, d1),
    "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16",
    "1, 1, 0, 0",
    " with transpose immediates (0, 0)"
);
wgmma!(
    fn m64n64k16_bf16_tt00(d: 32),
    "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16",
    "1, 1, 0, 0",
    " with transpose immediates (0, 0)"
);
wgmma!(
    fn m64n64k16_bf16_tt01(d: 32),
    "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16",
    "1, 1, 0, 1",
    " with transpose immediates (0, 1)"
);
wgmma!(
    fn m64n64k16_bf16_tt10(d: 32),
    "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16",
    "1, 1, 1, 0",
    " with transpose immediates (1, 0)"
);
wgmma!(
    fn m64n64k16_bf16_tt11(d: 32),
    "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16",
    "1, 1, 1, 1",
    " with transpose immediates (1, 1)"
);
wgmma!(
    fn m64n64k32_e4m3(d: 32),
    "wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3",
    "1, 1",
    ""
);
wgmma!(
    fn m64n64k8_tf32(d: 32),
    "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32",
    "1, 1",
    ""
);
wgmma!(
    fn m64n256k16_bf16(d0, d1, d2, d3),
    "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16",
    "1, 1, 0, 0",
    " with transpose immediates (0, 0)"
);
wgmma!(
    fn m64n256k32_e4m3(d0, d1, d2, d3),
    "wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3",
    "1, 1",
    ""
);
