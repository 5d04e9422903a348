// Two 256-column accumulator stages plus mxf4 scale factors for 4 stages: 608 columns, over the
// 512 of an SM; the compile error lists the regions.
use smemdesc::*;

const A: TilePlan = TileDecl::new(Arch::Sm100, Operand::A, ElementType::E2M1, Major::K, 128, 256)
    .kind(MmaKind::Mxf4)
    .expect_valid();
const B: TilePlan = TileDecl::new(Arch::Sm100, Operand::B, ElementType::E2M1, Major::K, 256, 256)
    .kind(MmaKind::Mxf4)
    .expect_valid();
const P: MmaPair = MmaPair::new(&A, &B, PairOptions::new(AccumType::F32)).expect_valid();
const SFA: ScaleTile = ScaleDecl::new(MmaKind::Mxf4, Operand::A, 128, 256).stages(4).expect_valid();
const SFB: ScaleTile = ScaleDecl::new(MmaKind::Mxf4, Operand::B, 256, 256).stages(4).expect_valid();
const PLAN: TmemPlan = TmemPlanDecl::new(&P).stages(2).scale(&SFA, &SFB).expect_valid();

fn main() {}
