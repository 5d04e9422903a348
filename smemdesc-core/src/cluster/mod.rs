//! Thread-block clusters and TMA multicast (sm90 `.multicast::cluster`), and the sm100
//! `cta_group::2` CTA pair.
//!
//! A cluster of `x × y` CTAs tiles the output: `x` CTAs along M, `y` along N (the CTA at cluster
//! coordinates `(i, j)` has `%cluster_ctarank = i + j·x`). CTAs in one cluster row (same `i`) need
//! the same A tile, CTAs in one cluster column (same `j`) the same B tile. With multicast, each of
//! the `count` CTAs sharing a tile issues one slice of every TMA box (`box_rows / count` rows of
//! it) with `ctaMask` naming all of them; every CTA's full barrier therefore receives the whole
//! tile's bytes, and that is its `expect_tx` ([`Multicast::expect_tx`]).
//!
//! ```
//! use smemdesc_core::*;
//! use smemdesc_core::cluster::*;
//! const A: TileLayout = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).expect_valid();
//! const C: Cluster = match Cluster::new(2, 1) { Ok(c) => c, Err(_) => panic!() };
//! // A is shared along the cluster's N extent (y = 1): no multicast. B along M (x = 2).
//! let a = C.multicast(Operand::A, &A, None).unwrap();
//! assert_eq!((a.count(), a.cta_mask(1)), (1, 0b10));
//! ```

mod multicast;
mod pair;

pub use multicast::Multicast;
pub use pair::CtaPair;

use crate::{Arch, Operand};

/// Most CTAs a cluster may have without the non-portable opt-in (rule `cluster.portable-8`).
pub const MAX_PORTABLE_CTAS: u32 = match Arch::Sm90.limits().cluster_portable.value() {
    Some(v) => v,
    None => 0,
};
/// Most CTAs with `cudaFuncAttributeNonPortableClusterSizeAllowed` on sm90 (rule
/// `cluster.non-portable-16-sm90`; other arches: [`Cluster::for_arch`]).
pub const MAX_NON_PORTABLE_CTAS: u32 = match Arch::Sm90.limits().cluster_non_portable.value() {
    Some(v) => v,
    None => 0,
};

/// A cluster's shape: `x` CTAs along M, `y` along N.
///
/// ```
/// let c = smemdesc_core::cluster::Cluster::new(2, 2).unwrap();
/// assert_eq!((c.size(), c.rank(1, 1), c.coords(3)), (4, 3, (1, 1)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cluster {
    x: u32,
    y: u32,
    non_portable: bool,
}

/// Why a cluster declaration is illegal.
///
/// ```
/// use smemdesc_core::cluster::{Cluster, ClusterError};
/// let e = Cluster::new(4, 4).unwrap_err();
/// assert!(matches!(e, ClusterError::TooLarge { ctas: 16, max: 8, .. }));
/// assert!(e.to_string().contains("at most 8"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClusterError {
    /// An extent of 0.
    Empty,
    /// More CTAs than allowed.
    TooLarge {
        /// `x`.
        x: u32,
        /// `y`.
        y: u32,
        /// `x · y`.
        ctas: u32,
        /// The limit (8 portable, 16 non-portable on sm90).
        max: u32,
        /// The architecture whose limit it is.
        arch: Arch,
    },
    /// More CTAs than the portable 8 on an architecture whose larger (non-portable) cluster size,
    /// or whose cluster size at all (sm107), no public source gives.
    Unsourced {
        /// The architecture.
        arch: Arch,
        /// `x · y`.
        ctas: u32,
    },
    /// The multicast count does not cut a TMA box into whole swizzle-atom row groups.
    NotDividing {
        /// The operand.
        operand: Operand,
        /// CTAs sharing the tile.
        count: u32,
        /// Rows of the operand's TMA box.
        box_rows: u32,
        /// Rows of a swizzle atom (8).
        atom_rows: u32,
        /// Bit `c` set: a multicast count `c` (1..=16) that would be legal.
        legal: u32,
    },
    /// The tile's TMA plan could not be made.
    Plan(crate::Error),
    /// A `cta_group::2` pair's shape is illegal.
    Pair {
        /// The pair's MMA M (both CTAs).
        m: u32,
        /// The MMA N.
        n: u32,
    },
}

impl ClusterError {
    /// The message without its rule (`Display` adds the rule's id and source).
    pub(crate) fn fmt_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            ClusterError::Empty => write!(f, "a cluster extent is 0; legal: x, y >= 1"),
            ClusterError::TooLarge { x, y, ctas, max, arch } => {
                write!(f, "cluster ({x}, {y}) has {ctas} CTAs; at most {max} are allowed")?;
                match arch.limits().cluster_non_portable.value() {
                    _ if max != MAX_PORTABLE_CTAS => write!(f, " (non-portable, {})", arch.name())?,
                    Some(np) => write!(f, " portably, {np} with non_portable")?,
                    None => write!(f, " on {} (no public source gives a non-portable size)", arch.name())?,
                }
                write!(f, " (legal: x * y <= {max})")
            }
            ClusterError::Unsourced { arch, ctas } => write!(
                f,
                "a cluster of {ctas} CTAs on {}: no public source gives this architecture's {}cluster size, so smemdesc refuses it rather than guess (legal: x * y <= {})",
                arch.name(),
                if arch.limits().cluster_portable.value().is_some() { "non-portable " } else { "" },
                arch.limits().cluster_portable.value().unwrap_or(1),
            ),
            ClusterError::NotDividing { operand, count, box_rows, atom_rows, legal } => {
                write!(
                    f,
                    "{} is multicast to {count} CTAs, which does not cut its {box_rows}-row TMA box into slices of whole {atom_rows}-row swizzle atoms; legal multicast counts:",
                    operand.name()
                )?;
                let mut c = 1;
                let mut first = true;
                while c <= 16 {
                    if legal & (1 << c) != 0 {
                        write!(f, "{}{c}", if first { " " } else { ", " })?;
                        first = false;
                    }
                    c += 1;
                }
                Ok(())
            }
            ClusterError::Plan(e) => write!(f, "{e}"),
            ClusterError::Pair { m, n } => write!(
                f,
                "cta_group::2 MMA m{m}n{n}: legal M is 128 or 256 (each CTA holds M/2 rows of A) and N a multiple of 16 in 16..=256 (each CTA holds N/2 rows of B)"
            ),
        }
    }
}

impl Cluster {
    /// A portable cluster of `x × y` CTAs (`x · y <= 8`).
    ///
    /// ```
    /// assert!(smemdesc_core::cluster::Cluster::new(8, 1).is_ok());
    /// assert!(smemdesc_core::cluster::Cluster::new(3, 3).is_err());
    /// ```
    #[inline]
    pub const fn new(x: u32, y: u32) -> Result<Cluster, ClusterError> {
        Cluster::for_arch(Arch::Sm90, x, y, false)
    }

    /// A non-portable cluster on sm90 (`x · y <= 16`; the kernel must set
    /// `cudaFuncAttributeNonPortableClusterSizeAllowed`).
    ///
    /// ```
    /// assert!(smemdesc_core::cluster::Cluster::non_portable(4, 4).is_ok());
    /// ```
    #[inline]
    pub const fn non_portable(x: u32, y: u32) -> Result<Cluster, ClusterError> {
        Cluster::for_arch(Arch::Sm90, x, y, true)
    }

    /// A cluster of `x × y` CTAs checked against `arch`'s cluster sizes
    /// ([`ARCH_LIMITS`](crate::base::ARCH_LIMITS): 8 portable everywhere, 16 non-portable on
    /// sm90); where no public source gives the non-portable size (sm100, sm100f, sm103, sm110,
    /// sm120, sm121) a cluster over 8 CTAs is [`ClusterError::Unsourced`].
    ///
    /// ```
    /// use smemdesc_core::{Arch, cluster::{Cluster, ClusterError}};
    /// assert!(Cluster::for_arch(Arch::Sm90, 4, 4, true).is_ok());
    /// assert!(Cluster::for_arch(Arch::Sm103, 2, 4, true).is_ok());
    /// let e = Cluster::for_arch(Arch::Sm120, 4, 4, true).unwrap_err();
    /// assert!(matches!(e, ClusterError::Unsourced { arch: Arch::Sm120, ctas: 16 }));
    /// assert_eq!(e.rule().id, "cluster.non-portable-unsourced");
    /// ```
    #[inline]
    pub const fn for_arch(
        arch: Arch,
        x: u32,
        y: u32,
        non_portable: bool,
    ) -> Result<Cluster, ClusterError> {
        if x == 0 || y == 0 {
            return Err(ClusterError::Empty);
        }
        let ctas = x.saturating_mul(y);
        let limits = arch.limits();
        let fact = if non_portable {
            limits.cluster_non_portable
        } else {
            limits.cluster_portable
        };
        let max = match fact.value() {
            Some(v) => v,
            None => match limits.cluster_portable.value() {
                // No non-portable number: the portable one holds, more is unsourced.
                Some(v) if ctas <= v => v,
                _ if ctas <= 1 => 1,
                _ => return Err(ClusterError::Unsourced { arch, ctas }),
            },
        };
        if ctas > max {
            return Err(ClusterError::TooLarge {
                x,
                y,
                ctas,
                max,
                arch,
            });
        }
        Ok(Cluster { x, y, non_portable })
    }

    /// `x` (CTAs along M).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::cluster::Cluster::new(2, 1).unwrap().x(), 2);
    /// ```
    #[inline]
    pub const fn x(&self) -> u32 {
        self.x
    }

    /// `y` (CTAs along N).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::cluster::Cluster::new(2, 1).unwrap().y(), 1);
    /// ```
    #[inline]
    pub const fn y(&self) -> u32 {
        self.y
    }

    /// Whether the cluster needs the non-portable opt-in (more than 8 CTAs).
    ///
    /// ```
    /// assert!(!smemdesc_core::cluster::Cluster::non_portable(2, 4).unwrap().needs_non_portable());
    /// ```
    #[inline]
    pub const fn needs_non_portable(&self) -> bool {
        self.non_portable && self.x * self.y > MAX_PORTABLE_CTAS
    }

    /// CTAs in the cluster.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::cluster::Cluster::new(2, 4).unwrap().size(), 8);
    /// ```
    #[inline]
    pub const fn size(&self) -> u32 {
        self.x * self.y
    }

    /// `%cluster_ctarank` of the CTA at cluster coordinates `(i, j)` (`i < x` along M).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::cluster::Cluster::new(2, 2).unwrap().rank(0, 1), 2);
    /// ```
    #[inline]
    pub const fn rank(&self, i: u32, j: u32) -> u32 {
        i + j * self.x
    }

    /// The cluster coordinates `(i, j)` of `rank`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::cluster::Cluster::new(1, 2).unwrap().coords(1), (0, 1));
    /// ```
    #[inline]
    pub const fn coords(&self, rank: u32) -> (u32, u32) {
        (rank % self.x, rank / self.x)
    }

    /// How many CTAs share one tile of `op`: `y` for A (one cluster row), `x` for B.
    ///
    /// ```
    /// use smemdesc_core::{Operand, cluster::Cluster};
    /// assert_eq!(Cluster::new(2, 1).unwrap().sharing(Operand::B), 2);
    /// ```
    #[inline]
    pub const fn sharing(&self, op: Operand) -> u32 {
        match op {
            Operand::A => self.y,
            Operand::B => self.x,
        }
    }

    /// Whether a grid of `tiles_m × tiles_n` output tiles divides into whole clusters.
    ///
    /// ```
    /// assert!(!smemdesc_core::cluster::Cluster::new(2, 1).unwrap().fits_grid(3, 4));
    /// ```
    #[inline]
    pub const fn fits_grid(&self, tiles_m: u32, tiles_n: u32) -> bool {
        tiles_m % self.x == 0 && tiles_n % self.y == 0
    }

    /// The multicast plan of operand `op` stored as `tile` (its TMA boxes as planned by
    /// [`TmaPlan::new`](crate::TmaPlan::new) with `tma_box`).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// use smemdesc_core::cluster::*;
    /// let b = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 256, 64).build().unwrap();
    /// let m = Cluster::new(2, 1).unwrap().multicast(Operand::B, &b, None).unwrap();
    /// assert_eq!((m.count(), m.slice_rows(), m.expect_tx()), (2, 128, 32768));
    /// ```
    #[inline]
    pub const fn multicast(
        &self,
        op: Operand,
        tile: &crate::TileLayout,
        tma_box: Option<(u32, u32)>,
    ) -> Result<Multicast, ClusterError> {
        Multicast::new(*self, op, tile, tma_box)
    }
}
