//! `ldmatrix` (CuTe's `arch/copy_sm75.hpp`): the warp loads one, two or four 8×8 matrices of
//! 16-bit elements from shared memory into registers, optionally transposing each matrix on the
//! way. Lane `l` gives the 32-bit `.shared` address of row `l % 8` of matrix `l / 8` (16
//! contiguous bytes, 16-byte aligned); it receives, per matrix, the 32-bit word holding row
//! `l / 4`, elements `2·(l % 4)` and `+1` (of the transposed matrix for `.trans`).
//!
//! These are the only `asm!` of `ldmatrix` in the project: the copy atoms
//! ([`crate::cute::mma::ldsm`]) and the kernels' `device::mma` call them. They exist on
//! `nvptx64` only (off the GPU an `ldmatrix` needs the whole warp; `device`'s CPU emulator
//! provides it there).
//!
//! Each function's safety contract: executed by all 32 lanes of the warp (convergent), each
//! `row_addr` a valid, 16-byte aligned `.shared` address of 16 readable bytes.

macro_rules! ldmatrix_n {
    ($(#[$doc:meta])* $name:ident, $n:literal, $op:literal, [$($r:ident)*]) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// All 32 lanes execute it; `row_addr` is a valid 16-byte aligned `.shared` address.
        #[inline(always)]
        pub unsafe fn $name(row_addr: u32) -> [u32; $n] {
            $(let $r: u32;)*
            unsafe {
                core::arch::asm!(
                    concat!($op, " {{", ldmatrix_n!(@regs $($r)*), "}}, [{p}];"),
                    p = in(reg32) row_addr,
                    $($r = out(reg32) $r,)*
                    options(readonly, nostack, preserves_flags),
                )
            };
            [$($r),*]
        }
    };
    (@regs $first:ident $($r:ident)*) => {
        concat!("{", stringify!($first), "}" $(, ", {", stringify!($r), "}")*)
    };
}

ldmatrix_n!(
    /// `ldmatrix.sync.aligned.m8n8.x1.shared.b16` (CuTe's `SM75_U32x1_LDSM_N`): one matrix,
    /// lanes 0..8 give the row addresses.
    ldmatrix_x1, 1, "ldmatrix.sync.aligned.m8n8.x1.shared.b16", [a]
);
ldmatrix_n!(
    /// `ldmatrix.sync.aligned.m8n8.x2.shared.b16` (CuTe's `SM75_U32x2_LDSM_N`): two matrices,
    /// lanes 0..16 give the row addresses.
    ldmatrix_x2, 2, "ldmatrix.sync.aligned.m8n8.x2.shared.b16", [a b]
);
ldmatrix_n!(
    /// `ldmatrix.sync.aligned.m8n8.x4.shared.b16` (CuTe's `SM75_U32x4_LDSM_N`): four matrices,
    /// every lane gives a row address.
    ldmatrix_x4, 4, "ldmatrix.sync.aligned.m8n8.x4.shared.b16", [a b c d]
);
ldmatrix_n!(
    /// `ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16` (CuTe's `SM75_U16x2_LDSM_T`): as
    /// [`ldmatrix_x1`], the matrix transposed.
    ldmatrix_x1_trans, 1, "ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16", [a]
);
ldmatrix_n!(
    /// `ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16` (CuTe's `SM75_U16x4_LDSM_T`): as
    /// [`ldmatrix_x2`], each matrix transposed.
    ldmatrix_x2_trans, 2, "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16", [a b]
);
ldmatrix_n!(
    /// `ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16` (CuTe's `SM75_U16x8_LDSM_T`): as
    /// [`ldmatrix_x4`], each matrix transposed.
    ldmatrix_x4_trans, 4, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16", [a b c d]
);
