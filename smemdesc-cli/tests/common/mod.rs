//! Helpers shared by the CLI tests: locating the golden files and running the built binary.
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository's copy of the CuTe golden vectors, `<repo root>/tests/data/golden`.
pub fn golden_dir() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest
        .join("..")
        .join("tests")
        .join("data")
        .join("golden")
}

/// Rows of a golden TSV as header -> value maps. A missing file fails the test.
pub fn read_tsv(name: &str) -> Vec<HashMap<String, String>> {
    let path = golden_dir().join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("golden file {} is required: {e}", path.display()));
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<String> = lines
        .next()
        .expect("golden file has a header")
        .split('\t')
        .map(str::to_string)
        .collect();
    lines
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split('\t').map(str::to_string))
                .collect()
        })
        .collect()
}

/// The built `smemdesc` binary (cargo builds it for the package's tests and names it in
/// `CARGO_BIN_EXE_smemdesc`).
pub fn smemdesc() -> Command {
    Command::new(env!("CARGO_BIN_EXE_smemdesc"))
}

/// Runs `cmd` with `input` on its standard input; its whole output.
pub fn output_with_stdin(cmd: &mut Command, input: &str) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("smemdesc starts");
    // Written from a thread of its own: a child that fills its output pipe before reading all
    // of its input would otherwise wait on this process forever.
    let mut stdin = child.stdin.take().expect("a piped stdin");
    let input = input.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("smemdesc runs");
    writer
        .join()
        .expect("the writer thread")
        .expect("stdin written");
    out
}

/// Runs the command line on `args` in this process: `smemdesc_cli::execute`, which is what the
/// binary's `main` prints and exits with (`binary::the_binary_prints_what_execute_returns`
/// checks that for every kind of outcome); returns (status code, stdout, stderr). A process per
/// call made the golden-row tests most of this binary's run (9 s on 2 cores).
pub fn run(args: &[&str]) -> (i32, String, String) {
    let r = smemdesc_cli::execute(std::iter::once("smemdesc").chain(args.iter().copied()));
    (i32::from(r.status), r.stdout, r.stderr)
}

/// Runs the built binary with `args`; returns (status code, stdout, stderr).
pub fn run_binary(args: &[&str]) -> (i32, String, String) {
    let out = smemdesc().args(args).output().expect("smemdesc runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Calls `f` once on every item of `items`, from as many threads as there are cores (each thread
/// takes the next item left): for tests that run the command line once per golden row, so that
/// they keep every core busy instead of one. A panic in `f` fails the test (the scope
/// re-raises it once every thread is done).
pub fn for_each_parallel<T: Sync>(items: &[T], f: impl Fn(&T) + Sync) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                while let Some(item) =
                    items.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                {
                    f(item);
                }
            });
        }
    });
}

/// The spec's worked example (§6): bf16 K-major SW128 128x128 MN-first, MMA M = 64, sm90.
pub const WORKED_EXAMPLE: &[&str] = &[
    "--arch",
    "sm90",
    "--operand",
    "A",
    "--dtype",
    "bf16",
    "--tile",
    "128x128",
    "--major",
    "K",
    "--swizzle",
    "128B",
    "--order",
    "mn_first",
    "--mma",
    "m64n128k16",
];

/// A fresh directory for one test's files under the temp dir.
pub fn tmp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("smemdesc-header-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Compiles `src` with `compiler args`; `None` (after printing why) when the compiler is absent.
pub fn compile(compiler: &str, args: &[&str], dir: &Path, file: &str, src: &str) -> Option<()> {
    let path = dir.join(file);
    std::fs::write(&path, src).unwrap();
    let out = match Command::new(compiler)
        .args(args)
        .arg(&path)
        .current_dir(dir)
        .output()
    {
        Ok(o) => o,
        Err(e) => {
            println!("SKIPPED: {compiler} is not available ({e}); the header was not compiled");
            return None;
        }
    };
    assert!(
        out.status.success(),
        "{compiler} {args:?} {file} failed:\n{}\n--- source ---\n{src}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(())
}
