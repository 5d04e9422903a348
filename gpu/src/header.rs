//! The CUDA headers of the kernels, written by `smemdesc header`: every layout number the check
//! and GEMM kernels use (descriptors, stage and box geometry, box offsets and coordinates) comes
//! from the command's output, not from code of this program. The CLI's sources are included (as
//! `fuzz/` does) and run with the flags a user would type.

/// `smemdesc …`: the command's output (its warnings printed to stderr), or its error message.
pub(crate) fn smemdesc(args: &[String]) -> Result<String, String> {
    let run =
        crate::cli::execute(std::iter::once("smemdesc".to_string()).chain(args.iter().cloned()));
    if run.status == 0 {
        eprint!("{}", run.stderr);
        Ok(run.stdout)
    } else {
        Err(format!(
            "smemdesc {}: {}",
            args.join(" "),
            run.stderr.trim_end()
        ))
    }
}

/// The flags of `smemdesc header` for one tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TileFlags {
    /// `--operand`: `A` or `B`.
    pub(crate) operand: &'static str,
    /// `--dtype`.
    pub(crate) dtype: &'static str,
    /// `--tile MNxK`.
    pub(crate) tile: (u32, u32),
    /// `--major`: `K` or `MN`.
    pub(crate) major: &'static str,
    /// `--swizzle`.
    pub(crate) swizzle: &'static str,
    /// `--order`.
    pub(crate) order: &'static str,
    /// `--mma mMnNkK`.
    pub(crate) mma: (u32, u32, u32),
    /// `--stages`.
    pub(crate) stages: u32,
    /// `--base`: where the descriptors are for.
    pub(crate) base: u32,
    /// `--placement`: `absolute` or `relative`.
    pub(crate) placement: &'static str,
}

impl TileFlags {
    /// The command line (after `smemdesc`) of `header --name name`.
    pub(crate) fn args(&self, name: &str) -> Vec<String> {
        let (m, n, k) = self.mma;
        [
            "header",
            "--arch",
            "sm90",
            "--operand",
            self.operand,
            "--dtype",
            self.dtype,
            "--tile",
            &format!("{}x{}", self.tile.0, self.tile.1),
            "--major",
            self.major,
            "--swizzle",
            self.swizzle,
            "--order",
            self.order,
            "--mma",
            &format!("m{m}n{n}k{k}"),
            "--stages",
            &self.stages.to_string(),
            "--base",
            &format!("{:#x}", self.base),
            "--placement",
            self.placement,
            "--name",
            name,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }

    /// The header of this tile under namespace `name` (macro prefix `NAME_`).
    pub(crate) fn header(&self, name: &str) -> Result<String, String> {
        smemdesc(&self.args(name))
    }
}

/// `smemdesc header --from FILE --name NAME` of the Rust source `text` (the contents of
/// repository file `shown`), written to a temporary file for the command to read; the header
/// names `shown`, so the generated source does not depend on where the copy was.
pub(crate) fn header_from_source(text: &str, shown: &str, name: &str) -> Result<String, String> {
    let dir = std::env::temp_dir().join(format!("smemdesc-gpu-src-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let file = shown.rsplit('/').next().unwrap_or(shown);
    let path = dir.join(file).display().to_string();
    std::fs::write(&path, text).map_err(|e| e.to_string())?;
    let out = smemdesc(&[
        "header".into(),
        "--from".into(),
        path.clone(),
        "--name".into(),
        name.into(),
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    out.map(|h| h.replace(&path, shown))
}
