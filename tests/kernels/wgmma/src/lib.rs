//! The wgmma proof kernels (issue #25): one CTA of one warpgroup (128 threads) loads a 64×64
//! tile of A and an N×64 tile of B into shared memory in a GMMA canonical layout, runs four
//! `m64nNk16` `wgmma`s over K (A and B from shared-memory descriptors, SS, or A from registers
//! loaded by `ldmatrix`, RS) and writes the 64×N f32 tile of `C = A·Bᵀ` through the
//! accumulator layout. One entry per configuration GMMA allows, 174 in all (the table is in
//! doc/hopper-wgmma.md): bf16 / f16; SS / RS; K- or MN-major A and B (RS: K-major A); INTER,
//! SW32, SW64, SW128 atoms; N ∈ {8, 64, 128, 256}. The 96 with a K-major B are this family's
//! (`entries.rs`), the 78 with an MN-major B `tests/kernels/wgmma_mn`'s, both from one body
//! (`proof.rs`) so that they compile on two cores at once. `host run` checks every entry against
//! a CPU reference (`host-cli/src/check/wgmma.rs`).
//!
//! Compile time: the typed layer costs the trait solver a fraction of a second of CPU per
//! distinct shared-memory tile type and little per entry, so the typed code is written once per
//! (atom, rows) (`OperandTile`) and each entry is an instance of `proof_ss` / `proof_rs`
//! (doc/compile-time.md).
//!
//! On the typed layer: the shared-memory tiles are `tile_to_shape(GMMA::Layout_*_Atom<u16>, (MN,
//! 64), LayoutLeft)` (`cute::atom::gmma`), divided into one MMA's `(MN, 16)` tiles by `zipped_divide`,
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

include!("proof.rs");

use device::mma::{pack_f16x2, stmatrix_x4};
use device::thread::named_barrier_sync;
use device::tma::tma_store_fence as fence_view_async_shared;
use device::wgmma::{setmaxnreg_dec, setmaxnreg_inc};
use tile::gmem_layout;

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

// The tiles this family's entries (`entries.rs`: a K-major B) use: A, every atom at 64 rows; B,
// every K-major atom at 8, 64, 128 and 256 rows. `tests/kernels/wgmma_mn` has the MN-major B entries.
register_a!(Layout_K_INTER_Atom Layout_K_SW32_Atom Layout_K_SW64_Atom Layout_K_SW128_Atom);
operand_tile!(Layout_K_INTER_Atom, MajorK, _8, [8 64 128 256]);
operand_tile!(Layout_K_SW32_Atom, MajorK, _16, [8 64 128 256]);
operand_tile!(Layout_K_SW64_Atom, MajorK, _32, [8 64 128 256]);
operand_tile!(Layout_K_SW128_Atom, MajorK, _64, [8 64 128 256]);
operand_tile!(Layout_MN_INTER_Atom, MajorMN, _8, [64]);
operand_tile!(Layout_MN_SW32_Atom, MajorMN, _16, [64]);
operand_tile!(Layout_MN_SW64_Atom, MajorMN, _32, [64]);
operand_tile!(Layout_MN_SW128_Atom, MajorMN, _64, [64]);

include!("entries.rs");
include!("fp8.rs");

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
        let d_a = make_gmma_desc_tensor(MajorK, make_tensor(make_smem_ptr(p_a), s_a.with_layout(zipped_divide(s_a.layout, (_64, _16)))));
        let d_b = make_gmma_desc_tensor(MajorK, make_tensor(make_smem_ptr(p_b), s_b.with_layout(zipped_divide(s_b.layout, (_128, _16)))));
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
