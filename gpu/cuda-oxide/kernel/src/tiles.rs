// The two operand tiles, declared once: the kernel (`main.rs`) and the host program
// (smemdesc's `gpu/cuda-oxide/host`) include this file.

use smemdesc::smem_tile;

/// Operand A: M = 64 rows, K = 16 bf16 (32 bytes), K-major, 32-byte swizzle.
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 16), major = K, swizzle = 32B,
            mma = m64n64k16)]
pub struct TileA;

/// Operand B: N = 64 rows, K = 16 bf16, K-major (B^T row-major), 32-byte swizzle.
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (64, 16), major = K, swizzle = 32B,
            mma = m64n64k16)]
pub struct TileB;
