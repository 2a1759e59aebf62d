//! CuTe's tensor-core algebra on typed layouts (`atom/mma_atom.hpp`): MMA atoms as zero-sized
//! types ([`atoms`]), `make_tiled_mma` ([`TiledMma`]), a thread's slice ([`ThrMma`]) with
//! `partition_a/b/c` and `partition_fragment_a/b/c` (registers, or for a GMMA `_SS` operand the
//! `wgmma` descriptor tensor of [`super::gmma`]), and the TV layouts (`layout_a_tv` ...).
//!
//! A TiledMMA is built as CuTe builds it, from the typed algebra: `thr_layout_vmnk` is
//! `tiled_product(ThrID, AtomLayoutMNK)`, `thrfrg_c(layout)` is `logical_divide` by the
//! permutation, `zipped_divide` by the atom, `composition` with the atom's `CLayout` and
//! `zipped_divide` by the threads, and a thread's partition is the slice of that at the thread's
//! coordinate. Every layout the atom and the TiledMMA contribute is static, so the partition of a
//! tensor keeps the tensor's strides (static or run time) and costs what hand-written index
//! arithmetic costs.
//!
//! ```
//! use layout_types::cute::prelude::*;
//! use layout_types::cute::atom::mma::*;
//! let mma = make_tiled_mma(SM80_16x8x16_F32BF16BF16F32_TN::new(), layout!((_2, _2, _1):(_1, _2, _4)));
//! assert_eq!(mma.tile_shape().to_string_cute(), "(_32,_16,_16)");
//! assert_eq!(mma.size(), 128);
//! let ldc = 128i32;
//! let mut c = vec![0f32; 128 * 128];
//! let gc = make_tensor(make_gmem_ptr(c.as_mut_ptr()), layout!((_128, _128):(_1, ldc)));
//! let t_cg_c = mma.get_slice(5i32).partition_c(&gc);          // (MMA, MMA_M, MMA_N)
//! assert_eq!(t_cg_c.layout.to_string(), "((_2,_2),_4,_8):((128,_8),_32,2048)");
//! let frag = mma.partition_fragment_c(&gc);                    // the accumulators
//! assert_eq!(frag.len(), 128);
//! ```

pub mod atoms;
pub mod fragment;
pub mod gmma_acc;
pub mod ldsm;
pub mod ldsm_slice;

pub mod tiled;

pub use atoms::*;
pub use fragment::FragmentLike;
pub use ldsm::{
    LdsmAtom, SM75_U16x2_LDSM_T, SM75_U16x4_LDSM_T, SM75_U16x8_LDSM_T, SM75_U32x1_LDSM_N,
    SM75_U32x2_LDSM_N, SM75_U32x4_LDSM_N, TiledCopyMma, make_tiled_copy_a, make_tiled_copy_b,
    make_tiled_copy_c,
};

pub use ldsm_slice::{LdsmPartition, ThrCopyMma};
pub use tiled::*;

/// The user guide `doc/typed-mma.md`, whose examples run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../../../doc/typed-mma.md")]
pub struct TypedMmaGuide;
