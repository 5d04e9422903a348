//! cuBLAS in this process (cublasLt through cudarc, loaded at run time): the reference GEMM that
//! is timed in alternation with ours, on the same context, stream and buffers' layout.
//!
//! The problem is ours: C (M x N, bf16, row-major) = A (M x K, K-major) · Bᵀ (B: N x K, K-major),
//! fp32 accumulation. cuBLAS is column-major, so it computes Cᵀ (N x M, leading dimension N) =
//! op(B) · A with B's bytes read as a K x N matrix transposed (TRANSA = T) and A's as K x M
//! (TRANSB = N): the "TN" GEMM, the layout cuBLAS requires for FP8.

use crate::cuda::{Buf, Res};
use cudarc::cublaslt::sys as lt;
use std::ffi::c_void;

/// Workspace offered to cuBLAS's heuristic (what PyTorch gives it by default on Hopper).
const WORKSPACE: usize = 32 << 20;

fn ck(s: lt::cublasStatus_t, what: &str) -> Res<()> {
    if s == lt::cublasStatus_t::CUBLAS_STATUS_SUCCESS {
        Ok(())
    } else {
        Err(format!("{what}: {s:?}"))
    }
}

/// The element type of A and B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// bf16.
    Bf16,
    /// FP8 e4m3, scales 1, with fast accumulation (what the wgmma kernels do).
    E4m3FastAccum,
}

/// One planned GEMM: handle, descriptors and the algorithm cuBLAS's heuristic chose.
pub struct Gemm {
    handle: lt::cublasLtHandle_t,
    desc: lt::cublasLtMatmulDesc_t,
    layouts: [lt::cublasLtMatrixLayout_t; 3],
    algo: lt::cublasLtMatmulAlgo_t,
    workspace: Buf,
    workspace_bytes: usize,
}

impl Gemm {
    /// Plans C = A · Bᵀ for `m` x `n` x `k` with inputs `input` and a bf16 C. A missing
    /// `libcublasLt` is an error, not a panic (cudarc panics when it cannot load the library).
    pub fn new(input: Input, m: u64, n: u64, k: u64) -> Res<Gemm> {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| Self::plan(input, m, n, k)))
            .unwrap_or_else(|_| Err("cublasLt could not be loaded".into()))
    }

    fn plan(input: Input, m: u64, n: u64, k: u64) -> Res<Gemm> {
        let in_type = match input {
            Input::Bf16 => lt::cudaDataType::CUDA_R_16BF,
            Input::E4m3FastAccum => lt::cudaDataType::CUDA_R_8F_E4M3,
        };
        let workspace = Buf::new(WORKSPACE)?;
        // SAFETY: every out-pointer is a local; attribute buffers are locals of the size passed;
        // the handle and descriptors live in the returned value and are destroyed in Drop.
        unsafe {
            let mut handle = std::ptr::null_mut();
            ck(lt::cublasLtCreate(&mut handle), "cublasLtCreate")?;
            let mut desc = std::ptr::null_mut();
            ck(
                lt::cublasLtMatmulDescCreate(
                    &mut desc,
                    lt::cublasComputeType_t::CUBLAS_COMPUTE_32F,
                    lt::cudaDataType::CUDA_R_32F,
                ),
                "cublasLtMatmulDescCreate",
            )?;
            let set = |attr, v: i32| {
                ck(
                    lt::cublasLtMatmulDescSetAttribute(
                        desc,
                        attr,
                        &v as *const i32 as *const c_void,
                        4,
                    ),
                    "cublasLtMatmulDescSetAttribute",
                )
            };
            set(
                lt::cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_TRANSA,
                1,
            )?; // T
            set(
                lt::cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_TRANSB,
                0,
            )?; // N
            if input == Input::E4m3FastAccum {
                let on: i8 = 1;
                ck(
                    lt::cublasLtMatmulDescSetAttribute(
                        desc,
                        lt::cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_FAST_ACCUM,
                        &on as *const i8 as *const c_void,
                        1,
                    ),
                    "cublasLtMatmulDescSetAttribute(FAST_ACCUM)",
                )?;
            }
            let layout = |t, rows: u64, cols: u64, ld: u64| -> Res<lt::cublasLtMatrixLayout_t> {
                let mut l = std::ptr::null_mut();
                ck(
                    lt::cublasLtMatrixLayoutCreate(&mut l, t, rows, cols, ld as i64),
                    "cublasLtMatrixLayoutCreate",
                )?;
                Ok(l)
            };
            // B's bytes as K x N (ld K), A's as K x M (ld K), C as N x M (ld N).
            let layouts = [
                layout(in_type, k, n, k)?,
                layout(in_type, k, m, k)?,
                layout(lt::cudaDataType::CUDA_R_16BF, n, m, n)?,
            ];
            let mut pref = std::ptr::null_mut();
            ck(
                lt::cublasLtMatmulPreferenceCreate(&mut pref),
                "cublasLtMatmulPreferenceCreate",
            )?;
            let ws = WORKSPACE as u64;
            ck(
                lt::cublasLtMatmulPreferenceSetAttribute(
                    pref,
                    lt::cublasLtMatmulPreferenceAttributes_t::CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                    &ws as *const u64 as *const c_void,
                    8,
                ),
                "cublasLtMatmulPreferenceSetAttribute",
            )?;
            let mut result: lt::cublasLtMatmulHeuristicResult_t = std::mem::zeroed();
            let mut count = 0;
            let [lb, la, lc] = layouts;
            let r = lt::cublasLtMatmulAlgoGetHeuristic(
                handle,
                desc,
                lb,
                la,
                lc,
                lc,
                pref,
                1,
                &mut result,
                &mut count,
            );
            lt::cublasLtMatmulPreferenceDestroy(pref);
            ck(r, "cublasLtMatmulAlgoGetHeuristic")?;
            if count < 1 {
                return Err("cublasLtMatmulAlgoGetHeuristic: no algorithm".into());
            }
            Ok(Gemm {
                handle,
                desc,
                layouts,
                algo: result.algo,
                workspace,
                workspace_bytes: result.workspaceSize.min(WORKSPACE),
            })
        }
    }

    /// Runs C = A · Bᵀ on the default stream (where our kernels run), asynchronously.
    pub fn run(&self, a: &Buf, b: &Buf, c: &Buf) -> Res<()> {
        self.run_ptr(a.ptr, b.ptr, c.ptr)
    }

    /// [`run`](Self::run) on device pointers (sub-matrices of larger buffers).
    pub fn run_ptr(&self, a: u64, b: u64, c: u64) -> Res<()> {
        let (alpha, beta) = (1.0f32, 0.0f32);
        let [lb, la, lc] = self.layouts;
        // SAFETY: the buffers hold the planned matrices (the caller allocates M x K, N x K and
        // M x N); the descriptors and algorithm come from `new`.
        unsafe {
            ck(
                lt::cublasLtMatmul(
                    self.handle,
                    self.desc,
                    &alpha as *const f32 as *const c_void,
                    b as *const c_void,
                    lb,
                    a as *const c_void,
                    la,
                    &beta as *const f32 as *const c_void,
                    c as *const c_void,
                    lc,
                    c as *mut c_void,
                    lc,
                    &self.algo,
                    self.workspace.ptr as *mut c_void,
                    self.workspace_bytes,
                    std::ptr::null_mut(),
                ),
                "cublasLtMatmul",
            )
        }
    }
}

impl Drop for Gemm {
    fn drop(&mut self) {
        // SAFETY: created in `new`, destroyed once.
        unsafe {
            for l in self.layouts {
                lt::cublasLtMatrixLayoutDestroy(l);
            }
            lt::cublasLtMatmulDescDestroy(self.desc);
            lt::cublasLtDestroy(self.handle);
        }
    }
}
