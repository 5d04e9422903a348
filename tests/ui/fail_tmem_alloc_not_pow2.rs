// tcgen05.alloc takes a power of two from 32 to 512 columns: an explicit 96 is refused.
use smemdesc::*;

const A: TilePlan = TileDecl::new(Arch::Sm100, Operand::A, ElementType::BF16, Major::K, 128, 64).expect_valid();
const B: TilePlan = TileDecl::new(Arch::Sm100, Operand::B, ElementType::BF16, Major::K, 64, 64).expect_valid();
const P: MmaPair = MmaPair::new(&A, &B, PairOptions::new(AccumType::F32)).expect_valid();
const PLAN: TmemPlan = TmemPlanDecl::new(&P).alloc(96).expect_valid();

fn main() {}
