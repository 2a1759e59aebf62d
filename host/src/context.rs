//! [`Context`]: a CUDA device with this crate's kernels loaded, found without ever panicking.
//!
//! cudarc's run-time loading opens libcuda lazily and *panics* when it is missing or lacks a
//! symbol, so [`Context::new`] runs the driver calls of its setup (`cuInit` first) inside a
//! quiet `catch_unwind`: every failure is an [`Error`], never a panic.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use cudarc::driver::sys::CUdevice_attribute;
use cudarc::driver::{CudaContext, CudaFunction, CudaModule, CudaStream, DeviceSlice};
use cudarc::nvrtc::Ptx;

use crate::error::{Error, Result};
use crate::overrides::Overrides;
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
    /// The measuring overrides ([`Context::with_overrides`]; none by default).
    overrides: Overrides,
    /// The architecture every module was forced to ([`Context::with_arch`]), if any.
    forced_arch: Option<&'static str>,
    /// The folder whose PTX files replaced the embedded ones ([`LoadOptions::ptx_dir`]).
    ptx_dir: Option<std::path::PathBuf>,
    /// The folder of the modules' cubins ([`LoadOptions::cubin_dir`]).
    cubin_dir: Option<std::path::PathBuf>,
    /// The modules loaded beside the embedded ones ([`LoadOptions::extra_modules`]).
    extra_modules: &'static [cute_rs::PtxModule],
    /// Encoded tensor maps (`CUtensorMap` words) by everything they were encoded from
    /// (`crate::tma::Context::make_tma_copy` writes the key).
    pub(crate) tma_maps: Mutex<HashMap<Vec<u64>, [u64; 16]>>,
    /// TMA copies' launches (both tensor maps, grid, shared memory) by kernel, geometry and
    /// addresses (`crate::copy::Context::launch_tma` writes them), so that a repeated copy
    /// costs the host one lookup and one `cuLaunchKernel`.
    pub(crate) tma_launches:
        Mutex<HashMap<crate::tma::launch::TmaLaunchKey, crate::tma::launch::TmaLaunch>>,
    /// The stream-K workspaces of the Hopper GEMM and attention (`FixupSlot`s, zeroed; their
    /// kernels leave them zeroed), one per stream (`CUstream` address), as large as the
    /// largest launched on it ([`Context::stream_k_workspace`]).
    pub(crate) stream_k_workspaces: Mutex<HashMap<usize, cudarc::driver::CudaSlice<u8>>>,
    /// The Hopper GEMM's Hilbert-order tables by `(M, N)` cluster tiles (`crate::hgemm`).
    pub(crate) hgemm_tile_orders: Mutex<HashMap<(usize, usize), cudarc::driver::CudaSlice<i32>>>,
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("device", &self.device)
            .field("overrides", &self.overrides)
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
        Self::open_with(ordinal, &LoadOptions::default())
    }

    /// [`Context::new`] with explicit [`LoadOptions`] (a forced architecture, a folder of PTX
    /// replacing the embedded modules): what the `host` CLI and the Python package open, with
    /// [`LoadOptions::from_env`].
    ///
    /// ```no_run
    /// let opts = host::LoadOptions { arch: Some("sm_80".into()), ..Default::default() };
    /// let ctx = host::Context::open_with(0, &opts)?;
    /// assert_eq!(ctx.forced_arch(), Some("sm_80"));
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn open_with(ordinal: usize, opts: &LoadOptions) -> Result<Context> {
        let forced = forced_arch(opts.arch.as_deref())?;
        if let Some(why) = ptx::build_error() {
            return Err(Error::NoKernels(why));
        }
        let me = Self::open(Self::cuda_context_of(ordinal)?, forced, opts)?;
        me.load_all()?;
        Ok(me)
    }

    /// [`Context::new`], loading only the PTX built for `arch` (`Some("sm_80")`: the Ampere
    /// build, which an H100/H200 also runs) instead of, per family, the best build the device
    /// runs; `None` is [`Context::new`]. Kernels of families without an `arch` build then
    /// return [`Error::NeedsArch`].
    ///
    /// [`Error::UnknownArch`] when this binary has no build for `arch`, [`Error::ArchMismatch`]
    /// when the device cannot run it.
    ///
    /// ```no_run
    /// let ctx = host::Context::with_arch(0, Some("sm_80"))?;
    /// assert_eq!(ctx.forced_arch(), Some("sm_80"));
    /// assert!(ctx.kernels().contains(&"transpose_f32_swizzled"));
    /// assert!(!ctx.kernels().contains(&"transpose_f32_bulk")); // Hopper only
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn with_arch(ordinal: usize, arch: Option<&str>) -> Result<Context> {
        let opts = LoadOptions {
            arch: arch.map(str::to_string),
            ..LoadOptions::default()
        };
        Self::open_with(ordinal, &opts)
    }

    /// The driver's primary context of device `ordinal` as cudarc's `CudaContext`, found
    /// without panicking: [`Context::new`]'s first half, for a caller that sets the context up
    /// (e.g. turns cudarc's event tracking off) before [`Context::from_cuda_context_lazy`].
    ///
    /// ```no_run
    /// let cuda = host::Context::cuda_context_of(0)?;
    /// let ctx = host::Context::from_cuda_context_lazy(cuda)?;
    /// # let _ = ctx;
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn cuda_context_of(ordinal: usize) -> Result<Arc<CudaContext>> {
        // `cuInit` first: with cudarc's run-time loading (the default) a missing libcuda is a
        // panic here, caught; with `dynamic-linking` (another crate of the build asked for it)
        // the library was linked and this is a plain driver call.
        catch_quiet(cudarc::driver::result::init).map_err(|msg| {
            let why = if msg.starts_with("Unable to dynamically load") {
                String::new() // cudarc's list of the names it tried
            } else {
                format!(": {msg}")
            };
            Error::NoDriver(format!(
                "libcuda.so could not be loaded (no NVIDIA driver on this machine){why}"
            ))
        })??;
        catch_quiet(|| -> Result<Arc<CudaContext>> {
            let count = CudaContext::device_count()?.max(0) as usize;
            if ordinal >= count {
                return Err(Error::NoDevice { ordinal, count });
            }
            Ok(CudaContext::new(ordinal)?)
        })
        .map_err(|msg| Error::NoDriver(format!("CUDA driver: {msg}")))?
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
        let me = Self::open(ctx, None, &LoadOptions::default())?;
        me.load_all()?;
        Ok(me)
    }

    /// [`Context::from_cuda_context`] with the PTX of one architecture, as [`Context::with_arch`].
    ///
    /// ```no_run
    /// let cuda = host::cudarc::driver::CudaContext::new(0)?;
    /// // the sm_80 PTX on any GPU from Ampere on (JIT-compiled by the driver)
    /// let ctx = host::Context::from_cuda_context_with_arch(cuda, Some("sm_80"))?;
    /// # let _ = ctx;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_cuda_context_with_arch(
        ctx: Arc<CudaContext>,
        arch: Option<&str>,
    ) -> Result<Context> {
        let me = Self::open(ctx, forced_arch(arch)?, &LoadOptions::default())?;
        me.load_all()?;
        Ok(me)
    }

    /// [`Context::from_cuda_context`] without JIT-compiling the modules now: each kernel
    /// family's PTX is loaded at the first launch of one of its kernels (a rejected module is
    /// then that launch's [`Error::PtxRejected`]). For a process that runs one family, e.g. the
    /// Python package's GEMM.
    ///
    /// ```no_run
    /// let cuda = host::cudarc::driver::CudaContext::new(0)?;
    /// let ctx = host::Context::from_cuda_context_lazy(cuda)?;
    /// # let _ = ctx;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_cuda_context_lazy(ctx: Arc<CudaContext>) -> Result<Context> {
        Self::open(ctx, None, &LoadOptions::default())
    }

    /// [`Context::from_cuda_context_lazy`] with explicit [`LoadOptions`] (the Python package
    /// opens its context so, with [`LoadOptions::from_env`]).
    ///
    /// ```no_run
    /// let cuda = host::cudarc::driver::CudaContext::new(0)?;
    /// let ctx = host::Context::from_cuda_context_lazy_with(cuda, &host::LoadOptions::default())?;
    /// # let _ = ctx;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_cuda_context_lazy_with(
        ctx: Arc<CudaContext>,
        opts: &LoadOptions,
    ) -> Result<Context> {
        Self::open(ctx, forced_arch(opts.arch.as_deref())?, opts)
    }

    /// Load (JIT) every module now, so a PTX the driver rejects is reported here.
    fn load_all(&self) -> Result<()> {
        for m in &self.modules {
            self.module(m)?;
        }
        Ok(())
    }

    fn open(
        ctx: Arc<CudaContext>,
        forced: Option<&'static str>,
        opts: &LoadOptions,
    ) -> Result<Context> {
        let ptx_dir = opts.ptx_dir.clone();
        let cubin_dir = opts.cubin_dir.clone();
        let extra_modules = opts.extra_modules;
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
        let chosen = choose_modules(
            ptx::modules_with(ptx_dir.as_deref(), extra_modules),
            device.capability,
            forced,
        );
        if chosen.is_empty() {
            return Err(Error::ArchMismatch {
                device: device.to_string(),
                arch: forced.unwrap_or(ptx::ARCH),
                capability: device.capability,
            });
        }
        let modules = chosen
            .into_iter()
            .map(|m| Module {
                ptx: m,
                entries: ptx::entries(m.text),
                loaded: OnceLock::new(),
            })
            .collect();
        Ok(Context {
            ctx,
            device,
            modules,
            functions: Mutex::new(HashMap::new()),
            overrides: Overrides::default(),
            forced_arch: forced,
            ptx_dir,
            cubin_dir,
            extra_modules,
            tma_maps: Mutex::new(HashMap::new()),
            tma_launches: Mutex::new(HashMap::new()),
            stream_k_workspaces: Mutex::new(HashMap::new()),
            hgemm_tile_orders: Mutex::new(HashMap::new()),
        })
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

    /// The device address of a zeroed stream-K workspace of at least `bytes` on `stream`
    /// (allocated on its first use and kept, one per stream; the kernels that split tiles —
    /// the Hopper GEMM's stream-K and split-K, attention's key-block split — leave it zeroed,
    /// and launches on one stream use it in turn).
    pub(crate) fn stream_k_workspace(&self, stream: &CudaStream, bytes: usize) -> Result<u64> {
        use cudarc::driver::DevicePtr;
        let key = stream.cu_stream() as usize;
        let mut ws = self
            .stream_k_workspaces
            .lock()
            .map_err(|_| Error::Unsupported("a poisoned stream-K workspace cache".into()))?;
        if ws.get(&key).is_none_or(|b| b.len() < bytes) {
            // zeroed on the default stream and waited for (once per stream and size)
            let s = self.default_stream();
            let buf = s.alloc_zeros::<u8>(bytes)?;
            s.synchronize()?;
            ws.insert(key, buf);
        }
        let buf = &ws[&key];
        let (p, _r) = buf.device_ptr(stream);
        Ok(p)
    }

    /// Whether the GEMM entries with launch bounds are used (not when the context's
    /// [`Overrides::gemm_without_launch_bounds`] says so: `CUTE_RS_GEMM_BOUNDS=0` in the CLI).
    ///
    /// ```no_run
    /// let ctx = host::Context::new(0)?;
    /// println!("launch bounds: {}", ctx.launch_bounds());
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn launch_bounds(&self) -> bool {
        !self.overrides.gemm_without_launch_bounds
    }

    /// This context with the measuring overrides `o` ([`Overrides`]: replacing a kernel
    /// family's planned choice for an A/B measurement); a context has none until given them.
    ///
    /// ```no_run
    /// let ctx = host::Context::new(0)?.with_overrides(host::Overrides::from_env()?);
    /// println!("{:?}", ctx.overrides());
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn with_overrides(mut self, o: Overrides) -> Context {
        self.overrides = o;
        self
    }

    /// The measuring overrides every launch of this context reads ([`Context::with_overrides`]).
    ///
    /// ```no_run
    /// let ctx = host::Context::new(0)?;
    /// assert!(ctx.overrides().is_default());
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn overrides(&self) -> &Overrides {
        &self.overrides
    }

    /// The architecture [`Context::with_arch`] (or [`LoadOptions::arch`]) forced, if any.
    ///
    /// ```no_run
    /// let ctx = host::Context::new(0)?;
    /// println!("forced: {:?}", ctx.forced_arch());
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn forced_arch(&self) -> Option<&'static str> {
        self.forced_arch
    }

    /// The loaded modules: `(family, architecture of its PTX)`, e.g. `("copy", "sm_90a")`.
    ///
    /// ```no_run
    /// let ctx = host::Context::new(0)?;
    /// for (family, arch) in ctx.families() {
    ///     println!("{family}: {arch}");
    /// }
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn families(&self) -> Vec<(&'static str, &'static str)> {
        self.modules
            .iter()
            .map(|m| (m.ptx.name, m.ptx.arch))
            .collect()
    }

    /// Whether kernel `entry` is in a module this context loaded.
    ///
    /// ```no_run
    /// let ctx = host::Context::new(0)?;
    /// println!("bulk transpose: {}", ctx.has_kernel("transpose_f32_bulk"));
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn has_kernel(&self, entry: &str) -> bool {
        self.modules.iter().any(|m| m.entries.contains(&entry))
    }

    /// `Ok` when kernel `entry` is loaded; [`Error::NeedsArch`] naming the architecture of the
    /// build that has it when only another one does; [`Error::MissingKernel`] otherwise.
    ///
    /// ```no_run
    /// let ctx = host::Context::with_arch(0, Some("sm_80"))?;
    /// let e = ctx.require_kernel("hgemm_bf16_tn").unwrap_err();
    /// assert!(matches!(e, host::Error::NeedsArch { arch: "sm_90a", .. }));
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn require_kernel(&self, entry: &str) -> Result<()> {
        if self.has_kernel(entry) {
            return Ok(());
        }
        match ptx::modules_with(self.ptx_dir.as_deref(), self.extra_modules)
            .into_iter()
            .find(|m| ptx::entries(m.text).contains(&entry))
        {
            Some(m) => Err(Error::NeedsArch {
                kernel: entry.to_string(),
                arch: m.arch,
                device: self.device.to_string(),
                loaded: self.archs().join("+"),
            }),
            None => Err(Error::MissingKernel(entry.to_string())),
        }
    }

    /// The distinct architectures of the loaded modules, in load order (`["sm_90a"]` on an
    /// H100/H200, `["sm_80"]` on an A100 or with [`Context::with_arch`]`(_, Some("sm_80"))`).
    ///
    /// ```no_run
    /// let ctx = host::Context::new(0)?;
    /// println!("running the {} PTX", ctx.archs().join("+"));
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn archs(&self) -> Vec<&'static str> {
        let mut archs: Vec<&'static str> = Vec::new();
        for m in &self.modules {
            if !archs.contains(&m.ptx.arch) {
                archs.push(m.ptx.arch);
            }
        }
        archs
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
            ptx: PtxModule {
                name,
                arch: "user",
                text: ptx,
            },
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

    /// THE function that loads PTX: module `m`, at most once — its cubin from
    /// [`LoadOptions::cubin_dir`] where that folder has one of this very text for this device
    /// ([`ptx::cubin_path`]), else the text (JIT-compiled by the driver: seconds to minutes for
    /// the GEMM modules).
    fn module(&self, m: &Module) -> Result<Arc<CudaModule>> {
        if let Some(loaded) = m.loaded.get() {
            return Ok(loaded.clone());
        }
        let cubin = self
            .cubin_dir
            .as_deref()
            .filter(|_| ptx::cubin_runs_on(m.ptx.arch, self.device.capability))
            .and_then(|dir| std::fs::read(ptx::cubin_path(dir, &m.ptx)).ok())
            .filter(|b| ptx::whole_cubin(b));
        // a cubin the driver refuses (another ptxas's format, say) leaves the text to JIT
        let loaded = match cubin.and_then(|b| self.ctx.load_module(Ptx::from_binary(b)).ok()) {
            Some(loaded) => loaded,
            None => self
                .ctx
                .load_module(Ptx::from_src(m.ptx.text))
                .map_err(|source| Error::PtxRejected {
                    module: m.ptx.name,
                    source,
                })?,
        };
        Ok(m.loaded.get_or_init(|| loaded).clone())
    }

    /// The CTA trace of a measuring build (kernels built with `CUTE_RS_KERNEL_FEATURES=
    /// hgemm_fp8/cta-trace`: the kernel crates' `collective::trace`): for each loaded module
    /// that holds the global `cute_rs_cta_trace`, its family and words (the ring's counter,
    /// then its records of four words). Empty where no module has one (every default build).
    /// Waits for the default stream.
    ///
    /// ```no_run
    /// let ctx = host::Context::new(0)?;
    /// // ... launches of a traced build ...
    /// for (family, words) in ctx.cta_trace()? {
    ///     println!("{family}: {} records", words[0] as u32);
    /// }
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn cta_trace(&self) -> Result<Vec<(&'static str, Vec<u64>)>> {
        let s = self.default_stream();
        let mut out = Vec::new();
        for m in &self.modules {
            let Some(loaded) = m.loaded.get() else {
                continue;
            };
            let Ok(view) = loaded.get_global("cute_rs_cta_trace", &s) else {
                continue;
            };
            let bytes: Vec<u8> = s.clone_dtoh(&view)?;
            let words = bytes
                .chunks_exact(8)
                .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes")))
                .collect();
            out.push((m.ptx.name, words));
        }
        Ok(out)
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
        self.require_kernel(entry)?;
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
    /// problem instead of failing to allocate its host copies); else
    /// [`Error::TooLargeForDevice`] naming `what`.
    ///
    /// ```no_run
    /// let ctx = host::Context::new(0)?;
    /// assert!(ctx.check_fits("A", 1 << 20).is_ok());
    /// assert!(ctx.check_fits("A", 1 << 60).is_err());
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn check_fits(&self, what: &str, bytes: u128) -> Result<()> {
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

/// The environment variable [`LoadOptions::from_env`] reads into [`LoadOptions::arch`]: an
/// architecture (`sm_80`) to load instead of the best build per family (`host --arch` sets it).
pub const ARCH_ENV: &str = "CUTE_RS_LOAD_ARCH";

/// The environment variable [`LoadOptions::from_env`] reads into [`LoadOptions::ptx_dir`].
pub const PTX_DIR_ENV: &str = "CUTE_RS_PTX_DIR";

/// The environment variable [`LoadOptions::from_env`] reads into [`LoadOptions::cubin_dir`]
/// (`cargo xtask run` sets it to `target/ptx`, where `cargo xtask build-kernels` keeps them).
pub const CUBIN_DIR_ENV: &str = "CUTE_RS_CUBIN_DIR";

/// How a [`Context`] loads the kernels' PTX, for testing and measuring; the default loads, per
/// family, the embedded build the device runs best. The library never reads these from the
/// environment: a program passes them ([`Context::open_with`],
/// [`Context::from_cuda_context_lazy_with`]), and the `host` CLI and the Python package build
/// them with [`LoadOptions::from_env`], as they build [`Overrides`].
///
/// ```
/// let o = host::LoadOptions { ptx_dir: Some("target/ptx".into()), ..Default::default() };
/// assert!(o.arch.is_none() && host::LoadOptions::default() != o);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// Load only the build for this architecture (`sm_80`: the Ampere build, which an H100
    /// also runs), as [`Context::with_arch`]; [`Error::UnknownArch`] names the embedded ones.
    pub arch: Option<String>,
    /// A folder whose `<family>.ptx` (and `<arch>/<family>.ptx`) replace the embedded modules
    /// ([`ptx::modules_from`]): kernel variants measured without rebuilding the host.
    pub ptx_dir: Option<std::path::PathBuf>,
    /// A folder of cubins (`ptxas -arch=<arch>` of the modules, as `cargo xtask build-kernels`
    /// keeps them in `target/ptx/`): a module whose very text has one there
    /// ([`ptx::cubin_path`]) that this device runs ([`ptx::cubin_runs_on`]) is loaded from it,
    /// without the driver's JIT (a minute and more for the GEMM modules at a process's first
    /// launch). Any other module, or a cubin the driver refuses, loads its text as before.
    pub cubin_dir: Option<std::path::PathBuf>,
    /// Modules loaded beside the embedded ones, chosen per family and device by the same rule
    /// (and replaced by [`LoadOptions::ptx_dir`]'s files the same way): the `host` CLI's check
    /// kernels (`check_kernels::PTX_MODULES`: probes, wgmma proofs, the attention reference),
    /// which the library does not embed.
    pub extra_modules: &'static [cute_rs::PtxModule],
}

impl LoadOptions {
    /// The options the `CUTE_RS_LOAD_ARCH` ([`ARCH_ENV`]), `CUTE_RS_PTX_DIR`
    /// ([`PTX_DIR_ENV`]) and `CUTE_RS_CUBIN_DIR` ([`CUBIN_DIR_ENV`]) variables set (an empty
    /// value is unset): the one reader of those variables, called where the CLI and the Python
    /// package open a context.
    ///
    /// ```
    /// // with no variable set
    /// # unsafe { std::env::remove_var(host::ARCH_ENV); std::env::remove_var(host::PTX_DIR_ENV) };
    /// # unsafe { std::env::remove_var(host::CUBIN_DIR_ENV) };
    /// assert_eq!(host::LoadOptions::from_env(), host::LoadOptions::default());
    /// ```
    pub fn from_env() -> LoadOptions {
        let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
        LoadOptions {
            arch: var(ARCH_ENV).map(|v| v.to_string_lossy().into_owned()),
            ptx_dir: var(PTX_DIR_ENV).map(std::path::PathBuf::from),
            cubin_dir: var(CUBIN_DIR_ENV).map(std::path::PathBuf::from),
            extra_modules: &[],
        }
    }
}

/// `arch` as one of the embedded architectures.
fn forced_arch(arch: Option<&str>) -> Result<Option<&'static str>> {
    let Some(arch) = arch else { return Ok(None) };
    match ptx::ARCHS.iter().find(|a| **a == arch) {
        Some(a) => Ok(Some(a)),
        None => Err(Error::UnknownArch {
            arch: arch.to_string(),
            embedded: ptx::ARCHS.join(", "),
        }),
    }
}

/// Per family, the module to load on a device of `capability`: the build for `forced`, else the
/// best build the device runs (the highest capability; an architecture-specific build such as
/// `sm_90a` before a plain one of the same capability). Families without such a build are left
/// out; their kernels return [`Error::NeedsArch`].
fn choose_modules(
    all: Vec<PtxModule>,
    capability: (i32, i32),
    forced: Option<&str>,
) -> Vec<PtxModule> {
    let rank = |m: &PtxModule| ptx::required_capability(m.arch).unwrap_or((0, 0, false));
    let mut fit: Vec<PtxModule> = all
        .into_iter()
        .filter(|m| !m.text.is_empty() && ptx::runs_on(m.arch, capability))
        .filter(|m| forced.is_none_or(|a| a == m.arch))
        .collect();
    // stable: among equal ranks the embedding order stays
    fit.sort_by_key(|m| std::cmp::Reverse(rank(m)));
    let mut chosen: Vec<PtxModule> = Vec::new();
    for m in fit {
        if !chosen.iter().any(|c| c.name == m.name) {
            chosen.push(m);
        }
    }
    chosen
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
    fn each_family_loads_the_best_build_the_device_runs() {
        let m = |name, arch| PtxModule {
            name,
            arch,
            text: "x",
        };
        let all = vec![
            m("copy", "sm_90a"),
            m("wgmma", "sm_90a"),
            m("copy", "sm_80"),
            m("hgemm_sm80", "sm_80"),
        ];
        let pick = |cap, forced| -> Vec<(&str, &str)> {
            choose_modules(all.clone(), cap, forced)
                .iter()
                .map(|m| (m.name, m.arch))
                .collect()
        };
        assert_eq!(
            pick((9, 0), None),
            [
                ("copy", "sm_90a"),
                ("wgmma", "sm_90a"),
                ("hgemm_sm80", "sm_80")
            ]
        );
        assert_eq!(
            pick((9, 0), Some("sm_80")),
            [("copy", "sm_80"), ("hgemm_sm80", "sm_80")]
        );
        assert_eq!(
            pick((8, 9), None),
            [("copy", "sm_80"), ("hgemm_sm80", "sm_80")]
        );
        assert_eq!(pick((10, 0), None).len(), 2); // sm_90a PTX does not run on sm_100
        assert!(pick((7, 5), None).is_empty());
        assert!(pick((8, 6), Some("sm_90a")).is_empty());
    }

    #[test]
    fn an_arch_not_embedded_is_refused() {
        let e = forced_arch(Some("sm_75")).unwrap_err();
        assert!(matches!(e, Error::UnknownArch { .. }), "{e}");
        assert_eq!(forced_arch(None).unwrap(), None);
    }

    #[test]
    fn without_kernels_new_is_an_error_not_a_panic() {
        if ptx::build_error().is_some() {
            let e = Context::new(0).unwrap_err();
            assert!(matches!(e, Error::NoKernels(_)) && e.is_unavailable());
        }
    }
}
