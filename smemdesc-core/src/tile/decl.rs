//! One declaration → one validated plan: the validation model shared by the macro, the CLI and
//! `const` users. Every legality rule (instruction shapes, TMA, the swizzle
//! selector, the illegal combinations) is applied here, in the order a kernel author
//! reads a declaration (architecture, types, instruction, layout, budget, TMA).

use crate::base::arch::{Arch, Major, Order};
use crate::base::dtype::ElementType;
use crate::base::error::Error;
use crate::base::swizzle::SwizzleMode;
use crate::mma::shape::{check_mma_shape, check_mn_major, MmaKind, MmaShape, Operand};
use crate::tile::smem_form::SmemForm;
use crate::tile::spec::{select_swizzle, TileLayout, TileSpec};
use crate::tile::tma_plan::TmaPlan;

/// Everything a kernel author declares about one operand tile (the arguments of `#[smem_tile]`).
///
/// Optional parts default as follows: `swizzle` — the CUTLASS selector ([`select_swizzle`]; on
/// sm100 an MN-major 32-bit operand gets `128B_base32B`); `order` — the TMA-friendly one (K-major
/// `mn_first`, MN-major `k_first`), so a TMA box covers a whole column of atoms; `mma` — A: M = 64
/// (sm90) or the largest legal M ≤ the tile (sm100), N = 256 (or less to fit); B: N = the tile's N,
/// M = 64/128; `kind` — the dense kind of the element type; `stages` — 1; `cta_group` — 1.
///
/// ```
/// use smemdesc_core::*;
/// const A: TilePlan = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 128, 64)
///     .mma(MmaShape::new(64, 256, 16))
///     .stages(4)
///     .expect_valid();
/// assert_eq!(A.tile.swizzle_mode(), SwizzleMode::B128);
/// assert_eq!((A.tma.box_rows, A.tma.box_inner, A.tma.boxes), (128, 64, 1));
/// assert_eq!(A.tile.bytes(), 4 * 128 * 64 * 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TileDecl {
    /// Target architecture.
    pub arch: Arch,
    /// A or B.
    pub operand: Operand,
    /// Element type.
    pub dtype: ElementType,
    /// Contiguous dimension.
    pub major: Major,
    /// Tile extent along M (A) or N (B), elements.
    pub tile_mn: u32,
    /// Tile extent along K, elements.
    pub tile_k: u32,
    /// Swizzle mode (`None` = auto).
    pub swizzle: Option<SwizzleMode>,
    /// Atom stacking order (`None` = TMA-friendly default).
    pub order: Option<Order>,
    /// Instruction shape (`None` = default for the operand).
    pub mma: Option<MmaShape>,
    /// Only the operand's own extent of the instruction, per CTA (A: M, B: N), the rest defaulted;
    /// ignored when `mma` is given.
    pub mma_mn: Option<u32>,
    /// MMA kind (`None` = the element type's dense kind).
    pub kind: Option<MmaKind>,
    /// Pipeline stages.
    pub stages: u32,
    /// Explicit TMA box `(rows, inner elements)`.
    pub tma_box: Option<(u32, u32)>,
    /// CTA group (sm100: 1 or 2).
    pub cta_group: u32,
}

/// A validated declaration: the tile layout, its TMA plan and the instruction it feeds.
///
/// ```
/// use smemdesc_core::*;
/// let p = TileDecl::new(Arch::Sm100, Operand::B, ElementType::E4M3, Major::K, 256, 128).build().unwrap();
/// assert_eq!(p.mma.n, 256);
/// assert_eq!(p.tile.mmas_mn(), 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TilePlan {
    /// The declaration, with every default resolved.
    pub decl: TileDecl,
    /// The SMEM layout, descriptors and advance tables.
    pub tile: TileLayout,
    /// The TMA boxes that write the layout.
    pub tma: TmaPlan,
    /// The MMA instruction shape.
    pub mma: MmaShape,
    /// The MMA kind.
    pub kind: MmaKind,
}

impl TileDecl {
    /// A declaration with every optional part at its default.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let d = TileDecl::new(Arch::Sm90, Operand::A, ElementType::F16, Major::Mn, 64, 64);
    /// assert_eq!((d.stages, d.cta_group, d.order), (1, 1, None));
    /// ```
    pub const fn new(
        arch: Arch,
        operand: Operand,
        dtype: ElementType,
        major: Major,
        tile_mn: u32,
        tile_k: u32,
    ) -> TileDecl {
        TileDecl {
            arch,
            operand,
            dtype,
            major,
            tile_mn,
            tile_k,
            swizzle: None,
            order: None,
            mma: None,
            mma_mn: None,
            kind: None,
            stages: 1,
            tma_box: None,
            cta_group: 1,
        }
    }

    /// Sets the swizzle mode.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let d = TileDecl::new(Arch::Sm90, Operand::A, ElementType::F16, Major::K, 64, 64).swizzle(SwizzleMode::B32);
    /// assert_eq!(d.swizzle, Some(SwizzleMode::B32));
    /// ```
    pub const fn swizzle(mut self, swizzle: SwizzleMode) -> TileDecl {
        self.swizzle = Some(swizzle);
        self
    }

    /// Sets the stacking order.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let d = TileDecl::new(Arch::Sm90, Operand::A, ElementType::F16, Major::K, 64, 64).order(Order::KFirst);
    /// assert_eq!(d.order, Some(Order::KFirst));
    /// ```
    pub const fn order(mut self, order: Order) -> TileDecl {
        self.order = Some(order);
        self
    }

    /// Sets the instruction shape.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let d = TileDecl::new(Arch::Sm90, Operand::A, ElementType::F16, Major::K, 64, 64).mma(MmaShape::new(64, 64, 16));
    /// assert_eq!(d.mma.unwrap().n, 64);
    /// ```
    pub const fn mma(mut self, mma: MmaShape) -> TileDecl {
        self.mma = Some(mma);
        self
    }

    /// Sets only the operand's own instruction extent per CTA — M for A, N for B (halved with
    /// `cta_group = 2`) — and leaves the other dimensions and K at their defaults. This is the one
    /// dimension the operand's layout depends on; [`mma`](Self::mma), if also given, wins.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let p = TileDecl::new(Arch::Sm90, Operand::B, ElementType::BF16, Major::K, 256, 64).mma_mn(128).build().unwrap();
    /// assert_eq!((p.mma.n, p.tile.mmas_mn()), (128, 2));
    /// let p = TileDecl::new(Arch::Sm100, Operand::A, ElementType::BF16, Major::K, 128, 64)
    ///     .cta_group(2).mma_mn(128).build().unwrap();
    /// assert_eq!(p.mma.m, 256); // the CTA pair's M
    /// ```
    pub const fn mma_mn(mut self, mn: u32) -> TileDecl {
        self.mma_mn = Some(mn);
        self
    }

    /// Sets the MMA kind (sm100 block-scaled kinds).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let d = TileDecl::new(Arch::Sm100, Operand::A, ElementType::E4M3, Major::K, 128, 128).kind(MmaKind::Mxf8f6f4);
    /// assert_eq!(d.kind, Some(MmaKind::Mxf8f6f4));
    /// ```
    pub const fn kind(mut self, kind: MmaKind) -> TileDecl {
        self.kind = Some(kind);
        self
    }

    /// Sets the number of pipeline stages.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(TileDecl::new(Arch::Sm90, Operand::A, ElementType::F16, Major::K, 64, 64).stages(3).stages, 3);
    /// ```
    pub const fn stages(mut self, stages: u32) -> TileDecl {
        self.stages = stages;
        self
    }

    /// Requests an explicit TMA box of `rows × inner` elements.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let d = TileDecl::new(Arch::Sm90, Operand::A, ElementType::F16, Major::K, 64, 64).tma_box(64, 64);
    /// assert_eq!(d.tma_box, Some((64, 64)));
    /// ```
    pub const fn tma_box(mut self, rows: u32, inner: u32) -> TileDecl {
        self.tma_box = Some((rows, inner));
        self
    }

    /// Sets the CTA group (sm100).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(TileDecl::new(Arch::Sm100, Operand::A, ElementType::F16, Major::K, 64, 64).cta_group(2).cta_group, 2);
    /// ```
    pub const fn cta_group(mut self, cta_group: u32) -> TileDecl {
        self.cta_group = cta_group;
        self
    }

    /// The default instruction shape for this declaration.
    const fn default_mma(&self) -> MmaShape {
        let kind = match self.kind {
            Some(k) => k,
            None => MmaKind::of(self.dtype),
        };
        // 32 bytes of K in the kind's SMEM form (64 for packed fp4).
        let k = SmemForm::of(self.dtype, kind).values_in(self.dtype, 32);
        let cg = self.cta_group;
        let mut m = match self.arch.generation() {
            Arch::Sm90 => 64,
            _ => {
                if cg == 2 {
                    256
                } else {
                    128
                }
            }
        };
        let n = match self.operand {
            // A's layout does not depend on N; 256 is legal for every kind and CTA group.
            Operand::A => 256,
            // B: one instruction covers the CTA's (pair's) whole tile when it can.
            Operand::B => {
                if self.tile_mn <= 256 / cg {
                    self.tile_mn * cg
                } else {
                    256
                }
            }
        };
        if let (Operand::A, Arch::Sm100) = (self.operand, self.arch.generation()) {
            // Largest legal M whose per-CTA share divides the tile.
            while m > 64 && self.tile_mn % (m / cg) != 0 {
                m /= 2;
            }
        }
        MmaShape::new(m, n, k)
    }

    /// Validates the declaration. The first rule broken is reported; see [`Error::argument`] for the
    /// argument it concerns.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let e = TileDecl::new(Arch::Sm90, Operand::A, ElementType::E4M3, Major::Mn, 128, 64).build();
    /// assert_eq!(e.unwrap_err(), Error::MnMajorForbidden { arch: Arch::Sm90, dtype: ElementType::E4M3 });
    /// ```
    pub const fn build(self) -> Result<TilePlan, Error> {
        let mut d = self;
        if let Some(gap) = d.arch.gap() {
            return Err(Error::ArchRefused { arch: d.arch, gap });
        }
        if d.stages == 0 {
            return Err(Error::ZeroStages);
        }
        if d.cta_group == 0
            || d.cta_group > 2
            || (d.cta_group == 2 && matches!(d.arch.generation(), Arch::Sm90))
        {
            return Err(Error::CtaGroupInvalid {
                arch: d.arch,
                cta_group: d.cta_group,
            });
        }
        if matches!(d.arch.generation(), Arch::Sm90) && d.dtype.bits() < 8 {
            return Err(Error::DtypeNotOnArch {
                dtype: d.dtype,
                arch: d.arch,
            });
        }
        let kind = match d.kind {
            Some(k) => k,
            None => MmaKind::of(d.dtype),
        };
        if !kind.on(d.arch) {
            return Err(Error::KindNotOnArch { kind, arch: d.arch });
        }
        if !kind.accepts(d.dtype) {
            return Err(Error::DtypeKindMismatch {
                dtype: d.dtype,
                kind,
            });
        }
        let form = SmemForm::of(d.dtype, kind);
        let vpc = form.values_per_cell();
        if d.tile_mn == 0 {
            return Err(Error::ZeroExtent {
                dim: crate::base::error::Dim::Mn,
            });
        }
        if d.tile_k == 0 {
            return Err(Error::ZeroExtent {
                dim: crate::base::error::Dim::K,
            });
        }
        tri!(crate::tile::spec::check_size(
            &TileSpec::new(d.arch, d.dtype, d.major, d.tile_mn, d.tile_k)
                .stages(d.stages)
                .form(form)
        ));
        // Swizzle: resolve auto, then check it exists on the arch.
        let contiguous = match d.major {
            Major::K => d.tile_k,
            Major::Mn => d.tile_mn,
        };
        let swizzle = match d.swizzle {
            Some(s) => s,
            // K = 96 packed fp4: 48-byte K blocks are laid out without swizzle (`SmemForm`).
            None if matches!(form, SmemForm::Packed)
                && matches!(d.mma, Some(MmaShape { k: 96, .. })) =>
            {
                SwizzleMode::None
            }
            None => {
                if matches!(d.arch.generation(), Arch::Sm100)
                    && matches!(d.major, Major::Mn)
                    && d.dtype.smem_bits() == 32
                {
                    SwizzleMode::B128Base32B
                } else {
                    match select_swizzle(d.dtype, contiguous / vpc) {
                        Ok(s) => s,
                        Err(_) => {
                            return Err(Error::ContiguousNotMultipleOf16B {
                                dim: match d.major {
                                    Major::K => crate::base::error::Dim::K,
                                    Major::Mn => crate::base::error::Dim::Mn,
                                },
                                extent: contiguous,
                                bytes: contiguous * d.dtype.smem_bytes() / vpc,
                                elems_per_16b: form.values_per_16_bytes(d.dtype),
                            })
                        }
                    }
                }
            }
        };
        if crate::layout::descriptor::layout_type_code(d.arch, swizzle).is_none() {
            return Err(Error::SwizzleNotOnArch {
                swizzle,
                arch: d.arch,
            });
        }
        if let Major::Mn = d.major {
            tri!(check_mn_major(d.arch, d.dtype, kind, swizzle));
        } else if let SwizzleMode::B128Base32B = swizzle {
            return Err(Error::SwizzleNotForOperand {
                swizzle,
                major: d.major,
                dtype: d.dtype,
            });
        }
        let mma = match (d.mma, d.mma_mn) {
            (Some(m), _) => m,
            (None, Some(mn)) => {
                let def = d.default_mma();
                let whole = mn.saturating_mul(d.cta_group);
                match d.operand {
                    Operand::A => MmaShape::new(whole, def.n, def.k),
                    Operand::B => MmaShape::new(def.m, whole, def.k),
                }
            }
            (None, None) => d.default_mma(),
        };
        let b_major = match d.operand {
            Operand::B => d.major,
            Operand::A => Major::K,
        };
        tri!(check_mma_shape(
            d.arch,
            d.dtype,
            kind,
            mma,
            d.cta_group,
            b_major
        ));
        let order = match d.order {
            Some(o) => o,
            None => match d.major {
                Major::K => Order::MnFirst,
                Major::Mn => Order::KFirst,
            },
        };
        let spec = TileSpec::new(d.arch, d.dtype, d.major, d.tile_mn, d.tile_k)
            .swizzle(swizzle)
            .order(order)
            .mma_mn(mma.operand_mn(d.operand, d.cta_group))
            .stages(d.stages)
            .form(form)
            .mma_k_bytes(mma.k * d.dtype.smem_bytes() / vpc);
        let tile = match spec.build() {
            Ok(t) => t,
            // A suggested narrower swizzle must be legal for the whole declaration.
            Err(e) => return Err(crate::tile::advice::advise_decl(d, swizzle, e)),
        };
        let tma = tri!(TmaPlan::new(&tile, d.tma_box));
        d.swizzle = Some(swizzle);
        d.order = Some(order);
        d.mma = Some(mma);
        d.kind = Some(kind);
        Ok(TilePlan {
            decl: d,
            tile,
            tma,
            mma,
            kind,
        })
    }

    /// [`build`](Self::build) for `const` items: a compile-time panic with the error's summary.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// const B: TilePlan = TileDecl::new(Arch::Sm90, Operand::B, ElementType::BF16, Major::K, 256, 64)
    ///     .stages(4).expect_valid();
    /// assert_eq!(B.mma.n, 256);
    /// ```
    pub const fn expect_valid(self) -> TilePlan {
        match self.build() {
            Ok(p) => p,
            Err(e) => panic!("{}", e.summary()),
        }
    }
}

impl TilePlan {
    /// Byte offset of TMA box `b` inside one stage (see [`TmaPlan::box_offset`]).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let p = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 64, 128).build().unwrap();
    /// assert_eq!(p.box_offset(1), 8192);
    /// ```
    pub const fn box_offset(&self, b: u32) -> u32 {
        self.tma.box_offset(&self.tile, b)
    }

    /// Tile coordinates `(mn0, k0)` of TMA box `b` (see [`TmaPlan::box_coord`]).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let p = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 64, 128).build().unwrap();
    /// assert_eq!(p.box_coord(1), (0, 64));
    /// ```
    pub const fn box_coord(&self, b: u32) -> (u32, u32) {
        self.tma.box_coord(b)
    }
}
