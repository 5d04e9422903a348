//! The `smemdesc` command line's implementation: the binary (`src/main.rs`) is [`execute`] on the
//! process's arguments. A library so that the CLI's tests can run many commands in one process;
//! not a stable API (use the binary, or `smemdesc-core` for the numbers).
//!
//! ```
//! let run = smemdesc_cli::execute(["smemdesc", "decode", "0x4000004000010a40", "--arch", "sm90"]);
//! assert_eq!(run.status, 0);
//! assert!(run.stdout.contains("start_address  0-13      0xa40"));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod banks_raw;
mod check_ptx;
mod check_ptx_parse;
mod check_ptx_text;
mod check_ptx_why;
mod decode;
mod decode_input;
pub mod decode_map;
mod draw;
mod execute;
mod fragment;
mod fragment_regs;
mod header;
mod header_args;
mod header_check;
mod header_cluster;
mod header_cx;
mod header_epi;
mod header_eval;
mod header_frag;
mod header_loc;
mod header_pipeline;
mod header_src;
mod header_storage;
mod idesc;
pub mod rules;
// `pub(crate)`: `gpu/` (which includes this file) judges the same rows against the driver.
pub(crate) mod tensormap;
mod tile;
mod tmem;

pub use execute::{execute, execute_matches, Execution};
// What the commands' modules report through (`super::warn`, `super::add_diagnostics`).
use execute::{add_diagnostics, take_diagnostics, warn};

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use smemdesc_core::Arch;

/// A user-facing error: printed to stderr, exit status 2.
#[derive(Debug)]
pub(crate) struct CliError(pub(crate) String);

/// Parses an unsigned number: decimal, or hexadecimal with a `0x` prefix (`_` separators allowed).
pub(crate) fn parse_num(s: &str) -> Result<u64, String> {
    let t = s.trim().replace('_', "");
    let parsed = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(h, 16)
    } else {
        t.parse::<u64>()
    };
    parsed.map_err(|e| {
        if t.is_empty() {
            "empty number".to_string()
        } else {
            format!("malformed number `{s}` ({e}); expected decimal or 0x-prefixed hex")
        }
    })
}

#[derive(Parser, Debug)]
#[command(
    name = "smemdesc",
    version,
    about = "SMEM matrix descriptors, advance tables and TMA plans for Hopper wgmma and Blackwell tcgen05"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Decode raw 64-bit descriptors: every field by name, plus warnings.
    ///
    /// With several descriptors, `--json` prints an array of reports. Values: `0x` hex; without
    /// `0x`, hex when they have a letter a-f, decimal when too long for hex (over 16 digits; 8
    /// for --idesc) or with --decimal; other bare digits are refused as ambiguous.
    Decode {
        /// The descriptor(s): 0x-prefixed hex (bare hex with a letter a-f, or decimal with
        /// --decimal, are read too, and the report says how).
        #[arg(required_unless_present_any = ["idesc", "tensor_map"])]
        descriptors: Vec<String>,
        /// Architecture whose encoding to use: sm90 or sm100 (default: read from bit 46, the
        /// sm100 version bit, which sm90 descriptors leave 0; the report says so).
        #[arg(long, value_parser = parse_arch_arg)]
        arch: Option<Arch>,
        /// Explain a 32-bit tcgen05 instruction descriptor instead (every kind whose table reads
        /// it, or only --kind).
        #[arg(long, conflicts_with_all = ["descriptors", "arch"])]
        idesc: Option<String>,
        /// With --idesc: the kind whose table to read it with.
        #[arg(long, requires = "idesc")]
        kind: Option<String>,
        /// Decode a tensor map's cuTensorMapEncodeTiled arguments instead: one row of
        /// `tensormap check --tiled` (fields separated by tabs or spaces: id dtype rank addr_off
        /// dims strides box element_strides interleave swizzle l2 oob), each argument by name,
        /// the verdict of every rule and `tensormap check`'s lints, each with its rule id; exit
        /// status 1 when the map is refused. `--arch` is the encoding context's (default sm90).
        #[arg(long, value_name = "ROW", conflicts_with_all = ["descriptors", "idesc"])]
        tensor_map: Option<String>,
        /// With --tensor-map: lint it as a map in the Blackwell out-of-bounds address generation
        /// mode OOB_ADDR_GEN_MODE_BASE_128kB (as `tensormap check --oob-base-128kb`).
        #[arg(long, requires = "tensor_map")]
        oob_base_128kb: bool,
        /// Read values written without 0x as decimal.
        #[arg(long)]
        decimal: bool,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Describe a tile: summary, every subtile descriptor per stage, advance tables, TMA plan.
    Tile {
        #[command(flatten)]
        args: tile::TileArgs,
        /// Print JSON instead of tables.
        #[arg(long)]
        json: bool,
    },
    /// Build a tcgen05 instruction descriptor (sm100 `tcgen05.mma` idesc) from its fields.
    Idesc {
        #[command(flatten)]
        args: idesc::IdescArgs,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Blackwell Tensor Memory: where a tcgen05.mma accumulator sits, the tcgen05.alloc it needs
    /// and which thread and register of a tcgen05.ld shape receives each element.
    ///
    /// With `--json`: `{"alloc_columns", "cols_used", "regs_per_thread", "map": [[thread, reg,
    /// m, n, lane, col], ...]}` (and the other report fields).
    Tmem {
        #[command(flatten)]
        args: tmem::TmemArgs,
        /// Print JSON instead of the text report.
        #[arg(long)]
        json: bool,
    },
    /// Draw one stage of a tile: SVG with --svg FILE, else text in the terminal.
    Draw {
        #[command(flatten)]
        args: tile::TileArgs,
        /// Write an SVG picture of stage 0 to this file.
        #[arg(long)]
        svg: Option<std::path::PathBuf>,
    },
    /// Print an `mma.sync` (sm80-sm120) or wgmma (sm90 m64nNk*: the accumulator, or A from
    /// registers with `--regs`) register fragment: which lane and element hold each (row, col),
    /// as the PTX ISA figures draw it; `--regs` lists it per thread and 32-bit register.
    /// `--chain m64nNk*` prints how that instruction's accumulator becomes --mma's A registers.
    ///
    /// `--json` prints `{"map": [[lane, reg, row, col], ...]}` (`reg`: the element index a0, a1,
    /// ...; for wgmma the lane is the thread 0..127).
    Fragment {
        #[command(flatten)]
        args: fragment::FragmentArgs,
        /// Print JSON instead of the grid.
        #[arg(long)]
        json: bool,
    },
    /// Draw the shared-memory bank map of one warp access: an `ldmatrix` of an mma.sync operand
    /// tile (or a writer issue), or raw lane addresses; wavefronts and conflicts per the model.
    Banks {
        #[command(flatten)]
        args: fragment::BanksArgs,
        /// Print JSON instead of the map.
        #[arg(long)]
        json: bool,
    },
    /// Write a tile as a C/C++ header: constexpr values in `namespace NAME` and `#define NAME_...`
    /// for C (descriptors, advance tables, TMA plan, offsets, cuTensorMapEncodeTiled arguments).
    ///
    /// With `--from FILE` instead of the tile flags: every `#[smem_tile]` struct, `#[smem_mma]`
    /// module (the pairing's mnemonic, immediates or IDESC) and `#[smem_storage]` struct (member
    /// offsets, sizes, alignments, launch bytes, tile descriptors at their offsets) and
    /// `#[smem_pipeline]` struct (barrier init counts, expect_tx and release masks per CTA rank)
    /// of a Rust source file, one namespace per item.
    Header {
        #[command(flatten)]
        args: Option<tile::TileArgs>,
        /// Namespace (C++) and macro prefix (C, upper-cased); a C identifier. Required for one
        /// tile; with --from, the top namespace (default: the file's stem).
        #[arg(long)]
        name: Option<String>,
        /// Read the declarations from this Rust source file instead of the tile flags.
        #[arg(long, value_name = "FILE")]
        from: Option<std::path::PathBuf>,
    },
    /// Check a PTX module rustc wrote for nvptx64 (`--emit asm`): what the driver would refuse or
    /// what makes it slow. Exit status 0 when clean, 1 when it finds something.
    ///
    /// Reports each `.extern .func` (demangled) and each call to one (for a panic, its
    /// `file:line:col` and, in smemdesc's sources, the API it comes from, with a fix), each
    /// `.global`/`.const` table (size, the functions reading it) and each `.local` declaration
    /// (local memory, with its kernel).
    #[command(name = "check-ptx")]
    CheckPtx {
        /// The PTX file.
        file: std::path::PathBuf,
        /// Print one JSON object instead of the text report.
        #[arg(long)]
        json: bool,
    },
    /// Check tensor-map parameter sets in bulk (`tensormap check --im2col FILE` or `--tiled
    /// FILE`): one verdict per row, by the rules of cuTensorMapEncodeIm2col / cuTensorMapEncodeTiled.
    Tensormap {
        #[command(subcommand)]
        command: tensormap::TensormapCommand,
    },
    /// List the legality rules smemdesc checks: id, topic, architectures, source (PTX ISA
    /// section, CUDA document, CUTLASS or CCCL file, a measured fact or smemdesc's own model) and
    /// text.
    /// Every error message ends with its rule's id and source.
    Rules {
        /// Only the rules that apply to this architecture (sm90, sm100, sm100f, sm103, sm107,
        /// sm110, sm120, sm121).
        #[arg(long, value_parser = parse_arch_arg)]
        arch: Option<Arch>,
        /// Only the rules of this topic (descriptor, mma, scale, tma, conv, grouped, tmem,
        /// pipeline, cluster, storage, fragment, epilogue, host).
        #[arg(long, value_parser = rules::parse_topic_arg)]
        topic: Option<smemdesc_core::rules::Topic>,
        /// Print a JSON array instead of text.
        #[arg(long, conflicts_with = "markdown")]
        json: bool,
        /// Print Markdown tables, one per topic (the guide's correctness chapter holds them).
        #[arg(long)]
        markdown: bool,
    },
}

/// What a command prints, and whether it found problems (`check-ptx`, `decode --idesc`: exit
/// status 1).
struct Outcome {
    text: String,
    problems: bool,
}

fn parse_arch_arg(s: &str) -> Result<Arch, String> {
    Arch::from_name(s).ok_or_else(|| format!("unknown arch `{s}`; legal: {}", Arch::NAMES))
}

fn run(cli: Cli) -> Result<Outcome, CliError> {
    match &cli.command {
        Command::CheckPtx { file, json } => {
            let (text, problems) = check_ptx::run(file, *json)?;
            return Ok(Outcome { text, problems });
        }
        Command::Decode {
            idesc: Some(text),
            kind,
            decimal,
            json,
            ..
        } => return decode_idesc(text, kind.as_deref(), *decimal, *json),
        Command::Decode {
            tensor_map: Some(row),
            arch,
            oob_base_128kb,
            ..
        } => {
            let (text, problems) =
                decode_map::report(row, arch.unwrap_or(Arch::Sm90), *oob_base_128kb)
                    .map_err(CliError)?;
            return Ok(Outcome { text, problems });
        }
        _ => {}
    }
    run_report(cli).map(|text| Outcome {
        text,
        problems: false,
    })
}

/// `decode --idesc`: the report of every kind's reading (or `--kind`'s), with problems when no
/// reading is a legal instruction descriptor (exit status 1 after the report).
fn decode_idesc(
    text: &str,
    kind: Option<&str>,
    decimal: bool,
    json: bool,
) -> Result<Outcome, CliError> {
    let input = decode_input::parse_raw(text, 32, decimal)
        .map_err(|e| CliError(format!("--idesc: {e}")))?;
    let raw = u32::try_from(input.value).map_err(|_| {
        let v = input.value;
        let hint = if v as u32 == 0 {
            format!(
                "; its low half is zero: if it is the 64-bit run-time form (idesc << 32), the descriptor is --idesc {:#010x}",
                v >> 32
            )
        } else {
            format!("; a 64-bit value is an SMEM descriptor: smemdesc decode {v:#018x} --arch sm90|sm100")
        };
        CliError(format!("--idesc {v:#x} does not fit in 32 bits{hint}"))
    })?;
    let kind = match kind {
        Some(k) => Some(smemdesc_core::MmaKind::from_name(k).ok_or_else(|| {
            CliError(format!(
                "invalid --kind `{k}`; legal: {}",
                idesc::kind_names()
            ))
        })?),
        None => None,
    };
    let mut reports = idesc::decode(raw, kind)?;
    // Every reading has problems: the report is printed, and the exit status says the
    // value is not a legal instruction descriptor.
    let problems = reports.iter().all(|r| !r.problems.is_empty());
    for r in &mut reports {
        r.input.clone_from(&input.note);
    }
    let text = if json {
        match reports.as_slice() {
            [one] => to_json(one)?,
            many => to_json(&many)?,
        }
    } else {
        idesc::render_all(&reports)
    };
    Ok(Outcome { text, problems })
}

fn run_report(cli: Cli) -> Result<String, CliError> {
    match cli.command {
        Command::CheckPtx { file, json } => check_ptx::run(&file, json).map(|(text, _)| text),
        Command::Tensormap { command } => tensormap::run(&command),
        Command::Rules {
            arch,
            topic,
            json,
            markdown,
        } => rules::run(
            arch,
            topic,
            match (json, markdown) {
                (true, _) => rules::Format::Json,
                (_, true) => rules::Format::Markdown,
                _ => rules::Format::Text,
            },
        ),
        Command::Decode {
            idesc: Some(text),
            kind,
            decimal,
            json,
            ..
        } => decode_idesc(&text, kind.as_deref(), decimal, json).map(|o| o.text),
        Command::Decode {
            tensor_map: Some(row),
            arch,
            oob_base_128kb,
            ..
        } => decode_map::report(&row, arch.unwrap_or(Arch::Sm90), oob_base_128kb)
            .map(|r| r.0)
            .map_err(CliError),
        Command::Decode {
            descriptors,
            arch,
            decimal,
            json,
            ..
        } => {
            let mut reports = Vec::new();
            for text in &descriptors {
                let input = decode_input::parse_raw(text, 64, decimal).map_err(CliError)?;
                let (arch, inferred) = match arch {
                    Some(a) => (a, None),
                    None => {
                        let a = decode::infer_arch(input.value);
                        (a, Some(decode::inferred_note(a)))
                    }
                };
                let mut r = decode::decode(arch, input.value);
                if let Some(note) = inferred {
                    r.notes.insert(0, note);
                }
                if let Some(note) = input.note {
                    r.notes.insert(0, note);
                }
                reports.push(r);
            }
            if json {
                match reports.as_slice() {
                    [one] => to_json(one),
                    many => to_json(&many),
                }
            } else {
                let texts: Vec<String> = reports.iter().map(decode::render_text).collect();
                Ok(texts.join("\n"))
            }
        }
        Command::Tile { args, json } => {
            let plan = args.plan()?;
            let r = tile::report_placed(&plan, args.base, args.placement)?;
            Ok(if json {
                to_json(&r)?
            } else {
                tile::render_text(&r)
            })
        }
        Command::Idesc { args, json } => {
            let r = idesc::build(&args)?;
            Ok(if json {
                to_json(&r)?
            } else {
                idesc::render_text(&r)
            })
        }
        Command::Tmem { args, json } => {
            let r = tmem::build(&args)?;
            Ok(if json {
                serde_json::to_string(&r)
                    .map(|s| s + "\n")
                    .map_err(|e| CliError(format!("JSON encoding failed: {e}")))?
            } else {
                tmem::render_text(&r)
            })
        }
        Command::Draw { args, svg } => {
            let plan = args.plan()?;
            // Check the placement like `tile` does (every descriptor must encode at --base).
            tile::report_placed(&plan, args.base, args.placement)?;
            match svg {
                Some(path) => {
                    std::fs::write(&path, draw::svg(&plan, args.base, args.placement))
                        .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
                    Ok(format!("wrote {}\n", path.display()))
                }
                None => Ok(draw::ascii(&plan, args.base, args.placement)),
            }
        }
        Command::Fragment { args, json } => fragment::fragment(&args, json),
        Command::Banks { args, json } => fragment::banks(&args, json),
        Command::Header {
            args: None,
            name,
            from: Some(file),
        } => header_src::header_from(&file, name.as_deref()),
        Command::Header {
            args: Some(_),
            from: Some(_),
            ..
        } => Err(CliError(
            "--from reads the declarations from the file; give either --from or the tile flags (--arch, --dtype, ...), not both".to_string(),
        )),
        Command::Header {
            args, name, from: None,
        } => {
            let args = args.ok_or_else(|| {
                CliError("header needs the tile flags (--arch, --dtype, --tile, --major, ...) or --from FILE".to_string())
            })?;
            let name = name.ok_or_else(|| CliError(
                    "header needs --name NAME (the namespace and macro prefix) with the tile flags"
                        .to_string(),
                ))?;
            let plan = args.plan()?;
            header::header(&plan, &args, &name)
        }
    }
}

/// Runs the command of parsed `matches` (`header --from` apart from the derive, which cannot
/// express it): the outcome, or clap's error when the matches do not form a command.
fn dispatch(matches: &clap::ArgMatches) -> Result<Result<Outcome, CliError>, clap::Error> {
    Ok(match matches.subcommand() {
        Some(("header", sub)) if sub.contains_id("from") => header_src::header_from(
            sub.get_one::<std::path::PathBuf>("from").expect("checked"),
            sub.get_one::<String>("name").map(String::as_str),
        )
        .map(|text| Outcome {
            text,
            problems: false,
        }),
        _ => run(Cli::from_arg_matches(matches)?),
    })
}

fn to_json<T: serde::Serialize>(v: &T) -> Result<String, CliError> {
    serde_json::to_string_pretty(v)
        .map(|s| s + "\n")
        .map_err(|e| CliError(format!("JSON encoding failed: {e}")))
}

/// The command line, with `header --from` made an alternative to the tile flags: the flattened
/// tile flags of `header` are required unless `--from` is given, and conflict with it (derive
/// cannot say this of a flattened group whose flags have defaults).
///
/// ```
/// let m = smemdesc_cli::command().try_get_matches_from(["smemdesc", "decode", "0x0"]);
/// assert_eq!(m.unwrap().subcommand_name(), Some("decode"));
/// ```
pub fn command() -> clap::Command {
    Cli::command().mut_subcommand("header", |c| {
        let ids: Vec<(clap::Id, bool)> = c
            .get_arguments()
            .filter(|a| !matches!(a.get_id().as_str(), "from" | "name" | "help"))
            .map(|a| (a.get_id().clone(), a.is_required_set()))
            .collect();
        ids.into_iter().fold(c, |c, (id, required)| {
            c.mut_arg(id, |a| {
                let a = a.conflicts_with("from");
                if required {
                    a.required(false).required_unless_present("from")
                } else {
                    a
                }
            })
        })
    })
}
