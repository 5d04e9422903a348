//! The TMA reduce kinds against an independent copy of the PTX ISA's table
//! (`cp.reduce.async.bulk.tensor`, Description: "The following table describes the valid
//! combinations of .redOp and element type"), written here as the ISA prints it and parsed, not
//! taken from the core.

use smemdesc_core::epilogue::*;
use smemdesc_core::SwizzleMode;

/// The PTX ISA table, row by row, as text.
const PTX_TABLE: &str = "
.add            | .u32, .s32, .u64, .f32, .f16, .bf16
.min, .max      | .u32, .s32, .u64, .s64, .f16, .bf16
.inc, .dec      | .u32
.and, .or, .xor | .b32, .b64
";

/// Whether the table allows `op` on a tensor map of element type `ty` (a PTX type name). `.bN`
/// is an integer type of N bits a tensor map names (u32/s32, u64), except `INT64` (s64): the
/// H200 stops `.and`/`.or`/`.xor` through an `INT64` map with an illegal instruction
/// (gpu/device-logs/2026-11-27-reduce/pairs.txt: the hardware decides).
fn table_allows(op: &str, ty: &str) -> bool {
    for row in PTX_TABLE.lines().filter(|l| !l.trim().is_empty()) {
        let (ops, types) = row.split_once('|').unwrap();
        if !ops.split(',').any(|o| o.trim() == format!(".{op}")) {
            continue;
        }
        return types.split(',').map(str::trim).any(|t| {
            t == format!(".{ty}")
                || (t == ".b32" && (ty == "u32" || ty == "s32"))
                || (t == ".b64" && ty == "u64")
        });
    }
    panic!("no row for .{op}");
}

#[test]
fn every_kind_and_type_matches_the_ptx_table() {
    let ops = ["add", "min", "max", "inc", "dec", "and", "or", "xor"];
    let types = ["f16", "bf16", "f32", "u32", "s32", "u64", "s64"];
    assert_eq!(ReduceOp::ALL.len(), ops.len());
    assert_eq!(CType::ALL.len(), types.len());
    let mut legal = 0;
    for op in ops {
        let o = ReduceOp::from_name(op).unwrap();
        for ty in types {
            let t = CType::from_name(ty).unwrap();
            let want = table_allows(op, ty);
            assert_eq!(o.allows(t), want, ".{op} on .{ty}");
            assert_eq!(o.legal_types().contains(&t), want, ".{op} on .{ty}");
            legal += usize::from(want);
        }
    }
    // add 6, min/max 6 each, inc/dec 1 each, and/or/xor 3 each (u32, s32, u64)
    assert_eq!(legal, 6 + 12 + 2 + 9);
}

#[test]
fn the_epilogue_refuses_exactly_the_illegal_pairs() {
    for op in ReduceOp::ALL {
        for ty in CType::ALL {
            let writer = match ty.bits() {
                16 => EpiWriter::StShared { bytes: 4 },
                32 => EpiWriter::StShared { bytes: 8 },
                _ => EpiWriter::StShared { bytes: 16 },
            };
            let e = EpilogueSpec::new(ty, 64, 64, 64)
                .writer(writer)
                .reader(EpiReader::TmaReduce(op))
                .build();
            let legal = table_allows(op.name(), ty.name());
            match e {
                Ok(t) => {
                    assert!(legal, ".{} on .{} accepted", op.name(), ty.name());
                    assert!(t.reader_is_tma());
                    // the reduce's global tensor is the tile's type
                    let m = t.tensor_map(smemdesc_core::Arch::Sm90, 256, 256);
                    assert_eq!(m.data_type, ty.tensor_map_data_type());
                }
                Err(EpiError::ReduceType { op: o, dtype }) => {
                    assert!(!legal, ".{} on .{} refused", op.name(), ty.name());
                    assert_eq!((o, dtype), (op, ty));
                }
                Err(other) => panic!(".{} on .{}: {other}", op.name(), ty.name()),
            }
        }
    }
}

#[test]
fn tensor_map_codes_are_cuda_h() {
    // cuda.h CUtensorMapDataType: UINT32 2, INT32 3, UINT64 4, INT64 5, FLOAT16 6, FLOAT32 7,
    // BFLOAT16 9
    let want = [
        ("f16", 6),
        ("bf16", 9),
        ("f32", 7),
        ("u32", 2),
        ("s32", 3),
        ("u64", 4),
        ("s64", 5),
    ];
    for (name, code) in want {
        let t = CType::from_name(name).unwrap();
        assert_eq!(t.tensor_map_data_type().value(), code, "{name}");
    }
}

#[test]
fn the_message_names_the_legal_types_and_readers() {
    let e = EpilogueSpec::new(CType::F32, 64, 64, 64)
        .writer(EpiWriter::StShared { bytes: 8 })
        .reader(EpiReader::TmaReduce(ReduceOp::Max))
        .build()
        .unwrap_err();
    let s = e.to_string();
    assert!(s.contains(".max does not take .f32"), "{s}");
    assert!(
        s.contains(
            "dtype = u32 | dtype = s32 | dtype = u64 | dtype = s64 | dtype = f16 | dtype = bf16"
        ),
        "{s}"
    );
    assert!(s.contains("tma_reduce_add, tma_store, loads"), "{s}");
}

#[test]
fn mnemonics_follow_the_ptx_syntax() {
    for op in ReduceOp::ALL {
        for rank in 1..=5u32 {
            assert_eq!(
                op.mnemonic(rank),
                format!(
                    "cp.reduce.async.bulk.tensor.{rank}d.global.shared::cta.{}.tile.bulk_group",
                    op.name()
                )
            );
        }
        assert_eq!(op.mnemonic(0), "");
        assert_eq!(op.mnemonic(6), "");
        let r = EpiReader::TmaReduce(op);
        assert_eq!(EpiReader::from_name(r.name()), Some(r));
    }
    // an integer tile is laid out as the float tile of its width
    let t = |ty| {
        EpilogueSpec::new(ty, 64, 32, 64)
            .writer(EpiWriter::StShared { bytes: 8 })
            .reader(EpiReader::TmaReduce(ReduceOp::Add))
            .build()
            .unwrap()
    };
    let (s, f) = (t(CType::S32), t(CType::F32));
    assert_eq!(s.swizzle(), f.swizzle());
    assert_ne!(s.swizzle(), SwizzleMode::B128Base32B);
    assert_eq!(s.writer_offset(0, 1, 0, 5), f.writer_offset(0, 1, 0, 5));
}
