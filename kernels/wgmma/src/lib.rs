//! The wgmma proof kernels (issue #25): one CTA of one warpgroup (128 threads) loads a 64×64
//! tile of A and an N×64 tile of B into shared memory in a GMMA canonical layout, runs four
//! `m64nNk16` `wgmma`s over K (A and B from shared-memory descriptors, SS, or A from registers
//! loaded by `ldmatrix`, RS) and writes the 64×N f32 tile of `C = A·Bᵀ` through the
//! accumulator layout. One entry per configuration the GEMM may use: bf16 / f16; SS / RS; K- or
//! MN-major A and B (RS: K-major A); INTER, SW32, SW64, SW128 atoms; N ∈ {8, 64, 128, 256}.
//! `host run` checks every entry against a CPU reference (`host/src/check/wgmma.rs`).
//!
//! On the typed layer: the shared-memory tiles are `tile_to_shape(GMMA::Layout_*_Atom<u16>, (MN,
//! 64), LayoutLeft)` (`cute::gmma`), divided into one MMA's `(MN, 16)` tiles by `zipped_divide`,
//! and the `wgmma` reads them through `make_gmma_desc_tensor` (CuTe's `partition_fragment_A/B`
//! of an SS operand): a k-block's descriptor is the descriptor tensor at `(_0, (_0, kb))`.
//!
//! Shared memory: A at offset 0 (8 KiB), B after it; the dynamic shared memory must start on a
//! 1024-byte boundary (the SW128 pattern repeats every 1024 bytes of address; the kernel traps
//! otherwise). Global memory: A is `M×K` (`K`-major: `A[m*K + k]`; MN-major: `A[m + k*M]`), B
//! is `N×K` likewise, C is `M×N` column-major (`C[m + 64*n]`), all dense.
#![cfg_attr(target_arch = "nvptx64", no_std, feature(abi_ptx))]
#![allow(internal_features)]

pub mod tile;

use device::mma::{ldmatrix_x4, pack_f16x2, stmatrix_x4};
use device::shared::{dynamic_shared_mem, to_shared_addr};
use device::thread::{named_barrier_sync, sync_threads, thread_idx_x, trap};
use device::wgmma::{
    Bf16, F16, GmmaMajor, MajorK, MajorMN, MmaAsync, One, ScaleOut, commit_group, fence,
    fence_operand, mma_async_rs, mma_async_ss, setmaxnreg_dec, setmaxnreg_inc, wait_group,
};
use layout_types::cute::arch::tma_store_fence as fence_view_async_shared;
use layout_types::cute::gmma::*;
use layout_types::cute::prelude::*;
use layout_types::cute::swizzle::Swizzled;
use tile::{TILE_K, TILE_M, accumulator_layout, gmem_layout, smem_offset};

/// The k-blocks of 16 in the K tile.
const K_BLOCKS: usize = (TILE_K / 16) as usize;

/// The alignment of the dynamic shared memory the kernels ask for.
#[derive(Clone, Copy)]
#[repr(C, align(1024))]
pub struct Align1024(pub [u8; 1024]);

/// Copies an `mn × K` operand from `src` (dense, major `M`) into shared memory at `dst`, element
/// `(i, k)` going to `dst + smem(i, k)`; the warpgroup's 128 threads split the elements.
#[inline(always)]
unsafe fn load_tile<M: GmmaMajor>(
    src: *const u16,
    dst: *mut u16,
    mn: i32,
    tid: i32,
    smem: impl Fn((i32, i32)) -> i64,
) {
    let g = gmem_layout::<M>(mn);
    let tile = make_layout_left((mn, TILE_K));
    for i in (tid..mn * TILE_K).step_by(128) {
        let crd = tile.idx2crd(i);
        // SAFETY: both offsets are inside their tiles (the layouts' codomains).
        unsafe { *dst.add(smem(crd) as usize) = *src.add(g.crd2idx(crd) as usize) };
    }
}

/// The shared memory of A (64 × K, major `MA`) and B (`n` × K, major `MB`), loaded from `a` and
/// `b` and visible to the async proxy.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn load_ab<MA: GmmaMajor, MB: GmmaMajor>(
    a: *const u16,
    b: *const u16,
    n: i32,
    tid: i32,
    smem_a: impl Fn((i32, i32)) -> i64,
    smem_b: impl Fn((i32, i32)) -> i64,
) -> (*mut u16, *mut u16) {
    let s_a = dynamic_shared_mem::<Align1024>() as *mut u16;
    if to_shared_addr(s_a) & 1023 != 0 {
        trap(); // the swizzle atoms' 1024-byte pattern would not match the addresses
    }
    // SAFETY: B starts after A's tile, within the launch's shared memory.
    let s_b = unsafe { s_a.add((TILE_M * TILE_K) as usize) };
    unsafe {
        load_tile::<MA>(a, s_a, TILE_M, tid, smem_a);
        load_tile::<MB>(b, s_b, n, tid, smem_b);
    }
    fence_view_async_shared(); // generic-proxy writes → visible to wgmma's async proxy
    sync_threads();
    (s_a, s_b)
}

/// `[0.0; K2]` as a `memset` (SROA splits it into registers): rustc lowers a repeat of the
/// float `0.0` to a loop, which LLVM leaves partly rolled past 64 elements and so keeps the
/// array in local memory.
#[inline(always)]
fn zeroed_accumulators<const K2: usize>() -> [f32; K2] {
    // SAFETY: all-zero bits are the f32 value 0.0.
    unsafe { core::mem::zeroed() }
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

/// SS: the four k-blocks' `wgmma`s on the descriptors `desc_a(kb)`, `desc_b(kb)`, then C.
#[inline(always)]
unsafe fn run_ss<E, MA: GmmaMajor, MB: GmmaMajor, const K2: usize>(
    tid: i32,
    desc_a: impl Fn(i32) -> u64,
    desc_b: impl Fn(i32) -> u64,
    c: *mut f32,
) where
    [f32; K2]: MmaAsync<E>,
{
    let mut acc = zeroed_accumulators::<K2>();
    fence_operand(&mut acc);
    fence();
    device::unroll!(K_BLOCKS, |kb| {
        let scale_d = if kb == 0 {
            ScaleOut::Zero
        } else {
            ScaleOut::One
        };
        // SAFETY: one full warpgroup, descriptors of canonical layouts in this CTA's smem.
        unsafe {
            mma_async_ss::<E, MA, MB, One, One, _>(
                desc_a(kb as i32),
                desc_b(kb as i32),
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

/// RS: A's k-blocks from registers (`ldmatrix.x4` of the K-major smem tile at shared addresses
/// `a_row(m, k)`, CuTe's `ALayout_64x16`), B from `desc_b(kb)`, then C.
#[inline(always)]
unsafe fn run_rs<E, MB: GmmaMajor, const K2: usize>(
    tid: i32,
    a_row: impl Fn((i32, i32)) -> u32,
    desc_b: impl Fn(i32) -> u64,
    c: *mut f32,
) where
    [f32; K2]: MmaAsync<E>,
{
    let (m, k) = tile::ldsm_a_row(tid);
    let mut frag = [[0u32; 4]; K_BLOCKS];
    device::unroll!(K_BLOCKS, |kb| {
        // SAFETY: all 32 lanes of each warp, 16-byte rows inside A's tile.
        frag[kb] = unsafe { ldmatrix_x4(a_row((m, k + 16 * kb as i32))) };
    });
    let mut acc = zeroed_accumulators::<K2>();
    fence_operand(&mut acc);
    fence();
    device::unroll!(K_BLOCKS, |kb| {
        let scale_d = if kb == 0 {
            ScaleOut::Zero
        } else {
            ScaleOut::One
        };
        // SAFETY: one full warpgroup, a descriptor of a canonical layout in this CTA's smem.
        unsafe {
            mma_async_rs::<E, MB, One, One, _>(frag[kb], desc_b(kb as i32), &mut acc, scale_d)
        };
    });
    commit_group();
    wait_group::<0>();
    fence_operand(&mut acc);
    unsafe { store_c(&acc, c, tid) };
}

/// One MMA's `(MN, 16)` tiles of a swizzled smem tile: `zipped_divide` keeps the swizzle.
macro_rules! mma_tiles {
    ($s:expr, $tile:expr) => {
        Swizzled {
            sw: $s.sw,
            offset: $s.offset,
            layout: zipped_divide($s.layout, $tile),
        }
    };
}

/// Declares one proof entry: `name: ss|rs, element, A major, A atom, B major, B atom, N`.
macro_rules! entry {
    ($name:ident: $run:ident, $e:ident, $ma:ident, $atom_a:ident, $mb:ident, $atom_b:ident, $n:literal) => {
        device::kernel! {
            #[doc = concat!("`", stringify!($run), "` wgmma m64n", $n, "k16, ", stringify!($e),
                            ", A `", stringify!($atom_a), "`, B `", stringify!($atom_b),
                            "`: C(64×", $n, ") = A(64×64)·B(", $n, "×64)ᵀ. Launch 1 CTA of 128 ",
                            "threads, shared memory `(64 + N)·64·2` bytes.\n\n# Safety\n",
                            "A, B, C dense as the crate documents.")]
            pub unsafe fn $name(a: *const u16, b: *const u16, c: *mut f32) {
                let s_a = tile_to_shape($atom_a::<u16>::new(), (_64, _64), LayoutLeft);
                let s_b = tile_to_shape($atom_b::<u16>::new(), (Int::<$n>::new(), _64), LayoutLeft);
                let tid = thread_idx_x() as i32;
                let (p_a, p_b) = unsafe {
                    load_ab::<$ma, $mb>(a, b, $n, tid, |c| smem_offset(&s_a, c), |c| smem_offset(&s_b, c))
                };
                let d_b = make_gmma_desc_tensor(
                    $mb,
                    make_tensor(make_smem_ptr(p_b), mma_tiles!(s_b, (Int::<$n>::new(), _16))),
                );
                let desc_b = |kb: i32| d_b.at((_0, (_0, kb))).desc.desc;
                entry!(@$run $e, $ma, $mb, s_a, p_a, d_b, desc_b, tid, c, $n);
            }
        }
        device::launch_bounds!($name, 128, 1);
    };
    (@run_ss $e:ident, $ma:ident, $mb:ident, $s_a:ident, $p_a:ident, $d_b:ident, $desc_b:ident, $tid:ident, $c:ident, $n:literal) => {
        let d_a = make_gmma_desc_tensor($ma, make_tensor(make_smem_ptr($p_a), mma_tiles!($s_a, (_64, _16))));
        unsafe {
            run_ss::<$e, $ma, $mb, { $n / 2 }>($tid, |kb| d_a.at((_0, (_0, kb))).desc.desc, $desc_b, $c)
        };
        let _ = (&$d_b, $ma);
    };
    (@run_rs $e:ident, $ma:ident, $mb:ident, $s_a:ident, $p_a:ident, $d_b:ident, $desc_b:ident, $tid:ident, $c:ident, $n:literal) => {
        let base_a = to_shared_addr($p_a);
        let a_row = |crd: (i32, i32)| base_a + 2 * smem_offset(&$s_a, crd) as u32;
        unsafe { run_rs::<$e, $mb, { $n / 2 }>($tid, a_row, $desc_b, $c) };
        let _ = (&$d_b, $ma);
    };
}

include!("entries.rs");

device::kernel! {
/// Warp-specialized, as CUTLASS's sm90 kernels split a CTA (one 128×128×64 f16 tile): warpgroup
/// 0, the producer, gives up registers (`setmaxnreg.dec 40`) and loads A (128×64) and B
/// (128×64, both K-major) into `Layout_K_SW128_Atom` tiles; warpgroups 1 and 2, the consumers,
/// take registers (`setmaxnreg.inc 232`) and each runs four m64n128k16 `wgmma`s on its 64 rows
/// of A; after a barrier the consumers convert their accumulators to f16 and store them with
/// `stmatrix.x4` into a row-major 128×128 staging tile over A and B, and the producer copies it
/// to C (128×128 f16, column-major). Launch 1 CTA of 384 threads, 32 KiB of shared memory.
///
/// # Safety
/// `a`, `b`: 128×64 K-major f16 (`a[m*64 + k]`); `c`: 128×128 f16.
pub unsafe fn wgmma_ws_f16_m128n128(a: *const u16, b: *const u16, c: *mut u16) {
    let tid = thread_idx_x() as i32;
    let warpgroup = make_layout((128, 3), (0, 1)).call(tid); // 0 producer, 1 and 2 consumers
    let t = make_layout((128, 3), (1, 0)).call(tid); // thread within its warpgroup
    let s_a = tile_to_shape(Layout_K_SW128_Atom::<u16>::new(), (_128, _64), LayoutLeft);
    let s_b = tile_to_shape(Layout_K_SW128_Atom::<u16>::new(), (_128, _64), LayoutLeft);
    let staging = make_layout((_128, _128), (_128, _1)); // C, row-major f16, over A and B
    let p_a = dynamic_shared_mem::<Align1024>() as *mut u16;
    if to_shared_addr(p_a) & 1023 != 0 {
        trap();
    }
    // SAFETY: B follows A's 128×64 tile in the launch's 32 KiB.
    let p_b = unsafe { p_a.add(128 * 64) };
    // The two roles meet at named barrier 1 (all 384 threads) three times: A and B loaded;
    // every wgmma done with them; C staged. Each role's registers stay its own.
    if warpgroup == 0 {
        setmaxnreg_dec::<40>();
        unsafe {
            load_tile::<MajorK>(a, p_a, 128, t, |c| smem_offset(&s_a, c));
            load_tile::<MajorK>(b, p_b, 128, t, |c| smem_offset(&s_b, c));
        }
        fence_view_async_shared();
        named_barrier_sync::<1, 384>(); // A and B are in shared memory
        named_barrier_sync::<1, 384>(); // the consumers' wgmmas have read them
        named_barrier_sync::<1, 384>(); // C is staged
        let g = make_layout((128, 128), (1, 128));
        for i in (t..128 * 128).step_by(128) {
            let crd = g.idx2crd(i);
            // SAFETY: inside the staging tile and C.
            unsafe { *c.add(g.crd2idx(crd) as usize) = *p_a.add(staging.crd2idx(crd) as usize) };
        }
    } else {
        setmaxnreg_inc::<232>();
        let m_tile = warpgroup - 1; // this consumer's 64 rows of A and C
        let d_a = make_gmma_desc_tensor(MajorK, make_tensor(make_smem_ptr(p_a), mma_tiles!(s_a, (_64, _16))));
        let d_b = make_gmma_desc_tensor(MajorK, make_tensor(make_smem_ptr(p_b), mma_tiles!(s_b, (_128, _16))));
        let mut acc = zeroed_accumulators::<64>();
        named_barrier_sync::<1, 384>(); // A and B are in shared memory
        fence_operand(&mut acc);
        fence();
        device::unroll!(K_BLOCKS, |kb| {
            let scale_d = if kb == 0 { ScaleOut::Zero } else { ScaleOut::One };
            let kb = kb as i32;
            // SAFETY: a full warpgroup, descriptors of canonical layouts in this CTA's smem.
            unsafe {
                mma_async_ss::<F16, MajorK, MajorK, One, One, _>(
                    d_a.at((_0, (m_tile, kb))).desc.desc,
                    d_b.at((_0, (_0, kb))).desc.desc,
                    &mut acc,
                    scale_d,
                )
            };
        });
        commit_group();
        wait_group::<0>();
        fence_operand(&mut acc);
        named_barrier_sync::<1, 384>(); // every wgmma has read A and B: C may overwrite them
        // stmatrix.x4: this lane's row of one of the four 8×8 matrices of a 16×16 block
        let (r, k) = tile::ldsm_a_row(t);
        let base = to_shared_addr(p_a);
        device::unroll!(8, |p| {
            let v = |i: usize| acc[8 * p + i];
            let regs = [
                pack_f16x2(v(0), v(1)),
                pack_f16x2(v(2), v(3)),
                pack_f16x2(v(4), v(5)),
                pack_f16x2(v(6), v(7)),
            ];
            let crd = (64 * m_tile + r, 16 * p as i32 + k);
            // SAFETY: all 32 lanes of each warp, 16-byte rows inside the staging tile.
            unsafe { stmatrix_x4(base + 2 * staging.crd2idx(crd) as u32, regs) };
        });
        named_barrier_sync::<1, 384>(); // C is staged
    }
}
}
device::launch_bounds!(wgmma_ws_f16_m128n128, 384, 1);
