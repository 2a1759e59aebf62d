//! Bundle traits for generic Hopper kernels: what a GMMA operand's majority means for its
//! shared-memory tile, its TMA loads and its `wgmma` descriptors, in one bound.
//!
//! A kernel generic over `MA: SmemOperand<_128, _64>` (A: a 128-row tile read by `m64`
//! `wgmma`s) and `MB: SmemOperand<_256, _256>` (B: a 256-row tile read whole by `n256`
//! `wgmma`s) needs no other `where` clause: the impls (one per majority and tile, an impl table)
//! hold the typed layer's concrete types. The tiles are CuTe's 16-bit 128-byte-swizzle GMMA
//! atoms tiled by [`tile_to_shape`] to `(Rows, 64)`:
//!
//! - [`MajorK`]: `Layout_K_SW128_Atom` in `LayoutLeft` order; one TMA box of `64 (K) × Rows`.
//! - [`MajorMN`]: `Layout_MN_SW128_Atom` in K-then-MN order (`Step<_2,_1>`); one TMA box of
//!   `64 (MN) × 64 (K)` per 64 rows.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! use device::wgmma::{MajorK, MajorMN};
//! use layout_types::cutlass::gmma_operand::SmemOperand;
//! fn stage_bytes<MA: SmemOperand<_128, _64>, MB: SmemOperand<_256, _256>>() -> usize {
//!     MA::BYTES + MB::BYTES
//! }
//! assert_eq!(stage_bytes::<MajorK, MajorMN>(), 2 * (128 + 256) * 64);
//! // K-major: the 16-column k-block 1 of the 64-row block 1 starts 64 rows and 32 bytes in
//! let buf = 0x1000 as *mut u16;
//! let (d0, d1) = (<MajorK as SmemOperand<_128, _64>>::gmma_desc(buf, 0, 0),
//!                 <MajorK as SmemOperand<_128, _64>>::gmma_desc(buf, 1, 1));
//! assert_eq!((d1 & 0x3fff) - (d0 & 0x3fff), ((64 * 64 * 2 + 32) / 16) as u64);
//! ```

use crate::cute::atom::gmma::{
    Layout_K_SW128_Atom, Layout_MN_SW128_Atom, make_gmma_desc_tensor, tile_to_shape,
};
use crate::cute::atom::tma::{BoxLayout, TmaAtom, TmaBox, TmaLoad, TmaLoadMulticast};
use crate::cute::int::StaticInt;
use crate::cute::prelude::*;
use crate::cute::stride::LayoutLeft;
use crate::cute::swizzle::Swizzled;
use crate::value::swizzle::Swizzle;
use device::tma::TmaDescriptor;
use device::wgmma::{GmmaMajor, MajorK, MajorMN};

/// The TMA box of a K-major 16-bit operand tile of `Rows` rows: `64 (K) × Rows`, K contiguous,
/// the 128-byte swizzle (`Sw<3,3,3>` in elements: [`Layout_K_SW128_Atom`]'s `Sw<3,4,3>` in
/// bytes), coordinates `(k, row)`. [`SmemOperand::Box`] of [`MajorK`] (and, of half the rows,
/// its [`SmemOperandMulticast::MulticastBox`]).
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cutlass::gmma_operand::KMajorBox;
/// assert_eq!(KMajorBox::<_128>::default().to_string(), "Sw<3,3,3> o _0 o (_64,_128):(_1,_64)");
/// ```
pub type KMajorBox<Rows> = Swizzled<Swizzle<3, 3, 3>, Layout<(_64, Rows), (_1, _64)>>;

/// The TMA box of an MN-major 16-bit operand tile: `64 (MN) × 64 (K)`, MN contiguous, the
/// 128-byte swizzle, coordinates `(row, k)`; a tile of `Rows` rows is `Rows / 64` of them.
/// [`SmemOperand::Box`] (and [`SmemOperandMulticast::MulticastBox`]) of [`MajorMN`].
///
/// ```
/// use layout_types::cutlass::gmma_operand::MnMajorBox;
/// assert_eq!(MnMajorBox::default().to_string(), "Sw<3,3,3> o _0 o (_64,_64):(_1,_64)");
/// ```
pub type MnMajorBox = Swizzled<Swizzle<3, 3, 3>, Layout<(_64, _64), (_1, _64)>>;

/// A GMMA operand's majority as its `(Rows, 64)` 16-bit SW128 shared-memory tile, read by
/// `wgmma`s of `Block` rows (M = 64 for A, N for B).
pub trait SmemOperand<Rows, Block>: GmmaMajor {
    /// Elements of the tile: `Rows × 64`.
    const ELEMS: usize;
    /// Bytes of the tile (one pipeline stage of this operand).
    const BYTES: usize = 2 * Self::ELEMS;
    /// The box of the tile's TMA loads ([`KMajorBox`] of `Rows`, [`MnMajorBox`]): the layout
    /// of [`tma_load`](Self::tma_load)'s atom and the box the host encodes the operand's tensor
    /// map with.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use device::wgmma::{MajorK, MajorMN};
    /// use layout_types::cutlass::gmma_operand::SmemOperand;
    /// let k = <<MajorK as SmemOperand<_256, _256>>::Box>::default();
    /// assert_eq!(k.to_string(), "Sw<3,3,3> o _0 o (_64,_256):(_1,_64)");
    /// let mn = <<MajorMN as SmemOperand<_256, _256>>::Box>::default();
    /// assert_eq!(mn.to_string(), "Sw<3,3,3> o _0 o (_64,_64):(_1,_64)");
    /// ```
    type Box: TmaBox;
    /// The tile's layout (`tile_to_shape` of the majority's SW128 atom).
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use device::wgmma::MajorK;
    /// use layout_types::cutlass::gmma_operand::SmemOperand;
    /// let t = <MajorK as SmemOperand<_128, _64>>::smem_tile();
    /// assert_eq!(t.to_string(), "Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_16),(_64,_1)):((_64,_512),(_1,_0))");
    /// ```
    fn smem_tile() -> impl Copy + core::fmt::Display;
    /// Loads the `(Rows, 64)` k-tile of the operand at rows `mn0..`, columns `k0..` into `buf`
    /// with TMA, completing [`BYTES`](Self::BYTES) on `bar`.
    ///
    /// # Safety
    /// `desc` is a tensor map of the operand with the box [`Box`](Self::Box); `buf` is
    /// 1024-byte aligned shared memory of the tile; `bar` a full barrier expecting the bytes.
    unsafe fn tma_load(desc: *const TmaDescriptor, bar: *mut u64, buf: *mut u16, mn0: i32, k0: i32);
    /// The `wgmma` descriptor of the `(Block, 16)` piece `(mn_block, kb)` of the tile in `buf`
    /// (CuTe: `make_gmma_desc_tensor` over `zipped_divide(tile, (Block, 16))`): the one-stage
    /// [`gmma_descs`](Self::gmma_descs).
    #[inline(always)]
    fn gmma_desc(buf: *mut u16, mn_block: i32, kb: i32) -> u64 {
        Self::gmma_descs(buf, 1, 0)(mn_block, kb, 0)
    }
    /// The descriptor tensor of the tile's `(Block, 16)` pieces over `stages` pipeline stages
    /// (stage `s`'s tile `s · stage_elems` elements after stage 0's at `buf0`): the pieces'
    /// [`make_gmma_desc_tensor`] with the stage mode `(stages):(stage_elems)` appended (CuTe's
    /// `tCrA(_, m, kb, stage)` of `partition_fragment_A` over `(Rows, 64, Stages)`), built once
    /// (one address conversion, outside the mainloop): `(mn_block, kb, stage)` → the descriptor,
    /// the base descriptor plus the piece's offset in 16-byte units (32-bit adds, uniform
    /// registers when the stage index is). The base is broadcast from lane 0
    /// ([`DescriptorIterator::warp_uniform`](crate::cute::atom::gmma::DescriptorIterator::warp_uniform)):
    /// every lane of the warp calls this, and a base made before a loop is held across it.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use device::wgmma::MajorK;
    /// use layout_types::cutlass::gmma_operand::SmemOperand;
    /// type A = MajorK;
    /// let buf = 0x1000 as *mut u16;
    /// let descs = <A as SmemOperand<_128, _64>>::gmma_descs(buf, 4, 128 * 64);
    /// // stage 2's piece (1, 3) is the tile's piece at stage 2's address
    /// let stage2 = unsafe { buf.add(2 * 128 * 64) };
    /// assert_eq!(descs(1, 3, 2), <A as SmemOperand<_128, _64>>::gmma_desc(stage2, 1, 3));
    /// ```
    fn gmma_descs(
        buf0: *mut u16,
        stages: u32,
        stage_elems: i32,
    ) -> impl Fn(i32, i32, u32) -> u64 + Copy;
}

/// An operand tile shared by a cluster of 2 CTAs: CTA `rank` loads its half of the rows and
/// multicasts it into both (mask `0b11`), at the same offsets.
pub trait SmemOperandMulticast<Rows, Block>: SmemOperand<Rows, Block> {
    /// The box one CTA loads and multicasts: K-major, [`KMajorBox`] of `Rows / 2`; MN-major,
    /// [`MnMajorBox`] (the half tile is whole boxes). The host encodes a cluster's tensor map
    /// with it.
    ///
    /// ```
    /// use layout_types::cute::prelude::*;
    /// use device::wgmma::MajorK;
    /// use layout_types::cutlass::gmma_operand::SmemOperandMulticast;
    /// let half = <<MajorK as SmemOperandMulticast<_256, _256>>::MulticastBox>::default();
    /// assert_eq!(half.to_string(), "Sw<3,3,3> o _0 o (_64,_128):(_1,_64)");
    /// ```
    type MulticastBox: TmaBox;
    /// This CTA's half of the k-tile at `(mn0, k0)`, multicast into both CTAs of the cluster.
    ///
    /// # Safety
    /// As [`SmemOperand::tma_load`]; the tensor map's box is
    /// [`MulticastBox`](Self::MulticastBox) (K-major: the half tile's `64 × Rows/2`); both CTAs'
    /// `bar` expect the whole tile.
    unsafe fn tma_load_multicast(
        desc: *const TmaDescriptor,
        bar: *mut u64,
        buf: *mut u16,
        mn0: i32,
        k0: i32,
        rank: i32,
    );
}

/// The body of [`SmemOperand::gmma_descs`] for one majority (its SW128 atom and tile order).
macro_rules! staged_gmma_descs {
    ($major:ident, $atom:ident, $order:expr, $rows:ty, $block:ty, $buf0:ident, $stages:ident, $stage_elems:ident) => {{
        let s = tile_to_shape($atom::<u16>::new(), (<$rows>::default(), _64), $order);
        let staged = zipped_divide(s.layout, (<$block>::default(), _16))
            .append(make_layout($stages as i32, $stage_elems));
        // the base broadcast from lane 0 where this is called (the mainloop: per tile, every
        // lane), so held across the k-loop, not rebuilt from the address in each k-tile
        // (`DescriptorIterator::warp_uniform`)
        let d = make_gmma_desc_tensor(
            $major,
            make_tensor(make_smem_ptr($buf0), s.with_layout(staged)),
        )
        .warp_uniform();
        move |mn_block: i32, kb: i32, st: u32| d.at((_0, (mn_block, kb), st as i32)).desc.desc
    }};
}

/// The impl table of the K-major tiles: `(Rows, Block, Rows/2)`.
macro_rules! k_major_operand {
    ($rows:ty, $block:ty, $half:ty) => {
        impl SmemOperand<$rows, $block> for MajorK {
            const ELEMS: usize = <$rows>::VALUE as usize * 64;
            type Box = KMajorBox<$rows>;
            #[inline(always)]
            fn smem_tile() -> impl Copy + core::fmt::Display {
                tile_to_shape(
                    Layout_K_SW128_Atom::<u16>::new(),
                    (<$rows>::default(), _64),
                    LayoutLeft,
                )
            }
            #[inline(always)]
            unsafe fn tma_load(
                desc: *const TmaDescriptor,
                bar: *mut u64,
                buf: *mut u16,
                mn0: i32,
                k0: i32,
            ) {
                let atom = TmaAtom::<
                    TmaLoad,
                    u16,
                    BoxLayout<<Self as SmemOperand<$rows, $block>>::Box>,
                >::new(desc);
                unsafe { atom.copy(bar, buf, [k0, mn0]) };
            }
            #[inline(always)]
            fn gmma_descs(
                buf0: *mut u16,
                stages: u32,
                stage_elems: i32,
            ) -> impl Fn(i32, i32, u32) -> u64 + Copy {
                staged_gmma_descs!(
                    MajorK,
                    Layout_K_SW128_Atom,
                    LayoutLeft,
                    $rows,
                    $block,
                    buf0,
                    stages,
                    stage_elems
                )
            }
        }
        impl SmemOperandMulticast<$rows, $block> for MajorK {
            type MulticastBox = KMajorBox<$half>;
            #[inline(always)]
            unsafe fn tma_load_multicast(
                desc: *const TmaDescriptor,
                bar: *mut u64,
                buf: *mut u16,
                mn0: i32,
                k0: i32,
                rank: i32,
            ) {
                let s = tile_to_shape(
                    Layout_K_SW128_Atom::<u16>::new(),
                    (<$rows>::default(), _64),
                    LayoutLeft,
                );
                let atom = TmaAtom::<
                    TmaLoadMulticast,
                    u16,
                    BoxLayout<<Self as SmemOperandMulticast<$rows, $block>>::MulticastBox>,
                >::new(desc);
                // this CTA's rows: the (Rows/2, 2) split of the tile's rows
                let row = make_layout_left((<$half>::default(), _2))
                    .crd2idx((0i32, rank))
                    .value() as i32;
                let at = s.layout.crd2idx((row, 0i32)).value() as usize;
                unsafe { atom.copy(bar, buf.add(at), 0b11, [k0, mn0 + row]) };
            }
        }
    };
}

/// The impl table of the MN-major tiles: `(Rows, Block)`; `load only`: no multicast (a tile of
/// one 64-row box has no half of whole boxes).
macro_rules! mn_major_operand {
    ($rows:ty, $block:ty) => {
        mn_major_operand!(load only $rows, $block);
        mn_major_operand!(multicast $rows, $block);
    };
    (load only $rows:ty, $block:ty) => {
        impl SmemOperand<$rows, $block> for MajorMN {
            const ELEMS: usize = <$rows>::VALUE as usize * 64;
            type Box = MnMajorBox;
            #[inline(always)]
            fn smem_tile() -> impl Copy + core::fmt::Display {
                tile_to_shape(
                    Layout_MN_SW128_Atom::<u16>::new(),
                    (<$rows>::default(), _64),
                    (_2, _1),
                )
            }
            #[inline(always)]
            unsafe fn tma_load(
                desc: *const TmaDescriptor,
                bar: *mut u64,
                buf: *mut u16,
                mn0: i32,
                k0: i32,
            ) {
                let s = tile_to_shape(
                    Layout_MN_SW128_Atom::<u16>::new(),
                    (<$rows>::default(), _64),
                    (_2, _1),
                );
                let atom =
                    TmaAtom::<TmaLoad, u16, BoxLayout<<Self as SmemOperand<$rows, $block>>::Box>>::new(desc);
                // the tile's rows as (64 rows of a box, box)
                let boxes = <$rows>::default().ceil_div(_64);
                let rows = make_layout_left((_64, boxes));
                for i in 0..boxes.value() as i32 {
                    let row = rows.crd2idx((0i32, i));
                    let at = s.layout.crd2idx((row, 0i32)).value() as usize;
                    unsafe { atom.copy(bar, buf.add(at), [mn0 + row, k0]) };
                }
            }
            #[inline(always)]
            fn gmma_descs(
                buf0: *mut u16,
                stages: u32,
                stage_elems: i32,
            ) -> impl Fn(i32, i32, u32) -> u64 + Copy {
                staged_gmma_descs!(MajorMN, Layout_MN_SW128_Atom, (_2, _1), $rows, $block, buf0, stages, stage_elems)
            }
        }
    };
    // an odd count of 64-row boxes (192 rows: three): the boxes dealt out to the two CTAs in turn,
    // (box row, CTA, turn), the last turn one box short
    (interleaved $rows:ty, $block:ty) => {
        mn_major_operand!(load only $rows, $block);
        mn_major_operand!(dealt $rows, $block, |rank, turn| {
            make_layout_left((_64, _2, <$rows>::default().ceil_div(_128))).crd2idx((0i32, rank, turn))
        });
    };
    // an even count: this CTA's half, 64-row boxes (box row, turn, CTA) of the tile's rows
    (multicast $rows:ty, $block:ty) => {
        mn_major_operand!(dealt $rows, $block, |rank, turn| {
            make_layout_left((_64, <$rows>::default().ceil_div(_128), _2)).crd2idx((0i32, turn, rank))
        });
    };
    // the tile's 64-row boxes dealt to the cluster's two CTAs, each box multicast to both:
    // `$deal(rank, turn)` the first row of CTA `rank`'s box in `turn` (of ⌈Rows / 128⌉), a box
    // at or past the tile's rows not loaded (the interleaved deal's last turn)
    (dealt $rows:ty, $block:ty, $deal:expr) => {
        impl SmemOperandMulticast<$rows, $block> for MajorMN {
            type MulticastBox = MnMajorBox;
            #[inline(always)]
            unsafe fn tma_load_multicast(
                desc: *const TmaDescriptor,
                bar: *mut u64,
                buf: *mut u16,
                mn0: i32,
                k0: i32,
                rank: i32,
            ) {
                let s = tile_to_shape(
                    Layout_MN_SW128_Atom::<u16>::new(),
                    (<$rows>::default(), _64),
                    (_2, _1),
                );
                let atom = TmaAtom::<
                    TmaLoadMulticast,
                    u16,
                    BoxLayout<<Self as SmemOperandMulticast<$rows, $block>>::MulticastBox>,
                >::new(desc);
                let turns = <$rows>::default().ceil_div(_128).value() as i32;
                // a short last turn only where the turns' boxes outnumber the tile's (folds)
                let short = 128 * turns > <$rows>::VALUE as i32;
                for turn in 0..turns {
                    let row = ($deal)(rank, turn);
                    if short && row.value() as i32 >= <$rows>::VALUE as i32 {
                        break;
                    }
                    let at = s.layout.crd2idx((row, 0i32)).value() as usize;
                    unsafe { atom.copy(bar, buf.add(at), 0b11, [mn0 + row, k0]) };
                }
            }
        }
    };
}

k_major_operand!(_128, _64, _64);
// B's 128-row tile read whole by `n128` `wgmma`s (the 128-wide CTA tiles)
k_major_operand!(_128, _128, _64);
k_major_operand!(_256, _256, _128);
// the promoted FP8 kernel's B (`m64n160k32` / `m64n192k32` per consumer: CUTLASS's and
// cuBLASLt's 128 × 160, and 128 × 192)
k_major_operand!(_160, _160, _80);
k_major_operand!(_192, _192, _96);
// A's tile of the ping-pong schedule: one 64-row block per consumer warpgroup's tile
k_major_operand!(_64, _64, _32);
mn_major_operand!(_128, _64);
mn_major_operand!(_128, _128);
mn_major_operand!(_256, _256);
mn_major_operand!(load only _64, _64);
// B's 192-row tile of the 16-bit 128 × 192 tiles, MN-major ("NT", "TT")
mn_major_operand!(interleaved _192, _192);

/// One stage of an operand's shared memory: `N` 16-bit elements, 1024-byte aligned (the SW128
/// pattern's period).
///
/// ```
/// use layout_types::cutlass::gmma_operand::SmemTile;
/// assert_eq!((core::mem::size_of::<SmemTile<8192>>(), core::mem::align_of::<SmemTile<8192>>()), (16384, 1024));
/// ```
#[repr(C, align(1024))]
pub struct SmemTile<const N: usize>(pub [u16; N]);

impl<const N: usize> SmemTile<N> {
    /// The tile's first element (a pointer into the storage, no reference taken).
    ///
    /// # Safety
    /// `this` points into live memory of the tile.
    ///
    /// ```
    /// use layout_types::cutlass::gmma_operand::SmemTile;
    /// let mut t = SmemTile::<4>([0; 4]);
    /// assert_eq!(unsafe { SmemTile::ptr(&raw mut t) }, t.0.as_mut_ptr());
    /// ```
    #[inline(always)]
    pub unsafe fn ptr(this: *mut Self) -> *mut u16 {
        unsafe { (&raw mut (*this).0) as *mut u16 }
    }
}

/// A GEMM kernel's shared memory as one `#[repr(C)]` struct (CUTLASS's kernel
/// `SharedStorage`): `STAGES` tiles of A, then of B, the epilogue's storage `E` (its tensors),
/// the mainloop pipeline's barriers, then the epilogue's pipeline storage `EP` (CUTLASS's
/// `EpiLoadPipeline`'s barriers: `()` for none). Its `size_of` is the dynamic shared memory a
/// launch asks for, on the host as in the kernel.
///
/// ```
/// use layout_types::cutlass::gmma_operand::{GemmSharedStorage, SmemTile};
/// type S = GemmSharedStorage<SmemTile<8192>, SmemTile<16384>, [u8; 0], 4>;
/// assert_eq!(core::mem::size_of::<S>(), 4 * (16384 + 32768) + 1024); // barriers, padded
/// // an epilogue's barriers beside the mainloop's, in the same padding
/// type T = GemmSharedStorage<SmemTile<8192>, SmemTile<16384>, [u8; 0], 4, [u64; 8]>;
/// assert_eq!(core::mem::size_of::<T>(), core::mem::size_of::<S>());
/// ```
#[repr(C)]
pub struct GemmSharedStorage<A, B, E, const STAGES: usize, EP = ()> {
    /// A's stages.
    pub a: [A; STAGES],
    /// B's stages.
    pub b: [B; STAGES],
    /// The epilogue's storage.
    pub epilogue: E,
    /// The pipeline's full and empty barriers.
    pub pipeline: super::pipeline::PipelineStorage<STAGES>,
    /// The epilogue's pipeline storage (its barriers).
    pub epilogue_pipeline: EP,
}

/// A kernel's shared memory with storage `T` per pipeline stage beside the mainloop's tiles
/// (what an accumulation brings with each stage: DeepGEMM's block scales, loaded by TMA with
/// the stage's A and B), `#[repr(C)]`: the GEMM's storage `S` first, then the `STAGES` stage
/// storages (padded to `S`'s alignment). With `T = ()` it is `S`'s size.
///
/// ```
/// use layout_types::cutlass::gmma_operand::{GemmSharedStorage, SmemScales, SmemTile, StagedSharedStorage};
/// type G = GemmSharedStorage<SmemTile<8192>, SmemTile<8192>, [u8; 0], 4>;
/// assert_eq!(size_of::<StagedSharedStorage<G, (), 4>>(), size_of::<G>());
/// // a stage's 128 row scales of A and B's block scale (a 16-byte box), 128-byte aligned
/// assert_eq!(size_of::<SmemScales<128, 4>>(), 640);
/// // padded to the GEMM storage's alignment (1024 bytes)
/// assert_eq!(size_of::<StagedSharedStorage<G, SmemScales<128, 4>, 4>>(), (size_of::<G>() + 4 * 640).next_multiple_of(1024));
/// ```
#[repr(C)]
pub struct StagedSharedStorage<S, T, const STAGES: usize> {
    /// The GEMM's storage (stages, epilogue, barriers).
    pub gemm: S,
    /// The per-stage storage.
    pub stages: [T; STAGES],
}

/// One stage's FP8 block scales in shared memory (DeepGEMM's `smem_sfa` / `smem_sfb`): `A`
/// scales of A's rows (the CTA tile's rows, one k-block) and B's box of `B` (its first element
/// the tile's N-block scale), each a TMA destination (128-byte aligned).
#[repr(C, align(128))]
pub struct SmemScales<const A: usize, const B: usize> {
    /// A's rows' scales.
    pub a: [f32; A],
    /// B's scale box.
    pub b: [f32; B],
}

/// The TMA box of A's FP8 block scales in a [`SmemScales`] stage: `Rows` `f32` (the CTA
/// tile's rows of one k-block), contiguous, unswizzled; the kernel loads it from the 1-D
/// tensor of the scales, the host encodes that tensor's map with it.
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cutlass::gmma_operand::ScaleBoxA;
/// use layout_types::cute::atom::tma::{BoxLayout, TmaAtom, TmaLoad};
/// assert_eq!(ScaleBoxA::<_128>::default().to_string(), "Sw<0,4,3> o _0 o _128:_1");
/// assert_eq!(TmaAtom::<TmaLoad, f32, BoxLayout<ScaleBoxA<_64>>>::TX_BYTES, 256);
/// ```
pub type ScaleBoxA<Rows> = Swizzled<Swizzle<0, 4, 3>, Layout<Rows, _1>>;

/// The TMA box of A's FP8 block scales of four k-blocks at once: `Rows` rows of each (a
/// [`ScaleBoxA`] a k-block), the k-blocks one after another — `(Rows, 4):(1, Rows)`,
/// unswizzled; the kernel loads it from the 2-D tensor `(M, ⌈K/128⌉):(1, M)` of the scales
/// (`M` a multiple of 4: a row of k-blocks starts 16-byte aligned), the host encodes that
/// tensor's map with it.
///
/// ```
/// use layout_types::cute::prelude::*;
/// use layout_types::cutlass::gmma_operand::ScaleBoxA4;
/// use layout_types::cute::atom::tma::{BoxLayout, TmaAtom, TmaLoad};
/// assert_eq!(ScaleBoxA4::<_64>::default().to_string(), "Sw<0,4,3> o _0 o (_64,_4):(_1,_64)");
/// assert_eq!(TmaAtom::<TmaLoad, f32, BoxLayout<ScaleBoxA4<_64>>>::TX_BYTES, 1024);
/// ```
pub type ScaleBoxA4<Rows> = Swizzled<Swizzle<0, 4, 3>, Layout<(Rows, _4), (_1, Rows)>>;

/// The k-blocks of one [`ScaleBoxA4`], `size<1>` of its layout: the group of k-tiles whose
/// row scales one box brings (the kernel's `MmaAccumulation::K_GROUP`, the host's
/// `Fp8BlockEntry::K_GROUP`).
///
/// ```
/// use layout_types::cutlass::gmma_operand::SCALE_BOX_A4_K_BLOCKS;
/// assert_eq!(SCALE_BOX_A4_K_BLOCKS, 4);
/// ```
pub const SCALE_BOX_A4_K_BLOCKS: usize = <BoxLayout<ScaleBoxA4<_64>> as StaticLayoutValue>::LAYOUT
    .shape
    .get(1)
    .size()
    .v as usize;

/// The TMA box of B's FP8 block scales: 4 `f32` (TMA's 16 bytes), the first the tile's
/// N-block scale.
///
/// ```
/// use layout_types::cutlass::gmma_operand::ScaleBoxB;
/// assert_eq!(ScaleBoxB::default().to_string(), "Sw<0,4,3> o _0 o _4:_1");
/// ```
pub type ScaleBoxB = Swizzled<Swizzle<0, 4, 3>, Layout<_4, _1>>;

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::string::ToString;

    /// The impl table's tiles are their majority's SW128 atom tiled to `(Rows, 64)` (CuTe's
    /// `tile_to_shape`), and the descriptors' start addresses step as the tile's layout says:
    /// K-major, 32 bytes per 16-column k-block (inside the swizzle atom) and 64 rows · 128 bytes
    /// per 64-row block; MN-major, 16 columns · 64 rows · 2 bytes per k-block and 8 KiB per
    /// 64-row block.
    #[test]
    fn tiles_and_descriptors() {
        let sw = "Sw<3,4,3> o smem_ptr[16b](unset) o ";
        for (t, want) in [
            (
                <MajorK as SmemOperand<_128, _64>>::smem_tile().to_string(),
                "((_8,_16),(_64,_1)):((_64,_512),(_1,_0))",
            ),
            (
                <MajorMN as SmemOperand<_128, _64>>::smem_tile().to_string(),
                "((_64,_2),(_8,_8)):((_1,_4096),(_64,_512))",
            ),
            (
                <MajorK as SmemOperand<_256, _256>>::smem_tile().to_string(),
                "((_8,_32),(_64,_1)):((_64,_512),(_1,_0))",
            ),
            (
                <MajorMN as SmemOperand<_256, _256>>::smem_tile().to_string(),
                "((_64,_4),(_8,_8)):((_1,_4096),(_64,_512))",
            ),
        ] {
            assert_eq!(t, std::format!("{sw}{want}"));
        }
        let buf = 0x4000 as *mut u16;
        let addr = |d: u64| (d & 0x3fff) * 16;
        for (mb, kb) in [(0u64, 0u64), (0, 1), (1, 0), (1, 3)] {
            let (m, k) = (mb as i32, kb as i32);
            assert_eq!(
                addr(<MajorK as SmemOperand<_128, _64>>::gmma_desc(buf, m, k)),
                0x4000 + mb * 64 * 128 + kb * 32
            );
            assert_eq!(
                addr(<MajorMN as SmemOperand<_128, _64>>::gmma_desc(buf, m, k)),
                0x4000 + mb * 8192 + kb * 16 * 64 * 2
            );
        }
        // B's whole 256-row block: one descriptor per k-block
        assert_eq!(
            addr(<MajorMN as SmemOperand<_256, _256>>::gmma_desc(buf, 0, 2)),
            0x4000 + 2 * 2048
        );
        assert_eq!(
            addr(<MajorK as SmemOperand<_256, _256>>::gmma_desc(buf, 0, 2)),
            0x4000 + 64
        );
        // the ping-pong schedule's 64-row A tile is the 128-row tile's first block: the same
        // descriptors (K-major), the same start addresses (MN-major), half the elements
        for kb in 0..4 {
            assert_eq!(
                <MajorK as SmemOperand<_64, _64>>::gmma_desc(buf, 0, kb),
                <MajorK as SmemOperand<_128, _64>>::gmma_desc(buf, 0, kb)
            );
            assert_eq!(
                addr(<MajorMN as SmemOperand<_64, _64>>::gmma_desc(buf, 0, kb)),
                addr(<MajorMN as SmemOperand<_128, _64>>::gmma_desc(buf, 0, kb))
            );
        }
        assert_eq!(
            (
                <MajorK as SmemOperand<_64, _64>>::BYTES,
                <MajorMN as SmemOperand<_64, _64>>::BYTES
            ),
            (8192, 8192)
        );
    }

    #[test]
    fn a_128_row_b_read_whole_steps_between_its_mn_atoms() {
        // B's 128-row tile read by one `n128` wgmma: its descriptor must describe both 64-wide
        // SW128 atoms along N, as the 256-row tile's does for four (the leading byte offset,
        // bits 16..30, is the step between MN atoms: 8 K-atoms of 1 KiB)
        let buf = 0x4000 as *mut u16;
        let lbo = |d: u64| (d >> 16) & 0x3fff;
        let hi = |d: u64| d >> 32; // stride byte offset, base offset, layout type
        for kb in 0..4 {
            let whole = <MajorMN as SmemOperand<_128, _128>>::gmma_desc(buf, 0, kb);
            let b256 = <MajorMN as SmemOperand<_256, _256>>::gmma_desc(buf, 0, kb);
            assert_eq!(whole, b256, "k-block {kb}");
            assert_eq!(lbo(whole), 8 * 1024 / 16);
            // A's 64-row blocks of the same tile (one atom along M each) encode another step:
            // read by an `n128` instruction, the second atom came from the wrong bytes
            let block = <MajorMN as SmemOperand<_128, _64>>::gmma_desc(buf, 0, kb);
            assert_eq!((block & 0x3fff, hi(block)), (whole & 0x3fff, hi(whole)));
            assert_ne!(lbo(block), lbo(whole));
            // K-major: any block gives the same descriptor (the rows step by the stride byte
            // offset)
            assert_eq!(
                <MajorK as SmemOperand<_128, _128>>::gmma_desc(buf, 0, kb),
                <MajorK as SmemOperand<_128, _64>>::gmma_desc(buf, 0, kb)
            );
        }
    }
}
