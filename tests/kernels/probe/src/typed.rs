//! Zero-cost probes of the typed layout API (`layout_types::cute`): each kernel written with the
//! API has a hand-written twin doing the same index arithmetic by hand. `tests/ptx_typed_probes.rs`
//! checks on the PTX that the typed kernels have no local-memory frame, no division or remainder
//! for static modes, and an instruction count within 10% of their twins.
//!
//! All probes take the same arguments: `out` (or `a`/`b`), the dynamic extents `m`, `n` and the
//! leading dimension(s) as kernel arguments; thread and block indices are run-time values.

use device::thread::{block_idx_x, block_idx_y, block_idx_z, thread_idx_x};
use device::wgmma::MajorK;
use layout_types::cute::prelude::*;

// ------------------------------------------------------------------------------------------
// 1. crd2idx of a mixed layout at a run-time coordinate
// ------------------------------------------------------------------------------------------

device::kernel! {
/// `out[t] = layout!((m, _8):(_1, ld)).crd2idx((t % 4, t / 4))` — the example.
///
/// # Safety
/// `out` holds `blockDim.x` i32.
pub unsafe fn probe_crd2idx_mixed_typed(out: *mut i32, m: i32, ld: i32) {
    let t = thread_idx_x() as i32;
    let l = layout!((m, _8):(_1, ld));
    unsafe { *out.add(t as usize) = l.crd2idx((t % 4, t / 4)) };
}
}
device::kernel! {
/// Twin of [`probe_crd2idx_mixed_typed`].
///
/// # Safety
/// As the typed probe.
pub unsafe fn probe_crd2idx_mixed_hand(out: *mut i32, m: i32, ld: i32) {
    let t = thread_idx_x() as i32;
    let _ = m;
    unsafe { *out.add(t as usize) = t % 4 + (t / 4) * ld };
}
}

device::kernel! {
/// `out[t] = L(t)` for the static nested layout `((_4,_2),_8):((_1,_32),_4)` and a run-time 1-D
/// index (colexicographic split into the modes, all static: masks and shifts).
///
/// # Safety
/// `out` holds `blockDim.x` i32, `blockDim.x <= 64`.
pub unsafe fn probe_crd2idx_static_typed(out: *mut i32) {
    let t = thread_idx_x() as i32;
    let l = layout!(((_4, _2), _8):((_1, _32), _4));
    unsafe { *out.add(t as usize) = l.call(t) };
}
}
device::kernel! {
/// Twin of [`probe_crd2idx_static_typed`].
///
/// # Safety
/// As the typed probe.
pub unsafe fn probe_crd2idx_static_hand(out: *mut i32) {
    let t = thread_idx_x() as i32;
    unsafe { *out.add(t as usize) = t % 4 + (t / 4) % 2 * 32 + (t / 8) * 4 };
}
}

// ------------------------------------------------------------------------------------------
// 2. local_tile of a dynamic (M,N):(_1,ld) tensor by a static tile at a run-time block coord
// ------------------------------------------------------------------------------------------

device::kernel! {
/// Block `(bx, by)` takes tile `(bx, by)` of `(_32,_8)` of `A = (m,n):(_1,ld)`; thread `t`
/// writes `t` to element `(t % 32, t / 32)` of the tile. Launch 256 threads.
///
/// # Safety
/// `a` holds the `m x n` matrix with leading dimension `ld`; the grid covers it exactly.
pub unsafe fn probe_local_tile_typed(a: *mut f32, m: i32, n: i32, ld: i32) {
    let t = thread_idx_x() as i32;
    let (bm, bn) = (block_idx_x() as i32, block_idx_y() as i32);
    let ta = make_tensor(make_gmem_ptr(a), layout!((m, n):(_1, ld)));
    let tile = ta.local_tile((_32, _8), (bm, bn));
    unsafe { tile.write((t % 32, t / 32), t as f32) };
}
}
device::kernel! {
/// Twin of [`probe_local_tile_typed`].
///
/// # Safety
/// As the typed probe.
pub unsafe fn probe_local_tile_hand(a: *mut f32, m: i32, n: i32, ld: i32) {
    let t = thread_idx_x() as i32;
    let (bm, bn) = (block_idx_x() as i32, block_idx_y() as i32);
    let _ = (m, n);
    let (i, j) = (bm * 32 + t % 32, bn * 8 + t / 32);
    unsafe { *a.offset((i + j * ld) as isize) = t as f32 };
}
}

// ------------------------------------------------------------------------------------------
// 3. local_partition of that tile by a static thread layout at a run-time thread index
// ------------------------------------------------------------------------------------------

device::kernel! {
/// Tile `(bx, by)` of `(_32,_8)` of `A = (m,n):(_1,ld)`, partitioned by the thread layout
/// `(_8,_4):(_1,_8)`: thread `t` adds 1 to its `4 x 2` elements. Launch 32 threads.
///
/// # Safety
/// As [`probe_local_tile_typed`].
pub unsafe fn probe_local_partition_typed(a: *mut f32, m: i32, n: i32, ld: i32) {
    let t = thread_idx_x() as i32;
    let (bm, bn) = (block_idx_x() as i32, block_idx_y() as i32);
    let ta = make_tensor(make_gmem_ptr(a), layout!((m, n):(_1, ld)));
    let tile = ta.local_tile((_32, _8), (bm, bn));
    let part = tile.local_partition(layout!((_8, _4):(_1, _8)), t);
    let mut i = 0;
    while i < 8 {
        unsafe { part.write(i, part.read(i) + 1.0) };
        i += 1;
    }
}
}
device::kernel! {
/// Twin of [`probe_local_partition_typed`].
///
/// # Safety
/// As the typed probe.
pub unsafe fn probe_local_partition_hand(a: *mut f32, m: i32, n: i32, ld: i32) {
    let t = thread_idx_x() as i32;
    let (bm, bn) = (block_idx_x() as i32, block_idx_y() as i32);
    let _ = (m, n);
    let (i0, j0) = (bm * 32 + t % 8, bn * 8 + t / 8);
    let mut i = 0;
    while i < 8 {
        let p = unsafe { a.offset(((i0 + (i % 4) * 8) + (j0 + (i / 4) * 4) * ld) as isize) };
        unsafe { *p += 1.0 };
        i += 1;
    }
}
}

// ------------------------------------------------------------------------------------------
// 4. a predicated TiledCopy of that tile
// ------------------------------------------------------------------------------------------

device::kernel! {
/// Copies tile `(bx, by)` of `(_32,_32)` from `A = (m,n):(_1,lda)` to `B = (m,n):(_1,ldb)` with
/// a TiledCopy of 128-bit atoms (threads `(_8,_32):(_1,_8)`, values `(_4,_1)`), predicated by the
/// identity tensor against `(m, n)`. Launch 256 threads; `m`, `lda`, `ldb` multiples of 4.
///
/// # Safety
/// `a`, `b` hold `m x n` matrices with those leading dimensions, 16-byte aligned.
pub unsafe fn probe_tiled_copy_typed(
    a: *mut f32,
    b: *mut f32,
    m: i32,
    n: i32,
    lda: i32,
    ldb: i32,
) {
    let t = thread_idx_x();
    let (bm, bn) = (block_idx_x() as i32, block_idx_y() as i32);
    let ta = make_tensor(make_gmem_ptr(a), layout!((m, n):(_1, lda)));
    let tb = make_tensor(make_gmem_ptr(b), layout!((m, n):(_1, ldb)));
    let id = make_identity_tensor((m, n));
    let tc = make_tiled_copy(
        Copy128::<f32>::new(),
        layout!((_8, _32):(_1, _8)),
        layout!((_4, _1):(_1, _0)),
    );
    let thr = tc.get_slice(t);
    let ga = thr.partition_s(&ta.local_tile((_32, _32), (bm, bn)));
    let gb = thr.partition_d(&tb.local_tile((_32, _32), (bm, bn)));
    let pred = thr
        .partition_s(&id.local_tile((_32, _32), (bm, bn)))
        .predicate((m, n));
    copy_if(&tc, &pred, &ga, &gb);
}
}
device::kernel! {
/// Twin of [`probe_tiled_copy_typed`].
///
/// # Safety
/// As the typed probe.
pub unsafe fn probe_tiled_copy_hand(
    a: *mut f32,
    b: *mut f32,
    m: i32,
    n: i32,
    lda: i32,
    ldb: i32,
) {
    use device::vec::{Float4, ld_global_v4_f32, st_global_v4_f32};
    let t = thread_idx_x() as i32;
    let (bm, bn) = (block_idx_x() as i32, block_idx_y() as i32);
    let (i, j) = (bm * 32 + (t % 8) * 4, bn * 32 + t / 8);
    if i < m && j < n {
        unsafe {
            let v = ld_global_v4_f32(a.offset((i + j * lda) as isize) as *const Float4);
            st_global_v4_f32(b.offset((i + j * ldb) as isize) as *mut Float4, v);
        }
    }
}
}

// ------------------------------------------------------------------------------------------
// 5. a GMMA shared-memory tile at a run-time (m, k, stage), and its wgmma descriptors
// ------------------------------------------------------------------------------------------

device::kernel! {
/// `out[..] = smem(m, k, stage)` for `smem = tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>,
/// (_128,_64,_4))` (`Sw<3,4,3> o ((_8,_16),(_64,_1),(_1,_4)):((_64,_512),(_1,_0),(_0,_8192))`)
/// at `m = threadIdx.x`, `k = blockIdx.x`, `stage = blockIdx.y`. Launch `(64, 4)` blocks of 128
/// threads.
///
/// # Safety
/// `out` holds `128 * 64 * 4` i32.
pub unsafe fn probe_gmma_smem_typed(out: *mut i32) {
    use layout_types::cute::atom::gmma::*;
    let (m, k, s) = (thread_idx_x() as i32, block_idx_x() as i32, block_idx_y() as i32);
    let smem = tile_to_shape(Layout_K_SW128_Atom::<u16>::new(), (_128, _64, _4), LayoutLeft);
    let o = make_layout_left((_128, _64, _4)).crd2idx((m, k, s));
    unsafe { *out.add(o as usize) = smem.crd2idx((m, k, s)) };
}
}
device::kernel! {
/// Twin of [`probe_gmma_smem_typed`]: the 128-byte swizzle `i ^ ((i >> 3) & 0x70)` of
/// `(m % 8) * 64 + (m / 8) * 512 + k + stage * 8192`, by hand.
///
/// # Safety
/// As the typed probe.
pub unsafe fn probe_gmma_smem_hand(out: *mut i32) {
    let (m, k, s) = (thread_idx_x() as i32, block_idx_x() as i32, block_idx_y() as i32);
    let i = ((m & 7) << 6) + ((m >> 3) << 9) + k + (s << 13);
    unsafe { *out.add((m + (k << 7) + (s << 13)) as usize) = i ^ ((i >> 3) & 0x70) };
}
}

device::kernel! {
/// `*tensor.ptr((m, k, stage)) = layout_left(m, k, stage)` for a tensor over that tile at `out`:
/// where the element is stored, CuTe's byte swizzle (`swizzle_ptr`: `Sw<3,4,3>` on the byte
/// offset, `Sw<3,3,3>` on u16 element offsets), not the layout function's `Sw<3,4,3>` on element
/// offsets. Launch `(64, 4)` blocks of 128 threads.
///
/// # Safety
/// `out` holds `128 * 64 * 4` u16, aligned to 1024 bytes.
pub unsafe fn probe_gmma_smem_tensor_typed(out: *mut u16) {
    use layout_types::cute::atom::gmma::*;
    let (m, k, s) = (thread_idx_x() as i32, block_idx_x() as i32, block_idx_y() as i32);
    let smem = tile_to_shape(Layout_K_SW128_Atom::<u16>::new(), (_128, _64, _4), LayoutLeft);
    let t = make_tensor(make_smem_ptr(out), smem);
    let o = make_layout_left((_128, _64, _4)).crd2idx((m, k, s));
    unsafe { *t.ptr((m, k, s)) = o as u16 };
}
}
device::kernel! {
/// Twin of [`probe_gmma_smem_tensor_typed`]: the 128-byte swizzle on 2-byte elements,
/// `i ^ ((i >> 3) & 0x38)`, of `(m % 8) * 64 + (m / 8) * 512 + k + stage * 8192`, by hand.
///
/// # Safety
/// As the typed probe.
pub unsafe fn probe_gmma_smem_tensor_hand(out: *mut u16) {
    let (m, k, s) = (thread_idx_x() as i32, block_idx_x() as i32, block_idx_y() as i32);
    let i = ((m & 7) << 6) + ((m >> 3) << 9) + k + (s << 13);
    unsafe { *out.add((i ^ ((i >> 3) & 0x38)) as usize) = (m + (k << 7) + (s << 13)) as u16 };
}
}

device::kernel! {
/// `out[..]` = the wgmma descriptor of the second 64x16 MMA tile (`m = 1`) at k block
/// `k = threadIdx.x` of stage `blockIdx.x` of that smem tile in dynamic shared memory:
/// `make_gmma_desc_tensor` (CuTe's `partition_fragment_A` of an SS GMMA) indexed at run time.
/// Launch 4 blocks of 4 threads with 64 KiB of dynamic shared memory.
///
/// # Safety
/// `out` holds 16 u64.
pub unsafe fn probe_gmma_desc_typed(out: *mut u64) {
    use layout_types::cute::atom::gmma::*;
    let (k, s) = (thread_idx_x() as i32, block_idx_x() as i32);
    let smem = tile_to_shape(Layout_K_SW128_Atom::<u16>::new(), (_128, _64, _4), LayoutLeft);
    let part = smem.with_layout(zipped_divide(smem.layout, (_64, _16)));
    let buf = device::shared::dynamic_shared_mem::<u16>();
    let desc = make_gmma_desc_tensor(MajorK, make_tensor(make_smem_ptr(buf), part));
    let o = make_layout_left((_4, _4)).crd2idx((k, s));
    unsafe { *out.add(o as usize) = desc.at((_0, (_1, k, s))).desc.desc };
}
}
device::kernel! {
/// Twin of [`probe_gmma_desc_typed`]: B128 layout type, SBO 64 (1024 bytes), LBO 1, start
/// address `smem >> 4`, plus `(512 + 2 k + 1024 stage)` 16-byte units in the low word.
///
/// # Safety
/// As the typed probe.
pub unsafe fn probe_gmma_desc_hand(out: *mut u64) {
    let (k, s) = (thread_idx_x() as i32, block_idx_x() as i32);
    let addr = device::shared::to_shared_addr(device::shared::dynamic_shared_mem::<u16>());
    let base = (1u64 << 62) | (64u64 << 32) | (1u64 << 16) | ((addr >> 4) & 0x3FFF) as u64;
    let lo = (base as u32).wrapping_add((512 + 2 * k + 1024 * s) as u32);
    unsafe { *out.add((k + 4 * s) as usize) = (base & 0xFFFF_FFFF_0000_0000) | lo as u64 };
}
}

// ------------------------------------------------------------------------------------------
// 6. partition_c of an SM80 TiledMMA over a 128x128 column-major tile with a run-time ldc
// ------------------------------------------------------------------------------------------

device::kernel! {
/// `make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1))` (128 threads, a 32x16 tile);
/// thread `t`'s `partition_c` of the 128x128 column-major tile `C = (_128,_128):(_1,ldc)`
/// (`((_2,_2),_4,_8)` values) written with each value's fragment index. Launch 128 threads.
///
/// # Safety
/// `c` holds a 128x128 matrix with leading dimension `ldc >= 128`.
pub unsafe fn probe_mma_partition_c_typed(c: *mut f32, ldc: i32) {
    use layout_types::cute::atom::mma::*;
    let t = thread_idx_x() as i32;
    let mma = make_tiled_mma(
        SM80_16x8x16_F32F16F16F32_TN::new(),
        layout!((_2, _2, _1):(_1, _2, _4)),
    );
    let gc = make_tensor(make_gmem_ptr(c), layout!((_128, _128):(_1, ldc)));
    let tcgc = mma.get_slice(t).partition_c(&gc); // (MMA, MMA_M, MMA_N)
    let mut n = 0;
    while n < 8 {
        let mut m = 0;
        while m < 4 {
            let mut v = 0;
            while v < 4 {
                unsafe { tcgc.write((v, m, n), (v + 4 * m + 16 * n) as f32) };
                v += 1;
            }
            m += 1;
        }
        n += 1;
    }
}
}
device::kernel! {
/// Twin of [`probe_mma_partition_c_typed`]: the `m16n8k16` accumulator layout by hand (lane
/// `l` holds rows `l / 4` and `l / 4 + 8`, columns `2 (l % 4)` and `2 (l % 4) + 1` of its
/// 16x8 atom tile; warp `w` is atom `(w % 2, w / 2)` of the 2x2 atoms; the 32x16 tile repeats
/// 4x8 times).
///
/// # Safety
/// As the typed probe.
pub unsafe fn probe_mma_partition_c_hand(c: *mut f32, ldc: i32) {
    let t = thread_idx_x() as i32;
    let (lane, warp) = (t % 32, t / 32);
    let row0 = lane / 4 + (warp % 2) * 16;
    let col0 = (lane % 4) * 2 + (warp / 2) * 8;
    let mut n = 0;
    while n < 8 {
        let mut m = 0;
        while m < 4 {
            let mut v = 0;
            while v < 4 {
                let (row, col) = (row0 + (v / 2) * 8 + m * 32, col0 + v % 2 + n * 16);
                unsafe { *c.offset((row + col * ldc) as isize) = (v + 4 * m + 16 * n) as f32 };
                v += 1;
            }
            m += 1;
        }
        n += 1;
    }
}
}

// ------------------------------------------------------------------------------------------
// 7. An SM80 mainloop step: ldmatrix TiledCopies of A and B, then mma.sync
// ------------------------------------------------------------------------------------------

/// The SM80 16x8x16 mainloop step of the ldmatrix probes, in CuTe's form: the TiledMMA's
/// register fragments, `ldmatrix` TiledCopies of A and B (`partition_s` of the shared-memory
/// tiles, `retile_d` of the fragments), `$kb` k-blocks of `copy` then `mma.sync`, and thread
/// `$t`'s 32 accumulators stored to `$c`.
macro_rules! ldsm_mainloop_step {
    ($mma:ident, $s_a:ident, $s_b:ident, $kb:literal, $t:ident, $c:ident) => {{
        let thr_mma = $mma.get_slice($t as i32);
        let mut a = thr_mma.partition_fragment_a(&$s_a);
        let mut b = thr_mma.partition_fragment_b(&$s_b);
        let s2r_a = make_tiled_copy_a(SM75_U32x4_LDSM_N::new(), &$mma);
        let s2r_b = make_tiled_copy_b(SM75_U32x4_LDSM_N::new(), &$mma);
        let (ta, tb) = (s2r_a.get_slice($t), s2r_b.get_slice($t));
        let (t_sa, t_ra) = (ta.partition_s(&$s_a), ta.retile_d(&mut a));
        let (t_sb, t_rb) = (tb.partition_s(&$s_b), tb.retile_d(&mut b));
        let mut acc = [0f32; 32];
        device::unroll!(
            $kb,
            #[inline(always)]
            |k: usize| {
                unsafe {
                    copy(&s2r_a, &t_sa.k_block(k), &t_ra.k_block(k));
                    copy(&s2r_b, &t_sb.k_block(k), &t_rb.k_block(k));
                }
                device::unroll!(
                    2,
                    #[inline(always)]
                    |m: usize| {
                        device::unroll!(
                            4,
                            #[inline(always)]
                            |n: usize| {
                                let av = |r: usize| {
                                    let lo = a
                                        [a.layout.call((2 * r + 8 * (m + 2 * k)) as i32) as usize]
                                        .0 as u32;
                                    let hi = a[a.layout.call((2 * r + 1 + 8 * (m + 2 * k)) as i32)
                                        as usize]
                                        .0 as u32;
                                    lo | hi << 16
                                };
                                let bv = |r: usize| {
                                    let lo = b
                                        [b.layout.call((2 * r + 4 * (n + 4 * k)) as i32) as usize]
                                        .0 as u32;
                                    let hi = b[b.layout.call((2 * r + 1 + 4 * (n + 4 * k)) as i32)
                                        as usize]
                                        .0 as u32;
                                    lo | hi << 16
                                };
                                let i = 4 * (m + 2 * n);
                                let d = unsafe {
                                    device::mma::mma_m16n8k16_f16_f32(
                                        [av(0), av(1), av(2), av(3)],
                                        [bv(0), bv(1)],
                                        [acc[i], acc[i + 1], acc[i + 2], acc[i + 3]],
                                    )
                                };
                                acc[i..i + 4].copy_from_slice(&d);
                            }
                        );
                    }
                );
            }
        );
        device::unroll!(
            32,
            #[inline(always)]
            |i: usize| unsafe { *$c.add(32 * $t as usize + i) = acc[i] }
        );
    }};
}

device::kernel! {
/// One k-tile of an SM80 mainloop in CuTe's form: `make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN,
/// (_2,_2,_1), Tile<_,_32,_>)` (128 threads, a 32x32x16 tile) over a 64x32 A and a 64x32 B tile
/// in shared memory (K-major, f16); `make_tiled_copy_a/b(SM75_U32x4_LDSM_N)`, `partition_s`,
/// `retile_d` of `partition_fragment_a/b`, and per k-block `copy` then one `mma.sync` per
/// (m, n); thread `t` writes its 32 accumulators to `c[32 t ..]`. Launch 128 threads,
/// `shared_mem_bytes = 8192`, the tiles already in shared memory.
///
/// # Safety
/// `c` holds `128 * 32` f32.
pub unsafe fn probe_ldsm_mainloop_typed(c: *mut f32) {
    use layout_types::cute::atom::mma::*;
    let t = thread_idx_x();
    let mma = make_tiled_mma_permuted(
        SM80_16x8x16_F32F16F16F32_TN::new(),
        layout!((_2, _2, _1):(_1, _2, _4)),
        (Underscore, _32, Underscore),
    );
    let smem = device::shared::dynamic_shared_mem::<half_t>();
    let s_a = make_tensor(make_smem_ptr(smem), layout!((_64, _32):(_32, _1))); // (M, K)
    let s_b = make_tensor(make_smem_ptr(smem.wrapping_add(64 * 32)), layout!((_64, _32):(_32, _1))); // (N, K)
    ldsm_mainloop_step!(mma, s_a, s_b, 2, t, c);
}
}

device::kernel! {
/// Twin of [`probe_ldsm_mainloop_typed`]: the `ldmatrix.x4` row addresses and the fragment
/// registers by hand (warp `w` is atom `(w % 2, w / 2)`; A: lane `l` points at row `l % 16`,
/// column `8 (l / 16)` of its 16x16 block; B: at row `l % 8` of N-block `l / 16`, column
/// `8 ((l / 8) % 2)`).
///
/// # Safety
/// As the typed probe.
pub unsafe fn probe_ldsm_mainloop_hand(c: *mut f32) {
    let t = thread_idx_x() as usize;
    let (lane, warp) = (t % 32, t / 32);
    let base = device::shared::to_shared_addr(device::shared::dynamic_shared_mem::<u16>());
    let a_row = (warp % 2) * 16 + lane % 16;
    let a_col = 8 * (lane / 16);
    let b_row = (warp / 2) * 8 + 16 * (lane / 16) + lane % 8;
    let b_col = 8 * ((lane / 8) % 2);
    let mut acc = [0f32; 32];
    let mut k = 0;
    while k < 2 {
        let mut a = [[0u32; 4]; 2];
        let mut b = [[0u32; 2]; 4];
        let mut m = 0;
        while m < 2 {
            let off = (a_row + 32 * m) * 32 + a_col + 16 * k;
            a[m] = unsafe { device::mma::ldmatrix_x4(base + 2 * off as u32) };
            m += 1;
        }
        let mut n = 0;
        while n < 2 {
            let off = 64 * 32 + (b_row + 32 * n) * 32 + b_col + 16 * k;
            let r = unsafe { device::mma::ldmatrix_x4(base + 2 * off as u32) };
            b[2 * n] = [r[0], r[1]];
            b[2 * n + 1] = [r[2], r[3]];
            n += 1;
        }
        let mut m = 0;
        while m < 2 {
            let mut n = 0;
            while n < 4 {
                let i = 4 * (m + 2 * n);
                let d = unsafe {
                    device::mma::mma_m16n8k16_f16_f32(
                        a[m],
                        b[n],
                        [acc[i], acc[i + 1], acc[i + 2], acc[i + 3]],
                    )
                };
                acc[i..i + 4].copy_from_slice(&d);
                n += 1;
            }
            m += 1;
        }
        k += 1;
    }
    let mut i = 0;
    while i < 32 {
        unsafe { *c.add(32 * t + i) = acc[i] };
        i += 1;
    }
}
}

// ------------------------------------------------------------------------------------------
// 8. The SM80 mainloop step over SWIZZLED shared-memory tiles
// ------------------------------------------------------------------------------------------

device::kernel! {
/// The mainloop step of [`probe_ldsm_mainloop_typed`] over swizzled shared-memory tiles, as CuTe's
/// SM80 and SM90 mainloops lay them out: A and B `(64, 64)` halves each, K-major with the 128-byte
/// swizzle, A as `tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64,_64>{})` (the
/// swizzle on byte addresses, CuTe's `swizzle_ptr`), B as the SM80 form
/// `tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}),
/// Shape<_64,_64>{})` (on element offsets): the same placement, `(r, k)` at half
/// `64 r + (k ^ 8 (r % 8))`. `partition_fragment_a/b` and `partition_s` of the swizzled tensors,
/// `retile_d`, per k-block (4) `copy` (each `ldmatrix` row at the swizzled address of its first
/// element) then one `mma.sync` per (m, n); thread `t` writes its 32 accumulators to
/// `c[32 t ..]`. Launch 128 threads, `shared_mem_bytes = 16384` (1024-byte aligned), the tiles
/// already in shared memory.
///
/// # Safety
/// `c` holds `128 * 32` f32.
pub unsafe fn probe_ldsm_swizzle_typed(c: *mut f32) {
    use layout_types::cute::atom::gmma::*;
    use layout_types::cute::atom::mma::*;
    use layout_types::value::swizzle::Swizzle;
    let t = thread_idx_x();
    let mma = make_tiled_mma_permuted(
        SM80_16x8x16_F32F16F16F32_TN::new(),
        layout!((_2, _2, _1):(_1, _2, _4)),
        (Underscore, _32, Underscore),
    );
    let smem = device::shared::dynamic_shared_mem::<half_t>();
    let sw_a = tile_to_shape(Layout_K_SW128_Atom::<u16>::new(), (_64, _64), LayoutLeft);
    let sw_b = tile_to_shape(
        make_composed_layout(Swizzle::<3, 3, 3>, layout!((_8, _64):(_64, _1))),
        (_64, _64),
        LayoutLeft,
    );
    let s_a = make_tensor(make_smem_ptr(smem), sw_a); // (M, K)
    let s_b = make_tensor(make_smem_ptr(smem.wrapping_add(64 * 64)), sw_b); // (N, K)
    ldsm_mainloop_step!(mma, s_a, s_b, 4, t, c);
}
}

device::kernel! {
/// Twin of [`probe_ldsm_swizzle_typed`]: the rows of [`probe_ldsm_mainloop_hand`] (64 halves per
/// row now, 4 k-blocks), each `ldmatrix.x4` row address swizzled by hand: the 16-byte chunk
/// `col / 8` of row `r` is stored as chunk `(col / 8) ^ (r % 8)`.
///
/// # Safety
/// As the typed probe.
pub unsafe fn probe_ldsm_swizzle_hand(c: *mut f32) {
    let t = thread_idx_x();
    let (lane, warp) = (t % 32, t / 32);
    let base = device::shared::to_shared_addr(device::shared::dynamic_shared_mem::<u16>());
    // 32-bit index arithmetic, as a CUDA kernel writes it with `int`
    let sw = |row: u32, col: u32| row * 64 + (col ^ ((row % 8) * 8));
    let a_row = (warp % 2) * 16 + lane % 16;
    let a_col = 8 * (lane / 16);
    let b_row = (warp / 2) * 8 + 16 * (lane / 16) + lane % 8;
    let b_col = 8 * ((lane / 8) % 2);
    let mut acc = [0f32; 32];
    let mut k = 0;
    while k < 4 {
        let mut a = [[0u32; 4]; 2];
        let mut b = [[0u32; 2]; 4];
        let mut m = 0;
        while m < 2 {
            let off = sw(a_row + 32 * m as u32, a_col + 16 * k as u32);
            a[m] = unsafe { device::mma::ldmatrix_x4(base + 2 * off) };
            m += 1;
        }
        let mut n = 0;
        while n < 2 {
            let off = 64 * 64 + sw(b_row + 32 * n as u32, b_col + 16 * k as u32);
            let r = unsafe { device::mma::ldmatrix_x4(base + 2 * off) };
            b[2 * n] = [r[0], r[1]];
            b[2 * n + 1] = [r[2], r[3]];
            n += 1;
        }
        let mut m = 0;
        while m < 2 {
            let mut n = 0;
            while n < 4 {
                let i = 4 * (m + 2 * n);
                let d = unsafe {
                    device::mma::mma_m16n8k16_f16_f32(
                        a[m],
                        b[n],
                        [acc[i], acc[i + 1], acc[i + 2], acc[i + 3]],
                    )
                };
                acc[i..i + 4].copy_from_slice(&d);
                n += 1;
            }
            m += 1;
        }
        k += 1;
    }
    let mut i = 0;
    while i < 32 {
        unsafe { *c.add(32 * t as usize + i) = acc[i] };
        i += 1;
    }
}
}

// ------------------------------------------------------------------------------------------
// 9. The forms of issue #39: a by-mode composition of a swizzled tile, and `local_tile` of an
//    (M, N, L) tensor with a run-time batch
// ------------------------------------------------------------------------------------------

device::kernel! {
/// CuTe's SM80 shared-memory layout `Swizzle<3,3,3> o (_64,_64):(_64,_1)`, carved by the by-mode
/// tiler `(_16:_2, _32)` (`composition(sA, make_tile(Layout<_16,_2>{}, _32{}))`: every other row
/// of the first 32, the first 32 columns); thread `t` writes `t` at element `(t % 16, t / 16)`
/// of it (its swizzled offset in the 64x64 buffer). Launch 512 threads.
///
/// # Safety
/// `out` holds 4096 i32.
pub unsafe fn probe_swizzled_composition_typed(out: *mut i32) {
    use layout_types::value::swizzle::Swizzle;
    let t = thread_idx_x() as i32;
    let smem = make_composed_layout(Swizzle::<3, 3, 3>, layout!((_64, _64):(_64, _1)));
    let tile = composition(smem, (layout!(_16:_2), _32)); // (_16,_32):(_128,_1), swizzled
    let at = tile.crd2idx((t % 16, t / 16));
    unsafe { *out.add(at as usize) = t };
}
}
device::kernel! {
/// Twin of [`probe_swizzled_composition_typed`]: the row and column by hand, then the swizzle
/// `i ^ ((i & 0x1c0) >> 3)`.
///
/// # Safety
/// As the typed probe.
pub unsafe fn probe_swizzled_composition_hand(out: *mut i32) {
    let t = thread_idx_x() as i32;
    let (i, j) = (t % 16, t / 16);
    let off = i * 128 + j;
    let at = off ^ ((off & 0x1c0) >> 3);
    unsafe { *out.add(at as usize) = t };
}
}

device::kernel! {
/// `local_tile` of `A = (m, n, l):(_1, ld, ldb)` (a batch of `l` matrices, `l` known at run time)
/// by the tile `(_32, _8)` at `(blockIdx.x, blockIdx.y, blockIdx.z)` (CuTe's GEMM with a batch
/// mode: `local_tile(mA, select<0,1>(cta_tiler), make_coord(m, n, l))`); thread `t` writes `t`
/// to element `(t % 32, t / 32)` of the tile. Launch 256 threads.
///
/// # Safety
/// `a` holds the batch; the grid covers it exactly.
pub unsafe fn probe_local_tile_mnl_typed(a: *mut f32, m: i32, n: i32, l: i32, ld: i32, ldb: i32) {
    let t = thread_idx_x() as i32;
    let (bm, bn, bl) = (block_idx_x() as i32, block_idx_y() as i32, block_idx_z() as i32);
    let (tile, off) = local_tile(layout!((m, n, l):(_1, ld, ldb)), (_32, _8), (bm, bn, bl));
    let at = off + tile.crd2idx((t % 32, t / 32));
    unsafe { *a.offset(at as isize) = t as f32 };
}
}
device::kernel! {
/// Twin of [`probe_local_tile_mnl_typed`].
///
/// # Safety
/// As the typed probe.
pub unsafe fn probe_local_tile_mnl_hand(a: *mut f32, m: i32, n: i32, l: i32, ld: i32, ldb: i32) {
    let t = thread_idx_x() as i32;
    let (bm, bn, bl) = (block_idx_x() as i32, block_idx_y() as i32, block_idx_z() as i32);
    let _ = (m, n, l);
    let (i, j) = (bm * 32 + t % 32, bn * 8 + t / 32);
    unsafe { *a.offset((i + j * ld + bl * ldb) as isize) = t as f32 };
}
}
