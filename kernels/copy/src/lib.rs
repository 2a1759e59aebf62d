//! Tiled gmem → smem → gmem copies built from `layout_types` TiledCopies (issue #5).
//!
//! Each block picks its `(TILE_M, TILE_N)` tile of an `M x N` matrix (CuTe's `local_tile`, with
//! the tile coordinate from `blockIdx`), copies it into shared memory through a TiledCopy
//! (`make_tiled_copy(atom, Thr, Val)`), synchronizes, and copies shared → global into the output.
//! All layouts are static: the per-thread `(thr, (atom_val, rest_val)) -> (m, n)` map is the
//! TiledCopy's TV layout, indexed through its compile-time `FlatLayout`; only the block offsets,
//! the thread index and the leading dimensions are run-time values.
//!
//! Edges are predicated as with CuTe's identity tensor: each vector's `(m, n)` coordinate is
//! compared with `(M, N)`; a vector that straddles the edge of the contiguous dimension is copied
//! element by element, nothing outside the matrix is ever read or written.
//!
//! Vector legality is a compile-time check (`check_tiled_vector` on the smem layout and on a
//! representative gmem tile); the host checks what is dynamic (leading dimensions multiple of
//! the vector width, 16-byte aligned base pointers) before launching.
#![cfg_attr(target_arch = "nvptx64", no_std, feature(abi_ptx))]
#![allow(internal_features)]

use device::cp_async::{commit_group, cp_async_cg_16, wait_group};
use device::shared::{dynamic_shared_mem, to_shared_addr};
use device::thread::{block_idx_x, block_idx_y, sync_threads, thread_idx_x};
use device::vec::{Float4, ld_global_v4_f32, ld_shared_v4_f32, st_global_v4_f32, st_shared_v4_f32};
use layout_types::check::BankConflictFree;
use layout_types::copy::{CopyAtom, CopyOp, TiledCopy, check_tiled_vector, make_tiled_copy};
use layout_types::prelude::*;
use layout_types::static_layout::FlatLayout;
use layout_types::swizzle::{StaticSwizzle, Swizzle, SwizzledLayout};
use layout_types::{DynLayout, Error};

/// Unwraps in const evaluation (an error is a compile error with the CuTe condition and values).
const fn ok<T: Copy>(r: Result<T, Error>) -> T {
    match r {
        Ok(v) => v,
        Err(e) => e.panic(),
    }
}

/// A tiled-copy kernel configuration: all static.
pub trait CopyCfg {
    /// Thread layout over the `(m, n)` tile.
    type Thr: StaticLayout;
    /// Value layout of one thread.
    type Val: StaticLayout;
    /// Shared-memory layout of the block's `(TILE_M, TILE_N)` tile.
    type Smem: StaticLayout;
    /// Bytes per element (4 or 2).
    const ELEM: i64;
    /// Column-major gmem (`(M,N):(1,ld)`) rather than row-major (`(M,N):(ld,1)`).
    const COL: bool;
    /// The copy instruction.
    const OP: CopyOp;

    /// `make_tiled_copy(Copy_Atom<OP, T>, Thr, Val)`.
    const TC: TiledCopy = ok(make_tiled_copy(
        CopyAtom::new(Self::OP, Self::ELEM),
        &Self::Thr::VALUE,
        &Self::Val::VALUE,
    ));
    /// `(thr, (atom_val, rest_val)) -> tiler index`, flattened for compile-time folding.
    const TV: FlatLayout = FlatLayout::of(&ok(Self::TC.layout_tv_atoms()));
    /// Atom width in elements.
    const A: i64 = Self::TC.atom.vals();
    /// Atoms per thread per tiler step.
    const R: i64 = Self::TC.tv.values / Self::A;
    /// Tiler extent along m.
    const TM: i64 = Self::TC.tv.tiler.get(0).val().v;
    /// Tiler extent along n.
    const TN: i64 = Self::TC.tv.tiler.get(1).val().v;
    /// Block tile.
    const TILE_M: i64 = Self::Smem::VALUE.shape.get(0).val().v;
    /// Block tile.
    const TILE_N: i64 = Self::Smem::VALUE.shape.get(1).val().v;
    /// Compile-time legality: the tiler divides the tile, vectors are contiguous and aligned in
    /// smem and in a (representative) gmem tile.
    const CHECK: () = {
        if Self::TILE_M % Self::TM != 0 || Self::TILE_N % Self::TN != 0 {
            Error::with2(
                "tiled copy: the TiledCopy tiler does not divide the block tile (TM, TILE_M)",
                Self::TM,
                Self::TILE_M,
            )
            .panic();
        }
        ok(check_tiled_vector(&Self::TC, &Self::Smem::VALUE));
        let t = IntTuple::pair(&IntTuple::st(Self::TILE_M), &IntTuple::st(Self::TILE_N));
        let ld = IntTuple::st(1 << 16); // any multiple of the vector width
        let d = if Self::COL {
            IntTuple::pair(&IntTuple::st(1), &ld)
        } else {
            IntTuple::pair(&ld, &IntTuple::st(1))
        };
        ok(check_tiled_vector(&Self::TC, &DynLayout::raw(t, d)));
    };
}

/// Copies one element of `E` bytes between generic addresses.
#[inline(always)]
unsafe fn copy_elem<const E: i64>(src: *const u8, dst: *mut u8) {
    unsafe {
        if E == 4 {
            *(dst as *mut u32) = *(src as *const u32);
        } else {
            *(dst as *mut u16) = *(src as *const u16);
        }
    }
}

/// Calls `f(smem_byte_offset, gm, gn, whole_vector)` for every atom of this thread whose first
/// element lies inside the `m x n` matrix: the thread's slice of the TiledCopy over the block
/// tile at `(m0, n0)`, in `(CPY, CPY_M, CPY_N)` order. All loop bounds are constants.
#[inline(always)]
fn for_each_atom<C: CopyCfg, const E: i64>(
    tid: i64,
    m0: i64,
    n0: i64,
    m: i64,
    n: i64,
    mut f: impl FnMut(i64, i64, i64, bool),
) {
    let mut rm = 0;
    while rm < C::TILE_M / C::TM {
        let mut rn = 0;
        while rn < C::TILE_N / C::TN {
            let mut r = 0;
            while r < C::R {
                let idx = C::TV.crd(&[tid, C::A * r]);
                let mi = idx % C::TM + rm * C::TM;
                let ni = idx / C::TM + rn * C::TN;
                let (gm, gn) = (m0 + mi, n0 + ni);
                // identity-tensor predicate: coordinate < shape in both modes
                let (c, cext, o, oext) = if C::COL {
                    (gm, m, gn, n)
                } else {
                    (gn, n, gm, m)
                };
                if o < oext && c < cext {
                    f(C::Smem::FLAT.crd(&[mi, ni]) * E, gm, gn, c + C::A <= cext);
                }
                r += 1;
            }
            rn += 1;
        }
        rm += 1;
    }
}

/// The body shared by the tiled-copy kernels.
#[inline(always)]
unsafe fn tiled_copy<C: CopyCfg, const E: i64>(
    src: *const u8,
    dst: *mut u8,
    m: i64,
    n: i64,
    lds: i64,
    ldd: i64,
) {
    const { C::CHECK };
    let tid = thread_idx_x() as i64;
    let smem = dynamic_shared_mem::<Float4>() as *mut u8;
    // local_tile(gmem, (TILE_M, TILE_N), (bm, bn)); column-major puts the n tiles on x.
    let (bm, bn) = if C::COL {
        (block_idx_y() as i64, block_idx_x() as i64)
    } else {
        (block_idx_x() as i64, block_idx_y() as i64)
    };
    let (m0, n0) = (bm * C::TILE_M, bn * C::TILE_N);
    // The contiguous dimension has unit stride in gmem and in smem (checked by CHECK).
    let goff = |gm: i64, gn: i64, ld: i64| (if C::COL { gm + gn * ld } else { gm * ld + gn }) * E;
    let cext = |gm: i64, gn: i64| if C::COL { m - gm } else { n - gn };

    // gmem -> smem
    for_each_atom::<C, E>(tid, m0, n0, m, n, |so, gm, gn, whole| unsafe {
        let g = src.add(goff(gm, gn, lds) as usize);
        let s = smem.add(so as usize);
        if whole && C::A > 1 {
            match C::OP {
                CopyOp::CpAsync16 => cp_async_cg_16(to_shared_addr(s), g),
                _ => st_shared_v4_f32(to_shared_addr(s), ld_global_v4_f32(g as *const Float4)),
            }
        } else {
            let left = cext(gm, gn).min(C::A);
            let mut k = 0;
            while k < C::A {
                if k < left {
                    copy_elem::<E>(g.add((k * E) as usize), s.add((k * E) as usize));
                }
                k += 1;
            }
        }
    });
    if matches!(C::OP, CopyOp::CpAsync16) {
        commit_group();
        wait_group::<0>();
    }
    sync_threads();
    // smem -> gmem
    for_each_atom::<C, E>(tid, m0, n0, m, n, |so, gm, gn, whole| unsafe {
        let g = dst.add(goff(gm, gn, ldd) as usize);
        let s = smem.add(so as usize);
        if whole && C::A > 1 {
            st_global_v4_f32(g as *mut Float4, ld_shared_v4_f32(to_shared_addr(s)));
        } else {
            let left = cext(gm, gn).min(C::A);
            let mut k = 0;
            while k < C::A {
                if k < left {
                    copy_elem::<E>(s.add((k * E) as usize), g.add((k * E) as usize));
                }
                k += 1;
            }
        }
    });
}

macro_rules! copy_cfg {
    ($(#[$doc:meta])* $name:ident, $kernel:ident, thr = $thr:ty, val = $val:ty, smem = $smem:ty, elem = $e:expr, col = $col:expr, op = $op:expr) => {
        $(#[$doc])*
        pub struct $name;
        impl CopyCfg for $name {
            type Thr = $thr;
            type Val = $val;
            type Smem = $smem;
            const ELEM: i64 = $e;
            const COL: bool = $col;
            const OP: CopyOp = $op;
        }
        device::kernel! {
        $(#[$doc])*
        ///
        /// `src`/`dst`: `M x N` matrices with leading dimensions `lds`/`ldd` (elements). Launch
        /// with 256 threads, `shared_mem_bytes = TILE_M * TILE_N * elem`, grid
        /// `(tiles along the strided dim, tiles along the contiguous dim)`.
        ///
        /// # Safety
        /// Buffers hold the matrices; vector variants need 16-byte aligned bases and leading
        /// dimensions that are multiples of the vector width (checked by the host).
        pub unsafe fn $kernel(src: *const u8, dst: *mut u8, m: i64, n: i64, lds: i64, ldd: i64) {
            unsafe { tiled_copy::<$name, $e>(src, dst, m, n, lds, ldd) }
        }
        }
    };
}

type RowThr = Layout<(_8, _32), (_32, _1)>;
type ColThr = Layout<(_32, _8), (_1, _32)>;

copy_cfg!(
    /// Row-major f32, `UniversalCopy<uint128_t>` (`ld.global.v4`/`st.shared.v4`), 64x128 tile.
    RowF32V4, tiled_copy_row_f32_v4, thr = RowThr, val = Layout<(_1, _4), (_0, _1)>,
    smem = Layout<(_64, _128), (_128, _1)>, elem = 4, col = false, op = CopyOp::Vec128);
copy_cfg!(
    /// Row-major f32, `SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>`, 64x128 tile.
    RowF32CpAsync, tiled_copy_row_f32_cp_async, thr = RowThr, val = Layout<(_1, _4), (_0, _1)>,
    smem = Layout<(_64, _128), (_128, _1)>, elem = 4, col = false, op = CopyOp::CpAsync16);
copy_cfg!(
    /// Row-major f32, one element per instruction (any leading dimension and alignment).
    RowF32Scalar, tiled_copy_row_f32_scalar, thr = RowThr, val = Layout<(_1, _4), (_0, _1)>,
    smem = Layout<(_64, _128), (_128, _1)>, elem = 4, col = false, op = CopyOp::Element);
copy_cfg!(
    /// Column-major f32, 128-bit vectors along m, 128x64 tile.
    ColF32V4, tiled_copy_col_f32_v4, thr = ColThr, val = Layout<(_4, _1), (_1, _0)>,
    smem = Layout<(_128, _64), (_1, _128)>, elem = 4, col = true, op = CopyOp::Vec128);
copy_cfg!(
    /// Row-major 16-bit, 128-bit vectors (8 halves), 64x256 tile.
    RowF16V4, tiled_copy_row_f16_v4, thr = RowThr, val = Layout<(_1, _8), (_0, _1)>,
    smem = Layout<(_64, _256), (_256, _1)>, elem = 2, col = false, op = CopyOp::Vec128);
copy_cfg!(
    /// Column-major 16-bit, 128-bit vectors along m, 256x64 tile.
    ColF16V4, tiled_copy_col_f16_v4, thr = ColThr, val = Layout<(_8, _1), (_1, _0)>,
    smem = Layout<(_256, _64), (_1, _256)>, elem = 2, col = true, op = CopyOp::Vec128);

// ---------------------------------------------------------------------------------------------
// Transpose through a swizzled shared-memory tile.

/// Load side: 16x16 threads (row-major ids), 4 contiguous f32 along n: tiler 16x64.
type TrLoadThr = Layout<(_16, _16), (_16, _1)>;
/// Store side, over the output tile `(n, m)`: lanes `8c + q` take rows `c` (4 per warp) and
/// 16-byte columns `q`; warp pairs split m in halves: tiler 16x64.
type TrStoreThr = Layout<((_4, _4), (_8, _2)), ((_8, _64), (_1, _32))>;
type TrVal = Layout<(_1, _4), (_0, _1)>;
/// The smem tile `(m, n)`, row-major.
type TrTile = Layout<(_64, _64), (_64, _1)>;
/// The same smem tile seen from the store side's `(n, m)` coordinates.
type TrTileNM = Layout<(_64, _64), (_1, _64)>;
/// The transpose's smem accesses are free of bank conflicts (checked at compile time): the
/// 128-bit stores of the load side and the column-walking scalar reads of the store side.
/// Without the swizzle the reads are 8-way conflicts and this fails to build
/// (`tests/ui/fail/transpose_bank_conflict.rs`).
const fn check_banks<Sw: StaticSwizzle>() {
    let () = BankConflictFree::<TrTile, Sw, TrLoadThr, TrVal, f32, 4>::CHECK;
    let () = BankConflictFree::<TrTileNM, Sw, TrStoreThr, TrVal, f32, 1>::CHECK;
}

const TR_LOAD: TiledCopy = ok(make_tiled_copy(
    CopyAtom::new(CopyOp::Vec128, 4),
    &TrLoadThr::VALUE,
    &TrVal::VALUE,
));
const TR_STORE: TiledCopy = ok(make_tiled_copy(
    CopyAtom::new(CopyOp::Vec128, 4),
    &TrStoreThr::VALUE,
    &TrVal::VALUE,
));
const TR_LOAD_TV: FlatLayout = FlatLayout::of(&ok(TR_LOAD.layout_tv_atoms()));
const TR_STORE_TV: FlatLayout = FlatLayout::of(&ok(TR_STORE.layout_tv_atoms()));

/// Legality of a swizzled smem tile for 16-byte vectors: the swizzle keeps the low 2 bits of the
/// f32 offset (`MBase >= 2`), stays inside the tile, and the unswizzled layout is legal.
const fn check_swizzled<Sw: StaticSwizzle>() {
    if Sw::SW.bits > 0 && Sw::SW.base < 2 {
        Error::with2(
            "swizzled smem: a 16-byte f32 vector needs MBase >= 2 (MBase, 2)",
            Sw::SW.base as i64,
            2,
        )
        .panic();
    }
    ok(SwizzledLayout::<Sw, TrTile>::check_in_span());
    ok(check_tiled_vector(&TR_LOAD, &TrTile::VALUE));
}

#[inline(always)]
unsafe fn transpose<Sw: StaticSwizzle>(
    a: *const f32,
    b: *mut f32,
    m: i64,
    n: i64,
    lda: i64,
    ldb: i64,
) {
    const { check_swizzled::<Sw>() };
    type S<Sw> = SwizzledLayout<Sw, TrTile>;
    let tid = thread_idx_x() as i64;
    let smem = dynamic_shared_mem::<Float4>() as *mut f32;
    let (m0, n0) = (block_idx_x() as i64 * 64, block_idx_y() as i64 * 64);
    // A tile (m, n) -> smem, 128-bit along n.
    let mut rm = 0;
    while rm < 64 / 16 {
        let idx = TR_LOAD_TV.crd(&[tid, 0]);
        let (mi, ni) = (idx % 16 + rm * 16, idx / 16);
        let (gm, gn) = (m0 + mi, n0 + ni);
        let so = S::<Sw>::crd(&[mi, ni]);
        if gm < m && gn < n {
            unsafe {
                let g = a.add((gm * lda + gn) as usize);
                if gn + 4 <= n {
                    st_shared_v4_f32(
                        to_shared_addr(smem.add(so as usize)),
                        ld_global_v4_f32(g as *const Float4),
                    );
                } else {
                    let mut k = 0;
                    while k < 4 {
                        if gn + k < n {
                            *smem.add(S::<Sw>::crd(&[mi, ni + k]) as usize) = *g.add(k as usize);
                        }
                        k += 1;
                    }
                }
            }
        }
        rm += 1;
    }
    sync_threads();
    // smem -> B tile (n, m) = A tileᵀ, 128-bit along m (4 scalar smem reads each).
    let mut rn = 0;
    while rn < 64 / 16 {
        let idx = TR_STORE_TV.crd(&[tid, 0]);
        let (ni, mi) = (idx % 16 + rn * 16, idx / 16);
        let (gn, gm) = (n0 + ni, m0 + mi);
        if gn < n && gm < m {
            let mut v = [0f32; 4];
            let mut k = 0;
            while k < 4 {
                v[k as usize] = unsafe { *smem.add(S::<Sw>::crd(&[mi + k, ni]) as usize) };
                k += 1;
            }
            unsafe {
                let g = b.add((gn * ldb + gm) as usize);
                if gm + 4 <= m {
                    st_global_v4_f32(
                        g as *mut Float4,
                        Float4 {
                            x: v[0],
                            y: v[1],
                            z: v[2],
                            w: v[3],
                        },
                    );
                } else {
                    let mut k = 0;
                    while k < 4 {
                        if gm + k < m {
                            *g.add(k as usize) = v[k as usize];
                        }
                        k += 1;
                    }
                }
            }
        }
        rn += 1;
    }
}

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
    const { check_banks::<Swizzle<3, 2, 6>>() };
    unsafe { transpose::<Swizzle<3, 2, 6>>(a, b, m, n, lda, ldb) }
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
    unsafe { transpose::<Swizzle<0, 4, 3>>(a, b, m, n, lda, ldb) }
}
}
