//! The shared-memory tiles of one head dim: Q (`BM × D`), K and V (`BN × D`), their TMA loads
//! and `wgmma` descriptors. One impl per head dim (`attn_tiles!`), so each tile's typed layout
//! is built once, with static extents, however many entries use it.
//!
//! Q and K are `tile_to_shape(Layout_K_SW128_Atom<u16>, (rows, D), LayoutLeft)`: `D/64`
//! column blocks of `rows × 64`, each one TMA box (`64 × rows`, 128-byte swizzle). V is loaded
//! with the same boxes and read as `tile_to_shape(Layout_MN_SW128_Atom<u16>, (D, BN), (_2, _1))`
//! (the same bytes: element `(d, key)` at `d + 64·key` in block `d / 64`), the MN-major B of
//! `P·V`. The descriptors are `make_gmma_desc_tensor` of the tile divided into one `wgmma`'s
//! operand (`zipped_divide` by `(64, 16)`, `(BN, 16)`, `(D, 16)`) with the stage mode appended
//! (CuTe's `tSrK(_, _, kb, stage)`). How a tile addresses its shared memory is its choice
//! ([`AttnTiles::Addressing`]): [`SharedBase`], the descriptor tensors over all stages built
//! once per kernel and the pipelines' barriers from a 32-bit shared base (helper udesc128's
//! round 9, `68ff7ce`; head dim 256's default tiles since session 12, the 128 × 128 tiles of
//! head dims 64 and 128 and d64's 192-row tile since session 30), or [`PerWgmma`] (the 176-key
//! tile and the measuring ones), each descriptor built at its `wgmma` from the stage's generic
//! pointer and the barriers from generic pointers.

use core::marker::PhantomData;

use device::tma::TmaDescriptor;
use device::wgmma::{MajorK, MajorMN};
use layout_types::cute::atom::gmma::*;
use layout_types::cute::atom::mma::{
    SM75_U32x4_LDSM_N, SM90_64x64x16_F32BF16BF16_RS, bfloat16_t, make_tiled_copy_a, make_tiled_mma,
};
use layout_types::cute::atom::tma::{BoxLayout, TmaAtom, TmaLoad};
use layout_types::cute::prelude::*;
use layout_types::cutlass::pipeline::TransactionBytes;

use crate::config::TokenBox;

/// The tiles of one head dim.
pub trait AttnTiles {
    /// Query rows per CTA tile: 64 per consumer warpgroup ([`crate::config::BM`], or
    /// [`crate::config::block_m_wide`]'s 192).
    const BM: usize;
    /// The head dim.
    const D: usize;
    /// Keys per block.
    const BN: usize;
    /// Bytes of the Q tile (`BM · D · 2`).
    const Q_BYTES: usize;
    /// Bytes of one K (or V) stage (`BN · D · 2`).
    const KV_BYTES: usize;
    /// Dynamic shared memory of the kernel: Q, the stages of K and V, the barriers
    /// ([`crate::config::smem_bytes`], what the host asks for).
    const SMEM_BYTES: usize = crate::config::smem_bytes(
        Self::BM,
        Self::D,
        Self::BN,
        crate::config::STAGES,
        crate::config::Q_STAGES,
    );
    /// The bytes a Q load brings (its boxes' [`TmaAtom::TX_BYTES`]).
    const Q_TX: u32;
    /// The bytes a K or V load brings.
    const KV_TX: u32;
    /// How the tile addresses its shared memory: [`SharedBase`] or [`PerWgmma`], per tile
    /// (doc/attention.md): head dim 256's default tiles ([`D256Base`], [`D256N64Base`]: the
    /// overlapped loop 644 / 606 SASS instructions a key block against 698 / 641 by pointers)
    /// and since session 30 the 128 × 128 tiles of head dims 64 and 128 ([`D64`], [`D128`]) and
    /// d64's 192-row tile ([`D64M192`]) take the base; the 176-key tile keeps the pointers (the
    /// base cost it a spill). H200, session 30, like for like beside cuDNN, three rounds against
    /// the pointers: d64 (Q in registers) causal +7 / +10 % at 512 / 1k keys, non-causal +3 / −2
    /// %; d128 (with [`AttnTiles::CLEAN_LOOP`]; the base alone spilled 8 bytes) +4 / +4 / +3 / +1
    /// % non-causal and +1.5 / +2.6 / +2.7 / +3.1 % causal at 512 / 1k / 2k / 4k keys; the
    /// 192-row tile +3.9 / +3.2 / +3.0 % non-causal and +4.5 / +3.3 / +1.5 % causal at 2k / 4k / 8k
    /// (with the clean loop too: +1.9–2.6 % non-causal, −2 to 0 % causal).
    type Addressing: SmemAddressing;
    /// Whether the overlapped mainloop builds Q's `wgmma` descriptors at each `wgmma` (the
    /// warpgroup index through an opaque move) rather than letting LLVM hoist all `D/16` of them
    /// out of the tile loop: head dim 256's 16 hoisted descriptors (32 uniform registers) left
    /// ptxas no uniform registers beside the overlapped loop's K and V descriptors, and it
    /// spilled the tile schedule's loop invariants (4–64 bytes; doc/attention.md, session 12).
    /// The serial mainloop (d256's default) and the other head dims are unchanged.
    const Q_DESCS_AT_WGMMA: bool;
    /// Whether the persistent schedule divides by the divisors' multiply-shifts (`Params::sched`,
    /// CUTLASS's `FastDivmod`s) rather than by `div`: the 128 × 128 tiles, head dim 256's
    /// 128 × 64 and (since session 31) its 128 × 80 on 32-bit bases. Their words, loaded once and
    /// live across the mainloops, cost registers (ptxas spilled 4–192 bytes in head dim 256's
    /// 128 × 80 by pointers, the 192-row and the 176-key entries; none in the 192-row tile on
    /// 32-bit bases, which measured −2 % causal at 2k with them and stays without). Only these
    /// tiles take the causal order by head ([`RasterOrder::AlongM`](crate::RasterOrder::AlongM)): its
    /// extents are the divisors'.
    const SCHED_FAST_DIVMOD: bool;
    /// Whether the overlapped mainloop computes the epilogue's row totals (the row sums over
    /// the quad, `1 / l`, the LSE) between the last P·V's issue and its wait, where they read
    /// none of its registers: the 128-row tiles (session 14's trace: the tile's time −1.1 % at
    /// head dim 128, −1.7 % at 64, 512 keys). The 192-row tile (three consumer warpgroups of
    /// 160 registers) measured 3–4 % slower with them there.
    const ROW_TOTALS_UNDER_PV: bool;
    /// Whether the overlapped mainloop runs the key blocks the mask leaves alone in a loop of
    /// their own, without the mask's code (`Masks::clean_blocks`; FlashAttention-3's unmasked
    /// loop), and the masked ones after it: head dim 256's default 128 × 80 tile ([`D256Base`])
    /// and head dim 128's 128 × 128 ([`D128`]), both on [`SharedBase`]. H200, session 30, like
    /// for like beside cuDNN (three rounds against one loop, doc/attention.md): d256 non-causal
    /// +1.6 / +2.8 / +3.9 / +3.4 % at 2k / 4k / 8k / 16k keys, causal +0 to +1.5 %; under 2k keys
    /// (the 128 × 64 tile) −1 to −2 %, within the harness's spread. By pointers ([`PerWgmma`],
    /// `host attention --bench`): d64 1k's 128 × 128 with Q in registers −10 %, d128's 128 × 128
    /// level at 2k and −1 to −2 % at 4k and causal; d64's on [`SharedBase`] −6 / −8 % causal at
    /// 512 / 1k keys against one loop there; the 192-row and 176-key tiles spilled 20 and 28
    /// bytes with it. The others keep one loop, masking where needed.
    const CLEAN_LOOP: bool;
    /// Whether the tile takes the stream-K split of its key blocks (`config::tile_splits`): its
    /// entries carry the split's work units; without, every tile whole.
    const STREAM_K: bool;
    /// The consumers' registers per thread after `setmaxnreg` (CUTLASS's `MmaRegisterRequirement`);
    /// the producer warpgroup keeps [`load_regs`]`(MMA_REGS)` (its `LoadRegisterRequirement`).
    /// FlashAttention-3's split: 240 / 24 with two consumer warpgroups ([`D64`], [`D128`],
    /// [`D128N176`]), 160 / 32 with three ([`D64M192`]); head dim 256's tiles keep 232 / 32. H200,
    /// session 32, like for like beside cuDNN (three rounds, 240 against 232, no spills either
    /// way): head dim 128 +2 to +5 % at most shapes (non-causal 512 / 2k / 8k / 16k keys +3.7 /
    /// +2.2 / +1.8 / +3.4 %, 4k level; causal 512 +5.0 %), head dim 64's 128-row tile +0.3 to
    /// +2.1 %; head dim 256 at 240 (it spilled 8–12 bytes there in session 12, none now) +0.6 %
    /// over its twelve shapes but −3.5 % at 4k and 16k keys, so it stays (doc/attention.md).
    const MMA_REGS: u32;
    /// The descriptor of k-block `kb` (16 columns of the head dim) of Q's rows `64·wg..` of the
    /// tile at `q` ([`PerWgmma`]'s).
    fn q_desc(q: *mut u16, wg: i32, kb: usize) -> u64;
    /// The descriptor of k-block `kb` of the K tile at `k` (all `BN` rows).
    fn k_desc(k: *mut u16, kb: usize) -> u64;
    /// The descriptor of k-block `kb` (16 keys) of the V tile at `v` read MN-major (all `D`
    /// columns).
    fn v_desc(v: *mut u16, kb: usize) -> u64;
    /// Q's descriptor tensor over `stages` stages (stage `s`'s tile [`Self::Q_BYTES`] after
    /// stage 0's at `q0`): the tile divided into `(64, 16)` blocks with the stage mode appended,
    /// `(stage, wg, kb)` → the descriptor of k-block `kb` (16 columns of the head dim) of rows
    /// `64·wg..` of that stage.
    fn q_descs(q0: *mut u16, stages: u32) -> impl Fn(u32, i32, usize) -> u64 + Copy;
    /// K's descriptor tensor over `stages` stages ([`Self::KV_BYTES`] apart): `(stage, kb)` →
    /// the descriptor of k-block `kb` of that stage (all `BN` rows).
    fn k_descs(k0: *mut u16, stages: u32) -> impl Fn(u32, usize) -> u64 + Copy;
    /// V's descriptor tensor over `stages` stages, read MN-major: `(stage, kb)` → the
    /// descriptor of k-block `kb` (16 keys, all `D` columns) of that stage.
    fn v_descs(v0: *mut u16, stages: u32) -> impl Fn(u32, usize) -> u64 + Copy;
    /// Loads Q's `BM` rows from token `crd[0]` of head `crd[1]`, batch `crd[2]`.
    ///
    /// # Safety
    /// `q` is the 1024-byte aligned Q tile; `bar` a full barrier expecting [`Self::Q_TX`].
    unsafe fn load_q(tma: *const TmaDescriptor, bar: *mut u64, q: *mut u16, crd: [i32; 3]);
    /// Loads `BN` rows of K or V from token `crd[0]` of head `crd[1]`, batch `crd[2]`.
    ///
    /// # Safety
    /// As [`Self::load_q`], for a K/V stage and [`Self::KV_TX`].
    unsafe fn load_kv(tma: *const TmaDescriptor, bar: *mut u64, kv: *mut u16, crd: [i32; 3]);
    /// Consumer thread `thr`'s share of the Q tile as the A operand of `S = Q·Kᵀ` from
    /// registers (`wgmma` RS; the `_d64_qr` entries and the `qr` measuring variant): CuTe's
    /// `make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N>, tiled_mma)` of the consumers' TiledMMA
    /// (the RS GMMA atom, `BM / 64` warpgroups along M), `partition_S` of the swizzled Q tile and
    /// `retile_D` of `partition_fragment_A`, one `ldmatrix.x4` per k-block of 16 columns; then
    /// k-block `kb`'s four registers (`ALayout_64x16`'s values `(2r, 2r + 1)`, packed) at
    /// `4·kb ..`, as f32 bit patterns (so `fence_operand` can pin them). `QA = D / 4`.
    ///
    /// # Safety
    /// The Q tile loaded (its full barrier passed); `q` 1024-byte aligned; every thread of the
    /// warp executes it (`ldmatrix` is warp-wide); `thr` = 128 · consumer warpgroup + thread.
    unsafe fn q_regs<const QA: usize>(q: *mut u16, thr: u32) -> [f32; QA];
}

/// The `wgmma` descriptor of a 16 × 8 (K × N) B operand at `ones` (`ONES_BYTES`, 16-byte
/// aligned): `tile_to_shape(Layout_K_INTER_Atom<u16>, (8, 16))`, K-major without swizzle — the
/// `lsum` variant's tile of ones (any layout of ones is ones; the canonical one keeps the
/// descriptor CuTe's).
#[inline(always)]
pub fn ones_desc(ones: *mut u16) -> u64 {
    let s = tile_to_shape(Layout_K_INTER_Atom::<u16>::new(), (_8, _16), LayoutLeft);
    make_gmma_desc(MajorK, &make_tensor(make_smem_ptr(ones), s)).desc
}

/// The Q load's transaction bytes of head dim `H`.
pub struct QTx<H>(PhantomData<H>);
impl<H: AttnTiles> TransactionBytes for QTx<H> {
    const TX_BYTES: u32 = H::Q_TX;
    const BARRIER_BASE: bool = <H::Addressing as SmemAddressing>::BARRIER_BASE;
}
/// A K or V load's transaction bytes of head dim `H`.
pub struct KvTx<H>(PhantomData<H>);
impl<H: AttnTiles> TransactionBytes for KvTx<H> {
    const TX_BYTES: u32 = H::KV_TX;
    const BARRIER_BASE: bool = <H::Addressing as SmemAddressing>::BARRIER_BASE;
}

/// How a tile addresses its shared memory ([`AttnTiles::Addressing`]): the pipelines' barriers
/// and the consumers' `wgmma` descriptors.
pub trait SmemAddressing {
    /// The pipelines' barriers from a 32-bit shared base ([`TransactionBytes::BARRIER_BASE`] of
    /// [`QTx`] and [`KvTx`]).
    const BARRIER_BASE: bool;
    /// The consumers' descriptors of tile `H`'s stages: `q_stages` Q stages from `q0`,
    /// `kv_stages` K stages from `k0` and V stages from `v0` (each [`AttnTiles::Q_BYTES`] or
    /// [`AttnTiles::KV_BYTES`] after the one before). Built once per kernel.
    fn stage_descs<H: AttnTiles>(
        q0: *mut u16,
        q_stages: u32,
        k0: *mut u16,
        v0: *mut u16,
        kv_stages: u32,
    ) -> impl StageDescs;
}

/// The `wgmma` descriptors of a Q, K or V stage, each a closure over the `wgmma`'s k-block (and
/// Q's warpgroup). `*_buf`: the stage's generic pointer, evaluated here where an impl needs it.
pub trait StageDescs: Copy {
    /// Q's stage `qi`: `(warpgroup, k-block)` → descriptor.
    fn q(self, q_buf: impl Fn(u32) -> *mut u16, qi: u32) -> impl Fn(i32, usize) -> u64 + Copy;
    /// K's stage `ki`: k-block → descriptor.
    fn k(self, k_buf: impl Fn(u32) -> *mut u16, ki: u32) -> impl Fn(usize) -> u64 + Copy;
    /// V's stage `vi`: k-block → descriptor. `uniform`: the stage is warp-uniform but ptxas may
    /// not see it (the overlapped loop's V); an impl that indexes by it broadcasts it from lane
    /// 0, so the descriptors are uniform arithmetic (no `R2UR` before each `HGMMA`).
    fn v(
        self,
        v_buf: impl Fn(u32) -> *mut u16,
        vi: u32,
        uniform: bool,
    ) -> impl Fn(usize) -> u64 + Copy;
}

/// CuTe's addressing: the descriptor tensors of all stages built once per kernel
/// ([`AttnTiles::q_descs`], [`AttnTiles::k_descs`], [`AttnTiles::v_descs`]: one address
/// conversion each, then 32-bit adds, in uniform registers where the stage index is uniform),
/// indexed per `wgmma` (`tSrK(_, _, kb, stage)`); the barriers from a 32-bit shared base.
pub struct SharedBase;
impl SmemAddressing for SharedBase {
    const BARRIER_BASE: bool = true;
    #[inline(always)]
    fn stage_descs<H: AttnTiles>(
        q0: *mut u16,
        q_stages: u32,
        k0: *mut u16,
        v0: *mut u16,
        kv_stages: u32,
    ) -> impl StageDescs {
        DescTensors {
            q: H::q_descs(q0, q_stages),
            k: H::k_descs(k0, kv_stages),
            v: H::v_descs(v0, kv_stages),
        }
    }
}

/// [`SharedBase`]'s descriptor tensors of Q's, K's and V's stages.
#[derive(Clone, Copy)]
pub struct DescTensors<Q, K, V> {
    q: Q,
    k: K,
    v: V,
}
impl<Q, K, V> StageDescs for DescTensors<Q, K, V>
where
    Q: Fn(u32, i32, usize) -> u64 + Copy,
    K: Fn(u32, usize) -> u64 + Copy,
    V: Fn(u32, usize) -> u64 + Copy,
{
    #[inline(always)]
    fn q(self, _: impl Fn(u32) -> *mut u16, qi: u32) -> impl Fn(i32, usize) -> u64 + Copy {
        move |wg, kb| (self.q)(qi, wg, kb)
    }
    #[inline(always)]
    fn k(self, _: impl Fn(u32) -> *mut u16, ki: u32) -> impl Fn(usize) -> u64 + Copy {
        move |kb| (self.k)(ki, kb)
    }
    #[inline(always)]
    fn v(
        self,
        _: impl Fn(u32) -> *mut u16,
        vi: u32,
        uniform: bool,
    ) -> impl Fn(usize) -> u64 + Copy {
        let vi = if uniform {
            device::cluster::warp_uniform_u32(vi)
        } else {
            vi
        };
        move |kb| (self.v)(vi, kb)
    }
}

/// Each `wgmma`'s descriptor built from its stage's generic pointer ([`AttnTiles::q_desc`],
/// [`AttnTiles::k_desc`], [`AttnTiles::v_desc`]: an address conversion per `wgmma`), the
/// barriers from generic pointers.
pub struct PerWgmma;
impl SmemAddressing for PerWgmma {
    const BARRIER_BASE: bool = false;
    #[inline(always)]
    fn stage_descs<H: AttnTiles>(
        _: *mut u16,
        _: u32,
        _: *mut u16,
        _: *mut u16,
        _: u32,
    ) -> impl StageDescs {
        PerWgmmaDescs::<H>(PhantomData)
    }
}

/// [`PerWgmma`]'s descriptors: nothing built ahead.
pub struct PerWgmmaDescs<H>(PhantomData<H>);
impl<H> Clone for PerWgmmaDescs<H> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<H> Copy for PerWgmmaDescs<H> {}
impl<H: AttnTiles> StageDescs for PerWgmmaDescs<H> {
    #[inline(always)]
    fn q(self, q_buf: impl Fn(u32) -> *mut u16, qi: u32) -> impl Fn(i32, usize) -> u64 + Copy {
        let q = q_buf(qi);
        move |wg, kb| H::q_desc(q, wg, kb)
    }
    #[inline(always)]
    fn k(self, k_buf: impl Fn(u32) -> *mut u16, ki: u32) -> impl Fn(usize) -> u64 + Copy {
        let k = k_buf(ki);
        move |kb| H::k_desc(k, kb)
    }
    #[inline(always)]
    fn v(self, v_buf: impl Fn(u32) -> *mut u16, vi: u32, _: bool) -> impl Fn(usize) -> u64 + Copy {
        let v = v_buf(vi);
        move |kb| H::v_desc(v, kb)
    }
}

/// The producer warpgroup's registers per thread beside consumers of `mma_regs` (CUTLASS's
/// `LoadRegisterRequirement`): 24 under 240 (the least `setmaxnreg` takes), else 32.
///
/// ```text
/// load_regs(D128::MMA_REGS)    = load_regs(240) = 24   (128·24 + 256·240 = 65,536)
/// load_regs(D64M192::MMA_REGS) = load_regs(160) = 32   (128·32 + 384·160 = 65,536)
/// load_regs(D256Base::MMA_REGS) = load_regs(232) = 32  (128·32 + 256·232 = 63,488)
/// ```
pub const fn load_regs(mma_regs: u32) -> u32 {
    if mma_regs == 240 { 24 } else { 32 }
}

/// Head dim 64 (`BN` = 128).
pub struct D64;
/// Head dim 128 (`BN` = 128).
pub struct D128;
/// [`D128`] with the stream-K split of a part-empty last wave's key blocks (`Params::split`):
/// the `_streamk` entries, which the host launches where it splits.
pub struct D128StreamK;
/// Head dim 256 (`BN` = 80) by generic pointers (the serial `measure` variants'; the default
/// entries use [`D256Base`]).
pub struct D256;

/// Head dim 64, 192 query rows (three consumer warpgroups: the wide tile,
/// `config::block_m_wide`), 128 keys per block.
pub struct D64M192;
/// Head dim 128, 176 keys per block (the non-causal tile, `config::block_n_wide`).
pub struct D128N176;
/// Head dim 256, 64 keys per block, by generic pointers (the `tile` and `ov64` variants).
pub struct D256N64;
/// Head dim 256, 80 keys per block, addressing shared memory from 32-bit bases ([`SharedBase`]):
/// the default 128 × 80 entries (from 2k keys).
pub struct D256Base;
/// Head dim 256, 64 keys per block, from 32-bit bases ([`SharedBase`]): the default 128 × 64
/// entries (`_n64`, under 2k keys).
pub struct D256N64Base;
/// [`D256Base`] with the stream-K split of a part-empty last wave's key blocks
/// (`Params::split`): the `_streamk` entries, which the host launches where it splits.
pub struct D256StreamK;

/// `attn_tiles!(marker, BM, D, BN, the host's table, addressing, the schedule's FastDivmods, the
/// clean loop, the consumers' registers[, the stream-K split])`.
macro_rules! attn_tiles {
    ($h:ident, $bm:literal, $d:literal, $bn:literal, $table:ident, $addr:ident, $fd:literal, $clean:literal, $regs:literal) => {
        attn_tiles!($h, $bm, $d, $bn, $table, $addr, $fd, $clean, $regs, false);
    };
    ($h:ident, $bm:literal, $d:literal, $bn:literal, $table:ident, $addr:ident, $fd:literal, $clean:literal, $regs:literal, $stream_k:literal) => {
        impl AttnTiles for $h {
            // the host's tile table (`config::BM`, `block_m_wide`) says the same
            const BM: usize = {
                assert!(
                    $bm == crate::config::BM
                        || matches!(crate::config::block_m_wide($d), Some($bm))
                );
                $bm
            };
            const D: usize = $d;
            // the host's tile table (`config::block_n`, `block_n_wide`, ..) says the same
            const BN: usize = {
                assert!(matches!(crate::config::$table($d), Some($bn)));
                $bn
            };
            const Q_BYTES: usize = $bm * $d * 2;
            const KV_BYTES: usize = $bn * $d * 2;
            const Q_TX: u32 =
                ($d / 64) * TmaAtom::<TmaLoad, u16, BoxLayout<TokenBox<Int<$bm>>>>::TX_BYTES;
            const KV_TX: u32 =
                ($d / 64) * TmaAtom::<TmaLoad, u16, BoxLayout<TokenBox<Int<$bn>>>>::TX_BYTES;
            type Addressing = $addr;
            const Q_DESCS_AT_WGMMA: bool = $d == 256;
            const SCHED_FAST_DIVMOD: bool = $fd;
            const ROW_TOTALS_UNDER_PV: bool = $bm == 128;
            const CLEAN_LOOP: bool = $clean;
            // only a tile the host's table splits (`config::tile_splits`) carries the split
            const STREAM_K: bool = {
                assert!(!$stream_k || crate::config::tile_splits($d, $bm, $bn));
                $stream_k
            };
            const MMA_REGS: u32 = {
                // the whole register file: 128 producer threads and 64·BM consumer ones
                assert!(load_regs($regs) * 128 + $regs * 2 * $bm <= 65536);
                $regs
            };
            #[inline(always)]
            fn q_desc(q: *mut u16, wg: i32, kb: usize) -> u64 {
                let s = tile_to_shape(
                    Layout_K_SW128_Atom::<u16>::new(),
                    (Int::<$bm>::new(), Int::<$d>::new()),
                    LayoutLeft,
                );
                let d = make_gmma_desc_tensor(
                    MajorK,
                    make_tensor(
                        make_smem_ptr(q),
                        s.with_layout(zipped_divide(s.layout, (_64, _16))),
                    ),
                );
                d.at((_0, (wg, kb as i32))).desc.desc
            }
            #[inline(always)]
            fn k_desc(k: *mut u16, kb: usize) -> u64 {
                let s = tile_to_shape(
                    Layout_K_SW128_Atom::<u16>::new(),
                    (Int::<$bn>::new(), Int::<$d>::new()),
                    LayoutLeft,
                );
                let d = make_gmma_desc_tensor(
                    MajorK,
                    make_tensor(
                        make_smem_ptr(k),
                        s.with_layout(zipped_divide(s.layout, (Int::<$bn>::new(), _16))),
                    ),
                );
                d.at((_0, (_0, kb as i32))).desc.desc
            }
            #[inline(always)]
            fn v_desc(v: *mut u16, kb: usize) -> u64 {
                let s = tile_to_shape(
                    Layout_MN_SW128_Atom::<u16>::new(),
                    (Int::<$d>::new(), Int::<$bn>::new()),
                    (_2, _1),
                );
                let d = make_gmma_desc_tensor(
                    MajorMN,
                    make_tensor(
                        make_smem_ptr(v),
                        s.with_layout(zipped_divide(s.layout, (Int::<$d>::new(), _16))),
                    ),
                );
                d.at((_0, (_0, kb as i32))).desc.desc
            }
            #[inline(always)]
            fn q_descs(q0: *mut u16, stages: u32) -> impl Fn(u32, i32, usize) -> u64 + Copy {
                let s = tile_to_shape(
                    Layout_K_SW128_Atom::<u16>::new(),
                    (Int::<$bm>::new(), Int::<$d>::new()),
                    LayoutLeft,
                );
                // the stages: (stages):(BM·D) after the (64, 16) blocks
                let staged = zipped_divide(s.layout, (_64, _16))
                    .append(make_layout(stages as i32, ($bm * $d) as i32));
                let d = make_gmma_desc_tensor(
                    MajorK,
                    make_tensor(make_smem_ptr(q0), s.with_layout(staged)),
                );
                move |st, wg, kb| d.at((_0, (wg, kb as i32), st as i32)).desc.desc
            }
            #[inline(always)]
            fn k_descs(k0: *mut u16, stages: u32) -> impl Fn(u32, usize) -> u64 + Copy {
                let s = tile_to_shape(
                    Layout_K_SW128_Atom::<u16>::new(),
                    (Int::<$bn>::new(), Int::<$d>::new()),
                    LayoutLeft,
                );
                // the stages: (stages):(BN·D) after the (BN, 16) blocks
                let staged = zipped_divide(s.layout, (Int::<$bn>::new(), _16))
                    .append(make_layout(stages as i32, ($bn * $d) as i32));
                let d = make_gmma_desc_tensor(
                    MajorK,
                    make_tensor(make_smem_ptr(k0), s.with_layout(staged)),
                );
                move |st, kb| d.at((_0, (_0, kb as i32), st as i32)).desc.desc
            }
            #[inline(always)]
            fn v_descs(v0: *mut u16, stages: u32) -> impl Fn(u32, usize) -> u64 + Copy {
                let s = tile_to_shape(
                    Layout_MN_SW128_Atom::<u16>::new(),
                    (Int::<$d>::new(), Int::<$bn>::new()),
                    (_2, _1),
                );
                let staged = zipped_divide(s.layout, (Int::<$d>::new(), _16))
                    .append(make_layout(stages as i32, ($bn * $d) as i32));
                let d = make_gmma_desc_tensor(
                    MajorMN,
                    make_tensor(make_smem_ptr(v0), s.with_layout(staged)),
                );
                move |st, kb| d.at((_0, (_0, kb as i32), st as i32)).desc.desc
            }
            #[inline(always)]
            unsafe fn load_q(
                tma: *const TmaDescriptor,
                bar: *mut u64,
                q: *mut u16,
                [tok, h, b]: [i32; 3],
            ) {
                let s = tile_to_shape(
                    Layout_K_SW128_Atom::<u16>::new(),
                    (Int::<$bm>::new(), Int::<$d>::new()),
                    LayoutLeft,
                );
                let t = make_tensor(make_smem_ptr(q), s);
                let atom = TmaAtom::<TmaLoad, u16, BoxLayout<TokenBox<Int<$bm>>>>::new(tma);
                // one box per 64-column block: the (64, D/64) split of the head dim
                let cols = make_layout_left((_64, Int::<{ $d / 64 }>::new()));
                device::unroll!($d / 64, |i| {
                    let c: i32 = cols.crd2idx((0i32, i as i32));
                    // SAFETY: the caller's; the block's origin is 1024-byte aligned.
                    unsafe { atom.copy(bar, t.ptr((0i32, c)), [c, tok, h, b]) };
                });
            }
            #[inline(always)]
            unsafe fn load_kv(
                tma: *const TmaDescriptor,
                bar: *mut u64,
                kv: *mut u16,
                [tok, h, b]: [i32; 3],
            ) {
                let s = tile_to_shape(
                    Layout_K_SW128_Atom::<u16>::new(),
                    (Int::<$bn>::new(), Int::<$d>::new()),
                    LayoutLeft,
                );
                let t = make_tensor(make_smem_ptr(kv), s);
                let atom = TmaAtom::<TmaLoad, u16, BoxLayout<TokenBox<Int<$bn>>>>::new(tma);
                let cols = make_layout_left((_64, Int::<{ $d / 64 }>::new()));
                device::unroll!($d / 64, |i| {
                    let c: i32 = cols.crd2idx((0i32, i as i32));
                    // SAFETY: as `load_q`.
                    unsafe { atom.copy(bar, t.ptr((0i32, c)), [c, tok, h, b]) };
                });
            }
            #[inline(always)]
            unsafe fn q_regs<const QA: usize>(q: *mut u16, thr: u32) -> [f32; QA] {
                const { assert!(4 * QA == $d) };
                // the consumers' TiledMMA for S: the RS atom, BM/64 warpgroups along M (the
                // atom's N does not enter A's TV layout; A's fragment is that of any 16-bit
                // RS atom, `ALayout_64x16`, bf16 or fp16 alike)
                let mma = make_tiled_mma(
                    SM90_64x64x16_F32BF16BF16_RS::<MajorK, MajorK>::new(),
                    Layout::<(Int<{ $bm / 64 }>, _1, _1), (_1, _0, _0)>::default(),
                );
                let s2r = make_tiled_copy_a(SM75_U32x4_LDSM_N::new(), &mma);
                let s_q = make_tensor(
                    make_smem_ptr(q as *mut bfloat16_t),
                    tile_to_shape(
                        Layout_K_SW128_Atom::<u16>::new(),
                        (Int::<$bm>::new(), Int::<$d>::new()),
                        LayoutLeft,
                    ),
                );
                // `partition_fragment_A` of the K-major (BM, D) shape: the registers do not
                // depend on the tile's strides (the typed `make_fragment_like` takes leaf rest
                // modes; the swizzled tile's K mode is (64, D/64))
                let shape = make_tensor(
                    Counting(0i32),
                    make_layout(
                        (Int::<$bm>::new(), Int::<$d>::new()),
                        (Int::<$d>::new(), _1),
                    ),
                );
                let mut frag = mma.get_slice(thr as i32).partition_fragment_a(&shape);
                let thr_s2r = s2r.get_slice(thr);
                let (src, dst) = (thr_s2r.partition_s(&s_q), thr_s2r.retile_d(&mut frag));
                device::unroll!($d / 16, |kb| {
                    // SAFETY: the caller's; the Q tile is this CTA's shared memory.
                    unsafe { copy(&s2r, &src.k_block(kb), &dst.k_block(kb)) };
                });
                let mut qa = [0f32; QA];
                device::unroll!($d / 16, |kb| device::unroll!(4, |r| {
                    let v =
                        |i: i32| frag[frag.layout.crd2idx((i, 0i32, kb as i32)) as usize].0 as u32;
                    qa[4 * kb + r] = f32::from_bits(v(2 * r as i32) | v(2 * r as i32 + 1) << 16);
                }));
                qa
            }
        }
    };
}

// every default tile but the 176-key one addresses shared memory from 32-bit bases (d256's
// since session 12, the others since session 30); the clean key loop where it measured faster
// (`AttnTiles::CLEAN_LOOP`); the schedule's FastDivmods on all but the 192-row and 176-key
// tiles and d256's pointer-addressed 128 × 80 (session 31); d256's `measure` variants by generic
// pointers with one loop; FlashAttention-3's register split where two consumer warpgroups fit it
// (`AttnTiles::MMA_REGS`)
attn_tiles!(D64, 128, 64, 128, block_n, SharedBase, true, false, 240);
attn_tiles!(D128, 128, 128, 128, block_n, SharedBase, true, true, 240);
attn_tiles!(
    D128StreamK,
    128,
    128,
    128,
    block_n,
    SharedBase,
    true,
    true,
    240,
    true
);
attn_tiles!(D256, 128, 256, 80, block_n, PerWgmma, false, false, 232);
attn_tiles!(
    D64M192, 192, 64, 128, block_n, SharedBase, false, false, 160
);
attn_tiles!(
    D128N176,
    128,
    128,
    176,
    block_n_wide,
    PerWgmma,
    false,
    false,
    240
);
attn_tiles!(
    D256N64,
    128,
    256,
    64,
    block_n_tile,
    PerWgmma,
    true,
    false,
    232
);
attn_tiles!(D256Base, 128, 256, 80, block_n, SharedBase, true, true, 232);
attn_tiles!(
    D256StreamK,
    128,
    256,
    80,
    block_n,
    SharedBase,
    true,
    true,
    232,
    true
);
attn_tiles!(
    D256N64Base,
    128,
    256,
    64,
    block_n_tile,
    SharedBase,
    true,
    false,
    232
);
