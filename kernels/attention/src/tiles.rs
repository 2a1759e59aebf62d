//! The shared-memory tiles of one head dim: Q (`BM × D`), K and V (`BN × D`), their TMA loads
//! and `wgmma` descriptors. One impl per head dim (`attn_tiles!`), so each tile's typed layout
//! is built once, with static extents, however many entries use it.
//!
//! Q and K are `tile_to_shape(Layout_K_SW128_Atom<u16>, (rows, D), LayoutLeft)`: `D/64`
//! column blocks of `rows × 64`, each one TMA box (`64 × rows`, 128-byte swizzle). V is loaded
//! with the same boxes and read as `tile_to_shape(Layout_MN_SW128_Atom<u16>, (D, BN), (_2, _1))`
//! (the same bytes: element `(d, key)` at `d + 64·key` in block `d / 64`), the MN-major B of
//! `P·V`. The descriptors are `make_gmma_desc_tensor` of the tile divided into one `wgmma`'s
//! operand (`zipped_divide` by `(64, 16)`, `(BN, 16)`, `(D, 16)`).

use core::marker::PhantomData;

use device::tma::TmaDescriptor;
use layout_types::cute::gmma::*;
use layout_types::cute::mma::{
    SM75_U32x4_LDSM_N, SM90_64x64x16_F32BF16BF16_RS, bfloat16_t, make_tiled_copy_a, make_tiled_mma,
};
use layout_types::cute::pipeline::TransactionBytes;
use layout_types::cute::prelude::*;
use layout_types::cute::tma::{TmaAtom, TmaLoad};

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
    /// The descriptor of k-block `kb` (16 columns of the head dim) of Q's rows `64·wg..`.
    fn q_desc(q: *mut u16, wg: i32, kb: usize) -> u64;
    /// The descriptor of k-block `kb` of K (all `BN` rows).
    fn k_desc(k: *mut u16, kb: usize) -> u64;
    /// The descriptor of k-block `kb` (16 keys) of V read MN-major (all `D` columns).
    fn v_desc(v: *mut u16, kb: usize) -> u64;
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
}
/// A K or V load's transaction bytes of head dim `H`.
pub struct KvTx<H>(PhantomData<H>);
impl<H: AttnTiles> TransactionBytes for KvTx<H> {
    const TX_BYTES: u32 = H::KV_TX;
}

/// Head dim 64 (`BN` = 128).
pub struct D64;
/// Head dim 128 (`BN` = 128).
pub struct D128;
/// Head dim 256 (`BN` = 80).
pub struct D256;

/// Head dim 64, 192 query rows (three consumer warpgroups: the wide tile,
/// `config::block_m_wide`), 128 keys per block.
pub struct D64M192;
/// Head dim 128, 176 keys per block (the non-causal tile, `config::block_n_wide`).
pub struct D128N176;
/// Head dim 256, 64 keys per block (the `tile` variant).
pub struct D256N64;

/// `attn_tiles!(marker, BM, D, BN, the host's table)`.
macro_rules! attn_tiles {
    ($h:ident, $bm:literal, $d:literal, $bn:literal, $table:ident) => {
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
                ($d / 64) * TmaAtom::<TmaLoad, u16, Layout<(_64, Int<$bm>), (_1, _64)>>::TX_BYTES;
            const KV_TX: u32 =
                ($d / 64) * TmaAtom::<TmaLoad, u16, Layout<(_64, Int<$bn>), (_1, _64)>>::TX_BYTES;
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
                let atom = TmaAtom::<TmaLoad, u16, Layout<(_64, Int<$bm>), (_1, _64)>>::new(tma);
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
                let atom = TmaAtom::<TmaLoad, u16, Layout<(_64, Int<$bn>), (_1, _64)>>::new(tma);
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

attn_tiles!(D64, 128, 64, 128, block_n);
attn_tiles!(D128, 128, 128, 128, block_n);
attn_tiles!(D256, 128, 256, 80, block_n);
attn_tiles!(D64M192, 192, 64, 128, block_n);
attn_tiles!(D128N176, 128, 128, 176, block_n_wide);
attn_tiles!(D256N64, 128, 256, 64, block_n_tile);
