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

/// Operand A of the K = 64 kernel: M = 64 x K = 64 bf16 (128 bytes), K-major, 128-byte swizzle:
/// four m64n64k16 subtiles along K, 32 bytes apart (`ADVANCE_K`).
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K, swizzle = 128B,
            mma = m64n64k16)]
pub struct TileA128;

/// Operand B of the K = 64 kernel: N = 64 x K = 64 bf16, K-major, 128-byte swizzle.
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (64, 64), major = K, swizzle = 128B,
            mma = m64n64k16)]
pub struct TileB128;
