//! Finding the GPU without ever panicking.
//!
//! cudarc's `dynamic-loading` opens libcuda lazily and *panics* when it is missing,
//! so we probe first (`is_culib_present`, inside `catch_unwind` with the panic
//! message silenced) and turn every failure into a one-line [`NoGpu`] reason.

use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaFunction, CudaModule, CudaStream, DriverError};
use cudarc::nvrtc::Ptx;

/// Why no kernel can run here; printed as one line, exit code 2.
#[derive(Debug, Clone)]
pub struct NoGpu(pub String);

impl std::fmt::Display for NoGpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Runs `f`, turning a panic (cudarc's "Unable to dynamically load ...") into `Err`,
/// without printing the default panic message.
pub fn no_panic<T>(what: &str, f: impl FnOnce() -> T) -> Result<T, NoGpu> {
    crate::quiet::catch_quiet(f).map_err(|msg| NoGpu(format!("{what}: {msg}")))
}

/// A device, its context and stream, with every embedded PTX module (one per kernel family)
/// loaded.
pub struct Gpu {
    pub ctx: Arc<CudaContext>,
    pub stream: Arc<CudaStream>,
    /// `(family, module)` for each of `cute_rs::PTX_MODULES`.
    pub modules: Vec<(&'static str, Arc<CudaModule>)>,
    /// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)".
    pub description: String,
}

impl Gpu {
    /// The loaded module of kernel family `family`.
    pub fn module(&self, family: &str) -> Option<&Arc<CudaModule>> {
        self.modules
            .iter()
            .find_map(|(f, m)| (*f == family).then_some(m))
    }

    /// Kernel `name`, from whichever family's module defines it.
    pub fn function(&self, name: &str) -> Result<CudaFunction, DriverError> {
        let family = cute_rs::module_of(name).map_or("", |m| m.family);
        match self.module(family) {
            Some(m) => m.load_function(name),
            None => Err(DriverError(
                cudarc::driver::sys::CUresult::CUDA_ERROR_NOT_FOUND,
            )),
        }
    }
}

/// Opens device `ordinal` and loads every module of `cute_rs::PTX_MODULES`.
pub fn open(ordinal: usize) -> Result<Gpu, NoGpu> {
    if let Some(why) = cute_rs::KERNELS_PTX_ERROR {
        return Err(NoGpu(format!("no GPU kernels in this build ({why})")));
    }
    let present = no_panic("loading libcuda", || unsafe {
        cudarc::driver::sys::is_culib_present()
    })?;
    if !present {
        return Err(NoGpu(
            "no CUDA driver: libcuda.so could not be loaded (no NVIDIA driver on this machine)"
                .to_string(),
        ));
    }
    no_panic("CUDA driver", || open_inner(ordinal))?
}

fn open_inner(ordinal: usize) -> Result<Gpu, NoGpu> {
    let count = CudaContext::device_count().map_err(|e| {
        NoGpu(format!(
            "no usable CUDA device: cuInit/cuDeviceGetCount failed: {e}"
        ))
    })?;
    if count <= 0 {
        return Err(NoGpu(
            "no CUDA device: the driver reports 0 GPUs".to_string(),
        ));
    }
    if ordinal >= count as usize {
        return Err(NoGpu(format!(
            "no CUDA device {ordinal}: the driver reports {count}"
        )));
    }
    let ctx = CudaContext::new(ordinal)
        .map_err(|e| NoGpu(format!("could not create a context on GPU {ordinal}: {e}")))?;
    let name = ctx.name().unwrap_or_else(|_| "unknown GPU".to_string());
    let (major, minor) = ctx.compute_capability().unwrap_or((0, 0));
    let sms = ctx
        .attribute(
            cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
        )
        .unwrap_or(0);
    let description = format!("{name} (sm_{major}{minor}, {sms} SMs)");
    let arch = cute_rs::KERNELS_PTX_ARCH;
    let arch_cc: String = arch
        .trim_start_matches("sm_")
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    if arch.ends_with('a') && arch_cc != format!("{major}{minor}") {
        return Err(NoGpu(format!(
            "{description}: the embedded PTX targets {arch}, which runs only on sm_{arch_cc}; \
             rebuild with CUTE_RS_ARCH=sm_{major}{minor}"
        )));
    }
    let stream = ctx.default_stream();
    let mut modules = Vec::new();
    for m in cute_rs::PTX_MODULES {
        let module = ctx.load_module(Ptx::from_src(m.ptx)).map_err(|e| {
            NoGpu(format!(
                "{description}: the driver rejected the embedded PTX of the `{}` kernels: {e}",
                m.family
            ))
        })?;
        modules.push((m.family, module));
    }
    Ok(Gpu {
        ctx,
        stream,
        modules,
        description,
    })
}
