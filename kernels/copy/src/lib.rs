//! Tiled gmem → smem → gmem copies and transposes on the typed device layer
//! (`layout_types::cute`; issues #5, #12).
//!
//! Each block takes its CTA tile of an `M x N` matrix (`local_tile` at the block coordinate),
//! copies it into shared memory with a TiledCopy (`make_tiled_copy(atom, Thr, Val)`, the thread's
//! `get_slice`, `partition_s`/`partition_d`), synchronizes, and copies shared → global into the
//! output. The bodies are in [`body`]; the entries here are thin declarations that hand them the
//! thread's context (thread and block index, the dynamic shared memory, the barrier).
//!
//! Edges are predicated with CuTe's identity tensor: each element's `(m, n)` coordinate is
//! compared with `(M, N)`; a vector that straddles the edge of the contiguous dimension is copied
//! element by element, nothing outside the matrix is ever read or written
//! (`ThrPartition::elem_predicate`).
//!
//! Vector legality is a compile-time check of the typed layer (each thread's vector is contiguous
//! and aligned in the TiledCopy's tiler, and the vector mode has the static stride `_1` in both
//! tiles); the host checks what is dynamic (leading dimensions multiple of the vector width,
//! 16-byte aligned base pointers) before launching. The swizzled transpose checks both of its
//! smem sides for bank conflicts at compile time (`body::check_banks`).
#![cfg_attr(target_arch = "nvptx64", no_std, feature(abi_ptx))]
#![allow(internal_features)]

pub mod body;

use body::Thread;
use device::shared::dynamic_shared_mem;
use device::thread::{block_idx_x, block_idx_y, sync_threads, thread_idx_x};
use device::vec::Float4;
use layout_types::value::swizzle::Swizzle;

/// This thread's context on the GPU.
#[inline(always)]
fn this_thread() -> Thread<fn()> {
    Thread {
        tid: thread_idx_x(),
        block: (block_idx_x(), block_idx_y()),
        smem: dynamic_shared_mem::<Float4>() as *mut u8,
        sync: sync_threads,
    }
}

macro_rules! copy_entry {
    ($(#[$doc:meta])* $kernel:ident = $cfg:ident) => {
        ::device::kernel! {
        $(#[$doc])*
        ///
        /// `src`/`dst`: `M x N` matrices with leading dimensions `lds`/`ldd` (elements). Launch
        /// with 256 threads, `shared_mem_bytes = TILE_M * TILE_N * elem`, a 1-D grid of
        /// `ceil(M/TILE_M) * ceil(N/TILE_N)` blocks (see `body::Order`).
        ///
        /// # Safety
        /// Buffers hold the matrices; vector variants need 16-byte aligned bases and leading
        /// dimensions that are multiples of the vector width (checked by the host).
        pub unsafe fn $kernel(
            src: *const u8,
            dst: *mut u8,
            m: i64,
            n: i64,
            lds: i64,
            ldd: i64,
        ) {
            unsafe { body::$cfg::run(this_thread(), src, dst, m, n, lds, ldd) }
        }
        }
    };
}

copy_entry!(
    /// Row-major f32, `UniversalCopy<uint128_t>` (`ld.global.v4`/`st.shared.v4`), 8x128 tile.
    tiled_copy_row_f32_v4 = RowF32V4
);
copy_entry!(
    /// Row-major f32, `SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>`, 8x128 tile.
    tiled_copy_row_f32_cp_async = RowF32CpAsync
);
copy_entry!(
    /// Row-major f32, one element per instruction (any leading dimension and alignment).
    tiled_copy_row_f32_scalar = RowF32Scalar
);
copy_entry!(
    /// Column-major f32, 128-bit vectors along m, 128x8 tile.
    tiled_copy_col_f32_v4 = ColF32V4
);
copy_entry!(
    /// Row-major 16-bit, 128-bit vectors (8 halves), 8x256 tile.
    tiled_copy_row_f16_v4 = RowF16V4
);
copy_entry!(
    /// Column-major 16-bit, 128-bit vectors along m, 256x8 tile.
    tiled_copy_col_f16_v4 = ColF16V4
);

device::kernel! {
/// `B = Aᵀ` for row-major `A` (`M x N`, leading dimension `lda`) and `B` (`N x M`, `ldb`),
/// through a 64x64 f32 smem tile swizzled by `Sw<3,2,6>` (16-byte units xor'ed with row bits
/// 2..5): no bank conflicts on the 128-bit stores nor on the column reads. Launch with 256
/// threads, 16 KiB dynamic smem, grid `(ceil(M/64), ceil(N/64))`.
///
/// # Safety
/// 16-byte aligned buffers, `lda`, `ldb` multiples of 4 (checked by the host).
pub unsafe fn transpose_f32_swizzled(
    a: *const f32,
    b: *mut f32,
    m: i64,
    n: i64,
    lda: i64,
    ldb: i64,
) {
    const { body::check_banks::<Swizzle<3, 2, 6>>() };
    unsafe { body::transpose::<Swizzle<3, 2, 6>, _>(this_thread(), a, b, m, n, lda, ldb) }
}
}

device::kernel! {
/// As [`transpose_f32_swizzled`] with the identity swizzle `Sw<0,4,3>` (plain row-major smem):
/// the baseline that shows what the swizzle buys (8-way conflicts on the column reads).
///
/// # Safety
/// As [`transpose_f32_swizzled`].
pub unsafe fn transpose_f32_naive(
    a: *const f32,
    b: *mut f32,
    m: i64,
    n: i64,
    lda: i64,
    ldb: i64,
) {
    unsafe { body::transpose::<Swizzle<0, 4, 3>, _>(this_thread(), a, b, m, n, lda, ldb) }
}
}

device::kernel! {
/// `B = Aᵀ` for row-major `A` (`M x N`, leading dimension `lda`) and `B` (`N x M`, `ldb`),
/// through a dense 64x64 f32 smem tile of A and a padded smem tile of B whose rows leave by
/// bulk copies (`cp.async.bulk`, the TMA unit): no bank conflicts on any smem access
/// (`body::BULK_BANKS`). Launch with 256 threads, `body::TRANSPOSE_BULK_SMEM` (33 KiB) of
/// dynamic smem, grid `(ceil(M/64), ceil(N/64))`.
///
/// Hopper only (`cp.async.bulk` needs `sm_90`): the `sm_80` build of this family leaves it out,
/// and the host's transpose falls back to [`transpose_f32_swizzled`] there.
///
/// # Safety
/// 16-byte aligned buffers, `lda`, `ldb` multiples of 4 (checked by the host).
#[cfg(any(not(target_arch = "nvptx64"), target_feature = "sm_90"))]
pub unsafe fn transpose_f32_bulk(
    a: *const f32,
    b: *mut f32,
    m: i64,
    n: i64,
    lda: i64,
    ldb: i64,
) {
    unsafe { body::transpose_bulk(this_thread(), a, b, m, n, lda, ldb) }
}
}
