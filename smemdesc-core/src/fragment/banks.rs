//! A shared-memory bank-conflict model for one warp-wide access.
//!
//! Shared memory has 32 banks of 4 bytes: byte address `a` is in bank `(a / 4) % 32`. A warp's
//! access is served in **phases**; lanes of one phase that touch different 4-byte words of the
//! same bank serialise, while lanes reading the same word share it (broadcast). The number of
//! **wavefronts** of a phase is the largest number of distinct words any bank must deliver
//! (at least 1); an access's wavefronts are the sum over its phases, and its **conflicts** are the
//! wavefronts beyond one per phase (what Nsight Compute's `l1tex__data_bank_conflicts_*` counts).
//!
//! Phases, per the CUDA C++ Programming Guide's shared-memory section and the PTX `ldmatrix`
//! description:
//!
//! * 32-bit accesses: one phase of 32 lanes; 64-bit: two half-warps; 128-bit: four quarter-warps;
//! * `ldmatrix`/`stmatrix` `.xN`: N phases, one per 8 × 16-byte matrix, whose row addresses are
//!   given by lanes `8q … 8q + 7`.

/// What one warp-wide shared-memory instruction does.
///
/// ```
/// use smemdesc_core::fragment::WarpAccess;
/// assert_eq!(WarpAccess::Vector { bytes: 8 }.phases(), 2);
/// assert_eq!(WarpAccess::Matrix { num: 4, store: false }.phases(), 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WarpAccess {
    /// `ld.shared`/`st.shared` (or a 16-B `cp.async` write) of `bytes` ∈ {4, 8, 16} per lane,
    /// all 32 lanes.
    Vector {
        /// Bytes per lane.
        bytes: u32,
    },
    /// `ldmatrix` (`store: false`) or `stmatrix` (`store: true`) `.x1/.x2/.x4`: `num` 8 × 16-B
    /// matrices, row `r` of matrix `q` at the address of lane `8q + r`.
    Matrix {
        /// 1, 2 or 4.
        num: u32,
        /// `stmatrix` rather than `ldmatrix`.
        store: bool,
    },
}

impl WarpAccess {
    /// Number of phases (the conflict-free wavefront count).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::WarpAccess::Vector { bytes: 4 }.phases(), 1);
    /// ```
    pub const fn phases(self) -> u32 {
        match self {
            WarpAccess::Vector { bytes } => {
                if bytes <= 4 {
                    1
                } else {
                    bytes / 4
                }
            }
            WarpAccess::Matrix { num, .. } => num,
        }
    }

    /// Lanes per phase (32, 16, 8; 8 for matrices).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::WarpAccess::Vector { bytes: 16 }.lanes_per_phase(), 8);
    /// ```
    pub const fn lanes_per_phase(self) -> u32 {
        match self {
            WarpAccess::Vector { .. } => 32 / self.phases(),
            WarpAccess::Matrix { .. } => 8,
        }
    }

    /// Bytes each participating lane's address covers (16 for matrix rows).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::fragment::WarpAccess::Matrix { num: 1, store: true }.bytes_per_lane(), 16);
    /// ```
    pub const fn bytes_per_lane(self) -> u32 {
        match self {
            WarpAccess::Vector { bytes } => bytes,
            WarpAccess::Matrix { .. } => 16,
        }
    }

    /// Whether the access is legal: vector widths 4, 8, 16; matrix counts 1, 2, 4.
    ///
    /// ```
    /// assert!(!smemdesc_core::fragment::WarpAccess::Vector { bytes: 2 }.is_legal());
    /// ```
    pub const fn is_legal(self) -> bool {
        match self {
            WarpAccess::Vector { bytes } => matches!(bytes, 4 | 8 | 16),
            WarpAccess::Matrix { num, .. } => matches!(num, 1 | 2 | 4),
        }
    }
}

/// The model's verdict on one access.
///
/// ```
/// use smemdesc_core::fragment::{bank_report, WarpAccess};
/// let mut a = [0u32; 32];
/// let mut l = 0;
/// while l < 32 { a[l] = (l as u32 % 8) * 128; l += 1; } // 8 rows of a 128-B pitch, column 0
/// let r = bank_report(WarpAccess::Matrix { num: 1, store: false }, &a);
/// assert_eq!((r.wavefronts, r.conflicts(), r.degree), (8, 7, 8));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BankReport {
    /// Wavefronts of the whole access.
    pub wavefronts: u32,
    /// Phases of the access (its conflict-free wavefront count).
    pub phases: u32,
    /// The worst phase's wavefronts: the conflict degree (1 = conflict-free).
    pub degree: u32,
    /// The worst phase.
    pub worst_phase: u32,
    /// A bank that needs `degree` wavefronts in the worst phase.
    pub worst_bank: u32,
    /// Bit `l` set: lane `l` touches `worst_bank` in the worst phase.
    pub worst_lanes: u32,
}

impl BankReport {
    /// Wavefronts beyond one per phase.
    ///
    /// ```
    /// use smemdesc_core::fragment::{bank_report, WarpAccess};
    /// let a: [u32; 32] = core::array::from_fn(|l| 4 * l as u32);
    /// assert_eq!(bank_report(WarpAccess::Vector { bytes: 4 }, &a).conflicts(), 0);
    /// ```
    pub const fn conflicts(&self) -> u32 {
        self.wavefronts - self.phases
    }

    /// Whether every phase takes one wavefront.
    ///
    /// ```
    /// use smemdesc_core::fragment::{bank_report, WarpAccess};
    /// let a = [64u32; 32]; // every lane the same word: a broadcast
    /// assert!(bank_report(WarpAccess::Vector { bytes: 4 }, &a).is_conflict_free());
    /// ```
    pub const fn is_conflict_free(&self) -> bool {
        self.wavefronts == self.phases
    }
}

/// Bank of a byte address.
///
/// ```
/// assert_eq!(smemdesc_core::fragment::bank_of(132), 1);
/// ```
pub const fn bank_of(addr: u32) -> u32 {
    (addr / 4) % 32
}

/// Models one warp-wide access: `addrs[l]` is lane `l`'s byte address (only the lanes the access
/// uses are read; a vector access must be aligned to its width — the model rounds down).
///
/// ```
/// use smemdesc_core::fragment::{bank_report, WarpAccess};
/// // 128-bit loads of 32 consecutive 16-B chunks: 4 quarter-warp phases, no conflict.
/// let a: [u32; 32] = core::array::from_fn(|l| 16 * l as u32);
/// let r = bank_report(WarpAccess::Vector { bytes: 16 }, &a);
/// assert_eq!((r.wavefronts, r.conflicts()), (4, 0));
/// ```
pub const fn bank_report(access: WarpAccess, addrs: &[u32; 32]) -> BankReport {
    let phases = access.phases();
    let per = access.lanes_per_phase();
    let words = access.bytes_per_lane() / 4;
    let words = if words == 0 { 1 } else { words };
    let align = access.bytes_per_lane();
    let mut total = 0;
    let mut best = BankReport {
        wavefronts: 0,
        phases,
        degree: 0,
        worst_phase: 0,
        worst_bank: 0,
        worst_lanes: 0,
    };
    let mut ph = 0;
    while ph < phases {
        let lo = ph * per;
        // Distinct words per bank in this phase. A lane's words are the aligned block
        // `[base, base + words)` (its address rounded down to the access width), so two lanes'
        // blocks are the same block or disjoint: a lane adds its words unless an earlier lane of
        // the phase has the same block.
        let mut count = [0u32; 32];
        let mut l = lo;
        while l < lo + per {
            let base = (addrs[l as usize] / align) * align / 4;
            let mut seen = false;
            let mut l2 = lo;
            while l2 < l && !seen {
                seen = (addrs[l2 as usize] / align) * align / 4 == base;
                l2 += 1;
            }
            if !seen {
                let mut w = 0;
                while w < words {
                    count[((base + w) % 32) as usize] += 1;
                    w += 1;
                }
            }
            l += 1;
        }
        let mut worst = 0;
        let mut wb = 0;
        let mut b = 0;
        while b < 32 {
            if count[b] > worst {
                worst = count[b];
                wb = b as u32;
            }
            b += 1;
        }
        if worst == 0 {
            worst = 1;
        }
        total += worst;
        if worst > best.degree {
            let mut mask = 0u32;
            let mut l = lo;
            while l < lo + per {
                let base = (addrs[l as usize] / align) * align / 4;
                let mut w = 0;
                while w < words {
                    if (base + w) % 32 == wb {
                        mask |= 1 << l;
                    }
                    w += 1;
                }
                l += 1;
            }
            best.degree = worst;
            best.worst_phase = ph;
            best.worst_bank = wb;
            best.worst_lanes = mask;
        }
        ph += 1;
    }
    best.wavefronts = total;
    best
}
