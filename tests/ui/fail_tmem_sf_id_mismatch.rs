// The MMA of K step 1 reads the second factor of the scale columns (id 1), but the descriptor
// was built with id 0: refused.
use smemdesc::*;

const A: TilePlan = TileDecl::new(Arch::Sm100, Operand::A, ElementType::E4M3, Major::K, 128, 128)
    .kind(MmaKind::Mxf8f6f4)
    .expect_valid();
const B: TilePlan = TileDecl::new(Arch::Sm100, Operand::B, ElementType::E4M3, Major::K, 128, 128)
    .kind(MmaKind::Mxf8f6f4)
    .expect_valid();
const P: MmaPair = MmaPair::new(&A, &B, PairOptions::new(AccumType::F32)).expect_valid();
const SFA: ScaleTile = ScaleDecl::new(MmaKind::Mxf8f6f4, Operand::A, 128, 128).expect_valid();
const SFB: ScaleTile = ScaleDecl::new(MmaKind::Mxf8f6f4, Operand::B, 128, 128).expect_valid();
const PLAN: TmemPlan = TmemPlanDecl::new(&P).scale(&SFA, &SFB).expect_valid();
const IDESC: Idesc = match P.idesc() {
    Ok(d) => d,
    Err(_) => panic!("idesc"),
};
const _: () = PLAN.expect_idesc(IDESC, 1);

fn main() {}
