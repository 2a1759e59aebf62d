//! Smoke kernels: each exercises a slice of the device module and is checked
//! bit-exactly by `host run`.
#![cfg_attr(target_arch = "nvptx64", no_std, feature(abi_ptx))]
#![allow(internal_features)]
// Host clippy (the emulator build) flags `x % n == 0` in the bodies; left as written.
#![allow(clippy::manual_is_multiple_of)]

use device::cp_async::{cp_async_cg_16, cp_async_fence, cp_async_wait};
use device::mma::{ldmatrix_x2, ldmatrix_x4, mma_m16n8k16_f16_f32};
use device::shared::{dynamic_shared_mem, to_shared_addr};
use device::thread::{
    block_dim_x, block_idx_x, grid_dim_x, grid_size_1d, index_1d, sync_threads, thread_idx_x,
};
use device::vec::{Float4, ld_global_v4_f32, ld_shared_v4_f32, st_global_v4_f32};
use device::warp::warp_sum_f32;

device::kernel! {
/// `dst[i] = src[i]` for `i < n`: grid-stride loop of 128-bit
/// `ld.global.v4.f32`/`st.global.v4.f32` over `n / 4` vectors, then a scalar tail
/// (`n % 4` elements, one per thread of the first threads of the grid).
///
/// # Safety
/// `src`, `dst`: 16-byte aligned device buffers of at least `n` f32.
pub unsafe fn copy_f32_v4(src: *const f32, dst: *mut f32, n: usize) {
    let n4 = n / 4;
    let step = grid_size_1d();
    let mut i = index_1d();
    let s = src as *const Float4;
    let d = dst as *mut Float4;
    while i < n4 {
        unsafe { st_global_v4_f32(d.add(i), ld_global_v4_f32(s.add(i))) };
        i += step;
    }
    let t = index_1d();
    if t < n - n4 * 4 {
        let k = n4 * 4 + t;
        unsafe { *dst.add(k) = *src.add(k) };
    }
}
}

device::kernel! {
/// `dst[i] = src[i]` through shared memory with a 2-stage `cp.async` pipeline.
///
/// Each block copies tiles of `block_dim_x` 16-byte vectors (grid-stride over tiles):
/// thread `t` `cp.async`es vector `t` of the tile into stage `s` of dynamic shared
/// memory while the previous tile is drained; after `cp_async_wait::<1>` and a barrier,
/// thread `t` reads the *mirrored* slot `block_dim_x - 1 - t` with
/// `ld.shared.v4.f32` (so the barrier matters) and stores it with `st.global.v4.f32`.
/// The `n % 4` tail is copied by scalar loads in block 0.
///
/// Launch with `shared_mem_bytes = 2 * block_dim_x * 16`.
///
/// # Safety
/// `src`, `dst`: 16-byte aligned device buffers of at least `n` f32; dynamic shared
/// memory as above.
pub unsafe fn copy_f32_cp_async(src: *const f32, dst: *mut f32, n: usize) {
    let smem = dynamic_shared_mem::<Float4>();
    let bd = block_dim_x() as usize;
    let tid = thread_idx_x() as usize;
    let mirror = bd - 1 - tid;
    let n4 = n / 4;
    let tiles = n4.div_ceil(bd);
    let step = grid_dim_x() as usize;
    let s = src as *const Float4;
    let d = dst as *mut Float4;

    let issue = |tile: usize, stage: usize| {
        let v = tile * bd + tid;
        if v < n4 {
            let slot = to_shared_addr(unsafe { smem.add(stage * bd + tid) });
            unsafe { cp_async_cg_16(slot, s.add(v) as *const u8) };
        }
    };

    let mut tile = block_idx_x() as usize;
    let mut stage = 0usize;
    if tile < tiles {
        issue(tile, stage);
    }
    cp_async_fence();
    while tile < tiles {
        let next = tile + step;
        if next < tiles {
            issue(next, stage ^ 1);
        }
        cp_async_fence();
        cp_async_wait::<1>(); // this tile's group has landed (the next may be in flight)
        sync_threads(); // ... for every thread's copies
        let v = tile * bd + mirror;
        if v < n4 {
            let slot = to_shared_addr(unsafe { smem.add(stage * bd + mirror) });
            unsafe { st_global_v4_f32(d.add(v), ld_shared_v4_f32(slot)) };
        }
        sync_threads(); // everyone is done reading `stage` before it is refilled
        stage ^= 1;
        tile = next;
    }
    cp_async_wait::<0>();

    if block_idx_x() == 0 && tid < n - n4 * 4 {
        let k = n4 * 4 + tid;
        unsafe { *dst.add(k) = *src.add(k) };
    }
}
}

device::kernel! {
/// One warp computes `D = A·B + C` with `m16n8k16` f16 → f32 tensor-core MMA.
///
/// `a`: 16×16 f16 row-major (as `u16` bits); `bt`: B transposed, 8×16 f16
/// row-major (B "col"); `c`, `d`: 16×8 f32 row-major. A and Bᵀ go to shared memory
/// with `cp.async` (16 bytes per lane), fragments come from `ldmatrix.x4`/`.x2`.
///
/// Launch with 1 block of 32 threads and `shared_mem_bytes = 768`.
///
/// # Safety
/// Buffers 16-byte aligned and of the sizes above; launch shape as above.
pub unsafe fn mma_m16n8k16_smoke(
    a: *const u16,
    bt: *const u16,
    c: *const f32,
    d: *mut f32,
) {
    let lane = thread_idx_x() as usize;
    let smem = dynamic_shared_mem::<Float4>(); // [0, 32): A (512 B), [32, 48): Bᵀ (256 B)
    unsafe {
        cp_async_cg_16(
            to_shared_addr(smem.add(lane)),
            (a as *const Float4).add(lane) as *const u8,
        );
        if lane < 16 {
            cp_async_cg_16(
                to_shared_addr(smem.add(32 + lane)),
                (bt as *const Float4).add(lane) as *const u8,
            );
        }
    }
    cp_async_fence();
    cp_async_wait::<0>();
    sync_threads();

    let base_a = to_shared_addr(smem);
    let base_b = to_shared_addr(unsafe { smem.add(32) });
    // A: matrix q = lane / 8 is rows 8*(q % 2).., cols 8*(q / 2)..; rows are 32 B.
    let row = (lane % 8) + 8 * ((lane / 8) % 2);
    let col = 8 * (lane / 16);
    let afrag = unsafe { ldmatrix_x4(base_a + (row * 32 + col * 2) as u32) };
    // Bᵀ (n × k): matrix q = (lane / 8) % 2 is k cols 8*q..; lanes 16..32 mirror 0..16.
    let brow = lane % 8;
    let bcol = 8 * ((lane / 8) % 2);
    let bfrag = unsafe { ldmatrix_x2(base_b + (brow * 32 + bcol * 2) as u32) };

    let g = lane / 4;
    let cc = 2 * (lane % 4);
    let cin = unsafe {
        [
            *c.add(g * 8 + cc),
            *c.add(g * 8 + cc + 1),
            *c.add((g + 8) * 8 + cc),
            *c.add((g + 8) * 8 + cc + 1),
        ]
    };
    let out = unsafe { mma_m16n8k16_f16_f32(afrag, bfrag, cin) };
    unsafe {
        *d.add(g * 8 + cc) = out[0];
        *d.add(g * 8 + cc + 1) = out[1];
        *d.add((g + 8) * 8 + cc) = out[2];
        *d.add((g + 8) * 8 + cc + 1) = out[3];
    }
}
}

device::kernel! {
/// `out[w] = Σ x[32w .. 32w+32]` per warp `w` of the grid, by a `shfl.sync.bfly`
/// butterfly (fixed order; lane 0 writes). `n` must be a multiple of 32 and the grid
/// must cover `n` threads exactly in whole warps.
///
/// # Safety
/// `x` has `n` f32, `out` has `n / 32`.
pub unsafe fn warp_sum_smoke(x: *const f32, out: *mut f32, n: usize) {
    let i = index_1d();
    // Every lane of the warp takes part (out-of-range lanes add 0).
    let v = if i < n { unsafe { *x.add(i) } } else { 0.0 };
    let s = unsafe { warp_sum_f32(v) };
    if i % 32 == 0 && i < n {
        unsafe { *out.add(i / 32) = s };
    }
}
}
