//! One CTA's shared memory as one declaration: members (operand tiles, mbarriers, plain arrays)
//! placed in declaration order, each at an offset that honours its alignment, the total checked
//! against the per-CTA limit, and the `sharedMemBytes` to launch with.
//!
//! `#[smem_storage]` (in `smemdesc`) builds a [`StorageLayout`] in a `const` item; this module is
//! the arithmetic, usable without the macro.

use crate::base::arch::Arch;
use crate::base::text::ConstText;
use crate::smem::placement::Placement;
use crate::tile::spec::TileLayout;

/// An mbarrier (`mbarrier.init/arrive/try_wait` operate on its 8 bytes in shared memory): a
/// storage member of 8 B, aligned to 8 B (PTX "Size and alignment of mbarrier object").
///
/// ```
/// assert_eq!((core::mem::size_of::<smemdesc_core::Mbarrier>(), core::mem::align_of::<smemdesc_core::Mbarrier>()), (8, 8));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(C, align(8))]
pub struct Mbarrier {
    /// The barrier's opaque 64-bit state.
    pub state: u64,
}

/// The alignment a dynamic shared-memory base is guaranteed to have (CUDA: 16 B). A kernel that
/// aligns the base itself to a storage's [`align`](StorageLayout::align) needs up to
/// `align - 16` more bytes ([`StorageLayout::launch_bytes`]).
///
/// ```
/// # use smemdesc_core::*;
/// let s = StorageLayout::plan("S", Arch::Sm90, [StorageMember::new("x", 64, 1024)]);
/// assert_eq!(s.slack(), 1024 - DYNAMIC_SMEM_BASE_ALIGN);
/// ```
pub const DYNAMIC_SMEM_BASE_ALIGN: u32 = 16;

/// One member of a storage: a name, its size and the alignment its offset must honour.
///
/// ```
/// # use smemdesc_core::*;
/// let a = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).stages(4).build().unwrap();
/// let m = StorageMember::tile("a", a, None);
/// assert_eq!((m.bytes, m.align), (65536, 1024));
/// let m = StorageMember::tile("a", a, Some(Placement::Absolute)); // TMA destination: 128 B (§7)
/// assert_eq!(m.align, 128);
/// assert_eq!(StorageMember::new("full", 4 * 8, 8).bytes, 32);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StorageMember {
    /// Name (the field's name), for messages.
    pub name: &'static str,
    /// Size in bytes.
    pub bytes: u32,
    /// Alignment of its offset (a power of two).
    pub align: u32,
    /// What the storage needs of the operand tile, for tile members.
    pub tile: Option<MemberTile>,
    /// The placement model a tile member is described with (`None`: on its repeat, where both
    /// models agree).
    pub placement: Option<Placement>,
}

impl StorageMember {
    /// A plain member (barriers, scalars, byte arrays).
    ///
    /// ```
    /// let m = smemdesc_core::StorageMember::new("epi", 16384, 128);
    /// assert!(m.tile.is_none());
    /// ```
    pub const fn new(name: &'static str, bytes: u32, align: u32) -> StorageMember {
        StorageMember {
            name,
            bytes,
            align,
            tile: None,
            placement: None,
        }
    }

    /// A plain member from `size_of`/`align_of` (saturating: a size past `u32` cannot fit anyway).
    ///
    /// ```
    /// let m = smemdesc_core::StorageMember::sized("full", core::mem::size_of::<[u64; 4]>(), 8);
    /// assert_eq!((m.bytes, m.align), (32, 8));
    /// ```
    pub const fn sized(name: &'static str, bytes: usize, align: usize) -> StorageMember {
        let max = u32::MAX as usize;
        StorageMember::new(
            name,
            if bytes > max { u32::MAX } else { bytes as u32 },
            if align > max { 0 } else { align as u32 },
        )
    }

    /// The member with its alignment raised to at least `align` (`#[smem(align = N)]`).
    ///
    /// ```
    /// let m = smemdesc_core::StorageMember::new("epi", 4096, 16).at_least(128);
    /// assert_eq!(m.align, 128);
    /// assert_eq!(m.at_least(8).align, 128);
    /// ```
    pub const fn at_least(mut self, align: u32) -> StorageMember {
        if align > self.align {
            self.align = align;
        }
        self
    }

    /// A tile member with all its stages: aligned to its swizzle pattern's repeat
    /// ([`TileLayout::align`]) unless `placement` opts into that model's smaller alignment
    /// ([`Placement::min_align`]: 128 B on sm90, the repeat on sm100).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let b = TileSpec::new(Arch::Sm100, ElementType::BF16, Major::K, 128, 64).build().unwrap();
    /// assert_eq!(StorageMember::tile("b", b, Some(Placement::Absolute)).align, 1024); // sm100
    /// ```
    pub const fn tile(
        name: &'static str,
        tile: TileLayout,
        placement: Option<Placement>,
    ) -> StorageMember {
        StorageMember {
            name,
            bytes: tile.bytes(),
            align: match placement {
                None => tile.align(),
                Some(p) => p.min_align(&tile),
            },
            tile: Some(MemberTile {
                arch: tile.spec().arch,
                align: tile.align(),
            }),
            placement,
        }
    }
}

/// What a storage keeps of a tile member's layout: its architecture (checked against the
/// storage's) and its swizzle pattern's repeat (the storage base's alignment under the relative
/// model). A few words, so that a storage's layout stays small for the const evaluator, which
/// copies it for every constant read off it.
///
/// ```
/// # use smemdesc_core::*;
/// let a = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).build().unwrap();
/// let t = StorageMember::tile("a", a, Some(Placement::Absolute)).tile.unwrap();
/// assert_eq!((t.arch, t.align), (Arch::Sm90, 1024));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MemberTile {
    /// The tile's architecture.
    pub arch: Arch,
    /// [`TileLayout::align`]: its swizzle pattern's repeat.
    pub align: u32,
}

/// Why a storage is refused.
///
/// ```
/// # use smemdesc_core::*;
/// let s = StorageLayout::plan("S", Arch::Sm90, [StorageMember::new("x", 8, 3)]);
/// assert_eq!(s.check(), Err(StorageProblem::AlignNotPowerOfTwo { member: 0 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StorageProblem {
    /// The members (plus the slack to align the dynamic base) exceed the per-CTA limit.
    OverBudget,
    /// Member `member`'s alignment is 0 or not a power of two.
    AlignNotPowerOfTwo {
        /// Index of the member.
        member: usize,
    },
    /// Tile member `member` was declared for another architecture than the storage.
    ArchMismatch {
        /// Index of the member.
        member: usize,
    },
}

/// The reason alone; [`StorageLayout::message`] names the storage and its members.
///
/// ```
/// # use smemdesc_core::*;
/// let e = StorageProblem::ArchMismatch { member: 2 };
/// assert_eq!(e.to_string(), "member 2 is a tile declared for another architecture than the storage [rule storage.same-arch; smemdesc model, smemdesc-core/src/smem/storage.rs]");
/// ```
impl StorageProblem {
    /// The message without its rule (`Display` adds the rule's id and source).
    pub(crate) fn fmt_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            StorageProblem::OverBudget => write!(
                f,
                "the members plus the slack to align the dynamic shared-memory base exceed the per-CTA shared-memory limit"
            ),
            StorageProblem::AlignNotPowerOfTwo { member } => {
                write!(f, "member {member} has an alignment that is 0 or not a power of two")
            }
            StorageProblem::ArchMismatch { member } => write!(
                f,
                "member {member} is a tile declared for another architecture than the storage"
            ),
        }
    }
}

/// The layout of one CTA's shared memory: every member's offset from the storage base (which must
/// be aligned to [`align`](Self::align)), in declaration order, each the smallest offset after the
/// previous member that honours the member's alignment.
///
/// ```
/// # use smemdesc_core::*;
/// let a = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).stages(4).build().unwrap();
/// const BAR: u32 = 8;
/// let s = StorageLayout::plan("S", Arch::Sm90, [
///     StorageMember::new("full", 4 * BAR, BAR),
///     StorageMember::tile("a", a, None),
///     StorageMember::new("flag", 4, 4),
/// ]);
/// assert_eq!(s.check(), Ok(()));
/// assert_eq!([s.offset(0), s.offset(1), s.offset(2)], [0, 1024, 1024 + 65536]);
/// assert_eq!((s.bytes(), s.align()), (1024 + 65536 + 4, 1024));
/// assert_eq!(s.launch_bytes(), s.bytes() + 1024 - 16);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StorageLayout<const N: usize> {
    name: &'static str,
    arch: Arch,
    members: [StorageMember; N],
    offsets: [u32; N],
    bytes: u32,
    align: u32,
}

const fn align_up(x: u64, a: u64) -> u64 {
    x.div_ceil(a) * a
}

/// `n B`, or, for a count saturated at `u32::MAX` (a sum past 4 GiB), "more than 4294967295 B
/// (overflows u32)" rather than a number that reads as exact.
const fn bytes_or_overflow(t: ConstText<2048>, n: u32) -> ConstText<2048> {
    if n == u32::MAX {
        t.str("more than 4294967295 B (overflows u32)")
    } else {
        t.num(n).str(" B")
    }
}

const fn sat(x: u64) -> u32 {
    if x > u32::MAX as u64 {
        u32::MAX
    } else {
        x as u32
    }
}

impl<const N: usize> StorageLayout<N> {
    /// Lays out `members` in order (never fails: check the result with [`check`](Self::check) or
    /// [`expect_fits`](Self::expect_fits); sizes saturate instead of wrapping).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let s = StorageLayout::plan("S", Arch::Sm90, [StorageMember::new("x", 3, 1), StorageMember::new("y", 8, 8)]);
    /// assert_eq!((s.offset(1), s.bytes(), s.align()), (8, 16, 16));
    /// ```
    pub const fn plan(
        name: &'static str,
        arch: Arch,
        members: [StorageMember; N],
    ) -> StorageLayout<N> {
        let mut offsets = [0u32; N];
        let mut end = 0u64;
        let mut align = DYNAMIC_SMEM_BASE_ALIGN;
        let mut i = 0;
        while i < N {
            let m = members[i];
            let a = if m.align.is_power_of_two() {
                m.align
            } else {
                1
            };
            if a > align {
                align = a;
            }
            // A relative-model tile's base_offset comes from its address modulo the pattern's
            // repeat: keep the storage base on that repeat so offsets alone fix it.
            if let (Some(t), Some(Placement::Relative)) = (m.tile, m.placement) {
                if t.align > align {
                    align = t.align;
                }
            }
            let off = align_up(end, a as u64);
            offsets[i] = sat(off);
            end = off + m.bytes as u64;
            i += 1;
        }
        StorageLayout {
            name,
            arch,
            members,
            offsets,
            bytes: sat(end),
            align,
        }
    }

    /// The storage's name.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(StorageLayout::plan("S", Arch::Sm90, [StorageMember::new("x", 4, 4)]).name(), "S");
    /// ```
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The architecture whose per-CTA limit applies.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(StorageLayout::plan("S", Arch::Sm100, [StorageMember::new("x", 4, 4)]).arch(), Arch::Sm100);
    /// ```
    pub const fn arch(&self) -> Arch {
        self.arch
    }

    /// Number of members (`N`).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(StorageLayout::plan("S", Arch::Sm90, [StorageMember::new("x", 4, 4)]).member_count(), 1);
    /// ```
    pub const fn member_count(&self) -> usize {
        N
    }

    /// Member `i`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(StorageLayout::plan("S", Arch::Sm90, [StorageMember::new("x", 4, 4)]).member(0).name, "x");
    /// ```
    pub const fn member(&self, i: usize) -> StorageMember {
        self.members[i]
    }

    /// Size in bytes of member `i` (`member(i).bytes`, without copying the member: what the
    /// macro's `*_BYTES` constants read, cheaply in the const evaluator).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let s = StorageLayout::plan("S", Arch::Sm90, [StorageMember::new("x", 4, 4), StorageMember::new("y", 24, 8)]);
    /// assert_eq!((s.member_bytes(1), s.member_align(1)), (24, 8));
    /// ```
    pub const fn member_bytes(&self, i: usize) -> u32 {
        self.members[i].bytes
    }

    /// Alignment of member `i` (`member(i).align`, without copying the member).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let s = StorageLayout::plan("S", Arch::Sm90, [StorageMember::new("x", 4, 4)]);
    /// assert_eq!(s.member_align(0), 4);
    /// ```
    pub const fn member_align(&self, i: usize) -> u32 {
        self.members[i].align
    }

    /// Byte offset of member `i` from the (aligned) storage base.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let s = StorageLayout::plan("S", Arch::Sm90, [StorageMember::new("x", 4, 4), StorageMember::new("y", 4, 128)]);
    /// assert_eq!(s.offset(1), 128);
    /// ```
    pub const fn offset(&self, i: usize) -> u32 {
        self.offsets[i]
    }

    /// Bytes from the base to the end of the last member.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(StorageLayout::plan("S", Arch::Sm90, [StorageMember::new("x", 5, 1)]).bytes(), 5);
    /// ```
    pub const fn bytes(&self) -> u32 {
        self.bytes
    }

    /// The alignment the storage base needs: the largest member alignment, at least 16 B.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(StorageLayout::plan("S", Arch::Sm90, [StorageMember::new("x", 4, 512)]).align(), 512);
    /// ```
    pub const fn align(&self) -> u32 {
        self.align
    }

    /// Slack a kernel needs to align a 16-B aligned dynamic shared-memory base to
    /// [`align`](Self::align) itself: `align - 16`.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(StorageLayout::plan("S", Arch::Sm90, [StorageMember::new("x", 4, 1024)]).slack(), 1008);
    /// ```
    pub const fn slack(&self) -> u32 {
        self.align - DYNAMIC_SMEM_BASE_ALIGN
    }

    /// The `sharedMemBytes` to launch with when the kernel aligns its dynamic shared-memory base
    /// itself ([`aligned_base`](Self::aligned_base)): [`bytes`](Self::bytes) + [`slack`](Self::slack).
    /// This is what [`check`](Self::check) holds against the per-CTA limit.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// assert_eq!(StorageLayout::plan("S", Arch::Sm90, [StorageMember::new("x", 4, 128)]).launch_bytes(), 4 + 112);
    /// ```
    pub const fn launch_bytes(&self) -> u32 {
        sat(self.bytes as u64 + self.slack() as u64)
    }

    /// The storage base for a dynamic shared-memory base address `dyn_base`: rounded up to
    /// [`align`](Self::align) (at most [`slack`](Self::slack) bytes further for a 16-B aligned base).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let s = StorageLayout::plan("S", Arch::Sm90, [StorageMember::new("x", 4, 1024)]);
    /// assert_eq!((s.aligned_base(0x410), s.aligned_base(0x800)), (0x800, 0x800));
    /// ```
    pub const fn aligned_base(&self, dyn_base: u32) -> u32 {
        (dyn_base + (self.align - 1)) & !(self.align - 1)
    }

    /// The first problem, if any: a member alignment that is not a power of two, a tile member of
    /// another architecture, or [`launch_bytes`](Self::launch_bytes) over the per-CTA limit
    /// ([`Arch::max_smem_per_cta`]).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let s = StorageLayout::plan("S", Arch::Sm90, [StorageMember::new("x", 232448, 16)]);
    /// assert_eq!(s.check(), Ok(()));
    /// let s = StorageLayout::plan("S", Arch::Sm90, [StorageMember::new("x", 232448, 32)]);
    /// assert_eq!(s.check(), Err(StorageProblem::OverBudget)); // + 16 B slack
    /// ```
    pub const fn check(&self) -> Result<(), StorageProblem> {
        let mut i = 0;
        while i < N {
            let m = self.members[i];
            if !m.align.is_power_of_two() {
                return Err(StorageProblem::AlignNotPowerOfTwo { member: i });
            }
            if let Some(t) = m.tile {
                if !t.arch.is(self.arch) {
                    return Err(StorageProblem::ArchMismatch { member: i });
                }
            }
            i += 1;
        }
        if self.launch_bytes() > self.arch.max_smem_per_cta() {
            return Err(StorageProblem::OverBudget);
        }
        Ok(())
    }

    /// The layout if [`check`](Self::check) passes; otherwise a compile-time panic (in a `const`
    /// item) whose message names every member with its size, offset and alignment.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// const S: StorageLayout<1> = StorageLayout::plan("S", Arch::Sm90, [StorageMember::new("x", 64, 8)]).expect_fits();
    /// assert_eq!(S.bytes(), 64);
    /// ```
    pub const fn expect_fits(self) -> StorageLayout<N> {
        match self.check() {
            Ok(()) => self,
            Err(_) => panic!("{}", self.message().as_str()),
        }
    }

    /// What is wrong (or the layout, when nothing is), naming every member with its size.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let s = StorageLayout::plan("S", Arch::Sm90, [StorageMember::new("a", 200000, 1024), StorageMember::new("b", 40000, 8)]);
    /// let m = s.message();
    /// assert!(m.as_str().starts_with("shared storage `S` does not fit: 240000 B of members + 1008 B slack"));
    /// assert!(m.as_str().contains("a: 200000 B at 0 (align 1024); b: 40000 B at 200000 (align 8)"));
    /// ```
    pub const fn message(&self) -> ConstText<2048> {
        let t = ConstText::new()
            .str("shared storage `")
            .str(self.name)
            .str("` ");
        let t = match self.check() {
            Ok(()) => t.str("fits: "),
            Err(StorageProblem::OverBudget) => t.str("does not fit: "),
            Err(StorageProblem::AlignNotPowerOfTwo { member }) => t
                .str("member `")
                .str(self.members[member].name)
                .str("` has alignment ")
                .num(self.members[member].align)
                .str(" B, which is not a power of two; ")
                .str("members: "),
            Err(StorageProblem::ArchMismatch { member }) => t
                .str("member `")
                .str(self.members[member].name)
                .str("` is a tile for another architecture than the storage's ")
                .str(self.arch.name())
                .str("; members: "),
        };
        let t = match self.check() {
            Ok(()) | Err(StorageProblem::OverBudget) => {
                let t = bytes_or_overflow(t, self.bytes)
                    .str(" of members + ")
                    .num(self.slack())
                    .str(" B slack (to align a 16-B aligned dynamic base to ")
                    .num(self.align)
                    .str(" B) = ");
                bytes_or_overflow(t, self.launch_bytes())
                    .str("; ")
                    .str(self.arch.name())
                    .str(" allows ")
                    .num(self.arch.max_smem_per_cta())
                    .str(" B per CTA. Members: ")
            }
            _ => t,
        };
        let mut t = t;
        let mut i = 0;
        while i < N {
            let m = self.members[i];
            if i > 0 {
                t = t.str("; ");
            }
            t = bytes_or_overflow(t.str(m.name).str(": "), m.bytes).str(" at ");
            t = if self.offsets[i] == u32::MAX {
                t.str("an offset past 4294967295 (overflows u32)")
            } else {
                t.num(self.offsets[i])
            }
            .str(" (align ")
            .num(m.align)
            .str(")");
            i += 1;
        }
        t
    }
}
