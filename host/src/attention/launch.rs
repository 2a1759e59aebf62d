//! The attention launch. On this branch (attn-host) a stand-in that runs the GPU reference
//! (`kernels/attention_ref`) and writes O at the problem's strides, so that everything around
//! the kernel is testable end to end; the tensor-core kernel's launch (`kernels/attention`,
//! branch `attn`) replaces this file with the same signature.

use std::sync::Arc;

use cudarc::driver::{CudaSlice, CudaStream};

use super::AttnElement;
use super::gpu_reference::{RefOut, attention_reference};
use super::problem::AttentionProblem;
use crate::context::Context;
use crate::error::Error;

/// `O` and `LSE` of a checked problem, queued on `stream`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn attention_fwd<T: AttnElement>(
    ctx: &Context,
    stream: &Arc<CudaStream>,
    p: &AttentionProblem,
    q: &CudaSlice<T>,
    k: &CudaSlice<T>,
    v: &CudaSlice<T>,
    o: &mut CudaSlice<T>,
    lse: &mut CudaSlice<f32>,
) -> Result<(), Error> {
    attention_reference(ctx, stream, p, q, k, v, RefOut::Strided(o), lse)
}
