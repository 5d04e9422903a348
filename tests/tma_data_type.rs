//! The TMA data type of each operand element type (issue 11): an `f32` operand feeds the tf32 MMA
//! (`kind::tf32`; spec: "f32 (as tf32)"), and the CUDA driver's `CUtensorMapDataType` has a
//! distinct 4-byte `CU_TENSOR_MAP_DATA_TYPE_TFLOAT32` (= 11) for it, with which TMA converts the
//! values to tf32 on the copy (CUTLASS: "TMA converts f32 input to tf32 when copying from GMEM to
//! SMEM", loading `float` operands of tf32 GEMMs through `tfloat32_t` maps). Expected values are
//! the `cuda.h` enumerators: UINT8 = 0, FLOAT16 = 6, BFLOAT16 = 9, TFLOAT32 = 11.

use smemdesc::core::*;

#[test]
fn f32_operands_are_loaded_as_tfloat32() {
    assert_eq!(TmaDataType::of(ElementType::F32), TmaDataType::Tfloat32);
    let plan = TileDecl::new(Arch::Sm90, Operand::A, ElementType::F32, Major::K, 64, 32)
        .build()
        .unwrap();
    assert_eq!(plan.kind, MmaKind::Tf32);
    assert_eq!(plan.tma.data_type.value(), 11);
    assert_eq!(
        plan.tma.data_type.name(),
        "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32"
    );
}

#[test]
fn every_element_type_has_its_cuda_h_data_type() {
    for (dtype, value) in [
        (ElementType::F16, 6),
        (ElementType::BF16, 9),
        (ElementType::TF32, 11),
        (ElementType::F32, 11),
        (ElementType::E4M3, 0),
        (ElementType::E5M2, 0),
        (ElementType::S8, 0),
        (ElementType::U8, 0),
    ] {
        assert_eq!(TmaDataType::of(dtype).value(), value, "{}", dtype.name());
    }
}
