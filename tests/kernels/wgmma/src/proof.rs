// The body shared by the two wgmma proof families (`tests/kernels/wgmma`, `tests/kernels/wgmma_mn`), each of
// which `include!`s it beside its `tile` module, declares the shared-memory tiles its entries use
// (`operand_tile!`, `register_a!`) and `include!`s its entries: the proofs with a K-major B here,
// those with an MN-major B in `wgmma_mn`, so that the two compile on two cores at once.

use device::mbarrier;
use device::mma::ldmatrix_x4;
use device::shared::{dynamic_shared_mem, to_shared_addr};
use device::thread::{sync_threads, thread_idx_x, trap};
use device::tma::TmaDescriptor;
use device::wgmma::tnsp;
use device::wgmma::{
    Bf16, F16, GmmaMajor, MajorK, MajorMN, MmaAsync, One, ScaleOut, commit_group, fence,
    fence_operand, mma_async_rs, mma_async_ss, wait_group,
};
use layout_types::cute::layout::StaticLayoutValue;
use layout_types::cute::atom::gmma::*;
use layout_types::cute::prelude::*;
use layout_types::cute::atom::tma::{TmaAtom, TmaLoad};
use tile::{TILE_K, TILE_M, accumulator_layout};

/// The k-blocks of 16 in the K tile (of 32 with 8-bit elements: a tile row is 128 bytes either
/// way, and a k-block 32 bytes, `wgmma`'s 256 bits of K).
const K_BLOCKS: usize = (TILE_K / 16) as usize;

/// The alignment of the dynamic shared memory the kernels ask for.
#[derive(Clone, Copy)]
#[repr(C, align(1024))]
pub struct Align1024(pub [u8; 1024]);

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

/// One operand's shared-memory tile as the proofs (and the GEMM) lay it out: the GMMA atom
/// `Self` tiled by `tile_to_shape(Self, (ROWS, 64), LayoutLeft)` (`cute::atom::gmma`), loaded by TMA
/// and read by the `wgmma` through `make_gmma_desc_tensor`. Implemented by `operand_tile!` for
/// each atom and row count a proof uses, so each (atom, rows) pair's typed code is type-checked
/// and monomorphized once, however many entries use it (A is always 64 rows; B is N rows).
trait OperandTile<const ROWS: usize> {
    /// The atom's major (CuTe's `GMMA::Major`).
    type Major: GmmaMajor;
    /// The tile at `p`: when `leader`, issues its TMA loads from the tensor map `tma` on the
    /// mbarrier `bar` (one box per block of the tile, CuTe's `tma_partition` of the smem tensor
    /// by the box the host encoded, `host-cli/src/check/wgmma.rs`); returns the `wgmma`
    /// descriptors of its four `(ROWS, 16)` k-blocks (the descriptor tensor of the tile divided
    /// into one MMA's tiles by `zipped_divide`, at `(_0, (_0, kb))`). One body per (atom, rows),
    /// so the tile's layout is computed once.
    ///
    /// # Safety
    /// `p` is the tile's 1024-byte aligned shared-memory address; `tma` a map of the operand
    /// with that box; `bar` armed for the tile's bytes.
    unsafe fn load(
        tma: *const TmaDescriptor,
        bar: *mut u64,
        p: *mut u16,
        leader: bool,
    ) -> [u64; K_BLOCKS];
}

/// A's tile in registers (RS): thread `tid`'s fragments of the four k-blocks of the K-major tile
/// at `p` (16-bit: `ldmatrix.x4` of the swizzled tensor's rows, CuTe's `ALayout_64x16`; 8-bit:
/// the values of CuTe's `ALayout_64x32` read through the swizzled tensor, four to a register).
trait RegisterA: OperandTile<64, Major = MajorK> {
    /// # Safety
    /// All 128 threads of the warpgroup; `p` is the loaded tile's shared-memory address.
    unsafe fn fragments(p: *mut u16, tid: i32) -> [[u32; 4]; K_BLOCKS];
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

/// The GMMA atoms as marker types, named as the atoms (`atoms::Layout_K_SW128_Atom` stands for
/// `Layout_K_SW128_Atom<u16>`): the atoms themselves are aliases whose layouts are trait
/// projections, which coherence cannot tell apart.
#[allow(non_camel_case_types)]
mod atoms {
    pub struct Layout_K_INTER_Atom;
    pub struct Layout_K_SW32_Atom;
    pub struct Layout_K_SW64_Atom;
    pub struct Layout_K_SW128_Atom;
    pub struct Layout_MN_INTER_Atom;
    pub struct Layout_MN_SW32_Atom;
    pub struct Layout_MN_SW64_Atom;
    pub struct Layout_MN_SW128_Atom;
}

/// `operand_tile!(atom, major, width, [rows...])`: [`OperandTile`] for `atom<u16>` (its major,
/// its contiguous width in elements: the swizzle span / 2) at each row count;
/// `operand_tile!(u8: atom, width, [rows...])` for the K-major `atom<u8>` (`atoms8`; width the
/// swizzle span in bytes), whose tile is 128 elements of K in k-blocks of 32.
macro_rules! operand_tile {
    ($atom:ident, $major:ident, $w:ty, [$($rows:literal)+]) => {
        operand_tile!(@impl atoms, u16, _64, _16, $atom, $major, $w, [$($rows)+]);
    };
    (u8: $atom:ident, $w:ty, [$($rows:literal)+]) => {
        operand_tile!(@impl atoms8, u8, _128, _32, $atom, MajorK, $w, [$($rows)+]);
    };
    (@impl $m:ident, $t:ty, $kt:ty, $kb:ty, $atom:ident, $major:ident, $w:ty, [$($rows:literal)+]) => {$(
        impl OperandTile<$rows> for $m::$atom {
            type Major = $major;
            #[inline(always)]
            unsafe fn load(tma: *const TmaDescriptor, bar: *mut u64, p: *mut u16, leader: bool) -> [u64; K_BLOCKS] {
                let p = p as *mut $t;
                let s = tile_to_shape($atom::<$t>::new(), (Int::<$rows>::new(), <$kt>::default()), LayoutLeft);
                if leader {
                    let t = make_tensor(make_smem_ptr(p), s);
                    let atom = TmaAtom::<TmaLoad, $t, tma_box!(@type $major, $w, Int<$rows>)>::new(tma);
                    let k = <$kt>::default().value() as i32;
                    // SAFETY: as this function's.
                    unsafe { tma_tile::<$major, _, _>(atom, bar, ($rows, k), tma_box!(@shape $major, $w, $rows), |c| t.ptr(c)) };
                }
                let d = make_gmma_desc_tensor(
                    $major,
                    make_tensor(make_smem_ptr(p), s.with_layout(zipped_divide(s.layout, (Int::<$rows>::new(), <$kb>::default())))),
                );
                let mut out = [0u64; K_BLOCKS];
                device::unroll!(K_BLOCKS, |kb| out[kb] = d.at((_0, (_0, kb as i32))).desc.desc);
                out
            }
        }
    )+};
}

/// [`RegisterA`] for the K-major atoms (`u8:` the 8-bit ones of `atoms8`).
macro_rules! register_a {
    (u8: $($atom:ident)+) => {$(
        impl RegisterA for atoms8::$atom {
            #[inline(always)]
            unsafe fn fragments(p: *mut u16, tid: i32) -> [[u32; 4]; K_BLOCKS] {
                let s = tile_to_shape($atom::<u8>::new(), (_64, _128), LayoutLeft);
                let t = make_tensor(make_smem_ptr(p as *mut u8), s);
                // SAFETY: as this function's.
                unsafe { fragments_8bit(|c| t.ptr(c), tid) }
            }
        }
    )+};
    ($($atom:ident)+) => {$(
        impl RegisterA for atoms::$atom {
            #[inline(always)]
            unsafe fn fragments(p: *mut u16, tid: i32) -> [[u32; 4]; K_BLOCKS] {
                let s = tile_to_shape($atom::<u16>::new(), (_64, _64), LayoutLeft);
                let t = make_tensor(make_smem_ptr(p), s);
                let (m, k) = tile::ldsm_a_row(tid);
                let mut frag = [[0u32; 4]; K_BLOCKS];
                device::unroll!(K_BLOCKS, |kb| {
                    // SAFETY: all 32 lanes of each warp, 16-byte rows inside A's tile.
                    frag[kb] = unsafe { ldmatrix_x4(to_shared_addr(t.ptr((m, k + 16 * kb as i32)))) };
                });
                frag
            }
        }
    )+};
}



/// TMA-loads an operand's `mn × 64` tile of the smem tensor `at` (a GMMA atom tiled by
/// `tile_to_shape(.., LayoutLeft)`): one box of the tensor map per `(box_mn, box_k)` block, the
/// box the host encoded (`host-cli/src/check/wgmma.rs`: K-major, an atom column `box_k × mn` with
/// `box_mn = mn`; MN-major, one atom `box_mn × 8`), written at the block origin's address
/// (CuTe's `tma_partition` of the smem tensor by the box). TMA coordinates are in TMA order:
/// K-major `[k, mn]`, MN-major `[mn, k]`.
#[inline(always)]
unsafe fn tma_tile<M: GmmaMajor, T, Box: StaticLayoutValue>(
    atom: TmaAtom<TmaLoad, T, Box>,
    bar: *mut u64,
    (mn, k): (i32, i32),
    (box_mn, box_k): (i32, i32),
    at: impl Fn((i32, i32)) -> *mut T,
) {
    for k0 in (0..k).step_by(box_k as usize) {
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

/// Loads A (64 × K, at the start of the dynamic shared memory) and B (`N` × K, after it) by TMA:
/// thread 0 arms the mbarrier (after B) with both tiles' bytes and issues every box; all threads
/// wait on the barrier's phase 0 (TMA's writes are then visible to the `wgmma`s' async proxy).
/// Returns A's address and both tiles' k-block descriptors.
#[inline(always)]
unsafe fn load_ab<A: OperandTile<64>, B: OperandTile<N>, const N: usize>(
    tma_a: *const TmaDescriptor,
    tma_b: *const TmaDescriptor,
    tid: i32,
) -> (*mut u16, [u64; K_BLOCKS], [u64; K_BLOCKS]) {
    let p_a = smem_base();
    // SAFETY: B follows A's tile, the mbarrier B's, within the launch's shared memory.
    let p_b = unsafe { p_a.add((TILE_M * TILE_K) as usize) };
    let bar = unsafe { p_b.add(N * TILE_K as usize) } as *mut u64;
    if tid == 0 {
        unsafe {
            device::tma::prefetch_tma_descriptor(tma_a);
            device::tma::prefetch_tma_descriptor(tma_b);
            mbarrier::mbarrier_init(bar, 1);
        }
        mbarrier::fence_barrier_init();
    }
    sync_threads();
    let leader = tid == 0;
    if leader {
        let bytes = 2 * TILE_K * (TILE_M + N as i32);
        unsafe { mbarrier::mbarrier_arrive_expect_tx(bar, bytes as u32) };
    }
    // SAFETY: the tiles and the barrier as above; only the leader issues the loads.
    let (desc_a, desc_b) = unsafe {
        (
            A::load(tma_a, bar, p_a, leader),
            B::load(tma_b, bar, p_b, leader),
        )
    };
    unsafe { mbarrier::mbarrier_wait_parity(bar, 0) };
    (p_a, desc_a, desc_b)
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

/// An SS proof: A (atom `A`, 64 rows) and B (atom `B`, `N` rows) loaded by TMA, the four
/// k-blocks' `m64nNk16` (8-bit: `m64nNk32`) `wgmma`s (`K2 = N/2` accumulators) on their
/// descriptors, then C.
#[inline(always)]
unsafe fn proof_ss<E, A: OperandTile<64>, B: OperandTile<N>, const N: usize, const K2: usize>(
    tma_a: *const TmaDescriptor,
    tma_b: *const TmaDescriptor,
    c: *mut f32,
) where
    [f32; K2]: MmaAsync<E>,
{
    let tid = thread_idx_x() as i32;
    let (_, desc_a, desc_b) = unsafe { load_ab::<A, B, N>(tma_a, tma_b, tid) };
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
            mma_async_ss::<E, A::Major, B::Major, One, One, _>(
                desc_a[kb], desc_b[kb], &mut acc, scale_d,
            )
        };
    });
    commit_group();
    wait_group::<0>();
    fence_operand(&mut acc);
    unsafe { store_c(&acc, c, tid) };
}

/// An RS proof: as [`proof_ss`], but A's k-blocks go to registers ([`RegisterA::fragments`])
/// and the `wgmma`s read A from them.
#[inline(always)]
unsafe fn proof_rs<E, A: RegisterA, B: OperandTile<N>, const N: usize, const K2: usize>(
    tma_a: *const TmaDescriptor,
    tma_b: *const TmaDescriptor,
    c: *mut f32,
) where
    [f32; K2]: MmaAsync<E>,
{
    let tid = thread_idx_x() as i32;
    let (p_a, _, desc_b) = unsafe { load_ab::<A, B, N>(tma_a, tma_b, tid) };
    // SAFETY: the whole warpgroup, A's tile loaded.
    let frag = unsafe { A::fragments(p_a, tid) };
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
            mma_async_rs::<E, B::Major, One, One, _>(frag[kb], desc_b[kb], &mut acc, scale_d)
        };
    });
    commit_group();
    wait_group::<0>();
    fence_operand(&mut acc);
    unsafe { store_c(&acc, c, tid) };
}

/// Declares one proof entry: `name: ss|rs, element, A atom, B atom, N` (the atoms name their
/// majors); `name: ss|rs, (EA, EB), u8: A atom, B atom, N` for the 8-bit ones (`atoms8`).
macro_rules! entry {
    ($name:ident: $mode:ident, $e:ty, u8: $atom_a:ident, $atom_b:ident, $n:literal) => {
        entry!(@entry $name, $mode, $e, atoms8, $atom_a, $atom_b, $n, "k32 (8-bit: 128 of K)");
    };
    // The 16-bit proofs at N = 64 and 128, between the 8 and 256 that every build proves: with
    // the families' `all-proofs` feature (`cargo xtask run` turns it on: `host wgmma` then proves
    // all 174 configurations), not in `cargo xtask test`'s build (compile time: the proofs at
    // every N cost about 45 s more of CPU).
    ($name:ident: $mode:ident, $e:ty, $atom_a:ident, $atom_b:ident, 64) => {
        #[cfg(feature = "all-proofs")]
        entry!(@entry $name, $mode, $e, atoms, $atom_a, $atom_b, 64, "k16 (16-bit: 64 of K)");
    };
    ($name:ident: $mode:ident, $e:ty, $atom_a:ident, $atom_b:ident, 128) => {
        #[cfg(feature = "all-proofs")]
        entry!(@entry $name, $mode, $e, atoms, $atom_a, $atom_b, 128, "k16 (16-bit: 64 of K)");
    };
    ($name:ident: $mode:ident, $e:ty, $atom_a:ident, $atom_b:ident, $n:literal) => {
        entry!(@entry $name, $mode, $e, atoms, $atom_a, $atom_b, $n, "k16 (16-bit: 64 of K)");
    };
    (@entry $name:ident, $mode:ident, $e:ty, $m:ident, $atom_a:ident, $atom_b:ident, $n:literal, $k:literal) => {
        device::kernel! {
            #[doc = concat!("`", stringify!($mode), "` wgmma m64n", $n, $k, ", ", stringify!($e),
                            ", A `", stringify!($atom_a), "`, B `", stringify!($atom_b),
                            "`: C(64×", $n, ") = A·Bᵀ over one 128-byte row of K, A and B loaded by TMA. ",
                            "Launch 1 CTA of 128 threads, shared memory `(64 + N)·64·2 + 8` bytes.",
                            "\n\n# Safety\n`tma_a`, `tma_b`: tensor maps of A (64 rows) and B (", $n,
                            " rows) with the boxes `host-cli/src/check/wgmma.rs` encodes; C dense as the ",
                            "crate documents.")]
            pub unsafe fn $name(tma_a: TmaDescriptor, tma_b: TmaDescriptor, c: *mut f32) {
                let tma_a = device::grid_constant!($name, 0, tma_a);
                let tma_b = device::grid_constant!($name, 1, tma_b);
                // SAFETY: as the entry's.
                unsafe { entry!(@$mode $e, $m, $atom_a, $atom_b, $n)(tma_a, tma_b, c) };
            }
        }
        device::launch_bounds!($name, 128, 1);
    };
    (@ss $e:ty, $m:ident, $atom_a:ident, $atom_b:ident, $n:literal) => {
        proof_ss::<$e, $m::$atom_a, $m::$atom_b, $n, { $n / 2 }>
    };
    (@rs $e:ty, $m:ident, $atom_a:ident, $atom_b:ident, $n:literal) => {
        proof_rs::<$e, $m::$atom_a, $m::$atom_b, $n, { $n / 2 }>
    };
}
