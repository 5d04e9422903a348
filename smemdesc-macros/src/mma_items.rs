//! The items `#[smem_mma]` adds to the module: the instruction's mnemonic, immediates or
//! instruction descriptor, and the checks of the pairing.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};
use smemdesc_core::{AccumType, Arch, MmaPair, PairOptions, ScaleFormat};

pub(crate) fn items(
    p: &MmaPair,
    na: &Ident,
    nb: &Ident,
    po: &PairOptions,
) -> syn::Result<TokenStream> {
    let accum = format_ident!("{}", format!("{:?}", po.accum));
    let (neg_a, neg_b, sat) = (po.negate_a, po.negate_b, po.saturate);
    let sf = match po.sf {
        Some(s) => {
            let s = format_ident!("{}", format!("{s:?}"));
            quote! { .scale_format(::smemdesc::ScaleFormat::#s) }
        }
        None => quote! {},
    };
    let vec = match po.vec {
        Some(v) => quote! { .scale_vec(#v) },
        None => quote! {},
    };
    let mnemonic = Literal::string(&p.mnemonic().to_string());
    let (m, n, k, cg) = (p.shape.m, p.shape.n, p.shape.k, p.cta_group);
    let common = quote! {
        /// The instruction pairing this module's A and B tiles, as the core computes it from the
        /// tiles' `PLAN`s at compile time (`#[smem_mma]`).
        pub const MMA: ::smemdesc::MmaPair = match ::smemdesc::MmaPair::pair(
            &<#na as ::smemdesc::SmemTile>::PLAN,
            &<#nb as ::smemdesc::SmemTile>::PLAN,
            ::smemdesc::PairOptions::new(::smemdesc::AccumType::#accum)
                .negate(#neg_a, #neg_b)
                .saturate(#sat)
                #sf
                #vec,
        ) {
            Ok(p) => p,
            Err(e) => panic!("{}", e.summary()),
        };
        /// Instruction M (the CTA pair's for `cta_group = 2`).
        pub const MMA_M: u32 = #m;
        /// Instruction N.
        pub const MMA_N: u32 = #n;
        /// Instruction K (elements).
        pub const MMA_K: u32 = #k;
        /// CTA group.
        pub const CTA_GROUP: u32 = #cg;
        /// The instruction mnemonic (also as a literal: `mnemonic!()`).
        pub const MNEMONIC: &str = #mnemonic;
        /// The mnemonic as a string literal: a template string of `asm!(mnemonic!(), " ...", ...)`.
        macro_rules! mnemonic {
            () => {
                #mnemonic
            };
        }
        #[allow(unused_imports)]
        pub(crate) use mnemonic;
        const _: () = assert!(
            MMA.shape.m == MMA_M && MMA.shape.n == MMA_N && MMA.shape.k == MMA_K,
            "#[smem_mma]: expansion-time and compile-time shapes differ"
        );
    };
    let arch_items = match p.arch.generation() {
        Arch::Sm100 => {
            let i = p
                .idesc()
                .map_err(|e| syn::Error::new(Span::call_site(), e))?;
            let raw = Literal::u32_suffixed(i.raw());
            let raw64 = Literal::u64_suffixed(i.runtime64());
            let kind = format_ident!("{}", format!("{:?}", p.kind));
            // UE8M0 per 16 values: the descriptor (ue8m0) cannot tell it from per 32, but PTX
            // "Scale Factor A ID" / "B ID" for scale_vec::4X/block16 with K = 64/128 says the id
            // "must be 0" (block16 with K = 96: 0 or 2), so the pair checks the ids itself.
            let sf_ids = if p.scale_vec() == Some((ScaleFormat::Ue8m0, 16)) {
                let (mask, legal) = if p.shape.k == 96 {
                    (0b0101u32, "0, 2 (ue8m0 per 16 values, block16 with K = 96)")
                } else {
                    (0b0001u32, "0 (ue8m0 per 16 values, scale_vec::4X)")
                };
                quote! {
                    let (id_a, id_b) = (tsfa_addr >> 30, tsfb_addr >> 30);
                    if (#mask >> id_a) & 1 == 0 {
                        return Err(::smemdesc::IdescError::SfIdIllegal {
                            operand: ::smemdesc::Operand::A, id: id_a, legal: #legal,
                        });
                    }
                    if (#mask >> id_b) & 1 == 0 {
                        return Err(::smemdesc::IdescError::SfIdIllegal {
                            operand: ::smemdesc::Operand::B, id: id_b, legal: #legal,
                        });
                    }
                }
            } else {
                quote! {}
            };
            quote! {
                /// The tcgen05 instruction descriptor (32 bits).
                pub const IDESC: u32 = #raw;
                /// The 64-bit run-time form CUTLASS passes (`IDESC << 32`).
                pub const IDESC64: u64 = #raw64;
                /// The descriptor's fields.
                pub const INSTR: ::smemdesc::InstrDesc = MMA.instr();
                const _: () = assert!(
                    match MMA.idesc() { Ok(i) => i.raw() == IDESC, Err(_) => false },
                    "#[smem_mma]: expansion-time and compile-time descriptors differ"
                );
                /// `IDESC64` with the scale-factor ids of the TMEM addresses of A's and B's scale
                /// factors (bits 30-31 of each address), unchecked fast path for the issuing thread.
                #[inline]
                pub const fn idesc_with_sf_tmem(tsfa_addr: u32, tsfb_addr: u32) -> u64 {
                    ::smemdesc::Idesc::new(IDESC, ::smemdesc::MmaKind::#kind)
                        .with_sf_tmem_wrapping(tsfa_addr, tsfb_addr)
                        .runtime64()
                }
                /// Checked form of `idesc_with_sf_tmem` (ids legal for the kind).
                #[inline]
                pub const fn try_idesc_with_sf_tmem(
                    tsfa_addr: u32,
                    tsfb_addr: u32,
                ) -> Result<u64, ::smemdesc::IdescError> {
                    #sf_ids
                    match ::smemdesc::Idesc::new(IDESC, ::smemdesc::MmaKind::#kind)
                        .try_with_sf_tmem(tsfa_addr, tsfb_addr)
                    {
                        Ok(i) => Ok(i.runtime64()),
                        Err(e) => Err(e),
                    }
                }
                /// `IDESC64` with a sparsity selector (0-3 for sparse kind::f16 / kind::tf32; 0 otherwise), checked.
                #[inline]
                pub const fn try_idesc_with_sparse_id(id: u32) -> Result<u64, ::smemdesc::IdescError> {
                    match ::smemdesc::Idesc::new(IDESC, ::smemdesc::MmaKind::#kind).try_with_sparse_id(id) {
                        Ok(i) => Ok(i.runtime64()),
                        Err(e) => Err(e),
                    }
                }
            }
        }
        _ => {
            let (ta, tb) = p.imm_trans();
            let (sa, sb) = p.imm_scale();
            let mut imms = Vec::new();
            if p.has_imm_scale() {
                imms.push(sa.to_string());
                imms.push(sb.to_string());
            }
            if p.has_imm_trans() {
                imms.push(ta.to_string());
                imms.push(tb.to_string());
            }
            let imms = Literal::string(&imms.join(", "));
            // The accumulator type of this pairing's `wgmma`: its element count from the
            // declaration (issue 43), the type chosen by `accum`.
            let nn = Literal::usize_unsuffixed(n as usize);
            let (acc_ty, acc_doc) = match po.accum {
                AccumType::F32 => (quote! { WgmmaAcc }, "f32"),
                AccumType::F16 => (quote! { WgmmaAccF16 }, "f16"),
                AccumType::S32 => (quote! { WgmmaAccS32 }, "s32"),
            };
            let acc_doc = format!(
                "The {acc_doc} accumulator of this pairing's `wgmma` (`m64n{n}`, `accum = {acc_doc}`): \
                 `Acc::zero()` in the kernel, never an array typed by hand."
            );
            quote! {
                #[doc = #acc_doc]
                pub type Acc = ::smemdesc::accum::#acc_ty<#nn>;
                /// `imm-trans-a` (1 = A MN-major; meaningful for `.f16`/`.bf16`).
                pub const IMM_TRANS_A: u32 = #ta;
                /// `imm-trans-b` (1 = B MN-major).
                pub const IMM_TRANS_B: u32 = #tb;
                /// `imm-scale-a` (-1 = negate A; floating-point kinds).
                pub const IMM_SCALE_A: i32 = #sa;
                /// `imm-scale-b`.
                pub const IMM_SCALE_B: i32 = #sb;
                /// The immediates this `wgmma` takes after `scale-d`, as a literal
                /// (`imm-scale-a, imm-scale-b[, imm-trans-a, imm-trans-b]`; empty for integers).
                macro_rules! wgmma_imms {
                    () => {
                        #imms
                    };
                }
                #[allow(unused_imports)]
                pub(crate) use wgmma_imms;
            }
        }
    };
    let mut ts = common;
    ts.extend(arch_items);
    Ok(ts)
}
