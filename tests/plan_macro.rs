//! `smem_plan!` writes the plan as literals (`TilePlan::from_literal`) computed in the macro:
//! each must equal the core's `TileDecl::build()` of the same arguments, run here at test time.

use smemdesc::core::*;
use smemdesc::smem_plan;

#[test]
fn literal_plans_equal_the_core_build() {
    let cases: [(TilePlan, TileDecl); 7] = [
        (
            smem_plan! { arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4 },
            TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 128, 64).stages(4),
        ),
        (
            smem_plan! { arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = MN, swizzle = 128B, mma = m64n256k16 },
            TileDecl::new(
                Arch::Sm90,
                Operand::B,
                ElementType::BF16,
                Major::Mn,
                256,
                64,
            )
            .swizzle(SwizzleMode::B128)
            .mma(MmaShape::new(64, 256, 16)),
        ),
        (
            smem_plan! { arch = sm90, operand = A, dtype = e4m3, tile = (128, 128), major = K, swizzle = 64B, stages = 3 },
            TileDecl::new(
                Arch::Sm90,
                Operand::A,
                ElementType::E4M3,
                Major::K,
                128,
                128,
            )
            .swizzle(SwizzleMode::B64)
            .stages(3),
        ),
        (
            smem_plan! { arch = sm90, operand = A, dtype = tf32, tile = (64, 32), major = K, order = k_first },
            TileDecl::new(Arch::Sm90, Operand::A, ElementType::TF32, Major::K, 64, 32)
                .order(Order::KFirst),
        ),
        (
            smem_plan! { arch = sm100, operand = B, dtype = e2m1, kind = mxf4, tile = (256, 128), major = K, stages = 2 },
            TileDecl::new(
                Arch::Sm100,
                Operand::B,
                ElementType::E2M1,
                Major::K,
                256,
                128,
            )
            .kind(MmaKind::Mxf4)
            .stages(2),
        ),
        (
            smem_plan! { arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, cta_group = 2, mma = m256n256k16 },
            TileDecl::new(
                Arch::Sm100,
                Operand::A,
                ElementType::BF16,
                Major::K,
                128,
                64,
            )
            .cta_group(2)
            .mma(MmaShape::new(256, 256, 16)),
        ),
        (
            smem_plan! { arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, tma_box = (64, 64) },
            TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 128, 64)
                .tma_box(64, 64),
        ),
    ];
    for (i, (emitted, decl)) in cases.iter().enumerate() {
        let built = decl.build().unwrap_or_else(|e| panic!("case {i}: {e}"));
        assert_eq!(*emitted, built, "case {i}");
    }
}
