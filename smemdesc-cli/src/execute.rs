//! One run of the command line as data ([`execute`]: exit status, stdout, stderr), and the
//! warnings a command reports beside its output, collected per thread.

use super::{command, dispatch, CliError};

/// What a command reported beside its output: warnings for stderr. Per thread: a test may run
/// commands from several threads at once.
#[derive(Default)]
pub(crate) struct Diagnostics {
    pub(crate) warnings: Vec<String>,
}

thread_local! {
    static DIAGNOSTICS: std::cell::RefCell<Diagnostics> = std::cell::RefCell::default();
}

/// Records a warning, printed to stderr as `warning: MSG` beside the command's output.
pub(crate) fn warn(msg: String) {
    DIAGNOSTICS.with(|d| d.borrow_mut().warnings.push(msg));
}

/// What the commands run on this thread since the last call reported.
pub(crate) fn take_diagnostics() -> Diagnostics {
    DIAGNOSTICS.with(|d| std::mem::take(&mut *d.borrow_mut()))
}

/// Adds what a helper thread's command reported to this thread's.
pub(crate) fn add_diagnostics(more: Diagnostics) {
    DIAGNOSTICS.with(|d| {
        let mut d = d.borrow_mut();
        d.warnings.extend(more.warnings);
    });
}

/// What one run of the command line gives: its exit status, and what it writes to stdout and
/// stderr.
///
/// ```
/// use smemdesc_cli::{execute, Execution};
///
/// // 256 f32 columns are 256 registers per thread for a 32x32b load: a warning beside the report.
/// let Execution { status, stdout, stderr } =
///     execute(["smemdesc", "tmem", "--m", "128", "--n", "256", "--load", "32x32b.x16"]);
/// assert_eq!(status, 0);
/// assert!(stdout.contains("256"));
/// assert!(stderr.starts_with("warning: one accumulator stage is 256 registers per thread"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Execution {
    /// 0; 1 when `check-ptx` finds something or `decode --idesc` reads no legal descriptor; 2 on
    /// an error (clap's usage errors included).
    pub status: u8,
    /// The report (or clap's `--help` / `--version` text).
    pub stdout: String,
    /// Warnings (`warning: ...` lines), then the error (`error: ...`) if there is one.
    pub stderr: String,
}

/// Runs the command line on `args` (the program name first) as the `smemdesc` binary does,
/// without touching the process's streams or exit status: the binary prints these strings and
/// exits with this status (a terminal sees clap's messages in colour).
///
/// ```
/// let run = smemdesc_cli::execute(["smemdesc", "decode", "0x+1"]);
/// assert_eq!(run.status, 2);
/// assert!(run.stderr.starts_with("error: "));
/// assert_eq!(smemdesc_cli::execute(["smemdesc", "--version"]).status, 0);
/// ```
pub fn execute<I, T>(args: I) -> Execution
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    match command().try_get_matches_from(args) {
        Ok(matches) => execute_matches(&matches),
        Err(e) => clap_error(&e),
    }
}

/// [`execute`] after clap has parsed the arguments (the binary lets clap print its own errors).
///
/// ```
/// let args = ["smemdesc", "decode", "--idesc", "0x0"];
/// let matches = smemdesc_cli::command().get_matches_from(args);
/// let run = smemdesc_cli::execute_matches(&matches);
/// // Printed, and exit status 1: no kind reads 0 as a legal instruction descriptor.
/// assert_eq!(run.status, 1);
/// assert!(run.stdout.contains("not a legal descriptor of any kind"));
/// assert_eq!(run, smemdesc_cli::execute(args));
/// ```
pub fn execute_matches(matches: &clap::ArgMatches) -> Execution {
    take_diagnostics();
    let result = dispatch(matches);
    let diagnostics = take_diagnostics();
    let mut stderr: String = diagnostics
        .warnings
        .iter()
        .map(|w| format!("warning: {w}\n"))
        .collect();
    match result {
        Err(e) => clap_error(&e),
        Ok(Ok(out)) => Execution {
            status: u8::from(out.problems),
            stdout: out.text,
            stderr,
        },
        Ok(Err(CliError(msg))) => {
            stderr += &format!("error: {msg}\n");
            Execution {
                status: 2,
                stdout: String::new(),
                stderr,
            }
        }
    }
}

/// Where and how clap's `exit` would print `e` (help and version to stdout with status 0, usage
/// errors to stderr with status 2), without colour.
fn clap_error(e: &clap::Error) -> Execution {
    let text = e.render().to_string();
    let (stdout, stderr) = if e.use_stderr() {
        (String::new(), text)
    } else {
        (text, String::new())
    };
    Execution {
        status: u8::try_from(e.exit_code()).unwrap_or(2),
        stdout,
        stderr,
    }
}
