//! Each error variant, triggered the way a kernel author would trigger it, with its message (and
//! the rule it ends with) checked.

use smemdesc::core::*;

fn a(arch: Arch, dtype: ElementType, major: Major, mn: u32, k: u32) -> TileDecl {
    TileDecl::new(arch, Operand::A, dtype, major, mn, k)
}
fn bf16_a() -> TileDecl {
    a(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).mma(MmaShape::new(64, 256, 16))
}
/// Builds, expects an error, checks the variant with `pat` and that the message holds every `texts`.
macro_rules! rejects {
    ($decl:expr, $pat:pat, $arg:expr, [$($text:expr),+ $(,)?]) => {{
        let e = $decl.build().expect_err("must be rejected");
        assert!(matches!(e, $pat), "wrong variant: {e:?}");
        assert_eq!(e.argument(), $arg, "argument of {e:?}");
        let msg = e.to_string();
        $(assert!(msg.contains($text), "message {msg:?} lacks {:?}", $text);)+
        assert!(!e.summary().is_empty());
        // The message ends with its rule: id and source, a rule of the table.
        let rule = e.rule();
        assert!(msg.ends_with(&format!(" [rule {}; {}]", rule.id, rule.source)), "{msg}");
        assert_eq!(smemdesc::core::rules::find(rule.id), Some(rule));
    }};
}

#[test]
fn stages() {
    rejects!(
        bf16_a().stages(0),
        Error::ZeroStages,
        Argument::Stages,
        ["at least 1"]
    );
    rejects!(
        bf16_a().stages(15),
        Error::SmemBudget {
            stages: 15,
            stage_bytes: 16384,
            limit: 232448,
            ..
        },
        Argument::Stages,
        ["15 stages x 16384 B", "232448 B", "at most 14 stages"]
    );
}

#[test]
fn extents() {
    rejects!(
        a(Arch::Sm90, ElementType::BF16, Major::K, 0, 64),
        Error::ZeroExtent { dim: Dim::Mn },
        Argument::TileMn,
        ["MN extent is 0"]
    );
    rejects!(
        a(Arch::Sm90, ElementType::BF16, Major::K, 128, 20),
        Error::ContiguousNotMultipleOf16B {
            extent: 20,
            bytes: 40,
            elems_per_16b: 8,
            ..
        },
        Argument::TileK,
        [
            "K extent 20 (40 B) is not a multiple of the 16 B chunk",
            "multiples of 8 elements"
        ]
    );
    rejects!(
        a(Arch::Sm90, ElementType::BF16, Major::K, 128, 96).swizzle(SwizzleMode::B128),
        Error::TileNotWholeAtoms {
            dim: Dim::K,
            extent: 96,
            atom_extent: 64,
            ..
        },
        Argument::TileK,
        [
            "not a whole number of swizzle atoms",
            "multiple of 64",
            "narrower swizzle"
        ]
    );
    rejects!(
        TileDecl::new(Arch::Sm90, Operand::B, ElementType::BF16, Major::K, 96, 64)
            .mma(MmaShape::new(64, 64, 16)),
        Error::TileNotWholeMmas {
            dim: Dim::Mn,
            extent: 96,
            mma_extent: 64
        },
        Argument::TileMn,
        ["not a whole number of MMA subtiles of 64"]
    );
    rejects!(
        a(Arch::Sm100, ElementType::E4M3, Major::Mn, 128, 128)
            .swizzle(SwizzleMode::B128)
            .mma(MmaShape::new(64, 128, 32)),
        Error::MmaNarrowerThanAtom {
            mma_mn: 64,
            atom_mn: 128,
            ..
        },
        Argument::Mma,
        ["narrower than one 128B swizzle atom (128 elements)"]
    );
}

#[test]
fn swizzles_and_majors() {
    rejects!(
        a(Arch::Sm90, ElementType::TF32, Major::K, 128, 32).swizzle(SwizzleMode::B128Base32B),
        Error::SwizzleNotOnArch {
            arch: Arch::Sm90,
            ..
        },
        Argument::Swizzle,
        [
            "128B_base32B does not exist on sm90",
            "none, 32B, 64B, 128B"
        ]
    );
    rejects!(
        a(Arch::Sm100, ElementType::BF16, Major::Mn, 128, 64).swizzle(SwizzleMode::B128Base32B),
        Error::SwizzleNotForOperand { .. },
        Argument::Swizzle,
        ["MN-major tf32 only"]
    );
    rejects!(
        a(Arch::Sm90, ElementType::E4M3, Major::Mn, 128, 128),
        Error::MnMajorForbidden {
            arch: Arch::Sm90,
            dtype: ElementType::E4M3
        },
        Argument::Major,
        ["does not allow MN-major", "use major = K", "f16/bf16"]
    );
}

#[test]
fn instruction_shapes() {
    rejects!(
        bf16_a().mma(MmaShape::new(64, 256, 32)),
        Error::MmaKNot32Bytes {
            k: 32,
            expected: 16,
            ..
        },
        Argument::Mma,
        ["K = 32 is 64 B of bf16", "use K = 16"]
    );
    rejects!(
        bf16_a().mma(MmaShape::new(128, 256, 16)),
        Error::IllegalMmaM { m: 128, .. },
        Argument::Mma,
        ["legal M: 64"]
    );
    rejects!(
        bf16_a().mma(MmaShape::new(64, 260, 16)),
        Error::IllegalMmaN { n: 260, .. },
        Argument::Mma,
        ["legal N: 8..=256 in steps of 8"]
    );
    rejects!(
        a(Arch::Sm100, ElementType::BF16, Major::K, 128, 64)
            .cta_group(2)
            .mma(MmaShape::new(64, 128, 16)),
        Error::IllegalMmaM {
            m: 64,
            cta_group: 2,
            ..
        },
        Argument::Mma,
        ["legal M: 128, 256"]
    );
    rejects!(
        bf16_a().cta_group(2),
        Error::CtaGroupInvalid { cta_group: 2, .. },
        Argument::CtaGroup,
        ["legal: 1"]
    );
    rejects!(
        a(Arch::Sm90, ElementType::E2M1, Major::K, 128, 128),
        Error::DtypeNotOnArch { .. },
        Argument::Dtype,
        ["sm90 has no e2m1 MMA"]
    );
    rejects!(
        a(Arch::Sm90, ElementType::E4M3, Major::K, 128, 128).kind(MmaKind::Mxf8f6f4),
        Error::KindNotOnArch { .. },
        Argument::Kind,
        ["kind mxf8f6f4 does not exist on sm90"]
    );
    rejects!(
        a(Arch::Sm100, ElementType::E4M3, Major::K, 128, 128).kind(MmaKind::F16),
        Error::DtypeKindMismatch { .. },
        Argument::Kind,
        ["e4m3 is not an input type of kind::f16; it takes f16, bf16"]
    );
    // Issue 11: `e2m1` with `mxf4` blamed the dtype. Packed e2m1 is now accepted; a type the kind
    // does not take is blamed on the kind.
    assert!(a(Arch::Sm100, ElementType::E2M1, Major::K, 128, 128)
        .kind(MmaKind::Mxf4)
        .build()
        .is_ok());
    rejects!(
        a(Arch::Sm100, ElementType::E3M2, Major::K, 128, 128).kind(MmaKind::Mxf4),
        Error::DtypeKindMismatch { .. },
        Argument::Kind,
        ["e3m2 is not an input type of kind::mxf4; it takes e2m1 (packed)"]
    );
}

#[test]
fn fields() {
    rejects!(
        a(Arch::Sm90, ElementType::BF16, Major::Mn, 64, 4096)
            .swizzle(SwizzleMode::B64)
            .order(Order::KFirst),
        Error::FieldOverflow {
            field: Field::Lbo,
            bytes: 262144
        },
        Argument::Tile,
        ["LBO of 262144 B does not fit the descriptor's 14-bit field"]
    );
    let f = DescriptorFields::new(0x408, 16, 1024, SwizzleMode::B128);
    let e = SmemDescriptor::encode(Arch::Sm90, f).unwrap_err();
    assert_eq!(
        e,
        Error::FieldMisaligned {
            field: Field::StartAddress,
            bytes: 0x408
        }
    );
    assert!(e.to_string().contains("not a multiple of 16 B"));
    let e = SmemDescriptor::decode(Arch::Sm100, (3u64 << 61) | (1 << 46)).unwrap_err();
    assert_eq!(
        e,
        Error::UnknownLayoutCode {
            arch: Arch::Sm100,
            code: 3
        }
    );
    assert!(e.to_string().contains("2 (128B), 4 (64B), 6 (32B)"));
    let e = SmemDescriptor::decode(Arch::Sm90, 1 << 14).unwrap_err();
    assert_eq!(
        e,
        Error::ReservedBits {
            arch: Arch::Sm90,
            bits: 1 << 14
        }
    );
    assert!(e.to_string().contains("reserved"));
}

#[test]
fn use_site_errors() {
    let t = bf16_a().stages(2).build().unwrap().tile;
    let e = t.try_desc(0x440, 0, 0, 0).unwrap_err();
    assert_eq!(
        e,
        Error::UnalignedBase {
            addr: 0x440,
            align: 128
        }
    );
    assert!(e.to_string().contains("multiple of 128"));
    let e = t.try_desc(0, 0, 0, 2).unwrap_err();
    assert_eq!(
        e,
        Error::IndexOutOfRange {
            what: Indexed::Stage,
            index: 2,
            count: 2
        }
    );
    assert!(e.to_string().contains("legal indices are 0..2"));
    // The layout fits one descriptor: a start past 256 KiB is the base's fault (issue 11), and the
    // error names the highest base that works, which is exact: every subtile of every stage encodes
    // there, and one 128 B step higher some subtile does not.
    let e = t.try_desc(0x3ff80, 1, 3, 1).unwrap_err();
    let Error::BaseTooHigh {
        base: 0x3ff80,
        offset,
        highest_base,
    } = e
    else {
        panic!("{e:?}")
    };
    assert_eq!(offset, t.subtile_offset_bytes(1, 3) + t.stage_bytes());
    assert_eq!(e.argument(), Argument::Use);
    assert!(e.to_string().contains("is too high"), "{e}");
    let all_encode = |base: u32| {
        (0..2).all(|s| {
            (0..t.mmas_k()).all(|k| (0..t.mmas_mn()).all(|i| t.try_desc(base, i, k, s).is_ok()))
        })
    };
    assert!(all_encode(highest_base));
    assert!(!all_encode(highest_base + 128));
}

#[test]
fn tma_boxes() {
    rejects!(
        bf16_a().tma_box(64, 128),
        Error::TmaBoxWidth {
            inner: 128,
            inner_bytes: 256,
            legal_inner: 64,
            max_rows: 128,
            ..
        },
        Argument::TmaBox,
        [
            "TMA box is 128 elements (256 B) wide but the 128B swizzle atom is 128 B",
            "64 elements",
            "128 x 64"
        ]
    );
    rejects!(
        a(Arch::Sm90, ElementType::BF16, Major::K, 512, 64).tma_box(512, 64),
        Error::TmaBoxRowsOver256 {
            rows: 512,
            max_rows: 256,
            ..
        },
        Argument::TmaBox,
        ["at most 256", "256 x 64"]
    );
    rejects!(
        bf16_a().tma_box(60, 64),
        Error::TmaBoxRowsIllegal {
            rows: 60,
            atom_rows: 8,
            ..
        },
        Argument::TmaBox,
        ["multiples of 8", "up to 128"]
    );
    // k_first with two atoms along K: the next atom in SMEM is the K neighbour, so a box spans
    // one atom's 8 rows. (One atom wide, k_first is the same layout as mn_first: see
    // tests/tma_contiguity.rs.)
    rejects!(
        a(Arch::Sm90, ElementType::BF16, Major::K, 128, 128)
            .order(Order::KFirst)
            .tma_box(16, 64),
        Error::TmaBoxRowsIllegal { max_rows: 8, .. },
        Argument::TmaBox,
        ["largest legal box: 8 x 64"]
    );
}

#[test]
fn algebra_errors() {
    let e = Mode::new(8, 1).split(3).unwrap_err();
    assert_eq!(e, Error::NotDivisible { extent: 8, by: 3 });
    let full = Mode::new(2, 1)
        .push(2, 2)
        .unwrap()
        .push(2, 4)
        .unwrap()
        .push(2, 8)
        .unwrap();
    assert_eq!(full.push(2, 16), Err(Error::LayoutCapacity));
    // A K-major SW128 subtile whose rows are 64 B apart is not the canonical (8):(8 units) form.
    let bad = Layout::new(Mode::new(8, 4).push(8, 64).unwrap(), Mode::new(2, 1));
    let e = CanonicalForm::of(Major::K, SwizzleMode::B128)
        .offsets(bad)
        .unwrap_err();
    assert_eq!(e, Error::NotCanonical { dim: Dim::Mn });
    assert!(e.to_string().contains("not in the canonical layout"));
}

#[test]
fn one_stage_over_budget_says_so() {
    // 512 x 256 bf16 = 256 KiB for a single stage: no stage count can fit.
    rejects!(
        a(Arch::Sm90, ElementType::BF16, Major::K, 512, 256),
        Error::SmemBudget {
            stage_bytes: 262144,
            ..
        },
        Argument::Tile,
        ["one stage of this tile alone needs 262144 B but a CTA has 232448 B"]
    );
}
