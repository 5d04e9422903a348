//! Every public error type works with `?` into `Box<dyn std::error::Error>` (issue 19: the
//! guide's `TileA::TENSOR_MAP.dim(1, m).address(ptr_a).try_args()?` did not compile, E0277), and
//! the boxed error keeps the type's own message. Each function below is the way a host program
//! meets the error; before `core::error::Error` was implemented, this file did not compile.

use smemdesc::*;
use std::error::Error as StdError;

type Res<T> = Result<T, Box<dyn StdError>>;

#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
            mma = m64n256k16, stages = 4, global_dims = (4096, _))]
pub struct TileA;

/// The guide's line (docs/guide/host.md): M known at run time, the address from the allocator.
fn readme_tensor_map(m: u64, ptr_a: u64) -> Res<TensorMapArgs> {
    let a = TileA::TENSOR_MAP.dim(1, m).address(ptr_a).try_args()?;
    Ok(a)
}

fn tile(mn: u32) -> Res<TilePlan> {
    Ok(TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, mn, 64).build()?)
}

fn idesc(n: u32) -> Res<Idesc> {
    let d = InstrDesc::new(
        MmaKind::F16,
        ElementType::BF16,
        ElementType::BF16,
        AccumType::F32,
        128,
        n,
    );
    Ok(d.encode()?)
}

fn storage(align: u32) -> Res<u32> {
    let s = StorageLayout::plan("S", Arch::Sm90, [StorageMember::new("x", 8, align)]);
    s.check()?;
    Ok(s.launch_bytes())
}

fn launch(m: u32) -> Res<GemmLaunch> {
    let a = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 128, 64).build()?;
    let b = TileDecl::new(Arch::Sm90, Operand::B, ElementType::BF16, Major::K, 256, 64).build()?;
    Ok(GemmLaunch::new(&a, &b, m, 4096)?)
}

/// The boxed error is the original type (downcast) with its own `Display` text.
fn check<E: StdError + PartialEq + 'static>(boxed: Box<dyn StdError>, direct: E) {
    assert_eq!(boxed.to_string(), direct.to_string());
    assert_eq!(boxed.downcast_ref::<E>(), Some(&direct));
}

#[test]
fn tensor_map_error_through_question_mark() {
    assert!(readme_tensor_map(8192, 0x7f00_0000_0000).is_ok());
    // 16-B alignment of globalAddress (CUDA driver API, cuTensorMapEncodeTiled).
    let e = readme_tensor_map(8192, 0x7f00_0000_0008).unwrap_err();
    let direct = TileA::TENSOR_MAP
        .dim(1, 8192)
        .address(0x7f00_0000_0008)
        .try_args()
        .unwrap_err();
    assert_eq!(direct.argument(), TensorMapArg::GlobalAddress);
    check(e, direct);
}

#[test]
fn core_error_through_question_mark() {
    assert!(tile(128).is_ok());
    // 100 rows are not whole 8-row core matrices / atoms.
    let e = tile(100).unwrap_err();
    let direct = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 100, 64)
        .build()
        .unwrap_err();
    check(e, direct);
}

#[test]
fn idesc_error_through_question_mark() {
    assert!(idesc(128).is_ok());
    // PTX ISA, tcgen05.mma shapes: N is at most 256.
    let e = idesc(264).unwrap_err();
    let direct = InstrDesc::new(
        MmaKind::F16,
        ElementType::BF16,
        ElementType::BF16,
        AccumType::F32,
        128,
        264,
    )
    .encode()
    .unwrap_err();
    check(e, direct);
}

#[test]
fn storage_problem_through_question_mark() {
    assert!(storage(8).is_ok());
    let e = storage(3).unwrap_err();
    check(e, StorageProblem::AlignNotPowerOfTwo { member: 0 });
}

#[test]
fn launch_error_through_question_mark() {
    assert!(launch(4096).is_ok());
    let e = launch(0).unwrap_err();
    check(e, LaunchError::ZeroExtent);
}

/// `EncodeError::Invalid` is produced before the driver is called: no GPU needed.
#[cfg(feature = "cudarc")]
#[test]
fn encode_error_through_question_mark() {
    fn encode(ptr: u64) -> Res<cuda::AlignedTensorMap> {
        Ok(cuda::encode(&TileA::TENSOR_MAP.dim(1, 8192).address(ptr))?)
    }
    let e = encode(0x7f00_0000_0008).unwrap_err();
    let direct =
        cuda::encode(&TileA::TENSOR_MAP.dim(1, 8192).address(0x7f00_0000_0008)).unwrap_err();
    assert!(matches!(direct, cuda::EncodeError::Invalid(_)));
    check(e, direct);
}

/// The errors of issue 46's declarations (cluster launch control, map workspaces, the 128 KiB
/// out-of-bounds window) through `?`.
#[test]
fn issue_46_errors_through_question_mark() {
    use smemdesc::clc::{ClcError, ClcScheduler};
    use smemdesc::grouped::{
        MapSpace, MapWorkspace, MapWorkspaceDecl, MapWorkspaceError, MisalignedWorkspace,
    };
    use smemdesc::tma::{check_oob_base_128kb, OobWindowError};
    fn clc(resp: u32) -> Res<()> {
        ClcScheduler::new(resp, 0x110)?;
        Ok(())
    }
    fn ws(offset: u32) -> Res<()> {
        MapWorkspaceDecl::new(MapSpace::Shared { offset }, 2, 2)?;
        Ok(())
    }
    fn param(base: u64) -> Res<()> {
        MapWorkspace::<2>::from_param(base)?;
        Ok(())
    }
    fn window(base: u64) -> Res<()> {
        check_oob_base_128kb(base, 1 << 20)?;
        Ok(())
    }
    assert!(
        clc(0x100).is_ok() && ws(0x100).is_ok() && param(0x100).is_ok() && window(0x20000).is_ok()
    );
    check(
        clc(0x108).unwrap_err(),
        ClcError::ResponseMisaligned { address: 0x108 },
    );
    check(
        ws(0x140).unwrap_err(),
        MapWorkspaceError::SlotMisaligned { offset: 0x140 },
    );
    check(
        param(0x140).unwrap_err(),
        MisalignedWorkspace { address: 0x140 },
    );
    check(
        window(0x20200).unwrap_err(),
        OobWindowError::Misaligned { address: 0x20200 },
    );
}
