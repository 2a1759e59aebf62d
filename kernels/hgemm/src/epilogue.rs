//! The epilogue: a warpgroup's 64×256 fp32 accumulators to C, `alpha·acc + beta·C` (C is not
//! read when `beta == 0`), stored as f32, bf16 or f16 with a bound check per element.

use layout_types::cute::prelude::*;

/// An element type C may have.
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

/// bfloat16 bits.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub struct Bf16Bits(pub u16);

impl OutElem for Bf16Bits {
    /// Round to nearest even; NaN stays NaN (quiet).
    ///
    /// ```
    /// use kernels_emu::hgemm_epilogue::{Bf16Bits, OutElem};
    /// assert_eq!(Bf16Bits::from_f32(1.0).0, 0x3f80);
    /// assert_eq!(Bf16Bits::from_f32(f32::from_bits(0x3f80_8000)).0, 0x3f80); // tie to even
    /// assert_eq!(Bf16Bits::from_f32(f32::from_bits(0x3f81_8000)).0, 0x3f82);
    /// assert!(Bf16Bits::from_f32(f32::NAN).to_f32().is_nan());
    /// ```
    #[inline(always)]
    fn from_f32(x: f32) -> Bf16Bits {
        let b = x.to_bits();
        if x.is_nan() {
            return Bf16Bits(((b >> 16) | 0x40) as u16);
        }
        Bf16Bits(((b + 0x7fff + ((b >> 16) & 1)) >> 16) as u16)
    }
    #[inline(always)]
    fn to_f32(self) -> f32 {
        f32::from_bits(u32::from(self.0) << 16)
    }
}

/// IEEE binary16 bits.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub struct F16Bits(pub u16);

impl OutElem for F16Bits {
    /// `cvt.rn.f16.f32`.
    ///
    /// ```
    /// use kernels_emu::hgemm_epilogue::{F16Bits, OutElem};
    /// assert_eq!(F16Bits::from_f32(1.0).0, 0x3c00);
    /// assert_eq!(F16Bits::from_f32(-2.5).to_f32(), -2.5);
    /// assert_eq!(F16Bits::from_f32(65520.0).0, 0x7c00); // rounds to infinity
    /// assert_eq!(F16Bits(0x0001).to_f32(), 2f32.powi(-24)); // subnormal
    /// ```
    #[inline(always)]
    fn from_f32(x: f32) -> F16Bits {
        F16Bits(device::mma::pack_f16x2(x, 0.0) as u16)
    }
    #[inline(always)]
    fn to_f32(self) -> f32 {
        let h = u32::from(self.0);
        let sign = (h & 0x8000) << 16;
        let exp = (h >> 10) & 0x1f;
        let man = h & 0x3ff;
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

/// The `(thread, value)` layouts of the accumulator: `((4,8,4),(2,2,32))` with i32 strides.
type AccLayout = Layout<((i32, i32, i32), (i32, i32, i32)), ((i32, i32, i32), (i32, i32, i32))>;

/// `((4,8,4),(2,2,32)) → row` of the `m64n256k16` accumulator (CuTe's `CLayout_64x256`,
/// `(t,v) → m + 64·n` with strides `((128,1,16),(64,8,512))`), split into its row part.
#[inline(always)]
fn acc_row() -> AccLayout {
    make_layout(((4, 8, 4), (2, 2, 32)), ((0, 1, 16), (0, 8, 0)))
}
/// The column part of the same layout.
#[inline(always)]
fn acc_col() -> AccLayout {
    make_layout(((4, 8, 4), (2, 2, 32)), ((2, 0, 0), (1, 0, 8)))
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn store_as<T: OutElem>(
    acc: &[f32; 128],
    c: *mut T,
    ldc: i64,
    (m, n): (i32, i32),
    (r0, c0): (i32, i32),
    alpha: f32,
    beta: f32,
    t: i32,
) {
    let g = make_tensor(make_gmem_ptr(c), make_layout((m, n), (_1, ldc))); // (M,N)
    let (rows, cols) = (acc_row(), acc_col());
    let read_c = beta != 0.0;
    device::unroll!(32, |j| device::unroll!(4, |q| {
        let v = 4 * j + q;
        let (r, col) = (
            r0 + rows.crd2idx((t, v as i32)),
            c0 + cols.crd2idx((t, v as i32)),
        );
        if r < m && col < n {
            let mut x = alpha * acc[v];
            if read_c {
                x += beta * unsafe { g.read((r, col)) }.to_f32();
            }
            unsafe { g.write((r, col), T::from_f32(x)) };
        }
    }));
}

/// Stores the warpgroup's tile at `(r0, c0)` of the `(m, n)` C: `out` 0 f32, 1 bf16, 2 f16.
///
/// # Safety
/// `c` holds `(m, n)` with leading dimension `ldc` of that element; `t` is the thread's index in
/// its warpgroup.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub unsafe fn store(
    acc: &[f32; 128],
    c: *mut u8,
    ldc: i64,
    out: u32,
    mn: (i32, i32),
    origin: (i32, i32),
    alpha: f32,
    beta: f32,
    t: i32,
) {
    unsafe {
        match out {
            0 => store_as::<f32>(acc, c as *mut f32, ldc, mn, origin, alpha, beta, t),
            1 => store_as::<Bf16Bits>(acc, c as *mut Bf16Bits, ldc, mn, origin, alpha, beta, t),
            _ => store_as::<F16Bits>(acc, c as *mut F16Bits, ldc, mn, origin, alpha, beta, t),
        }
    }
}
