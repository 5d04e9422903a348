//! The sm100 `cta_group::2` CTA pair: one MMA of M rows spread over two CTAs.

use super::ClusterError;

/// A `tcgen05.mma.cta_group::2` pair (cluster ranks `2p`, `2p + 1`) running one `m{M}n{N}` MMA:
/// A is split by M (each CTA holds its `M / 2` rows), B by N (each CTA holds one half of the
/// `N` rows, the MMA reads both), the block-scale factors of A split like A (SFA by M) and those
/// of B loaded to both CTAs (SFB whole in each). Both CTAs' loads complete on the leader's
/// (even rank's) barrier in the CUTLASS arrangement; this model gives the bytes per CTA and the
/// total the leader expects.
///
/// ```
/// use smemdesc_core::cluster::CtaPair;
/// let p = CtaPair::new(256, 256).unwrap();
/// assert_eq!((p.a_rows(), p.a_row0(1), p.b_rows(), p.b_row0(1)), (128, 128, 128, 128));
/// assert_eq!(p.mask(3), 0b1100);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CtaPair {
    m: u32,
    n: u32,
}

impl CtaPair {
    /// The pair running `m{m}n{n}` (`m` ∈ {128, 256}, `n` a multiple of 16 in 16..=256).
    ///
    /// ```
    /// assert!(smemdesc_core::cluster::CtaPair::new(64, 128).is_err());
    /// ```
    #[inline]
    pub const fn new(m: u32, n: u32) -> Result<CtaPair, ClusterError> {
        if !(m == 128 || m == 256) || n < 16 || n > 256 || n % 16 != 0 {
            return Err(ClusterError::Pair { m, n });
        }
        Ok(CtaPair { m, n })
    }

    /// Rows of A each CTA holds: `M / 2`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::cluster::CtaPair::new(128, 64).unwrap().a_rows(), 64);
    /// ```
    #[inline]
    pub const fn a_rows(&self) -> u32 {
        self.m / 2
    }

    /// First A row (of the pair's M) that CTA `rank` holds.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::cluster::CtaPair::new(128, 64).unwrap().a_row0(5), 64);
    /// ```
    #[inline]
    pub const fn a_row0(&self, rank: u32) -> u32 {
        (rank & 1) * self.a_rows()
    }

    /// Rows of B each CTA holds: `N / 2`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::cluster::CtaPair::new(128, 64).unwrap().b_rows(), 32);
    /// ```
    #[inline]
    pub const fn b_rows(&self) -> u32 {
        self.n / 2
    }

    /// First B row (of the MMA's N) that CTA `rank` holds.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::cluster::CtaPair::new(128, 64).unwrap().b_row0(1), 32);
    /// ```
    #[inline]
    pub const fn b_row0(&self, rank: u32) -> u32 {
        (rank & 1) * self.b_rows()
    }

    /// Rows of the A scale factors (SFA) CTA `rank` holds: its own `M / 2` (split like A).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::cluster::CtaPair::new(256, 64).unwrap().sfa_rows(), 128);
    /// ```
    #[inline]
    pub const fn sfa_rows(&self) -> u32 {
        self.m / 2
    }

    /// Rows of the B scale factors (SFB) each CTA holds: all `N` (loaded to both).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::cluster::CtaPair::new(256, 64).unwrap().sfb_rows(), 64);
    /// ```
    #[inline]
    pub const fn sfb_rows(&self) -> u32 {
        self.n
    }

    /// The pair's `ctaMask` (both CTAs) seen from `rank`; the SFB load's multicast mask.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::cluster::CtaPair::new(128, 32).unwrap().mask(0), 0b11);
    /// ```
    #[inline]
    pub const fn mask(&self, rank: u32) -> u16 {
        0b11 << (rank & !1)
    }

    /// The pair's leader (even) rank: the CTA that issues the MMA.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::cluster::CtaPair::new(128, 32).unwrap().leader(3), 2);
    /// ```
    #[inline]
    pub const fn leader(&self, rank: u32) -> u32 {
        rank & !1
    }

    /// Bytes one CTA receives per stage for a K-block of `k_bytes` bytes per row of A and B and
    /// `sfa_row_bytes` / `sfb_row_bytes` of scale factors per row (0 without block scaling):
    /// its A half, its B half, its SFA half and the whole SFB.
    ///
    /// ```
    /// // m256n256, 64 bf16 of K (128 B) per row, no scales: 128 + 128 rows of 128 B
    /// assert_eq!(smemdesc_core::cluster::CtaPair::new(256, 256).unwrap().cta_bytes(128, 0, 0), 32768);
    /// ```
    #[inline]
    pub const fn cta_bytes(&self, k_bytes: u32, sfa_row_bytes: u32, sfb_row_bytes: u32) -> u32 {
        (self.a_rows() + self.b_rows()) * k_bytes
            + self.sfa_rows() * sfa_row_bytes
            + self.sfb_rows() * sfb_row_bytes
    }

    /// Bytes the pair's leader barrier expects per stage when both CTAs' loads signal it (the
    /// CUTLASS 2-SM arrangement): twice [`cta_bytes`](Self::cta_bytes).
    ///
    /// ```
    /// assert_eq!(smemdesc_core::cluster::CtaPair::new(256, 256).unwrap().leader_expect_tx(128, 0, 0), 65536);
    /// ```
    #[inline]
    pub const fn leader_expect_tx(
        &self,
        k_bytes: u32,
        sfa_row_bytes: u32,
        sfb_row_bytes: u32,
    ) -> u32 {
        2 * self.cta_bytes(k_bytes, sfa_row_bytes, sfb_row_bytes)
    }
}
