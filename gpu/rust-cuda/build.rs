//! Builds `kernels/` with Rust-CUDA's `cuda_builder` (rustc_codegen_nvvm against LLVM 19, then
//! libNVVM) for `compute_100a`, and writes the PTX to `target/smemdesc_sm100.ptx`.

use std::path::PathBuf;

use cuda_builder::{CudaBuilder, NvvmArch};

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=kernels");
    println!("cargo::rerun-if-changed=../../src");
    println!("cargo::rerun-if-changed=../../smemdesc-core/src");
    println!("cargo::rerun-if-env-changed=SMEMDESC_NVVM_ARCH");
    // `compute_100a` unless SMEMDESC_NVVM_ARCH names another (`compute_90a` shows why Hopper
    // cannot be built this way: README.md).
    let arch: NvvmArch = match std::env::var("SMEMDESC_NVVM_ARCH") {
        Ok(a) => a.parse().unwrap_or_else(|e| panic!("SMEMDESC_NVVM_ARCH={a}: {e}")),
        Err(_) => NvvmArch::Compute100a,
    };
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let ptx = out.join("smemdesc_sm100.ptx");
    CudaBuilder::new(manifest.join("kernels"))
        // LLVM 19 bitcode: libNVVM reads it for compute_100 and later only (README.md).
        .arch(arch)
        .copy_to(&ptx)
        .build()
        .unwrap();
    let target = manifest.join("target");
    std::fs::create_dir_all(&target).unwrap();
    std::fs::copy(&ptx, target.join("smemdesc_sm100.ptx")).unwrap();
}
