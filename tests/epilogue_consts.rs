//! `#[smem_epilogue_tile]` writes its plan as parts (the checks and the bank walk ran in the proc
//! macro): the constant must be the tile the core's `EpilogueSpec::build()` gives for the same
//! declaration, run here at test time, for auto and explicit swizzles, both writers, stages and
//! the MN-major (transposed) writer.

use smemdesc::epilogue::{CMajor, CType, EpiWriter, EpilogueSpec, EpilogueTile};
use smemdesc::{smem_epilogue_tile, SwizzleMode};

#[smem_epilogue_tile(dtype = bf16, tile = (64, 64), wgmma_n = 256, stages = 2,
                     writer = stmatrix_x4, reader = tma_store, tma_swizzle = 128B)]
struct C1;

#[smem_epilogue_tile(dtype = bf16, tile = (128, 256), wgmma_n = 256, stages = 2,
                     writer = stmatrix_x4, reader = tma_store)]
struct C2;

#[smem_epilogue_tile(dtype = f32, tile = (64, 32), wgmma_n = 128, writer = st_shared_8,
                     reader = tma_store)]
struct C3;

#[smem_epilogue_tile(dtype = f16, tile = (128, 64), wgmma_n = 64, major = m,
                     writer = stmatrix_x4_trans, reader = tma_store)]
struct C4;

fn built(spec: EpilogueSpec) -> EpilogueTile {
    spec.build().expect("a legal declaration")
}

#[test]
fn emitted_plan_is_the_core_build() {
    // The macro writes the swizzle it chose into the spec; the core's own choice must agree.
    let c1 = built(
        EpilogueSpec::new(CType::BF16, 64, 64, 256)
            .stages(2)
            .writer(EpiWriter::Stmatrix {
                num: 4,
                trans: false,
            })
            .swizzle(SwizzleMode::B128),
    );
    assert_eq!(C1::EPILOGUE, c1);
    let auto2 = built(
        EpilogueSpec::new(CType::BF16, 128, 256, 256)
            .stages(2)
            .writer(EpiWriter::Stmatrix {
                num: 4,
                trans: false,
            }),
    );
    assert_eq!(C2::EPILOGUE.swizzle(), auto2.swizzle());
    assert_eq!(C2::EPILOGUE, built(C2::EPILOGUE.spec()));
    let auto3 =
        built(EpilogueSpec::new(CType::F32, 64, 32, 128).writer(EpiWriter::StShared { bytes: 8 }));
    assert_eq!(C3::EPILOGUE.swizzle(), auto3.swizzle());
    assert_eq!(C3::EPILOGUE, built(C3::EPILOGUE.spec()));
    let auto4 = built(
        EpilogueSpec::new(CType::F16, 128, 64, 64)
            .major(CMajor::M)
            .writer(EpiWriter::Stmatrix {
                num: 4,
                trans: true,
            }),
    );
    assert_eq!(C4::EPILOGUE.swizzle(), auto4.swizzle());
    assert_eq!(C4::EPILOGUE, built(C4::EPILOGUE.spec()));
    // and the numbers a kernel reads from it
    for (w, i, l) in [(0, 0, 0), (1, 3, 31), (0, 2, 17)] {
        assert_eq!(
            C2::writer_offset(w, 1, i, l),
            auto2.writer_offset(w, 1, i, l)
        );
    }
}
