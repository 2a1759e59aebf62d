//! [`Context`]: a CUDA device with this crate's kernels loaded, found without ever panicking.
//!
//! cudarc's `dynamic-loading` opens libcuda lazily and *panics* when it is missing or lacks a
//! symbol, so [`Context::new`] probes first (`is_culib_present`) and runs the driver calls of
//! its setup inside a quiet `catch_unwind`: every failure is an [`Error`], never a panic.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use cudarc::driver::sys::CUdevice_attribute;
use cudarc::driver::{CudaContext, CudaFunction, CudaModule, CudaStream, DeviceSlice};
use cudarc::nvrtc::Ptx;

use crate::error::{Error, Result};
use crate::ptx::{self, PtxModule};
use crate::quiet::catch_quiet;

/// What the device is: name, compute capability, SM count.
///
/// Its `Display` is `NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)`.
///
/// ```
/// let d = host::DeviceInfo { ordinal: 0, name: "NVIDIA H100 80GB HBM3".into(), capability: (9, 0), sms: 132 };
/// assert_eq!(d.to_string(), "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    /// The device ordinal.
    pub ordinal: usize,
    /// The device's name as the driver reports it.
    pub name: String,
    /// Compute capability (major, minor).
    pub capability: (i32, i32),
    /// Streaming multiprocessors.
    pub sms: u32,
}

impl fmt::Display for DeviceInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (major, minor) = self.capability;
        write!(f, "{} (sm_{major}{minor}, {} SMs)", self.name, self.sms)
    }
}

/// One embedded PTX module: its text, entry names, and the module once loaded.
struct Module {
    ptx: PtxModule,
    entries: Vec<&'static str>,
    loaded: OnceLock<Arc<CudaModule>>,
}

/// A CUDA device with the embedded PTX loaded: the handle every entry point of this crate
/// (`sgemm`, `tiled_copy`, `transpose`) hangs off.
///
/// Work is queued on the stream you pass to each call (any stream of
/// [`Context::cuda_context`]); nothing synchronizes unless you do.
///
/// ```no_run
/// let ctx = host::Context::new(0)?;
/// println!("{}", ctx.device()); // NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)
/// let stream = ctx.default_stream();
/// let x = stream.clone_htod(&[1.0f32, 2.0, 3.0])?;
/// # let _ = x;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Context {
    ctx: Arc<CudaContext>,
    device: DeviceInfo,
    modules: Vec<Module>,
    functions: Mutex<HashMap<String, CudaFunction>>,
    launch_bounds: bool,
    /// Encoded tensor maps (`CUtensorMap` words) by everything they were encoded from
    /// (`crate::tma::Context::make_tma_copy` writes the key).
    pub(crate) tma_maps: Mutex<HashMap<Vec<u64>, [u64; 16]>>,
    /// TMA copies' launches (both tensor maps, grid, shared memory) by kernel, geometry and
    /// addresses (`crate::copy::Context::launch_tma` writes them), so that a repeated copy
    /// costs the host one lookup and one `cuLaunchKernel`.
    pub(crate) tma_launches:
        Mutex<HashMap<crate::tma::launch::TmaLaunchKey, crate::tma::launch::TmaLaunch>>,
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("device", &self.device)
            .field("launch_bounds", &self.launch_bounds)
            .finish_non_exhaustive()
    }
}

impl Context {
    /// Opens device `ordinal` (its primary context) and loads the embedded PTX.
    ///
    /// Errors, never panics: [`Error::NoKernels`] (a build without PTX), [`Error::NoDriver`],
    /// [`Error::NoDevice`], [`Error::ArchMismatch`] (the device's compute capability against
    /// the PTX target), [`Error::PtxRejected`].
    ///
    /// ```no_run
    /// match host::Context::new(0) {
    ///     Ok(ctx) => println!("{}", ctx.device()),
    ///     Err(e) if e.is_unavailable() => println!("no GPU: {e}"),
    ///     Err(e) => return Err(e),
    /// }
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn new(ordinal: usize) -> Result<Context> {
        if let Some(why) = ptx::build_error() {
            return Err(Error::NoKernels(why));
        }
        // SAFETY: only tries to open the library; no symbol is called.
        let present = catch_quiet(|| unsafe { cudarc::driver::sys::is_culib_present() })
            .map_err(|msg| Error::NoDriver(format!("loading libcuda: {msg}")))?;
        if !present {
            return Err(Error::NoDriver(
                "libcuda.so could not be loaded (no NVIDIA driver on this machine)".into(),
            ));
        }
        let ctx = catch_quiet(|| -> Result<Arc<CudaContext>> {
            let count = CudaContext::device_count()?.max(0) as usize;
            if ordinal >= count {
                return Err(Error::NoDevice { ordinal, count });
            }
            Ok(CudaContext::new(ordinal)?)
        })
        .map_err(|msg| Error::NoDriver(format!("CUDA driver: {msg}")))??;
        Self::from_cuda_context(ctx)
    }

    /// This crate's kernels on a cudarc context you already have (its streams and buffers then
    /// work with every entry point).
    ///
    /// ```no_run
    /// let cuda = host::cudarc::driver::CudaContext::new(0)?;
    /// let ctx = host::Context::from_cuda_context(cuda.clone())?;
    /// assert!(std::sync::Arc::ptr_eq(ctx.cuda_context(), &cuda));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_cuda_context(ctx: Arc<CudaContext>) -> Result<Context> {
        if let Some(why) = ptx::build_error() {
            return Err(Error::NoKernels(why));
        }
        let device = catch_quiet(|| -> Result<DeviceInfo> {
            Ok(DeviceInfo {
                ordinal: ctx.ordinal(),
                name: ctx.name()?,
                capability: ctx.compute_capability()?,
                sms: ctx
                    .attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?
                    .max(1) as u32,
            })
        })
        .map_err(|msg| Error::NoDriver(format!("CUDA driver: {msg}")))??;
        let (major, minor) = device.capability;
        let runs = match ptx::required_capability(ptx::ARCH) {
            Some((a, b, true)) => (a, b) == (major, minor),
            Some((a, b, false)) => (major, minor) >= (a, b),
            None => true, // an unknown target: let the driver decide
        };
        if !runs {
            return Err(Error::ArchMismatch {
                device: device.to_string(),
                arch: ptx::ARCH,
                capability: device.capability,
            });
        }
        let modules = ptx::modules()
            .into_iter()
            .filter(|m| !m.text.is_empty())
            .map(|m| Module {
                ptx: m,
                entries: ptx::entries(m.text),
                loaded: OnceLock::new(),
            })
            .collect();
        let launch_bounds = std::env::var("CUTE_RS_GEMM_BOUNDS").map_or(true, |v| v != "0");
        let me = Context {
            ctx,
            device,
            modules,
            functions: Mutex::new(HashMap::new()),
            launch_bounds,
            tma_maps: Mutex::new(HashMap::new()),
            tma_launches: Mutex::new(HashMap::new()),
        };
        // Load (JIT) every module now, so a PTX the driver rejects is reported here.
        for m in &me.modules {
            me.module(m)?;
        }
        Ok(me)
    }

    /// The device: name, compute capability, SMs.
    ///
    /// ```no_run
    /// let ctx = host::Context::new(0)?;
    /// assert!(ctx.device().sms > 0);
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn device(&self) -> &DeviceInfo {
        &self.device
    }

    /// The cudarc context (allocate buffers, make streams, use cuBLAS on it).
    ///
    /// ```no_run
    /// let ctx = host::Context::new(0)?;
    /// let stream = ctx.cuda_context().new_stream()?;
    /// # let _ = stream;
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn cuda_context(&self) -> &Arc<CudaContext> {
        &self.ctx
    }

    /// The context's default stream (CUDA's legacy NULL stream).
    ///
    /// ```no_run
    /// let ctx = host::Context::new(0)?;
    /// let s = ctx.default_stream();
    /// s.synchronize()?;
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn default_stream(&self) -> Arc<CudaStream> {
        self.ctx.default_stream()
    }

    /// Whether the GEMM entries with launch bounds are used (`CUTE_RS_GEMM_BOUNDS=0` at
    /// [`Context::new`] turns them off).
    ///
    /// ```no_run
    /// let ctx = host::Context::new(0)?;
    /// println!("launch bounds: {}", ctx.launch_bounds());
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn launch_bounds(&self) -> bool {
        self.launch_bounds
    }

    /// The names of every kernel in the embedded PTX.
    ///
    /// ```no_run
    /// let ctx = host::Context::new(0)?;
    /// assert!(ctx.kernels().contains(&"sgemm_128x128x8_nn"));
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn kernels(&self) -> Vec<&'static str> {
        self.modules
            .iter()
            .flat_map(|m| m.entries.iter().copied())
            .collect()
    }

    /// Adds a PTX module of your own (built like ours: `cute_builder::PtxBuilder::embed` in your
    /// `build.rs`; see `examples/user-kernel` and `cargo xtask new-kernel-crate`), loaded now;
    /// its kernels are then found by [`Context::kernel`] like ours. Entry names must not clash
    /// with loaded ones.
    ///
    /// ```no_run
    /// # const MY_PTX: &str = "";
    /// let mut ctx = host::Context::new(0)?;
    /// ctx.add_ptx("mine", MY_PTX)?; // e.g. include_str!(env!("CUTE_PTX_MINE"))
    /// let f = ctx.kernel("my_kernel")?;
    /// # let _ = f;
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn add_ptx(&mut self, name: &'static str, ptx: &'static str) -> Result<()> {
        let entries = ptx::entries(ptx);
        if entries.is_empty() {
            return Err(Error::Unsupported(format!(
                "PTX module `{name}` has no kernel (.entry)"
            )));
        }
        if let Some(dup) = entries.iter().find(|e| self.kernels().contains(e)) {
            return Err(Error::Unsupported(format!(
                "PTX module `{name}`: kernel `{dup}` is already loaded"
            )));
        }
        let m = Module {
            ptx: PtxModule { name, text: ptx },
            entries,
            loaded: OnceLock::new(),
        };
        self.module(&m)?;
        self.modules.push(m);
        Ok(())
    }

    /// A kernel of any loaded module by its entry name, to launch with cudarc
    /// (`stream.launch_builder(&f)`) on a stream of this context.
    ///
    /// ```no_run
    /// use host::cudarc::driver::{LaunchConfig, PushKernelArg};
    /// let ctx = host::Context::new(0)?;
    /// let stream = ctx.default_stream();
    /// let f = ctx.kernel("sgemm_scale_c")?; // (m, n, beta, c, ldc): C = beta·C
    /// let mut c = stream.alloc_zeros::<f32>(64)?;
    /// let (m, n, beta, ldc) = (8i32, 8i32, 0.5f32, 8i32);
    /// let mut b = stream.launch_builder(&f);
    /// b.arg(&m).arg(&n).arg(&beta).arg(&mut c).arg(&ldc);
    /// let cfg = LaunchConfig { grid_dim: (1, 8, 1), block_dim: (256, 1, 1), shared_mem_bytes: 0 };
    /// unsafe { b.launch(cfg) }?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn kernel(&self, entry: &str) -> Result<CudaFunction> {
        self.function(entry)
    }

    /// THE function that loads PTX: module `m`, at most once.
    fn module(&self, m: &Module) -> Result<Arc<CudaModule>> {
        if let Some(loaded) = m.loaded.get() {
            return Ok(loaded.clone());
        }
        let loaded = self
            .ctx
            .load_module(Ptx::from_src(m.ptx.text))
            .map_err(|source| Error::PtxRejected {
                module: m.ptx.name,
                source,
            })?;
        Ok(m.loaded.get_or_init(|| loaded).clone())
    }

    /// Kernel `entry`, from whichever loaded module has it.
    pub(crate) fn function(&self, entry: &str) -> Result<CudaFunction> {
        if let Some(f) = self
            .functions
            .lock()
            .ok()
            .and_then(|c| c.get(entry).cloned())
        {
            return Ok(f);
        }
        let m = self
            .modules
            .iter()
            .find(|m| m.entries.contains(&entry))
            .ok_or_else(|| Error::MissingKernel(entry.to_string()))?;
        let f = self.module(m)?.load_function(entry)?;
        if let Ok(mut cache) = self.functions.lock() {
            cache.insert(entry.to_string(), f.clone());
        }
        Ok(f)
    }

    /// `Ok` when `bytes` of buffers fit in the device's memory (so a test harness refuses a
    /// problem instead of failing to allocate its host copies).
    pub(crate) fn check_fits(&self, what: &str, bytes: u128) -> Result<()> {
        let total = catch_quiet(|| self.ctx.total_mem())
            .ok()
            .and_then(|r| r.ok())
            .unwrap_or(usize::MAX) as u128;
        if bytes > total {
            return Err(Error::TooLargeForDevice {
                what: what.to_string(),
                needed_gib: bytes as f64 / (1u64 << 30) as f64,
                total_gib: total as f64 / (1u64 << 30) as f64,
            });
        }
        Ok(())
    }

    /// `Ok` when `stream` belongs to this context.
    pub(crate) fn check_stream(&self, stream: &CudaStream) -> Result<()> {
        if **stream.context() == *self.ctx {
            Ok(())
        } else {
            Err(Error::ForeignContext("the stream"))
        }
    }

    /// `Ok` when buffer `name` was allocated in this context.
    pub(crate) fn check_buffer<T>(
        &self,
        name: &'static str,
        b: &impl DeviceSlice<T>,
    ) -> Result<()> {
        if **b.stream().context() == *self.ctx {
            Ok(())
        } else {
            Err(Error::ForeignContext(name))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Context>();
    }

    #[test]
    fn without_kernels_new_is_an_error_not_a_panic() {
        if ptx::build_error().is_some() {
            let e = Context::new(0).unwrap_err();
            assert!(matches!(e, Error::NoKernels(_)) && e.is_unavailable());
        }
    }
}
