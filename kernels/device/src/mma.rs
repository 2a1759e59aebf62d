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
#[inline(always)]
pub unsafe fn ldmatrix_x4(row_addr: u32) -> [u32; 4] {
    #[cfg(target_arch = "nvptx64")]
    {
        let (a, b, c, d): (u32, u32, u32, u32);
        unsafe {
            asm!(
                "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{{a}, {b}, {c}, {d}}}, [{p}];",
                p = in(reg32) row_addr,
                a = out(reg32) a, b = out(reg32) b, c = out(reg32) c, d = out(reg32) d,
                options(readonly, nostack, preserves_flags),
            )
        };
        [a, b, c, d]
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        emu_ldmatrix("ldmatrix.sync.aligned.m8n8.x4.shared.b16", row_addr, false)
    }
}

/// Defines a two-matrix `ldmatrix` (`$op`) as `$name(row_addr) -> [u32; 2]`; `$trans`: the
/// matrices are transposed on the way.
macro_rules! ldmatrix_x2 {
    ($(#[$doc:meta])* $name:ident, $op:literal, $trans:literal) => {
        $(#[$doc])*
        #[inline(always)]
        pub unsafe fn $name(row_addr: u32) -> [u32; 2] {
            #[cfg(target_arch = "nvptx64")]
            {
                let (a, b): (u32, u32);
                unsafe {
                    asm!(
                        concat!($op, " {{{a}, {b}}}, [{p}];"),
                        p = in(reg32) row_addr,
                        a = out(reg32) a, b = out(reg32) b,
                        options(readonly, nostack, preserves_flags),
                    )
                };
                [a, b]
            }
            #[cfg(not(target_arch = "nvptx64"))]
            {
                emu_ldmatrix($op, row_addr, $trans)
            }
        }
    };
}

ldmatrix_x2!(
    /// `ldmatrix.sync.aligned.m8n8.x2.shared.b16`: as [`ldmatrix_x4`] with two matrices
    /// (lanes 0..16 give the row addresses).
    ///
    /// # Safety
    /// As [`ldmatrix_x4`].
    ldmatrix_x2,
    "ldmatrix.sync.aligned.m8n8.x2.shared.b16",
    false
);

ldmatrix_x2!(
    /// `ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16`: as [`ldmatrix_x2`], each 8×8
    /// matrix transposed on the way (row-major smem → "col" B fragment).
    ///
    /// # Safety
    /// As [`ldmatrix_x4`].
    ldmatrix_x2_trans,
    "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16",
    true
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
    #[cfg(target_arch = "nvptx64")]
    {
        let (d0, d1, d2, d3): (f32, f32, f32, f32);
        unsafe {
            asm!(
                "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {{{d0}, {d1}, {d2}, {d3}}}, {{{a0}, {a1}, {a2}, {a3}}}, {{{b0}, {b1}}}, {{{c0}, {c1}, {c2}, {c3}}};",
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
        crate::emu::warp_exchange(
            "mma.sync.aligned.m16n8k16",
            u32::MAX,
            mine,
            crate::emu::mma_m16n8k16,
        )
    }
}
