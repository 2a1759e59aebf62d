//! The bf16/fp16 GEMM on Hopper (issue #26): `C = alpha·op(A)·op(B) + beta·C`, column-major
//! as BLAS, fp32 accumulation, C stored as f32, bf16 or f16 (chosen at run time).
//!
//! Warp-specialized: one CTA of three warpgroups (384 threads) computes a 128×256 tile of C.
//! Warpgroup 0 is the producer (`setmaxnreg.dec 40`): one of its threads loads 128×64 of A and
//! 256×64 of B per k-tile with TMA into a 4-stage ring of shared-memory buffers driven by the
//! typed [`PipelineTmaAsync`] (full barriers: TMA transaction bytes; empty barriers: one
//! arrival per consumer warpgroup and CTA of the cluster). Warpgroups 1 and 2 are the consumers
//! (`setmaxnreg.inc 232`), each on a 64×256 half through `wgmma.mma_async m64n256k16` with A
//! and B from shared memory (SS); the `wgmma`s of k-tile `kt` overlap the loads of the next
//! stages, and the stage of `kt − 1` is released once `wgmma.wait_group 1` says its reads are
//! done. A tile's first `wgmma` has scale-d 0.
//!
//! Clusters of `cs` = 1 or 2 CTAs along M (`%cluster_nctarank`, chosen at launch): the two CTAs
//! of a cluster compute vertically adjacent tiles that share B's k-slabs; each loads its own A
//! and half of B, multicasting that half into both CTAs (mask `0b11`), so each stage's full
//! barrier receives the whole stage and its empty barrier waits for the consumers of both CTAs
//! ([`PipelineTmaAsync::consumer_cluster`]). The producer ends with `producer_tail`.
//!
//! Shared-memory tiles are CuTe's GMMA atoms tiled by `tile_to_shape`: K-major operands
//! `Layout_K_SW128_Atom` (one TMA box of `64 (K) × rows`), MN-major operands
//! `Layout_MN_SW128_Atom` in K-then-MN order (`Step<_2,_1>`, one TMA box of `64 (MN) × 64 (K)`
//! per 64 rows), both matching TMA's 128-byte swizzle; `make_gmma_desc_tensor` gives the
//! `wgmma` descriptors. Out-of-range rows and columns of A and B load as zero (TMA), so any
//! M, N, K works; the [`epilogue`] stores C through shared memory and TMA, or directly.
//!
//! BLAS names: A "N" = `(M,K):(1,lda)` MN-major, "T" = `(M,K):(lda,1)` K-major; B "N" =
//! `(N,K):(ldb,1)` K-major, "T" = `(N,K):(1,ldb)` MN-major. Entries `hgemm_{bf16,f16}_{ab}`.
//!
//! Persistent: the cluster tiles of C ((128·cs) × 256, in [`SwizzledRaster`] order)
//! are dealt out round-robin, tile `cluster`, `cluster + clusters`, ...; the producer runs ahead
//! into the next tile's k-tiles while the consumers store the previous one. A grid of one
//! cluster per tile is the non-persistent kernel.
//!
//! Launch: a 1-D grid of whole clusters (`cuLaunchKernelEx`, cluster dimension `(cs, 1, 1)`),
//! at most one CTA per SM (the shared memory allows one), 384 threads, [`SMEM_BYTES`] of dynamic
//! shared memory (1024-byte aligned: the kernel traps otherwise); B's tensor map with boxes of
//! `256/cs` rows (K-major B) or 64×64 (MN-major B).
#![cfg_attr(
    target_arch = "nvptx64",
    no_std,
    feature(abi_ptx, asm_experimental_arch)
)]
#![allow(internal_features)]

pub mod epilogue;

use device::cluster::{
    block_rank_in_cluster, cluster_arrive_relaxed, cluster_grid_dim_x, cluster_id_x, cluster_size,
    cluster_wait,
};
use device::shared::{dynamic_shared_mem, to_shared_addr};
use device::thread::{thread_idx_x, trap};
use device::tma::TmaDescriptor;
use device::wgmma::{
    Bf16, F16, MajorK, MajorMN, One, ScaleOut, commit_group, fence, fence_operand, mma_async_ss,
    setmaxnreg_dec, setmaxnreg_inc, wait_group,
};
use layout_types::cute::gmma::*;
use layout_types::cute::pipeline::{
    ConsumerStage, PipelineStorage, PipelineTmaAsync, TransactionBytes,
};
use layout_types::cute::prelude::*;
use layout_types::cute::tile_scheduler::SwizzledRaster;
use layout_types::cute::tma::{TmaAtom, TmaLoad, TmaLoadMulticast};
use layout_types::cute::tuple::{HCons, HNil};

/// Consumer warpgroups; each releases a stage with one arrival per CTA of the cluster (thread 0
/// of its warp `r` signals CTA `r` once the warpgroup's `wgmma`s have read the stage).
const CONSUMER_WARPGROUPS: u32 = 2;

/// The persistent tile order's band of N-tiles ([`SwizzledRaster`]): 1, M-tile
/// fastest. Bands of 8 measured 1–5% slower with the cluster of 2 on an H100
/// (`tools/gpu/results/2026-11-24-gemm-main/go2`).
pub const SWIZZLE: i32 = 1;
/// Pipeline depth (shared-memory stages).
pub const STAGES: usize = 4;
/// The CTA tile: 128 (M) × 256 (N) × 64 (K).
pub const BM: usize = 128;
/// See [`BM`].
pub const BN: usize = 256;
/// See [`BM`].
pub const BK: usize = 64;
/// Elements of one stage of A.
const A_ELEMS: usize = BM * BK;
/// Elements of one stage of B.
const B_ELEMS: usize = BN * BK;
/// Bytes of one stage's buffers: A then B.
const STAGE_BYTES: usize = 2 * (A_ELEMS + B_ELEMS);
/// Dynamic shared memory of a CTA: the stages, the epilogue's chunk buffers, then the
/// pipeline's barriers.
pub const SMEM_BYTES: usize = STAGES * STAGE_BYTES + epilogue::SMEM_EPI_BYTES + 128;

/// What a stage's full barrier waits for: the A and B tiles of one k-tile.
pub struct StageTx;
impl TransactionBytes for StageTx {
    const TX_BYTES: u32 = STAGE_BYTES as u32;
}

/// 1024-byte alignment of the dynamic shared memory (the SW128 pattern's period).
#[derive(Clone, Copy)]
#[repr(C, align(1024))]
pub struct Align1024(pub [u8; 1024]);

/// The shared-memory tile of an operand of `$rows` (MN) × 64 (K) for its majority.
macro_rules! smem_tile {
    (MajorK, $rows:ty) => {
        tile_to_shape(
            Layout_K_SW128_Atom::<u16>::new(),
            (<$rows>::default(), _64),
            LayoutLeft,
        )
    };
    (MajorMN, $rows:ty) => {
        tile_to_shape(
            Layout_MN_SW128_Atom::<u16>::new(),
            (<$rows>::default(), _64),
            (_2, _1),
        )
    };
}

/// The TMA loads of one operand's k-tile: K-major, one `64 × rows` box at `[k0, mn0]`;
/// MN-major, a `64 × 64` box at `[mn0 + 64·i, k0]` per 64 rows, each into the tile's
/// `(64·i, 0)` atom column.
macro_rules! load_operand {
    (MajorK, $rows:ty, $desc:expr, $bar:expr, $buf:expr, $tile:expr, $mn0:expr, $k0:expr) => {{
        let atom = TmaAtom::<TmaLoad, u16, Layout<(_64, $rows), (_1, _64)>>::new($desc);
        unsafe { atom.copy($bar, $buf, [$k0, $mn0]) };
    }};
    (MajorMN, $rows:ty, $desc:expr, $bar:expr, $buf:expr, $tile:expr, $mn0:expr, $k0:expr) => {{
        let atom = TmaAtom::<TmaLoad, u16, Layout<(_64, _64), (_1, _64)>>::new($desc);
        // the tile's rows as (64 rows of a box, box)
        let boxes = <$rows>::default().ceil_div(_64);
        let rows = make_layout_left((_64, boxes));
        for i in 0..boxes.value() as i32 {
            let row = rows.crd2idx((0i32, i));
            let at = $tile.layout.crd2idx((row, 0i32)).value() as usize;
            unsafe { atom.copy($bar, $buf.add(at), [$mn0 + row, $k0]) };
        }
    }};
}

/// B's tile shared by a cluster of 2 (along M): CTA `rank` loads rows `128·rank..` of it (the
/// `(128, 2)` split of the tile's rows) and multicasts them into both CTAs (mask `0b11`), at the
/// same offsets. K-major: one `64 × 128` box; MN-major: two `64 × 64` boxes.
macro_rules! load_b_multicast {
    (MajorK, $desc:expr, $bar:expr, $buf:expr, $tile:expr, $n0:expr, $k0:expr, $rank:expr) => {{
        let atom = TmaAtom::<TmaLoadMulticast, u16, Layout<(_64, _128), (_1, _64)>>::new($desc);
        let row = make_layout_left((_128, _2)).crd2idx((0i32, $rank)).value() as i32;
        let at = $tile.layout.crd2idx((row, 0i32)).value() as usize;
        unsafe { atom.copy($bar, $buf.add(at), 0b11, [$k0, $n0 + row]) };
    }};
    (MajorMN, $desc:expr, $bar:expr, $buf:expr, $tile:expr, $n0:expr, $k0:expr, $rank:expr) => {{
        let atom = TmaAtom::<TmaLoadMulticast, u16, Layout<(_64, _64), (_1, _64)>>::new($desc);
        for i in 0..2i32 {
            // 64-row box i of this CTA's half
            let row = make_layout_left((_64, _2, _2))
                .crd2idx((0i32, i, $rank))
                .value() as i32;
            let at = $tile.layout.crd2idx((row, 0i32)).value() as usize;
            unsafe { atom.copy($bar, $buf.add(at), 0b11, [$n0 + row, $k0]) };
        }
    }};
}

macro_rules! hgemm_entry {
    ($name:ident, $e:ident, $ma:ident, $mb:ident) => {
        device::kernel! {
        #[doc = concat!("The GEMM for ", stringify!($e), " inputs, A ", stringify!($ma), ", B ",
                        stringify!($mb), " (see the crate docs).\n\n# Safety\n",
                        "`tma_a`/`tma_b` are tensor maps of A `(M,K)` and B `(N,K)` with the boxes ",
                        "the crate documents; `c` holds `(M,N)` with leading dimension `ldc` of ",
                        "the element `out` names (0 f32, 1 bf16, 2 f16); with `epilogue::OUT_TMA` ",
                        "added, `beta` is 0 and `tma_c` a tensor map of C (see `epilogue::store`).")]
        #[allow(clippy::too_many_arguments)]
        pub unsafe fn $name(
            tma_a: TmaDescriptor,
            tma_b: TmaDescriptor,
            tma_c: TmaDescriptor,
            m: i32,
            n: i32,
            k: i32,
            alpha: f32,
            beta: f32,
            c: *mut u8,
            ldc: i64,
            out: u32,
        ) {
            let tma_a = device::grid_constant!($name, 0, tma_a);
            let tma_b = device::grid_constant!($name, 1, tma_b);
            let tma_c = device::grid_constant!($name, 2, tma_c);
            let smem = dynamic_shared_mem::<Align1024>() as *mut u8;
            if to_shared_addr(smem) & 1023 != 0 {
                trap();
            }
            let tid = thread_idx_x() as i32;
            let s_a = smem_tile!($ma, _128);
            let s_b = smem_tile!($mb, _256);
            // (STAGE_BYTES, STAGES): one stage's A then B
            let stages = make_tensor(make_smem_ptr(smem), make_layout_left((STAGE_BYTES as i32, STAGES as i32)));
            let buf_a = |i: u32| stages.ptr((_0, i as i32)) as *mut u16;
            let buf_b = |i: u32| unsafe { buf_a(i).add(A_ELEMS) };
            let epi_smem = unsafe { smem.add(STAGES * STAGE_BYTES) };
            let storage = unsafe { epi_smem.add(epilogue::SMEM_EPI_BYTES) } as *mut PipelineStorage<STAGES>;
            // a cluster of `cs` CTAs (1, or 2 along M sharing B's tile through multicast)
            let (cs, rank) = (cluster_size(), block_rank_in_cluster());
            // full barriers: the producer's arrive_expect_tx (all of A and B land in every CTA);
            // empty: one arrival per consumer warpgroup of every CTA the stage is written into.
            // The cluster barrier makes the initialization visible to the other CTA's multicasts.
            let pipe = unsafe {
                PipelineTmaAsync::<STAGES, StageTx>::init(storage, tid == 0, CONSUMER_WARPGROUPS * cs, || {
                    cluster_arrive_relaxed();
                    cluster_wait();
                })
            };
            // the cluster tiles of C ((128·cs) × 256), M fastest; this cluster takes tiles
            // cluster, cluster + clusters, ...; its CTA `rank` computes M-tile `rank` of it
            let (cs_i, rank_i) = (cs as i32, rank as i32);
            let tile_of = SwizzledRaster::<SWIZZLE>::new(m.ceil_div(128 * cs_i), n.ceil_div(256));
            let cta_m = make_layout_left((cs_i, m.ceil_div(128 * cs_i)));
            let n_tiles = tile_of.tiles();
            let (first, step) = (cluster_id_x() as i32, cluster_grid_dim_x() as i32);
            // a tile's origin in C (rows of A, rows of B) for this CTA and its M-tile index
            let origin = |tile: i32| -> (i32, i32, i32) {
                let (cm, by) = tile_of.tile(tile);
                let bx = cta_m.crd2idx((rank_i, cm));
                let o = make_identity_tensor((m, n)).local_tile((_128, _256), (bx, by)).at((_0, _0));
                let ATup(HCons(m0, HCons(n0, HNil))) = o.0;
                (m0, n0, bx)
            };
            let k_tiles = k.ceil_div(64);
            // (warpgroup, thread in warpgroup)
            let (t, wg): (i32, i32) = make_layout_left((_128, _3)).idx2crd(tid);
            if wg == 0 {
                // producer warpgroup: one thread streams the k-tiles through the ring
                setmaxnreg_dec::<40>();
                if t == 0 {
                    unsafe {
                        device::tma::prefetch_descriptor(tma_a);
                        device::tma::prefetch_descriptor(tma_b);
                    }
                    let mut prod = pipe.producer();
                    let mut tile = first;
                    while tile < n_tiles {
                        let (m0, n0, bx) = origin(tile);
                        for kt in 0..k_tiles {
                            let stage = unsafe { prod.producer_acquire() };
                            let bar = stage.full_barrier();
                            let a_origin = make_identity_tensor((m, k)).local_tile((_128, _64), (bx, kt)).at((_0, _0));
                            let ATup(HCons(_, HCons(k0, HNil))) = a_origin.0;
                            load_operand!($ma, _128, tma_a, bar, buf_a(stage.index()), s_a, m0, k0);
                            if cs == 1 {
                                load_operand!($mb, _256, tma_b, bar, buf_b(stage.index()), s_b, n0, k0);
                            } else {
                                load_b_multicast!($mb, tma_b, bar, buf_b(stage.index()), s_b, n0, k0, rank_i);
                            }
                            stage.producer_commit();
                        }
                        tile += step;
                    }
                    // the other CTA's consumers may still arrive on this CTA's empty barriers
                    unsafe { prod.producer_tail() };
                }
                return;
            }
            setmaxnreg_inc::<232>();
            let wg = wg - 1; // consumer warpgroup: rows 64·wg.. of the CTA tile
            // thread 0 of warp r signals CTA r of the cluster
            let (lane, warp): (i32, i32) = make_layout_left((_32, _4)).idx2crd(t);
            let mut cons = pipe.consumer_cluster(lane == 0 && (warp as u32) < cs, warp as u32);
            let mut tile = first;
            while tile < n_tiles {
                let (m0, n0, _) = origin(tile);
                // SAFETY: all-zero bits are the f32 value 0.0 (an array literal would be a store
                // loop that keeps the accumulators in local memory).
                let mut acc: [f32; 128] = unsafe { core::mem::zeroed() };
                let mut pending: Option<ConsumerStage<STAGES>> = None;
                // the tile's first wgmma overwrites the accumulators (scale-d 0); the zeros
                // above are what a tile of K = 0 stores
                let mut scale = ScaleOut::Zero;
                for _ in 0..k_tiles {
                    let full = unsafe { cons.consumer_wait() };
                    let d_a = make_gmma_desc_tensor($ma, make_tensor(make_smem_ptr(buf_a(full.index())), s_a.with_layout(zipped_divide(s_a.layout, (_64, _16)))));
                    let d_b = make_gmma_desc_tensor($mb, make_tensor(make_smem_ptr(buf_b(full.index())), s_b.with_layout(zipped_divide(s_b.layout, (_256, _16)))));
                    fence_operand(&mut acc);
                    fence();
                    device::unroll!(4, |kb| {
                        // SAFETY: the whole warpgroup; canonical layouts in this CTA's smem, loaded
                        // (the full barrier's phase completed).
                        unsafe {
                            mma_async_ss::<$e, $ma, $mb, One, One, _>(
                                d_a.at((_0, (wg, kb as i32))).desc.desc,
                                d_b.at((_0, (_0, kb as i32))).desc.desc,
                                &mut acc,
                                scale,
                            )
                        };
                        scale = ScaleOut::One;
                    });
                    commit_group();
                    wait_group::<1>(); // the previous k-tile's wgmmas have read their stage
                    fence_operand(&mut acc);
                    if let Some(done) = pending.replace(full) {
                        unsafe { cons.consumer_release(done) };
                    }
                }
                wait_group::<0>();
                fence_operand(&mut acc);
                if let Some(done) = pending {
                    unsafe { cons.consumer_release(done) };
                }
                // the producer is already loading the next tile's k-tiles meanwhile
                let last = tile + step >= n_tiles;
                // this warpgroup's 64 rows of the CTA tile: the (64, 2) split of its 128 rows
                let wg_m0 = m0 + make_layout_left((_64, _2)).crd2idx((0i32, wg)).value() as i32;
                unsafe { epilogue::store(&acc, c, ldc, out, (m, n), (wg_m0, n0), alpha, beta, t, tma_c, epi_smem, wg, last) };
                tile += step;
            }
        }
        }
        device::launch_bounds!($name, 384, 1);
    };
}

hgemm_entry!(hgemm_bf16_nn, Bf16, MajorMN, MajorK);
hgemm_entry!(hgemm_bf16_nt, Bf16, MajorMN, MajorMN);
hgemm_entry!(hgemm_bf16_tn, Bf16, MajorK, MajorK);
hgemm_entry!(hgemm_bf16_tt, Bf16, MajorK, MajorMN);
hgemm_entry!(hgemm_f16_nn, F16, MajorMN, MajorK);
hgemm_entry!(hgemm_f16_nt, F16, MajorMN, MajorMN);
hgemm_entry!(hgemm_f16_tn, F16, MajorK, MajorK);
hgemm_entry!(hgemm_f16_tt, F16, MajorK, MajorMN);
