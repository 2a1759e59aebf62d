//! The body of the TMA copy kernels in CuTe's words: TMA atoms on the two tensor maps
//! ([`TmaAtom`]), a [`PipelineTmaAsync`] over the shared-memory buffers, each tile's TMA
//! coordinate read off an identity tensor (`make_identity_tensor((C, S)).local_tile(box, tile)`),
//! the tile of a CTA's `k`-th step off the layout of tiles.

use device::tma::{TmaDescriptor, prefetch_tma_descriptor};
use device::tma::{tma_store_arrive, tma_store_wait};
use layout_types::cute::atom::tma::{self, TmaAtom, TmaCoord, TmaLoad, TmaStore};
use layout_types::cute::prelude::*;
use layout_types::cutlass::pipeline::{ConsumerStage, PipelineStorage, PipelineTmaAsync};

use crate::config::CopyBox;

/// One CTA: what the body needs from the hardware.
#[derive(Clone, Copy)]
pub struct Cta<F> {
    /// `blockIdx.x`.
    pub block: u32,
    /// `gridDim.x`.
    pub grid: u32,
    /// The one thread that issues the TMA copies (`elect_one_sync()` in warp 0).
    pub leader: bool,
    /// The dynamic shared memory (128-byte aligned).
    pub smem: *mut u8,
    /// `__syncthreads()`.
    pub sync: F,
}

/// Bytes reserved for the pipeline's barriers ahead of the buffers (keeps them 128-byte aligned).
pub const BARRIER_BYTES: usize = 128;

macro_rules! tma_copy {
    ($(#[$doc:meta])* $name:ident { T = $t:ty; BoxC = $bc:ty; BoxS = $bs:ty; STAGES = $stages:literal; }) => {
        $(#[$doc])*
        pub struct $name;
        impl $name {
            /// The element moved.
            #[allow(dead_code)]
            const ELEM: usize = core::mem::size_of::<$t>();
            /// Pipeline depth.
            pub const STAGES: usize = $stages;
            /// Dynamic shared memory of a CTA: the barriers and `STAGES` boxes.
            pub const SMEM_BYTES: usize =
                BARRIER_BYTES + $stages * <TmaAtom<TmaLoad, $t, tma::BoxLayout<CopyBox<$bc, $bs>>>>::TX_BYTES as usize;

            /// The body: the leader streams this CTA's tiles through the pipeline.
            ///
            /// TMA clips a store to the tensor map only at 16-byte granularity along the
            /// contiguous dimension (measured on the H100: a map of `c` columns writes up to the
            /// next 16 bytes), so the store map covers the first `c_tma` columns (`c` rounded
            /// down to 16 bytes) and the leader writes the last `c - c_tma` columns of an edge
            /// tile from shared memory with plain stores (`dst`, `ldd`).
            ///
            /// # Safety
            /// `src`/`dst_map` point to tensor maps (load / store) of the `(c, s)` and
            /// `(c_tma, s)` tensors with this box (`dst_map` unused when `c_tma == 0`); `dst` is
            /// the destination with leading dimension `ldd`; `cta.smem` holds
            /// [`Self::SMEM_BYTES`] (or one box and the barriers when every CTA has at most one
            /// tile); every thread of the CTA runs this.
            #[inline(always)]
            #[allow(clippy::too_many_arguments)]
            pub unsafe fn run<F: Fn()>(
                cta: Cta<F>,
                src: *const TmaDescriptor,
                dst_map: *const TmaDescriptor,
                c: i32,
                s: i32,
                c_tma: i32,
                dst: *mut $t,
                ldd: i64,
            ) {
                type BoxLayout = tma::BoxLayout<CopyBox<$bc, $bs>>; // (BOX_C,BOX_S), C contiguous
                type Load = TmaAtom<TmaLoad, T, BoxLayout>;
                const STAGES: usize = $stages;
                let boxes = <($bc, $bs)>::default();
                type T = $t;
                let load = Load::new(src);
                let store = TmaAtom::<TmaStore, T, BoxLayout>::new(dst_map);
                let g_dst = make_tensor(make_gmem_ptr(dst), make_layout((c, s), (_1, ldd))); // (C,S)
                // (BOX_C*BOX_S, STAGES): the buffers after the barriers
                let s_buf = make_tensor(
                    make_smem_ptr(unsafe { cta.smem.add(BARRIER_BYTES) } as *mut T),
                    make_layout_left((BoxLayout::default().size(), Int::<$stages>::default())),
                );
                if cta.leader {
                    unsafe {
                        prefetch_tma_descriptor(src);
                        prefetch_tma_descriptor(dst_map);
                    }
                }
                let storage = cta.smem as *mut PipelineStorage<STAGES>;
                let pipe = unsafe { PipelineTmaAsync::<STAGES, Load>::init(storage, cta.leader, 1, &cta.sync) };
                if !cta.leader {
                    return;
                }
                let tiles = (c.ceil_div(<$bc>::VALUE as i32), s.ceil_div(<$bs>::VALUE as i32)); // (TC,TS)
                let tile_of = make_layout_left(tiles);
                let n_tiles = tiles.0 * tiles.1;
                let g_crd = load.get_tma_tensor((c, s)); // (C,S) TMA coordinates
                // the TMA coordinates of tile t: its box's origin in g_crd
                let coord = |t: i32| -> [i32; 2] {
                    g_crd.local_tile(boxes, tile_of.idx2crd(t)).at((_0, _0)).0.tma_coord()
                };
                // the columns [c_tma, c) of tile t, from its buffer, by plain stores
                let store_tail = |t: i32, buf: *mut $t| {
                    let [c0, s0] = coord(t);
                    let (lo, hi) = (c_tma.max(c0) - c0, c.min(c0 + <$bc>::VALUE as i32) - c0);
                    let rows = (s - s0).min(<$bs>::VALUE as i32);
                    let s_tile = make_tensor(make_smem_ptr(buf), BoxLayout::default()); // (BOX_C,BOX_S)
                    let g_tile = g_dst.local_tile(boxes, tile_of.idx2crd(t)); // (BOX_C,BOX_S)
                    for j in 0..rows {
                        for i in lo..hi {
                            unsafe { g_tile.write((i, j), s_tile.read((i, j))) };
                        }
                    }
                };
                let buf = |i: u32| s_buf.ptr((_0, i as i32));
                let (mut prod, mut cons) = (pipe.producer(), pipe.consumer());
                let step = cta.grid as i32;
                let mut next_load = cta.block as i32;
                let mut issue_load = |t: &mut i32| {
                    if *t < n_tiles {
                        let stage = unsafe { prod.producer_acquire() };
                        unsafe { load.copy(stage.full_barrier(), buf(stage.index()), coord(*t)) };
                        stage.producer_commit();
                        *t += step;
                    }
                };
                for _ in 0..STAGES {
                    issue_load(&mut next_load);
                }
                let mut in_store: Option<ConsumerStage<STAGES>> = None;
                let mut t = cta.block as i32;
                while t < n_tiles {
                    let full = unsafe { cons.consumer_wait() };
                    let [c0, _] = coord(t);
                    if c0 < c_tma {
                        unsafe { store.copy(buf(full.index()), coord(t)) };
                    }
                    if c0 + <$bc>::VALUE as i32 > c_tma {
                        store_tail(t, buf(full.index()));
                    }
                    tma_store_arrive();
                    // the previous tile's store has read its buffer: hand it back to the loads
                    tma_store_wait::<1>();
                    if let Some(done) = in_store.replace(full) {
                        unsafe { cons.consumer_release(done) };
                        issue_load(&mut next_load);
                    }
                    t += step;
                }
                tma_store_wait::<0>();
                if let Some(done) = in_store {
                    unsafe { cons.consumer_release(done) };
                }
            }
        }
    };
}

tma_copy!(
    /// 4-byte elements: 128x32 boxes (16 KiB), 4 stages.
    B4 { T = u32; BoxC = _128; BoxS = _32; STAGES = 4; }
);
tma_copy!(
    /// 2-byte elements: 256x32 boxes (16 KiB), 4 stages.
    B2 { T = u16; BoxC = _256; BoxS = _32; STAGES = 4; }
);
