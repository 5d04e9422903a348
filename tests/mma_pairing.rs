//! `#[smem_mma]`: an A and a B tile declared in one module become one instruction. Expected
//! values are written from the PTX ISA (`wgmma` syntax, tcgen05 instruction-descriptor table) and
//! the CuTe golden rows, not from smemdesc's output.

/// Hopper bf16 GEMM, B MN-major (imm-trans-b = 1), A negated (imm-scale-a = -1).
#[smemdesc::smem_mma(accum = f32, negate_a = true)]
mod hopper {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
                mma = m64n128k16, stages = 2)]
    pub struct TileA;
    #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (128, 64), major = MN, stages = 2)]
    pub struct TileB;
}

/// Hopper s8 x u8 with .satfinite: no imm-scale / imm-trans.
#[smemdesc::smem_mma(accum = s32, saturate = true)]
mod hopper_int {
    #[smemdesc::smem_tile(arch = sm90, operand = A, dtype = s8, tile = (64, 64), major = K)]
    pub struct A;
    #[smemdesc::smem_tile(arch = sm90, operand = B, dtype = u8, tile = (64, 64), major = K)]
    pub struct B;
}

/// Blackwell bf16 M 128 N 256 (idesc.tsv row 680: 0x08400490).
#[smemdesc::smem_mma(accum = f32)]
mod blackwell {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K)]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = bf16, tile = (256, 64), major = K)]
    pub struct TileB;
}

/// Blackwell block-scaled e4m3 x e2m1 (mxf8f6f4), CTA pair: M 256, N 256.
#[smemdesc::smem_mma(accum = f32, sf = ue8m0)]
mod blackwell_mx {
    use smemdesc::smem_tile;
    #[smem_tile(arch = sm100, operand = A, dtype = e4m3, kind = mxf8f6f4, tile = (128, 128),
                major = K, cta_group = 2, mma = (256, 256))]
    pub struct TileA;
    #[smem_tile(arch = sm100, operand = B, dtype = e2m1, kind = mxf8f6f4, tile = (128, 128),
                major = K, cta_group = 2)]
    pub struct TileB;
}

// The mnemonics are string literals: usable in `concat!` (and so in an `asm!` template).
const HOPPER_ASM: &str = concat!(
    hopper::mnemonic!(),
    " {0}, {1}, {2}, p, ",
    hopper::wgmma_imms!(),
    ";"
);
const INT_ASM: &str = concat!(
    hopper_int::mnemonic!(),
    " {0}, {1}, {2}, p",
    hopper_int::wgmma_imms!(),
    ";"
);

#[test]
fn sm90_mnemonic_and_immediates() {
    assert_eq!(
        HOPPER_ASM,
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {0}, {1}, {2}, p, -1, 1, 0, 1;"
    );
    assert_eq!((hopper::IMM_SCALE_A, hopper::IMM_SCALE_B), (-1, 1));
    assert_eq!((hopper::IMM_TRANS_A, hopper::IMM_TRANS_B), (0, 1));
    assert_eq!((hopper::MMA_M, hopper::MMA_N, hopper::MMA_K), (64, 128, 16));
    assert_eq!(
        INT_ASM,
        "wgmma.mma_async.sync.aligned.m64n64k32.satfinite.s32.s8.u8 {0}, {1}, {2}, p;"
    );
    assert_eq!(hopper::MNEMONIC, hopper::mnemonic!());
}

#[test]
fn sm100_instruction_descriptor() {
    assert_eq!(blackwell::IDESC, 0x08400490);
    assert_eq!(blackwell::IDESC64, 0x0840_0490_0000_0000);
    assert_eq!(blackwell::mnemonic!(), "tcgen05.mma.cta_group::1.kind::f16");
    assert_eq!(
        (blackwell::MMA_M, blackwell::MMA_N, blackwell::MMA_K),
        (128, 256, 16)
    );
    // PTX mxf8f6f4 table: A e4m3 = 0, B e2m1 = 5 at bit 10, N>>3 = 32 at 17, UE8M0 bit 23,
    // M>>7 = 2 at bit 27.
    assert_eq!(
        blackwell_mx::IDESC,
        (5 << 10) | (32 << 17) | (1 << 23) | (2 << 27)
    );
    assert_eq!(blackwell_mx::CTA_GROUP, 2);
    assert_eq!(
        blackwell_mx::mnemonic!(),
        "tcgen05.mma.cta_group::2.kind::mxf8f6f4.block_scale.scale_vec::1X"
    );
    // Scale-factor ids from TMEM addresses: bits 30-31 of each address.
    let r = blackwell_mx::idesc_with_sf_tmem(0xC000_0040, 0x4000_0080);
    assert_eq!(
        r,
        u64::from(blackwell_mx::IDESC | (3 << 29) | (1 << 4)) << 32
    );
    assert_eq!(
        blackwell_mx::try_idesc_with_sf_tmem(0xC000_0040, 0x4000_0080),
        Ok(r)
    );
    assert!(blackwell::try_idesc_with_sparse_id(1).is_err()); // dense MMA
    assert_eq!(blackwell::INSTR.n, 256);
}

/// The literal splices into a real `asm!` template (here as an assembler comment on the host).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[test]
fn mnemonic_splices_into_asm() {
    // SAFETY: the template is only an assembler comment; no instruction is emitted.
    unsafe {
        core::arch::asm!(
            "/* ",
            hopper::mnemonic!(),
            " scale-a {0} trans-b {1} */",
            const hopper::IMM_SCALE_A,
            const hopper::IMM_TRANS_B,
        )
    };
}
