//! Launchers of the smoke kernels (`kernels/src/smoke.rs`), which prove the device wrappers
//! (128-bit vectors, cp.async, ldmatrix + mma.sync, warp shuffles) on the GPU; each mirrors
//! the kernel's signature so argument order and types are checked here, once. Used by
//! [`crate::check`].

use host::cudarc::driver::{CudaSlice, CudaStream, LaunchConfig, PushKernelArg};

use host::context::Context;
use host::error::{Error, Result};

/// 1-D config: `block` threads, enough blocks for `work` items capped at `max_blocks`.
pub(crate) fn grid_1d(work: usize, block: u32, max_blocks: u32) -> LaunchConfig {
    let blocks = work
        .div_ceil(block as usize)
        .clamp(1, max_blocks.max(1) as usize) as u32;
    LaunchConfig {
        grid_dim: (blocks, 1, 1),
        block_dim: (block, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// The two grid-stride copies, `(src, dst, n)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SmokeCopy {
    /// `copy_f32_v4`: 128-bit loads and stores, scalar tail.
    V4,
    /// `copy_f32_cp_async`: 2-stage cp.async pipeline through dynamic smem.
    CpAsync,
}

impl SmokeCopy {
    pub(crate) fn kernel(self) -> &'static str {
        match self {
            SmokeCopy::V4 => "copy_f32_v4",
            SmokeCopy::CpAsync => "copy_f32_cp_async",
        }
    }
}

/// `copy_f32_v4(src, dst, n)` / `copy_f32_cp_async(src, dst, n)` over `min(len)` elements.
pub(crate) fn copy(
    ctx: &Context,
    s: &CudaStream,
    which: SmokeCopy,
    src: &CudaSlice<f32>,
    dst: &mut CudaSlice<f32>,
    mut cfg: LaunchConfig,
) -> Result<()> {
    let f = ctx.kernel(which.kernel())?;
    let n = src.len().min(dst.len());
    if which == SmokeCopy::CpAsync {
        cfg.shared_mem_bytes = 2 * cfg.block_dim.0 * 16;
    }
    let mut b = s.launch_builder(&f);
    b.arg(src).arg(dst).arg(&n);
    // SAFETY: `(src: *const f32, dst: *mut f32, n: usize)`, both buffers hold `n` elements.
    unsafe { b.launch(cfg) }?;
    Ok(())
}

/// `mma_m16n8k16_smoke(a, bt, c, d)`: one warp, 768 bytes of dynamic shared memory.
pub(crate) fn mma_m16n8k16(
    ctx: &Context,
    s: &CudaStream,
    a: &CudaSlice<u16>,
    bt: &CudaSlice<u16>,
    c: &CudaSlice<f32>,
    d: &mut CudaSlice<f32>,
) -> Result<()> {
    if a.len() < 256 || bt.len() < 128 || c.len() < 128 || d.len() < 128 {
        return Err(Error::Unsupported(
            "mma_m16n8k16_smoke needs A 16x16, Bt 8x16, C and D 16x8".into(),
        ));
    }
    let f = ctx.kernel("mma_m16n8k16_smoke")?;
    let cfg = LaunchConfig {
        grid_dim: (1, 1, 1),
        block_dim: (32, 1, 1),
        shared_mem_bytes: 768,
    };
    let mut b = s.launch_builder(&f);
    b.arg(a).arg(bt).arg(c).arg(d);
    // SAFETY: `(a, bt, c, d)` pointers to buffers of the sizes checked above.
    unsafe { b.launch(cfg) }?;
    Ok(())
}

/// `warp_sum_smoke(x, out, n)` over `n = x.len()` (a multiple of 32) threads.
pub(crate) fn warp_sum(
    ctx: &Context,
    s: &CudaStream,
    x: &CudaSlice<f32>,
    out: &mut CudaSlice<f32>,
    block: u32,
) -> Result<()> {
    let n = x.len();
    if !n.is_multiple_of(32) || out.len() < n / 32 || !block.is_multiple_of(32) || block == 0 {
        return Err(Error::Unsupported(
            "warp_sum_smoke needs whole warps and one output per warp".into(),
        ));
    }
    let f = ctx.kernel("warp_sum_smoke")?;
    let cfg = grid_1d(n, block, u32::MAX);
    let mut b = s.launch_builder(&f);
    b.arg(x).arg(out).arg(&n);
    // SAFETY: `(x, out, n)`; `out` holds one sum per warp.
    unsafe { b.launch(cfg) }?;
    Ok(())
}
