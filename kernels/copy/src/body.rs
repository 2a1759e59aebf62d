//! The bodies of the copy kernels, in CuTe's words (`layout_types::cute`): a gmem tensor over the
//! matrix, `local_tile` of the CTA tile at the block coordinate, the TiledCopy thread slice
//! (`make_tiled_copy`, `get_slice`, `partition_s`/`partition_d`), an identity tensor for the
//! edges (`elem_predicate`, `copy_if`), and the shared-memory tile as a tensor over the dynamic
//! shared memory. No index arithmetic is written here: the layouts say it.
//!
//! This file uses nothing of the `device` crate: the thread's context ([`Thread`]: thread and
//! block index, the dynamic shared memory, the barrier) comes in as a value, so the same bodies
//! compile for the GPU (`lib.rs`, the entries) and on the host, where the CPU emulator
//! (`device::emu`, `kernels/emu/tests/emu/copy.rs`) runs the entries and checks the copies
//! bit-exactly.

use layout_types::check::BankConflictFree;
use layout_types::check::SwizzledLayout;
use layout_types::cute::atom::copy::{
    BulkCopyS2G, CopyAtom, CopyPredicate, PartitionOf, PtrPartition,
};
use layout_types::cute::prelude::*;
use layout_types::value::swizzle::{StaticSwizzle, Swizzle};

/// One thread of a block: what the body needs from the hardware.
#[derive(Clone, Copy)]
pub struct Thread<F> {
    /// `threadIdx.x`.
    pub tid: u32,
    /// `(blockIdx.x, blockIdx.y)`.
    pub block: (u32, u32),
    /// The block's dynamic shared memory (16-byte aligned).
    pub smem: *mut u8,
    /// `__syncthreads()`.
    pub sync: F,
}

/// The storage order of a gmem matrix: its `(M, N)` layout with leading dimension `ld`, and
/// which CTA tile a block takes.
///
/// The grid is one-dimensional and walks the tiles along the *contiguous* dimension first
/// (`idx2crd(blockIdx.x, tiles)` with the contiguous mode's tile count first): blocks that run
/// at the same time read and write neighbouring bytes of the same rows (columns). Walking the
/// strided dimension first instead, as the 2-D grid `(strided tiles, contiguous tiles)` did,
/// costs 7-9% of DRAM bandwidth on the H100 (0.91-0.92 of memcpy D2D at 256 MiB and 1 GiB
/// against 1.00-1.01, `host bench copy`; the note of issue #12 has the runs).
pub trait Order {
    /// The stride of `(M, N)`: `(ld, _1)` or `(_1, ld)`.
    type Stride: Copy;
    /// `make_layout((m, n), stride)`.
    fn layout(m: i64, n: i64, ld: i64) -> Layout<(i64, i64), Self::Stride>;
    /// The CTA tile coordinate `(bm, bn)` of block `bid` when the matrix has `tiles = (TM, TN)`
    /// CTA tiles (32-bit: the host keeps the grid under 2^31 blocks). The one division of a
    /// copy kernel is here: `idx2crd` by the dynamic tile count of the contiguous dimension.
    fn block_coord(bid: u32, tiles: (i64, i64)) -> (i64, i64);
}
/// Row-major: `(M, N):(ld, _1)`; blocks walk n first: `(bn, bm) = idx2crd(bid, (TN, TM))`.
pub struct RowMajor;
impl Order for RowMajor {
    type Stride = (i64, _1);
    #[inline(always)]
    fn layout(m: i64, n: i64, ld: i64) -> Layout<(i64, i64), (i64, _1)> {
        layout!((m, n):(ld, _1))
    }
    #[inline(always)]
    fn block_coord(bid: u32, (tm, tn): (i64, i64)) -> (i64, i64) {
        let (bn, bm) = make_layout_left((tn as i32, tm as i32)).idx2crd(bid as i32);
        (bm as i64, bn as i64)
    }
}
/// Column-major: `(M, N):(_1, ld)`; blocks walk m first: `(bm, bn) = idx2crd(bid, (TM, TN))`.
pub struct ColMajor;
impl Order for ColMajor {
    type Stride = (_1, i64);
    #[inline(always)]
    fn layout(m: i64, n: i64, ld: i64) -> Layout<(i64, i64), (_1, i64)> {
        layout!((m, n):(_1, ld))
    }
    #[inline(always)]
    fn block_coord(bid: u32, (tm, tn): (i64, i64)) -> (i64, i64) {
        let (bm, bn) = make_layout_left((tm as i32, tn as i32)).idx2crd(bid as i32);
        (bm as i64, bn as i64)
    }
}

/// A tiled-copy kernel's static configuration: a `(TILE_M, TILE_N)` CTA tile of `T`, copied
/// gmem → smem by `make_tiled_copy(Load, Thr, Val)` and smem → gmem by
/// `make_tiled_copy(Store, Thr, Val)`.
pub trait CopyKernel {
    /// The element (`u32` for 4-byte, `u16` for 2-byte elements: bit-exact moves).
    type T: Copy;
    /// The gmem → smem atom.
    type Load: CopyAtom<T = Self::T>;
    /// The smem → gmem atom.
    type Store: CopyAtom<T = Self::T>;
    /// The thread layout over the tile (256 threads).
    type Thr: Copy + Default;
    /// The value layout of one thread.
    type Val: Copy + Default;
    /// The CTA tile `(TILE_M, TILE_N)`.
    type Tile: Copy + Default;
    /// The shared-memory layout of the tile.
    type Smem: Copy + Default;
    /// The gmem order.
    type Order: Order;
}

/// Defines a [`CopyKernel`] and its body `Name::run(thread, src, dst, m, n, lds, ldd)`: the
/// same text for every configuration (written once here, instantiated with concrete types, so
/// the typed layer's bounds are checked on concrete types, not restated as generic bounds).
macro_rules! copy_kernel {
    ($(#[$doc:meta])* $name:ident { $($ty:ident = $val:ty;)* }) => {
        $(#[$doc])*
        pub struct $name;
        impl CopyKernel for $name {
            $(type $ty = $val;)*
        }
        impl $name {
            /// The body: one thread's part of the block's tile, gmem → smem → gmem.
            ///
            /// # Safety
            /// `src`/`dst` hold `m x n` matrices with leading dimensions `lds`/`ldd` (vector
            /// atoms: 16-byte aligned, leading dimensions multiples of the vector width);
            /// `thread.smem` holds the tile; every thread of the block runs this.
            #[inline(always)]
            pub unsafe fn run<F: Fn()>(
                thread: Thread<F>,
                src: *const u8,
                dst: *mut u8,
                m: i64,
                n: i64,
                lds: i64,
                ldd: i64,
            ) {
                type K = $name;
                type T = <K as CopyKernel>::T;
                type O = <K as CopyKernel>::Order;
                let tile = <K as CopyKernel>::Tile::default();
                let tiles = (m.ceil_div(tile.0), n.ceil_div(tile.1)); // (TM,TN)
                let cta = O::block_coord(thread.block.0, tiles);
                let m_src = make_tensor(make_gmem_ptr(src as *mut T), O::layout(m, n, lds)); // (M,N)
                let m_dst = make_tensor(make_gmem_ptr(dst as *mut T), O::layout(m, n, ldd)); // (M,N)
                let g_src = m_src.local_tile(tile, cta); // (TILE_M,TILE_N)
                let g_dst = m_dst.local_tile(tile, cta); // (TILE_M,TILE_N)
                let c_tile = make_identity_tensor((m, n)).local_tile(tile, cta); // (m,n) coords
                let s_tile = make_tensor(
                    make_smem_ptr(thread.smem as *mut T),
                    <K as CopyKernel>::Smem::default(),
                ); // (TILE_M,TILE_N)
                let thr_layout = <K as CopyKernel>::Thr::default();
                let val_layout = <K as CopyKernel>::Val::default();

                // gmem -> smem
                let load = make_tiled_copy(<K as CopyKernel>::Load::default(), thr_layout, val_layout);
                let thr_load = load.get_slice(thread.tid);
                let pred = thr_load.partition_s(&c_tile).elem_predicate((m, n));
                copy_if(&load, &pred, &thr_load.partition_s(&g_src), &thr_load.partition_d(&s_tile));
                if matches!(<<K as CopyKernel>::Load as CopyAtom>::OP, CopyOp::CpAsync16) {
                    cp_async_fence();
                    cp_async_wait::<0>();
                }
                (thread.sync)();

                // smem -> gmem
                let store = make_tiled_copy(<K as CopyKernel>::Store::default(), thr_layout, val_layout);
                let thr_store = store.get_slice(thread.tid);
                copy_if(&store, &pred, &thr_store.partition_s(&s_tile), &thr_store.partition_d(&g_dst));
            }
        }
    };
}
use layout_types::value::copy::CopyOp;

/// Row-major threads: 8 rows of 32, consecutive threads along n.
pub type RowThr = Layout<(_8, _32), (_32, _1)>;
/// Column-major threads: 32 along m, 8 columns.
pub type ColThr = Layout<(_32, _8), (_1, _32)>;

copy_kernel!(
    /// Row-major 4-byte elements, `UniversalCopy<uint128_t>` (`ld.global.v4` / `st.shared.v4`),
    /// 8x128 tile: one vector per thread.
    RowF32V4 {
        T = u32; Load = Copy128<u32>; Store = Copy128<u32>;
        Thr = RowThr; Val = Layout<(_1, _4), (_0, _1)>;
        Tile = (_8, _128); Smem = Layout<(_8, _128), (_128, _1)>; Order = RowMajor;
    }
);
copy_kernel!(
    /// Row-major 4-byte elements, `SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>` in, 128-bit out, 8x128
    /// tile.
    RowF32CpAsync {
        T = u32; Load = CpAsync16<u32>; Store = Copy128<u32>;
        Thr = RowThr; Val = Layout<(_1, _4), (_0, _1)>;
        Tile = (_8, _128); Smem = Layout<(_8, _128), (_128, _1)>; Order = RowMajor;
    }
);
copy_kernel!(
    /// Row-major 4-byte elements, one element per instruction (`UniversalCopy<uint32_t>`: any
    /// leading dimension and alignment), 8x128 tile; one value per thread and atom, so a warp's
    /// instruction covers 128 contiguous bytes (the TiledCopy repeats the 8x32 tiler 4 times
    /// along n).
    RowF32Scalar {
        T = u32; Load = UniversalCopy<u32>; Store = UniversalCopy<u32>;
        Thr = RowThr; Val = Layout<(_1, _1), (_0, _1)>;
        Tile = (_8, _128); Smem = Layout<(_8, _128), (_128, _1)>; Order = RowMajor;
    }
);
copy_kernel!(
    /// Column-major 4-byte elements, 128-bit vectors along m, 128x8 tile.
    ColF32V4 {
        T = u32; Load = Copy128<u32>; Store = Copy128<u32>;
        Thr = ColThr; Val = Layout<(_4, _1), (_1, _0)>;
        Tile = (_128, _8); Smem = Layout<(_128, _8), (_1, _128)>; Order = ColMajor;
    }
);
copy_kernel!(
    /// Row-major 2-byte elements, 128-bit vectors (8 halves), 8x256 tile.
    RowF16V4 {
        T = u16; Load = Copy128<u16>; Store = Copy128<u16>;
        Thr = RowThr; Val = Layout<(_1, _8), (_0, _1)>;
        Tile = (_8, _256); Smem = Layout<(_8, _256), (_256, _1)>; Order = RowMajor;
    }
);
copy_kernel!(
    /// Column-major 2-byte elements, 128-bit vectors along m, 256x8 tile.
    ColF16V4 {
        T = u16; Load = Copy128<u16>; Store = Copy128<u16>;
        Thr = ColThr; Val = Layout<(_8, _1), (_1, _0)>;
        Tile = (_256, _8); Smem = Layout<(_256, _8), (_1, _256)>; Order = ColMajor;
    }
);

// ---------------------------------------------------------------------------------------------
// Transpose through a swizzled shared-memory tile.

/// Load side: 16x16 threads (row-major ids), 4 contiguous f32 along n: tiler 16x64.
pub type TrLoadThr = Layout<(_16, _16), (_16, _1)>;
/// Store side, over the output tile `(n, m)`: lanes `8c + q` take rows `c` (4 per warp) and
/// 16-byte columns `q`; warp pairs split m in halves: tiler 16x64.
pub type TrStoreThr = Layout<((_4, _4), (_8, _2)), ((_8, _64), (_1, _32))>;
/// 4 consecutive values along the second mode.
pub type TrVal = Layout<(_1, _4), (_0, _1)>;
/// The smem tile `(m, n)`, row-major.
pub type TrTile = Layout<(_64, _64), (_64, _1)>;
/// The same smem tile seen from the store side's `(n, m)` coordinates.
pub type TrTileNM = Layout<(_64, _64), (_1, _64)>;

/// The transpose's smem accesses are free of bank conflicts (checked at compile time): the
/// 128-bit stores of the load side and the column-walking scalar reads of the store side.
/// Without the swizzle the reads are 8-way conflicts and this fails to build
/// (`tests/ui/fail/transpose_bank_conflict.rs`).
pub const fn check_banks<Sw: StaticSwizzle>() {
    let () = BankConflictFree::<TrTile, Sw, TrLoadThr, TrVal, f32, 4>::CHECK;
    let () = BankConflictFree::<TrTileNM, Sw, TrStoreThr, TrVal, f32, 1>::CHECK;
}

/// The swizzled smem tile stays inside its 64x64 span (a compile-time check).
const fn in_span<Sw: StaticSwizzle>() {
    if let Err(e) = SwizzledLayout::<Sw, TrTile>::check_in_span() {
        e.panic()
    }
}

/// `B = Aᵀ` for row-major `A` (`M x N`, `lda`) and `B` (`N x M`, `ldb`): block `(x, y)` copies
/// the 64x64 tile `(x, y)` of `A` into the smem tile `Sw ∘ (64,64):(64,1)` with 128-bit atoms,
/// then reads it back column-wise through the `(n, m)` view of the same smem (one element per
/// instruction, into registers) and writes tile `(y, x)` of `B` with 128-bit atoms.
///
/// # Safety
/// `a`, `b` hold the matrices, 16-byte aligned, `lda`, `ldb` multiples of 4; `thread.smem`
/// holds 16 KiB; every thread of the block runs this.
#[inline(always)]
pub unsafe fn transpose<Sw: StaticSwizzle, F: Fn()>(
    thread: Thread<F>,
    a: *const f32,
    b: *mut f32,
    m: i64,
    n: i64,
    lda: i64,
    ldb: i64,
) {
    const { in_span::<Sw>() };
    let (bm, bn) = (thread.block.0 as i64, thread.block.1 as i64);
    let m_a = make_tensor(make_gmem_ptr(a as *mut f32), layout!((m, n):(lda, _1))); // (M,N)
    let m_b = make_tensor(make_gmem_ptr(b), layout!((n, m):(ldb, _1))); // (N,M)
    let g_a = m_a.local_tile((_64, _64), (bm, bn)); // (64,64) of A
    let g_b = m_b.local_tile((_64, _64), (bn, bm)); // (64,64) of B
    let c_a = make_identity_tensor((m, n)).local_tile((_64, _64), (bm, bn));
    let c_b = make_identity_tensor((n, m)).local_tile((_64, _64), (bn, bm));
    let smem = make_smem_ptr(thread.smem as *mut f32);
    let sw = Sw::default();
    let s_a = make_tensor(smem, make_composed_layout(sw, TrTile::default())); // (m,n)
    let s_b = make_tensor(smem, make_composed_layout(sw, TrTileNM::default())); // (n,m)
    let (thr_ld, thr_st, val) = (
        TrLoadThr::default(),
        TrStoreThr::default(),
        TrVal::default(),
    );

    // A tile -> smem, 128-bit along n
    let load = make_tiled_copy(Copy128::<f32>::new(), thr_ld, val);
    let thr_load = load.get_slice(thread.tid);
    let pred_a = thr_load.partition_s(&c_a).elem_predicate((m, n));
    copy_if(
        &load,
        &pred_a,
        &thr_load.partition_s(&g_a),
        &thr_load.partition_d(&s_a),
    );
    (thread.sync)();

    // smem (n, m) view -> registers, one element per read (down the columns of the A tile) ...
    let s2r = make_tiled_copy(UniversalCopy::<f32>::new(), thr_st, val);
    let t_s = s2r.get_slice(thread.tid).partition_s(&s_b);
    let mut frag = make_fragment_like_partition::<f32, _>(&t_s);
    // SAFETY: the smem tile is whole (16 KiB), every element readable.
    unsafe { copy(&s2r, &t_s, &frag.partition()) };
    // ... -> B tile, 128-bit along m
    let r2g = make_tiled_copy(Copy128::<f32>::new(), thr_st, val);
    let thr_store = r2g.get_slice(thread.tid);
    let pred_b = thr_store.partition_d(&c_b).elem_predicate((n, m));
    copy_if(
        &r2g,
        &pred_b,
        &thr_store.retile_s(&mut frag),
        &thr_store.partition_d(&g_b),
    );
}

// ---------------------------------------------------------------------------------------------
// Transpose with bulk (TMA) stores: the B tile is staged in shared memory and each of its rows
// leaves with one `cp.async.bulk` (SM90_BULK_COPY_S2G).

/// The A tile `(m, n)` in smem, dense row-major.
pub type TbTileA = Layout<(_64, _64), (_64, _1)>;
/// The same A tile from the store side's `(n, m)` coordinates.
pub type TbTileANM = Layout<(_64, _64), (_1, _64)>;
/// The B tile `(n, m)` in smem after the A tile, rows padded to 68 floats: a phase of 8 lanes
/// storing 128-bit vectors down 8 consecutive rows hits 8 different 16-byte bank groups, and
/// each row stays 16-byte aligned for its bulk copy. (Unpadded, 8-way conflicts:
/// `tests/ui/fail/transpose_bulk_unpadded.rs`.)
pub type TbTileB = Layout<(_64, _64), (Int<68>, _1)>;
/// Column side, over `(n, m)`: thread `t` takes column `n = t mod 64` (a warp reads 32
/// consecutive columns of one A row: one word per bank) and row quads `t / 64 + 4j`, 4
/// consecutive `m` per atom: tiler 64x16.
pub type TbColThr = Layout<(_64, _4), (_1, _64)>;
/// Bulk side: 64 threads, one B row each.
pub type TbRowThr = Layout<(_64, _1), (_1, _0)>;
/// A whole B row of 64 values.
pub type TbRowVal = Layout<(_1, _64), (_0, _1)>;

/// The bulk transpose's three shared-memory accesses are free of bank conflicts (checked at
/// compile time): the 128-bit stores of the A tile, the scalar column reads (one column per
/// lane), and the 128-bit stores into the padded B tile.
pub const BULK_BANKS: () = {
    let () = BankConflictFree::<TbTileA, Swizzle<0, 4, 3>, TrLoadThr, TrVal, f32, 4>::CHECK;
    let () = BankConflictFree::<TbTileANM, Swizzle<0, 4, 3>, TbColThr, TrVal, f32, 1>::CHECK;
    let () = BankConflictFree::<TbTileB, Swizzle<0, 4, 3>, TbColThr, TrVal, f32, 4>::CHECK;
};

/// Shared memory of [`transpose_bulk`]: the A tile and the padded B tile, in bytes.
pub const TRANSPOSE_BULK_SMEM: usize = 4 * (64 * 64 + 64 * 68);

/// `copy` of a tile that lies whole inside its matrix (`whole`), else `copy_if` with the
/// predicate `pred` makes (the identity tensor's, partitioned like the data): the interior
/// tiles run with no comparisons.
///
/// # Safety
/// With `whole`, every element of both partitions is inside its tensor.
#[inline(always)]
#[allow(clippy::type_complexity)]
unsafe fn copy_whole_or_if<A, Thr, Val, Pr, SP, DP>(
    tc: &TiledCopy<A, Thr, Val>,
    whole: bool,
    pred: impl FnOnce() -> Pr,
    src: &SP,
    dst: &DP,
) where
    A: CopyAtom,
    Thr: StaticLayoutValue,
    Val: StaticLayoutValue,
    Pr: CopyPredicate,
    SP: PtrPartition<A::T> + PartitionOf<A, Thr, Val>,
    DP: PtrPartition<A::T> + PartitionOf<A, Thr, Val>,
{
    if whole {
        // SAFETY: the caller's contract.
        unsafe { copy(tc, src, dst) };
    } else {
        copy_if(tc, &pred(), src, dst);
    }
}

/// `B = Aᵀ` as [`transpose`], but the B tile goes through shared memory too and leaves by bulk
/// copies: block `(x, y)` copies the 64x64 tile `(x, y)` of `A` into a dense smem tile (128-bit
/// atoms), reads it back column-wise (one column per lane) into 4-vectors along `m`, stores
/// them into a padded `(n, m)` smem tile (128-bit atoms), and 64 threads write its rows, tile
/// `(y, x)` of `B`, with one `cp.async.bulk` each (rows that leave the matrix element by
/// element, rows outside it not at all). A tile whole inside the matrix takes both copies with
/// no predicate (`copy` rather than `copy_if`: 64 MiB 0.94–0.95 → 0.97–0.98 of memcpy, 1 GiB
/// 0.970 → 0.973). On the H100 this reaches 0.97–0.98 of memcpy D2D at 64 MiB to 1 GiB where
/// [`transpose`] reaches 0.96–0.97 (doc/performance.md, run 2026-11-23-7ff3b8f-transpose-probe).
///
/// # Safety
/// `a`, `b` hold the matrices, 16-byte aligned, `lda`, `ldb` multiples of 4; `thread.smem`
/// holds [`TRANSPOSE_BULK_SMEM`] bytes; every thread of the block runs this.
#[inline(always)]
pub unsafe fn transpose_bulk<F: Fn()>(
    thread: Thread<F>,
    a: *const f32,
    b: *mut f32,
    m: i64,
    n: i64,
    lda: i64,
    ldb: i64,
) {
    let () = BULK_BANKS;
    let (bm, bn) = (thread.block.0 as i64, thread.block.1 as i64);
    let m_a = make_tensor(make_gmem_ptr(a as *mut f32), layout!((m, n):(lda, _1))); // (M,N)
    let m_b = make_tensor(make_gmem_ptr(b), layout!((n, m):(ldb, _1))); // (N,M)
    let g_a = m_a.local_tile((_64, _64), (bm, bn)); // (64,64) of A
    let g_b = m_b.local_tile((_64, _64), (bn, bm)); // (64,64) of B
    let c_a = make_identity_tensor((m, n)).local_tile((_64, _64), (bm, bn));
    let c_b = make_identity_tensor((n, m)).local_tile((_64, _64), (bn, bm));
    let smem = thread.smem as *mut f32;
    let s_a = make_tensor(make_smem_ptr(smem), TbTileA::default()); // (m,n)
    let s_at = make_tensor(make_smem_ptr(smem), TbTileANM::default()); // (n,m)
    let s_b = make_tensor(
        make_smem_ptr(smem.wrapping_add(TbTileA::default().cosize().value() as usize)),
        TbTileB::default(),
    ); // (n,m)

    // the A tile whole inside A (and so B's inside B): its last coordinate is
    let interior = elem_less(c_a.at((63i64, 63i64)).0, (m, n));

    // A tile -> smem, 128-bit along n
    let load = make_tiled_copy(
        Copy128::<f32>::new(),
        TrLoadThr::default(),
        TrVal::default(),
    );
    let thr_load = load.get_slice(thread.tid);
    // SAFETY: `interior`: the A tile is whole inside A.
    unsafe {
        copy_whole_or_if(
            &load,
            interior,
            || thr_load.partition_s(&c_a).elem_predicate((m, n)),
            &thr_load.partition_s(&g_a),
            &thr_load.partition_d(&s_a),
        )
    };
    (thread.sync)();

    // A columns -> registers, one element per read ...
    let s2r = make_tiled_copy(
        UniversalCopy::<f32>::new(),
        TbColThr::default(),
        TrVal::default(),
    );
    let t_s = s2r.get_slice(thread.tid).partition_s(&s_at);
    let mut frag = make_fragment_like_partition::<f32, _>(&t_s);
    // SAFETY: the smem tile is whole, every element readable.
    unsafe { copy(&s2r, &t_s, &frag.partition()) };
    // ... -> the B tile in smem, 128-bit along m
    let r2s = make_tiled_copy(Copy128::<f32>::new(), TbColThr::default(), TrVal::default());
    let thr_r2s = r2s.get_slice(thread.tid);
    // SAFETY: as above.
    unsafe {
        copy(
            &r2s,
            &thr_r2s.retile_s(&mut frag),
            &thr_r2s.partition_d(&s_b),
        )
    };
    tma_store_fence();
    (thread.sync)();

    // B rows -> gmem, one bulk copy each
    let s2g = make_tiled_copy(
        BulkCopyS2G::<f32, _64>::new(),
        TbRowThr::default(),
        TbRowVal::default(),
    );
    if (thread.tid as usize) < TbRowThr::default().size().value() as usize {
        let thr_s2g = s2g.get_slice(thread.tid);
        // SAFETY: `interior`: the B tile is whole inside B.
        unsafe {
            copy_whole_or_if(
                &s2g,
                interior,
                || thr_s2g.partition_d(&c_b).elem_predicate((n, m)),
                &thr_s2g.partition_s(&s_b),
                &thr_s2g.partition_d(&g_b),
            )
        };
        tma_store_arrive();
        tma_store_wait::<0>();
    }
}
