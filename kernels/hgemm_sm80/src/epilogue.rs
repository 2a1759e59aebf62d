//! The epilogue: a thread's accumulators to C (column-major, `(M,N):(1,ldc)`), `alpha·acc +
//! beta·C` rounded to C's element, C not read when `beta = 0`, one bound check per element.
//! Which element each accumulator is comes from the TiledMMA (`partition_c` of C's tile and of
//! its row and column coordinates), so nothing here knows the MMA's thread layout.
//!
//! Two paths: a tile wholly inside C with `beta = 0` (every CTA of the common problem) stores
//! straight from the registers, C's element chosen once, no bound checks — a 16-bit C through
//! two warp-shuffle exchanges per m16n8 atom, so that a lane stores 4 consecutive rows of a
//! column with one 8-byte `st.global` ([`Tile::store_shuffled`]; where C's address or column
//! stride does not allow that alignment, the second path) —; every other tile (C's edges, or C
//! read) goes through shared memory ([`Staging`]): the accumulators to an f32 tile of C, then
//! one loop in which a warp writes a column, 4 consecutive rows a lane, each element checked.
//! The second path is a loop instead of 128 unrolled values per element type and `beta` (the
//! module's PTX was 90 % epilogue, 5 MB for the 8 entries: ptxas and the driver's JIT took ~40 s
//! for it).

use layout_types::cute::atom::copy::TileLayout;
use layout_types::cute::atom::mma::{bfloat16_t, half_t};
use layout_types::cute::prelude::*;
use layout_types::cute::swizzle::{Swizzled, make_composed_layout};
use layout_types::value::swizzle::Swizzle;

use super::config::{OUT_BF16, OUT_F32, SMEM_BYTES, THREADS, TILE};

/// An element C may have: f32, `bfloat16_t` or `half_t`.
pub trait OutElem: Copy {
    /// Rounded to nearest even.
    fn from_f32(x: f32) -> Self;
    /// Exact.
    fn to_f32(self) -> f32;
    /// The bytes of 4 consecutive elements: the alignment of a lane's store in
    /// [`Tile::store_shuffled`] (16-bit C).
    const VEC_BYTES: u64 = 4 * core::mem::size_of::<Self>() as u64;
    /// Two values rounded and packed, the first in the low half (16-bit elements).
    #[inline(always)]
    fn pair(_: f32, _: f32) -> u32 {
        0
    }
}

impl OutElem for f32 {
    #[inline(always)]
    fn from_f32(x: f32) -> f32 {
        x
    }
    #[inline(always)]
    fn to_f32(self) -> f32 {
        self
    }
}

impl OutElem for bfloat16_t {
    /// `cvt.rn.bf16x2.f32`.
    #[inline(always)]
    fn from_f32(x: f32) -> bfloat16_t {
        bfloat16_t(device::mma::pack_bf16x2(x, 0.0) as u16)
    }
    #[inline(always)]
    fn to_f32(self) -> f32 {
        bfloat16_t::to_f32(self)
    }
    #[inline(always)]
    fn pair(x: f32, y: f32) -> u32 {
        device::mma::pack_bf16x2(x, y)
    }
}

impl OutElem for half_t {
    /// `cvt.rn.f16x2.f32`.
    #[inline(always)]
    fn from_f32(x: f32) -> half_t {
        half_t(device::mma::pack_f16x2(x, 0.0) as u16)
    }
    /// binary16 → binary32 (exact: normal, subnormal, infinite and NaN values).
    #[inline(always)]
    fn to_f32(self) -> f32 {
        let h = u32::from(self.0);
        let sign = (h & 0x8000) << 16;
        let (exp, man) = ((h >> 10) & 0x1f, h & 0x3ff);
        let mag = if exp == 0x1f {
            f32::from_bits(0x7f80_0000 | (man << 13))
        } else if exp == 0 {
            man as f32 * f32::from_bits(0x3380_0000) // 2^-24
        } else {
            f32::from_bits(((exp + 112) << 23) | (man << 13))
        };
        f32::from_bits(mag.to_bits() | sign)
    }
    #[inline(always)]
    fn pair(x: f32, y: f32) -> u32 {
        device::mma::pack_f16x2(x, y)
    }
}

/// The CTA's tile of C and the scalars of the epilogue.
#[derive(Clone, Copy)]
pub struct Tile {
    /// C's device address.
    pub c: u64,
    /// C's leading dimension.
    pub ldc: i64,
    /// The tile's first row and column.
    pub origin: (i32, i32),
    /// C's extents `(M, N)`.
    pub bounds: (i32, i32),
    /// Scale of the product.
    pub alpha: f32,
    /// Scale of C.
    pub beta: f32,
}

/// The CTA's shared memory as an f32 tile of C for the staged path: `(128, TILE.1)`
/// column-major, `Swizzle<3,2,5>` (chunk of 4 rows `r/4` of column `c` at `r/4 ^ (c % 8)` of its
/// 8-chunk group): the accumulators' stores (a warp: 8 rows × 4 columns, or their odd columns)
/// meet 32 different banks, and each lane's 4 rows stay one aligned 16-byte vector.
pub type SC = Swizzled<Swizzle<3, 2, 5>, Layout<(_128, _128), (_1, _128)>>;

/// The staged path's shared memory (the mainloop's stages, free after it) and this thread.
#[derive(Clone, Copy)]
pub struct Staging {
    /// The CTA's dynamic shared memory.
    pub smem: *mut f32,
    /// `threadIdx.x`.
    pub tid: u32,
}

// the f32 tile fits in the stages' shared memory, a warp's lanes (4 rows each) cover a column,
// and the staged loop's (lane, warp) layouts are of 4 warps
const _: () = {
    assert!(TILE.0 == 128 && TILE.1 == 128 && TILE.0 * TILE.1 * 4 <= SMEM_BYTES);
    assert!(THREADS == 128);
};

/// Four f32 of one aligned 16-byte chunk (one `ld.shared.v4`).
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct F4([f32; 4]);

impl Tile {
    /// Stores the thread's `N` accumulators as C's element `out` (`OUT_F32`, `OUT_BF16`,
    /// `OUT_F16`): `at(i)` is value `i` of the fragment and the element of C it belongs to,
    /// `(value, offset from the tile's origin in C, row, column in the tile)`. Each path reads each
    /// value once (4 · 128 reads of the register array in all: LLVM's SROA splits it into
    /// registers up to 1024).
    ///
    /// Every thread of the CTA calls it (the staged path synchronizes the CTA), after the
    /// mainloop's last `cp.async` completed (`wait_group 0`; with the candidate
    /// `hgemm-sm80-latewait` it waits here: after a whole tile's stores, before the staged path
    /// writes shared memory).
    ///
    /// # Safety
    /// `c` holds `(M, N)` with leading dimension `ldc` of the element `out` names; `st` is the
    /// CTA's shared memory, at least `TILE.0 · TILE.1` f32.
    #[inline(always)]
    pub unsafe fn store<const N: usize>(
        &self,
        out: u32,
        at: impl Fn(usize) -> (f32, i64, i32, i32),
        st: Staging,
    ) {
        let (rows, cols) = (self.bounds.0 - self.origin.0, self.bounds.1 - self.origin.1);
        let whole = rows >= TILE.0 as i32 && cols >= TILE.1 as i32 && self.beta == 0.0;
        // a whole tile's 16-bit C goes from the registers through warp shuffles where its 8-byte
        // stores are aligned (C's address and column stride), else the staged path
        let registers = match out {
            OUT_F32 => true,
            OUT_BF16 => self.vector::<bfloat16_t>((rows, cols)),
            _ => self.vector::<half_t>((rows, cols)),
        };
        if whole && registers {
            // the whole tile inside C, C not read: no bound checks, C's element chosen once
            // (SAFETY: the caller's contract)
            unsafe {
                match out {
                    OUT_F32 => self.store_all::<f32, N>(&at),
                    OUT_BF16 => self.store_shuffled::<bfloat16_t, N>(&at),
                    _ => self.store_shuffled::<half_t, N>(&at),
                }
            }
            if cfg!(feature = "hgemm-sm80-latewait") {
                device::cp_async::cp_async_wait::<0>();
            }
            return;
        }
        if cfg!(feature = "hgemm-sm80-latewait") {
            device::cp_async::cp_async_wait::<0>();
        }
        // C's edges or C read: the accumulators to the f32 tile (after every warp's last reads of
        // the stages), then the columns from it
        let s_c: SC =
            make_composed_layout(Swizzle::<3, 2, 5>, make_layout((_128, _128), (_1, _128)));
        device::thread::sync_threads();
        // the values in groups of 4 (one m16n8 atom's accumulators each)
        device::unroll!(
            N / 4,
            #[inline(always)]
            |atom: usize| {
                device::unroll!(
                    4,
                    #[inline(always)]
                    |v: usize| {
                        let (acc, _, r, c) = at(4 * atom + v);
                        // SAFETY: (r, c) is inside the tile, which fits the shared memory
                        // (asserted).
                        unsafe { st.smem.add(s_c.eval((r, c)).value() as usize).write(acc) };
                    }
                );
            }
        );
        device::thread::sync_threads();
        // SAFETY: the caller's contract.
        unsafe {
            match out {
                OUT_F32 => self.store_staged::<f32>(&s_c, st, (rows, cols)),
                OUT_BF16 => self.store_staged::<bfloat16_t>(&s_c, st, (rows, cols)),
                _ => self.store_staged::<half_t>(&s_c, st, (rows, cols)),
            }
        }
    }

    /// Whether a lane's 4 consecutive rows of a column may go out as one vector
    /// ([`Tile::store_shuffled`]): the tile inside C, C not read, and C's address and column
    /// stride multiples of the vector (rows `4i` of the tile are then aligned: the tile's first
    /// row is a multiple of 128).
    #[inline(always)]
    fn vector<O: OutElem>(&self, (rows, cols): (i32, i32)) -> bool {
        let stride = self.ldc as u64 * core::mem::size_of::<O>() as u64;
        rows >= TILE.0 as i32
            && cols >= TILE.1 as i32
            && self.beta == 0.0
            && (self.c | stride).is_multiple_of(O::VEC_BYTES)
    }

    /// The staged path's loop: lane `l` of warp `w` reads rows `4l..4l+4` of columns `w`,
    /// `w + THREADS/32`, ... of the f32 tile (one 16-byte vector each) and stores those inside
    /// C's `(rows, cols)` from the tile's origin.
    ///
    /// # Safety
    /// As [`Tile::store`], the f32 tile written and visible to the CTA.
    #[inline(always)]
    unsafe fn store_staged<O: OutElem>(&self, s_c: &SC, st: Staging, (rows, cols): (i32, i32)) {
        const WARPS: i32 = THREADS as i32 / 32;
        // (lane, warp) -> the first row, the first column
        let row0 = make_layout((_32, _4), (_4, _0)).call(st.tid as i32);
        let col0 = make_layout((_32, _4), (_0, _1)).call(st.tid as i32);
        let mut c = col0;
        while c < TILE.1 as i32 {
            // SAFETY: the swizzle keeps 4-row groups whole, so the 4 values are one aligned
            // 16-byte chunk of the tile
            let v =
                unsafe { (st.smem.add(s_c.eval((row0, c)).value() as usize) as *const F4).read() };
            device::unroll!(
                4,
                #[inline(always)]
                |j: usize| {
                    let r = row0 + j as i32;
                    if r < rows && c < cols {
                        // SAFETY: (r, c) is inside C (the caller's contract).
                        unsafe { self.store_one::<O>(r as i64 + c as i64 * self.ldc, v.0[j]) };
                    }
                }
            );
            c += WARPS;
        }
    }

    /// The `N` values of a tile inside C, each `alpha·acc` (C not read: `beta = 0`).
    ///
    /// # Safety
    /// The tile lies inside C, of element `O`.
    #[inline(always)]
    unsafe fn store_all<O: OutElem, const N: usize>(
        &self,
        at: &impl Fn(usize) -> (f32, i64, i32, i32),
    ) {
        device::unroll!(
            N / 4,
            #[inline(always)]
            |atom: usize| {
                device::unroll!(
                    4,
                    #[inline(always)]
                    |v: usize| {
                        let (acc, off, _, _) = at(4 * atom + v);
                        // SAFETY: the caller's contract.
                        unsafe { self.at::<O>(off).write(O::from_f32(self.alpha * acc)) };
                    }
                );
            }
        );
    }

    /// The `N` values of a tile inside C, each `alpha·acc` (C not read: `beta = 0`), 16-bit C,
    /// from the registers in 8-byte stores: per m16n8 atom two warp-shuffle exchanges turn the accumulator layout (lane `4g + t`: rows `g`, `g + 8` of
    /// columns `2t`, `2t + 1`) into 4 consecutive rows of one column a lane, so that a warp's
    /// store covers the atom's 16 rows × 8 columns as 8 whole 32-byte sectors (128 two-byte
    /// stores a thread become 32 of 8 bytes, without the staged path's barrier and shared memory;
    /// at 2048³ on the H200 +8 % over the 2-byte stores, doc/ampere-gemm.md round 11).
    ///
    /// With `g = 4 g2 + 2 e1 + e0`: the first exchange (lanes `g ^ 1`, xor 4) gives the lane rows
    /// `g − e0, g − e0 + 1` and `+ 8` of column `2t + e0`; the second (lanes `g ^ 2`, xor 8) rows
    /// `4 g2 + 8 e1 ..+ 4` of it.
    ///
    /// # Safety
    /// The tile lies inside C, of element `O`; C's address and column stride are multiples of
    /// 8 bytes ([`Tile::vector`]); every lane of the warp calls it (convergent).
    #[inline(always)]
    unsafe fn store_shuffled<O: OutElem, const N: usize>(
        &self,
        at: &impl Fn(usize) -> (f32, i64, i32, i32),
    ) {
        use device::math::prmt;
        use device::vec::{U32x2, st_global_v2_u32};
        use device::warp::{FULL_MASK, shuffle_xor_u32};
        let lane = device::thread::lane_id() as i32;
        // the lane as (t, e0, e1, g2): its roles in the exchanges
        let lanes = (_4, _2, _2, _2);
        let e0 = make_layout(lanes, (_0, _1, _0, _0)).call(lane) != 0;
        let e1 = make_layout(lanes, (_0, _0, _1, _0)).call(lane) != 0;
        // value 0's element in its atom (row g, column 2t) and the lane's first element after the
        // exchanges (row 4 g2 + 8 e1, column 2t + e0), as offsets in C
        let own = make_layout((_4, _8), (2 * self.ldc, _1)).call(lane) as i64;
        let post = make_layout(lanes, (2 * self.ldc, self.ldc, _8, _4)).call(lane) as i64;
        // `prmt` selectors (bytes 0-3 the first operand's, 4-7 the second's): the pair sent and the
        // pair kept by the first exchange (column 2t+1 or 2t, rows g and g + 8), the row pairs it
        // makes (`p1`: rows g − e0, +1; `p2`: 8 rows below), and which of those the second one sends
        let (send1, keep1) = if e0 {
            (0x3210, 0x7654)
        } else {
            (0x7654, 0x3210)
        };
        let (p1, p2) = if e0 {
            (0x1054, 0x3276)
        } else {
            (0x5410, 0x7632)
        };
        let (send2, keep2) = if e1 { (p1, p2) } else { (p2, p1) };
        device::unroll!(
            N / 4,
            #[inline(always)]
            |atom: usize| {
                let v = |i: usize| self.alpha * at(4 * atom + i).0;
                let off = at(4 * atom).1;
                // column 2t (rows g, g + 8) and column 2t + 1
                let (ca, cb) = (O::pair(v(0), v(2)), O::pair(v(1), v(3)));
                // SAFETY: the whole warp runs the epilogue (the caller's contract).
                let r = unsafe { shuffle_xor_u32(FULL_MASK, prmt(ca, cb, send1), 4) };
                let kept = prmt(ca, cb, keep1);
                let (q, k) = (prmt(kept, r, send2), prmt(kept, r, keep2));
                // SAFETY: as above.
                let r = unsafe { shuffle_xor_u32(FULL_MASK, q, 8) };
                let w = if e1 { [r, k] } else { [k, r] };
                // SAFETY: the 4 rows lie inside C (the caller's contract), their first a multiple
                // of 4, so with C's address and stride the store is 8-byte aligned.
                unsafe { st_global_v2_u32(self.at::<O>(off - own + post) as *mut U32x2, U32x2(w)) };
            }
        );
    }

    /// The element of C at `off` from the tile's origin.
    #[inline(always)]
    fn at<O>(&self, off: i64) -> *mut O {
        (self.c as *mut O).wrapping_offset(
            (self.origin.0 as i64 + self.origin.1 as i64 * self.ldc + off) as isize,
        )
    }

    /// `C(off) = alpha·acc + beta·C(off)` (C not read when `beta = 0`), `off` from the tile's
    /// origin.
    ///
    /// # Safety
    /// The element is inside C, of type `O`.
    #[inline(always)]
    unsafe fn store_one<O: OutElem>(&self, off: i64, acc: f32) {
        let p = self.at::<O>(off);
        let mut x = self.alpha * acc;
        if self.beta != 0.0 {
            // SAFETY: the caller's contract.
            x += self.beta * unsafe { p.read() }.to_f32();
        }
        // SAFETY: as above.
        unsafe { p.write(O::from_f32(x)) };
    }
}
