//! The epilogue: a thread's accumulators to C (column-major, `(M,N):(1,ldc)`), `alpha·acc +
//! beta·C` rounded to C's element, C not read when `beta = 0`, one bound check per element.
//! Which element each accumulator is comes from the TiledMMA (`partition_c` of C's tile and of
//! its row and column coordinates), so nothing here knows the MMA's thread layout.

use layout_types::cute::mma::{bfloat16_t, half_t};

use super::config::{OUT_BF16, OUT_F32, TILE};

/// An element C may have: f32, `bfloat16_t` or `half_t`.
pub trait OutElem: Copy {
    /// Rounded to nearest even.
    fn from_f32(x: f32) -> Self;
    /// Exact.
    fn to_f32(self) -> f32;
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

impl Tile {
    /// Stores the thread's `N` accumulators as C's element `out` (`OUT_F32`, `OUT_BF16`,
    /// `OUT_F16`): `at(i)` is value `i` of the fragment and the element of C it belongs to,
    /// `(value, offset from the tile's origin in C, row, column in the tile)`. Each value is read
    /// once (the element is chosen per value: a register array read once per element type would
    /// exceed what LLVM's SROA splits into registers, 1024 accesses).
    ///
    /// # Safety
    /// `c` holds `(M, N)` with leading dimension `ldc` of the element `out` names.
    #[inline(always)]
    pub unsafe fn store<const N: usize>(
        &self,
        out: u32,
        at: impl Fn(usize) -> (f32, i64, i32, i32),
    ) {
        let (rows, cols) = (self.bounds.0 - self.origin.0, self.bounds.1 - self.origin.1);
        if rows >= TILE.0 as i32 && cols >= TILE.1 as i32 {
            // the whole tile inside C: no bound checks, C's element and whether C is read chosen
            // once (SAFETY: the caller's contract)
            unsafe {
                match out {
                    OUT_F32 => self.store_whole::<f32, N>(&at),
                    OUT_BF16 => self.store_whole::<bfloat16_t, N>(&at),
                    _ => self.store_whole::<half_t, N>(&at),
                }
            }
            return;
        }
        // the values in groups of 4 (one m16n8 atom's accumulators each)
        device::unroll!(
            N / 4,
            #[inline(always)]
            |atom: usize| {
                device::unroll!(
                    4,
                    #[inline(always)]
                    |v: usize| {
                        let (acc, off, r, c) = at(4 * atom + v);
                        if r < rows && c < cols {
                            // SAFETY: (r, c) is inside C (the caller's contract).
                            unsafe {
                                match out {
                                    OUT_F32 => self.store_one::<f32>(off, acc),
                                    OUT_BF16 => self.store_one::<bfloat16_t>(off, acc),
                                    _ => self.store_one::<half_t>(off, acc),
                                }
                            }
                        }
                    }
                );
            }
        );
    }

    /// [`Tile::store`] of a tile wholly inside C, of element `O`: C read (`beta ≠ 0`) or not,
    /// chosen once.
    ///
    /// # Safety
    /// The tile lies inside C, of type `O`.
    #[inline(always)]
    unsafe fn store_whole<O: OutElem, const N: usize>(
        &self,
        at: &impl Fn(usize) -> (f32, i64, i32, i32),
    ) {
        // SAFETY: the caller's contract.
        unsafe {
            if self.beta == 0.0 {
                self.store_all::<O, N, false>(at)
            } else {
                self.store_all::<O, N, true>(at)
            }
        }
    }

    /// The `N` values of a tile inside C, each `alpha·acc` (+ `beta·C` when `READ_C`).
    ///
    /// # Safety
    /// As [`Tile::store_whole`].
    #[inline(always)]
    unsafe fn store_all<O: OutElem, const N: usize, const READ_C: bool>(
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
                        unsafe {
                            if READ_C {
                                self.store_one::<O>(off, acc)
                            } else {
                                self.at::<O>(off).write(O::from_f32(self.alpha * acc))
                            }
                        }
                    }
                );
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
