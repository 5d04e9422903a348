// Unknown key, and accum names no type.
#[smemdesc::smem_mma(accum = f32, negate = true)]
mod gemm {}

#[smemdesc::smem_mma(accum = f64)]
mod gemm2 {}

#[smemdesc::smem_mma(accum = f32)]
struct NotAModule;

fn main() {}
