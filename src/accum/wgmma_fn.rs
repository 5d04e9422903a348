//! The one `asm!` shape behind every `wgmma.mma_async` issue function of the three accumulator
//! types (f32 [`WgmmaAcc`](super::WgmmaAcc), f16 [`WgmmaAccF16`](super::WgmmaAccF16), s32
//! [`WgmmaAccS32`](super::WgmmaAccS32)): the predicate of `scale-d` from `accumulate`, the
//! instruction, one `asm!` operand per accumulator register, the A operand (a descriptor for SS,
//! four `.b32` registers for RS), B's descriptor, and the form's trailing immediates (PTX ISA,
//! `wgmma.mma_async`: `imm-scale-a, imm-scale-b` for the floating-point forms, `imm-trans-a,
//! imm-trans-b` for f16/bf16, none for the integer ones), which each caller passes as text with
//! its `const` operands. `fence_operands` (an empty `asm!` over the same registers) too. The
//! three files `nvptx.rs`, `nvptx_f16.rs` and `nvptx_s32.rs` only name the instructions, their
//! immediates and their docs.

/// `ss`/`rs`: one issue function; `fence`: the accumulator's `fence_operands`. `[op: C, ...]`
/// pairs each `const C: u32` generic parameter with the `asm!` operand name its tail uses.
macro_rules! wgmma_fn {
    (ss $(#[$m:meta])* $name:ident [$($op:ident: $c:ident),*] $acc:ident<$n:literal>,
        $instr:expr, $tail:literal, [$f:literal $($i:literal)*]) => {
        $(#[$m])*
        #[inline(always)]
        pub unsafe fn $name<$(const $c: u32),*>(
            d: &mut $acc<$n>,
            desc_a: u64,
            desc_b: u64,
            accumulate: bool,
        ) {
            // SAFETY: the caller's contract.
            unsafe {
                asm!(
                    "{{ .reg .pred p; setp.ne.b32 p, {sd}, 0;",
                    $instr,
                    concat!("{{{", $f, "}", $(", {", $i, "}",)* "}},"),
                    concat!("{da}, {db}, ", $tail, "; }}"),
                    inout(reg32) d.regs[$f],
                    $(inout(reg32) d.regs[$i],)*
                    da = in(reg64) desc_a,
                    db = in(reg64) desc_b,
                    sd = in(reg32) accumulate as u32,
                    $($op = const $c,)*
                    options(nostack),
                );
            }
        }
    };
    (rs $(#[$m:meta])* $name:ident [$($op:ident: $c:ident),*] $acc:ident<$n:literal>,
        $instr:expr, $tail:literal, [$f:literal $($i:literal)*]) => {
        $(#[$m])*
        #[inline(always)]
        pub unsafe fn $name<$(const $c: u32),*>(
            d: &mut $acc<$n>,
            a: [u32; 4],
            desc_b: u64,
            accumulate: bool,
        ) {
            // SAFETY: the caller's contract.
            unsafe {
                asm!(
                    "{{ .reg .pred p; setp.ne.b32 p, {sd}, 0;",
                    $instr,
                    concat!("{{{", $f, "}", $(", {", $i, "}",)* "}},"),
                    concat!("{{{a0}, {a1}, {a2}, {a3}}}, {db}, ", $tail, "; }}"),
                    inout(reg32) d.regs[$f],
                    $(inout(reg32) d.regs[$i],)*
                    a0 = in(reg32) a[0],
                    a1 = in(reg32) a[1],
                    a2 = in(reg32) a[2],
                    a3 = in(reg32) a[3],
                    db = in(reg64) desc_b,
                    sd = in(reg32) accumulate as u32,
                    $($op = const $c,)*
                    options(nostack),
                );
            }
        }
    };
    (fence $(#[$m:meta])* $acc:ident<$n:literal>, [$f:literal $($i:literal)*]) => {
        impl $acc<$n> {
            $(#[$m])*
            #[inline(always)]
            pub fn fence_operands(&mut self) {
                // SAFETY: an empty template (a PTX comment naming the registers).
                unsafe {
                    asm!(
                        concat!("// fence_operands {", $f, "}", $(" {", $i, "}",)*),
                        inout(reg32) self.regs[$f],
                        $(inout(reg32) self.regs[$i],)*
                        options(nostack),
                    );
                }
            }
        }
    };
}
