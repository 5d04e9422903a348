//! What the GPU program checks: the layout classes, their smemdesc tiles and TMA box plans, and
//! the host-side numbers of a check launch (shared-memory bytes). Plain Rust (no GPU); the unit
//! tests run in CI. The kernels' headers are `smemdesc header`'s ([`crate::gen`]).

use smemdesc_core::{
    Arch, DescriptorFields, ElementType, Major, MmaShape, Operand, Order, Placement,
    SmemDescriptor, SwizzleMode, TileDecl, TileLayout, TilePlan,
};

pub use crate::class::{ClassCfg, OperandCfg};

/// Tile geometry of every check class: 128 rows along M (A) and N (B), two wgmma subtiles of 64
/// along each, 256 bytes of K per stage (8 MMA subtiles along K), 2 stages.
pub const CHECK_TILE_MN: u32 = 128;
/// MMA extent along M/N of one instruction in the check kernels (wgmma m64n64).
pub const CHECK_MMA_MN: u32 = 64;
/// Bytes of K per stage in the check classes.
pub const CHECK_K_BYTES: u32 = 256;
/// Stages in the check classes.
pub const CHECK_STAGES: u32 = 2;

/// A TMA box plan for one stage of one operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoxPlan {
    /// Inner (contiguous) box extent, elements.
    pub box_inner: u32,
    /// Outer box extent, rows.
    pub box_rows: u32,
    /// Boxes of one stage: (byte offset in the stage, mn0, k0) in tile elements.
    pub boxes: Vec<(u32, u32, u32)>,
    /// `CUtensorMapSwizzle` value.
    pub swizzle: u32,
    /// `CUtensorMapDataType` value.
    pub data_type: u32,
    /// Where the plan came from.
    pub source: &'static str,
}

/// The TMA plan of a declared tile, from smemdesc-core (`TilePlan::tma`, `box_offset`,
/// `box_coord`): nothing about boxes is computed here.
pub fn box_plan(p: &TilePlan) -> BoxPlan {
    BoxPlan {
        box_inner: p.tma.box_inner,
        box_rows: p.tma.box_rows,
        boxes: (0..p.tma.boxes)
            .map(|b| {
                let (mn, k) = p.box_coord(b);
                (p.box_offset(b), mn, k)
            })
            .collect(),
        swizzle: p.tma.swizzle.value(),
        data_type: p.tma.data_type.value(),
        source: "smemdesc-core TmaPlan",
    }
}

/// One operand of a built class.
#[derive(Clone, Debug)]
pub struct BuiltOperand {
    /// smemdesc tile.
    pub tile: TileLayout,
    /// TMA plan.
    pub tma: BoxPlan,
    /// `desc(0, mn, k, stage)` at index `(stage * mmas_k + k) * mmas_mn + mn`.
    pub desc0: Vec<u64>,
}

/// A class with its tiles built.
#[derive(Clone, Debug)]
pub struct BuiltClass {
    /// The configuration.
    pub cfg: ClassCfg,
    /// Operand A.
    pub a: BuiltOperand,
    /// Operand B.
    pub b: BuiltOperand,
}

fn build_operand(
    dtype: ElementType,
    operand: Operand,
    op: OperandCfg,
    wrong_sbo: bool,
    (model, addr): (Placement, u32),
) -> Result<BuiltOperand, String> {
    let tile_k = CHECK_K_BYTES / dtype.smem_bytes();
    let plan = TileDecl::new(Arch::Sm90, operand, dtype, op.major, CHECK_TILE_MN, tile_k)
        .swizzle(op.swizzle)
        .order(op.order)
        .mma(MmaShape::new(CHECK_MMA_MN, CHECK_MMA_MN, dtype.mma_k()))
        .stages(CHECK_STAGES)
        .build()
        .map_err(|e| format!("smemdesc rejected {dtype:?} {operand:?} {op:?}: {e}"))?;
    let tile = plan.tile;
    let mut desc0 = Vec::new();
    for s in 0..CHECK_STAGES {
        for k in 0..tile.mmas_k() {
            for i in 0..tile.mmas_mn() {
                let d = crate::placement::placed_desc(&tile, model, addr, i, k, s)?;
                desc0.push(if wrong_sbo {
                    with_wrong_sbo(d)?
                } else {
                    d.raw()
                });
            }
        }
    }
    Ok(BuiltOperand {
        tma: box_plan(&plan),
        tile,
        desc0,
    })
}

/// The negative control's descriptor: smemdesc's fields with SBO doubled.
pub fn with_wrong_sbo(d: SmemDescriptor) -> Result<u64, String> {
    let f = d.fields().map_err(|e| e.to_string())?;
    let mut g = DescriptorFields::new(f.start_address, f.lbo, f.sbo * 2, f.layout);
    g.base_offset = f.base_offset;
    Ok(SmemDescriptor::encode(Arch::Sm90, g)
        .map_err(|e| e.to_string())?
        .raw())
}

impl ClassCfg {
    /// Builds the class's tiles, boxes and descriptor tables with smemdesc. A's table holds the
    /// descriptors of A at `smem_offset` (from a base at 0) under [`desc_model`](Self::desc_model).
    pub fn build(&self) -> Result<BuiltClass, String> {
        let a_at = (self.desc_model(), self.smem_offset);
        Ok(BuiltClass {
            a: build_operand(self.dtype, Operand::A, self.a, self.wrong_sbo, a_at)?,
            b: build_operand(
                self.dtype,
                Operand::B,
                self.b,
                false,
                (Placement::Absolute, 0),
            )?,
            cfg: self.clone(),
        })
    }
}

fn swz_name(s: SwizzleMode) -> &'static str {
    match s {
        SwizzleMode::None => "none",
        SwizzleMode::B32 => "sw32",
        SwizzleMode::B64 => "sw64",
        SwizzleMode::B128 => "sw128",
        SwizzleMode::B128Base32B => "sw128b32",
    }
}

fn order_name(o: Order) -> &'static str {
    match o {
        Order::MnFirst => "mnfirst",
        Order::KFirst => "kfirst",
    }
}

/// Every class the GPU program checks: the aligned classes and their negative control, then the
/// unaligned-placement classes and theirs ([`crate::placement`]).
pub fn classes() -> Vec<ClassCfg> {
    let swz = [
        SwizzleMode::None,
        SwizzleMode::B32,
        SwizzleMode::B64,
        SwizzleMode::B128,
    ];
    let orders = [Order::MnFirst, Order::KFirst];
    let mut v = Vec::new();
    let mut push = |dtype: ElementType, a: OperandCfg, b: OperandCfg, wrong_sbo: bool| {
        let name = if a == b {
            format!(
                "{}_{}_{}_{}",
                dtype.name(),
                a.major.name(),
                swz_name(a.swizzle),
                order_name(a.order)
            )
        } else {
            format!(
                "{}_A{}_{}_{}_B{}_{}_{}",
                dtype.name(),
                a.major.name(),
                swz_name(a.swizzle),
                order_name(a.order),
                b.major.name(),
                swz_name(b.swizzle),
                order_name(b.order)
            )
        };
        let name = if wrong_sbo {
            format!("NEGATIVE_wrong_sbo_{name}")
        } else {
            name
        };
        v.push(ClassCfg {
            name,
            dtype,
            a,
            b,
            wrong_sbo,
            placement: Placement::Absolute,
            smem_offset: 0,
            wrong_placement: false,
        });
    };
    for (dtype, major) in [
        (ElementType::BF16, Major::K),
        (ElementType::BF16, Major::Mn),
        (ElementType::E4M3, Major::K),
        (ElementType::TF32, Major::K),
    ] {
        for &swizzle in &swz {
            for &order in &orders {
                let op = OperandCfg {
                    major,
                    swizzle,
                    order,
                };
                push(dtype, op, op, false);
            }
        }
    }
    // Mixed majors (A and B differ), bf16 only (transpose is bf16/f16 only on sm90).
    let op = |major, swizzle, order| OperandCfg {
        major,
        swizzle,
        order,
    };
    push(
        ElementType::BF16,
        op(Major::K, SwizzleMode::B128, Order::MnFirst),
        op(Major::Mn, SwizzleMode::B64, Order::KFirst),
        false,
    );
    push(
        ElementType::BF16,
        op(Major::Mn, SwizzleMode::B32, Order::MnFirst),
        op(Major::K, SwizzleMode::None, Order::KFirst),
        false,
    );
    let k128 = op(Major::K, SwizzleMode::B128, Order::MnFirst);
    push(ElementType::BF16, k128, k128, true);
    crate::placement::push_classes(&mut v);
    v
}

/// Kind index used by the check kernel template (0 bf16, 1 e4m3, 2 tf32).
pub fn kind_of(d: ElementType) -> u32 {
    match d {
        ElementType::BF16 => 0,
        ElementType::E4M3 => 1,
        _ => 2,
    }
}

/// Bytes of an operand region (all stages), rounded to 1024.
pub fn region_bytes(t: &TileLayout) -> u32 {
    t.bytes().div_ceil(1024) * 1024
}

/// Dynamic shared memory a check kernel needs (1024 alignment slack + regions + mbarrier; an
/// unaligned A adds its offset rounded to 1024, a relative one its aligned staging area).
pub fn check_smem_bytes(c: &BuiltClass) -> u32 {
    let a = region_bytes(&c.a.tile);
    let shift = c.cfg.smem_offset.div_ceil(1024) * 1024;
    let staging = if c.cfg.placement == Placement::Relative {
        a
    } else {
        0
    };
    1024 + shift + a + staging + region_bytes(&c.b.tile) + 64
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Simulates TMA: every box row lands at box offset + row * row bytes, swizzled on the
    /// (aligned) address; the union must be every tile element exactly once, where smemdesc's
    /// `byte_offset` puts it.
    pub(crate) fn check_boxes(tile: &TileLayout, plan: &BoxPlan) {
        let spec = tile.spec();
        let eb = spec.dtype.smem_bytes();
        let f = tile.swizzle_mode().functor();
        let mut seen = std::collections::HashSet::new();
        for &(off, mn0, k0) in &plan.boxes {
            for r in 0..plan.box_rows {
                for e in 0..plan.box_inner {
                    let addr = f.apply(off + (r * plan.box_inner + e) * eb);
                    let (mn, k) = match spec.major {
                        Major::K => (mn0 + r, k0 + e),
                        Major::Mn => (mn0 + e, k0 + r),
                    };
                    assert_eq!(addr, tile.byte_offset(mn, k), "{spec:?} ({mn},{k})");
                    assert!(seen.insert((mn, k)));
                }
            }
        }
        assert_eq!(seen.len() as u32, spec.tile_mn * spec.tile_k);
    }

    #[test]
    fn every_class_builds_and_boxes_cover_the_tile() {
        let cls = classes();
        assert!(cls.len() >= 34);
        for c in &cls {
            let b = c.build().unwrap();
            check_boxes(&b.a.tile, &b.a.tma);
            check_boxes(&b.b.tile, &b.b.tma);
            assert!(b.a.tile.mmas_mn() >= 2 && b.b.tile.mmas_mn() >= 2);
            assert!(b.a.tile.mmas_k() >= 2);
            assert!(check_smem_bytes(&b) <= 227 * 1024);
        }
    }

    #[test]
    fn negative_control_changes_only_sbo() {
        let c = classes().into_iter().find(|c| c.wrong_sbo).unwrap();
        let b = c.build().unwrap();
        let good = b.a.tile.try_desc(0, 1, 3, 1).unwrap();
        let bad = SmemDescriptor::decode(Arch::Sm90, with_wrong_sbo(good).unwrap()).unwrap();
        assert_eq!(bad.sbo(), 2 * good.sbo());
        assert_eq!(bad.start_address(), good.start_address());
        assert_eq!(bad.lbo(), good.lbo());
    }

    /// The unaligned-placement classes of [`crate::placement`], as [`classes`] lists them.
    #[test]
    fn unaligned_classes_cover_every_placement_and_model() {
        let all = classes();
        let placed: Vec<&ClassCfg> = all.iter().filter(|c| c.smem_offset != 0).collect();
        // 2 majors x 3 swizzles x 7 placements x 2 models + 2 negative controls
        assert_eq!(placed.len(), 2 * 3 * 7 * 2 + 2);
        assert_eq!(placed.iter().filter(|c| c.wrong_placement).count(), 2);
        for c in &placed {
            let b = c.build().unwrap();
            assert!(check_smem_bytes(&b) <= 227 * 1024, "{}", c.name);
            // A's descriptors: base_offset 0 for absolute, (P >> 7) & 7 for relative, modulo the
            // pattern's rows (spec §7); the other model's for the negative controls.
            let rows = (c.a.swizzle.atom_bytes() / 128) as u64;
            let bo = |model| match model {
                Placement::Absolute => 0,
                Placement::Relative => (c.smem_offset >> 7) as u64 % rows,
            };
            for d in &b.a.desc0 {
                assert_eq!((d >> 49 & 7) % rows, bo(c.desc_model()), "{}", c.name);
            }
            if c.wrong_placement {
                assert_ne!(bo(c.desc_model()), bo(c.placement), "{}", c.name);
            }
            assert_eq!(
                b.a.desc0[0] & 0x3fff,
                (c.smem_offset >> 4) as u64,
                "{}",
                c.name
            );
        }
    }
}
