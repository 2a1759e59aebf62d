//! CuTe's kernel-side API over *typed* layouts: every shape and stride leaf is either a static
//! type (`_8`, `Int<N>`: the value is the type) or a dynamic field (a Rust integer), mixed freely,
//! and every operation is a generic `#[inline(always)]` function that recurses over the tuple
//! types. After monomorphization only the arithmetic on dynamic leaves is left, so kernels written
//! with this API cost what hand-written index arithmetic costs (checked on the PTX by
//! `tests/ptx_typed_probes.rs`).
//!
//! The value algebra ([`crate::value::layout::DynLayout`], [`crate::text::eval`]) stays the reference: the typed
//! operations print the same text and are tested against it (`layout-types/tests/typed_differential.rs`,
//! `tests/typed_props.rs`).
//!
//! ```
//! use layout_types::cute::prelude::*;
//! let (m, ld) = (100i32, 128i32);
//! let a = layout!((m, _8):(_1, ld));        // mixed: m and ld are fields, _8 and _1 are types
//! assert_eq!(a.to_string(), "(100,_8):(_1,128)");
//! assert_eq!(a.crd2idx((5i32, 3i32)), 5 + 3 * 128);
//! assert_eq!(core::mem::size_of_val(&layout!((_4, _8):(_1, _4))), 0);
//! ```

pub mod algorithm;
pub mod arith;
pub mod atom;
pub mod coalesce;
pub mod common;
pub mod complement;
pub mod composition;
pub mod consts;
pub mod divide;
pub mod fast_divmod;
pub mod group;
pub mod int;
pub mod inverse;
pub mod layout;
pub mod partition;
pub mod product;
pub mod static_call;
pub mod static_result;
pub mod stride;
pub mod swizzle;
pub mod tensor;
pub mod tiler;
pub mod tuple;

/// The typenum crate (static values are typenum integers: `C<typenum::P8>` is `_8`).
pub use typenum;

/// The typed layer in one import.
pub mod prelude {
    pub use super::algorithm::{axpby, clear, copy_tensor, copy_with, fill, gemm};
    pub use super::arith::{ATup, E0, E1, E2, elem_less};
    pub use super::atom::copy::{
        Copy128, CpAsync16, TiledCopy, UniversalCopy, copy, copy_if, make_fragment_like_partition,
        make_tiled_copy, make_tiled_copy_tv,
    };
    pub use super::coalesce::{coalesce, coalesce_by, filter, filter_zeros};
    pub use super::common::{MaxCommon, max_common_layout, max_common_vector};
    pub use super::complement::{complement, complement_default};
    pub use super::composition::composition;
    pub use super::consts::*;
    pub use super::divide::{
        FlatDivide, LogicalDivide, TiledDivide, ZippedDivide, flat_divide, local_partition_leaf,
        local_partition_proj_leaf, local_tile_leaf, local_tile_proj_leaf, logical_divide,
        outer_partition, tiled_divide, zipped_divide,
    };
    pub use super::fast_divmod::FastDivmod;
    pub use super::group::group;
    pub use super::int::{
        C, CeilDiv, Diff, DynInt, Int, IntAdd, IntDiv, IntFacts, IntMax, IntMin, IntMul, IntRem,
        IntSub, Integral, Maximum, Minimum, Mod, Prod, Quot, StaticInt, Sum, int_add, int_div,
        int_max, int_min, int_mul, int_rem, int_sub,
    };
    pub use super::inverse::{left_inverse, right_inverse};
    pub use super::layout::{
        Layout, StaticLayoutValue, idx2crd, make_layout, make_layout_left, make_layout_right,
    };
    pub use super::partition::{
        local_partition, local_partition_proj, local_tile, local_tile_proj,
    };
    pub use super::product::{
        blocked_product, flat_product, logical_product, raked_product, tiled_product,
        zipped_product,
    };
    pub use super::stride::{
        GenColMajor, GenRowMajor, LayoutLeft, LayoutRight, make_layout_major, make_ordered_layout,
    };
    pub use super::swizzle::{Swizzled, make_composed_layout};
    pub use super::tensor::{
        Counting, Fragment, Gmem, PtrEngine, Reg, Smem, Tensor, make_fragment_like, make_gmem_ptr,
        make_identity_tensor, make_smem_ptr, make_tensor,
    };
    pub use super::tuple::{IntTuple, Product, RankDepth, Tuple, depth_of, product, rank_of};
    pub use super::tuple::{Underscore, X};
    pub use crate::layout;
    pub use device::cp_async::{cp_async_fence, cp_async_wait};
    pub use device::tma::{tma_store_arrive, tma_store_fence, tma_store_wait};
}

/// Builds a typed layout from CuTe-like text: `layout!((m, _8):(_1, ld))`. Static leaves are the
/// named constants `_N` (or `Int::<N>::new()`), dynamic leaves any integer expression (literals
/// included: `layout!((4, _8):(_8, 1))` has dynamic `4` and `1`). Shape and stride must be
/// congruent (a compile error otherwise).
///
/// ```
/// use layout_types::cute::prelude::*;
/// let n = 7usize;
/// assert_eq!(layout!((n, _8):(_8, _1)).to_string(), "(7,_8):(_8,_1)");
/// assert_eq!(layout!((_4, (_2, _8)):(_16, (_1, _2))).to_string(), "(_4,(_2,_8)):(_16,(_1,_2))");
/// ```
#[macro_export]
macro_rules! layout {
    ($shape:tt : $stride:tt) => {{
        #[allow(unused_imports)]
        use $crate::cute::consts::*;
        $crate::cute::layout::make_layout($shape, $stride)
    }};
}
