// smem_plan! checks the global tensor too: "globalStrides ... must be a multiple of 16".
const P: smemdesc::TilePlan = smemdesc::smem_plan! {
    arch = sm90, operand = B, dtype = f16, tile = (64, 64), major = MN,
    global_dims = (1004, 64, 3), global_strides = (2008, _)
};

fn main() {
    let _ = P;
}
