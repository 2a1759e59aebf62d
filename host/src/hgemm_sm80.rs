//! The bf16/fp16 GEMM for Ampere and Ada (`kernels/hgemm_sm80`: `mma.sync` m16n8k16,
//! `ldmatrix`, a 4-stage `cp.async` pipeline): what [`Context::hgemm`] runs on sm_80–89 GPUs, and
//! anywhere with [`GemmKernel::Sm80`] (Hopper runs the sm_80 PTX too).
//!
//! The kernel loads A and B with 16-byte `cp.async` copies along their contiguous dimension, so
//! `lda` and `ldb` must be multiples of 8 elements and A and B 16-byte aligned
//! ([`hgemm_sm80_check`]); C takes any `ldc ≥ M` (a 16-bit C whose address and column stride
//! are multiples of 8 bytes is stored 4 rows at a time from whole tiles, otherwise element by
//! element).

use cudarc::driver::{CudaStream, DevicePtr, DevicePtrMut, PushKernelArg};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::gemm::{GemmConfig, GemmKernel, Trans};
use crate::hgemm::{GemmOut, HalfElement, check_16_byte_operands};

// the 16-byte vectors of the shared operand rule are this kernel's cp.async vectors
const _: () = assert!(config::VECTOR * 2 == 16);

/// The Ampere family's configuration and kernel parameters, the kernel's own source
/// (`kernels/hgemm_sm80/src/config.rs`): the host launches with these numbers and this struct.
#[path = "../../kernels/hgemm_sm80/src/config.rs"]
#[allow(dead_code)]
pub mod config;

/// The kernel's CTA tile, threads and shared memory, from [`config`].
///
/// ```
/// use host::hgemm_sm80::{HgemmSm80Kernel, config};
/// assert_eq!(HgemmSm80Kernel::TILE, (128, 128, 32));
/// // 64 KiB: two CTAs an SM on an A100 or H100/H200, one on an RTX 4090 (100 KiB an SM)
/// assert_eq!(HgemmSm80Kernel::SMEM_BYTES, 4 * (128 + 128) * 32 * 2);
/// assert_eq!(size_of::<config::HgemmSm80Params>(), 72);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HgemmSm80Kernel;

impl HgemmSm80Kernel {
    /// The CTA tile (M, N, K).
    pub const TILE: (usize, usize, usize) = config::TILE;
    /// Threads per CTA: four warps.
    pub const THREADS: u32 = config::THREADS;
    /// Dynamic shared memory per CTA: `size_of` the kernel's shared storage.
    pub const SMEM_BYTES: usize = config::SMEM_BYTES;
    /// Elements per `cp.async` vector: `lda` and `ldb` must be multiples of it.
    pub const VECTOR: usize = config::VECTOR;

    /// The entry for the input element and the transposes, `hgemm_sm80_bf16_tn`.
    ///
    /// ```
    /// use host::{Trans, hgemm_sm80::HgemmSm80Kernel};
    /// assert_eq!(HgemmSm80Kernel::entry::<half::f16>(Trans::N, Trans::T), "hgemm_sm80_f16_nt");
    /// ```
    pub fn entry<T: HalfElement>(ta: Trans, tb: Trans) -> String {
        let ch = |t: Trans| if t == Trans::N { 'n' } else { 't' };
        format!("hgemm_sm80_{}_{}{}", T::NAME, ch(ta), ch(tb))
    }
}

impl std::fmt::Display for HgemmSm80Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (m, n, k) = Self::TILE;
        write!(
            f,
            "hgemm_sm80 {m}x{n}x{k} mma.sync+ldmatrix {}-stage cp.async",
            config::STAGES
        )
    }
}

// SAFETY: `#[repr(C)]`, plain integers and floats: passed by value as the kernel's parameter.
unsafe impl cudarc::driver::DeviceRepr for config::HgemmSm80Params {}

// C's element codes are the host's `GemmOut::CODE`s
const _: () = assert!(
    <f32 as GemmOut>::CODE == config::OUT_F32
        && <half::bf16 as GemmOut>::CODE == config::OUT_BF16
        && <half::f16 as GemmOut>::CODE == config::OUT_F16
);

/// Why a problem cannot go to the Ampere kernel: [`GemmConfig::validate`]'s rules, then the
/// `cp.async` rules for A and B (`lda`, `ldb` multiples of 8 elements, base addresses 16-byte
/// aligned; 0 skips the address check).
///
/// ```
/// use host::{GemmConfig, hgemm_sm80::hgemm_sm80_check};
/// let g = GemmConfig::new(100, 64, 30);
/// let (na, nb, nc) = g.lens();
/// let e = hgemm_sm80_check(&g, (na, nb, nc), (0, 0)).unwrap_err();
/// assert!(e.to_string().contains("lda=100 must be a multiple of 8"), "{e}");
/// assert!(hgemm_sm80_check(&g.lda(104).ldb(32), (104 * 30, 32 * 64, nc), (0, 0)).is_ok());
/// let e = hgemm_sm80_check(&g.lda(104).ldb(32), (104 * 30, 32 * 64, nc), (0, 8)).unwrap_err();
/// assert!(e.to_string().contains("buffer B"), "{e}");
/// ```
pub fn hgemm_sm80_check(
    g: &GemmConfig,
    lens: (usize, usize, usize),
    addrs: (u64, u64),
) -> Result<()> {
    g.validate(lens.0, lens.1, lens.2)?;
    if g.m == 0 || g.n == 0 {
        return Ok(());
    }
    check_16_byte_operands(
        g,
        addrs,
        (
            "the Ampere bf16/fp16 GEMM",
            "16-byte cp.async copies",
            "cp.async",
        ),
    )?;
    let (bm, bn, _) = HgemmSm80Kernel::TILE;
    if g.n.div_ceil(bn) > 65535 {
        return Err(Error::GridTooLarge {
            kernel: "hgemm_sm80",
            x: g.m.div_ceil(bm),
            y: g.n.div_ceil(bn),
            z: 1,
        });
    }
    Ok(())
}

impl Context {
    /// Whether [`Context::hgemm`] runs the Ampere kernel for `g`: asked for
    /// ([`GemmKernel::Sm80`]), or [`GemmKernel::Auto`] where the Hopper kernel is not loaded (an
    /// sm_80–89 GPU, or the sm_80 build forced).
    ///
    /// ```no_run
    /// let ctx = host::Context::new(0)?;
    /// let g = host::GemmConfig::new(64, 64, 64);
    /// println!("ampere kernel: {}", ctx.hgemm_uses_sm80(&g));
    /// # Ok::<(), host::Error>(())
    /// ```
    pub fn hgemm_uses_sm80(&self, g: &GemmConfig) -> bool {
        match g.kernel {
            GemmKernel::Sm80 => true,
            GemmKernel::Sm90 => false,
            GemmKernel::Auto => {
                !self.has_kernel("hgemm_bf16_tn") && self.has_kernel("hgemm_sm80_bf16_tn")
            }
        }
    }

    /// [`Context::hgemm`] on the Ampere kernel (checked: [`hgemm_sm80_check`], the stream and
    /// buffers of this context).
    ///
    /// ```no_run
    /// use half::f16;
    /// use host::{Context, GemmConfig};
    /// let ctx = Context::new(0)?;
    /// let stream = ctx.default_stream();
    /// let (m, n, k) = (256, 128, 64);
    /// let a = stream.clone_htod(&vec![f16::ONE; m * k])?;
    /// let b = stream.clone_htod(&vec![f16::from_f32(2.0); k * n])?;
    /// let mut c = stream.alloc_zeros::<f32>(m * n)?;
    /// ctx.hgemm_sm80(&stream, &GemmConfig::new(m, n, k), &a, &b, &mut c)?;
    /// assert!(stream.clone_dtoh(&c)?.iter().all(|&x| x == 128.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn hgemm_sm80<T, O, A, B, C>(
        &self,
        stream: &CudaStream,
        g: &GemmConfig,
        a: &A,
        b: &B,
        c: &mut C,
    ) -> Result<()>
    where
        T: HalfElement,
        O: GemmOut,
        A: DevicePtr<T>,
        B: DevicePtr<T>,
        C: DevicePtrMut<O>,
    {
        self.check_stream(stream)?;
        self.check_buffer("buffer A", a)?;
        self.check_buffer("buffer B", b)?;
        self.check_buffer("buffer C", c)?;
        let (pa, _ra) = a.device_ptr(stream);
        let (pb, _rb) = b.device_ptr(stream);
        hgemm_sm80_check(g, (a.len(), b.len(), c.len()), (pa, pb))?;
        if g.m == 0 || g.n == 0 {
            return Ok(());
        }
        let entry = HgemmSm80Kernel::entry::<T>(g.transa, g.transb);
        self.require_kernel(&entry)?;
        let f = self.function(&entry)?;
        f.set_attribute(
            cudarc::driver::sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            HgemmSm80Kernel::SMEM_BYTES as i32,
        )?;
        let (pc, _rc) = c.device_ptr_mut(stream);
        // the kernel's parameter struct (validated: sizes and leading dimensions below 2^31)
        let p = config::HgemmSm80Params {
            a: pa,
            b: pb,
            c: pc,
            lda: g.lda as i64,
            ldb: g.ldb as i64,
            ldc: g.ldc as i64,
            m: g.m as i32,
            n: g.n as i32,
            k: g.k as i32,
            alpha: g.alpha,
            beta: g.beta,
            out: O::CODE,
        };
        let (bm, bn, _) = HgemmSm80Kernel::TILE;
        let cfg = cudarc::driver::LaunchConfig {
            grid_dim: (g.m.div_ceil(bm) as u32, g.n.div_ceil(bn) as u32, 1),
            block_dim: (HgemmSm80Kernel::THREADS, 1, 1),
            shared_mem_bytes: HgemmSm80Kernel::SMEM_BYTES as u32,
        };
        self.cuda_context().bind_to_thread()?;
        let mut l = stream.launch_builder(&f);
        l.arg(&p);
        // SAFETY: the signature is (config::HgemmSm80Params) — the kernel's own `#[repr(C)]`
        // struct, by value; A, B and C hold the checked extents and leading dimensions (A and B
        // 16-byte aligned, `lda`, `ldb` multiples of 8); the grid covers C with the kernel's
        // tiles, its threads and its shared storage.
        unsafe { l.launch(cfg) }?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_name_the_cp_async_rules() {
        let g = GemmConfig::new(64, 64, 64);
        assert!(hgemm_sm80_check(&g, g.lens(), (256, 512)).is_ok());
        let e = hgemm_sm80_check(&g, g.lens(), (258, 512)).unwrap_err();
        assert!(e.to_string().contains("buffer A"), "{e}");
        let e = hgemm_sm80_check(&g.ldb(65), (4096, 65 * 64, 4096), (0, 0)).unwrap_err();
        assert!(e.to_string().contains("ldb=65"), "{e}");
        // validate's rules come first; empty problems need nothing
        let e = hgemm_sm80_check(&g.lda(8), g.lens(), (0, 0)).unwrap_err();
        assert!(matches!(e, Error::LeadingDimension { name: "lda", .. }));
        assert!(hgemm_sm80_check(&GemmConfig::new(0, 5, 7), (0, 35, 0), (3, 5)).is_ok());
        // any ldc: C is stored element by element
        let g = GemmConfig::new(30, 20, 16).lda(32).ldb(16).ldc(31);
        assert!(hgemm_sm80_check(&g, (32 * 16, 16 * 20, 31 * 20), (0, 0)).is_ok());
    }

    #[test]
    fn entries_and_kernel_choice() {
        assert_eq!(
            HgemmSm80Kernel::entry::<half::bf16>(Trans::T, Trans::N),
            "hgemm_sm80_bf16_tn"
        );
        assert_eq!("auto".parse::<GemmKernel>(), Ok(GemmKernel::Auto));
        assert!("sm75".parse::<GemmKernel>().is_err());
    }
}
