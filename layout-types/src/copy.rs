//! Tiled copies: thread-value (TV) layouts built from a thread layout and a value layout, as
//! CuTe's `make_tiled_copy` does, and the per-thread partitioning they imply.
//!
//! ```
//! use layout_types::{DynLayout, copy::TvLayout};
//! let thr: DynLayout = "(_8,_4):(_1,_8)".parse().unwrap();
//! let val: DynLayout = "(_8,_1):(_1,_0)".parse().unwrap();
//! let tv = TvLayout::new(&thr, &val).unwrap();
//! assert_eq!(tv.layout_tv.to_string(), "(_32,_8):(_8,_1)");
//! assert_eq!(tv.tiler.to_string(), "(_64,_4)");
//! ```

use crate::algebra::{composition, right_inverse};
use crate::int_tuple::IntTuple;
use crate::product::raked_product;
use crate::{DynLayout, Error, tri};

/// The layouts of a TiledCopy: `(thr, val) -> (m, n)` and the `(M, N)` tile it covers.
#[derive(Clone, Copy, Debug)]
pub struct TvLayout {
    /// `TiledLayout_TV`: `(thread index, value index) -> index in the (M,N) tile` (column-major).
    pub layout_tv: DynLayout,
    /// `Tiler_MN`: the shape of the tile one copy step covers.
    pub tiler: IntTuple,
    /// Number of threads.
    pub threads: i64,
    /// Values per thread.
    pub values: i64,
}

impl TvLayout {
    /// CuTe's `make_tiled_copy(atom, thr_layout, val_layout)`: `layout_mn = raked_product(thr, val)`,
    /// `layout_tv = right_inverse(layout_mn).with_shape(size(thr), size(val))`,
    /// `tiler = product_each(shape(layout_mn))`.
    pub const fn new(thr: &DynLayout, val: &DynLayout) -> Result<TvLayout, Error> {
        let mn = tri!(raked_product(thr, val));
        let inv = right_inverse(&mn);
        let tv_shape = IntTuple::pair(&IntTuple::leaf(thr.size()), &IntTuple::leaf(val.size()));
        let tv = tri!(composition(&inv, &DynLayout::make_layout(&tv_shape, false)));
        Ok(TvLayout {
            layout_tv: tv,
            tiler: mn.shape.product_each(),
            threads: thr.size().v,
            values: val.size().v,
        })
    }
}
