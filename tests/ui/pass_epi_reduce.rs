// Every TMA reduce kind on a type the PTX ISA allows it, and the old `tma_reduce_add` spelling.
use smemdesc::epilogue::{CType, EpiReader, ReduceOp};

#[smemdesc::smem_epilogue_tile(dtype = bf16, tile = (64, 64), wgmma_n = 256, reader = tma_reduce_add)]
struct Add;
#[smemdesc::smem_epilogue_tile(dtype = f16, tile = (64, 64), wgmma_n = 64, reader = tma_reduce_max)]
struct Max;
#[smemdesc::smem_epilogue_tile(dtype = u32, tile = (64, 32), wgmma_n = 64, writer = st_shared_8,
    reader = tma_reduce_dec)]
struct Dec;
#[smemdesc::smem_epilogue_tile(dtype = u64, tile = (64, 16), wgmma_n = 64, writer = st_shared_16,
    reader = tma_reduce_or)]
struct Or;

fn main() {
    assert_eq!(
        Add::EPILOGUE.spec().reader,
        EpiReader::TmaReduce(ReduceOp::Add)
    );
    assert_eq!(
        Max::EPILOGUE.spec().reader,
        EpiReader::TmaReduce(ReduceOp::Max)
    );
    assert_eq!(Dec::EPILOGUE.spec().dtype, CType::U32);
    assert_eq!(Or::EPILOGUE.spec().dtype, CType::U64);
    assert_eq!(Or::STAGE_BYTES, 64 * 16 * 8);
}
