// Every argument error of `smem_plan!` is reported, and nothing else (no follow-on parse errors).
const P: smemdesc::TilePlan = smemdesc::smem_plan! {
    arch = sm90, operand = A, dtype = bf17, tile = (128, 64), major = X
};

fn main() {
    let _ = P;
}
