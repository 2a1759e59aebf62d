//! The wgmma proof kernels (issue #25): one CTA of one warpgroup (128 threads) loads a 64×64
//! tile of A and an N×64 tile of B into shared memory in a GMMA canonical layout, runs four
//! `m64nNk16` `wgmma`s over K (A and B from shared-memory descriptors, SS, or A from registers
//! loaded by `ldmatrix`, RS) and writes the 64×N f32 tile of `C = A·Bᵀ` through the
//! accumulator layout. One entry per configuration the GEMM may use: bf16 / f16; SS / RS; K- or
//! MN-major A and B (RS: K-major A); INTER, SW32, SW64, SW128 atoms; N ∈ {8, 64, 128, 256}.
//! `host run` checks every entry against a CPU reference (`host/src/check/wgmma.rs`).
//!
//! Shared memory: A at offset 0 (8 KiB), B after it; the dynamic shared memory must start on a
//! 1024-byte boundary (the SW128 pattern repeats every 1024 bytes of address; the kernel traps
//! otherwise). Global memory: A is `M×K` (`K`-major: `A[m*K + k]`; MN-major: `A[m + k*M]`), B
//! is `N×K` likewise, C is `M×N` column-major (`C[m + 64*n]`), all dense.
#![cfg_attr(target_arch = "nvptx64", no_std, feature(abi_ptx))]
#![allow(internal_features)]

pub mod tile;

use device::mma::ldmatrix_x4;
use device::shared::{dynamic_shared_mem, to_shared_addr};
use device::thread::{sync_threads, thread_idx_x, trap};
use device::wgmma::{
    Bf16, F16, MajorK, MajorMN, MmaAsync, One, ScaleOut, commit_group, fence, fence_operand,
    mma_async_rs, mma_async_ss, wait_group,
};
use layout_types::cute::arch::tma_store_fence as fence_view_async_shared;
use layout_types::cute::prelude::*;
use tile::{GmmaTile, SmemTile, TILE_K, TILE_M, accumulator_layout, gmem_layout};

/// The k-blocks of 16 in the K tile.
const K_BLOCKS: usize = (TILE_K / 16) as usize;

/// The alignment of the dynamic shared memory the kernels ask for.
#[derive(Clone, Copy)]
#[repr(C, align(1024))]
pub struct Align1024(pub [u8; 1024]);

/// Copies `T`'s `MN × K` tile from `src` (dense, `T::Major`) into `dst` (shared memory) in
/// `T`'s swizzled canonical layout; the warpgroup's 128 threads split the elements.
#[inline(always)]
unsafe fn load_tile<T: SmemTile>(src: *const u16, dst: *mut u16, tid: i32) {
    let g = gmem_layout::<T::Major>(T::MN);
    let s = T::smem_layout();
    let tile = make_layout_left((T::MN, TILE_K));
    for i in (tid..T::MN * TILE_K).step_by(128) {
        let crd = tile.idx2crd(i);
        // SAFETY: both indices are inside their tiles (the layouts' codomains).
        unsafe { *dst.add(s.crd2idx(crd) as usize) = *src.add(g.crd2idx(crd) as usize) };
    }
}

/// The shared memory of A (`TA`) and B (`TB`), both loaded and visible to the async proxy.
#[inline(always)]
unsafe fn load_ab<TA: SmemTile, TB: SmemTile>(
    a: *const u16,
    b: *const u16,
    tid: i32,
) -> (*mut u16, *mut u16) {
    let s_a = dynamic_shared_mem::<Align1024>() as *mut u16;
    if to_shared_addr(s_a) & 1023 != 0 {
        trap(); // the swizzle atoms' 1024-byte pattern would not match the addresses
    }
    // SAFETY: B starts after A's tile, within the launch's shared memory.
    let s_b = unsafe { s_a.add(TA::SIZE) };
    unsafe {
        load_tile::<TA>(a, s_a, tid);
        load_tile::<TB>(b, s_b, tid);
    }
    fence_view_async_shared(); // generic-proxy writes → visible to wgmma's async proxy
    sync_threads();
    (s_a, s_b)
}

/// Writes the warpgroup's accumulators to C (64×N, column-major) through the wgmma's
/// accumulator layout (CuTe's `CLayout_64xN`).
#[inline(always)]
unsafe fn store_c<const K2: usize>(acc: &[f32; K2], c: *mut f32, tid: i32) {
    let c_layout = accumulator_layout(2 * K2 as i32);
    device::unroll!(K2 / 4, |j| device::unroll!(4, |q| {
        let v = 4 * j + q;
        // SAFETY: the accumulator layout maps into the 64×N tile.
        unsafe { *c.add(c_layout.crd2idx((tid, v as i32)) as usize) = acc[v] };
    }));
}

/// `[0.0; K2]` as a `memset` (SROA splits it into registers): rustc lowers a repeat of the
/// float `0.0` to a loop, which LLVM leaves partly rolled past 64 elements and so keeps the
/// array in local memory.
#[inline(always)]
fn zeroed_accumulators<const K2: usize>() -> [f32; K2] {
    // SAFETY: all-zero bits are the f32 value 0.0.
    unsafe { core::mem::zeroed() }
}

/// SS: A and B from shared-memory descriptors.
#[inline(always)]
unsafe fn run_ss<E, TA: SmemTile, TB: SmemTile, const K2: usize>(
    a: *const u16,
    b: *const u16,
    c: *mut f32,
) where
    [f32; K2]: MmaAsync<E>,
{
    let tid = thread_idx_x() as i32;
    let (s_a, s_b) = unsafe { load_ab::<TA, TB>(a, b, tid) };
    let (base_a, base_b) = (to_shared_addr(s_a), to_shared_addr(s_b));
    let mut acc = zeroed_accumulators::<K2>();
    fence_operand(&mut acc);
    fence();
    device::unroll!(K_BLOCKS, |kb| {
        let scale_d = if kb == 0 { ScaleOut::Zero } else { ScaleOut::One };
        // SAFETY: one full warpgroup, descriptors of canonical layouts in this CTA's smem.
        unsafe {
            mma_async_ss::<E, TA::Major, TB::Major, One, One, _>(
                TA::desc(base_a, kb as i32),
                TB::desc(base_b, kb as i32),
                &mut acc,
                scale_d,
            )
        };
    });
    commit_group();
    wait_group::<0>();
    fence_operand(&mut acc);
    unsafe { store_c(&acc, c, tid) };
}

/// RS: A from registers (`ldmatrix` of the K-major smem tile into CuTe's `ALayout_64x16`), B
/// from its descriptor.
#[inline(always)]
unsafe fn run_rs<E, TA: SmemTile<Major = MajorK>, TB: SmemTile, const K2: usize>(
    a: *const u16,
    b: *const u16,
    c: *mut f32,
) where
    [f32; K2]: MmaAsync<E>,
{
    let tid = thread_idx_x() as i32;
    let (s_a, s_b) = unsafe { load_ab::<TA, TB>(a, b, tid) };
    let (base_a, base_b) = (to_shared_addr(s_a), to_shared_addr(s_b));
    // ldmatrix.x4: thread t gives the address of row (m, k) of its 8×8 matrix.
    let (m, k) = tile::ldsm_a_row(tid);
    let s = TA::smem_layout();
    let mut frag = [[0u32; 4]; K_BLOCKS];
    device::unroll!(K_BLOCKS, |kb| {
        let addr = base_a + 2 * s.crd2idx((m, k + 16 * kb as i32)) as u32;
        // SAFETY: all 32 lanes of each warp, 16-byte rows inside A's tile.
        frag[kb] = unsafe { ldmatrix_x4(addr) };
    });
    let mut acc = zeroed_accumulators::<K2>();
    fence_operand(&mut acc);
    fence();
    device::unroll!(K_BLOCKS, |kb| {
        let scale_d = if kb == 0 { ScaleOut::Zero } else { ScaleOut::One };
        // SAFETY: one full warpgroup, a descriptor of a canonical layout in this CTA's smem.
        unsafe {
            mma_async_rs::<E, TB::Major, One, One, _>(
                frag[kb],
                TB::desc(base_b, kb as i32),
                &mut acc,
                scale_d,
            )
        };
    });
    commit_group();
    wait_group::<0>();
    fence_operand(&mut acc);
    unsafe { store_c(&acc, c, tid) };
}

/// Declares one proof entry: `name: ss|rs, element, A major, B major, swizzle bits, N`.
macro_rules! entry {
    ($name:ident: $run:ident, $e:ident, $ma:ident, $mb:ident, $sw:literal, $n:literal) => {
        device::kernel! {
            #[doc = concat!("`", stringify!($run), "` wgmma m64n", $n, "k16, ", stringify!($e),
                            ", A ", stringify!($ma), ", B ", stringify!($mb), ", Sw<", $sw,
                            ">: C(64×", $n, ") = A(64×64)·B(", $n, "×64)ᵀ. Launch 1 CTA of 128 ",
                            "threads, shared memory `(64 + N)·64·2` bytes.\n\n# Safety\n",
                            "A, B, C dense as the crate documents.")]
            pub unsafe fn $name(a: *const u16, b: *const u16, c: *mut f32) {
                unsafe {
                    $run::<$e, GmmaTile<$ma, $sw, TILE_M>, GmmaTile<$mb, $sw, $n>, { $n / 2 }>(
                        a, b, c,
                    )
                }
            }
        }
        device::launch_bounds!($name, 128, 1);
    };
}

include!("entries.rs");
