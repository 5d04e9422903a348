//! An independent model of the `cuTensorMapEncodeTiled` rules (written from the CUDA driver API
//! text and `shared/notes/tensor-maps.md`, not from `tensor_map.rs`): for each parameter set it lists
//! *every* rule broken; the core must accept exactly the sets the model finds clean and, for the
//! others, report one of the rules the model lists. Plus: tile maps agree with the tile's TMA plan.

use smemdesc_core::*;
use std::collections::BTreeSet;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Rule {
    Rank,
    InterleaveRank,
    Address,
    Dim,
    PackedDim0,
    StrideMultiple,
    StrideMax,
    StrideMin,
    BoxRange,
    Box16,
    BoxSpan,
    PackedBox0,
    ElementStride,
    InterleaveSwizzle,
    PackedInterleave,
    PackedSwizzle,
    OobFloat,
    DataTypeArch,
    SwizzleArch,
    BoxBytes,
}

#[derive(Clone, Copy, Debug)]
struct Params {
    arch: Arch,
    dtype: u32,
    rank: u32,
    address: u64,
    dims: [u64; 5],
    strides: [u64; 4],
    boxes: [u32; 5],
    es: [u32; 5],
    interleave: u32,
    swizzle: u32,
    fill: u32,
}

/// Bits per element: in global memory, and in the box (shared memory).
fn bits(dtype: u32) -> (u64, u64) {
    match dtype {
        0 => (8, 8),
        1 | 6 | 9 => (16, 16),
        2 | 3 | 7 | 10 | 11 | 12 => (32, 32),
        4 | 5 | 8 => (64, 64),
        13 => (4, 4),
        14 => (4, 8),
        15 => (6, 8),
        _ => unreachable!(),
    }
}

fn model(p: &Params) -> BTreeSet<Rule> {
    let mut v = BTreeSet::new();
    let (gbits, sbits) = bits(p.dtype);
    let align16b = p.dtype == 14 || p.dtype == 15;
    let packed = p.dtype >= 13;
    let float = matches!(p.dtype, 6..=12);
    let r = p.rank as usize;
    if !(1..=5).contains(&r) {
        v.insert(Rule::Rank);
        return v; // the arrays have no defined length
    }
    if p.interleave != 0 && r < 3 {
        v.insert(Rule::InterleaveRank);
    }
    let a32 = p.interleave == 2 || align16b;
    if p.address % if a32 { 32 } else { 16 } != 0 {
        v.insert(Rule::Address);
    }
    for &d in &p.dims[..r] {
        if d == 0 || d > 1u64 << 32 {
            v.insert(Rule::Dim);
        }
    }
    if (align16b && p.dims[0] % 128 != 0) || (p.dtype == 13 && p.dims[0] % 2 != 0) {
        v.insert(Rule::PackedDim0);
    }
    for i in 0..r.saturating_sub(1) {
        let s = p.strides[i] as u128;
        if s % if a32 { 32 } else { 16 } != 0 {
            v.insert(Rule::StrideMultiple);
        }
        if s >= 1 << 40 {
            v.insert(Rule::StrideMax);
        }
        let below: u128 = if i == 0 {
            (p.dims[0] as u128 * gbits as u128).div_ceil(8)
        } else {
            p.strides[i - 1] as u128 * p.dims[i] as u128
        };
        if s < below {
            v.insert(Rule::StrideMin);
        }
    }
    for &b in &p.boxes[..r] {
        if b == 0 || b > 256 {
            v.insert(Rule::BoxRange);
        }
    }
    let inner_bits = p.boxes[0] as u64 * sbits;
    // Every interleave: documented for NONE, measured on an H100 for 16B and 32B.
    if inner_bits % 128 != 0 {
        v.insert(Rule::Box16);
    }
    let span = [0, 32, 64, 128, 128, 128, 128][p.swizzle as usize];
    if p.interleave == 0 && p.swizzle != 0 && inner_bits > span * 8 {
        v.insert(Rule::BoxSpan);
    }
    if align16b && p.boxes[0] != 128 {
        v.insert(Rule::PackedBox0);
    }
    for &e in &p.es[..r] {
        if e == 0 || e > 8 {
            v.insert(Rule::ElementStride);
        }
    }
    if p.interleave == 2 && p.swizzle != 1 {
        v.insert(Rule::InterleaveSwizzle);
    }
    if p.dtype == 15 && p.interleave != 0 {
        v.insert(Rule::PackedInterleave);
    }
    let swz_ok = match p.dtype {
        14 => [0, 3, 4].contains(&p.swizzle),
        15 => [0, 3, 4, 6].contains(&p.swizzle),
        _ => true,
    };
    if !swz_ok {
        v.insert(Rule::PackedSwizzle);
    }
    if p.fill == 1 && !float {
        v.insert(Rule::OobFloat);
    }
    if p.arch == Arch::Sm90 && packed {
        v.insert(Rule::DataTypeArch);
    }
    if p.arch == Arch::Sm90 && p.swizzle >= 4 {
        v.insert(Rule::SwizzleArch);
    }
    if p.es[..r].iter().all(|&e| e != 0) {
        let elems: u128 = (0..r).map(|i| (p.boxes[i] / p.es[i]) as u128).product();
        if (elems * sbits as u128).div_ceil(8) > 233_472 {
            v.insert(Rule::BoxBytes);
        }
    }
    v
}

fn rule_of(e: &TensorMapError) -> Rule {
    match e {
        TensorMapError::RankOutOfRange { .. } => Rule::Rank,
        TensorMapError::InterleaveRank { .. } => Rule::InterleaveRank,
        TensorMapError::AddressMisaligned { .. } => Rule::Address,
        TensorMapError::DimOutOfRange { .. } => Rule::Dim,
        TensorMapError::PackedDim0 { .. } => Rule::PackedDim0,
        TensorMapError::StrideNotMultiple { .. } => Rule::StrideMultiple,
        TensorMapError::StrideTooLarge { .. } => Rule::StrideMax,
        TensorMapError::StrideTooSmall { .. } => Rule::StrideMin,
        TensorMapError::BoxDimOutOfRange { .. } => Rule::BoxRange,
        TensorMapError::BoxInnerNot16B { .. } => Rule::Box16,
        TensorMapError::BoxInnerOverSwizzle { .. } => Rule::BoxSpan,
        TensorMapError::PackedBox0 { .. } => Rule::PackedBox0,
        TensorMapError::ElementStrideOutOfRange { .. } => Rule::ElementStride,
        TensorMapError::InterleaveSwizzle { .. } => Rule::InterleaveSwizzle,
        TensorMapError::PackedInterleave { .. } => Rule::PackedInterleave,
        TensorMapError::PackedSwizzle { .. } => Rule::PackedSwizzle,
        TensorMapError::OobFillNotFloat { .. } => Rule::OobFloat,
        TensorMapError::DataTypeNotOnArch { .. } => Rule::DataTypeArch,
        TensorMapError::SwizzleNotOnArch { .. } => Rule::SwizzleArch,
        TensorMapError::BoxBytesTooLarge { .. } => Rule::BoxBytes,
        other => panic!("not a driver rule: {other:?}"),
    }
}

/// xorshift64*: a fixed, reproducible stream.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

fn random_params(rng: &mut Rng) -> Params {
    let dtype = rng.pick(&[
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 9, 9, 6, 0,
    ]);
    let rank = rng.pick(&[0, 1, 2, 2, 2, 3, 3, 4, 5, 6]);
    let dim_pool = [
        0,
        1,
        2,
        3,
        64,
        100,
        128,
        256,
        257,
        1024,
        4096,
        1 << 32,
        (1 << 32) + 1,
    ];
    let mut dims = [1; 5];
    for d in &mut dims {
        *d = rng.pick(&dim_pool);
    }
    // strides: usually dense (possibly padded), sometimes arbitrary
    let (gbits, _) = bits(dtype);
    let mut strides = [0u64; 4];
    let mut below = (dims[0] as u128 * gbits as u128).div_ceil(8);
    for i in 0..4 {
        let s: u128 = match rng.next() % 6 {
            0 => rng.pick(&[0u128, 16, 48, 96, 1000, 1 << 40, (1 << 40) - 16]),
            1 => below + rng.pick(&[8u128, 16, 32]),
            2 => below.next_multiple_of(32),
            _ => below,
        };
        strides[i] = s.min(u64::MAX as u128) as u64;
        below = strides[i] as u128 * dims[(i + 1).min(4)] as u128;
    }
    let mut boxes = [1u32; 5];
    for b in &mut boxes {
        *b = rng.pick(&[0, 1, 2, 8, 16, 32, 64, 100, 128, 256, 257]);
    }
    let mut es = [1u32; 5];
    for e in &mut es {
        *e = rng.pick(&[1, 1, 1, 1, 2, 3, 8, 0, 9]);
    }
    Params {
        arch: rng.pick(&[Arch::Sm90, Arch::Sm100]),
        dtype,
        rank,
        address: rng.pick(&[0, 16, 32, 48, 8, 0x7f00_0000_0000]),
        dims,
        strides,
        boxes,
        es,
        interleave: rng.pick(&[0, 0, 0, 1, 2]),
        swizzle: rng.pick(&[0, 1, 2, 3, 3, 4, 5, 6]),
        fill: rng.pick(&[0, 0, 1]),
    }
}

fn core_map(p: &Params) -> TensorMap {
    let mut m = TensorMap::new(
        p.arch,
        TensorMapDataType::from_value(p.dtype).unwrap(),
        p.rank,
    )
    .address(p.address)
    .interleave(TensorMapInterleave::ALL[p.interleave as usize])
    .swizzle(TensorMapSwizzle::from_value(p.swizzle).unwrap())
    .oob_fill(TensorMapOobFill::ALL[p.fill as usize]);
    for i in 0..5 {
        m = m.dim(i, p.dims[i as usize]).box_dim(i, p.boxes[i as usize]);
        m = m.element_stride(i, p.es[i as usize]);
    }
    for i in 0..4 {
        m = m.stride(i, p.strides[i as usize]);
    }
    m
}

#[test]
fn core_agrees_with_model() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let (mut accepted, mut rejected) = (0, 0);
    let mut seen = BTreeSet::new();
    for _ in 0..300_000 {
        let p = random_params(&mut rng);
        let broken = model(&p);
        let m = core_map(&p);
        match m.try_args() {
            Ok(a) => {
                assert!(broken.is_empty(), "core accepted {p:?}, model: {broken:?}");
                accepted += 1;
                assert_eq!(a.global_dim[..p.rank as usize], p.dims[..p.rank as usize]);
                let (_, sbits) = bits(p.dtype);
                let elems: u64 = (0..p.rank as usize)
                    .map(|i| (p.boxes[i] / p.es[i]) as u64)
                    .product();
                assert_eq!(a.box_bytes(), (elems * sbits).div_ceil(8));
            }
            Err(e) => {
                let r = rule_of(&e);
                assert!(
                    broken.contains(&r),
                    "core: {e} ({r:?}) for {p:?}; model: {broken:?}"
                );
                rejected += 1;
                seen.insert(r);
            }
        }
    }
    // the enumeration reaches both outcomes and every rule
    assert!(accepted > 1000, "accepted {accepted}");
    assert!(rejected > 1000, "rejected {rejected}");
    assert_eq!(seen.len(), 20, "rules reached: {seen:?}");
}

/// A tile's map: box = the TMA plan's `boxDim`, bytes = the plan's box bytes, swizzle and data type
/// the plan's, for every legal tile of the golden configurations' shapes.
#[test]
fn tile_maps_agree_with_tma_plans() {
    let mut checked = 0;
    for arch in Arch::ALL {
        for dtype in ElementType::ALL {
            for major in [Major::K, Major::Mn] {
                for operand in [Operand::A, Operand::B] {
                    for swz in [
                        None,
                        Some(SwizzleMode::None),
                        Some(SwizzleMode::B32),
                        Some(SwizzleMode::B64),
                    ] {
                        let mut d = TileDecl::new(arch, operand, dtype, major, 128, 128).stages(2);
                        if let Some(s) = swz {
                            d = d.swizzle(s);
                        }
                        let Ok(plan) = d.build() else { continue };
                        let m = TensorMap::for_tile_matrix(&plan, 4096, 2048).address(0x10_0000);
                        let a = m.try_args().unwrap_or_else(|e| panic!("{d:?}: {e}"));
                        assert_eq!([a.box_dim[0], a.box_dim[1]], plan.tma.box_dim());
                        assert_eq!(a.box_bytes(), plan.tma.box_bytes as u64);
                        assert_eq!(a.swizzle.value(), plan.tma.swizzle.value());
                        assert_eq!(a.data_type.value(), plan.tma.data_type.value());
                        let inner = if major == Major::K { 2048 } else { 4096 };
                        // global memory holds the values without gaps (the padded and packed
                        // sub-byte types too): value bits, not the SMEM cell
                        assert_eq!(a.global_strides[0], inner * dtype.bits() as u64 / 8);
                        // what a tile fixes cannot be changed
                        let e = m.box_dim(1, a.box_dim[1] / 2).check();
                        assert_eq!(e.unwrap_err().argument(), TensorMapArg::BoxDim(1));
                        let e = m.element_stride(1, 2).check().unwrap_err();
                        assert!(e.to_string().contains("legal: 1"), "{e}");
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 50, "{checked}");
    // rank 1 is refused for a tile; rank 3 adds a batch dim with box 1
    let p = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 128, 64)
        .build()
        .unwrap();
    let e = TensorMap::for_tile(&p, 1).check().unwrap_err();
    assert_eq!(e, TensorMapError::TileRank { rank: 1 });
    let a = TensorMap::for_tile(&p, 3)
        .dim(0, 64)
        .dim(1, 128)
        .dim(2, 8)
        .address(0)
        .try_args()
        .unwrap();
    assert_eq!((a.box_dim[2], a.global_strides[1]), (1, 64 * 2 * 128));
    // a data type of another size is refused; one of the same size is allowed
    let e = TensorMap::for_tile(&p, 2)
        .data_type(TensorMapDataType::Float32)
        .check()
        .unwrap_err();
    assert_eq!(e.argument(), TensorMapArg::TensorDataType);
    assert!(TensorMap::for_tile(&p, 2)
        .data_type(TensorMapDataType::Float16)
        .check()
        .is_ok());
}
