//! The library's one error type: every precondition of every entry point is a variant, checked
//! before anything is queued on the GPU.

use cudarc::cublas::result::CublasError;
use cudarc::driver::DriverError;

/// Everything that can go wrong in this crate, as data.
///
/// Argument errors (sizes, leading dimensions, buffer lengths, alignment, grid limits) are
/// returned *before* any launch; [`Error::is_unavailable`] tells the "there is no usable GPU
/// here" family apart (the CLI prints those as `no GPU: ...` and exits 2).
///
/// ```
/// use host::{Error, GemmConfig};
/// // Argument checks need no GPU: lda = 3 is smaller than the 8 rows of A.
/// let e = GemmConfig::new(8, 8, 8).lda(3).validate(64, 64, 64).unwrap_err();
/// assert!(matches!(e, Error::LeadingDimension { name: "lda", ld: 3, min: 8 }));
/// assert!(!e.is_unavailable());
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// This build embeds no PTX (the nightly toolchain was missing when it was compiled, or
    /// `CUTE_RS_SKIP_PTX=1`).
    #[error("no GPU kernels in this build ({0})")]
    NoKernels(&'static str),
    /// libcuda could not be loaded (no NVIDIA driver on this machine).
    #[error("no CUDA driver: {0}")]
    NoDriver(String),
    /// The driver works but reports no device with this ordinal.
    #[error("no CUDA device {ordinal}: the driver reports {count}")]
    NoDevice {
        /// The ordinal asked for.
        ordinal: usize,
        /// How many devices the driver reports.
        count: usize,
    },
    /// The device cannot run the embedded PTX (`sm_90a` PTX runs only on compute capability
    /// 9.0; `sm_80` PTX on 8.0 and newer).
    #[error(
        "{device}: the embedded PTX targets {arch}, which does not run on sm_{}{}; rebuild with CUTE_RS_ARCH=sm_{}{}",
        .capability.0, .capability.1, .capability.0, .capability.1
    )]
    ArchMismatch {
        /// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)".
        device: String,
        /// The PTX target, e.g. `sm_90a`.
        arch: &'static str,
        /// The device's compute capability (major, minor).
        capability: (i32, i32),
    },
    /// The driver did not accept a PTX module (JIT failure).
    #[error("the driver rejected PTX module `{module}`: {source}")]
    PtxRejected {
        /// The module (kernel family) name.
        module: &'static str,
        /// The driver's error.
        source: DriverError,
    },
    /// The kernel is in the build of another architecture than the one this context loaded for
    /// its family (a Hopper kernel on an Ampere/Ada device, or under
    /// [`Context::with_arch`](crate::Context::with_arch)).
    #[error(
        "kernel `{kernel}` needs {arch}: {device} loaded the {loaded} PTX, which does not have it"
    )]
    NeedsArch {
        /// The kernel asked for.
        kernel: String,
        /// The architecture of the build that has it, e.g. `sm_90a`.
        arch: &'static str,
        /// "NVIDIA A100-SXM4-80GB (sm_80, 108 SMs)".
        device: String,
        /// The architectures of the loaded modules, e.g. `sm_80`.
        loaded: String,
    },
    /// An architecture this binary embeds no PTX for ([`Context::with_arch`](crate::Context::with_arch)).
    #[error(
        "no PTX for {arch} in this build (it has {embedded}); build with CUTE_RS_ARCHS={arch},..."
    )]
    UnknownArch {
        /// The architecture asked for.
        arch: String,
        /// The embedded ones, comma-separated.
        embedded: String,
    },
    /// No loaded PTX module has this kernel (the embedded ones, or the files of
    /// [`LoadOptions::ptx_dir`](crate::LoadOptions::ptx_dir) that replaced them).
    #[error(
        "kernel `{0}` is not in the embedded PTX (or in the modules CUTE_RS_PTX_DIR put in its place)"
    )]
    MissingKernel(String),
    /// A CUDA driver call failed.
    #[error("CUDA driver: {0}")]
    Driver(#[from] DriverError),
    /// libcublas could not be loaded or a cuBLAS call failed.
    #[error("cuBLAS: {0}")]
    Cublas(String),
    /// A problem size outside what the kernels index (each of M, N, K must be < 2^31).
    #[error("{name}={value} is too large: must be < 2^31")]
    SizeTooLarge {
        /// "m", "n", "k", ...
        name: &'static str,
        /// The size given.
        value: usize,
    },
    /// A scale (`alpha`, `beta`) that is infinite or NaN: refused before any launch (the result
    /// would be infinite or NaN wherever the product is nonzero, and no check could tell a
    /// right infinity from a wrong one).
    #[error("{name}={value} must be finite")]
    NonFinite {
        /// "alpha" or "beta".
        name: &'static str,
        /// The value given.
        value: f32,
    },
    /// A problem whose buffers exceed the device's memory, refused before any allocation.
    #[error("{what} needs {needed_gib:.1} GiB of buffers, the device has {total_gib:.1} GiB")]
    TooLargeForDevice {
        /// The problem.
        what: String,
        /// GiB the buffers need.
        needed_gib: f64,
        /// GiB of device memory.
        total_gib: f64,
    },
    /// A leading dimension smaller than the rows of the stored matrix, or too large.
    #[error("{name}={ld} must be >= {min} (the stored matrix's contiguous extent) and < 2^31")]
    LeadingDimension {
        /// "lda", "ldb", "ldc", "lds", "ldd".
        name: &'static str,
        /// The leading dimension given.
        ld: usize,
        /// The smallest legal value.
        min: usize,
    },
    /// A buffer shorter than the matrix it must hold.
    #[error("buffer {name} has {len} elements, the problem needs {needed}")]
    BufferTooSmall {
        /// "A", "B", "C", "src", "dst".
        name: &'static str,
        /// The buffer's length in elements.
        len: usize,
        /// Elements the problem touches.
        needed: usize,
    },
    /// A 128-bit copy on a base address that is not 16-byte aligned.
    #[error(
        "buffer {name}: base address {address:#x} is not {align}-byte aligned; {kernel} moves {align} bytes per instruction (use CopyInstruction::Scalar)"
    )]
    Misaligned {
        /// "src" or "dst".
        name: &'static str,
        /// The device address.
        address: u64,
        /// The alignment needed, in bytes.
        align: usize,
        /// The kernel that needs it.
        kernel: &'static str,
    },
    /// A leading dimension that would start rows off the vector alignment.
    #[error(
        "{name}={ld} is not a multiple of the vector width {vector} of {kernel} (rows would start misaligned)"
    )]
    LeadingDimensionAlignment {
        /// "lds", "ldd".
        name: &'static str,
        /// The leading dimension given.
        ld: usize,
        /// Elements per vector.
        vector: usize,
        /// The kernel that needs it.
        kernel: &'static str,
    },
    /// The launch grid would exceed CUDA's limits.
    #[error("{kernel}: a grid of {x}x{y}x{z} blocks exceeds CUDA's limits")]
    GridTooLarge {
        /// The kernel.
        kernel: &'static str,
        /// Blocks along x.
        x: usize,
        /// Blocks along y.
        y: usize,
        /// Blocks along z.
        z: usize,
    },
    /// A buffer or stream that belongs to another CUDA context than this [`crate::Context`].
    #[error("{0} belongs to another CUDA context than this host::Context")]
    ForeignContext(&'static str),
    /// A global tensor and shared-memory layout that make no TMA copy (CuTe's `make_tma_copy`
    /// and `cuTensorMapEncodeTiled` preconditions), checked before the driver is called.
    #[error(transparent)]
    Tma(crate::tma::plan::TmaError),
    /// An attention problem the kernel cannot run ([`crate::attention::AttentionConfig::check`],
    /// [`crate::Context::attention`]).
    #[error(transparent)]
    Attention(crate::attention::error::AttentionError),
    /// A combination the kernels do not implement (e.g. a column-major scalar copy).
    #[error("not supported: {0}")]
    Unsupported(String),
    /// A measuring override (`CUTE_RS_*`, [`Overrides`](crate::Overrides)) whose value this
    /// problem cannot take (refused before any launch).
    #[error("{name}={value}: {why}")]
    Override {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
        /// What the problem needs of it.
        why: String,
    },
}

impl Error {
    /// Whether this error means "no usable GPU here" (no kernels built, no driver, no device,
    /// wrong architecture) rather than a bad argument or a failed launch.
    ///
    /// ```
    /// assert!(host::Error::NoKernels("CUTE_RS_SKIP_PTX=1 was set").is_unavailable());
    /// ```
    pub fn is_unavailable(&self) -> bool {
        matches!(
            self,
            Error::NoKernels(_)
                | Error::NoDriver(_)
                | Error::NoDevice { .. }
                | Error::ArchMismatch { .. }
                | Error::PtxRejected { .. }
        )
    }

    /// Whether this error refuses the caller's problem or arguments before anything ran (a
    /// usage error: the CLI exits 2), rather than a failed launch or check.
    ///
    /// ```
    /// let e = host::Error::NonFinite { name: "alpha", value: f32::INFINITY };
    /// assert!(e.is_refusal() && !e.is_unavailable());
    /// ```
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            Error::NonFinite { .. }
                | Error::TooLargeForDevice { .. }
                | Error::SizeTooLarge { .. }
                | Error::LeadingDimension { .. }
                | Error::Override { .. }
        )
    }
}

impl From<CublasError> for Error {
    fn from(e: CublasError) -> Self {
        Error::Cublas(format!("{e:?}"))
    }
}

/// `Result<T, host::Error>`.
///
/// ```
/// fn f() -> host::Result<()> { Ok(()) }
/// assert!(f().is_ok());
/// ```
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl From<cudarc::cublaslt::result::CublasError> for Error {
    fn from(e: cudarc::cublaslt::result::CublasError) -> Self {
        Error::Cublas(format!("cuBLASLt: {e:?}"))
    }
}
