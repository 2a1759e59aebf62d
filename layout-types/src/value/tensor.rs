//! Tensors: an engine (a pointer, an offset, or a counting "identity" engine) and a layout, with
//! CuTe's slicing, `local_tile` and `local_partition`.
//!
//! ```
//! use layout_types::{value::layout::DynLayout, value::tensor::{Tensor, Offset}, text::parse::parse_tiler};
//! // A 6x10 row-major matrix with leading dimension 12, as an offset tensor.
//! let a = Tensor::new(Offset(0), "(6,10):(12,_1)".parse::<DynLayout>().unwrap());
//! let t = a.local_tile(&parse_tiler("(_2,_4)").unwrap(), &"(1,2)".parse().unwrap()).unwrap();
//! assert_eq!(t.layout.to_string(), "(_2,_4):(12,_1)");
//! assert_eq!(t.engine.0, 2 * 12 + 8);
//! ```

use crate::value::algebra::Tiler;
use crate::value::int_tuple::IntTuple;
use crate::{Error, tri, value::layout::DynLayout, value::partition};
use core::fmt;

/// What a tensor's layout indexes: something that can be advanced by an offset.
pub trait Engine: Copy {
    /// The engine moved by `off` elements.
    fn advance(self, off: i64) -> Self;
}

/// A bare offset (a tensor over "some buffer", as the layout algebra sees it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Offset(pub i64);
impl Engine for Offset {
    #[inline(always)]
    fn advance(self, off: i64) -> Self {
        Offset(self.0 + off)
    }
}
impl<T> Engine for *const T {
    #[inline(always)]
    fn advance(self, off: i64) -> Self {
        self.wrapping_offset(off as isize)
    }
}
impl<T> Engine for *mut T {
    #[inline(always)]
    fn advance(self, off: i64) -> Self {
        self.wrapping_offset(off as isize)
    }
}

/// The engine of CuTe's identity (counting) tensor. CuTe gives the identity layout basis strides
/// (`E<0>`, `E<1>`, ...) so offsets never carry from one mode into the next; here each mode `k` of
/// a flat shape gets stride `2^(20k)` (a radix large enough for extents below 2^20, 3 modes at
/// most), and [`Tensor::coord`] reads the digits back. Partition it exactly like the data tensor
/// to learn each element's coordinate, for predication.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counting {
    /// Rank of the counted shape.
    pub rank: usize,
    /// Current (radix-encoded) coordinate.
    pub base: i64,
}
/// Bits per mode of the [`Counting`] radix.
pub const COUNT_BITS: u32 = 20;
impl Engine for Counting {
    #[inline(always)]
    fn advance(self, off: i64) -> Self {
        Counting {
            rank: self.rank,
            base: self.base + off,
        }
    }
}

/// A tensor: engine plus layout (CuTe's `Tensor<Engine, Layout>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tensor<E> {
    /// Where coordinate 0 is.
    pub engine: E,
    /// Coordinates to offsets.
    pub layout: DynLayout,
}

impl<E: Engine> Tensor<E> {
    /// `make_tensor(engine, layout)`.
    ///
    /// ```
    /// use layout_types::value::tensor::{Tensor, Offset};
    /// let t = Tensor::new(Offset(3), "(4,3):(_1,4)".parse().unwrap());
    /// assert_eq!(t.engine, Offset(3));
    /// assert_eq!(t.to_string(), "Offset(3) o (4,3):(_1,4)");
    /// ```
    pub const fn new(engine: E, layout: DynLayout) -> Tensor<E> {
        Tensor { engine, layout }
    }
    /// The offset of a coordinate (`tensor.layout()(coord)`), relative to the engine.
    ///
    /// ```
    /// use layout_types::value::tensor::{Tensor, Offset};
    /// let t = Tensor::new(Offset(5), "(4,3):(_1,4)".parse().unwrap());
    /// assert_eq!(t.offset_of(&"(1,2)".parse().unwrap()), Ok(9));
    /// ```
    pub const fn offset_of(&self, coord: &IntTuple) -> Result<i64, Error> {
        tri!(partition::check_in_bounds(coord, &self.layout.shape));
        match self.layout.try_crd2idx(coord) {
            Ok(v) => Ok(v.v),
            Err(e) => Err(e),
        }
    }
    /// The engine at a 1-D coordinate (`&tensor(i)`).
    ///
    /// ```
    /// use layout_types::value::tensor::{Tensor, Offset};
    /// let t = Tensor::new(Offset(10), "(4,3):(3,_1)".parse().unwrap()); // row-major 4x3
    /// assert_eq!(t.at(5), Offset(10 + 3 + 1)); // 1-D coordinate 5 is (1,1)
    /// let buf = [0u8; 12];
    /// let p = Tensor::new(buf.as_ptr(), "(4,3):(3,_1)".parse().unwrap());
    /// assert_eq!(p.at(5), buf[4..].as_ptr());
    /// ```
    pub fn at(&self, i: i64) -> E {
        self.engine.advance(self.layout.call(i))
    }
    /// `tensor(coord)` with `_` in some modes: the sub-tensor over those modes.
    ///
    /// ```
    /// use layout_types::value::tensor::{Tensor, Offset};
    /// let t = Tensor::new(Offset(0), "(4,3):(_1,4)".parse().unwrap());
    /// let col = t.slice(&"(_,2)".parse().unwrap()).unwrap();
    /// assert_eq!((col.layout.to_string().as_str(), col.engine.0), ("(4):(_1)", 8));
    /// ```
    pub fn slice(&self, coord: &IntTuple) -> Result<Tensor<E>, Error> {
        if !coord.weakly_congruent_under(&self.layout.shape) {
            return Err(Error::new(
                "slice: the coordinate is not congruent with the tensor's shape",
            ));
        }
        partition::check_in_bounds(coord, &self.layout.shape)?;
        let (l, off) = self.layout.slice_and_offset(coord);
        Ok(Tensor {
            engine: self.engine.advance(off.v),
            layout: l,
        })
    }
    /// `local_tile(tensor, tiler, coord)`: the tile of shape `tiler` at tile coordinate `coord`
    /// (see [`partition::local_tile`]; `coord` may hold `_` to keep the rest modes).
    ///
    /// ```
    /// use layout_types::{value::tensor::{Tensor, Offset}, text::parse::parse_tiler};
    /// // a 6x10 row-major matrix (leading dimension 12) in 2x4 tiles: 3x3, the last column partial
    /// let a = Tensor::new(Offset(0), "(6,10):(12,_1)".parse().unwrap());
    /// let col = a.local_tile(&parse_tiler("(_2,_4)").unwrap(), &"(_,1)".parse().unwrap()).unwrap();
    /// // tile column 1 (columns 4..8), its 3 tiles down M 2 rows (24 elements) apart
    /// assert_eq!((col.layout.to_string().as_str(), col.engine.0), ("(_2,_4,3):(12,_1,24)", 4));
    /// ```
    pub fn local_tile(&self, tiler: &Tiler, coord: &IntTuple) -> Result<Tensor<E>, Error> {
        let (l, off) = partition::local_tile(&self.layout, tiler, coord, None)?;
        Ok(Tensor {
            engine: self.engine.advance(off.v),
            layout: l,
        })
    }
    /// `local_partition(tensor, thr_layout, thr_idx)`: thread `idx`'s elements.
    ///
    /// ```
    /// use layout_types::value::tensor::{Tensor, Offset};
    /// let t = Tensor::new(Offset(0), "(_8,_4):(_1,_8)".parse().unwrap());
    /// let p = t.local_partition(&"(_4,_2):(_1,_4)".parse().unwrap(), 5).unwrap();
    /// assert_eq!(p.layout.to_string(), "(_2,_2):(_4,_16)");
    /// assert_eq!(p.engine.0, 1 + 8);
    /// ```
    pub fn local_partition(&self, thr: &DynLayout, idx: i64) -> Result<Tensor<E>, Error> {
        let (l, off) = partition::local_partition(&self.layout, thr, idx, None)?;
        Ok(Tensor {
            engine: self.engine.advance(off.v),
            layout: l,
        })
    }
}

/// `make_identity_tensor(shape)`: a counting tensor whose element at each coordinate is that
/// coordinate; tile and partition it like the data tensor and compare with the bounds.
///
/// ```
/// use layout_types::{value::tensor::make_identity_tensor, text::parse::parse_tiler};
/// let c = make_identity_tensor(&"(5,7)".parse().unwrap());
/// let tile = c.local_tile(&parse_tiler("(_4,_4)").unwrap(), &"(1,1)".parse().unwrap()).unwrap();
/// assert_eq!(tile.coord(0).to_string(), "(4,4)");
/// assert_eq!(tile.coord(5).to_string(), "(5,5)"); // out of bounds in mode 0: predicated off
/// assert!(!tile.in_bounds(5, &"(5,7)".parse().unwrap()));
/// ```
pub fn make_identity_tensor(shape: &IntTuple) -> Tensor<Counting> {
    let flat = shape.flatten_to_tuple();
    assert!(flat.rank() <= 3, "make_identity_tensor: at most 3 modes");
    let mut stride = IntTuple::empty();
    let mut k = 0;
    while k < flat.rank() {
        assert!(
            flat.get(k).val().v < 1 << COUNT_BITS,
            "make_identity_tensor: extent too large"
        );
        stride.push(&IntTuple::dy(1i64 << (COUNT_BITS * k as u32)));
        k += 1;
    }
    Tensor {
        engine: Counting {
            rank: flat.rank(),
            base: 0,
        },
        layout: DynLayout::raw(flat, stride),
    }
}

impl Tensor<Counting> {
    /// The coordinate held at 1-D coordinate `i` (as a flat tuple).
    ///
    /// ```
    /// use layout_types::value::tensor::make_identity_tensor;
    /// let c = make_identity_tensor(&"(5,7)".parse().unwrap());
    /// assert_eq!(c.coord(0).to_string(), "(0,0)");
    /// assert_eq!(c.coord(6).to_string(), "(1,1)"); // 6 = 1 + 5·1
    /// ```
    pub fn coord(&self, i: i64) -> IntTuple {
        let e = self.at(i);
        let mut c = IntTuple::empty();
        let mut k = 0;
        while k < e.rank {
            c.push(&IntTuple::dy(
                (e.base >> (COUNT_BITS * k as u32)) & ((1 << COUNT_BITS) - 1),
            ));
            k += 1;
        }
        c
    }
    /// Whether the coordinate at `i` lies inside `bounds` (CuTe's `elem_less(coord, shape)`).
    ///
    /// ```
    /// use layout_types::{value::tensor::make_identity_tensor, text::parse::parse_tiler};
    /// let bounds = "(5,7)".parse().unwrap();
    /// let c = make_identity_tensor(&bounds);
    /// // the 4x4 tile at tile coordinate (0,1): columns 4..8, of which 7 is past the 7 columns
    /// let tile = c.local_tile(&parse_tiler("(_4,_4)").unwrap(), &"(0,1)".parse().unwrap()).unwrap();
    /// let (i, j) = (3 + 4 * 2, 3 + 4 * 3); // row 3, tile columns 2 and 3
    /// assert_eq!((tile.coord(i).to_string(), tile.coord(j).to_string()), ("(3,6)".into(), "(3,7)".into()));
    /// assert!(tile.in_bounds(i, &bounds) && !tile.in_bounds(j, &bounds));
    /// ```
    pub fn in_bounds(&self, i: i64, bounds: &IntTuple) -> bool {
        let c = self.coord(i);
        let b = bounds.flatten_to_tuple();
        let mut k = 0;
        while k < c.rank() {
            if c.get(k).val().v >= b.get(k).val().v {
                return false;
            }
            k += 1;
        }
        true
    }
}

impl<E: fmt::Debug> fmt::Display for Tensor<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} o {}", self.engine, self.layout)
    }
}
