//! The cluster proof (`kernels/tma`'s `tma_multicast_cluster2`, sm_90): one cluster of 2 CTAs,
//! launched through the driver's `cuLaunchKernelEx` with the cluster-dimension attribute
//! (cudarc's launch builder has no cluster launch), where CTA rank 0 multicasts a 32×32 `u32`
//! tile by TMA into both CTAs' shared memory; each CTA writes its copy out, and both copies must
//! equal the source bit for bit.

use std::ffi::c_void;

use host::cudarc::driver::{DevicePtr, DevicePtrMut};

use super::{CheckRow, Rng};
use crate::timing::timed;
use host::context::Context;
use host::error::{Error, Result};
use host::launch::ClusterLaunch;
use host::tma::launch::TmaParam;
use host::tma::{GmemTensor, TmaOp};

/// The entry.
pub(crate) const ENTRY: &str = "tma_multicast_cluster2";
/// The tile's side (the kernel's `MulticastBox` is `(_32,_32):(_32,_1)`).
const SIDE: usize = 32;
/// CTAs in the cluster (the multicast mask `0b11`).
const CLUSTER: u32 = 2;

fn check(ctx: &Context, seed: u64) -> Result<CheckRow> {
    let s = ctx.default_stream();
    let mut rng = Rng::new(seed ^ 0xc105);
    let src: Vec<u32> = (0..SIDE * SIDE).map(|_| rng.next_u64() as u32).collect();
    let d_src = s.clone_htod(&src)?;
    let mut d_dst = s.alloc_zeros::<u32>(CLUSTER as usize * SIDE * SIDE)?;
    let (p_src, _r) = d_src.device_ptr(&s);
    let g = GmemTensor::new::<u32>(p_src, &[SIDE as u64, SIDE as u64], &[SIDE as u64, 1]);
    let box_layout = "Sw<0,4,3> o _0 o (_32,_32):(_32,_1)";
    let smem = box_layout
        .parse()
        .map_err(|e| Error::Unsupported(format!("smem box {box_layout}: {e:?}")))?;
    let map = TmaParam(ctx.make_tma_copy(TmaOp::Load, &g, &smem)?.desc.0);
    let f = ctx.kernel(ENTRY)?;
    let ms = {
        let (p_dst, _rd) = d_dst.device_ptr_mut(&s);
        let launch = ClusterLaunch::new(CLUSTER, 128, (SIDE * SIDE * 4 + 8) as u32, CLUSTER, &s);
        timed(&s, || {
            let mut params: [*mut c_void; 2] = [
                (&raw const map) as *mut c_void,
                (&raw const p_dst) as *mut c_void,
            ];
            ctx.cuda_context().bind_to_thread()?;
            // SAFETY: `(src: TmaDescriptor, dst: *mut u32)`: the map of the 32×32 `u32` source
            // with the kernel's box (alive until the stream syncs, `d_src`), `dst` 2·32·32
            // `u32`; a grid of one cluster of 2 CTAs, 128 threads and the tile plus its barrier
            // of shared memory, as the kernel documents.
            unsafe { launch.launch(&f, &mut params) }
        })?
    };
    let got = s.clone_dtoh(&d_dst)?;
    let want: Vec<u32> = src.iter().chain(&src).copied().collect();
    let mismatches =
        got.iter().zip(&want).filter(|(g, w)| g != w).count() + got.len().abs_diff(want.len());
    Ok(CheckRow {
        kernel: ENTRY,
        shape: "32x32 u32, cluster 2x1x1, multicast 0b11".into(),
        pass: mismatches == 0,
        max_err: if mismatches == 0 { 0.0 } else { f64::NAN },
        mismatches,
        ms,
        note: format!("rank 0 multicasts, both CTAs' copies bit-exact, seed {seed:#x}"),
    })
}

/// The cluster row (a launch error is its FAIL row).
pub(crate) fn checks(ctx: &Context, seed: u64) -> Vec<CheckRow> {
    vec![
        check(ctx, seed)
            .unwrap_or_else(|e| CheckRow::failed(ENTRY, "cluster 2x1x1".into(), e.to_string())),
    ]
}
