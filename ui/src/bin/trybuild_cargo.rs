//! `cargo` as trybuild calls it, with one set of compiler flags for all of its calls.
//!
//! trybuild builds the cases' dependencies (`cargo check --bin <project>`) with the flags
//! `--cfg trybuild --verbose -A dead_code`, then checks the cases (`cargo check --bins`) with the
//! same flags and `--diagnostic-width=140`. Flags are part of what cargo hashes, so the second
//! call checks `smemdesc-core` and `smemdesc` again under the new hash: 3 of the 13.5 s of a cold
//! `ui_fail_cases` on 2 cores. This program adds the cases' `--diagnostic-width` to each flag list
//! that lacks one and runs the real cargo (`SMEMDESC_UI_CARGO`, else `cargo`), so the second call
//! finds the libraries checked. The width only changes how a dependency's own error would wrap,
//! and the cases' messages (the `.stderr` files) are those of the second call, as before.
//! `tests/macro_ui.rs` sets `CARGO` to this program for trybuild, and checks afterwards that
//! trybuild's target directory holds one check of `smemdesc-core`.

use std::ffi::OsString;
use std::process::{exit, Command};

/// trybuild's width for the cases' diagnostics (its `cargo.rs`, trybuild 1.0.122).
const WIDTH: &str = "--diagnostic-width=140";

/// `arg` with `WIDTH` appended when it is a `--config=…rustflags=[…]` list without a width.
fn unify(arg: OsString) -> OsString {
    let Some(s) = arg.to_str() else { return arg };
    let is_flag_list = s.starts_with("--config=") && s.contains("rustflags=[") && s.ends_with(']');
    if !is_flag_list || s.contains("--diagnostic-width") {
        return arg;
    }
    let list = &s[..s.len() - 1];
    let sep = if list.ends_with('[') { "" } else { ", " };
    OsString::from(format!("{list}{sep}\"{WIDTH}\"]"))
}

fn main() {
    let cargo = std::env::var_os("SMEMDESC_UI_CARGO").unwrap_or_else(|| "cargo".into());
    let args: Vec<OsString> = std::env::args_os().skip(1).map(unify).collect();
    match Command::new(&cargo).args(&args).status() {
        Ok(status) => exit(status.code().unwrap_or(101)),
        Err(e) => {
            eprintln!(
                "trybuild_cargo: cannot run {}: {e}",
                cargo.to_string_lossy()
            );
            exit(101)
        }
    }
}
