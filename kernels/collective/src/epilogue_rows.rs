//! The TMA-store epilogue's pieces for a row-major 16-bit output (N contiguous: CUTLASS's
//! `RowMajor` D with `SM90_U32x4_STSM_N` and `SM90_TMA_STORE`), for a consumer warpgroup's
//! `m64nNk16` accumulators of any N that is a multiple of 64: the attention family's O, whose
//! head dim is contiguous. (hgemm's epilogue is the column-major twin: `stmatrix.trans` into
//! `Layout_MN_SW128_Atom` boxes.)
//!
//! The warpgroup's `64 × N` tile goes out in chunks of 64 columns: each is written with
//! `stmatrix.x4` (non-transposed) of packed 16-bit pairs into a 64 × 64 box laid out as
//! CuTe's `Layout_K_SW128_Atom` tiled to 64 × 64 (`Sw<3,4,3>` on bytes over
//! `(64,64):(64,1)`: the TMA box of a row-major tensor with the 128-byte swizzle), then one
//! thread issues the box's TMA store ([`store_chunks`]). No data moves between threads: the
//! accumulator's C layout is `stmatrix`'s fragment (thread `4i + j/2` of a warp holds element
//! `(i, j)` of each 8 × 8 matrix), the same fact that lets the accumulator be the next
//! `wgmma`'s A operand ([`acc_as_a`]).

use device::mma::stmatrix_x4;
use device::shared::to_shared_addr;
use device::tma::{tma_store_arrive, tma_store_fence, tma_store_wait};
use layout_types::cute::atom::gmma::*;
use layout_types::cute::atom::mma::gmma_acc::{acc_as_a, acc_coord};
use layout_types::cute::prelude::*;

/// Bytes of one staging box: 64 rows × 64 columns of a 16-bit element.
pub const BOX_BYTES: usize = 64 * 64 * 2;

/// `stmatrix.x4`'s row addresses in accumulator terms: lane `l = (i, q)` of shape `(8, 4)` gives
/// the address of row `i` of 8 × 8 matrix `q`, whose first element is held by lane `4i` of the
/// same warp (this layout) as value `2q` of the `stmatrix`'s 8 ([`stsm_val`]).
#[inline(always)]
fn stsm_thr() -> Layout<(_8, _4), (_4, _0)> {
    Layout::default()
}
/// The value part of [`stsm_thr`].
#[inline(always)]
fn stsm_val() -> Layout<(_8, _4), (_0, _2)> {
    Layout::default()
}

/// Writes chunk `chunk` (columns `64·chunk..` of a warpgroup's `64 × N` accumulator tile) as
/// 16-bit values into the box `buf` (`Layout_K_SW128_Atom` tiled to 64 × 64, row-major), the
/// value of accumulator `v` being `value(v)`, packed in pairs with `pack` (`cvt.rn.bf16x2.f32`
/// / `cvt.rn.f16x2.f32`). Each warp issues four `stmatrix.x4` (its 16 rows × 16 columns each):
/// `stmatrix` `k` takes the A-operand registers of k-block `4·chunk + k` ([`acc_as_a`]: the
/// accumulator's fragment is `stmatrix`'s). `t` is the thread's index in the warpgroup; all
/// 128 threads call it.
///
/// On the emulator: a warpgroup stages chunk 1 of accumulators that number their elements, and
/// every element lands at its swizzled place (byte `2·(64·m + n)` with bits 4..7 XOR bits 7..10).
///
/// ```
/// use collective::epilogue_rows::stage_chunk_rows_b16;
/// use layout_types::cute::atom::mma::gmma_acc::acc_coord;
/// device::kernel! {
///     pub unsafe fn stage(out: *mut u16) {
///         let t = device::thread::thread_idx_x() as i32;
///         let smem = device::shared::dynamic_shared_mem::<[u16; 4096]>() as *mut u16;
///         let mut acc = [0f32; 64]; // m64n128: two chunks
///         for (v, a) in acc.iter_mut().enumerate() {
///             // the element's place (m, n) in chunk 1, numbered 64·m + n
///             let (m, n) = acc_coord(t, v as i32);
///             *a = (64 * m + n - 64) as f32 / 2.0;
///         }
///         // a "conversion" that keeps the numbers as 16-bit integers
///         let ints = |lo: f32, hi: f32| lo as u32 | (hi as u32) << 16;
///         unsafe { stage_chunk_rows_b16(smem, 1, t, |v| 2.0 * acc[v], ints) };
///         device::thread::sync_threads();
///         for i in 0..32 {
///             let e = 32 * t as usize + i;
///             unsafe { *out.add(e) = *smem.add(e) };
///         }
///     }
/// }
/// let mut got = vec![0u16; 4096];
/// let p = got.as_mut_ptr() as usize;
/// // SAFETY: one warpgroup, 8 KiB of shared memory, 4096 outputs.
/// unsafe { device::emu::launch((1, 1, 1), (128, 1, 1), 8192, || stage(p as *mut u16)) };
/// for m in 0..64usize {
///     for n in 0..64usize {
///         let byte = 2 * (64 * m + n);
///         let at = (byte ^ (((byte >> 7) & 7) << 4)) / 2;
///         assert_eq!(got[at] as usize, 64 * m + n, "m {m} n {n}");
///     }
/// }
/// ```
///
/// # Safety
/// `buf` is 1024-byte aligned shared memory of [`BOX_BYTES`]; the whole warpgroup calls it.
#[inline(always)]
pub unsafe fn stage_chunk_rows_b16(
    buf: *mut u16,
    chunk: i32,
    t: i32,
    value: impl Fn(usize) -> f32,
    pack: impl Fn(f32, f32) -> u32,
) {
    let s = make_tensor(
        make_smem_ptr(buf),
        tile_to_shape(Layout_K_SW128_Atom::<u16>::new(), (_64, _64), LayoutLeft),
    ); // (64,64) box, N contiguous
    let (lane, warp): (i32, i32) = make_layout_left((_32, _4)).idx2crd(t);
    // the thread and value (of a stmatrix's 8) whose element this lane's address is
    let src_t = make_layout_left((_32, _4)).crd2idx((stsm_thr().crd2idx(lane), warp));
    let src_v = stsm_val().crd2idx(lane);
    let a_view = acc_as_a();
    device::unroll!(
        4,
        #[inline(always)]
        |k| {
            let kb = 4 * chunk + k as i32;
            // A's value i of k-block kb → accumulator index
            let v = #[inline(always)]
            |i: i32| a_view.crd2idx((i, kb)) as usize;
            let (r, c) = acc_coord(src_t, a_view.crd2idx((src_v, kb)));
            let regs = [
                pack(value(v(0)), value(v(1))),
                pack(value(v(2)), value(v(3))),
                pack(value(v(4)), value(v(5))),
                pack(value(v(6)), value(v(7))),
            ];
            // SAFETY: the whole warp; the row address is in `buf` and 16-byte aligned (8
            // elements of one row, kept together by the swizzle).
            unsafe { stmatrix_x4(to_shared_addr(s.ptr((r, c - 64 * chunk))), regs) };
        }
    );
}

/// The TMA path's chunk loop of one warpgroup: `chunks` chunks (at most 4: N ≤ 256) through
/// `boxes` boxes (1 to 4, dividing `chunks`) of [`BOX_BYTES`] at `smem`, in turn;
/// `stage(box, chunk)` writes one (all threads), `issue(box, chunk)` stores it (thread `t == 0`
/// only); `sync` is the warpgroup's barrier (128 threads, never the CTA's). `chunks` and
/// `boxes` are compile-time constants of the caller's instantiation (the loop is unrolled to 4
/// and the chunks past `chunks` fold away).
///
/// Per chunk: thread 0 waits until at most `boxes − 1` of its stores still read their boxes
/// (`cp.async.bulk.wait_group.read`: the store `boxes` chunks back, the last to use this box,
/// has read it), the warpgroup meets, every thread writes the chunk and fences it to the async
/// proxy (`fence.proxy.async.shared::cta`), the warpgroup meets again, thread 0 issues and
/// commits the chunk's store. Chunks count on across tiles, so with `boxes` = `chunks` a tile
/// waits only for the previous tile's stores, which drained under this tile's mainloop; the
/// last tile's are drained by [`drain`].
///
/// On the emulator: a warpgroup's four chunks through two boxes, each box handed on by a bulk
/// copy where a kernel issues its TMA store: the chunks take the boxes in turn, and each lands
/// whole.
///
/// ```
/// use collective::epilogue_rows::{BOX_BYTES, drain, store_chunks};
/// use device::thread::{named_barrier_sync, thread_idx_x};
/// # #[repr(C, align(16))]
/// # struct Out([u8; 4 * BOX_BYTES]);
/// let mut out = Box::new(Out([0; 4 * BOX_BYTES]));
/// let mut boxes = [9usize; 4];
/// let (p, b) = (out.0.as_mut_ptr() as usize, boxes.as_mut_ptr() as usize);
/// // SAFETY: one warpgroup, two boxes of shared memory; thread 0 writes `out` and `boxes`.
/// unsafe {
///     device::emu::launch((1, 1, 1), (128, 1, 1), 2 * BOX_BYTES as u32, || {
///         let t = thread_idx_x() as i32;
///         let smem = device::shared::dynamic_shared_mem::<u8>();
///         store_chunks(
///             4,
///             2,
///             smem,
///             t,
///             || named_barrier_sync::<8, 128>(),
///             // each thread's 64 bytes of the box: the chunk's number, plus 1
///             |buf, chunk| buf.add(64 * t as usize).write_bytes(chunk as u8 + 1, 64),
///             |buf, chunk| {
///                 *(b as *mut usize).add(chunk as usize) = buf.offset_from(smem) as usize / BOX_BYTES;
///                 let dst = (p as *mut u8).add(chunk as usize * BOX_BYTES);
///                 device::tma::bulk_s2g(buf, dst, BOX_BYTES as u32);
///             },
///         );
///         if t == 0 {
///             drain();
///         }
///     })
/// };
/// assert_eq!(boxes, [0, 1, 0, 1]); // the two boxes in turn
/// for (c, chunk) in out.0.chunks(BOX_BYTES).enumerate() {
///     assert!(chunk.iter().all(|&x| x == c as u8 + 1), "chunk {c}");
/// }
/// ```
///
/// # Safety
/// `smem` is 1024-byte aligned shared memory of `boxes · BOX_BYTES` that only this warpgroup
/// uses; the whole warpgroup calls it, with `t` its thread index.
#[inline(always)]
pub unsafe fn store_chunks(
    chunks: usize,
    boxes: usize,
    smem: *mut u8,
    t: i32,
    sync: impl Fn(),
    stage: impl Fn(*mut u8, i32),
    issue: impl Fn(*mut u8, i32),
) {
    if !(1..=4).contains(&boxes) || chunks > 4 || !chunks.is_multiple_of(boxes) {
        device::thread::trap();
    }
    // (chunk) → box offset: the boxes in turn
    let at = make_layout(
        (boxes as i32, (chunks / boxes) as i32),
        (BOX_BYTES as i32, 0i32),
    );
    device::unroll!(
        4,
        #[inline(always)]
        |chunk| if chunk < chunks {
            let chunk = chunk as i32;
            let off: i32 = at.crd2idx(chunk);
            let buf = unsafe { smem.add(off as usize) };
            if t == 0 {
                // at most `boxes − 1` stores still reading
                match boxes {
                    1 => tma_store_wait::<0>(),
                    2 => tma_store_wait::<1>(),
                    3 => tma_store_wait::<2>(),
                    _ => tma_store_wait::<3>(),
                }
            }
            sync();
            stage(buf, chunk);
            tma_store_fence();
            sync();
            if t == 0 {
                issue(buf, chunk);
                tma_store_arrive();
            }
        }
    );
}

/// Waits until every TMA store this thread issued has read its box (CuTe's
/// `tma_store_wait<0>`): after a warpgroup's last [`store_chunks`], by its thread 0, before
/// the CTA exits or the boxes are reused for anything else.
///
/// ```
/// use collective::epilogue_rows::{BOX_BYTES, drain};
/// # #[repr(C, align(16))]
/// # struct Out([u8; BOX_BYTES]);
/// let mut out = Box::new(Out([0; BOX_BYTES]));
/// let p = out.0.as_mut_ptr() as usize;
/// // SAFETY: one thread, one box of shared memory, copied whole to `out`.
/// unsafe {
///     device::emu::launch((1, 1, 1), (1, 1, 1), BOX_BYTES as u32, || {
///         let buf = device::shared::dynamic_shared_mem::<u8>();
///         buf.write_bytes(7, BOX_BYTES);
///         device::tma::tma_store_fence();
///         device::tma::bulk_s2g(buf, p as *mut u8, BOX_BYTES as u32); // the last store
///         device::tma::tma_store_arrive();
///         drain(); // it has read the box: the box may be reused
///         buf.write_bytes(0, BOX_BYTES);
///     })
/// };
/// assert!(out.0.iter().all(|&x| x == 7));
/// ```
#[inline(always)]
pub fn drain() {
    tma_store_wait::<0>();
}
