//! The epilogue collective's interface (CUTLASS's `CollectiveEpilogue`): what a consumer
//! warpgroup does with its accumulators once a tile's mainloop is done. The kernel schedule
//! owns the shared memory (an [`CollectiveEpilogue::Storage`] field of its `SharedStorage`) and
//! the warpgroup's place; the epilogue owns the output path (TMA through shared memory, direct
//! stores at the edges, fused operations) and its run-time arguments.

use crate::mainloop::WarpgroupTile;

/// Stores the `m64n256` fp32 accumulators of a consumer warpgroup.
pub trait CollectiveEpilogue {
    /// The kernel arguments the epilogue needs (output pointer, scales, tensor map, ...).
    type Args: Copy;
    /// The epilogue's shared memory (a `#[repr(C)]` field of the kernel's shared storage).
    type Storage;
    /// The epilogue's barriers (CUTLASS's `EpiLoadPipeline` storage), a field of the kernel's
    /// shared storage beside the mainloop pipeline's (`()` for none).
    type PipelineStorage;
    /// Initializes the epilogue's barriers at `pipe` (CUTLASS's epilogue load pipeline's
    /// construction): called by one thread of the CTA in the kernel's prologue, before the
    /// mainloop pipeline's `init`, whose fence and CTA-wide barrier publish it. Nothing by
    /// default.
    ///
    /// # Safety
    /// `pipe` is the kernel's epilogue pipeline storage; one thread calls it, before any
    /// `store`.
    #[inline(always)]
    unsafe fn init(pipe: *mut Self::PipelineStorage) {
        let _ = pipe;
    }
    /// Starts loading the tile's source (C) into the epilogue's storage ahead of
    /// [`store`](Self::store) (CUTLASS's `CollectiveEpilogue::load`, which its producer warp
    /// issues; here the consumer warpgroup, inside the tile's mainloop, right after one k-tile's
    /// `wgmma`s are issued, so that C's latency passes under the mainloop instead of standing
    /// before the epilogue), where the epilogue reads C through its shared memory. Nothing by
    /// default. It keeps no state for `store`: a load that `store` would otherwise issue is
    /// left for it to complete (as an arrival still owed on a barrier), and `store`, told that
    /// `load` ran, finds it from the same arguments. They are `store`'s (`mn`'s M at least;
    /// `acc` is not final yet).
    ///
    /// # Safety
    /// Called by all 128 threads of the warpgroup, at most once a tile, only on a tile the
    /// warpgroup then stores with `loaded` true; `smem`, `pipe` and `args` as for `store`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn load<W: WarpgroupTile>(
        args: &Self::Args,
        mn: (i32, i32),
        origin: (i32, i32),
        t: i32,
        smem: *mut Self::Storage,
        pipe: *mut Self::PipelineStorage,
        wg: i32,
    ) {
        let _ = (args, mn, origin, t, smem, pipe, wg);
    }
    /// Stores warpgroup `wg`'s accumulators `acc` of its tile `W` ([`WarpgroupTile`]) at
    /// `origin` of C `(m, n)`: with `W::M` 64, the rows `origin.0..+64`, columns
    /// `origin.1..+256`; with 128, rows `origin.0..+128`, columns `origin.1..+128`, the
    /// fragment's 64-column quarters the two 64-row blocks' halves interleaved
    /// ([`WarpgroupTile::to_epilogue`]). `t` is the thread's index in
    /// the warpgroup, `last` whether this is the warpgroup's last tile (an asynchronous store
    /// must drain), `loaded` whether [`load`](Self::load) ran for this tile.
    ///
    /// # Safety
    /// Called by all 128 threads of the warpgroup; `smem` is the kernel's epilogue storage,
    /// `pipe` its pipeline storage (initialized: [`CollectiveEpilogue::init`]); `args` describe
    /// valid memory for C.
    #[allow(clippy::too_many_arguments)]
    unsafe fn store<W: WarpgroupTile>(
        args: &Self::Args,
        acc: &[f32; 128],
        mn: (i32, i32),
        origin: (i32, i32),
        t: i32,
        smem: *mut Self::Storage,
        pipe: *mut Self::PipelineStorage,
        wg: i32,
        last: bool,
        loaded: bool,
    );
}
