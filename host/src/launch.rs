//! Kernel launches in thread-block clusters: the driver's `cuLaunchKernelEx` with the
//! cluster-dimension attribute, which cudarc has no safe wrapper for.

use std::ffi::c_void;

use cudarc::driver::{CudaFunction, CudaStream, sys};

use crate::error::Result;

/// A 1-D launch configuration in clusters along x: the `CUlaunchConfig` and the attributes it
/// points at (boxed, so the pointer stays valid when this value moves): the cluster dimension,
/// and programmatic stream serialization where [`ClusterLaunch::programmatic`] asks for it.
///
/// ```no_run
/// use host::launch::ClusterLaunch;
/// let ctx = host::Context::new(0)?;
/// let stream = ctx.default_stream();
/// // 264 CTAs of 128 threads, 1 KiB of dynamic shared memory each, in clusters of 2
/// let l = ClusterLaunch::new(264, 128, 1024, 2, &stream).programmatic(true);
/// assert_eq!(l.cfg.gridDimX, 264);
/// // unsafe { l.launch(&ctx.kernel("my_entry")?, &mut params) }?;
/// # Ok::<(), host::Error>(())
/// ```
pub struct ClusterLaunch {
    attrs: Box<[sys::CUlaunchAttribute; 2]>,
    /// The configuration (`gridDimX` may be changed before [`ClusterLaunch::launch`]).
    pub cfg: sys::CUlaunchConfig,
}

impl ClusterLaunch {
    /// `grid` CTAs of `block` threads and `smem` bytes of dynamic shared memory, in clusters of
    /// `cluster` CTAs, on `stream`.
    ///
    /// ```no_run
    /// let ctx = host::Context::new(0)?;
    /// let l = host::launch::ClusterLaunch::new(132, 384, 200 * 1024, 2, &ctx.default_stream());
    /// assert_eq!((l.cfg.gridDimX, l.cfg.blockDimX, l.cfg.numAttrs), (132, 384, 1));
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn new(grid: u32, block: u32, smem: u32, cluster: u32, stream: &CudaStream) -> Self {
        // SAFETY: plain-data unions, all zeros before their fields are set.
        let mut attrs: Box<[sys::CUlaunchAttribute; 2]> = Box::new(unsafe { std::mem::zeroed() });
        attrs[0].id = sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
        attrs[0].value.clusterDim = sys::CUlaunchAttributeValue_union__bindgen_ty_1 {
            x: cluster,
            y: 1,
            z: 1,
        };
        attrs[1].id =
            sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
        let cfg = sys::CUlaunchConfig {
            gridDimX: grid,
            gridDimY: 1,
            gridDimZ: 1,
            blockDimX: block,
            blockDimY: 1,
            blockDimZ: 1,
            sharedMemBytes: smem,
            hStream: stream.cu_stream(),
            attrs: attrs.as_mut_ptr(),
            numAttrs: 1,
        };
        ClusterLaunch { attrs, cfg }
    }

    /// With `on`, the launch is programmatically dependent on the work before it in the
    /// stream (the driver's programmatic stream serialization: CUTLASS's `launch_with_pdl`):
    /// the kernel may start while the kernel before it runs, so it must call
    /// `griddepcontrol.wait` before touching global memory that kernel may access (the
    /// Hopper GEMM's and attention's kernels do, after their barriers' initialization).
    ///
    /// ```no_run
    /// let ctx = host::Context::new(0)?;
    /// let l = host::launch::ClusterLaunch::new(132, 384, 0, 2, &ctx.default_stream());
    /// assert_eq!(l.programmatic(true).cfg.numAttrs, 2); // the cluster and the serialization
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn programmatic(mut self, on: bool) -> Self {
        self.attrs[1].value.programmaticStreamSerializationAllowed = on as i32;
        self.cfg.numAttrs = if on { 2 } else { 1 };
        self
    }

    /// Launches `f` with this configuration.
    ///
    /// ```no_run
    /// use host::cudarc::driver::{DevicePtr, DevicePtrMut};
    /// let ctx = host::Context::new(0)?;
    /// let s = ctx.default_stream();
    /// // `tiled_copy_row_f32_v4(src: *const u8, dst: *mut u8, m, n, lds, ldd: i64)`
    /// let f = ctx.kernel("tiled_copy_row_f32_v4")?;
    /// let (src, mut dst) = (s.alloc_zeros::<f32>(64 * 128)?, s.alloc_zeros::<f32>(64 * 128)?);
    /// let (mut ps, _g1) = src.device_ptr(&s);
    /// let (mut pd, _g2) = dst.device_ptr_mut(&s);
    /// let (mut m, mut n, mut lds, mut ldd) = (64i64, 128i64, 128i64, 128i64);
    /// let mut params = [
    ///     (&raw mut ps).cast(), (&raw mut pd).cast(),
    ///     (&raw mut m).cast(), (&raw mut n).cast(), (&raw mut lds).cast(), (&raw mut ldd).cast(),
    /// ];
    /// // 8 tiles of 8 × 128, 256 threads, no cluster
    /// let l = host::launch::ClusterLaunch::new(8, 256, 0, 1, &s);
    /// // SAFETY: `params` in the entry's order and types; the buffers outlive the work
    /// unsafe { l.launch(&f, &mut params) }?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Safety
    /// `params` holds the addresses of `f`'s arguments, in order and of its parameter types,
    /// alive until the call returns; the configuration (grid, block, shared memory, cluster) is
    /// one `f` is written for, and what the arguments point at stays valid until the work ends.
    pub unsafe fn launch(&self, f: &CudaFunction, params: &mut [*mut c_void]) -> Result<()> {
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
