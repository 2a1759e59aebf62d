//! Attention forward on Hopper (`kernels/attention`, issue #33): [`Context::attention`].
//!
//! Minimal stand-in on the `attn` branch (the kernel's owner): the checks, typed errors and
//! `AttentionConfig` come with attn-host's version of this module, which replaces this one.

pub mod launch;
#[allow(missing_docs)] // the shared interface file, verbatim (attn-host documents it)
pub mod problem;

use std::sync::Arc;

use cudarc::driver::{CudaSlice, CudaStream};

use crate::context::Context;
use crate::error::Result;
pub use crate::hgemm::HalfElement as AttnElement;
pub use problem::{AttentionProblem, Causal};

impl Context {
    /// `O = softmax(scale · Q·Kᵀ + mask) · V` and the LSE of every query row for a problem the
    /// caller has checked (see [`AttentionProblem`] for the layouts), queued on `stream`.
    #[allow(clippy::too_many_arguments)]
    pub fn attention<T: AttnElement>(
        &self,
        stream: &Arc<CudaStream>,
        p: &AttentionProblem,
        q: &CudaSlice<T>,
        k: &CudaSlice<T>,
        v: &CudaSlice<T>,
        o: &mut CudaSlice<T>,
        lse: &mut CudaSlice<f32>,
    ) -> Result<()> {
        self.check_stream(stream)?;
        launch::attention_fwd(self, stream, p, q, k, v, o, lse)
    }
}
