//! The TMA copy family's shared-memory box, shared with the host: `kernels/tma` declares it as
//! its `config` module and `host/src/copy.rs` includes this file (`#[path]`), so the kernels'
//! atoms and the host's tensor maps are one type. `no_std`, layout-types only.

use layout_types::cute::consts::_1;
use layout_types::cute::layout::Layout;
use layout_types::cute::swizzle::Swizzled;
use layout_types::value::swizzle::Swizzle;

/// The box of a TMA copy: `(BoxC, BoxS):(1, BoxC)`, the contiguous extent `C` first, no
/// swizzle, coordinates `(c, s)` of the matrices in TMA order (`B4`'s `128 × 32`, `B2`'s
/// `256 × 32`).
///
/// ```
/// use host::copy::config::CopyBox;
/// use layout_types::cute::prelude::*;
/// assert_eq!(CopyBox::<_128, _32>::default().to_string(), "Sw<0,4,3> o _0 o (_128,_32):(_1,_128)");
/// ```
pub type CopyBox<BoxC, BoxS> = Swizzled<Swizzle<0, 4, 3>, Layout<(BoxC, BoxS), (_1, BoxC)>>;
