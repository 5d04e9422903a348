const P: smemdesc::TilePlan = smemdesc::smem_plan! {
    arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, mma = (256, 128),
};

fn main() {}
