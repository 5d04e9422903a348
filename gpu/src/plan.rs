//! What the GPU program checks, and the CUDA header it generates from smemdesc's numbers.
//!
//! Everything here is plain Rust (no GPU): the classes, their smemdesc tiles, TMA box plans and
//! descriptor tables, and the text of the generated header. The unit tests run in CI.

use smemdesc::smem_tile;
use smemdesc_core::{
    Arch, DescriptorFields, ElementType, Major, MmaShape, Operand, Order, Placement,
    SmemDescriptor, SwizzleMode, TileDecl, TileLayout, TilePlan,
};
use std::fmt::Write as _;

/// Tile geometry of every check class: 128 rows along M (A) and N (B), two wgmma subtiles of 64
/// along each, 256 bytes of K per stage (8 MMA subtiles along K), 2 stages.
pub const CHECK_TILE_MN: u32 = 128;
/// MMA extent along M/N of one instruction in the check kernels (wgmma m64n64).
pub const CHECK_MMA_MN: u32 = 64;
/// Bytes of K per stage in the check classes.
pub const CHECK_K_BYTES: u32 = 256;
/// Stages in the check classes.
pub const CHECK_STAGES: u32 = 2;

/// One operand's layout choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OperandCfg {
    /// Contiguous dimension.
    pub major: Major,
    /// Swizzle mode.
    pub swizzle: SwizzleMode,
    /// Atom stacking order.
    pub order: Order,
}

/// A layout class: element type and the layout of A and B.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassCfg {
    /// Short name (used in tables and kernel names).
    pub name: String,
    /// Element type of A and B.
    pub dtype: ElementType,
    /// Operand A layout.
    pub a: OperandCfg,
    /// Operand B layout.
    pub b: OperandCfg,
    /// Negative control: A's descriptors get a deliberately wrong SBO.
    pub wrong_sbo: bool,
    /// How A's bytes are written (spec §7): `Absolute` (TMA to A's address) or `Relative` (TMA to
    /// an aligned staging area, then copied verbatim to A's address by the threads).
    pub placement: Placement,
    /// Bytes past the 1024-aligned base where A sits (0 for the aligned classes).
    pub smem_offset: u32,
    /// Negative control: A's descriptors use the other placement model's base_offset.
    pub wrong_placement: bool,
}

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

impl BoxPlan {
    /// Bytes one box writes.
    pub fn box_bytes(&self, dtype: ElementType) -> u32 {
        self.box_inner * self.box_rows * dtype.smem_bytes()
    }
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

fn major_name(m: Major) -> &'static str {
    match m {
        Major::K => "K",
        Major::Mn => "MN",
    }
}

fn order_name(o: Order) -> &'static str {
    match o {
        Order::MnFirst => "mnfirst",
        Order::KFirst => "kfirst",
    }
}

fn dtype_name(d: ElementType) -> &'static str {
    match d {
        ElementType::BF16 => "bf16",
        ElementType::E4M3 => "e4m3",
        ElementType::TF32 => "tf32",
        _ => "other",
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
                dtype_name(dtype),
                major_name(a.major),
                swz_name(a.swizzle),
                order_name(a.order)
            )
        } else {
            format!(
                "{}_A{}_{}_{}_B{}_{}_{}",
                dtype_name(dtype),
                major_name(a.major),
                swz_name(a.swizzle),
                order_name(a.order),
                major_name(b.major),
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

/// Tensor-map coordinates (c0 innermost, c1) of tile element (mn, k) for a major-ness.
pub fn tma_coords(major: Major, mn: u32, k: u32) -> (u32, u32) {
    match major {
        Major::K => (k, mn),
        Major::Mn => (mn, k),
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

/// Total bytes TMA delivers for all stages of both operands.
pub fn check_tx_bytes(c: &BuiltClass) -> u32 {
    let d = c.cfg.dtype;
    let a = c.a.tma.boxes.len() as u32 * c.a.tma.box_bytes(d);
    let b = c.b.tma.boxes.len() as u32 * c.b.tma.box_bytes(d);
    (a + b) * CHECK_STAGES
}

fn join<T: std::fmt::Display>(v: impl IntoIterator<Item = T>) -> String {
    let mut s = String::new();
    for (i, x) in v.into_iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        if i > 0 && i % 8 == 0 {
            s.push_str("\n    ");
        }
        write!(s, "{x}").unwrap();
    }
    s
}

/// A wgmma wrapper `name(float (&d)[n/2], u64 desc_a, u64 desc_b, int scale_d)` (template over the
/// transpose immediates when `trans`).
pub fn wgmma_wrapper(name: &str, n: u32, k: u32, ty: &str, trans: bool) -> String {
    let regs = n / 2;
    let mut s = String::new();
    if trans {
        s.push_str("template <int TA, int TB>\n");
    }
    writeln!(
        s,
        "__device__ __forceinline__ void {name}(float (&d)[{regs}], u64 da, u64 db, int scale_d) {{"
    )
    .unwrap();
    let dl = join((0..regs).map(|i| format!("%{i}")));
    let tail = if trans {
        format!(", %{}, %{}", regs + 3, regs + 4)
    } else {
        String::new()
    };
    writeln!(
        s,
        "  asm volatile(\"{{ .reg .pred p; setp.ne.b32 p, %{sc}, 0; \"\n  \"wgmma.mma_async.sync.aligned.m64n{n}k{k}.f32.{ty}.{ty} \"\n  \"{{{dl}}}, %{a}, %{b}, p, 1, 1{tail}; }}\"",
        sc = regs + 2,
        a = regs,
        b = regs + 1,
        dl = dl.replace('\n', "\"\n  \""),
    )
    .unwrap();
    let outs = join((0..regs).map(|i| format!("\"+f\"(d[{i}])")));
    let mut ins = String::from("\"l\"(da), \"l\"(db), \"r\"(scale_d)");
    if trans {
        ins.push_str(", \"n\"(TA), \"n\"(TB)");
    }
    writeln!(s, "  : {outs}\n  : {ins}\n  : \"memory\");\n}}").unwrap();
    s
}

/// wgmma wrappers used by the check kernels.
pub fn check_wrappers() -> String {
    let mut s = String::new();
    s.push_str(&wgmma_wrapper("wgmma_m64n64_bf16", 64, 16, "bf16", true));
    s.push_str(&wgmma_wrapper("wgmma_m64n64_e4m3", 64, 32, "e4m3", false));
    s.push_str(&wgmma_wrapper("wgmma_m64n64_tf32", 64, 8, "tf32", false));
    s
}

fn operand_tables(s: &mut String, tag: &str, op: &BuiltOperand, major: Major) {
    writeln!(
        s,
        "// {tag}: lbo {} B, sbo {} B, layout type {}, stage {} B, {} boxes/stage of {} x {} ({})",
        op.tile.lbo(),
        op.tile.sbo(),
        op.tile.layout_type(),
        op.tile.stage_bytes(),
        op.tma.boxes.len(),
        op.tma.box_rows,
        op.tma.box_inner,
        op.tma.source
    )
    .unwrap();
    writeln!(
        s,
        "__device__ const u64 {tag}_desc[] = {{\n    {}}};",
        join(op.desc0.iter().map(|d| format!("0x{d:016x}ull")))
    )
    .unwrap();
    writeln!(
        s,
        "__device__ const u32 {tag}_off[] = {{\n    {}}};",
        join(op.tma.boxes.iter().map(|b| b.0))
    )
    .unwrap();
    let c: Vec<(u32, u32)> = op
        .tma
        .boxes
        .iter()
        .map(|&(_, mn, k)| tma_coords(major, mn, k))
        .collect();
    writeln!(
        s,
        "__device__ const u32 {tag}_c0[] = {{\n    {}}};",
        join(c.iter().map(|x| x.0))
    )
    .unwrap();
    writeln!(
        s,
        "__device__ const u32 {tag}_c1[] = {{\n    {}}};",
        join(c.iter().map(|x| x.1))
    )
    .unwrap();
}

fn operand_init(tag: &str, op: &BuiltOperand, major: Major) -> String {
    let k_dim = match major {
        Major::K => 0,
        Major::Mn => 1,
    };
    format!(
        "{{{tag}_desc, {}u, {}u, {}u, {}u, {tag}_off, {tag}_c0, {tag}_c1, {k_dim}u, {}u}}",
        op.tile.mmas_mn(),
        op.tile.stage_bytes(),
        region_bytes(&op.tile),
        op.tma.boxes.len(),
        op.tile.spec().tile_k
    )
}

/// The generated part of the check program: per class, smemdesc's tables and one kernel
/// `check_<index>`.
pub fn check_header(classes: &[BuiltClass]) -> String {
    let mut s = String::from("// GENERATED by smemdesc-gpu from smemdesc-core. Do not edit.\n");
    for (i, c) in classes.iter().enumerate() {
        writeln!(s, "\n// ---- class {i}: {}", c.cfg.name).unwrap();
        operand_tables(&mut s, &format!("c{i}_a"), &c.a, c.cfg.a.major);
        operand_tables(&mut s, &format!("c{i}_b"), &c.b, c.cfg.b.major);
        let ta = u32::from(c.cfg.a.major == Major::Mn);
        let tb = u32::from(c.cfg.b.major == Major::Mn);
        writeln!(
            s,
            "extern \"C\" __global__ void __launch_bounds__(128, 1) check_{i}(const __grid_constant__ TmaMap ta, \
             const __grid_constant__ TmaMap tb, float* out, u64* dbg) {{\n  \
             const CheckTables t = {{{}, {}, {}u, {}u, {}u, {}u, {}u, {}u}};\n  \
             check_body<{}, {ta}, {tb}>(&ta, &tb, out, dbg, t);\n}}",
            operand_init(&format!("c{i}_a"), &c.a, c.cfg.a.major),
            operand_init(&format!("c{i}_b"), &c.b, c.cfg.b.major),
            c.a.tile.mmas_k(),
            CHECK_STAGES,
            check_tx_bytes(c),
            c.b.tile.spec().tile_mn,
            c.cfg.smem_offset,
            u32::from(c.cfg.placement == Placement::Relative),
            kind_of(c.cfg.dtype),
        )
        .unwrap();
    }
    s
}

/// The GEMM's smemdesc declarations and everything derived from them.
#[derive(Clone, Debug)]
pub struct GemmPlan {
    /// A tile (BM x BK, K-major).
    pub a: BuiltOperand,
    /// B tile (BN x BK, K-major).
    pub b: BuiltOperand,
    /// B tile with half-height TMA boxes (cluster multicast variant).
    pub bh: BuiltOperand,
    /// CTA tile M.
    pub bm: u32,
    /// CTA tile N.
    pub bn: u32,
    /// CTA tile K.
    pub bk: u32,
    /// Pipeline stages.
    pub stages: u32,
    /// Consumer warpgroups (one per A subtile along M).
    pub consumers: u32,
    /// wgmma N.
    pub mma_n: u32,
}

/// The GEMM's A tile: 128 x 64 bf16, K-major, 128B swizzle, 4 stages (a `#[smem_tile]` declaration:
/// every number the GEMM kernel uses for A comes from its constants).
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, swizzle = 128B,
            order = mn_first, mma = m64n256k16, stages = 4)]
pub struct GemmTileA;

/// The GEMM's B tile: 256 x 64 bf16, K-major, 128B swizzle, 4 stages.
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, swizzle = 128B,
            order = mn_first, mma = m64n256k16, stages = 4)]
pub struct GemmTileB;

/// The B tile again, with smemdesc's TMA plan asked for boxes of half the rows (BN / 2 x 64): the
/// cluster variant's two CTAs each load one half and multicast it to both.
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, swizzle = 128B,
            order = mn_first, mma = m64n256k16, stages = 4, tma_box = (128, 64))]
pub struct GemmTileBHalf;

/// The wgmma instruction of the GEMM (from the declarations).
pub const GEMM_MMA: MmaShape = GemmTileA::PLAN.mma;
/// Plan of [`GemmTileA`].
pub const GEMM_A: TilePlan = GemmTileA::PLAN;
/// Plan of [`GemmTileB`].
pub const GEMM_B: TilePlan = GemmTileB::PLAN;
/// Plan of [`GemmTileBHalf`].
pub const GEMM_B_HALF: TilePlan = GemmTileBHalf::PLAN;

fn built_gemm_operand(p: &TilePlan) -> BuiltOperand {
    let tile = p.tile;
    let st = tile.spec();
    let mut desc0 = Vec::new();
    for s in 0..st.stages {
        for k in 0..tile.mmas_k() {
            for i in 0..tile.mmas_mn() {
                desc0.push(tile.desc(0, i, k, s));
            }
        }
    }
    BuiltOperand {
        tma: box_plan(p),
        tile,
        desc0,
    }
}

/// The GEMM plan from the smemdesc declarations.
pub fn gemm_plan() -> GemmPlan {
    let a = built_gemm_operand(&GEMM_A);
    let b = built_gemm_operand(&GEMM_B);
    let bh = built_gemm_operand(&GEMM_B_HALF);
    assert_eq!(bh.tile, b.tile, "same tile, only the TMA boxes differ");
    assert_eq!(bh.tma.boxes.len(), 2, "one B half per cluster CTA");
    let sa = a.tile.spec();
    let sb = b.tile.spec();
    assert_eq!(sa.tile_k, sb.tile_k);
    assert_eq!(sa.stages, sb.stages);
    assert_eq!(a.tile.mmas_k(), b.tile.mmas_k());
    assert_eq!(b.tile.mmas_mn(), 1, "one wgmma covers the B tile");
    GemmPlan {
        consumers: a.tile.mmas_mn(),
        bm: sa.tile_mn,
        bn: sb.tile_mn,
        bk: sa.tile_k,
        stages: sa.stages,
        mma_n: GEMM_B.mma.n,
        a,
        b,
        bh,
    }
}

impl GemmPlan {
    /// TMA bytes per stage.
    pub fn tx_bytes(&self) -> u32 {
        let d = ElementType::BF16;
        self.a.tma.boxes.len() as u32 * self.a.tma.box_bytes(d)
            + self.b.tma.boxes.len() as u32 * self.b.tma.box_bytes(d)
    }

    /// Columns of C that one consumer warp stages in SMEM at a time in the epilogue.
    pub const EPI_COLS: u32 = 64;

    /// Row pitch of a warp's epilogue staging buffer: `EPI_COLS` bf16 plus 16 bytes of padding, so
    /// the accumulator fragment's 4-byte writes (8 rows x 4 words per warp) hit 32 distinct banks.
    pub fn epi_pitch(&self) -> u32 {
        Self::EPI_COLS * 2 + 16
    }

    /// Epilogue staging: one 16-row buffer per consumer warp (not operand tiles, no descriptors).
    pub fn epi_bytes(&self) -> u32 {
        self.consumers * 4 * 16 * self.epi_pitch()
    }

    /// Dynamic shared memory.
    pub fn smem_bytes(&self) -> u32 {
        1024 + region_bytes(&self.a.tile)
            + region_bytes(&self.b.tile)
            + 16 * self.stages
            + self.epi_bytes()
    }

    /// Threads per CTA.
    pub fn threads(&self) -> u32 {
        128 * (self.consumers + 1)
    }

    /// The generated GEMM header.
    pub fn header(&self) -> String {
        let mut s = String::from("// GENERATED by smemdesc-gpu from smemdesc-core. Do not edit.\n");
        s.push_str(&wgmma_wrapper(
            &format!("wgmma_m64n{}_bf16", self.mma_n),
            self.mma_n,
            GEMM_MMA.k,
            "bf16",
            true,
        ));
        let defs = [
            ("G_BM", self.bm),
            ("G_BN", self.bn),
            ("G_BK", self.bk),
            ("G_STAGES", self.stages),
            ("G_CONSUMERS", self.consumers),
            ("G_MMA_N", self.mma_n),
            ("G_MMAS_K", self.a.tile.mmas_k()),
            ("G_A_MMAS_MN", self.a.tile.mmas_mn()),
            ("G_B_MMAS_MN", self.b.tile.mmas_mn()),
            ("G_A_STAGE_BYTES", self.a.tile.stage_bytes()),
            ("G_B_STAGE_BYTES", self.b.tile.stage_bytes()),
            ("G_A_REGION", region_bytes(&self.a.tile)),
            ("G_B_REGION", region_bytes(&self.b.tile)),
            ("G_A_BOXES", self.a.tma.boxes.len() as u32),
            ("G_B_BOXES", self.b.tma.boxes.len() as u32),
            ("G_TX_BYTES", self.tx_bytes()),
            ("G_EPI_COLS", Self::EPI_COLS),
            ("G_EPI_PITCH", self.epi_pitch()),
        ];
        for (k, v) in defs {
            writeln!(s, "#define {k} {v}").unwrap();
        }
        writeln!(s, "#define G_WGMMA wgmma_m64n{}_bf16<0, 0>", self.mma_n).unwrap();
        for (tag, op) in [("G_A", &self.a), ("G_B", &self.b), ("G_BH", &self.bh)] {
            writeln!(
                s,
                "// {tag}: lbo {} B, sbo {} B, layout type {}, {} boxes of {} x {} per stage",
                op.tile.lbo(),
                op.tile.sbo(),
                op.tile.layout_type(),
                op.tma.boxes.len(),
                op.tma.box_rows,
                op.tma.box_inner
            )
            .unwrap();
            writeln!(
                s,
                "__constant__ u64 {tag}_DESC[] = {{\n    {}}};",
                join(op.desc0.iter().map(|d| format!("0x{d:016x}ull")))
            )
            .unwrap();
            writeln!(
                s,
                "__constant__ u32 {tag}_BOX_OFF[] = {{{}}};",
                join(op.tma.boxes.iter().map(|b| b.0))
            )
            .unwrap();
            writeln!(
                s,
                "__constant__ int {tag}_BOX_C0[] = {{{}}};",
                join(op.tma.boxes.iter().map(|b| b.2))
            )
            .unwrap();
            writeln!(
                s,
                "__constant__ int {tag}_BOX_C1[] = {{{}}};",
                join(op.tma.boxes.iter().map(|b| b.1))
            )
            .unwrap();
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Simulates TMA: every box row lands at box offset + row * row bytes, swizzled on the
    /// (aligned) address; the union must be every tile element exactly once, where smemdesc's
    /// `byte_offset` puts it.
    fn check_boxes(tile: &TileLayout, plan: &BoxPlan) {
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

    #[test]
    fn gemm_plan_is_the_classic_shape() {
        let g = gemm_plan();
        assert_eq!(
            (g.bm, g.bn, g.bk, g.stages, g.consumers),
            (128, 256, 64, 4, 2)
        );
        assert!(g.smem_bytes() <= 227 * 1024);
        assert_eq!(g.bn % GemmPlan::EPI_COLS, 0);
        assert_eq!(g.epi_pitch() % 16, 0);
        check_boxes(&g.a.tile, &g.a.tma);
        check_boxes(&g.b.tile, &g.b.tma);
        assert_eq!(g.tx_bytes(), (128 + 256) * 64 * 2);
        let h = g.header();
        assert!(h.contains("m64n256k16.f32.bf16.bf16"));
    }

    #[test]
    fn header_mentions_every_class() {
        let built: Vec<_> = classes().iter().map(|c| c.build().unwrap()).collect();
        let h = check_header(&built);
        for i in 0..built.len() {
            assert!(h.contains(&format!("void __launch_bounds__(128, 1) check_{i}(")));
        }
        let w = check_wrappers();
        assert!(w.contains("m64n64k8.f32.tf32.tf32"));
        assert!(w.contains("%31}, %32, %33, p, 1, 1, %35, %36;"));
    }
}
