//! Kernel launches in thread-block clusters: the driver's `cuLaunchKernelEx` with the
//! cluster-dimension attribute, which cudarc has no safe wrapper for.

use std::ffi::c_void;

use cudarc::driver::{CudaFunction, CudaStream, sys};

use crate::error::Result;

/// A 1-D launch configuration in clusters along x: the `CUlaunchConfig` and the cluster
/// attribute it points at (boxed, so the pointer stays valid when this value moves).
pub(crate) struct ClusterLaunch {
    _attr: Box<sys::CUlaunchAttribute>,
    /// The configuration (`gridDimX` may be changed before [`ClusterLaunch::launch`]).
    pub(crate) cfg: sys::CUlaunchConfig,
}

impl ClusterLaunch {
    /// `grid` CTAs of `block` threads and `smem` bytes of dynamic shared memory, in clusters of
    /// `cluster` CTAs, on `stream`.
    pub(crate) fn new(grid: u32, block: u32, smem: u32, cluster: u32, stream: &CudaStream) -> Self {
        let mut attr = Box::new(sys::CUlaunchAttribute {
            id: sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION,
            pad: [0; 4],
            // SAFETY: a plain-data union, all zeros before the cluster dimensions are set.
            value: unsafe { std::mem::zeroed() },
        });
        attr.value.clusterDim = sys::CUlaunchAttributeValue_union__bindgen_ty_1 {
            x: cluster,
            y: 1,
            z: 1,
        };
        let cfg = sys::CUlaunchConfig {
            gridDimX: grid,
            gridDimY: 1,
            gridDimZ: 1,
            blockDimX: block,
            blockDimY: 1,
            blockDimZ: 1,
            sharedMemBytes: smem,
            hStream: stream.cu_stream(),
            attrs: &mut *attr,
            numAttrs: 1,
        };
        ClusterLaunch { _attr: attr, cfg }
    }

    /// Launches `f` with this configuration.
    ///
    /// # Safety
    /// `params` holds the addresses of `f`'s arguments, in order and of its parameter types,
    /// alive until the call returns; the configuration (grid, block, shared memory, cluster) is
    /// one `f` is written for, and what the arguments point at stays valid until the work ends.
    pub(crate) unsafe fn launch(&self, f: &CudaFunction, params: &mut [*mut c_void]) -> Result<()> {
        // SAFETY: the caller's.
        unsafe {
            sys::cuLaunchKernelEx(
                &self.cfg,
                f.cu_function(),
                params.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        }
        .result()?;
        Ok(())
    }
}
