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
#![cfg_attr(
    target_arch = "nvptx64",
    no_std,
    feature(abi_ptx, asm_experimental_arch)
)]
#![allow(internal_features)]

pub mod tile;

use device::mbarrier;
use device::mma::{ldmatrix_x4, pack_f16x2, stmatrix_x4};
use device::shared::{dynamic_shared_mem, to_shared_addr};
use device::thread::{named_barrier_sync, sync_threads, thread_idx_x, trap};
use device::tma::TmaDescriptor;
use device::wgmma::tnsp;
use device::wgmma::{
    Bf16, F16, GmmaMajor, MajorK, MajorMN, MmaAsync, One, ScaleOut, commit_group, fence,
    fence_operand, mma_async_rs, mma_async_ss, setmaxnreg_dec, setmaxnreg_inc, wait_group,
};
use layout_types::cute::arch::tma_store_fence as fence_view_async_shared;
use layout_types::cute::copy::StaticLayoutValue;
use layout_types::cute::gmma::*;
use layout_types::cute::prelude::*;
use layout_types::cute::swizzle::Swizzled;
use layout_types::cute::tma::{TmaAtom, TmaLoad};
use tile::{TILE_K, TILE_M, accumulator_layout, gmem_layout};

/// The k-blocks of 16 in the K tile.
const K_BLOCKS: usize = (TILE_K / 16) as usize;

/// The alignment of the dynamic shared memory the kernels ask for.
#[derive(Clone, Copy)]
#[repr(C, align(1024))]
pub struct Align1024(pub [u8; 1024]);

/// Copies an `mn × K` operand from `src` (dense, major `M`) into shared memory, element
/// `(i, k)` going to `at((i, k))` (the typed tensor's swizzled address); the warpgroup's 128
/// threads split the elements. Only the warp-specialized entry loads this way (it has no tensor
/// maps); the proof entries load by TMA ([`tma_tile`]).
#[inline(always)]
unsafe fn load_tile<M: GmmaMajor>(
    src: *const u16,
    mn: i32,
    tid: i32,
    at: impl Fn((i32, i32)) -> *mut u16,
) {
    let g = gmem_layout::<M>(mn);
    let tile = make_layout_left((mn, TILE_K));
    for i in (tid..mn * TILE_K).step_by(128) {
        let crd = tile.idx2crd(i);
        // SAFETY: both addresses are inside their tiles (the layouts' codomains).
        unsafe { *at(crd) = *src.add(g.crd2idx(crd) as usize) };
    }
}

/// The dynamic shared memory, checked 1024-byte aligned (the SW128 pattern repeats every 1024
/// bytes of address, and TMA swizzles by the address).
#[inline(always)]
fn smem_base() -> *mut u16 {
    let p = dynamic_shared_mem::<Align1024>() as *mut u16;
    if to_shared_addr(p) & 1023 != 0 {
        trap(); // the swizzle atoms' 1024-byte pattern would not match the addresses
    }
    p
}

/// TMA-loads an operand's `mn × 64` tile of the smem tensor `at` (a GMMA atom tiled by
/// `tile_to_shape(.., LayoutLeft)`): one box of the tensor map per `(box_mn, box_k)` block, the
/// box the host encoded (`host/src/check/wgmma.rs`: K-major, an atom column `box_k × mn` with
/// `box_mn = mn`; MN-major, one atom `box_mn × 8`), written at the block origin's address
/// (CuTe's `tma_partition` of the smem tensor by the box). TMA coordinates are in TMA order:
/// K-major `[k, mn]`, MN-major `[mn, k]`.
#[inline(always)]
unsafe fn tma_tile<M: GmmaMajor, Box: StaticLayoutValue>(
    atom: TmaAtom<TmaLoad, u16, Box>,
    bar: *mut u64,
    mn: i32,
    (box_mn, box_k): (i32, i32),
    at: impl Fn((i32, i32)) -> *mut u16,
) {
    for k0 in (0..TILE_K).step_by(box_k as usize) {
        for mn0 in (0..mn).step_by(box_mn as usize) {
            let crd = if tnsp::<M>() == 0 {
                [k0, mn0]
            } else {
                [mn0, k0]
            };
            // SAFETY: the box lies inside the tile at its origin's (128-byte aligned) address.
            unsafe { atom.copy(bar, at((mn0, k0)), crd) };
        }
    }
}

/// Loads A (64 × K) and B (`n` × K) by TMA into their smem tensors (`at_a`, `at_b`): thread 0
/// arms the mbarrier `bar` with both tiles' bytes and issues every box; all threads wait on the
/// barrier's phase 0 (TMA's writes are then visible to the `wgmma`s' async proxy).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn load_ab<MA: GmmaMajor, MB: GmmaMajor, BA: StaticLayoutValue, BB: StaticLayoutValue>(
    tma_a: TmaAtom<TmaLoad, u16, BA>,
    tma_b: TmaAtom<TmaLoad, u16, BB>,
    box_a: (i32, i32),
    box_b: (i32, i32),
    n: i32,
    tid: i32,
    bar: *mut u64,
    at_a: impl Fn((i32, i32)) -> *mut u16,
    at_b: impl Fn((i32, i32)) -> *mut u16,
) {
    if tid == 0 {
        unsafe {
            device::tma::prefetch_descriptor(tma_a.desc());
            device::tma::prefetch_descriptor(tma_b.desc());
            mbarrier::init(bar, 1);
        }
        mbarrier::fence_init();
    }
    sync_threads();
    if tid == 0 {
        let bytes = 2 * TILE_K * (TILE_M + n);
        unsafe {
            mbarrier::arrive_expect_tx(bar, bytes as u32);
            tma_tile::<MA, BA>(tma_a, bar, TILE_M, box_a, at_a);
            tma_tile::<MB, BB>(tma_b, bar, n, box_b, at_b);
        }
    }
    unsafe { mbarrier::wait_parity(bar, 0) };
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

/// The contiguous extent of a GMMA atom in elements (16-bit): its swizzle's span in bytes / 2.
macro_rules! atom_width {
    (Layout_K_INTER_Atom) => {
        _8
    };
    (Layout_MN_INTER_Atom) => {
        _8
    };
    (Layout_K_SW32_Atom) => {
        _16
    };
    (Layout_MN_SW32_Atom) => {
        _16
    };
    (Layout_K_SW64_Atom) => {
        _32
    };
    (Layout_MN_SW64_Atom) => {
        _32
    };
    (Layout_K_SW128_Atom) => {
        _64
    };
    (Layout_MN_SW128_Atom) => {
        _64
    };
}

/// The TMA box of an operand of `$rows` rows over atoms `$w` wide, in TMA order (the contiguous
/// mode first), and its `(MN, K)` extents: K-major, an atom column `($w, rows)`; MN-major, one
/// atom `($w, 8)` (the `LayoutLeft` tiling puts the next MN atom, not the next K row, after it).
macro_rules! tma_box {
    (@type MajorK, $w:ty, $rows:ty) => { Layout<($w, $rows), (_1, $w)> };
    (@type MajorMN, $w:ty, $rows:ty) => { Layout<($w, _8), (_1, $w)> };
    (@shape MajorK, $w:ty, $rows:expr) => { ($rows, <$w>::default().value() as i32) };
    (@shape MajorMN, $w:ty, $rows:expr) => { (<$w>::default().value() as i32, 8) };
}

/// Declares one proof entry: `name: ss|rs, element, A major, A atom, B major, B atom, N`.
macro_rules! entry {
    ($name:ident: $run:ident, $e:ident, $ma:ident, $atom_a:ident, $mb:ident, $atom_b:ident, $n:literal) => {
        device::kernel! {
            #[doc = concat!("`", stringify!($run), "` wgmma m64n", $n, "k16, ", stringify!($e),
                            ", A `", stringify!($atom_a), "`, B `", stringify!($atom_b),
                            "`: C(64×", $n, ") = A(64×64)·B(", $n, "×64)ᵀ, A and B loaded by TMA. ",
                            "Launch 1 CTA of 128 threads, shared memory `(64 + N)·64·2 + 8` bytes.",
                            "\n\n# Safety\n`tma_a`, `tma_b`: tensor maps of A (64×64) and B (", $n,
                            "×64) with the boxes `host/src/check/wgmma.rs` encodes; C dense as the ",
                            "crate documents.")]
            pub unsafe fn $name(tma_a: TmaDescriptor, tma_b: TmaDescriptor, c: *mut f32) {
                let tma_a = device::grid_constant!($name, 0, tma_a);
                let tma_b = device::grid_constant!($name, 1, tma_b);
                let s_a = tile_to_shape($atom_a::<u16>::new(), (_64, _64), LayoutLeft);
                let s_b = tile_to_shape($atom_b::<u16>::new(), (Int::<$n>::new(), _64), LayoutLeft);
                let tid = thread_idx_x() as i32;
                let p_a = smem_base();
                // SAFETY: B follows A's tile, the mbarrier B's, within the launch's shared memory.
                let p_b = unsafe { p_a.add((TILE_M * TILE_K) as usize) };
                let bar = unsafe { p_b.add($n * TILE_K as usize) } as *mut u64;
                let t_a = make_tensor(make_smem_ptr(p_a), s_a);
                let t_b = make_tensor(make_smem_ptr(p_b), s_b);
                unsafe {
                    load_ab::<$ma, $mb, _, _>(
                        TmaAtom::<TmaLoad, u16, tma_box!(@type $ma, atom_width!($atom_a), _64)>::new(tma_a),
                        TmaAtom::<TmaLoad, u16, tma_box!(@type $mb, atom_width!($atom_b), Int<$n>)>::new(tma_b),
                        tma_box!(@shape $ma, atom_width!($atom_a), TILE_M),
                        tma_box!(@shape $mb, atom_width!($atom_b), $n),
                        $n,
                        tid,
                        bar,
                        |c| t_a.ptr(c),
                        |c| t_b.ptr(c),
                    )
                };
                let d_b = make_gmma_desc_tensor(
                    $mb,
                    make_tensor(make_smem_ptr(p_b), mma_tiles!(s_b, (Int::<$n>::new(), _16))),
                );
                let desc_b = |kb: i32| d_b.at((_0, (_0, kb))).desc.desc;
                entry!(@$run $e, $ma, $mb, s_a, p_a, t_a, d_b, desc_b, tid, c, $n);
            }
        }
        device::launch_bounds!($name, 128, 1);
    };
    (@run_ss $e:ident, $ma:ident, $mb:ident, $s_a:ident, $p_a:ident, $t_a:ident, $d_b:ident, $desc_b:ident, $tid:ident, $c:ident, $n:literal) => {
        let d_a = make_gmma_desc_tensor($ma, make_tensor(make_smem_ptr($p_a), mma_tiles!($s_a, (_64, _16))));
        unsafe {
            run_ss::<$e, $ma, $mb, { $n / 2 }>($tid, |kb| d_a.at((_0, (_0, kb))).desc.desc, $desc_b, $c)
        };
        let _ = (&$d_b, &$t_a, $ma);
    };
    (@run_rs $e:ident, $ma:ident, $mb:ident, $s_a:ident, $p_a:ident, $t_a:ident, $d_b:ident, $desc_b:ident, $tid:ident, $c:ident, $n:literal) => {
        let a_row = |crd: (i32, i32)| to_shared_addr($t_a.ptr(crd));
        unsafe { run_rs::<$e, $mb, { $n / 2 }>($tid, a_row, $desc_b, $c) };
        let _ = (&$d_b, &$s_a, $ma);
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
    let p_a = smem_base();
    // SAFETY: B follows A's 128×64 tile in the launch's 32 KiB.
    let p_b = unsafe { p_a.add(128 * 64) };
    let (t_a, t_b) = (make_tensor(make_smem_ptr(p_a), s_a), make_tensor(make_smem_ptr(p_b), s_b));
    // The two roles meet at named barrier 1 (all 384 threads) three times: A and B loaded;
    // every wgmma done with them; C staged. Each role's registers stay its own.
    if warpgroup == 0 {
        setmaxnreg_dec::<40>();
        unsafe {
            load_tile::<MajorK>(a, 128, t, |c| t_a.ptr(c));
            load_tile::<MajorK>(b, 128, t, |c| t_b.ptr(c));
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
