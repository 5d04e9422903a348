//! The input generator: a SplitMix64 stream and the pools the targets draw words and numbers from
//! (legal values, near misses and junk).

/// SplitMix64: fixed, fast, and good enough to spread the choices.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// True with probability `p` percent.
    pub fn chance(&mut self, p: u64) -> bool {
        self.below(100) < p
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    /// An unsigned number as text: small and round values (legal extents), edges (0, 2^k ± 1,
    /// u32/u64 limits) or anything, in decimal or hex.
    pub fn number(&mut self) -> String {
        let v: u64 = match self.below(8) {
            0..=2 => *self.pick(&[8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 512]),
            3 => self.below(300),
            4 => {
                let k = self.below(64);
                (1u64 << k).wrapping_add(*self.pick(&[0, 1, u64::MAX]))
            }
            5 => *self.pick(&[
                0,
                1,
                7,
                0xffff_ffff,
                0x1_0000_0000,
                u64::MAX,
                0x3_fff0,
                0x4_0000,
            ]),
            _ => self.next() >> self.below(64),
        };
        if self.chance(20) {
            format!("{v:#x}")
        } else {
            v.to_string()
        }
    }

    /// A raw descriptor: random bits, or a plausible encoding with a few bits flipped.
    pub fn descriptor(&mut self) -> u64 {
        match self.below(4) {
            0 => self.next(),
            _ => {
                let start = self.below(1 << 14);
                let lbo = self.below(1 << 14);
                let sbo = self.below(1 << 14);
                let base = self.below(8);
                let version = self.below(2);
                let lbo_mode = self.below(2);
                let layout = self.below(8);
                let mut raw = start
                    | (lbo << 16)
                    | (sbo << 32)
                    | (version << 46)
                    | (base << 49)
                    | (lbo_mode << 52)
                    | (layout << 61);
                for _ in 0..self.below(3) {
                    raw ^= 1 << self.below(64);
                }
                raw
            }
        }
    }
}
