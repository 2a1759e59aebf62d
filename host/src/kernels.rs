//! Typed launchers, one per kernel in `kernels/src`; each mirrors the kernel's
//! signature so argument order and types are checked here, once.

use cudarc::driver::{
    CudaFunction, CudaSlice, CudaStream, DriverError, LaunchConfig, PushKernelArg, sys,
};

use crate::gpu::Gpu;

/// Every kernel of the module, loaded.
pub struct Kernels {
    pub copy_f32_v4: CudaFunction,
    pub copy_f32_cp_async: CudaFunction,
    pub mma_m16n8k16_smoke: CudaFunction,
    pub warp_sum_smoke: CudaFunction,
}

/// A launch's GPU time in milliseconds (CUDA events around it).
pub type Millis = f32;

impl Kernels {
    pub fn load(gpu: &Gpu) -> Result<Self, DriverError> {
        let f = |name: &str| gpu.function(name);
        Ok(Kernels {
            copy_f32_v4: f("copy_f32_v4")?,
            copy_f32_cp_async: f("copy_f32_cp_async")?,
            mma_m16n8k16_smoke: f("mma_m16n8k16_smoke")?,
            warp_sum_smoke: f("warp_sum_smoke")?,
        })
    }
}

fn timed(mut b: cudarc::driver::LaunchArgs<'_>, cfg: LaunchConfig) -> Result<Millis, DriverError> {
    b.record_kernel_launch(sys::CUevent_flags::CU_EVENT_DEFAULT);
    // SAFETY: every caller passes arguments matching the kernel's signature and
    // buffers of the sizes its doc requires.
    let events = unsafe { b.launch(cfg) }?;
    match events {
        Some((start, end)) => start.elapsed_ms(&end),
        None => Ok(0.0),
    }
}

/// 1-D config: `block` threads, enough blocks for `work` items capped at `max_blocks`.
pub fn grid_1d(work: usize, block: u32, max_blocks: u32) -> LaunchConfig {
    let blocks = work.div_ceil(block as usize).clamp(1, max_blocks as usize) as u32;
    LaunchConfig {
        grid_dim: (blocks, 1, 1),
        block_dim: (block, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// `copy_f32_v4(src, dst, n)`.
pub fn copy_f32_v4(
    k: &Kernels,
    s: &CudaStream,
    src: &CudaSlice<f32>,
    dst: &mut CudaSlice<f32>,
    cfg: LaunchConfig,
) -> Result<Millis, DriverError> {
    let n = src.len().min(dst.len());
    let mut b = s.launch_builder(&k.copy_f32_v4);
    b.arg(src).arg(dst).arg(&n);
    timed(b, cfg)
}

/// `copy_f32_cp_async(src, dst, n)`; sets `shared_mem_bytes = 2 * block * 16`.
pub fn copy_f32_cp_async(
    k: &Kernels,
    s: &CudaStream,
    src: &CudaSlice<f32>,
    dst: &mut CudaSlice<f32>,
    mut cfg: LaunchConfig,
) -> Result<Millis, DriverError> {
    let n = src.len().min(dst.len());
    cfg.shared_mem_bytes = 2 * cfg.block_dim.0 * 16;
    let mut b = s.launch_builder(&k.copy_f32_cp_async);
    b.arg(src).arg(dst).arg(&n);
    timed(b, cfg)
}

/// `mma_m16n8k16_smoke(a, bt, c, d)`: one warp, 768 bytes of dynamic shared memory.
pub fn mma_m16n8k16_smoke(
    k: &Kernels,
    s: &CudaStream,
    a: &CudaSlice<u16>,
    bt: &CudaSlice<u16>,
    c: &CudaSlice<f32>,
    d: &mut CudaSlice<f32>,
) -> Result<Millis, DriverError> {
    assert!(a.len() >= 256 && bt.len() >= 128 && c.len() >= 128 && d.len() >= 128);
    let cfg = LaunchConfig {
        grid_dim: (1, 1, 1),
        block_dim: (32, 1, 1),
        shared_mem_bytes: 768,
    };
    let mut b = s.launch_builder(&k.mma_m16n8k16_smoke);
    b.arg(a).arg(bt).arg(c).arg(d);
    timed(b, cfg)
}

/// `warp_sum_smoke(x, out, n)` over `n` (a multiple of 32) threads.
pub fn warp_sum_smoke(
    k: &Kernels,
    s: &CudaStream,
    x: &CudaSlice<f32>,
    out: &mut CudaSlice<f32>,
    block: u32,
) -> Result<Millis, DriverError> {
    let n = x.len();
    assert!(n.is_multiple_of(32) && out.len() >= n / 32 && block.is_multiple_of(32));
    let cfg = grid_1d(n, block, u32::MAX);
    let mut b = s.launch_builder(&k.warp_sum_smoke);
    b.arg(x).arg(out).arg(&n);
    timed(b, cfg)
}
