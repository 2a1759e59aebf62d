//! Warp-level matrix ops (sm_80+): `ldmatrix` and `mma.sync`.
//!
//! Fragments are plain `u32` registers holding two packed `f16` each, and `f32`
//! accumulators, laid out as in the PTX ISA's "Matrix fragments for mma.m16n8k16".
//!
//! In the emulator these are exchanges among the warp's 32 threads (all must take part):
//! `ldmatrix` reads the rows the lanes' addresses name, `mma.sync` multiplies exactly (the
//! `f16` products are exact in `f64`) and rounds each result once to `f32`.

#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

// `ldmatrix` (CuTe's `cute/arch/copy_sm75.hpp`): the warp loads one, two or four 8×8 matrices of
// 16-bit elements from shared memory into registers, optionally transposed. These are the only
// `asm!` of `ldmatrix` in the project (the typed layer's `SM75_*_LDSM_*` atoms call them on the
// GPU); off it, the same functions run in the warp emulator.

/// The `asm!` of one `ldmatrix` (`$op`): lane registers `$r` out, this lane's row address in.
#[cfg(target_arch = "nvptx64")]
macro_rules! ldmatrix_asm {
    ($op:expr, $row_addr:expr, [$($r:ident)*]) => {{
        $(let $r: u32;)*
        // SAFETY: the caller's contract (all 32 lanes, a valid 16-byte aligned `.shared` row).
        unsafe {
            asm!(
                concat!($op, " {{", ldmatrix_asm!(@regs $($r)*), "}}, [{p}];"),
                p = in(reg32) $row_addr,
                $($r = out(reg32) $r,)*
                options(readonly, nostack, preserves_flags),
            )
        };
        [$($r),*]
    }};
    (@regs $first:ident $($r:ident)*) => {
        concat!("{", stringify!($first), "}" $(, ", {", stringify!($r), "}")*)
    };
}

/// Defines an `ldmatrix` of `$n` matrices (`$op`) as `$name(row_addr) -> [u32; $n]`; `$trans`:
/// the matrices are transposed on the way.
macro_rules! ldmatrix_n {
    ($(#[$doc:meta])* $name:ident, $n:literal, $op:literal, $trans:literal, [$($r:ident)*]) => {
        $(#[$doc])*
        #[inline(always)]
        pub unsafe fn $name(row_addr: u32) -> [u32; $n] {
            #[cfg(target_arch = "nvptx64")]
            {
                ldmatrix_asm!($op, row_addr, [$($r)*])
            }
            #[cfg(not(target_arch = "nvptx64"))]
            {
                emu_ldmatrix($op, row_addr, $trans)
            }
        }
    };
}

ldmatrix_n!(
    /// `ldmatrix.sync.aligned.m8n8.x4.shared.b16`: the warp loads four 8×8 `b16`
    /// matrices; lane `l` gives the row address for matrix `l / 8`, row `l % 8`
    /// (16 contiguous bytes, 16-byte aligned). Returns this lane's 4 registers, one per
    /// matrix: lane `l` holds row `l / 4`, elements `2*(l % 4)` and `+1`.
    ///
    /// ```
    /// use device::{emu::launch, mma::ldmatrix_x4, shared::*, thread::*};
    /// let mut out = [[0u32; 4]; 32];
    /// let p = out.as_mut_ptr() as usize;
    /// // SAFETY: the full warp; 512 bytes of shared memory hold four 8x8 b16 matrices, element
    /// // (q, row, col) = 64q + 8row + col; each lane writes its own registers to `out`.
    /// unsafe {
    ///     launch((1, 1, 1), (32, 1, 1), 512, || {
    ///         let s = dynamic_shared_mem::<u16>();
    ///         let l = lane_id();
    ///         for i in 0..8 {
    ///             *s.add((8 * l + i) as usize) = (8 * l + i) as u16;
    ///         }
    ///         sync_threads();
    ///         let row = to_shared_addr(s) + (l / 8) * 128 + (l % 8) * 16;
    ///         *(p as *mut [u32; 4]).add(l as usize) = ldmatrix_x4(row);
    ///     })
    /// };
    /// // lane 5, matrix 2: row 1, columns 2 and 3 (low half first)
    /// assert_eq!(out[5][2], (139 << 16) | 138);
    /// ```
    ///
    /// # Safety
    /// Executed by all 32 lanes (convergent); `row_addr` a valid `.shared` address.
    ldmatrix_x4, 4, "ldmatrix.sync.aligned.m8n8.x4.shared.b16", false, [a b c d]
);
ldmatrix_n!(
    /// `ldmatrix.sync.aligned.m8n8.x2.shared.b16`: as [`ldmatrix_x4`] with two matrices
    /// (lanes 0..16 give the row addresses).
    ///
    /// # Safety
    /// As [`ldmatrix_x4`].
    ldmatrix_x2, 2, "ldmatrix.sync.aligned.m8n8.x2.shared.b16", false, [a b]
);
ldmatrix_n!(
    /// `ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16`: as [`ldmatrix_x2`], each 8×8
    /// matrix transposed on the way (row-major smem → "col" B fragment).
    ///
    /// # Safety
    /// As [`ldmatrix_x4`].
    ldmatrix_x2_trans, 2, "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16", true, [a b]
);
ldmatrix_n!(
    /// `ldmatrix.sync.aligned.m8n8.x1.shared.b16`: one 8×8 `b16` matrix, lanes 0..8 give the row
    /// addresses; lane `l` receives row `l / 4`, elements `2*(l % 4)` and `+1` (CuTe's
    /// `SM75_U32x1_LDSM_N`).
    ///
    /// # Safety
    /// As [`ldmatrix_x4`].
    ldmatrix_x1, 1, "ldmatrix.sync.aligned.m8n8.x1.shared.b16", false, [a]
);
ldmatrix_n!(
    /// `ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16`: as [`ldmatrix_x1`], the matrix
    /// transposed on the way (CuTe's `SM75_U16x2_LDSM_T`).
    ///
    /// # Safety
    /// As [`ldmatrix_x4`].
    ldmatrix_x1_trans, 1, "ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16", true, [a]
);
ldmatrix_n!(
    /// `ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16`: as [`ldmatrix_x4`], each matrix
    /// transposed on the way (CuTe's `SM75_U16x8_LDSM_T`).
    ///
    /// # Safety
    /// As [`ldmatrix_x4`].
    ldmatrix_x4_trans, 4, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16", true, [a b c d]
);

/// The emulator's `ldmatrix`: a warp exchange of the lanes' row addresses, then each lane's `N`
/// words (`trans`: transposed matrices).
#[cfg(not(target_arch = "nvptx64"))]
fn emu_ldmatrix<const N: usize>(op: &'static str, row_addr: u32, trans: bool) -> [u32; N] {
    crate::emu::warp_exchange(
        op,
        u32::MAX,
        [row_addr, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        |lane, all| core::array::from_fn(|q| crate::emu::ldmatrix_word(op, all, q, lane, trans)),
    )
}

/// The body of the m16n8k16 `mma.sync` wrappers with f32 accumulators, for A and B of element
/// `$ab` (`"f16"`, `"bf16"`): the instruction on the GPU, the emulator's `$emu` elsewhere.
macro_rules! mma_m16n8k16_f32 {
    ($ab:literal, $emu:path, $a:ident, $b:ident, $c:ident) => {{
        let (a, b, c) = ($a, $b, $c);
        #[cfg(target_arch = "nvptx64")]
        {
            let (d0, d1, d2, d3): (f32, f32, f32, f32);
            unsafe {
                asm!(
                    concat!("mma.sync.aligned.m16n8k16.row.col.f32.", $ab, ".", $ab, ".f32 {{{d0}, {d1}, {d2}, {d3}}}, {{{a0}, {a1}, {a2}, {a3}}}, {{{b0}, {b1}}}, {{{c0}, {c1}, {c2}, {c3}}};"),
                    a0 = in(reg32) a[0], a1 = in(reg32) a[1], a2 = in(reg32) a[2], a3 = in(reg32) a[3],
                    b0 = in(reg32) b[0], b1 = in(reg32) b[1],
                    c0 = in(reg32) c[0], c1 = in(reg32) c[1], c2 = in(reg32) c[2], c3 = in(reg32) c[3],
                    d0 = out(reg32) d0, d1 = out(reg32) d1, d2 = out(reg32) d2, d3 = out(reg32) d3,
                    options(pure, nomem, nostack, preserves_flags),
                )
            };
            [d0, d1, d2, d3]
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            let c = c.map(f32::to_bits);
            let mine = [
                a[0], a[1], a[2], a[3], b[0], b[1], c[0], c[1], c[2], c[3], 0, 0,
            ];
            crate::emu::warp_exchange("mma.sync.aligned.m16n8k16", u32::MAX, mine, $emu)
        }
    }};
}

/// `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`: `D = A·B + C` for one warp,
/// A 16×16 (4 regs of packed f16), B 16×8 (2 regs), C/D 16×8 f32 (4 regs).
///
/// ```
/// use device::{emu::launch, mma::mma_m16n8k16_f16_f32, thread::lane_id};
/// let one = 0x3c00_3c00u32; // two f16 1.0
/// let mut out = [[0f32; 4]; 32];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: the full warp; each lane writes its own accumulators.
/// unsafe {
///     launch((1, 1, 1), (32, 1, 1), 0, || {
///         let d = mma_m16n8k16_f16_f32([one; 4], [one; 2], [1.0; 4]);
///         *(p as *mut [f32; 4]).add(lane_id() as usize) = d;
///     })
/// };
/// assert!(out.iter().all(|d| *d == [17.0; 4])); // 16 products of 1·1, plus C = 1
/// ```
///
/// # Safety
/// Executed by all 32 lanes (convergent).
#[inline(always)]
pub unsafe fn mma_m16n8k16_f16_f32(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
    mma_m16n8k16_f32!("f16", crate::emu::mma_m16n8k16, a, b, c)
}

/// `mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32`: as [`mma_m16n8k16_f16_f32`] with A and
/// B holding packed `bf16` pairs.
///
/// ```
/// use device::{emu::launch, mma::mma_m16n8k16_bf16_f32, thread::lane_id};
/// let one = 0x3f80_3f80u32; // two bf16 1.0
/// let mut out = [[0f32; 4]; 32];
/// let p = out.as_mut_ptr() as usize;
/// // SAFETY: the full warp; each lane writes its own accumulators.
/// unsafe {
///     launch((1, 1, 1), (32, 1, 1), 0, || {
///         let d = mma_m16n8k16_bf16_f32([one; 4], [one; 2], [0.5; 4]);
///         *(p as *mut [f32; 4]).add(lane_id() as usize) = d;
///     })
/// };
/// assert!(out.iter().all(|d| *d == [16.5; 4]));
/// ```
///
/// # Safety
/// Executed by all 32 lanes (convergent).
#[inline(always)]
pub unsafe fn mma_m16n8k16_bf16_f32(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
    mma_m16n8k16_f32!("bf16", crate::emu::mma_m16n8k16_bf16, a, b, c)
}

/// Defines an `stmatrix` of `$n` matrices (`$op`) as `$name(row_addr, regs)`.
macro_rules! stmatrix_n {
    ($(#[$doc:meta])* $name:ident, $n:literal, $op:literal, $trans:literal, [$($r:ident)*]) => {
        $(#[$doc])*
        #[inline(always)]
        pub unsafe fn $name(row_addr: u32, regs: [u32; $n]) {
            #[cfg(target_arch = "nvptx64")]
            {
                let [$($r),*] = regs;
                unsafe {
                    asm!(
                        concat!($op, " [{p}], {{", ldmatrix_asm!(@regs $($r)*), "}};"),
                        p = in(reg32) row_addr,
                        $($r = in(reg32) $r,)*
                        options(nostack, preserves_flags),
                    )
                };
            }
            #[cfg(not(target_arch = "nvptx64"))]
            {
                emu_stmatrix($op, row_addr, &regs, $trans)
            }
        }
    };
}

stmatrix_n!(
    /// `stmatrix.sync.aligned.m8n8.x1.shared.b16` (sm_90): the inverse of [`ldmatrix_x1`]: lane
    /// `l` holds row `l / 4`, elements `2*(l % 4)` and `+1` of one 8×8 `b16` matrix; lanes 0..8
    /// give the row addresses (16 contiguous bytes, 16-byte aligned). CuTe's `SM90_U32x1_STSM_N`.
    ///
    /// # Safety
    /// Executed by all 32 lanes (convergent); valid `.shared` row addresses.
    stmatrix_x1, 1, "stmatrix.sync.aligned.m8n8.x1.shared.b16", false, [a]
);
stmatrix_n!(
    /// `stmatrix.sync.aligned.m8n8.x2.shared.b16`: as [`stmatrix_x1`] with two matrices (lanes
    /// 0..16 give the row addresses; register `q` belongs to matrix `q`).
    ///
    /// # Safety
    /// As [`stmatrix_x1`].
    stmatrix_x2, 2, "stmatrix.sync.aligned.m8n8.x2.shared.b16", false, [a b]
);
stmatrix_n!(
    /// `stmatrix.sync.aligned.m8n8.x4.shared.b16`: as [`stmatrix_x1`] with four matrices (every
    /// lane gives a row address). CuTe's `SM90_U32x4_STSM_N`. The inverse of [`ldmatrix_x4`]
    /// (and `.trans` of `.trans`), on the emulator:
    ///
    /// ```
    /// use device::mma::*;
    /// device::kernel! {
    ///     /// One warp: stmatrix then ldmatrix of the same rows gives each lane its registers back.
    ///     pub unsafe fn round_trip(out: *mut u32) {
    ///         let l = device::thread::thread_idx_x();
    ///         let smem = device::shared::dynamic_shared_mem::<[u32; 4]>();
    ///         let row = device::shared::to_shared_addr(smem) + 16 * l; // matrix l/8, row l%8
    ///         let mine = [l, 100 + l, 200 + l, 300 + l];
    ///         unsafe { stmatrix_x4_trans(row, mine) };
    ///         let back = unsafe { ldmatrix_x4_trans(row) };
    ///         unsafe { *out.add(l as usize) = u32::from(back == mine) };
    ///     }
    /// }
    /// let mut ok = [0u32; 32];
    /// let p = ok.as_mut_ptr() as usize;
    /// // SAFETY: one warp, 512 bytes of shared memory, 32 outputs.
    /// unsafe { device::emu::launch((1, 1, 1), (32, 1, 1), 512, || round_trip(p as *mut u32)) };
    /// assert_eq!(ok, [1; 32]);
    /// ```
    ///
    /// # Safety
    /// As [`stmatrix_x1`].
    stmatrix_x4, 4, "stmatrix.sync.aligned.m8n8.x4.shared.b16", false, [a b c d]
);
stmatrix_n!(
    /// `stmatrix.sync.aligned.m8n8.x1.trans.shared.b16`: as [`stmatrix_x1`], the matrix
    /// transposed on the way (CuTe's `SM90_U16x2_STSM_T`).
    ///
    /// # Safety
    /// As [`stmatrix_x1`].
    stmatrix_x1_trans, 1, "stmatrix.sync.aligned.m8n8.x1.trans.shared.b16", true, [a]
);
stmatrix_n!(
    /// `stmatrix.sync.aligned.m8n8.x2.trans.shared.b16`: as [`stmatrix_x2`], transposed.
    ///
    /// # Safety
    /// As [`stmatrix_x1`].
    stmatrix_x2_trans, 2, "stmatrix.sync.aligned.m8n8.x2.trans.shared.b16", true, [a b]
);
stmatrix_n!(
    /// `stmatrix.sync.aligned.m8n8.x4.trans.shared.b16`: as [`stmatrix_x4`], transposed (CuTe's
    /// `SM90_U16x8_STSM_T`).
    ///
    /// # Safety
    /// As [`stmatrix_x1`].
    stmatrix_x4_trans, 4, "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16", true, [a b c d]
);

/// The emulator's `stmatrix`: a warp exchange of the lanes' row addresses and registers; lane
/// `8q + r` (q < N) then writes row `r` of matrix `q` (`trans`: column `r` of the fragment).
#[cfg(not(target_arch = "nvptx64"))]
fn emu_stmatrix<const N: usize>(op: &'static str, row_addr: u32, regs: &[u32; N], trans: bool) {
    let mut mine = [0u32; 12];
    mine[0] = row_addr;
    mine[1..=N].copy_from_slice(regs);
    crate::emu::warp_exchange(op, u32::MAX, mine, |lane, all| {
        let (q, r) = ((lane / 8) as usize, (lane % 8) as usize);
        if q >= N {
            return;
        }
        let addr = all[lane as usize][0];
        let p = crate::emu::shared_ptr(op, addr, 16, 16);
        let mut row = [0u16; 8];
        for (c, h) in row.iter_mut().enumerate() {
            // element (i, j) of matrix q is held by lane 4i + j/2, register q, half j%2
            let (i, j) = if trans { (c, r) } else { (r, c) };
            let w = all[4 * i + j / 2][1 + q];
            *h = (w >> (16 * (j % 2))) as u16;
        }
        // SAFETY: 16 bytes of shared memory, bounds and alignment checked.
        unsafe { core::ptr::copy_nonoverlapping(row.as_ptr() as *const u8, p, 16) };
    })
}

/// `cvt.rn.f16x2.f32`: `lo` and `hi` rounded to nearest-even f16 and packed into one register
/// (`lo` in bits 0..16), as an `stmatrix` or `mma` operand wants them (CuTe's epilogue
/// conversion `NumericArrayConverter<half_t, float, 2>`).
///
/// ```
/// let w = device::mma::pack_f16x2(1.0, -2.0);
/// assert_eq!(w, 0x3c00 | (0xc000 << 16));
/// assert_eq!(device::mma::pack_f16x2(65504.0, 1.0 / 3.0), 0x7bff | (0x3555 << 16));
/// ```
#[inline(always)]
pub fn pack_f16x2(lo: f32, hi: f32) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: u32;
        // SAFETY: a register conversion.
        unsafe {
            asm!("cvt.rn.f16x2.f32 {r}, {hi}, {lo};", r = out(reg32) r, hi = in(reg32) hi,
                 lo = in(reg32) lo, options(pure, nomem, nostack, preserves_flags))
        };
        r
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        u32::from(f32_to_f16_rn(lo)) | u32::from(f32_to_f16_rn(hi)) << 16
    }
}

/// `cvt.rn.bf16x2.f32`: `lo` and `hi` rounded to nearest-even bfloat16 and packed into one
/// register (`lo` in bits 0..16), as an `stmatrix` operand wants them (CuTe's epilogue
/// conversion `NumericArrayConverter<bfloat16_t, float, 2>`). NaN becomes the canonical NaN
/// `0x7fff`.
///
/// ```
/// let w = device::mma::pack_bf16x2(1.0, -2.0);
/// assert_eq!(w, 0x3f80 | (0xc000 << 16));
/// // ties to even: 1 + 2^-8 rounds down to 1, 1 + 3·2^-8 up to 1 + 2^-6
/// let t = device::mma::pack_bf16x2(f32::from_bits(0x3f80_8000), f32::from_bits(0x3f81_8000));
/// assert_eq!(t, 0x3f80 | (0x3f82 << 16));
/// assert_eq!(device::mma::pack_bf16x2(f32::NAN, f32::INFINITY), 0x7fff | (0x7f80 << 16));
/// ```
#[inline(always)]
pub fn pack_bf16x2(lo: f32, hi: f32) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: u32;
        // SAFETY: a register conversion.
        unsafe {
            asm!("cvt.rn.bf16x2.f32 {r}, {hi}, {lo};", r = out(reg32) r, hi = in(reg32) hi,
                 lo = in(reg32) lo, options(pure, nomem, nostack, preserves_flags))
        };
        r
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let rn = |x: f32| -> u32 {
            let b = x.to_bits();
            if x.is_nan() {
                0x7fff
            } else {
                (b + 0x7fff + ((b >> 16) & 1)) >> 16
            }
        };
        rn(lo) | rn(hi) << 16
    }
}

/// `cvt.f32.f16` of both halves of `w` (`lo` in bits 0..16): the inverse of [`pack_f16x2`]
/// (exact), as an epilogue reads a 16-bit C that `ldmatrix` gave it.
///
/// ```
/// use device::mma::{pack_f16x2, unpack_f16x2};
/// assert_eq!(unpack_f16x2(pack_f16x2(1.0, -2.5)), [1.0, -2.5]);
/// assert_eq!(unpack_f16x2(0x0001 | (0x7c00 << 16)), [2f32.powi(-24), f32::INFINITY]);
/// ```
#[inline(always)]
pub fn unpack_f16x2(w: u32) -> [f32; 2] {
    #[cfg(target_arch = "nvptx64")]
    {
        let (lo, hi): (f32, f32);
        // SAFETY: register conversions.
        unsafe {
            asm!("{{ .reg .b16 l, h; mov.b32 {{l, h}}, {w}; cvt.f32.f16 {lo}, l; cvt.f32.f16 {hi}, h; }}",
                 w = in(reg32) w, lo = out(reg32) lo, hi = out(reg32) hi,
                 options(pure, nomem, nostack, preserves_flags))
        };
        [lo, hi]
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let f = |h: u32| crate::emu::f16_bits_to_f32(h as u16);
        [f(w & 0xffff), f(w >> 16)]
    }
}

/// Both bfloat16 halves of `w` as f32 (`lo` in bits 0..16; exact: a bfloat16 is an f32's high
/// half): the inverse of [`pack_bf16x2`].
///
/// ```
/// use device::mma::{pack_bf16x2, unpack_bf16x2};
/// assert_eq!(unpack_bf16x2(pack_bf16x2(1.0, -2.5)), [1.0, -2.5]);
/// ```
#[inline(always)]
pub fn unpack_bf16x2(w: u32) -> [f32; 2] {
    [f32::from_bits(w << 16), f32::from_bits(w & 0xffff_0000)]
}

/// f32 → IEEE binary16, round to nearest even (the emulator's `cvt.rn.f16.f32`).
#[cfg(not(target_arch = "nvptx64"))]
fn f32_to_f16_rn(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    // the value is man' · 2^(e - 23) with the implicit bit; rescale to units of 2^-24
    let e = exp - 127;
    if e > 15 {
        return sign | 0x7c00;
    }
    let full = if exp == 0 { man } else { man | 0x80_0000 };
    // f16 keeps 11 significant bits for normals (e >= -14), fewer below
    let shift = if e >= -14 { 13 } else { 13 + (-14 - e) } as u32;
    if shift > 24 {
        return sign;
    }
    let kept = full >> shift;
    let rem = full & ((1 << shift) - 1);
    let half = 1 << (shift - 1);
    let mut q = kept + u32::from(rem > half || (rem == half && kept & 1 == 1));
    // q counts units of the last place: 2^(e-10) for normals, 2^-24 for subnormals
    let bits = if e >= -14 {
        // q in [2^10, 2^11]: a carry to 2^11 bumps the exponent
        let mut ee = e + 15;
        if q == 1 << 11 {
            q >>= 1;
            ee += 1;
        }
        if ee >= 31 {
            return sign | 0x7c00;
        }
        ((ee as u32) << 10) | (q & 0x3ff)
    } else {
        q // subnormal (a carry into 2^10 is the smallest normal, same bits)
    };
    sign | bits as u16
}
