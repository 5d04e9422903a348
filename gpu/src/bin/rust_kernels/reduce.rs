//! `--reduce` (issue 32 item 3): every (reduction, element type) pair the PTX ISA allows
//! (`smemdesc::epilogue::ReduceOp::allows`) through the `reduce_{op}` kernels
//! (`gpu/rust-kernel/src/reduce.rs`): a 32 x 64 box (no swizzle) reduced at coordinates (32, 64)
//! into a 64 x 128 global tensor of that type, the whole tensor compared bit for bit with a CPU
//! reduction (float data are small integers, so every float result is exact), written to
//! `reduce_results.json` as `[{"kind", "dtype", "mismatches"}]`.

use crate::cuda;
use smemdesc::epilogue::{CType, ReduceOp};

/// Global tensor: `W` elements per row, `H` rows.
const W: usize = 64;
const H: usize = 128;
/// The box: `BW` x `BH` at `(C0, C1)`.
const BW: usize = 32;
const BH: usize = 64;
const C0: usize = 32;
const C1: usize = 64;

/// xorshift64*: the test data.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// In `lo..=hi`.
    fn range(&mut self, lo: i128, hi: i128) -> i128 {
        lo + (self.next() as i128).rem_euclid(hi - lo + 1)
    }
}

/// A value of `ty` (a small integer for the float types).
fn gen(ty: CType, op: ReduceOp, r: &mut Rng) -> i128 {
    match ty {
        CType::F16 | CType::BF16 | CType::F32 => r.range(-8, 8),
        CType::U32 if matches!(op, ReduceOp::Inc | ReduceOp::Dec) => r.range(0, 16),
        CType::U32 => r.next() as u32 as i128,
        CType::S32 => r.next() as u32 as i32 as i128,
        CType::U64 => r.next() as i128,
        CType::S64 => r.next() as i64 as i128,
    }
}

/// `v` wrapped to `ty`'s range (two's complement for the integers).
fn wrap(ty: CType, v: i128) -> i128 {
    match ty {
        CType::U32 => v as u32 as i128,
        CType::S32 => v as i32 as i128,
        CType::U64 => v as u64 as i128,
        CType::S64 => v as i64 as i128,
        _ => v,
    }
}

/// The reduction's result for destination `d` and source `s`, as the PTX ISA defines it
/// (`.inc`/`.dec` as `atom.inc`/`atom.dec`).
fn reduce(op: ReduceOp, ty: CType, d: i128, s: i128) -> i128 {
    let bits = |v: i128| {
        v as u64
            & if ty.bits() == 32 {
                0xffff_ffff
            } else {
                u64::MAX
            }
    };
    match op {
        ReduceOp::Add => wrap(ty, d + s),
        ReduceOp::Min => d.min(s),
        ReduceOp::Max => d.max(s),
        ReduceOp::Inc => {
            if d >= s {
                0
            } else {
                d + 1
            }
        }
        ReduceOp::Dec => {
            if d == 0 || d > s {
                s
            } else {
                d - 1
            }
        }
        ReduceOp::And => wrap(ty, (bits(d) & bits(s)) as i128),
        ReduceOp::Or => wrap(ty, (bits(d) | bits(s)) as i128),
        ReduceOp::Xor => wrap(ty, (bits(d) ^ bits(s)) as i128),
    }
}

/// IEEE half of a small integer (|v| <= 2048: exact).
fn f16_bits(v: i128) -> u16 {
    if v == 0 {
        return 0;
    }
    let (sign, a) = (if v < 0 { 0x8000u16 } else { 0 }, v.unsigned_abs() as u32);
    let e = 31 - a.leading_zeros(); // a = 1.m x 2^e
    let m = ((a << (10 - e)) & 0x3ff) as u16;
    sign | (((e + 15) as u16) << 10) | m
}

/// The little-endian bytes of `v` as `ty`.
fn encode(ty: CType, v: i128, out: &mut Vec<u8>) {
    match ty {
        CType::F16 => out.extend(f16_bits(v).to_le_bytes()),
        CType::BF16 => out.extend(((((v as f32).to_bits()) >> 16) as u16).to_le_bytes()),
        CType::F32 => out.extend((v as f32).to_le_bytes()),
        CType::U32 | CType::S32 => out.extend((v as u32).to_le_bytes()),
        CType::U64 | CType::S64 => out.extend((v as u64).to_le_bytes()),
    }
}

fn kernel_name(op: ReduceOp) -> String {
    format!("reduce_{}", op.name())
}

/// One pair: the mismatching elements of the whole global tensor.
fn run_pair(module: &cuda::Module, op: ReduceOp, ty: CType, seed: u64) -> cuda::Res<usize> {
    let eb = (ty.bits() / 8) as usize;
    let mut r = Rng(seed | 1);
    let dst: Vec<i128> = (0..W * H).map(|_| gen(ty, op, &mut r)).collect();
    let src: Vec<i128> = (0..BW * BH).map(|_| gen(ty, op, &mut r)).collect();
    let mut want = dst.clone();
    for y in 0..BH {
        for x in 0..BW {
            let g = (C1 + y) * W + C0 + x;
            want[g] = reduce(op, ty, dst[g], src[y * BW + x]);
        }
    }
    let bytes = |v: &[i128]| {
        let mut b = Vec::with_capacity(v.len() * eb);
        v.iter().for_each(|&x| encode(ty, x, &mut b));
        b
    };
    let gdst = cuda::Buf::from(&bytes(&dst))?;
    let gsrc = cuda::Buf::from(&bytes(&src))?;
    let map = cuda::tensor_map(
        ty.tensor_map_data_type().value(),
        0, // CU_TENSOR_MAP_SWIZZLE_NONE
        gdst.ptr,
        [W as u64, H as u64],
        (W * eb) as u64,
        [BW as u32, BH as u32],
    )?;
    let gmap = cuda::Buf::from(std::slice::from_ref(&map))?;
    let tile_bytes = (BW * BH * eb) as u32;
    let k = module.kernel(&kernel_name(op), tile_bytes)?;
    k.launch(
        1,
        128,
        &[
            cuda::Arg::Ptr(gmap.ptr),
            cuda::Arg::Ptr(gsrc.ptr),
            cuda::Arg::I32(tile_bytes as i32),
            cuda::Arg::I32(C0 as i32),
            cuda::Arg::I32(C1 as i32),
        ],
    )?;
    cuda::sync()?;
    let mut got = vec![0u8; W * H * eb];
    gdst.read(&mut got)?;
    let want = bytes(&want);
    Ok(got
        .chunks(eb)
        .zip(want.chunks(eb))
        .filter(|(g, w)| g != w)
        .count())
}

/// Every legal pair; the JSON array (an `"error"` field where a pair could not run).
/// `SMEMDESC_REDUCE_ONLY=op.type` (e.g. `and.s64`) runs that pair alone: a pair the hardware
/// refuses (an illegal instruction) leaves the context unusable for the rest of the process.
pub fn run_reduce(module: &cuda::Module) -> String {
    let only = std::env::var("SMEMDESC_REDUCE_ONLY").ok();
    let mut rows = Vec::new();
    let mut seed = 0x5eed_0032;
    for op in ReduceOp::ALL {
        for ty in CType::ALL.into_iter().filter(|&t| op.allows(t)) {
            seed += 1;
            if only
                .as_deref()
                .is_some_and(|o| o != format!("{}.{}", op.name(), ty.name()))
            {
                continue;
            }
            let row = match run_pair(module, op, ty, seed) {
                Ok(m) => {
                    println!("reduce .{} .{}: {m} mismatches", op.name(), ty.name());
                    format!(
                        "{{\"kind\": \"{}\", \"dtype\": \"{}\", \"mismatches\": {m}}}",
                        op.name(),
                        ty.name()
                    )
                }
                Err(e) => {
                    println!("reduce .{} .{}: error {e}", op.name(), ty.name());
                    format!(
                        "{{\"kind\": \"{}\", \"dtype\": \"{}\", \"mismatches\": null, \"error\": {:?}}}",
                        op.name(),
                        ty.name(),
                        e.to_string()
                    )
                }
            };
            rows.push(row);
        }
    }
    format!("[\n  {}\n]\n", rows.join(",\n  "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_of_small_integers() {
        // IEEE half: 1 = 0x3c00, -2 = 0xc000, 3 = 0x4200, 8 = 0x4800 (by the format's definition)
        assert_eq!(
            [1, -2, 3, 8].map(f16_bits),
            [0x3c00, 0xc000, 0x4200, 0x4800]
        );
        let mut b = Vec::new();
        encode(CType::BF16, -1, &mut b); // bf16 -1 = 0xbf80
        assert_eq!(b, [0x80, 0xbf]);
    }

    /// Every pair's tensor map passes smemdesc's checks of cuTensorMapEncodeTiled's rules.
    #[test]
    fn maps_pass_the_host_checks() {
        for ty in CType::ALL {
            let eb = (ty.bits() / 8) as u64;
            let m = cuda::tensor_map_desc(
                ty.tensor_map_data_type().value(),
                0,
                1 << 20,
                [W as u64, H as u64],
                W as u64 * eb,
                [BW as u32, BH as u32],
            )
            .unwrap();
            assert!(m.check().is_ok(), "{}: {:?}", ty.name(), m.check());
        }
    }

    #[test]
    fn inc_dec_follow_atom() {
        // atom.inc: old >= b ? 0 : old + 1; atom.dec: old == 0 || old > b ? b : old - 1
        assert_eq!(reduce(ReduceOp::Inc, CType::U32, 5, 5), 0);
        assert_eq!(reduce(ReduceOp::Inc, CType::U32, 4, 5), 5);
        assert_eq!(reduce(ReduceOp::Dec, CType::U32, 0, 7), 7);
        assert_eq!(reduce(ReduceOp::Dec, CType::U32, 9, 7), 7);
        assert_eq!(reduce(ReduceOp::Dec, CType::U32, 3, 7), 2);
        assert_eq!(
            reduce(ReduceOp::Add, CType::S32, i32::MAX as i128, 1),
            i32::MIN as i128
        );
        assert_eq!(reduce(ReduceOp::Xor, CType::S64, -1, 0), -1);
    }
}
