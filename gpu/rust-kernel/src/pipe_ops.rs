//! `smemdesc::pipeline::PipelineOps` for these kernels: the library's (`smemdesc::ptx`).
//! [`Ptx`]'s `wait` is bounded (a watchdog), so a protocol that never completes ends the launch
//! instead of hanging it (the declared pipeline makes that a second line of defence);
//! [`PtxSpin`]'s never gives up, which keeps a `wgmma` pipeline after it whole (ptxas C7518, see
//! `gpu/device-logs/2026-11-27-grouped-c7518`).

/// Cycles a wait may last before the watchdog gives up (about 1 s at the H100's clocks).
pub const WATCHDOG_CYCLES: u64 = smemdesc::ptx::WATCHDOG_CYCLES;

/// Waits bounded by the watchdog.
pub type Ptx = smemdesc::ptx::Watchdog<WATCHDOG_CYCLES>;

/// Waits that never give up: one exit from a wait, so the handles' `None` arms are dead code.
pub type PtxSpin = smemdesc::ptx::Spin;
