//! The kernel parameter of TMA launches ([`TmaParam`]), shared by the copies and the GEMM, and the key and
//! value of the context's TMA-copy launch cache (a leaf module: the context holds the cache,
//! `copy` fills it).

/// A by-value kernel parameter holding a tensor map, 64-byte aligned as the PTX declares it
/// (`.param .align 64 .b8 [128]`): push it with `launch_builder(..).arg(&param)`.
///
/// ```
/// use host::tma::launch::TmaParam;
/// assert_eq!((size_of::<TmaParam>(), align_of::<TmaParam>()), (128, 64));
/// ```
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct TmaParam(pub [u64; 16]);
// SAFETY: plain bytes, passed by value as the kernel's `.param .align 64 .b8 [128]`.
unsafe impl cudarc::driver::DeviceRepr for TmaParam {}

/// What a TMA copy's launch is made from: the kernel, `(m, n, lds, ldd)` and the two device
/// addresses (the key of the context's launch cache).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct TmaLaunchKey {
    pub(crate) kernel: &'static str,
    pub(crate) geometry: (usize, usize, usize, usize),
    pub(crate) src: u64,
    pub(crate) dst: u64,
}

/// A checked TMA copy launch: the encoded maps, the kernel's scalar arguments, grid and shared
/// memory (the value of the context's launch cache).
#[derive(Clone, Copy)]
pub(crate) struct TmaLaunch {
    pub(crate) maps: [TmaParam; 2],
    /// `(c, s, c_tma)`: the extents in TMA order and the columns the store map covers.
    pub(crate) extents: (i32, i32, i32),
    pub(crate) blocks: u32,
    pub(crate) smem: u32,
}
