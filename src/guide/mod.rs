//! # The smemdesc guide
//!
//! The chapters a kernel author reads, in the order a first kernel needs them. Every Rust code
//! block in them is a doctest (`cargo test --doc -p smemdesc`); blocks marked `ignore` are
//! nvptx64-only excerpts of kernels that are built elsewhere (named where they appear).
//!
//! | chapter | what it covers |
//! |---|---|
//! | [`tiles`] | `#[smem_tile]`: a declaration and every item it yields, the run-time access contract, the arguments, the errors, the CuTe / CUTLASS names |
//! | [`storage`] | `#[smem_storage]`: one CTA's shared memory, placement of tiles (where the swizzle is anchored) |
//! | [`instruction`] | `#[smem_mma]`: pairing A and B, the `wgmma` mnemonic and immediates, the tcgen05 instruction descriptor |
//! | [`kernel`] | a Rust `nvptx64` kernel: toolchain, dynamic shared memory, TMA and the descriptor loop, the host launch |
//! | [`host`] | tensor maps (`cuTensorMapEncodeTiled`, `cuTensorMapEncodeIm2col`) in the core, the `cudarc` feature, launch sizes |
//! | [`blackwell`] | sm100: fp6/fp4 in shared memory, block-scale factors, Tensor Memory |
//! | [`epilogue`] | the epilogue's C/D tile (`#[smem_epilogue_tile]`), clusters and TMA multicast |
//! | [`pipeline`] | `#[smem_pipeline]`: the mbarrier protocol derived and checked, its typed handles, the exhaustive model |
//! | [`grouped`] | grouped (MoE) GEMM: tensor maps rewritten in the kernel, the ordering as types, the schedule |
//! | [`conv`] | convolution: im2col TMA, the implicit-GEMM plan checked against its tiles, the producer's walk |
//! | [`fragments`] | register fragments: `ldmatrix`, `mma.sync`, the `wgmma` accumulator, bank conflicts |
//! | [`attention`] | attention on Hopper: the chained `wgmma` pair, V as an MN-major B, row ownership; the forward kernel and its numbers |
//! | [`cli`] | the `smemdesc` command: `decode`, `tile`, `draw`, `idesc`, `tensormap check` |
//! | [`header`] | `smemdesc header`: tiles, pairs and storages as a C/C++ header |
//! | [`toolchains`] | nvptx64, cuda-oxide, Rust-CUDA, rust-gpu, CUDA C++: what each supports, its measured cost, the versions tested, the limits |
//! | [`correctness`] | the facts smemdesc settles and how every number is checked |
//!
//! The chapters live in `docs/guide/` of the repository; this module only shows them.

#[doc = include_str!("../../docs/guide/tiles.md")]
pub mod tiles {}

#[doc = include_str!("../../docs/guide/storage.md")]
pub mod storage {}

#[doc = include_str!("../../docs/guide/instruction.md")]
pub mod instruction {}

#[doc = include_str!("../../docs/guide/kernel.md")]
pub mod kernel {}

#[doc = include_str!("../../docs/guide/host.md")]
pub mod host {}

#[doc = include_str!("../../docs/guide/blackwell.md")]
pub mod blackwell {}

#[doc = include_str!("../../docs/guide/epilogue.md")]
pub mod epilogue {}

#[doc = include_str!("../../docs/guide/pipeline.md")]
pub mod pipeline {}

#[doc = include_str!("../../docs/guide/grouped.md")]
pub mod grouped {}

#[doc = include_str!("../../docs/guide/conv.md")]
pub mod conv {}

#[doc = include_str!("../../docs/guide/fragments.md")]
pub mod fragments {}

#[doc = include_str!("../../docs/guide/attention.md")]
pub mod attention {}

#[doc = include_str!("../../docs/guide/cli.md")]
pub mod cli {}

#[doc = include_str!("../../docs/guide/header.md")]
pub mod header {}

#[doc = include_str!("../../docs/guide/toolchains.md")]
pub mod toolchains {}

#[doc = include_str!("../../docs/guide/correctness.md")]
pub mod correctness {}

/// The front page's examples (`README.md`) are compiled and run too.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
