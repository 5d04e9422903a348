//! `smemdesc`: inspect tensor-core SMEM matrix descriptors and tiles from the command line.
//!
//! * `smemdesc decode 0x4000004000010a40 --arch sm90` — every field of a descriptor, with warnings.
//! * `smemdesc tile --arch sm90 --operand A --dtype bf16 --tile 128x64 --major K ...` — a tile's
//!   descriptors per stage, advance tables and TMA plan.
//! * `smemdesc draw ... [--svg FILE]` — a picture of one stage (bank groups, atoms, MMA subtiles,
//!   TMA boxes).
//! * `smemdesc idesc --kind f16 --a bf16 --b bf16 --c f32 --m 128 --n 256 --a-major K --b-major K`
//!   — a tcgen05 instruction descriptor; `smemdesc decode --idesc 0x…` explains one.
//! * `smemdesc header ... --name gemm_a` — the tile as a C/C++ header (`constexpr` in a namespace
//!   and `#define`s): descriptors, advance tables, TMA plan, chunk offsets, tensor-map arguments.
//!   `smemdesc header --from kernel.rs` — every `#[smem_tile]`, `#[smem_mma]` and
//!   `#[smem_storage]` declaration of a Rust source file as one header.
//!
//! * `smemdesc tmem --m 128 --n 256 --cta-group 1 --accum f32 --load 32x32b.x16 [--json]` — the
//!   Tensor Memory accumulator, its allocation and the `tcgen05.ld` register map.
//!
//! * `smemdesc tensormap check --im2col FILE.tsv [--arch sm90]` (or `--tiled FILE.tsv`) — judges
//!   tensor-map parameter sets in bulk by the rules of `cuTensorMapEncodeIm2col` /
//!   `cuTensorMapEncodeTiled`: `id<TAB>ok` or `id<TAB>refused<TAB>reason` per row.
//!
//! * `smemdesc check-ptx kernel.ptx [--json]` — why a PTX module rustc wrote for nvptx64 would be
//!   refused by the driver or is slow: extern calls (panics with their `file:line:col`), `.global`
//!   tables, local memory. Exit status 1 when it finds any.
//!
//! All layout knowledge comes from `smemdesc_core`. Errors go to stderr with exit status 2;
//! `decode --idesc` of a value no kind reads as legal prints its report and exits with status 1.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::io::Write;
use std::process::ExitCode;

/// Writes the report to stdout and exits with `status`. A reader that went away (`smemdesc … |
/// head`) ends the program quietly with `status`, as the reader asked for no more; any other write
/// error exits 2.
fn write_stdout(out: &str, status: u8) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::from(status),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::from(status),
        Err(e) => {
            eprintln!("error: writing the output: {e}");
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    // clap prints its own usage errors, help and version (in colour on a terminal) and exits.
    let matches = smemdesc_cli::command().get_matches();
    let run = smemdesc_cli::execute_matches(&matches);
    eprint!("{}", run.stderr);
    write_stdout(&run.stdout, run.status)
}
