//! `smemdesc banks` in raw mode (`--access`, `--addrs`): the 32 lane addresses, read and checked
//! before the bank model sees them.
//!
//! A misaligned address is not a bank conflict but a fault: PTX ISA, "Addresses as Operands":
//! "The address must be naturally aligned to a multiple of the access size. If an address is not
//! properly aligned, the resulting behavior is undefined." The access size is the vector width
//! for `lds.N` / `cp.async`, and one 16-B row for `ldmatrix` / `stmatrix` (each lane names the
//! start of a row of 8 × 16-bit elements).

use crate::CliError;
use smemdesc_core::fragment::WarpAccess;

/// The lane addresses of `--addrs`: exactly 32, each in 32 bits and aligned to the access size.
pub(crate) fn lane_addresses(access: WarpAccess, addrs: &[u64]) -> Result<[u32; 32], CliError> {
    if addrs.len() != 32 {
        return Err(CliError(format!(
            "--addrs needs 32 addresses (lane 0 first), got {}",
            addrs.len()
        )));
    }
    let mut v = [0u32; 32];
    for (d, &s) in v.iter_mut().zip(addrs) {
        *d = u32::try_from(s)
            .map_err(|_| CliError(format!("address {s:#x} does not fit in 32 bits")))?;
    }
    let size = access.bytes_per_lane();
    if size == 0 {
        return Ok(v);
    }
    let bad: Vec<String> = v
        .iter()
        .enumerate()
        .filter(|&(_, &a)| a % size != 0)
        .map(|(l, a)| format!("lane {l} @{a:#x}"))
        .collect();
    if !bad.is_empty() {
        let shown = bad.iter().take(8).cloned().collect::<Vec<_>>().join(", ");
        let more = if bad.len() > 8 {
            format!(" and {} more", bad.len() - 8)
        } else {
            String::new()
        };
        return Err(CliError(format!(
            "--addrs: {} of 32 addresses are not {size}-byte aligned ({shown}{more}): a misaligned access is undefined behaviour (PTX ISA, Addresses as Operands: an address must be naturally aligned to the access size, {size} B here), not a bank conflict; legal: multiples of {size}",
            bad.len()
        )));
    }
    Ok(v)
}
