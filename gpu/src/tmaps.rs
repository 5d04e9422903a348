//! `--tensor-maps N`: smemdesc's tensor-map rules against the real driver. N parameter sets, drawn
//! around every rule's boundaries, are judged by `TensorMap::check` and sent (unchecked) to
//! `cuTensorMapEncodeTiled`, then a deterministic grid over the interleaved layouts; a disagreement is a set one side accepts and the other refuses. The
//! counts go to `results.json` under `"tensor_maps"`, with the disagreements grouped by kind (the
//! rule smemdesc applied, and what the driver did) and each kind that is a known, documented
//! difference explained; `unexplained` counts the rest.

use smemdesc::{
    Arch, TensorMap, TensorMapArgs, TensorMapDataType, TensorMapInterleave, TensorMapL2Promotion,
    TensorMapOobFill, TensorMapSwizzle,
};
use std::fmt::Write as _;

/// The outcome of an agreement run.
pub(crate) struct Agreement {
    pub(crate) accepted_and_encoded: u64,
    pub(crate) rejected_and_driver_rejects: u64,
    pub(crate) disagreements: u64,
    /// Disagreements per kind: `"<smemdesc's verdict>; <driver's verdict>"`.
    pub(crate) kinds: std::collections::BTreeMap<String, u64>,
    /// The first disagreements, described.
    pub(crate) examples: Vec<String>,
}

/// Disagreements that are known and documented, with the reason.
///
/// `StrideTooSmall`: the CUDA driver API documentation of `cuTensorMapEncodeTiled` defines each
/// global stride as including the one below it (`globalStrides[0] = globalDim[0] *
/// elementSizeInBytes(tensorDataType) + padding[0]`, `globalStrides[i] = globalStrides[i - 1] *
/// (globalDim[i] + padding[i])`), so a stride smaller than the dimension below it spans describes
/// overlapping rows. smemdesc enforces the documented rule; the driver does not check it and
/// encodes such maps (measured here).
///
/// `InterleaveSwizzle`: the same documentation says that when `interleave` is
/// `CU_TENSOR_MAP_INTERLEAVE_32B`, `swizzle` must be `CU_TENSOR_MAP_SWIZZLE_32B`; the driver
/// encodes other swizzles with it (measured here). smemdesc keeps the documented rule.
const EXPLAINED: &[(&str, &str)] = &[
    (
        "StrideTooSmall; driver encodes",
        "a global stride below the extent of the dimension under it (overlapping rows): the driver documentation's stride formula forbids it, smemdesc enforces that, the driver does not check it",
    ),
    (
        "InterleaveSwizzle; driver encodes",
        "interleave 32B with a swizzle other than 32B: the driver documentation requires swizzle 32B with interleave 32B, smemdesc enforces that, the driver does not check it",
    ),
];

/// The explanation of disagreement kind `kind`, if it is a known one.
pub(crate) fn explanation(kind: &str) -> Option<&'static str> {
    EXPLAINED.iter().find(|(k, _)| *k == kind).map(|(_, e)| *e)
}

/// The variant name of an error's `Debug` text (`StrideTooSmall { .. }` -> `StrideTooSmall`).
fn variant(debug: &str) -> &str {
    let end = debug
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(debug.len());
    &debug[..end]
}

impl Agreement {
    /// The `"tensor_maps"` JSON object.
    pub(crate) fn json(&self) -> String {
        let mut s = format!(
            "{{\"accepted_and_encoded\": {}, \"rejected_and_driver_rejects\": {}, \"disagreements\": {}, \"unexplained\": {}, \"disagreement_kinds\": [",
            self.accepted_and_encoded,
            self.rejected_and_driver_rejects,
            self.disagreements,
            self.unexplained()
        );
        for (i, (kind, n)) in self.kinds.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            let why = match explanation(kind) {
                Some(e) => format!("\"{e}\""),
                None => "null".to_string(),
            };
            write!(
                s,
                "{sep}{{\"kind\": \"{kind}\", \"count\": {n}, \"explained\": {why}}}"
            )
            .unwrap();
        }
        s.push_str("], \"examples\": [");
        for (i, e) in self.examples.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(
                s,
                "{sep}\"{}\"",
                e.replace('\\', "\\\\").replace('"', "\\\"")
            )
            .unwrap();
        }
        s.push_str("]}");
        s
    }

    /// The RESULTS.md section.
    pub(crate) fn markdown(&self) -> String {
        let mut s = format!(
            "\n## Tensor maps against the driver\n\n{} parameter sets judged by `TensorMap::check` and sent, unchecked, to `cuTensorMapEncodeTiled`: **{} accepted and encoded, {} rejected and refused by the driver, {} disagreements ({} unexplained)**.\n\n| disagreement | count | why |\n|---|---|---|\n",
            self.accepted_and_encoded + self.rejected_and_driver_rejects + self.disagreements,
            self.accepted_and_encoded,
            self.rejected_and_driver_rejects,
            self.disagreements,
            self.unexplained()
        );
        for (kind, n) in &self.kinds {
            let why = explanation(kind).unwrap_or("**unexplained**");
            writeln!(s, "| {kind} | {n} | {why} |").unwrap();
        }
        s
    }

    /// Disagreements of no explained kind.
    pub(crate) fn unexplained(&self) -> u64 {
        self.kinds
            .iter()
            .filter(|(k, _)| explanation(k).is_none())
            .map(|(_, n)| n)
            .sum()
    }
}

/// xorshift64*: reproducible draws.
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

/// Arguments drawn at random around every rule's boundaries. Ranks stay within 1..=5 (the driver
/// reads `rank` entries of 5-entry arrays).
fn draw_random(rng: &mut Rng) -> TensorMapArgs {
    let dt = TensorMapDataType::ALL[(rng.next() % 16) as usize];
    let rank = rng.pick(&[1u32, 2, 2, 2, 3, 3, 4, 5]);
    let mut dims = [1u64; 5];
    for d in &mut dims {
        *d = rng.pick(&[
            1,
            2,
            3,
            64,
            100,
            128,
            256,
            1024,
            4096,
            1 << 32,
            (1 << 32) + 1,
            0,
        ]);
    }
    let gbits = dt.global_bits() as u64;
    let mut strides = [0u64; 4];
    let mut below = (dims[0] * gbits).div_ceil(8);
    for (i, s) in strides.iter_mut().enumerate() {
        *s = match rng.next() % 6 {
            0 => rng.pick(&[16, 48, 96, 1000, 1 << 40, (1 << 40) - 16]),
            1 => below.saturating_add(rng.pick(&[8, 16, 32])),
            2 => below.saturating_add(31) / 32 * 32,
            _ => below,
        };
        below = s.saturating_mul(dims[(i + 1).min(4)]);
    }
    let mut boxes = [1u32; 5];
    for b in &mut boxes {
        *b = rng.pick(&[1, 2, 8, 16, 32, 64, 100, 128, 256, 257, 0]);
    }
    let mut es = [1u32; 5];
    for e in &mut es {
        *e = rng.pick(&[1, 1, 1, 1, 2, 3, 8, 9, 0]);
    }
    TensorMapArgs {
        data_type: dt,
        rank,
        global_address: rng.pick(&[0x7f00_0000_0000u64, 0x7f00_0000_0010, 0x7f00_0000_0008]),
        global_dim: dims,
        global_strides: strides,
        box_dim: boxes,
        element_strides: es,
        interleave: TensorMapInterleave::ALL[rng.pick(&[0usize, 0, 0, 1, 2])],
        swizzle: TensorMapSwizzle::ALL[rng.pick(&[0usize, 1, 2, 3, 3, 4, 5, 6])],
        l2_promotion: TensorMapL2Promotion::ALL[(rng.next() % 4) as usize],
        oob_fill: TensorMapOobFill::ALL[rng.pick(&[0usize, 0, 1])],
    }
}

/// Arguments that satisfy every documented rule for `arch` (the box-size limit aside).
fn draw_legal(rng: &mut Rng, arch: Arch) -> TensorMapArgs {
    let dt = loop {
        let t = TensorMapDataType::ALL[(rng.next() % 16) as usize];
        if t.on(arch) {
            break t;
        }
    };
    let swizzle = loop {
        let s = TensorMapSwizzle::ALL[(rng.next() % 7) as usize];
        let packed_ok = match dt {
            TensorMapDataType::U4x16Align16B => s.value() == 0 || s.value() == 3 || s.value() == 4,
            TensorMapDataType::U6x16Align16B => matches!(s.value(), 0 | 3 | 4 | 6),
            _ => true,
        };
        if s.on(arch) && packed_ok {
            break s;
        }
    };
    let bits = dt.box_bits();
    let box0 = if dt.is_align16b() {
        128
    } else {
        let max_bytes = if swizzle.span() == 0 {
            256
        } else {
            swizzle.span()
        };
        let bytes = 16 * (1 + rng.next() as u32 % (max_bytes / 16));
        (bytes * 8 / bits).min(256)
    };
    let rank = rng.pick(&[1u32, 2, 2, 3, 4, 5]);
    let mut dims = [1u64; 5];
    dims[0] = rng.pick(&[256, 1024, 4096]);
    for d in dims.iter_mut().skip(1) {
        *d = rng.pick(&[1, 7, 64, 4096]);
    }
    let mut strides = [0u64; 4];
    let mut below = (dims[0] * dt.global_bits() as u64)
        .div_ceil(8)
        .next_multiple_of(32);
    for (i, s) in strides.iter_mut().enumerate() {
        *s = below + rng.pick(&[0, 0, 32]);
        below = *s * dims[i + 1];
    }
    let mut boxes = [1u32; 5];
    boxes[0] = box0;
    for b in boxes.iter_mut().skip(1) {
        *b = rng.pick(&[1, 8, 64, 256]);
    }
    TensorMapArgs {
        data_type: dt,
        rank,
        global_address: 0x7f00_0000_0000,
        global_dim: dims,
        global_strides: strides,
        box_dim: boxes,
        element_strides: [1; 5],
        interleave: TensorMapInterleave::None,
        swizzle,
        l2_promotion: TensorMapL2Promotion::ALL[(rng.next() % 4) as usize],
        oob_fill: if dt.is_float() && rng.next() & 1 == 0 {
            TensorMapOobFill::NanRequestZeroFma
        } else {
            TensorMapOobFill::None
        },
    }
}

/// One parameter set: a legal one (a quarter), a legal one with one field from a random draw
/// (half), or a random one; with the map smemdesc judges.
fn draw(rng: &mut Rng, arch: Arch) -> (TensorMap, TensorMapArgs) {
    let mut a = draw_legal(rng, arch);
    let r = draw_random(rng);
    match rng.next() % 4 {
        0 => {}
        1 => a = r,
        _ => match rng.next() % 11 {
            0 => a.data_type = r.data_type,
            1 => a.rank = r.rank,
            2 => a.global_address = r.global_address,
            3 => a.global_dim[(rng.next() % 5) as usize] = r.global_dim[0],
            4 => a.global_strides[(rng.next() % 4) as usize] = r.global_strides[1],
            5 => a.box_dim[(rng.next() % 5) as usize] = r.box_dim[0],
            6 => a.element_strides[(rng.next() % 5) as usize] = r.element_strides[0],
            7 => a.interleave = r.interleave,
            8 => a.swizzle = r.swizzle,
            9 => a.oob_fill = r.oob_fill,
            _ => a.box_dim = r.box_dim,
        },
    }
    (map_of(&a, arch), a)
}

/// A deterministic grid over the interleaved layouts (rank 3, everything else legal): interleave
/// 16B and 32B x every swizzle the architecture has x element sizes 1, 2, 4, 8 B x globalDim[0]
/// and boxDim[0] in 1..=64 (powers of two). The random draws reach interleave rarely; this walks
/// its rules exhaustively.
fn interleave_grid(arch: Arch) -> Vec<TensorMapArgs> {
    let mut v = Vec::new();
    for il in [TensorMapInterleave::B16, TensorMapInterleave::B32] {
        for sw in TensorMapSwizzle::ALL.into_iter().filter(|s| s.on(arch)) {
            for dt in [
                TensorMapDataType::Uint8,
                TensorMapDataType::Float16,
                TensorMapDataType::Float32,
                TensorMapDataType::Float64,
            ] {
                for d0 in [1u64, 2, 4, 8, 16, 32, 64] {
                    for b0 in [1u32, 2, 4, 8, 16, 32, 64] {
                        let row = (d0 * dt.global_bits() as u64)
                            .div_ceil(8)
                            .next_multiple_of(32);
                        v.push(TensorMapArgs {
                            data_type: dt,
                            rank: 3,
                            global_address: 0x7f00_0000_0000,
                            global_dim: [d0, 64, 64, 1, 1],
                            global_strides: [row, row * 64, row * 4096, row * 4096],
                            box_dim: [b0, 8, 8, 1, 1],
                            element_strides: [1; 5],
                            interleave: il,
                            swizzle: sw,
                            l2_promotion: TensorMapL2Promotion::None,
                            oob_fill: TensorMapOobFill::None,
                        });
                    }
                }
            }
        }
    }
    v
}

/// The `TensorMap` of concrete arguments.
fn map_of(a: &TensorMapArgs, arch: Arch) -> TensorMap {
    let mut m = TensorMap::new(arch, a.data_type, a.rank)
        .interleave(a.interleave)
        .swizzle(a.swizzle)
        .oob_fill(a.oob_fill)
        .l2_promotion(a.l2_promotion)
        .address(a.global_address);
    for i in 0..5u32 {
        m = m
            .dim(i, a.global_dim[i as usize])
            .box_dim(i, a.box_dim[i as usize])
            .element_stride(i, a.element_strides[i as usize]);
    }
    for i in 0..4u32 {
        m = m.stride(i, a.global_strides[i as usize]);
    }
    m
}

/// Runs `n` parameter sets against the driver of the current context (`cc_major` 9: sm90, 10: sm100).
pub(crate) fn run(n: u64, cc_major: i32) -> Agreement {
    let arch = if cc_major >= 10 {
        Arch::Sm100
    } else {
        Arch::Sm90
    };
    let mut rng = Rng(0x7e45_0a95_c0de_0015);
    let mut a = Agreement {
        accepted_and_encoded: 0,
        rejected_and_driver_rejects: 0,
        disagreements: 0,
        kinds: Default::default(),
        examples: Vec::new(),
    };
    let grid = interleave_grid(arch);
    for i in 0..n + grid.len() as u64 {
        let (m, args) = match grid.get(i.saturating_sub(n) as usize) {
            Some(a) if i >= n => (map_of(a, arch), *a),
            _ => draw(&mut rng, arch),
        };
        let ours = m.check();
        let driver = smemdesc::cuda::encode_args(&args);
        match (&ours, &driver) {
            (Ok(()), Ok(_)) => a.accepted_and_encoded += 1,
            (Err(_), Err(smemdesc::cuda::EncodeError::DriverRefused { .. })) => {
                a.rejected_and_driver_rejects += 1
            }
            _ => {
                a.disagreements += 1;
                let kind = format!(
                    "{}; {}",
                    match &ours {
                        Ok(()) => "smemdesc accepts".to_string(),
                        Err(e) => variant(&format!("{e:?}")).to_string(),
                    },
                    match &driver {
                        Ok(_) => "driver encodes".to_string(),
                        Err(smemdesc::cuda::EncodeError::DriverRefused { .. }) => {
                            "driver refuses".to_string()
                        }
                        Err(e) => variant(&format!("{e:?}")).to_string(),
                    }
                );
                let first_of_kind = !a.kinds.contains_key(&kind);
                let keep = first_of_kind
                    || a.examples.len() < 5
                    || (explanation(&kind).is_none() && a.examples.len() < 60);
                *a.kinds.entry(kind).or_default() += 1;
                if keep {
                    let d = match &driver {
                        Ok(_) => "driver encodes".to_string(),
                        Err(e) => format!("driver: {e}"),
                    };
                    let o = match &ours {
                        Ok(()) => "smemdesc accepts".to_string(),
                        Err(e) => format!("smemdesc: {e}"),
                    };
                    a.examples.push(format!("{o}; {d}; {args:?}"));
                }
            }
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan;

    /// Every tensor map the layout-class checks and the GEMM build passes smemdesc's checks (else
    /// the GPU run would stop at `cuda::tensor_map`).
    #[test]
    fn gpu_maps_pass_the_checks() {
        let ptr = 0x7f00_0000_0000;
        let ok = |op: &plan::BuiltOperand, dims: [u64; 2], stride: u64, what: &str| {
            let box_dim = [op.tma.box_inner, op.tma.box_rows];
            crate::cuda::tensor_map_desc(
                op.tma.data_type,
                op.tma.swizzle,
                ptr,
                dims,
                stride,
                box_dim,
            )
            .and_then(|m| m.try_args().map_err(|e| e.to_string()))
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        };
        let mut n = 0;
        for c in plan::classes() {
            let b = c.build().unwrap();
            let ktot = (b.a.tile.spec().tile_k * plan::CHECK_STAGES) as u64;
            for (op, major) in [(&b.a, c.a.major), (&b.b, c.b.major)] {
                let eb = op.tile.spec().dtype.smem_bytes() as u64;
                let mn = op.tile.spec().tile_mn as u64;
                let (dims, stride) = crate::checks::map_dims(major, mn, ktot, eb);
                ok(op, dims, stride, &c.name);
                n += 1;
            }
        }
        let g = crate::gemm_plan::gemm_plan();
        for s in [1024u64, 4096, 8192] {
            for op in [&g.a, &g.b, &g.bh] {
                ok(op, [s, s], s * 2, "gemm");
                n += 1;
            }
        }
        assert!(n > 20, "{n}");
    }

    /// Disagreement kinds are named by the error variant; only the documented stride rule is
    /// explained, and an unknown kind counts as unexplained.
    #[test]
    fn disagreement_kinds() {
        let e = smemdesc::TensorMapError::StrideTooSmall {
            index: 0,
            stride: 224,
            min: 16384,
        };
        assert_eq!(variant(&format!("{e:?}")), "StrideTooSmall");
        let mut a = Agreement {
            accepted_and_encoded: 0,
            rejected_and_driver_rejects: 0,
            disagreements: 3,
            kinds: Default::default(),
            examples: Vec::new(),
        };
        a.kinds.insert("StrideTooSmall; driver encodes".into(), 2);
        a.kinds.insert("smemdesc accepts; driver refuses".into(), 1);
        assert_eq!(a.unexplained(), 1);
        let j = a.json();
        assert!(j.contains("\"unexplained\": 1"), "{j}");
        assert!(
            j.contains(
                "\"kind\": \"smemdesc accepts; driver refuses\", \"count\": 1, \"explained\": null"
            ),
            "{j}"
        );
    }

    #[test]
    fn draws_reach_both_verdicts() {
        let mut rng = Rng(1);
        let (mut ok, mut bad) = (0, 0);
        for _ in 0..20_000 {
            let (m, args) = draw(&mut rng, Arch::Sm90);
            match m.check() {
                Ok(()) => {
                    ok += 1;
                    let t = m.try_args().unwrap();
                    let r = args.rank as usize;
                    assert_eq!(t.global_dim[..r], args.global_dim[..r]);
                    assert_eq!(t.global_strides[..r - 1], args.global_strides[..r - 1]);
                    assert_eq!(
                        (t.box_dim, t.element_strides),
                        (args.box_dim, args.element_strides)
                    );
                    assert_eq!(
                        (t.data_type, t.swizzle, t.interleave),
                        (args.data_type, args.swizzle, args.interleave)
                    );
                }
                Err(_) => bad += 1,
            }
        }
        assert!(ok > 4000 && bad > 4000, "{ok} {bad}");
    }
}
