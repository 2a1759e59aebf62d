//! The Ampere/Ada bf16/fp16 GEMM family's configuration and kernel parameters: the one source of
//! truth the kernel and the host share. `no_std`, depending on nothing, so the host includes this
//! file as a module (`#[path]`, as it includes `kernels/hgemm_kernel/src/config.rs`) and launches with
//! these numbers and this struct instead of restating them.
//!
//! The tile: a CTA of 4 warps (2×2, each 64×64 of C: 4×8 `mma.sync` m16n8k16 atoms, 128 f32
//! accumulators per thread, 254–255 registers) computes 128×128 of C; k-tiles of 32, `STAGES`
//! of them in flight through `cp.async`. Shared memory is `STAGES · (128 + 128) · 32` halves =
//! 64 KiB. CTAs per SM (smem + 1 KiB reserved each; 64 K registers hold two CTAs of 128 threads
//! at 255 registers): two on an A100 (164 KiB) or an H100/H200 (228 KiB), 8 warps an SM; **one**
//! on the 100 KiB SMs of sm_86/89 (RTX 3090, RTX 4090, L4, L40), 4 warps an SM.

/// Threads of a CTA: four warps, 2×2 over the tile.
pub const THREADS: u32 = 128;
/// Pipeline depth: shared-memory stages of A's and B's k-tiles.
#[cfg(not(feature = "hgemm-sm80-k64"))]
pub const STAGES: usize = 4;
/// Pipeline depth of the measuring candidate `hgemm-sm80-k64`: two stages of k-tiles of 64
/// (the same 64 KiB; one k-tile in flight while the other is read).
#[cfg(feature = "hgemm-sm80-k64")]
pub const STAGES: usize = 2;
/// The CTA tile (M, N, K).
#[cfg(not(feature = "hgemm-sm80-k64"))]
pub const TILE: (usize, usize, usize) = (128, 128, 32);
/// The CTA tile of the measuring candidate `hgemm-sm80-k64`: k-tiles of 64 (half the barriers
/// and k-tile bookkeeping per `mma.sync`), two stages.
#[cfg(feature = "hgemm-sm80-k64")]
pub const TILE: (usize, usize, usize) = (128, 128, 64);
/// Elements of A and B a `cp.async` moves (16 bytes): their leading dimensions must be multiples
/// of it and their base addresses 16-byte aligned (the host checks).
pub const VECTOR: usize = 8;
/// C's element codes ([`HgemmSm80Params::out`]).
pub const OUT_F32: u32 = 0;
/// bf16 C.
pub const OUT_BF16: u32 = 1;
/// f16 C.
pub const OUT_F16: u32 = 2;

/// The kernel's shared memory: the stages of A's and B's k-tiles (16-bit elements, each tile
/// 32 k-columns of 128 rows, swizzled), one `#[repr(C)]` struct. The swizzles act on element
/// offsets from each tile's start, so 128-byte alignment is all a tile needs.
#[repr(C, align(128))]
pub struct SharedStorage {
    /// A's stages, `(TILE.0, TILE.2)` each.
    pub a: [[u16; TILE.0 * TILE.2]; STAGES],
    /// B's stages, `(TILE.1, TILE.2)` each.
    pub b: [[u16; TILE.1 * TILE.2]; STAGES],
}
/// Dynamic shared memory of a CTA: `size_of` the [`SharedStorage`].
pub const SMEM_BYTES: usize = core::mem::size_of::<SharedStorage>();

/// The kernel's parameters (one by-value struct): `C = alpha·op(A)·op(B) + beta·C`, column-major
/// as BLAS; A is `(M,K)` and B `(N,K)` with the strides their majorities give.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct HgemmSm80Params {
    /// A's device address.
    pub a: u64,
    /// B's device address.
    pub b: u64,
    /// C's device address.
    pub c: u64,
    /// A's leading dimension (elements).
    pub lda: i64,
    /// B's leading dimension (elements).
    pub ldb: i64,
    /// C's leading dimension (elements).
    pub ldc: i64,
    /// Rows of C.
    pub m: i32,
    /// Columns of C.
    pub n: i32,
    /// The reduction depth.
    pub k: i32,
    /// Scale of the product.
    pub alpha: f32,
    /// Scale of C (0: C is not read).
    pub beta: f32,
    /// C's element: [`OUT_F32`], [`OUT_BF16`] or [`OUT_F16`].
    pub out: u32,
}
