//! TMA copy atoms from layouts (CuTe's `make_tma_copy`, `cute/atom/copy_traits_sm90_tma.hpp`):
//! the `CUtensorMap` of a global tensor and a shared-memory box, encoded with
//! `cuTensorMapEncodeTiled` after CuTe's and the driver's preconditions are checked here, each
//! failure a [`TmaError`] naming the value.
//!
//! The shared-memory layout says the box: one mode per mode of the global tensor (its extent is
//! the box extent), compact, with the swizzle TMA writes (`Sw<B,4,3>` in bytes: none, 32, 64 or
//! 128 B). TMA writes the box with its dimension 0 contiguous, so the smem layout's stride-1
//! mode must be the global tensor's stride-1 mode; the other modes follow in the smem layout's
//! stride order, which becomes the tensor map's dimension order.
//!
//! ```
//! use host::tma::{GmemTensor, TmaOp, plan_tma_copy};
//! use layout_types::value::swizzle::ComposedLayout;
//! // a 1000 x 4096 row-major f32 matrix at a 256-byte aligned address, 32 x 128 boxes
//! let g = GmemTensor::new::<f32>(0x7f00_0000_0000, &[1000, 4096], &[4096, 1]);
//! let s: ComposedLayout = "Sw<0,4,3> o _0 o (_32,_128):(_128,_1)".parse()?;
//! let p = plan_tma_copy(TmaOp::Load, &g, &s)?;
//! assert_eq!(p.box_dim, [128, 32]);           // TMA order: the contiguous n first
//! assert_eq!(p.global_dim, [4096, 1000]);
//! assert_eq!(p.global_stride_bytes, [4096 * 4]);
//! assert_eq!(p.tx_bytes, 32 * 128 * 4);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod launch;
pub(crate) mod plan;

use cudarc::driver::sys;

pub use device::tma::TmaDescriptor;
pub use plan::{GmemTensor, TmaElement, TmaError, TmaOp, TmaPlan, TmaSwizzle, plan_tma_copy};

use layout_types::cute::atom::tma::TmaBox;
use layout_types::value::swizzle::ComposedLayout;

use crate::context::Context;
use crate::error::{Error, Result};

/// The shared-memory layout of a kernel's TMA box `B` (the [`TmaBox`] type its `TmaAtom` takes
/// its layout from) as [`plan_tma_copy`] and [`Context::make_tma_copy`] take it: the type's
/// CuTe text, parsed by the value algebra. The host names the kernel's box type and restates
/// no layout.
///
/// ```
/// use host::tma::{GmemTensor, TmaOp, plan_tma_copy, tma_box};
/// use layout_types::cute::prelude::*;
/// use device::wgmma::MajorK;
/// use layout_types::cutlass::gmma_operand::SmemOperand;
/// // A K-major as the kernel's (k, row) coordinates: (K, M):(1, lda)
/// let g = GmemTensor::new::<u16>(0x1000, &[4096, 1000], &[1, 4096]);
/// let b = tma_box::<<MajorK as SmemOperand<_128, _64>>::Box>()?;
/// let p = plan_tma_copy(TmaOp::Load, &g, &b)?;
/// assert_eq!((p.box_dim, p.tx_bytes), (vec![64, 128], 64 * 128 * 2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn tma_box<B: TmaBox>() -> Result<ComposedLayout> {
    let text = B::default().to_string();
    text.parse()
        .map_err(|e| Error::Unsupported(format!("smem layout {text}: {e:?}")))
}

/// A TMA copy atom: the encoded tensor map and its plan. Pass [`TmaCopy::desc`] to the kernel by
/// value.
#[derive(Clone, Debug)]
pub struct TmaCopy {
    /// The tensor map (`CUtensorMap`).
    pub desc: TmaDescriptor,
    /// What it was encoded from.
    pub plan: TmaPlan,
}

impl From<TmaError> for Error {
    fn from(e: TmaError) -> Error {
        Error::Tma(e)
    }
}

/// Everything a tensor map is encoded from, as the cache key of [`Context::make_tma_copy`]:
/// address, element type, rank, extents, byte strides, box, swizzle.
fn cache_key(gmem: &GmemTensor, plan: &TmaPlan) -> Vec<u64> {
    let mut k = vec![
        gmem.address,
        gmem.data_type as u64,
        plan.box_dim.len() as u64,
    ];
    k.extend(&plan.global_dim);
    k.extend(&plan.global_stride_bytes);
    k.extend(plan.box_dim.iter().map(|&b| b as u64));
    k.push(plan.swizzle.span_bytes());
    k
}

/// Encoded maps kept per context before the cache starts over.
const TMA_CACHE_ENTRIES: usize = 256;

impl Context {
    /// CuTe's `make_tma_copy(op, gmem_tensor, smem_layout[, cluster_size])`: checks
    /// ([`plan_tma_copy`], every failure an [`Error::Tma`]) and encodes the tensor map with
    /// `cuTensorMapEncodeTiled` (out-of-bounds elements load as zero and are not stored; L2
    /// promotion 128 B, as CuTe). Encoded maps are kept per context by everything they were
    /// encoded from (address, element type, extents, strides, box, swizzle), so repeated copies
    /// on the same buffers re-run the checks but not the encoding.
    ///
    /// ```no_run
    /// use host::tma::{GmemTensor, TmaOp};
    /// let ctx = host::Context::new(0)?;
    /// let stream = ctx.default_stream();
    /// let a = stream.alloc_zeros::<f32>(1024 * 1024)?;
    /// let (p, _rec) = cudarc::driver::DevicePtr::device_ptr(&a, &stream);
    /// let g = GmemTensor::new::<f32>(p, &[1024, 1024], &[1024, 1]);
    /// let tma = ctx.make_tma_copy(TmaOp::Load, &g, &"Sw<0,4,3> o _0 o (_32,_64):(_64,_1)".parse()?)?;
    /// assert_eq!(tma.plan.tx_bytes, 32 * 64 * 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn make_tma_copy(
        &self,
        op: TmaOp,
        gmem: &GmemTensor,
        smem: &ComposedLayout,
    ) -> Result<TmaCopy> {
        let plan = plan_tma_copy(op, gmem, smem)?;
        self.encode_tma(gmem, plan)
    }

    /// Encodes (or finds in the context's cache) the tensor map of a `plan` that
    /// [`plan_tma_copy`] made for `gmem`: the second half of [`Context::make_tma_copy`], for
    /// callers that planned already.
    pub(crate) fn encode_tma(&self, gmem: &GmemTensor, plan: TmaPlan) -> Result<TmaCopy> {
        let key = cache_key(gmem, &plan);
        let cached = self.tma_maps.lock().ok().and_then(|m| m.get(&key).copied());
        if let Some(words) = cached {
            return Ok(TmaCopy {
                desc: TmaDescriptor(words),
                plan,
            });
        }
        self.cuda_context().bind_to_thread()?;
        let mut map = std::mem::MaybeUninit::<sys::CUtensorMap>::uninit();
        let ones = vec![1u32; plan.box_dim.len()];
        // SAFETY: every argument was checked against the driver's documented limits above; the
        // arrays have `rank` (`rank - 1` for the strides) entries.
        let r = unsafe {
            sys::cuTensorMapEncodeTiled(
                map.as_mut_ptr(),
                gmem.data_type,
                plan.box_dim.len() as u32,
                gmem.address as *mut std::ffi::c_void,
                plan.global_dim.as_ptr(),
                plan.global_stride_bytes.as_ptr(),
                plan.box_dim.as_ptr(),
                ones.as_ptr(),
                sys::CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE,
                plan.swizzle.driver(),
                sys::CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                sys::CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
            )
        };
        r.result()?;
        // SAFETY: initialized by the successful call.
        let map = unsafe { map.assume_init() };
        let desc = TmaDescriptor(map.opaque);
        if let Ok(mut m) = self.tma_maps.lock() {
            if m.len() >= TMA_CACHE_ENTRIES {
                m.clear();
            }
            m.insert(key, desc.0);
        }
        Ok(TmaCopy { desc, plan })
    }
}
